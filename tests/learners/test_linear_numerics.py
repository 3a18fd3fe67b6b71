"""The Perceptron family on instances of any finite size: right predictions, right bounds.

Each game replays a separable sequence scaled by a power of ten through
:func:`game.play`, with the separator as the certificate, and compares it with
the unscaled game: the same predictions, mistakes and updates, the same
(R/γ)² where it is a float (it is scale-free), never an exception; and the
lockstep kernel gives the engine's transcript.
"""

import math

import numpy as np
import pytest

from adversaries import Replay
from adversaries.noisy import NoisyStream
from game import HalfspaceCertificate, play, play_batch
from game.sweep import lockstep_supported
from game.theory.bounds import balcan_nonseparable, ogd_regret, perceptron_hinge
from learners import BatchPerceptron, MarginPerceptron, OnlineGradientDescent, Perceptron
from learners.perceptron import comparator_bounds, scaled_score, unit_length

U = np.array([1.0, 0.0])
A = math.sqrt(0.28)  # every ‖x‖² = 1 + 0.28: (R/γ)² = 1.28 for the separator U


def separable(n=200, seed=0):
    """x_t = y_t·(1, ±√0.28): margin 1 for U, R² = 1.28; one update, then every score ≥ 0.72."""
    rng = np.random.default_rng(seed)
    y = rng.choice([-1, 1], size=n)
    X = y[:, None] * np.column_stack((np.ones(n), A * rng.choice([-1.0, 1.0], size=n)))
    return X, y


def game(learner, X, y, separator=U):
    return play(learner, Replay(instances=X, labels=y, separator=separator), rounds=len(y))


def same_game(a, b):
    """The same predictions, mistakes and updates."""
    np.testing.assert_array_equal(a.predictions, b.predictions)
    np.testing.assert_array_equal(a.mistakes, b.mistakes)
    np.testing.assert_array_equal(a.updated, b.updated)


PERCEPTRONS = [
    pytest.param(lambda: Perceptron(), id="perceptron"),
    pytest.param(lambda: Perceptron(zero_label=-1, update="mistake"), id="perceptron-003"),
    pytest.param(lambda: Perceptron(normalize=True), id="perceptron-normalize"),
    pytest.param(lambda: Perceptron(zero_label=-1, normalize=True), id="perceptron-003-normalize"),
    pytest.param(lambda: BatchPerceptron(), id="batch-perceptron"),
    pytest.param(lambda: OnlineGradientDescent(), id="ogd"),
]


@pytest.mark.parametrize("scale", [1e200, 1e-170, 1e300, 1e-300])
@pytest.mark.parametrize("make", PERCEPTRONS)
def test_a_scaled_game_is_the_unscaled_game(make, scale):
    X, y = separable()
    plain, scaled = game(make(), X, y), game(make(), X * scale, y)
    same_game(plain, scaled)
    assert plain.observed("updates") == 1 and plain.observed("mistakes") <= 1
    assert scaled.certificate_verified is True
    assert scaled.bound.applies, scaled.bound.reason
    assert scaled.bound.value == pytest.approx(plain.bound.value, rel=1e-12)
    assert scaled.bound.verdict(scaled.observed(scaled.bound.quantity)) is True


@pytest.mark.parametrize("scale", [1e200, 1e-170])
def test_block_novikoff_is_scale_free(scale):
    """The issue's game: (R/γ)² = 1.28, R neither inf (1e200) nor 0 (1e-170)."""
    X, y = separable()
    tr = game(Perceptron(), X * scale, y)
    assert tr.observed("mistakes") <= 1 and tr.observed("updates") == 1
    assert tr.bound.value == pytest.approx(1.28, rel=1e-12)
    assert [h.name for h in tr.bound.hypotheses] == [
        "realizable",
        "margin measured",
        "norms finite",
        "weights finite",
    ]
    assert tr.bound.applies and tr.summary()["within_bound"] is True
    assert "not applicable" not in str(tr.bound)


def test_normalize_with_huge_instances_learns():
    """x·x overflows at 1e200: x/‖x‖ is still the unit vector, and the learner updates."""
    X, y = separable()
    tr = game(Perceptron(normalize=True), X * 1e200, y)
    assert tr.observed("updates") == 1 and tr.observed("mistakes") <= 1
    assert tr.bound.value == pytest.approx(1.28, rel=1e-12)  # R = 1, γ = 1/√1.28
    x = X[0] * 1e200
    np.testing.assert_allclose(unit_length(x), X[0] / np.linalg.norm(X[0]), rtol=1e-15)


def test_a_margin_beyond_the_floats_gives_an_infinite_bound_not_an_error():
    """γ = 1e-160 with R ≈ 1: (R/γ)² = 1e320 is +inf, and it applies."""
    X = np.array([[1e-160, 1.0], [-1e-160, 1.0], [1.0, 0.0]])
    y = np.array([1, -1, 1])
    tr = game(Perceptron(), X, y)
    assert tr.status == "complete" and tr.reason is None
    assert tr.bound.value == math.inf and tr.bound.applies
    assert "γ = 1e-160" in tr.bound.theorem
    # w = x₁; round 2 errs (score 1 − 1e-320), w = (2e-160, 0); round 3 scores 2e-160 > 0
    assert tr.predictions.tolist() == [1.0, 1.0, 1.0]
    assert tr.updated.tolist() == [True, True, False]


