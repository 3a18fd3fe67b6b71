"""Players that try to fool the referee: the record, the history, the kinds, the certificates.

Each test plays a hostile player against the engine and checks that the attack
is caught with a one-line error naming the player and the round (or, after
the game, the player), or that it changes nothing in the record: the rounds
recorded are those of an undisturbed twin game, the file written beside them
loads equal to the transcript returned, and verdicts are the honest ones.

- **The record.** An adversary that reuses one output buffer, or rewrites it
  between a round's calls; a learner that writes into what it was handed
  (through the array, its ``base``, ``np.asarray``), keeps it and writes it
  after the game, or writes into the transcript handed to its
  ``mistake_bound``.
- **The history.** An adversary that writes to ``history.labels``,
  ``history.instances`` (its items too), or assigns its attributes.
- **Kinds.** Learners of advice, points or bits against real vectors are
  refused before round 1 (in Python, from a scenario, on the command line);
  non-finite instances and advice outside [-1, 1] are refused naming the round.
- **Certificates.** Lying subclasses (``agrees``, ``labels``, ``margin``), a
  certificate written after it was handed over, a certificate of the wrong kind.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from adversaries import Replay, SeparableStream
from game import (
    CertificateError,
    HalfspaceCertificate,
    ProtocolError,
    ScenarioError,
    Transcript,
    load_scenario,
    play,
)
from game.cli import main
from game.theory import ExpertCertificate
from game.theory.bounds import Bound
from game.theory.concepts import FiniteClassCertificate
from learners import Perceptron, WeightedMajority

ROOT = Path(__file__).resolve().parents[2]


def one_line(error: BaseException) -> str:
    message = str(error)
    assert message and "\n" not in message, message
    return message


def same_rounds(a: Transcript, b: Transcript) -> None:
    """The two games' records are equal round by round (their players may differ)."""
    assert len(a) == len(b)
    assert a.first_difference(b) is None
    assert np.array_equal(np.asarray(a.instances), np.asarray(b.instances))
    assert np.array_equal(a.predictions, b.predictions)
    assert np.array_equal(a.labels, b.labels)
    assert np.array_equal(a.updated, b.updated)
    assert a.rounds_digest == b.rounds_digest


def separable(n: int = 30, d: int = 3, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """n examples in dimension d labelled by sign(u·x), none on the hyperplane; and u."""
    rng = np.random.default_rng(seed)
    u = rng.standard_normal(d)
    X = rng.standard_normal((n, d))
    s = X @ u
    X[np.abs(s) < 0.05] += 0.1 * np.sign(u)  # keep every point off the hyperplane
    y = np.where(X @ u > 0, 1, -1)
    return X, y, u


class Scripted:
    """Plays the rows of X with labels y; how it hands them over is ``mode``.

    - ``"fresh"``: a new array every round;
    - ``"rows"``: views of its own (writeable) matrix X;
    - ``"buffer"``: one buffer, refilled every round (an output buffer reused);
    - ``"sealed"``: rows of a block whose memory is read-only.
    """

    presents = "vector"

    def __init__(self, X, y, mode="fresh", certificate=None):
        self.X = np.array(X, dtype=np.float64)
        self.y = [int(v) for v in y]
        self.mode = mode
        self.cert = certificate
        self.buffer = np.empty(self.X.shape[1])
        self.sealed = np.frombuffer(self.X.tobytes()).reshape(self.X.shape)
        self.t = 0

    def instance(self, history):
        if self.t == len(self.y):
            return None
        i, self.t = self.t, self.t + 1
        if self.mode == "fresh":
            return self.X[i].copy()
        if self.mode == "rows":
            return self.X[i]
        if self.mode == "sealed":
            return self.sealed[i]
        self.buffer[:] = self.X[i]
        return self.buffer

    def label(self, x, p, history):
        return self.y[self.t - 1]

    def certificate(self):
        return self.cert


MODES = ("fresh", "rows", "buffer", "sealed")


def honest(X, y, u=None, learner=None, rounds=None):
    """The undisturbed twin: fresh arrays, an honest learner."""
    cert = None if u is None else HalfspaceCertificate(u)
    return play(
        learner or Perceptron(),
        Scripted(X, y, "fresh", cert),
        rounds=len(y) if rounds is None else rounds,
    )


def round_lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()[1:-1]]


