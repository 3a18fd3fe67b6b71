"""Scenario files: every malformed file names the file and the key; expectations; seeds.

Examples to paste (a file ``s.toml``)::

    rounds = 50
    seed = 3

    [learner]
    name = "perceptron"

    [adversary]
    name = "separable-stream"
    dimension = 3
    margin = 0.2

then ``game.load_scenario("s.toml").play()``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import ClassVar

import attrs
import numpy as np
import pytest

from adversaries import SeparableStream
from game import ExpectationError, ParameterError, ScenarioError, load_scenario, play
from game.players import _registry as reg
from game.players import concept_class_field, loss_field, rng_field
from game.scenario import MAX_ROUNDS, scenario_from_dict
from learners import Perceptron

BASE = """\
rounds = 50
seed = 3

[learner]
name = "perceptron"

[adversary]
name = "separable-stream"
dimension = 3
margin = 0.2
"""


@attrs.define(eq=False, on_setattr=attrs.setters.NO_OP)
class RandomSign:
    """Predicts a random sign: a learner with a declared rng and loss, for these tests."""

    deterministic: ClassVar[bool] = False
    plays: ClassVar[frozenset[str]] = frozenset({"vector"})
    rng: np.random.Generator = rng_field()
    loss: str = loss_field()

    def predict(self, x) -> float:
        return float(self.rng.choice([-1.0, 1.0]))

    def update(self, x, y) -> bool:
        return False


@pytest.fixture
def random_sign(clean_registry):
    reg.register("test-random-sign", RandomSign, replace=True)
    return "test-random-sign"


def write(tmp_path: Path, text: str, name: str = "s.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def replace_line(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


def scenario_error(path: Path, key: str, *, build: bool = False) -> str:
    """The ScenarioError message for a file; checks it names the file and the key."""
    with pytest.raises(ScenarioError) as info:
        scenario = load_scenario(path)
        if build:
            scenario.build()
    message = str(info.value)
    assert message.startswith(f"{path}: "), message
    assert key in message, message
    assert "\n" not in message
    return message


def test_the_base_scenario_plays(tmp_path):
    tr = load_scenario(write(tmp_path, BASE)).play()
    assert len(tr) == 50 and tr.certificate_verified is True
    assert tr.header["seed"] == 3 and tr.header["scenario"]["spec"]["rounds"] == 50


# -- the file itself ----------------------------------------------------------------------


def test_not_toml(tmp_path):
    message = scenario_error(write(tmp_path, "rounds = = 3\n"), "not valid TOML")
    assert "line 1" in message


def test_not_utf8(tmp_path):
    path = tmp_path / "s.toml"
    path.write_bytes(b"rounds = 3\n\xff\xfe\n")
    scenario_error(path, "cannot read the scenario")


def test_missing_file(tmp_path):
    scenario_error(tmp_path / "nowhere.toml", "no such scenario file")


def test_spec_not_a_table():
    with pytest.raises(ScenarioError, match="<scenario>: expected a TOML document"):
        scenario_from_dict([1, 2])


# -- top-level keys -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "line, key, expected",
    [
        ('rounds = "10"', "rounds", "expected an integer, got '10'"),
        ("rounds = true", "rounds", "expected an integer, got True"),
        ("rounds = 1.5", "rounds", "expected an integer"),
        ("rounds = -1", "rounds", "expected an integer from 0 to"),
        (f"rounds = {MAX_ROUNDS + 1}", "rounds", "expected an integer from 0 to"),
        ("seed = -1", "seed", "expected a non-negative integer, got -1"),
        ('seed = "0"', "seed", "expected an integer"),
        ('loss = "hinge"', "loss", "expected one of 'zero-one', 'absolute', 'squared', got 'hi"),
        ("loss = 1", "loss", "expected a string"),
        ("snapshots = 1", "snapshots", "expected true or false"),
        ("description = 5", "description", "expected a string"),
        ("learner = 5", "learner", "expected a table"),
        ("expect = 5", "expect", "expected a table"),
        ("rounds_max = 5", "rounds_max", "unknown key; expected one of description, rounds"),
        ("Rounds = 5", "Rounds", "unknown key"),
    ],
)  # fmt: skip
def test_top_level_key_errors(tmp_path, line, key, expected):
    if line.startswith(("rounds ", "seed ")):
        text = replace_line(BASE, BASE.splitlines()[0 if line.startswith("r") else 1], line)
    elif line.startswith("learner"):
        text = (
            line + "\n" + BASE.split("[learner]")[0] + "[adversary]" + BASE.split("[adversary]")[1]
        )
    else:
        text = line + "\n" + BASE
    message = scenario_error(write(tmp_path, text), f": {key}: ")
    assert expected in message


@pytest.mark.parametrize(
    "remove, expected",
    [("rounds = 50\n", "missing key rounds"),
     ('[learner]\nname = "perceptron"\n', "missing table [learner]"),
     ('[adversary]\nname = "separable-stream"\ndimension = 3\nmargin = 0.2\n',
      "missing table [adversary]")],
)  # fmt: skip
def test_missing_rounds_or_player_tables(tmp_path, remove, expected):
    scenario_error(write(tmp_path, replace_line(BASE, remove, "")), expected)


@pytest.mark.parametrize(
    "role, line",
    [("learner", 'name = "perceptron"\n'), ("adversary", 'name = "separable-stream"\n')],
)
def test_missing_name(tmp_path, role, line):
    message = scenario_error(write(tmp_path, replace_line(BASE, line, "")), f"{role}.name")
    assert "missing" in message


# -- players and their parameters ---------------------------------------------------------


def test_unknown_player_suggests_a_close_name(tmp_path):
    text = replace_line(BASE, '"perceptron"', '"perceptorn"')
    message = scenario_error(write(tmp_path, text), "learner.name")
    assert "'perceptorn'" in message and "did you mean 'perceptron'" in message


def test_unknown_adversary_suggests_a_close_name(tmp_path):
    text = replace_line(BASE, '"separable-stream"', '"seperable-stream"')
    message = scenario_error(write(tmp_path, text), "adversary.name")
    assert "did you mean 'separable-stream'" in message


def test_learner_named_as_adversary(tmp_path):
    text = replace_line(BASE, '"separable-stream"', '"perceptron"')
    text = replace_line(text, "dimension = 3\nmargin = 0.2\n", "")
    message = scenario_error(write(tmp_path, text), "adversary.name")
    assert "'perceptron' is a learner, not an adversary" in message
    assert "separable-stream" in message


def test_adversary_named_as_learner(tmp_path):
    text = replace_line(BASE, 'name = "perceptron"', 'name = "replay"')
    message = scenario_error(write(tmp_path, text), "learner.name")
    assert "'replay' is an adversary, not a learner" in message


def test_name_not_a_string(tmp_path):
    text = replace_line(BASE, 'name = "perceptron"', "name = 3")
    scenario_error(write(tmp_path, text), "learner.name")


def test_unknown_parameter_lists_the_known_ones(tmp_path):
    text = replace_line(BASE, 'name = "perceptron"\n', 'name = "perceptron"\nzero_lable = 1\n')
    message = scenario_error(write(tmp_path, text), "learner.zero_lable")
    assert "unknown parameter of 'perceptron'" in message
    assert "zero_label, update, normalize, dimension" in message


def test_rng_is_set_by_the_scenario(tmp_path):
    text = BASE + "rng = 5\n"
    message = scenario_error(write(tmp_path, text), "adversary.rng")
    assert "set by the scenario" in message


def test_loss_is_set_by_the_scenario(tmp_path, random_sign):
    text = replace_line(BASE, '"perceptron"', f'"{random_sign}"\nloss = "squared"')
    message = scenario_error(write(tmp_path, text), "learner.loss")
    assert "set by the scenario" in message


def test_the_scenarios_loss_reaches_players_that_declare_it(tmp_path, random_sign):
    text = 'loss = "absolute"\n' + replace_line(BASE, '"perceptron"', f'"{random_sign}"')
    learner, _ = load_scenario(write(tmp_path, text)).build()
    assert isinstance(learner, RandomSign) and learner.loss == "absolute"


@attrs.define(eq=False, on_setattr=attrs.setters.NO_OP)
class Tempered:
    """A user's learner whose own parameter happens to be called ``loss`` (a float)."""

    deterministic: ClassVar[bool] = True
    plays: ClassVar[frozenset[str]] = frozenset({"vector"})
    loss: float = 0.5

    def predict(self, x) -> float:
        return 1.0

    def update(self, x, y) -> bool:
        return False


