"""game.theory.solve.best_margin: γ* bracketed by the referee's arithmetic, B = 1/γ*, and Replay.

γ* = max_{‖u‖=1} min_i y_i⟨u, x_i⟩ (CS229 notes, seed 001) and
B = min{‖w‖ : y_i⟨w, x_i⟩ ≥ 1} = 1/γ* (Shalev-Shwartz & Ben-David, Theorem 9.1,
seed 002). Every check recomputes what it asserts from the data, never from
the solver's word: the separator's margin (a lower bound), the dual point's
‖Zᵀλ‖ (an upper bound), the minimiser's feasibility.
"""

from __future__ import annotations

import math
import time

import numpy as np
import pytest

import adversaries.replay as replay_module
import game.theory.solve as solve
from adversaries import Replay
from game import ParameterError, Transcript, play, play_batch
from game.theory import (
    HalfspaceCertificate,
    first_disagreement,
    row_norms,
    scores,
    unit_vector,
    vector_norm,
)
from game.theory.solve import BestMargin, best_margin
from learners import BatchPerceptron, Perceptron


def separable_set(n, d, gamma0, seed, radius=1.0):
    """Unit-scaled rows around a random unit u, those of margin below γ₀ dropped: γ* ≥ γ₀."""
    rng = np.random.default_rng(seed)
    u = rng.normal(size=d)
    u /= np.linalg.norm(u)
    rows = []
    while sum(len(r) for r in rows) < n:
        X = rng.normal(size=(4 * n, d))
        X /= np.linalg.norm(X, axis=1)[:, None]
        rows.append(X[np.abs(X @ u) >= gamma0])
    X = np.concatenate(rows)[:n] * radius
    return X, np.where(X @ u > 0, 1, -1), u


def dual_norm(X, y, lam):
    """‖Zᵀλ‖ for z_i = y_i·x_i, computed here (scaled: no overflow at 1e200)."""
    Z = y[:, None] * X
    top = np.abs(Z).max()
    return float(np.linalg.norm((Z / top).T @ lam)) * top


def assert_certified(m: BestMargin, X, y, *, gap=1e-9):
    """Everything the result claims, recomputed from the data."""
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    assert m.separable
    assert 0 < m.margin_low <= m.margin_high
    assert m.gap <= gap * m.radius
    # the separator: unit, and its margin as the project computes it is margin_low
    u = m.separator
    assert math.isclose(np.linalg.norm(u), 1.0, rel_tol=1e-12)
    assert float((y * scores(X, unit_vector(u))).min()) == m.margin_low
    assert first_disagreement(HalfspaceCertificate(u), X, y) is None
    # the dual point: in the simplex, and its norm bounds γ* from above
    lam = m.dual
    assert lam.shape == (len(y),) and (lam >= 0).all()
    assert math.isclose(lam.sum(), 1.0, rel_tol=1e-12)
    assert dual_norm(X, y, lam) <= m.margin_high
    # B: 1/high ≤ B ≤ ‖w‖, w feasible, ‖w‖ ≈ 1/low
    w = m.minimiser
    assert float((y * scores(X, w)).min()) >= 1.0
    assert math.isclose(vector_norm(w), m.b_high, rel_tol=1e-12)
    assert m.b_low <= m.b_high
    assert math.isclose(m.b_high, 1.0 / m.margin_low, rel_tol=1e-12)
    assert math.isclose(m.b_low, 1.0 / m.margin_high, rel_tol=1e-15)
    assert math.isclose(m.radius, float(row_norms(X).max()), rel_tol=1e-15)


# -- separable sets of known margin -----------------------------------------------------


@pytest.mark.parametrize(
    ("n", "d", "gamma0", "seed"),
    [(50, 2, 0.2, 0), (300, 5, 0.05, 1), (1000, 20, 0.02, 2), (40, 100, 0.1, 3)],
)
def test_known_margin_is_bracketed_with_a_small_gap(n, d, gamma0, seed):
    X, y, _ = separable_set(n, d, gamma0, seed)
    m = best_margin(X, y)
    assert_certified(m, X, y)
    assert m.margin_high >= gamma0  # γ* ≥ γ₀: the planted u has margin γ₀ at least
    assert m.margin_low >= gamma0 * (1 - 1e-12)


