"""Halving, Weighted Majority, Exponential Weights and Randomized Weighted Majority.

Each learner is checked against a plain reference written from its definition
(lecture 16 of Abernethy, seed 004; Littlestone & Warmuth for WM), on small games
that can be pasted.
"""

import math

import numpy as np
import pytest

from game import play
from game.errors import ParameterError, ProtocolError
from game.theory import get_loss
from game.theory.concepts import FiniteClass, thresholds
from learners.experts import (
    ExponentialWeights,
    Halving,
    RandomizedWeightedMajority,
    WeightedMajority,
    tuned_eta,
)

# -- references written from the definitions ---------------------------------


def halving_reference(advice, outcomes):
    """Predictions of 004's Halving: +1 iff |{i ∈ C: f_i ≥ 0}| ≥ |C|/2."""
    alive = set(range(advice.shape[1]))
    out = []
    for f, y in zip(advice, outcomes, strict=True):
        plus = sum(1 for i in alive if f[i] >= 0)
        out.append(1.0 if 2 * plus >= len(alive) else -1.0)
        alive = {i for i in alive if (1 if f[i] >= 0 else -1) == y}
    return out


def weighted_majority_reference(advice, outcomes, beta):
    n = advice.shape[1]
    mistakes = [0] * n
    out = []
    for f, y in zip(advice, outcomes, strict=True):
        signs = [1 if v >= 0 else -1 for v in f]
        m0 = min(mistakes)
        score = sum(beta ** (mistakes[i] - m0) * signs[i] for i in range(n))
        out.append(1.0 if score >= 0 else -1.0)
        mistakes = [mistakes[i] + (signs[i] != y) for i in range(n)]
    return out


def ewa_reference(advice, outcomes, eta, loss):
    """EWA's predictions and potentials Φ_t = −ln Σ exp(−η L_i), in exact log-sum-exp."""
    fn = get_loss(loss)
    L = np.zeros(advice.shape[1])
    ps, phis = [], [-math.log(advice.shape[1])]
    for f, y in zip(advice, outcomes, strict=True):
        a = -eta * L
        w = np.exp(a - a.max())
        ps.append(float(np.sum(w * f) / np.sum(w)))
        L = L + np.asarray(fn(np.asarray(f, dtype=float), y))
        a = -eta * L
        phis.append(-(a.max() + math.log(np.sum(np.exp(a - a.max())))))
    return ps, phis


def random_game(seed, n, rounds, graded=False):
    rng = np.random.default_rng(seed)
    if graded:
        advice = rng.uniform(-1, 1, (rounds, n))
        advice[rng.random((rounds, n)) < 0.2] = 0.0
    else:
        advice = (2 * rng.integers(0, 2, (rounds, n)) - 1).astype(np.int8)
    outcomes = 2 * rng.integers(0, 2, rounds) - 1
    return advice, outcomes


def drive(learner, advice, outcomes):
    ps = []
    for f, y in zip(advice, outcomes, strict=True):
        ps.append(learner.predict(f))
        learner.update(f, int(y))
    return ps


# -- Halving -------------------------------------------------------------------


def test_halving_breaks_ties_to_plus_one_and_drops_the_wrong_experts():
    h = Halving()
    f = np.array([1, -1, 1, -1], dtype=np.int8)
    assert h.predict(f) == 1.0
    assert h.update(f, -1) is True
    assert h.consistent.tolist() == [1, 3]
    assert h.snapshot() == {"consistent": 2}
    assert h.update(np.array([1, -1, 1, -1], dtype=np.int8), -1) is False


def test_halving_with_no_consistent_expert_left_predicts_plus_one():
    h = Halving()
    f = np.array([1, 1], dtype=np.int8)
    h.predict(f)
    h.update(f, -1)
    assert h.snapshot() == {"consistent": 0}
    assert h.predict(np.array([-1, -1], dtype=np.int8)) == 1.0


