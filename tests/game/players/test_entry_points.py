"""Users' own players: game.register in Python, or an installed package's entry points.

A scenario still names them only through the registry.
"""

import sys
import textwrap

import numpy as np
import pytest

import game.players._registry as registry
from game import register
from game.errors import GameError
from game.scenario import scenario_from_dict


class Flip:
    """Predicts the opposite of the last label it saw."""

    deterministic = True
    plays = frozenset({"vector"})

    def __init__(self):
        self.last = 1

    def predict(self, x):
        return float(-self.last)

    def update(self, x, y):
        self.last = y
        return True


@pytest.fixture
def fake_distribution(tmp_path, monkeypatch):
    """An installed package that declares one player in the entry-point group."""
    (tmp_path / "fake_players.py").write_text(
        textwrap.dedent(
            '''
            class AlwaysMinus:
                """Always predicts -1."""
                deterministic = True
                plays = frozenset({"vector"})
                def predict(self, x):
                    return -1.0
                def update(self, x, y):
                    return False
            '''
        )
    )
    info = tmp_path / "fake_players-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fake-players\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[online_learning_games.players]\nalways-minus = fake_players:AlwaysMinus\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    registry._entry_points.cache_clear()
    yield "always-minus"
    registry._entry_points.cache_clear()
    registry._loaded.pop("always-minus", None)
    sys.modules.pop("fake_players", None)


def test_an_entry_point_player_plays_from_a_scenario(fake_distribution):
    assert fake_distribution in registry.names("learner")
    spec = {
        "rounds": 5,
        "learner": {"name": fake_distribution},
        "adversary": {"name": "separable-stream", "dimension": 2, "margin": 0.5},
    }
    tr = scenario_from_dict(spec).play()
    assert np.all(tr.predictions == -1.0)
    assert tr.header["learner"]["name"] == fake_distribution


def test_register_makes_a_player_available_to_scenarios(monkeypatch):
    monkeypatch.setattr(registry, "_registered", {})
    register("flip", Flip)
    spec = {
        "rounds": 4,
        "learner": {"name": "flip"},
        "adversary": {"name": "separable-stream", "dimension": 2, "margin": 0.5},
    }
    tr = scenario_from_dict(spec).play()
    assert tr.predictions[0] == -1.0
    assert list(tr.predictions[1:]) == list(-tr.labels[:-1])


def test_register_refuses_a_taken_name_and_a_non_player(monkeypatch):
    monkeypatch.setattr(registry, "_registered", {})
    with pytest.raises(GameError, match="already registered"):
        register("perceptron", Flip)
    with pytest.raises(GameError, match="neither a learner"):
        register("nothing", object)
    with pytest.raises(GameError, match="lower-case"):
        register("os:system", Flip)
