"""game.sweep._sweep: seeds, grid, chunks and executors give one table, value for value."""

import concurrent.futures as cf
import csv
from pathlib import Path

import numpy as np
import pytest

import game
from game import GameError, ParameterError, ScenarioError, SweepResult, load_scenario
from game.scenario import Scenario, scenario_from_dict
from game.sweep import ROW_COLUMNS, parse_seeds, sweep

SCENARIOS = Path(__file__).resolve().parents[3] / "scenarios"
SEPARABLE = SCENARIOS / "perceptron_separable.toml"
REPLAY = SCENARIOS / "replay_perceptron_balcan.toml"


def small(rounds=300, **adversary) -> Scenario:
    """The separable scenario, shorter (its own folder, so data paths stay valid)."""
    spec = {
        "rounds": rounds,
        "seed": 0,
        "learner": {"name": "perceptron"},
        "adversary": {"name": "separable-stream", "dimension": 8, "margin": 0.1, **adversary},
    }
    return scenario_from_dict(spec, source=SCENARIOS / "small.toml")


def test_game_s_of_a_sweep_is_the_scenarios_game_with_seed_s():
    result = sweep(SEPARABLE, seeds=[3, 0], workers=1, digests=True)
    scenario = load_scenario(SEPARABLE)
    for row in result:
        tr = scenario.play(seed=row["seed"], check=False)
        s = tr.summary()
        assert (row["mistakes"], row["updates"], row["bound"], row["digest"]) == (
            s["mistakes"],
            s["updates"],
            s["bound"],
            s["digest"],
        )
    assert [row["seed"] for row in result] == [3, 0]  # the order the seeds were given
    assert result[1]["mistakes"] == scenario.expect["mistakes"]  # seed 0 is the scenario's game


def test_serial_pool_and_lockstep_give_the_same_table():
    sc, grid = small(), {"adversary.margin": [0.05, 0.2], "learner.zero_label": [1, -1]}
    serial = sweep(sc, seeds=10, grid=grid, workers=1, lockstep=False, digests=True)
    pool = sweep(sc, seeds=10, grid=grid, workers=2, chunk_size=3, lockstep=False, digests=True)
    lock = sweep(sc, seeds=10, grid=grid, workers=2, chunk_size=4, digests=True)
    assert serial.lockstep == 0 and lock.lockstep > 0
    assert len(serial) == 40 and serial.complete
    assert serial.matches(pool) and serial.matches(lock)
    assert serial.column("wall_time") != [None] * 40


def test_any_executor_gives_the_same_table():
    sc = small()
    with cf.ThreadPoolExecutor(3) as threads:
        threaded = sweep(sc, seeds=9, executor=threads, chunk_size=2, digests=True)
    assert threaded.matches(sweep(sc, seeds=9, workers=1, digests=True))


def test_rows_have_the_documented_columns():
    result = sweep(small(), seeds=2, workers=1)
    assert result.columns == ["seed", *ROW_COLUMNS]
    row = result[0]
    assert set(row) == set(result.columns)
    assert row["status"] == "complete" and row["reason"] is None
    assert row["bound_quantity"] == "updates" and row["within_bound"] is True
    assert row["certificate_verified"] is True and row["lower_bound"] is None
    assert row["loss"] == float(row["mistakes"])


def test_a_grid_adds_its_keys_and_a_point_column():
    result = sweep(small(), seeds=2, grid={"rounds": [10, 20], "loss": ["absolute"]}, workers=1)
    assert result.columns[:4] == ["point", "rounds", "loss", "seed"]
    assert [(r["point"], r["seed"]) for r in result] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    # the "rounds" column is the game's length, which the grid sets here
    assert [r["rounds"] for r in result] == [10, 10, 20, 20]
    assert result.points == [{"rounds": 10, "loss": "absolute"}, {"rounds": 20, "loss": "absolute"}]


def test_the_same_seeds_are_played_at_every_point():
    # common random numbers: the stream's separator is the same at every margin
    result = sweep(
        small(), seeds=1, grid={"adversary.margin": [0.1, 0.2]}, workers=1, transcripts=None
    )
    assert [r["seed"] for r in result] == [0, 0]