@pytest.mark.parametrize(("n", "graded"), [(7, False), (300, False), (5000, True)])
def test_halving_matches_the_definition(n, graded):
    # 5000 experts pass the switch from a mask to an index array (at N/64)
    rng = np.random.default_rng(n)
    rounds = 40
    advice, outcomes = random_game(n, n, rounds, graded)
    perfect = int(rng.integers(n))
    outcomes = np.where(advice[:, perfect] >= 0, 1, -1)
    assert drive(Halving(), advice, outcomes) == halving_reference(advice, outcomes)


def test_halving_over_a_class_plays_points():
    thresholds = np.array([[1 if x >= k else -1 for x in range(4)] for k in range(5)])
    h = Halving(concept_class=thresholds)
    assert h.snapshot() == {"consistent": 5}
    assert (h.predict(2), h.update(2, -1)) == (1.0, True)
    assert h.consistent.tolist() == [3, 4]
    with pytest.raises(ValueError, match="point indices"):
        h.predict(np.array([1, 1, 1, 1, 1]))
    with pytest.raises(ValueError, match="outside"):
        h.predict(9)


def test_halving_class_object_is_duck_typed():
    class Cls:
        matrix = np.array([[1, -1], [-1, 1]], dtype=np.int8)

    h = Halving(concept_class=Cls())
    assert isinstance(h.concept_class, FiniteClass)
    assert np.array_equal(h.concept_class.matrix, Cls.matrix)
    assert h.predict(0) == 1.0


def test_halving_shares_a_finite_class_as_it_is():
    cls = thresholds(4)
    assert Halving(concept_class=cls).concept_class is cls


def test_halving_rejects_points_without_a_class_and_bad_matrices():
    with pytest.raises(ValueError, match="needs a concept_class"):
        Halving().predict(3)
    with pytest.raises(ParameterError, match="concept_class must be a 2-D matrix of") as info:
        Halving(concept_class=[[0, 1]])
    assert info.value.parameter == "concept_class"
    with pytest.raises(ParameterError, match="experts must be the class's 1 hypotheses") as info:
        Halving(concept_class=[[1, 1]], experts=3)
    assert info.value.parameter == "experts"


def test_halving_rejects_advice_of_the_wrong_length_naming_the_player():
    from adversaries.experts import AdviceReplay

    class Ragged(AdviceReplay):
        def instance(self, history):
            x = super().instance(history)
            return None if x is None else x[: 3 - len(history) % 2]

    with pytest.raises(ProtocolError, match=r"halving, round 2.*3 entries"):
        play(Halving(), Ragged([[1, 1, 1]] * 3, [1, 1, 1]), rounds=3)


def test_halving_bound_needs_a_perfect_expert():
    from adversaries.experts import AdviceReplay

    tr = play(Halving(), AdviceReplay([[1, -1, 1], [1, 1, -1]], [1, 1]), rounds=2)
    assert tr.bound.value == math.log2(3) and tr.bound.applies
    assert (
        str(tr.bound.hypotheses[0])
        == "realizable holds: 1 of 3 experts right on every round played"
    )
    tr = play(Halving(), AdviceReplay([[1, -1], [-1, 1]], [1, 1]), rounds=2)
    assert not tr.bound.applies and tr.bound.verdict(tr.observed("mistakes")) is None
    assert tr.bound.reason == "realizable fails: no expert is right on every round played"
    assert Halving.bound_curve(tr) is None


# -- Weighted Majority ---------------------------------------------------------


@pytest.mark.parametrize("beta", [0.1, 0.5, 0.9])
@pytest.mark.parametrize("graded", [False, True])
def test_weighted_majority_matches_the_definition(beta, graded):
    advice, outcomes = random_game(3, 9, 80, graded)
    assert drive(WeightedMajority(beta=beta), advice, outcomes) == weighted_majority_reference(
        advice, outcomes, beta
    )


