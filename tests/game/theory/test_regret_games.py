"""Minimax regret of expert advice, exactly: the value, the optimal players, a learner's worst case.

The solver's value is checked against Cover's closed form for two experts and
against a naive backward induction (no shifts, no sorting, no clamping, every
advice vector) for small games; its players' moves against the min-max they
claim to solve; the search of one learner's game tree against the game's
value, its own sequence and its refusals.
"""

import copy
import functools
import itertools
import math
import pickle
import time
from fractions import Fraction

import numpy as np
import pytest

from adversaries import MinimaxRegretAdversary, RegretForcingAdversary, TwoConstantExperts
from game import play
from game.errors import ParameterError, ProtocolError
from game.theory.bounds import forced_regret_lower_bound, minimax_regret_bound
from game.theory.solve import (
    MAX_REGRET_EXPERTS,
    RegretGame,
    max_regret_horizon,
    minimax_regret,
    worst_case_regret,
)
from learners import (
    ExponentialWeights,
    MinimaxForecaster,
    RandomizedWeightedMajority,
    WeightedMajority,
)


def cover(horizon: int) -> Fraction:
    """Cover (1965): T/2 − E[min(k, T − k)], k ~ Binomial(T, ½)."""
    expected = Fraction(
        sum(math.comb(horizon, k) * min(k, horizon - k) for k in range(horizon + 1)),
        2**horizon,
    )
    return Fraction(horizon, 2) - expected


def naive(experts: int, horizon: int) -> Fraction:
    """V(0, T) by the recursion as written: absolute losses, every advice vector, no shortcut."""

    @functools.cache
    def value(losses: tuple[int, ...], r: int) -> Fraction:
        if r == 0:
            return Fraction(-min(losses))
        best = None
        for advice in itertools.product((1, -1), repeat=experts):
            a, b = (
                value(tuple(m + (x != y) for m, x in zip(losses, advice, strict=True)), r - 1)
                for y in (1, -1)
            )
            inner = (a + b + 1) / 2 if abs(a - b) <= 1 else max(a, b)
            best = inner if best is None or inner > best else best
        return best

    return value((0,) * experts, horizon)


# -- the value ---------------------------------------------------------------------------------


@pytest.mark.parametrize("horizon", range(1, 17))
def test_two_experts_is_covers_closed_form(horizon):
    assert minimax_regret(2, horizon) == cover(horizon)


def test_the_first_values_of_two_experts():
    assert [minimax_regret(2, t) for t in range(1, 6)] == [
        Fraction(1, 2),
        Fraction(1, 2),
        Fraction(3, 4),
        Fraction(3, 4),
        Fraction(15, 16),
    ]


@pytest.mark.parametrize(("experts", "horizon"), [(1, 5), (2, 7), (3, 5), (4, 3)])
def test_the_solver_is_the_naive_backward_induction(experts, horizon):
    for t in range(horizon + 1):
        assert minimax_regret(experts, t) == naive(experts, t), (experts, t)


def test_one_expert_gives_nothing_to_regret():
    assert all(minimax_regret(1, t) == 0 for t in range(0, 40))


def test_no_round_no_regret():
    assert all(minimax_regret(n, 0) == 0 for n in range(1, MAX_REGRET_EXPERTS + 1))


def test_the_value_does_not_decrease_with_the_horizon_or_the_experts():
    table = {(n, t): minimax_regret(n, t) for n in range(1, 5) for t in range(0, 13 - n)}
    for (n, t), v in table.items():
        if (n, t + 1) in table:
            assert table[n, t + 1] >= v, (n, t)
        if (n + 1, t) in table:
            assert table[n + 1, t] >= v, (n, t)
    assert minimax_regret(3, 12) > minimax_regret(2, 12) > minimax_regret(1, 12)


def test_two_experts_over_sixteen_rounds_takes_under_a_second():
    from game.theory.solve._regret_games import _solve

    _solve.cache_clear()
    start = time.perf_counter()
    value = minimax_regret(2, 16)
    elapsed = time.perf_counter() - start
    print(f"minimax_regret(2, 16) = {value} in {elapsed * 1e3:.2f} ms")
    assert value == cover(16)
    assert elapsed < 1.0


