"""Prediction with expert advice: Halving, Weighted Majority, Exponential Weights.

The instance of a round is the advice vector f = (f_1, …, f_N) of N experts,
a 1-D numpy array with entries in [−1, 1]: ±1 advice (any dtype; the project's
adversaries send int8, one byte per expert) or graded advice (floats). N is
taken from the first instance unless ``experts`` gives it.

Conventions, as in Abernethy's lecture 16 (seed 004):

- an expert's label is the sign of its advice, with sign(0) = +1; the expert
  is *wrong* on a round when that sign differs from the outcome y, and its
  mistakes count those rounds;
- the majority votes (Halving, Weighted Majority) break ties towards +1, as
  004's Halving does (+1 when at least half the vote says +1);
- an expert's *loss* (Exponential Weights) is the game's loss of its advice,
  ℓ(f_i, y); on ±1 advice all three losses are 0 or 1 and agree with mistakes.

Weighted Majority's and Exponential Weights' weights are functions of the
experts' cumulative losses alone (``learners._weights``): experts with
equal losses weigh the same, bit for bit, at every round, so an even vote is
exactly 0 and a tie goes to +1 however long the game.

Advice outside [−1, 1] is refused by the referee at the end of a game (naming
the round). A learner used directly grades such advice as the transcript
grades it, never otherwise: the majority votes read any advice by its sign
(a NaN, which has none, counts as −1, as ``f >= 0`` and the zero-one loss
read it), and Exponential Weights takes the zero-one shortcut only for advice
whose every entry is exactly ±1, grading anything else by its loss ℓ(f_i, y)
(advice of 2 against y = +1 loses 1/2 under the absolute loss); a loss that
is not a finite number (NaN or infinite advice) is a ``ValueError``.

Every learner here works on all N experts at once with numpy; none loops over
experts in Python.

Examples
--------
>>> import numpy as np
>>> h = Halving()
>>> f = np.array([1, 1, -1, -1], dtype=np.int8)
>>> h.predict(f), h.update(f, -1), h.snapshot()
(1.0, True, {'consistent': 2})
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

import attrs
import numpy as np

from game.errors import ParameterError, check_integer, check_positive
from game.players import (
    LockstepLearner,
    concept_class_field,
    integer_at_least,
    loss_field,
    one_of,
    positive,
    real_in,
    rng_field,
)
from game.theory import best_expert_losses, get_loss, perfect_experts
from game.theory.bounds import (
    Bound,
    exponential_weights,
    halving,
    randomized_weighted_majority,
    weighted_majority,
)
from learners._experts_lockstep import EXPONENTIAL_WEIGHTS, HALVING, WEIGHTED_MAJORITY
from learners._weights import Weights

__all__ = [
    "MAX_EXPERTS",
    "ExponentialWeights",
    "Halving",
    "RandomizedWeightedMajority",
    "WeightedMajority",
    "tuned_eta",
]


def tuned_eta(experts: int, loss_bound: float) -> float:
    """The η of Corollary 16.4 for a known bound L̃ on the best expert's loss.

    η = ln(1 + √(2·ln N / L̃)) (Freund & Schapire 1997, Lemma 4) gives
    L_EWA ≤ L* + ln N + √(2·L̃·ln N) whenever L* ≤ L̃; with L̃ = L* this is
    Abernethy lecture 16 (seed 004), Corollary 16.4, as stated.

    Parameters
    ----------
    experts : int
        N ≥ 2.
    loss_bound : float
        L̃ > 0. (With a perfect expert, L̃ = 0, the tuned η is infinite: use Halving.)

    Examples
    --------
    >>> round(tuned_eta(16, 8.0), 4)
    0.6057
    """
    experts = check_integer("experts", experts, low=2)
    try:
        loss_bound = check_positive("loss_bound", loss_bound)
    except ParameterError as exc:
        raise ParameterError(
            "loss_bound", loss_bound, exc.expected, "with a perfect expert use Halving"
        ) from None
    return math.log1p(math.sqrt(2.0 * math.log(experts) / loss_bound))


def _advice(x, n: int | None, who: str) -> np.ndarray:
    """The advice vector as an array, checked against N when N is known."""
    f = x if isinstance(x, np.ndarray) else np.asarray(x)
    if f.ndim != 1 or (n is not None and f.shape[0] != n) or f.shape[0] == 0:
        expected = "a vector of at least one entry" if n is None else f"a vector of {n} entries"
        raise ValueError(f"{who}: the advice must be {expected}, got shape {f.shape}")
    return f


def _is_plus_minus_one(f: np.ndarray) -> bool:
    """Integer advice whose every entry is exactly −1 or +1 (no 0, nothing beyond)."""
    kind, n = f.dtype.kind, f.shape[0]
    if kind == "i" and n <= 4096:  # f + 1 is 0 or 2 exactly when f is ∓1 (overflow wraps)
        return not np.count_nonzero((f + 1) & -3)
    if kind == "i":  # on long advice three reductions beat two temporaries
        return np.count_nonzero(f) == n and int(f.min()) >= -1 and int(f.max()) <= 1
    if kind == "u":
        return not np.count_nonzero(f != 1)
    return False


def _advice_range(transcript) -> tuple[float, float] | None:
    """The least and the largest advice played (None before any round); NaN when some is NaN."""
    if len(transcript) == 0:
        return None
    advice = np.asarray(transcript.instances)  # the game's dtype: no copy of a long game
    return float(advice.min()), float(advice.max())  # a NaN anywhere makes both NaN


def _weights_key(weights: Weights | None) -> tuple | None:
    """The weights' state as a hashable: what decides every later vote of theirs.

    Counted, the weights are a table's entries at the mistake counts above the
    least, so those counts are the state; graded, the weights are recomputed
    from the float losses at every update, so the losses themselves are.
    """
    if weights is None:
        return None
    losses = weights.losses()  # a pending update applied
    if weights.graded_losses is None:
        counts = losses.astype(np.int64)
        return ("counted", (counts - counts.min()).tobytes())
    return ("graded", losses.tobytes())


def _theorem_16_3(transcript, n: int, eta: float, experts_loss: str) -> Bound:
    """Theorem 16.3 at the best expert on the game's loss, its hypotheses checked on the game."""
    loss = transcript.loss_name
    best = float(transcript.expert_losses(loss=loss).min()) if len(transcript) else 0.0
    return exponential_weights(
        n, best, eta, loss=loss, experts_loss=experts_loss, advice=_advice_range(transcript)
    )