def test_weighted_majority_snapshot_is_log2_of_the_total_weight():
    wm = WeightedMajority(beta=0.25, experts=4)
    assert wm.snapshot() == {"log2_weight": 2.0}
    f = np.array([1, 1, -1, -1], dtype=np.int8)
    wm.predict(f)
    wm.update(f, 1)
    assert wm.snapshot()["log2_weight"] == pytest.approx(math.log2(2 + 2 * 0.25))
    assert wm.weights.tolist() == pytest.approx([0.4, 0.4, 0.1, 0.1])


def test_weighted_majority_validates_beta():
    for bad in (0.0, 1.0, -0.5, float("nan")):
        with pytest.raises(ValueError, match="beta"):
            WeightedMajority(beta=bad)


def test_weighted_majority_keeps_exact_weights_far_past_underflow():
    # 3000 mistakes for expert 0 would underflow 0.5**3000; then expert 1 errs 2990 times
    wm = WeightedMajority(beta=0.5)
    f = np.array([1, -1], dtype=np.int8)
    for _ in range(3000):
        wm.predict(f)
        wm.update(f, -1)
    for _ in range(2990):
        wm.predict(f)
        wm.update(f, 1)
    # expert 1 made 2990 mistakes, expert 0 made 3000: weights 2**-2990 : 2**-3000
    assert wm.weights.tolist() == pytest.approx([1 / 1025, 1024 / 1025])
    assert wm.predict(f) == -1.0
    assert wm.snapshot()["log2_weight"] == pytest.approx(-2990 + math.log2(1 + 2**-10))


# -- Exponential Weights -------------------------------------------------------


@pytest.mark.parametrize("loss", ["absolute", "squared", "zero-one"])
@pytest.mark.parametrize("graded", [False, True])
def test_exponential_weights_matches_the_definition(loss, graded):
    advice, outcomes = random_game(5, 11, 120, graded)
    ewa = ExponentialWeights(eta=0.7, loss=loss)
    ps, phis = [], [None]
    for f, y in zip(advice, outcomes, strict=True):
        ps.append(ewa.predict(f))
        ewa.update(f, int(y))
        phis.append(ewa.snapshot()["potential"])
    want_ps, want_phis = ewa_reference(advice, outcomes, 0.7, loss)
    assert ps == pytest.approx(want_ps, abs=1e-12)
    assert phis[1:] == pytest.approx(want_phis[1:], rel=1e-12)


def test_exponential_weights_first_prediction_is_the_plain_average():
    ewa = ExponentialWeights()
    assert ewa.predict(np.array([1.0, -1.0, 0.5, 0.5])) == 0.25


def test_exponential_weights_initial_potential_is_minus_ln_n():
    assert ExponentialWeights(experts=8).snapshot() == {"potential": pytest.approx(-math.log(8))}
    assert ExponentialWeights().snapshot() == {}


def test_exponential_weights_survives_huge_losses():
    ewa = ExponentialWeights(eta=50.0, loss="squared", experts=3)
    f = np.array([1.0, 0.5, 0.0])  # squared losses 1, 9/16 and 1/4 a round against −1
    for _ in range(10_000):
        p = ewa.predict(f)
        ewa.update(f, -1)
    assert math.isfinite(p) and -1.0 <= p <= 1.0
    assert p == pytest.approx(0.0)  # all weight on the expert that says 0
    phi = ewa.snapshot()["potential"]
    assert phi == pytest.approx(50.0 * 0.25 * 10_000, rel=1e-12)


def test_exponential_weights_tuned_eta_and_bound():
    ewa = ExponentialWeights(loss_bound=8.0)
    assert ewa.learning_rate is None
    f = np.ones(16)
    ewa.predict(f)
    assert ewa.learning_rate == pytest.approx(tuned_eta(16, 8.0))
    assert tuned_eta(16, 8.0) == pytest.approx(math.log1p(math.sqrt(2 * math.log(16) / 8.0)))
    with pytest.raises(ValueError, match="loss_bound"):
        tuned_eta(16, 0.0)
    with pytest.raises(ValueError, match="experts"):
        tuned_eta(1, 1.0)


