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

__all__ = ["TranscriptFile", "read_transcript"]


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
    """

    fields: dict[str, Any]
    digest: str | None = None
    footer: str | None = None


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


def read_transcript(path: Path, *, allow_incomplete: bool = False) -> TranscriptFile:
    """Read ``path`` line by line into what a Transcript is built from.

    Raises
    ------
    TranscriptError
        Naming the file and line: see :meth:`game.transcript.Transcript.load`.
    """
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

    def parse(i: int):
        try:
            return json.loads(lines[i].decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise TranscriptError(f"{path}:{i + 1}: not a JSON line ({exc})") from None

    header = parse(0)
    if not isinstance(header, dict) or header.get("type") != "header":
        raise TranscriptError(f"{path}:1: expected a transcript header line")
    if header.get("format") != FORMAT:
        raise TranscriptError(f"{path}:1: format {header.get('format')!r} is not {FORMAT!r}")
    if not isinstance(header.get("version"), int) or header["version"] > VERSION:
        raise TranscriptError(
            f"{path}:1: transcript version {header.get('version')!r} is newer than {VERSION}"
        )
    initial_snapshot = header.pop("initial_snapshot", None)
    for key in ("type", "format", "version"):
        header.pop(key, None)

    instances, predictions, labels, updated = [], [], [], []
    extras: dict[str, list] = {}
    snapshots: dict[str, list] | None = None
    footer = None
    last = len(lines) - 1
    for i in range(1, len(lines)):
        where = f"{path}:{i + 1}"
        if footer is not None:
            raise TranscriptError(f"{where}: content after the footer")
        try:
            obj = parse(i)
        except TranscriptError:
            if i == last and torn:
                if allow_incomplete:
                    break
                raise TranscriptError(
                    f"{where}: the last line is cut short: the game did not finish; "
                    f"pass allow_incomplete=True to keep its {len(labels)} complete rounds"
                ) from None
            raise
        if isinstance(obj, dict) and obj.get("type") == "footer":
            footer = (i + 1, obj)
            continue
        _check_round(obj, len(labels) + 1, where)
        if labels:
            if sorted(obj.get("extras", {})) != sorted(extras):
                raise TranscriptError(f"{where}: extras keys differ from earlier rounds")
            if ("snapshot" in obj) != (snapshots is not None):
                raise TranscriptError(f"{where}: snapshot present on some rounds only")
        else:
            extras = {k: [] for k in obj.get("extras", {})}
            snapshots = {k: [] for k in obj["snapshot"]} if "snapshot" in obj else None
        if snapshots is not None:
            if sorted(obj["snapshot"]) != sorted(snapshots):
                raise TranscriptError(f"{where}: snapshot keys differ from earlier rounds")
            for k, v in obj["snapshot"].items():
                snapshots[k].append(v)
        for k, v in obj.get("extras", {}).items():
            extras[k].append(v)
        instances.append(_instance(obj["x"], where))
        predictions.append(float(obj["p"]))
        labels.append(obj["y"])
        updated.append(obj["updated"])

    fields: dict[str, Any] = {
        "header": header,
        "raw_instances": instances,
        "predictions": np.array(predictions, dtype=np.float64),
        "labels": np.array(labels, dtype=np.int8),
        "updated": np.array(updated, dtype=bool),
        "extras": {k: np.array(v, dtype=np.float64) for k, v in extras.items()},
        "snapshots": snapshots,
        "initial_snapshot": initial_snapshot,
        "status": "incomplete",
    }
    if footer is None:
        if not allow_incomplete:
            raise TranscriptError(
                f"{path}: no footer after line {len(lines)}: the game did not finish; "
                f"pass allow_incomplete=True to keep its {len(labels)} complete rounds"
            )
        return TranscriptFile(fields)
    line_no, foot = footer
    where = f"{path}:{line_no}"
    try:
        fields["status"] = foot["status"]
        fields["reason"] = foot.get("reason")
        wall_time = float(foot.get("wall_time") or 0.0)
        fields["wall_time"] = wall_time if math.isfinite(wall_time) else 0.0
        if foot.get("certificate") is not None:
            fields["certificate"] = certificate_from_dict(foot["certificate"])
        fields["certificate_verified"] = foot.get("certificate_verified")
        if foot.get("bound") is not None:
            fields["bound"] = Bound.from_dict(foot["bound"])
        if foot.get("lower_bound") is not None:
            fields["lower_bound"] = Bound.from_dict(foot["lower_bound"])
        recorded_rounds, recorded_digest = foot["rounds"], foot["digest"]
    except (KeyError, TypeError, ValueError, GameError) as exc:
        raise TranscriptError(f"{where}: malformed footer ({exc})") from None
    if recorded_rounds != len(labels):
        raise TranscriptError(
            f"{where}: footer says {recorded_rounds} rounds, the file holds {len(labels)}"
        )
    return TranscriptFile(fields, recorded_digest, where)
