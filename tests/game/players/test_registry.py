"""The registry: lookup, did-you-mean, register, roles, parameters; never an import by path.

Examples to paste::

    from game.players._registry import lookup, names, parameters
    lookup("perceptorn")          # UnknownPlayerError: ... did you mean 'perceptron'?
    names("adversary"), parameters(lookup("separable-stream"))
"""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path
from typing import ClassVar

import attrs
import numpy as np
import pytest

from adversaries import Replay, SeparableStream
from game import GameError, ParameterError, ScenarioError, UnknownPlayerError, load_scenario
from game.players import _registry as reg
from game.players import positive, rng_field
from learners import Perceptron

ROOT = Path(__file__).resolve().parents[3]


@attrs.define(eq=False, on_setattr=attrs.setters.NO_OP)
class Constant:
    """Always predicts the same sign."""

    deterministic: ClassVar[bool] = True
    plays: ClassVar[frozenset[str]] = frozenset({"point", "bits"})
    sign: int = attrs.field(default=1, metadata={"doc": "the sign predicted"})

    def predict(self, x) -> float:
        return float(self.sign)

    def update(self, x, y) -> bool:
        return False


@attrs.define(eq=False, on_setattr=attrs.setters.NO_OP)
class Coin:
    """Labels by a coin: an adversary with an rng, for these tests."""

    presents: ClassVar[str] = "point"
    bias: float = attrs.field(validator=positive, metadata={"doc": "chance of +1"})
    rng: np.random.Generator = rng_field()

    def instance(self, history):
        return 0

    def label(self, x, p, history) -> int:
        return 1


class Neither:
    def predict(self, x):
        return 1.0


# -- lookup -------------------------------------------------------------------------------


def test_builtins_look_up_to_their_classes():
    assert reg.lookup("perceptron") is Perceptron
    assert reg.lookup("separable-stream") is SeparableStream
    assert reg.lookup("replay") is Replay
    assert reg.lookup("perceptron", "learner") is Perceptron
    assert reg.lookup("replay", "adversary") is Replay


def test_every_builtin_entry_is_a_module_and_class_path():
    for name, path in reg.BUILTIN.items():
        module, _, attr = path.partition(":")
        assert module and attr and "." not in attr, name
        assert reg.lookup(name).__name__ == attr


def test_unknown_name_suggests_close_names():
    with pytest.raises(UnknownPlayerError) as info:
        reg.lookup("perceptorn")
    assert isinstance(info.value, ScenarioError)
    assert "unknown player 'perceptorn'; did you mean 'perceptron'" in str(info.value)
    assert info.value.suggestions[0] == "perceptron"
    assert info.value.name == "perceptorn"


def test_unknown_name_far_from_every_name_points_to_list():
    with pytest.raises(UnknownPlayerError, match="python -m game list"):
        reg.lookup("zzzzzzzzzzzzzzzzzzzz")


def test_name_not_a_string():
    with pytest.raises(UnknownPlayerError):
        reg.lookup(42)


@pytest.mark.parametrize(
    "name, role, message",
    [("perceptron", "adversary", "'perceptron' is a learner, not an adversary"),
     ("separable-stream", "learner", "'separable-stream' is an adversary, not a learner")],
)  # fmt: skip
def test_wrong_role_says_what_the_player_is(name, role, message):
    with pytest.raises(UnknownPlayerError) as info:
        reg.lookup(name, role)
    assert message in str(info.value)
    for other in reg.names(role):
        assert other in str(info.value)


# -- register -----------------------------------------------------------------------------


def test_register_then_lookup_and_name_of(clean_registry):
    assert reg.register("test-constant", Constant) is Constant
    assert reg.lookup("test-constant") is Constant
    assert reg.lookup("test-constant", "learner") is Constant
    assert reg.name_of(Constant) == "test-constant"
    assert "test-constant" in reg.names() and "test-constant" in reg.names("learner")
    assert "test-constant" not in reg.names("adversary")
    assert reg.names() == sorted(reg.names())


@pytest.mark.parametrize(
    "name",
    ["Constant", "test_constant", "-test", "test-", "test--constant", "", "1test", "te st",
     "os:system", "a.b", 5, None],
)  # fmt: skip
def test_register_refuses_bad_names(clean_registry, name):
    with pytest.raises(ParameterError, match="lower-case words joined by hyphens") as info:
        reg.register(name, Constant)
    assert info.value.parameter == "name"
    assert name not in reg._registered


def test_register_refuses_non_classes_and_classes_without_a_role(clean_registry):
    with pytest.raises(ParameterError, match="expects one") as info:
        reg.register("test-instance", Constant())
    assert info.value.parameter == "cls"
    with pytest.raises(GameError, match="neither a learner"):
        reg.register("test-neither", Neither)
    assert "test-neither" not in reg.names()


def test_register_refuses_to_replace_unless_asked(clean_registry):
    reg.register("test-constant", Constant)
    with pytest.raises(GameError, match="already registered"):
        reg.register("test-constant", Coin)
    assert reg.lookup("test-constant") is Constant
    reg.register("test-constant", Coin, replace=True)
    assert reg.lookup("test-constant") is Coin
    assert reg.name_of(Coin) == "test-constant"


