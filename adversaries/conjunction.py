"""The adversary that forces n mistakes on every deterministic learner of conjunctions."""

from __future__ import annotations

from typing import ClassVar

import attrs
import numpy as np

from game.players import Footprint, integer_at_least
from game.theory.bounds import Bound, conjunction_lower_bound
from game.theory.concepts import Literal, MonotoneConjunction

__all__ = ["MAX_VARIABLES", "ConjunctionLowerBound"]

#: The most variables: n rounds of n bits is n² bytes of record, 256 MiB at 2¹⁴.
MAX_VARIABLES = 2**14


@attrs.define(eq=False, on_setattr=attrs.setters.NO_OP)
class ConjunctionLowerBound:
    """Balcan's lecture 3 (seed 003), §2.1, Lower Bound: n mistakes for any deterministic learner.

    The i-th instance (i = 1 … n) has every bit set but bit i. The target is a
    monotone conjunction built as the game goes: x_i joins it exactly when the
    learner predicts True on the i-th instance (sign(p) = +1, with sign(0) = +1),
    which makes the label False; otherwise x_i stays out and the label is True.
    Every round is a mistake, and the conjunction built agrees with every label
    (on the i-th instance only bit i is 0), so it is the certificate. The game
    ends after n rounds.

    A randomised learner is charged by the sign of its prediction like everyone
    else; against a learner that flips a fair coin the expected count is n/2.

    Parameters
    ----------
    variables : int
        n, from 1 to 2¹⁴ (``MAX_VARIABLES``): the length of the bit vectors
        and the number of rounds, so a game records n² bits.

    Examples
    --------
    >>> from game import play
    >>> from learners.boolean import ConjunctionLearner
    >>> tr = play(ConjunctionLearner(), ConjunctionLowerBound(5), rounds=100)
    >>> len(tr), int(tr.mistakes.sum()), tr.certificate_verified
    (5, 5, True)
    >>> print(tr.certificate)
    True
    """

    presents: ClassVar[str] = "bits"

    variables: int = attrs.field(
        validator=integer_at_least(1, MAX_VARIABLES),
        metadata={"doc": "n: the length of the bit vectors and the number of rounds"},
    )
    _included: list = attrs.field(init=False, factory=list, repr=False)
    _i: int = attrs.field(init=False, default=0, repr=False)

    @classmethod
    def footprint(cls, params: dict, rounds: int) -> Footprint:
        """Its sizes (:func:`game.players.estimate`): n rounds of n bits."""
        n = int(params.get("variables") or 1)
        return Footprint(instance=n, entries=n, rounds=n, key="variables")

    def instance(self, history) -> np.ndarray | None:
        """All ones but bit i on round i; None after round n."""
        i = self._i
        if i >= self.variables:
            return None
        self._i = i + 1
        x = np.ones(self.variables, dtype=bool)
        x[i] = False
        x.flags.writeable = False
        return x

    def label(self, x, p: float, history) -> int:
        """False (x_i joins the target) when the learner said True, else True."""
        if p >= 0:
            self._included.append(self._i - 1)
            return -1
        return 1

    def certificate(self) -> MonotoneConjunction:
        """The monotone conjunction of the variables on whose instance the learner said True."""
        return MonotoneConjunction(self.variables, [Literal(i) for i in self._included])

    def lower_bound(self) -> Bound:
        """n mistakes (003 §2.1)."""
        return conjunction_lower_bound(self.variables)
