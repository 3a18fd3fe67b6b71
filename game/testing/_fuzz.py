"""Malformed scenario files and damaged transcripts, generated on purpose.

The referee must refuse every one of them with the right error. Each
generator is driven by a ``numpy.random.Generator`` (so ``python -m game
selfcheck`` can run a seeded pass without test dependencies) and returns the
damaged input together with what the refusal must name.

- :func:`malformed_scenario` mutates a valid scenario (from ``scenarios/`` or
  a built-in one) in one way known to be invalid: a missing key or table, a
  wrong type, an unknown key, an absurd value (negative rounds, margin ≤ 0,
  NaN, 10¹² experts or dimensions, a huge array), a bad or escaping data path,
  a player named by module path. It returns the TOML text and the dotted key
  the :class:`~game.errors.ScenarioError` must name.
- :func:`damaged_transcript` truncates a transcript file at a byte offset or
  corrupts one of its lines, and says which outcome is right.

Examples
--------
>>> import numpy as np, tomllib
>>> from game.testing._fuzz import BASE_SCENARIO, malformed_scenario, to_toml
>>> tomllib.loads(to_toml(BASE_SCENARIO))["adversary"]["name"]
'separable-stream'
>>> text, key = malformed_scenario(np.random.default_rng(3))
>>> isinstance(text, str) and isinstance(key, str)
True
"""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from game.errors import GameError, ScenarioError, TranscriptError

__all__ = [
    "BASE_SCENARIO",
    "FORBIDDEN_NAMES",
    "check_scenario_refused",
    "check_transcript_refused",
    "damaged_transcript",
    "malformed_scenario",
    "to_toml",
]

#: A valid scenario the mutations start from when no other is given.
BASE_SCENARIO: dict[str, Any] = {
    "description": "fuzz base",
    "rounds": 20,
    "seed": 1,
    "loss": "zero-one",
    "learner": {"name": "perceptron", "zero_label": 1},
    "adversary": {"name": "separable-stream", "dimension": 4, "margin": 0.2, "radius": 1.0},
    "expect": {"within_bound": True},
}

#: Player names that look like code: never importable from a scenario.
FORBIDDEN_NAMES = (
    "os:system",
    "subprocess:Popen",
    "builtins:eval",
    "game.engine:play",
    "learners.perceptron.Perceptron",
    "__import__",
)

_WRONG_VALUES: tuple[Any, ...] = (
    "ten",
    True,
    [1, 2],
    {"a": 1},
    1.5,
    -7,
)
_ABSURD: tuple[Any, ...] = (math.nan, math.inf, -math.inf, -1, 0, -(10**12), 10**12)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return (
            "{" + ", ".join(f"{json.dumps(k)} = {_toml_value(v)}" for k, v in value.items()) + "}"
        )
    raise TypeError(f"cannot write {type(value).__name__} as TOML")


def to_toml(spec: dict[str, Any]) -> str:
    """A TOML document for a scenario dict (top-level keys, then one table per dict).

    Examples
    --------
    >>> print(to_toml({"rounds": 3, "learner": {"name": "perceptron"}}))
    rounds = 3
    <BLANKLINE>
    [learner]
    name = "perceptron"
    <BLANKLINE>
    """
    lines = [
        f"{json.dumps(k) if not k.isidentifier() else k} = {_toml_value(v)}"
        for k, v in spec.items()
        if not isinstance(v, dict)
    ]
    for key, table in spec.items():
        if isinstance(table, dict):
            lines.append("")
            lines.append(f"[{key}]")
            for k, v in table.items():
                lines.append(f"{json.dumps(k) if not k.isidentifier() else k} = {_toml_value(v)}")
    return "\n".join(lines) + "\n"


def _pick(rng, items):
    """One of ``items``: drawn by a Generator, or chosen by a callable (``choose(items)``)."""
    items = list(items)
    if callable(rng):
        return rng(items)
    return items[int(rng.integers(len(items)))]


def malformed_scenario(rng, base: dict[str, Any] | None = None) -> tuple[str, str]:
    """One malformed scenario: its TOML text and the key its error must name.

    Parameters
    ----------
    rng : numpy.random.Generator or callable
        Chooses the mutation: a Generator draws it, a callable ``choose(items)``
        picks each choice (a hypothesis test passes ``data.draw`` of
        ``sampled_from``, so failures shrink).
    base : dict, optional
        A valid scenario to mutate (default ``BASE_SCENARIO``).
    """
    spec = copy.deepcopy(base if base is not None else BASE_SCENARIO)
    mutate = _MUTATIONS[_pick(rng, _MUTATIONS)]
    key = mutate(rng, spec)
    return to_toml(spec), key


# Each mutation changes ``spec`` in place, choosing with ``rng`` through
# :func:`_pick`, and returns the key the ScenarioError must name. A Generator
# picks by position, so the order of each list and table below, and the order
# of the picks, are part of what a seed draws.


