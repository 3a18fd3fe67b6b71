"""Hypothesis strategies for property tests of bounds, the project's and users' own.

Requires the ``testing`` extra (hypothesis). Submodules hold one family each; this
package re-exports their public names.
"""

from game.testing.strategies._boolean import (
    bit_vectors,
    boolean_concepts,
    conjunctions,
    decision_lists,
    disjunctions,
    literals,
    realizable_sequences,
)
from game.testing.strategies._experts import (
    ExpertGame,
    best_expert_games,
    graded_games,
    perfect_expert_games,
)
from game.testing.strategies._finite import (
    any_finite_class,
    finite_classes,
    point_sequences,
    structured_classes,
)
from game.testing.strategies._linear import (
    LinearSequence,
    SequenceAdversary,
    noisy_sequences,
    separable_sequences,
    unit_vectors,
)

__all__: list[str] = [
    "ExpertGame",
    "LinearSequence",
    "SequenceAdversary",
    "any_finite_class",
    "best_expert_games",
    "bit_vectors",
    "boolean_concepts",
    "conjunctions",
    "decision_lists",
    "disjunctions",
    "finite_classes",
    "graded_games",
    "literals",
    "noisy_sequences",
    "perfect_expert_games",
    "point_sequences",
    "realizable_sequences",
    "separable_sequences",
    "structured_classes",
    "unit_vectors",
]
