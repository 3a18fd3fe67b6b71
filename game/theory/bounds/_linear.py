"""Mistake bounds of the Perceptron family, each with its source.

Every function takes the quantities its theorem names and returns a
:class:`~game.theory.bounds.Bound`. The Perceptron-type bounds are all stated on
**updates**: each proof counts the rounds on which the weight vector moved,
and every such round has y·w·x ≤ 0 under both update conventions (on mistakes,
or whenever y·w·x ≤ 0), so a bound on updates holds under every convention and
bounds the mistakes too (a mistake is always an update round; under the
mistake-driven convention the two counts are equal).

A *margin* below is y·(u·x) for a unit vector u; a comparator that is not a
perfect separator has some margins ≤ 0.

**Numbers.** Every function accepts any finite quantities (and R = +inf, an
instance whose norm exceeds the largest float) and returns the theorem's
value, or +inf where that value is too large for a float: never an
exception, never a wrong finite number. (R/γ)² is computed as a ratio first
(:func:`game.theory.squared_ratio`), so R = 5e200 and γ = 4e200 give 1.5625,
and γ = 1e-160 gives +inf rather than an ``OverflowError``.

**Hypotheses.** Every bound says which hypotheses of its theorem were checked
(:class:`~game.theory.bounds.Hypothesis`); a bound applies only when all hold
and is reported "not applicable: <reason>" otherwise, never as holding. The
rule:

- a function records the hypotheses it can read off its own arguments:
  "margin measured" (γ > 0: some separator with a positive margin on the
  rounds played), "norms finite" (R < +inf), "norms ≤ 1" (Balcan's bounds,
  whose lecture scales every instance to unit length; 1e-12 of slack for
  rounding), "margin ≥ γ" (the Margin Perceptron's γ is at most the data's);
- the learner's ``mistake_bound`` adds what only the game can tell, in front
  or after: "realizable" (the certificate is a halfspace that claims to
  separate, and the referee verified it on every round), "weights finite"
  (no coordinate of the learner's Σ ±x_t can have overflowed, so the floating
  point learner is the theorem's learner);
- where a hypothesis fails the value is still the theorem's formula where it
  is defined (+inf where it is not: γ ≤ 0, R = +inf), and the bound is not
  applicable; a learner returns None only when no theorem can be evaluated at
  all (no halfspace certificate, or no round played).

Examples
--------
>>> from game.theory.bounds import block_novikoff, margin_perceptron
>>> block_novikoff(1.0, 0.5).value, margin_perceptron(0.5).value
(4.0, 48.0)
>>> block_novikoff(5e200, 4e200).value, block_novikoff(1.0, 1e-160).value
(1.5625, inf)
>>> print(block_novikoff(1.0, -0.5).reason)
margin measured fails: γ = -0.5 ≤ 0: no separator with a positive margin on the rounds played
"""

from __future__ import annotations

import math

import numpy as np

from game.errors import check_instance, check_positive, check_real
from game.theory._numerics import squared_ratio
from game.theory.bounds._base import Bound, Hypothesis, real_vector

__all__ = [
    "MARGIN_SOURCE",
    "balcan_nonseparable",
    "batch_perceptron",
    "block_novikoff",
    "margin_perceptron",
    "ogd_regret",
    "perceptron_hinge",
    "total_distance",
]

BLOCK_NOVIKOFF_SOURCE = (
    "CS229 notes (seed 001), Theorem of Block 1962 and Novikoff 1962; "
    "Balcan lecture 3 (seed 003), Theorem 1; Abernethy lecture 16 (seed 004), Theorem 16.2"
)
BALCAN_NONSEPARABLE_SOURCE = "Balcan lecture 3 (seed 003), §1, the bound after Theorem 1"
HINGE_SOURCE = (
    "Shalev-Shwartz & Ben-David §21.4 (seed 000), Theorem 21.16 (the Perceptron as "
    "Online Gradient Descent on the hinge surrogate)"
)
MARGIN_SOURCE = "Balcan lecture 3 (seed 003), §1.1, Theorem 2 (Margin Perceptron)"
BATCH_SOURCE = "Shalev-Shwartz & Ben-David §9.1.2 (seed 002), Theorem 9.1 (Batch Perceptron)"
OGD_SOURCE = (
    "Shalev-Shwartz & Ben-David, Theorem 21.15 (Online Gradient Descent), "
    "applied in §21.4 (seed 000)"
)