class Refuse(cf.Executor):
    def submit(self, fn, *args, **kwargs):
        raise AssertionError("a game was submitted")


@pytest.mark.parametrize(
    "grid, message",
    [
        ({"adversary.margn": [0.1]}, "adversary.margn: unknown parameter of 'separable-stream'"),
        ({"adversary.margin": [0.1, -1.0]}, "adversary.margin = -1.0: adversary.margin"),
        ({"margin": [0.1]}, "grid key 'margin': expected 'rounds', 'loss'"),
        ({"seed": [1, 2]}, "seeds are swept with seeds="),
        ({"adversary.margin": []}, "expected a non-empty list of values"),
        ({"adversary.margin": 0.1}, "expected a non-empty list of values"),
        ({"learner.name": ["perceptorn"]}, "did you mean 'perceptron'"),
        ({"rounds": [-5]}, "rounds: expected an integer from 0"),
        ({"adversary.rng": [1]}, "is set by the scenario"),
    ],
)
def test_a_bad_grid_is_a_scenario_error_before_any_game(tmp_path, grid, message):
    folder = tmp_path / "transcripts"
    with pytest.raises(ScenarioError, match=message) as info:
        sweep(small(), seeds=5, grid=grid, executor=Refuse(), transcripts=folder)
    assert str(info.value).startswith(str(SCENARIOS / "small.toml"))
    assert not folder.exists()


@pytest.mark.parametrize(
    "seeds, expected",
    [
        (3, [0, 1, 2]),
        ("0:3", [0, 1, 2]),
        ("7", [7]),
        ("1:10:4,20", [1, 5, 9, 20]),
        (np.arange(2), [0, 1]),
        (np.int64(2), [0, 1]),
        ([np.int32(4), 5], [4, 5]),
        ([], []),
    ],
)
def test_seeds(seeds, expected):
    assert list(parse_seeds(seeds)) == expected


@pytest.mark.parametrize(
    "seeds, parameter, message",
    [
        (-1, "seeds", "seeds must be an integer ≥ 0, got -1"),
        (True, "seeds", "seeds must be an integer ≥ 0, got True"),
        ([1, 1], "seeds", r"seeds must be distinct seeds, got \[1, 1\] \(seed 1 is given twice\)"),
        ("0:2,1", "seeds", "seed 1 is given twice"),
        ([0.5], "seed", "seed must be an integer ≥ 0, got 0.5"),
        ([True], "seed", "seed must be an integer ≥ 0, got True"),
        ([np.int64(-2)], "seed", "seed must be an integer ≥ 0, got -2"),
        ("a", "seeds", "seeds must be seeds and ranges A:B.*'a' is not a seed or a range"),
        ("0:x", "seeds", "not a seed or a range"),
        ("1:2:3:4", "seeds", "not a seed or a range"),
        (None, "seeds", "seeds must be a number of seeds, an iterable of seeds or text, got None"),
        (2.5, "seeds", "seeds must be an integer ≥ 0, got 2.5"),
    ],
)
def test_bad_seeds_are_parameter_errors_naming_them(seeds, parameter, message):
    with pytest.raises(ParameterError, match=message) as info:
        parse_seeds(seeds)
    assert info.value.parameter == parameter
    assert isinstance(info.value, GameError)  # callers that catch GameError still do


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"workers": 0}, "workers must be an integer ≥ 1"),
        ({"workers": True}, "workers must be an integer ≥ 1"),
        ({"chunk_size": 0}, "chunk_size must be an integer ≥ 1"),
        ({"chunk_size": 2.0}, "chunk_size must be an integer ≥ 1"),
        ({"executor": object()}, "concurrent.futures.Executor"),
    ],
)
def test_bad_options(kwargs, message):
    with pytest.raises(ParameterError, match=message) as info:
        sweep(small(), seeds=2, **kwargs)
    assert info.value.parameter == next(iter(kwargs))


