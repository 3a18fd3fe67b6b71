"""Certificates the referee can trust: its own copy, kinds that fit, data nobody can change.

The referee rebuilds every certificate with ``referee_copy`` (through the table
of kinds, never the object handed over), and judges the copy with
``first_disagreement``, which checks that the rounds are of the certificate's
kind first. These tests hand over lying objects, wrong kinds and late writes,
and check that each is caught with a one-line ``CertificateError``.
"""

import copy
import json
import pickle
from typing import ClassVar

import attrs
import numpy as np
import pytest

from game.errors import CertificateError, ParameterError, TranscriptError
from game.theory import (
    CERTIFICATE_KINDS,
    Certificate,
    ExpertCertificate,
    HalfspaceCertificate,
    certificate_class,
    certificate_from_dict,
    first_disagreement,
    referee_copy,
    register_certificate,
)
from game.theory._certificate_kinds import _registered
from game.theory.concepts import (
    Conjunction,
    DecisionList,
    Disjunction,
    FiniteClassCertificate,
    MonotoneConjunction,
    thresholds,
)

EXAMPLES = [
    HalfspaceCertificate([1.0, -2.0, 0.5], realizable=False),
    ExpertCertificate(1, experts=3),
    thresholds(4).certificate(2),
    Conjunction(4, ["x1", "¬x3"]),
    MonotoneConjunction(4, ["x2"]),
    Disjunction(3, ["x1", "x2"]),
    DecisionList(3, [("x1", 1), ("¬x2", -1)], default=1),
]


def _one_line_error(excinfo) -> str:
    message = str(excinfo.value)
    assert "\n" not in message
    return message


def test_the_examples_cover_every_built_in_kind():
    assert {c.kind for c in EXAMPLES} == set(CERTIFICATE_KINDS)


# -- the referee's copy --------------------------------------------------------------


@pytest.mark.parametrize("certificate", EXAMPLES, ids=lambda c: c.kind)
def test_the_copy_of_an_honest_certificate_is_equal_new_and_of_the_tables_class(certificate):
    back = referee_copy(certificate)
    assert back == certificate and back is not certificate
    assert type(back) is CERTIFICATE_KINDS[certificate.kind]
    assert back.to_dict() == certificate.to_dict()
    for name in ("weights", "row", "_pos", "_neg"):
        if hasattr(certificate, name):
            assert not np.shares_memory(getattr(back, name), getattr(certificate, name))


def _perfect_expert_game():
    """Two experts: expert 0 errs on 49 rounds of 50, expert 1 on one (round 31)."""
    y = np.where(np.arange(50) % 3 == 0, 1, -1)
    advice = np.stack([-y, y], axis=1).astype(np.int8)
    advice[0, 0] = y[0]
    advice[30, 1] = -y[30]
    return advice, y


class YesExpert(ExpertCertificate):
    """The issue's liar: an expert certificate whose agrees() always says yes."""

    def agrees(self, instances, labels):
        return np.ones(len(labels), dtype=bool)


def test_an_expert_whose_agrees_always_says_yes_is_judged_by_the_built_in_class():
    advice, y = _perfect_expert_game()
    liar = YesExpert(1, experts=2)
    assert first_disagreement(liar, advice, y) is None  # believed when it judges itself
    copy_ = referee_copy(liar)
    assert type(copy_) is ExpertCertificate
    assert first_disagreement(copy_, advice, y) == 30
    assert first_disagreement(referee_copy(YesExpert(0, experts=2)), advice, y) == 1


class PlusHalfspace(HalfspaceCertificate):
    """Lies about its labels and margin: +1 everywhere, margin 1."""

    def labels(self, instances):
        return np.ones(len(instances), dtype=np.int8)

    def agrees(self, instances, labels):
        return np.ones(len(labels), dtype=bool)

    def margin(self, instances, labels):
        return 1.0

    def margins(self, instances, labels):
        return np.ones(len(labels))

    def describe(self):
        return "a perfect separator"


