"""Sizes refused up front: the memory estimate, the size bounds, and what refuses them."""

import gc
import time
import tracemalloc

import numpy as np
import pytest

import game.cli._ldim as ldim_command
import game.players._sizes as sizes
from adversaries import ConceptStream, HalvingLowerBound, SeparableStream
from adversaries.experts import ExpertStream
from game import play
from game.cli import main
from game.cli._ldim import check_search_size
from game.errors import GameError, ParameterError, ScenarioError
from game.players import ROUND_BYTES, Footprint, estimate, ldim_estimate
from game.scenario import builtin_scenarios, load_scenario, scenario_from_dict
from game.sweep import sweep
from learners.experts import Halving, WeightedMajority
from learners.perceptron import Perceptron

#: The memory the tests pretend the machine has available, so that they say the same everywhere.
AVAILABLE = 2 * 10**9

#: The free disk they pretend it has, too little for any game here to keep its rounds on disk.
FREE_DISK = 10**9


class _Usage:
    free = FREE_DISK


@pytest.fixture
def two_gb(monkeypatch):
    """The machine has 2 GB available, and 1 GB of free disk."""
    monkeypatch.setattr(sizes, "available_memory", lambda: AVAILABLE)
    monkeypatch.setattr(ldim_command, "available_memory", lambda: AVAILABLE)
    monkeypatch.setattr(sizes.shutil, "disk_usage", lambda folder: _Usage)


def scenario(adversary: dict, rounds: int = 64, learner: str = "perceptron"):
    return scenario_from_dict(
        {"rounds": rounds, "learner": {"name": learner}, "adversary": adversary},
        source="big.toml",
    )


def refused_quickly(sc, **play_options) -> str:
    """The one-line refusal of playing ``sc``, checked to cost no time and no memory."""
    gc.collect()
    tracemalloc.start()
    start = time.perf_counter()
    with pytest.raises(ScenarioError) as info:
        sc.play(**play_options)
    elapsed = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert elapsed < 1.0
    assert peak < 10 * 2**20  # nothing of the game's size was allocated
    message = str(info.value)
    assert "\n" not in message and message.startswith("big.toml: ")
    assert ", 2.0 GB available" in message
    return message


# -- each case of the issue, refused before anything is built -------------------


def test_halving_lower_bound_at_n_26_is_refused_naming_n(two_gb):
    sc = scenario({"name": "halving-lower-bound", "n": 26}, learner="halving")
    message = refused_quickly(sc)
    assert "adversary.n: n = 26 (67,108,864 experts) needs about 6.6 GB" in message


def test_halving_lower_bound_at_n_28_is_refused_by_the_estimate_and_the_validator(two_gb):
    sc = scenario({"name": "halving-lower-bound", "n": 28}, learner="halving")
    assert "adversary.n: n = 28" in refused_quickly(sc)
    with pytest.raises(ParameterError, match="n must be an integer between 0 and 26, got 28"):
        HalvingLowerBound(28)
    with pytest.raises(ParameterError, match="experts must be an integer between 1 and 67108864"):
        HalvingLowerBound(experts=2**28)


def test_separable_stream_at_dimension_2_20_is_refused_naming_the_dimension(two_gb):
    sc = scenario({"name": "separable-stream", "dimension": 2**20, "margin": 0.1}, rounds=1000)
    message = refused_quickly(sc)
    assert "adversary.dimension: dimension = 1048576 needs about 17 GB" in message
    with pytest.raises(ParameterError, match="dimension must be an integer between 1 and 65536"):
        SeparableStream(2**20, 0.1, rng=np.random.default_rng(0))


def test_a_long_game_at_the_largest_dimension_is_refused_naming_the_dimension(two_gb):
    sc = scenario({"name": "separable-stream", "dimension": 2**16, "margin": 0.1}, rounds=10**5)
    assert "adversary.dimension: dimension = 65536 needs about 53 GB" in refused_quickly(sc)


def test_concept_stream_variables_have_an_upper_bound(two_gb):
    sc = scenario(
        {"name": "concept-stream", "variables": 10**6}, rounds=100, learner="conjunction-learner"
    )
    assert "adversary.variables: variables = 1000000 needs about 2.5 GB" in refused_quickly(sc)
    with pytest.raises(ParameterError, match="variables must be an integer between 1 and 65536"):
        ConceptStream(rng=np.random.default_rng(0), variables=2**16 + 1)
    with pytest.raises(ParameterError, match="a concept over at most 65536 variables"):
        ConceptStream("x70000", rng=np.random.default_rng(0))


def test_a_billion_rounds_are_refused_naming_rounds(two_gb):
    sc = scenario({"name": "separable-stream", "dimension": 20, "margin": 0.1}, rounds=10**9)
    assert "big.toml: rounds: rounds = 1,000,000,000 needs about 310 GB" in refused_quickly(sc)


def test_a_rounds_override_is_estimated_too(two_gb):
    sc = scenario({"name": "separable-stream", "dimension": 20, "margin": 0.1}, rounds=10)
    assert "rounds = 100,000,000 needs about 31 GB" in refused_quickly(sc, rounds=10**8)


