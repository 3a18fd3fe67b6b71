"""game.engine.play: the round protocol, the checks on players, the record it leaves.

The players here are small scripted classes so each test says exactly what
happened on which round; the Perceptron stands in for a real learner.
"""

import json
import math
import re
from fractions import Fraction

import attrs
import numpy as np
import pytest

from adversaries import Replay, SeparableStream
from game import (
    CertificateError,
    GameError,
    HalfspaceCertificate,
    History,
    ProtocolError,
    Transcript,
    play,
)
from game.engine import _Recorder, extras_clash, game_header, settle
from game.theory.bounds import Bound
from learners import Perceptron

# -- scripted players ---------------------------------------------------------


@attrs.define(eq=False, slots=False)
class Script:
    """An adversary that plays fixed instances and labels and logs every call.

    ``log`` may be shared with a :class:`Puppet` learner to see the order of calls.
    """

    instances: list
    labels: list
    log: list = attrs.field(factory=list)
    cert: object = None
    seen: list = attrs.field(factory=list)
    _i: int = 0

    def instance(self, history):
        self.log.append(("instance", history.t))
        self.seen.append(
            ("instance", len(history), list(history.labels), list(history.predictions))
        )
        if self._i == len(self.instances):
            return None
        self._i += 1
        return self.instances[self._i - 1]

    def label(self, x, p, history):
        self.log.append(("label", history.t))
        self.seen.append(("label", len(history), list(history.labels), p, x))
        return self.labels[self._i - 1]

    def certificate(self):
        self.log.append(("certificate",))
        return self.cert


@attrs.define(eq=False, slots=False)
class Puppet:
    """A learner that plays fixed predictions, reports fixed update results, logs calls."""

    predictions: list
    log: list = attrs.field(factory=list)
    updates: list | None = None
    seen: list = attrs.field(factory=list)
    _i: int = 0

    def predict(self, x):
        self.log.append(("predict", self._i + 1))
        self.seen.append(("predict", x))
        return self.predictions[self._i]

    def update(self, x, y):
        self._i += 1
        self.log.append(("update", self._i))
        self.seen.append(("update", x, y))
        return False if self.updates is None else self.updates[self._i - 1]


def vectors(n, d=2):
    """n distinct instances in dimension d."""
    return [np.arange(d, dtype=float) + i for i in range(n)]


def script(n, labels=None, **kwargs):
    labels = [1] * n if labels is None else labels
    return Script(vectors(n), labels, **kwargs)


def puppet(n, p=1.0, **kwargs):
    return Puppet([p] * n, **kwargs)


# -- the round ----------------------------------------------------------------


def test_calls_come_in_protocol_order_and_rounds_count_from_one():
    log = []
    tr = play(puppet(3, log=log), script(3, log=log), rounds=10)
    assert log == [
        ("instance", 1),
        ("predict", 1),
        ("label", 1),
        ("update", 1),
        ("instance", 2),
        ("predict", 2),
        ("label", 2),
        ("update", 2),
        ("instance", 3),
        ("predict", 3),
        ("label", 3),
        ("update", 3),
        ("instance", 4),  # returns None: the game ends here
        ("certificate",),
    ]
    assert len(tr) == 3
    assert [r.t for r in tr] == [1, 2, 3]
    assert tr[0].t == 1 and tr[-1].t == 3


def test_none_from_the_adversary_ends_the_game_before_the_limit():
    learner, adversary = puppet(5), script(2)
    tr = play(learner, adversary, rounds=5)
    assert len(tr) == 2
    assert [c for c, *_ in adversary.log].count("instance") == 3
    assert [c for c, *_ in learner.log].count("predict") == 2


def test_rounds_is_a_limit_the_engine_does_not_overrun():
    adversary = script(10)
    tr = play(puppet(10), adversary, rounds=4)
    assert len(tr) == 4
    assert [c for c, *_ in adversary.log].count("instance") == 4


def test_zero_rounds_calls_no_player_method_during_the_game():
    learner, adversary = puppet(1), script(1)
    tr = play(learner, adversary, rounds=0)
    assert len(tr) == 0
    assert learner.log == []
    assert adversary.log == [("certificate",)]


@pytest.mark.parametrize("rounds", [-1, 1.5, True, "3", None])
def test_rounds_must_be_a_non_negative_integer(rounds):
    with pytest.raises(GameError, match="rounds"):
        play(puppet(1), script(1), rounds=rounds)


def test_numpy_integer_rounds_are_accepted():
    assert len(play(puppet(3), script(3), rounds=np.int64(2))) == 2


def test_unknown_loss_is_refused_before_any_call():
    learner = puppet(1)
    with pytest.raises(GameError, match=r"loss must be one of .*, got 'hinge'"):
        play(learner, script(1), rounds=1, loss="hinge")
    assert learner.log == []