#: Scalings tried for the §21.4 bound besides the breakpoints 1/margin.
_GRID = 200
#: Margins below this (times R where R scales them) give no candidate γ or
#: scaling 1/margin (their bound is huge anyway).
_TINY = 1e-12
#: Slack for rounding in "norms ≤ 1".
_UNIT_SLACK = 1e-12
#: The largest and the smallest positive normal float.
_MAX = float(np.finfo(np.float64).max)
_MIN = float(np.finfo(np.float64).tiny)


def _radius(radius: float) -> float:
    """R, the largest norm of an instance: a number ≥ 0, or +inf (a norm beyond the floats)."""
    return check_real("radius", radius, low=0, finite=False)


def _margin_measured(margin: float) -> Hypothesis:
    """Hypothesis "margin measured": γ > 0 on the rounds played.

    Examples
    --------
    >>> _margin_measured(0.25).holds, _margin_measured(0.0).holds
    (True, False)
    """
    if margin > 0:
        return Hypothesis("margin measured", True, f"γ = {margin:.6g} on the rounds played")
    return Hypothesis(
        "margin measured",
        False,
        f"γ = {margin:.6g} ≤ 0: no separator with a positive margin on the rounds played",
    )


def _norms_finite(radius: float) -> Hypothesis:
    """Hypothesis "norms finite": R = max ‖x_t‖ is a float.

    Examples
    --------
    >>> print(_norms_finite(float("inf")))
    norms finite fails: R = inf: an instance's norm exceeds the largest float
    """
    if math.isfinite(radius):
        return Hypothesis("norms finite", True, f"R = {radius:.6g}")
    return Hypothesis(
        "norms finite", False, "R = inf: an instance's norm exceeds the largest float"
    )


def _norms_at_most_one(radius: float) -> Hypothesis:
    """Hypothesis "norms ≤ 1": every instance as used has norm ≤ 1 (1e-12 of slack).

    Examples
    --------
    >>> _norms_at_most_one(1.0 + 1e-15).holds, _norms_at_most_one(2.0).holds
    (True, False)
    """
    if radius <= 1.0 + _UNIT_SLACK:
        return Hypothesis("norms ≤ 1", True, f"R = {radius:.6g}")
    return Hypothesis(
        "norms ≤ 1",
        False,
        f"R = {radius:.6g} > 1: the theorem is stated for instances of norm at most 1",
    )


def block_novikoff(radius: float, margin: float) -> Bound:
    """Block–Novikoff: the Perceptron updates at most (R/γ)² times.

    Stated for mistakes in the sources; the proof counts every update made on a
    round with y·w·x ≤ 0, so it bounds updates under every convention (and
    mistakes, which never outnumber updates). With R = 1 it is Balcan's 1/γ²
    (lecture 3, Theorem 1); with γ = 1/‖w*‖ and R = 1 it is Abernethy's ‖w*‖²
    (lecture 16, Theorem 16.2).

    Parameters
    ----------
    radius : float
        R ≥ 0: the largest norm of an instance played (``inf`` gives ``inf``).
    margin : float
        γ: the smallest y·(u·x) over the rounds played, for a unit vector u.
        A margin ≤ 0 (−inf too) means no separator is known and the bound is
        infinite.

    Returns
    -------
    Bound
        ``(R/γ)²`` on the number of updates (+inf where it exceeds the
        floats), with the hypotheses "margin measured" (γ > 0) and "norms
        finite" (R < +inf).

    Examples
    --------
    >>> block_novikoff(1.0, 0.25).value
    16.0
    >>> b = block_novikoff(1.0, 0.0)
    >>> b.value, b.applies
    (inf, False)
    """
    radius = _radius(radius)
    margin = check_real("margin", margin, high=math.inf, closed_high=False, finite=False)
    value = squared_ratio(radius, margin) if margin > 0 else math.inf
    return Bound(
        value,
        f"updates ≤ (R/γ)² with R = {radius:.6g}, γ = {margin:.6g}",
        BLOCK_NOVIKOFF_SOURCE,
        quantity="updates",
        hypotheses=(_margin_measured(margin), _norms_finite(radius)),
    )


