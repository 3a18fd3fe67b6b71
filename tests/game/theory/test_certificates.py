"""game.theory._certificates: halfspace certificates, serialisation, verification."""

import json
from typing import ClassVar

import attrs
import numpy as np
import pytest

import game.theory.concepts
from game.errors import TranscriptError
from game.theory import (
    CERTIFICATE_KINDS,
    Certificate,
    HalfspaceCertificate,
    certificate_from_dict,
    first_disagreement,
)


def test_labels_are_the_side_of_the_hyperplane_with_zero_on_the_plus_side():
    h = HalfspaceCertificate([1.0, -1.0])
    X = np.array([[2.0, 1.0], [1.0, 2.0], [1.0, 1.0]])
    labels = h.labels(X)
    assert labels.tolist() == [1, -1, 1]
    assert labels.dtype == np.int8


def test_agreement_is_strict_a_point_on_the_hyperplane_agrees_with_no_label():
    h = HalfspaceCertificate([1.0, 0.0])
    X = np.array([[2.0, 5.0], [-1.0, 0.0], [0.0, 3.0], [0.0, 3.0]])
    assert h.agrees(X, [1, -1, 1, -1]).tolist() == [True, True, False, False]
    assert h.agrees(X, [-1, 1, 1, 1]).tolist() == [False, False, False, False]


def test_margin_is_the_smallest_signed_distance_to_the_hyperplane():
    h = HalfspaceCertificate([3.0, 4.0])  # u = (0.6, 0.8)
    X = np.array([[1.0, 1.0], [-1.0, 0.0], [0.0, 5.0]])
    assert h.margin(X, [1, -1, 1]) == pytest.approx(0.6)
    assert h.margin(X[:1], [1]) == pytest.approx(1.4)
    # a misclassified point gives a negative margin, a point on the plane zero
    assert h.margin(X, [1, 1, 1]) == pytest.approx(-0.6)
    assert h.margin(np.array([[4.0, -3.0]]), [1]) == 0.0


def test_margin_does_not_depend_on_the_scale_of_the_weights():
    X = np.array([[1.0, 2.0], [3.0, -1.0]])
    y = [1, 1]
    assert HalfspaceCertificate([2.0, 1.0]).margin(X, y) == pytest.approx(
        HalfspaceCertificate([200.0, 100.0]).margin(X, y)
    )


def test_margin_of_no_rounds_is_infinite():
    assert HalfspaceCertificate([1.0]).margin(np.empty((0, 1)), []) == float("inf")


def test_first_disagreement_is_zero_based_and_none_when_all_agree():
    h = HalfspaceCertificate([1.0, 0.0])
    X = np.array([[1.0, 0.0], [2.0, 1.0], [-1.0, 0.0], [1.0, 1.0]])
    assert first_disagreement(h, X, [1, 1, -1, 1]) is None
    assert first_disagreement(h, X, [1, 1, 1, -1]) == 2
    assert first_disagreement(h, X, [-1, 1, 1, 1]) == 0
    assert first_disagreement(h, np.empty((0, 2)), []) is None


@pytest.mark.parametrize("realizable", [True, False])
def test_to_dict_and_back_gives_an_equal_certificate(realizable):
    h = HalfspaceCertificate([0.5, -2.0, 1e-300], realizable=realizable)
    data = h.to_dict()
    assert data["kind"] == "halfspace" and data["realizable"] is realizable
    assert data["params"] == {"weights": [0.5, -2.0, 1e-300]}
    assert "dimension 3" in data["description"]
    back = certificate_from_dict(json.loads(json.dumps(data, allow_nan=False)))
    assert back == h
    assert back.realizable is realizable
    assert isinstance(back, HalfspaceCertificate)


def test_equality_compares_weights_and_realizability():
    h = HalfspaceCertificate([1.0, 2.0])
    assert h == HalfspaceCertificate(np.array([1, 2]))
    assert h != HalfspaceCertificate([1.0, 2.5])
    assert h != HalfspaceCertificate([1.0, 2.0, 0.0])
    assert h != HalfspaceCertificate([1.0, 2.0], realizable=False)
    assert h != [1.0, 2.0]
    with pytest.raises(TypeError):
        hash(h)


def test_weights_are_a_read_only_copy():
    w = np.array([1.0, 2.0])
    h = HalfspaceCertificate(w)
    w[0] = 9.0
    assert h.weights.tolist() == [1.0, 2.0]
    with pytest.raises(ValueError):
        h.weights[0] = 5.0
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        h.weights = np.array([3.0, 4.0])


@pytest.mark.parametrize(
    "bad",
    [[], [[1.0, 2.0]], [1.0, float("nan")], [float("inf"), 0.0], [0.0, 0.0], "ab"],
    ids=repr,
)
def test_bad_weights_are_refused(bad):
    with pytest.raises(ValueError):
        HalfspaceCertificate(bad)


def test_describe_shows_the_first_weights_and_the_dimension():
    assert HalfspaceCertificate([1.0, 2.0]).describe() == "sign(w·x), w = (1, 2) in dimension 2"
    long = HalfspaceCertificate(np.arange(1.0, 11.0)).describe()
    assert long.endswith("…) in dimension 10") and "7" not in long


