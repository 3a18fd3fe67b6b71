"""The built-in scenarios from the command line, from any folder; ``--version``; the script's name.

Every command that takes a scenario takes a built-in scenario's name as well
as a file; ``list --scenarios`` shows the names; ``report`` and ``selfcheck``
use the installed scenarios when given no folder.

Examples to paste (from any folder)::

    python -m game run perceptron-separable --no-out
    python -m game list --scenarios
    python -m game selfcheck
    python -m game --version
"""

from __future__ import annotations

import re
import sys
from importlib.metadata import PackageNotFoundError, version

import pytest

from game import Transcript, builtin_scenarios, load_scenario
from game.cli import _main, _report, main, script
from game.players import names


@pytest.fixture(autouse=True)
def elsewhere(monkeypatch, tmp_path):
    """Every test runs in a fresh folder, far from the checkout's ``scenarios/``."""
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.chdir(tmp_path)
    assert not (tmp_path / "scenarios").exists()


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def rows(out: str) -> dict[str, str]:
    """The rows of a boxed two-column table: label to cell."""
    cells = (line.strip().strip("│").split("│") for line in out.splitlines())
    return {c[0].strip(): c[1].strip() for c in cells if len(c) == 2}


# -- a scenario by name ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["perceptron-separable", "perceptron_separable"])
def test_run_plays_a_builtin_scenario_by_name(capsys, tmp_path, name):
    status, out, err = run(capsys, "run", name)
    assert status == 0, err
    table = rows(out)
    assert table["learner"] == "perceptron" and table["adversary"] == "separable-stream"
    assert table["certificate verified"] == "yes"
    written = tmp_path / "runs" / "perceptron_separable.jsonl"  # named for the file, either way
    assert "transcript written to runs/perceptron_separable.jsonl" in out
    assert out.rstrip().endswith("every expectation holds")
    expected = load_scenario(builtin_scenarios()["perceptron-separable"]).expect["digest"]
    assert Transcript.load(written).digest == expected == table["digest"]


@pytest.mark.parametrize(
    ("argv", "near"),
    [
        (["run", "perceptron-separabel"], "'perceptron-separable'"),
        (["expect", "halving-lower-bnd"], "'halving-lower-bound'"),
        (["replay", "replay-perceptron-balcn"], "'replay-perceptron-balcan'"),
        (["sweep", "soa-threshold", "--seeds", "0:2", "--quiet"], "'soa-thresholds'"),
    ],
)
def test_an_unknown_name_is_one_line_with_the_closest_names_and_status_2(capsys, argv, near):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith(f"error: {argv[1]}: no such scenario file or built-in scenario")
    assert f"did you mean {near}" in lines[0]


def test_replay_and_expect_take_a_name(capsys):
    status, out, err = run(capsys, "replay", "replay-perceptron-balcan")
    recorded = load_scenario("replay-perceptron-balcan").expect["digest"]
    assert status == 0, err
    assert out.startswith("as recorded: ") and out.rstrip().endswith(recorded)
    status, out, err = run(capsys, "expect", "halving-lower-bound")
    assert status == 0, err
    assert out.splitlines()[:2] == ["[expect]", "mistakes = 10"]
    assert f'digest = "{load_scenario("halving-lower-bound").expect["digest"]}"' in out


def test_replay_of_a_missing_transcript_is_still_a_transcript_error(capsys):
    status, _, err = run(capsys, "replay", "nothing-here.jsonl")
    assert status == 2
    assert err.startswith("error: nothing-here.jsonl: cannot read the transcript"), err


def test_sweep_takes_a_name(capsys):
    status, out, err = run(
        capsys, "sweep", "halving-lower-bound", "--seeds", "0:3", "--workers", "1", "--quiet"
    )
    assert status == 0, err
    assert "halving-lower-bound: 3 games" in out