def total_distance(margins, gamma: float) -> float:
    """TD_γ: the total distance the points must move to be separated by margin γ.

    For a unit vector u, a point x labelled y must move by max(0, γ − y·(u·x))
    along u to reach the side y·(u·x) ≥ γ; TD_γ sums this over the rounds
    (Balcan lecture 3, §1, for unit-length instances).

    Parameters
    ----------
    margins : array_like
        y_t·(u·x_t) for each round, u a unit vector.
    gamma : float
        The margin γ > 0 the points should be moved to.

    Examples
    --------
    >>> total_distance([0.5, 0.1, -0.2], 0.3)
    0.7
    """
    m = real_vector("margins", margins)
    gamma = check_positive("gamma", gamma)
    return float(np.maximum(0.0, gamma - m).sum())


def _balcan_value(sorted_margins: np.ndarray, prefix: np.ndarray, gammas: np.ndarray):
    """The bound at each γ ∈ (0, 1], from margins capped at 1 and their prefix sums.

    k·γ ≤ k and the prefix sums only overflow towards −inf (every margin ≤ 1),
    so TD_γ is finite or +inf, never NaN.
    """
    k = np.searchsorted(sorted_margins, gammas, side="left")
    with np.errstate(over="ignore"):
        td = np.maximum(k * gammas - prefix[k], 0.0)
        return 1.0 / gammas**2 + 2.0 * (td / gammas), td


def balcan_nonseparable(
    margins, gamma: float | None = None, *, radius: float | None = None
) -> Bound:
    """Balcan's non-separable Perceptron bound: updates ≤ 1/γ² + (2/γ)·TD_γ.

    For instances of norm at most 1 and a unit comparator u, after M updates
    w·u ≥ γM − TD_γ (Claim 1 with the loss of the points u does not separate by
    γ) and ‖w‖² ≤ M (Claim 2), so √M ≥ γM − TD_γ, which gives
    M ≤ 1/γ² + (2/γ)·TD_γ. It holds for every γ > 0 and every unit u.

    TD_γ = Σ_t max(0, γ − y_t·(u·x_t)) over **all** the rounds played (the
    lecture's "total distance"; the proof only needs the update rounds, so this
    is the larger, sequence-only form). M counts updates: under the
    mistake-driven convention (the lecture's) they are the mistakes, and under
    the "update whenever y·w·x ≤ 0" convention the proof holds word for word
    for the updates, which outnumber the mistakes.

    Parameters
    ----------
    margins : array_like
        y_t·(u·x_t) on every round, u a unit vector, ‖x_t‖ ≤ 1 (unit-length
        when the learner normalises, as in the lecture).
    gamma : float, optional
        The γ to evaluate at. By default the bound is minimised exactly over
        γ ∈ (0, 1] (the margins unit vectors can have): on each interval between
        consecutive margins it is 1/γ² + 2k − 2S_k/γ, smallest at γ = 1/S_k or
        at an end.
    radius : float, optional
        R = max ‖x_t‖ of the instances as used; when given, the theorem's
        hypothesis "norms ≤ 1" is checked on it.

    Returns
    -------
    Bound
        On updates; the theorem line names γ and TD_γ (+inf where the value
        exceeds the floats).

    Examples
    --------
    >>> b = balcan_nonseparable([1.0, 0.5, 0.5], gamma=0.5)
    >>> b.value
    4.0
    >>> balcan_nonseparable([0.5, -0.1]).value <= balcan_nonseparable([0.5, -0.1], 0.5).value
    True
    >>> print(balcan_nonseparable([0.5, -0.1], radius=3.0).reason)
    norms ≤ 1 fails: R = 3 > 1: the theorem is stated for instances of norm at most 1
    """
    m = real_vector("margins", margins)
    hypotheses = () if radius is None else (_norms_at_most_one(_radius(radius)),)
    if gamma is not None:
        g = check_positive("gamma", gamma)
        with np.errstate(over="ignore", under="ignore", divide="ignore"):  # 1/γ² is +inf
            t = float(np.sum(np.maximum(0.0, g - m)))
            value = float(1.0 / np.float64(g) ** 2 + 2.0 * (t / np.float64(g)))
    else:
        # γ ≤ 1: a margin above 1 adds nothing to TD_γ, and capping it keeps the sums finite
        m = np.sort(np.minimum(m, 1.0))
        with np.errstate(over="ignore"):
            prefix = np.concatenate(([0.0], np.cumsum(m)))
        ends = m[(m > _TINY) & (m <= 1.0)]
        stationary = 1.0 / prefix[1:][prefix[1:] >= 1.0]
        candidates = np.unique(np.concatenate((ends, stationary, [1.0])))
        values, td = _balcan_value(m, prefix, candidates)
        i = int(np.argmin(values))
        g, t, value = float(candidates[i]), float(td[i]), float(values[i])
    how = "" if gamma is not None else " (γ minimising the bound)"
    return Bound(
        value,
        f"updates ≤ 1/γ² + (2/γ)·TD_γ with γ = {g:.6g}, TD_γ = {t:.6g}{how}",
        BALCAN_NONSEPARABLE_SOURCE,
        quantity="updates",
        hypotheses=hypotheses,
    )