#: The most experts a learner accepts: 2²⁸ weights are 2 GiB of floats.
MAX_EXPERTS = 1 << 28


def _experts_field() -> Any:
    return attrs.field(
        default=None,
        validator=attrs.validators.optional(integer_at_least(1, MAX_EXPERTS)),
        metadata={
            "doc": f"N, the number of experts (default: from the first advice vector; "
            f"at most {MAX_EXPERTS:,})"
        },
    )


def _experts_of(transcript, n: int | None) -> int | None:
    if n is not None:
        return n
    if len(transcript) == 0:
        return None
    return int(np.shape(transcript.raw_instances[0])[0])


def _over_best_expert(transcript, theorem) -> np.ndarray | None:
    """``theorem(N, m, β)`` after every round t = 0, …, T, with m the best expert's mistakes so far.

    Evaluated once per distinct m; None when the transcript does not say N.
    """
    params = transcript.header.get("learner", {}).get("params", {})
    n = _experts_of(transcript, params.get("experts"))
    if n is None:
        return None
    beta = params.get("beta", 0.5)
    best = np.concatenate(([0.0], best_expert_losses(transcript, loss="zero-one")))
    values, inverse = np.unique(best, return_inverse=True)
    return np.array([theorem(n, int(m), beta).value for m in values])[inverse]


