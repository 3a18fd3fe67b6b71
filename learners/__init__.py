"""Learners: players that predict in [-1, 1] and learn from the revealed label.

Each learner's module is imported when its name is first used (``from learners
import Perceptron`` loads ``learners.perceptron`` alone), so a game loads only
what its players need.

Examples
--------
>>> from learners import Perceptron
>>> Perceptron().deterministic
True
"""

from game.players import lazy_names as _lazy_names

#: Where each public name lives; a module is imported when one of its names is first
#: asked for, so a game loads only its own players' modules (and what they import).
_WHERE = {
    "BatchPerceptron": "learners.batch",
    "ConjunctionLearner": "learners.boolean",
    "DecisionListLearner": "learners.boolean",
    "ExponentialWeights": "learners.experts",
    "Halving": "learners.experts",
    "MarginPerceptron": "learners.margin",
    "MinimaxForecaster": "learners.minimax",
    "OnlineGradientDescent": "learners.ogd",
    "Perceptron": "learners.perceptron",
    "RandomizedWeightedMajority": "learners.experts",
    "SOA": "learners.soa",
    "WeightedMajority": "learners.experts",
    "Winnow": "learners.boolean",
    "tuned_eta": "learners.experts",
}

__all__ = [
    "SOA",
    "BatchPerceptron",
    "ConjunctionLearner",
    "DecisionListLearner",
    "ExponentialWeights",
    "Halving",
    "MarginPerceptron",
    "MinimaxForecaster",
    "OnlineGradientDescent",
    "Perceptron",
    "RandomizedWeightedMajority",
    "WeightedMajority",
    "Winnow",
    "tuned_eta",
]


__getattr__, __dir__ = _lazy_names(__name__, _WHERE)
