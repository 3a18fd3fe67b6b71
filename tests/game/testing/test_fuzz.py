"""Malformed scenario files and damaged transcripts get the right refusal.

Hypothesis drives every choice of game.testing's mutations (so a failure shrinks to
the simplest malformed document), over the built-in base scenario and every
scenario in scenarios/.
"""

import hashlib
import tomllib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import game.scenario
from game.errors import ScenarioError
from game.scenario import load_scenario
from game.testing._fuzz import (
    BASE_SCENARIO,
    FORBIDDEN_NAMES,
    check_transcript_refused,
    damaged_transcript,
    malformed_scenario,
    to_toml,
)

SCENARIOS = Path(__file__).resolve().parents[3] / "scenarios"
BASES = [BASE_SCENARIO] + [
    load_scenario(p).spec
    for p in sorted(SCENARIOS.glob("*.toml"))
    if "transcript" not in load_scenario(p).spec["adversary"]
]


class NoGame:
    """Within the block, starting a game fails the test (game.scenario.play is replaced)."""

    def __enter__(self):
        self.started = []
        self._patch = pytest.MonkeyPatch()
        self._patch.setattr(game.scenario, "play", self._refuse)
        return self

    def _refuse(self, *args, **kwargs):
        self.started.append(True)
        raise AssertionError("a game started from a malformed scenario")

    def __exit__(self, *exc):
        self._patch.undo()


def _refused(tmp: Path, text: str, key: str) -> None:
    path = tmp / "fuzzed.toml"
    path.write_text(text)
    with pytest.raises(ScenarioError) as info:
        load_scenario(path).play()
    assert key in str(info.value), str(info.value)
    assert str(path) in str(info.value)
    assert "\n" not in str(info.value)


@settings(max_examples=2000)
@given(data=st.data(), base=st.sampled_from(BASES))
def test_malformed_scenarios_get_a_scenario_error_naming_the_key(tmp_path_factory, data, base):
    text, key = malformed_scenario(lambda items: data.draw(st.sampled_from(items)), base)
    with NoGame() as guard:
        _refused(tmp_path_factory.mktemp("fuzz"), text, key)
    assert not guard.started


def test_a_seed_gives_the_same_malformed_scenarios():
    """A seeded fuzz pass (``selfcheck --seed``) is reproducible: a seed fixes every mutation."""
    rng = np.random.default_rng(2024)
    drawn = [malformed_scenario(rng) for _ in range(60)]
    keys = [key for _text, key in drawn]
    assert keys[:6] == ["adversary.rnds", "loss", "expect.surprise", "adversary", "seed", "rounds"]
    everything = "".join(text + key for text, key in drawn).encode()
    assert hashlib.sha256(everything).hexdigest() == (
        "13057d77517e8cec264deb1e40dcf50a2e77af83337d0108c005ff4dbaf4ab1a"
    )


@pytest.mark.parametrize("name", FORBIDDEN_NAMES)
@pytest.mark.parametrize("role", ["learner", "adversary"])
def test_a_scenario_cannot_name_code(tmp_path, name, role):
    spec = {**BASE_SCENARIO, role: {**BASE_SCENARIO[role], "name": name}}
    with NoGame() as guard:
        _refused(tmp_path, to_toml(spec), f"{role}.name")
    assert not guard.started


def test_the_base_scenario_is_valid(tmp_path):
    path = tmp_path / "base.toml"
    path.write_text(to_toml(BASE_SCENARIO))
    assert tomllib.loads(path.read_text()) == BASE_SCENARIO
    assert load_scenario(path).play().summary()["within_bound"] is True


@pytest.fixture(scope="module")
def sample(tmp_path_factory) -> bytes:
    from adversaries import SeparableStream
    from game import play
    from learners import Perceptron

    path = tmp_path_factory.mktemp("sample") / "t.jsonl"
    play(Perceptron(), SeparableStream(3, 0.2, rng=np.random.default_rng(0)), rounds=10, out=path)
    return path.read_bytes()


@settings(max_examples=400)
@given(seed=st.integers(0, 2**32 - 1))
def test_damaged_transcripts_get_the_right_answer(tmp_path_factory, sample, seed):
    damaged, how, rounds = damaged_transcript(np.random.default_rng(seed), sample)
    problem = check_transcript_refused(damaged, how, rounds, tmp_path_factory.mktemp("t"))
    assert problem is None, problem