@attrs.define(eq=False, on_setattr=attrs.setters.NO_OP)
class Halving:
    """Halving: the majority vote of the experts consistent so far (004, §16.1.2).

    C_t = {i : expert i was right on every round before t}; predict +1 when at
    least half of C_t says +1 (``|{i ∈ C_t : f_i ≥ 0}| ≥ |C_t|/2``), else −1; after
    the outcome, drop the experts that were wrong. A mistake at least halves
    C_t, so with a perfect expert Halving errs at most log₂ N times
    (Theorem 16.1). Should C_t become empty (no perfect expert), the rule reads
    0 ≥ 0 and Halving predicts +1 from then on.

    With a finite ``concept_class`` (a :class:`~game.theory.concepts.FiniteClass`,
    or an object with ``.matrix`` or a ±1 matrix, hypotheses × points, made one
    by :func:`~game.theory.concepts.as_finite_class`) the instances are point
    indices and hypothesis h advises ``matrix[h, x]`` on point x: Halving over
    the class, each (distinct) hypothesis an expert. The first instance fixes the game:
    a point (an int) needs the class; an advice vector is played as it is, the
    class then unused.

    Parameters
    ----------
    concept_class : FiniteClass, object with ``.matrix`` or ±1 matrix, optional
        The class whose hypotheses are the experts; instances are then points.
        A scenario hands it the ``[concept_class]`` table's class.
    experts : int, optional
        N, at most 2²⁸ (``MAX_EXPERTS``); by default the length of the first
        advice vector (or the class's size).

    Notes
    -----
    ``snapshot()`` is ``{"consistent": |C_t|}`` after the round's update, and
    empty before round 1 when N is not yet known. ``mistake_bound`` is
    Theorem 16.1's log₂ N, which applies when some expert is right on every
    round played (the hypothesis "realizable"); when none is it is reported
    not applicable, with that reason.

    Examples
    --------
    >>> import numpy as np
    >>> h = Halving()
    >>> f = np.array([1, -1, -1, 1], dtype=np.int8)
    >>> h.predict(f)                    # a tie goes to +1
    1.0
    >>> h.update(f, -1), h.snapshot()
    (True, {'consistent': 2})
    >>> c = Halving(concept_class=[[1, 1, 1], [-1, 1, 1], [-1, -1, 1]])   # thresholds
    >>> c.predict(1), c.update(1, -1), c.snapshot()
    (1.0, True, {'consistent': 1})
    """

    proof: ClassVar[str] = "halving"
    deterministic: ClassVar[bool] = True
    plays: ClassVar[frozenset[str]] = frozenset({"advice", "point"})
    #: K games at once on advice vectors (``learners._experts_lockstep``).
    lockstep: ClassVar[LockstepLearner] = HALVING

    concept_class: Any = concept_class_field(
        "finite class (or its ±1 matrix, hypotheses × points): its hypotheses are experts",
        required=False,
    )
    experts: int | None = _experts_field()
    _n: int | None = attrs.field(init=False, default=None, repr=False)
    _size: int | None = attrs.field(init=False, default=None, repr=False)
    _mask: Any = attrs.field(init=False, default=None, repr=False)
    _alive: Any = attrs.field(init=False, default=None, repr=False)
    _x: Any = attrs.field(init=False, default=None, repr=False)
    _plus: Any = attrs.field(init=False, default=None, repr=False)
    _votes: int = attrs.field(init=False, default=0, repr=False)
    _points: bool | None = attrs.field(init=False, default=None, repr=False)
    _columns: Any = attrs.field(init=False, default=None, repr=False)

    #: C_t is kept as a boolean mask over the N experts until it holds at most
    #: N/64 of them, then as an array of indices.
    SPARSE = 64

    def __attrs_post_init__(self) -> None:
        if self.concept_class is not None:
            n = self.concept_class.n_hypotheses
            if self.experts is not None and self.experts != n:
                raise ParameterError("experts", self.experts, f"the class's {n} hypotheses")
            self._n = n
        else:
            self._n = self.experts
        self._size = self._n

    @property
    def consistent(self) -> np.ndarray:
        """The indices of the experts in C_t (empty before the first instance)."""
        if self._alive is not None:
            return self._alive.copy()
        if self._mask is not None:
            return np.flatnonzero(self._mask)
        return np.arange(self._n or 0)

    def _column(self, x) -> np.ndarray:
        """The advice on instance x: of every expert, or of C_t's once it is sparse."""
        point = isinstance(x, int | np.integer) and not isinstance(x, bool)
        if self._points is None:
            if point and self.concept_class is None:
                raise ValueError(f"Halving: a point instance ({x!r}) needs a concept_class")
            self._points = point
            if not point:
                f = _advice(x, self.experts, "Halving")
                self._n = self._size = f.shape[0]
        elif point != self._points:
            kind = "point indices" if self._points else "advice vectors"
            raise ValueError(f"Halving: this game's instances are {kind}, got {x!r:.60}")
        if not point:
            f = _advice(x, self._n, "Halving")
            return f if self._alive is None else f[self._alive]
        columns = self._columns
        if columns is None:  # the class point by point: one contiguous row per point
            columns = self._columns = self.concept_class.columns
        if not 0 <= x < columns.shape[0]:
            raise ValueError(f"point {x} is outside the class's {columns.shape[0]} points")
        return columns[x] if self._alive is None else columns[x, self._alive]

    def predict(self, x) -> float:
        """+1.0 when at least half of C_t advises +1, else −1.0."""
        plus = self._column(x) >= 0  # a new array: the experts (of C_t, once sparse) for +1
        if self._mask is not None:
            np.logical_and(plus, self._mask, out=plus)
        votes = int(np.count_nonzero(plus))
        self._x, self._plus, self._votes = x, plus, votes
        return 1.0 if 2 * votes >= self._size else -1.0

    def update(self, x, y: int) -> bool:
        """Drop the experts of C_t that advised against y; True iff any was dropped."""
        if x is not self._x and not (self._points and x == self._x):
            self.predict(x)
        plus, size = self._plus, self._size
        right = self._votes if y > 0 else size - self._votes
        if right == size:
            return False
        if self._alive is not None:
            self._alive = self._alive[plus] if y > 0 else self._alive[~plus]
        elif y > 0:
            self._mask = plus
        elif self._mask is None:
            self._mask = np.logical_not(plus, out=plus)
        else:
            np.logical_xor(self._mask, plus, out=self._mask)
        self._size = right
        if self._mask is not None and right * self.SPARSE <= self._n:
            self._alive, self._mask = np.flatnonzero(self._mask), None
        self._x = None  # the vote is spent: a repeated update recomputes it
        return True

    def snapshot(self) -> dict[str, int]:
        """``|C_t|`` after the round's update (empty before N is known)."""
        if self._size is None:
            return {}
        return {"consistent": self._size}

    def state_key(self) -> tuple:
        """What its future predictions depend on: N and C_t (packed bits).

        Equal keys, equal behaviour from here on in a game of one kind (points
        or advice), whether C_t is kept as a mask or as indices
        (:func:`game.theory.solve.worst_case` merges states by it).
        """
        if self._n is None:
            return (None, b"")
        if self._mask is not None:
            alive = self._mask
        else:
            alive = np.ones(self._n, dtype=bool)
            if self._alive is not None:
                alive[:] = False
                alive[self._alive] = True
        return (self._n, np.packbits(alive).tobytes())

    def mistake_bound(self, transcript) -> Bound | None:
        """log₂ N (Theorem 16.1), applicable when some expert is right on every round played.

        None only when N is unknown (no round played and ``experts`` not given).
        """
        points = self._points
        if points is None and len(transcript):  # rebuilt from a header: the rounds say
            points = self.concept_class is not None and np.ndim(transcript.raw_instances[0]) == 0
        matrix = self.concept_class.matrix if points else None
        n = _experts_of(transcript, self._n)
        if n is None:
            return None
        perfect = perfect_experts(transcript, matrix=matrix).size if len(transcript) else n
        return halving(n, perfect=perfect)

    @classmethod
    def bound_curve(cls, transcript) -> np.ndarray | None:
        """log₂ N after every round t = 0, 1, …, T of a game Halving played.

        Theorem 16.1 does not depend on the rounds: when an expert is right on
        every round of the game it is right on every prefix, so the bound after
        round t is the game's own, log₂ N (``transcript.bound``, for the N
        experts or hypotheses played). None when no expert is right on every
        round (the theorem does not apply) or the game has no bound.

        Examples
        --------
        >>> from game import play
        >>> from adversaries.halving import HalvingLowerBound
        >>> Halving.bound_curve(play(Halving(), HalvingLowerBound(3), rounds=8)).tolist()
        [3.0, 3.0, 3.0, 3.0]
        """
        if transcript.bound is None or not transcript.bound.applies:
            return None
        return np.full(len(transcript) + 1, float(transcript.bound.value))