def test_no_seeds_no_games():
    result = sweep(small(), seeds=[], workers=1)
    assert len(result) == 0 and result.complete and result.summary() == []


def test_a_sweep_of_a_replay_scenario_reads_its_data_file_once_per_point(monkeypatch):
    reads = []
    original = Scenario._data

    def counting(self, key, value):
        reads.append(key)
        return original(self, key, value)

    monkeypatch.setattr(Scenario, "_data", counting)
    grid = {"learner.update": ["mistake", "nonpositive"]}
    result = sweep(REPLAY, seeds=3, grid=grid, workers=1, lockstep=False)
    # loading the scenario, then per point its validation and its resolved players
    assert len(reads) == 1 + 2 * 2
    assert len(result) == 6 and not result.violations()
    assert result[0]["mistakes"] == load_scenario(REPLAY).expect["mistakes"]


# -- the table ---------------------------------------------------------------------
class Boastful:
    """A Perceptron that claims a bound of 3 updates (false on most games)."""

    deterministic = True
    plays = frozenset({"vector"})

    def __init__(self):
        from learners import Perceptron

        self.inner = Perceptron()

    def predict(self, x):
        return self.inner.predict(x)

    def update(self, x, y):
        return self.inner.update(x, y)

    def mistake_bound(self, transcript):
        return game.Bound(3.0, "updates ≤ 3", "nowhere", quantity="updates")


@pytest.fixture
def boastful(register):
    register("boastful-perceptron", Boastful)
    return small(rounds=200)


def test_games_over_their_bound_are_reported_with_their_seeds(boastful):
    spec = dict(boastful.spec, learner={"name": "boastful-perceptron"})
    sc = scenario_from_dict(spec, source=boastful.source)
    result = sweep(sc, seeds=6, workers=1)
    over = [r["seed"] for r in result if r["updates"] > 3]
    assert over and [r["seed"] for r in result.violations()] == over
    summary = result.summary()[0]
    assert summary["violations"] == len(over) and summary["violation_seeds"] == over
    assert summary["bound_min"] == summary["bound_median"] == 3.0


def test_the_summary_gives_mean_quantiles_and_max_per_point():
    result = sweep(small(), seeds=12, grid={"adversary.margin": [0.05, 0.3]}, workers=1)
    summaries = result.summary(quantiles=(0.25, 0.5))
    assert [s["adversary.margin"] for s in summaries] == [0.05, 0.3]
    for s, margin in zip(summaries, [0.05, 0.3], strict=True):
        mistakes = np.array([r["mistakes"] for r in result if r["adversary.margin"] == margin])
        assert s["games"] == 12 and s["errors"] == 0
        assert s["mistakes_mean"] == pytest.approx(mistakes.mean())
        assert s["mistakes_q25"] == np.quantile(mistakes, 0.25)
        assert s["mistakes_q50"] == np.median(mistakes)
        assert s["mistakes_max"] == mistakes.max()
        assert s["bound_quantity"] == "updates" and s["violations"] == 0
        assert s["bound_min"] <= s["bound_median"]
    with pytest.raises(GameError, match="quantiles"):
        result.summary(quantiles=(2,))


def test_a_game_that_ends_with_an_error_is_a_row_with_its_message(tmp_path):
    np.save(tmp_path / "X.npy", np.array([[1.0, 0.0], [0.0, 1.0]]))
    np.save(tmp_path / "y.npy", np.array([1, 1]))
    spec = {
        "rounds": 5,
        "learner": {"name": "perceptron"},
        "adversary": {
            "name": "replay",
            "instances": "X.npy",
            "labels": "y.npy",
            "separator": [1.0, -1.0],  # disagrees with round 2
        },
    }
    sc = scenario_from_dict(spec, source=tmp_path / "bad.toml")
    for lockstep in (True, False):
        result = sweep(sc, seeds=2, workers=1, lockstep=lockstep)
        assert [r["status"] for r in result] == ["error", "error"]
        assert "disagrees with round 2" in result[0]["reason"]
        assert result[0]["mistakes"] is None
        assert result.summary()[0]["error_seeds"] == [0, 1]


