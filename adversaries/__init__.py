"""Adversaries: players that choose instances and labels, and certify them.

Examples
--------
>>> import numpy as np
>>> from adversaries import SeparableStream
>>> SeparableStream(4, 0.1, rng=np.random.default_rng(0)).certificate().realizable
True
"""

from adversaries.replay import Replay
from adversaries.streams import SeparableStream

__all__ = ["Replay", "SeparableStream"]