def test_a_halfspace_overriding_labels_agrees_margin_and_describe_is_judged_honestly():
    X = np.array([[1.0, 0.0], [-1.0, 0.5], [0.5, 3.0]])
    y = np.array([1, -1, -1])
    liar = PlusHalfspace([1.0, 0.0])
    assert liar.margin(X, y) == 1.0 and liar.describe() == "a perfect separator"
    copy_ = referee_copy(liar)
    assert type(copy_) is HalfspaceCertificate
    assert copy_.labels(X).tolist() == [1, -1, 1]
    assert first_disagreement(copy_, X, y) == 2
    assert copy_.margin(X, y) == pytest.approx(-0.5)
    assert copy_.describe() == "sign(w·x), w = (1, 0) in dimension 2"


def test_the_description_handed_over_is_ignored():
    class Boasting(HalfspaceCertificate):
        def to_dict(self):
            return {**super().to_dict(), "description": "the truth, certified"}

    back = referee_copy(Boasting([2.0, 1.0]))
    assert back.to_dict()["description"] == HalfspaceCertificate([2.0, 1.0]).describe()


def test_overridden_params_name_the_certificate_that_is_judged():
    class Other(HalfspaceCertificate):
        def params(self):
            return {"weights": [0.0, 1.0]}

    back = referee_copy(Other([1.0, 0.0]))
    assert back == HalfspaceCertificate([0.0, 1.0])
    X = np.array([[1.0, -1.0]])
    assert first_disagreement(back, X, [1]) == 0


@pytest.mark.parametrize("cls", [Conjunction, Disjunction, MonotoneConjunction])
def test_a_lying_boolean_concept_is_judged_by_its_kind(cls):
    liar_cls = type("Liar", (cls,), {"labels": lambda self, X: np.ones(len(X), dtype=np.int8)})
    liar = liar_cls(3, ["x1"])
    X = np.array([[0, 0, 0], [1, 0, 0]], dtype=bool)
    copy_ = referee_copy(liar)
    assert type(copy_) is cls
    assert first_disagreement(liar, X, [1, 1]) is None
    assert first_disagreement(copy_, X, [1, 1]) == 0


def test_a_lying_finite_class_certificate_is_judged_by_its_row():
    class Liar(FiniteClassCertificate):
        def agrees(self, instances, labels):
            return np.ones(len(labels), dtype=bool)

    liar = Liar([1, -1, 1], index=0, name="h")
    assert first_disagreement(liar, [0, 1], [1, 1]) is None
    assert first_disagreement(referee_copy(liar), [0, 1], [1, 1]) == 1


class RaisingToDict(ExpertCertificate):
    def to_dict(self):
        raise RuntimeError("no dict today\n(second line)")


class NanToDict(HalfspaceCertificate):
    def to_dict(self):
        return {**super().to_dict(), "params": {"weights": [float("nan"), 1.0]}}


class InfParams(HalfspaceCertificate):
    def params(self):
        return {"weights": [float("inf"), 1.0]}


class NumpyParams(ExpertCertificate):
    def params(self):
        return {"expert": np.int64(self.expert), "experts": None}


class ListToDict(ExpertCertificate):
    def to_dict(self):
        return ["expert", True, {"expert": 0}]


class NoKind(ExpertCertificate):
    def to_dict(self):
        return {"kind": 7, "realizable": True, "params": {"expert": 0}}


class OracleKind(HalfspaceCertificate):
    kind: ClassVar[str] = "oracle"


class ExpertKind(HalfspaceCertificate):
    kind: ClassVar[str] = "expert"


class BadParams(ExpertCertificate):
    def params(self):
        return {"expert": -3}


class StringRealizable(ExpertCertificate):
    def to_dict(self):
        return {**super().to_dict(), "realizable": "false"}


@pytest.mark.parametrize(
    ("liar", "words"),
    [
        (RaisingToDict(0), ["RaisingToDict", "'expert'", "to_dict() raised RuntimeError"]),
        (NanToDict([1.0, 1.0]), ["NanToDict", "'halfspace'", "not JSON-ready"]),
        (InfParams([1.0, 1.0]), ["InfParams", "'halfspace'", "not JSON-ready"]),
        (NumpyParams(0), ["NumpyParams", "not JSON-ready", "int64"]),
        (ListToDict(0), ["ListToDict", "a dict with a string kind", "a list"]),
        (NoKind(0), ["NoKind", "a dict with a string kind", "kind 7"]),
        (
            OracleKind([1.0]),
            ["OracleKind", "unknown kind 'oracle'", "halfspace, expert", "register_certificate"],
        ),
        (ExpertKind([1.0]), ["ExpertKind", "kind 'expert'", "'expert'"]),
        (BadParams(0), ["BadParams", "cannot be rebuilt", "expert must be an integer ≥ 0"]),
        (StringRealizable(0), ["StringRealizable", "realizable must be true or false"]),
    ],
    ids=lambda v: type(v).__name__ if isinstance(v, Certificate) else "",
)
def test_what_cannot_be_rebuilt_is_a_one_line_certificate_error(liar, words):
    with pytest.raises(CertificateError) as excinfo:
        referee_copy(liar)
    message = _one_line_error(excinfo)
    assert message.startswith("certificate ")
    for word in words:
        assert word in message