def test_a_field_named_loss_that_is_not_declared_is_the_players_own(tmp_path, register):
    register("test-tempered", Tempered)
    text = 'loss = "absolute"\n' + replace_line(BASE, '"perceptron"', '"test-tempered"')
    learner, _ = load_scenario(write(tmp_path, text)).build()
    assert learner.loss == 0.5  # its default, not the game's loss
    text = replace_line(BASE, '"perceptron"', '"test-tempered"\nloss = 0.25')
    learner, _ = load_scenario(write(tmp_path, text)).build()
    assert learner.loss == 0.25  # and its table may set it
    assert load_scenario(write(tmp_path, text)).play().header["learner"]["params"] == {"loss": 0.25}


class PlainSign:
    """A plain (non-attrs) learner: its generator and loss declared, its bias from the table."""

    deterministic = False
    plays = frozenset({"vector"})
    scenario_supplies: ClassVar[dict[str, str]] = {"generator": "rng", "grading": "loss"}

    def __init__(self, bias: float = 0.5, generator=None, grading=None, rng="not supplied"):
        if not 0 <= bias <= 1:
            raise ParameterError("bias", bias, "a number in [0, 1]")
        self.bias, self.generator, self.grading, self.rng = bias, generator, grading, rng

    def predict(self, x) -> float:
        return 1.0 if self.generator.random() < self.bias else -1.0

    def update(self, x, y) -> bool:
        return False