@pytest.mark.parametrize(
    ("learner", "n", "message"),
    [
        (ExponentialWeights(), True, "n must be an integer ≥ 1, got True"),
        (ExponentialWeights(), 0, "n must be an integer ≥ 1, got 0"),
        (ExponentialWeights(), -1, "n must be an integer ≥ 1, got -1"),
        (ExponentialWeights(), 2.5, "n must be an integer ≥ 1, got 2.5"),
        (ExponentialWeights(loss_bound=8.0), 1, "n must be an integer ≥ 2, got 1"),
    ],
)
def test_learning_rate_for_refuses_a_bad_number_of_experts_naming_n(learner, n, message):
    with pytest.raises(ParameterError, match=f"^{message}$") as info:
        learner.learning_rate_for(n)
    assert info.value.parameter == "n"


def test_learning_rate_for_takes_numpy_integers():
    assert ExponentialWeights(eta=0.5).learning_rate_for(np.int64(1)) == 0.5
    tuned = ExponentialWeights(loss_bound=8.0).learning_rate_for(np.uint8(16))
    assert tuned == pytest.approx(tuned_eta(16, 8.0))


def test_exponential_weights_bound_only_for_its_convex_loss():
    from adversaries.experts import ExpertStream

    def game(loss, learner_loss):
        s = ExpertStream(16, 2, np.random.default_rng(0), horizon=50, graded=True)
        return play(ExponentialWeights(eta=0.5, loss=learner_loss), s, rounds=50, loss=loss)

    tr = game("absolute", "absolute")
    assert tr.bound.quantity == "loss" and tr.within_bound and tr.bound.applies
    assert [h.name for h in tr.bound.hypotheses] == [
        "loss convex",
        "losses in [0, 1]",
        "experts graded by the game's loss",
    ]
    zero_one = game("zero-one", "zero-one")
    assert zero_one.bound.reason == (
        "loss convex fails: the zero-one loss is not convex in the prediction"
    )
    assert ExponentialWeights.bound_curve(zero_one) is None
    other = game("squared", "absolute")  # not the loss it learned from
    assert other.bound.reason == (
        "experts graded by the game's loss fails: the weights are built from the absolute "
        "loss, the game's is the squared loss"
    )
    assert ExponentialWeights.bound_curve(other) is None


def test_exponential_weights_grades_advice_beyond_one_by_its_loss_and_the_referee_refuses_it():
    # used directly, advice of 2 loses |2 − 1|/2 = 1/2 against +1 (the absolute loss),
    # never "wrong"; in a game the referee refuses such advice before round 1
    from adversaries.replay import Replay

    advice = np.array([2, -1], dtype=np.int64)
    ewa = ExponentialWeights(eta=1.0)
    for _ in range(10):
        ewa.predict(advice)
        ewa.update(advice, 1)
    assert ewa.cumulative_losses.tolist() == [5.0, 10.0]
    with pytest.raises(ProtocolError, match="presents vector: they cannot play each other"):
        play(ExponentialWeights(), Replay(instances=np.array([advice] * 10), labels=[1] * 10),
             rounds=10, loss="absolute")  # fmt: skip


@pytest.mark.parametrize("n", [3, 5000])  # short and long advice are checked two ways
@pytest.mark.parametrize("values", [[1, -1], [1, 0], [2, -1], [127, 1], [-128, -1], [-3, 1]])
@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.uint8])
def test_exponential_weights_grades_integer_advice_by_its_loss(n, values, dtype):
    f = np.resize(np.array(values).astype(dtype), n)
    ewa = ExponentialWeights(eta=1.0, loss="absolute")
    ewa.predict(f)
    ewa.update(f, 1)
    assert ewa.cumulative_losses.tolist() == get_loss("absolute")(f.astype(float), 1).tolist()