# -- list --scenarios -----------------------------------------------------------------------------
def test_list_scenarios_prints_each_builtin_scenario_whole_on_one_line(capsys):
    status, out, err = run(capsys, "list", "--scenarios")
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0].strip() == "built-in scenarios"
    assert [c.strip() for c in lines[2].strip("┃").split("┃")] == [
        "name",
        "learner",
        "adversary",
        "rounds",
        "description",
    ]
    gallery = builtin_scenarios()
    body = [line for line in lines if line.startswith("│")]
    assert len(body) == len(gallery)
    for line, (name, path) in zip(body, gallery.items(), strict=True):
        cells = [c.strip() for c in line.strip("│").split("│")]
        sc = load_scenario(path)
        assert cells == [
            name,
            sc.spec["learner"]["name"],
            sc.spec["adversary"]["name"],
            f"{sc.rounds:,}",
            sc.description,
        ]


def test_list_without_the_option_still_lists_the_players(capsys):
    status, out, _ = run(capsys, "list")
    assert status == 0
    assert out.splitlines()[0].strip() == "registered players"
    assert "perceptron-separable" not in out


# -- report with no folder ------------------------------------------------------------------------
def test_report_without_a_folder_plays_the_installed_gallery(capsys, tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    gallery = builtin_scenarios()
    two = {k: gallery[k] for k in ("halving-lower-bound", "soa-thresholds")}
    monkeypatch.setattr(_report, "builtin_scenarios", lambda: two)
    status, out, err = run(capsys, "report", "--figures", "mistakes", "--rounds", "40")
    assert status == 0, err
    assert out.strip() == "report written to report.html"
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert re.findall(r"<h2>([^<]*)</h2>", page) == ["halving_lower_bound", "soa_thresholds"]
    assert str(gallery["halving-lower-bound"]) in page  # played from the installed file


def test_report_of_a_missing_folder_is_still_refused(capsys, tmp_path):
    status, _, err = run(capsys, "report", tmp_path / "nowhere")
    assert status == 2 and err.startswith("error: "), err


# -- selfcheck ------------------------------------------------------------------------------------
def test_selfcheck_checks_every_player_from_any_folder(capsys):
    status, out, err = run(capsys, "selfcheck", "--seconds", "0")
    assert status == 0, err
    assert rows(out)["players checked"] == str(len(names()))
    assert "skipped" not in out


@pytest.mark.parametrize(
    "folder, why", [("/nonexistent", "no such folder"), ("empty", "it holds no .toml")]
)
def test_selfcheck_refuses_a_folder_without_scenarios(capsys, tmp_path, folder, why):
    (tmp_path / "empty").mkdir()
    status, out, err = run(capsys, "selfcheck", "--scenarios", folder)
    assert status == 2 and "players checked" not in out
    assert err == f"error: --scenarios must be a folder of scenarios, got '{folder}' ({why})\n"


# -- --version and the console script's name --------------------------------------------------
def test_version_prints_the_installed_distribution(capsys):
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out == f"online-learning-games {version('online-learning-games')}\n"


def test_version_without_an_installed_distribution_says_so(monkeypatch):
    def missing(name):
        raise PackageNotFoundError(name)

    monkeypatch.setattr(_main, "version", missing)
    line = _main.version_line()
    assert line == "online-learning-games (version unknown: the distribution is not installed)"


def test_the_console_script_names_itself_in_usage_lines(capsys, monkeypatch):
    monkeypatch.setattr(sys, "argv", ["/some/bin/online-learning-games", "--help"])
    with pytest.raises(SystemExit) as info:
        script()
    assert info.value.code == 0
    assert capsys.readouterr().out.startswith("usage: online-learning-games [-h] [--version]")
    monkeypatch.setattr(sys, "argv", ["/some/bin/online-learning-games", "lst"])
    with pytest.raises(SystemExit) as info:
        script()
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: online-learning-games ")
    assert "online-learning-games: error: argument command: invalid choice: 'lst'" in err
    assert main(["ldim", "thresholds", "1"]) == 0  # python -m game keeps its own name
    with pytest.raises(SystemExit):
        main(["lst"])
    assert capsys.readouterr().err.startswith("usage: python -m game ")
