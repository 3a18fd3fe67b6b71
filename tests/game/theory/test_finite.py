"""Finite concept classes: construction, restriction, files, certificates, builders."""

from __future__ import annotations

import math

import numpy as np
import pytest

from game.errors import ParameterError, ProtocolError
from game.theory import certificate_from_dict, first_disagreement
from game.theory.concepts import (
    BUILDERS,
    FiniteClass,
    FiniteClassCertificate,
    _finite,
    all_functions,
    as_finite_class,
    bit_vectors,
    build_class,
    conjunctions,
    decision_lists,
    intervals,
    monotone_conjunctions,
    parities,
    point_index,
    singletons,
    thresholds,
)


def test_duplicates_are_removed_keeping_the_first_and_its_name():
    cls = FiniteClass([[1, -1], [-1, 1], [1, -1]], hypothesis_names=["a", "b", "c"])
    assert cls.matrix.tolist() == [[1, -1], [-1, 1]]
    assert cls.hypothesis_names == ("a", "b")
    assert cls.source_rows.tolist() == [0, 1]
    assert cls.matrix.dtype == np.int8


def test_matrix_is_read_only():
    cls = thresholds(3)
    with pytest.raises(ValueError):
        cls.matrix[0, 0] = -1


def test_bool_matrix_and_objects_with_a_matrix_are_accepted():
    cls = FiniteClass(np.array([[True, False]]))
    assert cls.matrix.tolist() == [[1, -1]]

    class Holder:
        matrix = np.array([[1, 1], [-1, 1]])

    assert FiniteClass(Holder()).n_hypotheses == 2
    assert as_finite_class(Holder()).n_points == 2
    assert as_finite_class(cls) is cls


@pytest.mark.parametrize(
    "bad",
    [[1, -1], [[0, 1]], [[2, 1]], [["a", "b"]], np.ones((2, 2, 2))],
)
def test_non_pm1_matrices_are_refused(bad):
    with pytest.raises(ValueError):
        FiniteClass(bad)


def test_name_counts_must_match():
    with pytest.raises(ValueError, match=r"hypothesis_names must be one name per hypothesis \(2\)"):
        FiniteClass([[1], [-1]], hypothesis_names=["only one"])
    with pytest.raises(ValueError, match=r"point_names must be one name per point \(1\)"):
        FiniteClass([[1], [-1]], point_names=["p", "q"])


def test_consistent_and_restrict():
    cls = intervals(4)
    mask = cls.consistent([1, 2], [1, -1])
    assert [cls.hypothesis_names[i] for i in np.flatnonzero(mask)] == ["[0, 1]", "[1, 1]"]
    sub = cls.restrict([1, 2], [1, -1])
    assert sub.hypothesis_names == ("[0, 1]", "[1, 1]")
    assert sub.point_names == cls.point_names
    assert cls.restrict().n_hypotheses == cls.n_hypotheses
    with pytest.raises(IndexError):
        cls.consistent([4], [1])
    with pytest.raises(ValueError, match="labels"):
        cls.consistent([0, 1], [1])


def test_index_of_and_repr():
    cls = thresholds(2)
    assert cls.index_of("x ≥ 1") == 1
    with pytest.raises(ValueError, match="no hypothesis named"):
        cls.index_of("nope")
    assert repr(cls) == "FiniteClass('thresholds(2)': 3 hypotheses × 2 points)"
    assert len(cls) == 3


def test_equality_ignores_the_cache():
    a, b = thresholds(4), thresholds(4)
    a.engine.ldim()
    assert a == b and a != thresholds(5)


@pytest.mark.parametrize("suffix", [".npy", ".csv"])
def test_save_and_load_round_trip(tmp_path, suffix):
    cls = intervals(5)
    path = cls.save(tmp_path / f"cls{suffix}")
    back = FiniteClass.load(path)
    assert np.array_equal(back.matrix, cls.matrix)
    assert back.name == f"cls{suffix}"


def test_single_row_csv_is_one_hypothesis(tmp_path):
    path = tmp_path / "one.csv"
    path.write_text("1,-1,1\n")
    assert FiniteClass.load(path).matrix.shape == (1, 3)


def test_load_refuses_other_suffixes_and_bad_entries(tmp_path):
    with pytest.raises(ValueError, match=r"\.npy or \.csv"):
        FiniteClass.load(tmp_path / "cls.txt")
    bad = tmp_path / "bad.csv"
    bad.write_text("1,0\n-1,1\n")
    with pytest.raises(ValueError, match=r"\+1 or -1"):
        FiniteClass.load(bad)
    with pytest.raises(ValueError, match=r"\.npy or \.csv"):
        thresholds(2).save(tmp_path / "x.json")


def test_pickle_drops_the_engine_and_keeps_the_class():
    import pickle

    cls = intervals(6)
    cls.engine.ldim()
    back = pickle.loads(pickle.dumps(cls))
    assert back == cls and "engine" not in back._cache
    assert back.engine.ldim() == cls.engine.ldim()


# -- certificates ----------------------------------------------------------------------


