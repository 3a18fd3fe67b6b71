"""Exact solutions of small games: what an adversary can force, and what is optimal.

- :func:`worst_case`: the most mistakes an adversary can force on a given
  deterministic learner over a finite class, with the forcing strategy;
- the minimax regret of binary prediction with expert advice, its optimal
  forecaster and adversary, and any learner's exact worst-case regret;
- :func:`best_margin`: the best margin γ* of a data set and Theorem 9.1's B.

Values are exact (integers or fractions) wherever the game is finite. Pure: it
imports nothing from outside :mod:`game.theory` but :mod:`game.errors`.
"""

from game.theory.solve._expected import expected_mistakes
from game.theory.solve._margin import MARGIN_SOURCES, BestMargin, best_margin
from game.theory.solve._regret_games import (
    MAX_REGRET_EXPERTS,
    MAX_SEARCH_EXPERTS,
    MAX_SOLVER_WORK,
    RegretGame,
    RegretSearch,
    RegretStep,
    max_regret_horizon,
    minimax_regret,
    worst_case_regret,
)
from game.theory.solve._worst_case import DEFAULT_MAX_STATES, WorstCase, worst_case

__all__: list[str] = [
    "DEFAULT_MAX_STATES",
    "MARGIN_SOURCES",
    "MAX_REGRET_EXPERTS",
    "MAX_SEARCH_EXPERTS",
    "MAX_SOLVER_WORK",
    "BestMargin",
    "RegretGame",
    "RegretSearch",
    "RegretStep",
    "WorstCase",
    "best_margin",
    "expected_mistakes",
    "max_regret_horizon",
    "minimax_regret",
    "worst_case",
    "worst_case_regret",
]