# -- the adversary's buffer -------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_every_way_of_handing_over_instances_records_each_round_as_presented(mode, tmp_path):
    X, y, u = separable()
    twin = honest(X, y, u)
    played = play(
        Perceptron(),
        Scripted(X, y, mode, HalfspaceCertificate(u)),
        rounds=len(y),
        out=tmp_path / "game.jsonl",
    )
    same_rounds(played, twin)
    assert np.array_equal(played.instances, X)
    assert played.certificate_verified is True
    assert played.bound == twin.bound
    assert Transcript.load(tmp_path / "game.jsonl") == played


def test_a_reused_buffer_records_twenty_rounds_not_one_instance_twenty_times():
    X, y, u = separable(n=20)
    played = play(Perceptron(), Scripted(X, y, "buffer", HalfspaceCertificate(u)), rounds=20)
    assert len({tuple(row) for row in played.instances}) == 20
    assert played.certificate_verified is True


class Switcher(Scripted):
    """Reuses its buffer and rewrites it while the round is under way (in ``label``)."""

    def label(self, x, p, history):
        self.buffer[:] = -self.buffer * 1000.0  # what the learner's update would see
        return super().label(x, p, history)


def test_an_adversary_that_rewrites_its_buffer_mid_round_changes_no_update():
    X, y, u = separable()
    played = play(Perceptron(), Switcher(X, y, "buffer", HalfspaceCertificate(u)), rounds=len(y))
    same_rounds(played, honest(X, y, u))
    assert played.certificate_verified is True


def test_a_buffer_of_python_lists_reused_is_recorded_round_by_round():
    X, y, _u = separable(n=8)

    class Lists(Scripted):
        def instance(self, history):
            x = super().instance(history)
            if x is None:
                return None
            self.shared = getattr(self, "shared", [0.0] * len(x))
            self.shared[:] = x.tolist()
            return self.shared

    class Reads:
        plays = frozenset({"vector"})

        def predict(self, x):
            return 1.0 if float(np.dot(x, [1.0, 0.0, 0.0])) >= 0 else -1.0

        def update(self, x, y):
            return False

    played = play(Reads(), Lists(X, y, "fresh"), rounds=len(y))
    assert np.array_equal(played.instances, X)


# -- the learner's writes ---------------------------------------------------------------------


def _write(target, value: float) -> bool:
    """Try to write ``value`` into every entry of ``target`` (making it writeable where numpy
    allows it); whether the write happened."""
    if not isinstance(target, np.ndarray):
        return False
    try:
        target.flags.writeable = True
    except ValueError:
        pass
    try:
        target[...] = value
    except ValueError:
        return False
    return True


class Vandal(Perceptron):
    """A Perceptron that writes into what it was handed, by one of several routes, after it
    learned from it (so the game it plays is the honest Perceptron's)."""

    ROUTES = ("x", "x.base", "np.asarray(x)", "x.view()", "kept, after the game")

    def __init__(self, route: str):
        super().__init__()
        self.route = route
        self.kept: list = []
        self.written = 0

    def update(self, x, y):
        changed = super().update(x, y)
        self.kept.append(x)
        if self.route == "x":
            self.written += _write(x, 7.0)
        elif self.route == "x.base":
            self.written += _write(x.base, 7.0)
        elif self.route == "np.asarray(x)":
            self.written += _write(np.asarray(x), 7.0)
        elif self.route == "x.view()":
            self.written += _write(x.view(), 7.0)
        return changed

    def vandalise_kept(self) -> None:
        for x in self.kept:
            self.written += _write(x, -3.0) + _write(x.base, -3.0)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("route", Vandal.ROUTES)
def test_a_learner_writing_into_what_it_was_handed_changes_nothing_recorded(route, mode, tmp_path):
    X, y, u = separable()
    vandal = Vandal(route)
    played = play(
        vandal, Scripted(X, y, mode, HalfspaceCertificate(u)), rounds=len(y), out=tmp_path / "g"
    )
    vandal.vandalise_kept()
    twin = honest(X, y, u)
    same_rounds(played, twin)
    assert np.array_equal(played.instances, X)
    assert played.certificate_verified is True and played.bound == twin.bound
    assert [line["x"] for line in round_lines(tmp_path / "g")] == X.tolist()
    same_rounds(Transcript.load(tmp_path / "g"), twin)


