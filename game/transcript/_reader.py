"""Reading JSON Lines transcripts back, line by line, with errors that name the line.

:func:`read_transcript` checks every line and returns what a
:class:`~game.transcript.Transcript` is built from: its constructor's
arguments, and the digest the footer recorded, which
:meth:`game.transcript.Transcript.load` checks against the rounds (see that
method for the contract).

Examples
--------
>>> import json, tempfile
>>> from pathlib import Path
>>> from game.transcript import FORMAT, VERSION
>>> lines = [{"type": "header", "format": FORMAT, "version": VERSION, "loss": "zero-one"},
...          {"t": 1, "x": [1.0, 0.0], "p": 0.0, "y": 1, "updated": False}]
>>> with tempfile.TemporaryDirectory() as folder:
...     path = Path(folder) / "cut.jsonl"
...     _ = path.write_text("".join(json.dumps(line) + "\\n" for line in lines))
...     read = read_transcript(path, allow_incomplete=True)
>>> read.fields["status"], read.fields["labels"].tolist(), read.digest
('incomplete', [1], None)
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from game.errors import GameError, TranscriptError
from game.theory import (
    LOSSES,
    MAX_DEPTH,
    MAX_LINE_BYTES,
    certificate_from_dict,
    input_lines,
    nesting_depth,
    refusal,
)
from game.theory.bounds import Bound
from game.transcript._format import FORMAT, VERSION

__all__ = ["RECOMPUTED", "TranscriptFile", "read_transcript", "shown"]


@attrs.frozen
class TranscriptFile:
    """What a transcript file holds, each line checked.

    Attributes
    ----------
    fields : dict
        The :class:`~game.transcript.Transcript` constructor's keyword arguments.
    digest : str or None
        The digest the footer recorded (None when the file has no footer).
    footer : str or None
        Where the footer is, as ``path:line``, for an error about it.
    recorded : dict
        What the footer claims that a reader recomputes: ``mistakes``,
        ``updates``, ``loss``, ``certificate_verified`` (as written).
    """

    fields: dict[str, Any]
    digest: str | None = None
    footer: str | None = None
    recorded: dict[str, Any] = attrs.field(factory=dict)


def shown(value: Any) -> str:
    """A value of a line as an error shows it: a number or a literal, else only its type.

    A string, a list or an object is named by its type and size, never
    echoed: the file may not be a transcript at all, and what it holds is not
    repeated in an error.

    Examples
    --------
    >>> shown(1.5), shown(True), shown(None), shown("db_password"), shown([1, 2]), shown(10**30)
    ('1.5', 'true', 'null', 'a string', 'a list of 2 items', 'an integer of 31 digits')
    """
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, int):
        digits = len(str(abs(value)))
        return str(value) if digits <= 20 else f"an integer of {digits} digits"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return f"a list of {len(value)} item{'s' if len(value) != 1 else ''}"
    if isinstance(value, dict):
        return "an object"
    return f"a {type(value).__name__}"


def _instance(value, where: str):
    """The instance of a round line: a number, a bool, or a rectangular array of them.

    A NaN or an infinity is kept: the referee records the round whose instance
    it refused, so an aborted game's last round may hold one (a
    :class:`~adversaries.Replay` of the transcript refuses it).
    """
    if isinstance(value, list):
        try:
            array = np.array(value)
        except (ValueError, OverflowError):
            array = None
        if array is not None and array.dtype.kind in "biuf":
            return array
    elif isinstance(value, bool | float) or (isinstance(value, int) and abs(value) < 2**63):
        return value
    raise TranscriptError(
        f"{where}: instance x must be a number or a rectangular array of numbers, "
        f"got {shown(value)}"
    )


def _is_number(value) -> bool:
    """A JSON number a float holds (an integer beyond the largest float is not one)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return isinstance(value, float) or abs(value) < 2**1023


