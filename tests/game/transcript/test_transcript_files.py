"""Transcript files: save/load, incomplete and truncated files, corrupt lines, pandas, SIGKILL.

Examples to paste::

    import numpy as np
    from game import play, Transcript
    from learners import Perceptron
    from adversaries import SeparableStream
    tr = play(Perceptron(), SeparableStream(2, 0.2, rng=np.random.default_rng(0)), rounds=3,
              out="runs/small.jsonl")
    Transcript.load("runs/small.jsonl") == tr
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import attrs
import numpy as np
import pytest

from adversaries import Replay, SeparableStream
from game import Transcript, TranscriptError, play
from game.transcript import VERSION
from learners import Perceptron

ROOT = Path(__file__).resolve().parents[3]


def small_game(rounds: int = 4, **kwargs) -> Transcript:
    stream = SeparableStream(2, 0.2, rng=np.random.default_rng(0))
    return play(Perceptron(), stream, rounds=rounds, **kwargs)


@pytest.fixture
def saved(tmp_path):
    """A five-round transcript file and its lines (1: header, 2-6: rounds, 7: footer)."""
    tr = small_game(5)
    path = tr.save(tmp_path / "game.jsonl")
    return tr, path, path.read_text(encoding="utf-8").splitlines()


def rewrite(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def edit(path: Path, lines: list[str], lineno: int, **changes) -> Path:
    """Rewrite line ``lineno`` (1-based) of the file with some keys changed."""
    obj = json.loads(lines[lineno - 1])
    obj.update(changes)
    out = list(lines)
    out[lineno - 1] = json.dumps(obj)
    return rewrite(path, out)


# -- save and load ------------------------------------------------------------------------


def test_out_file_loads_equal_to_the_returned_transcript(tmp_path):
    tr = small_game(200, snapshots=True, out=tmp_path / "a.jsonl")
    back = Transcript.load(tmp_path / "a.jsonl")
    assert back == tr and back.digest == tr.digest
    assert back.summary() == tr.summary()
    assert back.header == json.loads(json.dumps(tr.header))
    np.testing.assert_array_equal(back.snapshot("norm2"), tr.snapshot("norm2"))
    assert back.initial_snapshot == {"norm2": 0.0, "w": []}  # w before the first instance


def test_save_then_load_is_equal(tmp_path):
    tr = small_game(77)
    path = tr.save(tmp_path / "sub" / "b.jsonl")
    assert path == tmp_path / "sub" / "b.jsonl"
    back = Transcript.load(path)
    assert back == tr and back.status == "complete" and back.certificate == tr.certificate
    assert back.bound == tr.bound and back.certificate_verified is True


def test_file_layout_header_rounds_footer(saved):
    tr, _path, lines = saved
    header, footer = json.loads(lines[0]), json.loads(lines[-1])
    assert header["type"] == "header" and header["version"] == VERSION
    assert header["format"] == "online-learning-games/transcript"
    assert {"learner", "adversary", "loss", "versions"} <= set(header)
    rounds = [json.loads(line) for line in lines[1:-1]]
    assert [r["t"] for r in rounds] == [1, 2, 3, 4, 5]
    for r, rec in zip(rounds, tr, strict=True):
        assert (r["p"], r["y"], r["updated"], r["mistake"]) == (
            rec.prediction,
            rec.label,
            rec.updated,
            rec.mistake,
        )
        assert r["loss"] == rec.loss
    assert footer["type"] == "footer" and footer["digest"] == tr.digest
    assert footer["rounds"] == 5 and footer["mistakes"] == tr.observed("mistakes")


# -- incomplete files ---------------------------------------------------------------------


def test_missing_footer_is_an_error_that_says_allow_incomplete(saved):
    tr, path, lines = saved
    rewrite(path, lines[:-1])
    with pytest.raises(TranscriptError, match="allow_incomplete") as info:
        Transcript.load(path)
    assert str(path) in str(info.value)
    back = Transcript.load(path, allow_incomplete=True)
    assert len(back) == 5 and back.status == "incomplete"
    assert back.first_difference(tr) is None and back.rounds_digest == tr.rounds_digest


def test_torn_last_line_without_allow_incomplete_says_allow_incomplete(saved):
    _tr, path, lines = saved
    path.write_text("\n".join(lines[:4]) + "\n" + lines[4][:20], encoding="utf-8")
    with pytest.raises(TranscriptError, match="allow_incomplete") as info:
        Transcript.load(path)
    assert f"{path}:5" in str(info.value)
    assert len(Transcript.load(path, allow_incomplete=True)) == 3


def test_allow_incomplete_does_not_excuse_a_corrupt_middle_line(saved):
    _tr, path, lines = saved
    rewrite(path, [*lines[:2], "{not json", *lines[3:-1]])
    with pytest.raises(TranscriptError, match=rf"{path}:3: not a JSON line"):
        Transcript.load(path, allow_incomplete=True)


def test_truncation_at_every_byte(tmp_path):
    """Cut a small file at every offset: an error, or exactly the rounds complete before the cut."""
    tr = small_game(3)
    data = tr.save(tmp_path / "full.jsonl").read_bytes()
    # offsets where each line's JSON text ends (its newline not included)
    ends, start = [], 0
    for line in data.split(b"\n")[:-1]:
        ends.append(start + len(line))
        start += len(line) + 1
    header_end, round_ends, footer_end = ends[0], ends[1:-1], ends[-1]
    assert len(round_ends) == 3 and footer_end == len(data) - 1
    prefix_digests = [prefix(tr, n).rounds_digest for n in range(4)]
    cut_path = tmp_path / "cut.jsonl"
    for cut in range(len(data) + 1):
        cut_path.write_bytes(data[:cut])
        whole = cut >= footer_end
        strict, lenient = load_or_error(cut_path), load_or_error(cut_path, allow_incomplete=True)
        if whole:
            assert strict == tr
        else:
            assert isinstance(strict, TranscriptError), cut
            assert str(cut_path) in str(strict)
            if cut >= header_end:
                assert "allow_incomplete" in str(strict), cut
        if cut < header_end:
            assert isinstance(lenient, TranscriptError), cut
            continue
        complete = sum(end <= cut for end in round_ends)
        assert isinstance(lenient, Transcript), (cut, lenient)
        assert len(lenient) == complete, cut
        assert lenient.rounds_digest == prefix_digests[complete], cut
        assert lenient.status == ("complete" if whole else "incomplete")


def load_or_error(path: Path, **kwargs):
    try:
        return Transcript.load(path, **kwargs)
    except TranscriptError as exc:
        return exc


def prefix(tr: Transcript, n: int) -> Transcript:
    """The first n rounds of a transcript."""
    return attrs.evolve(
        tr,
        raw_instances=tr.raw_instances[:n],
        predictions=tr.predictions[:n],
        labels=tr.labels[:n],
        updated=tr.updated[:n],
    )


# -- corrupt files ------------------------------------------------------------------------

CORRUPT_ROUND = [
    ("bad JSON", None, "not a JSON line"),
    ("wrong t", {"t": 7}, "expected round 2, found t = 7"),
    ("t repeated", {"t": 1}, "expected round 2, found t = 1"),
    ("t a string", {"t": "2"}, "expected round 2"),
    ("t true", {"t": True}, "expected round 2"),
    ("p above 1", {"p": 1.5}, "prediction p"),
    ("p below -1", {"p": -1.0001}, "prediction p"),
    ("p a string", {"p": "1.0"}, "prediction p"),
    ("p true", {"p": True}, "prediction p"),
    ("y zero", {"y": 0}, "label y"),
    ("y two", {"y": 2}, "label y"),
    ("y a float", {"y": 1.0}, "label y"),
    ("y true", {"y": True}, "label y"),
    ("updated an int", {"updated": 1}, "updated must be true or false"),
    ("updated a string", {"updated": "yes"}, "updated must be true or false"),
    ("x a string", {"x": "abc"}, "instance x"),
    ("x null", {"x": None}, "instance x"),
    ("x ragged", {"x": [[1.0], [2.0, 3.0]]}, "instance x"),
    ("x mixed", {"x": [1.0, "a"]}, "instance x"),
    ("extras not numbers", {"extras": {"a": "b"}}, "extras"),
    ("snapshot a list", {"snapshot": [1]}, "snapshot"),
]


@pytest.mark.parametrize("case, changes, message", CORRUPT_ROUND, ids=[c[0] for c in CORRUPT_ROUND])
@pytest.mark.parametrize("allow_incomplete", [False, True])
def test_corrupt_round_line_names_file_and_line(saved, case, changes, message, allow_incomplete):
    _tr, path, lines = saved
    if changes is None:
        rewrite(path, [*lines[:2], lines[2][:-3], *lines[3:]])
    else:
        edit(path, lines, 3, **changes)
    with pytest.raises(TranscriptError, match=message) as info:
        Transcript.load(path, allow_incomplete=allow_incomplete)
    assert str(info.value).startswith(f"{path}:3:")


def test_mistake_contradicting_p_and_y(saved):
    _tr, path, lines = saved
    obj = json.loads(lines[2])
    edit(path, lines, 3, mistake=not obj["mistake"])
    with pytest.raises(TranscriptError, match=rf"^{path}:3: mistake = .* contradicts p and y"):
        Transcript.load(path)


def test_round_line_missing_a_key(saved):
    _tr, path, lines = saved
    obj = json.loads(lines[3])
    del obj["y"]
    rewrite(path, [*lines[:3], json.dumps(obj), *lines[4:]])
    with pytest.raises(TranscriptError, match=rf"^{path}:4: round line lacks y"):
        Transcript.load(path)


def test_changed_label_with_old_digest_is_caught(saved):
    _tr, path, lines = saved
    obj = json.loads(lines[3])
    edit(path, lines, 4, y=-obj["y"], mistake=not obj["mistake"])
    with pytest.raises(TranscriptError, match=rf"^{path}:7: the footer's digest does not match"):
        Transcript.load(path)


@pytest.mark.parametrize("digest", ["sha256:" + "0" * 64, None])
def test_footer_digest_changed(saved, digest):
    _tr, path, lines = saved
    edit(path, lines, 7, digest=digest)
    with pytest.raises(TranscriptError, match=rf"^{path}:7: the footer's digest does not match"):
        Transcript.load(path)


def test_footer_rounds_changed(saved):
    _tr, path, lines = saved
    edit(path, lines, 7, rounds=6)
    with pytest.raises(
        TranscriptError, match=rf"^{path}:7: footer says 6 rounds, the file holds 5"
    ):
        Transcript.load(path)


def test_footer_malformed(saved):
    _tr, path, lines = saved
    obj = json.loads(lines[6])
    del obj["digest"]
    rewrite(path, [*lines[:6], json.dumps(obj)])
    with pytest.raises(TranscriptError, match=rf"^{path}:7: malformed footer"):
        Transcript.load(path)


@pytest.mark.parametrize("after", ['{"t": 6}', "[]", "FOOTER AGAIN", ""])
def test_content_after_the_footer(saved, after):
    _tr, path, lines = saved
    extra = lines[-1] if after == "FOOTER AGAIN" else after
    rewrite(path, [*lines, extra])
    with pytest.raises(TranscriptError, match=rf"^{path}:8: content after the footer"):
        Transcript.load(path, allow_incomplete=True)


def test_header_missing(saved):
    _tr, path, lines = saved
    rewrite(path, lines[1:])
    with pytest.raises(TranscriptError, match=rf"^{path}:1: expected a transcript header"):
        Transcript.load(path)


def test_header_wrong_format(saved):
    _tr, path, lines = saved
    edit(path, lines, 1, format="something-else/transcript")
    with pytest.raises(TranscriptError, match=rf"^{path}:1: format 'something-else"):
        Transcript.load(path)


@pytest.mark.parametrize("version", [VERSION + 1, 99, VERSION - 1, 0, "1", None, True])
def test_header_newer_or_bad_version(saved, version):
    _tr, path, lines = saved
    edit(path, lines, 1, version=version)
    with pytest.raises(TranscriptError, match=rf"^{path}:1: transcript version"):
        Transcript.load(path, allow_incomplete=True)


def test_header_not_json(saved):
    _tr, path, lines = saved
    rewrite(path, ["{{", *lines[1:]])
    with pytest.raises(TranscriptError, match=rf"^{path}:1: not a JSON line"):
        Transcript.load(path)


def test_empty_file(tmp_path):
    path = tmp_path / "empty.jsonl"
    path.write_bytes(b"")
    with pytest.raises(TranscriptError, match=rf"^{path}: empty file.*line 1"):
        Transcript.load(path, allow_incomplete=True)


def test_missing_file(tmp_path):
    path = tmp_path / "nowhere.jsonl"
    with pytest.raises(TranscriptError, match=rf"^{path}: cannot read the transcript"):
        Transcript.load(path)


def test_not_utf8(saved):
    _tr, path, _lines = saved
    data = path.read_bytes().split(b"\n")
    data[2] = b"\xff\xfe" + data[2]
    path.write_bytes(b"\n".join(data))
    with pytest.raises(TranscriptError, match=rf"^{path}:3: not a JSON line"):
        Transcript.load(path)


# -- pandas -------------------------------------------------------------------------------


def test_pandas_reads_the_rounds(tmp_path):
    pd = pytest.importorskip("pandas")
    tr = small_game(150, snapshots=True, out=tmp_path / "p.jsonl")
    df = pd.read_json(tmp_path / "p.jsonl", lines=True)  # its default float parser: ~1e-15
    assert len(df) == len(tr) + 2  # header and footer rows have no t
    rows = df[df["t"].notna()]
    np.testing.assert_array_equal(rows["t"].to_numpy(dtype=int), np.arange(1, len(tr) + 1))
    np.testing.assert_array_equal(rows["p"].to_numpy(dtype=float), tr.predictions)
    np.testing.assert_array_equal(rows["y"].to_numpy(dtype=int), tr.labels)
    np.testing.assert_array_equal(rows["updated"].to_numpy(dtype=bool), tr.updated)
    np.testing.assert_array_equal(rows["mistake"].to_numpy(dtype=bool), tr.mistakes)
    np.testing.assert_array_equal(rows["loss"].to_numpy(dtype=float), tr.losses)
    np.testing.assert_allclose(np.stack(rows["x"].to_numpy()), tr.instances, rtol=1e-12)
    precise = pd.read_json(tmp_path / "p.jsonl", lines=True, precise_float=True)
    x = np.stack(precise[precise["t"].notna()]["x"].to_numpy())
    np.testing.assert_array_equal(x, tr.instances)


# -- a run killed mid-game ----------------------------------------------------------------

KILLED_GAME = textwrap.dedent(
    """
    import sys
    import numpy as np
    from game import play
    from learners import Perceptron
    from adversaries import SeparableStream
    stream = SeparableStream(4, 0.05, rng=np.random.default_rng(11))
    play(Perceptron(), stream, rounds=10**9, out=sys.argv[1])
    """
)


def _partial(tmp_path):
    """The temporary file a game writes its transcript to until it ends, if it exists yet."""
    return next(iter(tmp_path.glob("killed.jsonl.*.partial")), None)


def test_sigkill_mid_game_keeps_every_complete_round(tmp_path):
    proc = subprocess.Popen(
        [sys.executable, "-c", KILLED_GAME, str(tmp_path / "killed.jsonl")], cwd=ROOT
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            out = _partial(tmp_path)
            if out is not None and out.read_bytes().count(b"\n") > 300:
                break
            if proc.poll() is not None:
                pytest.fail(f"the game ended by itself with status {proc.returncode}")
            time.sleep(0.02)
        else:
            pytest.fail("the game wrote fewer than 300 lines in 60 s")
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == -signal.SIGKILL
    assert not (tmp_path / "killed.jsonl").exists()  # a killed run leaves its temporary file
    with pytest.raises(TranscriptError, match="allow_incomplete"):
        Transcript.load(out)
    back = Transcript.load(out, allow_incomplete=True)
    assert back.status == "incomplete" and len(back) >= 299
    lines = out.read_bytes().split(b"\n")
    whole = [json.loads(line) for line in lines[1:-1]]  # every newline-terminated round line
    assert len(back) in (len(whole), len(whole) + 1)  # + a last line complete but for its newline
    assert [r["y"] for r in whole] == back.labels[: len(whole)].tolist()
    # the rounds kept are the prefix of the same game played again
    again = play(
        Perceptron(), SeparableStream(4, 0.05, rng=np.random.default_rng(11)), rounds=len(back)
    )
    assert back.first_difference(again) is None and back.rounds_digest == again.rounds_digest


# -- instances of every kind --------------------------------------------------------------


@attrs.define(eq=False)
class PointMemory:
    """Predicts the last label seen on a point (+1 before): plays int point instances."""

    seen: dict = attrs.field(factory=dict)

    def predict(self, x) -> float:
        return float(self.seen.get(x, 1))

    def update(self, x, y) -> bool:
        changed = self.seen.get(x) != y
        self.seen[x] = y
        return changed


def test_int_point_instances_round_trip(tmp_path):
    tr = play(PointMemory(), Replay(instances=np.array([3, 1, 3, 0, 1]), labels=[-1, 1, -1, 1, -1]),
              rounds=10, out=tmp_path / "points.jsonl")  # fmt: skip
    assert [type(x) for x in tr.raw_instances] == [int] * 5
    back = Transcript.load(tmp_path / "points.jsonl")
    assert back == tr and back.instances.tolist() == [3, 1, 3, 0, 1]
    assert back.instances.dtype.kind == "i"
    assert back.mistakes.tolist() == [True, False, False, False, True]


def test_bit_vector_instances_round_trip(tmp_path):
    bits = np.array([[True, False, True], [False, False, True], [True, True, False]])
    tr = play(Perceptron(), Replay(instances=bits, labels=[1, -1, 1]), rounds=9)
    path = tr.save(tmp_path / "bits.jsonl")
    back = Transcript.load(path)
    assert back == tr and back.instances.dtype == bool
    np.testing.assert_array_equal(back.instances, bits)
