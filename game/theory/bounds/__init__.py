"""Each theorem of the sources as a function returning a :class:`Bound`.

Every function names its source (seed text, lecture, theorem number) in the
returned bound, so a summary says not only the number but where it comes from.

Examples
--------
>>> from game.theory.bounds import block_novikoff
>>> print(block_novikoff(2.0, 0.5).value)
16.0
"""

from game.theory.bounds._base import (
    Bound,
    Hypothesis,
)
from game.theory.bounds._boolean import (
    CONJUNCTION_SOURCE,
    DECISION_LIST_SOURCE,
    LOWER_BOUND_SOURCE,
    WINNOW_SOURCES,
    conjunction_bound,
    conjunction_lower_bound,
    decision_list_bound,
    winnow_bound,
)
from game.theory.bounds._experts import (
    EXPONENTIAL_WEIGHTS_SOURCE,
    FORCED_REGRET_SOURCE,
    HALVING_SOURCE,
    MINIMAX_REGRET_SOURCE,
    RANDOMIZED_WEIGHTED_MAJORITY_SOURCE,
    WEIGHTED_MAJORITY_SOURCE,
    constant_experts_lower_bound,
    exponential_weights,
    exponential_weights_tuned,
    forced_regret_lower_bound,
    halving,
    halving_lower_bound,
    minimax_regret_bound,
    potential_slack,
    randomized_weighted_majority,
    weighted_majority,
)
from game.theory.bounds._linear import (
    MARGIN_SOURCE,
    balcan_nonseparable,
    batch_perceptron,
    block_novikoff,
    margin_perceptron,
    ogd_regret,
    perceptron_hinge,
    total_distance,
)
from game.theory.bounds._littlestone import (
    FORCED_SOURCE,
    HALFSPACE_TREE_SOURCE,
    LDIM_LOWER_SOURCE,
    SOA_SOURCE,
    deviation_lower_bound,
    expected_tree_lower_bound,
    forced_lower_bound,
    halfspace_tree_lower_bound,
    ldim_lower_bound,
    shattered_tree_lower_bound,
    soa_bound,
)

__all__ = [
    "CONJUNCTION_SOURCE",
    "DECISION_LIST_SOURCE",
    "EXPONENTIAL_WEIGHTS_SOURCE",
    "FORCED_REGRET_SOURCE",
    "FORCED_SOURCE",
    "HALFSPACE_TREE_SOURCE",
    "HALVING_SOURCE",
    "LDIM_LOWER_SOURCE",
    "LOWER_BOUND_SOURCE",
    "MARGIN_SOURCE",
    "MINIMAX_REGRET_SOURCE",
    "RANDOMIZED_WEIGHTED_MAJORITY_SOURCE",
    "SOA_SOURCE",
    "WEIGHTED_MAJORITY_SOURCE",
    "WINNOW_SOURCES",
    "Bound",
    "Hypothesis",
    "balcan_nonseparable",
    "batch_perceptron",
    "block_novikoff",
    "conjunction_bound",
    "conjunction_lower_bound",
    "constant_experts_lower_bound",
    "decision_list_bound",
    "deviation_lower_bound",
    "expected_tree_lower_bound",
    "exponential_weights",
    "exponential_weights_tuned",
    "forced_lower_bound",
    "forced_regret_lower_bound",
    "halfspace_tree_lower_bound",
    "halving",
    "halving_lower_bound",
    "ldim_lower_bound",
    "margin_perceptron",
    "minimax_regret_bound",
    "ogd_regret",
    "perceptron_hinge",
    "potential_slack",
    "randomized_weighted_majority",
    "shattered_tree_lower_bound",
    "soa_bound",
    "total_distance",
    "weighted_majority",
    "winnow_bound",
]
