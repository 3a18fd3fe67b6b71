"""Boolean concepts over bit vectors: literals, conjunctions, disjunctions, decision lists.

Balcan's lecture 3 (seed 003, §2) learns these classes in the mistake-bound
model. Instances are bit vectors in {0, 1}ⁿ, given as numpy ``bool`` or
``uint8`` arrays (any integer array of 0s and 1s is accepted); labels are ±1,
+1 for True.

Variables are numbered from 1 in every readable form, as in the lecture: x1 is
bit 0 of the vector. A :class:`Literal` stores the 0-based index of its bit.

Every concept is a :class:`~game.theory.Certificate`, so an adversary can
hand one over as its target and transcripts save and load it. A concept
evaluates one bit vector (:meth:`BooleanConcept.evaluate`, or calling it for
±1) and, vectorised, a matrix of them, one per row (:meth:`BooleanConcept.truth`
for bools, :meth:`BooleanConcept.labels` for int8 ±1). Readable forms
(``str(concept)``) are read back by :func:`parse_concept`; random concepts of a
given size are drawn from a ``numpy.random.Generator`` by
:func:`random_concept` or each class's ``random``.

=====================  ==========================  =============================
concept                readable form               size
=====================  ==========================  =============================
:class:`Conjunction`   ``x1 ∧ ¬x3`` (``True``)      number of literals
:class:`Disjunction`   ``x2 ∨ x5`` (``False``)      number of literals (r)
:class:`DecisionList`  ``if x2 then + elif ¬x1      number of rules before the
                       then − else +``              default (L)
=====================  ==========================  =============================

Every concept also converts to an equivalent decision list
(:meth:`BooleanConcept.as_decision_list`), and a decision list splits
{0, 1}ⁿ into the cylinder sets on which each rule decides
(:meth:`BooleanConcept.regions`): that is how streams draw positives and
negatives exactly, whatever their share of the cube.

Examples
--------
>>> import numpy as np
>>> from game.theory.concepts import Conjunction, DecisionList, parse_concept
>>> c = Conjunction(4, ["x1", "¬x3"])
>>> print(c)
x1 ∧ ¬x3
>>> X = np.array([[1, 0, 0, 1], [1, 0, 1, 1]], dtype=np.uint8)
>>> c.labels(X)
array([ 1, -1], dtype=int8)
>>> d = parse_concept("if x2 then + elif ¬x1 then − else +", variables=3)
>>> d.length, d(np.array([False, False, True])), d(np.array([True, False, True]))
(2, -1, 1)
"""

from __future__ import annotations

import math
import re
from typing import Any, ClassVar

import attrs
import numpy as np

from game.errors import ParameterError, check_choice, check_integer
from game.theory._certificates import Certificate, _rebuilt, _rounds, _unfit, frozen_copy

__all__ = [
    "CONCEPT_KINDS",
    "BooleanConcept",
    "Conjunction",
    "DecisionList",
    "Disjunction",
    "Literal",
    "MonotoneConjunction",
    "Region",
    "bits",
    "parse_concept",
    "parse_literal",
    "random_concept",
]

#: The kinds of concept :func:`random_concept` draws, by name.
CONCEPT_KINDS = ("conjunction", "monotone-conjunction", "disjunction", "decision-list")

_NOT = "¬"
_AND = " ∧ "
_OR = " ∨ "
_SIGN = {1: "+", -1: "−"}
_LITERAL = re.compile(r"^\s*(¬|~|!|-|not\s+)?\s*x(\d+)\s*$", re.IGNORECASE)


def bits(instances, variables: int | None = None) -> np.ndarray:
    """Instances as a ``bool`` array, checked to hold bits only.

    Parameters
    ----------
    instances : array_like
        One bit vector, or a matrix of them (one per row): ``bool``, or numbers
        that are all 0 or 1.
    variables : int, optional
        When given, the length of every vector must be this.

    Raises
    ------
    ValueError
        When an entry is not a bit or the length is wrong.

    Examples
    --------
    >>> bits([[0, 1], [1, 1]])
    array([[False,  True],
           [ True,  True]])
    >>> bits([0, 2])
    Traceback (most recent call last):
    ...
    ValueError: bit vectors must hold only 0 and 1 (or bools)
    """
    X = np.asarray(instances)
    if X.dtype != np.bool_:
        if X.dtype.kind not in "biuf" or not np.all((X == 0) | (X == 1)):
            raise ValueError("bit vectors must hold only 0 and 1 (or bools)")
        X = X != 0
    if X.ndim not in (1, 2):
        raise ValueError(f"expected a bit vector or a matrix of them, got shape {X.shape}")
    if variables is not None and X.shape[-1] != variables:
        raise ValueError(f"expected bit vectors of length {variables}, got length {X.shape[-1]}")
    return X


