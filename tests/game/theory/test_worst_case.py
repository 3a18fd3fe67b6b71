"""The exact worst case of a deterministic learner, and the adversary that forces it."""

from __future__ import annotations

import math

import numpy as np
import pytest

import game
from adversaries import ForcingAdversary, OptimalAdversary
from game.errors import ParameterError
from game.players import lookup
from game.theory.bounds import deviation_lower_bound, forced_lower_bound
from game.theory.concepts import (
    Disjunction,
    FiniteClass,
    Literal,
    all_functions,
    bit_vectors,
    conjunctions,
    decision_lists,
    intervals,
    monotone_conjunctions,
    singletons,
    thresholds,
)
from game.theory.solve import DEFAULT_MAX_STATES, WorstCase, worst_case
from learners import (
    SOA,
    ConjunctionLearner,
    DecisionListLearner,
    Halving,
    RandomizedWeightedMajority,
    Winnow,
)

#: Halving errs 3 times here, Ldim is 2 (found by search over small random classes).
HALVING_ABOVE_LDIM = [
    [-1, 1, -1, -1],
    [-1, 1, 1, 1],
    [-1, -1, 1, 1],
    [-1, -1, 1, -1],
    [-1, 1, 1, -1],
    [1, -1, -1, -1],
    [1, -1, -1, 1],
    [1, 1, 1, -1],
]


def monotone_disjunctions(n: int) -> FiniteClass:
    """Every monotone disjunction over n bits (the empty one is False): Winnow's class."""
    concepts = [
        Disjunction(n, [Literal(i) for i in range(n) if mask >> i & 1]) for mask in range(1 << n)
    ]
    return FiniteClass.from_concepts(concepts, n, name=f"monotone_disjunctions({n})")


class Plus:
    """A user's learner: predicts +1 and never learns; no state_key."""

    def predict(self, x):
        return 1.0

    def update(self, x, y):
        return False


class KeyedPlus(Plus):
    """The same, saying that it has one state."""

    def state_key(self):
        return ()


class Memory:
    """A user's learner: predicts the last label it saw (+1 at first); no state_key."""

    def __init__(self):
        self.last = 1

    def predict(self, x):
        return float(self.last)

    def update(self, x, y):
        changed = y != self.last
        self.last = y
        return changed


class KeyedMemory(Memory):
    def state_key(self):
        return self.last


def path_is_realised(result: WorstCase, cls: FiniteClass) -> bool:
    row = cls.matrix[result.witness]
    return all(row[x] == y for x, y, _ in result.path)


def play_forcing(learner, adversary, rounds=200):
    return game.play(learner, adversary, rounds=rounds)


# -- values ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "cls",
    [thresholds(7), thresholds(10), intervals(6), singletons(5), all_functions(3)],
    ids=lambda c: c.name,
)
def test_soa_is_forced_exactly_ldim(cls):
    result = worst_case(SOA(cls), cls)
    assert result.value == result.ldim == cls.engine.ldim()
    assert sum(m for _, _, m in result.path) == result.value
    assert path_is_realised(result, cls)


@pytest.mark.parametrize(
    "cls",
    [thresholds(7), intervals(6), singletons(5), all_functions(3), FiniteClass(HALVING_ABOVE_LDIM)],
    ids=lambda c: c.name or "random",
)
def test_halving_between_ldim_and_log2_of_the_class(cls):
    result = worst_case(Halving(cls), cls)
    assert result.ldim <= result.value <= math.floor(math.log2(cls.n_hypotheses))


def test_halving_can_be_forced_above_ldim():
    cls = FiniteClass(HALVING_ABOVE_LDIM)
    result = worst_case(Halving(cls), cls)
    assert (result.value, result.ldim) == (3, 2)
    assert worst_case(SOA(cls), cls).value == 2


