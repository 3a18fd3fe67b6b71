"""What a command loads: only what its game needs.

The command line and the façades import a player's module when the player is
looked up, and networkx (the Littlestone trees) and matplotlib (the figures)
only for the games and commands that use them.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def loaded_after(code: str, *modules: str) -> dict[str, bool]:
    """Which of ``modules`` a fresh interpreter has loaded after running ``code``."""
    report = f"print(json.dumps({{m: m in sys.modules for m in {modules!r}}}))"
    probe = f"{code}\nimport json, sys\n{report}"
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


HEAVY = ("networkx", "matplotlib", "scipy", "numba", "learners.soa", "adversaries.trees")
#: The code of figures, animations and solvers: loaded by the commands that draw or solve.
DRAWING = ("game.viz.plots", "game.viz.animations", "game.theory.solve")


def test_the_facades_load_no_player_module_and_no_heavy_package():
    loaded = loaded_after("import game, game.cli, learners, adversaries", *HEAVY, *DRAWING)
    assert loaded == dict.fromkeys(HEAVY + DRAWING, False)


def test_a_name_from_a_facade_loads_its_own_module_only():
    loaded = loaded_after(
        "from learners import Perceptron\nfrom adversaries import SeparableStream", *HEAVY,
        "learners.perceptron", "adversaries.streams",
    )  # fmt: skip
    assert loaded["learners.perceptron"] and loaded["adversaries.streams"]
    assert not any(loaded[m] for m in HEAVY)


@pytest.mark.parametrize(
    ("scenario", "expected"),
    [("perceptron-separable", False), ("tree-halving", True)],
)
def test_a_game_of_the_command_line_loads_networkx_only_for_a_tree(scenario, expected):
    code = (
        "import sys\nfrom game.cli import main\n"
        f"status = main(['run', {scenario!r}, '--no-out', '--quiet'])\nassert status == 0, status"
    )
    loaded = loaded_after(code, "networkx", "matplotlib")
    assert loaded == {"networkx": expected, "matplotlib": False}


def test_a_name_the_facade_lacks_is_an_attribute_error():
    import learners

    with pytest.raises(AttributeError, match="has no attribute 'Perceptorn'"):
        learners.Perceptorn  # noqa: B018