def test_sign_of_zero_is_plus_one():
    # p = 0 and p = -0.0 predict +1: no mistake on +1, a mistake on -1
    tr = play(Puppet([0.0, 0.0, -0.0, -0.0]), script(4, [1, -1, 1, -1]), rounds=4)
    assert tr.mistakes.tolist() == [False, True, False, True]
    assert [r.mistake for r in tr] == [False, True, False, True]


def test_mistake_and_update_are_recorded_apart():
    # Perceptron (004): round 1 has w·x = 0, predicts +1, label +1 -> right, yet updates
    tr = play(Perceptron(), Replay(instances=[[1.0, 0.0], [1.0, 0.0]], labels=[1, 1]), rounds=2)
    assert tr.predictions.tolist() == [1.0, 1.0]
    assert tr.mistakes.tolist() == [False, False]
    assert tr.updated.tolist() == [True, False]
    assert tr.summary()["mistakes"] == 0 and tr.summary()["updates"] == 1


def test_updated_is_what_the_learner_returned():
    tr = play(Puppet([1.0] * 3, updates=[True, False, True]), script(3), rounds=3)
    assert tr.updated.tolist() == [True, False, True]


def test_history_the_adversary_sees():
    learner = Puppet([1.0, -1.0, 0.5])
    adversary = script(3, [1, -1, -1])
    play(learner, adversary, rounds=10)
    instance_views = [s for s in adversary.seen if s[0] == "instance"]
    label_views = [s for s in adversary.seen if s[0] == "label"]
    assert [(n, labels, preds) for _, n, labels, preds in instance_views] == [
        (0, [], []),
        (1, [1], [1.0]),
        (2, [1, -1], [1.0, -1.0]),
        (3, [1, -1, -1], [1.0, -1.0, 0.5]),
    ]
    assert [(n, labels, p) for _, n, labels, p, _ in label_views] == [
        (0, [], 1.0),
        (1, [1], -1.0),
        (2, [1, -1], 0.5),
    ]


def test_history_is_a_history_with_the_instances_played():
    seen = []

    @attrs.define(eq=False)
    class Peek(Script):
        def instance(self, history):
            assert isinstance(history, History)
            seen.append([np.asarray(x).tolist() for x in history.instances])
            return super().instance(history)

    play(puppet(2), Peek(vectors(2), [1, 1]), rounds=10)
    assert seen == [[], [[0.0, 1.0]], [[0.0, 1.0], [1.0, 2.0]]]


def test_label_and_update_see_the_instance_predict_saw():
    learner, adversary = puppet(2), script(2)
    play(learner, adversary, rounds=2)
    predicted = [s[1] for s in learner.seen if s[0] == "predict"]
    updated = [s[1] for s in learner.seen if s[0] == "update"]
    labelled = [s[4] for s in adversary.seen if s[0] == "label"]
    for a, b, c in zip(predicted, updated, labelled, strict=True):
        assert a is b is c


def test_the_record_holds_what_was_played():
    xs = vectors(3)
    tr = play(Puppet([1.0, -0.5, 0.25]), Script(xs, [1, 1, -1]), rounds=3, loss="absolute")
    assert np.array_equal(tr.instances, np.array(xs))
    assert tr.predictions.tolist() == [1.0, -0.5, 0.25]
    assert tr.labels.tolist() == [1, 1, -1]
    assert tr.losses.tolist() == [0.0, 0.75, 0.625]
    assert tr.header["learner"]["name"].endswith("Puppet")
    assert tr.header["rounds"] == 3 and tr.header["loss"] == "absolute"


# -- checks on the players ------------------------------------------------------


@pytest.mark.parametrize(
    "bad",
    [1.5, -1.0000001, math.nan, math.inf, -math.inf, "1", True, False, np.True_, None, [1.0]],
    ids=repr,
)
def test_a_bad_prediction_is_a_protocol_error_naming_learner_round_and_value(bad):
    learner = Puppet([1.0, 1.0, bad])
    with pytest.raises(ProtocolError) as info:
        play(learner, script(3), rounds=3)
    msg = str(info.value)
    assert msg.startswith("learner ") and "Puppet" in msg
    assert "round 3" in msg
    assert repr(bad) in msg
    assert "predict" in msg


@pytest.mark.parametrize("good", [np.float64(-0.25), np.float32(0.5), Fraction(1, 4)], ids=repr)
def test_real_predictions_of_other_types_are_accepted_as_floats(good):
    adversary = script(1)
    tr = play(Puppet([good]), adversary, rounds=1)
    assert tr.predictions.tolist() == [float(good)]
    p = adversary.seen[1][3]
    assert type(p) is float and p == float(good)