@pytest.mark.parametrize("n", [1, 2, 3])
def test_the_elimination_algorithm_is_forced_n_plus_1_on_conjunctions(n):
    # 003 §2.1: the first positive leaves n literals, each later mistake removes
    # one: n + 1 mistakes at most, and the search finds an adversary forcing them
    cls = conjunctions(n)
    result = worst_case(ConjunctionLearner(), cls, points=bit_vectors(n))
    assert result.value == n + 1
    assert result.ldim == n + 1
    assert all(y == 1 for _, y, _ in result.path)  # every mistake a false negative


def test_the_elimination_algorithm_on_monotone_conjunctions_errs_n_times():
    result = worst_case(ConjunctionLearner(), monotone_conjunctions(3), points=bit_vectors(3))
    assert result.value == 4 and result.ldim == 3


@pytest.mark.parametrize("learner", [DecisionListLearner, ConjunctionLearner])
def test_bit_learners_are_forced_at_least_ldim(learner):
    cls = decision_lists(2, 2)
    result = worst_case(learner(), cls, points=bit_vectors(2))
    assert result.value >= result.ldim


def test_decision_list_learner_forced_within_its_bound():
    n, length = 3, 1
    result = worst_case(DecisionListLearner(), decision_lists(n, length), points=bit_vectors(n))
    assert result.ldim < result.value <= (4 * n + 2) * (length + 1)


def test_winnow_on_monotone_disjunctions_within_its_bound():
    n = 3
    cls = monotone_disjunctions(n)
    for variant in ("elimination", "halving"):
        result = worst_case(Winnow(variant), cls, points=bit_vectors(n))
        assert result.ldim <= result.value < math.inf
        assert result.value <= 2 + 3 * n * (1 + math.log2(n))


def test_the_learner_given_is_not_changed():
    cls = intervals(5)
    learner = Halving(cls)
    worst_case(learner, cls)
    assert learner.snapshot() == {"consistent": cls.n_hypotheses}


def test_a_learner_searched_from_its_present_state_against_the_whole_class():
    cls = thresholds(7)
    learner = SOA(cls)
    learner.predict(3)
    learner.update(3, -1)  # SOA keeps θ ∈ {4, …, 7}
    assert worst_case(learner, cls.restrict([3], [-1])).value == 2
    # the whole class may still give labels of the hypotheses SOA dropped: SOA,
    # none of its own agreeing, keeps its version space and errs without end
    result = worst_case(learner, cls)
    assert result.value == math.inf
    assert [mistake for _, _, mistake in result.path[result.cycle :]] == [True]
    assert path_is_realised(result, cls)


# -- learners without keys, and horizons ---------------------------------------------------------


def test_a_user_learner_without_state_key_needs_a_horizon():
    with pytest.raises(ParameterError) as caught:
        worst_case(Memory(), thresholds(3))
    assert caught.value.parameter == "rounds"
    assert "state_key" in str(caught.value)


def test_a_user_learner_without_state_key_with_a_horizon():
    cls = thresholds(3)
    result = worst_case(Memory(), cls, rounds=4)
    keyed = worst_case(KeyedMemory(), cls, rounds=4)
    assert result.value == keyed.value
    assert result.rounds == 4 and len(result.path) <= 4
    assert path_is_realised(result, cls)


def test_a_state_key_of_none_means_no_key():
    class NoKey(Memory):
        def state_key(self):
            return None

    with pytest.raises(ParameterError, match="rounds"):
        worst_case(NoKey(), thresholds(3))
    assert worst_case(NoKey(), thresholds(3), rounds=3).value == 3


def test_the_horizon_value_grows_to_the_value():
    cls = intervals(6)
    full = worst_case(Halving(cls), cls)
    values = [worst_case(Halving(cls), cls, rounds=t).value for t in range(len(full.path) + 2)]
    assert values == sorted(values)
    assert values[0] == 0
    assert values[-1] == values[len(full.path)] == full.value


# -- learners that err forever ------------------------------------------------------------


def test_a_learner_that_never_learns_errs_forever():
    cls = thresholds(4)
    result = worst_case(KeyedPlus(), cls)
    assert result.value == math.inf and result.unbounded
    loop = result.path[result.cycle :]
    assert loop and all(mistake for _, _, mistake in loop)
    assert path_is_realised(result, cls)
    assert "without end" in str(result)
    assert result.summary()["value"] == "inf"


