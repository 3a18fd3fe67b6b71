"""Nothing written is lost: the transcript file's temporary name, its rename, its aborts.

A game writes its transcript beside ``out`` under a temporary name and renames
it when the game ends; a game that fails keeps its complete rounds under a
footer marked aborted, and takes ``out`` only when no file has that name; a
failed write (a full disk) names the file and the rounds written before it.
"""

from __future__ import annotations

import errno
import json
import os
import threading
from pathlib import Path

import numpy as np
import pytest

from adversaries import Replay, SeparableStream
from game import Transcript, play
from game.errors import GameError, ProtocolError
from game.transcript import TranscriptWriter
from learners import Perceptron


def stream(seed: int = 0) -> SeparableStream:
    return SeparableStream(dimension=3, margin=0.1, rng=np.random.default_rng(seed))


def names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


class Stopping:
    """An adversary that presents a separable stream and raises at round ``at``."""

    def __init__(self, at: int, exc: BaseException):
        self.inner, self.at, self.exc, self.t = stream(), at, exc, 0

    def instance(self, history):
        self.t += 1
        if self.t == self.at:
            raise self.exc
        return self.inner.instance(history)

    def label(self, x, p, history):
        return self.inner.label(x, p, history)

    def certificate(self):
        return None


def test_the_file_has_a_temporary_name_until_the_game_ends(tmp_path):
    seen = []

    def progress(done, total):
        seen.append(names(tmp_path))

    out = tmp_path / "t.jsonl"
    play(Perceptron(), stream(), rounds=10, out=out, progress=progress)
    assert seen and all(len(n) == 1 and n[0].endswith(".partial") for n in seen)
    assert names(tmp_path) == ["t.jsonl"]
    assert len(Transcript.load(out)) == 10


def test_a_complete_game_replaces_an_existing_file_by_default(tmp_path):
    out = tmp_path / "t.jsonl"
    out.write_text("old", encoding="utf-8")
    play(Perceptron(), stream(), rounds=5, out=out)
    assert len(Transcript.load(out)) == 5 and names(tmp_path) == ["t.jsonl"]


def test_overwrite_false_refuses_an_existing_file_before_round_1(tmp_path):
    out = tmp_path / "t.jsonl"
    out.write_text("old", encoding="utf-8")
    with pytest.raises(GameError, match="the file exists; not overwritten"):
        play(Perceptron(), stream(), rounds=5, out=out, overwrite=False)
    assert out.read_text(encoding="utf-8") == "old" and names(tmp_path) == ["t.jsonl"]


def test_overwrite_false_never_replaces_a_file_that_appears_during_the_game(tmp_path):
    out = tmp_path / "t.jsonl"

    def progress(done, total):
        if not out.exists():
            out.write_text("the other run's", encoding="utf-8")

    with pytest.raises(GameError, match="the file exists; the transcript is kept in"):
        play(Perceptron(), stream(), rounds=5, out=out, overwrite=False, progress=progress)
    assert out.read_text(encoding="utf-8") == "the other run's"
    (kept,) = tmp_path.glob("t.jsonl.*.partial")
    assert len(Transcript.load(kept)) == 5


def test_an_aborted_game_takes_the_name_when_it_is_free(tmp_path):
    out = tmp_path / "t.jsonl"
    with pytest.raises(ProtocolError) as caught:
        play(Perceptron(), Stopping(7, RuntimeError("boom")), rounds=20, out=out)
    assert names(tmp_path) == ["t.jsonl"]
    back = Transcript.load(out)
    assert back.status == "aborted" and len(back) == 6 and "boom" in back.reason
    assert f"keeps the 6 complete rounds, marked aborted: {out}" in caught.value.__notes__[0]


def test_an_aborted_game_never_replaces_an_existing_file(tmp_path):
    out = tmp_path / "t.jsonl"
    play(Perceptron(), stream(), rounds=30, out=out)
    before = out.read_bytes()
    with pytest.raises(KeyboardInterrupt) as caught:
        play(Perceptron(), Stopping(4, KeyboardInterrupt()), rounds=20, out=out)
    assert out.read_bytes() == before
    (kept,) = tmp_path.glob("t.jsonl.*.partial")
    back = Transcript.load(kept)
    assert back.status == "aborted" and len(back) == 3 and back.reason == "KeyboardInterrupt"
    assert str(kept) in caught.value.__notes__[0]