# -- literals ------------------------------------------------------------------


@attrs.frozen(order=True)
class Literal:
    """A variable x_i or its negation ¬x_i.

    Parameters
    ----------
    variable : int
        The 0-based index of the bit: ``Literal(0)`` is x1.
    negated : bool, default False
        ¬x_i rather than x_i.

    Examples
    --------
    >>> import numpy as np
    >>> lit = Literal(2, negated=True)
    >>> str(lit), lit.evaluate(np.array([1, 1, 0])), str(~lit)
    ('¬x3', True, 'x3')
    """

    variable: int = attrs.field()
    negated: bool = attrs.field(default=False, converter=bool)

    @variable.validator
    def _check(self, attribute, value) -> None:
        check_integer("variable", value, low=0)

    def __str__(self) -> str:
        return f"{_NOT if self.negated else ''}x{self.variable + 1}"

    def __invert__(self) -> Literal:
        return Literal(self.variable, not self.negated)

    def evaluate(self, x) -> bool:
        """The literal's truth on one bit vector."""
        return bool(x[self.variable]) != self.negated

    def truth(self, X) -> np.ndarray:
        """The literal's truth on each row of a bit matrix (or on one vector)."""
        column = bits(X)[..., self.variable]
        return ~column if self.negated else column


def parse_literal(text: str | Literal) -> Literal:
    """A literal from its readable form: ``x3``, ``¬x3`` (also ``~x3``, ``!x3``, ``not x3``).

    Examples
    --------
    >>> parse_literal("¬x3")
    Literal(variable=2, negated=True)
    >>> parse_literal("x0")
    Traceback (most recent call last):
    ...
    game.errors.ParameterError: text must be a literal such as 'x1' or '¬x2', got 'x0' (...)
    """
    if isinstance(text, Literal):
        return text
    expected = "a literal such as 'x1' or '¬x2'"
    if not isinstance(text, str):
        raise ParameterError("text", text, expected)
    match = _LITERAL.match(text)
    if match is None:
        raise ParameterError("text", text, expected)
    index = int(match.group(2))
    if index < 1:
        raise ParameterError("text", text, expected, "variables are numbered from 1")
    return Literal(index - 1, negated=match.group(1) is not None)


def _literals(values) -> tuple[Literal, ...]:
    """Sorted, distinct literals from Literals or readable strings."""
    if isinstance(values, str | Literal):
        values = [values]
    return tuple(sorted({parse_literal(v) for v in values}))


def _variables(instance, attribute, value) -> None:
    check_integer(attribute.alias, value, low=1)


def _check_range(literals, variables: int, parameter: str) -> None:
    for lit in literals:
        if lit.variable >= variables:
            raise ParameterError(parameter, str(lit), f"within the {variables} variables")


def _indices(literals, negated: bool) -> np.ndarray:
    index = [lit.variable for lit in literals if lit.negated == negated]
    return frozen_copy(np.array(index, dtype=np.intp))


# -- regions -------------------------------------------------------------------


@attrs.frozen(eq=False)
class Region:
    """A cylinder set of {0, 1}ⁿ on which a concept takes one label.

    The bits at ``variables`` are fixed to ``values``; the others are free.

    Attributes
    ----------
    variables : numpy.ndarray
        Indices of the fixed bits.
    values : numpy.ndarray
        Their values (bool).
    label : int
        The concept's label on every point of the region, ±1.
    """

    variables: np.ndarray
    values: np.ndarray
    label: int

    def log_weight(self, density: float = 0.5) -> float:
        """ln of the region's probability when every bit is 1 with probability ``density``."""
        ones = int(np.count_nonzero(self.values))
        zeros = self.values.size - ones
        return ones * math.log(density) + zeros * math.log1p(-density)