def _check_round(obj: dict, expected_t: int, where: str) -> None:
    if not isinstance(obj, dict):
        raise TranscriptError(f"{where}: expected a round object, got {shown(obj)}")
    missing = [k for k in ("t", "x", "p", "y", "updated") if k not in obj]
    if missing:
        raise TranscriptError(f"{where}: round line lacks {', '.join(missing)}")
    if obj["t"] != expected_t or isinstance(obj["t"], bool):
        raise TranscriptError(f"{where}: expected round {expected_t}, found t = {shown(obj['t'])}")
    p = obj["p"]
    if not _is_number(p) or not -1.0 <= p <= 1.0:
        raise TranscriptError(f"{where}: prediction p must be a number in [-1, 1], got {shown(p)}")
    if obj["y"] not in (-1, 1) or isinstance(obj["y"], bool | float):
        raise TranscriptError(f"{where}: label y must be -1 or 1, got {shown(obj['y'])}")
    if not isinstance(obj["updated"], bool):
        raise TranscriptError(
            f"{where}: updated must be true or false, got {shown(obj['updated'])}"
        )
    if "mistake" in obj and obj["mistake"] != ((p >= 0) != (obj["y"] > 0)):
        raise TranscriptError(f"{where}: mistake = {shown(obj['mistake'])} contradicts p and y")
    extras = obj.get("extras", {})
    if not isinstance(extras, dict) or not all(_is_number(v) for v in extras.values()):
        raise TranscriptError(f"{where}: extras must map names to numbers")
    if "snapshot" in obj and not isinstance(obj["snapshot"], dict):
        raise TranscriptError(f"{where}: snapshot must be an object")
    if "snapshot" in obj and nesting_depth(obj["snapshot"]) > MAX_DEPTH:
        raise TranscriptError(f"{where}: snapshot nested deeper than {MAX_DEPTH} levels")


def _parse(line: bytes, where: str):
    """The JSON value on one line."""
    try:
        return json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise TranscriptError(f"{where}: not a JSON line ({exc})") from None
    except RecursionError:
        raise TranscriptError(
            f"{where}: not a JSON line (arrays or objects nested too deep to read)"
        ) from None
    except ValueError:  # an integer of more digits than Python converts
        limit = sys.get_int_max_str_digits()
        raise TranscriptError(
            f"{where}: not a JSON line (an integer longer than {limit} digits)"
        ) from None


def _header(line: bytes, where: str) -> tuple[dict, dict | None]:
    """The header line, checked: the game's header fields and the initial snapshot (or None)."""
    header = _parse(line, where)
    if not isinstance(header, dict) or header.get("type") != "header":
        raise TranscriptError(f"{where}: expected a transcript header line")
    if header.get("format") != FORMAT:
        raise TranscriptError(f"{where}: format {header.get('format')!r} is not {FORMAT!r}")
    version = header.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise TranscriptError(
            f"{where}: transcript version: expected an integer version, got {shown(version)}"
        )
    if version > VERSION:
        raise TranscriptError(
            f"{where}: transcript version {version} is newer than {VERSION}, the newest this "
            "package reads"
        )
    if version < VERSION:
        raise TranscriptError(
            f"{where}: transcript version {version} is older than {VERSION}, the version this "
            "package reads (its digest is of an older form); re-run the game to record it again"
        )
    initial_snapshot = header.pop("initial_snapshot", None)
    for key in ("type", "format", "version"):
        header.pop(key, None)
    _check_header_entries(header, where)
    if initial_snapshot is not None and not isinstance(initial_snapshot, dict):
        raise TranscriptError(
            f"{where}: initial_snapshot: expected an object, got {shown(initial_snapshot)}"
        )
    return header, initial_snapshot


#: A header entry's expected JSON type, as an error says it.
_HEADER_TYPES = {
    "rounds": (int, "an integer ≥ 0"),
    "seed": (int, "an integer ≥ 0"),
    "loss": (str, "one of " + ", ".join(repr(name) for name in LOSSES)),
    "snapshots": (bool, "true or false"),
    "versions": (dict, "an object"),
    "scenario": (dict, "an object"),
}


