"""Many games: one scenario over many seeds and a grid of parameters, on any
``concurrent.futures.Executor``; lockstep batches of games; tournaments of
learners against adversaries.
"""

from game.sweep._grid import grid_points
from game.sweep._lockstep import lockstep_supported, play_batch
from game.sweep._result import SweepResult
from game.sweep._standings import QUANTITIES, TOURNAMENT_COLUMNS, TournamentResult
from game.sweep._sweep import MAX_GAMES, parse_seeds, sweep
from game.sweep._tasks import ROW_COLUMNS
from game.sweep._tournament import tournament
from game.sweep._tournament_file import (
    Tournament,
    builtin_tournaments,
    load_tournament,
    tournament_from_dict,
)

__all__ = [
    "MAX_GAMES",
    "QUANTITIES",
    "ROW_COLUMNS",
    "TOURNAMENT_COLUMNS",
    "SweepResult",
    "Tournament",
    "TournamentResult",
    "builtin_tournaments",
    "grid_points",
    "load_tournament",
    "lockstep_supported",
    "parse_seeds",
    "play_batch",
    "sweep",
    "tournament",
    "tournament_from_dict",
]
