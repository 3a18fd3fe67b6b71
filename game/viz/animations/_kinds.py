"""Which animations fit a transcript, known without loading matplotlib.

The players are asked what they declare, never their names (as the figures
are, :mod:`game.viz.plots`): the learner class's ``proof`` and the instances
the game was played on.

Examples
--------
>>> from game import load_scenario
>>> animations_for(load_scenario("halving_lower_bound").play())
['halving']
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from game.errors import GameError
from game.players import lookup, parameters
from game.scenario import scenario_from_dict
from game.viz._figure_kinds import ANIMATION_KINDS
from game.viz.plots import walked_tree

__all__ = [
    "animations_for",
    "concept_matrix",
    "expert_matrix",
    "learner_proof",
    "player_class",
    "player_params",
]


#: The proofs whose learner keeps a halfspace w (its line is drawn turning).
HALFSPACE_PROOFS = frozenset({"perceptron", "margin-perceptron"})
#: The proofs whose learner weighs experts (its weights are drawn as bars).
WEIGHT_PROOFS = frozenset(
    {"weighted-majority", "randomized-weighted-majority", "exponential-weights"}
)

#: What each animation needs, for the error when a transcript has none of them.
NEEDS = {
    "perceptron": "a learner of the Perceptron family (its class declares proof = 'perceptron' "
    "or 'margin-perceptron') on instances of dimension 2",
    "halving": "a Halving learner (proof = 'halving') on advice vectors, or on the points of "
    "a finite class recorded in the transcript's scenario",
    "tree": "a game against an adversary that walks a Littlestone tree, played from a "
    "scenario (its header records how to rebuild the tree)",
    "weights": "a learner that weighs experts (proof = 'weighted-majority', "
    "'randomized-weighted-majority' or 'exponential-weights') on advice vectors, or on the "
    "points of a finite class recorded in the transcript's scenario",
}


def player_params(transcript, role: str) -> dict:
    """The recorded constructor parameters of the learner or adversary."""
    params = (transcript.header.get(role) or {}).get("params", {})
    return params if isinstance(params, dict) else {}


def player_class(transcript, role: str) -> type | None:
    """The registered class of a recorded player; None for a name not registered."""
    name = str((transcript.header.get(role) or {}).get("name", role))
    if ":" in name:  # an unregistered player, recorded by its import path: never imported
        return None
    try:
        return lookup(name)
    except GameError:
        return None


def concept_matrix(transcript) -> np.ndarray | None:
    """The ±1 matrix of the finite class of the scenario recorded in the header, or None.

    Its ``[concept_class]`` table, else a concept-class parameter of a player
    (as the figures read it).
    """
    meta = transcript.header.get("scenario")
    if not isinstance(meta, dict) or not isinstance(meta.get("spec"), dict):
        return None
    try:
        scenario = scenario_from_dict(meta["spec"], source=Path(str(meta.get("path", "<s>"))))
        cls = scenario.concept_class() if "concept_class" in scenario.spec else None
        for role in ("learner", "adversary"):
            if cls is not None:
                break
            player, kwargs = scenario.player_spec(role)
            declared = [p["name"] for p in parameters(player) if p["supplied"] == "concept_class"]
            if declared and declared[0] in kwargs:
                cls = kwargs[declared[0]]
    except GameError:
        return None
    if cls is None:
        return None
    matrix = np.asarray(getattr(cls, "matrix", cls))
    return matrix if matrix.ndim == 2 else None


def learner_proof(transcript) -> str | None:
    """The proof the learner's class declares (its ``proof``), found through the registry."""
    proof = getattr(player_class(transcript, "learner"), "proof", None)
    return proof if isinstance(proof, str) else None


def expert_matrix(transcript) -> np.ndarray | None:
    """The experts' advice round by round, a (T, N) float array; None when there is none.

    Advice vectors are read as they were recorded; the points of a finite class
    become its hypotheses' labels of them, the class read from the scenario
    recorded in the header.
    """
    if len(transcript) == 0:
        return None
    first = transcript.raw_instances[0]
    if np.ndim(first) == 1:
        try:
            return np.asarray(transcript.instances, dtype=np.float64).reshape(len(transcript), -1)
        except (TypeError, ValueError):
            return None
    matrix = concept_matrix(transcript)
    if matrix is None:
        return None
    points = np.asarray([int(x) for x in transcript.raw_instances])
    if points.min() < 0 or points.max() >= matrix.shape[1]:
        return None
    return np.asarray(matrix, dtype=np.float64)[:, points].T


def _fits(transcript, kind: str) -> bool:
    proof = learner_proof(transcript)
    if kind == "perceptron":
        if proof not in HALFSPACE_PROOFS or len(transcript) == 0:
            return False
        first = transcript.raw_instances[0]
        presents = getattr(player_class(transcript, "adversary"), "presents", None)
        return presents != "advice" and np.shape(first) == (2,)
    if kind == "halving":
        return proof == "halving" and expert_matrix(transcript) is not None
    if kind == "weights":
        return proof in WEIGHT_PROOFS and expert_matrix(transcript) is not None
    return walked_tree(transcript) is not None


def animations_for(transcript) -> list[str]:
    """The animations that fit a transcript, in the order of :data:`ANIMATION_KINDS`.

    ``"perceptron"`` for a learner of the Perceptron family on 2-D instances;
    ``"halving"`` for Halving on experts; ``"tree"`` for a game against an
    adversary that walks a Littlestone tree (rebuilt from the scenario recorded
    in the header); ``"weights"`` for Weighted Majority (randomised or not) and
    Exponential Weights on experts.
    """
    return [kind for kind in ANIMATION_KINDS if _fits(transcript, kind)]


def check_fits(transcript, kind: str) -> None:
    """A :class:`GameError` saying what ``kind`` needs when the transcript is not such a game."""
    if not _fits(transcript, kind):
        fitting = animations_for(transcript)
        which = f"; this one has: {', '.join(fitting)}" if fitting else ""
        raise GameError(f"the {kind} animation needs {NEEDS[kind]}{which}")
