"""Learners of Boolean concepts on bit vectors: conjunctions, decision lists, Winnow.

The conjunction and decision-list algorithms are Balcan's lecture 3 (seed 003,
§2.1 and §2.2); Winnow is Littlestone's (1988), in the two classic variants.
All three play "bits" instances (numpy ``bool`` or ``uint8`` vectors; a non-zero
entry counts as 1), infer n from the first instance unless ``variables`` is
given, and are deterministic.

Examples
--------
>>> import numpy as np
>>> from learners.boolean import ConjunctionLearner
>>> c = ConjunctionLearner()
>>> x = np.array([1, 0, 0, 1], dtype=np.uint8)
>>> c.predict(x), c.update(x, 1)
(-1.0, True)
>>> print(c.hypothesis)
x1 ∧ ¬x2 ∧ ¬x3 ∧ x4
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs
import numpy as np

from game.players import integer_at_least, one_of
from game.theory.bounds import Bound, conjunction_bound, decision_list_bound, winnow_bound
from game.theory.concepts import BooleanConcept, Conjunction, Disjunction, Literal

__all__ = ["MAX_VARIABLES", "ConjunctionLearner", "DecisionListLearner", "Winnow"]


def _bits(x) -> np.ndarray:
    x = np.asarray(x)
    return x if x.dtype == np.bool_ else x != 0


#: The most variables a learner accepts (as many as :class:`adversaries.ConceptStream` draws).
MAX_VARIABLES = 2**16


def _variables_field() -> Any:
    return attrs.field(
        default=None,
        validator=attrs.validators.optional(integer_at_least(1, MAX_VARIABLES)),
        metadata={
            "doc": "n, the length of the bit vectors (default: from the first instance; "
            f"at most {MAX_VARIABLES})"
        },
    )


def _check_width(x: np.ndarray, n: int) -> None:
    if x.ndim != 1 or x.shape[0] != n:
        raise ValueError(f"expected a bit vector of length {n}, got shape {x.shape}")


# -- conjunctions --------------------------------------------------------------


@attrs.define(eq=False, on_setattr=attrs.setters.NO_OP)
class ConjunctionLearner:
    """The elimination algorithm for conjunctions (003 §2.1).

    The hypothesis h starts as the conjunction of all 2n literals
    x1 ∧ ¬x1 ∧ … ∧ xn ∧ ¬xn (False everywhere). It predicts h(x). On a false
    negative it removes every literal of h that is false in x. A false positive
    means no conjunction agrees with the labels so far (h always contains the
    literals of every conjunction that does, so h(x) = True forces the target's
    x to be positive): the learner raises its ``inconsistent`` flag, which stays
    up for the rest of the game, and keeps playing with h unchanged.

    ``update`` returns True when h changed (the flag is not counted as an update).

    Parameters
    ----------
    variables : int, optional
        n, at most 2¹⁶ (``MAX_VARIABLES``); by default the length of the
        first instance.

    Notes
    -----
    ``snapshot()``: ``variables`` (n, 0 until known), ``literals`` (``|h|``) and
    ``inconsistent`` (0/1). ``extras()`` logs ``inconsistent`` in the transcript
    every round. ``mistake_bound`` is 003's n + 1, when the adversary's
    certificate is a (realizable) conjunction.

    Examples
    --------
    >>> import numpy as np
    >>> c = ConjunctionLearner()
    >>> x, z = np.array([1, 0, 0, 1], dtype=bool), np.array([1, 0, 1, 1], dtype=bool)
    >>> c.update(x, 1), c.hypothesis.size            # 003: "1001" leaves x1 ¬x2 ¬x3 x4
    (True, 4)
    >>> c.predict(x), c.predict(z)
    (1.0, -1.0)
    >>> c.update(x, -1), c.snapshot()["inconsistent"]  # a false positive: no conjunction fits
    (False, 1.0)
    """

    deterministic: ClassVar[bool] = True
    plays: ClassVar[frozenset[str]] = frozenset({"bits"})

    variables: int | None = _variables_field()
    _n: int = attrs.field(init=False, default=0, repr=False)
    _pos: Any = attrs.field(init=False, default=None, repr=False)
    _neg: Any = attrs.field(init=False, default=None, repr=False)
    _inconsistent: bool = attrs.field(init=False, default=False, repr=False)

    def __attrs_post_init__(self) -> None:
        if self.variables is not None:
            self._start(self.variables)

    def _start(self, n: int) -> None:
        self._n = n
        self._pos = np.ones(n, dtype=bool)
        self._neg = np.ones(n, dtype=bool)

    def _h(self, x: np.ndarray) -> bool:
        if self._pos is None:
            self._start(x.shape[0])
        _check_width(x, self._n)
        return not (np.any(self._pos & ~x) or np.any(self._neg & x))

    @property
    def hypothesis(self) -> Conjunction | None:
        """h as a :class:`~game.theory.concepts.Conjunction` (None until n is known)."""
        if self._pos is None:
            return None
        literals = [Literal(int(i)) for i in np.flatnonzero(self._pos)]
        literals += [Literal(int(i), True) for i in np.flatnonzero(self._neg)]
        return Conjunction(self._n, literals)

    @property
    def inconsistent(self) -> bool:
        """Whether a false positive has shown that no conjunction fits the labels."""
        return self._inconsistent

    def predict(self, x) -> float:
        """h(x) as ±1.0."""
        return 1.0 if self._h(_bits(x)) else -1.0

    def update(self, x, y: int) -> bool:
        """Eliminate on a false negative, flag a false positive; True iff h changed."""
        x = _bits(x)
        h = self._h(x)
        if h and y < 0:
            self._inconsistent = True
            return False
        if h or y < 0:
            return False
        pos, neg = self._pos & x, self._neg & ~x
        changed = bool(np.any(pos != self._pos) or np.any(neg != self._neg))
        self._pos, self._neg = pos, neg
        return changed

    def state_key(self) -> tuple:
        """What its future predictions and updates depend on: n and h's literals.

        Equal keys, equal behaviour from here on (:func:`game.theory.solve.worst_case`
        merges states by it); the ``inconsistent`` flag, which only reports, is left out.
        """
        if self._pos is None:
            return (self._n, None, None)
        return (self._n, np.packbits(self._pos).tobytes(), np.packbits(self._neg).tobytes())

    def snapshot(self) -> dict[str, float]:
        """n, the number of literals in h, and the inconsistency flag (0/1)."""
        literals = 0 if self._pos is None else int(self._pos.sum() + self._neg.sum())
        return {
            "variables": float(self._n),
            "literals": float(literals),
            "inconsistent": float(self._inconsistent),
        }

    def extras(self) -> dict[str, float]:
        """``inconsistent``: 1.0 once no conjunction fits the labels, else 0.0."""
        return {"inconsistent": 1.0 if self._inconsistent else 0.0}

    def mistake_bound(self, transcript) -> Bound | None:
        """n + 1 (003 §2.1) when the certificate is a realizable conjunction, else None."""
        cert = transcript.certificate
        if not isinstance(cert, Conjunction) or not cert.realizable:
            return None
        return conjunction_bound(self._n or cert.variables)


# -- decision lists ------------------------------------------------------------

_FAR = np.iinfo(np.int64).max


@attrs.define(eq=False, on_setattr=attrs.setters.NO_OP)
class DecisionListLearner:
    """003's algorithm for decision lists: rules sink through levels on mistakes (§2.2).

    The hypothesis is a list of levels, each a set of rules ``literal → label``
    taken from the 4n + 2 rules x_i → ±, ¬x_i → ±, True → ±; at first one level
    holds them all. To predict, it takes the first level in which some rule fires
    (its literal is true in x) and predicts with one of that level's firing rules.
    On a mistake every firing rule of that level that predicted wrong moves one
    level down.

    Tie rule (the lecture breaks ties "arbitrarily"): among the firing rules of
    the first level, the first in the fixed rule order x1 → +, x1 → −, ¬x1 → +,
    ¬x1 → −, x2 → +, …, ¬xn → −, True → +, True → − (the order in which 003
    lists them). With it the learner replays 003's worked example exactly.

    Parameters
    ----------
    variables : int, optional
        n, at most 2¹⁶ (``MAX_VARIABLES``); by default the length of the
        first instance.

    Notes
    -----
    ``snapshot()``: ``levels``, a vector of n + 2 level sizes (entry k counts the
    rules on level k, 0 the top; the last entry also counts any deeper rule,
    which a realizable game never has, since the invariant keeps every rule
    within level n + 1), and ``fallen``, the total number of levels the rules
    have fallen (the potential of 003's proof: each mistake adds at least 1, and
    it never exceeds (4n + 2)(L + 1)). ``mistake_bound`` is (4n + 2)(L + 1),
    with L the length of the certificate written as a decision list.

    Examples
    --------
    003's example: n = 2, target "if x1 then − elif ¬x2 then + else −".

    >>> import numpy as np
    >>> d = DecisionListLearner()
    >>> x = np.array([0, 1], dtype=bool)
    >>> d.predict(x), d.update(x, -1)    # says positive on 01, which is negative
    (1.0, True)
    >>> print(d.describe())
    {x1 → +, x1 → −, ¬x1 → −, x2 → −, ¬x2 → +, ¬x2 → −, True → −}
    else {¬x1 → +, x2 → +, True → +}
    >>> x = np.array([0, 0], dtype=bool)
    >>> d.predict(x), d.update(x, 1)     # says negative on 00, which is positive
    (-1.0, True)
    >>> print(d.describe())
    {x1 → +, x1 → −, x2 → −, ¬x2 → +}
    else {¬x1 → +, ¬x1 → −, x2 → +, ¬x2 → −, True → +, True → −}
    """

    deterministic: ClassVar[bool] = True
    plays: ClassVar[frozenset[str]] = frozenset({"bits"})

    variables: int | None = _variables_field()
    _n: int = attrs.field(init=False, default=0, repr=False)
    _var: Any = attrs.field(init=False, default=None, repr=False)
    _negated: Any = attrs.field(init=False, default=None, repr=False)
    _label: Any = attrs.field(init=False, default=None, repr=False)
    _level: Any = attrs.field(init=False, default=None, repr=False)
    _x: Any = attrs.field(init=False, default=None, repr=False)
    _fire: Any = attrs.field(init=False, default=None, repr=False)
    _top: int = attrs.field(init=False, default=0, repr=False)
    _p: int = attrs.field(init=False, default=1, repr=False)

    def __attrs_post_init__(self) -> None:
        if self.variables is not None:
            self._start(self.variables)

    def _start(self, n: int) -> None:
        self._n = n
        r = np.arange(4 * n)
        self._var = r // 4
        self._negated = (r // 2) % 2 == 1
        self._label = np.tile(np.array([1, -1], dtype=np.int64), 2 * n + 1)
        self._level = np.zeros(4 * n + 2, dtype=np.int64)

    def rules(self) -> list[tuple[Literal | None, int]]:
        """The 4n + 2 rules in the fixed order, as (literal, label); None is True."""
        out: list[tuple[Literal | None, int]] = [
            (Literal(int(v), bool(s)), int(b))
            for v, s, b in zip(self._var, self._negated, self._label, strict=False)
        ]
        return [*out, (None, 1), (None, -1)]

    def rule_index(self, literal: Literal | None, label: int) -> int:
        """The position of the rule ``literal → label`` in the fixed order."""
        if literal is None:
            return 4 * self._n + (0 if label > 0 else 1)
        return 4 * literal.variable + 2 * int(literal.negated) + (0 if label > 0 else 1)

    def level_of(self, literal: Literal | None, label: int) -> int:
        """The level (0 the top) of the rule ``literal → label``; None stands for True."""
        return int(self._level[self.rule_index(literal, label)])

    @property
    def levels(self) -> np.ndarray:
        """Each rule's level, in the fixed rule order (a copy)."""
        return np.zeros(0, dtype=np.int64) if self._level is None else self._level.copy()

    @property
    def hypothesis(self) -> list[list[tuple[Literal | None, int]]]:
        """The levels, top first, each a list of rules (literal, label) in the fixed order."""
        if self._level is None:
            return []
        rules = self.rules()
        out: list[list] = [[] for _ in range(int(self._level.max()) + 1)]
        for rule, level in zip(rules, self._level.tolist(), strict=True):
            out[level].append(rule)
        return [level for level in out if level]

    def describe(self) -> str:
        """The hypothesis in 003's notation: ``{rules} else {rules} …``."""
        sign = {1: "+", -1: "−"}
        return " else ".join(
            "{" + ", ".join(f"{lit or 'True'} → {sign[b]}" for lit, b in level) + "}"
            for level in self.hypothesis
        )

    def _decide(self, x) -> int:
        x = _bits(x)
        if self._level is None:
            self._start(x.shape[0])
        _check_width(x, self._n)
        fire = np.ones(4 * self._n + 2, dtype=bool)
        fire[:-2] = x[self._var] != self._negated
        ranks = np.where(fire, self._level, _FAR)
        top = int(ranks.min())
        first = int(np.argmax(ranks == top))
        self._x, self._fire, self._top = x, fire, top
        self._p = int(self._label[first])
        return self._p

    def predict(self, x) -> float:
        """The label of the first firing rule (fixed order) of the first level that has one."""
        return float(self._decide(x))

    def update(self, x, y: int) -> bool:
        """On a mistake, move that level's wrong firing rules down one; True iff one moved."""
        if self._x is None or (x is not self._x and not np.array_equal(_bits(x), self._x)):
            self._decide(x)
        self._x = None
        if self._p == y:
            return False
        wrong = self._fire & (self._level == self._top) & (self._label != y)
        self._level[wrong] += 1
        return True

    def state_key(self) -> tuple:
        """What its future predictions and updates depend on: n and each rule's level.

        Equal keys, equal behaviour from here on (:func:`game.theory.solve.worst_case`
        merges states by it).
        """
        if self._level is None:
            return (self._n, None)
        return (self._n, self._level.tobytes())

    def snapshot(self) -> dict[str, Any]:
        """``levels`` (n + 2 level sizes, the last also counting deeper rules) and ``fallen``."""
        if self._level is None:
            return {"levels": np.zeros(0), "fallen": 0.0}
        sizes = np.bincount(np.minimum(self._level, self._n + 1), minlength=self._n + 2)
        return {"levels": sizes.astype(np.float64), "fallen": float(self._level.sum())}

    def mistake_bound(self, transcript) -> Bound | None:
        """(4n + 2)(L + 1) (003 §2.2) for a realizable Boolean certificate, else None."""
        cert = transcript.certificate
        if not isinstance(cert, BooleanConcept) or not cert.realizable:
            return None
        return decision_list_bound(self._n or cert.variables, cert.as_decision_list().length)


