"""Bounds of prediction with expert advice: Halving, Weighted Majority, Exponential Weights.

N is the number of experts. A "mistake" of an expert is a round where the
sign of its advice (sign(0) = +1) differs from the outcome; its "loss" is the
game's loss of its advice.

Each theorem's hypotheses, as its statement gives them, are checked on the
game by the learner that reports the bound, which passes what it measured;
the bound then carries them (:class:`~game.theory.bounds.Hypothesis`) and is
"not applicable", with the first failing one as the reason, where one fails.
Called without the measurements, a function gives the theorem's value with
no hypothesis attached (a formula, not a verdict on a game). The rule:

- Halving, Theorem 16.1 of Abernethy lecture 16 (seed 004): "if there
  exists a perfect expert i such that f_i^t = y_t for all t", so
  ``realizable``: some expert (some hypothesis of a class) is right on every
  round played (``perfect``, how many are). The lecture's advice is ±1; the
  learner reads any advice by its sign and the theorem is about those labels.
- Weighted Majority (Littlestone & Warmuth 1994): a pool of experts that each
  predict a label, m the best one's mistakes. Weighted Majority weighs the
  labels sign(f_i) and m counts their mistakes, so the theorem holds for any
  advice and for any adversary, adaptive ones included: no hypothesis of the
  game to check.
- Randomized Weighted Majority (the same paper): E[M] bounds the *expected*
  mistakes, Σ_t of the probability of a mistake given the past, which is the
  logged ``mistake_probability`` only when the label is fixed before the coin
  is seen: ``oblivious adversary`` (the adversary saw the distribution, not
  the draw).
- Exponential Weights, Theorem 16.3 (and Corollary 16.4): "assume the loss
  function takes value in [0, 1]" and (§16.3.1) a loss "convex in ŷ", on
  advice in [−1, 1]: ``loss convex`` (the absolute and squared losses are;
  zero-one is not), ``losses in [0, 1]`` (every loss of ``game.theory.LOSSES``
  is, on advice in [−1, 1]: checked on the advice played), and, when the
  learner weighs the experts by a loss of its own, ``experts graded by the
  game's loss`` (the theorem bounds the loss the weights are built from).
  Corollary 16.4 adds ``L* ≤ L̃``, the bound the tuned η was tuned for.
- The minimax regret V(N, T) (Cover 1965 for N = 2; the game's value by
  backward induction, exact, from ``game.theory.solve``): a bound on
  ``"regret"`` for the minimax forecaster with ``absolute loss``, ``advice
  ±1``, ``N experts`` (the N solved for) and ``rounds ≤ T``; as a lower
  bound, what the minimax adversary or the replay of a learner's worst
  sequence forces (the referee checks that the game grades p by ``|p − y|/2``).

Examples
--------
>>> from game.theory.bounds import halving, exponential_weights
>>> halving(1024).value
10.0
>>> round(exponential_weights(16, 3.0, 0.5).value, 4)
10.8588
>>> b = halving(8, perfect=0)
>>> b.applies, b.reason
(False, 'realizable fails: no expert is right on every round played')
"""

from __future__ import annotations

import math
import numbers
from fractions import Fraction

import numpy as np

from game.errors import (
    ParameterError,
    check_choice,
    check_instance,
    check_integer,
    check_positive,
    check_real,
)
from game.theory._losses import LOSSES
from game.theory.bounds._base import Bound, Hypothesis, real_vector

__all__ = [
    "EXPONENTIAL_WEIGHTS_SOURCE",
    "FORCED_REGRET_SOURCE",
    "HALVING_SOURCE",
    "MINIMAX_REGRET_SOURCE",
    "RANDOMIZED_WEIGHTED_MAJORITY_SOURCE",
    "WEIGHTED_MAJORITY_SOURCE",
    "constant_experts_lower_bound",
    "exponential_weights",
    "exponential_weights_tuned",
    "forced_regret_lower_bound",
    "halving",
    "halving_lower_bound",
    "minimax_regret_bound",
    "potential_slack",
    "randomized_weighted_majority",
    "weighted_majority",
]

