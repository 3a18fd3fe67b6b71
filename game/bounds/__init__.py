"""Each theorem of the sources as a function returning a :class:`Bound`.

Every function names its source (seed text, lecture, theorem number) in the
returned bound, so a summary says not only the number but where it comes from.

Examples
--------
>>> from game.bounds import block_novikoff
>>> print(block_novikoff(2.0, 0.5).value)
16.0
"""

from game.bounds.base import Bound
from game.bounds.boolean import (
    conjunction_bound,
    conjunction_lower_bound,
    decision_list_bound,
    winnow_bound,
)
from game.bounds.experts import (
    constant_experts_lower_bound,
    exponential_weights,
    exponential_weights_tuned,
    halving,
    halving_lower_bound,
    potential_slack,
    randomized_weighted_majority,
    weighted_majority,
)
from game.bounds.linear import (
    balcan_nonseparable,
    batch_perceptron,
    block_novikoff,
    margin_perceptron,
    ogd_regret,
    perceptron_hinge,
    total_distance,
)

__all__ = [
    "Bound",
    "balcan_nonseparable",
    "batch_perceptron",
    "block_novikoff",
    "conjunction_bound",
    "conjunction_lower_bound",
    "constant_experts_lower_bound",
    "decision_list_bound",
    "exponential_weights",
    "exponential_weights_tuned",
    "halving",
    "halving_lower_bound",
    "margin_perceptron",
    "ogd_regret",
    "perceptron_hinge",
    "potential_slack",
    "randomized_weighted_majority",
    "total_distance",
    "weighted_majority",
    "winnow_bound",
]