def test_an_object_that_is_no_certificate_is_refused():
    with pytest.raises(CertificateError, match=r"expected a game\.theory\.Certificate, got a dict"):
        referee_copy({"kind": "expert", "realizable": True, "params": {"expert": 0}})


@attrs.frozen
class Parity(Certificate):
    """A user's certificate kind: the parity of the point index."""

    kind: ClassVar[str] = "tests-parity"
    odd: int = 1

    def labels(self, instances):
        x = np.asarray(instances)
        return np.where(x % 2 == self.odd, 1, -1).astype(np.int8)

    def describe(self):
        return "odd points" if self.odd else "even points"

    def params(self):
        return {"odd": self.odd}

    @classmethod
    def from_params(cls, params, realizable):
        return cls(params["odd"], realizable=realizable)


class LyingParity(Parity):
    def agrees(self, instances, labels):
        return np.ones(len(labels), dtype=bool)


@pytest.fixture
def parity_registered():
    register_certificate(Parity)
    yield
    _registered.pop(Parity.kind)


def test_a_user_kind_is_unknown_until_registered():
    with pytest.raises(CertificateError) as excinfo:
        referee_copy(Parity())
    assert "unknown kind 'tests-parity'" in _one_line_error(excinfo)
    assert "game.theory.register_certificate" in str(excinfo.value)


def test_a_registered_user_kind_is_rebuilt_with_the_registered_class(parity_registered):
    assert certificate_class("tests-parity") is Parity
    back = referee_copy(LyingParity(1))
    assert type(back) is Parity and back == Parity(1)
    assert first_disagreement(LyingParity(1), [1, 2, 3], [1, 1, 1]) is None
    assert first_disagreement(back, [1, 2, 3], [1, 1, 1]) == 1


def test_a_registered_class_must_rebuild_itself():
    class Elsewhere(Certificate):
        kind: ClassVar[str] = "tests-elsewhere"

        def describe(self):
            return "elsewhere"

        def params(self):
            return {}

        @classmethod
        def from_params(cls, params, realizable):
            return Parity(1)

    register_certificate(Elsewhere)
    try:
        with pytest.raises(CertificateError, match=r"from_params.*returned a Parity"):
            referee_copy(Elsewhere())
    finally:
        _registered.pop(Elsewhere.kind)


def test_reading_a_file_shares_the_lookup_and_keeps_its_transcript_error():
    data = OracleKind([1.0]).to_dict()
    with pytest.raises(TranscriptError, match="certificate: unknown kind 'oracle'; expected"):
        certificate_from_dict(data)
    with pytest.raises(TranscriptError, match="realizable must be true or false"):
        certificate_from_dict({**ExpertCertificate(0).to_dict(), "realizable": "false"})
    with pytest.raises(TranscriptError, match="params must be an object"):
        certificate_from_dict({"kind": "expert", "realizable": True, "params": [0]})


def test_realizable_is_a_bool_numpy_bools_included():
    assert ExpertCertificate(0, realizable=np.bool_(False)).realizable is False
    assert json.dumps(ExpertCertificate(0, realizable=np.bool_(True)).to_dict())
    with pytest.raises(ParameterError, match="realizable must be True or False"):
        ExpertCertificate(0, realizable="no")


def test_certificate_fields_are_json_types_whatever_numpy_type_they_were_given():
    c = FiniteClassCertificate([1, -1], index=np.int64(1), name="h1")
    assert json.loads(json.dumps(c.to_dict()))["params"]["index"] == 1
    with pytest.raises(ParameterError, match="index"):
        FiniteClassCertificate([1, -1], index=1.5)
    with pytest.raises(TypeError, match="name"):
        FiniteClassCertificate([1, -1], name=None)
    with pytest.raises(ParameterError, match="experts"):
        ExpertCertificate(3, experts=3)
    with pytest.raises(ParameterError, match="weights"):
        HalfspaceCertificate(["1.0", "2.0"])