def test_the_command_line_refuses_in_one_line_with_exit_2(two_gb, tmp_path, capsys):
    path = tmp_path / "big.toml"
    path.write_text(
        'rounds = 64\n[learner]\nname = "halving"\n'
        '[adversary]\nname = "halving-lower-bound"\nn = 26\n'
    )
    assert main(["run", str(path), "--out", str(tmp_path / "t.jsonl")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "adversary.n: n = 26" in err[0] and "6.6 GB" in err[0]
    assert not (tmp_path / "t.jsonl").exists()


def test_a_sweep_refuses_before_any_game(two_gb):
    sc = scenario({"name": "separable-stream", "dimension": 20, "margin": 0.1}, rounds=10**9)
    start = time.perf_counter()
    with pytest.raises(ScenarioError, match="rounds: rounds = 1,000,000,000 needs about 310 GB"):
        sweep(sc, seeds="0:4", workers=1, progress=False)
    assert time.perf_counter() - start < 1.0


def test_a_sweep_refuses_the_grid_point_that_cannot_fit(two_gb):
    sc = scenario({"name": "halving-lower-bound", "n": 4}, learner="halving")
    with pytest.raises(ScenarioError, match=r"adversary\.n: n = 26 .* needs about 6\.6 GB"):
        sweep(sc, seeds="0:2", grid={"adversary.n": [4, 26]}, workers=1, progress=False)


# -- ldim ----------------------------------------------------------------------------


class _Shape:
    """A class's size alone, to estimate a search without building the class."""

    def __init__(self, n_hypotheses: int, n_points: int):
        self.n_hypotheses, self.n_points = n_hypotheses, n_points


def test_ldim_of_a_class_too_large_for_memory_is_refused_with_the_estimate():
    with pytest.raises(GameError) as info:
        check_search_size("big.npy", _Shape(295_000, 768), available=10**9)
    assert str(info.value) == (
        "big.npy: a class of 295,000 hypotheses × 768 points needs about 2.3 GB for its "
        "Littlestone-dimension search, 1.0 GB available"
    )


def test_ldim_of_a_large_class_that_fits_is_announced():
    note = check_search_size("big.npy", _Shape(295_000, 768), available=10**10)
    assert note == "big.npy: a class of 295,000 hypotheses × 768 points needs about 2.3 GB; " + (
        "the search may take minutes"
    )
    assert check_search_size("small.npy", _Shape(100, 100), available=10**10) is None


def test_the_ldim_command_refuses_with_exit_2(monkeypatch, capsys):
    monkeypatch.setattr(ldim_command, "available_memory", lambda: 10**8)
    start = time.perf_counter()
    assert main(["ldim", "thresholds", "8192"]) == 2
    assert time.perf_counter() - start < 5.0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert "thresholds: a class of 8,193 hypotheses × 8,192 points needs about 671 MB" in err[0]


def test_the_ldim_estimate_is_about_ten_bytes_a_cell():
    assert ldim_estimate(1000, 1000).bytes == 10**7


# -- the built-in scenarios --------------------------------------------------------


@pytest.mark.parametrize("name", sorted(builtin_scenarios()))
def test_every_built_in_scenario_is_accepted(name):
    sc = load_scenario(builtin_scenarios()[name])
    found = sc.estimate(available=AVAILABLE)
    assert 0 < found.bytes < 10**9


# -- the estimate against what a game measures --------------------------------------


def _peak(make) -> int:
    gc.collect()
    tracemalloc.start()
    make()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


GAMES = {
    "perceptron d=20": (
        Perceptron,
        {},
        SeparableStream,
        {"dimension": 20, "margin": 0.1},
        20_000,
    ),
    "perceptron d=100": (
        Perceptron,
        {},
        SeparableStream,
        {"dimension": 100, "margin": 0.1},
        5_000,
    ),
    "weighted majority N=200": (
        WeightedMajority,
        {},
        ExpertStream,
        {"experts": 200, "best_mistakes": 5, "horizon": 5_000},
        5_000,
    ),
    "halving n=16": (Halving, {}, HalvingLowerBound, {"n": 16}, 16),
}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_estimate_is_within_a_factor_of_two_of_the_measured_peak(name):
    learner, lparams, adversary, aparams, rounds = GAMES[name]

    def game():
        rng = np.random.default_rng(0)
        extra = {} if adversary is HalvingLowerBound else {"rng": rng}
        play(learner(**lparams), adversary(**aparams, **extra), rounds=rounds)

    peak = _peak(game)
    found = estimate(learner, lparams, adversary, aparams, rounds=rounds)
    assert peak / 2 <= found.bytes <= 2 * peak, (found.bytes, peak)


def test_a_player_without_declared_sizes_costs_the_record_alone():
    found = estimate(Perceptron, {}, object, {}, rounds=1000)
    assert found.bytes == 1000 * ROUND_BYTES and found.key == "rounds"


def test_a_declared_footprint_that_cannot_be_computed_is_ignored():
    class Broken:
        @classmethod
        def footprint(cls, params, rounds):
            raise ValueError("no size")

    assert estimate(None, {}, Broken, {}, rounds=10).bytes == 10 * ROUND_BYTES


def test_a_game_that_ends_early_is_estimated_for_the_rounds_it_plays():
    class Short:
        @classmethod
        def footprint(cls, params, rounds):
            return Footprint(instance=100, entries=10, rounds=5, key="size")

    found = estimate(None, {}, Short, {"size": 3}, rounds=10**9)
    assert found.bytes == 5 * (ROUND_BYTES + 100) + 10 * sizes.LEARNER_BYTES_PER_ENTRY
    assert found.key == "adversary.size"


def test_available_memory_reads_the_machine():
    available = sizes.available_memory()
    assert available is None or available > 2**20
