"""Hostile and careless input files: each refused with one line naming the file and the problem.

Scenario files, the data files they name (``.npy``, ``.csv``, ``.jsonl``),
class files and transcripts are read through :mod:`game.theory`'s safe reader:
anything that is not a regular file is refused before it is opened, sizes are
checked before reading, a ``.npy`` header is judged before its data is read,
every number must be finite, and an error names the row and column of a data
file, never what the file holds. The cases that could hang or exhaust memory
if the refusal failed (a FIFO, ``/dev/zero``) run in a subprocess under a time
limit.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from game.cli._ldim import load_class_argument
from game.errors import GameError, ParameterError, ScenarioError, TranscriptError
from game.scenario import load_scenario
from game.theory import MAX_TEXT_BYTES
from game.theory.concepts import FiniteClass
from game.transcript import Transcript

ROOT = Path(__file__).resolve().parents[2]

REPLAY = """
rounds = 100

[learner]
name = "perceptron"

[adversary]
name = "replay"
"""

CLASS = """
rounds = 10

[learner]
name = "halving"

[adversary]
name = "optimal"

[concept_class]
"""


def write(folder: Path, text: str, name: str = "s.toml") -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def refused(path: Path, *parts: str, error: type[GameError] = ScenarioError) -> str:
    """The one-line error loading ``path`` gives; it names the file and holds every part."""
    with pytest.raises(error) as info:
        if path.suffix == ".jsonl":
            Transcript.load(path)
        else:
            load_scenario(path)
    message = str(info.value)
    assert "\n" not in message, message
    assert str(path) in message, message
    for part in parts:
        assert part in message, message
    return message


def in_subprocess(code: str, timeout: float = 60) -> str:
    """The last line a snippet prints, run in a fresh interpreter under a time limit."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout, env=env
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


LOAD_AND_PRINT = """
import sys
from game.errors import GameError
from game.scenario import load_scenario
from game.transcript import Transcript
path = sys.argv[1] if len(sys.argv) > 1 else {path!r}
try:
    Transcript.load(path) if {transcript!r} else load_scenario(path)
except GameError as exc:
    print(type(exc).__name__, str(exc))
else:
    print("accepted")
"""


# -- scenario files -----------------------------------------------------------------------


def test_toml_nested_100000_deep_is_one_line(tmp_path):
    path = write(tmp_path, "rounds = " + "[" * 100_000 + "]" * 100_000 + "\n")
    refused(path, "not valid TOML", "nested deeper than 64")


def test_toml_nested_deeper_than_the_limit_is_refused(tmp_path):
    path = write(tmp_path, REPLAY + "instances = " + "[" * 80 + "1" + "]" * 80 + "\n")
    refused(path, "tables and arrays nested deeper than 64 levels")


def test_toml_integer_of_5000_digits(tmp_path):
    path = write(tmp_path, "rounds = " + "7" * 5000 + "\n")
    refused(path, "not valid TOML", "an integer longer than 4300 digits")


def test_toml_larger_than_the_cap_is_refused_before_reading(tmp_path):
    path = tmp_path / "big.toml"
    with open(path, "wb") as f:
        f.truncate(MAX_TEXT_BYTES + 1)  # sparse: nothing is written
    refused(path, "larger than the 16 MiB a scenario file may be")


def test_a_directory_is_not_a_regular_file(tmp_path):
    (tmp_path / "d.toml").mkdir()
    refused(tmp_path / "d.toml", "not a regular file (a directory)")


def test_a_symlink_loop(tmp_path):
    (tmp_path / "a.toml").symlink_to(tmp_path / "b.toml")
    (tmp_path / "b.toml").symlink_to(tmp_path / "a.toml")
    refused(tmp_path / "a.toml", "a symlink loop")


def test_a_name_too_long(tmp_path):
    refused(tmp_path / ("x" * 300 + ".toml"), "a file name too long")


def test_a_nul_in_the_path(tmp_path):
    with pytest.raises(ScenarioError, match="the path holds a NUL character"):
        load_scenario(str(tmp_path / "a\0b.toml"))


def test_an_empty_scenario_names_the_missing_key(tmp_path):
    refused(write(tmp_path, ""), "missing key rounds")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("suffix, transcript", [(".toml", False), (".jsonl", True)])