# -- kinds that fit --------------------------------------------------------------------


def test_the_finite_class_broadcast_case_is_refused():
    """5 rounds of 5-dimensional float vectors: once verified by broadcasting."""
    c = FiniteClassCertificate([1, 1, 1, 1, 1])
    X = np.zeros((5, 5))
    with pytest.raises(CertificateError) as excinfo:
        first_disagreement(c, X, np.ones(5, dtype=np.int64))
    message = _one_line_error(excinfo)
    assert "judges points: a column of integers in 0..4" in message
    assert "shape (5, 5) and dtype float64" in message


RANGE = "in 0..2"


@pytest.mark.parametrize(
    ("certificate", "instances", "words"),
    [
        (HalfspaceCertificate([1.0, 2.0]), np.ones((3, 3)), ["dimension 2", "shape (3, 3)"]),
        (HalfspaceCertificate([1.0, 2.0]), np.ones(3), ["rounds × 2", "shape (3,)"]),
        (HalfspaceCertificate([1.0, 2.0]), np.ones((3, 2), dtype=bool), ["dtype bool"]),
        (HalfspaceCertificate([1.0]), np.array([[1.0], [np.nan]]), ["round 2 is not finite"]),
        (HalfspaceCertificate([1.0]), np.array([[np.inf]]), ["round 1 is not finite"]),
        (HalfspaceCertificate([1.0, 2.0]), [[1.0, 2.0], [1.0]], ["different shapes"]),
        (ExpertCertificate(3), np.ones((2, 3)), ["N > 3", "shape (2, 3)"]),
        (ExpertCertificate(1, experts=4), np.ones((2, 3)), ["N = 4", "shape (2, 3)"]),
        (ExpertCertificate(0), np.ones(4), ["shape (4,)"]),
        (ExpertCertificate(0), np.full((2, 2), 1.5), ["round 1 holds advice outside [-1, 1]"]),
        (ExpertCertificate(0), np.array([[0.0], [np.nan]]), ["round 2 holds advice outside"]),
        (ExpertCertificate(0), np.ones((2, 2), dtype=bool), ["dtype bool"]),
        (FiniteClassCertificate([1, -1, 1]), np.array([0.0, 1.0]), [RANGE, "dtype float64"]),
        (FiniteClassCertificate([1, -1, 1]), np.array([[0], [1]]), [RANGE, "shape (2, 1)"]),
        (FiniteClassCertificate([1, -1, 1]), np.array([0, 3]), ["round 2 holds point 3"]),
        (FiniteClassCertificate([1, -1, 1]), np.array([-1, 0]), ["round 1 holds point -1"]),
        (FiniteClassCertificate([1, -1, 1]), np.array([True, False]), ["dtype bool"]),
        (Conjunction(3, ["x1"]), np.ones((2, 4), dtype=bool), ["over 3 variables", "(2, 4)"]),
        (Conjunction(3, ["x1"]), np.ones((2, 3)), ["dtype float64"]),
        (Disjunction(3, ["x1"]), np.array([[0, 1, 2]]), ["round 1 holds a value that is not"]),
        (DecisionList(2, [], default=1), np.ones(2, dtype=bool), ["shape (2,)"]),
    ],
)
def test_rounds_of_another_kind_are_a_one_line_certificate_error(certificate, instances, words):
    labels = np.ones(len(instances), dtype=np.int64)
    with pytest.raises(CertificateError) as excinfo:
        first_disagreement(certificate, instances, labels)
    message = _one_line_error(excinfo)
    assert "judges" in message and "the rounds hold" in message
    for word in words:
        assert word in message
    with pytest.raises(CertificateError):
        certificate.check_fits(instances)


