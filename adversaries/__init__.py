"""Adversaries: players that choose instances and labels, and certify them.

Examples
--------
>>> import numpy as np
>>> from adversaries import SeparableStream
>>> SeparableStream(4, 0.1, rng=np.random.default_rng(0)).certificate().realizable
True
"""

from adversaries.concepts import ConceptStream
from adversaries.conjunction import ConjunctionLowerBound
from adversaries.experts import AdviceReplay, ExpertStream, TwoConstantExperts
from adversaries.forcing import ForcingAdversary
from adversaries.halving import HalvingLowerBound
from adversaries.noisy import NoisyStream
from adversaries.optimal import OptimalAdversary
from adversaries.perceptron import OrthogonalAdversary
from adversaries.picker import MisclassifiedPicker
from adversaries.regret import MinimaxRegretAdversary, RegretForcingAdversary
from adversaries.replay import Replay
from adversaries.streams import SeparableStream
from adversaries.trees import HalfspaceTreeAdversary, TreeAdversary

__all__ = [
    "AdviceReplay",
    "ConceptStream",
    "ConjunctionLowerBound",
    "ExpertStream",
    "ForcingAdversary",
    "HalfspaceTreeAdversary",
    "HalvingLowerBound",
    "MinimaxRegretAdversary",
    "MisclassifiedPicker",
    "NoisyStream",
    "OptimalAdversary",
    "OrthogonalAdversary",
    "RegretForcingAdversary",
    "Replay",
    "SeparableStream",
    "TreeAdversary",
    "TwoConstantExperts",
]