def test_a_value_is_a_multiple_of_two_to_the_minus_horizon():
    for n, t in [(2, 16), (3, 10), (4, 8)]:
        assert (minimax_regret(n, t) * 2**t).denominator == 1


def test_too_many_experts_or_too_long_a_horizon_is_refused_by_name():
    with pytest.raises(ParameterError, match=r"^experts must be an integer between 1 and 4"):
        minimax_regret(5, 3)
    longest = max_regret_horizon(3)
    assert minimax_regret(3, 20) > 0 and longest >= 16
    with pytest.raises(
        ParameterError, match=rf"horizon must be an integer between 0 and {longest}"
    ):
        minimax_regret(3, longest + 1)
    for bad in (-1, 2.0, True):
        with pytest.raises(ParameterError, match="horizon"):
            minimax_regret(2, bad)
    with pytest.raises(ParameterError, match="experts"):
        minimax_regret(0, 3)


# -- the solved game's players -----------------------------------------------------------------


def states(game: RegretGame, most: int = 3):
    """Every (losses, t) with losses up to ``most`` and t a round of the game."""
    for t in range(1, game.horizon + 1):
        for losses in itertools.product(range(most + 1), repeat=game.experts):
            yield losses, t


def test_the_prediction_is_the_min_max_and_exact_in_a_float():
    game = RegretGame(2, 6)
    grid = [Fraction(k, 8) for k in range(-8, 9)]
    for losses, t in states(game, most=2):
        for advice in itertools.product((1, -1), repeat=2):
            p = game.prediction(losses, advice, t)
            assert Fraction(float(p)) == p and -1 <= p <= 1
            r = game.horizon - t + 1
            assert (p * 2 ** max(r - 1, 0)).denominator == 1  # dyadic

            def worst(q, losses=losses, advice=advice, t=t):
                after = [
                    [m + (a != y) for m, a in zip(losses, advice, strict=True)] for y in (1, -1)
                ]
                return max(
                    abs(q - 1) / 2 + game.value_to_go(after[0], t + 1),
                    abs(q + 1) / 2 + game.value_to_go(after[1], t + 1),
                )

            assert worst(p) == game.advice_value(losses, advice, t)
            assert all(worst(q) >= worst(p) for q in grid)


def test_every_prediction_of_larger_games_is_a_float_exactly():
    for n, horizon in [(2, 16), (3, 10), (4, 6)]:
        game = RegretGame(n, horizon)
        for losses, t in states(game, most=1 if n > 2 else 2):
            for advice in itertools.product((1, -1), repeat=n):
                p = game.prediction(losses, advice, t)
                assert Fraction(float(p)) == p


def test_the_value_to_go_is_the_best_advice_value():
    game = RegretGame(3, 5)
    for losses, t in states(game, most=2):
        move = game.adversary_move(losses, t)
        values = [game.advice_value(losses, a, t) for a in itertools.product((1, -1), repeat=3)]
        assert game.advice_value(losses, move, t) == max(values) == game.value_to_go(losses, t)
    assert game.value_to_go([0, 0, 0], 1) == game.value
    assert game.value_to_go([2, 1, 3], 6) == -1  # the game is over: minus the best loss


def test_the_outcome_maximises_loss_plus_value_to_go():
    game = RegretGame(2, 6)
    for losses, t in states(game, most=2):
        advice = game.adversary_move(losses, t)
        for p in (-1.0, -0.3, 0.0, 0.25, 1.0):
            y = game.outcome(losses, advice, p, t)

            def total(y, losses=losses, advice=advice, t=t, p=p):
                after = [m + (a != y) for m, a in zip(losses, advice, strict=True)]
                return abs(Fraction(p) - y) / 2 + game.value_to_go(after, t + 1)

            assert total(y) >= total(-y)
            if total(y) == total(-y):
                assert y == (-1 if p >= 0 else 1)  # among equals, against the prediction


def test_the_adversary_prefers_an_even_split():
    game = RegretGame(2, 1)
    assert game.adversary_move([0, 0], 1) == (1, -1)
    assert game.value == Fraction(1, 2)


