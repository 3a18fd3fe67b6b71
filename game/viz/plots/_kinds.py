"""What kind of game a transcript holds, as the figures need to know.

A transcript names its players in its header; the registry (never a module path
from the file) turns a name back into a class, and the figures ask the class
what it declares: ``presents`` (an adversary) and ``plays`` (a learner), the
instances the game was played on; ``proof`` (a learner), the proof its
snapshots follow; ``bound_curve`` (a learner), its theorem after every round.
No figure tells players apart by their names.

A game is one of **prediction with expert advice** when its certificate names an
expert (:class:`~game.theory.ExpertCertificate`), when its adversary
presents advice vectors, or when its learner plays nothing but advice vectors
and points of a finite class (Halving, Weighted Majority, Exponential Weights).

Examples
--------
>>> import numpy as np
>>> from game import play
>>> from learners import Perceptron
>>> from adversaries import SeparableStream
>>> tr = play(Perceptron(), SeparableStream(3, 0.2, 1.0, np.random.default_rng(0)), rounds=20)
>>> is_expert_game(tr), instance_kind(tr)
(False, 'vector')
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np

from game.errors import GameError
from game.players import lookup, parameters
from game.scenario import scenario_from_dict
from game.theory import ExpertCertificate

__all__ = [
    "concept_matrix",
    "expert_count",
    "instance_kind",
    "is_expert_game",
    "player_class",
    "player_name",
    "player_params",
    "scenario_of",
    "walked_tree",
]

_EXPERT_KINDS = frozenset({"advice", "point"})


def player_name(transcript, role: str) -> str:
    """The registry name of the learner or adversary recorded in the header."""
    return str((transcript.header.get(role) or {}).get("name", role))


def player_params(transcript, role: str) -> dict:
    """The recorded constructor parameters of the learner or adversary."""
    params = (transcript.header.get(role) or {}).get("params", {})
    return params if isinstance(params, dict) else {}


def player_class(transcript, role: str) -> type | None:
    """The registered class of a recorded player, or None when the name is not registered."""
    name = player_name(transcript, role)
    if ":" in name:  # an unregistered player, recorded by its import path: never imported
        return None
    try:
        return lookup(name)
    except GameError:
        return None


def instance_kind(transcript) -> str | None:
    """The kind of instance the game was played on (see ``game.protocol.INSTANCE_KINDS``).

    The adversary's ``presents`` when the registry knows it, else None.
    """
    cls = player_class(transcript, "adversary")
    kind = getattr(cls, "presents", None)
    return kind if isinstance(kind, str) else None


def is_expert_game(transcript) -> bool:
    """Whether the game is one of prediction with expert advice (see the module's text)."""
    if isinstance(transcript.certificate, ExpertCertificate):
        return True
    if instance_kind(transcript) == "advice":
        return True
    plays: Any = getattr(player_class(transcript, "learner"), "plays", None)
    return isinstance(plays, frozenset) and bool(plays) and plays <= _EXPERT_KINDS


def expert_count(transcript, matrix=None) -> int:
    """N: the rows of ``matrix``, else the length of the first advice vector."""
    if matrix is not None:
        return int(np.shape(matrix)[0])
    if len(transcript) == 0:
        raise GameError("the game has no rounds: the number of experts is unknown")
    shape = np.shape(transcript.raw_instances[0])
    if len(shape) != 1:
        raise GameError(
            "the instances are not advice vectors; for a game over a finite class "
            "pass the class's matrix (matrix=cls.matrix)"
        )
    return int(shape[0])


def scenario_of(transcript):
    """The scenario a transcript's header records (its spec, as data), or None.

    A game played from a scenario file keeps the scenario's tables in its
    header; they are validated again here, so players are named only through
    the registry. Data files are looked for beside the recorded scenario path.
    """
    meta = transcript.header.get("scenario")
    if not isinstance(meta, dict) or not isinstance(meta.get("spec"), dict):
        return None
    try:
        return scenario_from_dict(meta["spec"], source=Path(str(meta.get("path", "<scenario>"))))
    except GameError:
        return None


def concept_matrix(transcript):
    """The ±1 matrix of the finite class a game was played over, or None.

    Read from the scenario recorded in the header: its ``[concept_class]``
    table, else a ``concept_class`` parameter of the learner or the adversary.
    """
    scenario = scenario_of(transcript)
    if scenario is None:
        return None
    try:
        if "concept_class" in scenario.spec:
            cls = scenario.concept_class()
        else:
            cls = None
            for role in ("learner", "adversary"):
                player, kwargs = scenario.player_spec(role)
                declared = [
                    p["name"] for p in parameters(player) if p["supplied"] == "concept_class"
                ]
                if declared and declared[0] in kwargs:
                    cls = kwargs[declared[0]]
                    break
    except GameError:
        return None
    if cls is None:
        return None
    matrix = np.asarray(getattr(cls, "matrix", cls))
    return matrix if matrix.ndim == 2 else None


def walked_tree(transcript) -> Any:
    """The tree the game's adversary walked (a ``networkx.DiGraph``), rebuilt from its scenario.

    The scenario recorded in the transcript's header builds the adversary again
    (with the game's seed); an adversary that walks a Littlestone tree holds it
    as its ``tree``.

    Returns
    -------
    networkx.DiGraph or None
        None when the game has no recorded scenario or its adversary holds no tree.

    Examples
    --------
    >>> from game import load_scenario
    >>> from game.viz.plots import draw_tree
    >>> walk = load_scenario("scenarios/tree_halving.toml").play()
    >>> tree = walked_tree(walk)
    >>> tree.number_of_nodes() > len(walk)
    True
    >>> "the walk" in draw_tree(tree, transcript=walk).axes[0].get_title()
    True
    """
    scenario = scenario_of(transcript)
    if scenario is None:
        return None
    try:
        _, adversary = scenario.build(transcript.header.get("seed"))
    except GameError:
        return None
    tree = getattr(adversary, "tree", None)
    nx = sys.modules.get("networkx")  # an adversary that holds a tree has loaded it
    return tree if nx is not None and isinstance(tree, nx.DiGraph) else None