def _exponent(*values: float) -> int:
    """e with every |value| ≤ 2**e, or 0 when they all lie in [1e-100, 1e100] (or are 0).

    Dividing by 2**e is exact, so a bound computed on the scaled quantities is
    the same number, without overflow on the way.
    """
    top = max((abs(v) for v in values), default=0.0)
    if top == 0.0 or 1e-100 <= top <= 1e100:
        return 0
    return math.frexp(top)[1]


def _prefix(sorted_margins: np.ndarray, e: int = 0) -> np.ndarray:
    """0 and the running sums of sorted margins divided by 2**e (no overflow for their e)."""
    return np.concatenate(([0.0], np.cumsum(np.ldexp(sorted_margins, -e))))


def _hinge_sums(sorted_margins: np.ndarray, prefix: np.ndarray, scales: np.ndarray, e: int = 0):
    """F(c) = Σ max(0, 1 − c·m) for each scale c ≥ 0, from sorted margins and their prefix sums.

    On the first k sorted margins (those below 1/c) it is k − c·S_k with
    S_k = 2**e·prefix[k] (``prefix`` from :func:`_prefix` with the same e), and
    c·S_k < k there, so where c·S_k overflows it is towards −inf, and F is +inf.
    """
    n = sorted_margins.size
    if n == 0:
        return np.zeros_like(scales)
    # 1 − c·m > 0 ⟺ m < 1/c (c > 0): the first k sorted margins
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        limits = np.where(scales > 0, 1.0 / scales, np.inf)
        k = np.searchsorted(sorted_margins, limits, side="left")
        f = k - np.ldexp(scales * prefix[k], e)
    f = np.where((k == 0) | np.isnan(f), k, f)  # no margin below 1/c; or c·S_k = inf·0
    return np.maximum(f, 0.0)


def _hinge_value(f, scale, radius):
    with np.errstate(over="ignore", invalid="ignore"):
        value = f + radius * scale * np.sqrt(f) + (radius * scale) ** 2
    return np.where(np.isnan(value), np.inf, value)