def _drop_required(rng, spec: dict[str, Any]) -> str:
    """A required key or table left out."""
    key = _pick(rng, ["rounds", "learner", "adversary", "learner.name", "adversary.name"])
    if "." in key:
        table, k = key.split(".")
        del spec[table][k]
    else:
        del spec[key]
    return key


#: The type each top-level key must have.
_TYPES: dict[str, type] = {
    "rounds": int,
    "seed": int,
    "loss": str,
    "description": str,
    "snapshots": bool,
    "learner": dict,
    "adversary": dict,
    "expect": dict,
}


def _wrong_type(rng, spec: dict[str, Any]) -> str:
    """A top-level key given a value of another type."""
    key = _pick(rng, _TYPES)
    spec[key] = _pick(rng, [v for v in _WRONG_VALUES if not _same_kind(v, _TYPES[key])])
    return key


def _unknown_key(rng, spec: dict[str, Any]) -> str:
    """A key no scenario has, at the top or in a table."""
    where = _pick(rng, ["", "learner", "adversary", "expect"])
    name = _pick(rng, ["rnds", "margn", "colour", "extra", "__class__", "import"])
    if where:
        spec.setdefault(where, {})[name] = 1
        return f"{where}.{name}"
    spec[name] = 1
    return name


#: Top-level values of the right type that no game can have.
_ABSURD_TOP: tuple[tuple[str, Any], ...] = (
    ("rounds", -1),
    ("rounds", -(10**12)),
    ("rounds", 10**12),
    ("seed", -3),
    ("loss", "hinge"),
    ("loss", ""),
)


def _absurd_top(rng, spec: dict[str, Any]) -> str:
    """An absurd top-level value: negative or 10¹² rounds, a negative seed, an unknown loss."""
    key, value = _pick(rng, _ABSURD_TOP)
    spec[key] = value
    return key


def _absurd_parameter(rng, spec: dict[str, Any]) -> str:
    """An absurd value for one of a player's numeric parameters (NaN, ±inf, ±10¹², 0, -1)."""
    role = _pick(rng, ["learner", "adversary"])
    params = [
        k
        for k, v in spec[role].items()
        if k != "name" and isinstance(v, int | float) and not isinstance(v, bool)
    ]
    if not params:
        spec[role]["nonexistent"] = math.nan
        return f"{role}.nonexistent"
    key = _pick(rng, params)
    value = _pick(rng, [v for v in _ABSURD if _absurd_for(key, v)])
    spec[role][key] = value
    if value in (0, -1):  # may be refused through another parameter it makes impossible
        return f"{role}."
    return f"{role}.{key}"


def _bad_name(rng, spec: dict[str, Any]) -> str:
    """A player named by module path, misspelt, empty or by its class name."""
    role = _pick(rng, ["learner", "adversary"])
    spec[role]["name"] = _pick(rng, [*FORBIDDEN_NAMES, "perceptorn", "", "Perceptron"])
    return f"{role}.name"


#: Transcript paths a replay adversary may not read: absolute, escaping, missing, not JSON Lines.
_BAD_PATHS = (
    "/etc/passwd",
    "../../outside.jsonl",
    "missing/never.jsonl",
    "data/x.txt",
    "../scenarios/../../x.jsonl",
)


def _bad_path(rng, spec: dict[str, Any]) -> str:
    """A replay adversary given a transcript path it may not read."""
    spec["adversary"] = {"name": "replay", "transcript": _pick(rng, _BAD_PATHS)}
    return "adversary.transcript"


def _huge_array(rng, spec: dict[str, Any]) -> str:
    """An adversary parameter given an array far larger than any scenario needs."""
    size = int(_pick(rng, [10_000, 200_000]))
    spec["adversary"] = dict(BASE_SCENARIO["adversary"])
    spec["adversary"]["direction"] = [1.0] * size
    return "adversary"


#: Values of the wrong type or sign for each ``[expect]`` key.
_BAD_EXPECTATIONS: dict[str, tuple[Any, ...]] = {
    "mistakes": ("3", -1, 2.5),
    "digest": ("md5:0", 7),
    "within_bound": ("yes", 1),
}


def _bad_expect(rng, spec: dict[str, Any]) -> str:
    """A bad value for an ``[expect]`` key, or a key ``[expect]`` does not have."""
    key = _pick(rng, [*_BAD_EXPECTATIONS, "surprise"])
    # a value is drawn for every key, whichever was picked: the draws after it depend on that
    values = {k: _pick(rng, bad) for k, bad in _BAD_EXPECTATIONS.items()}
    spec.setdefault("expect", {})[key] = values.get(key, 1)
    return f"expect.{key}"