def test_margin_perceptron_with_a_tiny_gamma_plays_and_bounds():
    X, y = separable(60)
    for scale in (1.0, 1e200, 1e-170):
        tr = game(MarginPerceptron(gamma=1e-200), X * scale, y)
        assert tr.status == "complete" and tr.reason is None
        assert tr.bound.value == math.inf and tr.bound.applies  # 12/γ² beyond the floats
        same_game(tr, game(MarginPerceptron(gamma=1e-200), X, y))


@pytest.mark.parametrize("scale", [1.0, 1e200, 1e-170])
def test_margin_perceptron_on_scaled_instances(scale):
    X, y = separable(100)
    plain, scaled = (
        game(MarginPerceptron(gamma=0.5), X, y),
        game(MarginPerceptron(0.5), X * scale, y),
    )
    same_game(plain, scaled)
    np.testing.assert_array_equal(plain.extras["margin_mistake"], scaled.extras["margin_mistake"])
    assert scaled.bound.value == pytest.approx(48.0) and scaled.bound.applies


def test_an_overflowing_score_is_recomputed_with_the_right_sign():
    """3e308 − 4e308 overflows (to +inf or NaN, by the order of the sums); the score is −1e308."""
    w, x = np.array([1e200, 1e200]), np.array([3e108, -4e108])
    with np.errstate(over="ignore", invalid="ignore"):
        assert not np.vdot(w, x) < 0  # the plain product has lost the sign
    assert scaled_score(w, x) == pytest.approx(-1e308, rel=1e-15)
    p = Perceptron(zero_label=1)
    p.update(w, 1)  # w₁ = 0 scores 0: w = (1e200, 1e200)
    assert p.predict(x) == -1.0 and p.update(x, -1) is False


def test_an_underflowing_score_keeps_its_sign():
    w, x = np.array([1e-170, 1.0]), np.array([1e-170, 0.0])
    assert float(np.vdot(w, x)) == 0.0  # 1e-340 underflows
    assert scaled_score(w, x) > 0.0 and scaled_score(-w, x) < 0.0
    p = Perceptron(zero_label=-1)
    p.update(np.array([1e-170, 1.0]), 1)
    assert p.predict(x) == 1.0  # not the zero label


def test_a_genuine_zero_score_stays_zero():
    """Exact cancellation is not underflow: scaling by powers of two keeps it exact."""
    p = Perceptron(zero_label=-1)
    p.update(np.array([3.0, 1.0]), 1)
    assert p.predict(np.array([1.0, -3.0])) == -1.0  # w·x = 0: the zero label
    assert scaled_score(np.array([3.0, 1.0]), np.array([1.0, -3.0])) == 0.0


def test_a_norm_beyond_the_floats_makes_the_bound_not_applicable():
    X = np.array([[1.5e308, 1.5e308], [-1.5e308, 1.0]])
    y = np.array([1, -1])
    tr = game(Perceptron(), X, y)
    assert tr.status == "complete"
    assert tr.bound.value == math.inf and not tr.bound.applies
    assert tr.bound.reason.startswith("norms finite fails")
    assert tr.bound.verdict(tr.observed("updates")) is None
    assert tr.predictions.tolist() == [1.0, -1.0]  # w = x₁: w·x₂ overflows negative


def test_weights_that_may_overflow_make_the_bound_not_applicable():
    """w = x₁ + x₂ has first entry 2e308: the floating point Perceptron is not the theorem's."""
    X = np.array([[1e308, 1e308], [1e308, -1.1e308]])
    y = np.array([1, 1])
    adversary = Replay(instances=X, labels=y, separator=U)
    with pytest.warns(RuntimeWarning, match="overflow"):  # numpy's, on w += x₂ in the loop
        tr = play(Perceptron(), adversary, rounds=2, lockstep=False)
    # the compiled kernel (once loaded) plays the same game, silently
    assert play(Perceptron(), Replay(instances=X, labels=y, separator=U), rounds=2).digest == (
        tr.digest
    )
    assert tr.updated.tolist() == [True, True]  # round 2 scores −0.1e616: a mistake
    assert tr.predictions.tolist() == [1.0, -1.0]
    assert not tr.bound.applies and tr.bound.reason.startswith("weights finite fails")
    one = game(Perceptron(), X[:1], y[:1])  # one update of 1e308 cannot overflow
    assert one.bound.applies