def test_certificate_labels_verify_and_round_trip():
    cls = intervals(5)
    h = cls.index_of("[1, 3]")
    cert = cls.certificate(h)
    assert isinstance(cert, FiniteClassCertificate)
    assert cert.labels(np.array([0, 1, 3, 4])).tolist() == [-1, 1, 1, -1]
    assert first_disagreement(cert, [0, 2], [-1, 1]) is None
    assert first_disagreement(cert, [0, 2], [-1, -1]) == 1
    back = certificate_from_dict(cert.to_dict())
    assert back == cert and back.name == "[1, 3]" and back.index == h
    assert "[1, 3]" in cert.describe() and "intervals(5)" in cert.describe()


def test_certificate_refuses_points_outside_the_class():
    cert = thresholds(3).certificate(0)
    with pytest.raises(IndexError):
        cert.labels([3])
    with pytest.raises(ValueError, match="integers"):
        cert.labels([0.5])
    with pytest.raises(IndexError):
        thresholds(3).certificate(4)


def test_certificate_params_reject_a_bad_row():
    with pytest.raises(ValueError, match=r"\+ and −"):
        FiniteClassCertificate.from_params({"row": "+x"}, True)


# -- from concepts -----------------------------------------------------------------------


class _Literal:
    """A concept with a vectorised labels(X), as the Boolean concepts have."""

    def __init__(self, i: int, positive: bool = True):
        self.i, self.positive = i, positive

    def labels(self, X):
        bit = X[:, self.i]
        return np.where(bit if self.positive else ~bit, 1, -1).astype(np.int8)

    def __str__(self):
        return ("" if self.positive else "¬") + f"x{self.i + 1}"


def test_from_concepts_over_bit_vectors():
    cls = FiniteClass.from_concepts([_Literal(0), _Literal(1, False), _Literal(0)], 2)
    assert cls.hypothesis_names == ("x1", "¬x2")  # the repeat is merged
    assert cls.point_names == ("00", "01", "10", "11")
    assert cls.matrix.tolist() == [[-1, -1, 1, 1], [1, -1, 1, -1]]


def test_from_concepts_checks_the_label_count():
    class Short:
        def labels(self, X):
            return np.ones(1)

    with pytest.raises(ValueError, match="labels"):
        FiniteClass.from_concepts([Short()], 2)


def test_from_concepts_agrees_with_the_conjunction_builder():
    boolean = pytest.importorskip("game.theory.concepts._boolean")
    X = bit_vectors(3)
    concepts = [boolean.Conjunction(3, ["x1", "¬x3"]), boolean.Conjunction(3, [])]
    cls = FiniteClass.from_concepts(concepts, 3)
    built = conjunctions(3)
    for row, name in zip(cls.matrix, ("x1 ∧ ¬x3", "True"), strict=True):
        assert np.array_equal(row, built.matrix[built.index_of(name)])
    assert X.shape == (8, 3)


# -- builders ----------------------------------------------------------------------------


def test_bit_vectors_read_x1_first():
    assert bit_vectors(3)[5].astype(int).tolist() == [1, 0, 1]
    assert bit_vectors(0).shape == (1, 0)


@pytest.mark.parametrize(
    ("cls", "hypotheses", "points"),
    [
        (thresholds(5), 6, 5),
        (intervals(6), 22, 6),
        (intervals(256), 32_897, 256),
        (singletons(4), 4, 4),
        (all_functions(3), 8, 3),
        (parities(3), 8, 8),
        (conjunctions(3), 28, 8),
        (monotone_conjunctions(3), 8, 8),
        (decision_lists(2, 1), 6, 4),
    ],
)
def test_builder_sizes(cls, hypotheses, points):
    assert (cls.n_hypotheses, cls.n_points) == (hypotheses, points)


def test_builders_name_their_hypotheses():
    assert intervals(2).hypothesis_names == ("∅", "[0, 0]", "[0, 1]", "[1, 1]")
    assert conjunctions(1).hypothesis_names == ("True", "x1", "¬x1", "False")
    assert monotone_conjunctions(2).hypothesis_names == ("True", "x1", "x2", "x1 ∧ x2")
    assert parities(2).hypothesis_names == ("0", "x2", "x1", "x1 ⊕ x2")
    dl = decision_lists(2, 2)
    assert dl.hypothesis_names[:3] == ("+", "−", "if x1 then − else +")
    assert "if ¬x2 then + elif x1 then − else +" in dl.hypothesis_names


def test_conjunction_rows_are_their_truth_tables():
    cls = conjunctions(3)
    X = bit_vectors(3)
    row = cls.matrix[cls.index_of("x1 ∧ ¬x3")]
    assert np.array_equal(row > 0, X[:, 0] & ~X[:, 2])
    assert (cls.matrix[cls.index_of("False")] == -1).all()