#: The families of mutation, by name; :func:`malformed_scenario` picks one.
_MUTATIONS: dict[str, Callable[[Any, dict[str, Any]], str]] = {
    "missing": _drop_required,
    "wrong_type": _wrong_type,
    "unknown_key": _unknown_key,
    "absurd_top": _absurd_top,
    "absurd_param": _absurd_parameter,
    "bad_name": _bad_name,
    "bad_path": _bad_path,
    "huge_array": _huge_array,
    "bad_expect": _bad_expect,
}


def _same_kind(value: Any, kind: type) -> bool:
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, kind)


#: Parameters that size a game: 10¹² of them is absurd.
_SIZES = ("dimension", "experts", "n", "points", "length", "size", "hypotheses")


def _absurd_for(key: str, value: Any) -> bool:
    """Values that are invalid for the numeric parameter named ``key``.

    NaN, ±inf and -10¹² are refused by every numeric parameter; 10¹², 0 and -1
    only by the parameters that size a game.
    """
    if isinstance(value, float) and not math.isfinite(value):
        return True
    if value == -(10**12):
        return True
    return key in _SIZES and value in (10**12, 0, -1)


def check_scenario_refused(text: str, key: str, folder: Path) -> str | None:
    """Write ``text`` into ``folder`` and check that loading and building it is refused.

    Returns None when a :class:`ScenarioError` naming ``key`` was raised before
    any game started, else a sentence saying what happened instead.
    """
    from game.scenario import load_scenario

    path = Path(folder) / "fuzzed.toml"
    path.write_text(text, encoding="utf-8")
    try:
        scenario = load_scenario(path)
        scenario.build()
    except ScenarioError as exc:
        if key not in str(exc):
            return f"ScenarioError does not name {key!r}: {exc}"
        return None
    except Exception as exc:
        return f"{type(exc).__name__} instead of ScenarioError: {exc}"
    return f"accepted a malformed scenario (key {key!r})"


def damaged_transcript(rng: np.random.Generator, data: bytes) -> tuple[bytes, str, int | None]:
    """A damaged copy of a transcript file's bytes and the right outcome.

    Returns ``(damaged, how, rounds)``: ``how`` is ``"incomplete"`` for a file
    cut short (an error by default; with ``allow_incomplete=True`` exactly
    ``rounds`` complete rounds are recovered), ``"no header"`` for a file cut
    inside its first line and ``"corrupt"`` for a damaged line (both always a
    TranscriptError), or ``"complete"`` when only the final newline was cut.
    """
    lines = data.split(b"\n")[:-1]
    if rng.random() < 0.5:
        cut = int(rng.integers(0, len(data)))
        damaged = data[:cut]
        complete = len(damaged.split(b"\n")) - 1  # the lines that end in a newline
        if data[cut : cut + 1] == b"\n":
            complete += 1  # cut just before a newline: the last line is whole
        if complete == 0:
            return damaged, "no header", None
        if complete == len(lines):  # only the final newline was cut
            return damaged, "complete", len(lines) - 2
        return damaged, "incomplete", complete - 1
    i = int(rng.integers(1, len(lines) - 1))  # a round line
    line = json.loads(lines[i])
    field = _pick(rng, ["t", "p", "y", "updated", "mistake", "json"])
    if field == "json":
        lines[i] = lines[i][: max(1, len(lines[i]) // 2)]
    else:
        line[field] = {
            "t": line["t"] + 5,
            "p": 3.0,
            "y": 0,
            "updated": "yes",
            "mistake": not line.get("mistake", False),
        }[field]
        lines[i] = json.dumps(line).encode()
    return b"\n".join(lines) + b"\n", "corrupt", None


def check_transcript_refused(
    damaged: bytes, how: str, rounds: int | None, folder: Path
) -> str | None:
    """Check :meth:`Transcript.load` on a damaged file; None when its answer is right."""
    from game.transcript import Transcript

    path = Path(folder) / "damaged.jsonl"
    path.write_bytes(damaged)
    try:
        Transcript.load(path)
    except TranscriptError as exc:
        if how == "complete":
            return f"refused an intact file: {exc}"
        if str(path) not in str(exc):
            return f"TranscriptError does not name the file: {exc}"
    except Exception as exc:
        return f"{type(exc).__name__} instead of TranscriptError: {exc}"
    else:
        if how != "complete":
            return f"accepted a {how} file"
    if how == "no header":
        try:
            Transcript.load(path, allow_incomplete=True)
        except TranscriptError:
            return None
        return "allow_incomplete accepted a file without a whole header"
    if how == "incomplete":
        try:
            got = Transcript.load(path, allow_incomplete=True)
        except GameError as exc:
            return f"allow_incomplete refused a cut file: {exc}"
        if len(got) != rounds:
            return f"allow_incomplete recovered {len(got)} rounds, expected {rounds}"
    return None
