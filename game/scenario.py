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
    forced = true          # the adversary's lower bound applies and holds
    digest = "sha256:…"

When a run overrides the seed or the number of rounds, the expectations tied
to one exact game (``mistakes``, ``updates``, ``digest``) are skipped; the
others still hold for every seed and are checked.

Games over a finite concept class share it through a ``[concept_class]``
table: a builder of :mod:`game.theory.concepts` and its arguments
(``builder = "intervals"``, ``n = 64``) or a ±1 matrix file beside the
scenario (``path = "data/cls.npy"`` or ``.csv``). The class is built once and
handed to every player that declares a concept-class field; an error names
``concept_class.<key>``.

What a scenario fills in a player is declared by the player, never guessed
from a parameter's name (see :func:`game.players.register`): the generator
(:func:`~game.players.rng_field`), the game's loss
(:func:`~game.players.loss_field`) and the shared class
(:func:`~game.players.concept_class_field`). Every other parameter is a key of
the player's table. A value a constructor refuses is a
:class:`~game.errors.ParameterError`; the scenario names its key from the
error's ``parameter`` (``learner.margin``, ``concept_class.n``).

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

import difflib
import numbers
import os
import re
import sys
import tomllib
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from game.engine import KEEP, play
from game.errors import (
    ExpectationError,
    GameError,
    ParameterError,
    ScenarioError,
    UnknownPlayerError,
    check_choice,
    check_instance,
    check_integer,
)
from game.players import (
    DATA_SUFFIXES,
    SUPPLIES_ATTRIBUTE,
    Estimate,
    check_fits,
    choose_keep,
    estimate,
    kinds_clash,
    lookup,
    parameters,
)
from game.theory import (
    LOSSES,
    MAX_DEPTH,
    MAX_TEXT_BYTES,
    nesting_depth,
    os_problem,
    read_array_file,
    read_input,
    refusal,
)
from game.theory.concepts import FiniteClass, build_class
from game.transcript import Transcript

__all__ = [
    "BUILTIN_FOLDER",
    "MAX_ROUNDS",
    "Scenario",
    "builtin_scenarios",
    "load_scenario",
    "read_toml",
    "scenario_from_dict",
]

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
    "forced": bool,
    "digest": str,
}
_EXACT = ("mistakes", "updates", "digest")
_DIGEST = re.compile(r"sha256:[0-9a-f]{64}")
_TYPE_NAMES = {str: "a string", int: "an integer", bool: "true or false", dict: "a table"}


def _is(value: Any, kind: type) -> bool:
    if kind is int:
        return isinstance(value, numbers.Integral) and not isinstance(value, bool | np.bool_)
    return isinstance(value, kind)


def _ints(table: dict, kinds: dict) -> dict:
    """The table with its integer entries as Python ints (numpy's too)."""
    return {k: int(v) if kinds.get(k) is int else v for k, v in table.items()}


#: The built-in scenarios: shipped inside the package (the top-level ``scenarios/`` folder).
#: Where the built-in scenarios (and ``tournaments/``) are installed, inside the package.
BUILTIN_FOLDER = Path(__file__).resolve().parent / "scenarios"


def builtin_scenarios() -> dict[str, Path]:
    """The built-in scenarios by name: the file's stem with ``-`` for ``_``.

    They ship inside the package, so a name works from any folder:
    ``load_scenario("perceptron-separable")``, ``python -m game run
    perceptron-separable``.

    Returns
    -------
    dict of str to pathlib.Path
        Sorted by name; each path is the installed ``.toml`` file.

    Examples
    --------
    >>> from game.scenario import builtin_scenarios
    >>> gallery = builtin_scenarios()
    >>> gallery["perceptron-separable"].name
    'perceptron_separable.toml'
    >>> len(gallery) >= 26
    True
    """
    files = sorted(BUILTIN_FOLDER.glob("*.toml"))
    return {f.stem.replace("_", "-"): f for f in files}


