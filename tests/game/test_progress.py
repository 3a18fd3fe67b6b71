"""Progress that tells the truth: ``play(progress=...)``, its steps, and the default display.

``progress=True`` shows :class:`game.engine.RoundsBar` (as ``sweep(progress=True)``
shows its bar of games); a callback with a ``step`` method is told each step of
the game's end as it begins, and the digest is one of them. The display is
read here as a console that is not a terminal prints it: its last frame, once.
"""

import io
import re

import numpy as np
import pytest
from rich.console import Console

import game.engine as engine
import game.transcript._transcript as transcript_module
from adversaries import Replay, SeparableStream
from game import GameError, ParameterError, Transcript, load_scenario, play, sweep
from game.engine import RoundsBar
from learners import Perceptron

STEPS = [
    "checking the instances",
    "verifying the certificate",
    "computing the bounds",
    "computing the digest",
]


def _stream(seed=0):
    return SeparableStream(dimension=5, margin=0.1, radius=1.0, rng=np.random.default_rng(seed))


def shown_steps(lines):
    """The step lines of a display: (mark, text), each line checked to end with its time."""
    steps = []
    for line in lines:
        m = re.fullmatch(r"([✓✗]) (.+?) +\d+\.\d s *", line)
        assert m is not None, f"not a step line: {line!r}"
        steps.append(m.groups())
    return steps


class Recorder:
    """A progress callback with steps that writes down everything it is told."""

    def __init__(self, fail_at="never"):
        self.events, self.fail_at = [], fail_at

    def __call__(self, done, total):
        self.events.append(("rounds", done, total))

    def step(self, text):
        self.events.append(("step", text))
        if text == self.fail_at:
            raise RuntimeError("no screen")


# -- what progress accepts ----------------------------------------------------------------------
GOOD = [True, False, None, np.bool_(True), np.bool_(False), lambda done, total: None]
BAD = [1, 0, "yes", np.int64(1), [True], 0.5]


@pytest.mark.parametrize("value", GOOD, ids=repr)
def test_play_and_sweep_take_a_bool_none_or_a_callable(value):
    plain = play(Perceptron(), _stream(), rounds=50)
    assert play(Perceptron(), _stream(), rounds=50, progress=value) == plain
    assert len(sweep(load_scenario("perceptron-separable"), 2, workers=1, progress=value)) == 2


@pytest.mark.parametrize("value", BAD, ids=repr)
def test_anything_else_is_refused_naming_progress(value):
    calls = [
        lambda: play(Perceptron(), _stream(), rounds=5, progress=value),
        lambda: sweep(load_scenario("perceptron-separable"), 1, workers=1, progress=value),
        lambda: load_scenario("perceptron-separable").play(rounds=5, progress=value),
    ]
    for call in calls:
        with pytest.raises(ParameterError) as info:
            call()
        assert info.value.parameter == "progress"
        assert str(info.value).startswith("progress must be True, False, None or a callable")


# -- the steps of the game's end ----------------------------------------------------------------
def test_a_callback_with_steps_hears_the_rounds_then_each_step_of_the_end(monkeypatch):
    recorder = Recorder()
    digest_columns = transcript_module.digest_columns

    def watched(columns):  # the digest's costly part, placed among the steps
        recorder.events.append(("digest computed",))
        return digest_columns(columns)

    monkeypatch.setattr(transcript_module, "digest_columns", watched)
    tr = play(Perceptron(), _stream(), rounds=300, progress=recorder)
    assert recorder.events[-7:] == [
        ("rounds", 300, 300),
        ("step", STEPS[0]),
        ("step", STEPS[1]),
        ("step", STEPS[2]),
        ("step", STEPS[3]),
        ("digest computed",),
        ("step", None),
    ]
    count = len(recorder.events)
    assert tr.digest.startswith("sha256:") and len(recorder.events) == count  # already done


def test_only_the_steps_a_game_has_are_told():
    class Plain:  # no certificate, no bound
        presents = "vector"

        def __init__(self):
            self.left = 3

        def instance(self, history):
            self.left -= 1
            return None if self.left < 0 else np.ones(2)

        def label(self, x, p, history):
            return 1

    class Stubborn:
        deterministic = True
        plays = frozenset({"vector"})

        def predict(self, x):
            return 1.0

        def update(self, x, y):
            return False

    recorder = Recorder()
    play(Stubborn(), Plain(), rounds=10, progress=recorder)
    steps = [e[1] for e in recorder.events if e[0] == "step"]
    assert recorder.events[0] == ("rounds", 3, 10)
    assert steps == ["checking the instances", "computing the digest", None]


def test_a_plain_callback_is_called_once_when_the_rounds_are_over():
    calls = []
    tr = play(Perceptron(), _stream(), rounds=200, progress=lambda d, n: calls.append((d, n)))
    assert calls == [(200, 200)] and len(tr) == 200  # a short game: no report before the end


