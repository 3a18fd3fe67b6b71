"""Hostile players: no sequence of writes by either player after a round changes the record.

For random games (the Perceptron against a scripted adversary over random
vectors, handed over in any of the ways an adversary may hand them: fresh
arrays, views of its own matrix, one reused buffer, rows of a read-only block)
and a random sequence of writes by either player after a round (the learner
into what it was handed, its ``base``, ``np.asarray`` of it, or an array it
kept from an earlier round, during the game or after it; the adversary into
what it was handed and into the items of its history), the recorded rounds
equal those of an undisturbed twin game, the certificate verifies and the
bound is the twin's. And for random attacks on the history (assigning,
appending, deleting, item assignment), the attack raises a one-line
``ProtocolError`` naming the adversary and the round, and the file keeps the
rounds before it as they were played.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from game import HalfspaceCertificate, ProtocolError, Transcript, play
from game.players import _registry as registry
from learners import Perceptron

MODES = ("fresh", "rows", "buffer", "sealed")
LEARNER_TARGETS = ("x", "x.base", "np.asarray(x)", "kept", "kept.base")
ADVERSARY_TARGETS = ("x", "x.base", "history item", "history item.base", "history slice")


def _write(target, value: float) -> None:
    """Write ``value`` everywhere in ``target``, making it writeable first where numpy allows."""
    if not isinstance(target, np.ndarray):
        return
    try:
        target.flags.writeable = True
    except ValueError:
        pass
    try:
        target[...] = value
    except ValueError:
        pass


class Scripted:
    """Plays rows of X labelled by sign(u·x); hands them over as ``mode`` says; and, at the
    start of a round, makes the writes ``plan`` lists for the round before."""

    presents = "vector"

    def __init__(self, X, u, mode="fresh", plan=None):
        self.X = np.array(X)
        self.y = [1 if s > 0 else -1 for s in self.X @ u]
        self.u, self.mode, self.plan = u, mode, plan or {}
        self.buffer = np.empty(self.X.shape[1])
        self.sealed = np.frombuffer(self.X.tobytes()).reshape(self.X.shape)
        self.handed: list = []
        self.t = 0

    def instance(self, history):
        for target, index, value in self.plan.get(self.t, ()):
            self._attack(history, target, index, value)
        if self.t == len(self.y):
            return None
        i, self.t = self.t, self.t + 1
        if self.mode == "fresh":
            return self.X[i].copy()
        if self.mode == "rows":
            return self.X[i]
        if self.mode == "sealed":
            return self.sealed[i]
        self.buffer[:] = self.X[i]
        return self.buffer

    def _attack(self, history, target, index, value):
        if target == "x" and self.handed:
            _write(self.handed[index % len(self.handed)], value)
        elif target == "x.base" and self.handed:
            _write(self.handed[index % len(self.handed)].base, value)
        elif target.startswith("history") and len(history):
            item = history.instances[index % len(history)]
            if target == "history item":
                _write(item, value)
            elif target == "history item.base":
                _write(item.base, value)
            else:
                for x in history.instances[: index % len(history) + 1]:
                    _write(x, value)

    def label(self, x, p, history):
        self.handed.append(x)
        return self.y[self.t - 1]

    def certificate(self):
        return HalfspaceCertificate(self.u)


class Hostile(Perceptron):
    """The Perceptron, which after learning from a round writes as ``plan`` says."""

    def __init__(self, plan):
        super().__init__()
        self.plan, self.kept, self.t = plan, [], 0

    def update(self, x, y):
        changed = super().update(x, y)
        self.t += 1
        self.kept.append(x)
        for target, index, value in self.plan.get(self.t, ()):
            self.attack(x, target, index, value)
        return changed

    def attack(self, x, target, index, value):
        kept = self.kept[index % len(self.kept)]
        routes = {
            "x": lambda: x,
            "x.base": lambda: x.base,
            "np.asarray(x)": lambda: np.asarray(x),
            "kept": lambda: kept,
            "kept.base": lambda: kept.base,
        }
        _write(routes[target](), value)

    def after_the_game(self, value):
        for x in self.kept:
            _write(x, value)
            _write(x.base, value)


VALUES = st.sampled_from([0.0, -1.0, 7.5, 1e300, float("nan")])


@st.composite
def games(draw):
    """A game's data, how it is handed over, and both players' plans of writes by round."""
    n = draw(st.integers(1, 25))
    d = draw(st.integers(1, 4))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    u = rng.standard_normal(d)
    X = rng.standard_normal((n, d))
    X[np.abs(X @ u) < 1e-3] += 0.01 * np.sign(u)  # no point on the separator
    mode = draw(st.sampled_from(MODES))
    rounds = st.integers(1, n)

    def plan(targets):
        writes = draw(
            st.lists(
                st.tuples(rounds, st.sampled_from(targets), st.integers(0, 50), VALUES),
                max_size=8,
            )
        )
        out: dict[int, list] = {}
        for t, target, index, value in writes:
            out.setdefault(t, []).append((target, index, value))
        return out

    return X, u, mode, plan(LEARNER_TARGETS), plan(ADVERSARY_TARGETS), draw(VALUES)


@given(games())
def test_no_write_by_either_player_after_a_round_changes_the_recorded_rounds(game):
    X, u, mode, learner_plan, adversary_plan, late = game
    twin = play(Perceptron(), Scripted(X, u), rounds=len(X))
    learner = Hostile(learner_plan)
    played = play(learner, Scripted(X, u, mode, adversary_plan), rounds=len(X))
    learner.after_the_game(late)
    assert played.first_difference(twin) is None
    assert np.array_equal(played.instances, X)
    assert np.array_equal(played.predictions, twin.predictions)
    assert np.array_equal(played.labels, twin.labels)
    assert np.array_equal(played.updated, twin.updated)
    assert played.rounds_digest == twin.rounds_digest
    assert played.certificate_verified is True and played.bound == twin.bound


def _assign(history, index):
    history.labels = [1] * len(history)


def _set_item(history, index):
    history.labels[index % len(history)] = 1


def _set_prediction(history, index):
    history.predictions[index % len(history)] = 0.0


def _delete(history, index):
    del history.instances[index % len(history)]


def _append(history, index):
    history.instances.append(history.instances[index % len(history)])


def _insert(history, index):
    history.labels.insert(index % len(history), -1)


def _write_read_only(history, index):
    history.instances[index % len(history)][0] = 1e9


ATTACKS = [_assign, _set_item, _set_prediction, _delete, _append, _insert, _write_read_only]


class Meddler(Scripted):
    """Attacks its history at round ``at``, in ``instance`` or in ``label``."""

    def __init__(self, X, u, attack, at, where, index):
        super().__init__(X, u)
        self.attack, self.at, self.where, self.index = attack, at, where, index

    def instance(self, history):
        if self.where == "instance" and history.t == self.at:
            self.attack(history, self.index)
        return super().instance(history)

    def label(self, x, p, history):
        if self.where == "label" and history.t == self.at:
            self.attack(history, self.index)
        return super().label(x, p, history)


@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(2, 12),
    attack=st.sampled_from(ATTACKS),
    where=st.sampled_from(["instance", "label"]),
    index=st.integers(0, 20),
    data=st.data(),
)
def test_an_attack_on_the_history_is_a_one_line_error_naming_the_adversary_and_the_round(
    seed, n, attack, where, index, data, tmp_path_factory
):
    rng = np.random.default_rng(seed)
    u, X = rng.standard_normal(3), rng.standard_normal((n, 3))
    at = data.draw(st.integers(2, n), label="at")
    path = tmp_path_factory.mktemp("history") / "game.jsonl"
    registry._registered["history-meddler"] = Meddler
    try:
        try:
            play(Perceptron(), Meddler(X, u, attack, at, where, index), rounds=n, out=path)
        except ProtocolError as error:
            message = str(error)
        else:
            raise AssertionError(f"{attack.__name__} was not caught")
    finally:
        del registry._registered["history-meddler"]
    assert "\n" not in message
    assert message.startswith(f"adversary history-meddler, round {at}: {where} raised ")
    kept = Transcript.load(path)
    twin = play(Perceptron(), Scripted(X, u), rounds=n)
    assert kept.status == "aborted" and len(kept) == at - 1
    assert kept.first_difference(twin) == at  # rounds 1 … at - 1 as played, then none
    assert np.array_equal(kept.instances, X[: at - 1])