@pytest.mark.parametrize("bad", [math.nan, math.inf])
def test_exponential_weights_refuses_advice_that_is_not_a_number(bad):
    ewa = ExponentialWeights(eta=1.0)
    f = np.array([0.5, bad, -0.25])
    ewa.predict(f)
    with pytest.raises(ValueError, match=r"finite numbers, got .* from expert 1"):
        ewa.update(f, 1)


def test_weighted_majority_reads_any_advice_by_its_sign():
    # int advice of 2 is a +1 label (not a label 2 that is wrong whatever the outcome)
    wm = WeightedMajority(beta=0.5)
    f = np.array([2, -1, -3], dtype=np.int64)
    assert wm.predict(f) == -1.0 and wm.update(f, 1)  # two labels −1 against one +1
    assert wm._weights.losses().tolist() == [0.0, 1.0, 1.0]
    assert wm.predict(f) == 1.0  # 1 against 1/2 + 1/2: a tie goes to +1


def test_exponential_weights_stays_finite_over_a_million_rounds_of_losses():
    # every expert keeps losing, at rates 1, 1/2 and 1/3 per round
    ewa = ExponentialWeights(eta=1.0, loss="absolute")
    advice = [np.array(a, dtype=np.int8) for a in ([-1, -1, -1], [-1, 1, -1], [-1, -1, 1])]
    low = high = 0.0
    for t in range(1_000_000):
        f = advice[t % 3] if t % 6 < 3 else advice[0]
        p = ewa.predict(f)
        low, high = min(low, p), max(high, p)
        ewa.update(f, 1)
    assert -1.0 <= low <= high <= 1.0
    phi = ewa.snapshot()["potential"]
    losses = ewa.cumulative_losses
    assert math.isfinite(phi) and losses.min() > 300_000
    want = losses.min() - math.log(np.sum(np.exp(-(losses - losses.min()))))
    assert phi == pytest.approx(want, rel=1e-12)


# -- Randomized Weighted Majority ----------------------------------------------


def test_randomized_weighted_majority_logs_the_exact_mistake_probability():
    advice, outcomes = random_game(11, 6, 60)
    rwm = RandomizedWeightedMajority(beta=0.5, rng=np.random.default_rng(1))
    mistakes = np.zeros(6)
    for f, y in zip(advice, outcomes, strict=True):
        w = 0.5 ** (mistakes - mistakes.min())
        p = rwm.predict(f)  # the mixture: P(+1) = (1 + p)/2
        assert p == pytest.approx(float(np.sum(w * f) / w.sum()), abs=1e-15)
        rwm.update(f, int(y))
        wrong = f != y
        logged = rwm.extras()
        assert logged["mistake_probability"] == abs(p - y) / 2
        assert logged["mistake_probability"] == pytest.approx(w[wrong].sum() / w.sum())
        assert logged["drawn_label"] in (-1.0, 1.0)
        assert logged["drawn_mistake"] == float(logged["drawn_label"] != y)
        mistakes += wrong


def test_randomized_weighted_majority_draws_by_the_mixture():
    # P(+1) = 3/4 on round 1; over 4000 fresh learners the draws say +1 about 3/4 of the time
    f = np.array([1, 1, 1, -1], dtype=np.int8)
    rng = np.random.default_rng(2)
    plus = 0
    for _ in range(4000):
        rwm = RandomizedWeightedMajority(rng=rng)
        assert rwm.predict(f) == 0.5
        rwm.update(f, 1)
        plus += rwm.extras()["drawn_label"] == 1.0
    assert abs(plus / 4000 - 0.75) < 0.03