# -- the base class ------------------------------------------------------------


@attrs.frozen
class BooleanConcept(Certificate):
    """Base of the concepts over {0, 1}ⁿ: a Certificate with a readable form.

    Subclasses implement :meth:`truth`, ``__str__``, :meth:`as_decision_list`,
    ``size``, :meth:`params` and :meth:`from_params`.

    Parameters
    ----------
    variables : int
        n, the length of the bit vectors.
    """

    kind: ClassVar[str] = "boolean"
    variables: int = attrs.field(validator=_variables)

    def truth(self, X) -> np.ndarray:
        """The concept's value (bool) on each row of a bit matrix, or on one vector."""
        raise NotImplementedError

    @property
    def size(self) -> int:
        """The size of the concept: literals of a conjunction or disjunction, L of a list."""
        raise NotImplementedError

    def as_decision_list(self) -> DecisionList:
        """An equivalent decision list."""
        raise NotImplementedError

    def evaluate(self, x) -> bool:
        """The concept's value on one bit vector."""
        return bool(self.truth(x))

    def __call__(self, x) -> int:
        """The concept's label on one bit vector: +1 for True, −1 for False."""
        return 1 if self.evaluate(x) else -1

    def labels(self, instances) -> np.ndarray:
        """The label (int8 ±1) of each row of a bit matrix (one vector gives a 0-d array)."""
        return np.where(self.truth(instances), 1, -1).astype(np.int8)

    def describe(self) -> str:
        """The readable form, with the number of variables."""
        return f"{self} over {self.variables} variables"

    def check_fits(self, instances) -> None:
        """Refuse rounds that are not bit vectors of ``variables`` bits (bools, or integers 0/1).

        Floats are refused, 0.0 and 1.0 too: bit vectors are recorded as
        ``bool`` or integer arrays.

        Examples
        --------
        >>> import numpy as np
        >>> c = Conjunction(3, ["x1"])
        >>> c.check_fits(np.array([[1, 0, 1], [0, 0, 0]], dtype=np.uint8))
        >>> c.check_fits(np.zeros((2, 4), dtype=bool))
        Traceback (most recent call last):
        ...
        game.errors.CertificateError: a conjunction over 3 variables judges bit vectors: ...
        """
        n = self.variables
        judges = (
            f"a {self.kind} over {n} variables judges bit vectors: "
            f"a (rounds × {n}) array of bools or 0/1 integers"
        )
        X = _rounds(instances, judges)
        if X.shape[0] == 0:
            return
        if X.ndim != 2 or X.shape[1] != n or X.dtype.kind not in "biu":
            raise _unfit(judges, X)
        if X.dtype != np.bool_:
            outside = (X != 0) & (X != 1)
            if np.any(outside):
                t = int(np.flatnonzero(outside.any(axis=1))[0])
                raise _unfit(judges, X, f"round {t + 1} holds a value that is not a bit")

    def __reduce__(self):
        return _rebuilt, (type(self), self.params(), self.realizable)

    def regions(self) -> list[Region]:
        """Disjoint cylinder sets covering {0, 1}ⁿ, each with the concept's label on it.

        Region j is where the equivalent decision list's rule j decides (its
        earlier literals false, its own true); rules that can never decide are
        left out, so every region is non-empty.

        Examples
        --------
        >>> rs = Conjunction(3, ["x1", "¬x2"]).regions()
        >>> [(r.variables.tolist(), r.values.tolist(), r.label) for r in rs]
        [([0], [False], -1), ([0, 1], [True, True], -1), ([0, 1], [True, False], 1)]
        """
        return self.as_decision_list().regions()

    def has_label(self, label: int) -> bool:
        """Whether some bit vector gets ``label`` (±1)."""
        return any(r.label == label for r in self.regions())


def _bounded_size(size: int, variables: int, what: str) -> None:
    check_integer(what, size, low=0)
    if size > variables:
        raise ParameterError(what, size, f"at most the {variables} variables")


