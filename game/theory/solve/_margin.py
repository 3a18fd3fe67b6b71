"""The best margin of a data set through the origin, and Theorem 9.1's B, bracketed.

:func:`best_margin` solves for the maximum-margin separator through the origin
with scipy (Lawson & Hanson's least distance program, one NNLS on a growing
working set), then brackets γ* between the margin of the separator it found
and the norm of the dual point it found, both computed here, and returns a
:class:`BestMargin`; its :meth:`~BestMargin.certificate` is the realizable
halfspace certificate a :class:`~adversaries.Replay` hands over for data it
was given no certificate for.

Examples
--------
>>> import numpy as np
>>> from game.theory.solve import best_margin
>>> X = np.array([[2.0, 1.0], [1.0, 2.0], [-1.0, -1.0]])
>>> m = best_margin(X, [1, 1, -1])
>>> m.separable, round(m.margin_low, 9), round(m.margin_high, 9)   # γ* = √2
(True, 1.414213562, 1.414213562)
>>> np.round(m.separator, 6).tolist(), round(m.b_high, 6)          # u* and B = 1/√2
([0.707107, 0.707107], 0.707107)
"""

from __future__ import annotations

import math

import attrs
import numpy as np

from game.errors import GameError, ParameterError
from game.theory._certificates import HalfspaceCertificate, frozen_copy
from game.theory._numerics import row_norms, scores, unit_vector, vector_norm

__all__ = ["MARGIN_SOURCES", "BestMargin", "best_margin"]

#: The theorems γ* and B serve, and the algorithm that finds them.
MARGIN_SOURCES = (
    "CS229 notes (seed 001), Theorem of Block 1962 and Novikoff 1962 (γ, a unit separator's "
    "margin); Shalev-Shwartz & Ben-David §9.1.2 (seed 002), Theorem 9.1 (B); Lawson & Hanson, "
    "Solving Least Squares Problems (1974), ch. 23 (least distance programming by NNLS)"
)

_EPS = 2.0**-53
#: A point outside the working set is violated when its margin is below γ·(1 − this).
_VIOLATION = 1e-10
#: The working set starts with at least this many points (all of them when fewer).
_FIRST = 256
#: Below this (relative to the largest row norm) the dual point is 0: 0 is in the hull.
_ZERO = 64 * _EPS


_IN_THE_HULL = "no separator through the origin: 0 is in the convex hull of the y·x"


def _frozen_or_none(value):
    return None if value is None else frozen_copy(np.asarray(value, dtype=np.float64))