def test_a_plain_class_gets_what_it_declares_and_its_table(tmp_path, clean_registry):
    reg.register("test-plain-sign", PlainSign)
    table = '"test-plain-sign"\nbias = 0.9'
    text = 'loss = "squared"\n' + replace_line(BASE, '"perceptron"', table)
    scenario = load_scenario(write(tmp_path, text))
    learner, _ = scenario.build(4)
    expected = np.random.default_rng(np.random.SeedSequence(4).spawn(2)[0])
    assert learner.generator.bit_generator.state == expected.bit_generator.state
    assert (learner.bias, learner.grading) == (0.9, "squared")
    assert learner.rng == "not supplied"  # a parameter named rng is not guessed at
    assert len(scenario.play(check=False)) == 50


@pytest.mark.parametrize(
    ("line", "key", "expected"),
    [
        ("bias = 2.0", "learner.bias", "bias must be a number in [0, 1], got 2.0"),
        ("bais = 0.1", "learner.bais", "unknown parameter of 'test-plain-sign'; expected: bias,"),
        ("generator = 3", "learner.generator", "set by the scenario (a generator from its seed)"),
        ('grading = "absolute"', "learner.grading", "is set by the scenario (its loss)"),
    ],
)  # fmt: skip
def test_a_plain_class_table_is_checked_against_its_signature(
    tmp_path, clean_registry, line, key, expected
):
    reg.register("test-plain-sign", PlainSign)
    text = replace_line(BASE, '"perceptron"', f'"test-plain-sign"\n{line}')
    message = scenario_error(write(tmp_path, text), f": {key}: ", build=True)
    assert expected in message


class Chatty:
    """A user's learner whose refusal is a plain ValueError beginning with another key's name."""

    deterministic = True
    plays = frozenset({"vector"})

    def __init__(self, alpha: float = 0.5, beta: float = 0.5):
        if alpha > 1:
            raise ValueError("beta and alpha must add to at most 1")

    def predict(self, x) -> float:
        return 1.0

    def update(self, x, y) -> bool:
        return False