def test_the_game_refuses_what_is_not_a_position_of_it():
    game = RegretGame(2, 4)
    with pytest.raises(ParameterError, match="losses must be 2 non-negative integers"):
        game.prediction([0, -1], [1, -1], 1)
    with pytest.raises(ParameterError, match="losses"):
        game.prediction([0.5, 0], [1, -1], 1)
    with pytest.raises(ParameterError, match="advice must be 2 entries, each -1 or \\+1"):
        game.prediction([0, 0], [1, 0], 1)
    with pytest.raises(ParameterError, match="advice"):
        game.prediction([0, 0], [1, -1, 1], 1)
    with pytest.raises(ParameterError, match="t must be an integer between 1 and 4"):
        game.prediction([0, 0], [1, -1], 5)
    with pytest.raises(ParameterError, match="p must be a number in \\[-1, 1\\]"):
        game.outcome([0, 0], [1, -1], 1.5, 1)
    with pytest.raises(ParameterError, match="p must be"):
        game.outcome([0, 0], [1, -1], float("nan"), 1)
    assert game.value_to_go(np.array([1.0, 3.0]), 5) == -1  # float losses that are integers


def test_a_game_is_shared_by_its_copies_and_pickled_small():
    game = RegretGame(3, 8)
    assert copy.deepcopy(game) is game
    data = pickle.dumps(game)
    assert len(data) < 200
    again = pickle.loads(data)
    assert again.value == game.value and (again.experts, again.horizon) == (3, 8)


# -- one learner's worst case ------------------------------------------------------------------


class FollowTheLeader:
    """The first leader's advice, a user's learner with a key."""

    deterministic = True

    def __init__(self, n: int):
        self.losses = [0] * n

    def predict(self, x):
        return float(x[self.losses.index(min(self.losses))])

    def update(self, x, y):
        self.losses = [m + int(a != y) for m, a in zip(self.losses, x, strict=True)]
        return True

    def state_key(self):
        return tuple(self.losses)


class Unkeyed(FollowTheLeader):
    """The same learner without a key: the search goes by the prefix of the game."""

    state_key = None


def regret_of(search) -> Fraction:
    return search.loss - min(search.expert_losses)


def test_the_minimax_forecaster_worst_case_is_the_value():
    for n, horizon in [(1, 6), (2, 8), (3, 4)]:
        search = worst_case_regret(MinimaxForecaster(n, horizon), n, horizon)
        assert search.value == minimax_regret(n, horizon), (n, horizon)
        assert search.keyed


@pytest.mark.parametrize(
    "make",
    [
        lambda: ExponentialWeights(),
        lambda: ExponentialWeights(eta=0.3),
        lambda: ExponentialWeights(loss_bound=6.0),
        lambda: WeightedMajority(),
        lambda: RandomizedWeightedMajority(rng=np.random.default_rng(0)),
        lambda: FollowTheLeader(2),
        lambda: Unkeyed(2),
    ],
    ids=["ewa", "ewa-0.3", "ewa-tuned", "wm", "rwm", "ftl", "ftl-unkeyed"],
)
def test_a_learners_worst_case_is_at_least_the_value_and_its_sequence_forces_it(make):
    horizon = 4 if isinstance(make(), Unkeyed) else 6  # unkeyed: the whole tree is searched
    search = worst_case_regret(make(), 2, horizon)
    assert search.value >= minimax_regret(2, horizon)
    assert len(search.path) == horizon
    assert regret_of(search) == search.value
    # the sequence replayed on a fresh learner: its predictions, exactly
    learner = make()
    for step in search.path:
        x = np.array(step.advice, dtype=np.int8)
        assert Fraction(float(learner.predict(x))) == step.prediction
        learner.update(x, step.outcome)


def test_a_key_and_the_prefix_give_one_value():
    keyed = worst_case_regret(FollowTheLeader(2), 2, 4)
    plain = worst_case_regret(Unkeyed(2), 2, 4)
    assert keyed.value == plain.value == 4 - 2  # errs every round; an expert errs twice
    assert keyed.keyed and not plain.keyed
    assert keyed.states < plain.states


def test_a_deterministic_learner_regrets_half_the_game_in_mistakes():
    search = worst_case_regret(WeightedMajority(), 2, 8)
    assert search.value == 4
    assert all(step.prediction in (-1, 1) and step.loss == 1 for step in search.path)