@pytest.mark.parametrize(
    "bad", [0, 2, -2, 1.5, 1.0, True, np.True_, "1", None, np.float64(1.0)], ids=repr
)
def test_a_bad_label_is_a_protocol_error_naming_adversary_round_and_value(bad):
    with pytest.raises(ProtocolError) as info:
        play(puppet(3), script(3, [1, -1, bad]), rounds=3)
    msg = str(info.value)
    assert msg.startswith("adversary ") and "Script" in msg
    assert "round 3" in msg
    assert repr(bad) in msg
    assert "label" in msg


@pytest.mark.parametrize("good", [np.int64(-1), np.int8(1), np.int32(-1), np.uint8(1)], ids=repr)
def test_numpy_integer_labels_are_accepted_as_ints(good):
    learner = puppet(1)
    tr = play(learner, script(1, [good]), rounds=1)
    assert tr.labels.tolist() == [int(good)]
    y = learner.seen[1][2]
    assert type(y) is int and y == int(good)


@pytest.mark.parametrize("bad", [None, 1, 0, "yes", np.int64(1), 1.0], ids=repr)
def test_update_must_return_a_bool(bad):
    learner = Puppet([1.0] * 3, updates=[True, False, bad])
    with pytest.raises(ProtocolError) as info:
        play(learner, script(3), rounds=3)
    msg = str(info.value)
    assert msg.startswith("learner ") and "Puppet" in msg
    assert "round 3" in msg and repr(bad) in msg and "update" in msg


def test_numpy_bools_from_update_are_accepted():
    tr = play(Puppet([1.0, 1.0], updates=[np.True_, np.False_]), script(2), rounds=2)
    assert tr.updated.tolist() == [True, False]


@attrs.define(eq=False)
class Faulty:
    """Raises inside ``method`` on round ``at``; else behaves like a constant learner."""

    method: str
    at: int = 3
    t: int = 0
    error: type = RuntimeError

    def _maybe(self, method):
        if method == self.method and self.t == self.at:
            raise self.error(f"broken {method}")

    def instance(self, history):
        self.t = history.t
        self._maybe("instance")
        return np.array([1.0, float(self.t)])

    def label(self, x, p, history):
        self._maybe("label")
        return 1 if self.t % 2 else -1

    def predict(self, x):
        self.t += 1  # as a learner: count rounds here
        self._maybe("predict")
        return 1.0

    def update(self, x, y):
        self._maybe("update")
        return True

    def snapshot(self):
        self._maybe("snapshot")
        return {"t": float(self.t)}

    def extras(self):
        self._maybe("extras")
        return {f"{self.method}_t": float(self.t)}

    def certificate(self):
        return None


LEARNER_METHODS = ["predict", "update", "snapshot", "extras"]
ADVERSARY_METHODS = ["instance", "label", "extras"]


def faulty_game(role, method, at=3):
    """A learner/adversary pair where ``role``'s ``method`` raises on round ``at``."""
    if role == "learner":
        learner, adversary = Faulty(method, at), Script(vectors(at + 5), [1] * (at + 5))
    else:
        learner, adversary = Puppet([1.0] * (at + 5)), Faulty(method, at)
    return learner, adversary


CASES = [("learner", m) for m in LEARNER_METHODS] + [("adversary", m) for m in ADVERSARY_METHODS]


@pytest.mark.parametrize(("role", "method"), CASES)
def test_an_exception_inside_a_player_is_a_protocol_error(role, method):
    learner, adversary = faulty_game(role, method)
    with pytest.raises(ProtocolError) as info:
        play(learner, adversary, rounds=8, snapshots=method == "snapshot")
    msg = str(info.value)
    assert msg.startswith(f"{role} ") and "Faulty" in msg
    assert "round 3:" in msg
    assert f"{method} raised RuntimeError: broken {method}" in msg
    assert isinstance(info.value.__cause__, RuntimeError)


def test_a_registered_player_is_named_by_its_registry_name():
    # the second instance has another dimension than the first: predict fails
    adversary = Script([np.array([1.0, 0.0]), np.array([1.0, 0.0, 0.0])], [1, 1])
    with pytest.raises(ProtocolError, match=r"^learner perceptron, round 2: predict raised"):
        play(Perceptron(), adversary, rounds=2)