def test_a_fifo_is_refused_without_blocking(tmp_path, suffix, transcript):
    fifo = tmp_path / f"pipe{suffix}"
    os.mkfifo(fifo)
    line = in_subprocess(LOAD_AND_PRINT.format(path=str(fifo), transcript=transcript), timeout=30)
    error = "TranscriptError" if transcript else "ScenarioError"
    assert line.startswith(f"{error} {fifo}: "), line
    assert "not a regular file (a FIFO)" in line


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
@pytest.mark.parametrize("transcript", [False, True])
def test_dev_zero_is_refused_without_reading(transcript):
    line = in_subprocess(LOAD_AND_PRINT.format(path="/dev/zero", transcript=transcript), 30)
    assert "/dev/zero: " in line and "not a regular file (a character device)" in line, line


# -- data files ---------------------------------------------------------------------------


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "data").mkdir()
    np.save(tmp_path / "data" / "X.npy", np.array([[1.0, 0.0], [0.0, 1.0], [2.0, 1.0]]))
    np.savetxt(tmp_path / "data" / "y.csv", [1, -1, 1], delimiter=",")
    return tmp_path


def data_error(folder: Path, key: str, file: str, *parts: str, labels: str = "data/y.csv") -> str:
    if key == "instances":
        text = REPLAY + f'instances = "{file}"\nlabels = "{labels}"\n'
    else:
        text = REPLAY + f'instances = "data/X.npy"\nlabels = "{file}"\n'
    path = write(folder, text)
    with pytest.raises(ScenarioError) as info:
        load_scenario(path).build()
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: adversary.{key}: "), message
    for part in parts:
        assert part in message, message
    return message


def npy_header(path: Path, shape: tuple, descr: str = "<f8", size: int = 192) -> None:
    """A .npy file of ``size`` bytes whose header claims ``shape``."""
    with open(path, "wb") as f:
        np.lib.format.write_array_header_1_0(
            f, {"descr": descr, "fortran_order": False, "shape": shape}
        )
        f.write(b"\0" * (size - f.tell()))


def test_npy_claiming_a_trillion_elements_is_refused_from_its_header(folder):
    path = folder / "data" / "huge.npy"
    npy_header(path, (10**6, 10**6))
    assert path.stat().st_size == 192
    message = data_error(folder, "instances", "data/huge.npy", "'data/huge.npy'")
    assert "claims 1000000×1000000 = 1,000,000,000,000 elements (7.28 TiB)" in message
    assert "holds 64 bytes of data" in message


def test_empty_npy_is_one_clear_error(folder):
    (folder / "data" / "empty.npy").write_bytes(b"")
    data_error(folder, "instances", "data/empty.npy", "empty file; expected a .npy array")


@pytest.mark.parametrize(
    "content, expected",
    [
        (b"db_password=hunter2", "not a .npy file"),
        (b"\x93NUMPY\x01\x00" + (60000).to_bytes(2, "little") + b"{" * 100, "header is malformed"),
    ],
)
def test_npy_that_is_not_one(folder, content, expected):
    (folder / "data" / "bad.npy").write_bytes(content)
    message = data_error(folder, "instances", "data/bad.npy", expected)
    assert "hunter2" not in message


@pytest.mark.parametrize("descr", ["|O", "<c16", "<U5"])
def test_npy_of_other_than_numbers(folder, descr):
    npy_header(folder / "data" / "odd.npy", (1, 1), descr=descr, size=256)
    data_error(folder, "instances", "data/odd.npy", "entries; expected numbers")


@pytest.mark.parametrize("value", [np.nan, np.inf, -np.inf])
def test_npy_with_a_non_finite_number(folder, value):
    X = np.ones((3, 2))
    X[2, 1] = value
    np.save(folder / "data" / "nan.npy", X)
    data_error(folder, "instances", "data/nan.npy", "row 3, column 2: not finite")


def test_npy_with_no_numbers(folder):
    np.save(folder / "data" / "none.npy", np.zeros((0, 0)))
    data_error(folder, "instances", "data/none.npy", "no numbers", "expected at least one")


