"""Adversaries: players that choose instances and labels, and certify them.

Each adversary's module is imported when its name is first used (``from
adversaries import Replay`` loads ``adversaries.replay`` alone), so a game loads
only what its players need: the Littlestone trees' networkx, for one, only for
the adversaries that walk a tree.

Examples
--------
>>> import numpy as np
>>> from adversaries import SeparableStream
>>> SeparableStream(4, 0.1, rng=np.random.default_rng(0)).certificate().realizable
True
"""

from game.players import lazy_names as _lazy_names

#: Where each public name lives; a module is imported when one of its names is first
#: asked for, so a game loads only its own players' modules (and what they import).
_WHERE = {
    "AdviceReplay": "adversaries.experts",
    "ConceptStream": "adversaries.concepts",
    "ConjunctionLowerBound": "adversaries.conjunction",
    "ExpertStream": "adversaries.experts",
    "ForcingAdversary": "adversaries.forcing",
    "HalfspaceTreeAdversary": "adversaries.trees",
    "HalvingLowerBound": "adversaries.halving",
    "MinimaxRegretAdversary": "adversaries.regret",
    "MisclassifiedPicker": "adversaries.picker",
    "NoisyStream": "adversaries.noisy",
    "OptimalAdversary": "adversaries.optimal",
    "OrthogonalAdversary": "adversaries.perceptron",
    "RegretForcingAdversary": "adversaries.regret",
    "Replay": "adversaries.replay",
    "SeparableStream": "adversaries.streams",
    "TreeAdversary": "adversaries.trees",
    "TwoConstantExperts": "adversaries.experts",
}

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


__getattr__, __dir__ = _lazy_names(__name__, _WHERE)
