"""Hypothesis strategies for linearly separable (and noisy) sequences of examples.

:func:`separable_sequences` draws a :class:`LinearSequence`: examples
x = y·a·u + v with a unit u, a ∈ [γ, R] and v ⟂ u short enough that
‖x‖ ≤ R, so that y·(u·x) ≥ γ and ‖x‖ ≤ R hold on every example **in floating
point** (the draws keep a relative 10⁻⁹ inside both limits). Any of u, γ, R and
the dimension may be fixed by the caller or drawn. The sizes, u, γ and R are
drawn by hypothesis; the examples' coordinates by a numpy generator whose seed
hypothesis draws (fast, and shrinkable), with a drawn share of the examples
pinned to the margin and to the sphere of radius R, where the bounds are tight.

:func:`noisy_sequences` corrupts some examples of a separable one: a flipped
label, or the point pushed inside the margin band (y·(u·x) ∈ [−γ, 0.999·γ]),
flagged in ``corrupted``.
Hypothesis shrinks towards short sequences in low dimension.

Examples
--------
>>> import numpy as np
>>> from hypothesis import given, settings
>>> from game.testing.strategies import separable_sequences
>>> @settings(max_examples=20)
... @given(separable_sequences(margin=0.1, radius=2.0))
... def test_margin(seq):
...     assert np.all(seq.y * (seq.X @ seq.u) >= 0.1)
...     assert np.all(np.linalg.norm(seq.X, axis=1) <= 2.0)
>>> test_margin()
"""

from __future__ import annotations

import functools
from typing import Any

import attrs
import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from game.errors import ParameterError
from game.theory import HalfspaceCertificate

__all__ = [
    "LinearSequence",
    "SequenceAdversary",
    "noisy_sequences",
    "separable_sequences",
    "unit_vectors",
]

_INSIDE = 1e-9  # relative distance kept inside the margin and the radius
# Strategies built once: building one per draw costs more than the draw.
_SEEDS = st.integers(0, 2**32 - 1)
_EDGES = st.sampled_from((0.0, 0.5, 1.0))
_RADII = st.floats(0.1, 10.0)
_SHARES = st.floats(0.02, 0.99)
_integers = functools.cache(st.integers)
_rates = functools.cache(lambda high: st.floats(0.0, high))


@attrs.frozen(eq=False)
class LinearSequence:
    """A sequence of labelled vectors with the unit vector, margin and radius it was drawn for.

    Attributes
    ----------
    X : numpy.ndarray
        The instances, one per row (n × d, float64).
    y : numpy.ndarray
        The labels ±1 (int64).
    u : numpy.ndarray
        The unit separator (the comparator, for a noisy sequence).
    margin : float
        γ: y·(u·x) ≥ γ on every example not corrupted.
    radius : float
        R: ‖x‖ ≤ R on every example.
    corrupted : numpy.ndarray
        Boolean flags of the corrupted examples (all False when separable).
    """

    X: np.ndarray
    y: np.ndarray
    u: np.ndarray
    margin: float
    radius: float
    corrupted: np.ndarray

    def __len__(self) -> int:
        return int(self.y.shape[0])

    @property
    def separable(self) -> bool:
        """Whether u separates every example with margin γ (no example corrupted)."""
        return not bool(self.corrupted.any())

    def certificate(self) -> HalfspaceCertificate:
        """u as a halfspace certificate: realizable when the sequence is separable.

        Examples
        --------
        >>> import numpy as np
        >>> seq = LinearSequence(np.eye(2), np.array([1, -1]), np.array([0.6, -0.8]), 0.6,
        ...                      1.0, np.zeros(2, dtype=bool))
        >>> seq.certificate().realizable, len(seq)
        (True, 2)
        """
        return HalfspaceCertificate(self.u, realizable=self.separable)

    def adversary(self) -> SequenceAdversary:
        """An oblivious adversary presenting the sequence once, certified by u.

        Examples
        --------
        >>> import numpy as np
        >>> from game import play
        >>> from learners import Perceptron
        >>> seq = LinearSequence(np.eye(2), np.array([1, -1]), np.array([0.6, -0.8]), 0.6,
        ...                      1.0, np.zeros(2, dtype=bool))
        >>> tr = play(Perceptron(), seq.adversary(), rounds=10)
        >>> len(tr), tr.certificate_verified
        (2, True)
        """
        return SequenceAdversary(self)