def test_csv_content_is_never_echoed(folder):
    (folder / "data" / "secret.csv").write_text("1,2\n3,4\n5,db_password\n")
    message = data_error(folder, "instances", "data/secret.csv", "row 3, column 2: not a number")
    assert "db_password" not in message


@pytest.mark.parametrize(
    "text, expected",
    [
        ("1,2\n3,1e400\n5,6\n", "row 2, column 2: not finite (inf)"),
        ("1,2\nnan,4\n5,6\n", "row 2, column 1: not finite (nan)"),
        ("1,2\n3,4,5\n5,6\n", "row 2 has 3 columns, row 1 has 2"),
        ("1,2\n3,\n5,6\n", "row 2, column 2: an empty cell"),
        ("", "empty file"),
        ("\n\n", "empty file"),
        ("# only a comment\n", "no numbers"),
        ("1,2\n\xff\n", "not UTF-8 text"),
    ],
)
def test_csv_refusals_name_row_and_column(folder, text, expected):
    (folder / "data" / "bad.csv").write_bytes(text.encode("latin-1"))
    data_error(folder, "instances", "data/bad.csv", expected)


def test_labels_from_a_file_are_named_by_the_file_not_their_values(folder):
    (folder / "data" / "y2.csv").write_text("1\n7\n-1\n")
    message = data_error(folder, "labels", "data/y2.csv", "got the data file 'data/y2.csv'")
    said = message.split(": adversary.labels: ", 1)[1]  # the folder's name may hold a 7
    assert "row 2 is neither" in said and "7" not in said


def test_a_data_path_that_is_a_directory_is_not_a_regular_file(folder):
    (folder / "data" / "dir.npy").mkdir()
    message = data_error(folder, "instances", "data/dir.npy", "not a regular file (a directory)")
    assert "not found" not in message


def test_a_data_symlink_loop(folder):
    (folder / "data" / "a.npy").symlink_to(folder / "data" / "b.npy")
    (folder / "data" / "b.npy").symlink_to(folder / "data" / "a.npy")
    data_error(folder, "instances", "data/a.npy", "a symlink loop")


def test_a_data_name_too_long(folder):
    data_error(folder, "instances", "data/" + "x" * 300 + ".npy", "a file name too long")


def test_a_nul_in_a_data_path(folder):
    data_error(folder, "instances", "data/X\\u0000.npy", "NUL character")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_data_fifo_is_refused_from_its_stat(folder):
    os.mkfifo(folder / "data" / "pipe.csv")
    data_error(folder, "instances", "data/pipe.csv", "not a regular file (a FIFO)")


@pytest.mark.parametrize(
    "inline, expected",
    [
        ("[[1.0, 2.0], [nan, 1.0]]", "row 2, column 1 is not finite"),
        ("[[1.0, 2.0], [1.0, inf]]", "row 2, column 2 is not finite"),
        ("[[1.0, 2.0], [1.0, 1e400]]", "row 2, column 2 is not finite"),
    ],
)
def test_inline_non_finite_instances(tmp_path, inline, expected):
    path = write(tmp_path, REPLAY + f"instances = {inline}\nlabels = [1, -1]\n")
    with pytest.raises(ScenarioError) as info:
        load_scenario(path).build()
    assert "adversary.instances: instances must be finite" in str(info.value)
    assert expected in str(info.value)


# -- class files --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, make, expected",
    [
        ("cls.npy", lambda p: np.save(p, np.zeros((0, 0))), "no numbers"),
        ("cls.npy", lambda p: np.save(p, np.ones((2, 0))), "no numbers"),
        ("cls.csv", lambda p: p.write_text("1,-1\n-1,0\n"), "row 2, column 2: not +1 or -1"),
        ("cls.csv", lambda p: p.write_text("1,-1\n-1,token\n"), "row 2, column 2: not a number"),
        ("cls.npy", lambda p: p.write_bytes(b""), "empty file"),
        ("cls.npy", lambda p: p.mkdir(), "not a regular file (a directory)"),
        ("cls.npy", lambda p: None, "no such file"),
    ],
)
def test_class_files(tmp_path, name, make, expected):
    path = tmp_path / name
    make(path)
    with pytest.raises(ParameterError, match=r"^path must be a \.npy or \.csv file") as info:
        FiniteClass.load(path)
    assert expected in str(info.value) and "token" not in str(info.value)
    with pytest.raises(GameError) as cli:
        load_class_argument(str(path), [])
    assert str(cli.value) == f"{path}: {info.value.note}"
    scenario = write(tmp_path, CLASS + f'path = "{name}"\n')
    with pytest.raises(ScenarioError, match=r"concept_class\.path: ") as sc:
        load_scenario(scenario)
    if expected == "no such file":
        assert f"data file {name!r} not found" in str(sc.value)
    else:
        assert f"cannot read data file {name!r}: " in str(sc.value) and expected in str(sc.value)