def test_the_key_is_never_guessed_from_the_message(tmp_path, register):
    register("test-chatty", Chatty)
    text = replace_line(BASE, '"perceptron"', '"test-chatty"\nalpha = 2.0\nbeta = 0.1')
    message = scenario_error(write(tmp_path, text), ": learner: ", build=True)
    assert "learner.beta" not in message and "beta and alpha must add" in message


@pytest.mark.parametrize(
    "role, old, new, key, expected",
    [
        ("adversary", "margin = 0.2", "margin = -1", "adversary.margin", "must be a number > 0"),
        ("adversary", "margin = 0.2", 'margin = "0.2"', "adversary.margin", "must be a number"),
        ("adversary", "dimension = 3", "dimension = true", "adversary.dimension", "got True"),
        ("learner", 'name = "perceptron"', 'name = "perceptron"\ndimension = 1.5',
         "learner.dimension", "dimension must be an integer between 1 and"),
        ("adversary", "margin = 0.2", "margin = 2.0", "adversary.margin", "radius"),
        ("adversary", "dimension = 3", "dimension = 0", "adversary.dimension", "got 0"),
        ("adversary", "dimension = 3", "dimension = 2.5", "adversary.dimension", "integer"),
        ("learner", 'name = "perceptron"', 'name = "perceptron"\nzero_label = 0',
         "learner.zero_label", "must be one of 1, -1, got 0"),
        ("learner", 'name = "perceptron"', 'name = "perceptron"\nupdate = "sometimes"',
         "learner.update", "must be one of 'nonpositive', 'mistake', got 'sometimes'"),
        ("learner", 'name = "perceptron"', 'name = "perceptron"\nnormalize = 1',
         "learner.normalize", "got 1"),
    ],
)  # fmt: skip
def test_bad_parameter_values_name_the_key(tmp_path, role, old, new, key, expected):
    path = write(tmp_path, replace_line(BASE, old, new))
    message = scenario_error(path, f": {key}: ", build=True)
    assert expected in message
    with pytest.raises(ScenarioError, match=re.escape(key)):
        load_scenario(path).play()


# -- data files ---------------------------------------------------------------------------

REPLAY = """\
rounds = 100

[learner]
name = "perceptron"

[adversary]
name = "replay"
"""


@pytest.fixture
def data_dir(tmp_path):
    X = np.array([[1.0, 0.0], [0.0, 1.0], [2.0, 1.0], [-1.0, -0.5]])
    y = np.array([1, -1, 1, -1])
    (tmp_path / "data").mkdir()
    np.save(tmp_path / "data" / "X.npy", X)
    np.savetxt(tmp_path / "data" / "y.csv", y, delimiter=",")
    tr = play(Perceptron(), __import__("adversaries").Replay(instances=X, labels=y), rounds=9)
    tr.save(tmp_path / "data" / "game.jsonl")
    return tmp_path


def test_data_files_npy_csv_and_jsonl_load(data_dir):
    text = REPLAY + 'instances = "data/X.npy"\nlabels = "data/y.csv"\n'
    tr = load_scenario(write(data_dir, text)).play()
    assert len(tr) == 4 and tr.labels.tolist() == [1, -1, 1, -1]
    tr2 = load_scenario(write(data_dir, REPLAY + 'transcript = "data/game.jsonl"\n')).play()
    assert tr2.rounds_digest == tr.rounds_digest


def test_data_file_missing(data_dir):
    path = write(data_dir, REPLAY + 'transcript = "data/nope.jsonl"\n')
    assert "not found" in scenario_error(path, "adversary.transcript")


def test_data_file_absolute_path(data_dir):
    absolute = data_dir / "data" / "game.jsonl"
    path = write(data_dir, REPLAY + f'transcript = "{absolute}"\n')
    assert "must be a path relative to the scenario" in scenario_error(path, "adversary.transcript")


