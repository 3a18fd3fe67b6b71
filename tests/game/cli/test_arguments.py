"""Bad command-line arguments: one line naming the option, exit 2, before any game is played."""

import sys
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from game.cli import main
from game.errors import GameError
from game.players import _registry
from game.sweep import MAX_GAMES, parse_seeds

ROOT = Path(__file__).resolve().parents[3]
SEPARABLE = str(ROOT / "scenarios" / "perceptron_separable.toml")


def refused(capsys, *argv: str) -> str:
    """Run ``python -m game ARGV``; assert exit 2 with one ``error:`` line; that line."""
    status = main(list(argv))
    captured = capsys.readouterr()
    assert status == 2, captured
    assert captured.err.startswith("error: ") and captured.err.count("\n") == 1, captured.err
    assert "Traceback" not in captured.err
    return captured.err.strip()


# -- sweep --seeds --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "seeds, says",
    [
        ("0:1:0", "(the step of '0:1:0' is 0; it must be positive)"),
        ("0:10:-1", "(the step of '0:10:-1' is -1; it must be positive)"),
        ("10:0", "('10:0' holds no seed: A:B needs A < B (B excluded))"),
        ("5:5", "('5:5' holds no seed"),
        ("-3", "(seed -3 is negative)"),
        ("-3:4", "('-3:4' starts below 0)"),
        ("0:10**10", "('0:10**10' is not a seed or a range A:B[:STEP] of seeds)"),
        ("0:2,1", "(seed 1 is given twice)"),
    ],
)
def test_bad_seeds_are_refused_naming_the_option(capsys, tmp_path, seeds, says):
    line = refused(
        capsys, "sweep", SEPARABLE, f"--seeds={seeds}", "--workers", "1",
        "--transcripts", str(tmp_path / "runs"),
    )  # fmt: skip
    assert line.startswith("error: --seeds must be ") and f"got '{seeds}'" in line
    assert says in line
    assert not (tmp_path / "runs").exists()  # refused before the sweep began


def test_too_many_seeds_are_refused_before_any_is_listed(capsys, tmp_path):
    line = refused(capsys, "sweep", SEPARABLE, "--seeds", "0:10000000000", "--workers", "1")
    assert line.startswith(f"error: --seeds must be at most {MAX_GAMES:,} seeds, got '0:")
    assert "(10,000,000,000 seeds;" in line


def test_too_many_games_over_a_grid_are_refused(capsys):
    seeds = f"0:{MAX_GAMES}"
    line = refused(
        capsys, "sweep", SEPARABLE, "--seeds", seeds, "--grid", "adversary.margin=0.1,0.2",
        "--workers", "1",
    )  # fmt: skip
    assert line.startswith(f"error: --seeds must be at most {MAX_GAMES:,} games over the grid's 2")
    assert f"({2 * MAX_GAMES:,} games)" in line


def test_seeds_stay_a_range():
    seeds = parse_seeds(f"0:{MAX_GAMES}")
    assert isinstance(seeds, range) and len(seeds) == MAX_GAMES
    assert parse_seeds(MAX_GAMES) == range(MAX_GAMES)
    assert parse_seeds("3:12:4") == range(3, 12, 4)
    assert parse_seeds("1,3:5") == [1, 3, 4]


@pytest.mark.parametrize(
    "option, value, says",
    [
        ("--workers", "0", "error: --workers must be an integer ≥ 1, got 0"),
        ("--chunk-size", "0", "error: --chunk-size must be an integer ≥ 1, got 0"),
    ],
)
def test_bad_sweep_options_are_named(capsys, option, value, says):
    line = refused(capsys, "sweep", SEPARABLE, "--seeds", "0:2", option, value)
    assert line == says


@pytest.mark.parametrize("installed", [True, False])
@pytest.mark.parametrize(
    "address, why",
    [("not a url", "it holds white space"), ("", "it is empty"), ("t cp://x", "it holds white "
     "space"), ("9x://host:1", "expected PROTOCOL://HOST[:PORT]"), ("tcp://", "expected "
     "PROTOCOL://HOST[:PORT]")],
)  # fmt: skip
def test_a_scheduler_that_is_not_an_address_is_one_line(capsys, monkeypatch, installed, address,
                                                        why):  # fmt: skip
    if installed:
        pytest.importorskip("distributed")
    else:  # judged by its form before dask.distributed is needed
        monkeypatch.setitem(sys.modules, "distributed", None)
    line = refused(capsys, "sweep", SEPARABLE, "--seeds", "0:2", "--scheduler", address)
    assert line == (
        f"error: --scheduler must be a scheduler's address (tcp://HOST:PORT), got {address!r} "
        f"({why})"
    )


