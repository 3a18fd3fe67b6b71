"""Conformance checks for any learner or adversary, the project's and users' own.

Each check is a public function (``check_learner_*`` and ``check_adversary_*``:
see :mod:`game.testing`); :func:`check_learner` and :func:`check_adversary`
yield every check that applies to one player as named :class:`Check` objects,
and :func:`parametrize_with_checks` turns them into one pytest test each.
Calling a check runs it and raises :class:`CheckFailure` with a sentence when
the player falls short. A player is given by a *factory*: a callable taking a
``numpy.random.Generator`` and returning a fresh player (a deterministic player
may ignore the generator).

Examples
--------
>>> from game.testing import check_learner, run_checks
>>> from learners import Perceptron
>>> results = run_checks(check_learner(lambda rng: Perceptron()))
>>> all(r.passed for r in results), len(results) > 5
(True, True)
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from game.errors import GameError
from game.players import lookup, names, role_of
from game.scenario import load_scenario
from game.testing._adversary_checks import ADVERSARY_CHECKS
from game.testing._failure import CheckFailure, fail
from game.testing._learner_checks import LEARNER_CHECKS, check_learner_declares
from game.testing._reference import declared, player_name

__all__ = [
    "Check",
    "CheckResult",
    "check_adversary",
    "check_learner",
    "parametrize_with_checks",
    "registered_checks",
    "run_checks",
    "scenario_factories",
]

Factory = Callable[[np.random.Generator], Any]


@attrs.frozen
class Check:
    """One named check of one player; call it to run it.

    Calling it raises :class:`CheckFailure` (one line naming the player and the
    check) when the player fails, including when one of its calls raises.
    """

    name: str
    player: str
    run: Callable[[], None] = attrs.field(repr=False)

    def __call__(self) -> None:
        try:
            self.run()
        except CheckFailure:
            raise
        except Exception as exc:
            raise fail(self.player, self.name, f"raised {type(exc).__name__}: {exc}") from exc

    @property
    def id(self) -> str:
        """``player:check``, readable in test ids."""
        return f"{self.player}:{self.name}"


@attrs.frozen
class CheckResult:
    """The outcome of a :class:`Check`."""

    check: Check
    passed: bool
    message: str = ""


def run_checks(checks: Iterable[Check]) -> list[CheckResult]:
    """Run every check; failures are collected, not raised."""
    results = []
    for check in checks:
        try:
            check()
        except CheckFailure as exc:
            results.append(CheckResult(check, False, str(exc)))
        else:
            results.append(CheckResult(check, True))
    return results


def check_learner(
    factory: Factory, *, kinds: list[str] | None = None, concept_class: Any = None
) -> Iterator[Check]:
    """The conformance checks of a learner: ``declares``, then each per-kind check.

    Parameters
    ----------
    factory : callable
        ``factory(rng)`` returns a fresh learner.
    kinds : list of str, optional
        The instance kinds to check on (default: the learner's ``plays``).
    concept_class : object with ``.matrix``, optional
        For learners that play "point": the class the points belong to.

    Examples
    --------
    >>> from learners import Winnow
    >>> [c.name for c in check_learner(lambda rng: Winnow())][:4]
    ['declares', 'predictions[bits]', 'update_returns_bool[bits]', 'update_state[bits]']
    """
    probe = factory(np.random.default_rng(0))
    name = player_name(probe)
    yield Check("declares", name, functools.partial(check_learner_declares, factory))
    for kind in kinds or sorted(getattr(probe, "plays", None) or ()):
        for check_name, fn in LEARNER_CHECKS.items():
            run = functools.partial(fn, factory, kind, concept_class)
            yield Check(f"{check_name}[{kind}]", name, run)


def check_adversary(factory: Factory, *, learners: list | None = None) -> Iterator[Check]:
    """The conformance checks of an adversary.

    Parameters
    ----------
    factory : callable
        ``factory(rng)`` returns a fresh adversary.
    learners : list of callables, optional
        ``learner_factory(rng)`` for the deterministic learners its lower bound
        is checked against (see :func:`~game.testing.check_adversary_lower_bound`).

    Examples
    --------
    >>> from adversaries import HalvingLowerBound
    >>> [c.name for c in check_adversary(lambda rng: HalvingLowerBound(16))][:4]
    ['declares', 'instances', 'no_mutation', 'history']
    """
    name = player_name(factory(np.random.default_rng(0)))
    for check_name, fn in ADVERSARY_CHECKS.items():
        run = functools.partial(fn, factory)
        if check_name == "lower_bound":
            run = functools.partial(fn, factory, learners)
        yield Check(check_name, name, run)


def parametrize_with_checks(checks: Iterable[Check]) -> Any:
    """A ``pytest.mark.parametrize`` decorator giving one test per check, named by its id.

    Examples
    --------
    >>> from game.testing import check_learner, parametrize_with_checks
    >>> from learners import Perceptron
    >>> @parametrize_with_checks(check_learner(lambda rng: Perceptron()))
    ... def test_perceptron(check):
    ...     check()
    """
    import pytest  # the test runner: needed only by those who call this

    checks = list(checks)
    return pytest.mark.parametrize("check", checks, ids=[c.id for c in checks])


def scenario_factories(folder: str | Path) -> dict[str, tuple[str, Factory]]:
    """For every player named in the scenarios of ``folder``: (scenario, factory).

    A factory builds the player as its first scenario (in sorted order) does,
    with the given generator in place of the scenario's.
    """
    found: dict[str, tuple[str, Factory]] = {}
    for path in sorted(Path(folder).glob("*.toml")):
        try:
            scenario = load_scenario(path)
        except GameError:
            continue
        for role in ("learner", "adversary"):
            name = scenario.spec[role]["name"]
            if name not in found:
                found[name] = (
                    str(path),
                    lambda rng, s=scenario, r=role: s.build_player(r, rng),
                )
    return found


def registered_checks(folder: str | Path | None = None) -> tuple[list[Check], dict[str, str]]:
    """Every check of every registered player, and the players skipped with the reason.

    Adversaries (and learners that play points) are built as a scenario in
    ``folder`` builds them; other learners with no arguments.
    """
    factories = scenario_factories(folder) if folder is not None else {}
    checks: list[Check] = []
    skipped: dict[str, str] = {}
    for name in names():
        cls = lookup(name)
        if role_of(cls) == "adversary":
            if name not in factories:
                skipped[name] = "no scenario in the folder names it, so no parameters are known"
                continue
            checks += list(check_adversary(factories[name][1]))
            continue
        plays = getattr(cls, "plays", frozenset())
        if "point" not in plays:
            checks += list(check_learner(_no_argument_factory(cls)))
            continue
        if name not in factories:
            skipped[name] = "plays points and no scenario gives it a concept class"
            continue
        make = factories[name][1]
        takes = declared(cls, "concept_class")
        player = make(np.random.default_rng(0))
        concept_class = getattr(player, takes) if takes is not None else None
        checks += list(check_learner(make, kinds=["point"], concept_class=concept_class))
        others = sorted(set(plays) - {"point"})
        if others:
            more = check_learner(_no_argument_factory(cls), kinds=others)
            checks += [c for c in more if c.name != "declares"]
    return checks, skipped


def _no_argument_factory(cls) -> Factory:
    """Builds the player with no arguments but the generator it declares (if any)."""
    takes = declared(cls, "rng")
    return lambda rng: cls(**({takes: rng} if takes is not None else {}))
