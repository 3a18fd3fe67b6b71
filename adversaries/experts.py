"""Adversaries of prediction with expert advice: advice streams and the two constant experts.

Every adversary here presents advice vectors (``presents = "advice"``): ±1
advice as int8 arrays, one byte per expert, graded advice as float arrays,
each read-only. An expert *errs* on a round when the sign of its advice
(sign(0) = +1) differs from the outcome.

``ExpertStream`` and ``AdviceReplay`` hold their whole game from the start and
declare it as their lockstep source (``lockstep``, the protocol of
:mod:`game.players`), so that :func:`game.play_batch` plays K games at once.

Examples
--------
>>> import numpy as np
>>> from game import play
>>> from learners.experts import WeightedMajority
>>> s = ExpertStream(experts=64, best_mistakes=3, horizon=200, rng=np.random.default_rng(0))
>>> tr = play(WeightedMajority(), s, rounds=1000)
>>> len(tr), int(tr.expert_losses(loss="zero-one").min()), tr.within_bound
(200, 3, True)
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs
import numpy as np

from game.errors import ParameterError
from game.players import (
    Footprint,
    Source,
    data_field,
    integer_at_least,
    one_of,
    real_in,
    rng_field,
)
from game.theory import ExpertCertificate, frozen_copy
from game.theory.bounds import Bound, constant_experts_lower_bound

__all__ = ["AdviceReplay", "ExpertStream", "TwoConstantExperts"]

#: The most advice entries a stream holds (int8 ±1 advice; a quarter of it for graded).
MAX_ENTRIES = 1 << 28

#: The most rounds of :class:`TwoConstantExperts` (the most rounds a scenario may ask for).
MAX_HORIZON = 10**9


def _read_only(array: np.ndarray) -> np.ndarray:
    """The advice in immutable memory: the referee records its rows by reference."""
    return frozen_copy(array)


def _lockstep_plan(adversary: ExpertStream | AdviceReplay, rounds: int) -> tuple | None:
    if adversary._t != 0:  # a game already under way
        return None
    advice = adversary.advice
    if not advice.flags.c_contiguous:
        return None
    return min(int(rounds), advice.shape[0]), int(advice.shape[1]), advice.dtype


def _lockstep_examples(adversary: ExpertStream | AdviceReplay, n: int) -> tuple:
    return adversary.advice[:n], np.asarray(adversary.outcomes[:n], dtype=np.int64)


#: The lockstep source of ``ExpertStream`` and ``AdviceReplay``: their advice and outcomes.
_ADVICE = Source(plan=_lockstep_plan, examples=_lockstep_examples)


@attrs.define(eq=False, on_setattr=attrs.setters.NO_OP)
class ExpertStream:
    """Oblivious advice in which one expert errs exactly ``best_mistakes`` times, the others more.

    The whole game is drawn when the stream is built, before any prediction:
    the outcomes y_t are ±1 with probability 1/2; the best expert b (``best``,
    or drawn) errs on exactly m = ``best_mistakes`` rounds drawn uniformly;
    every other expert errs on each round with probability ``error_rate``,
    independently, and then on more rounds drawn uniformly until it has erred
    at least m + 1 times, so b is the unique best expert in hindsight. An
    expert that errs advises −y_t, else y_t. With ``graded`` the advice keeps
    that sign and takes a magnitude uniform in (0, 1]: graded advice in
    [−1, 1] whose sign errs as planned.

    The certificate is expert b: realizable (a perfect expert, verified on
    every round) when m = 0, a comparator otherwise. The game ends after
    ``horizon`` rounds.

    Parameters
    ----------
    experts : int
        N ≥ 1.
    best_mistakes : int
        m ≥ 0, the best expert's mistakes.
    rng : numpy.random.Generator
        Draws the outcomes, the best expert and the errors.
    horizon : int, default 100
        T, the number of rounds: at least m, and at least m + 1 when N ≥ 2;
        N × T at most 2²⁸ advice entries (2²⁵ graded), a 256 MiB table.
    error_rate : float, default 0.5
        The other experts' chance of erring on a round, in (0, 1].
    graded : bool, default False
        Graded advice (float, magnitude uniform in (0, 1]) in place of ±1 (int8).
    best : int, optional
        b, the best expert's index; drawn uniformly by default.

    Examples
    --------
    >>> import numpy as np
    >>> s = ExpertStream(8, 0, np.random.default_rng(1), horizon=5)
    >>> s.advice.shape, s.advice.dtype.name, s.certificate().realizable
    ((5, 8), 'int8', True)
    >>> bool(np.all(s.advice[:, s.best] == s.outcomes))
    True
    """

    presents: ClassVar[str] = "advice"
    #: Its games as drawn, K at once (:func:`game.play_batch`).
    lockstep: ClassVar[Source] = _ADVICE

    experts: int = attrs.field(
        validator=integer_at_least(1, MAX_ENTRIES),
        metadata={"doc": f"N, the experts (at most {MAX_ENTRIES:,}; N × T entries at most that)"},
    )
    best_mistakes: int = attrs.field(
        validator=integer_at_least(0), metadata={"doc": "m, the best expert's mistakes"}
    )
    rng: np.random.Generator = rng_field("draws outcomes, the best expert and the errors")
    horizon: int = attrs.field(
        default=100, validator=integer_at_least(0), metadata={"doc": "T, the rounds of the game"}
    )
    error_rate: float = attrs.field(
        default=0.5,
        validator=real_in(0.0, 1.0, closed_low=False),
        metadata={"doc": "chance that another expert errs on a round, in (0, 1]"},
    )
    graded: bool = attrs.field(
        default=False,
        validator=one_of(False, True),
        metadata={"doc": "graded advice in [-1, 1] (float) instead of ±1 (int8)"},
    )
    best: int | None = attrs.field(
        default=None,
        validator=attrs.validators.optional(integer_at_least(0)),
        metadata={"doc": "the best expert's index (default: drawn)"},
    )
    advice: np.ndarray = attrs.field(init=False, repr=False)
    outcomes: np.ndarray = attrs.field(init=False, repr=False)
    _rows: list = attrs.field(init=False, factory=list, repr=False)
    _ys: list = attrs.field(init=False, factory=list, repr=False)
    _t: int = attrs.field(init=False, default=0, repr=False)

    def __attrs_post_init__(self) -> None:
        n, m, horizon = self.experts, self.best_mistakes, self.horizon
        if self.best is not None and self.best >= n:
            raise ParameterError("best", self.best, f"an expert index below {n}")
        need = m + 1 if n >= 2 else m
        if horizon < need:
            raise ParameterError(
                "horizon",
                horizon,
                f"≥ {need}",
                f"so that the other experts can err more than best_mistakes = {m} times",
            )
        limit = MAX_ENTRIES // (8 if self.graded else 1)
        holds = f"a stream holds {limit:,} advice entries"
        if n > limit:
            raise ParameterError("experts", n, f"at most {limit:,}", holds)
        if n * horizon > limit:
            raise ParameterError(
                "horizon", horizon, f"at most {limit // n:,} with {n:,} experts", holds
            )
        rng = self.rng
        y = (2 * rng.integers(0, 2, horizon) - 1).astype(np.int8)
        if self.best is None:
            self.best = int(rng.integers(n))
        errs = np.empty((horizon, n), dtype=bool)
        step = max(1, (1 << 22) // n)
        for s in range(0, horizon, step):
            errs[s : s + step] = rng.random((min(step, horizon - s), n)) < self.error_rate
        b = self.best
        errs[:, b] = False
        errs[rng.choice(horizon, size=m, replace=False), b] = True
        counts = errs.sum(axis=0)
        counts[b] = m + 1
        short = np.flatnonzero(counts <= m)
        if short.size:
            missing = m + 1 - counts[short]
            keys = rng.random((horizon, short.size))
            keys[errs[:, short]] = 2.0  # rounds where it errs already come last
            first = np.argsort(keys, axis=0, kind="stable")[: int(missing.max())]
            take = np.arange(first.shape[0])[:, None] < missing[None, :]
            errs[first[take], np.broadcast_to(short, first.shape)[take]] = True
        signs = np.where(errs, -y[:, None], y[:, None]).astype(np.int8)
        if self.graded:
            magnitude = 1.0 - rng.random((horizon, n))
            advice = signs * magnitude
        else:
            advice = signs
        self.advice = _read_only(advice)
        self.outcomes = _read_only(y)
        self._rows = list(self.advice)
        self._ys = y.tolist()

    @classmethod
    def footprint(cls, params: dict, rounds: int) -> Footprint:
        """Its sizes (:func:`game.players.estimate`): N × T advice entries, T rounds.

        It holds its table; a game of built-in players played in lockstep
        (:func:`game.play_batch`) also reads it as floats, up to 8 more bytes
        an entry, of which 4 are counted. Measured with tracemalloc for Weighted
        Majority: 10 MB at N = 200, T = 5,000; 43 MB at N = 1,000, T = 5,000;
        63 MB at N = 1,000, T = 15,000.
        """
        n, horizon = int(params.get("experts") or 1), int(params.get("horizon", 100))
        entry = 8 if params.get("graded") else 1
        own = (entry + 4) * n * horizon
        return Footprint(instance=entry * n, entries=n, own=own, rounds=horizon, key="experts")

    def instance(self, history) -> np.ndarray | None:
        """Round t's advice vector (a read-only row), or None after ``horizon`` rounds."""
        t = self._t
        if t == len(self._rows):
            return None
        self._t = t + 1
        return self._rows[t]

    def label(self, x, p: float, history) -> int:
        """The outcome drawn for the round (ignores the prediction)."""
        return self._ys[self._t - 1]

    def certificate(self) -> ExpertCertificate:
        """The best expert: perfect (realizable) when m = 0, a comparator otherwise."""
        return ExpertCertificate(
            self.best, experts=self.experts, realizable=self.best_mistakes == 0
        )


