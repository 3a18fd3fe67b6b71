"""Adversaries that walk a shattered tree, answering the opposite of every prediction.

Lemma 21.6 of Shalev-Shwartz & Ben-David §21.1.1 (the chapter of seed 000):
along a tree the class shatters, the adversary presents the node's instance
and answers the opposite of the learner's prediction; every path is realised
by some hypothesis, so the labels stay realisable while every round is a
mistake. :class:`TreeAdversary` walks a finite tree (by default the class's
own :func:`game.theory.littlestone.littlestone_tree`); :class:`HalfspaceTreeAdversary`
walks the infinite §21.4 tree (seed 000) of halfspaces, bisecting as it goes.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

import attrs
import networkx as nx
import numpy as np

from game.errors import ParameterError, check_instance
from game.players import Footprint, concept_class_field, integer_at_least
from game.theory import Certificate, ExpertCertificate, HalfspaceCertificate
from game.theory.bounds import (
    Bound,
    expected_tree_lower_bound,
    halfspace_tree_lower_bound,
    shattered_tree_lower_bound,
)
from game.theory.concepts import FiniteClass
from game.theory.littlestone import (
    is_shattered,
    littlestone_tree,
    tree_children,
    tree_depth,
    tree_root,
)

__all__ = ["HalfspaceTreeAdversary", "TreeAdversary"]


def _graph(instance, attribute, value) -> None:
    if value is not None:
        check_instance(attribute.alias, value, nx.DiGraph, "a networkx.DiGraph")


@attrs.define(eq=False, on_setattr=attrs.setters.NO_OP)
class TreeAdversary:
    """Walks a shattered tree: presents each node's instance, answers against the prediction.

    Parameters
    ----------
    tree : networkx.DiGraph, optional
        A complete binary tree in :mod:`game.theory.littlestone`'s format. Default:
        ``littlestone_tree(concept_class)``, of depth Ldim(H).
    concept_class : FiniteClass, optional
        The class the tree's instances are points of; needed when the tree is
        not given, and when its leaves' witnesses are hypothesis indices. When
        given, the tree must be shattered by it.
    advice : bool, default False
        Present each point as the advice of the class's hypotheses, one expert
        per hypothesis (the column of the class's matrix, floats ±1), so expert
        learners (Halving, Weighted Majority, the randomised ones) can be
        walked; the certificate is then the witness as an expert.
    randomised : bool, default False
        Claim the bound for every learner, randomised ones too: expected
        mistakes ≥ depth/2, counted from the learner's declared predictions
        (:func:`~game.theory.bounds.expected_tree_lower_bound`), instead of
        depth mistakes for a deterministic learner.

    Notes
    -----
    The game ends at a leaf, after ``depth`` rounds, every one of them a
    mistake for a deterministic learner (sign(0) = +1). The certificate is the
    witness of the leaf reached (a hypothesis of the class, or a halfspace for
    a tree whose witnesses are weight vectors); a game stopped early by its
    rounds hands over the witness of the leaf below the node reached along
    −1 edges, which agrees with the path so far.

    The label is the one the learner is less likely to predict: against a
    randomised learner's mixture p it costs ``(1 + |p|)/2`` expected mistakes a
    round, so any learner errs depth/2 times in expectation.

    Examples
    --------
    >>> import game
    >>> from game.theory.concepts import intervals
    >>> from learners import SOA, RandomizedWeightedMajority
    >>> H = intervals(8)
    >>> tr = game.play(SOA(H), TreeAdversary(concept_class=H), rounds=20)
    >>> s = tr.summary()
    >>> s["mistakes"], s["lower_bound"], s["certificate_verified"]
    (4, 4.0, True)

    A randomised learner over the class's hypotheses as experts:

    >>> import numpy as np
    >>> walk = TreeAdversary(concept_class=H, advice=True, randomised=True)
    >>> rwm = RandomizedWeightedMajority(rng=np.random.default_rng(0))
    >>> tr = game.play(rwm, walk, rounds=20)
    >>> round(tr.observed("expected mistakes"), 4), tr.lower_bound.value, tr.lower_bound.applies
    (2.3277, 2.0, True)
    """

    tree: nx.DiGraph | None = attrs.field(
        default=None,
        validator=_graph,
        metadata={"doc": "a shattered tree (networkx.DiGraph); default: the class's own"},
    )
    concept_class: FiniteClass | None = concept_class_field(
        "the finite class whose points the tree's instances are", required=False
    )
    advice: bool = attrs.field(
        default=False,
        validator=attrs.validators.instance_of(bool),
        metadata={"doc": "present each point as the advice of the class's hypotheses"},
    )
    randomised: bool = attrs.field(
        default=False,
        validator=attrs.validators.instance_of(bool),
        metadata={"doc": "claim depth/2 expected mistakes, for any learner"},
    )
    _node: Any = attrs.field(init=False, default=None, repr=False)
    _depth: int = attrs.field(init=False, default=0, repr=False)

    def __attrs_post_init__(self) -> None:
        if self.tree is None:
            if self.concept_class is None:
                raise ParameterError("concept_class", None, "given when the tree is not")
            self.tree = littlestone_tree(self.concept_class)
        if self.tree.number_of_nodes() == 0:
            raise ParameterError("tree", self.tree, "a tree with a node", "the class is empty")
        self._depth = tree_depth(self.tree)
        leaves_by_index = any(
            isinstance(w, int | np.integer)
            for _, w in self.tree.nodes(data="witness")
            if w is not None
        )
        if leaves_by_index and self.concept_class is None:
            raise ParameterError(
                "concept_class", None, "given when the tree's witnesses are hypothesis indices"
            )
        if self.concept_class is not None and not is_shattered(self.tree, self.concept_class):
            raise ParameterError("tree", self.tree, f"shattered by {self.concept_class!r}")
        if self.advice and (self.concept_class is None or self._presents_vectors()):
            raise ParameterError(
                "advice", True, "False unless the tree's instances are points of concept_class"
            )
        self._node = tree_root(self.tree)

    def _presents_vectors(self) -> bool:
        root = self.tree.nodes[tree_root(self.tree)].get("instance")
        return isinstance(root, np.ndarray | list | tuple)

    @property
    def depth(self) -> int:
        """The depth of the tree: the mistakes it forces."""
        return self._depth

    @property
    def presents(self) -> str:
        """ "vector" for a halfspace tree, "advice" with ``advice``, else "point"."""
        if self.advice:
            return "advice"
        return "vector" if self._presents_vectors() else "point"

    def instance(self, history) -> Any:
        """The current node's instance; None at a leaf."""
        if self.tree.out_degree(self._node) == 0:
            return None
        x = self.tree.nodes[self._node]["instance"]
        if self.advice:
            return self.concept_class.matrix[:, int(x)].astype(np.float64)
        if isinstance(x, np.integer):
            return int(x)
        if isinstance(x, np.ndarray):
            return x.copy()
        return x

    def label(self, x, p: float, history) -> int:
        """The opposite of the prediction (sign(0) = +1), the less likely one; down that edge."""
        y = -1 if p >= 0 else 1
        self._node = tree_children(self.tree, self._node)[y]
        return y

    def certificate(self) -> Certificate | None:
        """The witness of the leaf reached (or below the node reached, along −1 edges)."""
        node = self._node
        while self.tree.out_degree(node):
            node = tree_children(self.tree, node)[-1]
        witness = self.tree.nodes[node].get("witness")
        if witness is None:
            return None
        if isinstance(witness, Certificate):
            return witness
        if isinstance(witness, int | np.integer) and self.advice:
            return ExpertCertificate(int(witness), experts=self.concept_class.n_hypotheses)
        if isinstance(witness, int | np.integer):
            return self.concept_class.certificate(int(witness))
        return HalfspaceCertificate(np.asarray(witness, dtype=np.float64))

    def lower_bound(self) -> Bound:
        """Lemma 21.6: mistakes ≥ depth; ``randomised``: depth/2 expected mistakes, any learner."""
        if self.randomised:
            return expected_tree_lower_bound(self._depth)
        return shattered_tree_lower_bound(self._depth)


@attrs.define(eq=False, on_setattr=attrs.setters.NO_OP)
class HalfspaceTreeAdversary:
    """The §21.4 tree walk (seed 000): every deterministic learner errs every round.

    The halfspaces w = (−1, a, 0, …, 0), a ∈ [0, 1], label v = (q, 1, 0, …, 0)
    by sign(a − q). The adversary keeps the interval [lo, hi] of thresholds a
    consistent so far (initially [0, 1]), presents q = (lo + hi)/2 and answers
    the opposite of the prediction, which halves the interval: it walks the
    tree of :func:`game.theory.littlestone.halfspace_tree` down the path the learner
    chooses. The certificate is w with a the midpoint of the final interval;
    its margin on the rounds played, logged every round by ``extras()`` as
    ``margin``, is (hi − lo)/2 / ‖w‖ and halves every round. So no mistake bound
    exists for halfspaces: the Perceptron's (R/γ)² is finite every round but
    grows fourfold per round.

    Parameters
    ----------
    dimension : int, default 2
        2 ≤ d ≤ 2^20; the coordinates past the second are 0. A game records
        at most 52 instances of 8d bytes: 436 MB at d = 2^20.

    Notes
    -----
    The values are dyadic rationals, exact in floating point for
    :attr:`MAX_ROUNDS` = 52 rounds (a float holds 52 bits after the point's
    leading bit); the adversary ends the game there.

    Examples
    --------
    >>> import game
    >>> from learners import Perceptron
    >>> tr = game.play(Perceptron(), HalfspaceTreeAdversary(), rounds=30)
    >>> s = tr.summary()
    >>> s["mistakes"], s["certificate_verified"], s["within_bound"]
    (30, True, True)
    >>> tr.extras["margin"][:3].round(4).tolist()
    [0.2425, 0.117, 0.0573]
    """

    presents: ClassVar[str] = "vector"
    MAX_ROUNDS: ClassVar[int] = 52

    dimension: int = attrs.field(
        default=2,
        validator=integer_at_least(2, 2**20),
        metadata={"doc": "dimension d, 2 ≤ d ≤ 2^20 (the coordinates past the second are 0)"},
    )
    _lo: float = attrs.field(init=False, default=0.0, repr=False)
    _hi: float = attrs.field(init=False, default=1.0, repr=False)
    _q: float = attrs.field(init=False, default=0.5, repr=False)
    _t: int = attrs.field(init=False, default=0, repr=False)

    @classmethod
    def footprint(cls, params: dict, rounds: int) -> Footprint:
        """Its sizes (:func:`game.players.estimate`): 8d bytes a round, at most 52 rounds."""
        d = int(params.get("dimension", 2))
        return Footprint(instance=8 * d, entries=d, rounds=cls.MAX_ROUNDS, key="dimension")

    def instance(self, history) -> np.ndarray | None:
        """v = (q, 1, 0, …) with q the midpoint of the thresholds still consistent."""
        if self._t >= self.MAX_ROUNDS:
            return None
        self._q = (self._lo + self._hi) / 2
        x = np.zeros(int(self.dimension))
        x[0], x[1] = self._q, 1.0
        return x

    def label(self, x, p: float, history) -> int:
        """The opposite of the prediction; keeps the half of [lo, hi] that agrees."""
        y = -1 if p >= 0 else 1
        if y == 1:  # a > q
            self._lo = self._q
        else:
            self._hi = self._q
        self._t += 1
        return y

    def _weights(self) -> np.ndarray:
        w = np.zeros(int(self.dimension))
        w[0], w[1] = -1.0, (self._lo + self._hi) / 2
        return w

    def extras(self) -> dict[str, float]:
        """``margin``: the certificate's margin on the rounds so far, (hi − lo)/2 / ‖w‖."""
        w = self._weights()
        return {"margin": (self._hi - self._lo) / 2 / math.sqrt(1.0 + w[1] * w[1])}

    def certificate(self) -> HalfspaceCertificate:
        """w = (−1, a, 0, …) with a the midpoint of the thresholds consistent with every label."""
        return HalfspaceCertificate(self._weights())

    def lower_bound(self) -> Bound:
        """Every round played was forced to be a mistake."""
        return halfspace_tree_lower_bound(self._t)