def test_an_interrupt_during_the_games_end_closes_the_file_aborted(tmp_path):
    class Stop:
        def __call__(self, done, total):
            pass

        def step(self, text):
            if text == "computing the digest":
                raise KeyboardInterrupt

    out = tmp_path / "t.jsonl"
    with pytest.raises(KeyboardInterrupt) as caught:
        play(Perceptron(), stream(), rounds=40, out=out, progress=Stop())
    back = Transcript.load(out)
    assert back.status == "aborted" and len(back) == 40 and back.reason == "KeyboardInterrupt"
    assert names(tmp_path) == ["t.jsonl"] and str(out) in caught.value.__notes__[0]


def test_an_interrupt_mid_write_leaves_whole_rounds_and_a_footer_agreeing(tmp_path, monkeypatch):
    """A write torn by an interrupt is cut back, and round lines beyond the footer dropped."""
    real_write = os.write
    calls = []

    def torn(fd, data):
        calls.append(len(data))
        if len(calls) == 2:  # the first block of round lines: half of it, then the interrupt
            real_write(fd, bytes(data[: len(data) // 2]))
            raise KeyboardInterrupt
        return real_write(fd, data)

    out = tmp_path / "t.jsonl"
    monkeypatch.setattr(os, "write", torn)
    with pytest.raises(KeyboardInterrupt):
        play(Perceptron(), stream(), rounds=200, out=out)
    monkeypatch.undo()
    back = Transcript.load(out)
    # round 64's line was queued when its flush was interrupted: the game kept rounds 1-63
    assert back.status == "aborted" and len(back) == 63
    again = play(Perceptron(), stream(), rounds=63)
    assert back.first_difference(again) is None


def test_a_full_disk_names_the_file_and_the_rounds_written(tmp_path, monkeypatch):
    real_write = os.write
    written = []

    def full(fd, data):
        if written:  # the header went through; every later write finds the disk full
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        written.append(len(data))
        return real_write(fd, data)

    out = tmp_path / "t.jsonl"
    monkeypatch.setattr(os, "write", full)
    with pytest.raises(GameError) as caught:
        play(Perceptron(), stream(), rounds=200, out=out)
    monkeypatch.undo()
    assert str(caught.value) == (
        f"{out}: the disk is full; 0 rounds were written before it "
        "(kept, with the header and no footer)"
    )
    assert not isinstance(caught.value.__cause__, OSError)  # one error, not two
    assert names(tmp_path) == ["t.jsonl"]  # the name was free: the file kept there
    back = Transcript.load(out, allow_incomplete=True)
    assert back.status == "incomplete" and len(back) == 0


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_dev_full_is_written_in_place_and_refused_with_one_error():
    with pytest.raises(GameError) as caught:
        play(Perceptron(), stream(), rounds=10, out="/dev/full")
    assert str(caught.value) == (
        "/dev/full: the disk is full; nothing of the transcript was written"
    )
    assert os.path.exists("/dev/full") and not os.path.isfile("/dev/full")


def test_a_device_out_is_written_in_place(tmp_path):
    tr = play(Perceptron(), stream(), rounds=10, out=os.devnull, overwrite=False)
    assert len(tr) == 10 and not os.path.isfile(os.devnull)


def test_two_games_writing_one_file_never_mix(tmp_path):
    """Each writes its own temporary file; the rename makes one file win whole."""
    out = tmp_path / "t.jsonl"
    errors = []

    def game(seed):
        try:
            play(Perceptron(), stream(seed), rounds=3000, out=out)
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=game, args=(seed,)) for seed in (1, 2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors and names(tmp_path) == ["t.jsonl"]
    back = Transcript.load(out)  # the footer's digest matches the rounds: one game, whole
    assert len(back) == 3000 and back.status == "complete"


def test_save_writes_through_a_temporary_file(tmp_path):
    tr = play(Perceptron(), Replay(instances=[[1.0], [-1.0]], labels=[1, -1]), rounds=2)
    path = tr.save(tmp_path / "a.jsonl")
    assert path == tmp_path / "a.jsonl" and names(tmp_path) == ["a.jsonl"]
    assert json.loads(path.read_text(encoding="utf-8").splitlines()[-1])["type"] == "footer"


def test_the_writer_refuses_a_folder(tmp_path):
    with pytest.raises(GameError, match="is a folder; expected a transcript file"):
        TranscriptWriter(tmp_path, {"rounds": 1})
    assert names(tmp_path) == []