class SequenceAdversary:
    """Presents a :class:`LinearSequence` in order, then ends; its certificate is the sequence's.

    A realizable certificate for a separable sequence, a comparator for a noisy one.

    Parameters
    ----------
    sequence : LinearSequence
        The examples to present.

    Examples
    --------
    >>> import numpy as np
    >>> seq = LinearSequence(np.eye(2), np.array([1, 1]), np.array([0.6, 0.8]), 0.6, 1.0,
    ...                      np.array([False, True]))
    >>> adv = SequenceAdversary(seq)
    >>> x = adv.instance(None); adv.label(x, 1.0, None), adv.certificate().realizable
    (1, False)
    """

    presents = "vector"

    def __init__(self, sequence: LinearSequence):
        self.sequence = sequence
        self._rows = list(sequence.X)
        self._labels = sequence.y.tolist()
        self._t = 0

    def instance(self, history) -> np.ndarray | None:
        """The next example, or None after the last."""
        if self._t == len(self._rows):
            return None
        self._t += 1
        return self._rows[self._t - 1]

    def label(self, x, p, history) -> int:
        """The label of the example just presented."""
        return self._labels[self._t - 1]

    def certificate(self) -> HalfspaceCertificate:
        """u, realizable when the sequence is separable."""
        return self.sequence.certificate()


@functools.cache
def unit_vectors(dimension: int) -> st.SearchStrategy[np.ndarray]:
    """A unit vector in R^dimension (normalised from entries in [−1, 1], norm ≥ 0.1).

    Examples
    --------
    >>> from hypothesis import given, settings
    >>> @settings(max_examples=10)
    ... @given(unit_vectors(3))
    ... def check(u):
    ...     assert abs(float(u @ u) - 1.0) < 1e-12
    >>> check()
    """
    entries = st.floats(-1.0, 1.0, allow_nan=False, allow_subnormal=False)
    raw = hnp.arrays(np.float64, dimension, elements=entries)
    return raw.filter(lambda v: float(np.linalg.norm(v)) >= 0.1).map(
        lambda v: v / np.linalg.norm(v)
    )


def _value(draw, given: Any, strategy: st.SearchStrategy):
    return draw(strategy) if given is None else given


