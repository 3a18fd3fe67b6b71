"""The conformance checks of what an adversary hands over and of the record it is shown.

An adversary's instances must be instances of the kind it ``presents``
(:func:`check_adversary_instances`); once handed over, an instance is never
written again, neither through a buffer handed back in a later round nor by
changing an array already returned (:func:`check_adversary_no_mutation`); and
the history it is shown stays the record of the rounds played
(:func:`check_adversary_history`). Each plays games call by call against
:class:`~game.testing.RandomLearner`, as long as the other checks' games, and
names the adversary, the round and the value on one line.

Examples
--------
>>> from game.testing import check_adversary_history, check_adversary_no_mutation
>>> from adversaries import HalvingLowerBound
>>> check_adversary_no_mutation(lambda rng: HalvingLowerBound(16))
>>> check_adversary_history(lambda rng: HalvingLowerBound(16))
"""

from __future__ import annotations

import copy
import numbers
from collections.abc import Callable
from typing import Any

import numpy as np

from game.protocol import INSTANCE_KINDS
from game.testing._failure import a_kind, fail, shown
from game.testing._games import HandGame, game_length
from game.testing._reference import RandomLearner, player_name

__all__ = [
    "check_adversary_history",
    "check_adversary_instances",
    "check_adversary_no_mutation",
    "instance_problem",
]

Factory = Callable[[np.random.Generator], Any]


def _game(factory: Factory, seed: int, check: str) -> tuple[HandGame, int]:
    adversary = factory(np.random.default_rng(seed))
    learner = RandomLearner(np.random.default_rng(seed))
    return HandGame(learner, adversary, player_name(adversary), check), game_length(seed)


def _kinds(adversary: Any) -> list[str]:
    presents = getattr(adversary, "presents", None)
    kinds = presents if isinstance(presents, frozenset) else {presents}
    return sorted(k for k in kinds if k in INSTANCE_KINDS)


def instance_problem(x: Any, kind: str) -> str | None:
    """Why ``x`` is not an instance of ``kind`` (None when it is one).

    A "point" is a non-negative int (a Python or numpy integer, not a bool);
    the other kinds are one-dimensional arrays (or lists) of real numbers,
    finite, 0 or 1 for "bits", in [-1, 1] for "advice".

    Examples
    --------
    >>> instance_problem(np.array([0.5, -1.0]), "advice") is None
    True
    >>> instance_problem(np.array([1j]), "vector")
    'it holds complex128 values'
    >>> instance_problem("a", "point")
    'it is a str'
    """
    if kind == "point":
        if isinstance(x, numbers.Integral) and not isinstance(x, bool | np.bool_):
            return None if x >= 0 else "it is a negative index"
        return f"it is {a_kind(x)}"
    if not isinstance(x, np.ndarray | list | tuple):
        return f"it is {a_kind(x)}"
    try:
        array = np.asarray(x)
        if array.dtype.kind == "O":
            array = array.astype(np.float64)
    except (TypeError, ValueError):
        return f"it is {a_kind(x)} of things that are not numbers"
    if array.dtype.kind not in "biuf":
        return f"it holds {array.dtype} values"
    if array.ndim != 1:
        return f"it has shape {array.shape}, not one dimension"
    if array.dtype.kind == "f" and not np.isfinite(array).all():
        i = int(np.flatnonzero(~np.isfinite(array))[0])
        return f"it holds {array[i]!r} at coordinate {i}"
    if kind == "bits" and not np.isin(array, (0, 1)).all():
        i = int(np.flatnonzero(~np.isin(array, (0, 1)))[0])
        return f"it holds {array[i]!r} at coordinate {i}, not a bit"
    if kind == "advice" and (np.abs(array) > 1).any():
        i = int(np.flatnonzero(np.abs(array) > 1)[0])
        return f"it holds {array[i]!r} at coordinate {i}, outside [-1, 1]"
    return None


def check_adversary_instances(factory: Factory) -> None:
    """Every instance is one of the kind the adversary ``presents`` (see ``instance_problem``).

    An adversary that presents several kinds passes when each instance is
    one of any of them.

    Examples
    --------
    >>> from adversaries import SeparableStream
    >>> check_adversary_instances(lambda rng: SeparableStream(3, 0.2, rng=rng))
    """
    game, rounds = _game(factory, 21, "instances")
    kinds = _kinds(game.adversary)
    if not kinds:
        return  # check_adversary_declares names it
    for t, x in game.rounds(rounds):
        raw = game.given[-1]
        problems = [instance_problem(raw, kind) for kind in kinds]
        if all(problems):
            expected = " or ".join(INSTANCE_KINDS[k] for k in kinds)
            raise fail(
                game.name,
                "instances",
                f"round {t}: instance() returned {shown(raw)}: {problems[0]}; expected {expected}",
            )
        _finish_round(game, t, x)


def _finish_round(game: HandGame, t: int, x: Any) -> None:
    """Round t, its instance given: prediction, label, update, record."""
    p = game.predict(t, x)
    y = game.label(t, x, p)
    game.update(t, x, y)
    game.record(x, p, y)


def _same(a: Any, b: Any) -> bool:
    try:
        return bool(np.array_equal(a, b, equal_nan=True))
    except (TypeError, ValueError):
        try:
            return bool(a == b)
        except Exception:
            return False


