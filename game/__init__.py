"""online-learning-games: the referee and the shared vocabulary.

Play a learner against an adversary with :func:`play`, load and play scenario
files (or the built-in ones by name, :func:`builtin_scenarios`) with
:func:`load_scenario`, read transcripts with :meth:`Transcript.load`.
This façade holds what most users need; the rest lives in rooms named for what
they are for, each with a façade of its own:

- :mod:`game.errors`, :mod:`game.protocol`, :mod:`game.engine`,
  :mod:`game.scenario`: the errors and the validation vocabulary, the players'
  protocol, the round loop, scenario files;
- :mod:`game.transcript`: the record of a game, its file and its digest;
- :mod:`game.theory`: certificates, losses, regret, proofs, and its
  subpackages ``bounds`` (the theorems), ``concepts`` (Boolean concepts, finite
  classes) and ``littlestone`` (Ldim, shattered trees);
- :mod:`game.players`: the fields a player declares, the registry, the
  lockstep protocol;
- :mod:`game.sweep`: many seeds, grids, executors, lockstep batches, tournaments;
- :mod:`game.testing`: conformance checks, the fuzzer, ``selfcheck``, and
  hypothesis strategies (``game.testing.strategies``);
- :mod:`game.viz`: HTML views, figures (``plots``), the report (``report``);
- :mod:`game.human`: a person at the table (``HumanLearner``, ``HumanAdversary``, their seats);
- :mod:`game.cli`: ``python -m game``.

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
from game.human import HumanAdversary, HumanLearner
from game.players import register
from game.protocol import Adversary, History, Learner
from game.scenario import Scenario, builtin_scenarios, load_scenario
from game.sweep import SweepResult, TournamentResult, play_batch, sweep, tournament
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
    "HumanAdversary",
    "HumanLearner",
    "Learner",
    "ParameterError",
    "ProtocolError",
    "ReplayMismatch",
    "Round",
    "Scenario",
    "ScenarioError",
    "SweepResult",
    "TournamentResult",
    "Transcript",
    "TranscriptError",
    "UnknownPlayerError",
    "builtin_scenarios",
    "load_scenario",
    "play",
    "play_batch",
    "register",
    "sweep",
    "tournament",
]
