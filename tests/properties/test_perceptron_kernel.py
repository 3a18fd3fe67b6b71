"""The Perceptron's compiled lockstep loop = its numpy kernel = the engine, game by game.

Runs only where numba is installed (the ``fast`` extra; CI installs it). The
instances are small integers (exact scores, many of them 0), the same scaled
by 0.1 (scores within rounding of zero, which the loop hands back to the
learner's arithmetic), by 1e200 or 1e-170 (scores the learner computes on its
slow path), or Gaussian; some rows are zero, and some learners have played
before. Every game must give the engine's transcript (its digest) and leave
the learner with the engine's weights, bit for bit, under every convention.
"""

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from adversaries import Replay
from game import play, play_batch
from game.players import kernel_for
from game.theory import compiled
from learners import Perceptron
from learners import perceptron as perceptron_module
from learners.perceptron import lockstep_loop

pytest.importorskip("numba")

conventions = st.fixed_dictionaries(
    {
        "zero_label": st.sampled_from([1, -1]),
        "update": st.sampled_from(["nonpositive", "mistake"]),
        "normalize": st.booleans(),
    }
)
KINDS = ("integers", "tenths", "huge", "tiny", "gaussian")


def instances(kind: str, rng: np.random.Generator, n: int, d: int) -> np.ndarray:
    """n instances of d entries of one kind, about a tenth of them zero."""
    if kind == "gaussian":
        X = rng.standard_normal((n, d))
    else:
        X = rng.integers(-2, 3, (n, d)).astype(np.float64)
        X *= {"integers": 1.0, "tenths": 0.1, "huge": 1e200, "tiny": 1e-170}[kind]
    X[rng.random(n) < 0.1] = 0.0
    return X


def games(seed: int, k_games: int, n: int, d: int, kinds: list[str]):
    """Each game's instances and labels (labels from a hidden integer halfspace, some flipped)."""
    rng = np.random.default_rng(seed)
    out = []
    for k in range(k_games):
        X = instances(kinds[k % len(kinds)], rng, n, d)
        u = rng.integers(-2, 3, d).astype(np.float64)
        y = np.where(X @ u >= 0, 1, -1)
        y[rng.random(n) < 0.2] *= -1
        out.append((X, y))
    return out


def learner(convention: dict, warm: np.ndarray | None) -> Perceptron:
    """A learner of this convention that has already played on ``warm`` (if given)."""
    p = Perceptron(**convention)
    for x, label in zip(warm if warm is not None else [], [1, -1, 1, -1], strict=False):
        p.predict(x)
        p.update(x, label)
    return p