def test_the_learner_sees_no_memory_of_the_adversary_or_of_the_record():
    """Whatever it writes, a learner cannot reach the adversary's own array: the adversary's
    later rounds are its own (they are not the learner's writes)."""
    X, y, u = separable()
    adversary = Scripted(X, y, "rows", HalfspaceCertificate(u))
    play(Vandal("x.base"), adversary, rounds=len(y))
    assert np.array_equal(adversary.X, separable()[0])


def test_writing_through_x_base_of_a_replayed_array_changes_nothing():
    """The issue's case: the Replay adversary's rows were views of its own array."""
    X, y, u = separable()
    replay = Replay(instances=X, labels=y, separator=u)
    played = play(Vandal("x.base"), replay, rounds=len(y))
    same_rounds(played, honest(X, y, u))
    assert played.certificate_verified is True
    again = play(Perceptron(), Replay(instances=X, labels=y, separator=u), rounds=len(y))
    same_rounds(again, played)


class BoundVandal(Perceptron):
    """A Perceptron whose ``mistake_bound`` writes into the transcript it is handed."""

    ATTACKS = (
        "instances",
        "instances.base",
        "labels",
        "predictions",
        "updated",
        "labels =",
        "header",
        "status =",
        "certificate =",
        "certificate.weights",
        "lower_bound =",
    )

    def __init__(self, attack: str):
        super().__init__()
        self.attack = attack

    def mistake_bound(self, transcript):
        bound = super().mistake_bound(transcript)
        a = self.attack
        if a == "instances":
            _write(transcript.instances, 9.0)
        elif a == "instances.base":
            _write(transcript.instances.base, 9.0)
        elif a in ("labels", "predictions", "updated"):
            column = getattr(transcript, a)
            _write(column, {"labels": 1, "predictions": 1.0, "updated": True}[a])
        elif a == "labels =":
            transcript.labels = np.ones_like(transcript.labels)
        elif a == "header":
            transcript.header["rounds"] = 7
            transcript.header["learner"]["params"]["normalize"] = True
        elif a == "status =":
            transcript.status = "aborted"
        elif a == "certificate =":
            transcript.certificate = None
        elif a == "certificate.weights":
            _write(transcript.certificate.weights, 0.0)
        elif a == "lower_bound =":
            transcript.lower_bound = Bound(1e6, "mistakes ≥ 10⁶", "nobody", kind="lower")
        return bound


@pytest.mark.parametrize("attack", BoundVandal.ATTACKS)
def test_a_learner_writing_into_the_transcript_its_bound_is_computed_from_changes_nothing(
    attack, tmp_path
):
    X, y, u = separable()
    played = play(
        BoundVandal(attack),
        Scripted(X, y, "fresh", HalfspaceCertificate(u)),
        rounds=len(y),
        out=tmp_path / "g",
    )
    twin = honest(X, y, u)
    same_rounds(played, twin)
    assert played.header["rounds"] == len(y)
    assert played.header["learner"]["params"]["normalize"] is False
    assert played.summary()["status"] == "complete" and played.lower_bound is None
    assert played.certificate == twin.certificate and played.certificate_verified is True
    assert played.bound == twin.bound
    loaded = Transcript.load(tmp_path / "g")
    same_rounds(loaded, twin)


# -- the history ------------------------------------------------------------------------------


def _flip_labels(h):
    h.labels[0] = -h.labels[0]


def _delete_label(h):
    del h.labels[0]


def _append_instance(h):
    h.instances.append(h.instances[0])


def _append_label(h):
    h.labels.append(1)


def _assign_labels(h):
    h.labels = [1] * len(h)


def _assign_private(h):
    h._labels = [1] * len(h)


def _extend_predictions(h):
    h.predictions += [1.0]


def _write_instance(h):
    h.instances[0][0] = 1e9


def _write_instance_made_writeable(h):
    for x in h.instances:
        _write(x, 1e9)


def _write_instance_base(h):
    for x in h.instances[:]:
        _write(x.base, 1e9)