def test_randomized_weighted_majority_draws_after_the_label_by_default():
    # the coin is drawn in update: the same generator state gives the same draw
    # whatever the label, and predict draws nothing
    f = np.array([1, -1], dtype=np.int8)
    a = RandomizedWeightedMajority(rng=np.random.default_rng(4))
    b = RandomizedWeightedMajority(rng=np.random.default_rng(4))
    assert a.predict(f) == b.predict(f) == 0.0
    a.update(f, 1)
    b.update(f, -1)
    assert a.extras()["drawn_label"] == b.extras()["drawn_label"]
    assert a.rng.random() == b.rng.random()


def test_randomized_weighted_majority_follows_an_expert_with_weight():
    rwm = RandomizedWeightedMajority(beta=0.5, rng=np.random.default_rng(2), reveal="draw")
    f = np.array([1, -1, 1], dtype=np.int8)
    for _ in range(60):  # expert 1 always right: the others' weights vanish
        rwm.predict(f)
        rwm.update(f, -1)
    assert {rwm.predict(f) for _ in range(50)} == {-1.0}


def test_randomized_weighted_majority_weighs_the_labels_of_graded_advice():
    rwm = RandomizedWeightedMajority(rng=np.random.default_rng(3))
    f = np.array([0.25, -0.5, 0.75, 0.0])  # labels +1, −1, +1, +1
    assert rwm.predict(f) == 0.5
    draw = RandomizedWeightedMajority(rng=np.random.default_rng(3), reveal="draw")
    assert {draw.predict(f) for _ in range(60)} == {-1.0, 1.0}


def test_randomized_weighted_majority_refuses_an_unknown_reveal():
    with pytest.raises(ParameterError, match="reveal"):
        RandomizedWeightedMajority(reveal="coin")


def test_randomized_weighted_majority_same_seed_same_game():
    from adversaries.experts import ExpertStream

    def game():
        stream = ExpertStream(32, 3, np.random.default_rng(0), horizon=100)
        return play(RandomizedWeightedMajority(rng=np.random.default_rng(9)), stream, rounds=100)

    a, b = game(), game()
    assert a.digest == b.digest
    assert a.bound.quantity == "mistake_probability" and a.within_bound and a.bound.applies


def against_two_constant_experts(reveal, horizon=1000, seed=0):
    from adversaries.experts import TwoConstantExperts

    rwm = RandomizedWeightedMajority(rng=np.random.default_rng(seed), reveal=reveal)
    return play(rwm, TwoConstantExperts(horizon=horizon), rounds=horizon)


def test_randomized_weighted_majority_shown_its_distribution_by_two_constant_experts():
    # the adversary answers against the sign of the mixture: every "mistake" of the
    # transcript's predictions (the mixture's sign) is forced, but the coin, drawn
    # after the label, errs about as often as the expected mistakes say, ~7/12 a round
    tr = against_two_constant_experts("distribution")
    expected = tr.observed("mistake_probability")
    realised = tr.observed("drawn_mistake")
    assert tr.bound.applies and tr.bound.verdict(expected) is True
    assert str(tr.bound.hypotheses[0]) == (
        "oblivious adversary holds: the adversary saw the distribution, not the draw"
    )
    assert expected == pytest.approx(1000 * 7 / 12, abs=1)  # q = 1/2, 2/3, 1/2, …
    assert abs(realised - expected) < 4 * math.sqrt(1000 / 4)  # four standard deviations
    assert realised < 0.65 * len(tr)
    absolute = get_loss("absolute")(tr.predictions, tr.labels)
    assert absolute.tolist() == tr.extras["mistake_probability"].tolist()  # q = |p − y|/2
    s = tr.summary()  # the mixture's sign errs every round, yet that is no forced mistake:
    assert s["mistakes"] == len(tr) and s["forced"] is None  # the learner is randomised
    assert "deterministic learner fails" in s["lower_bound_not_applicable"]