def read_lines(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.mark.parametrize(("role", "method"), CASES)
@pytest.mark.parametrize("at", [1, 3, 100])
def test_an_aborted_game_leaves_a_loadable_file_with_every_complete_round(
    tmp_path, role, method, at
):
    out = tmp_path / "game.jsonl"
    learner, adversary = faulty_game(role, method, at)
    with pytest.raises(ProtocolError) as info:
        play(learner, adversary, rounds=at + 5, snapshots=method == "snapshot", out=out)
    tr = Transcript.load(out)
    assert len(tr) == at - 1
    assert [r.t for r in tr] == list(range(1, at))
    assert tr.status == "aborted"
    assert tr.reason == str(info.value)
    footer = read_lines(out)[-1]
    assert footer["type"] == "footer" and footer["status"] == "aborted"
    assert footer["reason"] == str(info.value) and footer["rounds"] == at - 1


@pytest.mark.parametrize(
    ("learner", "labels", "what"),
    [
        (Puppet([1.0, 1.0, 2.0, 1.0]), [1, 1, 1, 1], "predict returned 2.0"),
        (Puppet([1.0] * 4), [1, 1, 0, 1], "label returned 0"),
        (Puppet([1.0] * 4, updates=[True, False, None, True]), [1] * 4, "update returned None"),
    ],
)
def test_a_bad_value_also_leaves_a_loadable_aborted_file(tmp_path, learner, labels, what):
    out = tmp_path / "game.jsonl"
    with pytest.raises(ProtocolError, match=what):
        play(learner, Script(vectors(4), labels), rounds=4, out=out)
    tr = Transcript.load(out)
    assert len(tr) == 2 and tr.status == "aborted" and what in tr.reason
    assert tr.labels.tolist() == labels[:2]


def test_an_interrupt_keeps_the_file_and_goes_through(tmp_path):
    @attrs.define(eq=False)
    class Interrupted(Puppet):
        def predict(self, x):
            if self._i == 2:
                raise KeyboardInterrupt
            return super().predict(x)

    out = tmp_path / "game.jsonl"
    with pytest.raises(KeyboardInterrupt):
        play(Interrupted([1.0] * 5), script(5), rounds=5, out=out)
    tr = Transcript.load(out)
    assert len(tr) == 2 and tr.status == "aborted"


@pytest.mark.parametrize(("role", "method"), CASES)
def test_a_failing_call_drops_every_column_of_its_round(tmp_path, role, method):
    # both players log extras and the learner its snapshot, so every column is
    # filled up to the call that fails on round 3, and none may keep round 3
    learner = Faulty(method if role == "learner" else "none")
    adversary = Faulty(method if role == "adversary" else "none")
    out = tmp_path / "game.jsonl"
    with pytest.raises(ProtocolError, match=rf"^{role} .*Faulty, round 3: {method} raised"):
        play(learner, adversary, rounds=8, snapshots=True, out=out)
    tr = Transcript.load(out)  # the footer's digest covers the extras columns
    assert len(tr) == 2 and tr.status == "aborted"
    assert tr.snapshot("t").tolist() == [1.0, 2.0]
    assert sorted(tr.extras) == sorted({f"{learner.method}_t", f"{adversary.method}_t"})
    assert all(column.tolist() == [1.0, 2.0] for column in tr.extras.values())
    lines = read_lines(out)
    assert [line.get("t") for line in lines[1:-1]] == [1, 2]
    assert lines[-1]["rounds"] == 2 and lines[-1]["digest"] == tr.digest


def test_a_row_of_extras_that_fails_halfway_is_dropped_whole(tmp_path):
    # round 3's "b" is a real number too large for a float: "a" of round 3 is
    # already in its column when "b" fails, and must not stay there
    @attrs.define(eq=False)
    class Huge(Puppet):
        def extras(self):
            return {"a": float(self._i), "b": 10**400 if self._i == 3 else 0.0}

    out = tmp_path / "game.jsonl"
    with pytest.raises(ProtocolError, match=r"round 3: extras raised OverflowError"):
        play(Huge([1.0] * 5), script(5), rounds=5, out=out)
    tr = Transcript.load(out)  # the footer's digest is of the partial record's columns
    assert len(tr) == 2 and tr.extras["a"].tolist() == [1.0, 2.0]


@pytest.mark.parametrize(("role", "method"), CASES)
def test_an_interrupt_at_any_call_leaves_a_readable_aborted_file(tmp_path, role, method):
    pandas = pytest.importorskip("pandas")
    learner = Faulty(method if role == "learner" else "none", error=KeyboardInterrupt)
    adversary = Faulty(method if role == "adversary" else "none", error=KeyboardInterrupt)
    out = tmp_path / "game.jsonl"
    with pytest.raises(KeyboardInterrupt) as info:
        play(learner, adversary, rounds=8, snapshots=True, out=out)
    assert str(info.value) == f"broken {method}"  # the interrupt itself, not wrapped
    assert info.value.__cause__ is None
    tr = Transcript.load(out)
    assert len(tr) == 2 and tr.status == "aborted" and tr.reason == f"broken {method}"
    assert pandas.read_json(out, lines=True)["t"].dropna().tolist() == [1, 2]


def test_an_interrupt_without_a_message_is_named_in_the_footer(tmp_path):
    learner = Faulty("update", error=lambda message: KeyboardInterrupt())
    out = tmp_path / "game.jsonl"
    with pytest.raises(KeyboardInterrupt):
        play(learner, script(5), rounds=5, out=out)
    footer = read_lines(out)[-1]
    assert footer["status"] == "aborted" and footer["reason"] == "KeyboardInterrupt"
    assert footer["rounds"] == 2


def test_a_game_error_from_a_player_goes_through_as_it_is(tmp_path):
    own = GameError("the learner gave up")

    @attrs.define(eq=False)
    class GivesUp(Puppet):
        def update(self, x, y):
            if self._i == 1:
                raise own
            return super().update(x, y)

    out = tmp_path / "game.jsonl"
    with pytest.raises(GameError) as info:
        play(GivesUp([1.0] * 3), script(3), rounds=3, out=out)
    assert info.value is own and info.value.__cause__ is None
    tr = Transcript.load(out)
    assert len(tr) == 1 and tr.reason == "the learner gave up"


def test_a_round_the_file_cannot_hold_stops_the_game_with_the_rounds_before_it(tmp_path):
    # round 2's instance is no numbers (nor a JSON value): it is refused as it is presented
    adversary = Script([np.array([1.0, 0.0]), object(), np.array([0.0, 1.0])], [1, 1, 1])
    out = tmp_path / "game.jsonl"
    with pytest.raises(ProtocolError, match=r"round 2: the instance holds a object .*not real"):
        play(puppet(3), adversary, rounds=3, out=out)
    tr = Transcript.load(out)
    assert len(tr) == 1 and tr.status == "aborted"


def test_only_a_plain_game_records_more_than_its_four_columns(tmp_path):
    def per_round(learner, snapshots=False, out=None):
        header = game_header(learner, script(1), rounds=1, loss="zero-one")
        record = _Recorder.open(learner, script(1), header, snapshots=snapshots, out=out)
        if record.writer is not None:
            record.writer.close(record.transcript().footer())
        return record.per_round()

    @attrs.define(eq=False)
    class Logging(Puppet):
        def extras(self):
            return {}

    @attrs.define(eq=False)
    class Snappy(Puppet):
        def snapshot(self):
            return {}

    assert per_round(puppet(1)) is None
    assert per_round(Snappy([1.0])) is None  # snapshots not asked for
    assert per_round(Snappy([1.0]), snapshots=True) is not None
    assert per_round(Logging([1.0])) is not None
    assert per_round(puppet(1), out=tmp_path / "t.jsonl") is not None


# -- certificates --------------------------------------------------------------

LIAR_X = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [-1.0, 0.5], [2.0, 2.0]]
LIAR_Y = [1, 1, 1, 1, 1]