HISTORY_ATTACKS = {
    # attack: the exception the adversary's call raises (None: it runs, to no effect)
    _flip_labels: TypeError,
    _delete_label: TypeError,
    _append_instance: AttributeError,
    _append_label: AttributeError,
    _assign_labels: AttributeError,
    _assign_private: AttributeError,
    _extend_predictions: TypeError,
    _write_instance: ValueError,
    _write_instance_made_writeable: None,
    _write_instance_base: None,
}


class Meddler(Scripted):
    """Attacks the history it is shown, from round ``at`` on, in ``instance`` or ``label``."""

    def __init__(self, X, y, attack, at, where, cert=None):
        super().__init__(X, y, "fresh", cert)
        self.attack, self.at, self.where = attack, at, where

    def instance(self, history):
        if self.where == "instance" and history.t >= self.at:
            self.attack(history)
        return super().instance(history)

    def label(self, x, p, history):
        if self.where == "label" and history.t >= self.at:
            self.attack(history)
        return super().label(x, p, history)


@pytest.mark.parametrize("where", ["instance", "label"])
@pytest.mark.parametrize("attack", list(HISTORY_ATTACKS), ids=lambda f: f.__name__.strip("_"))
def test_an_adversary_cannot_change_the_history_it_is_shown(attack, where, register, tmp_path):
    register("meddler", Meddler)
    X, y, u = separable()
    adversary = Meddler(X, y, attack, 3, where, HalfspaceCertificate(u))
    twin = honest(X, y, u)
    raised = HISTORY_ATTACKS[attack]
    if raised is None:
        played = play(Perceptron(), adversary, rounds=len(y), out=tmp_path / "g")
        same_rounds(played, twin)
        assert played.certificate_verified is True
        assert Transcript.load(tmp_path / "g") == played
        return
    with pytest.raises(ProtocolError) as caught:
        play(Perceptron(), adversary, rounds=len(y), out=tmp_path / "g")
    message = one_line(caught.value)
    assert message.startswith(f"adversary meddler, round 3: {where} raised {raised.__name__}")
    kept = Transcript.load(tmp_path / "g")  # rounds 1 and 2, as played, marked aborted
    assert kept.status == "aborted" and len(kept) == 2
    assert np.array_equal(kept.instances, twin.instances[:2])
    assert kept.labels.tolist() == twin.labels[:2].tolist()


def test_history_items_are_the_recorded_rounds_whatever_was_written_to_earlier_ones():
    X, y, _u = separable(n=6)
    seen = []

    class Reader(Scripted):
        def instance(self, history):
            _write_instance_made_writeable(history)
            seen.append([np.array(x) for x in history.instances])
            return super().instance(history)

    play(Perceptron(), Reader(X, y), rounds=6)
    for t, rows in enumerate(seen):
        assert np.array_equal(np.array(rows).reshape(t, 3), X[:t])


# -- kinds ------------------------------------------------------------------------------------

MISMATCHED = ["halving", "conjunction-learner", "winnow"]


def _learner(name):
    from game.players import lookup

    return lookup(name)()


@pytest.mark.parametrize("name", MISMATCHED)
def test_a_learner_of_other_kinds_is_refused_before_round_one(name, tmp_path):
    stream = SeparableStream(3, 0.1, rng=np.random.default_rng(0))
    with pytest.raises(ProtocolError) as caught:
        play(_learner(name), stream, rounds=10, out=tmp_path / "g.jsonl")
    message = one_line(caught.value)
    assert f"learner {name} plays " in message
    assert "adversary separable-stream presents vector" in message
    assert not (tmp_path / "g.jsonl").exists()
    assert np.array_equal(
        stream.instance(None), SeparableStream(3, 0.1, rng=np.random.default_rng(0)).instance(None)
    ), "the stream was asked for an instance before the game was refused"


def _mismatched_scenario(tmp_path: Path, name: str) -> Path:
    path = tmp_path / f"{name}.toml"
    path.write_text(
        f'rounds = 10\nseed = 0\n[learner]\nname = "{name}"\n'
        '[adversary]\nname = "separable-stream"\ndimension = 3\nmargin = 0.1\n',
        encoding="utf-8",
    )
    return path