def _check_header_entries(header: dict, where: str) -> None:
    """The header's entries that the reader and the replay use have their JSON types.

    ``learner`` and ``adversary`` are objects whose ``name`` is a string and
    whose ``params`` is an object; ``rounds`` and ``seed`` are integers ≥ 0;
    ``loss`` is a loss's name; ``scenario`` is an object whose ``path`` is a
    string and whose ``spec`` is an object; nothing nests deeper than
    :data:`game.theory.MAX_DEPTH`.
    """
    if nesting_depth(header) > MAX_DEPTH:
        raise TranscriptError(f"{where}: header nested deeper than {MAX_DEPTH} levels")
    for role in ("learner", "adversary"):
        if role not in header:
            continue
        entry = header[role]
        if not isinstance(entry, dict):
            raise TranscriptError(f"{where}: {role}: expected an object, got {shown(entry)}")
        if not isinstance(entry.get("name"), str):
            raise TranscriptError(
                f"{where}: {role}.name: expected a string, got {shown(entry.get('name'))}"
            )
        if not isinstance(entry.get("params", {}), dict):
            raise TranscriptError(
                f"{where}: {role}.params: expected an object, got {shown(entry['params'])}"
            )
    for key, (kind, expected) in _HEADER_TYPES.items():
        if key not in header:
            continue
        value = header[key]
        fits = isinstance(value, kind) and (kind is bool or not isinstance(value, bool))
        if kind is int:
            fits = fits and 0 <= value < 2**64
        if kind is str and key == "loss":
            fits = fits and value in LOSSES
        if not fits:
            raise TranscriptError(f"{where}: {key}: expected {expected}, got {shown(value)}")
    scenario = header.get("scenario", {})
    if "path" in scenario and not isinstance(scenario["path"], str):
        raise TranscriptError(
            f"{where}: scenario.path: expected a string, got {shown(scenario['path'])}"
        )
    if "spec" in scenario and not isinstance(scenario["spec"], dict):
        raise TranscriptError(
            f"{where}: scenario.spec: expected an object, got {shown(scenario['spec'])}"
        )


def _is_footer(obj) -> bool:
    return isinstance(obj, dict) and obj.get("type") == "footer"


@attrs.define
class _Rounds:
    """The round lines read so far, column by column; each line is checked as it is added.

    The first round fixes which extras and snapshot keys every later round must have.
    """

    instances: list = attrs.field(factory=list)
    predictions: list[float] = attrs.field(factory=list)
    labels: list[int] = attrs.field(factory=list)
    updated: list[bool] = attrs.field(factory=list)
    extras: dict[str, list] = attrs.field(factory=dict)
    snapshots: dict[str, list] | None = None

    def __len__(self) -> int:
        return len(self.labels)

    def add(self, obj, where: str) -> None:
        """Check one round line's object and append its values to the columns."""
        _check_round(obj, len(self) + 1, where)
        if self.labels:
            self._check_like_earlier(obj, where)
        else:
            self.extras = {k: [] for k in obj.get("extras", {})}
            self.snapshots = {k: [] for k in obj["snapshot"]} if "snapshot" in obj else None
        if self.snapshots is not None:
            if sorted(obj["snapshot"]) != sorted(self.snapshots):
                raise TranscriptError(f"{where}: snapshot keys differ from earlier rounds")
            for k, v in obj["snapshot"].items():
                self.snapshots[k].append(v)
        for k, v in obj.get("extras", {}).items():
            self.extras[k].append(v)
        self.instances.append(_instance(obj["x"], where))
        self.predictions.append(float(obj["p"]))
        self.labels.append(obj["y"])
        self.updated.append(obj["updated"])

    def _check_like_earlier(self, obj: dict, where: str) -> None:
        if sorted(obj.get("extras", {})) != sorted(self.extras):
            raise TranscriptError(f"{where}: extras keys differ from earlier rounds")
        if ("snapshot" in obj) != (self.snapshots is not None):
            raise TranscriptError(f"{where}: snapshot present on some rounds only")

    def fields(self) -> dict[str, Any]:
        """The Transcript constructor's round arguments."""
        return {
            "raw_instances": self.instances,
            "predictions": np.array(self.predictions, dtype=np.float64),
            "labels": np.array(self.labels, dtype=np.int8),
            "updated": np.array(self.updated, dtype=bool),
            "extras": {k: np.array(v, dtype=np.float64) for k, v in self.extras.items()},
            "snapshots": self.snapshots,
        }