@attrs.define(eq=False, on_setattr=attrs.setters.NO_OP)
class WeightedMajority:
    """Weighted Majority (Littlestone & Warmuth): weights 1, wrong experts' weights × β.

    Predicts +1 when the experts advising +1 (f_i ≥ 0) hold at least half of the
    total weight, else −1; after the outcome multiplies the weight of every
    wrong expert by β. With m the best expert's mistakes,
    M ≤ (log₂ N + m·log₂(1/β)) / log₂(2/(1+β)).

    Expert i weighs β^(m_i − min_j m_j), m_i its mistakes so far, read from
    a table of the powers ``β**k`` (``learners._weights``): a function of
    the mistake counts alone, the best expert weighing 1, so nothing
    underflows however long the game and experts with equal counts weigh
    the same bit for bit. A vote within the rounding of its sum of even is
    summed again exactly, so an even vote (the same weights on both sides)
    is exactly 0 and goes to +1 after any number of rounds, whatever order
    the machine adds in.

    Parameters
    ----------
    beta : float, default 0.5
        β in (0, 1).
    experts : int, optional
        N, at most 2²⁸ (``MAX_EXPERTS``); by default the length of the first
        advice vector.

    Notes
    -----
    ``snapshot()`` is ``{"log2_weight": log₂ W_t}``, W_t = Σ_i β^(m_i) the total
    weight the proof tracks (W_1 = N; each mistake leaves at most (1+β)/2 of it).

    Examples
    --------
    >>> import numpy as np
    >>> wm = WeightedMajority(beta=0.5)
    >>> f = np.array([1, -1, -1], dtype=np.int8)
    >>> wm.predict(f), wm.update(f, 1), wm.snapshot()
    (-1.0, True, {'log2_weight': 1.0})
    >>> wm.predict(f)                   # 1 against 1/2 + 1/2: a tie goes to +1
    1.0
    """

    proof: ClassVar[str] = "weighted-majority"
    deterministic: ClassVar[bool] = True
    plays: ClassVar[frozenset[str]] = frozenset({"advice"})
    #: K games at once on advice of up to 1,024 experts (``learners._experts_lockstep``).
    lockstep: ClassVar[LockstepLearner] = WEIGHTED_MAJORITY

    beta: float = attrs.field(
        default=0.5,
        validator=real_in(0.0, 1.0, closed_low=False, closed_high=False),
        metadata={"doc": "β in (0, 1): a wrong expert's weight is multiplied by β"},
    )
    experts: int | None = _experts_field()
    _weights: Any = attrs.field(init=False, default=None, repr=False)
    _x: Any = attrs.field(init=False, default=None, repr=False)
    _plus: Any = attrs.field(init=False, default=None, repr=False)

    def __attrs_post_init__(self) -> None:
        if self.experts is not None:
            self._weights = Weights(self.experts, -math.log(self.beta), self.beta)

    def _prepare(self, x) -> np.ndarray:
        """Which experts advise +1 (f_i ≥ 0; a NaN does not), the weights made on first use."""
        n = None if self._weights is None else self._weights.n
        f = _advice(x, n if n is not None else self.experts, type(self).__name__)
        if self._weights is None:
            self._weights = Weights(f.shape[0], -math.log(self.beta), self.beta)
        plus = f >= 0
        self._x, self._plus = x, plus
        return plus

    def predict(self, x) -> float:
        """+1.0 when the weight on +1 is at least the weight on −1, else −1.0."""
        plus = self._prepare(x)
        return 1.0 if self._weights.split(plus) >= 0.0 else -1.0

    def update(self, x, y: int) -> bool:
        """Multiply the wrong experts' weights by β; True iff some expert was wrong."""
        plus = self._plus if x is self._x else self._prepare(x)
        return self._weights.zero_one_update(plus, y > 0)

    @property
    def weights(self) -> np.ndarray:
        """The normalised weights w_i / Σ_j w_j (empty before the first instance)."""
        if self._weights is None:
            return np.zeros(0)
        return self._weights.w / self._weights.total

    def snapshot(self) -> dict[str, float]:
        """log₂ of the total weight Σ_i β^(m_i) (empty before N is known)."""
        if self._weights is None:
            return {}
        return {"log2_weight": -self._weights.potential() / math.log(2.0)}

    def state_key(self) -> tuple | None:
        """A hashable that decides its future predictions: β and the mistakes above the least.

        Two learners of one class with equal keys predict alike on every game
        from here (``game.theory.solve.worst_case_regret`` memoises on it).
        """
        return (type(self).__name__, self.beta, self.experts, _weights_key(self._weights))

    def mistake_bound(self, transcript) -> Bound | None:
        """(log₂ N + m·log₂(1/β)) / log₂(2/(1+β)) with m the best expert's mistakes played."""
        n = _experts_of(transcript, None if self._weights is None else self._weights.n)
        if n is None:
            return None
        m = transcript.expert_losses(loss="zero-one").min() if len(transcript) else 0.0
        return weighted_majority(n, int(m), self.beta)

    @classmethod
    def bound_curve(cls, transcript) -> np.ndarray | None:
        """The bound after every round t = 0, 1, …, T, on the rounds played so far.

        (log₂ N + m_t·log₂(1/β)) / log₂(2/(1+β)), with m_t the best expert's
        mistakes after round t (m_0 = 0) and β and N as the transcript's header
        records them; the last value is :meth:`mistake_bound`'s. None when N is
        unknown (no round played and ``experts`` not given).

        Examples
        --------
        >>> import numpy as np
        >>> from game import play
        >>> from adversaries.experts import ExpertStream
        >>> stream = ExpertStream(8, 2, np.random.default_rng(0), horizon=40)
        >>> tr = play(WeightedMajority(beta=0.5), stream, rounds=40)
        >>> curve = WeightedMajority.bound_curve(tr)
        >>> len(curve), bool(np.isclose(curve[-1], tr.bound.value))
        (41, True)
        """
        return _over_best_expert(transcript, weighted_majority)