# -- transcripts --------------------------------------------------------------------------


@pytest.fixture
def saved(tmp_path):
    from adversaries import Replay
    from game import play
    from learners import Perceptron

    X = np.array([[1.0, 0.0], [0.0, 1.0], [2.0, 1.0]])
    tr = play(Perceptron(), Replay(instances=X, labels=[1, -1, 1]), rounds=5)
    path = tr.save(tmp_path / "t.jsonl")
    return path, path.read_text().splitlines()


def rewrite(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n")
    return path


def edited(path: Path, lines: list[str], index: int, **changes) -> Path:
    obj = json.loads(lines[index])
    obj.update(changes)
    return rewrite(path, [*lines[:index], json.dumps(obj), *lines[index + 1 :]])


def test_transcript_json_nested_5000_deep(saved):
    path, lines = saved
    rewrite(path, [lines[0], "[" * 5000 + "]" * 5000, *lines[2:]])
    refused(path, f"{path}:2: not a JSON line", "nested too deep", error=TranscriptError)


def test_transcript_integer_of_5000_digits(saved):
    path, lines = saved
    line = lines[1].replace('"t":1', '"t":' + "9" * 5000)
    assert line != lines[1]
    rewrite(path, [lines[0], line, *lines[2:]])
    refused(path, f"{path}:2:", "an integer longer than 4300 digits", error=TranscriptError)


@pytest.mark.parametrize(
    "changes, expected",
    [
        ({"x": [1.0, 10**400]}, "instance x must be a number or a rectangular array"),
        ({"x": 10**400}, "instance x must be a number"),
        ({"extras": {"margin": 10**400}}, "extras must map names to numbers"),
        ({"t": 10**400}, "found t = an integer of 401 digits"),
        ({"p": "db_password"}, "prediction p must be a number in [-1, 1], got a string"),
        ({"y": ["db_password"]}, "label y must be -1 or 1, got a list of 1 item"),
    ],
)
def test_transcript_round_values(saved, changes, expected):
    path, lines = saved
    edited(path, lines, 1, **changes)
    message = refused(path, f"{path}:2: ", expected, error=TranscriptError)
    assert "db_password" not in message


class _Presents:
    """Presents the given rows, labelling each +1 (an adversary the referee refuses at NaN)."""

    def __init__(self, rows):
        self.rows = [np.asarray(r, dtype=float) for r in rows]

    def instance(self, history):
        return self.rows[len(history)] if len(history) < len(self.rows) else None

    def label(self, x, p, history):
        return 1

    def certificate(self):
        return None


def test_an_aborted_games_non_finite_round_is_kept_and_refused_as_data(tmp_path):
    from adversaries import Replay
    from game import play
    from game.errors import ProtocolError
    from learners import Perceptron

    (tmp_path / "data").mkdir()
    out = tmp_path / "data" / "aborted.jsonl"
    with pytest.raises(ProtocolError):
        play(Perceptron(), _Presents([[1.0, 0.0], [np.nan, 1.0]]), rounds=5, out=out)
    kept = Transcript.load(out)  # the record keeps the round the referee refused
    assert kept.status == "aborted" and len(kept) == 2
    with pytest.raises(ParameterError) as info:
        Replay(transcript=kept)
    assert info.value.parameter == "transcript"
    assert info.value.note == "round 2, column 1 is not finite"
    scenario = write(tmp_path, REPLAY + 'transcript = "data/aborted.jsonl"\n')
    with pytest.raises(ScenarioError) as caught:
        load_scenario(scenario).build()
    message = str(caught.value)
    assert message.startswith(f"{scenario}: adversary.transcript: ")
    assert "a game of finite instances" in message and "round 2, column 1 is not finite" in message


@pytest.mark.parametrize(
    "changes, expected",
    [
        ({"learner": "perceptron"}, "learner: expected an object, got a string"),
        ({"learner": {"name": "perceptron", "params": [1]}}, "learner.params: expected an object"),
        ({"adversary": {"name": 3, "params": {}}}, "adversary.name: expected a string, got 3"),
        ({"rounds": "5"}, "rounds: expected an integer ≥ 0, got a string"),
        ({"loss": "hinge"}, "loss: expected one of"),
        ({"scenario": ["x"]}, "scenario: expected an object"),
        ({"scenario": {"path": 1, "spec": {}}}, "scenario.path: expected a string"),
        ({"version": "1"}, "transcript version: expected an integer version, got a string"),
        ({"initial_snapshot": [1]}, "initial_snapshot: expected an object"),
    ],
)
def test_transcript_header_entries(saved, changes, expected):
    path, lines = saved
    edited(path, lines, 0, **changes)
    message = refused(path, f"{path}:1: ", expected, error=TranscriptError)
    assert "newer than" not in message


def test_transcript_header_nested_too_deep(saved):
    path, lines = saved
    deep: list = []
    for _ in range(100):
        deep = [deep]
    edited(path, lines, 0, versions={"numpy": deep})
    refused(path, f"{path}:1: header nested deeper than 64 levels", error=TranscriptError)


def test_transcript_line_longer_than_the_cap(saved, monkeypatch):
    import game.transcript._reader as reader

    path, _lines = saved
    monkeypatch.setattr(reader, "MAX_LINE_BYTES", 100)
    refused(path, "line 1 is longer than 100 bytes, the longest read", error=TranscriptError)


@pytest.mark.parametrize(
    "make, expected",
    [
        (lambda p: p.mkdir(), "not a regular file (a directory)"),
        (lambda p: None, "no such file"),
        (lambda p: p.write_bytes(b""), "empty file"),
    ],
)
def test_transcript_files_that_are_not(tmp_path, make, expected):
    path = tmp_path / "t.jsonl"
    make(path)
    refused(path, expected, error=TranscriptError)


def test_transcript_symlink_loop_and_long_name(tmp_path):
    (tmp_path / "a.jsonl").symlink_to(tmp_path / "b.jsonl")
    (tmp_path / "b.jsonl").symlink_to(tmp_path / "a.jsonl")
    refused(
        tmp_path / "a.jsonl", "cannot read the transcript: a symlink loop", error=TranscriptError
    )
    refused(tmp_path / ("t" * 300 + ".jsonl"), "a file name too long", error=TranscriptError)


# -- a header's data paths ----------------------------------------------------------------


def test_replay_reads_a_headers_data_files_from_the_transcripts_folder(folder, tmp_path_factory):
    from game.cli._main import main

    scenario = write(folder, REPLAY + 'instances = "data/X.npy"\nlabels = "data/y.csv"\n')
    elsewhere = tmp_path_factory.mktemp("received")
    out = elsewhere / "t.jsonl"
    load_scenario(scenario).play(out=out)
    # the header names the scenario's folder; its data files there are not read
    (folder / "data" / "y.csv").write_text("1\ndb_password\n1\n")
    assert main(["replay", str(out)]) == 2
    # beside the transcript, the same data replays as recorded
    (elsewhere / "data").mkdir()
    np.save(elsewhere / "data" / "X.npy", np.load(folder / "data" / "X.npy"))
    np.savetxt(elsewhere / "data" / "y.csv", [1, -1, 1], delimiter=",")
    assert main(["replay", str(out)]) == 0


def test_replay_refuses_a_header_data_path_not_beside_it(folder, tmp_path_factory, capsys):
    from game.cli._main import main

    scenario = write(folder, REPLAY + 'instances = "data/X.npy"\nlabels = "data/y.csv"\n')
    elsewhere = tmp_path_factory.mktemp("received")
    out = elsewhere / "t.jsonl"
    load_scenario(scenario).play(out=out)
    capsys.readouterr()
    assert main(["replay", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    assert "adversary.instances" in err and f"not found in {elsewhere}" in err
