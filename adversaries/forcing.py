"""The forcing adversary: it plays one learner's exact worst case.

Every deterministic learner over a finite class H can be made to err Ldim(H)
times (Lemma 21.6 of Shalev-Shwartz & Ben-David §21.1.1, the chapter of seed
000), and some learners more. :func:`game.theory.solve.worst_case` searches
the game against one learner exactly and finds the most mistakes an adversary
can force on it with labels some hypothesis gives, and the strategy that
forces them; :class:`ForcingAdversary` plays that strategy. Against the
learner it was solved for it forces exactly that value (its lower bound);
against any other deterministic learner it follows the strategy while the
learner predicts as the solved one would, and from the first round it does
not plays Lemma 21.6's adversary, as :class:`adversaries.OptimalAdversary`
does, so what it claims then is what that round left it able to force.
"""

from __future__ import annotations

import math
from typing import Any

import attrs
import numpy as np

from game.errors import ParameterError, UnknownPlayerError, check_instance
from game.players import (
    build_by_name,
    concept_class_field,
    integer_at_least,
    lookup,
    name_of,
    parameters,
)
from game.theory.bounds import Bound, deviation_lower_bound, forced_lower_bound
from game.theory.concepts import (
    BooleanConcept,
    FiniteClass,
    FiniteClassCertificate,
    as_finite_class,
    bit_vectors,
    parse_concept,
)
from game.theory.solve import DEFAULT_MAX_STATES, WorstCase, worst_case

__all__ = ["ForcingAdversary"]

#: The names a finite class gives its constant decision lists, as parse_concept reads them.
_CONSTANTS = {"+": "always +", "−": "always −", "-": "always −"}


def _registry_name(instance, attribute, value) -> None:
    check_instance(attribute.alias, value, str, "a learner's registry name (a string)")


def _table(instance, attribute, value) -> None:
    if value is not None:
        check_instance(attribute.alias, value, dict, "a table of the learner's parameters")


def _bits_of(concept_class: FiniteClass) -> int:
    """n, for a class over the 2ⁿ bit vectors; a ParameterError otherwise."""
    n = concept_class.n_points.bit_length() - 1
    if concept_class.n_points != 1 << n:
        raise ParameterError(
            "concept_class",
            concept_class,
            "a class over the 2ⁿ bit vectors of {0, 1}ⁿ for a learner of bits",
            f"it has {concept_class.n_points} points, not a power of 2",
        )
    return n


def _as_bits(points: Any, concept_class: FiniteClass) -> np.ndarray:
    """The points as a read-only bool matrix, one bit vector per point of the class."""
    expected = (
        "None (the learner is shown point indices) or one bit vector per point of the class, "
        "e.g. bit_vectors(n)"
    )
    try:
        array = np.asarray(points)
    except (TypeError, ValueError):
        raise ParameterError("points", points, expected) from None
    if (
        array.ndim != 2
        or array.shape[0] != concept_class.n_points
        or array.dtype.kind not in "biu"
        or not np.isin(array, (0, 1)).all()
    ):
        raise ParameterError("points", points, expected)
    bits = array.astype(bool)
    bits.flags.writeable = False
    return bits


def _build_learner(name: str, params: dict | None, concept_class: FiniteClass) -> Any:
    """The learner a scenario would build under ``name``, with the scenario's class."""
    try:
        cls = lookup(name, role="learner")
    except UnknownPlayerError as exc:
        raise ParameterError("learner", name, "a registered learner's name", str(exc)) from None
    if any(p["supplied"] == "rng" for p in parameters(cls)):
        raise ParameterError(
            "learner",
            name,
            "a deterministic learner",
            "it draws from a random generator; its worst case is an expectation",
        )
    try:
        return build_by_name(name, "learner", params, supplies={"concept_class": concept_class})
    except ParameterError as exc:
        where = "" if exc.parameter == "params" else f".{exc.parameter}"
        raise exc.renamed(f"learner_params{where}") from None