@pytest.mark.parametrize("rel", ["../outside.npy", "data/../../outside.npy", "../../outside.npy"])
def test_data_file_escaping_the_folder(tmp_path, rel):
    folder = tmp_path / "a" / "b"
    folder.mkdir(parents=True)
    np.save(tmp_path / "a" / "outside.npy", np.zeros((2, 2)))
    np.save(tmp_path / "outside.npy", np.zeros((2, 2)))
    path = write(folder, REPLAY + f'instances = "{rel}"\nlabels = [1, -1]\n')
    assert "outside the scenario's folder" in scenario_error(path, "adversary.instances")


def test_data_file_symlink_escaping_the_folder(data_dir, tmp_path_factory):
    outside = tmp_path_factory.mktemp("elsewhere") / "X.npy"
    np.save(outside, np.zeros((2, 2)))
    (data_dir / "data" / "link.npy").symlink_to(outside)
    path = write(data_dir, REPLAY + 'instances = "data/link.npy"\nlabels = [1, -1]\n')
    assert "outside the scenario's folder" in scenario_error(path, "adversary.instances")


@pytest.mark.parametrize("name", ["data/X.txt", "data/X.npz", "data/X.pkl", "data"])
def test_data_file_wrong_suffix(data_dir, name):
    path = write(data_dir, REPLAY + f'instances = "{name}"\nlabels = "data/y.csv"\n')
    assert "must end in .npy, .csv, .jsonl" in scenario_error(path, "adversary.instances")


def test_corrupt_data_transcript(data_dir):
    bad = data_dir / "data" / "bad.jsonl"
    lines = (data_dir / "data" / "game.jsonl").read_text().splitlines()
    bad.write_text("\n".join([lines[0], "{oops", *lines[2:]]) + "\n")
    path = write(data_dir, REPLAY + 'transcript = "data/bad.jsonl"\n')
    message = scenario_error(path, "adversary.transcript")
    assert f"{bad}:2: not a JSON line" in message


def test_incomplete_data_transcript(data_dir):
    bad = data_dir / "data" / "cut.jsonl"
    lines = (data_dir / "data" / "game.jsonl").read_text().splitlines()
    bad.write_text("\n".join(lines[:-1]) + "\n")
    path = write(data_dir, REPLAY + 'transcript = "data/cut.jsonl"\n')
    assert "no footer" in scenario_error(path, "adversary.transcript")


@pytest.mark.parametrize("content", [b"not a npy file", b"\x93NUMPY garbage"])
def test_corrupt_npy(data_dir, content):
    (data_dir / "data" / "bad.npy").write_bytes(content)
    path = write(data_dir, REPLAY + 'instances = "data/bad.npy"\nlabels = "data/y.csv"\n')
    assert "cannot read data file" in scenario_error(path, "adversary.instances")


def test_corrupt_csv(data_dir):
    (data_dir / "data" / "bad.csv").write_text("1,2\nthree,4\n")
    path = write(data_dir, REPLAY + 'instances = "data/bad.csv"\nlabels = "data/y.csv"\n')
    assert "cannot read data file" in scenario_error(path, "adversary.instances")


def test_data_that_does_not_fit_the_player(data_dir):
    np.save(data_dir / "data" / "y3.npy", np.array([1, -1, 1]))
    path = write(data_dir, REPLAY + 'instances = "data/X.npy"\nlabels = "data/y3.npy"\n')
    scenario_error(path, "adversary.labels", build=True)