# -- files -------------------------------------------------------------------------
def test_csv_pandas_and_parquet(tmp_path):
    result = sweep(small(), seeds=4, grid={"adversary.margin": [0.1, 0.2]}, workers=1)
    path = result.save(tmp_path / "out" / "r.csv")
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    assert [int(r["seed"]) for r in rows] == [r["seed"] for r in result]
    assert [float(r["bound"]) for r in rows] == result.column("bound")  # exact round trip
    assert rows[0]["lower_bound"] == "" and rows[0]["within_bound"] == "True"
    pd = pytest.importorskip("pandas")
    frame = result.to_pandas()
    assert list(frame.columns) == result.columns and len(frame) == 8
    back = pd.read_csv(path)
    assert back["mistakes"].tolist() == result.column("mistakes")
    assert back["within_bound"].tolist() == result.column("within_bound")
    pytest.importorskip("pyarrow")
    parquet = result.save(tmp_path / "r.parquet")
    assert pd.read_parquet(parquet)["mistakes"].tolist() == result.column("mistakes")


def test_bad_output_paths(tmp_path):
    result = sweep(small(), seeds=1, workers=1)
    with pytest.raises(GameError, match=r"\.csv or \.parquet"):
        result.save(tmp_path / "r.txt")
    (tmp_path / "file").write_text("")
    with pytest.raises(GameError, match="cannot write"):
        result.to_csv(tmp_path / "file" / "r.csv")
    with pytest.raises(GameError, match="no column"):
        result.column("mistakse")


@pytest.mark.parametrize("lockstep", [True, False])
def test_kept_transcripts_replay_as_recorded(tmp_path, lockstep):
    from game.cli import main

    sweep(SEPARABLE, seeds=[4, 5], workers=1, transcripts=tmp_path, lockstep=lockstep)
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["seed-4.jsonl", "seed-5.jsonl"]
    assert main(["replay", str(tmp_path / "seed-5.jsonl")]) == 0
    kept = game.Transcript.load(tmp_path / "seed-4.jsonl")
    assert kept == load_scenario(SEPARABLE).play(seed=4, check=False)


def test_transcripts_of_a_grid_are_named_by_point(tmp_path):
    sweep(
        small(), seeds=[1], grid={"adversary.margin": [0.1, 0.2]}, workers=1, transcripts=tmp_path
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "point-0-seed-1.jsonl",
        "point-1-seed-1.jsonl",
    ]


def test_a_result_says_how_it_was_made():
    result = sweep(small(), seeds=3, workers=1)
    assert isinstance(result, SweepResult)
    assert result.requested == 3 and not result.interrupted and result.complete
    assert result.scenario.endswith("small.toml") and result.elapsed > 0
    assert repr(result) == "SweepResult(3 games of 3)"


class Interrupting:
    """A learner whose third game played is interrupted (KeyboardInterrupt) on its first round."""

    deterministic = True
    plays = frozenset({"vector"})
    played = 0

    def __init__(self):
        self.started = False

    def predict(self, x):
        if not self.started:
            self.started = True
            Interrupting.played += 1
        if Interrupting.played == 3:
            raise KeyboardInterrupt
        return 1.0

    def update(self, x, y):
        return False


def test_ctrl_c_in_this_process_keeps_the_games_already_finished(tmp_path, register):
    register("interrupting", Interrupting)
    Interrupting.played = 0
    spec = dict(small(rounds=20).spec, learner={"name": "interrupting"})
    sc = scenario_from_dict(spec, source=SCENARIOS / "small.toml")
    result = sweep(sc, seeds=10, workers=1, chunk_size=2, transcripts=tmp_path)
    assert result.interrupted and not result.complete
    assert [r["seed"] for r in result] == [0, 1]  # the third game (seed 2) was cut short
    assert repr(result) == "SweepResult(2 games of 10, interrupted)"
    assert (
        game.Transcript.load(tmp_path / "seed-2.jsonl", allow_incomplete=True).status == "aborted"
    )