@attrs.define(eq=False, on_setattr=attrs.setters.NO_OP)
class TwoConstantExperts:
    """Two constant experts, (−1, +1) every round, and the outcome opposite the prediction.

    Every deterministic learner errs on every round, while the two experts err
    T times between them, so the better one errs at most ⌊T/2⌋ times: against
    an adaptive outcome a deterministic learner's regret (in mistakes) is at
    least T/2, which is why Exponential Weights predicts a mixture and
    Randomized Weighted Majority draws. The outcome is −1 when sign(p) = +1
    (sign(0) = +1), else +1. The game ends after ``horizon`` rounds.

    The certificate is the better constant expert in hindsight (expert 0 on a
    tie): a comparator, or realizable when it never erred.

    Parameters
    ----------
    horizon : int, default 100
        T, the number of rounds, at most 10⁹.

    Examples
    --------
    >>> from game import play
    >>> from learners.experts import WeightedMajority
    >>> tr = play(WeightedMajority(), TwoConstantExperts(horizon=40), rounds=100)
    >>> int(tr.mistakes.sum()), int(tr.expert_losses(loss="zero-one").min()) <= 20
    (40, True)
    """

    presents: ClassVar[str] = "advice"

    horizon: int = attrs.field(
        default=100,
        validator=integer_at_least(0, MAX_HORIZON),
        metadata={"doc": f"T, the rounds of the game (at most {MAX_HORIZON:,})"},
    )
    _advice: Any = attrs.field(init=False, repr=False)
    _t: int = attrs.field(init=False, default=0, repr=False)
    _plus: int = attrs.field(init=False, default=0, repr=False)

    def __attrs_post_init__(self) -> None:
        self._advice = _read_only(np.array([-1, 1], dtype=np.int8))

    def instance(self, history) -> np.ndarray | None:
        """(−1, +1), or None after ``horizon`` rounds."""
        if self._t >= self.horizon:
            return None
        self._t += 1
        return self._advice

    def label(self, x, p: float, history) -> int:
        """The opposite of the predicted label sign(p)."""
        if p >= 0:
            return -1
        self._plus += 1
        return 1

    def certificate(self) -> ExpertCertificate:
        """The better constant expert (expert 0 errs on +1 outcomes, expert 1 on −1)."""
        errs = (self._plus, self._t - self._plus)
        best = 0 if errs[0] <= errs[1] else 1
        return ExpertCertificate(best, experts=2, realizable=errs[best] == 0)

    def lower_bound(self) -> Bound:
        """A deterministic learner errs on every round played."""
        return constant_experts_lower_bound(self._t)