def test_with_a_horizon_it_errs_every_round():
    assert worst_case(Plus(), thresholds(4), rounds=6).value == 6
    assert worst_case(KeyedPlus(), thresholds(4), rounds=6).value == 6


def test_a_cycle_of_states_with_a_mistake_is_unbounded():
    class Flip:
        """Alternates its prediction on every update: two states, a cycle with mistakes."""

        def __init__(self):
            self.sign = 1

        def predict(self, x):
            return float(self.sign)

        def update(self, x, y):
            self.sign = -self.sign
            return True

        def state_key(self):
            return self.sign

    result = worst_case(Flip(), singletons(1))  # one hypothesis, one point: every label forced
    assert result.value == math.inf
    assert result.path[result.cycle :] in (
        [(0, 1, False), (0, 1, True)],
        [(0, 1, True), (0, 1, False)],
    )


def test_winnow_on_conjunctions_errs_forever():
    result = worst_case(Winnow(), conjunctions(2), points=bit_vectors(2))
    assert result.value == math.inf


# -- refusals ----------------------------------------------------------------------------


def test_refuses_a_randomised_learner_naming_the_tree_walk():
    with pytest.raises(ParameterError) as caught:
        worst_case(RandomizedWeightedMajority(), thresholds(3), rounds=2)
    assert caught.value.parameter == "learner"
    assert "TreeAdversary(randomised=True)" in str(caught.value)


def test_stops_at_max_states_saying_what_it_reached():
    cls = intervals(8)
    with pytest.raises(ParameterError) as caught:
        worst_case(Halving(cls), cls, max_states=50)
    assert caught.value.parameter == "max_states"
    text = str(caught.value)
    assert "reached 50 states" in text and "larger max_states" in text
    assert DEFAULT_MAX_STATES >= 69_412  # Halving over intervals(16) fits


def test_refuses_a_prediction_outside_the_range():
    class Wild(KeyedPlus):
        def predict(self, x):
            return 2.0

    with pytest.raises(ParameterError, match=r"predict\(0\) returned 2.0"):
        worst_case(Wild(), thresholds(2))


def test_refuses_a_learner_whose_prediction_changes_its_key():
    class Counter(KeyedPlus):
        def __init__(self):
            self.asked = 0

        def predict(self, x):
            self.asked += 1
            return 1.0

        def state_key(self):
            return self.asked

    with pytest.raises(ParameterError, match="leaves its state_key"):
        worst_case(Counter(), thresholds(3))


def test_refuses_points_of_the_wrong_number():
    with pytest.raises(ParameterError) as caught:
        worst_case(ConjunctionLearner(), conjunctions(2), points=bit_vectors(3))
    assert caught.value.parameter == "points"


def test_refuses_what_is_not_a_learner():
    with pytest.raises(ParameterError, match="predict and update"):
        worst_case(object(), thresholds(2), rounds=1)


# -- the result ------------------------------------------------------------------------------


def test_the_tree_is_one_path_drawn_like_a_littlestone_tree():
    cls = FiniteClass(HALVING_ABOVE_LDIM)
    result = worst_case(Halving(cls), cls)
    tree = result.tree
    assert tree.number_of_nodes() == len(result.path) + 1
    node = 1
    for x, y, mistake in result.path:
        data = tree.nodes[node]
        assert data["instance"] == x
        assert data["prediction"] == (y if not mistake else -y)
        (child,) = tree.successors(node)
        assert child == 2 * node + (1 if y > 0 else 0)
        assert tree.edges[node, child]["label"] == y
        assert tree.edges[node, child]["mistake"] == mistake
        node = child
    assert tree.nodes[node]["witness"] == result.witness
    assert tree._repr_svg_().startswith("<svg")
    assert result.predictions == [tree.nodes[n]["prediction"] for n in tree if tree.out_degree(n)]