def perceptron_hinge(update_margins, radius: float, *, margins=None, scale=None) -> Bound:
    """§21.4's Perceptron bound: ``|M|`` ≤ F + R‖w*‖√F + R²‖w*‖², F the hinge loss of w*.

    Shalev-Shwartz & Ben-David, Theorem 21.16: for every w*, the rounds M on
    which the Perceptron updates (y·w·x ≤ 0) number at most
    F + R‖w*‖√F + R²‖w*‖², where F = Σ_{t∈M} max(0, 1 − y_t·(w*·x_t)) is the
    hinge loss of w* on those rounds and R = max_t ‖x_t‖. With a perfect w*
    scaled so that y·(w*·x) ≥ 1, F = 0 and it is R²‖w*‖² = (R/γ)².

    The comparator is w* = c·u for a unit u. Any c gives a valid bound; over the
    update rounds alone the smallest value is at c = 0 (where it is ``|M|`` itself),
    so c is chosen from the **whole sequence** instead: the c minimising the
    bound's value with F taken over every round (breakpoints c = 1/margin and a
    geometric grid of 200 scalings). The theorem is then evaluated as stated,
    with F over the update rounds only. Margins and R of any size give the same
    value: they are scaled together by a power of two first (the bound depends
    only on c·m and R·c).

    Parameters
    ----------
    update_margins : array_like
        y_t·(u·x_t) on the update rounds.
    radius : float
        R ≥ 0, the largest norm of an instance played (+inf, a norm beyond the
        floats, gives +inf and the failing hypothesis "norms finite").
    margins : array_like, optional
        y_t·(u·x_t) on every round, to choose c (default: ``update_margins``).
    scale : float, optional
        Use this c instead of choosing one.

    Returns
    -------
    Bound
        On updates; the theorem line names ‖w*‖ = c and F; hypothesis "norms
        finite".

    Examples
    --------
    >>> perceptron_hinge([0.5, 0.25], 1.0, scale=4.0).value   # separable: F = 0, (R·c)²
    16.0
    >>> b = perceptron_hinge([0.5, -0.5], 1.0, margins=[0.5, -0.5, 0.5, 0.5])
    >>> b.holds(2)
    True
    >>> big = perceptron_hinge([0.5e200, -0.5e200], 1e200, margins=[0.5e200, -0.5e200, 0.5e200])
    >>> small = perceptron_hinge([0.5, -0.5], 1.0, margins=[0.5, -0.5, 0.5])
    >>> big.value == small.value
    True
    """
    mu = np.sort(real_vector("update_margins", update_margins))
    radius = _radius(radius)
    if margins is not None:
        margins = real_vector("margins", margins)
    if scale is not None:
        scale = check_real("scale", scale, low=0)
    hypotheses = (_norms_finite(radius),)
    if not math.isfinite(radius):
        return Bound(
            math.inf,
            "updates ≤ F + R‖w*‖√F + R²‖w*‖² with R = inf",
            HINGE_SOURCE,
            quantity="updates",
            hypotheses=hypotheses,
        )
    everything = mu if margins is None else margins
    e = _exponent(radius, *(float(np.max(np.abs(v))) for v in (mu, everything) if v.size))
    mu, r = np.ldexp(mu, -e), math.ldexp(radius, -e)  # exact: c·m and R·c unchanged
    prefix_u = _prefix(mu)
    if scale is None:
        ma = mu if margins is None else np.sort(np.ldexp(margins, -e))
        prefix_a = _prefix(ma)
        positive = ma[ma > _TINY]
        if positive.size:
            breaks = 1.0 / positive
            low, high = float(breaks.min()), float(breaks.max())
            grid = np.geomspace(low / 10.0, high * 10.0, _GRID)
            candidates = np.unique(np.concatenate((breaks, grid)))
        else:
            rr = r if r > 0 else 1.0
            candidates = np.geomspace(1e-3 / rr, 1e3 / rr, _GRID)
        values = _hinge_value(_hinge_sums(ma, prefix_a, candidates), candidates, r)
        c = float(candidates[int(np.argmin(values))])
    else:
        with np.errstate(over="ignore"):
            c = float(np.ldexp(scale, e))
    f = float(_hinge_sums(mu, prefix_u, np.array([c]))[0])
    value = float(_hinge_value(f, c, r))
    with np.errstate(over="ignore", under="ignore"):
        shown = float(np.ldexp(c, -e))
    return Bound(
        value,
        f"updates ≤ F + R‖w*‖√F + R²‖w*‖² with R = {radius:.6g}, "
        f"‖w*‖ = {shown:.6g}, F = {f:.6g} (hinge loss of w* on the update rounds)",
        HINGE_SOURCE,
        quantity="updates",
        hypotheses=hypotheses,
    )


