"""Mistake bounds of the Perceptron family."""

from __future__ import annotations

import math

from game.bounds.base import Bound

__all__ = ["block_novikoff"]

BLOCK_NOVIKOFF_SOURCE = (
    "CS229 notes (seed 001), Theorem of Block 1962 and Novikoff 1962; "
    "Balcan lecture 3 (seed 003), Theorem 1; Abernethy lecture 16 (seed 004), Theorem 16.2"
)


def block_novikoff(radius: float, margin: float) -> Bound:
    """Block–Novikoff: the Perceptron updates at most (R/γ)² times.

    Stated for mistakes in the sources; the proof counts every update made on a
    round with y·w·x ≤ 0, so it bounds updates under every convention (and
    mistakes, which never outnumber updates). With R = 1 it is Balcan's 1/γ²
    (lecture 3, Theorem 1); with γ = 1/‖w*‖ and R = 1 it is Abernethy's ‖w*‖²
    (lecture 16, Theorem 16.2).

    Parameters
    ----------
    radius : float
        R: the largest norm of an instance played.
    margin : float
        γ: the smallest y·(u·x) over the rounds played, for a unit vector u.
        A margin ≤ 0 means no separator is known and the bound is infinite.

    Returns
    -------
    Bound
        ``(R/γ)²`` on the number of updates.

    Examples
    --------
    >>> block_novikoff(1.0, 0.25).value
    16.0
    >>> block_novikoff(1.0, 0.0).value
    inf
    """
    value = (radius / margin) ** 2 if margin > 0 else math.inf
    return Bound(
        value,
        f"updates ≤ (R/γ)² with R = {radius:.6g}, γ = {margin:.6g}",
        BLOCK_NOVIKOFF_SOURCE,
        quantity="updates",
    )
