"""Hypothesis strategies for Boolean concepts and the sequences they label.

Targets of each kind (:func:`conjunctions`, :func:`disjunctions`,
:func:`decision_lists`, or any of them with :func:`boolean_concepts`) and
realizable sequences over a target (:func:`realizable_sequences`): bit
matrices whose labels the target gives. A uniform bit vector is rarely a
positive example of a long conjunction, so each row may be *planted* in one of
the target's regions (:meth:`~game.theory.concepts.BooleanConcept.regions`)
of a chosen label; hypothesis shrinks towards unplanted rows of zeros.

Examples
--------
>>> from hypothesis import given, settings
>>> from game.testing.strategies import conjunctions, realizable_sequences
>>> @settings(max_examples=20)
... @given(realizable_sequences(conjunctions(max_variables=5)))
... def test_labels(data):
...     concept, X, y = data
...     assert (concept.labels(X) == y).all()
>>> test_labels()
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from game.theory.concepts import (
    BooleanConcept,
    Conjunction,
    DecisionList,
    Disjunction,
    Literal,
    MonotoneConjunction,
)

__all__ = [
    "bit_vectors",
    "boolean_concepts",
    "conjunctions",
    "decision_lists",
    "disjunctions",
    "literals",
    "realizable_sequences",
]


def literals(variables: int) -> st.SearchStrategy[Literal]:
    """A literal x_i or ¬x_i over ``variables`` bits.

    Examples
    --------
    >>> from hypothesis import given, settings
    >>> @settings(max_examples=10)
    ... @given(literals(3))
    ... def check(lit):
    ...     assert 0 <= lit.variable < 3
    >>> check()
    """
    return st.builds(Literal, st.integers(0, variables - 1), st.booleans())


def bit_vectors(variables: int) -> st.SearchStrategy[np.ndarray]:
    """A bool vector of length ``variables``.

    Examples
    --------
    >>> from hypothesis import given, settings
    >>> @settings(max_examples=10)
    ... @given(bit_vectors(4))
    ... def check(x):
    ...     assert x.shape == (4,) and x.dtype == bool
    >>> check()
    """
    return hnp.arrays(np.bool_, variables)


def _literal_sets(draw, n: int, max_size: int | None, monotone: bool, distinct: bool):
    top = n if max_size is None else min(max_size, n)
    if distinct or monotone:
        chosen = draw(st.lists(st.integers(0, n - 1), unique=True, max_size=top))
        signs = [False if monotone else draw(st.booleans()) for _ in chosen]
        return [Literal(v, s) for v, s in zip(chosen, signs, strict=True)]
    pairs = draw(
        st.lists(
            st.tuples(st.integers(0, n - 1), st.booleans()),
            unique=True,
            max_size=2 * n if max_size is None else max_size,
        )
    )
    return [Literal(v, s) for v, s in pairs]


@st.composite
def conjunctions(
    draw,
    min_variables: int = 1,
    max_variables: int = 10,
    *,
    monotone: bool = False,
    max_size: int | None = None,
    distinct: bool = False,
) -> Conjunction:
    """A conjunction over n ∈ [min_variables, max_variables] bits.

    Parameters
    ----------
    monotone : bool, default False
        Only unnegated variables (a :class:`MonotoneConjunction`).
    max_size : int, optional
        At most this many literals.
    distinct : bool, default False
        Literals on distinct variables; otherwise x_i and ¬x_i may both appear
        (a conjunction that is False everywhere).

    Examples
    --------
    >>> from hypothesis import given, settings
    >>> @settings(max_examples=10)
    ... @given(conjunctions(max_variables=4, monotone=True))
    ... def check(c):
    ...     assert type(c).__name__ == "MonotoneConjunction" and c.variables <= 4
    >>> check()
    """
    n = draw(st.integers(min_variables, max_variables))
    chosen = _literal_sets(draw, n, max_size, monotone, distinct)
    return (MonotoneConjunction if monotone else Conjunction)(n, chosen)


@st.composite
def disjunctions(
    draw,
    min_variables: int = 1,
    max_variables: int = 10,
    *,
    monotone: bool = True,
    max_size: int | None = None,
) -> Disjunction:
    """A disjunction of literals on distinct variables; monotone (r of n) by default.

    Examples
    --------
    >>> from hypothesis import given, settings
    >>> @settings(max_examples=10)
    ... @given(disjunctions(max_variables=6, max_size=2))
    ... def check(d):
    ...     assert d.monotone and d.size <= 2
    >>> check()
    """
    n = draw(st.integers(min_variables, max_variables))
    return Disjunction(n, _literal_sets(draw, n, max_size, monotone, True))


@st.composite
def decision_lists(
    draw,
    min_variables: int = 1,
    max_variables: int = 10,
    *,
    max_length: int | None = None,
) -> DecisionList:
    """A decision list over n bits; rules may repeat variables (and be redundant).

    Examples
    --------
    >>> from hypothesis import given, settings
    >>> @settings(max_examples=10)
    ... @given(decision_lists(max_variables=3, max_length=4))
    ... def check(d):
    ...     assert d.length <= 4
    >>> check()
    """
    n = draw(st.integers(min_variables, max_variables))
    top = 2 * n + 1 if max_length is None else max_length
    rules = draw(st.lists(st.tuples(literals(n), st.sampled_from([1, -1])), max_size=top))
    default = draw(st.sampled_from([1, -1]))
    return DecisionList(n, rules, default)


def boolean_concepts(min_variables: int = 1, max_variables: int = 10) -> st.SearchStrategy:
    """Any of the kinds above: conjunction, monotone conjunction, disjunction, decision list.

    Examples
    --------
    >>> from hypothesis import given, settings
    >>> from game.theory.concepts import BooleanConcept
    >>> @settings(max_examples=10)
    ... @given(boolean_concepts(max_variables=3))
    ... def check(c):
    ...     assert isinstance(c, BooleanConcept)
    >>> check()
    """
    return st.one_of(
        conjunctions(min_variables, max_variables),
        conjunctions(min_variables, max_variables, monotone=True),
        disjunctions(min_variables, max_variables, monotone=False),
        disjunctions(min_variables, max_variables),
        decision_lists(min_variables, max_variables),
    )


@st.composite
def realizable_sequences(
    draw,
    concepts: st.SearchStrategy[BooleanConcept],
    *,
    min_rounds: int = 0,
    max_rounds: int = 60,
    planted: bool = True,
) -> tuple[BooleanConcept, np.ndarray, np.ndarray]:
    """A target and a sequence it labels: ``(concept, X, y)``.

    ``X`` is a bool matrix, one instance per row; ``y`` the target's int8 ±1
    labels. With ``planted`` each row may be moved into a region of a label
    hypothesis chooses, so positives of long conjunctions and negatives of long
    disjunctions appear.

    Examples
    --------
    >>> from hypothesis import given, settings
    >>> @settings(max_examples=10)
    ... @given(realizable_sequences(disjunctions(max_variables=4)))
    ... def check(data):
    ...     concept, X, y = data
    ...     assert X.shape[1] == concept.variables and (concept.labels(X) == y).all()
    >>> check()
    """
    concept = draw(concepts)
    n = concept.variables
    m = draw(st.integers(min_rounds, max_rounds))
    X = draw(hnp.arrays(np.bool_, (m, n))).copy()
    if planted and m:
        by_label = {label: [r for r in concept.regions() if r.label == label] for label in (1, -1)}
        for i in range(m):
            want = draw(st.sampled_from([0, 1, -1]))
            regions = by_label.get(want) or []
            if regions:
                region = regions[draw(st.integers(0, len(regions) - 1))]
                X[i, region.variables] = region.values
    return concept, X, concept.labels(X)