def test_str_and_summary():
    cls = thresholds(7)
    result = worst_case(Halving(cls), cls)
    text = str(result)
    assert text.startswith("worst case of Halving over 'thresholds(7)': 3 mistakes (Ldim 3)")
    assert "round 1: point 3, predicts +1, label −1: mistake" in text
    summary = result.summary()
    assert summary["value"] == 3 and summary["ldim"] == 3 and summary["states"] == result.states


# -- the learners' keys ------------------------------------------------------------------------


def test_halving_key_is_its_consistent_set_however_kept():
    cls = intervals(30)  # 466 hypotheses: a small C_t is kept as indices
    a, b = Halving(cls), Halving(cls)
    for x, y in [(3, 1), (4, 1)]:
        a.predict(x)
        a.update(x, y)
    for x, y in [(4, 1), (3, 1)]:
        b.predict(x)
        b.update(x, y)
    assert a.state_key() == b.state_key()
    a.predict(20)
    a.update(20, -1)
    assert a.state_key() != b.state_key()


def test_winnow_key_leaves_out_the_counts():
    a, b = Winnow(variables=3), Winnow(variables=3)
    x, z = np.array([1, 0, 0], dtype=bool), np.array([1, 1, 1], dtype=bool)
    a.predict(x)
    a.update(x, 1)  # promoted: w1 = 2
    assert a.state_key() != b.state_key()
    for w in (a, b):
        w.predict(z)
        w.update(z, -1)  # a false positive: every weight eliminated
    assert a.state_key() == b.state_key()
    assert a.snapshot()["promotions"] == 1 and b.snapshot()["promotions"] == 0


def test_boolean_learners_keys_before_and_after_their_first_instance():
    for learner in (ConjunctionLearner(), DecisionListLearner(), Winnow()):
        before = learner.state_key()
        hash(before)
        learner.predict(np.array([1, 0], dtype=bool))
        assert learner.state_key() != before  # started: n known
        assert learner.state_key() == type(learner)(variables=2).state_key()


# -- the bounds ----------------------------------------------------------------------------


def test_forced_lower_bound():
    b = forced_lower_bound(4, "halving")
    assert (b.value, b.kind) == (4.0, "lower") and "halving" in b.theorem
    assert forced_lower_bound(math.inf, "x").value == math.inf
    with pytest.raises(ParameterError):
        forced_lower_bound(-1, "x")


def test_deviation_lower_bound():
    b = deviation_lower_bound(2, 3, 5, "halving")
    assert b.value == 5 and "round 5" in b.theorem


# -- the forcing adversary -------------------------------------------------------------------


@pytest.mark.parametrize(
    "cls",
    [thresholds(7), intervals(6), FiniteClass(HALVING_ABOVE_LDIM), all_functions(3)],
    ids=lambda c: c.name or "random",
)
@pytest.mark.parametrize("name", ["halving", "soa"])
def test_forcing_adversary_by_name_forces_its_value(cls, name):
    adversary = ForcingAdversary(cls, name)
    learner = lookup(name)(cls)
    tr = play_forcing(learner, adversary)
    s = tr.summary()
    assert s["mistakes"] == adversary.value
    assert s["certificate_verified"] is True
    assert s["lower_bound"] == adversary.value and s["forced"] is True
    assert adversary.on_strategy


@pytest.mark.parametrize(
    ("learner", "cls", "n"),
    [
        (ConjunctionLearner, conjunctions(1), 1),
        (ConjunctionLearner, conjunctions(2), 2),
        (ConjunctionLearner, conjunctions(3), 3),
        (DecisionListLearner, decision_lists(2, 2), 2),
        (DecisionListLearner, decision_lists(3, 1), 3),
        (Winnow, monotone_disjunctions(3), 3),
    ],
    ids=lambda v: getattr(v, "name", getattr(v, "__name__", str(v))),
)
def test_forcing_adversary_solved_for_a_learner_of_bits(learner, cls, n):
    adversary = ForcingAdversary.solve(learner(), cls, bit_vectors(n))
    assert adversary.presents == "bits"
    tr = play_forcing(learner(), adversary)
    s = tr.summary()
    assert s["mistakes"] == adversary.value >= adversary.solution.ldim
    assert s["certificate_verified"] is True
    assert s["forced"] is True
    assert s["within_bound"] is True  # the learner's own theorem, on a Boolean certificate