def _draw_literals(variables, size, rng, monotone) -> list[Literal]:
    chosen = np.sort(rng.choice(variables, size=size, replace=False))
    signs = np.zeros(size, dtype=bool) if monotone else rng.integers(0, 2, size=size) == 1
    return [Literal(int(v), bool(s)) for v, s in zip(chosen, signs, strict=True)]


@attrs.frozen
class _Clause(BooleanConcept):
    """Shared by conjunctions and disjunctions: a sorted set of distinct literals."""

    literals: tuple[Literal, ...] = attrs.field(converter=_literals)
    _pos: np.ndarray = attrs.field(init=False, eq=False, repr=False)
    _neg: np.ndarray = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        _check_range(self.literals, self.variables, "literals")
        object.__setattr__(self, "_pos", _indices(self.literals, False))
        object.__setattr__(self, "_neg", _indices(self.literals, True))

    @property
    def size(self) -> int:
        """The number of literals."""
        return len(self.literals)

    @property
    def monotone(self) -> bool:
        """Whether no literal is negated."""
        return not self._neg.size


# -- conjunctions --------------------------------------------------------------


@attrs.frozen
class Conjunction(_Clause):
    """A conjunction of literals: True iff every literal is true.

    The empty conjunction is True everywhere; one holding both x_i and ¬x_i is
    False everywhere (the elimination learner of 003 §2.1 starts from the
    conjunction of all 2n literals). Literals are kept sorted and distinct, so
    two conjunctions are equal when they hold the same literals.

    Parameters
    ----------
    variables : int
        n.
    literals : iterable of Literal or str
        The literals, as :class:`Literal` or readable strings (``"¬x3"``).

    Examples
    --------
    >>> import numpy as np
    >>> c = Conjunction(4, ["¬x3", "x1"])
    >>> str(c), c.size, c.evaluate(np.array([1, 1, 0, 0]))
    ('x1 ∧ ¬x3', 2, True)
    >>> print(c.as_decision_list())
    if ¬x1 then − elif x3 then − else +
    >>> print(Conjunction(2, []))
    True
    """

    kind: ClassVar[str] = "conjunction"

    def truth(self, X) -> np.ndarray:
        X = bits(X, self.variables)
        return np.all(X[..., self._pos], axis=-1) & ~np.any(X[..., self._neg], axis=-1)

    def __str__(self) -> str:
        return _AND.join(map(str, self.literals)) if self.literals else "True"

    def as_decision_list(self) -> DecisionList:
        return DecisionList(self.variables, [(~lit, -1) for lit in self.literals], default=1)

    def params(self) -> dict[str, Any]:
        return {"variables": int(self.variables), "literals": [str(x) for x in self.literals]}

    @classmethod
    def from_params(cls, params, realizable):
        return cls(params["variables"], params["literals"], realizable=realizable)

    @classmethod
    def random(cls, variables: int, size: int, rng: np.random.Generator, *, monotone=False):
        """A conjunction of ``size`` literals on distinct variables, drawn uniformly.

        The variables are a uniform ``size``-subset; each is negated with
        probability 1/2 unless ``monotone`` (then a :class:`MonotoneConjunction`).

        Examples
        --------
        >>> import numpy as np
        >>> c = Conjunction.random(10, 3, np.random.default_rng(0))
        >>> c.size, c.variables
        (3, 10)
        """
        _bounded_size(size, variables, "size")
        literals = _draw_literals(variables, size, rng, monotone)
        kind = MonotoneConjunction if monotone or cls is MonotoneConjunction else Conjunction
        return kind(variables, literals)


@attrs.frozen
class MonotoneConjunction(Conjunction):
    """A conjunction of unnegated variables, such as ``x1 ∧ x4``.

    The target that :class:`~adversaries.conjunction.ConjunctionLowerBound`
    builds (003 §2.1).

    Examples
    --------
    >>> print(MonotoneConjunction(5, ["x1", "x4"]))
    x1 ∧ x4
    >>> MonotoneConjunction(5, ["¬x1"])
    Traceback (most recent call last):
    ...
    game.errors.ParameterError: literals must be positive (a monotone conjunction), got '¬x1'
    """

    kind: ClassVar[str] = "monotone-conjunction"

    def __attrs_post_init__(self) -> None:
        super().__attrs_post_init__()
        for lit in self.literals:
            if lit.negated:
                raise ParameterError("literals", str(lit), "positive (a monotone conjunction)")

    @classmethod
    def random(cls, variables: int, size: int, rng: np.random.Generator, *, monotone=True):
        """A monotone conjunction of ``size`` distinct variables, drawn uniformly."""
        return Conjunction.random(variables, size, rng, monotone=True)