@attrs.frozen(eq=False)
class BestMargin:
    """The best margin γ* of a data set through the origin, bracketed, with B = 1/γ*.

    Every number is the referee's own arithmetic on the data and the two points
    the solver found, never the solver's claim (see :func:`best_margin`'s
    notes): γ* ∈ [``margin_low``, ``margin_high``] and B ∈ [``b_low``, ``b_high``].

    Attributes
    ----------
    separable : bool
        Whether a separator through the origin with a positive margin on every
        example was found (the referee's
        :class:`~game.theory.HalfspaceCertificate` agrees with every label).
        False when 0 is in the convex hull of the y_i·x_i (``margin_high`` ≈ 0
        shows it): then γ* ≤ 0, reported as 0.
    margin_low : float
        The margin min_i y_i⟨u, x_i⟩ of ``separator``: γ* ≥ it. 0 when not separable.
    margin_high : float
        ‖Zᵀλ‖ for the dual point λ (``dual``), rounding allowed for: γ* ≤ it.
    separator : numpy.ndarray or None
        The unit separator u (None when not separable); immutable.
    minimiser : numpy.ndarray or None
        w = u/``margin_low``, nudged up where rounding needs it so that
        y_i⟨w, x_i⟩ ≥ 1 on every example (as :func:`game.theory.scores`
        computes it): Theorem 9.1's feasible w. None when not separable.
    b_low, b_high : float
        1/``margin_high`` ≤ B ≤ ‖w‖ (``b_high`` is +inf when not separable).
    dual : numpy.ndarray
        λ, one weight per example, ≥ 0 and summing to 1; non-zero on the
        support vectors.
    radius : float
        R = max_i ‖x_i‖.
    """

    separable: bool
    margin_low: float
    margin_high: float
    separator: np.ndarray | None = attrs.field(converter=_frozen_or_none, repr=False)
    minimiser: np.ndarray | None = attrs.field(converter=_frozen_or_none, repr=False)
    b_low: float
    b_high: float
    dual: np.ndarray = attrs.field(converter=frozen_copy, repr=False)
    radius: float

    @property
    def margin(self) -> float:
        """γ* as attained: ``margin_low`` when separable, else 0."""
        return self.margin_low if self.separable else 0.0

    @property
    def gap(self) -> float:
        """``margin_high`` − ``margin_low``: how far γ* is known."""
        return self.margin_high - self.margin_low

    @property
    def b(self) -> float:
        """B as attained: ‖``minimiser``‖ (``b_high``), +inf when not separable."""
        return self.b_high

    @property
    def support(self) -> np.ndarray:
        """The examples the dual point weighs (the support vectors), as indices."""
        return np.flatnonzero(self.dual)

    def describe(self) -> str:
        """One line: what the solver found, γ*'s bounds and B's, to 6 significant digits.

        The digits are rounded to nearest, so that the last bits of a solve,
        which may differ between processors, do not change the line.

        Examples
        --------
        >>> best_margin([[3.0, 4.0], [-4.0, -3.0]], [1, -1]).describe()
        'the best-margin separator found by the solver: γ* ∈ [4.94975, 4.94975], B ≤ 0.202031'
        >>> best_margin([[1.0], [1.0]], [1, -1]).describe()
        'no separator through the origin: 0 is in the convex hull of the y·x (γ* ≤ 0, to within ...'
        """
        if not self.separable:
            if self.margin_high <= _ZERO * self.radius:
                return f"{_IN_THE_HULL} (γ* ≤ 0, to within {self.margin_high:.2g})"
            return f"no separator through the origin found: γ* ≤ {self.margin_high:.6g}"
        return (
            "the best-margin separator found by the solver: "
            f"γ* ∈ [{self.margin_low:.6g}, {self.margin_high:.6g}], B ≤ {self.b_high:.6g}"
        )

    def certificate(self) -> HalfspaceCertificate | None:
        """The separator as a realizable halfspace certificate that says what it is, or None.

        Examples
        --------
        >>> c = best_margin([[1.0, 0.0], [0.0, -1.0]], [1, 1]).certificate()
        >>> c.describe()
        'sign(w·x), w = (0.7071, -0.7071) in dimension 2; the best-margin separator ...'
        """
        if not self.separable:
            return None
        return HalfspaceCertificate(self.separator, note=self.describe())


# -- input ---------------------------------------------------------------------------


def _matrix(X) -> np.ndarray:
    expected = "a matrix of finite real numbers, one example per row (n × d, n, d ≥ 1)"
    try:
        A = np.asarray(X)
    except (TypeError, ValueError):
        raise ParameterError("X", X, expected, "rows of different lengths") from None
    if A.ndim != 2 or A.dtype.kind not in "iuf":
        raise ParameterError("X", X, expected)
    if A.shape[0] == 0 or A.shape[1] == 0:
        raise ParameterError("X", X, expected, f"an array of shape {A.shape}: no data")
    A = A.astype(np.float64, copy=False)
    if not np.isfinite(A).all():
        row, column = (int(i) + 1 for i in np.argwhere(~np.isfinite(A))[0])
        raise ParameterError("X", X, expected, f"row {row}, column {column} is not finite")
    return A


def _labels(y, n: int) -> np.ndarray:
    expected = f"a vector of {n} labels, each -1 or 1"
    try:
        v = np.asarray(y)
    except (TypeError, ValueError):
        raise ParameterError("y", y, expected) from None
    if v.ndim != 1 or v.shape[0] != n or v.dtype.kind not in "iuf":
        raise ParameterError("y", y, expected)
    wrong = np.flatnonzero((v != 1) & (v != -1))
    if wrong.size:
        raise ParameterError("y", y, expected, f"row {wrong[0] + 1} is neither")
    return v.astype(np.float64)


# -- the solver ----------------------------------------------------------------------


