"""The conformance checks of an adversary, each a public function.

Every ``check_adversary_*`` function takes a *factory* (``factory(rng)``
returns a fresh adversary); it returns None when the adversary passes and
raises :class:`~game.testing.CheckFailure` with one line naming the
adversary, the round and the value when it falls short. The games, from
:data:`~game.testing._games.MIN_ROUNDS` to :data:`~game.testing._games.MAX_ROUNDS`
rounds long (a length drawn from each check's seed; an adversary may end them
sooner), are played against :class:`~game.testing.RandomLearner`, and the
claimed lower bound against deterministic learners. The checks of what an
adversary hands over and of the record it is shown are in
:mod:`game.testing._adversary_records`.

Examples
--------
>>> import numpy as np
>>> from game.testing import check_adversary_certificate, check_adversary_lower_bound
>>> from adversaries import HalvingLowerBound
>>> check_adversary_certificate(lambda rng: HalvingLowerBound(16))
>>> check_adversary_lower_bound(lambda rng: HalvingLowerBound(16))
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from game.players import learners_for, lookup, role_of
from game.protocol import INSTANCE_KINDS
from game.testing._adversary_records import (
    check_adversary_history,
    check_adversary_instances,
    check_adversary_no_mutation,
)
from game.testing._failure import fail, play_or_fail
from game.testing._games import clone_mid_game, game_length
from game.testing._reference import RandomLearner, declared, player_name

__all__ = [
    "ADVERSARY_CHECKS",
    "check_adversary_certificate",
    "check_adversary_declares",
    "check_adversary_history",
    "check_adversary_instances",
    "check_adversary_labels",
    "check_adversary_lower_bound",
    "check_adversary_no_mutation",
    "check_adversary_pickling",
    "check_adversary_same_seed",
]

Factory = Callable[[np.random.Generator], Any]


def _name(factory: Factory) -> str:
    return player_name(factory(np.random.default_rng(0)))


def _random(seed: int) -> RandomLearner:
    return RandomLearner(np.random.default_rng(seed))


def check_adversary_declares(factory: Factory) -> None:
    """``presents`` names instance kinds and the class has ``instance`` and ``label``.

    ``presents`` is one of :data:`~game.protocol.INSTANCE_KINDS`, or a
    non-empty frozenset of them (the kinds its instances can be read as).
    """
    probe = factory(np.random.default_rng(0))
    name = player_name(probe)
    presents = getattr(probe, "presents", None)
    kinds = presents if isinstance(presents, frozenset) else frozenset({presents})
    if not kinds or not all(isinstance(k, str) and k in INSTANCE_KINDS for k in kinds):
        raise fail(
            name,
            "declares",
            f"`presents` must be one of {sorted(INSTANCE_KINDS)} or a frozenset of them",
        )
    if role_of(type(probe)) != "adversary":
        raise fail(name, "declares", "has no instance/label")


def check_adversary_labels(factory: Factory) -> None:
    """Labels are ±1 and instances are accepted by the engine, against random learners.

    Examples
    --------
    >>> import numpy as np
    >>> from adversaries import SeparableStream
    >>> check_adversary_labels(lambda rng: SeparableStream(3, 0.2, rng=rng))
    """
    name = _name(factory)
    for seed in range(3):
        rounds = game_length(20 + seed)
        tr = play_or_fail(_random(seed), factory(np.random.default_rng(9)), name, "labels", rounds)
        tr.summary()


def check_adversary_certificate(factory: Factory) -> None:
    """A realizable certificate agrees with every label, over random learners.

    Examples
    --------
    >>> from adversaries import HalvingLowerBound
    >>> check_adversary_certificate(lambda rng: HalvingLowerBound(16))
    """
    name = _name(factory)
    for seed in range(5):
        tr = play_or_fail(
            _random(100 + seed),
            factory(np.random.default_rng(10 + seed)),
            name,
            "certificate",
            game_length(10 + seed),
        )
        cert = tr.certificate
        if cert is not None and cert.realizable and tr.certificate_verified is not True:
            raise fail(name, "certificate", "a realizable certificate was not verified")


def check_adversary_same_seed(factory: Factory) -> None:
    """One seed gives one game.

    Examples
    --------
    >>> from adversaries import SeparableStream
    >>> check_adversary_same_seed(lambda rng: SeparableStream(3, 0.2, rng=rng))
    """
    name, rounds = _name(factory), game_length(11)
    a, b = (
        play_or_fail(_random(1), factory(np.random.default_rng(11)), name, "same_seed", rounds)
        for _ in range(2)
    )
    if a.first_difference(b) is not None:
        raise fail(name, "same_seed", f"differs at round {a.first_difference(b)}")


def check_adversary_pickling(factory: Factory) -> None:
    """An adversary pickled, or deep-copied, mid-game continues exactly as the original.

    Examples
    --------
    >>> from adversaries import SeparableStream
    >>> check_adversary_pickling(lambda rng: SeparableStream(3, 0.2, rng=rng))
    """
    clone_mid_game(_random(2), factory(np.random.default_rng(12)), _name(factory), "pickling", 12)


def check_adversary_lower_bound(factory: Factory, learners: list | None = None) -> None:
    """A claimed lower bound is forced on every deterministic learner of its kind.

    Parameters
    ----------
    factory : callable
        ``factory(rng)`` returns a fresh adversary.
    learners : list of callables, optional
        ``learner_factory(rng)`` for the learners to force it on (default: every
        registered deterministic learner that plays the adversary's ``presents``
        kind, built with no arguments, or with the adversary's ``concept_class``
        for points).
    """
    adversary = factory(np.random.default_rng(13))
    name = player_name(adversary)
    if getattr(adversary, "lower_bound", None) is None or adversary.lower_bound() is None:
        return
    for make in learners if learners is not None else _deterministic_learners(adversary):
        learner = make(np.random.default_rng(14))
        tr = play_or_fail(learner, factory(np.random.default_rng(13)), name, "lower_bound", 10**6)
        if not tr.lower_bound.holds(tr.observed(tr.lower_bound.quantity)):
            raise fail(
                name,
                "lower_bound",
                f"forced only {tr.observed(tr.lower_bound.quantity):g} "
                f"{tr.lower_bound.quantity} on {player_name(learner)}, "
                f"claims ≥ {tr.lower_bound.value:g}",
            )


def _deterministic_learners(adversary) -> list[Factory]:
    presents = adversary.presents
    kinds = sorted(presents) if isinstance(presents, frozenset) else [presents]
    names = dict.fromkeys(n for k in kinds for n in learners_for(k, deterministic=True))
    kind = "point" if "point" in kinds else kinds[0]
    makers = []
    for learner_name in names:
        cls = lookup(learner_name)
        takes = declared(cls, "concept_class")
        if kind == "point":
            has = declared(type(adversary), "concept_class")
            points = getattr(adversary, has) if has is not None else None
            if points is None or takes is None:
                continue  # no class to hand over, or no declared field to take it
            makers.append(lambda rng, cls=cls, k=takes, c=points: cls(**{k: c}))
        else:
            makers.append(lambda rng, cls=cls: cls())
    return makers


#: The adversary checks, by the name a :class:`~game.testing.Check` carries.
ADVERSARY_CHECKS: dict[str, Callable[..., None]] = {
    "declares": check_adversary_declares,
    "instances": check_adversary_instances,
    "no_mutation": check_adversary_no_mutation,
    "history": check_adversary_history,
    "labels": check_adversary_labels,
    "certificate": check_adversary_certificate,
    "same_seed": check_adversary_same_seed,
    "pickling": check_adversary_pickling,
    "lower_bound": check_adversary_lower_bound,
}