@pytest.mark.parametrize("name", MISMATCHED)
def test_a_scenario_of_mismatched_kinds_is_refused_naming_both_players(name, tmp_path, capsys):
    path = _mismatched_scenario(tmp_path, name)
    with pytest.raises((ProtocolError, ScenarioError)) as caught:
        load_scenario(path).play(out=tmp_path / "g.jsonl")
    message = one_line(caught.value)
    assert f"learner {name} plays " in message
    assert "adversary separable-stream presents vector" in message
    assert not (tmp_path / "g.jsonl").exists()

    status = main(["run", str(path), "--out", str(tmp_path / "cli.jsonl")])
    _out, err = capsys.readouterr()
    assert status == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert f"learner {name}" in lines[0] and "adversary separable-stream" in lines[0]
    assert not (tmp_path / "cli.jsonl").exists()


def test_python_m_game_run_refuses_a_mismatched_scenario_in_one_line(tmp_path):
    path = _mismatched_scenario(tmp_path, "winnow")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "game", "run", str(path), "--out", str(tmp_path / "g.jsonl")],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    assert lines[0].endswith(
        "learner winnow plays bits; adversary separable-stream presents vector: "
        "they cannot play each other"
    )
    assert not (tmp_path / "g.jsonl").exists()


class Constant:
    """Predicts +1 on anything, learns nothing."""

    plays = frozenset({"vector", "advice"})

    def predict(self, x):
        return 1.0

    def update(self, x, y):
        return False


class Scaled:
    """A separable stream whose instance of round ``at`` is multiplied by ``factor`` twice."""

    presents = "vector"

    def __init__(self, at, factor, dtype=None):
        self.stream = SeparableStream(3, 0.1, rng=np.random.default_rng(0))
        self.at, self.factor, self.dtype, self.t = at, factor, dtype, 0

    def instance(self, history):
        x = self.stream.instance(history)
        self.t += 1
        if self.t == self.at:
            with np.errstate(all="ignore"):
                x = x * self.factor * self.factor
        return x if self.dtype is None else x.astype(self.dtype)

    def label(self, x, p, history):
        return self.stream.label(x, p, history)

    def certificate(self):
        return self.stream.certificate()


@pytest.mark.parametrize(
    "factor, dtype, what",
    [
        (np.inf, None, "a non-finite number"),
        (np.nan, None, "a non-finite number (nan)"),
        (1e200, None, "a non-finite number"),  # overflows to ±inf
        (np.inf, np.float32, "a non-finite number"),
        (np.nan, object, "a non-finite number (nan)"),
    ],
    ids=["inf", "nan", "overflow", "float32", "object-array"],
)
def test_a_non_finite_instance_is_refused_naming_the_round(factor, dtype, what, register, tmp_path):
    register("scaled-stream", Scaled)
    learner = Constant() if dtype is object else Perceptron()  # the Perceptron wants floats
    with pytest.raises(ProtocolError) as caught:
        play(learner, Scaled(4, factor, dtype), rounds=10, out=tmp_path / "g")
    message = one_line(caught.value)
    assert message.startswith("adversary scaled-stream, round 4: the instance holds " + what)
    kept = Transcript.load(tmp_path / "g")
    assert kept.status == "aborted" and kept.reason == message
    assert kept.bound is None and kept.certificate is None


class Presents:
    """Presents [1.0, 0.0] on round 1, then ``what`` on round 2."""

    presents = "vector"

    def __init__(self, what):
        self.what, self.t = what, 0

    def instance(self, history):
        self.t += 1
        return np.array([1.0, 0.0]) if self.t == 1 else self.what

    def label(self, x, p, history):
        return 1

    def certificate(self):
        return None