def _scenario_path(path: str | os.PathLike) -> Path:
    """The file ``path`` names: itself, or the built-in scenario of that name."""
    if isinstance(path, os.PathLike) or os.sep in path or "/" in path or path.endswith(".toml"):
        return Path(path)
    gallery = builtin_scenarios()
    name = path.replace("_", "-")
    if name in gallery and not Path(path).is_file():
        return gallery[name]
    if not Path(path).exists():
        near = difflib.get_close_matches(name, list(gallery), n=3, cutoff=0.5)
        hint = (
            "did you mean " + " or ".join(repr(s) for s in near) + "?"
            if near
            else "`python -m game list --scenarios` shows them"
        )
        raise ScenarioError(f"{path}: no such scenario file or built-in scenario; {hint}")
    return Path(path)


def load_scenario(path: str | os.PathLike) -> Scenario:
    """Read and validate a scenario file, or the built-in scenario of a name.

    Parameters
    ----------
    path : str or os.PathLike
        The ``.toml`` file, or the name of a built-in scenario
        (:func:`builtin_scenarios`: ``"halving-lower-bound"``). A string without
        a folder and without ``.toml`` is a name unless a file of that name exists.

    Raises
    ------
    ParameterError
        When ``path`` is not a path (a str or an os.PathLike).
    ScenarioError
        Naming the file, the key and what was expected; an unknown name with the
        closest built-in names.

    Examples
    --------
    >>> from game.scenario import load_scenario
    >>> load_scenario("halving-lower-bound").source.name
    'halving_lower_bound.toml'
    >>> load_scenario("halving-lower-bnd")
    Traceback (most recent call last):
    ...
    game.errors.ScenarioError: halving-lower-bnd: ...; did you mean 'halving-lower-bound' or ...
    """
    check_instance("path", path, (str, os.PathLike), "a path (str or os.PathLike)")
    path = _scenario_path(path)
    spec = read_toml(path, "scenario")
    return scenario_from_dict(spec, source=path)