# -- Winnow --------------------------------------------------------------------


@attrs.define(eq=False, on_setattr=attrs.setters.NO_OP)
class Winnow:
    """Winnow: multiplicative weights for monotone disjunctions (Littlestone 1988).

    Weights w_i = 1, threshold n; predict + iff Σ w_i x_i ≥ n. On a false
    negative the weights of the active variables (x_i = 1) double; on a false
    positive they are zeroed (``variant="elimination"``, Winnow1) or halved
    (``variant="halving"``, Winnow2). No update on a right prediction. The
    weights stay powers of two (or 0), so every sum is exact.

    Parameters
    ----------
    variant : {"elimination", "halving"}, default "elimination"
        What a false positive does to the active weights.
    variables : int, optional
        n, the threshold, at most 2¹⁶ (``MAX_VARIABLES``); by default the
        length of the first instance.

    Notes
    -----
    ``snapshot()``: ``weight_sum`` (Σ w_i, the potential of the proof),
    ``promotions`` and ``demotions`` (mistakes on positives and on negatives).
    ``mistake_bound`` is 1 + 2r(1 + log₂ n) (elimination) or 2 + 3r(1 + log₂ n)
    (halving) when the certificate is a monotone disjunction of r variables.
    ``update`` returns True when a weight changed.

    Examples
    --------
    >>> import numpy as np
    >>> w = Winnow()
    >>> x = np.array([1, 0, 0, 0], dtype=bool)
    >>> [(w.predict(x), w.update(x, 1)) for _ in range(3)]
    [(-1.0, True), (-1.0, True), (1.0, False)]
    >>> w.weights.tolist()
    [4.0, 1.0, 1.0, 1.0]
    >>> z = np.array([0, 1, 1, 1], dtype=bool)
    >>> h = Winnow("halving")
    >>> h.predict(z), h.update(z, 1), h.predict(z), h.update(z, -1), h.weights.tolist()
    (-1.0, True, 1.0, True, [1.0, 1.0, 1.0, 1.0])
    """

    deterministic: ClassVar[bool] = True
    plays: ClassVar[frozenset[str]] = frozenset({"bits"})

    variant: str = attrs.field(
        default="elimination",
        validator=one_of("elimination", "halving"),
        metadata={"doc": "on a false positive zero ('elimination') or halve ('halving') weights"},
    )
    variables: int | None = _variables_field()
    _n: int = attrs.field(init=False, default=0, repr=False)
    _w: Any = attrs.field(init=False, default=None, repr=False)
    _x: Any = attrs.field(init=False, default=None, repr=False)
    _s: float = attrs.field(init=False, default=0.0, repr=False)
    _promotions: int = attrs.field(init=False, default=0, repr=False)
    _demotions: int = attrs.field(init=False, default=0, repr=False)

    def __attrs_post_init__(self) -> None:
        if self.variables is not None:
            self._start(self.variables)

    def _start(self, n: int) -> None:
        self._n = n
        self._w = np.ones(n)

    @property
    def weights(self) -> np.ndarray:
        """A copy of the weights (empty before the first instance)."""
        return np.zeros(0) if self._w is None else self._w.copy()

    @property
    def threshold(self) -> int:
        """n (0 until known)."""
        return self._n

    def _score(self, x) -> tuple[np.ndarray, float]:
        x = _bits(x)
        if self._w is None:
            self._start(x.shape[0])
        _check_width(x, self._n)
        return x, float(self._w[x].sum())

    def predict(self, x) -> float:
        """+1.0 iff Σ w_i x_i ≥ n."""
        xb, s = self._score(x)
        self._x, self._s = xb, s
        return 1.0 if s >= self._n else -1.0

    def update(self, x, y: int) -> bool:
        """Double (false negative) or zero/halve (false positive) the active weights."""
        if self._x is not None and (x is self._x or np.array_equal(_bits(x), self._x)):
            xb, s = self._x, self._s
        else:
            xb, s = self._score(x)
        self._x = None
        positive = s >= self._n
        if positive == (y > 0):
            return False
        active = self._w[xb]
        changed = bool(np.any(active != 0.0))
        if y > 0:
            self._promotions += 1
            self._w[xb] = active * 2.0
        else:
            self._demotions += 1
            self._w[xb] = 0.0 if self.variant == "elimination" else active * 0.5
        return changed

    def state_key(self) -> tuple:
        """What its future predictions and updates depend on: the variant, n and the weights.

        Equal keys, equal behaviour from here on (:func:`game.theory.solve.worst_case`
        merges states by it); the counts of promotions and demotions, which only
        the snapshot reports, are left out, so a cycle of states is seen as one.
        """
        if self._w is None:
            return (self.variant, self._n, None)
        return (self.variant, self._n, self._w.tobytes())

    def snapshot(self) -> dict[str, float]:
        """Σ w_i and the counts of promotions and demotions."""
        total = 0.0 if self._w is None else float(self._w.sum())
        return {
            "weight_sum": total,
            "promotions": float(self._promotions),
            "demotions": float(self._demotions),
        }

    def mistake_bound(self, transcript) -> Bound | None:
        """Winnow's bound for a realizable monotone-disjunction certificate, else None."""
        cert = transcript.certificate
        if not isinstance(cert, Disjunction) or not cert.realizable or not cert.monotone:
            return None
        return winnow_bound(self._n or cert.variables, cert.size, self.variant)