# -- [expect] -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line, key, expected",
    [
        ("mistake = 3", "expect.mistake", "unknown key; expected one of mistakes"),
        ('mistakes = "3"', "expect.mistakes", "expected an integer, got '3'"),
        ("mistakes = true", "expect.mistakes", "expected an integer"),
        ("mistakes = -1", "expect.mistakes", "expected a non-negative integer"),
        ("within_bound = 1", "expect.within_bound", "expected true or false"),
        ('certificate_verified = "yes"', "expect.certificate_verified", "expected true or false"),
        ('digest = "md5:abc"', "expect.digest", "expected 'sha256:'"),
        ('digest = "sha256:xyz"', "expect.digest", "64 hex digits"),
        ('digest = "sha256:' + "a" * 63 + '"', "expect.digest", "64 hex digits"),
        ("digest = 5", "expect.digest", "expected a string"),
    ],
)
def test_expect_table_errors(tmp_path, line, key, expected):
    message = scenario_error(write(tmp_path, BASE + f"\n[expect]\n{line}\n"), f": {key}: ")
    assert expected in message


def expected_game(tmp_path) -> tuple[Path, dict]:
    path = write(tmp_path, BASE)
    s = load_scenario(path).play().summary()
    return path, s


def test_every_expectation_that_holds_passes(tmp_path):
    _path, s = expected_game(tmp_path)
    text = BASE + (
        f"\n[expect]\nmistakes = {s['mistakes']}\nupdates = {s['updates']}\n"
        f"min_mistakes = {s['mistakes']}\nmax_mistakes = {s['mistakes']}\n"
        f'within_bound = true\ncertificate_verified = true\ndigest = "{s["digest"]}"\n'
    )
    sc = load_scenario(write(tmp_path, text))
    tr = sc.play()
    assert sc.check(tr) == [] and tr.digest == s["digest"]


@pytest.mark.parametrize(
    "entry, sentence",
    [
        ("mistakes = {m1}", "expected {m1} mistakes, got {m}"),
        ("updates = {u1}", "expected {u1} updates, got {u}"),
        ("min_mistakes = {m1}", "expected at least {m1} mistakes, got {m}"),
        ("max_mistakes = {m0}", "expected at most {m0} mistakes, got {m}"),
        ("within_bound = false", "expected within_bound = False, got True (updates ≤ "),
        ("certificate_verified = false", "expected certificate_verified = False, got True"),
        ('digest = "sha256:' + "0" * 64 + '"', "expected digest sha256:000"),
    ],
)
def test_a_failing_expectation_raises_with_a_sentence(tmp_path, entry, sentence):
    _path, s = expected_game(tmp_path)
    values = {"m": s["mistakes"], "m1": s["mistakes"] + 1, "m0": s["mistakes"] - 1,
              "u": s["updates"], "u1": s["updates"] + 1}  # fmt: skip
    assert values["m0"] >= 0
    sc = load_scenario(write(tmp_path, BASE + "\n[expect]\n" + entry.format(**values) + "\n"))
    with pytest.raises(ExpectationError) as info:
        sc.play()
    message = str(info.value)
    assert message.startswith(f"{sc.source}: ")
    assert sentence.format(**values) in message
    tr = sc.play(check=False)
    assert len(sc.check(tr)) == 1


def test_several_failures_are_all_reported(tmp_path):
    text = BASE + "\n[expect]\nmistakes = 999\nupdates = 999\nwithin_bound = false\n"
    with pytest.raises(ExpectationError) as info:
        load_scenario(write(tmp_path, text)).play()
    assert str(info.value).count("expected") == 3


def test_within_bound_expected_without_a_bound(tmp_path, random_sign):
    text = (
        replace_line(BASE, '"perceptron"', f'"{random_sign}"') + "\n[expect]\nwithin_bound = true\n"
    )
    with pytest.raises(ExpectationError, match=r"got None \(no bound\)"):
        load_scenario(write(tmp_path, text)).play()


