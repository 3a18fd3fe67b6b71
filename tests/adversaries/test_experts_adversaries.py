"""HalvingLowerBound, ExpertStream, TwoConstantExperts and AdviceReplay."""

import numpy as np
import pytest

from adversaries.experts import AdviceReplay, ExpertStream, TwoConstantExperts
from adversaries.halving import HalvingLowerBound
from game import ParameterError, play
from game.players import learners_for, lookup
from game.testing import RandomLearner
from game.theory import ExpertCertificate, certificate_from_dict
from learners.experts import ExponentialWeights, Halving, WeightedMajority

DETERMINISTIC = learners_for("advice", deterministic=True)

# -- HalvingLowerBound ---------------------------------------------------------


def test_halving_lower_bound_advice_is_the_bits_of_each_index():
    adv = HalvingLowerBound(3)
    assert adv.size == 8
    assert adv.advice(1).tolist() == [-1, 1, -1, 1, -1, 1, -1, 1]
    assert adv.advice(3).tolist() == [-1, -1, -1, -1, 1, 1, 1, 1]
    assert adv.advice(2).dtype == np.int8 and not adv.advice(2).flags.writeable


def test_halving_lower_bound_takes_n_or_a_power_of_two():
    assert HalvingLowerBound(experts=1024).size == 1024
    for kwargs, parameter in (({}, "n"), ({"n": 3, "experts": 8}, "experts")):
        with pytest.raises(ParameterError, match="either n or experts") as info:
            HalvingLowerBound(**kwargs)
        assert info.value.parameter == parameter
    with pytest.raises(ParameterError, match="power of two"):
        HalvingLowerBound(experts=1000)
    with pytest.raises(ParameterError, match="n must be an integer between 0 and 26, got 27"):
        HalvingLowerBound(27)
    assert HalvingLowerBound(np.int64(3)).size == 8


def test_halving_makes_exactly_log2_n_mistakes():
    tr = play(Halving(), HalvingLowerBound(experts=1024), rounds=100, snapshots=True)
    assert len(tr) == 10 and int(tr.mistakes.sum()) == 10
    assert tr.certificate_verified and tr.summary()["forced"] and tr.within_bound
    # every round halves the consistent set: 512, 256, …, 1
    assert tr.snapshot("consistent").tolist() == [2**k for k in range(9, -1, -1)]


@pytest.mark.parametrize("name", DETERMINISTIC)
def test_every_deterministic_advice_learner_errs_every_round(name):
    tr = play(lookup(name)(), HalvingLowerBound(6), rounds=100)
    assert int(tr.mistakes.sum()) == 6 == len(tr)
    assert tr.certificate_verified and tr.summary()["forced"]


def test_halving_lower_bound_with_one_expert_is_an_empty_game():
    tr = play(Halving(), HalvingLowerBound(0), rounds=5)
    assert len(tr) == 0 and tr.certificate == ExpertCertificate(0, experts=1)


def test_halving_lower_bound_certificate_spells_the_outcomes():
    tr = play(RandomLearner(np.random.default_rng(0)), HalvingLowerBound(8), rounds=8)
    bits = (tr.labels > 0).astype(int)
    assert tr.certificate.expert == int(np.sum(bits << np.arange(8)))


# -- ExpertStream --------------------------------------------------------------


@pytest.mark.parametrize("graded", [False, True])
@pytest.mark.parametrize("m", [0, 1, 7])
def test_expert_stream_best_expert_errs_exactly_m_times_and_the_others_more(m, graded):
    s = ExpertStream(50, m, np.random.default_rng(m), horizon=40, error_rate=0.05, graded=graded)
    wrong = ((s.advice >= 0) != (s.outcomes[:, None] > 0)).sum(axis=0)
    assert wrong[s.best] == m
    assert np.all(np.delete(wrong, s.best) > m)
    assert s.certificate().realizable == (m == 0)
    if graded:
        assert s.advice.dtype == np.float64
        assert np.all((np.abs(s.advice) > 0) & (np.abs(s.advice) <= 1))
    else:
        assert s.advice.dtype == np.int8 and set(np.unique(s.advice)) <= {-1, 1}


def test_expert_stream_plays_its_rows_and_certifies_the_best():
    s = ExpertStream(16, 0, np.random.default_rng(4), horizon=30, best=5)
    tr = play(WeightedMajority(), s, rounds=100)
    assert len(tr) == 30 and tr.certificate == ExpertCertificate(5, experts=16)
    assert tr.certificate_verified
    assert np.array_equal(tr.instances, s.advice[:30])  # its rows, as the referee's own copy
    assert not np.shares_memory(tr.instances, s.advice)