def test_exponential_weights_worst_case_exceeds_the_value():
    search = worst_case_regret(ExponentialWeights(), 2, 8)
    assert search.value > minimax_regret(2, 8)
    assert 1.4 < float(search.value) < 1.5


def test_a_learner_that_draws_its_prediction_is_refused():
    learner = RandomizedWeightedMajority(rng=np.random.default_rng(0), reveal="draw")
    with pytest.raises(ParameterError, match=r"^learner must be a learner whose prediction"):
        worst_case_regret(learner, 2, 3)

    class Coin(Unkeyed):
        deterministic = False

    with pytest.raises(ParameterError, match="declares deterministic = False"):
        worst_case_regret(Coin(2), 2, 3)


def test_a_search_too_large_is_refused_with_its_estimate():
    with pytest.raises(ParameterError, match=r"max_states must be at least 2,396,745") as info:
        worst_case_regret(Unkeyed(2), 2, 8)
    assert "no state_key()" in str(info.value)
    with pytest.raises(ParameterError, match="max_states must be more than 5") as info:
        worst_case_regret(ExponentialWeights(), 2, 6, max_states=5)
    assert "reached 5 states" in str(info.value)


def test_the_search_refuses_bad_arguments_and_misbehaving_learners():
    with pytest.raises(ParameterError, match="experts"):
        worst_case_regret(WeightedMajority(), 9, 2)
    with pytest.raises(ParameterError, match="learner must be a learner"):
        worst_case_regret(object(), 2, 2)

    class Loud(FollowTheLeader):
        def predict(self, x):
            return 2.0

    with pytest.raises(ProtocolError, match=r"predict returned 2\.0"):
        worst_case_regret(Loud(2), 2, 2)

    class Unhashable(FollowTheLeader):
        def state_key(self):
            return [1]

    with pytest.raises(ProtocolError, match="hashable"):
        worst_case_regret(Unhashable(2), 2, 2)


def test_the_learner_searched_is_not_played():
    learner = ExponentialWeights()
    worst_case_regret(learner, 2, 4)
    assert learner.cumulative_losses.size == 0


# -- the bounds and the referee ----------------------------------------------------------------


def test_the_bound_states_the_value_with_its_hypotheses():
    b = minimax_regret_bound(2, 4, Fraction(3, 4), loss="absolute", plus_minus_one=True,
                             played=2, rounds=4)  # fmt: skip
    assert (b.value, b.kind, b.quantity, b.applies) == (0.75, "upper", "regret", True)
    assert "3/4" in b.theorem and "Cover 1965" in b.source
    assert minimax_regret_bound(2, 4, Fraction(3, 4), rounds=5).reason.startswith("rounds ≤ T")
    assert minimax_regret_bound(2, 4, 0.75, played=3).reason.startswith("N experts fails")
    assert minimax_regret_bound(2, 4, 0.75, plus_minus_one=False).reason.startswith("advice ±1")
    lower = minimax_regret_bound(2, 4, Fraction(3, 4), kind="lower")
    assert lower.kind == "lower" and lower.holds(0.75) and not lower.holds(0.7)
    forced = forced_regret_lower_bound(Fraction(5, 2), "weighted-majority", 2, 5)
    assert (forced.value, forced.kind, forced.quantity) == (2.5, "lower", "regret")
    with pytest.raises(ParameterError, match="kind"):
        minimax_regret_bound(2, 4, 0.75, kind="both")


def test_the_referee_reads_regret_and_checks_the_loss():
    tr = play(ExponentialWeights(), MinimaxRegretAdversary(2, 6), rounds=6, loss="absolute")
    assert tr.observed("regret") == pytest.approx(float(tr.regret()[-1]))
    assert tr.observed("regret") >= float(minimax_regret(2, 6))
    names = [h.name for h in tr.lower_bound.hypotheses]
    assert names == ["absolute loss"] and tr.summary()["forced"] is True
    # the zero-one loss grades a mixture by its sign: the guarantee is not the referee's
    tr = play(ExponentialWeights(), MinimaxRegretAdversary(2, 6), rounds=6, loss="zero-one")
    assert tr.lower_bound.reason.startswith("absolute loss fails")
    assert tr.summary()["forced"] is None
    # a learner that predicts ±1 only is graded alike by every loss
    tr = play(WeightedMajority(), MinimaxRegretAdversary(2, 6), rounds=6, loss="zero-one")
    assert tr.lower_bound.applies and tr.summary()["forced"] is True
    empty = play(WeightedMajority(), MinimaxRegretAdversary(2, 0), rounds=5, loss="absolute")
    assert empty.observed("regret") == 0.0 and empty.lower_bound.value == 0.0