@pytest.mark.parametrize(
    "data",
    [
        {"kind": "no-such-kind", "realizable": True, "params": {}},
        {"kind": ["halfspace"], "realizable": True, "params": {"weights": [1.0]}},
        ["halfspace", True, {"weights": [1.0]}],
        {"realizable": True, "params": {"weights": [1.0]}},
        {"kind": "halfspace", "params": {"weights": [1.0]}},
        {"kind": "halfspace", "realizable": True, "params": {}},
        {"kind": "halfspace", "realizable": True, "params": {"weights": "x"}},
        {"kind": "halfspace", "realizable": True, "params": {"weights": [0.0]}},
    ],
)
def test_a_malformed_dict_is_a_transcript_error(data):
    with pytest.raises(TranscriptError, match="certificate"):
        certificate_from_dict(data)


@attrs.frozen
class ConstantLabel(Certificate):
    """Test certificate: every instance gets the same label."""

    kind: ClassVar[str] = "tests-constant-label"
    label: int = 1

    def labels(self, instances):
        return np.full(len(instances), self.label, dtype=np.int8)

    def describe(self):
        return f"always {self.label:+d}"

    def params(self):
        return {"label": self.label}

    @classmethod
    def from_params(cls, params, realizable):
        return cls(params["label"], realizable=realizable)


def test_a_certificate_uses_the_default_agreement():
    c = ConstantLabel(-1, realizable=False)
    assert c.agrees([0, 1, 2], [-1, 1, -1]).tolist() == [True, False, True]
    assert first_disagreement(ConstantLabel(-1), [0, 1, 2], [-1, -1, 1]) == 2


def test_a_kind_missing_from_the_table_is_not_read_back():
    data = ConstantLabel(-1).to_dict()
    with pytest.raises(TranscriptError, match="unknown kind 'tests-constant-label'; expected"):
        certificate_from_dict(data)


def test_a_registered_kind_is_read_back_and_its_games_load(tmp_path):
    from game import play
    from game.theory import register_certificate
    from game.theory._certificate_kinds import _registered
    from game.transcript import Transcript
    from learners import Perceptron

    class Labels:  # an adversary whose certificate is the user's own kind
        presents = "vector"

        def __init__(self):
            self.t = 0

        def instance(self, history):
            self.t += 1
            return np.array([1.0, 0.0]) if self.t <= 3 else None

        def label(self, x, p, history):
            return -1

        def certificate(self):
            return ConstantLabel(-1)

    register_certificate(ConstantLabel)
    try:
        assert certificate_from_dict(ConstantLabel(-1).to_dict()) == ConstantLabel(-1)
        tr = play(Perceptron(), Labels(), rounds=5, out=tmp_path / "t.jsonl")
        assert Transcript.load(tmp_path / "t.jsonl").certificate == tr.certificate
    finally:
        _registered.pop(ConstantLabel.kind)


def test_registering_a_certificate_refuses_what_cannot_be_read_back():
    from game.errors import GameError
    from game.theory import register_certificate

    with pytest.raises(GameError, match="built in"):
        register_certificate(HalfspaceCertificate)
    with pytest.raises(GameError, match="expects a Certificate subclass"):
        register_certificate(int)


def _listed_class(kind):
    return CERTIFICATE_KINDS[kind]


@pytest.mark.parametrize("kind", sorted(CERTIFICATE_KINDS))
def test_each_listed_kind_names_a_certificate_class_of_that_kind(kind):
    cls = _listed_class(kind)
    assert isinstance(cls, type) and issubclass(cls, Certificate)
    assert cls.kind == kind


def _subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def test_every_certificate_class_of_the_theory_is_listed():
    assert game.theory.concepts.FiniteClassCertificate  # the concepts' classes are defined
    ours = {
        sub
        for sub in _subclasses(Certificate)
        if sub.__module__.startswith("game.theory.") and "kind" in vars(sub)
    }
    listed = {_listed_class(kind) for kind in CERTIFICATE_KINDS}
    # BooleanConcept is the abstract base of the boolean concepts: no certificate is one itself
    assert ours - listed == {game.theory.concepts.BooleanConcept}
    assert listed <= ours


EXAMPLES = [
    HalfspaceCertificate([1.0, -2.0], realizable=False),
    game.theory.ExpertCertificate(1, experts=3),
    game.theory.concepts.thresholds(4).certificate(2),
    game.theory.concepts.parse_concept("x1 & ~x3", 4),
    game.theory.concepts.MonotoneConjunction(4, [game.theory.concepts.parse_literal("x2")]),
    game.theory.concepts.parse_concept("x1 | x2", 3),
    game.theory.concepts.parse_concept("if x1 then + elif ~x2 then - else +", 3),
]


def test_the_examples_cover_every_kind():
    assert {c.kind for c in EXAMPLES} == set(CERTIFICATE_KINDS)


@pytest.mark.parametrize("certificate", EXAMPLES, ids=lambda c: c.kind)
def test_every_kind_round_trips_through_json(certificate):
    back = certificate_from_dict(json.loads(json.dumps(certificate.to_dict())))
    assert type(back) is type(certificate)
    assert back == certificate
