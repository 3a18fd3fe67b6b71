"""Conformance checks for any learner or adversary, the project's and users' own.

:func:`check_learner` and :func:`check_adversary` yield named :class:`Check`
objects; calling one runs it and raises :class:`CheckFailure` with a sentence
when the player falls short. A player is given by a *factory*: a callable
taking a ``numpy.random.Generator`` and returning a fresh player (a
deterministic player may ignore the generator).

The checks play short games through :func:`game.play` and through a small
step-by-step driver that can pickle both players mid-game, against reference
opponents for the instance kind at hand: a random stream for "vector", random
bit vectors labelled by a fixed literal for "bits", random advice with a perfect
expert for "advice", random points labelled by a hypothesis of the given class
for "point"; and, for adversaries, learners that predict at random.

Examples
--------
>>> from game.testing._checks import check_learner, run_checks
>>> from learners import Perceptron
>>> results = run_checks(check_learner(lambda rng: Perceptron()))
>>> all(r.passed for r in results), len(results) > 5
(True, True)
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import numpy as np

from game.engine import play
from game.errors import CertificateError, GameError, ProtocolError
from game.players import rng_field
from game.players._registry import lookup, parameters, role_of
from game.protocol import INSTANCE_KINDS, History

__all__ = [
    "Check",
    "CheckFailure",
    "CheckResult",
    "RandomLearner",
    "check_adversary",
    "check_learner",
    "reference_adversary",
    "registered_checks",
    "run_checks",
    "scenario_factories",
]

Factory = Callable[[np.random.Generator], Any]
_ROUNDS = 60


class CheckFailure(AssertionError):
    """A player failed a conformance check; the message says how."""


@attrs.frozen
class Check:
    """One named check of one player; call it to run it."""

    name: str
    player: str
    run: Callable[[], None] = attrs.field(repr=False)

    def __call__(self) -> None:
        try:
            self.run()
        except CheckFailure:
            raise
        except Exception as exc:
            raise CheckFailure(
                f"{self.player}: {self.name}: raised {type(exc).__name__}: {exc}"
            ) from exc

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


def run_checks(checks) -> list[CheckResult]:
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


@attrs.define(eq=False, on_setattr=attrs.setters.NO_OP)
class RandomLearner:
    """Predicts -1 or +1 uniformly at random and never learns (a reference opponent).

    Examples
    --------
    >>> import numpy as np
    >>> RandomLearner(np.random.default_rng(0)).predict(None) in (-1.0, 1.0)
    True
    """

    deterministic = False
    plays = frozenset(INSTANCE_KINDS)
    rng: np.random.Generator = rng_field("draws the predictions")

    def predict(self, x) -> float:
        return 1.0 if self.rng.random() < 0.5 else -1.0

    def update(self, x, y) -> bool:
        return False


def _name(player: Any) -> str:
    from game.players._registry import name_of

    return name_of(type(player)) or type(player).__qualname__


def reference_adversary(kind: str, rng: np.random.Generator, concept_class: Any = None):
    """An oblivious, realizable adversary presenting ``kind`` instances (see module doc)."""
    from adversaries.replay import Replay
    from adversaries.streams import SeparableStream

    n = _ROUNDS
    if kind == "vector":
        return SeparableStream(5, 0.1, 1.0, rng)
    if kind == "bits":
        X = rng.integers(0, 2, size=(n, 8)).astype(bool)
        return Replay(instances=X, labels=np.where(X[:, 2], 1, -1))
    if kind == "advice":
        A = rng.choice(np.array([-1.0, 1.0]), size=(n, 16))
        return Replay(instances=A, labels=A[:, 3].astype(int))
    if kind == "point":
        if concept_class is None:
            raise GameError("a learner that plays points needs concept_class for its checks")
        matrix = np.asarray(concept_class.matrix)
        h = int(rng.integers(matrix.shape[0]))
        points = rng.integers(0, matrix.shape[1], size=n)
        return Replay(instances=points, labels=matrix[h, points])
    raise GameError(f"unknown instance kind {kind!r}")


def _drive(learner, adversary, columns: tuple[list, list, list], rounds: int) -> list:
    """Play up to ``rounds`` rounds by hand, appending to ``columns``; returns the new rows."""
    xs, ps, ys = columns
    history = History(xs, ps, ys)
    rows = []
    for _ in range(rounds):
        x = adversary.instance(history)
        if x is None:
            break
        if isinstance(x, np.ndarray):
            x = x.view()
            x.flags.writeable = False
        p = learner.predict(x)
        y = adversary.label(x, p, history)
        u = learner.update(x, y)
        xs.append(x)
        ps.append(p)
        ys.append(y)
        rows.append((float(p), int(y), bool(u)))
    return rows


def _fail(player: str, check: str, message: str) -> CheckFailure:
    return CheckFailure(f"{player}: {check}: {message}")


def _play(learner, adversary, name: str, check: str, rounds: int = _ROUNDS):
    try:
        return play(learner, adversary, rounds=rounds)
    except ProtocolError as exc:
        raise _fail(name, check, str(exc)) from None
    except CertificateError as exc:
        raise _fail(name, check, str(exc)) from None


def check_learner(
    factory: Factory, *, kinds: list[str] | None = None, concept_class: Any = None
) -> Iterator[Check]:
    """The conformance checks of a learner.

    Parameters
    ----------
    factory : callable
        ``factory(rng)`` returns a fresh learner.
    kinds : list of str, optional
        The instance kinds to check on (default: the learner's ``plays``).
    concept_class : object with ``.matrix``, optional
        For learners that play "point": the class the points belong to.
    """
    probe = factory(np.random.default_rng(0))
    name = _name(probe)
    plays = getattr(probe, "plays", None)

    def declares() -> None:
        if not isinstance(getattr(probe, "deterministic", None), bool):
            raise _fail(name, "declares", "needs a bool class attribute `deterministic`")
        if (
            not isinstance(plays, frozenset | set)
            or not plays
            or not set(plays) <= set(INSTANCE_KINDS)
        ):
            raise _fail(
                name, "declares", f"`plays` must be a non-empty set of {sorted(INSTANCE_KINDS)}"
            )
        if role_of(type(probe)) != "learner":
            raise _fail(name, "declares", "has no predict/update")

    yield Check("declares", name, declares)
    for kind in kinds or sorted(plays or ()):
        yield from _learner_checks(factory, name, kind, concept_class)


def _learner_checks(factory, name, kind, concept_class) -> Iterator[Check]:
    def adversary(seed: int):
        return reference_adversary(kind, np.random.default_rng(seed), concept_class)

    def predictions() -> None:
        learner = factory(np.random.default_rng(1))
        tr = _play(learner, adversary(1), name, "predictions")
        if getattr(learner, "deterministic", False) and not np.all(np.abs(tr.predictions) == 1):
            raise _fail(name, "predictions", "a deterministic learner must predict exactly ±1.0")
        rows = _drive(factory(np.random.default_rng(1)), adversary(1), ([], [], []), _ROUNDS)
        for t, (p, _, _) in enumerate(rows, 1):
            if not -1.0 <= p <= 1.0:
                raise _fail(name, "predictions", f"round {t}: prediction {p!r} outside [-1, 1]")

    def update_returns_bool() -> None:
        learner, adv = factory(np.random.default_rng(2)), adversary(2)
        history = History([], [], [])
        for t in range(1, 21):
            x = adv.instance(history)
            if x is None:
                break
            p = learner.predict(x)
            y = adv.label(x, p, history)
            u = learner.update(x, y)
            if not isinstance(u, bool | np.bool_):
                raise _fail(name, "update_returns_bool", f"round {t}: update returned {u!r}")
            history.instances.append(x)
            history.predictions.append(p)
            history.labels.append(y)

    def same_seed() -> None:
        a = _play(factory(np.random.default_rng(3)), adversary(3), name, "same_seed")
        b = _play(factory(np.random.default_rng(3)), adversary(3), name, "same_seed")
        if a.first_difference(b) is not None:
            raise _fail(
                name,
                "same_seed",
                f"two games with one seed differ at round {a.first_difference(b)}",
            )

    def fresh_instances() -> None:
        rng = np.random.default_rng(4)
        first = factory(rng)
        a = _play(first, adversary(4), name, "fresh_instances")
        b = _play(factory(np.random.default_rng(4)), adversary(4), name, "fresh_instances")
        if a.first_difference(b) is not None:
            raise _fail(
                name,
                "fresh_instances",
                "a second instance from the factory played differently: state is shared "
                f"between instances (first difference at round {a.first_difference(b)})",
            )

    def no_mutation() -> None:
        adv = adversary(5)
        copy = pickle.loads(pickle.dumps(adv))
        before = []
        history = History([], [], [])
        while (x := copy.instance(history)) is not None and len(before) < _ROUNDS:
            before.append(np.array(x, copy=True))
            y = copy.label(x, 1.0, history)
            history.instances.append(x)
            history.predictions.append(1.0)
            history.labels.append(y)
        try:
            tr = play(factory(np.random.default_rng(5)), adv, rounds=len(before))
        except ProtocolError as exc:
            if "read-only" in str(exc) or "not writeable" in str(exc):
                raise _fail(name, "no_mutation", f"writes to its instances: {exc}") from None
            raise _fail(name, "no_mutation", str(exc)) from None
        for t, (x, kept) in enumerate(zip(tr.raw_instances, before, strict=False), 1):
            if not np.array_equal(np.asarray(x), kept):
                raise _fail(name, "no_mutation", f"round {t}'s instance was changed")

    def pickling() -> None:
        _pickle_mid_game(factory(np.random.default_rng(6)), adversary(6), name)

    def determinism() -> None:
        learner = factory(np.random.default_rng(7))
        if not getattr(learner, "deterministic", False):
            return
        a = _play(learner, adversary(7), name, "deterministic")
        b = _play(factory(np.random.default_rng(8)), adversary(7), name, "deterministic")
        if a.first_difference(b) is not None:
            raise _fail(
                name,
                "deterministic",
                "declares deterministic = True but plays differently with another generator",
            )

    for check_name, fn in (
        ("predictions", predictions),
        ("update_returns_bool", update_returns_bool),
        ("same_seed", same_seed),
        ("fresh_instances", fresh_instances),
        ("no_mutation", no_mutation),
        ("pickling", pickling),
        ("deterministic", determinism),
    ):
        yield Check(f"{check_name}[{kind}]", name, fn)


def _pickle_mid_game(learner, adversary, name: str, half: int = _ROUNDS // 2) -> None:
    columns: tuple[list, list, list] = ([], [], [])
    _drive(learner, adversary, columns, half)
    try:
        state = pickle.dumps((learner, adversary, columns))
    except Exception as exc:
        raise _fail(name, "pickling", f"cannot be pickled mid-game: {exc}") from None
    learner2, adversary2, columns2 = pickle.loads(state)
    rest_a = _drive(learner, adversary, columns, _ROUNDS)
    rest_b = _drive(learner2, adversary2, columns2, _ROUNDS)
    if rest_a != rest_b:
        t = next(
            (i for i, (a, b) in enumerate(zip(rest_a, rest_b, strict=False)) if a != b),
            min(len(rest_a), len(rest_b)),
        )
        raise _fail(
            name, "pickling", f"the unpickled copy continues differently at round {half + t + 1}"
        )


def check_adversary(factory: Factory, *, learners: list | None = None) -> Iterator[Check]:
    """The conformance checks of an adversary.

    Parameters
    ----------
    factory : callable
        ``factory(rng)`` returns a fresh adversary.
    learners : list of callables, optional
        ``learner_factory(rng)`` for the deterministic learners its lower bound
        is checked against (default: every registered deterministic learner that
        plays the adversary's ``presents`` kind, built with no arguments, or with
        the adversary's ``concept_class`` for points).
    """
    probe = factory(np.random.default_rng(0))
    name = _name(probe)
    kind = getattr(probe, "presents", None)

    def declares() -> None:
        if kind not in INSTANCE_KINDS:
            raise _fail(name, "declares", f"`presents` must be one of {sorted(INSTANCE_KINDS)}")
        if role_of(type(probe)) != "adversary":
            raise _fail(name, "declares", "has no instance/label")

    def labels() -> None:
        for seed in range(3):
            _play(
                RandomLearner(np.random.default_rng(seed)),
                factory(np.random.default_rng(9)),
                name,
                "labels",
            )

    def certificate() -> None:
        for seed in range(5):
            tr = _play(
                RandomLearner(np.random.default_rng(100 + seed)),
                factory(np.random.default_rng(10 + seed)),
                name,
                "certificate",
            )
            cert = tr.certificate
            if cert is not None and cert.realizable and tr.certificate_verified is not True:
                raise _fail(name, "certificate", "a realizable certificate was not verified")

    def same_seed() -> None:
        a = _play(
            RandomLearner(np.random.default_rng(1)),
            factory(np.random.default_rng(11)),
            name,
            "same_seed",
        )
        b = _play(
            RandomLearner(np.random.default_rng(1)),
            factory(np.random.default_rng(11)),
            name,
            "same_seed",
        )
        if a.first_difference(b) is not None:
            raise _fail(name, "same_seed", f"differs at round {a.first_difference(b)}")

    def pickling() -> None:
        _pickle_mid_game(
            RandomLearner(np.random.default_rng(2)), factory(np.random.default_rng(12)), name
        )

    def lower_bound() -> None:
        adversary = factory(np.random.default_rng(13))
        if getattr(adversary, "lower_bound", None) is None or adversary.lower_bound() is None:
            return
        for make in learners if learners is not None else _deterministic_learners(probe):
            learner = make(np.random.default_rng(14))
            tr = _play(learner, factory(np.random.default_rng(13)), name, "lower_bound", 10**6)
            if not tr.lower_bound.holds(tr.observed(tr.lower_bound.quantity)):
                raise _fail(
                    name,
                    "lower_bound",
                    f"forced only {tr.observed(tr.lower_bound.quantity):g} "
                    f"{tr.lower_bound.quantity} on {_name(learner)}, "
                    f"claims ≥ {tr.lower_bound.value:g}",
                )

    yield Check("declares", name, declares)
    yield Check("labels", name, labels)
    yield Check("certificate", name, certificate)
    yield Check("same_seed", name, same_seed)
    yield Check("pickling", name, pickling)
    yield Check("lower_bound", name, lower_bound)


def _deterministic_learners(adversary) -> list[Factory]:
    from game.players._registry import learners_for

    kind = adversary.presents
    makers = []
    for learner_name in learners_for(kind, deterministic=True):
        cls = lookup(learner_name)
        if kind == "point":
            cls_ = getattr(adversary, "concept_class", None)
            if cls_ is None:
                continue
            makers.append(lambda rng, cls=cls, c=cls_: cls(concept_class=c))
        else:
            makers.append(lambda rng, cls=cls: cls())
    return makers


def scenario_factories(folder) -> dict[str, tuple[str, Factory]]:
    """For every player named in the scenarios of ``folder``: (scenario, factory).

    A factory builds the player as its first scenario (in sorted order) does,
    with the given generator in place of the scenario's.
    """
    from pathlib import Path

    from game.scenario import load_scenario

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


def registered_checks(folder=None) -> tuple[list[Check], dict[str, str]]:
    """Every check of every registered player, and the players skipped with the reason.

    Adversaries (and learners that play points) are built as a scenario in
    ``folder`` builds them; other learners with no arguments.
    """
    from game.players._registry import names

    factories = scenario_factories(folder) if folder is not None else {}
    checks: list[Check] = []
    skipped: dict[str, str] = {}
    for name in names():
        cls = lookup(name)
        role = role_of(cls)
        if role == "learner":
            plays = getattr(cls, "plays", frozenset())
            if "point" in plays:
                if name not in factories:
                    skipped[name] = "plays points and no scenario gives it a concept class"
                    continue
                make = factories[name][1]
                concept_class = _supplied_class(cls, make(np.random.default_rng(0)))
                checks += list(check_learner(make, kinds=["point"], concept_class=concept_class))
                others = sorted(set(plays) - {"point"})
                if others:
                    more = check_learner(_no_argument_factory(cls), kinds=others)
                    checks += [c for c in more if c.name != "declares"]
            else:
                checks += list(check_learner(_no_argument_factory(cls)))
        else:
            if name not in factories:
                skipped[name] = "no scenario in the folder names it, so no parameters are known"
                continue
            checks += list(check_adversary(factories[name][1]))
    return checks, skipped


def _supplied_class(cls: type, player: Any) -> Any:
    """The finite class a scenario handed ``player`` (its declared concept-class field), or None."""
    for p in parameters(cls):
        if p["supplied"] == "concept_class":
            return getattr(player, p["name"], None)
    return None


def _no_argument_factory(cls) -> Factory:
    """Builds the player with no arguments but the generator it declares (if any)."""
    takes = [p["name"] for p in parameters(cls) if p["supplied"] == "rng"]
    return lambda rng: cls(**dict.fromkeys(takes, rng))