def test_a_step_that_raises_stops_the_game_and_keeps_the_file(tmp_path):
    out = tmp_path / "t.jsonl"
    with pytest.raises(GameError, match="progress callback raised RuntimeError at the step"):
        play(Perceptron(), _stream(), rounds=40, out=out, progress=Recorder(STEPS[1]))
    kept = Transcript.load(out)
    assert len(kept) == 40 and kept.status == "aborted"


# -- the default display --------------------------------------------------------------------------
def test_progress_true_shows_the_rounds_and_the_steps_on_standard_error(monkeypatch, capsys):
    monkeypatch.setattr(engine, "BAR_DELAY", 0.0)
    tr = play(Perceptron(), _stream(), rounds=500, progress=True)
    err = capsys.readouterr().err
    lines = err.splitlines()
    assert lines[0].startswith("perceptron vs separable-stream")
    assert "500/500 rounds" in lines[0] and "rounds/s" in lines[0]
    assert shown_steps(lines[1:]) == [("✓", step) for step in STEPS]
    assert tr == play(Perceptron(), _stream(), rounds=500)  # the display changes nothing


def test_progress_true_shows_nothing_for_a_game_shorter_than_its_delay(capsys):
    play(Perceptron(), _stream(), rounds=20, progress=True)
    assert capsys.readouterr().err == ""


def _bar(**kw):
    shown = io.StringIO()
    return RoundsBar("game", delay=0.0, console=Console(file=shown, width=120), **kw), shown


def test_a_step_cut_short_by_an_error_is_marked_as_such():
    bar, shown = _bar()
    liar = Replay(instances=[[1.0], [-1.0]], labels=[1, -1], separator=[-1.0])
    with pytest.raises(GameError, match="disagrees with round 1"):
        try:
            play(Perceptron(), liar, rounds=2, progress=bar)
        finally:
            bar.close()
    lines = shown.getvalue().splitlines()
    assert shown_steps(lines[1:]) == [  # nothing after the step that failed
        ("✓", "checking the instances"),
        ("✗", "verifying the certificate"),
    ]


def test_the_bar_shows_rounds_per_second_and_stops_where_the_game_stopped():
    bar, shown = _bar()
    bar(500, 1000)
    bar(900, 1000)
    bar.close()  # no step: the rounds never ended, the bar says how far they went
    text = shown.getvalue()
    assert "game" in text and "rounds/s" in text and "900/1000" in text


def test_the_rounds_end_at_the_rounds_played_when_the_first_step_begins():
    bar, shown = _bar()
    bar(700, 1000)  # the adversary ended the game after 700 rounds
    bar.step("computing the digest")
    bar.step(None)
    bar.close()
    assert "700/700" in shown.getvalue()


def test_a_disabled_bar_draws_nothing_and_a_closed_one_nothing_more():
    bar, shown = _bar(enabled=False)
    bar(500, 1000)
    bar.step("computing the digest")
    bar.close()
    assert shown.getvalue() == ""
    bar, shown = _bar()
    bar(10, 10)
    bar.close()
    drawn = shown.getvalue()
    bar(20, 20)
    bar.step("computing the digest")
    bar.close()
    assert shown.getvalue() == drawn and "10/10" in drawn


def test_the_display_appears_late_with_the_whole_story():
    bar, shown = _bar()
    bar.delay = 5.0
    bar(1000, 1000)  # too early: not shown yet
    bar.step("verifying the certificate")
    assert shown.getvalue() == ""
    bar.start -= 6.0  # six seconds on
    bar.step("computing the digest")  # shown now, with the step before it
    bar.close()
    lines = shown.getvalue().splitlines()
    assert shown_steps(lines[1:]) == [
        ("✓", "verifying the certificate"),
        ("✗", "computing the digest"),
    ]


# -- sweeps ------------------------------------------------------------------------------------
def test_a_sweep_tells_a_callback_the_games_done():
    calls = []
    result = sweep(
        load_scenario("perceptron-separable"),
        6,
        workers=1,
        chunk_size=2,
        progress=lambda d, n: calls.append((d, n)),
    )
    assert len(result) == 6 and calls == [(2, 6), (4, 6), (6, 6)]


def test_a_sweep_callback_that_raises_stops_it_as_a_game_error():
    def boom(done, total):
        raise RuntimeError("no screen")

    with pytest.raises(GameError, match="progress callback raised RuntimeError after 2 games"):
        sweep(load_scenario("perceptron-separable"), 4, workers=1, chunk_size=2, progress=boom)


def test_the_rounds_keep_their_time_when_the_steps_run_on():
    bar, shown = _bar()
    bar.start -= 3.0
    bar(1000, 1000)
    rounds = bar._rounds.tasks[0]
    rounds.start_time -= 3.0  # the rounds took three seconds
    bar.step("computing the digest")
    ended = rounds.stop_time  # the rounds' clock stops as the first step begins
    bar._steps.tasks[0].start_time -= 7.0  # the digest took seven
    bar.step(None)
    bar.close()
    assert rounds.stop_time == ended  # and closing does not restart it
    first, step = shown.getvalue().splitlines()
    assert re.search(r"1000/1000 rounds, 33[0-9] rounds/s +3\.\d s *$", first), first
    assert re.fullmatch(r"✓ computing the digest +7\.\d s *", step), step
