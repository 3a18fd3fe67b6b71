"""Seating a person in a scenario, and replaying the game a person played.

:func:`human_scenario` makes the scenario a person plays: one side's table
replaced by ``human-learner`` or ``human-adversary`` (:data:`HUMAN_NAMES`),
the other side as the scenario says. Those names are registered only inside
:func:`at_the_table` (they are never in the registry's ``BUILTIN``: no
conformance check could play a person), which also seats the person. The
transcript's header records the human player under its name, with the
scenario's spec as played, so :func:`replaying` can rebuild the game with a
:class:`~game.human.ScriptedSeat` answering the recorded moves
(:func:`recorded_moves`): the rounds, the header and the digest come out as
recorded.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import numpy as np

from game.errors import ScenarioError, check_choice
from game.human._moves import format_instance, format_label, format_prediction
from game.human._players import HumanAdversary, HumanLearner, seated
from game.human._seats import ScriptedSeat, Seat
from game.players import registered_for_now
from game.protocol import History

__all__ = [
    "HUMAN_NAMES",
    "at_the_table",
    "human_scenario",
    "recorded_moves",
    "replaying",
    "verdict",
]

#: The registry names of the human players, by the side they play.
HUMAN_NAMES = {"learner": "human-learner", "adversary": "human-adversary"}

_CLASSES = {"human-learner": HumanLearner, "human-adversary": HumanAdversary}

#: The order in which a kind is chosen when the adversary's instances read as several.
_KINDS = ("point", "bits", "vector", "advice")


@contextlib.contextmanager
def at_the_table(seat: Seat | None = None) -> Iterator[None]:
    """Within the block the human players are registered, and seated at ``seat`` when given.

    Examples
    --------
    >>> from game.players import lookup
    >>> with at_the_table():
    ...     lookup("human-learner").__name__
    'HumanLearner'
    >>> "human-learner" in __import__("game.players").players.names()
    False
    """
    with registered_for_now(dict(_CLASSES)):
        if seat is None:
            yield
        else:
            with seated(seat):
                yield


def _sample(scenario: Any) -> tuple[Any, Any]:
    """The scenario's learner and the first instance its adversary would present."""
    learner, adversary = scenario.build()
    presents = getattr(adversary, "presents", None)
    try:
        x = adversary.instance(History([], [], []))
    except Exception:  # a player's own failure: the kind alone then decides
        x = None
    return learner, (presents, x)


def human_scenario(scenario: Any, side: str, *, size: int | None = None) -> Any:
    """The scenario with a person on ``side``: a new scenario of the same source and spec.

    The person's table is ``{"name": "human-learner", ...}`` (with the kind
    of instance the adversary presents, when it says one) or
    ``{"name": "human-adversary", ...}``. A finite class the replaced player's
    table gives (``concept_class = [...]``) goes to the person's table, so a
    person sees the version space; a human adversary's ``kind`` and ``size``
    are the replaced adversary's (read from the first instance it would
    present; ``size`` overrides), unless the game has a finite class, whose
    points are then the instances. Build and play it inside :func:`at_the_table`.

    Raises
    ------
    ScenarioError
        When the adversary's kind of instance cannot be told.

    Examples
    --------
    >>> from game.scenario import load_scenario
    >>> with at_the_table():
    ...     s = human_scenario(load_scenario("halving-lower-bound"), "adversary")
    >>> s.spec["adversary"]
    {'name': 'human-adversary', 'kind': 'advice', 'size': 1024}
    """
    from game.scenario import scenario_from_dict

    side = check_choice("side", side, tuple(HUMAN_NAMES))
    spec = dict(scenario.spec)
    spec.pop("expect", None)  # a person's game has no expected outcome
    if side == "learner":
        spec.pop("snapshots", None)  # a person keeps no snapshot of a learner's state
    replaced = dict(spec[side])
    table: dict[str, Any] = {"name": HUMAN_NAMES[side]}
    given_class = replaced.get("concept_class")
    if side == "adversary" and given_class is None and "concept_class" not in spec:
        given_class = dict(spec["learner"]).get("concept_class")
    if given_class is not None:
        table["concept_class"] = given_class
    if side == "learner":
        presents = getattr(scenario.build()[1], "presents", None)
        if isinstance(presents, str) and given_class is None:
            table["kind"] = presents
    if side == "adversary" and given_class is None and "concept_class" not in spec:
        learner, (presents, x) = _sample(scenario)
        kind = None
        if isinstance(x, int | np.integer) and not isinstance(x, bool):
            kind = "point"
        elif isinstance(presents, str):
            kind = presents
        else:
            plays = getattr(learner, "plays", frozenset(_KINDS))
            fits = [k for k in _KINDS if k in plays and (presents is None or k in presents)]
            kind = fits[0] if fits else None
        if kind is None:
            raise ScenarioError(
                f"{scenario.source}: adversary: cannot tell which kind of instance to ask for"
            )
        table["kind"] = kind
        if size is None and x is not None and kind != "point":
            size = int(np.shape(x)[0])
        if size is not None and kind != "point":
            table["size"] = int(size)
    spec[side] = table
    return scenario_from_dict(spec, source=scenario.source, base=scenario.base)


