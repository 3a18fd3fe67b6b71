"""game.tournament: pairs that fit are played, the others reported, results the same anywhere."""

import csv
import struct
import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import game
from game.errors import ParameterError, ScenarioError
from game.players import BUILTIN, names
from game.scenario import builtin_scenarios
from game.sweep import (
    TOURNAMENT_COLUMNS,
    TournamentResult,
    builtin_tournaments,
    load_tournament,
    tournament,
    tournament_from_dict,
)

#: A small tournament of every kind of pair: played, unfit, failed at build, failed in round 1.
LEARNERS = ["perceptron", {"name": "winnow"}, {"name": "margin-perceptron", "dimension": 3}]
ADVERSARIES = {
    "separable-stream": {"dimension": 2, "margin": 0.2},
    "concept-stream": {"variables": 6},
    "noisy-stream": {"dimension": 2, "margin": -1.0},
}


def small(**options) -> TournamentResult:
    return tournament(LEARNERS, ADVERSARIES, seeds=3, rounds=40, **options)


@pytest.fixture(scope="module")
def serial() -> TournamentResult:
    return small(workers=1)


def test_one_and_two_workers_give_the_same_table(serial):
    pooled = small(workers=2, chunk_size=1)
    assert serial.matches(pooled)
    strip = [{k: v for k, v in r.items() if k != "wall_time"} for r in serial.rows]
    assert strip == [{k: v for k, v in r.items() if k != "wall_time"} for r in pooled.rows]
    assert [(p["status"], p["reason"]) for p in serial.pairs] == [
        (p["status"], p["reason"]) for p in pooled.pairs
    ]
    assert list(serial.rows[0]) == list(TOURNAMENT_COLUMNS)


def test_unfit_pairs_are_reported_and_not_played(serial):
    entry = serial.pair("winnow", "separable-stream")
    assert entry["status"] == "unfit"
    assert "winnow plays bits" in entry["reason"] and "cannot play each other" in entry["reason"]
    assert serial.games("winnow", "separable-stream") == []
    assert serial.pair("winnow", "concept-stream")["status"] == "played"
    assert len(serial.games("winnow", "concept-stream")) == 3


def test_a_failing_pair_does_not_stop_the_tournament(serial):
    refused = serial.pair("perceptron", "noisy-stream")  # the adversary refuses its margin
    assert refused["status"] == "failed"
    assert refused["reason"] == "adversary.margin: margin must be a number > 0, got -1.0"
    partner = serial.pair("margin-perceptron", "separable-stream")  # 3 dimensions against 2
    assert partner["status"] == "failed" and "\n" not in partner["reason"]
    assert "round 1" in partner["reason"]
    assert all(
        r["status"] == "error" for r in serial.games("margin-perceptron", "separable-stream")
    )
    assert serial.pair("perceptron", "separable-stream")["status"] == "played"
    assert len(serial.games("perceptron", "concept-stream")) == 3
    assert serial.complete


def test_the_summary_and_the_matrices(serial):
    s = {(e["learner"], e["adversary"]): e for e in serial.summary()}
    played = s[("perceptron", "separable-stream")]
    rows = serial.games("perceptron", "separable-stream")
    assert played["mistakes_mean"] == pytest.approx(sum(r["mistakes"] for r in rows) / 3)
    assert played["ratio_max"] <= 1 and played["bound_quantity"] == "updates"
    assert played["regret_mean"] is None  # no experts in a vector game
    mistakes = serial.matrix("mistakes")
    assert mistakes.shape == (3, 3)
    assert mistakes[0, 0] == played["mistakes_mean"]
    assert mistakes[1, 0] != mistakes[1, 0]  # NaN: winnow × separable-stream is unfit
    assert serial.status_matrix()[1] == ["unfit", "played", "unfit"]
    with pytest.raises(ParameterError, match="quantity"):
        serial.matrix("wins")


def test_expert_games_have_regret():
    r = tournament(
        ["weighted-majority", "perceptron"],
        {"expert-stream": {"experts": 8, "best_mistakes": 2}},
        seeds=2,
        rounds=60,
        workers=1,
    )
    for row in r.rows:
        tr = r.scenario(row["learner"], "expert-stream").play(seed=row["seed"])
        assert row["regret"] == tr.observed("regret")
    assert r.summary()[0]["regret_mean"] is not None


def test_the_csv_holds_every_game_and_every_pair_not_played(serial, tmp_path):
    path = serial.save(tmp_path / "t.csv")
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    unplayed = [p for p in serial.pairs if p["status"] != "played" and not serial.games(
        p["learner"], p["adversary"])]  # fmt: skip
    assert len(rows) == len(serial) + len(unplayed)
    unfit = [r for r in rows if r["status"] == "unfit"]
    assert {(r["learner"], r["adversary"]) for r in unfit} >= {("winnow", "separable-stream")}
    assert all(r["seed"] == "" and "cannot play" in r["reason"] for r in unfit)