def _nnls(Z: np.ndarray, c: float) -> np.ndarray:
    """α ≥ 0 minimising ‖Zᵀα‖² + (c·Σα − 1)² (Lawson & Hanson's LDP as NNLS)."""
    from scipy.optimize import nnls

    k, d = Z.shape
    E = np.empty((d + 1, k))
    E[:d] = Z.T
    E[d] = c
    f = np.zeros(d + 1)
    f[d] = 1.0
    for maxiter in (3 * k + 50, 30 * k + 500):
        try:
            alpha, _ = nnls(E, f, maxiter=maxiter)
            return alpha
        except RuntimeError:  # the iteration limit
            continue
    raise GameError(f"best_margin: the solver did not converge on a working set of {k} points")


def _simplex(alpha: np.ndarray) -> np.ndarray | None:
    alpha = np.maximum(alpha, 0.0)
    total = math.fsum(alpha)
    return alpha / total if total > 0 and math.isfinite(total) else None


def _dual_norm(Z: np.ndarray, lam: np.ndarray) -> float:
    """An upper bound on ‖Zᵀλ/Σλ‖: the float value plus an allowance for its rounding."""
    S = np.flatnonzero(lam)
    if S.size == 0:
        return math.inf
    ZS, w = Z[S], lam[S]
    v = ZS.T @ w
    spread = np.abs(ZS).T @ w
    k = S.size
    bound = vector_norm(v) + (k + 4) * _EPS * vector_norm(spread)
    bound = bound * (1.0 + 8 * _EPS) / math.fsum(w)
    return math.nextafter(bound, math.inf)


def _subset_solution(Z: np.ndarray, c: float) -> tuple[np.ndarray, float, list[np.ndarray]]:
    """On a working set: the best dual point λ found, its ‖Zᵀλ‖, and candidate directions.

    ``c`` is the scale of the first solve (γ*'s estimate); a dual point much
    shorter than it is solved again at its own scale.
    """
    candidates: list[np.ndarray] = []
    best_lam, best_g = None, math.inf
    for _ in range(3):
        lam = _simplex(_nnls(Z, c))
        if lam is None:
            break
        v = Z.T @ lam
        g = vector_norm(v)
        if g < best_g:
            best_lam, best_g = lam, g
        if g > 0:
            candidates.append(v)
        if not (0 < g < 0.25 * c):  # the residual is well scaled: c ≈ γ*
            break
        c = g
    if best_lam is None:
        raise GameError("best_margin: the solver returned no dual point")
    # the support vectors: the primal is the least-norm solution of Z_S w = 1
    S = np.flatnonzero(best_lam)
    ZS = Z[S]
    w = np.linalg.lstsq(ZS, np.ones(S.size), rcond=None)[0]
    if np.all(np.isfinite(w)) and np.any(w):
        candidates.append(w)
        alpha = np.linalg.lstsq(ZS.T, w, rcond=None)[0]  # w = Z_Sᵀα: the dual, polished
        lam = _simplex(alpha)
        if lam is not None:
            full = np.zeros(Z.shape[0])
            full[S] = lam
            g = vector_norm(Z.T @ full)
            if g < best_g:
                best_lam, best_g = full, g
    return best_lam, best_g, candidates


def _solve(Z: np.ndarray, top: float) -> tuple[np.ndarray | None, np.ndarray]:
    """(direction or None, λ) for rows z_i scaled to entries below 1, on a working set.

    ``top`` is the largest row norm. The working set is the current support
    vectors and the points of smallest margin under the current separator; it
    is solved again while some point outside it is violated. Each round keeps
    the support, so the dual point's norm only goes down (strictly, when a
    point is violated): no working set comes back. The direction returned is
    the candidate with the largest margin on the working set; None when the
    dual point is 0 (0 is in the hull).
    """
    n, d = Z.shape
    first = min(n, max(_FIRST, d + 1))
    if first == n:
        chosen = np.arange(n)
    else:
        mean = Z.mean(axis=0)
        order = Z @ mean if np.any(mean) else np.arange(n, dtype=np.float64)
        chosen = np.sort(np.argpartition(order, first - 1)[:first])
    previous = math.inf
    while True:
        lam, g, candidates = _subset_solution(Z[chosen], min(1.0, previous))
        full = np.zeros(n)
        full[chosen] = lam
        if g <= _ZERO * top or not candidates:  # the dual point is 0: so is γ*
            return None, full
        units = [v / vector_norm(v) for v in candidates]  # the best on the working set
        best = max(units, key=lambda u: float((Z[chosen] @ u).min()))
        margins = Z @ best
        outside = np.ones(n, dtype=bool)
        outside[chosen] = False
        violated = np.flatnonzero(outside & (margins < g * (1.0 - _VIOLATION)))
        if violated.size == 0:
            return best, full
        if g < previous:  # progress: the support and the points of smallest margin
            support = np.flatnonzero(full)
            rest = np.ones(n, dtype=bool)
            rest[support] = False
            others = np.flatnonzero(rest)
            if others.size > first:
                others = others[np.argpartition(margins[others], first - 1)[:first]]
            chosen = np.union1d(support, np.union1d(others, violated[:first]))
        else:  # rounding stalled the descent: grow the set instead
            chosen = np.union1d(chosen, violated)
        previous = g


