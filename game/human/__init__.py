"""A person at the table: human players, the seats they talk through, and human games.

:class:`HumanLearner` and :class:`HumanAdversary` follow the players'
protocol (:mod:`game.protocol`); they show what the theory says a player
sees and read the person's moves through a seat: :class:`TerminalSeat` (the
default) or :class:`ScriptedSeat` (a list of answers, for tests, notebooks
and replays). ``python -m game play SCENARIO --as learner|adversary`` seats a
person in place of one of a scenario's players (:func:`human_scenario`); the
transcript records the person as ``human-learner`` or ``human-adversary`` and
``python -m game replay`` re-plays it from the recorded moves
(:func:`replaying`) to the same digest.

Examples
--------
>>> from game import play
>>> from adversaries.halving import HalvingLowerBound
>>> seat = ScriptedSeat(["+", "+", "+"])
>>> game = play(HumanLearner(seat=seat), HalvingLowerBound(experts=8), rounds=10)
>>> int(game.mistakes.sum()), game.lower_bound.value
(3, 3.0)
"""

from game.human._moves import (
    format_instance,
    format_label,
    format_prediction,
    parse_instance,
    parse_label,
    parse_prediction,
)
from game.human._players import HumanAdversary, HumanLearner, seated
from game.human._seats import ScriptedSeat, Seat, TerminalSeat
from game.human._table import (
    HUMAN_NAMES,
    at_the_table,
    human_scenario,
    recorded_moves,
    replaying,
    verdict,
)

__all__ = [
    "HUMAN_NAMES",
    "HumanAdversary",
    "HumanLearner",
    "ScriptedSeat",
    "Seat",
    "TerminalSeat",
    "at_the_table",
    "format_instance",
    "format_label",
    "format_prediction",
    "human_scenario",
    "parse_instance",
    "parse_label",
    "parse_prediction",
    "recorded_moves",
    "replaying",
    "seated",
    "verdict",
]
