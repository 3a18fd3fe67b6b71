"""The conformance checks of a learner that play games with it, each a public function.

Every ``check_learner_*`` function takes a *factory* (``factory(rng)``
returns a fresh learner) and, except ``check_learner_declares``, the instance
kind to play on; it returns None when the learner passes and raises
:class:`~game.testing.CheckFailure` with one line naming the learner, the round
and the value when it falls short. The games, against the reference adversary
of the kind (:func:`~game.testing.reference_adversary`), last from
:data:`~game.testing._games.MIN_ROUNDS` to :data:`~game.testing._games.MAX_ROUNDS`
rounds, a length drawn from each check's seed; they are played through
:func:`game.play` or call by call, so that a check can copy the players
mid-game. The checks of what a learner claims about itself (``update``'s
answer, its snapshot, its bound) are in :mod:`game.testing._learner_claims`.

Examples
--------
>>> from game.testing import check_learner_predictions, check_learner_pickling
>>> from learners import Perceptron
>>> check_learner_predictions(lambda rng: Perceptron(), "vector")
>>> check_learner_pickling(lambda rng: Perceptron(), "vector")
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from typing import Any

import numpy as np

from game.engine import play
from game.errors import ProtocolError
from game.players import role_of
from game.protocol import INSTANCE_KINDS, History
from game.testing._failure import fail, play_or_fail, shown
from game.testing._games import HandGame, clone_mid_game, game_length, same_answer
from game.testing._learner_claims import (
    check_learner_bound,
    check_learner_snapshot,
    check_learner_update_state,
    opponent,
)
from game.testing._reference import player_name

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
]

Factory = Callable[[np.random.Generator], Any]

#: How many rounds of its game the determinism check also asks a deep copy to predict.
COPIED_ROUNDS = 24


def _name(factory: Factory) -> str:
    return player_name(factory(np.random.default_rng(0)))


def check_learner_declares(factory: Factory) -> None:
    """``deterministic`` is a bool, ``plays`` a non-empty set of instance kinds, and the
    class has ``predict`` and ``update``.

    Examples
    --------
    >>> from learners import Winnow
    >>> check_learner_declares(lambda rng: Winnow())
    """
    probe = factory(np.random.default_rng(0))
    name, plays = player_name(probe), getattr(probe, "plays", None)
    if not isinstance(getattr(probe, "deterministic", None), bool):
        raise fail(name, "declares", "needs a bool class attribute `deterministic`")
    if not isinstance(plays, frozenset | set) or not plays or not set(plays) <= set(INSTANCE_KINDS):
        raise fail(name, "declares", f"`plays` must be a non-empty set of {sorted(INSTANCE_KINDS)}")
    if role_of(type(probe)) != "learner":
        raise fail(name, "declares", "has no predict/update")


def check_learner_predictions(factory: Factory, kind: str, concept_class: Any = None) -> None:
    """Predictions are floats in [-1, 1], exactly ±1.0 for a deterministic learner.

    Examples
    --------
    >>> from learners import ExponentialWeights
    >>> check_learner_predictions(lambda rng: ExponentialWeights(), "advice")
    """
    name, learner, rounds = _name(factory), factory(np.random.default_rng(1)), game_length(1)
    tr = play_or_fail(
        learner, opponent(kind, 1, concept_class, rounds), name, "predictions", rounds
    )
    if getattr(learner, "deterministic", False):
        soft = np.flatnonzero(np.abs(tr.predictions) != 1)
        if soft.size:
            t = int(soft[0]) + 1
            raise fail(
                name,
                "predictions",
                f"round {t}: predicted {float(tr.predictions[t - 1])!r}; "
                "a deterministic learner must predict exactly ±1.0",
            )


def check_learner_update_returns_bool(
    factory: Factory, kind: str, concept_class: Any = None
) -> None:
    """``update`` returns a bool (or a numpy bool) on every round.

    Examples
    --------
    >>> from learners import Winnow
    >>> check_learner_update_returns_bool(lambda rng: Winnow(), "bits")
    """
    name, rounds = _name(factory), game_length(2)
    learner, adversary = factory(np.random.default_rng(2)), opponent(kind, 2, concept_class, rounds)
    HandGame(learner, adversary, name, "update_returns_bool").play(rounds)


def check_learner_same_seed(factory: Factory, kind: str, concept_class: Any = None) -> None:
    """One seed gives one game: two learners from the factory, given one seed, play alike.

    Examples
    --------
    >>> from learners import RandomizedWeightedMajority
    >>> check_learner_same_seed(lambda rng: RandomizedWeightedMajority(rng=rng), "advice")
    """
    name, rounds = _name(factory), game_length(3)
    a, b = (
        play_or_fail(
            factory(np.random.default_rng(3)),
            opponent(kind, 3, concept_class, rounds),
            name,
            "same_seed",
            rounds,
        )
        for _ in range(2)
    )
    if a.first_difference(b) is not None:
        raise fail(
            name, "same_seed", f"two games with one seed differ at round {a.first_difference(b)}"
        )


def check_learner_fresh_instances(factory: Factory, kind: str, concept_class: Any = None) -> None:
    """A second learner from the factory plays the same game: no state is shared.

    Examples
    --------
    >>> from learners import Perceptron
    >>> check_learner_fresh_instances(lambda rng: Perceptron(), "vector")
    """
    name, rounds = _name(factory), game_length(4)
    a, b = (
        play_or_fail(
            factory(np.random.default_rng(4)),
            opponent(kind, 4, concept_class, rounds),
            name,
            "fresh_instances",
            rounds,
        )
        for _ in range(2)
    )
    if a.first_difference(b) is not None:
        raise fail(
            name,
            "fresh_instances",
            "a second instance from the factory played differently: state is shared "
            f"between instances (first difference at round {a.first_difference(b)})",
        )


def check_learner_no_mutation(factory: Factory, kind: str, concept_class: Any = None) -> None:
    """The learner never writes to the instances it is shown.

    Examples
    --------
    >>> from learners import Perceptron
    >>> check_learner_no_mutation(lambda rng: Perceptron(), "vector")
    """
    name, rounds = _name(factory), game_length(5)
    adv = opponent(kind, 5, concept_class, rounds)
    twin = pickle.loads(pickle.dumps(adv))
    before = []
    xs, ps, ys = [], [], []
    history = History(xs, ps, ys)
    while len(before) < rounds and (x := twin.instance(history)) is not None:
        before.append(np.array(x, copy=True))
        y = twin.label(x, 1.0, history)
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
    """A learner pickled, or deep-copied, mid-game continues exactly as the original.

    Examples
    --------
    >>> from learners import Halving
    >>> check_learner_pickling(lambda rng: Halving(), "advice")
    """
    clone_mid_game(
        factory(np.random.default_rng(6)),
        opponent(kind, 6, concept_class, game_length(6)),
        _name(factory),
        "pickling",
        6,
    )


def check_learner_deterministic(factory: Factory, kind: str, concept_class: Any = None) -> None:
    """A learner that declares ``deterministic = True`` predicts as its copies do.

    Two learners from the factory, built with two generators, play one game
    side by side: their predictions must be equal, round by round. At rounds
    drawn from the check's seed, a deep copy of the first
    (``copy.deepcopy``) also predicts the round's instance, before the
    learner does: its prediction must be the learner's. A learner that declares
    ``deterministic = False`` passes (``same_seed`` checks that its generator
    alone decides its game).

    Examples
    --------
    >>> from learners import SOA
    >>> from game.theory.concepts import thresholds
    >>> check_learner_deterministic(lambda rng: SOA(thresholds(8)), "point", thresholds(8))
    """
    name, learner = _name(factory), factory(np.random.default_rng(7))
    if getattr(learner, "deterministic", False) is not True:
        return
    rounds = game_length(7)
    pick = np.random.default_rng([7, 0x636F7079])
    copied = set((pick.choice(rounds, size=min(COPIED_ROUNDS, rounds), replace=False) + 1).tolist())
    one, other = (
        HandGame(player, opponent(kind, 7, concept_class, rounds), name, "deterministic")
        for player in (learner, factory(np.random.default_rng(8)))
    )
    for t in range(1, rounds + 1):
        x, z = one.instance(t), other.instance(t)
        if x is None or z is None:
            return
        if t in copied:
            try:
                twin = copy.deepcopy(learner)
            except Exception as exc:
                raise fail(
                    name, "deterministic", f"round {t}: cannot be deep-copied: {exc}"
                ) from None
            q = one.call(t, "predict", twin.predict, x)
        p = one.call(t, "predict", learner.predict, x)
        if t in copied and not same_answer(p, q):
            raise fail(
                name,
                "deterministic",
                f"round {t}: predicted {shown(p)}, and a deep copy of it {shown(q)}; "
                "yet it declares deterministic = True",
            )
        r = other.call(t, "predict", other.learner.predict, z)
        if not same_answer(p, r):
            raise fail(
                name,
                "deterministic",
                f"round {t}: predicted {shown(p)} built with one generator and {shown(r)} "
                "with another; yet it declares deterministic = True",
            )
        for game, instance, prediction in ((one, x, p), (other, z, r)):
            prediction = game.prediction(t, prediction)
            y = game.label(t, instance, prediction)
            game.update(t, instance, y)
            game.record(instance, prediction, y)


#: The per-kind learner checks, by the name a :class:`~game.testing.Check` carries.
LEARNER_CHECKS: dict[str, Callable[..., None]] = {
    "predictions": check_learner_predictions,
    "update_returns_bool": check_learner_update_returns_bool,
    "update_state": check_learner_update_state,
    "same_seed": check_learner_same_seed,
    "fresh_instances": check_learner_fresh_instances,
    "no_mutation": check_learner_no_mutation,
    "pickling": check_learner_pickling,
    "deterministic": check_learner_deterministic,
    "snapshot": check_learner_snapshot,
    "bound": check_learner_bound,
}