HALVING_SOURCE = "Abernethy lecture 16 (seed 004), Theorem 16.1"
HALVING_LOWER_SOURCE = (
    "Abernethy lecture 16 (seed 004), §16.1.2, the remark after Theorem 16.1: "
    "the balanced adversary makes the bound tight"
)
WEIGHTED_MAJORITY_SOURCE = (
    "Littlestone & Warmuth 1994, The Weighted Majority Algorithm (WM); the weighting "
    "that replaces Halving's majority vote in Abernethy lecture 16 (seed 004), end of §16.1.2"
)
RANDOMIZED_WEIGHTED_MAJORITY_SOURCE = (
    "Littlestone & Warmuth 1994, randomized Weighted Majority (WMR); it is the potential "
    "argument of Abernethy lecture 16 (seed 004), Theorem 16.3, with β = e^(−η) applied to "
    "the expected mistake, which is linear in the weights"
)
EXPONENTIAL_WEIGHTS_SOURCE = "Abernethy lecture 16 (seed 004), Theorem 16.3"
EXPONENTIAL_WEIGHTS_TUNED_SOURCE = (
    "Abernethy lecture 16 (seed 004), Corollary 16.4; the tuning η = ln(1 + √(2 ln N / L̃)) "
    "for L* ≤ L̃ is Freund & Schapire 1997, Lemma 4"
)
CONSTANT_EXPERTS_SOURCE = (
    "Abernethy lecture 16 (seed 004), §16.1.2: an adversary that answers the opposite of "
    "every prediction; the two constant experts err T times between them"
)

MINIMAX_REGRET_SOURCE = (
    "Cover 1965, Behavior of sequential predictors of binary sequences (N = 2); "
    "Cesa-Bianchi, Freund, Haussler, Helmbold, Schapire & Warmuth 1997, How to use expert "
    "advice (the minimax forecaster of the absolute loss); Cesa-Bianchi & Lugosi 2006, "
    "Prediction, Learning, and Games, §2.10 (minimax regret, by backward induction)"
)
FORCED_REGRET_SOURCE = (
    "the exact worst case of one learner: the backward induction of Cesa-Bianchi & Lugosi "
    "2006, §2.10, over the learner's game tree, its own predictions in place of the minimum"
)

#: The losses of ``game.theory.LOSSES`` convex in the prediction (Theorem 16.3's hypothesis).
_CONVEX = ("absolute", "squared")


def _check_experts(experts: int) -> int:
    return check_integer("experts", experts, low=1)


def _check_beta(beta: float) -> float:
    return check_real("beta", beta, low=0, high=1, closed_low=False, closed_high=False)


def _check_mistakes(best_mistakes: int) -> int:
    return check_integer("best_mistakes", best_mistakes, low=0)


def _check_loss(name: str, loss: float) -> float:
    return check_real(name, loss, low=0)


def halving(experts: int, *, perfect: int | None = None) -> Bound:
    """Halving makes at most log₂ N mistakes when a perfect expert exists.

    Parameters
    ----------
    experts : int
        N (for a finite concept class, the number of hypotheses).
    perfect : int, optional
        How many experts were right on every round played: the hypothesis
        ``realizable`` holds when some was (not checked when not given).

    Returns
    -------
    Bound
        ``log₂ N`` on mistakes.

    Examples
    --------
    >>> halving(8).value
    3.0
    >>> halving(8, perfect=1).hypotheses[0].detail
    '1 of 8 experts right on every round played'
    """
    n = _check_experts(experts)
    bound = Bound(
        math.log2(n),
        f"mistakes ≤ log₂ N = log₂ {n} when a perfect expert exists",
        HALVING_SOURCE,
    )
    if perfect is None:
        return bound
    k = check_integer("perfect", perfect, low=0, high=n)
    detail = (
        f"{k} of {n} experts right on every round played"
        if k
        else "no expert is right on every round played"
    )
    return bound.given(Hypothesis("realizable", k > 0, detail))


def halving_lower_bound(n: int) -> Bound:
    """The balanced adversary forces n = log₂ N mistakes on every deterministic learner.

    With N = 2ⁿ experts, expert i advising bit t of its index on round t and the
    outcome the opposite of each prediction, every round is a mistake and one
    expert is still perfect after n rounds: Theorem 16.1's log₂ N is tight.

    Examples
    --------
    >>> b = halving_lower_bound(10)
    >>> b.value, b.kind, b.holds(10), b.holds(9)
    (10.0, 'lower', True, False)
    """
    n = check_integer("n", n, low=0)
    return Bound(
        float(n),
        f"mistakes ≥ log₂ N = {int(n)} for every deterministic learner, N = 2^{int(n)}",
        HALVING_LOWER_SOURCE,
        kind="lower",
    )


