"""Human players through a scripted seat: bad moves re-asked, realizability kept,
the certificate checked, the bounds reported, the end of the input, and replay."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console

from adversaries.halving import HalvingLowerBound
from game import HumanAdversary, HumanLearner, ParameterError, Transcript, play
from game.cli._replay import replay_transcript
from game.human import (
    ScriptedSeat,
    at_the_table,
    format_instance,
    human_scenario,
    parse_instance,
    parse_prediction,
    recorded_moves,
    replaying,
    verdict,
)
from game.scenario import load_scenario
from learners.boolean import ConjunctionLearner
from learners.experts import Halving

THRESHOLDS = [[1 if x >= k else -1 for x in range(8)] for k in range(9)]


def test_a_human_learner_is_asked_again_and_the_lower_bound_is_forced():
    seat = ScriptedSeat(["yes", "2", "+", "0.5", "-", "+"])
    game = play(HumanLearner(seat=seat), HalvingLowerBound(experts=8), rounds=10)
    assert len(game) == 3
    assert seat.refusals == [
        "a prediction is + or - (or +1, -1), got 'yes'",
        "a prediction is + or - (or +1, -1), got '2'",
        "a prediction is + or - (or +1, -1), got '0.5'",
    ]
    assert game.predictions.tolist() == [1.0, -1.0, 1.0]
    assert int(game.mistakes.sum()) == 3 == game.lower_bound.value
    assert verdict(game, "learner").endswith("forced 3: the lower bound was forced")
    shown = "\n".join(seat.transcript)
    assert "experts consistent so far: 8 of 8" in shown
    assert "experts consistent so far: 2 of 8" in shown
    assert "expert 7: advises" in shown  # up to 8 experts are listed with their losses


def test_a_human_learner_sees_the_version_space_of_a_finite_class():
    seat = ScriptedSeat(["+", "+"])
    person = HumanLearner(concept_class=THRESHOLDS, seat=seat)
    assert person.predict(3) == 1.0 and person.update(3, -1) is True  # a mistake
    assert person.predict(6) == 1.0 and person.update(6, 1) is False
    shown = "\n".join(seat.transcript)
    assert "version space: 9 of 9 hypotheses consistent so far" in shown
    assert "version space: 5 of 9 hypotheses consistent so far" in shown
    assert "on point 6: 3 of them say +1, 2 say −1" in shown
    assert "h4  −−−−++++" in shown  # at most 8 left: listed


def test_a_prediction_may_be_a_number_when_the_loss_is_not_zero_one():
    assert parse_prediction("0.25", "absolute") == 0.25
    assert parse_prediction("-", "squared") == -1.0
    for bad in ("1.5", "nan", "half"):
        with pytest.raises(ValueError, match="prediction"):
            parse_prediction(bad, "absolute")


def test_the_end_of_the_input_stops_a_human_learner_keeping_the_rounds(tmp_path):
    out = tmp_path / "g.jsonl"
    with pytest.raises(KeyboardInterrupt, match="the input ended"):
        play(
            HumanLearner(seat=ScriptedSeat(["+"])), HalvingLowerBound(experts=8), rounds=9, out=out
        )
    kept = Transcript.load(out)
    assert (kept.status, len(kept), kept.reason) == ("aborted", 1, "the input ended")


def test_a_human_adversary_must_stay_realizable_and_its_certificate_is_checked():
    seat = ScriptedSeat(
        ["x", "8", "4", "+", "5", "-", "+", "3", "-", "2", "+", "-", "q"]  # 5 is + once 4 is
    )
    person = HumanAdversary(concept_class=THRESHOLDS, seat=seat)
    game = play(Halving(concept_class=THRESHOLDS), person, rounds=20)
    assert game.raw_instances == [4, 5, 3, 2]
    assert game.labels.tolist() == [1, 1, -1, -1]
    assert seat.refusals == [
        "a point is an index, got 'x'",
        "a point is an index from 0 to 7, got 8",
        "no hypothesis left labels point 5 with −1: the game must stay realizable (+1 keeps 5)",
        "no hypothesis left labels point 2 with +1: the game must stay realizable (−1 keeps 1)",
    ]
    assert game.status == "complete" and game.certificate_verified is True
    assert "h4" in game.certificate.describe()
    assert game.bound.value == pytest.approx(math.log2(9)) and game.within_bound
    line = verdict(game, "adversary")
    assert "verified by the referee" in line and "mistakes ≤ 3.16993 held" in line


def test_without_a_class_a_human_adversary_hands_over_no_certificate():
    seat = ScriptedSeat(["011", "+", "01", "110", "-"])  # then the script ends: the game ends
    game = play(ConjunctionLearner(), HumanAdversary(kind="bits", size=3, seat=seat), rounds=9)
    assert len(game) == 2 and game.status == "complete"
    assert game.certificate is None
    assert seat.refusals == ["a bit vector has 3 bits, got 2"]
    assert "no finite class: you hand over no certificate" in seat.transcript
    assert "you handed over no certificate" in verdict(game, "adversary")


def test_a_human_adversary_needs_a_kind_or_a_class():
    with pytest.raises(ParameterError, match="kind"):
        HumanAdversary()
    with pytest.raises(ParameterError, match="kind"):
        HumanAdversary(kind="moves")
    with pytest.raises(ParameterError, match="kind"):
        HumanAdversary(concept_class=THRESHOLDS, kind="bits")


kinds = st.sampled_from(["point", "bits", "vector", "advice"])


@given(kind=kinds, data=st.data())
def test_a_recorded_instance_reads_back_as_it_was(kind, data):
    n = data.draw(st.integers(1, 6))
    if kind == "point":
        x = data.draw(st.integers(0, 50))
    elif kind == "bits":
        x = np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=np.uint8)
    elif kind == "vector":
        values = st.floats(allow_nan=False, allow_infinity=False)
        x = np.array(data.draw(st.lists(values, min_size=n, max_size=n)), dtype=np.float64)
    elif data.draw(st.booleans()):
        x = np.array(data.draw(st.lists(st.sampled_from([-1, 1]), min_size=n, max_size=n)),
                     dtype=np.int8)  # fmt: skip
    else:
        values = st.floats(-1, 1)
        x = np.array(data.draw(st.lists(values, min_size=n, max_size=n)), dtype=np.float64)
    back = parse_instance(format_instance(x, kind), kind, None if kind == "point" else n)
    if kind == "point":
        assert back == x
    else:
        assert back.dtype == x.dtype and np.array_equal(back, x)


@pytest.mark.parametrize(
    ("scenario", "side", "answers"),
    [
        ("halving-lower-bound", "learner", ["+", "-", "-", "+", "+", "-", "+", "+", "-", "+"]),
        ("halving-class-thresholds", "adversary", ["4", "+", "1", "-", "6", "+", ""]),
        ("halving-class-thresholds", "learner", ["-", "+", "+", "-"]),  # the rest: Ctrl-D
    ],
)
def test_a_human_game_replays_to_the_same_digest(tmp_path, scenario, side, answers):
    out = tmp_path / "game.jsonl"
    with at_the_table(ScriptedSeat(answers)):
        game = human_scenario(load_scenario(scenario), side)
        try:
            recorded = game.play(out=out, check=False)
        except KeyboardInterrupt:
            recorded = Transcript.load(out)
    assert recorded.header[side]["name"] == f"human-{side}"
    kept = Transcript.load(out)
    moves = recorded_moves(kept)
    assert moves == [a for a in answers if a] + (["q"] if "" in answers else [])
    console = Console(record=True, width=200)
    assert replay_transcript(out, console) == 0
    said = console.export_text()
    assert "identical" in said
    if kept.status == "complete":
        assert kept.digest in said


def test_a_game_no_person_played_is_replayed_unchanged():
    game = play(Halving(), HalvingLowerBound(experts=4), rounds=5)
    with replaying(game) as seat:
        assert seat is None


def test_graded_advice_shows_the_best_expert_and_the_loss_so_far():
    seat = ScriptedSeat(["0.5", "-0.25"])
    person = HumanLearner(loss="absolute", kind="advice", seat=seat)
    f = np.array([0.5, -1.0, 1.0])
    assert person.predict(f) == 0.5 and person.update(f, 1) is False
    assert person.predict(f) == -0.25 and person.update(f, 1) is True
    shown = "\n".join(seat.transcript)
    assert "advice of 3 experts: 2 say +1, 1 say −1" in shown
    assert "best expert so far: expert 2, cumulative loss 0" in shown
    assert "expert 0: advises +0.5, cumulative loss 0.25" in shown
    assert "your absolute loss so far: 0.25)" in shown
    assert "your absolute loss so far: 0.875)" in shown
    assert "experts consistent so far" not in shown  # graded advice: no expert is "right"
    with pytest.raises(ParameterError, match="kind"):
        HumanLearner(kind="advise")
