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

import importlib

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


def __getattr__(name: str):
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