# -- disjunctions --------------------------------------------------------------


@attrs.frozen
class Disjunction(_Clause):
    """A disjunction of literals: True iff some literal is true.

    The empty disjunction is False everywhere. Winnow learns the monotone ones,
    "disjunctions of r of n variables"; negated literals are allowed here too.

    Parameters
    ----------
    variables : int
        n.
    literals : iterable of Literal or str
        The literals, as :class:`Literal` or readable strings.

    Examples
    --------
    >>> import numpy as np
    >>> d = Disjunction(6, ["x2", "x5"])
    >>> str(d), d.monotone, d.labels(np.eye(6, dtype=bool)).tolist()
    ('x2 ∨ x5', True, [-1, 1, -1, -1, 1, -1])
    """

    kind: ClassVar[str] = "disjunction"

    def truth(self, X) -> np.ndarray:
        X = bits(X, self.variables)
        return np.any(X[..., self._pos], axis=-1) | ~np.all(X[..., self._neg], axis=-1)

    def __str__(self) -> str:
        return _OR.join(map(str, self.literals)) if self.literals else "False"

    def as_decision_list(self) -> DecisionList:
        return DecisionList(self.variables, [(lit, 1) for lit in self.literals], default=-1)

    def params(self) -> dict[str, Any]:
        return {"variables": int(self.variables), "literals": [str(x) for x in self.literals]}

    @classmethod
    def from_params(cls, params, realizable):
        return cls(params["variables"], params["literals"], realizable=realizable)

    @classmethod
    def random(cls, variables: int, size: int, rng: np.random.Generator, *, monotone=True):
        """A disjunction of ``size`` distinct variables (r of n), drawn uniformly.

        Monotone by default, as Winnow's targets are; with ``monotone=False``
        each literal is negated with probability 1/2.

        Examples
        --------
        >>> import numpy as np
        >>> d = Disjunction.random(100, 2, np.random.default_rng(1))
        >>> d.size, d.monotone
        (2, True)
        """
        _bounded_size(size, variables, "size")
        return cls(variables, _draw_literals(variables, size, rng, monotone))


# -- decision lists ------------------------------------------------------------


def _label(value, parameter: str = "label") -> int:
    if isinstance(value, str):
        value = {"+": 1, "-": -1, "−": -1, "+1": 1, "-1": -1}.get(value.strip(), value)
    return check_choice(parameter, value, (1, -1))


def _default(value) -> int:
    return _label(value, "default")


def _rules(values) -> tuple[tuple[Literal, int], ...]:
    out = []
    for rule in values:
        try:
            if isinstance(rule, str):
                raise TypeError
            literal, label = rule
        except (TypeError, ValueError):
            raise ParameterError("rules", rule, "pairs (literal, label)") from None
        out.append((parse_literal(literal), _label(label)))
    return tuple(out)