def _evaluate_list(name: str, X: np.ndarray) -> np.ndarray:
    """The labels of a decision list read from its name, rule by rule."""
    label = {"+": 1, "−": -1}
    out = np.zeros(X.shape[0], dtype=int)
    rest = name
    while rest.startswith(("if ", "elif ")):
        head, rest = rest.split(" then ", 1)
        literal = head.split(" ", 1)[1]
        sign, rest = rest[0], rest[2:]
        j = int(literal.lstrip("¬x")) - 1
        fires = ~X[:, j] if literal.startswith("¬") else X[:, j]
        out = np.where((out == 0) & fires, label[sign], out)
    default = label[rest.removeprefix("else ").strip()]
    return np.where(out == 0, default, out)


def test_decision_list_rows_follow_the_first_rule_that_fires():
    cls = decision_lists(3, 2)
    X = bit_vectors(3)
    for name, row in zip(cls.hypothesis_names, cls.matrix, strict=True):
        assert np.array_equal(row, _evaluate_list(name, X)), name


def test_decision_lists_stop_growing():
    # every function of 2 bits but the two parities
    assert decision_lists(2, 4).n_hypotheses == decision_lists(2, 30).n_hypotheses == 14


def test_parity_rows():
    cls = parities(3)
    X = bit_vectors(3)
    row = cls.matrix[cls.index_of("x1 ⊕ x3")]
    assert np.array_equal(row > 0, (X[:, 0] ^ X[:, 2]))


@pytest.mark.parametrize(
    ("builder", "args", "message"),
    [
        ("thresholds", (-1,), "n must be an integer between 0 and"),
        ("intervals", (True,), "n must be an integer"),
        ("conjunctions", (11,), "n must be an integer between 0 and 10"),
        ("decision_lists", (2, -1), "length must be"),
        ("singletons", (0,), "n must be"),
    ],
)
def test_builders_validate_their_arguments(builder, args, message):
    with pytest.raises((TypeError, ValueError), match=message):
        build_class(builder, *args)


@pytest.mark.parametrize(
    ("call", "parameter", "message"),
    [
        (lambda: intervals(10**6), "n", "n must be an integer between 0 and 512, got 1000000"),
        (lambda: thresholds(np.bool_(True)), "n", "n must be an integer between 0 and 8192"),
        (lambda: FiniteClass([[1, 0]]), "matrix", "matrix must be a 2-D matrix of +1 or -1"),
        (lambda: FiniteClass([1, -1]), "matrix", "matrix must be a 2-D matrix"),
        (lambda: as_finite_class([[1, 0]]), "concept_class", "concept_class must be a 2-D"),
        (lambda: as_finite_class(None, "H"), "H", "H must be a finite class, or its ±1 matrix"),
        (lambda: build_class("spheres"), "builder", "builder must be one of 'thresholds'"),
        (lambda: build_class(3), "builder", "builder must be one of"),
        (lambda: build_class("intervals", m=3), "m", "m must be an argument of builder"),
        (lambda: build_class("decision_lists", 2), "length", "length must be given, got None"),
        (lambda: build_class("intervals", 3, 4), "args", "args must be at most 1 argument"),
    ],
)
def test_refusals_name_the_parameter(call, parameter, message):
    with pytest.raises(ParameterError) as info:
        call()
    assert info.value.parameter == parameter
    assert str(info.value).startswith(message), str(info.value)


def test_decision_lists_past_the_hypothesis_limit_name_the_length(monkeypatch):
    monkeypatch.setattr(_finite, "MAX_HYPOTHESES", 10)
    with pytest.raises(ParameterError, match=r"decision_lists\(2, length\) makes more than 10"):
        decision_lists(2, 2)


def test_builders_take_numpy_integers_and_keyword_arguments():
    assert build_class("decision_lists", n=np.int64(2), length=np.uint8(1)) == decision_lists(2, 1)
    assert thresholds(np.int32(3)).name == "thresholds(3)"


def test_build_class_knows_every_builder():
    assert set(BUILDERS) >= {"thresholds", "intervals", "decision_lists", "parities"}
    with pytest.raises(ValueError, match="builder must be one of"):
        build_class("spheres", 3)


def test_point_index():
    assert point_index(np.int16(1), 2) == 1
    assert point_index(np.array(1), 2) == 1
    assert type(point_index(np.uint64(0), np.int64(2))) is int


@pytest.mark.parametrize(
    "bad", [True, np.bool_(False), 1.0, 1.5, "1", None, -1, 2, 9, np.array([1])]
)
def test_point_index_refuses_a_point_naming_x(bad):
    with pytest.raises(
        ParameterError, match=r"^x must be a point: an integer index in 0\.\.1, got "
    ) as info:
        point_index(bad, 2)
    assert info.value.parameter == "x" and info.value.value is bad
    assert not isinstance(info.value, ProtocolError)


def test_point_index_checks_the_number_of_points():
    with pytest.raises(ParameterError, match=r"^n_points must be an integer ≥ 0, got 2\.0$"):
        point_index(1, 2.0)


def test_intervals_count_formula():
    for n in (1, 7, 20):
        assert intervals(n).n_hypotheses == n * (n + 1) // 2 + 1
    assert math.comb(256, 2) + 256 + 1 == 32_897
