"""``python -m game ldim`` and the scenarios' shared ``[concept_class]`` table.

Examples to paste::

    python -m game ldim intervals 64
    python -m game ldim conjunctions 4 --vc --tree tree.graphml
    python -m game run scenarios/soa_intervals.toml --no-out
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from game import ScenarioError, load_scenario
from game.cli import main
from game.theory.concepts import FiniteClass, intervals, thresholds
from game.theory.littlestone import is_shattered, read_tree

ROOT = Path(__file__).resolve().parents[3]
SCENARIOS = ROOT / "scenarios"


# -- the ldim command --------------------------------------------------------------------


def test_ldim_of_a_builder(capsys):
    assert main(["ldim", "thresholds", "15"]) == 0
    out = capsys.readouterr().out
    assert "Littlestone dimension" in out and "│ 4 " in out.replace("  ", " ")


def test_ldim_of_a_file_with_its_tree_and_vc(tmp_path, capsys):
    path = intervals(9).save(tmp_path / "cls.npy")
    tree = tmp_path / "tree.graphml"
    assert main(["ldim", str(path), "--vc", "--tree", str(tree)]) == 0
    out = capsys.readouterr().out
    assert "VC dimension" in out and " nodes → " in out
    assert is_shattered(read_tree(tree), FiniteClass.load(path))


def test_ldim_writes_dot(tmp_path):
    tree = tmp_path / "tree.dot"
    assert main(["ldim", "singletons", "3", "--tree", str(tree)]) == 0
    assert tree.read_text().startswith("digraph littlestone")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["ldim", "interval", "4"], "unknown class builder 'interval'"),
        (["ldim", "intervals"], "intervals takes 1 argument(s): n"),
        (["ldim", "intervals", "four"], "arguments must be integers"),
        (["ldim", "intervals", "-2"], "intervals: n must be"),
        (["ldim", "missing.npy"], "no such file"),
        (["ldim", "thresholds", "3", "--tree", "t.png"], ".graphml or .dot"),
    ],
)
def test_ldim_bad_input_is_one_line_and_status_2(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_ldim_bad_file(tmp_path, capsys):
    bad = tmp_path / "bad.csv"
    bad.write_text("1,0\n")
    assert main(["ldim", str(bad)]) == 2
    assert "+1 or -1" in capsys.readouterr().err
    assert main(["ldim", str(bad), "3"]) == 2


# -- the [concept_class] table -------------------------------------------------------------

GAME = """\
rounds = 50
seed = 0

[learner]
name = "soa"

[adversary]
name = "optimal-adversary"
"""


def _write(tmp_path, table: str, body: str = GAME) -> Path:
    path = tmp_path / "game.toml"
    path.write_text(body + "\n[concept_class]\n" + table)
    return path


def test_a_builder_table_reaches_both_players(tmp_path):
    scenario = load_scenario(_write(tmp_path, 'builder = "thresholds"\nn = 31\n'))
    learner, adversary = scenario.build()
    assert learner.concept_class is adversary.concept_class is scenario.concept_class()
    assert scenario.play().summary()["mistakes"] == 5


def test_a_path_table(tmp_path):
    (tmp_path / "data").mkdir()
    np.save(tmp_path / "data" / "cls.npy", thresholds(7).matrix)
    scenario = load_scenario(_write(tmp_path, 'path = "data/cls.npy"\n'))
    assert scenario.concept_class().name == "cls.npy"
    assert scenario.play().summary()["mistakes"] == 3


def test_a_csv_path_table(tmp_path):
    thresholds(3).save(tmp_path / "cls.csv")
    scenario = load_scenario(_write(tmp_path, 'path = "cls.csv"\n'))
    assert scenario.concept_class().n_hypotheses == 4


@pytest.mark.parametrize(
    ("table", "key", "expected"),
    [
        ('builder = "interval"\nn = 3\n', "concept_class.builder", "builder must be one of"),
        ('builder = "intervals"\nm = 3\n', "concept_class.m", "an argument of builder"),
        ('builder = "intervals"\n', "concept_class.n", "needs n"),
        ('builder = "intervals"\nn = -3\n', "concept_class.n", "n must be"),
        ('builder = "intervals"\nn = "3"\n', "concept_class.n", "n must be an integer"),
        ("n = 3\n", "concept_class", "either builder"),
        ('builder = "intervals"\npath = "x.npy"\n', "concept_class", "either builder"),
        ('path = "x.npy"\nn = 2\n', "concept_class.n", "unknown key"),
        ('path = "x.jsonl"\n', "concept_class.path", ".npy or .csv"),
        ('path = "missing.npy"\n', "concept_class.path", "not found"),
        ('path = "../outside.npy"\n', "concept_class.path", "outside"),
        ("path = 3\n", "concept_class.path", "expected a string"),
    ],
)
def test_bad_tables_name_the_key(tmp_path, table, key, expected):
    with pytest.raises(ScenarioError) as info:
        load_scenario(_write(tmp_path, table))
    assert f": {key}: " in str(info.value) and expected in str(info.value)


def test_a_bad_matrix_file_names_the_path(tmp_path):
    np.save(tmp_path / "cls.npy", np.zeros((2, 2)))
    with pytest.raises(ScenarioError, match=r"concept_class\.path: .*\+1 or -1"):
        load_scenario(_write(tmp_path, 'path = "cls.npy"\n'))


def test_a_player_table_cannot_set_the_shared_class(tmp_path):
    body = GAME.replace('name = "soa"\n', 'name = "soa"\nconcept_class = [[1, -1]]\n')
    with pytest.raises(ScenarioError, match=r"learner\.concept_class: is set by the"):
        load_scenario(_write(tmp_path, 'builder = "thresholds"\nn = 3\n', body))


def test_a_player_that_needs_a_class_says_so(tmp_path):
    path = tmp_path / "game.toml"
    path.write_text(GAME)
    with pytest.raises(ScenarioError, match=r"learner\.concept_class: .*\[concept_class\]"):
        load_scenario(path).build()


# -- the scenarios -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["soa_thresholds", "soa_intervals", "tree_halving", "halfspace_tree_perceptron"],
)
def test_scenarios_play_as_recorded(name):
    scenario = load_scenario(SCENARIOS / f"{name}.toml")
    transcript = scenario.play()
    s = transcript.summary()
    assert scenario.check(transcript) == []
    assert s["mistakes"] == len(transcript) and s["forced"]
