"""The Block–Novikoff proof's two claims, checked round by round on generated games."""

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from adversaries import Replay, SeparableStream
from game import GameError, Transcript, play
from game.testing.strategies import separable_sequences
from game.theory import block_novikoff_claims, margin_perceptron_claims
from learners import MarginPerceptron, OnlineGradientDescent, Perceptron

CONVENTIONS = [
    {"zero_label": z, "update": u, "normalize": n}
    for z, u, n in itertools.product((1, -1), ("nonpositive", "mistake"), (False, True))
]


@given(seq=separable_sequences())
def test_perceptron_proof_claims_hold_on_every_update_round(seq):
    for convention in CONVENTIONS:
        tr = play(Perceptron(**convention), seq.adversary(), rounds=len(seq), snapshots=True)
        proof = tr.proof_claims()
        assert proof.holds, (convention, proof.rows()[:3])
        assert list(proof.rounds) == [t + 1 for t in np.flatnonzero(tr.updated)]
        # after M updates w·u ≥ M·γ and ‖w‖² ≤ M·R²: the proof's conclusion
        m = len(proof.rounds)
        assert proof.wu[-1] >= m * proof.margin * (1 - 1e-9) - 1e-9
        assert proof.norm2[-1] <= m * proof.radius**2 * (1 + 1e-9) + 1e-9


@given(seq=separable_sequences(), eta=st.floats(1e-3, 1e3))
def test_ogd_proof_claims_scale_with_eta(seq, eta):
    tr = play(OnlineGradientDescent(eta=eta), seq.adversary(), rounds=len(seq), snapshots=True)
    proof = block_novikoff_claims(tr)  # η read from the header
    assert proof.holds
    np.testing.assert_allclose(proof.progress_floor, eta * proof.margin)


@given(seq=separable_sequences(max_size=30), share=st.floats(0.3, 1.0))
def test_margin_perceptron_proof_claims_hold(seq, share):
    norms = np.linalg.norm(seq.X, axis=1)
    gamma = min(1.0, share * float(np.min(seq.y * (seq.X @ seq.u) / norms)))
    tr = play(MarginPerceptron(gamma=gamma), seq.adversary(), rounds=len(seq), snapshots=True)
    assert margin_perceptron_claims(tr).holds


class _Reckless(Perceptron):
    """A broken Perceptron: it also updates when y·w·x > 0 (so ‖w‖² may grow by more)."""

    def update(self, x, y):
        self.predict(x)
        self._w += y * x
        return True


def test_the_growth_claim_catches_an_update_on_a_correct_round():
    X = np.array([[1.0, 0.0], [1.0, 0.0]])
    tr = play(
        _Reckless(), Replay(instances=X, labels=[1, 1], separator=[1, 0]), rounds=2, snapshots=True
    )
    proof = tr.proof_claims()
    assert not proof.holds and proof.first_failure() == 2
    assert proof.rows()[1]["growth"] == 3.0 and proof.rows()[1]["growth_ceiling"] == 1.0


def test_claims_survive_a_round_trip_through_the_file(tmp_path):
    stream = SeparableStream(4, 0.2, 1.0, np.random.default_rng(0))
    tr = play(Perceptron(normalize=True), stream, rounds=200, snapshots=True, out=tmp_path / "g")
    loaded = Transcript.load(tmp_path / "g")
    a, b = tr.proof_claims(), loaded.proof_claims()
    assert a.holds and b.holds
    np.testing.assert_allclose(a.progress, b.progress)
    np.testing.assert_allclose(a.growth, b.growth)


def test_the_proof_needs_snapshots_and_a_halfspace():
    stream = SeparableStream(3, 0.2, 1.0, np.random.default_rng(0))
    with pytest.raises(GameError, match="snapshots=True"):
        play(Perceptron(), stream, rounds=5).proof_claims()
    # x and 2x labelled apart: no separator through the origin, so Replay hands no certificate
    X = [[1.0, 0.0], [2.0, 0.0]]
    tr = play(Perceptron(), Replay(instances=X, labels=[1, -1]), rounds=2, snapshots=True)
    with pytest.raises(GameError, match="halfspace certificate"):
        tr.proof_claims()