def test_the_forecaster_bound_fails_its_hypotheses_where_the_game_is_not_the_one_solved():
    tr = play(MinimaxForecaster(2, 4), TwoConstantExperts(horizon=8), rounds=8, loss="absolute")
    assert tr.bound.reason.startswith("rounds ≤ T fails")
    tr = play(MinimaxForecaster(2, 4), TwoConstantExperts(horizon=4), rounds=4, loss="zero-one")
    assert tr.bound.reason.startswith("absolute loss fails")
    tr = play(MinimaxForecaster(2, 4), TwoConstantExperts(horizon=4), rounds=4, loss="absolute")
    assert tr.within_bound is True


# -- the players -------------------------------------------------------------------------------


def test_the_forecaster_refuses_a_game_it_cannot_solve_and_plays_on_past_it():
    with pytest.raises(ParameterError, match="experts must be an integer between 1 and 4"):
        MinimaxForecaster(experts=5)
    with pytest.raises(ParameterError, match="horizon"):
        MinimaxForecaster(experts=3, horizon=max_regret_horizon(3) + 1)
    wide = MinimaxForecaster(horizon=8)  # N from the advice: 6 experts, no exact game
    x = np.array([1, -1, 1, 1, -1, 1], dtype=np.int8)
    assert wide.predict(x) == pytest.approx(1 / 3) and wide.value is None
    assert wide.update(x, 1) is True
    with pytest.raises(ValueError, match="a vector of 6 entries"):
        wide.predict(np.ones(3))
    f = MinimaxForecaster(2, 2)
    x = np.array([1, -1], dtype=np.int8)
    key = f.state_key()
    for _ in range(2):
        f.predict(x)
        f.update(x, 1)
    assert f.state_key() == key  # a new game of 2 rounds starts


def test_the_minimax_adversary_refuses_and_describes_itself():
    with pytest.raises(ParameterError, match="experts"):
        MinimaxRegretAdversary(experts=5)
    adversary = MinimaxRegretAdversary(2, 4)
    assert adversary.value == Fraction(3, 4)
    assert adversary.lower_bound().value == 0.0  # no round played: nothing guaranteed yet


def test_the_forcing_adversary_is_built_from_a_name_or_a_learner():
    by_name = RegretForcingAdversary("exponential-weights", experts=2, horizon=5,
                                     learner_params={"eta": 0.5})  # fmt: skip
    by_object = RegretForcingAdversary.solve(ExponentialWeights(eta=0.5), 2, 5)
    assert by_name.solution.value == by_object.solution.value
    assert by_object.learner == "exponential-weights"
    assert dict(by_object.learner_params)["eta"] == 0.5 and by_object.loss == "absolute"
    with pytest.raises(ParameterError, match="learner_params"):
        RegretForcingAdversary("exponential-weights", learner_params={"eta": -1.0})
    with pytest.raises(ParameterError, match="learner_params"):
        RegretForcingAdversary("exponential-weights", learner_params={"nope": 1})
    with pytest.raises(ParameterError, match="learner_params"):
        RegretForcingAdversary("exponential-weights", learner_params=3)
    with pytest.raises(ParameterError, match="learner must be a learner that plays advice"):
        RegretForcingAdversary("conjunction-learner")
    with pytest.raises(ParameterError, match="max_states"):
        RegretForcingAdversary("exponential-weights", horizon=8, max_states=3)


def test_the_forcing_adversary_answers_a_stranger_as_the_minimax_adversary():
    adversary = RegretForcingAdversary("weighted-majority", experts=2, horizon=8)
    tr = play(ExponentialWeights(), adversary, rounds=8, loss="absolute")
    assert tr.lower_bound.theorem.startswith("regret ≥") and "minimax" in tr.lower_bound.theorem
    assert tr.summary()["forced"] is True
    assert tr.observed("regret") >= tr.lower_bound.value - 1e-12
