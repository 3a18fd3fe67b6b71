"""The streams' compiled draws = their numpy draws, bit for bit, and the same final state.

Runs only where numba is installed (the ``fast`` extra; CI installs it). Every
way a stream draws (a block for the engine, a whole game for the lockstep
source, round by round through ``instance``) is drawn twice from one seed, in
numpy (``game.theory.compiled(False)``) and compiled; the
instances, labels and noise must be the same bytes and the generators must
end in the same state, including numpy's buffered 32-bit half-word (a
generator may arrive with one pending). Games played through
``game.play_batch`` with the compiled draws give the digests ``game.play``
gives with them switched off.
"""

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from adversaries import NoisyStream, SeparableStream, draw_kernels
from game import play, play_batch
from game.players import kernel_for
from game.theory import compiled
from learners import Perceptron

pytest.importorskip("numba")

if not draw_kernels.available():  # numba installed but not loading: nothing compiled to compare
    pytest.skip("the compiled draws do not load", allow_module_level=True)

from adversaries._compiled_draws import _row_sum

streams = st.fixed_dictionaries(
    {
        "kind": st.sampled_from(["separable", "flip", "margin"]),
        "dimension": st.one_of(st.integers(1, 40), st.sampled_from([127, 128, 129, 257, 1031])),
        "margin": st.sampled_from([0.05, 0.1, 0.5, 1.0]),
        "radius": st.sampled_from([1.0, 1.5, 3]),
        "rate": st.sampled_from([0.0, 0.3, 1.0]),
        "seed": st.integers(0, 2**32 - 1),
        "pending": st.booleans(),  # a 32-bit half-word waiting in the generator's buffer
    }
)


def make(p: dict):
    """A fresh stream of these parameters (margin at most the radius)."""
    rng = np.random.default_rng(p["seed"])
    if p["pending"]:
        rng.integers(0, 2**31)  # one 32-bit draw: the other half of its word is kept
    margin = min(p["margin"], p["radius"])
    if p["kind"] == "separable":
        return SeparableStream(p["dimension"], margin, radius=p["radius"], rng=rng)
    return NoisyStream(
        p["dimension"], margin, radius=p["radius"], rate=p["rate"], noise=p["kind"], rng=rng
    )


def drawn(stream, way: str, rounds: int, on: bool) -> list:
    """What one way draws from the stream, as a list of arrays, then the generator's state."""
    with compiled(on):
        if way == "draw":  # two engine blocks in a row: the state carries over
            first, second = rounds // 3, rounds - rounds // 3
            out = [*stream.draw(first), *stream.draw(second)]
        elif way == "examples":  # the lockstep source's game, then the stream's own examples
            X, y, *extras = kernel_for(type(stream)).examples(stream, rounds)
            out = [X, y] + [values for column in extras for values in column.values()]
            out += stream.examples(rounds // 2)
        else:  # the engine's calls, round by round
            out = []
            for _ in range(rounds):
                x = stream.instance(None)
                out += [x, np.array([stream.label(x, 1.0, None)])]
                if isinstance(stream, NoisyStream):
                    out.append(np.array([stream.extras()["corrupted"]]))
    return [np.asarray(a) for a in out] + [stream.rng.bit_generator.state]


def assert_same(numpy_way: list, compiled_way: list) -> None:
    *arrays_a, state_a = numpy_way
    *arrays_b, state_b = compiled_way
    assert len(arrays_a) == len(arrays_b)
    for a, b in zip(arrays_a, arrays_b, strict=True):
        assert a.dtype == b.dtype and a.shape == b.shape
        assert a.tobytes() == b.tobytes()  # bit for bit: signed zeros included
    assert state_a == state_b


@given(streams, st.sampled_from(["draw", "examples", "instance"]), st.integers(0, 700))
@example(
    {"kind": "separable", "dimension": 9000, "margin": 0.1, "radius": 1.0, "rate": 0.0,
     "seed": 0, "pending": False}, "draw", 3,
)  # fmt: skip
@example(
    {"kind": "margin", "dimension": 2, "margin": 1.0, "radius": 1.0, "rate": 1.0,
     "seed": 1, "pending": True}, "examples", 513,
)  # fmt: skip
def test_compiled_draws_are_numpys_bit_for_bit(params, way, rounds):
    if way == "instance":
        rounds = min(rounds, 300)
    numpy_way = drawn(make(params), way, rounds, on=False)
    compiled_way = drawn(make(params), way, rounds, on=True)
    assert_same(numpy_way, compiled_way)


@given(st.integers(0, 5000), st.integers(0, 2**32 - 1), st.sampled_from([1.0, 1e-3, 1e30]))
@example(70_000, 0, 1.0)
def test_row_sums_are_numpys_pairwise_sums(n, seed, scale):
    rng = np.random.default_rng(seed)
    row = rng.standard_normal(n) * np.exp(3 * rng.standard_normal(n)) * scale
    frames, sums = np.empty((3, 64), dtype=np.int64), np.empty(64)
    expected = np.add.reduce(row[None, :], axis=1)[0]
    assert np.float64(_row_sum(row, frames, sums)).tobytes() == expected.tobytes()


def test_other_bit_generators_and_the_switch_draw_in_numpy():
    u = np.array([0.6, 0.8])
    mt = np.random.Generator(np.random.MT19937(0))
    assert draw_kernels.separable(mt, u, 0.1, 1.0, 5, 5) is None
    assert draw_kernels.separable(np.random.default_rng(0), u, 0.1, 1.0, 5, 5) is not None
    with compiled(False):
        assert draw_kernels.separable(np.random.default_rng(0), u, 0.1, 1.0, 5, 5) is None
    a = SeparableStream(3, 0.1, rng=np.random.Generator(np.random.MT19937(4)))
    b = SeparableStream(3, 0.1, rng=np.random.Generator(np.random.MT19937(4)))
    with compiled(False):
        X, y = a.draw(10)
    Xb, yb = b.draw(10)
    assert X.tobytes() == Xb.tobytes() and np.array_equal(y, yb)


@given(
    st.integers(0, 2**32 - 1),
    st.sampled_from([1, 3, 20, 100]),
    st.integers(1, 600),
    st.sampled_from(["separable", "flip", "margin"]),
)
def test_games_played_in_a_batch_with_compiled_draws_are_the_engines(seed, d, rounds, kind):
    params = {"kind": kind, "dimension": d, "margin": 0.1, "radius": 1.0, "rate": 0.2,
              "pending": False}  # fmt: skip
    seeds = [seed, seed + 1, seed + 2]
    with compiled(False):
        alone = [
            play(Perceptron(), make({**params, "seed": s}), rounds=rounds).digest for s in seeds
        ]
    streams_ = [make({**params, "seed": s}) for s in seeds]
    batch = play_batch([Perceptron() for _ in seeds], streams_, rounds=rounds)
    assert [g.digest for g in batch] == alone
