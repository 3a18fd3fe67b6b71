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
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from game.errors import GameError, TranscriptError
from game.theory import certificate_from_dict
from game.theory.bounds import Bound
from game.transcript._format import FORMAT, VERSION

__all__ = ["RECOMPUTED", "TranscriptFile", "read_transcript"]


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


def _instance(value, where: str):
    """The instance of a round line: a number, a bool, or a rectangular array of them."""
    if isinstance(value, list):
        try:
            array = np.array(value)
        except ValueError:
            array = None
        if array is not None and array.dtype.kind in "biuf":
            return array
    elif isinstance(value, int | float):
        return value
    raise TranscriptError(
        f"{where}: instance x must be a number or a rectangular array of numbers, got {value!r:.80}"
    )


def _is_number(value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _check_round(obj: dict, expected_t: int, where: str) -> None:
    if not isinstance(obj, dict):
        raise TranscriptError(f"{where}: expected a round object, got {type(obj).__name__}")
    missing = [k for k in ("t", "x", "p", "y", "updated") if k not in obj]
    if missing:
        raise TranscriptError(f"{where}: round line lacks {', '.join(missing)}")
    if obj["t"] != expected_t or isinstance(obj["t"], bool):
        raise TranscriptError(f"{where}: expected round {expected_t}, found t = {obj['t']!r}")
    p = obj["p"]
    if not _is_number(p) or not -1.0 <= p <= 1.0:
        raise TranscriptError(f"{where}: prediction p must be a number in [-1, 1], got {p!r}")
    if obj["y"] not in (-1, 1) or isinstance(obj["y"], bool | float):
        raise TranscriptError(f"{where}: label y must be -1 or 1, got {obj['y']!r}")
    if not isinstance(obj["updated"], bool):
        raise TranscriptError(f"{where}: updated must be true or false, got {obj['updated']!r}")
    if "mistake" in obj and obj["mistake"] != ((p >= 0) != (obj["y"] > 0)):
        raise TranscriptError(f"{where}: mistake = {obj['mistake']!r} contradicts p and y")
    extras = obj.get("extras", {})
    if not isinstance(extras, dict) or not all(_is_number(v) for v in extras.values()):
        raise TranscriptError(f"{where}: extras must map names to numbers")
    if "snapshot" in obj and not isinstance(obj["snapshot"], dict):
        raise TranscriptError(f"{where}: snapshot must be an object")


def _lines(path: Path) -> tuple[list[bytes], bool]:
    """The file's lines without their newlines, and whether the last one is torn (has none)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise TranscriptError(f"{path}: cannot read the transcript: {exc.strerror}") from None
    lines = data.split(b"\n")
    torn = not data.endswith(b"\n")  # the last element is a partial line (or b"")
    if lines and lines[-1] == b"":
        lines.pop()
        torn = False
    if not lines:
        raise TranscriptError(f"{path}: empty file; expected a transcript header on line 1")
    return lines, torn


def _parse(line: bytes, where: str):
    """The JSON value on one line."""
    try:
        return json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise TranscriptError(f"{where}: not a JSON line ({exc})") from None


def _header(line: bytes, where: str) -> tuple[dict, dict | None]:
    """The header line, checked: the game's header fields and the initial snapshot (or None)."""
    header = _parse(line, where)
    if not isinstance(header, dict) or header.get("type") != "header":
        raise TranscriptError(f"{where}: expected a transcript header line")
    if header.get("format") != FORMAT:
        raise TranscriptError(f"{where}: format {header.get('format')!r} is not {FORMAT!r}")
    version = header.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise TranscriptError(f"{where}: transcript version must be an integer, got {version!r}")
    if version > VERSION:
        raise TranscriptError(
            f"{where}: transcript version {version} is newer than {VERSION}, the newest this "
            "package reads"
        )
    if version < VERSION:
        raise TranscriptError(
            f"{where}: transcript version {version} is older than {VERSION}, the version this "
            "package reads (its digest covers less); re-run the game to record it again"
        )
    initial_snapshot = header.pop("initial_snapshot", None)
    for key in ("type", "format", "version"):
        header.pop(key, None)
    return header, initial_snapshot


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
    """The error for a file whose game did not finish, saying what allow_incomplete keeps."""
    return TranscriptError(
        f"{what}: the game did not finish; "
        f"pass allow_incomplete=True to keep its {rounds} complete rounds"
    )


#: What a footer claims that a reader recomputes from the rounds.
RECOMPUTED = ("mistakes", "updates", "loss", "certificate_verified")


def _footer(foot: dict, where: str, rounds: int) -> tuple[dict[str, Any], str, dict[str, Any]]:
    """The footer line, checked: the Transcript arguments, the digest and the claims it holds."""
    fields: dict[str, Any] = {}
    try:
        fields["status"] = foot["status"]
        if fields["status"] not in ("complete", "aborted"):
            raise ValueError(f"status {fields['status']!r} is not 'complete' or 'aborted'")
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
    except (KeyError, TypeError, ValueError, GameError) as exc:
        raise TranscriptError(f"{where}: malformed footer ({exc})") from None
    if recorded_rounds != rounds:
        raise TranscriptError(
            f"{where}: footer says {recorded_rounds} rounds, the file holds {rounds}"
        )
    return fields, recorded_digest, {k: foot[k] for k in RECOMPUTED if k in foot}


def read_transcript(path: Path, *, allow_incomplete: bool = False) -> TranscriptFile:
    """Read ``path`` line by line into what a Transcript is built from.

    Raises
    ------
    TranscriptError
        Naming the file and line: see :meth:`game.transcript.Transcript.load`.
    """
    lines, torn = _lines(path)
    header, initial_snapshot = _header(lines[0], f"{path}:1")
    rounds = _Rounds()
    footer = None  # (where, the footer's object) once it is read
    for number, line in enumerate(lines[1:], start=2):
        where = f"{path}:{number}"
        if footer is not None:
            raise TranscriptError(f"{where}: content after the footer")
        try:
            obj = _parse(line, where)
        except TranscriptError:
            if not (torn and number == len(lines)):
                raise
            if allow_incomplete:
                break
            raise _unfinished(f"{where}: the last line is cut short", len(rounds)) from None
        if _is_footer(obj):
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
            raise _unfinished(f"{path}: no footer after line {len(lines)}", len(rounds))
        return TranscriptFile(fields)
    where, foot = footer
    footer_fields, digest, recorded = _footer(foot, where, len(rounds))
    return TranscriptFile({**fields, **footer_fields}, digest, where, recorded)