#: What Randomized Weighted Majority shows the adversary before the label.
REVEALS = ("distribution", "draw")


@attrs.define(eq=False, on_setattr=attrs.setters.NO_OP)
class RandomizedWeightedMajority(WeightedMajority):
    """Randomized Weighted Majority: predicts the label of an expert drawn by weight.

    Weighs the experts as Weighted Majority does (β^(m_i − min m), m_i the
    mistakes of expert i) and predicts the label ŷ = +1 with probability
    P₊ = Σ_{f_i ≥ 0} w_i / Σ_j w_j, the label of an expert drawn in proportion
    to the weights; then multiplies the weight of every wrong expert by β.
    With p = Σ_i w_i·sign(f_i) / Σ_j w_j ∈ [−1, 1], its *mixture*,
    P₊ = (1 + p)/2 and the round's mistake probability is q = ``|p − y|/2``.

    The adversary is shown the distribution, never the coin
    (``reveal = "distribution"``, the default): ``predict`` returns the
    mixture p, and the coin is drawn from ``rng`` in ``update``, after the
    label is fixed (ŷ = +1 when a uniform draw u < (1 + p)/2). Then the
    expected number of mistakes is Σ_t q_t whatever the adversary does with p,
    and Littlestone & Warmuth's E[M] ≤ (m·ln(1/β) + ln N)/(1 − β) bounds it.
    With ``reveal = "draw"`` (the adaptive game) ``predict`` draws the coin
    and returns ŷ, so the adversary labels knowing it: the bound is then
    reported not applicable ("oblivious adversary" fails).

    Each round logs, as extras columns, ``mistake_probability`` (q),
    ``drawn_label`` (ŷ) and ``drawn_mistake`` (1.0 when ŷ ≠ y): their sums
    are the expected and the realised mistakes. The transcript's prediction is
    what the adversary saw: with the default, p, whose absolute loss is q and
    whose sign is Weighted Majority's vote (so the transcript's mistakes are
    the vote's, not the draw's).

    Parameters
    ----------
    beta : float, default 0.5
        β in (0, 1).
    rng : numpy.random.Generator
        Draws the coin (one uniform number a round).
    experts : int, optional
        N, at most 2²⁸ (``MAX_EXPERTS``); by default the length of the first
        advice vector.
    reveal : {"distribution", "draw"}, default "distribution"
        What ``predict`` shows the adversary: the mixture p, or the drawn label.

    Examples
    --------
    >>> import numpy as np
    >>> rwm = RandomizedWeightedMajority(beta=0.5, rng=np.random.default_rng(0))
    >>> f = np.array([1, 1, 1, -1], dtype=np.int8)
    >>> rwm.predict(f), rwm.update(f, 1), rwm.extras()["mistake_probability"]
    (0.5, True, 0.25)
    >>> draw = RandomizedWeightedMajority(rng=np.random.default_rng(0), reveal="draw")
    >>> draw.predict(f) in (-1.0, 1.0)
    True
    """

    proof: ClassVar[str] = "randomized-weighted-majority"
    deterministic: ClassVar[bool] = False

    rng: np.random.Generator = rng_field("draws the coin, one uniform number a round")
    reveal: str = attrs.field(
        default="distribution",
        validator=one_of(*REVEALS),
        metadata={"doc": "what the adversary sees: the mixture (default) or the drawn label"},
    )
    _p: float = attrs.field(init=False, default=0.0, repr=False)
    _drawn: float | None = attrs.field(init=False, default=None, repr=False)
    _record: dict = attrs.field(
        init=False,
        repr=False,
        factory=lambda: {"drawn_label": 0.0, "drawn_mistake": 0.0, "mistake_probability": 0.0},
    )

    def _mixture(self, x) -> float:
        plus = self._prepare(x)
        weights = self._weights
        p = weights.split(plus) / weights.total
        self._p = 1.0 if p > 1.0 else (-1.0 if p < -1.0 else p)
        self._drawn = None
        return self._p

    def _draw(self) -> float:
        return 1.0 if self.rng.random() < (1.0 + self._p) / 2.0 else -1.0

    def predict(self, x) -> float:
        """The mixture p (``reveal="distribution"``), or the label drawn from it (``"draw"``)."""
        p = self._mixture(x)
        if self.reveal == "draw":
            self._drawn = self._draw()
            return self._drawn
        return p

    def update(self, x, y: int) -> bool:
        """Draw the coin (unless shown already), log the round, multiply the wrong weights by β."""
        if x is not self._x:
            self._mixture(x)
            if self.reveal == "draw":
                self._drawn = self._draw()
        drawn = self._draw() if self._drawn is None else self._drawn
        self._drawn = None
        self._record = {
            "drawn_label": drawn,
            "drawn_mistake": 0.0 if drawn == y else 1.0,
            "mistake_probability": abs(self._p - y) / 2.0,
        }
        self._x = None  # the round is spent: a repeated update draws again
        return self._weights.zero_one_update(self._plus, y > 0)

    def extras(self) -> dict[str, float]:
        """The round's mistake probability q = ``|p − y|/2``, the drawn label and its mistake."""
        return dict(self._record)

    def state_key(self) -> tuple | None:
        """Weighted Majority's key while it shows the mixture p, a function of its weights.

        None with ``reveal="draw"``: its prediction is then the coin, not a
        function of its state.
        """
        return None if self.reveal == "draw" else super().state_key()

    def mistake_bound(self, transcript) -> Bound | None:
        """E[M] ≤ (m·ln(1/β) + ln N)/(1 − β) on the logged ``mistake_probability``.

        Applicable when the adversary saw the distribution, not the draw.
        """
        n = _experts_of(transcript, None if self._weights is None else self._weights.n)
        if n is None:
            return None
        m = transcript.expert_losses(loss="zero-one").min() if len(transcript) else 0.0
        return randomized_weighted_majority(
            n, int(m), self.beta, oblivious=self.reveal == "distribution"
        )

    @classmethod
    def bound_curve(cls, transcript) -> np.ndarray | None:
        """The bound on E[M] after every round t = 0, 1, …, T, on the rounds played so far.

        (m_t·ln(1/β) + ln N) / (1 − β), with m_t the best expert's mistakes
        after round t (m_0 = 0) and β and N as the transcript's header records
        them; the last value is :meth:`mistake_bound`'s. None when N is
        unknown, or when the adversary saw the draw (the bound does not apply).

        Examples
        --------
        >>> import numpy as np
        >>> from game import play
        >>> from adversaries.experts import ExpertStream
        >>> stream = ExpertStream(8, 2, np.random.default_rng(0), horizon=40)
        >>> rwm = RandomizedWeightedMajority(beta=0.5, rng=np.random.default_rng(1))
        >>> tr = play(rwm, stream, rounds=40)
        >>> curve = RandomizedWeightedMajority.bound_curve(tr)
        >>> len(curve), bool(np.isclose(curve[-1], tr.bound.value))
        (41, True)
        """
        params = transcript.header.get("learner", {}).get("params", {})
        if params.get("reveal", "distribution") != "distribution":
            return None
        return _over_best_expert(transcript, randomized_weighted_majority)