def constant_experts_lower_bound(rounds: int) -> Bound:
    """Against the outcome opposite every prediction, a deterministic learner errs every round.

    With the two constant experts (−1, +1) the better one errs at most
    ⌊T/2⌋ times, so the learner's regret in mistakes is at least T/2.

    Examples
    --------
    >>> constant_experts_lower_bound(20).value
    20.0
    """
    rounds = check_integer("rounds", rounds, low=0)
    return Bound(
        float(rounds),
        f"mistakes ≥ T = {int(rounds)} for every deterministic learner; "
        f"the better constant expert errs ≤ {int(rounds) // 2}",
        CONSTANT_EXPERTS_SOURCE,
        kind="lower",
    )


def weighted_majority(experts: int, best_mistakes: int, beta: float) -> Bound:
    """Weighted Majority: M ≤ (log₂ N + m·log₂(1/β)) / log₂(2/(1+β)).

    Every mistake of WM leaves at most (1+β)/2 of the total weight, and the
    best expert keeps β^m of its weight 1; about 2.41·(m + log₂ N) at β = 1/2.

    Parameters
    ----------
    experts : int
        N.
    best_mistakes : int
        m ≥ 0, the mistakes of the best expert on the rounds played.
    beta : float
        The factor in (0, 1) that multiplies the weight of a wrong expert.

    Examples
    --------
    >>> round(weighted_majority(1024, 5, 0.5).value, 3)
    36.141
    """
    n, m, b = _check_experts(experts), _check_mistakes(best_mistakes), _check_beta(beta)
    value = (math.log2(n) + m * math.log2(1.0 / b)) / math.log2(2.0 / (1.0 + b))
    return Bound(
        value,
        f"mistakes ≤ (log₂ N + m·log₂(1/β)) / log₂(2/(1+β)) with N = {n}, m = {m}, β = {b:g}",
        WEIGHTED_MAJORITY_SOURCE,
    )


def randomized_weighted_majority(
    experts: int, best_mistakes: int, beta: float, *, oblivious: bool | None = None
) -> Bound:
    """Randomized Weighted Majority: E[M] ≤ (m·ln(1/β) + ln N) / (1 − β).

    The bound is on the expected number of mistakes, the sum of the per-round
    probabilities of a mistake, which the learner logs as the extras column
    ``mistake_probability``.

    Parameters
    ----------
    experts, best_mistakes, beta
        N, m and β as for :func:`weighted_majority`.
    oblivious : bool, optional
        Whether the adversary labelled without seeing the learner's coin (it
        saw the distribution, not the draw): the hypothesis ``oblivious
        adversary`` (not checked when not given).

    Examples
    --------
    >>> b = randomized_weighted_majority(16, 2, 0.5)
    >>> round(b.value, 4), b.quantity
    (8.3178, 'mistake_probability')
    >>> randomized_weighted_majority(16, 2, 0.5, oblivious=False).reason
    "oblivious adversary fails: the adversary saw the learner's coin before labelling"
    """
    n, m, b = _check_experts(experts), _check_mistakes(best_mistakes), _check_beta(beta)
    value = (m * math.log(1.0 / b) + math.log(n)) / (1.0 - b)
    bound = Bound(
        value,
        f"expected mistakes ≤ (m·ln(1/β) + ln N) / (1 − β) with N = {n}, m = {m}, β = {b:g}",
        RANDOMIZED_WEIGHTED_MAJORITY_SOURCE,
        quantity="mistake_probability",
    )
    if oblivious is None:
        return bound
    check_choice("oblivious", oblivious, (False, True))
    detail = (
        "the adversary saw the distribution, not the draw"
        if oblivious
        else "the adversary saw the learner's coin before labelling"
    )
    return bound.given(Hypothesis("oblivious adversary", bool(oblivious), detail))