@attrs.frozen
class DecisionList(BooleanConcept):
    """A decision list A₁ → B₁, …, A_L → B_L, True → B (003, Definition 2).

    The label is that of the first rule whose literal is true, else the
    default. The length L counts the rules before the final ``True → B``; the
    mistake bound (4n + 2)(L + 1) of 003 §2.2 is stated with this L.

    Parameters
    ----------
    variables : int
        n.
    rules : iterable of (literal, label)
        Each literal a :class:`Literal` or readable string, each label ±1
        (or ``"+"`` / ``"−"``).
    default : int
        B, the label when no rule fires.

    Examples
    --------
    >>> import numpy as np
    >>> d = DecisionList(3, [("x2", 1), ("¬x1", -1)], default=1)
    >>> print(d)
    if x2 then + elif ¬x1 then − else +
    >>> d.labels(np.array([[0, 1, 0], [0, 0, 0], [1, 0, 0]])).tolist()
    [1, -1, 1]
    >>> print(DecisionList(3, [], default=-1))
    always −
    """

    kind: ClassVar[str] = "decision-list"
    rules: tuple[tuple[Literal, int], ...] = attrs.field(converter=_rules)
    default: int = attrs.field(converter=_default)

    def __attrs_post_init__(self) -> None:
        _check_range([lit for lit, _ in self.rules], self.variables, "rules")

    @property
    def length(self) -> int:
        """L: the number of rules before the default."""
        return len(self.rules)

    @property
    def size(self) -> int:
        """L, as :attr:`length`."""
        return len(self.rules)

    def truth(self, X) -> np.ndarray:
        X = bits(X, self.variables)
        out = np.full(X.shape[:-1], self.default == 1, dtype=bool)
        decided = np.zeros(X.shape[:-1], dtype=bool)
        for lit, label in self.rules:
            column = X[..., lit.variable] != lit.negated
            fires = column & ~decided
            out = np.where(fires, label == 1, out)
            decided |= column
        return out

    def evaluate(self, x) -> bool:
        x = bits(x, self.variables)
        for lit, label in self.rules:
            if x[lit.variable] != lit.negated:
                return label == 1
        return self.default == 1

    def __str__(self) -> str:
        if not self.rules:
            return f"always {_SIGN[self.default]}"
        parts = [
            f"{'if' if i == 0 else 'elif'} {lit} then {_SIGN[label]}"
            for i, (lit, label) in enumerate(self.rules)
        ]
        return " ".join(parts) + f" else {_SIGN[self.default]}"

    def as_decision_list(self) -> DecisionList:
        return self

    def regions(self) -> list[Region]:
        out = []
        fixed: dict[int, bool] = {}
        feasible = True
        for lit, label in self.rules:
            if not feasible:
                break
            want = not lit.negated  # the literal is true
            if fixed.get(lit.variable, want) == want:
                here = dict(fixed)
                here[lit.variable] = want
                out.append(_region(here, label))
            # later rules see this literal false
            if fixed.get(lit.variable, not want) != (not want):
                feasible = False
            fixed[lit.variable] = not want
        if feasible:
            out.append(_region(fixed, self.default))
        return out

    def params(self) -> dict[str, Any]:
        return {
            "variables": int(self.variables),
            "rules": [[str(lit), int(label)] for lit, label in self.rules],
            "default": int(self.default),
        }

    @classmethod
    def from_params(cls, params, realizable):
        return cls(params["variables"], params["rules"], params["default"], realizable=realizable)

    @classmethod
    def random(cls, variables: int, length: int, rng: np.random.Generator):
        """A decision list of ``length`` rules on distinct variables, drawn uniformly.

        The variables are a uniform ordered ``length``-subset, each negated with
        probability 1/2; every rule's label is ±1 with probability 1/2, and the
        default is the opposite of the last rule's (so that rule matters and a
        list of length ≥ 1 is never constant; with length 0 the default is ±1
        with probability 1/2).

        Examples
        --------
        >>> import numpy as np
        >>> d = DecisionList.random(8, 3, np.random.default_rng(2))
        >>> d.length, len({lit.variable for lit, _ in d.rules})
        (3, 3)
        """
        _bounded_size(length, variables, "length")
        chosen = rng.choice(variables, size=length, replace=False)
        negated = rng.integers(0, 2, size=length) == 1
        labels = rng.integers(0, 2, size=length + 1) * 2 - 1
        rules = [
            (Literal(int(v), bool(s)), int(b))
            for v, s, b in zip(chosen, negated, labels[:-1], strict=True)
        ]
        default = -rules[-1][1] if rules else int(labels[-1])
        return cls(variables, rules, default)


def _region(fixed: dict[int, bool], label: int) -> Region:
    keys = sorted(fixed)
    variables = np.array(keys, dtype=np.intp)
    values = np.array([fixed[k] for k in keys], dtype=bool)
    return Region(variables, values, int(label))


# -- reading and drawing -------------------------------------------------------