@pytest.mark.parametrize("override", [{"seed": 5}, {"rounds": 20}, {"seed": 3}, {"rounds": 50}])
def test_overriding_seed_or_rounds_skips_only_the_exact_expectations(tmp_path, override):
    exact = '\n[expect]\nmistakes = 999\nupdates = 999\ndigest = "sha256:' + "0" * 64 + '"\n'
    sc = load_scenario(write(tmp_path, BASE + exact + "min_mistakes = 0\nwithin_bound = true\n"))
    with pytest.raises(ExpectationError):
        sc.play()
    tr = sc.play(**override)  # the exact expectations are skipped, the others hold
    assert sc.check(tr, exact=False) == []
    assert len(sc.check(tr)) == 3
    strict = load_scenario(write(tmp_path, BASE + exact + "within_bound = false\n", "t.toml"))
    with pytest.raises(ExpectationError, match="expected within_bound = False") as info:
        strict.play(**override)
    assert "999" not in str(info.value)


def test_overrides_are_recorded_in_the_header(tmp_path):
    sc = load_scenario(write(tmp_path, BASE))
    tr = sc.play(seed=9, rounds=7, snapshots=True)
    assert len(tr) == 7 and tr.header["seed"] == 9
    spec = tr.header["scenario"]["spec"]
    assert (spec["seed"], spec["rounds"], spec["snapshots"]) == (9, 7, True)
    assert tr.snapshot("norm2").shape == (7,)


@pytest.mark.parametrize("kwargs", [{"seed": -1}, {"seed": True}, {"seed": 1.0},
                                    {"seed": np.bool_(True)}, {"rounds": -1}, {"rounds": "5"},
                                    {"rounds": False}, {"rounds": MAX_ROUNDS + 1}])  # fmt: skip
def test_bad_overrides_are_refused(tmp_path, kwargs):
    sc = load_scenario(write(tmp_path, BASE))
    with pytest.raises(ParameterError, match=next(iter(kwargs))) as info:
        sc.play(**kwargs)
    assert info.value.parameter == next(iter(kwargs))


def test_numpy_integer_overrides_are_integers(tmp_path):
    sc = load_scenario(write(tmp_path, BASE))
    tr = sc.play(seed=np.int64(5), rounds=np.int32(7), check=False)
    assert tr.header["seed"] == 5 and type(tr.header["scenario"]["spec"]["rounds"]) is int
    assert len(tr) == 7 and tr.digest == sc.play(seed=5, rounds=7, check=False).digest
    a, b = sc.build(np.uint16(5)), sc.build(5)
    np.testing.assert_array_equal(a[1].direction, b[1].direction)
    with pytest.raises(ParameterError, match="seed must be an integer ≥ 0, got True"):
        sc.build(True)


def test_a_spec_with_numpy_integers_is_read_as_python_ints():
    spec = {
        "rounds": np.int64(20),
        "seed": np.int8(2),
        "learner": {"name": "perceptron", "dimension": np.int64(3)},
        "adversary": {"name": "separable-stream", "dimension": np.int16(3), "margin": 0.2},
        "expect": {"min_mistakes": np.int64(0)},
    }
    sc = scenario_from_dict(spec)
    assert (sc.rounds, sc.seed, sc.expect["min_mistakes"]) == (20, 2, 0)
    assert all(type(v) is int for v in (sc.rounds, sc.seed, sc.expect["min_mistakes"]))
    assert len(sc.play()) == 20


# -- seeds --------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 3, 12345, 2**40])
def test_players_get_generators_from_seed_sequence_spawn_2(tmp_path, random_sign, seed):
    text = replace_line(BASE, '"perceptron"', f'"{random_sign}"')
    sc = load_scenario(write(tmp_path, text))
    learner, adversary = sc.build(seed)
    children = np.random.SeedSequence(seed).spawn(2)
    expected_learner_rng = np.random.default_rng(children[0])
    assert learner.rng.bit_generator.state == expected_learner_rng.bit_generator.state
    reference = SeparableStream(3, 0.2, rng=np.random.default_rng(children[1]))
    np.testing.assert_array_equal(adversary.direction, reference.direction)
    assert adversary.rng.bit_generator.state == reference.rng.bit_generator.state


def test_the_scenarios_seed_is_the_default(tmp_path):
    sc = load_scenario(write(tmp_path, BASE))
    assert sc.seed == 3
    a, b = sc.build()[1], sc.build(3)[1]
    np.testing.assert_array_equal(a.direction, b.direction)
    assert not np.array_equal(a.direction, sc.build(4)[1].direction)


