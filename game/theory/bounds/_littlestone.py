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

import math

from game.errors import check_instance, check_integer
from game.theory.bounds._base import Bound

__all__ = [
    "FORCED_SOURCE",
    "HALFSPACE_TREE_SOURCE",
    "LDIM_LOWER_SOURCE",
    "SOA_SOURCE",
    "deviation_lower_bound",
    "expected_tree_lower_bound",
    "forced_lower_bound",
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
FORCED_SOURCE = (
    "Shalev-Shwartz & Ben-David, Understanding Machine Learning §21.1.1, Lemma 21.6 "
    "(the chapter of seed 000): the adversary's game against one deterministic learner, "
    "searched exactly (game.theory.solve.worst_case)"
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


def expected_tree_lower_bound(depth: int) -> Bound:
    """A shattered tree of depth d walked against the likelier label forces d/2 expected mistakes.

    A learner that randomises declares its mixture p ∈ [−1, 1] (it predicts +1
    with probability (1 + p)/2). Answering the label it is *less* likely to
    predict (−1 when p ≥ 0, else +1) along a tree H shatters keeps the labels
    realisable (Lemma 21.6's walk) and costs the learner ``(1 + |p|)/2`` ≥ 1/2
    expected mistakes each round, whatever it does: every learner,
    deterministic or not, errs at least d/2 times in expectation. The
    quantity is ``"expected mistakes"``: Σₜ (1 − yₜpₜ)/2, read from the
    learner's declared probabilities (for a deterministic learner it is its
    mistakes).

    Examples
    --------
    >>> b = expected_tree_lower_bound(5)
    >>> b.value, b.quantity, b.holds(2.5), b.holds(2.4)
    (2.5, 'expected mistakes', True, False)
    """
    depth = check_integer("depth", depth, low=0)
    return Bound(
        depth / 2,
        f"expected mistakes ≥ {depth}/2: a tree of depth {depth} the class shatters, "
        "walked against the more likely label",
        LDIM_LOWER_SOURCE,
        kind="lower",
        quantity="expected mistakes",
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


def forced_lower_bound(value: float, learner: str) -> Bound:
    """The most mistakes an adversary can force on one deterministic learner.

    The game of Lemma 21.6, every label consistent with some hypothesis of
    H, searched exactly for one learner (:func:`game.theory.solve.worst_case`):
    an adversary that plays the strategy found forces ``value`` mistakes on
    that learner, and no adversary forces more. It is at least Ldim(H)
    (Lemma 21.6) and, for SOA, exactly Ldim(H) (Lemma 21.7).

    Parameters
    ----------
    value : int or math.inf
        The value of the game: an integer ≥ 0, or ``inf`` when the learner can
        be made to err without end.
    learner : str
        The learner the game was solved for.

    Examples
    --------
    >>> b = forced_lower_bound(5, "halving")
    >>> b.value, b.kind, b.holds(5), b.holds(4)
    (5.0, 'lower', True, False)
    >>> print(b.theorem)
    mistakes ≥ 5: the most an adversary can force on halving with labels some hypothesis gives
    """
    if not (isinstance(value, float) and math.isinf(value) and value > 0):
        value = check_integer("value", value, low=0)
    learner = check_instance("learner", learner, str, "the learner's name (a string)")
    shown = "∞" if math.isinf(value) else str(value)
    return Bound(
        value,
        f"mistakes ≥ {shown}: the most an adversary can force on {learner} "
        "with labels some hypothesis gives",
        FORCED_SOURCE,
        kind="lower",
    )


def deviation_lower_bound(forced: int, ldim: int, round: int, learner: str) -> Bound:
    """What a forcing adversary still forces when the learner is not the one it was solved for.

    An adversary playing the strategy solved for one learner meets another
    that predicts otherwise at round t. From then on it plays Lemma 21.6's
    adversary (a point of largest min(Ldim(V_x⁺), Ldim(V_x⁻)), the label
    against the prediction), which forces Ldim(V) more mistakes on any
    deterministic learner, V the hypotheses left after round t: with the
    ``forced`` mistakes made by the end of round t, ``forced + ldim``.

    Parameters
    ----------
    forced : int
        The learner's mistakes by the end of the round it left the strategy.
    ldim : int
        Ldim(V) of the hypotheses consistent after that round.
    round : int
        The round (from 1) where it left the strategy.
    learner : str
        The learner the strategy was solved for.

    Examples
    --------
    >>> b = deviation_lower_bound(2, 3, 4, "halving")
    >>> b.value, b.kind
    (5.0, 'lower')
    >>> print(b.theorem)
    mistakes ≥ 2 + 3: the learner left the strategy solved for halving at round 4 ...
    """
    forced = check_integer("forced", forced, low=0)
    ldim = check_integer("ldim", ldim, low=0)
    round = check_integer("round", round, low=1)
    learner = check_instance("learner", learner, str, "the learner's name (a string)")
    return Bound(
        forced + ldim,
        f"mistakes ≥ {forced} + {ldim}: the learner left the strategy solved for {learner} "
        f"at round {round} with {forced} mistakes made, and Lemma 21.6's adversary forces "
        f"Ldim = {ldim} more on the hypotheses left",
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