@pytest.mark.parametrize(
    ("certificate", "instances"),
    [
        (HalfspaceCertificate([1.0, 2.0]), np.array([[1, -1], [3, 0]], dtype=np.int64)),
        (ExpertCertificate(1, experts=2), np.array([[1, -1], [-1, 1]], dtype=np.int8)),
        (ExpertCertificate(1), [np.array([0.5, 0.0, -1.0]), np.array([1.0, -0.2, 0.0])]),
        (FiniteClassCertificate([1, -1, 1]), [0, 2]),
        (FiniteClassCertificate([1, -1, 1]), np.array([2, 1], dtype=np.uint8)),
        (Conjunction(3, ["x1"]), np.array([[1, 0, 1], [0, 1, 1]], dtype=np.uint8)),
        (Disjunction(2, ["x2"]), np.array([[True, False], [False, True]])),
    ],
)
def test_rounds_of_the_right_kind_fit(certificate, instances):
    certificate.check_fits(instances)
    verdict = first_disagreement(certificate, instances, certificate.labels(instances))
    assert verdict is None


@pytest.mark.parametrize("certificate", EXAMPLES, ids=lambda c: c.kind)
@pytest.mark.parametrize("empty", [[], np.empty((0,)), np.empty((0, 7)), np.empty(0, np.int64)])
def test_an_empty_game_fits_every_kind(certificate, empty):
    certificate.check_fits(empty)
    assert first_disagreement(certificate, empty, []) is None


@pytest.mark.parametrize(
    "labels",
    [[1, -1], [[1], [-1], [1]], [1, 0, -1], [True, True, True], [1.0, 2.0, -1.0], ["+", "+", "-"]],
    ids=repr,
)
def test_labels_must_be_a_pm1_column_as_long_as_the_rounds(labels):
    c = HalfspaceCertificate([1.0])
    X = np.array([[1.0], [-1.0], [2.0]])
    with pytest.raises(
        CertificateError, match=r"labels must be a column of ±1, one per round \(3\)"
    ):
        first_disagreement(c, X, labels)
    assert first_disagreement(c, X, [1.0, -1.0, 1.0]) is None


def test_an_agreement_that_is_not_one_bool_per_round_is_refused():
    class Broadcasting(Parity):
        def agrees(self, instances, labels):
            return np.ones((len(labels), len(labels)), dtype=bool)

    with pytest.raises(CertificateError, match="one bool per round"):
        first_disagreement(Broadcasting(1), [1, 2], [1, -1])


def test_the_base_class_checks_nothing_and_user_kinds_may_check():
    assert Parity().check_fits(np.zeros((3, 3))) is None
    with pytest.raises(CertificateError, match="one per round"):
        first_disagreement(Parity(), 5, [1])


# -- data nobody can change ------------------------------------------------------------


def _held_arrays(certificate):
    names = ("weights", "row", "_pos", "_neg")
    return [getattr(certificate, n) for n in names if hasattr(certificate, n)]


def _chain(array):
    while isinstance(array, np.ndarray):
        yield array
        array = array.base


@pytest.mark.parametrize(
    "make",
    [
        lambda: HalfspaceCertificate([1.0, -2.0]),
        lambda: thresholds(3).certificate(1),
        lambda: FiniteClassCertificate([1, -1, 1]),
        lambda: Conjunction(4, ["x1", "¬x3"]),
        lambda: MonotoneConjunction(3, ["x2"]),
        lambda: Disjunction(3, ["x1", "¬x2"]),
        lambda: pickle.loads(pickle.dumps(HalfspaceCertificate([3.0]))),
        lambda: pickle.loads(pickle.dumps(FiniteClassCertificate([1, -1]))),
        lambda: copy.deepcopy(Conjunction(2, ["x1", "¬x2"])),
        lambda: referee_copy(HalfspaceCertificate([1.0, 1.0])),
    ],
    ids=[
        "halfspace",
        "finite",
        "row",
        "conj",
        "monotone",
        "disj",
        "pickled",
        "pickled-row",
        "deepcopy",
        "referee-copy",
    ],
)
def test_no_array_a_certificate_holds_can_be_made_writeable(make):
    certificate = make()
    arrays = _held_arrays(certificate)
    assert arrays
    for array in arrays:
        for link in _chain(array):
            with pytest.raises(ValueError, match="WRITEABLE"):
                link.flags.writeable = True
            with pytest.raises(ValueError):
                link.setflags(write=True)
            if link.size:
                with pytest.raises(ValueError, match="read-only"):
                    link[...] = 0