def test_a_lying_certificate_is_a_certificate_error_naming_the_round():
    # w = (1, 1): round 4 has w·x = -0.5 < 0 but is labelled +1
    liar = Replay(instances=LIAR_X, labels=LIAR_Y, separator=[1.0, 1.0])
    with pytest.raises(CertificateError, match=r"disagrees with round 4\b"):
        play(Perceptron(), liar, rounds=10)


def test_a_point_on_the_certificates_hyperplane_is_a_disagreement():
    # w = (1, 0): round 2's instance (0, 1) lies on the hyperplane, on neither side
    liar = Replay(instances=[[1.0, 0.0], [0.0, 1.0]], labels=[1, 1], separator=[1.0, 0.0])
    with pytest.raises(CertificateError, match=r"round 2\b"):
        play(Perceptron(), liar, rounds=10)


def test_a_lying_certificate_still_completes_the_file_marked_aborted(tmp_path):
    out = tmp_path / "liar.jsonl"
    liar = Replay(instances=LIAR_X, labels=LIAR_Y, separator=[1.0, 1.0])
    with pytest.raises(CertificateError) as info:
        play(Perceptron(), liar, rounds=10, out=out)
    tr = Transcript.load(out)
    assert len(tr) == 5
    assert tr.status == "aborted" and tr.reason == str(info.value)
    assert tr.certificate == HalfspaceCertificate([1.0, 1.0])
    assert tr.certificate_verified is False


def test_a_comparator_is_recorded_not_verified():
    comparator = HalfspaceCertificate([1.0, 1.0], realizable=False)
    adversary = Script([np.array(x) for x in LIAR_X], LIAR_Y, cert=comparator)
    tr = play(Perceptron(), adversary, rounds=10)
    assert tr.certificate == comparator and tr.certificate is not comparator  # the copy
    assert tr.certificate_verified is None
    assert tr.summary()["certificate_realizable"] is False