def _loss_hypotheses(loss, experts_loss, advice) -> tuple[Hypothesis, ...]:
    """Theorem 16.3's hypotheses on the game's loss, the learner's and the advice played."""
    hypotheses = []
    if loss is not None:
        loss = check_choice("loss", loss, tuple(LOSSES))
        convex = loss in _CONVEX
        verb = "is" if convex else "is not"
        hypotheses.append(
            Hypothesis("loss convex", convex, f"the {loss} loss {verb} convex in the prediction")
        )
    if advice is not None:
        low, high = (float(a) for a in advice)
        inside = -1.0 <= low and high <= 1.0  # False for NaN
        hypotheses.append(
            Hypothesis(
                "losses in [0, 1]",
                inside,
                f"the advice played lies in [{low:g}, {high:g}]"
                + ("" if inside else ", not in [-1, 1]: an expert's loss may exceed 1"),
            )
        )
    if experts_loss is not None and loss is not None:
        experts_loss = check_choice("experts_loss", experts_loss, tuple(LOSSES))
        same = experts_loss == loss
        hypotheses.append(
            Hypothesis(
                "experts graded by the game's loss",
                same,
                f"the weights are built from the {experts_loss} loss, "
                f"the game's is the {loss} loss",
            )
        )
    return tuple(hypotheses)


def exponential_weights(
    experts: int,
    best_loss: float,
    eta: float,
    *,
    loss: str | None = None,
    experts_loss: str | None = None,
    advice: tuple[float, float] | None = None,
) -> Bound:
    """Exponential Weights: L_EWA ≤ (η·L_i + ln N) / (1 − e^(−η)) for every expert i.

    The strongest instance takes i the best expert, L_i = L*. The loss takes
    values in [0, 1] and is convex in the prediction.

    Parameters
    ----------
    experts : int
        N.
    best_loss : float
        L* ≥ 0, the least cumulative loss of an expert on the rounds played.
    eta : float
        The learning rate η > 0.
    loss : str, optional
        The game's loss (a name of ``game.theory.LOSSES``): the hypothesis
        ``loss convex``.
    experts_loss : str, optional
        The loss the learner's weights are built from (with ``loss``): the
        hypothesis ``experts graded by the game's loss``.
    advice : (float, float), optional
        The least and the largest advice played: the hypothesis ``losses in
        [0, 1]`` holds when they lie in [−1, 1].

    Examples
    --------
    >>> round(exponential_weights(2, 0.0, 1.0).value, 4)
    1.0965
    >>> exponential_weights(2, 0.0, 1.0, loss="zero-one").reason
    'loss convex fails: the zero-one loss is not convex in the prediction'
    """
    n = _check_experts(experts)
    best_loss = _check_loss("best_loss", best_loss)
    eta = check_positive("eta", eta)
    value = (eta * best_loss + math.log(n)) / -math.expm1(-eta)
    return Bound(
        value,
        f"loss ≤ (η·L* + ln N) / (1 − e^(−η)) with N = {n}, L* = {best_loss:.6g}, η = {eta:.6g}",
        EXPONENTIAL_WEIGHTS_SOURCE,
        quantity="loss",
        hypotheses=_loss_hypotheses(loss, experts_loss, advice),
    )


def exponential_weights_tuned(
    experts: int,
    best_loss: float,
    loss_bound: float | None = None,
    *,
    loss: str | None = None,
    experts_loss: str | None = None,
    advice: tuple[float, float] | None = None,
) -> Bound:
    """Corollary 16.4: L_EWA ≤ L* + ln N + √(2·L̃·ln N) with η tuned for L̃ ≥ L*.

    The η that gives it is ``learners.experts.tuned_eta(N, L̃)``; with
    L̃ = L* (the best loss known in advance) it is the corollary as stated.
    When L* exceeds L̃ the corollary's hypothesis ``L* ≤ L̃`` fails: the value
    is inf and the bound not applicable.

    Parameters
    ----------
    experts : int
        N.
    best_loss : float
        L* ≥ 0, the best expert's cumulative loss.
    loss_bound : float, optional
        L̃ ≥ 0, the bound on L* that η was tuned for (default: L* itself).
    loss, experts_loss, advice : optional
        Theorem 16.3's hypotheses, as for :func:`exponential_weights`.

    Examples
    --------
    >>> import math
    >>> b = exponential_weights_tuned(16, 8.0)
    >>> math.isclose(b.value, 8 + math.log(16) + math.sqrt(16 * math.log(16)))
    True
    """
    n = _check_experts(experts)
    best_loss = _check_loss("best_loss", best_loss)
    bound = best_loss if loss_bound is None else _check_loss("loss_bound", loss_bound)
    ln_n = math.log(n)
    within = best_loss <= bound
    value = best_loss + ln_n + math.sqrt(2.0 * bound * ln_n) if within else math.inf
    hypotheses = _loss_hypotheses(loss, experts_loss, advice)
    if loss_bound is not None:
        hypotheses += (
            Hypothesis(
                "L* ≤ L̃",
                within,
                f"the best expert's loss L* = {best_loss:.6g}, the tuning's L̃ = {bound:.6g}",
            ),
        )
    return Bound(
        value,
        f"loss ≤ L* + ln N + √(2·L̃·ln N) with N = {n}, L* = {best_loss:.6g}, L̃ = {bound:.6g}",
        EXPONENTIAL_WEIGHTS_TUNED_SOURCE,
        quantity="loss",
        hypotheses=hypotheses,
    )