@attrs.define(eq=False, on_setattr=attrs.setters.NO_OP)
class ExponentialWeights:
    """Exponential Weights (EWA), exactly as in Abernethy lecture 16 (seed 004), §16.3.2.

    w_i^t = exp(−η·L_i^t) on the experts' cumulative losses before round t, and
    the mixed prediction ŷ_t = Σ_i w_i^t·f_i^t / Σ_i w_i^t in [−1, 1] (a sum
    within its rounding error of 0 is summed again exactly, so an even vote is
    0 whatever order the machine adds in). An
    expert's loss is the game's loss of its advice, ℓ(f_i, y). For a loss
    convex in the prediction with values in [0, 1] ("absolute", "squared", on
    advice in [−1, 1]), Theorem 16.3 bounds the learner's loss by
    (η·L_i + ln N)/(1 − e^(−η)) for every expert i. The zero-one loss is not
    convex: EWA still runs on it, and ``mistake_bound`` reports the theorem's
    value as not applicable, with that reason (likewise for advice outside
    [−1, 1], or experts graded by another loss than the game's).

    The weights are exp(−η·(L_i − min L)), functions of the cumulative losses
    alone (``learners._weights``): the best expert weighs 1, so nothing
    overflows or underflows however many rounds or however large the losses,
    and experts with equal losses weigh the same, bit for bit. On advice whose
    every entry is exactly ±1 the losses are 0 or 1 and the weights are read
    from a table of exp(−η·k); any other advice is graded by the loss
    (a loss that is not finite, from NaN or infinite advice, is a
    ``ValueError``).

    Parameters
    ----------
    eta : float, default 1.0
        The learning rate η > 0.
    loss : {"absolute", "squared", "zero-one"}, default "absolute"
        The loss the experts are graded with; a scenario passes its own.
    experts : int, optional
        N, at most 2²⁸ (``MAX_EXPERTS``); by default the length of the first
        advice vector.
    loss_bound : float, optional
        A known bound L̃ > 0 on the best expert's loss: η is then
        :func:`tuned_eta` (N, L̃) (Corollary 16.4) in place of ``eta``.

    Notes
    -----
    ``snapshot()`` is ``{"potential": Φ_t}``, Φ_t = −ln Σ_i exp(−η·L_i) after the
    round's update, summed from the exact losses (Φ_1 = −ln N before round 1,
    when N is known); the proof of Theorem 16.3 shows
    Φ_{t+1} − Φ_t ≥ (1 − e^(−η))·ℓ(ŷ_t, y_t), which
    :func:`game.theory.bounds.potential_slack` checks round by round.

    Examples
    --------
    >>> import numpy as np
    >>> ewa = ExponentialWeights(eta=1.0, loss="absolute")
    >>> f = np.array([1.0, -1.0])
    >>> ewa.predict(f), ewa.update(f, 1)
    (0.0, True)
    >>> round(ewa.predict(f), 4)        # (1 − e^(−1)) / (1 + e^(−1))
    0.4621
    """

    proof: ClassVar[str] = "exponential-weights"
    deterministic: ClassVar[bool] = False
    plays: ClassVar[frozenset[str]] = frozenset({"advice"})
    #: K games at once on advice of up to 1,024 experts (``learners._experts_lockstep``).
    lockstep: ClassVar[LockstepLearner] = EXPONENTIAL_WEIGHTS

    eta: float = attrs.field(
        default=1.0, validator=positive, metadata={"doc": "learning rate η > 0"}
    )
    loss: str = loss_field("the loss grading the experts (a scenario passes its own)", "absolute")
    experts: int | None = _experts_field()
    loss_bound: float | None = attrs.field(
        default=None,
        validator=attrs.validators.optional(positive),
        metadata={"doc": "known bound on the best expert's loss: tune η by Corollary 16.4"},
    )
    _weights: Any = attrs.field(init=False, default=None, repr=False)
    _x: Any = attrs.field(init=False, default=None, repr=False)

    def __attrs_post_init__(self) -> None:
        if self.experts is not None:
            self._start(self.experts)

    def _start(self, n: int) -> None:
        self._weights = Weights(n, self.learning_rate_for(n))

    def learning_rate_for(self, n: int) -> float:
        """The η played with N = n experts: ``eta``, or the tuned one with ``loss_bound``.

        Raises
        ------
        ParameterError
            Naming ``n`` unless it is an integer ≥ 1 (≥ 2 with ``loss_bound``:
            Corollary 16.4's tuning needs ln N > 0).

        Examples
        --------
        >>> ExponentialWeights(eta=0.5).learning_rate_for(4)
        0.5
        >>> ExponentialWeights(loss_bound=8.0).learning_rate_for(1)
        Traceback (most recent call last):
        ...
        game.errors.ParameterError: n must be an integer ≥ 2, got 1
        """
        n = check_integer("n", n, low=1)
        if self.loss_bound is None:
            return self.eta
        try:
            return tuned_eta(n, self.loss_bound)
        except ParameterError as exc:
            raise (exc.renamed("n") if exc.parameter == "experts" else exc) from None

    @property
    def learning_rate(self) -> float | None:
        """The η in play (None before N is known when it is tuned)."""
        if self._weights is not None:
            return self._weights.eta
        return self.eta if self.loss_bound is None else None

    def predict(self, x) -> float:
        """The weighted average of the advice, Σ w_i·f_i / Σ w_i."""
        n = None if self._weights is None else self._weights.n
        f = _advice(x, n if n is not None else self.experts, "ExponentialWeights")
        if self._weights is None:
            self._start(f.shape[0])
        weights = self._weights
        p = weights.vote(f) / weights.total
        return 1.0 if p > 1.0 else (-1.0 if p < -1.0 else p)

    def update(self, x, y: int) -> bool:
        """L_i += ℓ(f_i, y) for every expert; True iff some expert lost anything."""
        n = None if self._weights is None else self._weights.n
        f = _advice(x, n, "ExponentialWeights")
        if self._weights is None:
            self._start(f.shape[0])
        if self.loss == "zero-one":  # the experts' labels sign(f_i), sign(0) = +1
            return self._weights.zero_one_update(f >= 0, y > 0)
        if _is_plus_minus_one(f):  # every loss is 0 or 1: the wrong experts lose 1
            return self._weights.zero_one_update(f, y)
        losses = np.asarray(get_loss(self.loss)(f.astype(np.float64), y), dtype=np.float64)
        if not np.isfinite(losses).all():
            bad = int(np.flatnonzero(~np.isfinite(losses))[0])
            raise ValueError(
                f"ExponentialWeights: the advice must be finite numbers, "
                f"got {f[bad]!r} from expert {bad}"
            )
        if not losses.any():
            return False
        self._weights.update(losses)
        return True

    @property
    def weights(self) -> np.ndarray:
        """The normalised weights w_i / Σ_j w_j (empty before the first instance)."""
        if self._weights is None:
            return np.zeros(0)
        return self._weights.w / self._weights.total

    @property
    def cumulative_losses(self) -> np.ndarray:
        """L_i: every expert's cumulative loss so far."""
        return np.zeros(0) if self._weights is None else self._weights.losses()

    def snapshot(self) -> dict[str, float]:
        """Φ_t = −ln Σ_i exp(−η·L_i), from the exact losses L_i (empty before N is known)."""
        if self._weights is None:
            return {}
        return {"potential": self._weights.potential()}

    def state_key(self) -> tuple:
        """A hashable that decides its future predictions: η, its loss and the experts' losses.

        The losses are counted above the least while every one so far was 0 or
        1 (the weights read exp(−η·k) from a table), and kept whole once graded.
        Its prediction, the weighted mixture of the advice, is a function of
        this state, although the learner declares ``deterministic = False``
        (``game.theory.solve.worst_case_regret`` memoises on it).
        """
        return (
            type(self).__name__,
            self.eta,
            self.loss,
            self.loss_bound,
            self.experts,
            _weights_key(self._weights),
        )

    def mistake_bound(self, transcript) -> Bound | None:
        """Theorem 16.3 at the best expert, on the game's loss, with its hypotheses checked.

        Not applicable (with the reason) on the zero-one loss, on advice
        outside [−1, 1], or when the experts are graded by another loss than
        the game's; None only when N is unknown.
        """
        n = _experts_of(transcript, None if self._weights is None else self._weights.n)
        if n is None:
            return None
        return _theorem_16_3(transcript, n, self.learning_rate_for(n), self.loss)

    @classmethod
    def bound_curve(cls, transcript) -> np.ndarray | None:
        """Theorem 16.3 after every round t = 0, 1, …, T, on the rounds played so far.

        (η·L*_t + ln N) / (1 − e^(−η)), with L*_t the best expert's loss after
        round t (L*_0 = 0), and η, the loss and N as the transcript's header
        records them (η tuned by Corollary 16.4 when ``loss_bound`` is given);
        the last value is :meth:`mistake_bound`'s. None where the theorem does
        not apply (the zero-one loss, advice outside [−1, 1], or experts graded
        with another loss than the game's) or N is unknown.

        Examples
        --------
        >>> import numpy as np
        >>> from game import play
        >>> from adversaries.experts import ExpertStream
        >>> stream = ExpertStream(8, 2, np.random.default_rng(0), horizon=40, graded=True)
        >>> tr = play(ExponentialWeights(eta=0.5), stream, rounds=40, loss="absolute")
        >>> curve = ExponentialWeights.bound_curve(tr)
        >>> len(curve), bool(np.isclose(curve[-1], tr.bound.value))
        (41, True)
        """
        params = transcript.header.get("learner", {}).get("params", {})
        loss = params.get("loss", transcript.loss_name)
        n = _experts_of(transcript, params.get("experts"))
        if n is None:
            return None
        loss_bound = params.get("loss_bound")
        eta = params.get("eta", 1.0) if loss_bound is None else tuned_eta(n, loss_bound)
        if not _theorem_16_3(transcript, n, eta, loss).applies:
            return None
        best = np.concatenate(([0.0], best_expert_losses(transcript, loss=loss)))
        values, inverse = np.unique(best, return_inverse=True)
        return np.array([exponential_weights(n, float(a), eta).value for a in values])[inverse]