def read_toml(path: Path, what: str) -> dict:
    """A TOML file of the project's (a scenario, a tournament) as a dict, read with care.

    At most :data:`MAX_TEXT_BYTES` read; UTF-8 text; valid TOML; nested at
    most :data:`MAX_DEPTH` levels. Every refusal is a :class:`ScenarioError`
    naming the file: ``no such {what} file``, ``not valid TOML: …``.

    Examples
    --------
    >>> read_toml(Path("no/such.toml"), "tournament")
    Traceback (most recent call last):
    ...
    game.errors.ScenarioError: no/such.toml: no such tournament file
    """
    fail = refusal(ScenarioError, path)
    try:
        os.lstat(path)
    except FileNotFoundError:
        raise fail(f"no such {what} file") from None
    except (OSError, ValueError):
        pass  # refused below, saying why
    data = read_input(path, limit=MAX_TEXT_BYTES, fail=fail, what=f"{what} file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise fail(f"cannot read the {what}: not UTF-8 text (byte {exc.start + 1})") from None
    try:
        spec = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise fail(f"not valid TOML: {exc}") from None
    except RecursionError:
        raise fail(f"not valid TOML: arrays or tables nested deeper than {MAX_DEPTH}") from None
    except ValueError:  # an integer of more digits than Python converts
        limit = sys.get_int_max_str_digits()
        raise fail(f"not valid TOML: an integer longer than {limit} digits") from None
    if nesting_depth(spec) > MAX_DEPTH:
        raise fail(f"tables and arrays nested deeper than {MAX_DEPTH} levels")
    return spec


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
    spec = _ints(spec, _TOP)
    if "expect" in spec:
        spec["expect"] = _ints(expect, _EXPECT)
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

    def _supplied(self, cls: type) -> dict[str, str]:
        """The parameters of ``cls`` this scenario fills: name -> "rng", "loss" or "concept_class".

        A concept-class parameter is filled only when the scenario has a
        ``[concept_class]`` table (else the player's table may give it).
        """
        shared = "concept_class" in self.spec
        out = {}
        for p in parameters(cls):
            what = p["supplied"]
            if what in ("rng", "loss") or (what == "concept_class" and shared):
                out[p["name"]] = what
        return out

    def player_spec(self, role: str) -> tuple[type, dict[str, Any]]:
        """The class and the constructor keywords of ``role`` (data files loaded).

        The keywords are the player's table; what the scenario supplies is
        added by :meth:`build_player`.
        """
        table = dict(self.spec[role])
        if "name" not in table:
            raise self._fail(f"{role}.name", "missing; expected a registered player name")
        name = table.pop("name")
        try:
            cls = lookup(name, role)
        except UnknownPlayerError as exc:
            raise self._fail(f"{role}.name", str(exc)) from None
        params = {p["name"]: p for p in parameters(cls)}
        supplied = self._supplied(cls)
        because = {
            "rng": "is set by the scenario (a generator from its seed)",
            "loss": "is set by the scenario (its loss)",
            "concept_class": "is set by the [concept_class] table",
        }
        for key in table:
            if key in supplied:
                raise self._fail(
                    f"{role}.{key}", f"{because[supplied[key]]}; remove it from the player's table"
                )
            if key not in params:
                known = ", ".join(a for a in params if a not in supplied) or "none"
                raise self._fail(
                    f"{role}.{key}", f"unknown parameter of {name!r}; expected: {known}"
                )
        kwargs = {}
        for key, value in table.items():
            if isinstance(value, str) and params[key]["data"]:
                value = self._data(f"{role}.{key}", value)
            kwargs[key] = value
        return cls, kwargs

    def concept_class(self) -> Any:
        """The finite class of the ``[concept_class]`` table (built once), or None.

        The table names a builder of :mod:`game.theory.concepts` with its
        arguments (``builder = "intervals"``, ``n = 64``), or a data file beside
        the scenario (``path = "data/cls.npy"`` or ``.csv``, a ±1 matrix,
        hypotheses × points). Every player that declares a concept-class field
        gets this one class (and so shares its Littlestone-dimension engine).
        """
        table = self.spec.get("concept_class")
        if table is None:
            return None
        if "class" not in self._shared:
            self._shared["class"] = self._build_class(dict(table))
        return self._shared["class"]

    def _build_class(self, table: dict) -> Any:
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
            full = self._data_path("concept_class.path", path)
            try:
                return FiniteClass.load(full, name=Path(path).name)
            except ParameterError as exc:  # names where in the file, never what it holds
                raise self._fail(
                    "concept_class.path", f"cannot read data file {path!r}: {exc.note}"
                ) from None
        builder = table.pop("builder")
        try:
            return build_class(builder, **table)
        except ParameterError as exc:
            raise self._fail(f"concept_class.{exc.parameter}", str(exc)) from None

    def _data_path(self, key: str, value: str) -> Path:
        """The file a data path names: relative to the scenario's folder and inside it.

        Symlinks are resolved before the check; the file must exist (a
        dangling link exists) and end in ``.npy``, ``.csv`` or ``.jsonl``.
        """
        if "\0" in value:
            raise self._fail(key, "the data file's path holds a NUL character")
        path = Path(value)
        if path.is_absolute():
            raise self._fail(key, f"data file {value!r} must be a path relative to the scenario")
        try:
            base = self.base.resolve()
            full = (self.base / path).resolve()
        except (OSError, RuntimeError) as exc:  # a symlink loop
            problem = os_problem(exc) if isinstance(exc, OSError) else "a symlink loop"
            raise self._fail(key, f"data file {value!r}: {problem}") from None
        if not full.is_relative_to(base):
            raise self._fail(key, f"data file {value!r} is outside the scenario's folder")
        if full.suffix not in DATA_SUFFIXES:
            raise self._fail(key, f"data file {value!r} must end in {', '.join(DATA_SUFFIXES)}")
        try:
            os.lstat(full)
        except FileNotFoundError:
            raise self._fail(key, f"data file {value!r} not found in {self.base}") from None
        except OSError as exc:
            raise self._fail(key, f"data file {value!r}: {os_problem(exc)}") from None
        return full

    def _data(self, key: str, value: str) -> Any:
        """The content of the data file ``value`` names, under ``key`` (see :meth:`_data_path`).

        An array file must hold finite numbers
        (:func:`game.theory.read_array_file`), a ``.jsonl`` file a transcript.
        An error names the file, the key and what was expected, never what
        the file holds.
        """
        full = self._data_path(key, value)

        def fail(problem: str) -> ScenarioError:
            return self._fail(key, f"cannot read data file {value!r}: {problem}")

        if full.suffix == ".jsonl":
            try:
                return Transcript.load(full)
            except GameError as exc:
                raise self._fail(key, str(exc)) from None
        return read_array_file(full, fail=fail)

    def estimate(
        self,
        rounds: int | None = None,
        *,
        available: int | None = None,
        keep: str | None = "memory",
        folder: Any = None,
    ) -> Estimate:
        """The memory a game of this scenario needs, refused up front when it cannot fit.

        Estimated from the players' declared sizes and the rounds
        (:func:`game.players.estimate`) before anything is built, and compared
        with the machine's available memory (:func:`game.players.available_memory`).

        Parameters
        ----------
        rounds : int, optional
            Override the scenario's rounds.
        available : int, optional
            Bytes available (default: what the machine says).
        keep : {"memory", "disk"} or None, default "memory"
            Where the game keeps its rounds (:func:`game.play`); on disk, the
            rounds must fit the free space of ``folder`` instead of the memory.
            None: either way will do (:func:`game.players.choose_keep`).
        folder : path-like, optional
            The folder that keeps the rounds on disk (default: the system's temporary folder).

        Raises
        ------
        ScenarioError
            Naming the key that makes the game large (``rounds``,
            ``adversary.n``, ``adversary.dimension``) and the estimate.

        Examples
        --------
        >>> from game.scenario import scenario_from_dict
        >>> sc = scenario_from_dict({"rounds": 64, "learner": {"name": "halving"},
        ...     "adversary": {"name": "halving-lower-bound", "n": 28}})
        >>> sc.estimate(available=8 * 10**9)
        Traceback (most recent call last):
        ...
        game.errors.ScenarioError: <scenario>: adversary.n: n = 28 ... needs about 27 GB, 8.0 GB ...
        """
        rounds = self.rounds if rounds is None else rounds
        declared = {}
        for role in ("learner", "adversary"):  # the tables as written: no data file is read
            table = dict(self.spec[role])
            try:
                declared[role] = (lookup(table.pop("name", None), role), table)
            except (UnknownPlayerError, TypeError):
                declared[role] = self.player_spec(role)  # raises, naming ROLE.name
        (learner, learner_params), (adversary, adversary_params) = declared.values()
        found = estimate(learner, learner_params, adversary, adversary_params, rounds=rounds)
        if keep is None:
            choose_keep(found, available=available, folder=folder, where=str(self.source))
            return found
        return check_fits(
            found, available=available, where=str(self.source), keep=keep, folder=folder
        )

    def build(self, seed: int | None = None) -> tuple[Any, Any]:
        """The learner and the adversary, with generators from ``SeedSequence(seed).spawn(2)``.

        Raises
        ------
        ScenarioError
            Naming ``learner.name`` when the learner plays no kind of instance
            the adversary presents (:func:`game.players.kinds_clash`).
        """
        seed = self.seed if seed is None else check_integer("seed", seed, low=0)
        children = np.random.SeedSequence(seed).spawn(2)
        learner = self.build_player("learner", np.random.default_rng(children[0]))
        adversary = self.build_player("adversary", np.random.default_rng(children[1]))
        clash = kinds_clash(learner, adversary)
        if clash is not None:  # refused before round 1, naming both players
            raise self._fail("learner.name", clash)
        return learner, adversary

    def build_player(self, role: str, rng: np.random.Generator) -> Any:
        """One player of the scenario, with what it declares the scenario supplies.

        Its generator parameter gets ``rng``, its loss parameter the scenario's
        loss and its concept-class parameter the ``[concept_class]`` table's
        class; the others come from its table. A :class:`ParameterError` from
        the constructor becomes a :class:`ScenarioError` naming
        ``ROLE.PARAMETER``.
        """
        cls, kwargs = self.player_spec(role)
        for name, what in self._supplied(cls).items():
            if what == "rng":
                kwargs[name] = rng
            elif what == "loss":
                kwargs[name] = self.loss
            else:
                kwargs[name] = self.concept_class()
        params = parameters(cls)
        for p in params:
            if not p["required"] or p["name"] in kwargs:
                continue
            if p["supplied"] == "concept_class":
                raise self._fail(
                    f"{role}.{p['name']}",
                    "this player needs a finite class: add a [concept_class] table",
                )
            raise self._fail(
                f"{role}.{p['name']}",
                "missing; give it in the player's table, or, if the scenario supplies it "
                "(its generator, loss or concept class), declare it so (rng_field, loss_field, "
                f"concept_class_field, or {SUPPLIES_ATTRIBUTE} on a plain class)",
            )
        try:
            return cls(**kwargs)
        except ParameterError as exc:
            known = any(p["name"] == exc.parameter for p in params)
            key = f"{role}.{exc.parameter}" if known else role
            filled = self.spec[role].get(exc.parameter) if known else None
            if isinstance(filled, str) and kwargs.get(exc.parameter) is not filled:
                # filled from a data file: the error names the file, never its content
                message = f"{exc.parameter} must be {exc.expected}, got the data file {filled!r}"
                raise self._fail(key, f"{message} ({exc.note})" if exc.note else message) from None
            raise self._fail(key, str(exc)) from None
        except Exception as exc:  # a user's constructor: its message, under the role
            raise self._fail(role, str(exc) or type(exc).__name__) from None

    def play(
        self,
        *,
        seed: int | None = None,
        rounds: int | None = None,
        out: Any = None,
        overwrite: bool = True,
        snapshots: bool | None = None,
        check: bool = True,
        progress: Any = None,
        keep: str | None = None,
        trace: Any = None,
    ) -> Transcript:
        """Play the scenario and check ``[expect]``.

        Parameters
        ----------
        seed, rounds : int, optional
            Override the scenario's; exact expectations are then skipped.
        out : path-like, optional
            Stream the transcript to this file.
        overwrite : bool, default True
            Whether the game's file replaces an existing ``out``, as :func:`game.play` takes it.
        snapshots : bool, optional
            Override the scenario's ``snapshots``.
        check : bool, default True
            Raise :class:`ExpectationError` when an expectation fails.
        progress : bool or callable, optional
            The progress display while the game runs, as :func:`game.play` takes it
            (True: the default bar; a callable ``progress(done, rounds)``, with a
            ``step`` method to show the steps of the game's end).
        keep : {"memory", "disk"}, optional
            Where the game keeps its rounds, as :func:`game.play` takes it. By
            default on disk when the record of its rounds would take more than
            half the available memory (:func:`game.players.choose_keep`), else
            in memory.
        trace : callable, optional
            Called as ``trace(round, mistakes)`` after every round, as :func:`game.play` takes it.
        """
        if seed is not None:
            seed = check_integer("seed", seed, low=0)
        if rounds is not None:
            rounds = check_integer("rounds", rounds, low=0, high=MAX_ROUNDS)
        if snapshots is not None:
            snapshots = check_choice("snapshots", snapshots, (False, True))
        check = check_choice("check", check, (False, True))
        if keep is not None:
            keep = check_choice("keep", keep, KEEP)
        folder = None
        if isinstance(out, str | os.PathLike):  # anything else is refused by play, naming out
            folder = os.path.dirname(os.path.abspath(out))
        found = self.estimate(rounds, keep=keep, folder=folder)  # refused before anything is built
        if keep is None:
            keep = choose_keep(found, folder=folder)
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
            overwrite=overwrite,
            meta=meta,
            progress=progress,
            keep=keep,
            trace=trace,
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
        if "forced" in expect and s["forced"] != expect["forced"]:
            lower = transcript.lower_bound
            shown = "no lower bound" if lower is None else f"{lower.quantity} ≥ {lower.value:g}"
            if lower is not None and not lower.applies:
                shown += f", not applicable: {lower.reason}"
            failures.append(f"expected forced = {expect['forced']}, got {s['forced']} ({shown})")
        return failures

    def _repr_html_(self) -> str:
        """The scenario as a table (for Jupyter): its game, players and expectations."""
        from game.viz import scenario_html

        return scenario_html(self)