def potential_slack(potentials, losses, eta: float) -> np.ndarray:
    """The proof of Theorem 16.3 round by round: Φ_{t+1} − Φ_t − (1 − e^(−η))·ℓ_t.

    Φ_t = −ln Σ_i exp(−η·L_i^t) is Exponential Weights' potential before round
    t (Φ_1 = −ln N). Lemma 16.5 and Jensen's inequality give
    Φ_{t+1} − Φ_t ≥ (1 − e^(−η))·ℓ(ŷ_t, y_t) for a convex loss in [0, 1]: every
    entry returned is ≥ 0, up to rounding.

    Parameters
    ----------
    potentials : array_like
        Φ_1, Φ_2, …, Φ_{T+1}: T + 1 values (the learner's initial snapshot,
        then its snapshot after each round).
    losses : array_like
        ℓ(ŷ_t, y_t) for t = 1, …, T.
    eta : float
        η.

    Examples
    --------
    >>> import math
    >>> phi = [-math.log(2), -math.log(1 + math.exp(-1.0))]   # one round, one expert wrong
    >>> bool(potential_slack(phi, [0.5], 1.0)[0] >= 0)
    True
    """
    phi = real_vector("potentials", potentials)
    ell = real_vector("losses", losses)
    eta = check_positive("eta", eta)
    if np.ndim(potentials) != 1 or phi.size != ell.size + 1:
        raise ParameterError(
            "potentials",
            potentials,
            f"a vector of {ell.size + 1} values, one more than the losses ({ell.size} rounds)",
        )
    return np.diff(phi) + np.expm1(-eta) * ell


def _regret_value(value) -> tuple[float, str]:
    """A regret (any finite number: a learner may beat every expert) as a float and its text.

    A Fraction of small denominator is written exactly in the text, beside its float.
    """
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return float(value), str(value)
        if value.denominator <= 1 << 20:
            return float(value), f"{value} ≈ {float(value):.6g}"
        return float(value), f"{float(value):.10g}"
    if not isinstance(value, numbers.Real):
        raise ParameterError("value", value, "a finite number")
    number = check_real("value", value)
    return number, f"{number:.6g}"


