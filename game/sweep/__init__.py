"""Many games: one scenario over many seeds and a grid of parameters, on any
``concurrent.futures.Executor``; lockstep batches of games.
"""

from game.sweep._grid import grid_points
from game.sweep._lockstep import lockstep_supported, play_batch
from game.sweep._result import SweepResult
from game.sweep._sweep import MAX_GAMES, parse_seeds, sweep
from game.sweep._tasks import ROW_COLUMNS

__all__ = [
    "MAX_GAMES",
    "ROW_COLUMNS",
    "SweepResult",
    "grid_points",
    "lockstep_supported",
    "parse_seeds",
    "play_batch",
    "sweep",
]
