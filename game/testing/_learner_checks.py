"""The conformance checks of a learner, each a public function.

Every ``check_learner_*`` function takes a *factory* (``factory(rng)``
returns a fresh learner) and, except ``check_learner_declares``, the instance
kind to play on; it returns None when the learner passes and raises
:class:`~game.testing.CheckFailure` with a sentence when it falls short. They
play short games through :func:`game.play` and through a step-by-step driver
that can pickle both players mid-game, against the reference adversary of the
kind (:func:`~game.testing.reference_adversary`).

Examples
--------
>>> from game.testing import check_learner_predictions, check_learner_pickling
>>> from learners import Perceptron
>>> check_learner_predictions(lambda rng: Perceptron(), "vector")
>>> check_learner_pickling(lambda rng: Perceptron(), "vector")
"""

from __future__ import annotations

import pickle
from collections.abc import Callable
from typing import Any

import numpy as np

from game.engine import play
from game.errors import ProtocolError
from game.players import role_of
from game.protocol import INSTANCE_KINDS, History
from game.testing._failure import fail, play_or_fail
from game.testing._reference import ROUNDS, drive, player_name, reference_adversary

__all__ = [
    "LEARNER_CHECKS",
    "check_learner_declares",
    "check_learner_deterministic",
    "check_learner_fresh_instances",
    "check_learner_no_mutation",
    "check_learner_pickling",
    "check_learner_predictions",
    "check_learner_same_seed",
    "check_learner_update_returns_bool",
    "pickle_mid_game",
]

Factory = Callable[[np.random.Generator], Any]


def _adversary(kind: str, seed: int, concept_class: Any):
    return reference_adversary(kind, np.random.default_rng(seed), concept_class)


def _name(factory: Factory) -> str:
    return player_name(factory(np.random.default_rng(0)))


def check_learner_declares(factory: Factory) -> None:
    """``deterministic`` is a bool, ``plays`` a non-empty set of instance kinds, and the
    class has ``predict`` and ``update``."""
    probe = factory(np.random.default_rng(0))
    name, plays = player_name(probe), getattr(probe, "plays", None)
    if not isinstance(getattr(probe, "deterministic", None), bool):
        raise fail(name, "declares", "needs a bool class attribute `deterministic`")
    if not isinstance(plays, frozenset | set) or not plays or not set(plays) <= set(INSTANCE_KINDS):
        raise fail(name, "declares", f"`plays` must be a non-empty set of {sorted(INSTANCE_KINDS)}")
    if role_of(type(probe)) != "learner":
        raise fail(name, "declares", "has no predict/update")


def check_learner_predictions(factory: Factory, kind: str, concept_class: Any = None) -> None:
    """Predictions are floats in [-1, 1], exactly ±1.0 for a deterministic learner."""
    name, learner = _name(factory), factory(np.random.default_rng(1))
    tr = play_or_fail(learner, _adversary(kind, 1, concept_class), name, "predictions")
    if getattr(learner, "deterministic", False) and not np.all(np.abs(tr.predictions) == 1):
        raise fail(name, "predictions", "a deterministic learner must predict exactly ±1.0")
    rows = drive(
        factory(np.random.default_rng(1)), _adversary(kind, 1, concept_class), ([], [], []), ROUNDS
    )
    for t, (p, _, _) in enumerate(rows, 1):
        if not -1.0 <= p <= 1.0:
            raise fail(name, "predictions", f"round {t}: prediction {p!r} outside [-1, 1]")


def check_learner_update_returns_bool(
    factory: Factory, kind: str, concept_class: Any = None
) -> None:
    """``update`` returns a bool (or a numpy bool) on every round."""
    name = _name(factory)
    learner, adv = factory(np.random.default_rng(2)), _adversary(kind, 2, concept_class)
    xs, ps, ys = [], [], []
    history = History(xs, ps, ys)
    for t in range(1, 21):
        x = adv.instance(history)
        if x is None:
            break
        p = learner.predict(x)
        y = adv.label(x, p, history)
        u = learner.update(x, y)
        if not isinstance(u, bool | np.bool_):
            raise fail(name, "update_returns_bool", f"round {t}: update returned {u!r}")
        xs.append(x)
        ps.append(p)
        ys.append(y)


def check_learner_same_seed(factory: Factory, kind: str, concept_class: Any = None) -> None:
    """One seed gives one game."""
    name = _name(factory)
    a, b = (
        play_or_fail(
            factory(np.random.default_rng(3)), _adversary(kind, 3, concept_class), name, "same_seed"
        )
        for _ in range(2)
    )
    if a.first_difference(b) is not None:
        raise fail(
            name, "same_seed", f"two games with one seed differ at round {a.first_difference(b)}"
        )


