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

Examples
--------
>>> from game.theory.bounds import block_novikoff, margin_perceptron
>>> block_novikoff(1.0, 0.5).value, margin_perceptron(0.5).value
(4.0, 48.0)
"""

from __future__ import annotations

import math

import numpy as np

from game.errors import check_instance, check_positive, check_real
from game.theory.bounds._base import Bound, real_vector

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
#: Margins below this give no candidate γ or scaling 1/margin (their bound is huge anyway).
_TINY = 1e-12


def _radius(radius: float, *, finite: bool = True) -> float:
    """R, the largest norm of an instance: a number ≥ 0 (``inf`` too where the bound is inf)."""
    return check_real("radius", radius, low=0, finite=finite)


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
        ``(R/γ)²`` on the number of updates.

    Examples
    --------
    >>> block_novikoff(1.0, 0.25).value
    16.0
    >>> block_novikoff(1.0, 0.0).value
    inf
    """
    radius = _radius(radius, finite=False)
    margin = check_real("margin", margin, high=math.inf, closed_high=False, finite=False)
    value = (radius / margin) ** 2 if margin > 0 else math.inf
    return Bound(
        value,
        f"updates ≤ (R/γ)² with R = {radius:.6g}, γ = {margin:.6g}",
        BLOCK_NOVIKOFF_SOURCE,
        quantity="updates",
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
    k = np.searchsorted(sorted_margins, gammas, side="left")
    td = np.maximum(k * gammas - prefix[k], 0.0)
    return 1.0 / gammas**2 + 2.0 * td / gammas, td


def balcan_nonseparable(margins, gamma: float | None = None) -> Bound:
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

    Returns
    -------
    Bound
        On updates; the theorem line names γ and TD_γ.

    Examples
    --------
    >>> b = balcan_nonseparable([1.0, 0.5, 0.5], gamma=0.5)
    >>> b.value
    4.0
    >>> balcan_nonseparable([0.5, -0.1]).value <= balcan_nonseparable([0.5, -0.1], 0.5).value
    True
    """
    m = np.sort(real_vector("margins", margins))
    prefix = np.concatenate(([0.0], np.cumsum(m)))
    if gamma is not None:
        gamma = check_positive("gamma", gamma)
        candidates = np.array([gamma])
    else:
        ends = m[(m > _TINY) & (m <= 1.0)]
        stationary = 1.0 / prefix[1:][prefix[1:] >= 1.0]
        candidates = np.unique(np.concatenate((ends, stationary, [1.0])))
    values, td = _balcan_value(m, prefix, candidates)
    i = int(np.argmin(values))
    g = float(candidates[i])
    how = "" if gamma is not None else " (γ minimising the bound)"
    return Bound(
        float(values[i]),
        f"updates ≤ 1/γ² + (2/γ)·TD_γ with γ = {g:.6g}, TD_γ = {float(td[i]):.6g}{how}",
        BALCAN_NONSEPARABLE_SOURCE,
        quantity="updates",
    )


def _hinge_sums(sorted_margins: np.ndarray, prefix: np.ndarray, scales: np.ndarray):
    """F(c) = Σ max(0, 1 − c·m) for each scale c, from sorted margins and their prefix sums."""
    n = sorted_margins.size
    if n == 0:
        return np.zeros_like(scales)
    # 1 − c·m > 0 ⟺ m < 1/c (c > 0): the first k sorted margins
    with np.errstate(divide="ignore"):
        limits = np.where(scales > 0, 1.0 / scales, np.inf)
    k = np.searchsorted(sorted_margins, limits, side="left")
    return np.maximum(k - scales * prefix[k], 0.0)


def _hinge_value(f, scale, radius):
    return f + radius * scale * np.sqrt(f) + (radius * scale) ** 2


def perceptron_hinge(update_margins, radius: float, *, margins=None, scale=None) -> Bound:
    """§21.4's Perceptron bound: |M| ≤ F + R‖w*‖√F + R²‖w*‖², F the hinge loss of w*.

    Shalev-Shwartz & Ben-David, Theorem 21.16: for every w*, the rounds M on
    which the Perceptron updates (y·w·x ≤ 0) number at most
    F + R‖w*‖√F + R²‖w*‖², where F = Σ_{t∈M} max(0, 1 − y_t·(w*·x_t)) is the
    hinge loss of w* on those rounds and R = max_t ‖x_t‖. With a perfect w*
    scaled so that y·(w*·x) ≥ 1, F = 0 and it is R²‖w*‖² = (R/γ)².

    The comparator is w* = c·u for a unit u. Any c gives a valid bound; over the
    update rounds alone the smallest value is at c = 0 (where it is |M| itself),
    so c is chosen from the **whole sequence** instead: the c minimising the
    bound's value with F taken over every round (breakpoints c = 1/margin and a
    geometric grid of 200 scalings). The theorem is then evaluated as stated,
    with F over the update rounds only.

    Parameters
    ----------
    update_margins : array_like
        y_t·(u·x_t) on the update rounds.
    radius : float
        R ≥ 0, the largest norm of an instance played.
    margins : array_like, optional
        y_t·(u·x_t) on every round, to choose c (default: ``update_margins``).
    scale : float, optional
        Use this c instead of choosing one.

    Returns
    -------
    Bound
        On updates; the theorem line names ‖w*‖ = c and F.

    Examples
    --------
    >>> perceptron_hinge([0.5, 0.25], 1.0, scale=4.0).value   # separable: F = 0, (R·c)²
    16.0
    >>> b = perceptron_hinge([0.5, -0.5], 1.0, margins=[0.5, -0.5, 0.5, 0.5])
    >>> b.holds(2)
    True
    """
    mu = np.sort(real_vector("update_margins", update_margins))
    radius = _radius(radius)
    prefix_u = np.concatenate(([0.0], np.cumsum(mu)))
    if margins is not None:
        margins = real_vector("margins", margins)
    if scale is None:
        ma = mu if margins is None else np.sort(margins)
        prefix_a = np.concatenate(([0.0], np.cumsum(ma)))
        positive = ma[ma > _TINY]
        if positive.size:
            breaks = 1.0 / positive
            low, high = float(breaks.min()), float(breaks.max())
            grid = np.geomspace(low / 10.0, high * 10.0, _GRID)
            candidates = np.unique(np.concatenate((breaks, grid)))
        else:
            r = radius if radius > 0 else 1.0
            candidates = np.geomspace(1e-3 / r, 1e3 / r, _GRID)
        values = _hinge_value(_hinge_sums(ma, prefix_a, candidates), candidates, radius)
        c = float(candidates[int(np.argmin(values))])
    else:
        c = check_real("scale", scale, low=0)
    f = float(_hinge_sums(mu, prefix_u, np.array([c]))[0])
    value = float(_hinge_value(f, c, radius))
    return Bound(
        value,
        f"updates ≤ F + R‖w*‖√F + R²‖w*‖² with R = {radius:.6g}, "
        f"‖w*‖ = {c:.6g}, F = {f:.6g} (hinge loss of w* on the update rounds)",
        HINGE_SOURCE,
        quantity="updates",
    )


def margin_perceptron(gamma: float) -> Bound:
    """Balcan's Margin Perceptron(γ) bound: updates (mistakes and margin mistakes) ≤ 12/γ².

    For unit-length instances separated by a unit w* with margin γ (Theorem 2,
    lecture 3). The count includes the first update (w₁ = y₁·x₁), which the
    proof's ‖w₁‖ = 1 accounts for.

    Parameters
    ----------
    gamma : float
        The margin γ ∈ (0, 1] the algorithm is run with, at most the data's.

    Examples
    --------
    >>> margin_perceptron(0.5).value
    48.0
    """
    gamma = check_positive("gamma", gamma)
    return Bound(
        12.0 / gamma**2,
        f"updates ≤ 12/γ² with γ = {gamma:.6g}",
        MARGIN_SOURCE,
        quantity="updates",
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
        R ≥ 0 (``inf`` gives ``inf``).
    b : float
        B ≥ 0, or an upper estimate of it (``inf`` when none is known).

    Examples
    --------
    >>> batch_perceptron(2.0, 3.0).value
    36.0
    """
    radius = _radius(radius, finite=False)
    b = check_real("b", b, low=0, finite=False)
    if b == 0:  # no example constrains w: no iteration
        value = 0.0
    else:
        value = (radius * b) ** 2 if math.isfinite(b) else math.inf
    return Bound(
        value,
        f"iterations ≤ (RB)² with R = {radius:.6g}, B ≤ {b:.6g}",
        BATCH_SOURCE,
        quantity="updates",
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
    prefix = np.concatenate(([0.0], np.cumsum(m)))

    def rhs(c):
        return _hinge_sums(m, prefix, c) + c**2 / (2.0 * eta) + 0.5 * eta * gradient_norms2

    if scale is None:
        breaks = 1.0 / m[m > _TINY]
        # F(c) = k − c·S_k on an interval: stationary point c = η·S_k
        stationary = eta * prefix[1:]
        candidates = np.unique(np.concatenate(([0.0], breaks, stationary[stationary > 0])))
        values = rhs(candidates)
        c = float(candidates[int(np.argmin(values))])
    else:
        c = check_real("scale", scale, low=0)
    loss = float(_hinge_sums(m, prefix, np.array([c]))[0])
    value = loss + c**2 / (2.0 * eta) + 0.5 * eta * gradient_norms2
    return Bound(
        value,
        f"Σ f_t(w_t) ≤ Σ f_t(w*) + ‖w*‖²/(2η) + (η/2)Σ‖v_t‖² with η = {eta:.6g}, "
        f"‖w*‖ = {c:.6g}, Σ f_t(w*) = {loss:.6g}, Σ‖v_t‖² = {gradient_norms2:.6g}",
        OGD_SOURCE,
        quantity=quantity,
    )
