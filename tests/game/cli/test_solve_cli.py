"""``python -m game solve``: a learner's worst case and minimax regret, from the command line.

Examples to paste::

    python -m game solve worst-case halving intervals 8 --plot tree.png
    python -m game solve regret --experts 2 --horizon 6 --learner exponential-weights
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from game.cli import main
from game.theory.littlestone import read_tree

ROOT = Path(__file__).resolve().parents[3]


def test_the_worst_case_of_halving_is_played_by_the_referee(capsys, tmp_path):
    tree = tmp_path / "strategy.graphml"
    assert main(["solve", "worst-case", "halving", "intervals", "8", "--tree", str(tree)]) == 0
    out = capsys.readouterr().out
    assert "mistakes forced │ 4" in " ".join(out.split()).replace("│ │", "│")
    assert "4 mistakes in 4 rounds; certificate verified; lower bound forced" in out
    drawn = read_tree(tree)
    assert sum(1 for n in drawn if drawn.out_degree(n)) == 4  # one node a round


def test_a_learner_of_bits_is_solved_over_the_bit_vectors(capsys):
    assert main(["solve", "worst-case", "conjunction-learner", "conjunctions", "3"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "mistakes forced │ 4" in out  # n + 1 for the elimination algorithm
    assert "certificate verified; lower bound forced" in out


def test_an_endless_worst_case_is_reported_and_a_horizon_bounds_it(capsys):
    assert main(["solve", "worst-case", "winnow", "conjunctions", "2"]) == 0
    assert "without end" in capsys.readouterr().out
    assert main(["solve", "worst-case", "winnow", "conjunctions", "2", "--rounds", "5"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "horizon │ 5 rounds" in out and "lower bound forced" in out


def test_minimax_regret_beside_a_learners_worst_case(capsys):
    argv = ["solve", "regret", "--horizon", "4", "--learner", "exponential-weights"]
    assert main([*argv, "--param", "eta=1.0"]) == 0
    out = capsys.readouterr().out
    assert "3/4" in out and "0.7689" in out and "1.538" in out


def test_the_figures_are_written(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    tree, curve = tmp_path / "tree.png", tmp_path / "regret.png"
    assert main(["solve", "worst-case", "soa", "thresholds", "7", "--plot", str(tree)]) == 0
    assert main(["solve", "regret", "--horizon", "3", "--plot", str(curve)]) == 0
    for path in (tree, curve):
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["solve", "regret", "--horizon", "3", "--plot", str(curve)]) == 2  # no --force
    assert "--force" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["solve", "worst-case", "halvng", "intervals", "4"], "did you mean 'halving'"),
        (["solve", "worst-case", "halving", "interval", "4"], "unknown class builder"),
        (["solve", "worst-case", "halving", "intervals", "4", "--param", "beta"], "KEY=VALUE"),
        (["solve", "worst-case", "halving", "intervals", "4", "--param", "beta=1"], "'beta'"),
        (["solve", "worst-case", "perceptron", "intervals", "4"], "define state_key()"),
        (["solve", "worst-case", "exponential-weights", "intervals", "4"], "not points or bits"),
        (["solve", "worst-case", "soa", "intervals", "12", "--max-states", "10"], "max_states"),
        (["solve", "worst-case", "conjunction-learner", "intervals", "5"], "2ⁿ bit vectors"),
        (["solve", "regret", "--experts", "0"], "--experts must be at least 1"),
        (["solve", "regret", "--horizon", "100000"], "offered up to T ="),
        (["solve", "regret", "--param", "eta=1"], "--param needs --learner"),
        (["solve", "regret", "--horizon", "3", "--learner", "soa"], "soa"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err, err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_solve_in_a_real_process():
    env = {**os.environ, "COLUMNS": "200"}
    done = subprocess.run(
        [sys.executable, "-m", "game", "solve", "worst-case", "halving", "thresholds", "7"],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "certificate verified" in done.stdout