def _unfinished(what: str, rounds: int) -> TranscriptError:
    """The error for a file whose game did not finish, saying what allow_incomplete keeps.

    Its ``unfinished`` attribute holds ``what`` and ``rounds``, so the command
    line can name its own flag (``--allow-incomplete``) instead.
    """
    error = TranscriptError(
        f"{what}: the game did not finish; "
        f"pass allow_incomplete=True to keep its {rounds} complete rounds"
    )
    error.unfinished = (what, rounds)
    return error


#: What a footer claims that a reader recomputes from the rounds.
RECOMPUTED = ("mistakes", "updates", "loss", "certificate_verified")


def _footer(foot: dict, where: str, rounds: int) -> tuple[dict[str, Any], str, dict[str, Any]]:
    """The footer line, checked: the Transcript arguments, the digest and the claims it holds."""
    fields: dict[str, Any] = {}
    try:
        fields["status"] = foot["status"]
        if fields["status"] not in ("complete", "aborted"):
            raise ValueError(f"status {fields['status']!r:.40} is not 'complete' or 'aborted'")
        fields["reason"] = foot.get("reason")
        wall_time = float(foot.get("wall_time") or 0.0)
        fields["wall_time"] = wall_time if math.isfinite(wall_time) else 0.0
        if foot.get("certificate") is not None:
            fields["certificate"] = certificate_from_dict(foot["certificate"])
        if foot.get("bound") is not None:
            fields["bound"] = Bound.from_dict(foot["bound"])
        if foot.get("lower_bound") is not None:
            fields["lower_bound"] = Bound.from_dict(foot["lower_bound"])
        recorded_rounds, recorded_digest = foot["rounds"], foot["digest"]
    except (KeyError, TypeError, ValueError, OverflowError, GameError) as exc:
        raise TranscriptError(f"{where}: malformed footer ({exc})") from None
    if recorded_rounds != rounds:
        raise TranscriptError(
            f"{where}: footer says {shown(recorded_rounds)} rounds, the file holds {rounds}"
        )
    return fields, recorded_digest, {k: foot[k] for k in RECOMPUTED if k in foot}


def read_transcript(path: Path, *, allow_incomplete: bool = False) -> TranscriptFile:
    """Read ``path`` line by line into what a Transcript is built from.

    Raises
    ------
    TranscriptError
        Naming the file and line: see :meth:`game.transcript.Transcript.load`.
    """
    fail = refusal(TranscriptError, path)

    def unreadable(problem: str) -> TranscriptError:
        return fail(f"cannot read the transcript: {problem}")

    lines = input_lines(path, limit=MAX_LINE_BYTES, fail=unreadable)
    first = next(lines, None)
    if first is None:
        raise fail("empty file; expected a transcript header on line 1")
    header, initial_snapshot = _header(first[1], f"{path}:1")
    rounds = _Rounds()
    footer = None  # (where, the footer's object) once it is read
    last = 1
    for number, line, ended in lines:
        last = number
        where = f"{path}:{number}"
        if footer is not None:
            raise TranscriptError(f"{where}: content after the footer")
        try:
            obj = _parse(line, where)
        except TranscriptError:
            if ended:  # only the last line can lack its newline: a run that died
                raise
            if allow_incomplete:
                break
            raise _unfinished(f"{where}: the last line is cut short", len(rounds)) from None
        if _is_footer(obj):
            if nesting_depth(obj) > MAX_DEPTH:
                raise TranscriptError(f"{where}: footer nested deeper than {MAX_DEPTH} levels")
            footer = (where, obj)
        else:
            rounds.add(obj, where)

    fields: dict[str, Any] = {
        "header": header,
        **rounds.fields(),
        "initial_snapshot": initial_snapshot,
        "status": "incomplete",
    }
    if footer is None:
        if not allow_incomplete:
            raise _unfinished(f"{path}: no footer after line {last}", len(rounds))
        return TranscriptFile(fields)
    where, foot = footer
    footer_fields, digest, recorded = _footer(foot, where, len(rounds))
    return TranscriptFile({**fields, **footer_fields}, digest, where, recorded)