_IF = re.compile(r"^\s*if\s+(.+?)\s+then\s+(\S+)\s*(.*)$", re.IGNORECASE | re.DOTALL)
_ELIF = re.compile(r"^\s*elif\s+(.+?)\s+then\s+(\S+)\s*(.*)$", re.IGNORECASE | re.DOTALL)
_ELSE = re.compile(r"^\s*else\s+(\S+)\s*$", re.IGNORECASE)
_ALWAYS = re.compile(r"^\s*always\s+(\S+)\s*$", re.IGNORECASE)
_SPLIT_AND = re.compile(r"\s*(?:∧|&|\band\b)\s*", re.IGNORECASE)
_SPLIT_OR = re.compile(r"\s*(?:∨|\||\bor\b)\s*", re.IGNORECASE)


def parse_concept(text: str, variables: int | None = None) -> BooleanConcept:
    """A concept from its readable form.

    Accepts what ``str(concept)`` prints: ``x1 ∧ ¬x3`` (also ``&``, ``and``),
    ``x2 ∨ x5`` (also ``|``, ``or``), ``True``, ``False``,
    ``if x2 then + elif ¬x1 then − else +`` and ``always +``; negation also as
    ``~``, ``!`` or ``not``, and ``-`` for the label −.

    Parameters
    ----------
    text : str
        The readable form.
    variables : int, optional
        n; by default the highest variable named (at least 1).

    Examples
    --------
    >>> print(parse_concept("x1 & ~x3", variables=5).describe())
    x1 ∧ ¬x3 over 5 variables
    >>> d = parse_concept("x2 or x4")
    >>> type(d).__name__, str(d), d.variables
    ('Disjunction', 'x2 ∨ x4', 4)
    >>> parse_concept("if x1 then + else -", variables=2).length
    1
    """
    if not isinstance(text, str):
        raise ParameterError("text", text, "the readable form of a concept (a string)")
    body = text.strip()
    if _IF.match(body) or _ALWAYS.match(body):
        rules, default = _parse_list(body, text)
        top = max((lit.variable + 1 for lit, _ in rules), default=1)
        return DecisionList(variables or top, rules, default)
    lowered = body.lower()
    if lowered in ("true", "⊤"):
        return Conjunction(variables or 1, [])
    if lowered in ("false", "⊥"):
        return Disjunction(variables or 1, [])
    if _SPLIT_OR.search(body):
        literals = [parse_literal(p) for p in _SPLIT_OR.split(body)]
        kind: type[BooleanConcept] = Disjunction
    else:
        literals = [parse_literal(p) for p in _SPLIT_AND.split(body)]
        kind = Conjunction
    top = max(lit.variable + 1 for lit in literals)
    return kind(variables or top, literals)


def _parse_list(body: str, text: str):
    always = _ALWAYS.match(body)
    if always:
        return [], _label(always.group(1))
    rules = []
    match = _IF.match(body)
    while match is not None:
        rules.append((parse_literal(match.group(1)), _label(match.group(2))))
        rest = match.group(3)
        match = _ELIF.match(rest)
        if match is None:
            tail = _ELSE.match(rest)
            if tail is None:
                raise ParameterError("text", text, "a decision list ending in 'else +' or 'else −'")
            return rules, _label(tail.group(1))
    raise ParameterError("text", text, "a decision list such as 'if x1 then + else −'")


def random_concept(
    kind: str, variables: int, size: int, rng: np.random.Generator
) -> BooleanConcept:
    """A random concept of one of :data:`CONCEPT_KINDS`, with ``size`` literals or rules.

    Examples
    --------
    >>> import numpy as np
    >>> c = random_concept("decision-list", 6, 2, np.random.default_rng(0))
    >>> type(c).__name__, c.length
    ('DecisionList', 2)
    """
    if kind == "conjunction":
        return Conjunction.random(variables, size, rng)
    if kind == "monotone-conjunction":
        return Conjunction.random(variables, size, rng, monotone=True)
    if kind == "disjunction":
        return Disjunction.random(variables, size, rng)
    if kind == "decision-list":
        return DecisionList.random(variables, size, rng)
    raise ParameterError("kind", kind, "one of " + ", ".join(map(repr, CONCEPT_KINDS)))