def test_two_dimensions_against_a_search_over_directions():
    X, y, _ = separable_set(60, 2, 0.1, 7)
    m = best_margin(X, y)
    angles = np.linspace(0.0, 2 * np.pi, 400_001)
    U = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    searched = float((U @ (y[:, None] * X).T).min(axis=1).max())  # ≤ γ*, close to it
    assert searched <= m.margin_high
    assert m.margin_low >= searched - 1e-9


def test_a_worked_example():
    # z = (2, 1), (1, 2), (1, 1): the hull's point nearest 0 is (1, 1), so γ* = √2
    m = best_margin([[2.0, 1.0], [1.0, 2.0], [-1.0, -1.0]], [1, 1, -1])
    assert math.isclose(m.margin_low, math.sqrt(2), rel_tol=1e-14)
    assert math.isclose(m.b, 1 / math.sqrt(2), rel_tol=1e-14)
    assert m.support.tolist() == [2]
    assert np.allclose(m.separator, [2**-0.5, 2**-0.5], rtol=1e-14)


def test_one_example_and_one_dimension():
    m = best_margin([[3.0, 4.0]], [-1])
    assert math.isclose(m.margin_low, 5.0, rel_tol=1e-15) and m.separable
    m = best_margin([[2.0], [3.0], [-1.0]], [1, 1, -1])
    assert math.isclose(m.margin_low, 1.0, rel_tol=1e-15)


def test_integers_and_extreme_scales():
    X, y, _ = separable_set(200, 4, 0.1, 5)
    m = best_margin(X, y)
    for scale in (2.0**600, 2.0**-900):  # exact scalings: γ* scales with them
        big = best_margin(X * scale, y)
        assert_certified(big, X * scale, y)
        assert math.isclose(big.margin_low / scale, m.margin_low, rel_tol=1e-12)
    ints = best_margin(np.array([[1, 2], [3, 1], [-2, -2]]), np.array([1, 1, -1]))
    # z = (1, 2), (3, 1), (2, 2): (1, 2) is the hull's point nearest 0, and (3, 1)·(1, 2) = 5 too
    assert ints.separable and math.isclose(ints.margin_low, math.sqrt(5), rel_tol=1e-14)


def test_the_order_of_the_examples_does_not_matter():
    X, y, _ = separable_set(500, 8, 0.05, 11)
    order = np.random.default_rng(0).permutation(len(y))
    a, b = best_margin(X, y), best_margin(X[order], y[order])
    assert math.isclose(a.margin_low, b.margin_low, rel_tol=1e-12)


def test_two_thousand_points_in_64_dimensions_in_under_two_seconds():
    X, y, _ = separable_set(2000, 64, 0.02, 3)
    best_margin(X[:5], y[:5])  # scipy imported
    start = time.perf_counter()
    m = best_margin(X, y)
    assert time.perf_counter() - start < 2.0
    assert_certified(m, X, y, gap=1e-12)


# -- not separable through the origin ---------------------------------------------------


@pytest.mark.parametrize(
    ("X", "y"),
    [
        ([[1.0, 1.0], [-1.0, -1.0]], [1, 1]),  # z and −z
        ([[1.0, 0.0], [2.0, 0.0]], [1, -1]),
        ([[1.0, 0.0], [0.0, 0.0]], [1, 1]),  # a point at the origin is on neither side
        ([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.0, 0.0]], [1, 1, -1, -1]),
        ([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]], [1, 1, -1, -1]),  # XOR
    ],
)
def test_not_separable_is_said_and_the_dual_point_is_zero(X, y):
    m = best_margin(X, y)
    assert not m.separable and m.margin == 0.0 and m.margin_low == 0.0
    assert m.margin_high <= 1e-12 and dual_norm(np.array(X), np.array(y), m.dual) <= 1e-12
    assert m.separator is None and m.minimiser is None
    assert m.b_high == math.inf and m.b == math.inf
    assert m.certificate() is None
    assert "0 is in the convex hull" in m.describe()


