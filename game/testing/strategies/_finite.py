"""Hypothesis strategies for finite concept classes and the sequences they label.

:func:`finite_classes` draws random ±1 matrices (with a random bias, so
sparse and dense classes both come up), :func:`structured_classes` the
builders of :mod:`game.theory.concepts` at small sizes, :func:`any_finite_class`
either; :func:`point_sequences` draws a sequence of points of a class labelled
by one of its hypotheses (the target), so the sequence is realisable.

Examples
--------
>>> from hypothesis import given, settings
>>> from game.testing.strategies import any_finite_class, point_sequences
>>> @settings(max_examples=20)
... @given(point_sequences(any_finite_class()))
... def test_realised(data):
...     cls, target, points, labels = data
...     assert (cls.matrix[target, points] == labels).all()
>>> test_realised()
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from game.theory.concepts import (
    FiniteClass,
    all_functions,
    conjunctions,
    decision_lists,
    intervals,
    monotone_conjunctions,
    parities,
    singletons,
    thresholds,
)

__all__ = ["any_finite_class", "finite_classes", "point_sequences", "structured_classes"]


@st.composite
def finite_classes(
    draw,
    *,
    min_hypotheses: int = 1,
    max_hypotheses: int = 24,
    min_points: int = 1,
    max_points: int = 6,
) -> FiniteClass:
    """A random finite class: a ±1 matrix drawn entry by entry with a random bias.

    Duplicate rows are merged by :class:`FiniteClass`, so the class may hold
    fewer than the rows drawn (never fewer than one when ``min_hypotheses`` ≥ 1).

    Examples
    --------
    >>> from hypothesis import given, settings
    >>> @settings(max_examples=10)
    ... @given(finite_classes(max_points=3))
    ... def check(cls):
    ...     assert 1 <= cls.n_points <= 3 and 1 <= cls.n_hypotheses <= 8
    >>> check()
    """
    n = draw(st.integers(min_points, max_points))
    rows = draw(st.integers(min_hypotheses, max_hypotheses))
    bias = draw(st.sampled_from([0.1, 0.3, 0.5, 0.7, 0.9]))
    bits = draw(
        st.lists(
            st.lists(st.floats(0, 1, exclude_max=True), min_size=n, max_size=n),
            min_size=rows,
            max_size=rows,
        )
    )
    matrix = np.where(np.array(bits, dtype=float).reshape(rows, n) < bias, 1, -1)
    return FiniteClass(matrix.astype(np.int8), name="random")


def structured_classes(max_size: int = 6) -> st.SearchStrategy[FiniteClass]:
    """A builder's class at a small size: thresholds, intervals, singletons, all
    functions, parities, (monotone) conjunctions or decision lists.

    Examples
    --------
    >>> from hypothesis import given, settings
    >>> @settings(max_examples=10)
    ... @given(structured_classes(4))
    ... def check(cls):
    ...     assert cls.name and cls.n_hypotheses >= 1
    >>> check()
    """
    m = max(1, max_size)
    bits = max(1, min(m, 4))
    return st.one_of(
        st.integers(1, 3 * m).map(thresholds),
        st.integers(1, 2 * m).map(intervals),
        st.integers(1, 2 * m).map(singletons),
        st.integers(1, m).map(all_functions),
        st.integers(1, bits).map(parities),
        st.integers(1, min(bits, 3)).map(conjunctions),
        st.integers(1, bits).map(monotone_conjunctions),
        st.tuples(st.integers(1, min(bits, 3)), st.integers(0, 2)).map(
            lambda a: decision_lists(*a)
        ),
    )


def any_finite_class(max_hypotheses: int = 24, max_points: int = 6) -> st.SearchStrategy:
    """A random or a structured finite class (see the two strategies above)."""
    return st.one_of(
        finite_classes(max_hypotheses=max_hypotheses, max_points=max_points),
        structured_classes(max_points),
    )


@st.composite
def point_sequences(draw, classes: st.SearchStrategy[FiniteClass], max_length: int = 20):
    """(class, target, points, labels): points of the class labelled by its hypothesis ``target``.

    ``points`` is a list of ints (repeats allowed), ``labels`` the target's
    labels on them as a list of ±1 ints.
    """
    cls = draw(classes)
    target = draw(st.integers(0, cls.n_hypotheses - 1))
    if cls.n_points == 0:
        return cls, target, [], []
    points = draw(st.lists(st.integers(0, cls.n_points - 1), max_size=max_length))
    labels = [int(cls.matrix[target, x]) for x in points]
    return cls, target, points, labels
