"""game.testing catches each way a player can misbehave, and passes good players."""

import numpy as np
import pytest

from adversaries import SeparableStream
from game.testing import CheckFailure, RandomLearner, check_adversary, check_learner, run_checks
from game.theory import HalfspaceCertificate
from game.theory.bounds import Bound
from learners import Perceptron


def failed(checks) -> dict[str, str]:
    return {r.check.name: r.message for r in run_checks(checks) if not r.passed}


class Base:
    deterministic = True
    plays = frozenset({"vector"})

    def predict(self, x):
        return 1.0

    def update(self, x, y):
        return False


def test_a_good_learner_passes_every_check():
    results = run_checks(check_learner(lambda rng: Perceptron(), kinds=["vector"]))
    assert results and all(r.passed for r in results), [r.message for r in results]


def test_a_good_adversary_passes_every_check():
    results = run_checks(check_adversary(lambda rng: SeparableStream(3, 0.2, rng=rng)))
    assert len(results) == 9 and all(r.passed for r in results), [r.message for r in results]


def test_missing_declarations_fail():
    class Undeclared:
        def predict(self, x):
            return 1.0

        def update(self, x, y):
            return False

    out = failed(check_learner(lambda rng: Undeclared(), kinds=["vector"]))
    assert "deterministic" in out["declares"]


def test_out_of_range_predictions_fail():
    class Wild(Base):
        def predict(self, x):
            return 2.0

    assert "round 1" in failed(check_learner(lambda rng: Wild()))["predictions[vector]"]


def test_non_exact_deterministic_predictions_fail():
    class Soft(Base):
        def predict(self, x):
            return 0.5

    assert "±1" in failed(check_learner(lambda rng: Soft()))["predictions[vector]"]


def test_update_not_returning_a_bool_fails():
    class Silent(Base):
        def update(self, x, y):
            return None

    assert "None" in failed(check_learner(lambda rng: Silent()))["update_returns_bool[vector]"]


def test_writing_to_instances_fails():
    class Scribbler(Base):
        def update(self, x, y):
            x[0] = 0.0
            return True

    assert (
        "writes to its instances"
        in failed(check_learner(lambda rng: Scribbler()))["no_mutation[vector]"]
    )


def test_state_shared_between_instances_fails():
    class Shared(Base):
        seen: list = []  # noqa: RUF012 - the bug under test

        def predict(self, x):
            return 1.0 if len(self.seen) % 7 < 3 else -1.0

        def update(self, x, y):
            self.seen.append(y)
            return True

    assert "shared" in failed(check_learner(lambda rng: Shared()))["fresh_instances[vector]"]


def test_unpicklable_learners_fail():
    class Holder(Base):
        def __init__(self):
            self.hook = lambda v: v

    assert "pickled" in failed(check_learner(lambda rng: Holder()))["pickling[vector]"]


def test_a_false_claim_of_determinism_fails():
    class Liar(Base):
        def __init__(self, rng):
            self.rng = rng

        def predict(self, x):
            return 1.0 if self.rng.random() < 0.5 else -1.0

    out = failed(check_learner(lambda rng: Liar(rng)))
    assert "deterministic = True" in out["deterministic[vector]"]


def test_global_random_state_fails_the_same_seed_check():
    class Global(Base):
        deterministic = False

        def predict(self, x):
            return 1.0 if np.random.random() < 0.5 else -1.0  # noqa: NPY002 - the bug under test

    assert "same_seed[vector]" in failed(check_learner(lambda rng: Global()))


def test_a_lying_certificate_fails():
    class Liar(SeparableStream):
        def certificate(self):
            return HalfspaceCertificate(-self.direction)

    out = failed(check_adversary(lambda rng: Liar(3, 0.2, rng=rng)))
    assert "disagrees with round 1" in out["certificate"]


def test_an_unforced_lower_bound_fails():
    class Boaster(SeparableStream):
        def lower_bound(self):
            return Bound(10**6, "boast", "nowhere", kind="lower")

    out = failed(
        check_adversary(lambda rng: Boaster(3, 0.2, rng=rng), learners=[lambda rng: Perceptron()])
    )
    assert "claims ≥ 1e+06" in out["lower_bound"]


def test_a_check_raises_check_failure_when_called():
    class Wild(Base):
        def predict(self, x):
            return 2.0

    check = next(c for c in check_learner(lambda rng: Wild()) if c.name == "predictions[vector]")
    with pytest.raises(CheckFailure):
        check()


def test_random_learner_is_a_fair_coin():
    learner = RandomLearner(np.random.default_rng(0))
    guesses = [learner.predict(None) for _ in range(2000)]
    assert 900 < guesses.count(1.0) < 1100


def test_each_check_is_a_public_function_that_fails_alone():
    from game import testing

    class Wild(Base):
        def predict(self, x):
            return 2.0

    with pytest.raises(CheckFailure, match=r"Wild: predictions: .*round 1: predict returned 2\.0"):
        testing.check_learner_predictions(lambda rng: Wild(), "vector")
    testing.check_learner_predictions(lambda rng: Perceptron(), "vector")
    names = [n for n in testing.__all__ if n.startswith(("check_learner_", "check_adversary_"))]
    assert len(names) == 20
    for name in names:
        assert callable(getattr(testing, name)) and getattr(testing, name).__doc__, name


def test_check_learner_yields_the_public_checks_by_name():
    from game import testing

    checks = list(check_learner(lambda rng: Perceptron(), kinds=["vector"]))
    suffixes = {c.name.removesuffix("[vector]") for c in checks}
    public = {
        n.removeprefix("check_learner_") for n in testing.__all__ if n.startswith("check_learner_")
    }
    assert suffixes == public


def test_parametrize_with_checks_names_each_test_by_its_check():
    from game.testing import parametrize_with_checks

    checks = list(check_adversary(lambda rng: SeparableStream(3, 0.2, rng=rng)))
    mark = parametrize_with_checks(checks).mark
    assert mark.args[0] == "check" and list(mark.args[1]) == checks
    assert mark.kwargs["ids"] == [f"separable-stream:{c.name}" for c in checks]


def test_a_lower_bound_is_forced_on_a_learner_whose_class_field_has_its_own_name():
    """The checks hand the adversary's class over through the declared fields, not by name."""
    from typing import ClassVar

    import attrs

    from adversaries import OptimalAdversary
    from game.players import _registry as reg
    from game.players import concept_class_field
    from game.testing import check_adversary_lower_bound
    from game.theory.concepts import thresholds

    @attrs.define
    class FirstConsistent:
        """Predicts with the first hypothesis still consistent."""

        deterministic: ClassVar[bool] = True
        plays: ClassVar[frozenset] = frozenset({"point"})
        hypotheses: object = concept_class_field("the class")
        alive: list = attrs.field(init=False, factory=list)

        def predict(self, x):
            rows = [h for h in range(self.hypotheses.matrix.shape[0]) if h not in self.alive]
            return float(self.hypotheses.matrix[rows[0], x]) if rows else 1.0

        def update(self, x, y):
            wrong = [
                h
                for h in range(self.hypotheses.matrix.shape[0])
                if self.hypotheses.matrix[h, x] != y and h not in self.alive
            ]
            self.alive += wrong
            return bool(wrong)

    reg.register("first-consistent", FirstConsistent)
    try:
        check_adversary_lower_bound(lambda rng: OptimalAdversary(thresholds(8)))
    finally:
        reg._registered.pop("first-consistent")
