"""Learners: players that predict in [-1, 1] and learn from the revealed label.

Examples
--------
>>> from learners import Perceptron
>>> Perceptron().deterministic
True
"""

from learners.perceptron import Perceptron

__all__ = ["Perceptron"]