def _advice_matrix(value: Any) -> np.ndarray:
    expected = "a rounds × experts matrix of numbers in [-1, 1]"
    try:
        array = np.array(value)
    except ValueError:  # ragged rows
        raise ParameterError("advice", value, expected) from None
    if array.ndim != 2 or array.shape[1] == 0 or array.dtype.kind not in "iuf":
        raise ParameterError("advice", value, expected)
    if array.size and not (np.all(array >= -1) and np.all(array <= 1)):
        raise ParameterError("advice", value, expected)
    return _read_only(array)


def _outcome_vector(value: Any) -> np.ndarray:
    try:
        array = np.array(value)
    except ValueError:  # ragged
        raise ParameterError("outcomes", value, "a vector of -1 and 1") from None
    if array.ndim != 1 or array.dtype.kind not in "iuf" or not np.all(np.abs(array) == 1):
        raise ParameterError("outcomes", value, "a vector of -1 and 1")
    return _read_only(array.astype(np.int8))


@attrs.define(eq=False, on_setattr=attrs.setters.NO_OP)
class AdviceReplay:
    """Replays a fixed advice matrix and outcomes; certificate the best expert in hindsight.

    Parameters
    ----------
    advice : array_like
        (T × N) advice in [−1, 1] (or a ``.npy``/``.csv`` file in a scenario).
    outcomes : array_like
        (T,) outcomes ±1.

    Notes
    -----
    The certificate is the expert with the fewest mistakes (sign of the advice
    against the outcome; the smallest index among ties), realizable when it
    has none.

    Examples
    --------
    >>> from game import play
    >>> from learners.experts import Halving
    >>> tr = play(Halving(), AdviceReplay([[1, -1, 1], [1, 1, -1]], [1, -1]), rounds=5)
    >>> len(tr), tr.certificate.describe(), tr.certificate_verified
    (2, 'expert 2 of 3', True)
    """

    presents: ClassVar[str] = "advice"
    #: Its games, K at once (:func:`game.play_batch`).
    lockstep: ClassVar[Source] = _ADVICE

    advice: np.ndarray = data_field(
        "T × N advice in [-1, 1] (.npy, .csv or a list of rows)", converter=_advice_matrix
    )
    outcomes: np.ndarray = data_field(
        "T outcomes ±1 (.npy, .csv or a list)", converter=_outcome_vector
    )
    _t: int = attrs.field(init=False, default=0, repr=False)

    def __attrs_post_init__(self) -> None:
        if self.outcomes.shape[0] != self.advice.shape[0]:
            raise ParameterError(
                "outcomes", self.outcomes, f"one entry per row of advice ({self.advice.shape[0]})"
            )

    def instance(self, history) -> np.ndarray | None:
        """The next row of advice, or None at the end."""
        t = self._t
        if t == self.advice.shape[0]:
            return None
        self._t = t + 1
        return self.advice[t]

    def label(self, x, p: float, history) -> int:
        """The recorded outcome."""
        return int(self.outcomes[self._t - 1])

    def certificate(self) -> ExpertCertificate:
        """The expert with the fewest mistakes over the whole matrix."""
        n = self.advice.shape[1]
        wrong = (self.advice >= 0) != (self.outcomes[:, None] > 0)
        counts = wrong.sum(axis=0)
        best = int(np.argmin(counts))
        return ExpertCertificate(best, experts=n, realizable=bool(counts[best] == 0))
