"""Block–Novikoff on the games actually played, under every Perceptron convention.

The theorem (CS229 notes, seed 001; Balcan lecture 3, Theorem 1, seed 003;
Abernethy lecture 16, Theorem 16.2, seed 004) bounds the updates by (R/γ)²,
with R the largest norm played and γ the certificate's margin on the rounds
played; mistakes never outnumber updates. A failing example prints values a
user can paste into the ``@example`` lines or into :func:`check`.
"""

import itertools

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from adversaries import Replay, SeparableStream
from game import play
from learners import Perceptron

CONVENTIONS = list(itertools.product([1, -1], ["nonpositive", "mistake"], [False, True]))


def check(learner, adversary, rounds):
    """Play and assert mistakes ≤ updates ≤ (R/γ)² with a verified certificate."""
    tr = play(learner, adversary, rounds=rounds)
    mistakes, updates = tr.observed("mistakes"), tr.observed("updates")
    assert tr.certificate_verified is True
    assert tr.bound is not None and tr.bound.quantity == "updates"
    assert mistakes <= updates, (mistakes, updates)
    assert tr.bound.holds(updates), (updates, tr.bound.value)  # relative slack 1e-9
    assert tr.within_bound is True
    return tr


def with_examples(examples):
    """Apply hypothesis ``@example`` decorators built from a list."""

    def decorate(test):
        for ex in examples:
            test = ex(test)
        return test

    return decorate


@given(
    convention=st.sampled_from(CONVENTIONS),
    dimension=st.integers(1, 12),
    share=st.floats(0.05, 1.0),
    radius=st.floats(0.01, 100.0),
    seed=st.integers(0, 2**32 - 1),
)
# one stream per convention, so every convention is played on every run
@example(convention=(1, "nonpositive", False), dimension=2, share=0.05, radius=1.0, seed=0)
@example(convention=(1, "nonpositive", True), dimension=1, share=1.0, radius=0.01, seed=1)
@example(convention=(1, "mistake", False), dimension=12, share=0.1, radius=100.0, seed=2)
@example(convention=(1, "mistake", True), dimension=3, share=0.3, radius=2.0, seed=3)
@example(convention=(-1, "nonpositive", False), dimension=2, share=0.05, radius=1.0, seed=4)
@example(convention=(-1, "nonpositive", True), dimension=1, share=1.0, radius=0.01, seed=5)
@example(convention=(-1, "mistake", False), dimension=12, share=0.1, radius=100.0, seed=6)
@example(convention=(-1, "mistake", True), dimension=3, share=0.3, radius=2.0, seed=7)
def test_updates_within_the_bound_on_separable_streams(convention, dimension, share, radius, seed):
    zero_label, rule, normalize = convention
    stream = SeparableStream(dimension, share * radius, radius, rng=np.random.default_rng(seed))
    learner = Perceptron(zero_label=zero_label, update=rule, normalize=normalize)
    check(learner, stream, rounds=300)


@st.composite
def grid_games(draw):
    """A separator with small integer weights and integer points off its hyperplane.

    Integer coordinates make zero scores w·x = 0 frequent, where the conventions differ.
    """
    d = draw(st.integers(1, 4))
    w = draw(st.lists(st.integers(-3, 3), min_size=d, max_size=d).filter(any))
    points = draw(
        st.lists(
            st.lists(st.integers(-4, 4), min_size=d, max_size=d).filter(
                lambda x: np.dot(x, w) != 0
            ),
            min_size=1,
            max_size=40,
        )
    )
    labels = [1 if np.dot(x, w) > 0 else -1 for x in points]
    return points, labels, w


GRID_EXAMPLES = [
    ([[1, 0], [0, 1], [-1, -1], [1, 1]], [1, 1, -1, 1], [1, 1]),
    ([[1], [-2], [3], [-1]], [1, -1, 1, -1], [2]),
    ([[0, 1, 0], [0, 1, 0], [1, 1, 1]], [-1, -1, 1], [3, -1, 0]),
    ([[2, 1]], [1], [2, 1]),  # normalised, γ = R = 1 up to rounding: the bound's slack
]


@given(convention=st.sampled_from(CONVENTIONS), game=grid_games())
@with_examples(
    example(convention=c, game=g) for c, g in itertools.product(CONVENTIONS, GRID_EXAMPLES)
)
def test_updates_within_the_bound_on_integer_sequences(convention, game):
    zero_label, rule, normalize = convention
    points, labels, w = game
    learner = Perceptron(zero_label=zero_label, update=rule, normalize=normalize)
    adversary = Replay(
        instances=np.array(points, dtype=float), labels=labels, separator=np.array(w, dtype=float)
    )
    check(learner, adversary, rounds=len(points))


# Sequences to paste: instances, labels and a separator, with the updates each
# convention makes (zero_label, update) -> updates; the bound is (R/γ)².
PASTEABLE = [
    # R = √5, γ = 1/√2: bound 10
    (
        [[1.0, 0.0], [0.0, 1.0], [-1.0, -2.0], [2.0, 1.0]],
        [1, 1, -1, 1],
        [1.0, 1.0],
        {(1, "nonpositive"): 2, (1, "mistake"): 1, (-1, "mistake"): 2, (-1, "nonpositive"): 2},
        10.0,
    ),
    # one dimension, R = 3, γ = 1: bound 9
    (
        [[1.0], [-1.0], [3.0], [-3.0], [1.0]],
        [1, -1, 1, -1, 1],
        [1.0],
        {(1, "nonpositive"): 1, (1, "mistake"): 1, (-1, "mistake"): 1, (-1, "nonpositive"): 1},
        9.0,
    ),
    # the same point twice: only its first (zero-score) round can update; R = 2, γ = 1/√2
    (
        [[0.0, 2.0], [0.0, 2.0], [1.0, 0.0]],
        [-1, -1, 1],
        [1.0, -1.0],
        {(1, "nonpositive"): 2, (1, "mistake"): 1, (-1, "mistake"): 1, (-1, "nonpositive"): 2},
        8.0,
    ),
]


@pytest.mark.parametrize(("instances", "labels", "separator", "updates", "bound"), PASTEABLE)
@pytest.mark.parametrize(
    ("zero_label", "rule"), list(itertools.product([1, -1], ["nonpositive", "mistake"]))
)
def test_pasteable_sequences(instances, labels, separator, updates, bound, zero_label, rule):
    learner = Perceptron(zero_label=zero_label, update=rule)
    adversary = Replay(instances=instances, labels=labels, separator=separator)
    tr = check(learner, adversary, rounds=len(labels))
    assert tr.observed("updates") == updates[(zero_label, rule)]
    assert tr.bound.value == pytest.approx(bound, rel=1e-12)