@st.composite
def separable_sequences(
    draw,
    *,
    dimension: int | None = None,
    u: Any = None,
    margin: float | None = None,
    radius: float | None = None,
    min_size: int = 1,
    max_size: int = 40,
    max_dimension: int = 6,
) -> LinearSequence:
    """A sequence separated by a unit u with margin γ inside the ball of radius R.

    Parameters
    ----------
    dimension : int, optional
        d (default: drawn from 1 to ``max_dimension``, or u's length).
    u : array_like, optional
        The separator (normalised); drawn uniformly-ish by default.
    margin : float, optional
        γ ∈ (0, R) (default: drawn from [0.02·R, 0.99·R]).
    radius : float, optional
        R > 0 (default: drawn from [0.1, 10]).
    min_size, max_size : int
        Bounds on the number of examples.
    max_dimension : int, default 6
        The largest dimension drawn.

    Returns
    -------
    LinearSequence
        With y·(u·x) ≥ γ and ‖x‖ ≤ R on every example.
    """
    if u is not None:
        u = np.asarray(u, dtype=np.float64)
        u = u / np.linalg.norm(u)
        dimension = u.shape[0]
    d = _value(draw, dimension, _integers(1, max_dimension))
    if u is None:
        u = draw(unit_vectors(d))
    R = float(_value(draw, radius, _RADII))
    gamma = float(margin) if margin is not None else draw(_SHARES) * R
    if not 0 < gamma < R * (1 - 1e-8):
        raise ParameterError("margin", gamma, "a number in (0, radius)", f"radius {R!r}")
    n = draw(_integers(min_size, max_size))
    # The bulk comes from a generator seeded by hypothesis (fast, and the seed
    # shrinks); ``edge`` pins a share of the examples to the margin (a = γ) and
    # to the sphere (‖x‖ = R), where the bounds are tight.
    gen = np.random.default_rng(draw(_SEEDS))
    edge = draw(_EDGES)
    signs = gen.integers(0, 2, n).astype(bool)
    spread = np.where(gen.uniform(size=n) < edge, 0.0, gen.uniform(size=n))
    lengths = np.where(gen.uniform(size=n) < edge, 1.0, gen.uniform(size=n))
    V = gen.uniform(-1.0, 1.0, size=(n, d))
    y = np.where(signs, 1, -1).astype(np.int64)
    low, high = gamma * (1 + _INSIDE), R * (1 - _INSIDE)
    a = np.minimum(low + spread * (high - low), high)
    V = V - (V @ u)[:, None] * u
    norms = np.linalg.norm(V, axis=1)
    room = np.sqrt(np.maximum(high**2 - a**2, 0.0)) * (1 - _INSIDE) * lengths
    keep = norms > 1e-6
    V = np.where(keep[:, None], V * (room / np.where(keep, norms, 1.0))[:, None], 0.0)
    V = V - (V @ u)[:, None] * u  # project again: the rescaled rounding stays tiny
    X = (y * a)[:, None] * u + V
    return LinearSequence(X, y, u, gamma, R, np.zeros(n, dtype=bool))


@st.composite
def noisy_sequences(
    draw, *, noise: str | None = None, max_rate: float = 0.5, **separable: Any
) -> LinearSequence:
    """A separable sequence with some examples corrupted: labels flipped or points pushed in.

    Parameters
    ----------
    noise : {"flip", "margin"}, optional
        How every corrupted example is corrupted (default: drawn per example).
        "flip" negates the label (so y·(u·x) ≤ −γ); "margin" replaces the
        component along u so that y·(u·x) ∈ [−γ, 0.999·γ], the label kept.
    max_rate : float, default 0.5
        A rate is drawn from [0, max_rate]; each example is corrupted with
        that probability (by a generator whose seed hypothesis draws).
    **separable
        Passed to :func:`separable_sequences`.

    Examples
    --------
    >>> import numpy as np
    >>> from hypothesis import given, settings
    >>> @settings(max_examples=20)
    ... @given(noisy_sequences(noise="flip", margin=0.2, radius=1.0))
    ... def check(seq):
    ...     m = seq.y * (seq.X @ seq.u)
    ...     assert np.all(m[~seq.corrupted] >= 0.2) and np.all(m[seq.corrupted] <= -0.2)
    >>> check()
    """
    seq = draw(separable_sequences(**separable))
    n = len(seq)
    rate = draw(_rates(float(max_rate)))
    gen = np.random.default_rng(draw(_SEEDS))
    flags = gen.uniform(size=n) < rate
    kinds = gen.integers(0, 2, n).astype(bool) if noise is None else np.full(n, noise == "flip")
    depth = gen.uniform(-1.0, 0.999, n)
    X, y, u = seq.X.copy(), seq.y.copy(), seq.u
    flip = flags & kinds
    push = flags & ~kinds
    y[flip] = -y[flip]
    along = X[push] @ u
    X[push] += ((y[push] * depth[push] * seq.margin) - along)[:, None] * u
    return LinearSequence(X, y, u, seq.margin, seq.radius, flags)