@attrs.define(eq=False, on_setattr=attrs.setters.NO_OP)
class ForcingAdversary:
    """Plays the strategy that forces one learner's worst case, exactly.

    Parameters
    ----------
    concept_class : FiniteClass
        The class H (or an object with ``.matrix``, or a ±1 matrix); a scenario
        hands it its ``[concept_class]`` class, and builds the learner solved
        for with it too.
    learner : str
        The registry name of the learner to force (``"halving"``, ``"soa"``,
        ``"conjunction-learner"``, …), built as a scenario builds it: with the
        class where it takes one, and ``learner_params``. A learner of points
        is shown point indices; a learner of bits the class's points as the bit
        vectors of :func:`~game.theory.concepts.bit_vectors` (n), for a class
        over {0, 1}ⁿ such as ``conjunctions(n)``.
    learner_params : dict, optional
        The learner's parameters (a table in a scenario).
    rounds : int, optional
        A horizon T: the strategy forcing the most mistakes in at most T
        rounds. Needed when the learner can be made to err without end.
    max_states : int, default ``DEFAULT_MAX_STATES``
        The most game states the search takes (see
        :func:`~game.theory.solve.worst_case`).

    Notes
    -----
    The strategy is :func:`game.theory.solve.worst_case`'s: one path, each
    node a point, the prediction the learner makes there, and the label to
    give. The game ends at its leaf; the certificate is the leaf's witness, a
    hypothesis that gives every label of the path (as a Boolean concept, read
    from the hypothesis's name, in a game of bits). A learner that predicts
    otherwise than the strategy expects is not the learner solved for: from
    that round on the adversary answers as :class:`~adversaries.OptimalAdversary`
    (against the prediction when a hypothesis is left for that label, then a
    point of largest min(Ldim(V_x⁺), Ldim(V_x⁻)) each round, until one
    hypothesis is left), and its lower bound is what it could still force
    from there (:func:`~game.theory.bounds.deviation_lower_bound`).
    ``extras()`` logs ``forceable``, the mistakes still forceable after each
    round (along the strategy, or Ldim of the hypotheses left once off it).
    Use :meth:`solve` to force a learner object (one not registered too).

    Examples
    --------
    >>> import game
    >>> from game.theory.concepts import intervals
    >>> from learners import Halving
    >>> H = intervals(8)
    >>> adversary = ForcingAdversary(H, "halving")
    >>> adversary.value, adversary.solution.ldim
    (4, 4)
    >>> s = game.play(Halving(H), adversary, rounds=20).summary()
    >>> s["mistakes"], s["lower_bound"], s["forced"], s["certificate_verified"]
    (4, 4.0, True, True)
    """

    concept_class: FiniteClass = concept_class_field(
        "the finite class H (a [concept_class] table, a .npy/.csv file, or a ±1 matrix)"
    )
    learner: str = attrs.field(
        validator=_registry_name,
        metadata={"doc": "the registry name of the learner to force, built with the class"},
    )
    learner_params: dict | None = attrs.field(
        default=None,
        validator=_table,
        metadata={"doc": "the learner's parameters (a table)"},
    )
    rounds: int | None = attrs.field(
        default=None,
        validator=attrs.validators.optional(integer_at_least(0)),
        metadata={"doc": "a horizon: force the most mistakes in at most this many rounds"},
    )
    max_states: int = attrs.field(
        default=DEFAULT_MAX_STATES,
        validator=integer_at_least(1),
        metadata={"doc": "the most game states the search of the learner's worst case takes"},
    )
    _solution: WorstCase | None = attrs.field(default=None, alias="_solution", repr=False)
    _bits: np.ndarray | None = attrs.field(default=None, alias="_bits", repr=False)
    _node: int = attrs.field(init=False, default=1, repr=False)
    _alive: Any = attrs.field(init=False, default=None, repr=False)
    _mistakes: int = attrs.field(init=False, default=0, repr=False)
    _left: tuple | None = attrs.field(init=False, default=None, repr=False)
    _t: int = attrs.field(init=False, default=0, repr=False)
    _x: int = attrs.field(init=False, default=0, repr=False)
    _remaining: dict = attrs.field(init=False, factory=dict, repr=False)

    def __attrs_post_init__(self) -> None:
        if self._solution is None:
            solved = _build_learner(self.learner, self.learner_params, self.concept_class)
            plays = getattr(solved, "plays", frozenset({"point"}))
            if "point" not in plays and "bits" in plays:
                self._bits = bit_vectors(_bits_of(self.concept_class))
                self._bits.flags.writeable = False
            elif "point" not in plays:
                raise ParameterError(
                    "learner",
                    self.learner,
                    "a learner that plays points or bits",
                    f"it plays {', '.join(sorted(plays))}",
                )
            self._solution = worst_case(
                solved,
                self.concept_class,
                points=self._bits,
                rounds=self.rounds,
                max_states=self.max_states,
            )
        if math.isinf(self._solution.value):
            start = self._solution.cycle
            raise ParameterError(
                "rounds",
                self.rounds,
                "a horizon (an integer ≥ 0) for a learner that can be made to err without end",
                f"{self.learner} errs forever on the cycle of rounds {start + 1}… of its worst "
                "case; give rounds=T to force the most mistakes in T rounds",
            )
        if self._bits is not None:
            self._concept(self._solution.witness)  # refused now, not after the game
        self._alive = np.ones(self.concept_class.n_hypotheses, dtype=bool)
        left, node = int(self._solution.value), 1
        for _, y, mistake in self._solution.path:
            self._remaining[node] = left
            left -= int(mistake)
            node = 2 * node + (1 if y > 0 else 0)
        self._remaining[node] = 0

    @classmethod
    def solve(
        cls,
        learner: Any,
        concept_class: Any,
        points: Any = None,
        rounds: int | None = None,
        *,
        max_states: int = DEFAULT_MAX_STATES,
    ) -> ForcingAdversary:
        """The forcing adversary of a learner object (a registered one or not).

        Parameters
        ----------
        learner : object
            A deterministic learner, searched from its present state (it is
            not changed); its name in the registry, or its class's, names it.
        concept_class : FiniteClass, object with ``.matrix``, or ±1 matrix
            The class.
        points : array_like, optional
            None for a learner of points; for a learner of bits the class's
            points as bit vectors (:func:`~game.theory.concepts.bit_vectors` (n)),
            which the adversary then presents.
        rounds : int, optional
            A horizon, as :func:`~game.theory.solve.worst_case` takes it.
        max_states : int, default ``DEFAULT_MAX_STATES``
            The most game states searched.

        Examples
        --------
        >>> import game
        >>> from game.theory.concepts import bit_vectors, conjunctions
        >>> from learners import ConjunctionLearner
        >>> H = conjunctions(2)
        >>> adversary = ForcingAdversary.solve(ConjunctionLearner(), H, bit_vectors(2))
        >>> adversary.value, adversary.presents
        (3, 'bits')
        >>> s = game.play(ConjunctionLearner(), adversary, rounds=10).summary()
        >>> s["mistakes"], s["forced"], s["certificate"], s["bound"]
        (3, True, 'True over 2 variables', 3.0)
        """
        fc = as_finite_class(concept_class, "concept_class")
        bits = None if points is None else _as_bits(points, fc)
        solution = worst_case(learner, fc, points=bits, rounds=rounds, max_states=max_states)
        name = name_of(type(learner)) or type(learner).__qualname__
        return cls(fc, name, rounds=rounds, max_states=max_states, _solution=solution, _bits=bits)

    # -- what it knows ---------------------------------------------------------------

    @property
    def solution(self) -> WorstCase:
        """The solved game: value, strategy, states searched, Ldim."""
        return self._solution

    @property
    def value(self) -> int:
        """The mistakes the strategy forces on the learner solved for."""
        return int(self._solution.value)

    @property
    def presents(self) -> str:
        """ "bits" when the learner solved for plays bit vectors, else "point"."""
        return "bits" if self._bits is not None else "point"

    @property
    def on_strategy(self) -> bool:
        """Whether every prediction so far was the one the strategy expects."""
        return self._left is None

    # -- the game ----------------------------------------------------------------------

    def _present(self, x: int) -> Any:
        self._x = int(x)
        return self._x if self._bits is None else self._bits[x].copy()

    def instance(self, history) -> Any:
        """The strategy's next point (its bit vector in a game of bits); None at its leaf."""
        tree = self._solution.tree
        if self._left is None:
            if tree.out_degree(self._node) == 0:
                return None
            return self._present(tree.nodes[self._node]["instance"])
        engine = self.concept_class.engine
        if engine.ldim(self._alive) < 1:
            return None
        return self._present(engine.witness(self._alive))

    def label(self, x, p: float, history) -> int:
        """The strategy's label while the learner predicts as it expects; else against the
        prediction (sign(0) = +1), unless no hypothesis is left for that label."""
        self._t += 1
        predicted = 1 if p >= 0 else -1
        tree = self._solution.tree
        following = self._left is None and tree.nodes[self._node]["prediction"] == predicted
        plus = self.concept_class.matrix[:, self._x] > 0
        if following:
            (child,) = tree.successors(self._node)
            y = int(tree.edges[self._node, child]["label"])
            self._node = child
        else:
            y = -predicted
            if not (self._alive & (plus if y > 0 else ~plus)).any():
                y = predicted
        self._alive = self._alive & (plus if y > 0 else ~plus)
        self._mistakes += int(y != predicted)
        if not following and self._left is None:  # not the learner solved for
            self._left = (self._t, self._mistakes, self.concept_class.engine.ldim(self._alive))
        return y

    def extras(self) -> dict[str, float]:
        """``forceable``: the mistakes still forceable after the round."""
        if self._left is None:
            return {"forceable": float(self._remaining.get(self._node, 0))}
        return {"forceable": float(max(self.concept_class.engine.ldim(self._alive), 0))}

    # -- what it hands over --------------------------------------------------------------

    def _concept(self, h: int) -> BooleanConcept:
        """Hypothesis h of a class over bits, as the Boolean concept its name says."""
        name = self.concept_class.hypothesis_names[h]
        n = _bits_of(self.concept_class)
        expected = "hypotheses named as Boolean concepts (parse_concept reads them)"
        try:
            concept = parse_concept(_CONSTANTS.get(name.strip(), name), n)
        except (ParameterError, ValueError) as exc:
            raise ParameterError(
                "concept_class", self.concept_class, expected, f"hypothesis {h} {name!r}: {exc}"
            ) from None
        labels = concept.labels(bit_vectors(n))
        if not np.array_equal(labels, self.concept_class.matrix[h]):
            raise ParameterError(
                "concept_class",
                self.concept_class,
                expected,
                f"hypothesis {h} is named {name!r}, which labels the bit vectors otherwise",
            )
        return concept

    def certificate(self) -> FiniteClassCertificate | BooleanConcept | None:
        """The leaf's witness along the strategy (it gives every label of the path); once off
        it, the consistent hypothesis of lowest index."""
        if self._left is None:
            h = self._solution.witness
        else:
            alive = np.flatnonzero(self._alive)
            if alive.size == 0:
                return None
            h = int(alive[0])
        if self._bits is not None:
            return self._concept(h)
        return self.concept_class.certificate(h)

    def lower_bound(self) -> Bound:
        """The forced value on the learner solved for; once off the strategy, what was left."""
        if self._left is None:
            return forced_lower_bound(self.value, self.learner)
        round_, forced, ldim = self._left
        return deviation_lower_bound(forced, max(ldim, 0), round_, self.learner)