def check_learner_fresh_instances(factory: Factory, kind: str, concept_class: Any = None) -> None:
    """A second learner from the factory plays the same game: no state is shared."""
    name = _name(factory)
    a = play_or_fail(
        factory(np.random.default_rng(4)),
        _adversary(kind, 4, concept_class),
        name,
        "fresh_instances",
    )
    b = play_or_fail(
        factory(np.random.default_rng(4)),
        _adversary(kind, 4, concept_class),
        name,
        "fresh_instances",
    )
    if a.first_difference(b) is not None:
        raise fail(
            name,
            "fresh_instances",
            "a second instance from the factory played differently: state is shared "
            f"between instances (first difference at round {a.first_difference(b)})",
        )


def check_learner_no_mutation(factory: Factory, kind: str, concept_class: Any = None) -> None:
    """The learner never writes to the instances it is shown."""
    name = _name(factory)
    adv = _adversary(kind, 5, concept_class)
    copy = pickle.loads(pickle.dumps(adv))
    before = []
    xs, ps, ys = [], [], []
    history = History(xs, ps, ys)
    while (x := copy.instance(history)) is not None and len(before) < ROUNDS:
        before.append(np.array(x, copy=True))
        y = copy.label(x, 1.0, history)
        xs.append(x)
        ps.append(1.0)
        ys.append(y)
    try:
        tr = play(factory(np.random.default_rng(5)), adv, rounds=len(before))
    except ProtocolError as exc:
        if "read-only" in str(exc) or "not writeable" in str(exc):
            raise fail(name, "no_mutation", f"writes to its instances: {exc}") from None
        raise fail(name, "no_mutation", str(exc)) from None
    for t, (x, kept) in enumerate(zip(tr.raw_instances, before, strict=False), 1):
        if not np.array_equal(np.asarray(x), kept):
            raise fail(name, "no_mutation", f"round {t}'s instance was changed")


def check_learner_pickling(factory: Factory, kind: str, concept_class: Any = None) -> None:
    """A learner pickled mid-game continues exactly as the original."""
    pickle_mid_game(
        factory(np.random.default_rng(6)), _adversary(kind, 6, concept_class), _name(factory)
    )


def check_learner_deterministic(factory: Factory, kind: str, concept_class: Any = None) -> None:
    """A learner that declares ``deterministic = True`` plays alike with any generator."""
    name, learner = _name(factory), factory(np.random.default_rng(7))
    if not getattr(learner, "deterministic", False):
        return
    a = play_or_fail(learner, _adversary(kind, 7, concept_class), name, "deterministic")
    b = play_or_fail(
        factory(np.random.default_rng(8)), _adversary(kind, 7, concept_class), name, "deterministic"
    )
    if a.first_difference(b) is not None:
        raise fail(
            name,
            "deterministic",
            "declares deterministic = True but plays differently with another generator",
        )


def pickle_mid_game(learner, adversary, name: str, half: int = ROUNDS // 2) -> None:
    """Pickle both players after ``half`` rounds; the copies must continue as the originals.

    Raises
    ------
    CheckFailure
        The players cannot be pickled, or the copies continue differently.
    """
    columns: tuple[list, list, list] = ([], [], [])
    drive(learner, adversary, columns, half)
    try:
        state = pickle.dumps((learner, adversary, columns))
    except Exception as exc:
        raise fail(name, "pickling", f"cannot be pickled mid-game: {exc}") from None
    learner2, adversary2, columns2 = pickle.loads(state)
    rest_a = drive(learner, adversary, columns, ROUNDS)
    rest_b = drive(learner2, adversary2, columns2, ROUNDS)
    if rest_a != rest_b:
        t = next(
            (i for i, (a, b) in enumerate(zip(rest_a, rest_b, strict=False)) if a != b),
            min(len(rest_a), len(rest_b)),
        )
        raise fail(
            name, "pickling", f"the unpickled copy continues differently at round {half + t + 1}"
        )


#: The per-kind learner checks, by the name a :class:`~game.testing.Check` carries.
LEARNER_CHECKS: dict[str, Callable[..., None]] = {
    "predictions": check_learner_predictions,
    "update_returns_bool": check_learner_update_returns_bool,
    "same_seed": check_learner_same_seed,
    "fresh_instances": check_learner_fresh_instances,
    "no_mutation": check_learner_no_mutation,
    "pickling": check_learner_pickling,
    "deterministic": check_learner_deterministic,
}