def by_methods(p: Perceptron, X: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The game the engine plays, written out: predict then update, round by round."""
    predictions, updated = [], []
    for x, label in zip(X, y, strict=True):
        predictions.append(p.predict(x))
        updated.append(p.update(x, int(label)))
    return np.array(predictions, dtype=np.float64), np.array(updated, dtype=bool)


def kernel(way: bool, learners: list, drawn: list) -> tuple[np.ndarray, np.ndarray]:
    """The lockstep kernel's predictions and updates, compiled (``way``) or in numpy."""
    n = max(len(X) for X, _ in drawn)
    y = np.ones((len(drawn), n), dtype=np.int64)
    for k, (_, labels) in enumerate(drawn):
        y[k, : len(labels)] = labels
    Xs = [np.ascontiguousarray(X) for X, _ in drawn]
    with compiled(way):
        assert (lockstep_loop() is not None) is way
        return kernel_for(Perceptron).run(learners, Xs, y, np.array([len(X) for X in Xs]))


@given(
    seed=st.integers(0, 2**32 - 1),
    k_games=st.integers(1, 5),
    n=st.integers(1, 40),
    d=st.integers(1, 9),
    convention=conventions,
    kinds=st.lists(st.sampled_from(KINDS), min_size=1, max_size=3),
    warm=st.booleans(),
)
@example(
    seed=0,
    k_games=3,
    n=30,
    d=3,
    convention={"zero_label": -1, "update": "mistake", "normalize": False},
    kinds=["tenths"],
    warm=False,
)
def test_compiled_loop_equals_numpy_kernel_equals_the_learners_methods(
    seed, k_games, n, d, convention, kinds, warm
):
    drawn = games(seed, k_games, n, d, kinds)
    start = instances(kinds[0], np.random.default_rng(seed + 1), 4, d) if warm else None
    fast = [learner(convention, start) for _ in drawn]
    slow = [learner(convention, start) for _ in drawn]
    P, U = kernel(True, fast, drawn)
    Q, V = kernel(False, slow, drawn)
    for k, (X, y) in enumerate(drawn):
        alone = learner(convention, start)
        predictions, updated = by_methods(alone, X, y)
        assert np.array_equal(P[k, :n], predictions) and np.array_equal(Q[k, :n], predictions)
        assert np.array_equal(U[k, :n], updated) and np.array_equal(V[k, :n], updated)
        want = alone.weights
        assert np.array_equal(fast[k].weights, want) and np.array_equal(slow[k].weights, want)
        assert fast[k].weights.tobytes() == want.tobytes()  # the zeros' signs too


@given(
    seed=st.integers(0, 2**32 - 1),
    k_games=st.integers(1, 4),
    n=st.integers(0, 30),
    d=st.integers(1, 6),
    convention=conventions,
    kind=st.sampled_from(KINDS),
)
def test_play_batch_with_the_compiled_loop_gives_the_engines_digests(
    seed, k_games, n, d, convention, kind
):
    drawn = games(seed, k_games, max(n, 1), d, [kind])
    learners = [Perceptron(**convention) for _ in drawn]
    replays = [Replay(instances=X[:n], labels=y[:n]) for X, y in drawn]
    with compiled(True):
        batch = play_batch(learners, replays, rounds=n)
    with compiled(False):
        serial = []
        for (X, y), p in zip(drawn, learners, strict=True):
            alone = Perceptron(**convention)
            serial.append(play(alone, Replay(instances=X[:n], labels=y[:n]), rounds=n))
            assert np.array_equal(p.weights, alone.weights)
    assert [g.digest for g in batch] == [g.digest for g in serial]


def test_a_score_within_rounding_of_zero_is_computed_the_learners_way(monkeypatch):
    # w = x1 after round 1; w·x2 = 0.1 + 0.2 − 0.3 is a rounding error, not a sign
    X = np.array([[0.1, 0.2, 0.3], [1.0, 1.0, -1.0], [1.0, 1.0, -1.0]])
    y = np.array([1, -1, 1])
    handed_back = []
    score = perceptron_module._score
    monkeypatch.setattr(
        perceptron_module, "_score", lambda w, x: handed_back.append(1) or score(w, x)
    )
    for rule in ("nonpositive", "mistake"):
        p = Perceptron(update=rule)
        P, U = kernel(True, [p], [(X, y)])
        alone = Perceptron(update=rule)
        assert (P[0].tolist(), U[0].tolist()) == tuple(a.tolist() for a in by_methods(alone, X, y))
        assert np.array_equal(p.weights, alone.weights)
    assert handed_back  # the loop did not decide that round itself


def test_the_loop_decides_exact_zeros_and_integer_scores_itself(monkeypatch):
    monkeypatch.setattr(perceptron_module, "_score", lambda w, x: pytest.fail("handed back"))
    # round 1: w = 0; round 3: (3, 1)·(1, −3) = 0 exactly, on integers
    X = np.array([[3.0, 1.0], [0.0, 0.0], [1.0, -3.0], [-2.0, 5.0]])
    y = np.array([1, -1, 1, -1])
    p = Perceptron()
    P, U = kernel(True, [p], [(X, y)])
    alone = Perceptron()
    assert (P[0].tolist(), U[0].tolist()) == tuple(a.tolist() for a in by_methods(alone, X, y))
    assert np.array_equal(p.weights, alone.weights)


@pytest.mark.parametrize("zero_label", [1, -1])
@pytest.mark.parametrize("rule", ["nonpositive", "mistake"])
def test_a_sum_whose_sign_depends_on_the_order_of_addition_has_the_learners_sign(zero_label, rule):
    # round 1 updates from w = 0 to w = ±t, t's entries cancelling (1 − 1 + 2⁻⁵⁴ + 2⁻⁵⁴ + …);
    # then x = ±(1, …, 1): the score is ±Σ t_i, whose sign orders of addition disagree on
    # (about one game in twenty-five here would differ if the loop trusted its own sum)
    rng = np.random.default_rng(17)
    drawn = []
    for game in range(300):
        d = 8 + game % 57
        t = np.zeros(d)
        t[:8] = [1.0, -1.0, 2.0**-54, 2.0**-54, *rng.choice([0.0, 2.0**-53, -(2.0**-53), 0.5], 4)]
        rng.shuffle(t)
        X = np.vstack([t, np.ones((6, d)) * rng.choice([-1.0, 1.0], (6, 1))])
        y = rng.choice([-1, 1], 7)
        y[0] = -zero_label  # an update under either rule
        drawn.append((X, y))
    convention = {"zero_label": zero_label, "update": rule}
    for X, y in drawn:
        p = Perceptron(**convention)
        P, U = kernel(True, [p], [(X, y)])
        alone = Perceptron(**convention)
        predictions, updated = by_methods(alone, X, y)
        assert updated[0]
        assert np.array_equal(P[0], predictions) and np.array_equal(U[0], updated)
        assert np.array_equal(p.weights, alone.weights)
