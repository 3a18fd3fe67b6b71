"""Every bound of the Perceptron family holds on every generated game, under every convention."""

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from game import play
from game.testing.strategies import noisy_sequences, separable_sequences
from game.theory.bounds import batch_perceptron, margin_perceptron
from learners import BatchPerceptron, MarginPerceptron, OnlineGradientDescent, Perceptron
from learners.perceptron import comparator_bounds

CONVENTIONS = [
    {"zero_label": z, "update": u, "normalize": n}
    for z, u, n in itertools.product((1, -1), ("nonpositive", "mistake"), (False, True))
]
ETAS = st.floats(1e-6, 1e6, allow_nan=False, allow_infinity=False)


def _unit_margin(seq) -> float:
    """The smallest y·(u·x)/‖x‖: u's margin on the unit-length instances."""
    norms = np.linalg.norm(seq.X, axis=1)
    return float(np.min(seq.y * (seq.X @ seq.u) / norms))


@given(seq=separable_sequences())
def test_block_novikoff_and_the_comparator_bounds_on_separable_games(seq):
    for convention in CONVENTIONS:
        tr = play(Perceptron(**convention), seq.adversary(), rounds=len(seq))
        mistakes, updates = tr.observed("mistakes"), tr.observed("updates")
        assert mistakes <= updates
        assert tr.certificate_verified and tr.bound is not None
        assert tr.bound.holds(updates), (convention, tr.bound, updates)
        radius = 1.0 if convention["normalize"] else seq.radius
        margin = _unit_margin(seq) if convention["normalize"] else seq.margin
        assert tr.bound.value <= (radius / margin) ** 2 * (1 + 1e-9)
        for bound in comparator_bounds(tr, normalize=convention["normalize"]):
            # every bound that applies holds; Balcan's applies only in the unit ball
            assert bound.verdict(updates) is not False, (convention, bound, updates)


@given(seq=noisy_sequences())
def test_non_separable_bounds_on_noisy_games(seq):
    for convention in CONVENTIONS:
        tr = play(Perceptron(**convention), seq.adversary(), rounds=len(seq))
        updates = tr.observed("updates")
        bounds = comparator_bounds(tr, normalize=convention["normalize"])
        assert all(b.verdict(updates) is not False for b in bounds), (convention, bounds, updates)
        balcan, hinge = bounds
        assert hinge.applies
        in_ball = np.linalg.norm(seq.X, axis=1).max() <= 1 + 1e-12
        assert balcan.applies == (convention["normalize"] or in_ball)  # needs ‖x‖ ≤ 1
        assert tr.bound.applies and tr.within_bound


@given(seq=st.one_of(separable_sequences(), noisy_sequences()), eta=ETAS)
def test_ogd_mistakes_are_the_perceptrons_for_every_eta(seq, eta):
    a = play(OnlineGradientDescent(eta=eta), seq.adversary(), rounds=len(seq))
    b = play(Perceptron(), seq.adversary(), rounds=len(seq))
    np.testing.assert_array_equal(a.mistakes, b.mistakes)
    np.testing.assert_array_equal(a.updated, b.updated)


@given(seq=st.one_of(separable_sequences(), noisy_sequences()), eta=ETAS)
def test_ogd_regret_and_mistake_bounds_hold(seq, eta):
    for theorem in ("mistakes", "regret"):
        tr = play(OnlineGradientDescent(eta=eta, theorem=theorem), seq.adversary(), rounds=len(seq))
        assert tr.bound.holds(tr.observed(tr.bound.quantity)), (tr.bound, theorem)


@given(seq=separable_sequences(max_size=25), share=st.floats(0.3, 1.0))
def test_margin_perceptron_cycled_to_a_clean_pass_has_margin_half_gamma(seq, share):
    gamma = min(1.0, share * _unit_margin(seq))
    learner = MarginPerceptron(gamma=gamma)
    limit = margin_perceptron(gamma).value
    updates, passes = 0, 0
    while True:
        passes += 1
        changed = 0
        for x, y in zip(seq.X, seq.y.tolist(), strict=True):
            learner.predict(x)
            changed += learner.update(x, y)
        updates += changed
        assert updates <= limit
        if not changed:
            break
    w = learner.weights
    unit = seq.X / np.linalg.norm(seq.X, axis=1)[:, None]
    assert np.all(seq.y * (unit @ w) / np.linalg.norm(w) >= gamma / 2)


@given(seq=separable_sequences(max_size=30), share=st.floats(0.3, 1.0))
def test_margin_perceptron_bound_holds_in_one_game(seq, share):
    gamma = min(1.0, share * _unit_margin(seq))
    tr = play(MarginPerceptron(gamma=gamma), seq.adversary(), rounds=len(seq))
    assert tr.bound.value == margin_perceptron(gamma).value
    assert tr.within_bound


@pytest.mark.parametrize("rule", ["first", "cyclic", "random"])
@given(seq=separable_sequences(max_size=30), seed=st.integers(0, 2**32 - 1))
def test_batch_perceptron_stops_with_every_example_classified(rule, seq, seed):
    w, iterations = BatchPerceptron().fit(seq.X, seq.y, rule=rule, rng=np.random.default_rng(seed))
    assert np.all(seq.y * (seq.X @ w) > 0)
    # B ≤ ‖u‖ / min y⟨u, x⟩ with u rescaled to margin 1
    b = 1.0 / float(np.min(seq.y * (seq.X @ seq.u)))
    assert iterations <= batch_perceptron(seq.radius, b).value * (1 + 1e-9)