def _is_human(header: dict, side: str) -> bool:
    """Whether a person played ``side`` (by its registry name, or its class's path)."""
    cls = _CLASSES[HUMAN_NAMES[side]]
    name = header.get(side, {}).get("name")
    return name in (HUMAN_NAMES[side], f"{cls.__module__}:{cls.__qualname__}")


def _kind_of(header: dict) -> str:
    params = header.get("adversary", {}).get("params", {})
    return str(params.get("kind") or "point")


def recorded_moves(transcript: Any) -> list[str]:
    """The answers a person gave in a recorded game, as a script (empty: no person played).

    The learner's side: one prediction per round. The adversary's: per round
    the instance and the label, then ``q`` when the game ended before its
    round limit (the person ended it).

    Examples
    --------
    >>> from game import play
    >>> from adversaries.halving import HalvingLowerBound
    >>> game = play(HumanLearner(seat=ScriptedSeat(["+", "-", "+"])), HalvingLowerBound(experts=8),
    ...             rounds=5)
    >>> recorded_moves(game)
    ['+', '-', '+']
    """
    header = transcript.header
    loss = transcript.loss_name
    if _is_human(header, "learner"):
        return [format_prediction(p, loss) for p in transcript.predictions]
    if not _is_human(header, "adversary"):
        return []
    kind = _kind_of(header)
    answers = []
    for x, y in zip(transcript.raw_instances, transcript.labels, strict=True):
        answers += [format_instance(x, kind), format_label(int(y))]
    if transcript.status == "complete" and len(transcript) < header.get("rounds", 0):
        answers.append("q")
    return answers


@contextlib.contextmanager
def replaying(transcript: Any) -> Iterator[ScriptedSeat | None]:
    """Within the block a recorded human game can be re-played from its scenario.

    When a person played one side, the human players are registered and
    seated at a :class:`ScriptedSeat` answering the recorded moves; otherwise
    the block runs unchanged (and gives None).
    """
    if not any(_is_human(transcript.header, side) for side in HUMAN_NAMES):
        yield None
        return
    seat = ScriptedSeat(recorded_moves(transcript))
    with at_the_table(seat):
        yield seat


def verdict(transcript, side: str) -> str:
    """The line that says what the theory says of a person's game, played on ``side``.

    As the learner: the lower bound the adversary claimed and the mistakes it
    forced. As the adversary: the certificate handed over and the referee's
    check of it, and the learner's bound with whether it held.

    Examples
    --------
    >>> from game import play
    >>> from adversaries.halving import HalvingLowerBound
    >>> game = play(HumanLearner(seat=ScriptedSeat(["+"] * 3)), HalvingLowerBound(experts=8),
    ...             rounds=10)
    >>> verdict(game, "learner")
    'the adversary claimed mistakes ≥ 3 and forced 3: the lower bound was forced'
    """
    mistakes = int(transcript.mistakes.sum())
    made = f"{mistakes} mistake{'' if mistakes == 1 else 's'}"
    if side == "learner":
        bound = transcript.lower_bound
        if bound is None:
            return f"you made {made}; the adversary claims no lower bound"
        forced = mistakes >= bound.value
        end = "the lower bound was forced" if forced else "it did not force its lower bound"
        return (
            f"the adversary claimed {bound.quantity} ≥ {bound.value:g} and forced {mistakes}: {end}"
        )
    certificate = transcript.certificate
    if certificate is None:
        first = "you handed over no certificate, so the learner's bound is not checked"
    else:
        check = {True: "verified", False: "refused", None: "not checked"}
        first = (
            f"your certificate, {certificate.describe()}: "
            f"{check[transcript.certificate_verified]} by the referee"
        )
    bound = transcript.bound
    if bound is None:
        return f"{first}; the learner made {made} and states no bound"
    if not bound.applies:
        return f"{first}; the learner's bound {bound.quantity} ≤ {bound.value:g} does not apply"
    held = "held" if transcript.within_bound else "was broken"
    return f"{first}; the learner's bound {bound.quantity} ≤ {bound.value:g} {held} ({made})"