def test_randomized_weighted_majority_shown_its_draw_by_two_constant_experts():
    # the adaptive game: the adversary sees the coin and answers against it, so the
    # learner errs every round; E[M] ≤ … is not applicable, the adversary saw the draw
    tr = against_two_constant_experts("draw")
    assert tr.observed("mistakes") == tr.observed("drawn_mistake") == 1000
    assert not tr.bound.applies and tr.bound.verdict(1000) is None
    assert tr.bound.reason == (
        "oblivious adversary fails: the adversary saw the learner's coin before labelling"
    )
    assert "not applicable" in str(tr.bound)
    assert RandomizedWeightedMajority.bound_curve(tr) is None


# -- votes near even ----------------------------------------------------------------


def test_a_vote_a_rounding_error_off_even_keeps_its_exact_sign():
    # C errs 55 times, then A and B split and C decides: 1 − 1 − 2⁻⁵⁵ < 0, though
    # 1 + (−1 − 2⁻⁵⁵) rounds to 0 in one order of the additions
    wm = WeightedMajority(beta=0.5)
    wrong_c = np.array([1, 1, -1], dtype=np.int8)
    for _ in range(55):
        wm.predict(wrong_c)
        wm.update(wrong_c, 1)
    assert wm.predict(np.array([1, -1, -1], dtype=np.int8)) == -1.0
    assert wm.predict(np.array([-1, 1, 1], dtype=np.int8)) == 1.0


@pytest.mark.parametrize("way", ["numpy", "compiled"])
@pytest.mark.parametrize("seed", range(3))
def test_even_votes_are_exact_ties_whichever_way_the_sums_are_added(way, seed):
    # expert i advises bit t of index[i] (the halving lower bound's advice, its
    # experts shuffled): every round's vote is exactly even, and a sum added in
    # another order comes out a few last bits off zero, on either side
    from adversaries.experts import AdviceReplay
    from game.theory import compiled
    from learners.weight_kernels import available

    if way == "compiled" and not available():
        pytest.skip("numba is not installed (the fast extra)")
    bits = 12
    rng = np.random.default_rng(seed)
    index = rng.permutation(2**bits)
    advice = np.array([np.where((index >> t) & 1, 1, -1) for t in range(bits)], dtype=np.int8)
    outcomes = rng.choice([-1, 1], bits)
    with compiled(way == "compiled"):
        wm = play(WeightedMajority(beta=0.3), AdviceReplay(advice, outcomes), rounds=bits)
        ewa = play(ExponentialWeights(eta=0.7), AdviceReplay(advice, outcomes), rounds=bits)
    assert wm.predictions.tolist() == [1.0] * bits  # ties go to +1
    assert ewa.predictions.tolist() == [0.0] * bits


def test_advice_the_compiled_pass_does_not_take_is_weighed_by_numpy():
    advice = np.ma.masked_array((2 * np.arange(3000) % 4 - 1).astype(np.int8), mask=False)
    ewa, wm = ExponentialWeights(eta=0.3), WeightedMajority(beta=0.5)
    for learner in (ewa, wm):
        for t in range(4):  # each half of the experts errs twice
            learner.predict(advice)
            learner.update(advice, 1 if t % 2 else -1)
    assert ewa.predict(advice) == 0.0 and wm.predict(advice) == 1.0  # half the experts each way


def test_a_compiled_pass_that_fails_to_load_leaves_the_numpy_way(monkeypatch):
    import sys
    import types

    from learners import weight_kernels

    class Broken(types.ModuleType):
        def __getattr__(self, name):
            raise RuntimeError("cannot cache function 'run': no locator available")

    monkeypatch.setitem(sys.modules, "learners._weight_loop", Broken("learners._weight_loop"))
    monkeypatch.setattr(weight_kernels, "_state", {"enabled": True, "kernel": None, "failed": None})
    assert weight_kernels.weights_pass() is None and not weight_kernels.available()
    assert "RuntimeError: cannot cache" in weight_kernels._state["failed"]
    f = np.where(np.arange(2000) < 1500, 1, -1).astype(np.int8)
    ewa = ExponentialWeights(eta=1.0)
    assert ewa.predict(f) == 0.5 and ewa.update(f, 1)
