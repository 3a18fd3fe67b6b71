"""Learners: players that predict in [-1, 1] and learn from the revealed label.

Examples
--------
>>> from learners import Perceptron
>>> Perceptron().deterministic
True
"""

from learners.batch import BatchPerceptron
from learners.boolean import ConjunctionLearner, DecisionListLearner, Winnow
from learners.experts import (
    ExponentialWeights,
    Halving,
    RandomizedWeightedMajority,
    WeightedMajority,
    tuned_eta,
)
from learners.margin import MarginPerceptron
from learners.minimax import MinimaxForecaster
from learners.ogd import OnlineGradientDescent
from learners.perceptron import Perceptron
from learners.soa import SOA

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
