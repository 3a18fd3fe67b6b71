"""The Perceptron, with each source's conventions selectable.

The sources differ in two details:

- the label predicted on a zero score: +1 in the CS229 notes (seed 001) and
  Abernethy's lecture 16 (seed 004), −1 in Balcan's lecture 3 (seed 003,
  "predict positive iff w·x > 0");
- when to update: on mistakes (001, 003), or whenever y·w·x ≤ 0 (004 and
  Shalev-Shwartz & Ben-David §21.4, seed 000), which also updates on a
  zero-score round predicted right.

==========================  ==============  ===============  =============
source                      ``zero_label``  ``update``       ``normalize``
==========================  ==============  ===============  =============
CS229 notes (001)           +1              "mistake"        False
Balcan lecture 3 (003)      −1              "mistake"        True
Abernethy lecture 16 (004)  +1              "nonpositive"    False
§21.4 as OGD (000)          +1              "nonpositive"    False
==========================  ==============  ===============  =============

The default is 004's. Updates are recorded apart from mistakes either way.

The class declares its lockstep kernel (``Perceptron.lockstep``, the protocol
of :mod:`game.players`): K Perceptrons play K games at once, each game
exactly its serial game. With numba installed (the ``fast`` extra) it plays
them through a compiled loop (:func:`lockstep_loop`), game by game; without
it, or inside ``game.theory.compiled(False)``, in numpy, on a
K × d weight matrix.

Floating point: the score w·x is the plain dot product, and only where that
is not finite, or so small that it may have lost its digits to underflow
(below ``SAFE_LOW`` in magnitude), it is recomputed on w and x scaled by
powers of two (:func:`scaled_score`), so the predicted sign is right for any
finite instance, of size 1e200 or 1e-170 alike. Normalising likewise divides
by the plain √(x·x) where x·x is a safe number and otherwise takes
:func:`game.theory.unit_vector`. The lockstep kernel takes the same slow path
on the same rows, so its games stay the engine's.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, ClassVar

import attrs
import numpy as np

from game.players import LockstepLearner, integer_at_least, one_of, rounds_of
from game.theory import (
    HalfspaceCertificate,
    compiled_enabled,
    row_norms,
    scores,
    unit_vector,
)
from game.theory.bounds import (
    Bound,
    Hypothesis,
    balcan_nonseparable,
    block_novikoff,
    perceptron_hinge,
)

__all__ = [
    "SAFE_LOW",
    "Perceptron",
    "bound_with",
    "comparator_bounds",
    "halfspace_margins",
    "instances_as_used",
    "lockstep_loop",
    "realizable",
    "scaled_score",
    "tightest",
    "unit_length",
    "weights_finite",
]

#: Scores and squared norms smaller than this in magnitude may have lost their
#: digits to underflow (up to 2**26 products, each below the smallest normal
#: float, add up to less than 1.5e-300): they are recomputed scaled.
SAFE_LOW = 1e-280

#: Squared norms above this are recomputed scaled by the referee.
_SAFE_HIGH = 1e280
#: Rows of norms in this range have plain products with a unit vector.
_SAFE_NORMS = (1e-140, 1e140)

#: The largest float.
_MAX = float(np.finfo(np.float64).max)
_INF = math.inf

#: A sum of magnitudes up to this (the largest float, less 2**-40 for the
#: rounding of the sum) has no partial sum of its signed terms that overflows.
_SUM_LIMIT = _MAX * (1.0 - 2.0**-40)


def scaled_score(w, x) -> float:
    """w·x computed on w and x scaled by powers of two: the slow path of the score.

    Each vector is divided by the power of two just above its largest entry,
    which is exact (only an entry below 2**-1022 times the largest loses
    digits), so an exact zero such as (3, 1)·(1, −3) stays 0. The product is
    then scaled back, rounded once (±inf where it overflows), except that a
    non-zero product too small for a float keeps its sign as the smallest float
    of that sign: a prediction needs the sign.

    Parameters
    ----------
    w, x : array_like
        Two finite vectors of the same length.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([3e200, -1e200])
    >>> float(np.vdot(x, x)), scaled_score(x, x)
    (inf, inf)
    >>> scaled_score(np.array([3e-170, -1e-170]), np.array([1.0, 1.0]))
    2e-170
    >>> scaled_score(np.array([1e-170, 0.0]), np.array([-1e-170, 5.0]))  # -1e-340 keeps its sign
    -5e-324
    """
    w = np.asarray(w, dtype=np.float64)
    x = np.asarray(x, dtype=np.float64)
    top_w = float(np.max(np.abs(w))) if w.size else 0.0
    top_x = float(np.max(np.abs(x))) if x.size else 0.0
    if top_w == 0.0 or top_x == 0.0:
        return 0.0
    ew, ex = math.frexp(top_w)[1], math.frexp(top_x)[1]
    r = float(np.vdot(np.ldexp(w, -ew), np.ldexp(x, -ex)))
    try:
        value = math.ldexp(r, ew + ex)
    except OverflowError:
        return math.copysign(math.inf, r)
    if value == 0.0 and r != 0.0:
        return math.copysign(math.ulp(0.0), r)
    return value


def unit_length(x) -> np.ndarray:
    """x/‖x‖ as ``Perceptron(normalize=True)`` uses it (a zero x as it is), as float64.

    The plain x/√(x·x) where x·x is a safe number; otherwise (x·x overflowed,
    or is below ``SAFE_LOW``) :func:`game.theory.unit_vector`, which scales x
    first.

    Examples
    --------
    >>> import numpy as np
    >>> unit_length(np.array([3.0, 4.0])).tolist(), unit_length(np.array([3e200, 4e200])).tolist()
    ([0.6, 0.8], [0.6, 0.8])
    >>> unit_length(np.array([3e-170, 4e-170])).tolist(), unit_length(np.zeros(2)).tolist()
    ([0.6, 0.8], [0.0, 0.0])
    """
    x = np.asarray(x, dtype=np.float64)  # bits: a bool or uint8 x·x would wrap
    nn = float(np.vdot(x, x))
    if SAFE_LOW <= nn < math.inf:
        return x / math.sqrt(nn)
    return unit_vector(x) if x.any() else x


def instances_as_used(transcript, normalize: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The instances played, as a Perceptron-type learner used them, and their norms.

    Computed by the referee's arithmetic, scaled so that no finite instance
    overflows or underflows: a norm is +inf only where it exceeds the largest
    float, and normalising never does.

    Parameters
    ----------
    transcript : Transcript
        A game on vectors (or bit vectors, read as 0/1 vectors).
    normalize : bool, default False
        Scale every non-zero instance to unit length, as the learner did.

    Returns
    -------
    (X, norms) : tuple of numpy.ndarray
        One row per round, and each row's Euclidean norm.

    Examples
    --------
    >>> import numpy as np
    >>> from game import play
    >>> from adversaries import Replay
    >>> tr = play(Perceptron(), Replay(instances=[[3.0, 4.0]], labels=[1]), rounds=1)
    >>> X, norms = instances_as_used(tr, normalize=True)
    >>> X.tolist(), norms.tolist()
    ([[0.6, 0.8]], [1.0])
    >>> big = play(Perceptron(), Replay(instances=[[3e200, 4e200]], labels=[1]), rounds=1)
    >>> instances_as_used(big)[1].tolist()
    [5e+200]
    """
    X = np.asarray(transcript.instances, dtype=np.float64).reshape(len(transcript), -1)
    if normalize:
        X = _unit_rows(X)
    return X, _row_norms(X)