@settings(max_examples=8, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    pair=st.sampled_from(
        [
            ("perceptron", "separable-stream"),
            ("winnow", "concept-stream"),
            ("weighted-majority", "expert-stream"),
            ("halving", "optimal-adversary"),
        ]
    ),
)
def test_a_row_is_the_pair_scenarios_game_of_its_seed(seed, pair):
    learner, adversary = pair
    tables = {
        "separable-stream": {"dimension": 3, "margin": 0.1},
        "concept-stream": {"variables": 6},
        "expert-stream": {"experts": 8, "best_mistakes": 1},
        "optimal-adversary": {},
    }
    r = tournament(
        [learner],
        {adversary: tables[adversary]},
        seeds=[seed],
        rounds=30,
        workers=1,
        concept_class={"builder": "thresholds", "n": 8},
    )
    (row,) = r.rows
    s = r.scenario(learner, adversary).play(seed=seed).summary()
    for key in ("rounds", "mistakes", "updates", "loss", "bound", "within_bound", "forced"):
        assert row[key] == s[key], key
    assert row["certificate_verified"] == s["certificate_verified"]


def test_bad_arguments_are_refused_before_any_game():
    with pytest.raises(ScenarioError, match="<tournament>: learners: unknown learner 'perceptorn'"):
        tournament(["perceptorn"], ["separable-stream"], seeds=1)
    with pytest.raises(ScenarioError, match=r"adversary\.separable-stream\.dimensions"):
        tournament(["perceptron"], {"separable-stream": {"dimensions": 2}}, seeds=1)
    with pytest.raises(ParameterError, match="learners"):
        tournament("perceptron", ["separable-stream"], seeds=1)
    with pytest.raises(ParameterError, match="given twice"):
        tournament(["soa", "soa"], ["optimal-adversary"], seeds=1)
    with pytest.raises(ScenarioError, match=r"concept_class\.m"):
        tournament(["soa"], ["optimal-adversary"], concept_class={"builder": "intervals", "m": 3})
    with pytest.raises(ParameterError, match="seeds"):
        tournament(["soa"], ["optimal-adversary"], seeds="0:0")


def test_the_file_format_names_the_file_and_the_key(tmp_path):
    good = {
        "tournament": {"learners": ["perceptron"], "adversaries": ["separable-stream"]},
        "adversary": {"separable-stream": {"dimension": 2, "margin": 0.1}},
    }
    spec = tournament_from_dict(good, source="t.toml")
    assert spec.seeds == range(5) and spec.rounds == 200
    cases = [
        ({"tournament": {"learners": ["perceptron"]}}, "t.toml: tournament.adversaries: missing"),
        ({**good, "rounds": 3}, "t.toml: rounds: unknown key"),
        ({**good, "tournament": {**good["tournament"], "seeds": "0:0"}}, "tournament.seeds"),
        ({**good, "tournament": {**good["tournament"], "loss": "hinge"}}, "tournament.loss"),
        ({**good, "learner": {"winnow": {}}}, "learner.winnow: a parameter table for a learner"),
        (
            {**good, "adversary": {"separable-stream": {"dim": 2}}},
            "t.toml: adversary.separable-stream.dim: separable-stream has no parameter 'dim'",
        ),
        ({**good, "tournament": {**good["tournament"], "learners": []}}, "non-empty list"),
        (
            {**good, "tournament": {**good["tournament"], "learners": ["winow"]}},
            "t.toml: tournament.learners: unknown learner 'winow'",
        ),
    ]
    for data, message in cases:
        with pytest.raises(ScenarioError) as info:
            tournament_from_dict(data, source="t.toml")
        assert message in str(info.value) and "\n" not in str(info.value)
    path = tmp_path / "bad.toml"
    path.write_text("[tournament\n")
    with pytest.raises(ScenarioError, match=r"bad\.toml: not valid TOML"):
        load_tournament(path)
    with pytest.raises(ScenarioError, match="did you mean 'builtin'"):
        load_tournament("builtn")


def test_the_builtin_tournament_plays_every_builtin_learner_and_is_no_scenario():
    assert "builtin" in builtin_tournaments()
    assert not any("tournament" in str(p) for p in builtin_scenarios().values())
    spec = load_tournament("builtin")
    learners = [n for n in BUILTIN if n in names("learner")]
    assert sorted(spec.learners) == sorted(learners) and len(learners) == 13
    assert spec.seeds == range(5)
    data = tomllib.loads(builtin_tournaments()["builtin"].read_text())
    assert set(data["adversary"]) <= set(data["tournament"]["adversaries"])


def test_the_heat_map_renders(serial, tmp_path):
    from game.viz.plots import plot_tournament, save_figure

    for quantity in ("mistakes", "ratio", "regret"):
        path = save_figure(plot_tournament(serial, quantity), tmp_path / f"{quantity}.png")
        width, height = struct.unpack(">II", path.read_bytes()[16:24])
        assert width > 400 and height > 250
    ax = plot_tournament(serial).axes[0]
    texts = [t.get_text() for t in ax.texts]
    assert texts.count("unfit") == 2 and texts.count("failed") == 4
    assert [t.get_text() for t in ax.get_xticklabels()] == list(ADVERSARIES)


def test_the_facade_exports_it():
    assert game.tournament is tournament and game.TournamentResult is TournamentResult