def test_an_honest_certificate_is_verified():
    tr = play(Perceptron(), SeparableStream(4, 0.2, rng=np.random.default_rng(3)), rounds=300)
    assert tr.certificate_verified is True
    assert tr.summary()["certificate_verified"] is True


def test_no_certificate_leaves_nothing_to_verify():
    tr = play(puppet(2), script(2), rounds=2)
    assert tr.certificate is None and tr.certificate_verified is None


@pytest.mark.parametrize("bad", [np.array([1.0, 1.0]), {"weights": [1.0]}, "u"], ids=repr)
def test_a_certificate_that_is_no_certificate_is_a_protocol_error(tmp_path, bad):
    out = tmp_path / "game.jsonl"
    with pytest.raises(ProtocolError) as info:
        play(puppet(2), script(2, cert=bad), rounds=2, out=out)
    msg = str(info.value)
    assert msg.startswith("adversary ") and "Script" in msg and "certificate()" in msg
    assert repr(bad) in msg
    tr = Transcript.load(out)
    assert tr.status == "aborted" and len(tr) == 2


def test_a_certificate_of_the_wrong_dimension_is_a_certificate_error(tmp_path):
    out = tmp_path / "game.jsonl"
    wrong = HalfspaceCertificate([1.0, 1.0, 1.0])
    with pytest.raises(CertificateError, match="cannot label the rounds played"):
        play(puppet(2), script(2, cert=wrong), rounds=2, out=out)
    assert Transcript.load(out).status == "aborted"


@pytest.mark.parametrize(
    ("role", "method"),
    [("adversary", "certificate"), ("learner", "mistake_bound"), ("adversary", "lower_bound")],
)
def test_an_exception_after_the_game_is_a_protocol_error_and_the_file_is_closed(
    tmp_path, role, method
):
    def boom(*args):
        raise ZeroDivisionError("after")

    learner, adversary = puppet(3), script(3)
    setattr(learner if role == "learner" else adversary, method, boom)
    out = tmp_path / "game.jsonl"
    with pytest.raises(ProtocolError) as info:
        play(learner, adversary, rounds=3, out=out)
    msg = str(info.value)
    assert msg.startswith(f"{role} ") and f"{method} raised ZeroDivisionError: after" in msg
    tr = Transcript.load(out)
    assert tr.status == "aborted" and len(tr) == 3


def test_a_bound_that_is_no_bound_is_a_protocol_error():
    learner = puppet(1)
    learner.mistake_bound = lambda transcript: 4.0
    with pytest.raises(ProtocolError, match=r"mistake_bound\(\) returned 4.0"):
        play(learner, script(1), rounds=1)


def test_bounds_are_evaluated_after_the_certificate():
    calls = []
    adversary = script(2, cert=HalfspaceCertificate([1.0, 1.0]))
    learner = puppet(2)
    learner.deterministic = True  # the lower bound's theorem is about deterministic learners

    def mistake_bound(transcript):
        calls.append(("mistake_bound", transcript.certificate, transcript.certificate_verified))
        return Bound(5.0, "t", "s")

    def lower_bound():
        calls.append(("lower_bound",))
        return Bound(1.0, "t", "s", kind="lower")

    learner.mistake_bound, adversary.lower_bound = mistake_bound, lower_bound
    tr = play(learner, adversary, rounds=2)
    assert calls == [("mistake_bound", adversary.cert, True), ("lower_bound",)]
    assert tr.bound.value == 5.0 and tr.lower_bound.value == 1.0
    assert tr.summary()["within_bound"] is True and tr.summary()["forced"] is False


# -- snapshots -------------------------------------------------------------------

SNAP_X = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [-1.0, 0.0], [0.0, 2.0]]
SNAP_Y = [1, -1, 1, -1, -1]
# Perceptron (004) on SNAP_X/SNAP_Y: w after each round's update
SNAP_W = [[1.0, 0.0], [1.0, -1.0], [2.0, 0.0], [2.0, 0.0], [2.0, -2.0]]


def test_snapshot_row_t_is_the_state_round_t_left_behind(tmp_path):
    out = tmp_path / "snap.jsonl"
    tr = play(
        Perceptron(dimension=2),
        Replay(instances=SNAP_X, labels=SNAP_Y),
        rounds=5,
        snapshots=True,
        out=out,
    )
    assert tr.snapshot("norm2").tolist() == [float(np.dot(w, w)) for w in SNAP_W]
    assert [np.asarray(w).tolist() for w in tr.snapshots["w"]] == SNAP_W
    assert tr[2].snapshot["norm2"] == 4.0
    assert tr.initial_snapshot["norm2"] == 0.0
    assert np.asarray(tr.initial_snapshot["w"]).tolist() == [0.0, 0.0]
    loaded = Transcript.load(out)
    assert loaded.snapshot("norm2").tolist() == tr.snapshot("norm2").tolist()
    assert loaded.initial_snapshot["norm2"] == 0.0