def check_adversary_no_mutation(factory: Factory) -> None:
    """An instance, once returned, never changes: no buffer handed back, no array rewritten.

    A copy of each instance is taken as it is returned. An instance that is
    the object of an earlier round, with other contents, is a buffer handed
    back rewritten; an instance of an earlier round whose contents no longer
    match its copy was written after it was returned (looked at after each
    call of the adversary for the round before, and for every round after the
    game). The referee records its own copy either way, but a player that
    keeps what it was handed (a learner's memory of past instances, a
    history built by hand) would see the rewritten values.

    Examples
    --------
    >>> from adversaries import SeparableStream
    >>> check_adversary_no_mutation(lambda rng: SeparableStream(3, 0.2, rng=rng))
    """
    game, rounds = _game(factory, 22, "no_mutation")
    kept: list = []
    seen: dict[int, int] = {}  # id of an instance returned -> its first round
    for t, x in game.rounds(rounds):
        raw = game.given[-1]
        s = seen.get(id(raw))
        if s is not None and not _same(raw, kept[s - 1]):
            raise fail(
                game.name,
                "no_mutation",
                f"round {t}: instance() handed back the object it returned in round {s}, "
                f"rewritten: {shown(kept[s - 1])} then, {shown(raw)} now",
            )
        _unchanged(game, t, kept, "instance")
        kept.append(copy.deepcopy(raw))
        seen.setdefault(id(raw), t)
        _finish_round(game, t, x)
        _unchanged(game, t + 1, kept, "label")
    for s, (raw, was) in enumerate(zip(game.given, kept, strict=True), 1):
        if not _same(raw, was):
            raise fail(
                game.name,
                "no_mutation",
                f"round {s}'s instance changed after it was returned (seen after the game): "
                f"{shown(was)} then, {shown(raw)} now",
            )


def _unchanged(game: HandGame, t: int, kept: list, call: str) -> None:
    """Round t - 1's instance still matches its copy after round t's ``call``."""
    if len(kept) < t - 1 or t < 2:
        return
    raw, was = game.given[t - 2], kept[t - 2]
    if _same(raw, was):
        return
    now = game.given[-1]
    shared = (
        now is not raw
        and isinstance(now, np.ndarray)
        and isinstance(raw, np.ndarray)
        and np.shares_memory(now, raw)
    )
    during = f"during round {t}'s {call}()" if call == "instance" else f"during its {call}()"
    raise fail(
        game.name,
        "no_mutation",
        f"round {t - 1}'s instance changed after it was returned, {during}: "
        f"{shown(was)} then, {shown(raw)} now"
        + (f" (round {t}'s instance shares its memory: a buffer reused)" if shared else ""),
    )


def check_adversary_history(factory: Factory) -> None:
    """The history the adversary is shown stays the record of the rounds played.

    After each call of the adversary, the record (each round's instance,
    prediction and label) is compared with what was played: a change, made by
    reaching around the read-only :class:`~game.protocol.History`, fails
    naming the round changed; an attempt to write through the history raises
    inside the adversary's call, which fails naming the call.

    Examples
    --------
    >>> from adversaries import SeparableStream
    >>> check_adversary_history(lambda rng: SeparableStream(3, 0.2, rng=rng))
    """
    game, rounds = _game(factory, 23, "history")
    played: tuple[list, list, list] = ([], [], [])
    copies: list = []
    for t, x in game.rounds(rounds):
        _intact(game, played, t, "instance")
        p = game.predict(t, x)
        y = game.label(t, x, p)
        _intact(game, played, t, "label")
        game.update(t, x, y)
        game.record(x, p, y)
        for column, value in zip(played, (x, p, y), strict=True):
            column.append(value)
        copies.append(copy.deepcopy(x))
    for s, (x, was) in enumerate(zip(game.xs, copies, strict=True), 1):
        if not _same(x, was):
            raise fail(
                game.name,
                "history",
                f"round {s}'s instance in the history changed (seen after the game): "
                f"{shown(was)} then, {shown(x)} now; the record of a round never changes",
            )


def _intact(game: HandGame, played: tuple[list, list, list], t: int, call: str) -> None:
    """The record still holds the rounds played, after round t's ``call``."""
    for what, column, truth in zip(
        ("instance", "prediction", "label"), (game.xs, game.ps, game.ys), played, strict=True
    ):
        if len(column) != len(truth):
            raise fail(
                game.name,
                "history",
                f"round {t}: during {call}(), the history's {what}s went from {len(truth)} "
                f"rounds to {len(column)}; the record of the rounds played never changes",
            )
        s = next(
            (i for i, (a, b) in enumerate(zip(column, truth, strict=True), 1) if not _is(a, b)),
            None,
        )
        if s is None:
            continue
        raise fail(
            game.name,
            "history",
            f"round {t}: during {call}(), round {s}'s {what} in the history turned from "
            f"{shown(truth[s - 1])} to {shown(column[s - 1])}; the record of a round "
            "played never changes",
        )


def _is(a: Any, b: Any) -> bool:
    return a is b or (type(a) is type(b) and not isinstance(a, np.ndarray) and a == b)
