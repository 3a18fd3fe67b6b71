"""The balanced adversary that makes Halving's log₂ N tight (Abernethy lecture 16, seed 004)."""

from __future__ import annotations

from typing import Any, ClassVar

import attrs
import numpy as np

from game.errors import ParameterError
from game.players import Footprint, integer_at_least
from game.theory import ExpertCertificate
from game.theory.bounds import Bound, halving_lower_bound

__all__ = ["HalvingLowerBound"]

#: The largest n accepted: 2²⁶ experts is 64 MiB of advice a round and about
#: 6 GB for the whole game (:meth:`HalvingLowerBound.footprint`); larger games
#: are also refused up front when they cannot fit the machine's memory.
MAX_N = 26

#: Bytes per expert the adversary holds (its int64 index and the int64
#: temporaries of one round's advice), and what a learner keeps per expert:
#: measured with tracemalloc, 88 B per expert for a whole game at n = 20
#: (20 B of recorded advice, about 68 B of players' state and temporaries).
_OWN_PER_EXPERT = 24


@attrs.define(eq=False, on_setattr=attrs.setters.NO_OP)
class HalvingLowerBound:
    """N = 2ⁿ experts whose advice splits every consistent set in half; n rounds of mistakes.

    On round t = 1, …, n expert i advises bit t of its index (the least
    significant bit first): +1 when bit t − 1 of i is set, else −1; the
    outcome is the opposite of the learner's predicted label (−1 when
    sign(p) = +1, with sign(0) = +1). So every round is a mistake for any
    learner, and after n rounds exactly one expert, the one whose bits spell
    the outcomes, has been right every time: it is the certificate. The
    experts consistent with the first t − 1 outcomes are those with the same
    low t − 1 bits, half of whom advise +1 on round t, so Halving's vote is a
    tie every round. Any deterministic learner makes exactly n = log₂ N
    mistakes: Theorem 16.1 is tight (004, §16.1.2). The game ends after n rounds.

    Give ``n`` or ``experts`` (= 2ⁿ), not both.

    Parameters
    ----------
    n : int, optional
        log₂ N, from 0 to 26 (``MAX_N``): a game holds n rounds of N bytes
        of advice and about 72 B per expert of state, 6 GB at n = 26.
    experts : int, optional
        N, a power of two, at most 2²⁶.

    Examples
    --------
    >>> from game import play
    >>> from learners.experts import Halving
    >>> tr = play(Halving(), HalvingLowerBound(10), rounds=100)
    >>> len(tr), int(tr.mistakes.sum()), tr.certificate_verified
    (10, 10, True)
    >>> tr.certificate.describe()
    'expert 0 of 1024'
    """

    presents: ClassVar[str] = "advice"

    n: int | None = attrs.field(
        default=None,
        validator=attrs.validators.optional(integer_at_least(0, MAX_N)),
        metadata={"doc": "log₂ N: the number of rounds and of forced mistakes"},
    )
    experts: int | None = attrs.field(
        default=None,
        validator=attrs.validators.optional(integer_at_least(1, 2**MAX_N)),
        metadata={"doc": "N = 2ⁿ experts (give n or experts)"},
    )
    _bits: int = attrs.field(init=False, default=0, repr=False)
    _t: int = attrs.field(init=False, default=0, repr=False)
    _perfect: int = attrs.field(init=False, default=0, repr=False)
    _index: Any = attrs.field(init=False, default=None, repr=False)

    def __attrs_post_init__(self) -> None:
        either = "give either n or experts (a power of two), not both and not neither"
        if self.n is None and self.experts is None:
            raise ParameterError("n", None, "given when experts is not", either)
        if self.n is not None and self.experts is not None:
            raise ParameterError("experts", self.experts, "None when n is given", either)
        if self.experts is not None:
            if self.experts & (self.experts - 1):
                raise ParameterError("experts", self.experts, "a power of two")
            self._bits = int(self.experts).bit_length() - 1
        else:
            self._bits = int(self.n)

    @classmethod
    def footprint(cls, params: dict, rounds: int) -> Footprint:
        """Its sizes (:func:`game.players.estimate`): N bytes of advice a round, n rounds."""
        if params.get("experts") is not None:
            size, key = int(params["experts"]), "experts"
            bits = max(size.bit_length() - 1, 0)
        else:
            bits, key = int(params.get("n") or 0), "n"
            size = 1 << bits
        return Footprint(
            instance=size, entries=size, own=_OWN_PER_EXPERT * size, rounds=bits, key=key
        )

    @property
    def size(self) -> int:
        """N = 2ⁿ."""
        return 1 << self._bits

    def advice(self, t: int) -> np.ndarray:
        """Round t's advice: +1 for the experts whose bit t − 1 is set, else −1 (int8)."""
        if self._index is None:
            self._index = np.arange(self.size, dtype=np.int64)
        bit = ((self._index >> (t - 1)) & 1).astype(np.int8)
        advice = 2 * bit - 1
        advice.flags.writeable = False
        return advice

    def instance(self, history) -> np.ndarray | None:
        """Round t's advice for t ≤ n; None ends the game after n rounds."""
        if self._t >= self._bits:
            return None
        self._t += 1
        return self.advice(self._t)

    def label(self, x, p: float, history) -> int:
        """The opposite of the predicted label sign(p) (sign(0) = +1)."""
        y = -1 if p >= 0 else 1
        if y > 0:
            self._perfect |= 1 << (self._t - 1)
        return y

    def certificate(self) -> ExpertCertificate:
        """The expert whose bits spell the outcomes so far: right on every round."""
        return ExpertCertificate(self._perfect, experts=self.size)

    def lower_bound(self) -> Bound:
        """Every deterministic learner errs on each of the n rounds."""
        return halving_lower_bound(self._bits)