def test_expert_stream_same_seed_same_game():
    def game():
        return ExpertStream(20, 2, np.random.default_rng(7), horizon=25, graded=True)

    a, b = game(), game()
    assert np.array_equal(a.advice, b.advice) and np.array_equal(a.outcomes, b.outcomes)


def test_expert_stream_validates_its_parameters():
    rng = np.random.default_rng(0)
    cases = [
        ({"best_mistakes": 5, "horizon": 5}, "horizon", "horizon must be ≥ 6"),
        ({"best": 4}, "best", "best must be an expert index below 4"),
        ({"error_rate": 0.0}, "error_rate", "error_rate must be a number in"),
        ({"experts": 1 << 20, "horizon": 1 << 9}, "horizon", "a stream holds"),
        ({"graded": 1}, "graded", "graded must be one of False, True"),
        ({"experts": True}, "experts", "experts must be an integer between 1 and 268435456"),
    ]
    for kwargs, parameter, message in cases:
        with pytest.raises(ParameterError, match=message) as info:
            ExpertStream(**({"experts": 4, "best_mistakes": 0, "rng": rng} | kwargs))
        assert info.value.parameter == parameter


def test_expert_stream_with_one_expert():
    s = ExpertStream(1, 2, np.random.default_rng(0), horizon=2)
    assert ((s.advice[:, 0] >= 0) != (s.outcomes > 0)).sum() == 2


# -- TwoConstantExperts --------------------------------------------------------


@pytest.mark.parametrize("name", DETERMINISTIC)
def test_two_constant_experts_force_a_mistake_every_round(name):
    tr = play(lookup(name)(), TwoConstantExperts(horizon=30), rounds=100)
    assert len(tr) == 30 and bool(tr.mistakes.all())
    assert tr.summary()["forced"]
    assert tr.expert_losses(loss="zero-one").min() <= 15
    assert tr.regret(loss="zero-one")[-1] >= 15


def test_two_constant_experts_certificate_is_the_better_expert():
    class AlwaysPlus:
        def predict(self, x):
            return 1.0

        def update(self, x, y):
            return False

    tr = play(AlwaysPlus(), TwoConstantExperts(horizon=10), rounds=10)
    assert tr.certificate == ExpertCertificate(0, experts=2)  # −1 every round: never wrong
    assert tr.certificate_verified
    tr = play(WeightedMajority(), TwoConstantExperts(horizon=9), rounds=9)
    assert not tr.certificate.realizable


def test_exponential_weights_mixture_is_not_forced_by_two_constant_experts():
    tr = play(
        ExponentialWeights(loss="absolute"),
        TwoConstantExperts(horizon=40),
        rounds=40,
        loss="absolute",
    )
    assert tr.observed("loss") <= tr.bound.value  # Theorem 16.3 holds; mistakes do not matter


# -- AdviceReplay and the certificate ------------------------------------------


def test_advice_replay_certificate_is_the_best_expert():
    tr = play(Halving(), AdviceReplay([[1, -1, 1], [1, 1, -1]], [1, -1]), rounds=5)
    assert tr.certificate == ExpertCertificate(2, experts=3)
    tr = play(Halving(), AdviceReplay([[1, -1], [-1, 1]], [1, 1]), rounds=5)
    assert tr.certificate == ExpertCertificate(0, experts=2, realizable=False)


def test_advice_replay_validates():
    cases = [
        (([[1, 1]], [1, 1]), "outcomes", "one entry per row"),
        (([[2, 1]], [1]), "advice", r"\[-1, 1\]"),
        (([[1, 1], [1]], [1, 1]), "advice", r"\[-1, 1\]"),
        (([[1, 1]], [0]), "outcomes", "-1 and 1"),
    ]
    for args, parameter, message in cases:
        with pytest.raises(ParameterError, match=message) as info:
            AdviceReplay(*args)
        assert info.value.parameter == parameter


def test_expert_certificate_round_trips_and_reads_lists_of_vectors():
    c = ExpertCertificate(np.int64(2), experts=3, realizable=False)
    assert certificate_from_dict(c.to_dict()) == c
    rows = [np.array([1, 1, -1]), np.array([0.0, 0.2, 0.0])]
    assert c.labels(rows).tolist() == [-1, 1]
    assert c.labels(np.stack(rows)).tolist() == [-1, 1]
    with pytest.raises(ParameterError, match="expert must be an integer ≥ 0"):
        ExpertCertificate(-1)


def test_a_false_expert_certificate_is_caught():
    from game.errors import CertificateError

    class Liar(AdviceReplay):
        def certificate(self):
            return ExpertCertificate(1, experts=2)

    with pytest.raises(CertificateError, match="disagrees with round 2"):
        play(Halving(), Liar([[1, 1], [1, -1]], [1, 1]), rounds=2)
