"""game.protocol: the players' protocols and the History an adversary sees."""

import numpy as np
import pytest

from adversaries import Replay, SeparableStream
from game.protocol import Adversary, History, Learner
from learners import Perceptron


def test_an_empty_history_is_round_one():
    h = History([], [], [])
    assert len(h) == 0
    assert h.t == 1
    assert h.mistakes == 0


def test_history_counts_completed_rounds_and_mistakes_with_sign_zero_plus_one():
    # p = 0.0 predicts +1: a mistake against -1; -0.5 against -1 and 0.3 against +1 are right
    h = History([np.zeros(2)] * 4, [0.0, -0.5, 0.3, -1.0], [-1, -1, 1, 1])
    assert len(h) == 4
    assert h.t == 5
    assert h.mistakes == 2


def test_history_is_a_live_view_on_the_engines_lists():
    xs, ps, ys = [], [], []
    h = History(xs, ps, ys)
    xs.append(np.ones(2))
    ps.append(-1.0)
    ys.append(1)
    assert len(h) == 1 and h.t == 2 and h.mistakes == 1
    assert list(h.predictions) == [-1.0] and list(h.labels) == [1]
    assert np.array_equal(h.instances[0], np.ones(2))


def test_nothing_read_from_a_history_changes_the_columns_it_shows():
    xs, ps, ys = [np.zeros(2)], [1.0], [1]
    h = History(xs, ps, ys)
    for column in (h.instances, h.predictions, h.labels):
        with pytest.raises(TypeError):
            column[0] = 5
        with pytest.raises(AttributeError):
            column.append(1)
        with pytest.raises(TypeError):
            del column[0]
    with pytest.raises(AttributeError):
        h.labels = [-1]
    shown = h.instances[0]
    with pytest.raises(ValueError):
        shown[0] = 9.0
    shown.flags.writeable = True  # a read-only copy: making it writable reaches nothing
    shown[0] = 9.0
    assert xs[0][0] == 0.0 and ys == [1] and ps == [1.0] and len(h) == 1


def test_the_projects_players_satisfy_the_protocols():
    assert isinstance(Perceptron(), Learner)
    assert isinstance(SeparableStream(2, 0.1, rng=np.random.default_rng(0)), Adversary)
    assert isinstance(Replay(instances=[[1.0]], labels=[1]), Adversary)


def test_an_object_missing_a_method_is_not_a_player():
    class PredictOnly:
        def predict(self, x):
            return 1.0

    class NoCertificate:
        def instance(self, history):
            return None

        def label(self, x, p, history):
            return 1

    assert not isinstance(PredictOnly(), Learner)
    assert not isinstance(NoCertificate(), Adversary)
    assert not isinstance(Perceptron(), Adversary)