def test_random_labels_are_not_separable():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(500, 5))
    y = rng.choice([-1, 1], size=500)
    m = best_margin(X, y)
    assert not m.separable and m.margin_high <= 1e-12 * m.radius


# -- the certificate ---------------------------------------------------------------------


def test_the_certificate_says_what_it_is_and_round_trips():
    X, y, _ = separable_set(100, 3, 0.1, 9)
    m = best_margin(X, y)
    c = m.certificate()
    assert c.realizable and np.array_equal(c.weights, m.separator)
    assert "the best-margin separator found by the solver: γ* ∈ [" in c.describe()
    assert c.note == m.describe()
    from game.theory import referee_copy

    copy = referee_copy(c)
    assert copy == c and copy.describe() == c.describe()


# -- input -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("X", "y", "name", "phrase"),
    [
        ([1.0, 2.0], [1, 1], "X", "a matrix of finite real numbers"),
        (np.empty((0, 3)), [], "X", "no data"),
        (np.empty((2, 0)), [1, 1], "X", "no data"),
        ([[1.0, float("nan")]], [1], "X", "row 1, column 2 is not finite"),
        ([[1.0, 2.0], [3.0]], [1, 1], "X", "a matrix"),
        ([["a", "b"]], [1], "X", "a matrix"),
        ([[True, False]], [1], "X", "a matrix"),
        ([[1.0, 2.0]], [1, 1], "y", "a vector of 1 labels"),
        ([[1.0, 2.0], [1.0, 3.0]], [1, 2], "y", "row 2 is neither"),
        ([[1.0, 2.0]], ["+"], "y", "a vector of 1 labels"),
        ([[1.0, 2.0]], [[1]], "y", "a vector of 1 labels"),
    ],
)
def test_bad_input_names_the_parameter(X, y, name, phrase):
    with pytest.raises(ParameterError, match=phrase) as caught:
        best_margin(X, y)
    assert caught.value.parameter == name


# -- Replay: the solved certificate and the Perceptrons' bounds --------------------------


def iris_like(seed=0):
    """Three clusters in 4 dimensions, one against the rest, unit-scaled: separable."""
    rng = np.random.default_rng(seed)
    centres = np.array([[5.0, 3.4, 1.5, 0.2], [5.9, 2.8, 4.3, 1.3], [6.6, 3.0, 5.6, 2.0]])
    X = np.concatenate([c + 0.15 * rng.normal(size=(30, 4)) for c in centres])
    y = np.where(np.arange(90) < 30, 1, -1)
    order = rng.permutation(90)
    X, y = X[order], y[order]
    return X / np.linalg.norm(X, axis=1)[:, None], y


def perceptron_games(X, y):
    p = play(Perceptron(), Replay(instances=X, labels=y), rounds=len(y))
    b = play(BatchPerceptron(), Replay(instances=X, labels=y), rounds=len(y))
    return p, b


def check_solved_games(X, y):
    m = best_margin(X, y)
    assert m.separable
    p, b = perceptron_games(X, y)
    for tr in (p, b):
        assert tr.certificate_verified is True
        assert isinstance(tr.certificate, HalfspaceCertificate)
        assert np.array_equal(tr.certificate.weights, m.separator)
        assert tr.certificate.describe().endswith(m.describe())
        assert tr.bound.applies and tr.within_bound
    # Block–Novikoff with γ* (as attained) and R; Theorem 9.1 with B = 1/γ*
    expected = (m.radius / m.margin_low) ** 2
    assert math.isclose(p.bound.value, expected, rel_tol=1e-12)
    assert math.isclose(b.bound.value, expected, rel_tol=1e-12)
    assert math.isclose(b.bound.value, (m.radius * m.b_high) ** 2, rel_tol=1e-12)
    assert p.observed("updates") <= p.bound.value
    return m, p, b


