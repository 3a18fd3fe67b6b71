"""Hypothesis strategies for games of prediction with expert advice.

Each strategy draws an :class:`ExpertGame`: an advice matrix (rounds × N) and
the outcomes, played obliviously by :meth:`ExpertGame.adversary`.

- :func:`perfect_expert_games`: ±1 advice, one expert right on every round;
- :func:`best_expert_games`: ±1 advice, the best expert errs exactly m times
  and every other at least m times;
- :func:`graded_games`: advice in [−1, 1] (the values −1, 0, 1 among them) and
  arbitrary outcomes.

The sizes, the best expert and its mistakes are drawn by hypothesis, the
advice entries by a numpy generator whose seed hypothesis draws (fast, and
shrinkable); hypothesis shrinks towards few experts and short games.

Examples
--------
>>> import numpy as np
>>> from hypothesis import given, settings
>>> from game.testing.strategies import best_expert_games
>>> @settings(max_examples=20)
... @given(best_expert_games(max_mistakes=3))
... def test_best(game):
...     wrong = (game.advice >= 0) != (game.outcomes[:, None] > 0)
...     assert wrong.sum(axis=0).min() == wrong[:, game.best].sum() == game.best_mistakes
>>> test_best()
"""

from __future__ import annotations

import functools

import attrs
import numpy as np
from hypothesis import strategies as st

__all__ = ["ExpertGame", "best_expert_games", "graded_games", "perfect_expert_games"]

_SEEDS = st.integers(0, 2**32 - 1)
_integers = functools.cache(st.integers)


@attrs.frozen(eq=False)
class ExpertGame:
    """An expert game drawn for a property test.

    Attributes
    ----------
    advice : numpy.ndarray
        (T × N) advice: int8 ±1, or float64 in [−1, 1] for graded games.
    outcomes : numpy.ndarray
        (T,) outcomes ±1 (int64).
    best : int or None
        The best expert in hindsight by mistakes (None when not planted).
    best_mistakes : int or None
        Its mistakes (0 for a perfect expert).
    """

    advice: np.ndarray
    outcomes: np.ndarray
    best: int | None = None
    best_mistakes: int | None = None

    @property
    def experts(self) -> int:
        """N."""
        return int(self.advice.shape[1])

    def __len__(self) -> int:
        return int(self.outcomes.shape[0])

    def adversary(self):
        """An oblivious adversary replaying the game; certificate the best expert.

        Examples
        --------
        >>> import numpy as np
        >>> from game import play
        >>> from learners.experts import Halving
        >>> g = ExpertGame(np.array([[1, -1], [1, 1]], dtype=np.int8), np.array([1, 1]), 0, 0)
        >>> tr = play(Halving(), g.adversary(), rounds=10)
        >>> len(tr), tr.certificate_verified
        (2, True)
        """
        from adversaries.experts import AdviceReplay

        return AdviceReplay(self.advice, self.outcomes)


def _outcomes(rng: np.random.Generator, rounds: int) -> np.ndarray:
    return (2 * rng.integers(0, 2, rounds) - 1).astype(np.int64)


@st.composite
def perfect_expert_games(draw, max_experts: int = 32, max_rounds: int = 60) -> ExpertGame:
    """±1 advice of 1 to ``max_experts`` experts, one of them right on every round.

    Examples
    --------
    >>> from hypothesis import given, settings
    >>> @settings(max_examples=10)
    ... @given(perfect_expert_games(max_experts=4))
    ... def check(g):
    ...     assert (g.advice[:, g.best] == g.outcomes).all() and g.best_mistakes == 0
    >>> check()
    """
    n = draw(_integers(1, max_experts))
    rounds = draw(_integers(0, max_rounds))
    best = draw(_integers(0, n - 1))
    rng = np.random.default_rng(draw(_SEEDS))
    y = _outcomes(rng, rounds)
    advice = (2 * rng.integers(0, 2, (rounds, n)) - 1).astype(np.int8)
    advice[:, best] = y
    return ExpertGame(advice, y, best, 0)


@st.composite
def best_expert_games(
    draw, max_experts: int = 32, max_rounds: int = 60, max_mistakes: int = 8
) -> ExpertGame:
    """±1 advice whose best expert errs exactly m ≤ ``max_mistakes`` times, the others ≥ m.

    Examples
    --------
    >>> from hypothesis import given, settings
    >>> @settings(max_examples=10)
    ... @given(best_expert_games(max_experts=5, max_mistakes=2))
    ... def check(g):
    ...     assert g.best_mistakes <= 2 and g.best_mistakes <= len(g)
    >>> check()
    """
    n = draw(_integers(1, max_experts))
    rounds = draw(_integers(0, max_rounds))
    m = draw(_integers(0, min(max_mistakes, rounds)))
    best = draw(_integers(0, n - 1))
    rng = np.random.default_rng(draw(_SEEDS))
    y = _outcomes(rng, rounds)
    wrong = rng.random((rounds, n)) < rng.uniform(0.0, 1.0)
    wrong[:, best] = False
    wrong[rng.choice(rounds, size=m, replace=False), best] = True
    for i in np.flatnonzero(wrong.sum(axis=0) < m):  # others err at least m times
        right = np.flatnonzero(~wrong[:, i])
        need = m - int(wrong[:, i].sum())
        wrong[rng.choice(right, size=need, replace=False), i] = True
    advice = np.where(wrong, -y[:, None], y[:, None]).astype(np.int8)
    return ExpertGame(advice, y, best, m)


@st.composite
def graded_games(draw, max_experts: int = 32, max_rounds: int = 60) -> ExpertGame:
    """Advice in [−1, 1], about a fifth of it exactly −1, 0 or 1, and arbitrary outcomes.

    ``best`` and ``best_mistakes`` are the best expert by mistakes (the sign of
    its advice, sign(0) = +1, against the outcome; the smallest index on a tie).

    Examples
    --------
    >>> import numpy as np
    >>> from hypothesis import given, settings
    >>> @settings(max_examples=10)
    ... @given(graded_games(max_experts=4))
    ... def check(g):
    ...     assert np.all(np.abs(g.advice) <= 1) and g.advice.dtype == np.float64
    >>> check()
    """
    n = draw(_integers(1, max_experts))
    rounds = draw(_integers(0, max_rounds))
    rng = np.random.default_rng(draw(_SEEDS))
    advice = rng.uniform(-1.0, 1.0, (rounds, n))
    special = rng.random((rounds, n)) < 0.2
    advice[special] = rng.choice(np.array([-1.0, 0.0, 1.0]), size=int(special.sum()))
    y = _outcomes(rng, rounds)
    wrong = ((advice >= 0) != (y[:, None] > 0)).sum(axis=0)
    best = int(np.argmin(wrong))
    return ExpertGame(advice, y, best, int(wrong[best]))