def test_the_initial_snapshot_is_taken_before_round_one():
    log = []

    @attrs.define(eq=False)
    class Snappy(Puppet):
        def snapshot(self):
            self.log.append(("snapshot", self._i))
            return {"i": float(self._i)}

    tr = play(Snappy([1.0, 1.0], log=log), script(2, log=log), rounds=2, snapshots=True)
    assert log[:3] == [("snapshot", 0), ("instance", 1), ("predict", 1)]
    assert log.index(("snapshot", 1)) == log.index(("update", 1)) + 1
    assert tr.initial_snapshot == {"i": 0.0}
    assert tr.snapshot("i").tolist() == [1.0, 2.0]


def test_snapshots_need_a_learner_with_snapshot(tmp_path):
    out = tmp_path / "never.jsonl"
    with pytest.raises(GameError, match="snapshot"):
        play(puppet(1), script(1), rounds=1, snapshots=True, out=out)
    assert not out.exists()


@pytest.mark.parametrize(
    "rows",
    [
        [{"a": 1.0}, {"a": 2.0}, {"b": 3.0}],
        [{"a": 1.0, "b": 0.0}, {"a": 2.0, "b": 0.0}, {"a": 3.0}],
    ],
    ids=["renamed", "dropped"],
)
def test_snapshot_keys_changing_between_rounds_is_a_protocol_error(tmp_path, rows):
    @attrs.define(eq=False, slots=False)
    class Fickle(Puppet):
        def snapshot(self):
            return rows[self._i - 1] if self._i else rows[0]

    out = tmp_path / "fickle.jsonl"
    with pytest.raises(ProtocolError, match=r"^learner .*Fickle, round 3: snapshot keys"):
        play(Fickle([1.0] * 3), script(3), rounds=3, snapshots=True, out=out)
    tr = Transcript.load(out)
    assert len(tr) == 2 and tr.status == "aborted"
    assert tr.snapshot("a").tolist() == [1.0, 2.0]


def test_without_snapshots_none_are_taken():
    tr = play(Perceptron(), Replay(instances=SNAP_X, labels=SNAP_Y), rounds=5)
    assert tr.snapshots is None and tr.initial_snapshot is None
    with pytest.raises(GameError, match="snapshots=True"):
        tr.snapshot("norm2")


# -- extras ------------------------------------------------------------------------


def test_extras_of_both_players_are_columns(tmp_path):
    @attrs.define(eq=False)
    class Logging(Puppet):
        def extras(self):
            return {"half": self._i / 2}

    @attrs.define(eq=False)
    class Counting(Script):
        def extras(self):
            return {"count": self._i}

    out = tmp_path / "extras.jsonl"
    tr = play(Logging([1.0] * 3), Counting(vectors(3), [1, 1, 1]), rounds=3, out=out)
    assert sorted(tr.extras) == ["count", "half"]
    assert tr.extras["half"].tolist() == [0.5, 1.0, 1.5]
    assert tr.extras["count"].tolist() == [1.0, 2.0, 3.0]
    assert tr[1].extras == {"half": 1.0, "count": 2.0}
    assert Transcript.load(out).extras["half"].tolist() == [0.5, 1.0, 1.5]


def test_extras_key_of_both_players_is_a_protocol_error_naming_it(tmp_path):
    @attrs.define(eq=False)
    class Logging(Puppet):
        def extras(self):
            return {"p": 0.5, "half": self._i / 2}

    @attrs.define(eq=False)
    class AlsoP(Script):
        def extras(self):
            return {"p": 1.0}

    out = tmp_path / "clash.jsonl"
    with pytest.raises(
        ProtocolError, match=r"^adversary .*AlsoP, round 1: extras\(\) key\(s\) \['p'\]"
    ):
        play(Logging([1.0] * 3), AlsoP(vectors(3), [1, 1, 1]), rounds=3, out=out)
    tr = Transcript.load(out, allow_incomplete=True)
    assert len(tr) == 0 and tr.status == "aborted"


