"""best_margin on any data: γ* bracketed by the referee's arithmetic, separability decided right.

γ* = max_{‖u‖=1} min_i y_i⟨u, x_i⟩ (CS229 notes, seed 001), B = 1/γ*
(Theorem 9.1, seed 002). For data planted around a unit u with margin γ₀ the
bracket must hold γ₀ (γ* ≥ γ₀) and be narrow; for small integer data the
verdict "separable through the origin" must agree with a linear program's
(Zw ≥ 1 feasible), and every number must be what the data give when
recomputed here.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st
from scipy.optimize import linprog

from game.theory import HalfspaceCertificate, first_disagreement, scores, unit_vector, vector_norm
from game.theory.solve import best_margin


def planted(n, d, gamma0, seed, radius):
    """n points of norm ≤ radius on both sides of a random unit u, margins ≥ γ₀·radius."""
    rng = np.random.default_rng(seed)
    u = rng.normal(size=d)
    u /= np.linalg.norm(u)
    X = rng.normal(size=(n, d))
    X /= np.linalg.norm(X, axis=1)[:, None]
    X *= rng.uniform(0.5, 1.0, size=(n, 1))
    side = np.where(rng.random(n) < 0.5, -1.0, 1.0)
    # push every point along u so that side·⟨u, x⟩ ≥ γ₀, then back inside the ball
    along = X @ u
    X += np.maximum(0.0, gamma0 - side * along)[:, None] * side[:, None] * u
    X /= np.maximum(1.0, np.linalg.norm(X, axis=1))[:, None]
    y = np.where(X @ u > 0, 1, -1)
    margin = float((y * (X @ u)).min())  # the planted u's margin: γ* ≥ it
    return X * radius, y, margin * radius


def check_claims(m, X, y):
    """The result's claims, recomputed from the data; returns ‖Zᵀλ‖ as computed here."""
    Z = y[:, None] * X
    top = float(np.abs(Z).max()) or 1.0
    lam = m.dual
    assert (lam >= 0).all() and math.isclose(lam.sum(), 1.0, rel_tol=1e-12)
    dual = float(np.linalg.norm((Z / top).T @ lam)) * top
    assert dual <= m.margin_high
    assert m.margin_low <= m.margin_high
    if m.separable:
        u = m.separator
        assert float((y * scores(X, unit_vector(u))).min()) == m.margin_low > 0
        assert first_disagreement(HalfspaceCertificate(u), X, y) is None
        assert float((y * scores(X, m.minimiser)).min()) >= 1.0
        assert math.isclose(vector_norm(m.minimiser), m.b_high, rel_tol=1e-12)
        assert m.b_low <= m.b_high
        assert math.isclose(m.b_high * m.margin_low, 1.0, rel_tol=1e-12)  # B = 1/γ*
    else:
        assert m.margin == 0.0 and m.separator is None and m.b_high == math.inf
    return dual


@given(
    n=st.integers(1, 300),
    d=st.integers(1, 12),
    gamma0=st.floats(0.01, 0.5),
    seed=st.integers(0, 2**32 - 1),
    scale=st.sampled_from([1.0, 1e-3, 1e5, 2.0**-500, 2.0**500]),
)
@example(n=1, d=1, gamma0=0.5, seed=0, scale=1.0)
@example(n=300, d=12, gamma0=0.01, seed=1, scale=2.0**500)
def test_planted_margins_are_bracketed_tightly(n, d, gamma0, seed, scale):
    X, y, margin = planted(n, d, gamma0, seed, scale)
    m = best_margin(X, y)
    assert m.separable
    check_claims(m, X, y)
    assert m.margin_high >= margin  # γ* ≥ the planted u's margin
    assert m.margin_low >= margin * (1 - 1e-9)
    assert m.gap <= 1e-9 * m.radius


@st.composite
def integer_data(draw):
    d = draw(st.integers(1, 4))
    n = draw(st.integers(1, 12))
    X = draw(st.lists(st.lists(st.integers(-3, 3), min_size=d, max_size=d), min_size=n, max_size=n))
    y = draw(st.lists(st.sampled_from([-1, 1]), min_size=n, max_size=n))
    return np.array(X, dtype=float), np.array(y)


def separable_by_lp(X, y) -> bool:
    """Whether some w has y_i⟨w, x_i⟩ ≥ 1 for every i (a feasibility linear program)."""
    Z = y[:, None] * X
    d = X.shape[1]
    found = linprog(
        np.zeros(d), A_ub=-Z, b_ub=-np.ones(len(y)), bounds=[(None, None)] * d, method="highs"
    )
    return found.status == 0


@given(integer_data())
@example((np.array([[1.0, 1.0], [-1.0, -1.0]]), np.array([1, 1])))
@example((np.array([[0.0, 0.0]]), np.array([1])))
@example((np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]]), np.array([1, 1, 1])))
def test_separability_agrees_with_a_linear_program(data):
    X, y = data
    m = best_margin(X, y)
    dual = check_claims(m, X, y)
    assert m.separable == separable_by_lp(X, y)
    if not m.separable:  # 0 is in the hull: the dual point shows it
        assert dual <= 1e-12 * max(m.radius, 1.0) and m.margin_high <= 1e-12 * max(m.radius, 1.0)
    else:  # integer points: γ* is far from rounding, the gap tiny
        assert m.gap <= 1e-12 * m.radius


@given(data=integer_data(), power=st.integers(-300, 300))
def test_scaling_by_a_power_of_two_scales_the_margin(data, power):
    X, y = data
    a, b = best_margin(X, y), best_margin(np.ldexp(X, power), y)
    assert a.separable == b.separable
    if a.separable:
        assert math.isclose(math.ldexp(a.margin_low, power), b.margin_low, rel_tol=1e-12)
        assert math.isclose(math.ldexp(a.b_high, -power), b.b_high, rel_tol=1e-12)