def test_seed_defaults_to_zero(tmp_path):
    sc = load_scenario(write(tmp_path, replace_line(BASE, "seed = 3\n", "")))
    assert sc.seed == 0
    np.testing.assert_array_equal(sc.build()[1].direction, sc.build(0)[1].direction)


# -- [concept_class] ----------------------------------------------------------------------

CLASS_GAME = """\
rounds = 50

[learner]
name = "soa"

[adversary]
name = "optimal-adversary"

[concept_class]
builder = "intervals"
n = 8
"""


@pytest.mark.parametrize(
    ("old", "new", "key", "expected"),
    [
        ("n = 8", "n = 1000000", "concept_class.n", "n must be an integer between 0 and 512"),
        ("n = 8", "n = true", "concept_class.n", "n must be an integer between 0 and 512, got Tr"),
        ("n = 8", "n = 2.5", "concept_class.n", "got 2.5"),
        ("n = 8", "m = 8", "concept_class.m", "m must be an argument of builder 'intervals'"),
        ('"intervals"\nn = 8', '"decision_lists"\nn = 2\nlength = -1', "concept_class.length",
         "length must be an integer between 0 and 64, got -1"),
        ('builder = "intervals"\nn = 8', 'path = "cls.npy"', "concept_class.path", "+1 or -1"),
    ],
)  # fmt: skip
def test_a_bad_concept_class_table_names_its_key(tmp_path, old, new, key, expected):
    np.save(tmp_path / "cls.npy", np.array([[1, 0], [1, 1]]))
    message = scenario_error(write(tmp_path, replace_line(CLASS_GAME, old, new)), f": {key}: ")
    assert expected in message


def test_a_bad_class_in_a_player_table_names_the_players_key(tmp_path):
    text = CLASS_GAME.split("[concept_class]")[0].replace(
        'name = "soa"', 'name = "soa"\nconcept_class = [[1, 0], [1, 1]]'
    )
    message = scenario_error(write(tmp_path, text), ": learner.concept_class: ", build=True)
    assert "concept_class must be a 2-D matrix of +1 or -1 entries" in message


def test_the_shared_class_reaches_every_player_that_declares_one(tmp_path, register):
    @attrs.define(eq=False)
    class Watcher:
        """Holds a class under a name of its own and a plain field called concept_class."""

        deterministic: ClassVar[bool] = True
        plays: ClassVar[frozenset[str]] = frozenset({"point"})
        hypotheses: object = concept_class_field("the class")
        concept_class: str = "mine"

        def predict(self, x) -> float:
            return 1.0

        def update(self, x, y) -> bool:
            return False

    register("test-watcher", Watcher)
    scenario = load_scenario(write(tmp_path, CLASS_GAME.replace('"soa"', '"test-watcher"')))
    learner, adversary = scenario.build()
    assert learner.hypotheses is adversary.concept_class is scenario.concept_class()
    assert learner.concept_class == "mine"


def test_a_required_parameter_nobody_gives_says_what_to_declare():
    class Coin:
        """A coin that needs a generator but does not say the scenario supplies it."""

        deterministic = False
        plays = frozenset({"vector"})

        def __init__(self, rng, bias=0.5):
            self.rng, self.bias = rng, bias

        def predict(self, x):
            return 1.0

        def update(self, x, y):
            return False

    reg.register("undeclared-coin", Coin)
    try:
        spec = {
            "rounds": 3,
            "learner": {"name": "undeclared-coin"},
            "adversary": {"name": "separable-stream", "dimension": 2, "margin": 0.1},
        }
        with pytest.raises(
            ScenarioError, match=r"s\.toml: learner\.rng: missing; .*scenario_supplies"
        ):
            scenario_from_dict(spec, source="s.toml").play()
    finally:
        reg._registered.pop("undeclared-coin")