def test_comparator_bounds_on_huge_instances():
    """A comparator: Balcan's needs ‖x‖ ≤ 1 (so applies at 1e-170 only); §21.4's is scale-free."""
    X, y = separable()
    y = y.copy()
    y[::7] *= -1  # noise: U is a comparator now
    plain = play(Perceptron(), Replay(instances=X, labels=y), rounds=len(y))
    assert plain.bound is None  # no certificate at all
    bounds = []
    for scale in (1.0, 1e200, 1e-170):
        tr = play(Perceptron(), Replay(instances=X * scale, labels=y), rounds=len(y))
        balcan, hinge = comparator_bounds(tr, HalfspaceCertificate(U, realizable=False))
        if scale < 1:
            assert balcan.applies and balcan.verdict(tr.observed("updates")) is True
        else:
            assert not balcan.applies and balcan.reason.startswith("norms ≤ 1 fails")
        assert hinge.applies and hinge.verdict(tr.observed("updates")) is True
        bounds.append(hinge.value)
    assert bounds == pytest.approx([bounds[0]] * 3, rel=1e-9)


@pytest.mark.parametrize("scale", [1.0, 1e200, 1e-170, 1e300, 1e-300])
def test_lockstep_gives_the_engines_transcripts(scale):
    X, y = separable(120)
    conventions = [
        {},
        {"zero_label": -1, "update": "mistake"},
        {"normalize": True},
        {"zero_label": -1, "update": "mistake", "normalize": True},
    ]

    def replays():
        return [Replay(instances=X * scale, labels=y, separator=U) for _ in conventions]

    learners = [Perceptron(**c) for c in conventions]
    assert lockstep_supported(learners, replays(), len(y))
    batch = play_batch(learners, replays(), rounds=len(y), lockstep=True)
    for convention, tr in zip(conventions, batch, strict=True):
        alone = game(Perceptron(**convention), X * scale, y)
        assert tr.digest == alone.digest and tr.bound == alone.bound
        same_game(tr, game(Perceptron(**convention), X, y))


def test_the_bound_functions_never_raise_on_finite_inputs():
    huge, tiny = 1e300, 1e-300
    for margins in ([huge, -huge, 1.0], [tiny, -tiny], [1.5e308, 1.5e308, -1.5e308]):
        assert balcan_nonseparable(margins).value >= 0
        assert balcan_nonseparable(margins, gamma=tiny).value == math.inf
        for radius in (0.0, tiny, 1.0, huge, math.inf):
            value = perceptron_hinge(margins, radius, margins=margins).value
            assert value >= 0 and not math.isnan(value)
        for eta in (tiny, 1.0, huge):
            for g in (0.0, huge, math.inf):
                value = ogd_regret(eta, margins, g).value
                assert value >= 0 and not math.isnan(value)


@pytest.mark.parametrize("scale", [1.0, 1e200, 1e-170, 1e300, 1e-300])
@pytest.mark.parametrize(
    "make",
    [
        pytest.param(lambda: Perceptron(), id="perceptron"),
        pytest.param(lambda: Perceptron(normalize=True), id="perceptron-normalize"),
        pytest.param(lambda: OnlineGradientDescent(eta=3.0), id="ogd"),
    ],
)
def test_the_proofs_claims_hold_at_every_scale(make, scale):
    """‖w‖² of instances of size 1e200 is beyond the floats: the claims are checked in units."""
    X, y = separable()
    y = y.copy()
    y[::5] *= -1  # some updates past the first: U is a comparator
    replay = Replay(instances=X * scale, labels=y)
    tr = play(make(), replay, rounds=len(y), snapshots=True)
    claims = tr.proof_claims(HalfspaceCertificate(U, realizable=False))
    assert claims.holds and len(claims.rounds) == tr.observed("updates") > 1
    plain = play(make(), Replay(instances=X, labels=y), rounds=len(y), snapshots=True)
    reference = plain.proof_claims(HalfspaceCertificate(U, realizable=False))
    unit_sized = scale == 1.0 or getattr(make(), "normalize", False)
    assert (claims.unit_exponent == 0) == unit_sized
    radius = math.ldexp(claims.radius, claims.unit_exponent)
    assert radius == pytest.approx(reference.radius * (1.0 if unit_sized else scale), rel=1e-12)


def test_the_batch_perceptrons_theorem_needs_a_separable_set():
    X, y = separable()
    y = y.copy()
    y[::7] *= -1
    tr = game(BatchPerceptron(), X, y, separator=None)
    assert tr.bound is None  # no halfspace at all
    stream = NoisyStream(4, 0.2, 1.0, np.random.default_rng(3), rate=0.2)
    tr = play(BatchPerceptron(), stream, rounds=100)
    assert tr.bound.reason == (
        "realizable fails: the certificate is a comparator, not claimed to separate the rounds"
    )
    assert tr.bound.verdict(tr.observed("updates")) is None


@pytest.mark.parametrize("theorem", ["mistakes", "regret"])
def test_ogd_on_norms_beyond_the_floats(theorem):
    X = np.array([[1.5e308, 1.5e308], [-1.0, 0.5]])
    y = np.array([1, -1])
    tr = game(OnlineGradientDescent(theorem=theorem), X, y)
    assert tr.status == "complete" and tr.bound.value == math.inf
    if theorem == "mistakes":  # Theorem 21.16 names R
        assert tr.bound.reason.startswith("norms finite fails")
    else:  # Theorem 21.15: Σ‖v_t‖² beyond the floats, a true +inf
        assert tr.bound.applies