def test_register_refuses_a_builtin_name_unless_asked(clean_registry):
    with pytest.raises(GameError, match="already registered"):
        reg.register("perceptron", Constant)
    assert reg.lookup("perceptron") is Perceptron
    reg.register("perceptron", Constant, replace=True)
    assert reg.lookup("perceptron") is Constant


def test_entry_point_players_are_found(clean_registry, monkeypatch):
    class FakeEntryPoint:
        name = "test-plugin"
        value = "test_registry:Constant"

        def load(self):
            return Constant

    monkeypatch.setattr(reg, "_entry_points", lambda: {"test-plugin": FakeEntryPoint()})
    assert "test-plugin" in reg.names("learner")
    assert reg.lookup("test-plugin") is Constant
    assert reg.name_of(Constant) == "test-plugin"


# -- roles, names, parameters -------------------------------------------------------------


def test_role_of():
    assert reg.role_of(Perceptron) == "learner"
    assert reg.role_of(SeparableStream) == "adversary"
    assert reg.role_of(Coin) == "adversary"
    with pytest.raises(GameError, match="'Neither' is neither a learner"):
        reg.role_of(Neither)


def test_name_of():
    assert reg.name_of(Perceptron) == "perceptron"
    assert reg.name_of(SeparableStream) == "separable-stream"
    assert reg.name_of(Constant) is None

    class MyPerceptron(Perceptron):
        pass

    assert reg.name_of(MyPerceptron) is None


def test_parameters_of_the_perceptron():
    params = {p["name"]: p for p in reg.parameters(Perceptron)}
    assert list(params) == ["zero_label", "update", "normalize", "dimension"]
    assert params["zero_label"]["default"] == 1 and params["zero_label"]["required"] is False
    assert params["update"]["default"] == "nonpositive"
    assert params["normalize"]["default"] is False
    assert params["dimension"]["default"] is None
    assert all(p["doc"] for p in params.values())
    assert set(params["update"]) == {
        "name", "type", "default", "required", "doc", "supplied", "data",
    }  # fmt: skip
    assert not any(p["supplied"] or p["data"] for p in params.values())


def test_parameters_of_a_stream_mark_required_and_factory_defaults():
    params = {p["name"]: p for p in reg.parameters(SeparableStream)}
    assert params["dimension"]["required"] and params["margin"]["required"]
    assert params["radius"] == {**params["radius"], "default": 1.0, "required": False}
    assert params["rng"]["default"] == "…" and params["rng"]["required"] is False
    assert not any(name.startswith("_") for name in params)


def test_parameters_say_what_the_scenario_supplies():
    supplied = {
        name: {p["name"]: p["supplied"] for p in reg.parameters(reg.lookup(name)) if p["supplied"]}
        for name in reg.BUILTIN
    }
    assert supplied["separable-stream"] == {"rng": "rng"}
    assert supplied["exponential-weights"] == {"loss": "loss"}
    assert supplied["halving"] == {"concept_class": "concept_class"}
    assert supplied["soa"] == {"concept_class": "concept_class"}
    assert supplied["optimal-adversary"] == {"concept_class": "concept_class"}
    assert supplied["tree-adversary"] == {"concept_class": "concept_class"}
    assert supplied["perceptron"] == {}


def test_parameters_of_a_plain_class_without_a_constructor_is_empty():
    assert reg.parameters(Neither) == []


class PlainCoin:
    """Predicts +1 with probability ``bias``: a plain class with a declared generator."""

    plays = frozenset({"vector"})
    scenario_supplies: ClassVar[dict[str, str]] = {"generator": "rng", "graded": "loss"}

    def __init__(self, generator=None, bias: float = 0.5, *, graded="zero-one", **extra):
        self.generator, self.bias, self.graded = generator, bias, graded

    def predict(self, x) -> float:
        return 1.0 if self.generator.random() < self.bias else -1.0

    def update(self, x, y) -> bool:
        return False


def test_parameters_of_a_plain_class_come_from_its_signature():
    params = {p["name"]: p for p in reg.parameters(PlainCoin)}
    assert list(params) == ["generator", "bias", "graded"]  # **extra is no key
    assert params["generator"]["supplied"] == "rng" and params["graded"]["supplied"] == "loss"
    assert params["bias"] == {
        "name": "bias", "type": "float", "default": 0.5, "required": False, "doc": "",
        "supplied": None, "data": False,
    }  # fmt: skip


@pytest.mark.parametrize(
    ("declared", "message"),
    [
        ({"seed": "rng"}, "names 'seed', which is not a parameter of its constructor"),
        ({"generator": "random"}, "must be a dict from constructor parameter to one of"),
        (["generator"], "must be a dict from constructor parameter"),
    ],
)
def test_register_refuses_a_plain_class_whose_declaration_does_not_fit(
    clean_registry, declared, message
):
    class Declared(PlainCoin):
        scenario_supplies = declared

    with pytest.raises(GameError, match=message) as info:
        reg.register("test-declared", Declared)
    assert "\n" not in str(info.value)
    assert "test-declared" not in reg.names()


