"""The compiled loop of the Perceptron's lockstep kernel (imported only when numba is installed).

:func:`run` plays one game's rounds on its weight vector. It decides a round
itself only where the learner's own score w·x (``numpy.vdot``, then
:func:`learners.perceptron.scaled_score` where that is not a safe number)
provably has the sign and the zero-ness of the loop's own sum, which adds
in another order; on any other round it stops, the caller computes that
score the learner's way and hands it back.
"""

from __future__ import annotations

import math

from game.theory import jit

__all__ = ["run"]

#: The learner's threshold below which a score takes its slow path (``perceptron.SAFE_LOW``).
_SAFE_LOW = 1e-280
#: Scores are trusted only up to this size: no partial sum of the learner's overflows.
_SAFE_HIGH = 1e300
#: Integer sums up to this are exact in every order of addition.
_EXACT = 2.0**52
#: The unit roundoff.
_U = 2.0**-53


#: 'reassoc' lets sums be split across vector lanes; nothing else is relaxed (no fused
#: multiply-add), so every product and every w ± x is rounded as numpy rounds it.
REASSOCIATE = {"reassoc"}


@jit(fastmath=REASSOCIATE)
def _exact_zero(w, x):
    """Whether every w_i·x_i is an exact 0 of finite factors: then every score is 0."""
    for i in range(w.shape[0]):
        a, b = w[i], x[i]
        if not ((a == 0.0 and math.isfinite(b)) or (b == 0.0 and math.isfinite(a))):
            return False
    return True


@jit(fastmath=REASSOCIATE)
def _small_integers(w, x):
    """Whether every entry of w and x is an integer below 2⁵² in magnitude."""
    for i in range(w.shape[0]):
        a, b = w[i], x[i]
        if not (abs(a) < _EXACT and a == math.floor(a) and abs(b) < _EXACT and b == math.floor(b)):
            return False
    return True


@jit(fastmath=REASSOCIATE)
def _play(w, x, yt, s, zero_plus, by_mistake):
    """Round t on the learner's score s: the prediction, and whether w changed (w updated)."""
    if s > 0.0:
        predicted = 1.0
    elif s < 0.0:
        predicted = -1.0
    else:
        predicted = 1.0 if zero_plus else -1.0
    if by_mistake:  # the learner's update reads a NaN score as −1
        change = (1 if s > 0.0 or (s == 0.0 and zero_plus) else -1) != yt
    else:
        change = yt * s <= 0.0
    if change:
        d = x.shape[0]
        i = 0
        while i < d and x[i] == 0.0:
            i += 1
        if i == d:  # a zero instance leaves w as it is
            return predicted, False
        if yt > 0:
            for i in range(d):
                w[i] += x[i]
        else:
            for i in range(d):
                w[i] -= x[i]
    return predicted, change


@jit(fastmath=REASSOCIATE)
def run(w, X, y, predictions, updated, zero_plus, by_mistake, start, score, scored):
    """Play rounds ``start``, ``start + 1``, … of one game; return where it stopped.

    Parameters: the weights ``w`` (updated in place), the instances as used
    ``X`` (n × d), the labels ``y`` (±1), the rows ``predictions`` and
    ``updated`` to fill, the convention (``zero_plus``: a zero score predicts
    +1; ``by_mistake``: update on mistakes, else whenever y·s ≤ 0), and, when
    ``scored``, the learner's own score of round ``start``.

    Round t is decided here when its sum s and Σ|w_i·x_i| = e show that the
    learner's score has the sign of s and lies in [SAFE_LOW, ∞): every order
    of adding d rounded products, fused multiply-adds included, errs by at
    most γ_d·Σ|w_i·x_i| (plus d halves of the smallest subnormal), so
    |s| > 4(d + 2)·2⁻⁵³·e, |s| ≥ 4·SAFE_LOW and e ≤ 1e300 suffice: the two
    sums then lie within |s|/2 of each other, on the same side of 0. Two more
    cases are exact in every order: every product a 0 of finite factors (the
    score is 0, also on the slow path), and integer entries below 2⁵² with
    e < 2⁵² (every sum is exact, and a zero stays zero on the slow path,
    which scales by powers of two). Returns n when the game is over, else
    the round whose score the caller must compute.
    """
    n, d = X.shape
    t = start
    if scored and t < n:
        predictions[t], updated[t] = _play(w, X[t], y[t], score, zero_plus, by_mistake)
        t += 1
    tolerance = 4.0 * (d + 2) * _U
    while t < n:
        x = X[t]
        s = 0.0
        e = 0.0
        for i in range(d):
            p = w[i] * x[i]
            s += p
            e += abs(p)
        a = abs(s)
        if not (e <= _SAFE_HIGH and a >= 4.0 * _SAFE_LOW and a > tolerance * e):
            if _exact_zero(w, x):
                s = 0.0
            elif not (e < _EXACT and _small_integers(w, x)):
                return t
        predictions[t], updated[t] = _play(w, x, y[t], s, zero_plus, by_mistake)
        t += 1
    return n