@pytest.mark.parametrize(
    "rows",
    [
        [{"a": 1.0}, {"a": 1.0}, {"b": 1.0}],
        [{"a": 1.0}, {"a": 1.0}, {}],
        [{"a": 1.0}, {"a": 1.0}, {"a": 1.0, "b": 2.0}],
        [{}, {"a": 1.0}, {"a": 1.0}],
    ],
    ids=["renamed", "dropped", "added", "added-after-none"],
)
def test_extras_keys_changing_between_rounds_is_a_protocol_error(tmp_path, rows):
    @attrs.define(eq=False)
    class Fickle(Puppet):
        def extras(self):
            return rows[self._i - 1]

    changed = next(i + 1 for i, r in enumerate(rows) if r.keys() != rows[0].keys())
    out = tmp_path / "fickle.jsonl"
    with pytest.raises(ProtocolError, match=rf"round {changed}\b.*extras keys"):
        play(Fickle([1.0] * 3), script(3), rounds=3, out=out)
    tr = Transcript.load(out)
    assert len(tr) == changed - 1 and tr.status == "aborted"


@pytest.mark.parametrize("bad", [[1.0], {"a": "x"}, {"a": True}, None], ids=repr)
def test_extras_must_be_a_dict_of_numbers(bad):
    @attrs.define(eq=False)
    class Odd(Puppet):
        def extras(self):
            return bad

    with pytest.raises(ProtocolError) as info:
        play(Odd([1.0]), script(1), rounds=1)
    msg = str(info.value)
    assert msg.startswith("learner ") and "round 1" in msg and repr(bad) in msg


# -- settle and extras_clash, public for play_batch ----------------------------------------------


def test_settle_sets_what_play_sets_and_returns_none_on_an_honest_game():
    def stream():
        return SeparableStream(4, 0.2, rng=np.random.default_rng(3))

    played = play(Perceptron(), stream(), rounds=100)
    learner, adversary = Perceptron(), stream()
    again = play(learner, adversary, rounds=100)
    again.certificate = again.certificate_verified = again.bound = None
    assert settle(again, learner, adversary) is None
    assert again.certificate == played.certificate and again.certificate_verified is True
    assert again.bound == played.bound


def test_settle_returns_the_error_instead_of_raising_it():
    liar = Replay(instances=LIAR_X, labels=LIAR_Y, separator=[1.0, 1.0])
    tr = play(Perceptron(), Replay(instances=LIAR_X, labels=LIAR_Y), rounds=10)
    failure = settle(tr, Perceptron(), liar)
    assert isinstance(failure, CertificateError) and "disagrees with round 4" in str(failure)
    assert tr.certificate_verified is False

    def boom():
        raise ZeroDivisionError("after")

    adversary = script(2)
    adversary.lower_bound = boom
    failure = settle(play(puppet(2), script(2), rounds=2), puppet(2), adversary)
    assert isinstance(failure, ProtocolError)
    assert str(failure).endswith("after the game: lower_bound raised ZeroDivisionError: after")


def test_extras_clash_names_the_adversary_the_round_and_the_keys():
    error = extras_clash(script(1), 4, {"b", "a"})
    assert isinstance(error, ProtocolError)
    assert re.match(r"^adversary .*Script, round 4: extras\(\) key\(s\) \['a', 'b'\]", str(error))


def test_settle_and_extras_clash_are_public_in_the_engine_not_in_the_facade():
    import game
    import game.engine

    assert {"settle", "extras_clash", "play", "game_header"} <= set(game.engine.__all__)
    assert not {"settle", "extras_clash"} & set(game.__all__)


# -- the record ---------------------------------------------------------------------------


def test_rows_of_immutable_memory_are_recorded_by_reference_others_are_copied():
    from adversaries import Replay
    from game.theory import frozen_copy, is_immutable

    X = np.random.default_rng(0).standard_normal((6, 3))
    y = np.where(X[:, 0] >= 0, 1, -1)
    replay = Replay(instances=X, labels=y)  # holds its rows in immutable memory
    tr = play(Perceptron(), replay, rounds=6, lockstep=False)  # the round loop's record
    rows = tr.raw_instances
    assert all(is_immutable(r.base) for r in rows[1:])  # by reference: nothing to copy
    assert np.array_equal(tr.instances, X)

    class ReadOnlyBlock:  # read-only, but its owner can make it writable again
        presents = "vector"

        def __init__(self):
            self.block, self.t = X.copy(), 0
            self.block.flags.writeable = False

        def instance(self, history):
            self.t += 1
            return self.block[self.t - 1] if self.t <= 6 else None

        def label(self, x, p, history):
            return int(y[self.t - 1])

        def certificate(self):
            return None

    adversary = ReadOnlyBlock()
    tr = play(Perceptron(), adversary, rounds=6)
    adversary.block.flags.writeable = True
    adversary.block[:] = 0.0  # the owner writes after the game: the record is a copy
    assert np.array_equal(tr.instances, X) and not np.shares_memory(tr.instances, adversary.block)
    assert is_immutable(frozen_copy(X)) and not is_immutable(adversary.block)