@pytest.mark.parametrize(
    "what, holds",
    [
        ("abc", "a str ('abc'), not real numbers"),
        (1 + 2j, "a complex ((1+2j)), not real numbers"),
        (np.array([1 + 1j, 0]), "values of dtype complex128, not real numbers"),
        (np.array(["a", "b"]), "values of dtype <U1, not real numbers"),
        (np.array([None, 1.0]), "a non-finite number (nan) at coordinate 0"),  # None: NaN
        ({"x": 1.0}, "a dict ({'x': 1.0}), not real numbers"),
        ([1.0, "x"], "a list ([1.0, 'x']), not real numbers"),
        ([[1.0], [2.0, 3.0]], "a ragged list, not an array of numbers"),
        (object, "a type (<class 'object'>), not real numbers"),
    ],
    ids=["str", "complex", "complex-array", "text-array", "none-array", "dict", "list", "ragged",
         "class"],
)  # fmt: skip
def test_an_instance_that_is_not_numbers_is_refused_naming_the_round(
    what, holds, register, tmp_path
):
    register("presents", Presents)
    with pytest.raises(ProtocolError) as caught:
        play(Constant(), Presents(what), rounds=3, out=tmp_path / "g")
    assert one_line(caught.value) == (
        f"adversary presents, round 2: the instance holds {holds}; "
        "expected finite numbers (advice in [-1, 1])"
    )
    kept = Transcript.load(tmp_path / "g")  # refused as presented; a NaN, after the game
    assert kept.status == "aborted" and kept.reason == str(caught.value)
    assert len(kept) == (3 if "nan" in holds else 1)


def test_an_array_of_python_numbers_is_recorded_and_shown_as_floats():
    seen = []

    class Sees(Constant):
        def predict(self, x):
            seen.append(x)
            return 1.0

    played = play(Sees(), Presents(np.array([0.5, 2], dtype=object)), rounds=3)
    assert played.instances.dtype == np.float64
    assert played.instances.tolist() == [[1.0, 0.0], [0.5, 2.0], [0.5, 2.0]]
    assert [x.dtype for x in seen] == [np.float64] * 3


class Advising:
    """Two experts' advice, ±1, except ``advice`` at round ``at`` (every round of its dtype)."""

    presents = "advice"

    def __init__(self, at, advice):
        self.at, self.advice, self.t = at, np.array(advice), 0

    def instance(self, history):
        self.t += 1
        if self.t == self.at:
            return self.advice.copy()
        return np.array([1, -1], dtype=self.advice.dtype)

    def label(self, x, p, history):
        return 1

    def certificate(self):
        return ExpertCertificate(0, experts=2)


@pytest.mark.parametrize(
    "advice",
    [[2.0, -1.0], [1.0, -1.5], [2, -1], [np.inf, 1.0], np.array([2.0, -1.0], dtype=object)],
    ids=["2.0", "-1.5", "int 2", "inf", "object 2.0"],
)
@pytest.mark.parametrize("learner", [WeightedMajority, "exponential-weights"])
def test_advice_outside_minus_one_one_is_refused_naming_the_round(advice, learner, register):
    register("advising", Advising)
    learner = _learner(learner) if isinstance(learner, str) else learner()
    with pytest.raises(ProtocolError) as caught:
        play(learner, Advising(3, advice), rounds=6)
    message = one_line(caught.value)
    assert message.startswith("adversary advising, round 3: the instance holds ")
    assert "outside [-1, 1]" in message or "non-finite" in message


# -- certificates -----------------------------------------------------------------------------


def _two_experts():
    """50 rounds, two experts: expert 0 errs on 49 rounds (all but round 1), expert 1 on one
    (round 31)."""
    y = np.where(np.arange(50) % 3 == 0, 1, -1)
    advice = np.stack([-y, y], axis=1).astype(np.float64)
    advice[0, 0] = y[0]
    advice[30, 1] = -y[30]
    return advice, y


class YesExpert(ExpertCertificate):
    """The issue's liar: an expert certificate whose ``agrees()`` always says yes."""

    def agrees(self, instances, labels):
        return np.ones(len(labels), dtype=bool)

    def labels(self, instances):
        return np.asarray(self._claimed, dtype=np.int8)


class ForcingAdversary:
    """Replays two experts' advice and claims every deterministic learner errs on each round."""

    presents = "advice"

    def __init__(self, certificate):
        self.advice, self.y = _two_experts()
        self.cert, self.t = certificate, 0

    def instance(self, history):
        if self.t == len(self.y):
            return None
        self.t += 1
        return self.advice[self.t - 1]

    def label(self, x, p, history):
        return int(self.y[self.t - 1])

    def certificate(self):
        return self.cert

    def lower_bound(self):
        return Bound(50.0, "mistakes ≥ 50 forced", "a liar", kind="lower")