def test_a_scheduler_address_without_dask_distributed_says_what_to_install(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    line = refused(capsys, "sweep", SEPARABLE, "--seeds", "0:2", "--scheduler", "tcp://h:8786")
    assert line == (
        "error: --scheduler needs dask.distributed: "
        "pip install 'online-learning-games[distributed]'"
    )


# -- sweep --out: checked before the first game ---------------------------------------------------
@pytest.mark.parametrize(
    "out, says",
    [
        ("results.txt", "error: --out must be a .csv or .parquet file, got '{tmp}/results.txt'"),
        ("folder.csv", "error: --out must be a .csv or .parquet file, got '{tmp}/folder.csv', "
                       "a folder"),
        ("file/r.csv", "error: --out '{tmp}/file/r.csv': {tmp}/file is not a folder"),
        ("file/deeper/r.csv", "error: --out '{tmp}/file/deeper/r.csv': {tmp}/file is not a folder"),
    ],
)  # fmt: skip
def test_an_out_that_cannot_be_written_is_refused_before_any_game(capsys, tmp_path, out, says):
    (tmp_path / "folder.csv").mkdir()
    (tmp_path / "file").write_text("a file, not a folder\n")
    runs = tmp_path / "runs"
    line = refused(
        capsys, "sweep", SEPARABLE, "--seeds", "0:2", "--workers", "1",
        "--out", str(tmp_path / out), "--transcripts", str(runs),
    )  # fmt: skip
    assert line == says.format(tmp=tmp_path)
    assert not runs.exists()  # no game was played


def test_an_out_in_a_missing_folder_is_made(capsys, tmp_path):
    out = tmp_path / "new" / "folder" / "r.csv"
    status = main(["sweep", SEPARABLE, "--seeds", "0:2", "--workers", "1", "--out", str(out)])
    assert status == 0 and out.read_text().count("\n") == 3


# -- selfcheck and report ------------------------------------------------------------------------
@pytest.mark.parametrize("seconds", ["-1", "nan", "inf", "1e9"])
def test_selfcheck_refuses_seconds_out_of_range(capsys, seconds):
    line = refused(capsys, "selfcheck", "--seconds", seconds)
    assert line.startswith("error: --seconds must be a number in [0, 86400], got ")


def test_selfcheck_refuses_a_missing_folder(capsys):
    line = refused(capsys, "selfcheck", "--scenarios", "/nonexistent", "--seconds", "0")
    assert (
        line
        == "error: --scenarios must be a folder of scenarios, got '/nonexistent' (no such folder)"
    )


def test_report_refuses_negative_rounds_before_any_game(capsys, tmp_path):
    out = tmp_path / "report.html"
    line = refused(capsys, "report", "--rounds", "-1", "--out", str(out), "--quiet")
    assert line == "error: --rounds must be an integer ≥ 0, got -1"
    assert not out.exists()


# -- list with a broken installed player ---------------------------------------------------------
@pytest.fixture
def installed(monkeypatch):
    """Pretend these player entry points are installed: name -> "module:attribute"."""

    def install(**targets: str) -> None:
        eps = {
            name.replace("_", "-"): EntryPoint(
                name=name.replace("_", "-"), value=value, group=_registry.ENTRY_POINT_GROUP
            )
            for name, value in targets.items()
        }
        monkeypatch.setattr(_registry, "_entry_points", lambda: eps)

    yield install
    for name in list(_registry._loaded):
        if name not in _registry.BUILTIN:
            _registry._loaded.pop(name)


def test_list_names_a_broken_entry_point_and_lists_the_others(capsys, installed):
    installed(
        broken_player="no_such_module_of_players:Player",
        not_a_class="math:pi",
        working_player="learners.perceptron:Perceptron",
    )
    status = main(["list"])
    captured = capsys.readouterr()
    assert status == 2
    assert captured.err.splitlines() == [
        "error: the player entry point 'broken-player' (no_such_module_of_players:Player) "
        "cannot be loaded: ModuleNotFoundError: No module named 'no_such_module_of_players'",
        "error: the player entry point 'not-a-class' (math:pi) must name a player class, got float",
    ]
    assert "working-player" in captured.out and "perceptron" in captured.out
    assert "broken-player" not in captured.out and "Traceback" not in captured.err


def test_a_broken_entry_point_leaves_the_other_names_and_lookups_alone(installed):
    installed(broken_player="no_such_module_of_players:Player")
    assert "perceptron" in _registry.names("learner")
    assert "broken-player" not in _registry.names("learner")
    assert "broken-player" in _registry.broken_entry_points()
    with pytest.raises(GameError, match=r"^the player entry point 'broken-player'"):
        _registry.lookup("broken-player")


def test_a_scenario_naming_a_broken_entry_point_is_one_line(capsys, tmp_path, installed):
    installed(broken_player="no_such_module_of_players:Player")
    scenario = tmp_path / "s.toml"
    scenario.write_text(
        'rounds = 5\nseed = 0\n[learner]\nname = "broken-player"\n'
        '[adversary]\nname = "separable-stream"\ndimension = 2\nmargin = 0.1\n'
    )
    line = refused(capsys, "run", str(scenario), "--no-out")
    assert "the player entry point 'broken-player' (no_such_module_of_players:Player)" in line