def test_replay_of_an_iris_like_set_gives_both_bounds():
    X, y = iris_like()
    check_solved_games(X, y)


def test_replay_of_iris_and_digits():
    datasets = pytest.importorskip("sklearn.datasets")
    iris = datasets.load_iris()
    X = iris.data / np.linalg.norm(iris.data, axis=1)[:, None]
    check_solved_games(X, np.where(iris.target == 0, 1, -1))  # setosa against the rest
    digits = datasets.load_digits()
    nonzero = np.linalg.norm(digits.data, axis=1) > 0
    X = digits.data[nonzero] / np.linalg.norm(digits.data[nonzero], axis=1)[:, None]
    check_solved_games(X, np.where(digits.target[nonzero] == 0, 1, -1))  # 0 against the rest


def test_replay_of_data_that_do_not_separate_hands_no_certificate():
    X = [[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]]
    tr = play(Perceptron(), Replay(instances=X, labels=[1, 1, -1, -1]), rounds=4)
    assert tr.certificate is None and tr.bound is None


def test_a_given_separator_or_a_transcripts_certificate_is_kept():
    X, y = iris_like(1)
    given = Replay(instances=X, labels=y, separator=np.ones(4) * [1, 1, -1, -1])
    assert "best-margin" not in given.certificate().describe()
    solved = play(Perceptron(), Replay(instances=X, labels=y), rounds=90)
    again = Replay(transcript=solved)
    assert again.certificate() == solved.certificate
    bare = Transcript(
        header=solved.header,
        raw_instances=solved.raw_instances,
        predictions=solved.predictions,
        labels=solved.labels,
        updated=solved.updated,
    )
    # a transcript without a certificate: its rows' best margin
    assert Replay(transcript=bare).certificate() == solved.certificate


def test_points_bits_and_large_data_get_no_solved_certificate(monkeypatch):
    assert Replay(instances=[0, 1, 2], labels=[1, -1, 1]).certificate() is None
    bits = np.array([[True, False], [False, True]])
    assert Replay(instances=bits, labels=[1, -1]).certificate() is None
    X, y = iris_like(2)
    monkeypatch.setattr(replay_module, "MAX_MARGIN_VALUES", X.size - 1)
    assert Replay(instances=X, labels=y).certificate() is None
    monkeypatch.setattr(replay_module, "MAX_MARGIN_VALUES", X.size)
    assert Replay(instances=X, labels=y).certificate() is not None


def test_a_data_set_is_solved_once(monkeypatch):
    calls = []
    real = solve.best_margin

    def counted(X, y):
        calls.append(len(y))
        return real(X, y)

    monkeypatch.setattr(solve, "best_margin", counted)
    monkeypatch.setattr(replay_module, "_solved", {})
    X, y = iris_like(3)
    first = [Replay(instances=X, labels=y).certificate() for _ in range(3)]
    assert calls == [90] and first[0] == first[1] == first[2]
    Replay(instances=X[:-1], labels=y[:-1]).certificate()  # another data set
    assert calls == [90, 89]


def test_lockstep_games_get_the_serial_games_certificate():
    X, y = iris_like(4)
    serial = play(Perceptron(), Replay(instances=X, labels=y), rounds=90)
    batch = play_batch([Perceptron() for _ in range(3)], [Replay(instances=X, labels=y)] * 1
                       + [Replay(instances=X, labels=y) for _ in range(2)], rounds=90)  # fmt: skip
    assert all(tr.digest == serial.digest for tr in batch)
    assert all(tr.certificate == serial.certificate for tr in batch)


def test_a_shorter_game_is_judged_by_the_whole_data_sets_separator():
    X, y = iris_like(5)
    whole = best_margin(X, y)
    tr = play(Perceptron(), Replay(instances=X, labels=y), rounds=20)
    assert len(tr) == 20 and tr.certificate_verified is True
    assert np.array_equal(tr.certificate.weights, whole.separator)
    # its margin on the rows played is at least γ* of the whole set
    assert "γ = " in tr.bound.theorem and tr.bound.value <= (whole.radius / whole.margin_low) ** 2