def _plain_rows(X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """x·x for each row, and whether it is a safe number (so the plain row arithmetic is)."""
    with np.errstate(over="ignore"):
        nn = np.einsum("ij,ij->i", X, X)
    return nn, (nn >= SAFE_LOW) & (nn <= _SAFE_HIGH)


def _row_norms(X: np.ndarray) -> np.ndarray:
    """Each row's norm: √(x·x) where x·x is safe, :func:`game.theory.row_norms` elsewhere."""
    nn, plain = _plain_rows(X)
    norms = np.sqrt(nn)
    if not plain.all():
        norms[~plain] = row_norms(X[~plain])
    return norms


def _unit_rows(X: np.ndarray) -> np.ndarray:
    """Each non-zero row of X at unit length (scaled by its top entry first where x·x is unsafe)."""
    nn, plain = _plain_rows(X)
    out = X / np.sqrt(np.where(plain, nn, 1.0))[:, None]
    if not plain.all():
        Y = X[~plain]
        top = np.max(np.abs(Y), axis=1) if Y.shape[1] else np.zeros(len(Y))
        Y = Y / np.where(top > 0, top, 1.0)[:, None]
        norms = np.sqrt(np.einsum("ij,ij->i", Y, Y))
        out[~plain] = Y / np.where(norms > 0, norms, 1.0)[:, None]
    return out


def halfspace_margins(X, labels, weights, norms=None) -> np.ndarray:
    """y_t·(u·x_t) for each round, u = w/‖w‖, by the referee's scaled arithmetic.

    Where every row's norm lies in [1e-140, 1e140] the plain X·u is exact to
    rounding; otherwise each margin is the scaled product
    (:func:`game.theory.scores`), right for any finite instance. One beyond the
    largest float (only where the instance's norm is too) is given as ± the
    largest float, which leaves every bound that uses it valid or not
    applicable.

    Parameters
    ----------
    X : array_like
        The instances, one per row.
    labels : array_like
        Their labels ±1.
    weights : array_like
        The halfspace's w, any non-zero finite vector.
    norms : numpy.ndarray, optional
        The rows' norms, when already known.

    Examples
    --------
    >>> import numpy as np
    >>> halfspace_margins(np.array([[3e200, 1.0], [-1e-170, 0.0]]), [1, -1], [2.0, 0.0]).tolist()
    [3e+200, 1e-170]
    """
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(labels, dtype=np.float64)
    u = unit_vector(weights)
    norms = _row_norms(X) if norms is None else norms
    if norms.size and _SAFE_NORMS[0] <= norms.min() and norms.max() <= _SAFE_NORMS[1]:
        return y * (X @ u)
    return np.clip(y * scores(X, u), -_MAX, _MAX)


def realizable(transcript, certificate) -> Hypothesis:
    """Hypothesis "realizable": the certificate claims to separate and the referee verified it.

    Examples
    --------
    >>> from game import play, HalfspaceCertificate
    >>> from adversaries import Replay
    >>> tr = play(Perceptron(), Replay(instances=[[1.0]], labels=[1], separator=[2.0]), rounds=1)
    >>> realizable(tr, tr.certificate).holds
    True
    >>> str(realizable(tr, HalfspaceCertificate([1.0], realizable=False)))
    'realizable fails: the certificate is a comparator, not claimed to separate the rounds'
    """
    name = "realizable"
    if not certificate.realizable:
        detail = "the certificate is a comparator, not claimed to separate the rounds"
        return Hypothesis(name, False, detail)
    if certificate != transcript.certificate or transcript.certificate_verified is not True:
        return Hypothesis(name, False, "the certificate was not verified on the rounds played")
    return Hypothesis(name, True, "the certificate's halfspace was verified on every round")


def weights_finite(X, updated, norms=None) -> Hypothesis:
    """Hypothesis "weights finite": no sum of the updates' entries can have overflowed.

    The theorems describe exact arithmetic; the learner's w = Σ ±x_t over its
    update rounds (x_t as used) is that sum in floating point. When
    Σ_t |x_t,i| over the update rounds is a float for every coordinate i (with
    2**-40 to spare for its rounding), no entry of w ever overflowed. With the
    rows' ``norms`` given, Σ_t ‖x_t‖ (which is larger) is tried first.

    Examples
    --------
    >>> import numpy as np
    >>> weights_finite(np.array([[1e308], [1e308]]), np.array([True, True])).holds
    False
    """
    X = np.asarray(X, dtype=np.float64)
    updated = np.asarray(updated, dtype=bool)
    with np.errstate(over="ignore"):
        top = float(np.sum(norms[updated])) if norms is not None else math.inf
        if not top < _SUM_LIMIT:
            rows = X[updated]
            top = float(np.max(np.abs(rows).sum(axis=0))) if rows.size else 0.0
    if top < _SUM_LIMIT:
        return Hypothesis("weights finite", True, f"Σ|x_t,i| over the update rounds ≤ {top:.6g}")
    return Hypothesis(
        "weights finite",
        False,
        "the learner's weights may have overflowed: a coordinate's Σ|x_t,i| over the "
        f"update rounds is {top:.6g}",
    )


def bound_with(hypothesis: Hypothesis, bound: Bound, *more: Hypothesis) -> Bound:
    """``bound`` with ``hypothesis`` checked first and ``more`` after its own hypotheses.

    Examples
    --------
    >>> b = bound_with(Hypothesis("realizable", True), block_novikoff(1.0, 0.5))
    >>> [h.name for h in b.hypotheses]
    ['realizable', 'margin measured', 'norms finite']
    """
    return attrs.evolve(bound, hypotheses=(hypothesis, *bound.hypotheses, *more))


def comparator_bounds(transcript, certificate=None, *, normalize: bool = False) -> list[Bound]:
    """The non-separable Perceptron bounds for a comparator u on the game played.

    - Balcan lecture 3: updates ≤ 1/γ² + (2/γ)·TD_γ, at the γ ∈ (0, 1] that
      minimises it, TD_γ over all rounds
      (:func:`game.theory.bounds.balcan_nonseparable`); it applies only when
      every instance as used has norm ≤ 1 (unit length with ``normalize``, as
      in the lecture);
    - Shalev-Shwartz & Ben-David §21.4, Theorem 21.16: updates ≤ F + R‖w*‖√F +
      R²‖w*‖², w* = c·u with the scaling c chosen from the whole sequence and F
      the hinge loss of w* on the update rounds (:func:`game.theory.bounds.perceptron_hinge`);
      it applies when R is finite.

    Both hold for any u, separating or not, and bound updates (so mistakes)
    under every convention, when the learner's weights never overflowed
    (hypothesis "weights finite").

    Parameters
    ----------
    transcript : Transcript
        The game played.
    certificate : HalfspaceCertificate, optional
        The comparator (default: the transcript's certificate).
    normalize : bool, default False
        Whether the learner scaled instances to unit length.

    Returns
    -------
    list of Bound
        Both, each with its hypotheses as checked on the game; empty when there
        is no halfspace comparator or no round.

    Examples
    --------
    >>> import numpy as np
    >>> from game import play, HalfspaceCertificate
    >>> from adversaries import Replay
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0], [-0.6, 0.2]])
    >>> tr = play(Perceptron(), Replay(instances=X, labels=[1, 1, 1]), rounds=3)
    >>> bounds = comparator_bounds(tr, HalfspaceCertificate([1.0, 1.0], realizable=False))
    >>> [b.source.split(" (")[0] for b in bounds]
    ['Balcan lecture 3', 'Shalev-Shwartz & Ben-David §21.4']
    >>> all(b.applies and b.holds(tr.observed("updates")) for b in bounds)
    True
    """
    cert = transcript.certificate if certificate is None else certificate
    if not isinstance(cert, HalfspaceCertificate) or len(transcript) == 0:
        return []
    X, norms = instances_as_used(transcript, normalize)
    margins = halfspace_margins(X, transcript.labels, cert.weights, norms)
    radius = float(norms.max())
    updated = np.asarray(transcript.updated, dtype=bool)
    weights = weights_finite(X, updated, norms)
    return [
        balcan_nonseparable(margins, radius=radius).given(weights),
        perceptron_hinge(margins[updated], radius, margins=margins).given(weights),
    ]


def tightest(bounds: list[Bound]) -> Bound | None:
    """The smallest of the bounds that apply (None for an empty list).

    When none applies, the one with the fewest failing hypotheses, marked
    not applicable: never a bound whose theorem does not hold on the game.

    Examples
    --------
    >>> tightest([block_novikoff(1.0, 0.5), block_novikoff(1.0, 1.0)]).value
    1.0
    >>> tightest([block_novikoff(2.0, 1.0), block_novikoff(1.0, -1.0)]).value
    4.0
    """
    if not bounds:
        return None
    return min(bounds, key=lambda b: (sum(not h.holds for h in b.hypotheses), b.value))


# -- lockstep: K Perceptrons at once (the kernel the class declares) -------------
def _lockstep_accepts(learner: Perceptron, d: int, dtype: np.dtype) -> bool:
    if dtype != np.float64:  # the learner's arithmetic on other dtypes is not reproduced
        return False
    w = learner._w
    if w is None:
        return learner.dimension is None
    return type(w) is np.ndarray and w.dtype == np.float64 and w.shape == (d,)


def _normalized(X: np.ndarray) -> np.ndarray:
    """X scaled row by row as :func:`unit_length` does (a zero row kept as it is)."""
    with np.errstate(over="ignore"):  # those rows take the slow path
        nn = np.vecdot(X, X)  # x·x, one BLAS dot per row: the learner's own
    plain = (nn >= SAFE_LOW) & (nn < math.inf)
    out = X / np.where(plain, np.sqrt(nn), 1.0)[:, None]
    for i in np.flatnonzero(~plain):
        out[i] = unit_length(X[i])
    return out


#: Rounds the lockstep kernel plays before it looks for scores that need the slow path.
_WINDOW = 64


def _needs_rescoring(S, U, may, start) -> bool:
    """Whether some score of a window would take the slow path and change there.

    A score not finite or below ``SAFE_LOW`` in magnitude takes it, except an
    exact 0 where w = 0 (zero at the window's start, not updated since) or
    x = 0, which the slow path gives back as it is.
    """
    a = np.abs(S)
    if a.min() >= SAFE_LOW and a.max() < math.inf:  # NaN fails both
        return False
    slow = ~((a >= SAFE_LOW) & (a < math.inf))
    before = np.cumsum(U, axis=1) - U  # updates earlier in the window
    zero_w = ~start.any(axis=1)[:, None] & (before == 0)
    return bool(np.any(slow & ~((S == 0.0) & (zero_w | ~may))))


def _rounds(W, Xs, yf, may, zero_label, by_mistake):
    """The K games' scores and update flags, round by round; W is updated in place.

    The rounds are played window by window on the plain scores; a window in
    which some score is not finite or below ``SAFE_LOW`` is played again from
    its first round's weights, those scores now taking the learner's slow path
    (:func:`scaled_score`) row by row, so every game is its engine game.
    """
    k_games, n_max = yf.shape
    S = np.empty((k_games, n_max))
    U = np.zeros((k_games, n_max), dtype=bool)
    any_mistake, all_mistake = bool(by_mistake.any()), bool(by_mistake.all())
    zero_plus = zero_label > 0

    def play(t, xt, rescore):
        s = np.vecdot(W, xt)
        if rescore:
            a = np.abs(s)
            for k in np.flatnonzero(~((a >= SAFE_LOW) & (a < math.inf))):
                s[k] = scaled_score(W[k], xt[k])
        S[:, t] = s
        yt = yf[:, t]
        if any_mistake:
            predicted = np.where((s > 0.0) | ((s == 0.0) & zero_plus), 1.0, -1.0)
            change = predicted != yt
            if not all_mistake:
                change = np.where(by_mistake, change, yt * s <= 0.0)
        else:
            change = yt * s <= 0.0
        change &= may[:, t]
        U[:, t] = change
        idx = np.flatnonzero(change)
        if idx.size:
            W[idx] += yt[idx, None] * xt[idx]  # w + (−x) is w − x exactly

    start = W.copy()  # the weights before the window's first round
    window = []  # its rounds: (t, x), views of rounds_of's buffer, valid until the next window
    for t, xt in rounds_of(Xs, W.shape[1], window=_WINDOW):
        window.append((t, xt))
        play(t, xt, rescore=False)
        if t % _WINDOW == _WINDOW - 1 or t == n_max - 1:
            part = slice(window[0][0], t + 1)
            if _needs_rescoring(S[:, part], U[:, part], may[:, part], start):
                W[:] = start
                for tw, xw in window:
                    play(tw, xw, rescore=True)
            start[:] = W
            window.clear()
    return S, U


#: The compiled loop, once loaded; or why it could not be.
_LOOP: dict[str, Any] = {"kernel": None, "failed": None}


def lockstep_loop() -> Callable | None:
    """The compiled loop the lockstep kernel plays through, or None.

    None when numba is not installed or does not load, or when the learners'
    compiled loops are switched off (:func:`game.theory.compiled`);
    the kernel then plays its numpy way. Either way each game is its engine
    game, bit for bit. The loop (in ``learners._perceptron_loop``, imported
    here on first use) plays one game at a time, its weights in the cache,
    and stops at a round whose score it cannot prove to have the learner's
    sign (a score within rounding of zero, or one so small or so large that
    the learner takes its slow path): that round's score is computed the
    learner's way and handed back.

    Examples
    --------
    >>> from game.theory import compiled
    >>> loop = lockstep_loop()
    >>> loop is None or callable(loop)
    True
    >>> with compiled(False):
    ...     print(lockstep_loop())
    None
    """
    if not compiled_enabled():
        return None
    if _LOOP["kernel"] is None and _LOOP["failed"] is None:
        try:
            from learners._perceptron_loop import run

            X, y = np.ones((1, 1)), np.ones(1, dtype=np.int64)
            X.flags.writeable = False  # compile (or load) the commonest case now: drawn games
            w, predictions, updated = np.zeros(1), np.zeros(1), np.zeros(1, dtype=bool)
            run(w, X, y, predictions, updated, True, False, 0, 0.0, False)
        except Exception as exc:  # no numba, one built for another numpy, or a broken one
            _LOOP["failed"] = f"{type(exc).__name__}: {exc}"
        else:
            _LOOP["kernel"] = run
    return _LOOP["kernel"]


#: Instance values a game must hold for a single game to load the compiled loop: loading
#: numba and the loop takes about a second, which the loop repays over some 3·10⁷ values.
WORTH_LOADING = 5 * 10**7


def _lockstep_compiled(values: int) -> bool:
    """Whether the kernel plays compiled: the loop loaded, or worth loading for this many values.

    A single game (``game.play``) goes through the kernel only then, so a short
    game never waits for numba to load; once a batch, a sweep or
    :func:`lockstep_loop` has loaded the loop, every game may use it.
    """
    if not compiled_enabled() or _LOOP["failed"] is not None:
        return False
    if _LOOP["kernel"] is not None:
        return True
    return values >= WORTH_LOADING and lockstep_loop() is not None


def _score(w: np.ndarray, x: np.ndarray) -> float:
    """The learner's score w·x: the plain dot product, or its slow path (``predict``'s own)."""
    s = float(np.vdot(w, x))
    if not SAFE_LOW <= abs(s) < _INF:
        s = scaled_score(w, x)
    return s


def _compiled_rounds(loop, W, Xs, y, learners):
    """The K games' predictions and update flags through the compiled loop, game by game."""
    P = np.zeros(y.shape)
    U = np.zeros(y.shape, dtype=bool)
    for k, (learner, X) in enumerate(zip(learners, Xs, strict=True)):
        X = np.ascontiguousarray(X)
        w, yk, pk, uk = W[k], y[k], P[k], U[k]
        plus, by_mistake = learner.zero_label == 1, learner.update_rule == "mistake"
        t = loop(w, X, yk, pk, uk, plus, by_mistake, 0, 0.0, False)
        while t < len(X):  # a round the loop could not decide: scored the learner's way
            with np.errstate(over="ignore", invalid="ignore"):
                s = _score(w, X[t])
            t = loop(w, X, yk, pk, uk, plus, by_mistake, t, s, True)
    return P, U


def _lockstep_run(learners: list, Xs: list, y: np.ndarray, lengths: np.ndarray):
    """The Perceptron's rounds on K games at once (every convention, per game).

    Round t: s = w·x (``numpy.vecdot``: the learner's ``numpy.vdot(w, x)``, one
    BLAS dot per game; a game whose score is not finite or below ``SAFE_LOW``
    takes the learner's slow path, :func:`scaled_score`), prediction +1 if
    s > 0, −1 if s < 0, else ``zero_label``; update when y·s ≤ 0
    ("nonpositive") or when the predicted label (s == 0 giving +1 only with
    ``zero_label`` = 1, as ``update`` reads it) differs from y ("mistake"),
    unless x is zero; w ± x on the games that update, the same elementwise
    sums as the learner's. With numba, through the compiled loop
    (:func:`lockstep_loop`), game by game; else in numpy, the K games a
    round at a time.
    """
    k_games, n_max = y.shape
    d = Xs[0].shape[1] if Xs else 1
    W = np.zeros((k_games, d))
    for k, learner in enumerate(learners):
        if learner._w is not None:
            W[k] = learner._w
    Xs = [_normalized(X) if p.normalize else X for p, X in zip(learners, Xs, strict=True)]
    loop = lockstep_loop()
    if loop is not None:
        P, U = _compiled_rounds(loop, W, Xs, y, learners)
        _leave(learners, W, lengths)
        return P, U
    zero_label = np.array([float(p.zero_label) for p in learners])
    by_mistake = np.array([p.update_rule == "mistake" for p in learners])
    yf = y.astype(np.float64)
    # rounds that may update: inside the game, and x not zero (a zero x leaves w as it is)
    may = np.zeros((k_games, n_max), dtype=bool)
    for k, X in enumerate(Xs):
        may[k, : len(X)] = X.any(axis=1)
    with np.errstate(over="ignore", invalid="ignore"):  # those rows take the slow path
        S, U = _rounds(W, Xs, yf, may, zero_label, by_mistake)
    P = np.where(S > 0.0, 1.0, np.where(S < 0.0, -1.0, zero_label[:, None]))
    _leave(learners, W, lengths)
    return P, U


def _leave(learners: list, W: np.ndarray, lengths: np.ndarray) -> None:
    """Every learner with the weights its serial game leaves (none if it saw no instance)."""
    for k, learner in enumerate(learners):
        if lengths[k] > 0 or learner._w is not None:
            learner._w = W[k].copy()


@attrs.define(eq=False, on_setattr=attrs.setters.NO_OP)
class Perceptron:
    """The online Perceptron: w₁ = 0, predict sign(w·x), update w += y·x.

    Parameters
    ----------
    zero_label : {1, -1}, default 1
        The label predicted when w·x = 0.
    update : {"nonpositive", "mistake"}, default "nonpositive"
        Update whenever y·w·x ≤ 0 (004, §21.4), or only on mistakes (001, 003).
    normalize : bool, default False
        Scale every instance to unit length before use, as Balcan's lecture 3
        does (a zero instance is used as it is).
    dimension : int, optional
        The instances' dimension; by default taken from the first instance.

    Notes
    -----
    ``mistake_bound`` is Block–Novikoff's (R/γ)² on updates, with R the largest
    norm of an instance played (after normalising) and γ the adversary's
    halfspace certificate's margin on the rounds played. Against a comparator
    (a certificate marked non-realizable) it is the tighter of Balcan's
    1/γ² + (2/γ)·TD_γ and §21.4's F + R‖w*‖√F + R²‖w*‖² (see
    ``comparator_bounds``). All are bounds on updates, which every
    convention makes on every mistake.

    ``normalize`` follows Balcan's lecture 3: every example is scaled to unit
    length before it is used, in the score and in the update w ± x/‖x‖; this
    does not change on which side of a hyperplane through the origin it lies,
    so only the updates' lengths change.

    With ``snapshots=True`` the game logs ‖w‖² and w after every round; given
    a certificate u, :func:`game.theory.block_novikoff_claims` turns them into
    w·u and checks the proof's two claims on every update round.

    Examples
    --------
    >>> import numpy as np
    >>> p = Perceptron(zero_label=-1, update="mistake")
    >>> x = np.array([1.0, 0.0])
    >>> p.predict(x), p.update(x, 1), p.predict(x)
    (-1.0, True, 1.0)
    >>> Perceptron().predict(x)   # 004: a zero score predicts +1
    1.0
    """

    proof: ClassVar[str] = "perceptron"
    deterministic: ClassVar[bool] = True
    plays: ClassVar[frozenset[str]] = frozenset({"vector", "bits", "advice"})
    #: K games at once, on float64 vectors (:func:`game.play_batch`).
    lockstep: ClassVar[LockstepLearner] = LockstepLearner(
        accepts=_lockstep_accepts, run=_lockstep_run, compiled=_lockstep_compiled
    )

    zero_label: int = attrs.field(
        default=1,
        validator=one_of(1, -1),
        metadata={"doc": "label predicted on a zero score: 1 (001, 004) or -1 (003)"},
    )
    update_rule: str = attrs.field(
        default="nonpositive",
        alias="update",
        validator=one_of("nonpositive", "mistake"),
        metadata={"doc": "update when y·w·x ≤ 0 ('nonpositive', 004) or on mistakes ('mistake')"},
    )
    normalize: bool = attrs.field(
        default=False,
        validator=one_of(False, True),
        metadata={"doc": "scale instances to unit length first (003)"},
    )
    dimension: int | None = attrs.field(
        default=None,
        validator=attrs.validators.optional(integer_at_least(1, 2**26)),
        metadata={"doc": "dimension of the instances (default: from the first one)"},
    )
    _w: Any = attrs.field(init=False, default=None, repr=False)
    _seen: Any = attrs.field(init=False, default=None, repr=False)  # (x, x as used, w·x)
    _nonpositive: bool = attrs.field(init=False, default=True, repr=False)

    def __attrs_post_init__(self) -> None:
        self._nonpositive = self.update_rule == "nonpositive"
        if self.dimension is not None:
            self._w = np.zeros(self.dimension)

    @property
    def weights(self) -> np.ndarray:
        """A copy of the current weight vector (empty before the first instance)."""
        return np.zeros(0) if self._w is None else self._w.copy()

    def predict(self, x) -> float:
        """sign(w·x) as ±1.0, with ``zero_label`` on a zero score."""
        w = self._w
        if w is None:
            w = self._w = np.zeros(np.shape(x)[0])
        xn = unit_length(x) if self.normalize else x
        s = float(np.vdot(w, xn))
        if not SAFE_LOW <= abs(s) < _INF:  # overflowed, NaN, or maybe underflowed
            s = scaled_score(w, xn)
        self._seen = (x, xn, s)
        if s > 0.0:
            return 1.0
        if s < 0.0:
            return -1.0
        return 1.0 if self.zero_label == 1 else -1.0

    def update(self, x, y: int) -> bool:
        """w += y·x when the rule says so; returns whether w changed.

        The score ``predict`` computed is reused once (it is dropped here, so a
        second ``update`` on the same object sees the new w). A zero instance
        leaves w as it is, so its round is no update even when the rule fires.
        """
        seen = self._seen
        if seen is not None and seen[0] is x:
            _, xn, s = seen
            self._seen = None
        else:
            if self._w is None:
                self._w = np.zeros(np.shape(x)[0])
            xn = unit_length(x) if self.normalize else x
            s = float(np.vdot(self._w, xn))
            if not SAFE_LOW <= abs(s) < _INF:
                s = scaled_score(self._w, xn)
        if self._nonpositive:
            change = y * s <= 0.0
        else:
            predicted = 1 if s > 0.0 or (s == 0.0 and self.zero_label == 1) else -1
            change = predicted != y
        if change:
            if not xn.any():
                return False
            if y > 0:
                self._w += xn
            else:
                self._w -= xn
        return change

    def snapshot(self) -> dict[str, Any]:
        """‖w‖² and w itself: the quantities of the Block–Novikoff proof."""
        w = self.weights
        return {"norm2": float(np.vdot(w, w)), "w": w}  # +inf beyond the floats

    def mistake_bound(self, transcript) -> Bound | None:
        """The Perceptron's bound on the rounds played, from the adversary's halfspace.

        A realizable certificate gives Block–Novikoff's (R/γ)², with its
        hypotheses as checked on the game: "realizable" (the referee verified
        the certificate), "margin measured" (γ > 0), "norms finite" (R
        finite) and "weights finite". A comparator (``realizable=False``) gives
        the tightest of the non-separable bounds of ``comparator_bounds``
        that apply. None without a halfspace certificate or without a round.

        Examples
        --------
        >>> import numpy as np
        >>> from game import play
        >>> from adversaries import Replay
        >>> X = np.array([[1.0, 0.0], [-1.0, 0.75], [0.8, -0.6]]) * 1e200   # R = 1.25e200
        >>> tr = play(Perceptron(), Replay(instances=X, labels=[1, -1, 1], separator=[1, 0]),
        ...           rounds=3)
        >>> tr.bound.value, tr.bound.applies   # γ = 0.8e200: (R/γ)² = (1.25/0.8)²
        (2.44140625, True)
        """
        cert = transcript.certificate
        if not isinstance(cert, HalfspaceCertificate) or len(transcript) == 0:
            return None
        if not cert.realizable:
            return tightest(comparator_bounds(transcript, cert, normalize=self.normalize))
        X, norms = instances_as_used(transcript, self.normalize)
        margins = halfspace_margins(X, transcript.labels, cert.weights, norms)
        bound = block_novikoff(float(norms.max()), float(margins.min()))
        return bound_with(
            realizable(transcript, cert), bound, weights_finite(X, transcript.updated, norms)
        )