def margin_perceptron(gamma: float, *, margin: float | None = None) -> Bound:
    """Balcan's Margin Perceptron(γ) bound: updates (mistakes and margin mistakes) ≤ 12/γ².

    For unit-length instances separated by a unit w* with margin γ (Theorem 2,
    lecture 3). The count includes the first update (w₁ = y₁·x₁), which the
    proof's ‖w₁‖ = 1 accounts for. Run with a γ below the data's margin, the
    algorithm is Margin Perceptron(γ) on data separated with margin γ, so the
    theorem applies with the algorithm's γ.

    Parameters
    ----------
    gamma : float
        The margin γ > 0 the algorithm is run with (+inf bound where 12/γ²
        exceeds the floats).
    margin : float, optional
        The data's margin min_t y_t·(u·x_t)/‖x_t‖ for the unit separator u;
        when given, the hypotheses "margin measured" (> 0) and "margin ≥ γ"
        are checked on it (1e-12 of relative slack for rounding).

    Examples
    --------
    >>> margin_perceptron(0.5).value, margin_perceptron(1e-200).value
    (48.0, inf)
    >>> print(margin_perceptron(0.5, margin=0.25).reason)
    margin ≥ γ fails: the data's margin 0.25 is below γ = 0.5
    """
    gamma = check_positive("gamma", gamma)
    if 1e-150 <= gamma <= 1e150:
        value = 12.0 / gamma**2
    else:
        value = 12.0 * squared_ratio(1.0, gamma)
    hypotheses = ()
    if margin is not None:
        margin = check_real("margin", margin, finite=False)
        if margin >= gamma * (1.0 - 1e-12):
            enough = Hypothesis("margin ≥ γ", True, f"the data's margin {margin:.6g} ≥ γ")
        else:
            detail = f"the data's margin {margin:.6g} is below γ = {gamma:.6g}"
            enough = Hypothesis("margin ≥ γ", False, detail)
        hypotheses = (_margin_measured(margin), enough)
    return Bound(
        value,
        f"updates ≤ 12/γ² with γ = {gamma:.6g}",
        MARGIN_SOURCE,
        quantity="updates",
        hypotheses=hypotheses,
    )


def batch_perceptron(radius: float, b: float) -> Bound:
    """Theorem 9.1: the Batch Perceptron stops after at most (RB)² iterations.

    B = min{‖w‖ : y_i⟨w, x_i⟩ ≥ 1 for all i} and R = max_i ‖x_i‖. Any feasible
    w gives an upper estimate of B (a feasible w has ‖w‖ ≥ B), so the value
    with such an estimate is still a valid bound, larger than the theorem's.
    The proof only uses the examples the algorithm picks, so R and B may be
    taken over those.

    Parameters
    ----------
    radius : float
        R ≥ 0 (``inf`` gives ``inf`` and the failing hypothesis "norms finite").
    b : float
        B ≥ 0, or an upper estimate of it (``inf`` when none is known: the
        hypothesis "margin measured", some feasible w, then fails).

    Returns
    -------
    Bound
        (RB)² on the iterations (updates), +inf where it exceeds the floats.

    Examples
    --------
    >>> batch_perceptron(2.0, 3.0).value
    36.0
    >>> batch_perceptron(1e200, 1.25e-200).value
    1.5625
    """
    radius = _radius(radius)
    b = check_real("b", b, low=0, finite=False)
    if b == 0:  # no example constrains w: no iteration
        value = 0.0
    elif math.isfinite(b):
        value = squared_ratio(radius * b, 1.0)
    else:
        value = math.inf
    if math.isfinite(b):
        measured = Hypothesis("margin measured", True, f"a feasible w of norm {b:.6g}")
    else:
        measured = Hypothesis(
            "margin measured", False, "B = inf: no w with y_i⟨w, x_i⟩ ≥ 1 on every example known"
        )
    return Bound(
        value,
        f"iterations ≤ (RB)² with R = {radius:.6g}, B ≤ {b:.6g}",
        BATCH_SOURCE,
        quantity="updates",
        hypotheses=(measured, _norms_finite(radius)),
    )