def test_forcing_adversary_by_name_for_a_learner_of_bits():
    adversary = ForcingAdversary(conjunctions(2), "conjunction-learner")
    assert adversary.presents == "bits" and adversary.value == 3
    s = play_forcing(ConjunctionLearner(), adversary).summary()
    assert s["mistakes"] == 3 and s["forced"] and s["certificate_verified"]
    assert s["bound"] == 3.0  # 003's n + 1, with the certificate a conjunction


def test_forcing_adversary_with_learner_params_and_a_horizon():
    cls = conjunctions(2)
    adversary = ForcingAdversary(cls, "winnow", learner_params={"variant": "halving"}, rounds=5)
    s = play_forcing(Winnow("halving"), adversary).summary()
    assert adversary.value == 5 and s["mistakes"] == 5 and s["forced"] is True


def test_forcing_adversary_of_a_user_learner():
    cls = thresholds(4)
    adversary = ForcingAdversary.solve(Memory(), cls, rounds=6)
    s = play_forcing(Memory(), adversary).summary()
    assert s["mistakes"] == adversary.value == 6
    assert s["certificate_verified"] is True


def test_forcing_adversary_against_another_learner_plays_the_optimal_adversary():
    cls = FiniteClass(HALVING_ABOVE_LDIM)
    adversary = ForcingAdversary(cls, "halving")
    tr = play_forcing(SOA(cls), adversary)
    s = tr.summary()
    assert not adversary.on_strategy  # SOA predicts otherwise somewhere along Halving's path
    assert s["certificate_verified"] is True
    assert s["forced"] is True and s["mistakes"] >= s["lower_bound"] >= adversary.solution.ldim
    assert "left the strategy solved for halving" in tr.lower_bound.theorem
    baseline = play_forcing(SOA(cls), OptimalAdversary(cls)).summary()
    assert s["mistakes"] >= baseline["lower_bound"]


def test_forcing_adversary_logs_what_it_can_still_force():
    cls = thresholds(7)
    tr = play_forcing(Halving(cls), ForcingAdversary(cls, "halving"))
    assert tr.extras["forceable"].tolist() == [2.0, 1.0, 0.0]


def test_forcing_adversary_refusals():
    with pytest.raises(ParameterError) as caught:
        ForcingAdversary(thresholds(3), "halvng")
    assert caught.value.parameter == "learner" and "halving" in str(caught.value)
    with pytest.raises(ParameterError) as caught:
        ForcingAdversary(thresholds(3), "randomized-weighted-majority")
    assert caught.value.parameter == "learner"
    with pytest.raises(ParameterError) as caught:
        ForcingAdversary(thresholds(3), "halving", learner_params={"beta": 0.5})
    assert caught.value.parameter == "learner_params"
    with pytest.raises(ParameterError) as caught:
        ForcingAdversary(conjunctions(2), "winnow")  # Winnow errs forever on conjunctions
    assert caught.value.parameter == "rounds"
    with pytest.raises(ParameterError) as caught:
        ForcingAdversary(thresholds(3), "conjunction-learner")  # 3 points are no bit vectors
    assert caught.value.parameter == "concept_class"
    unnamed = FiniteClass(conjunctions(2).matrix)  # hypotheses h0, h1, …: no concepts
    with pytest.raises(ParameterError, match="parse_concept"):
        ForcingAdversary(unnamed, "conjunction-learner")


def test_forcing_adversary_from_a_scenario(tmp_path):
    path = tmp_path / "forcing.toml"
    path.write_text(
        'rounds = 30\nseed = 0\n[concept_class]\nbuilder = "intervals"\nn = 6\n'
        '[learner]\nname = "halving"\n[adversary]\nname = "forcing-adversary"\n'
        'learner = "halving"\n'
    )
    tr = game.load_scenario(path).play()
    s = tr.summary()
    assert s["mistakes"] == s["lower_bound"] == 4 and s["forced"] is True
