"""Mistake bounds of the Littlestone dimension: SOA's, and what shattered trees force.

Shalev-Shwartz & Ben-David, *Understanding Machine Learning* §21.1.1 (the
chapter of seed 000, which holds §21.4): Lemma 21.6 (no algorithm has a
mistake bound below Ldim(H)), Lemma 21.7 (SOA makes at most Ldim(H) mistakes
on every sequence realised by H); §21.4 (seed 000): halfspaces in d ≥ 2
dimensions shatter trees of every depth, so no algorithm has a mistake bound
for them.

Examples
--------
>>> from game.theory.bounds import soa_bound, shattered_tree_lower_bound
>>> soa_bound(3).value, shattered_tree_lower_bound(3).kind
(3.0, 'lower')
"""

from __future__ import annotations

from game.errors import check_integer
from game.theory.bounds._base import Bound

__all__ = [
    "HALFSPACE_TREE_SOURCE",
    "LDIM_LOWER_SOURCE",
    "SOA_SOURCE",
    "halfspace_tree_lower_bound",
    "ldim_lower_bound",
    "shattered_tree_lower_bound",
    "soa_bound",
]

SOA_SOURCE = (
    "Shalev-Shwartz & Ben-David, Understanding Machine Learning §21.1.1, Lemma 21.7 "
    "(the chapter of seed 000)"
)
LDIM_LOWER_SOURCE = (
    "Shalev-Shwartz & Ben-David, Understanding Machine Learning §21.1.1, Lemma 21.6 "
    "(the chapter of seed 000)"
)
HALFSPACE_TREE_SOURCE = (
    "Shalev-Shwartz & Ben-David, Understanding Machine Learning §21.4 (seed 000): "
    "halfspaces in d ≥ 2 dimensions have Ldim = ∞"
)


def soa_bound(ldim: int) -> Bound:
    """SOA errs at most Ldim(H) times on every sequence some h ∈ H labels (Lemma 21.7).

    Examples
    --------
    >>> print(soa_bound(4))
    mistakes ≤ 4  (SOA: mistakes ≤ Ldim(H) = 4; Shalev-Shwartz & Ben-David, ...)
    """
    ldim = check_integer("ldim", ldim, low=0)
    return Bound(ldim, f"SOA: mistakes ≤ Ldim(H) = {ldim}", SOA_SOURCE)


def shattered_tree_lower_bound(depth: int) -> Bound:
    """Walking a shattered tree of depth d forces d mistakes on any deterministic learner.

    Lemma 21.6: answering the opposite of every prediction along a tree that H
    shatters keeps the labels realisable, so every learner's mistake bound on
    H is at least the depth, and at least Ldim(H) on the deepest tree.

    Examples
    --------
    >>> b = shattered_tree_lower_bound(5)
    >>> b.value, b.kind, b.holds(5), b.holds(4)
    (5.0, 'lower', True, False)
    """
    depth = check_integer("depth", depth, low=0)
    return Bound(
        depth,
        f"mistakes ≥ {depth}: the depth of a tree the class shatters (≤ Ldim(H))",
        LDIM_LOWER_SOURCE,
        kind="lower",
    )


def ldim_lower_bound(ldim: int) -> Bound:
    """No deterministic learner has a mistake bound below Ldim(H) (Lemma 21.6).

    Examples
    --------
    >>> print(ldim_lower_bound(3))
    mistakes ≥ 3  (mistakes ≥ Ldim(H) = 3 for every deterministic learner; ...)
    """
    ldim = check_integer("ldim", ldim, low=0)
    return Bound(
        ldim,
        f"mistakes ≥ Ldim(H) = {ldim} for every deterministic learner",
        LDIM_LOWER_SOURCE,
        kind="lower",
    )


def halfspace_tree_lower_bound(rounds: int) -> Bound:
    """Every round of the §21.4 tree walk is a mistake for a deterministic learner.

    Examples
    --------
    >>> halfspace_tree_lower_bound(30).value
    30.0
    """
    rounds = check_integer("rounds", rounds, low=0)
    return Bound(
        rounds,
        f"mistakes ≥ {rounds}: every round, along a tree halfspaces shatter",
        HALFSPACE_TREE_SOURCE,
        kind="lower",
    )