def test_register_refuses_an_attrs_class_that_declares_in_a_class_attribute(clean_registry):
    @attrs.define
    class Both(Constant):
        scenario_supplies: ClassVar[dict] = {"sign": "loss"}

    with pytest.raises(GameError, match="declare the fields a scenario supplies with rng_field"):
        reg.register("test-both", Both)


def test_register_refuses_a_constructor_it_cannot_read(clean_registry, monkeypatch):
    class Opaque(PlainCoin):
        pass

    real = reg.inspect.signature

    def unreadable(obj, *args, **kwargs):
        if obj is Opaque:
            raise ValueError("no signature")
        return real(obj, *args, **kwargs)

    monkeypatch.setattr(reg.inspect, "signature", unreadable)
    with pytest.raises(GameError, match="give it an __init__ with named parameters"):
        reg.register("test-opaque", Opaque)


def test_learners_for(clean_registry):
    assert "perceptron" in reg.learners_for("vector")
    assert "perceptron" in reg.learners_for("vector", deterministic=True)
    assert "perceptron" not in reg.learners_for("vector", deterministic=False)
    assert "perceptron" not in reg.learners_for("point")
    reg.register("test-constant", Constant)
    assert "test-constant" in reg.learners_for("point")
    assert "test-constant" not in reg.learners_for("vector")
    assert not set(reg.learners_for("point")) & set(reg.names("adversary"))
    with pytest.raises(ParameterError, match=r"kind must be one of .*, got .vectors."):
        reg.learners_for("vectors")


def test_describe_player():
    assert reg.describe_player(Perceptron(update="mistake")) == {
        "name": "perceptron",
        "params": {"zero_label": 1, "update": "mistake", "normalize": False, "dimension": None},
    }
    stream = SeparableStream(2, 0.5, rng=np.random.default_rng(0), direction=[3.0, 4.0])
    d = reg.describe_player(stream)
    assert d["name"] == "separable-stream"
    assert d["params"] == {"dimension": 2, "margin": 0.5, "radius": 1.0, "rng": "Generator",
                           "direction": [0.6, 0.8]}  # fmt: skip
    big = Replay(instances=np.zeros((100, 3)), labels=np.ones(100))
    assert reg.describe_player(big)["params"]["instances"] == (
        "array of shape [100, 3] and dtype float64"
    )


def test_describe_an_unregistered_player_by_module_path():
    d = reg.describe_player(Constant(sign=-1))
    assert d == {"name": f"{__name__}:Constant", "params": {"sign": -1}}


def test_game_imports_no_player_until_looked_up():
    code = (
        "import sys, game, game.players._registry as r; "
        "print('learners' in sys.modules, 'adversaries' in sys.modules); "
        "r.lookup('perceptron'); print('learners.perceptron' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "False", "True"]


# -- a scenario never imports by module path ----------------------------------------------

MODULE_PATHS = [
    "os:system",
    "subprocess:Popen",
    "builtins:eval",
    "game.engine:play",
    "learners.perceptron:Perceptron",
    "sentinel_module:Player",
    "sentinel_module.Player",
]


@pytest.fixture
def sentinel(tmp_path, monkeypatch):
    """A module on sys.path that leaves a mark if it is ever imported."""
    mark = tmp_path / "imported"
    (tmp_path / "sentinel_module.py").write_text(
        f"open({str(mark)!r}, 'w').close()\n"
        "class Player:\n"
        "    def predict(self, x): return 1.0\n"
        "    def update(self, x, y): return False\n"
        "    def instance(self, h): return 0\n"
        "    def label(self, x, p, h): return 1\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    return mark


@pytest.mark.parametrize("role", ["learner", "adversary"])
@pytest.mark.parametrize("name", MODULE_PATHS)
def test_module_paths_are_refused_and_nothing_runs(tmp_path, monkeypatch, sentinel, name, role):
    imported = []
    real_import = importlib.import_module
    monkeypatch.setattr(
        importlib,
        "import_module",
        lambda module, *a: imported.append(module) or real_import(module, *a),
    )
    learner = name if role == "learner" else "perceptron"
    adversary = name if role == "adversary" else "separable-stream"
    path = tmp_path / "evil.toml"
    path.write_text(
        f'rounds = 5\n[learner]\nname = "{learner}"\n'
        f'[adversary]\nname = "{adversary}"\ndimension = 2\nmargin = 0.1\n'
    )
    with pytest.raises(ScenarioError) as info:
        load_scenario(path).play()
    assert str(info.value).startswith(f"{path}: {role}.name: ")
    assert not sentinel.exists()
    assert "sentinel_module" not in sys.modules
    allowed = {path.partition(":")[0] for path in reg.BUILTIN.values()}
    assert set(imported) <= allowed, imported  # only the registry's own table is imported
    with pytest.raises(UnknownPlayerError):
        reg.lookup(name)
    assert not sentinel.exists()