def ogd_regret(
    eta: float,
    update_margins,
    gradient_norms2: float,
    *,
    scale: float | None = None,
    quantity: str = "surrogate",
) -> Bound:
    """Online Gradient Descent's regret: Σ f_t(w_t) − Σ f_t(w*) ≤ ‖w*‖²/(2η) + (η/2)Σ‖v_t‖².

    Theorem 21.15 of Shalev-Shwartz & Ben-David, with §21.4's surrogates:
    f_t(w) = max(0, 1 − y_t·(w·x_t)) on the rounds where y_t·(w_t·x_t) ≤ 0
    (the update rounds), f_t = 0 elsewhere, and v_t = −y_t·x_t on the update
    rounds. It holds for every comparator w*; here w* = c·u for a unit u, and c
    minimises the right-hand side exactly (on each interval between the
    breakpoints 1/margin it is a quadratic in c, smallest at c = η·S). The
    returned bound is on the learner's surrogate loss Σ f_t(w_t):
    Σ f_t(w*) + ‖w*‖²/(2η) + (η/2)Σ‖v_t‖².

    Parameters
    ----------
    eta : float
        The step size η > 0.
    update_margins : array_like
        y_t·(u·x_t) on the update rounds, u a unit vector.
    gradient_norms2 : float
        Σ‖v_t‖² = Σ over the update rounds of ‖x_t‖².
    scale : float, optional
        Use w* = scale·u instead of the best scaling.
    quantity : str, default "surrogate"
        The extras column the bound is on (the learner's f_t(w_t) per round).

    Examples
    --------
    >>> b = ogd_regret(1.0, [0.5], 1.0, scale=2.0)   # f(w*) = 0, 4/2 + 1/2
    >>> b.value
    2.5
    """
    eta = check_positive("eta", eta)
    m = np.sort(real_vector("update_margins", update_margins))
    gradient_norms2 = check_real("gradient_norms2", gradient_norms2, low=0, finite=False)
    check_instance("quantity", quantity, str, "a string")
    if scale is not None:
        scale = check_real("scale", scale, low=0)
    e = _exponent(float(np.max(np.abs(m)))) if m.size else 0
    prefix = _prefix(m, e)
    eta64 = np.float64(eta)

    def rhs(c):
        with np.errstate(over="ignore"):
            return (
                _hinge_sums(m, prefix, c, e) + c**2 / (2.0 * eta64) + 0.5 * eta64 * gradient_norms2
            )

    if scale is None:
        with np.errstate(divide="ignore", over="ignore"):
            breaks = 1.0 / m[m > _TINY]
            # F(c) = k − c·S_k on an interval: stationary point c = η·S_k
            stationary = np.ldexp(eta64 * prefix[1:], e)
        stationary = stationary[(stationary > 0) & (stationary < math.inf)]
        candidates = np.unique(np.concatenate(([0.0], breaks, stationary)))
        values = rhs(candidates)
        c = float(candidates[int(np.argmin(values))])
    else:
        c = scale
    loss = float(_hinge_sums(m, prefix, np.array([c]), e)[0])
    value = float(rhs(np.array([c]))[0])
    return Bound(
        value,
        f"Σ f_t(w_t) ≤ Σ f_t(w*) + ‖w*‖²/(2η) + (η/2)Σ‖v_t‖² with η = {eta:.6g}, "
        f"‖w*‖ = {c:.6g}, Σ f_t(w*) = {loss:.6g}, Σ‖v_t‖² = {gradient_norms2:.6g}",
        OGD_SOURCE,
        quantity=quantity,
    )