@pytest.mark.parametrize("expert, round_", [(0, 2), (1, 31)])
def test_an_expert_certificate_that_always_agrees_is_caught_naming_the_round(
    expert, round_, register, tmp_path
):
    register("forcing-adversary", ForcingAdversary)
    advice, y = _two_experts()
    assert [int(np.sum(np.where(advice[:, i] >= 0, 1, -1) != y)) for i in (0, 1)] == [49, 1]
    liar = YesExpert(expert, experts=2)
    object.__setattr__(liar, "_claimed", y)
    with pytest.raises(CertificateError) as caught:
        play(WeightedMajority(), ForcingAdversary(liar), rounds=60, out=tmp_path / "g")
    message = one_line(caught.value)
    assert message.startswith("adversary forcing-adversary: its certificate (expert ")
    assert message.endswith(f"disagrees with round {round_}, labelled {int(y[round_ - 1]):+d}")
    kept = Transcript.load(tmp_path / "g")
    assert kept.status == "aborted" and kept.certificate_verified is False
    assert kept.lower_bound is None and kept.summary()["forced"] is None
    assert type(kept.certificate) is ExpertCertificate


class PlusHalfspace(HalfspaceCertificate):
    """Says +1 everywhere, agrees with everything, and claims a margin of 1."""

    def labels(self, instances):
        return np.ones(len(instances), dtype=np.int8)

    def agrees(self, instances, labels):
        return np.ones(len(labels), dtype=bool)

    def margin(self, instances, labels):
        return 1.0

    def margins(self, instances, labels):
        return np.ones(len(labels))

    def describe(self):
        return "a perfect separator with margin 1"


def test_overriding_margin_and_labels_changes_nothing_in_an_honest_game():
    X, y, u = separable()
    played = play(Perceptron(), Scripted(X, y, "fresh", PlusHalfspace(u)), rounds=len(y))
    twin = honest(X, y, u)
    assert type(played.certificate) is HalfspaceCertificate
    assert played.certificate == twin.certificate and played.certificate_verified is True
    assert played.bound == twin.bound and played.bound.value > 1.0  # not R²/1²
    assert played.summary()["certificate"] == twin.summary()["certificate"]
    assert played.digest == twin.digest


def test_overriding_margin_and_labels_does_not_hide_a_disagreement(register):
    register("scripted", Scripted)
    X, y, u = separable()
    with pytest.raises(CertificateError) as caught:
        play(Perceptron(), Scripted(X, y, "fresh", PlusHalfspace(-u)), rounds=len(y))
    assert one_line(caught.value).endswith(f"disagrees with round 1, labelled {int(y[0]):+d}")


class LateWriter(Scripted):
    """Hands over an honest certificate, then rewrites it from ``lower_bound()``."""

    def lower_bound(self):
        cert = self.cert
        _write(cert.weights, 0.0)
        _write(cert.weights.base, 0.0)
        object.__setattr__(cert, "weights", -np.asarray(cert.weights))  # past attrs' frozen
        return None


def test_a_certificate_rewritten_after_it_was_handed_over_changes_nothing_recorded(tmp_path):
    X, y, u = separable()
    adversary = LateWriter(X, y, "fresh", HalfspaceCertificate(u))
    played = play(Perceptron(), adversary, rounds=len(y), out=tmp_path / "g")
    assert np.array_equal(adversary.cert.weights, -u)  # the object handed over was changed
    assert np.array_equal(played.certificate.weights, u)  # the referee's copy was not
    assert played.certificate_verified is True
    loaded = Transcript.load(tmp_path / "g")
    assert loaded.certificate == played.certificate and loaded.certificate_verified is True


def test_a_finite_class_certificate_judging_float_vectors_is_refused(register):
    register("scripted", Scripted)
    X = np.random.default_rng(0).standard_normal((5, 5))  # dimension = rounds: broadcasts
    y = [1, -1, 1, 1, -1]
    cert = FiniteClassCertificate([1, -1, 1, 1, -1])
    with pytest.raises(CertificateError) as caught:
        play(Perceptron(), Scripted(X, y, "fresh", cert), rounds=5)
    message = one_line(caught.value)
    assert message.startswith("adversary scripted: its certificate (")
    assert "float" in message or "kind" in message or "fit" in message