def test_a_certificate_written_after_it_was_built_is_unchanged():
    """The issue's late write: lower_bound() writing the weights after verification."""
    X = np.array([[1.0, 0.0], [0.0, -1.0]])
    y = np.array([1, -1])
    w = np.array([1.0, 1.0])
    c = HalfspaceCertificate(w)
    assert first_disagreement(c, X, y) is None
    w[:] = -1.0  # the adversary's own array
    for attempt in (
        lambda: setattr(c.weights.flags, "writeable", True),
        lambda: c.weights.__setitem__(0, -5.0),
        lambda: np.copyto(c.weights, -1.0),
        lambda: np.negative(c.weights, out=c.weights),
        lambda: c.weights.base.setflags(write=True),
    ):
        with pytest.raises(ValueError):
            attempt()
    assert c.weights.tolist() == [1.0, 1.0]
    assert first_disagreement(c, X, y) is None


# -- halfspace arithmetic --------------------------------------------------------------


@pytest.mark.parametrize("scale", [1e200, 1e-170, 1e300, 5e-300])
def test_halfspace_signs_and_margins_are_right_at_any_scale(scale):
    h = HalfspaceCertificate([3.0, 4.0])  # u = (0.6, 0.8)
    X = np.array([[1.0, 1.0], [-1.0, 0.0], [0.0, -2.0]]) * scale
    y = np.array([1, -1, -1])
    assert h.labels(X).tolist() == [1, -1, -1]
    assert h.agrees(X, y).tolist() == [True, True, True]
    assert first_disagreement(h, X, y) is None
    assert h.margins(X, y) == pytest.approx(np.array([1.4, 0.6, 1.6]) * scale, rel=1e-12)
    assert h.margin(X, y) == pytest.approx(0.6 * scale, rel=1e-12)


@pytest.mark.parametrize("w_scale", [1e-250, 1.0, 1e250])
def test_halfspace_margins_do_not_depend_on_the_scale_of_the_weights(w_scale):
    h = HalfspaceCertificate(np.array([1.0, -1.0]) * w_scale)
    X = np.array([[2e200, 1e200], [-1e-170, 1e-170]])
    y = np.array([1, -1])
    assert h.margins(X, y) == pytest.approx([1e200 / 2**0.5, 2e-170 / 2**0.5], rel=1e-12)
    assert first_disagreement(h, X, y) is None


def test_a_point_on_the_hyperplane_agrees_with_no_label_and_has_margin_zero():
    h = HalfspaceCertificate([3.0, 4.0])
    on = np.array([4.0, -3.0])  # w·x = 0 exactly, at every scale below
    X = np.stack([on, np.ldexp(on, 665), np.ldexp(on, -600), np.zeros(2), [1e200, 1e-170]])
    for label in (1, -1):
        y = np.array([label, label, label, label, 1])
        assert h.agrees(X, y).tolist() == [False, False, False, False, True]
        assert h.margins(X, y)[:4].tolist() == [0.0, 0.0, 0.0, 0.0]
        assert first_disagreement(h, X, y) == 0
        assert first_disagreement(h, X[1:], y[1:]) == 0


def test_halfspace_scores_are_exact_under_scaling_by_powers_of_two():
    rng = np.random.default_rng(3)
    h = HalfspaceCertificate(rng.normal(size=4))
    X = rng.normal(size=(50, 4))
    y = np.where(rng.uniform(size=50) < 0.5, 1, -1)
    base = h.margins(X, y)
    for k in (-1000, -600, -1, 1, 480, 600, 900):
        scaled = np.ldexp(X, k)
        assert np.array_equal(h.margins(scaled, y), np.ldexp(base, k))
        assert np.array_equal(h.labels(scaled), h.labels(X))
        assert first_disagreement(h, scaled, y) == first_disagreement(h, X, y)


def test_halfspace_margins_check_the_rounds_and_the_labels():
    h = HalfspaceCertificate([1.0, 0.0])
    assert h.margins(np.empty((0, 2)), []).shape == (0,)
    assert h.margin(np.empty((0, 2)), []) == float("inf")
    with pytest.raises(CertificateError, match="dimension 2"):
        h.margin(np.ones((2, 3)), [1, 1])
    with pytest.raises(CertificateError, match="labels"):
        h.margins(np.ones((2, 2)), [1])
