"""online-learning-games: the referee and the shared vocabulary.

Play a learner against an adversary with :func:`play`, load and play scenario
files with :func:`load_scenario`, read transcripts with :meth:`Transcript.load`.

Examples
--------
>>> import numpy as np
>>> import game
>>> from learners import Perceptron
>>> from adversaries import SeparableStream
>>> tr = game.play(Perceptron(), SeparableStream(10, 0.1, rng=np.random.default_rng(0)),
...                rounds=1000)
>>> s = tr.summary()
>>> s["certificate_verified"], s["updates"] <= s["bound"]
(True, True)
"""

from game.engine import play
from game.errors import (
    CertificateError,
    ExpectationError,
    GameError,
    ParameterError,
    ProtocolError,
    ReplayMismatch,
    ScenarioError,
    TranscriptError,
    UnknownPlayerError,
)
from game.players import register
from game.protocol import Adversary, History, Learner
from game.scenario import Scenario, load_scenario
from game.sweep import SweepResult, play_batch, sweep
from game.theory import Certificate, HalfspaceCertificate
from game.theory.bounds import Bound
from game.transcript import Round, Transcript

__all__ = [
    "Adversary",
    "Bound",
    "Certificate",
    "CertificateError",
    "ExpectationError",
    "GameError",
    "HalfspaceCertificate",
    "History",
    "Learner",
    "ParameterError",
    "ProtocolError",
    "ReplayMismatch",
    "Round",
    "Scenario",
    "ScenarioError",
    "SweepResult",
    "Transcript",
    "TranscriptError",
    "UnknownPlayerError",
    "load_scenario",
    "play",
    "play_batch",
    "register",
    "sweep",
]
