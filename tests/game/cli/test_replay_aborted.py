"""replay of a run that did not finish: said first, and only its recorded rounds re-played."""

from pathlib import Path

import attrs
import numpy as np
import pytest
from rich.console import Console

import game
from adversaries.streams import SeparableStream
from game.cli import main
from game.cli._replay import replay_transcript
from game.scenario import load_scenario
from game.transcript import Transcript
from learners.perceptron import Perceptron

#: The round whose instance the interrupted stream never gives: the run stops after STOP rounds.
STOP = 183

LONG = """\
description = "a game of 10^7 rounds, interrupted"
rounds = 10_000_000
seed = 0
loss = "zero-one"

[learner]
name = "perceptron"

[adversary]
name = "interrupted-stream"
dimension = 3
margin = 0.1
"""


class InterruptedStream(SeparableStream):
    """A separable stream that is interrupted (as by Ctrl-C) when asked for round STOP + 1."""

    def instance(self, history):
        if len(history) >= STOP:
            raise KeyboardInterrupt
        return super().instance(history)


class FailingPerceptron(Perceptron):
    """A Perceptron whose prediction fails on the instance whose first entry is ``fail_on``."""

    fail_on = None

    def predict(self, x):
        if float(np.asarray(x)[0]) == FailingPerceptron.fail_on:
            raise RuntimeError("the learner failed")
        return super().predict(x)


def replayed(capsys, path: Path) -> tuple[int, list[str], str]:
    status = main(["replay", str(path)])
    captured = capsys.readouterr()
    return status, captured.out.splitlines(), captured.err


@pytest.fixture
def interrupted(tmp_path, register, monkeypatch) -> Path:
    """The transcript of a 10^7-round scenario interrupted after STOP rounds."""
    register("interrupted-stream", InterruptedStream)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "long.toml").write_text(LONG)
    with pytest.raises(KeyboardInterrupt):
        load_scenario("long.toml").play(out="long.jsonl", check=False)
    return tmp_path / "long.jsonl"


def test_an_interrupted_run_replays_its_recorded_rounds_only(capsys, interrupted):
    record = Transcript.load(interrupted)
    assert record.status == "aborted" and len(record) == STOP  # the record this is about
    status, out, err = replayed(capsys, interrupted)
    # a replay of round STOP + 1 would be interrupted again (130), and of the scenario, 10^7 rounds
    assert status == 0, err
    assert out[0] == (
        "the transcript is of an aborted run (reason: KeyboardInterrupt), "
        f"{STOP} rounds recorded; replaying those {STOP} rounds"
    )
    assert out[1].startswith(f"identical: the {STOP} recorded rounds replay as recorded")
    assert "no such round" not in "\n".join(out) + err


def test_a_changed_round_of_an_aborted_record_is_named(capsys, interrupted):
    record = Transcript.load(interrupted)
    labels = record.labels.copy()
    labels[9] = -labels[9]
    changed = interrupted.with_name("changed.jsonl")
    attrs.evolve(record, labels=labels).save(
        changed
    )  # a record whose digest holds, of a game the scenario does not play
    status, out, err = replayed(capsys, changed)
    assert status == 1
    assert out[0].startswith("the transcript is of an aborted run (reason: KeyboardInterrupt)")
    assert err.startswith(f"failed: {changed}: the replay differs first at round 10: ")
    assert err.count("\n") == 1


def test_a_run_stopped_by_a_failing_player_replays_up_to_the_failure(
    capsys, tmp_path, register, monkeypatch
):
    register("failing-perceptron", FailingPerceptron)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.toml").write_text(
        LONG.replace('"perceptron"', '"failing-perceptron"').replace(
            '"interrupted-stream"', '"separable-stream"'
        )
    )
    scenario = load_scenario("s.toml")
    FailingPerceptron.fail_on = float(
        scenario.play(rounds=STOP + 1, check=False).instances[STOP, 0]
    )
    with pytest.raises(game.errors.ProtocolError):
        scenario.play(out="s.jsonl", check=False)
    status, out, err = replayed(capsys, tmp_path / "s.jsonl")
    assert status == 0, err
    assert out[0].startswith("the transcript is of an aborted run (reason: ")
    assert "the learner failed" in out[0]
    assert out[0].endswith(f", {STOP} rounds recorded; replaying those {STOP} rounds")
    assert f"differs first at round {STOP + 1}" not in err


def test_a_file_without_its_footer_is_an_incomplete_run(capsys, interrupted):
    lines = interrupted.read_text().splitlines(keepends=True)
    cut = interrupted.with_name("cut.jsonl")
    cut.write_text("".join(lines[:-1]))  # the footer lost: a run killed outright
    status, out, err = replayed(capsys, cut)
    assert status == 2 and err.startswith(f"error: {cut}: no footer") and not out
    console = Console(width=1_000, soft_wrap=True, record=True)
    assert replay_transcript(cut, console, allow_incomplete=True) == 0
    said = console.export_text().splitlines()
    assert said[0] == (
        "the transcript is of an incomplete run (no footer: the run stopped before it wrote "
        f"one), {STOP} rounds recorded; replaying those {STOP} rounds"
    )


def test_a_learner_replayed_against_its_record_stops_where_it_stopped(capsys, tmp_path):
    out = tmp_path / "game.jsonl"
    stream = InterruptedStream(dimension=3, margin=0.1, rng=np.random.default_rng(1))
    with pytest.raises(KeyboardInterrupt):
        game.play(Perceptron(), stream, rounds=10**9, out=out)
    assert "scenario" not in Transcript.load(out).header  # replayed with the recorded sequence
    status, lines, err = replayed(capsys, out)
    assert status == 0, err
    assert lines[0].endswith(f"{STOP} rounds recorded; replaying those {STOP} rounds")


def test_a_complete_record_says_nothing_of_an_abort(capsys, tmp_path):
    out = tmp_path / "done.jsonl"
    game.play(
        Perceptron(),
        SeparableStream(dimension=3, margin=0.1, rng=np.random.default_rng(1)),
        rounds=50,
        out=out,
    )
    status, lines, err = replayed(capsys, out)
    assert status == 0, err
    assert len(lines) == 1 and lines[0].startswith("identical: 50 rounds, digest sha256:")