def minimax_regret_bound(
    experts: int,
    horizon: int,
    value,
    *,
    kind: str = "upper",
    loss: str | None = None,
    plus_minus_one: bool | None = None,
    played: int | None = None,
    rounds: int | None = None,
) -> Bound:
    """The minimax regret V of binary prediction with N experts over T rounds, as a bound.

    In the game of ``game.theory.solve.minimax_regret`` (±1 advice, predictions
    in [−1, 1] graded by the absolute loss ``|p − y|/2``) the minimax forecaster's
    regret is at most V on every game of at most T rounds, whatever the
    adversary does (``kind="upper"``), and the minimax adversary forces a
    regret of at least V on every learner, randomised or not: it answers the
    prediction p itself (``kind="lower"``; ``value`` is then what it forced,
    V over a whole game). For N = 2, V = T/2 − E[min(k, T − k)] with
    k ~ Binomial(T, ½) (Cover 1965).

    The value comes from the exact solution (``game.theory.solve``); this
    function states it, with the game's hypotheses as checked on a game played:
    ``absolute loss`` (the game's loss), ``advice ±1`` (every advice entry −1 or
    +1, each expert's loss 0 or 1), ``N experts`` (the advice has N entries) and
    ``rounds ≤ T``. A lower bound's hypotheses are the referee's (see
    :func:`game.transcript.lower_bound_hypotheses`).

    Parameters
    ----------
    experts : int
        N.
    horizon : int
        T.
    value : fractions.Fraction or float
        V (a Fraction of small denominator is shown exactly in the theorem's text).
    kind : {"upper", "lower"}, default "upper"
        The forecaster's guarantee, or what an adversary forces.
    loss : str, optional
        The game's loss: the hypothesis ``absolute loss``.
    plus_minus_one : bool, optional
        Whether every advice entry played was −1 or +1: the hypothesis ``advice ±1``.
    played : int, optional
        The number of experts played: the hypothesis ``N experts``.
    rounds : int, optional
        The rounds played: the hypothesis ``rounds ≤ T``.

    Examples
    --------
    >>> from fractions import Fraction
    >>> b = minimax_regret_bound(2, 5, Fraction(15, 16), loss="absolute", rounds=5)
    >>> b.value, b.quantity, b.applies
    (0.9375, 'regret', True)
    >>> print(b.theorem)
    regret ≤ 15/16 ≈ 0.9375, the minimax regret of N = 2 experts over T = 5 rounds \
(absolute loss, ±1 advice)
    >>> minimax_regret_bound(2, 5, Fraction(15, 16), loss="zero-one").reason
    'absolute loss fails: the game is graded by the zero-one loss, not |p − y|/2'
    """
    n = _check_experts(experts)
    horizon = check_integer("horizon", horizon, low=0)
    kind = check_choice("kind", kind, ("upper", "lower"))
    number, shown = _regret_value(value)
    hypotheses = []
    if loss is not None:
        loss = check_choice("loss", loss, tuple(LOSSES))
        absolute = loss == "absolute"
        detail = (
            "the game is graded by the absolute loss |p − y|/2"
            if absolute
            else f"the game is graded by the {loss} loss, not |p − y|/2"
        )
        hypotheses.append(Hypothesis("absolute loss", absolute, detail))
    if plus_minus_one is not None:
        check_choice("plus_minus_one", plus_minus_one, (False, True))
        detail = (
            "every advice entry is -1 or +1"
            if plus_minus_one
            else "some advice is neither -1 nor +1 (the game solved has ±1 advice)"
        )
        hypotheses.append(Hypothesis("advice ±1", bool(plus_minus_one), detail))
    if played is not None:
        played = check_integer("played", played, low=0)
        hypotheses.append(
            Hypothesis(
                "N experts",
                played == n,
                f"{played} experts played, the game solved has {n}",
            )
        )
    if rounds is not None:
        rounds = check_integer("rounds", rounds, low=0)
        hypotheses.append(
            Hypothesis("rounds ≤ T", rounds <= horizon, f"{rounds} rounds played, T = {horizon}")
        )
    sign = "≤" if kind == "upper" else "≥"
    what = "the minimax regret of" if kind == "upper" else "forced by the minimax adversary with"
    return Bound(
        number,
        f"regret {sign} {shown}, {what} N = {n} experts over T = {horizon} rounds "
        "(absolute loss, ±1 advice)",
        MINIMAX_REGRET_SOURCE,
        quantity="regret",
        kind=kind,
        hypotheses=tuple(hypotheses),
    )


def forced_regret_lower_bound(value, learner: str, experts: int, horizon: int) -> Bound:
    """The exact worst-case regret of one learner, forced by replaying its worst sequence.

    ``game.theory.solve.worst_case_regret`` searches the learner's game tree;
    an adversary that replays the sequence it found forces exactly that regret
    on the learner it was solved for (±1 advice, the absolute loss).

    Parameters
    ----------
    value : fractions.Fraction or float
        The regret forced.
    learner : str
        The learner it is forced on (its registry name).
    experts, horizon : int
        N and T.

    Examples
    --------
    >>> from fractions import Fraction
    >>> b = forced_regret_lower_bound(Fraction(3, 2), "weighted-majority", 2, 4)
    >>> b.value, b.kind, b.quantity
    (1.5, 'lower', 'regret')
    >>> print(b.theorem)
    regret ≥ 3/2 ≈ 1.5 on weighted-majority, its exact worst case with N = 2 experts over \
T = 4 rounds
    """
    check_instance("learner", learner, str, "a string (the learner's name)")
    n = _check_experts(experts)
    horizon = check_integer("horizon", horizon, low=0)
    number, shown = _regret_value(value)
    return Bound(
        number,
        f"regret ≥ {shown} on {learner}, its exact worst case with N = {n} experts over "
        f"T = {horizon} rounds",
        FORCED_REGRET_SOURCE,
        quantity="regret",
        kind="lower",
    )