# -- the referee's arithmetic ---------------------------------------------------------


def _feasible(X: np.ndarray, y: np.ndarray, u: np.ndarray, low: float) -> np.ndarray:
    """w = u/low, scaled up by a few ulps where rounding leaves some y⟨w, x⟩ below 1."""
    w = u / low
    for _ in range(8):
        worst = float((y * scores(X, w)).min())
        if worst >= 1.0:
            return w
        w = w * (math.nextafter(1.0 / worst, math.inf) * (1.0 + 4 * _EPS))
    return w


def best_margin(X, y) -> BestMargin:
    """The maximum-margin separator through the origin of ``(X, y)``, γ* and B, bracketed.

    γ* = max_{‖u‖=1} min_i y_i⟨u, x_i⟩ (the margin of Block–Novikoff, CS229
    notes, seed 001) and B = min{‖w‖ : y_i⟨w, x_i⟩ ≥ 1 ∀i} = 1/γ* (Theorem
    9.1, Shalev-Shwartz & Ben-David §9.1.2, seed 002). Solved as Lawson &
    Hanson's least distance program (one NNLS, :data:`MARGIN_SOURCES`) on a
    growing working set, then checked by the referee's arithmetic: the
    returned separator's actual margin bounds γ* below, the returned dual
    point's ‖Zᵀλ‖ above (see :class:`BestMargin`).

    Parameters
    ----------
    X : array_like
        The examples, one per row: an n × d matrix of finite real numbers
        (n, d ≥ 1).
    y : array_like
        Their labels, n entries each -1 or 1.

    Returns
    -------
    BestMargin
        Not separable through the origin (0 in the convex hull of the
        y_i·x_i, a zero row among them, γ* ≤ 0) is a result, not an error:
        ``separable`` is False and the margin 0.

    Raises
    ------
    ParameterError
        Naming ``X`` when it is not an n × d matrix of finite numbers with
        n, d ≥ 1 (a NaN or an infinity named by its row and column, from 1),
        or ``y`` when it is not n labels ±1.
    GameError
        When the solver stops without a dual point (its iteration limit, 30
        times the working set's size, reached twice): no bracket is claimed.

    Notes
    -----
    With z_i = y_i·x_i, the bracket is proven by two points, each checked
    here rather than taken from the solver:

    - **below**, the margin min_i y_i⟨u, x_i⟩ of the unit separator u
      returned, computed as the project computes margins
      (:func:`game.theory.scores` of :func:`game.theory.unit_vector`, the
      arithmetic of the Perceptron's bound): γ* ≥ ``margin_low``;
    - **above**, for any λ in the simplex and any unit u,
      min_i ⟨u, z_i⟩ ≤ Σ λ_i⟨u, z_i⟩ = ⟨u, Zᵀλ⟩ ≤ ‖Zᵀλ‖, so γ* ≤ ‖Zᵀλ‖ for the
      dual point λ returned; ‖Zᵀλ‖ is computed with an allowance for its
      rounding (each coordinate of the float Zᵀλ is within (k + 4)·2⁻⁵³ times
      that coordinate of ``abs(Z).T @ λ`` of the exact one, k the points λ
      weighs): ``margin_high``.

    At the optimum the two meet: the point of the convex hull of the z_i
    nearest 0 is Zᵀλ* with ‖Zᵀλ*‖ = γ* and u* = Zᵀλ*/γ*; the data separate
    through the origin iff that point is not 0.

    The solver: min ‖w‖ subject to Zw ≥ 1 is a least distance program, which
    Lawson & Hanson (*Solving Least Squares Problems*, 1974, ch. 23) solve by
    one non-negative least squares problem, min_{α≥0} ‖[Zᵀ; c·1ᵀ]α − e_{d+1}‖
    (``scipy.optimize.nnls``, their active-set algorithm), whose solution is a
    multiple of the dual point λ* for every c > 0; c ≈ γ* keeps it well
    conditioned (the residual is γ*²/(γ*² + c²)), so a small margin is solved
    twice. The support (the λ_i > 0) then gives the primal as the least-norm
    solution of Z_S w = 1, near machine precision. Many points are solved on
    a working set (the support and the points of smallest margin under the
    current separator, 256 or d + 1 at first) while some point outside it
    is violated; each round keeps the support, so ‖Zᵀλ‖ only decreases.
    2,000 points in 64 dimensions take about 0.05 s (the first call also
    imports ``scipy.optimize``, about 0.8 s); 2·10⁵ points in 100 dimensions,
    or 2·10⁴ in 1,000, about 2 to 4 s. The gap ``margin_high`` − ``margin_low``
    is then about 10⁻¹⁴·R.

    Examples
    --------
    >>> import numpy as np
    >>> m = best_margin(np.array([[1.0, 0.5], [0.5, -1.0], [-1.0, 0.25]]), [1, -1, -1])
    >>> m.separable, m.margin_low <= m.margin_high, m.gap < 1e-12
    (True, True, True)
    >>> round(m.margin, 6), round(m.b, 6), round(m.radius, 6)
    (0.448129, 2.2315, 1.118034)
    >>> best_margin([[1.0, 1.0], [-1.0, -1.0]], [1, 1]).separable   # 0 is in the hull
    False
    >>> best_margin([[1.0, 2.0]], [0])
    Traceback (most recent call last):
    ...
    game.errors.ParameterError: y must be a vector of 1 labels, each -1 or 1, got [0] (row 1 ...)
    """
    X = _matrix(X)
    y = _labels(y, X.shape[0])
    n = X.shape[0]
    radius = float(row_norms(X).max())
    Z = y[:, None] * X
    top = float(np.max(np.abs(Z)))
    zero_rows = np.flatnonzero(~np.any(Z, axis=1))
    if top == 0.0 or zero_rows.size:  # a zero row: the dual point e_i is 0
        dual = np.zeros(n)
        dual[zero_rows[0] if zero_rows.size else 0] = 1.0
        return _not_separable(0.0, dual, radius)
    exponent = math.frexp(top)[1]
    Zs = np.ldexp(Z, -exponent)  # exact: entries in [0.5, 1) at most
    top_norm = float(row_norms(Zs).max())
    direction, dual = _solve(Zs, top_norm)
    high = math.ldexp(_dual_norm(Zs, dual), exponent)
    if direction is None:
        return _not_separable(high, dual, radius)
    u = unit_vector(direction)
    margins = y * scores(X, unit_vector(u))  # as the Perceptron's bound computes them
    low = float(margins.min())
    if not (low > 0 and bool(HalfspaceCertificate(u).agrees(X, y).all())):
        return _not_separable(high, dual, radius)
    high = max(high, low)  # γ* ≥ low: rounding in ‖Zᵀλ‖ never shows a smaller upper bound
    w = _feasible(X, y, u, low)
    with np.errstate(over="ignore", divide="ignore"):
        b_low = float(np.float64(1.0) / np.float64(high))
    return BestMargin(
        separable=True,
        margin_low=low,
        margin_high=high,
        separator=u,
        minimiser=w,
        b_low=b_low,
        b_high=vector_norm(w),
        dual=dual,
        radius=radius,
    )


def _not_separable(high: float, dual: np.ndarray, radius: float) -> BestMargin:
    with np.errstate(divide="ignore", over="ignore"):
        b_low = float(np.float64(1.0) / np.float64(high)) if high > 0 else math.inf
    return BestMargin(
        separable=False,
        margin_low=0.0,
        margin_high=high,
        separator=None,
        minimiser=None,
        b_low=b_low,
        b_high=math.inf,
        dual=dual,
        radius=radius,
    )
