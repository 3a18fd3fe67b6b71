"""Scenario files: one game in TOML, loaded, validated, played and checked.

A scenario is data, never code: players are named through the registry, their
parameters are TOML values (or data files beside the scenario for the fields
that accept them), and the ``[expect]`` table is checked on every run::

    description = "Perceptron on a separable stream"
    rounds = 1000          # an upper limit; the adversary may end sooner
    seed = 0               # SeedSequence(seed).spawn(2): learner's, adversary's
    loss = "zero-one"      # or "absolute", "squared"
    snapshots = false      # log the learner's proof quantities

    [learner]
    name = "perceptron"

    [adversary]
    name = "separable-stream"
    dimension = 10
    margin = 0.1

    [expect]               # all optional
    mistakes = 12          # also min_mistakes, max_mistakes, updates
    within_bound = true
    certificate_verified = true
    digest = "sha256:…"

When a run overrides the seed or the number of rounds, the expectations tied
to one exact game (``mistakes``, ``updates``, ``digest``) are skipped; the
others still hold for every seed and are checked.

Games over a finite concept class share it through a ``[concept_class]``
table: a builder of :mod:`game.theory.concepts` and its arguments
(``builder = "intervals"``, ``n = 64``) or a ±1 matrix file beside the
scenario (``path = "data/cls.npy"`` or ``.csv``). The class is built once and
handed to every player with a ``concept_class`` parameter; an error names
``concept_class.<key>``.

Examples
--------
>>> from pathlib import Path
>>> from game.scenario import load_scenario
>>> sc = load_scenario(Path("scenarios") / "perceptron_separable.toml")
>>> tr = sc.play()
>>> tr.summary()["within_bound"], sc.check(tr)
(True, [])
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from game.engine import play
from game.errors import ExpectationError, GameError, ScenarioError, UnknownPlayerError
from game.players._params import DATA_SUFFIXES, is_data_field
from game.players._registry import lookup
from game.theory._losses import LOSSES
from game.transcript._transcript import Transcript

__all__ = ["MAX_ROUNDS", "Scenario", "load_scenario", "scenario_from_dict"]

#: The most rounds a scenario may ask for.
MAX_ROUNDS = 10**9

_TOP = {
    "description": str,
    "rounds": int,
    "seed": int,
    "loss": str,
    "snapshots": bool,
    "learner": dict,
    "adversary": dict,
    "concept_class": dict,
    "expect": dict,
}
_EXPECT = {
    "mistakes": int,
    "min_mistakes": int,
    "max_mistakes": int,
    "updates": int,
    "within_bound": bool,
    "certificate_verified": bool,
    "digest": str,
}
_EXACT = ("mistakes", "updates", "digest")
_DIGEST = re.compile(r"sha256:[0-9a-f]{64}")
_TYPE_NAMES = {str: "a string", int: "an integer", bool: "true or false", dict: "a table"}


def _is(value: Any, kind: type) -> bool:
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, kind)


def load_scenario(path: str | Path) -> Scenario:
    """Read and validate a scenario file.

    Raises
    ------
    ScenarioError
        Naming the file, the key and what was expected.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ScenarioError(f"{path}: no such scenario file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError(f"{path}: cannot read the scenario: {exc}") from None
    try:
        spec = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{path}: not valid TOML: {exc}") from None
    return scenario_from_dict(spec, source=path)


def scenario_from_dict(spec: dict, *, source: str | Path = "<scenario>", base: Path | None = None):
    """Validate a parsed scenario (a TOML document as a dict).

    Parameters
    ----------
    spec : dict
        The scenario's tables and keys.
    source : str or Path
        Named in every error; a path also fixes the folder data files live in.
    base : Path, optional
        The folder data files are relative to (default: the source's folder).
    """
    source = Path(source)
    base = Path(base) if base is not None else source.parent
    where = str(source)

    def fail(key: str, message: str) -> ScenarioError:
        return ScenarioError(f"{where}: {key}: {message}")

    if not isinstance(spec, dict):
        raise ScenarioError(f"{where}: expected a TOML document with tables")
    for key, value in spec.items():
        if key not in _TOP:
            raise fail(key, f"unknown key; expected one of {', '.join(_TOP)}")
        if not _is(value, _TOP[key]):
            raise fail(key, f"expected {_TYPE_NAMES[_TOP[key]]}, got {value!r}")
    for key in ("rounds", "learner", "adversary"):
        if key not in spec:
            raise ScenarioError(
                f"{where}: missing {'table [' + key + ']' if key != 'rounds' else 'key rounds'}"
            )
    if not 0 <= spec["rounds"] <= MAX_ROUNDS:
        raise fail("rounds", f"expected an integer from 0 to {MAX_ROUNDS}, got {spec['rounds']}")
    if spec.get("seed", 0) < 0:
        raise fail("seed", f"expected a non-negative integer, got {spec['seed']}")
    loss = spec.get("loss", "zero-one")
    if loss not in LOSSES:
        raise fail("loss", f"expected one of {', '.join(map(repr, LOSSES))}, got {loss!r}")
    expect = spec.get("expect", {})
    for key, value in expect.items():
        if key not in _EXPECT:
            raise fail(f"expect.{key}", f"unknown key; expected one of {', '.join(_EXPECT)}")
        if not _is(value, _EXPECT[key]):
            raise fail(f"expect.{key}", f"expected {_TYPE_NAMES[_EXPECT[key]]}, got {value!r}")
        if _EXPECT[key] is int and value < 0:
            raise fail(f"expect.{key}", f"expected a non-negative integer, got {value}")
    if "digest" in expect and not _DIGEST.fullmatch(expect["digest"]):
        raise fail(
            "expect.digest",
            f"expected 'sha256:' followed by 64 hex digits, got {expect['digest']!r}",
        )
    scenario = Scenario(source=source, base=base, spec=spec)
    scenario.concept_class()  # builds (and so validates) the shared [concept_class]
    for role in ("learner", "adversary"):
        scenario.player_spec(role)  # validates names, keys and data files
    return scenario


@attrs.define
class Scenario:
    """A validated scenario: build its players, play it, check its expectations.

    Use :func:`load_scenario` to make one.
    """

    source: Path
    base: Path
    spec: dict
    _shared: dict = attrs.field(factory=dict, init=False, repr=False, eq=False)

    @property
    def rounds(self) -> int:
        """The most rounds the game may last."""
        return self.spec["rounds"]

    @property
    def seed(self) -> int:
        """The scenario's seed."""
        return self.spec.get("seed", 0)

    @property
    def loss(self) -> str:
        """The game's loss."""
        return self.spec.get("loss", "zero-one")

    @property
    def expect(self) -> dict:
        """The ``[expect]`` table."""
        return self.spec.get("expect", {})

    @property
    def description(self) -> str:
        """One line saying what the scenario shows."""
        return self.spec.get("description", "")

    def _fail(self, key: str, message: str) -> ScenarioError:
        return ScenarioError(f"{self.source}: {key}: {message}")

    def player_spec(self, role: str) -> tuple[type, dict[str, Any]]:
        """The class and the constructor keywords of ``role`` (data files loaded)."""
        table = dict(self.spec[role])
        if "name" not in table:
            raise self._fail(f"{role}.name", "missing; expected a registered player name")
        name = table.pop("name")
        try:
            cls = lookup(name, role)
        except UnknownPlayerError as exc:
            raise self._fail(f"{role}.name", str(exc)) from None
        fields = {f.alias: f for f in attrs.fields(cls) if f.init} if attrs.has(cls) else {}
        supplied = {a for a, f in fields.items() if f.metadata.get("rng") or a == "loss"}
        if "concept_class" in self.spec and "concept_class" in fields:
            supplied.add("concept_class")
        for key in table:
            if key == "concept_class" and key in supplied:
                raise self._fail(
                    f"{role}.{key}",
                    "is set by the [concept_class] table; remove it from the player's table",
                )
            if key in supplied:
                raise self._fail(
                    f"{role}.{key}",
                    "is set by the scenario (from seed and loss); remove it from the table",
                )
            if key not in fields:
                known = ", ".join(a for a in fields if a not in supplied) or "none"
                raise self._fail(
                    f"{role}.{key}", f"unknown parameter of {name!r}; expected: {known}"
                )
        kwargs = {}
        for key, value in table.items():
            if isinstance(value, str) and is_data_field(fields[key]):
                value = self._data(f"{role}.{key}", value)
            kwargs[key] = value
        return cls, kwargs

    def concept_class(self) -> Any:
        """The finite class of the ``[concept_class]`` table (built once), or None.

        The table names a builder of :mod:`game.theory.concepts` with its
        arguments (``builder = "intervals"``, ``n = 64``), or a data file beside
        the scenario (``path = "data/cls.npy"`` or ``.csv``, a ±1 matrix,
        hypotheses × points). Every player with a ``concept_class`` parameter
        gets this one class (and so shares its Littlestone-dimension engine).
        """
        table = self.spec.get("concept_class")
        if table is None:
            return None
        if "class" not in self._shared:
            self._shared["class"] = self._build_class(dict(table))
        return self._shared["class"]

    def _build_class(self, table: dict) -> Any:
        import inspect

        from game.theory.concepts._finite import BUILDERS, FiniteClass

        if ("builder" in table) == ("path" in table):
            raise self._fail(
                "concept_class",
                'expected either builder = "NAME" (with its arguments) or path = "FILE.npy|.csv"',
            )
        if "path" in table:
            path = table.pop("path")
            if table:
                key = next(iter(table))
                raise self._fail(f"concept_class.{key}", "unknown key; a path takes no arguments")
            if not isinstance(path, str):
                raise self._fail("concept_class.path", f"expected a string, got {path!r}")
            if Path(path).suffix not in (".npy", ".csv"):
                raise self._fail(
                    "concept_class.path", f"expected a .npy or .csv file, got {path!r}"
                )
            matrix = self._data("concept_class.path", path, csv_ndmin=2)
            try:
                return FiniteClass(matrix, name=Path(path).name)
            except ValueError as exc:
                raise self._fail("concept_class.path", str(exc)) from None
        builder = table.pop("builder")
        if not isinstance(builder, str) or builder not in BUILDERS:
            raise self._fail(
                "concept_class.builder",
                f"unknown class builder {builder!r}; expected one of {', '.join(BUILDERS)}",
            )
        fn = BUILDERS[builder]
        params = inspect.signature(fn).parameters
        for key in table:
            if key not in params:
                raise self._fail(
                    f"concept_class.{key}",
                    f"unknown argument of builder {builder!r}; expected: {', '.join(params)}",
                )
        missing = [p for p in params if p not in table]
        if missing:
            raise self._fail("concept_class", f"builder {builder!r} needs {', '.join(missing)}")
        try:
            return fn(**table)
        except (TypeError, ValueError) as exc:
            message = str(exc)
            first = message.split(" ", 1)[0]
            key = f"concept_class.{first}" if first in table else "concept_class"
            raise self._fail(key, message) from None

    def _data(self, key: str, value: str, *, csv_ndmin: int = 1) -> Any:
        path = Path(value)
        if path.is_absolute():
            raise self._fail(key, f"data file {value!r} must be a path relative to the scenario")
        full = (self.base / path).resolve()
        if not full.is_relative_to(self.base.resolve()):
            raise self._fail(key, f"data file {value!r} is outside the scenario's folder")
        if full.suffix not in DATA_SUFFIXES:
            raise self._fail(key, f"data file {value!r} must end in {', '.join(DATA_SUFFIXES)}")
        if not full.is_file():
            raise self._fail(key, f"data file {value!r} not found in {self.base}")
        try:
            if full.suffix == ".npy":
                return np.load(full, allow_pickle=False)
            if full.suffix == ".csv":
                return np.loadtxt(full, delimiter=",", ndmin=csv_ndmin)
            return Transcript.load(full)
        except GameError as exc:
            raise self._fail(key, str(exc)) from None
        except (OSError, ValueError) as exc:
            raise self._fail(key, f"cannot read data file {value!r}: {exc}") from None

    def build(self, seed: int | None = None) -> tuple[Any, Any]:
        """The learner and the adversary, with generators from ``SeedSequence(seed).spawn(2)``."""
        seed = self.seed if seed is None else seed
        children = np.random.SeedSequence(seed).spawn(2)
        learner = self.build_player("learner", np.random.default_rng(children[0]))
        adversary = self.build_player("adversary", np.random.default_rng(children[1]))
        return learner, adversary

    def build_player(self, role: str, rng: np.random.Generator) -> Any:
        """One player of the scenario, its ``rng`` field (if any) given ``rng``."""
        cls, kwargs = self.player_spec(role)
        if attrs.has(cls):
            for f in attrs.fields(cls):
                if f.init and f.metadata.get("rng"):
                    kwargs[f.alias] = rng
                elif f.init and f.alias == "loss":
                    kwargs["loss"] = self.loss
                elif f.init and f.alias == "concept_class" and "concept_class" in self.spec:
                    kwargs["concept_class"] = self.concept_class()
                elif f.init and f.alias == "concept_class" and f.default is attrs.NOTHING:
                    if "concept_class" not in kwargs:
                        raise self._fail(
                            f"{role}.concept_class",
                            "this player needs a finite class: add a [concept_class] table",
                        )
        try:
            return cls(**kwargs)
        except GameError as exc:
            raise self._fail(role, str(exc)) from None
        except Exception as exc:  # a constructor's validation message names the parameter
            message = str(exc) or type(exc).__name__
            first = message.split(" ", 1)[0]
            key = f"{role}.{first}" if first in kwargs else role
            raise self._fail(key, message) from None

    def play(
        self,
        *,
        seed: int | None = None,
        rounds: int | None = None,
        out: Any = None,
        snapshots: bool | None = None,
        check: bool = True,
        progress: Any = None,
    ) -> Transcript:
        """Play the scenario and check ``[expect]``.

        Parameters
        ----------
        seed, rounds : int, optional
            Override the scenario's; exact expectations are then skipped.
        out : path-like, optional
            Stream the transcript to this file.
        snapshots : bool, optional
            Override the scenario's ``snapshots``.
        check : bool, default True
            Raise :class:`ExpectationError` when an expectation fails.
        progress : callable, optional
            ``progress(done, rounds)`` while the game runs (see :func:`game.play`).
        """
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
            raise GameError(f"seed must be a non-negative integer, got {seed!r}")
        if rounds is not None and (
            isinstance(rounds, bool) or not isinstance(rounds, int) or not 0 <= rounds <= MAX_ROUNDS
        ):
            raise GameError(f"rounds must be an integer from 0 to {MAX_ROUNDS}, got {rounds!r}")
        learner, adversary = self.build(seed)
        meta = self.meta(seed=seed, rounds=rounds, snapshots=snapshots)
        spec = meta["scenario"]["spec"]
        transcript = play(
            learner,
            adversary,
            rounds=spec["rounds"],
            loss=self.loss,
            snapshots=spec.get("snapshots", False),
            out=out,
            meta=meta,
            progress=progress,
        )
        exact = seed is None and rounds is None
        if check:
            failures = self.check(transcript, exact=exact)
            if failures:
                raise ExpectationError(f"{self.source}: " + "; ".join(failures))
        return transcript

    def meta(
        self, *, seed: int | None = None, rounds: int | None = None, snapshots: bool | None = None
    ) -> dict[str, Any]:
        """The header entries a game of this scenario records: its seed, path and spec.

        The spec is the scenario's without ``[expect]``, with the overrides written in,
        so the header alone says which game was played.
        """
        spec = dict(self.spec)
        spec.pop("expect", None)
        if seed is not None:
            spec["seed"] = seed
        if rounds is not None:
            spec["rounds"] = rounds
        if snapshots is not None:
            spec["snapshots"] = snapshots
        return {"seed": spec.get("seed", 0), "scenario": {"path": str(self.source), "spec": spec}}

    def check(self, transcript: Transcript, *, exact: bool = True) -> list[str]:
        """The ``[expect]`` entries the transcript fails, each as a sentence."""
        expect, s = self.expect, transcript.summary()
        failures = []
        if exact:
            for key in ("mistakes", "updates"):
                if key in expect and s[key] != expect[key]:
                    failures.append(f"expected {expect[key]} {key}, got {s[key]}")
            if "digest" in expect and s["digest"] != expect["digest"]:
                failures.append(f"expected digest {expect['digest']}, got {s['digest']}")
        if "min_mistakes" in expect and s["mistakes"] < expect["min_mistakes"]:
            failures.append(
                f"expected at least {expect['min_mistakes']} mistakes, got {s['mistakes']}"
            )
        if "max_mistakes" in expect and s["mistakes"] > expect["max_mistakes"]:
            failures.append(
                f"expected at most {expect['max_mistakes']} mistakes, got {s['mistakes']}"
            )
        if "within_bound" in expect and s["within_bound"] != expect["within_bound"]:
            bound = "no bound" if s["bound"] is None else f"{s['bound_quantity']} ≤ {s['bound']:g}"
            failures.append(
                f"expected within_bound = {expect['within_bound']}, "
                f"got {s['within_bound']} ({bound})"
            )
        if (
            "certificate_verified" in expect
            and s["certificate_verified"] != expect["certificate_verified"]
        ):
            failures.append(
                f"expected certificate_verified = {expect['certificate_verified']}, "
                f"got {s['certificate_verified']}"
            )
        return failures
