"""Mistake bounds for Boolean concepts: conjunctions, decision lists, Winnow; the n lower bound.

The conjunction and decision-list bounds and the lower bound are Balcan's
lecture 3 (seed 003), §2.1 and §2.2. Winnow is not among the seed texts: its
two bounds are Littlestone's (1988) for the elimination variant (Winnow1 with
α = 2, θ = n) and the halving variant (Winnow2 with α = 2, θ = n), in the form
Blum's lecture notes on online learning state them; the potential argument is
in :func:`winnow_bound`.

Examples
--------
>>> from game.theory.bounds import conjunction_bound, winnow_bound
>>> conjunction_bound(10).value
11.0
>>> winnow_bound(1024, 2, "elimination").value
45.0
"""

from __future__ import annotations

import math

from game.errors import check_choice, check_integer
from game.theory.bounds._base import Bound

__all__ = [
    "CONJUNCTION_SOURCE",
    "DECISION_LIST_SOURCE",
    "LOWER_BOUND_SOURCE",
    "WINNOW_SOURCES",
    "conjunction_bound",
    "conjunction_lower_bound",
    "decision_list_bound",
    "winnow_bound",
]

CONJUNCTION_SOURCE = "Balcan lecture 3 (seed 003), §2.1 Conjunctions: at most n + 1 mistakes"
LOWER_BOUND_SOURCE = (
    "Balcan lecture 3 (seed 003), §2.1 Conjunctions, Lower Bound: "
    "no deterministic algorithm does better than n"
)
DECISION_LIST_SOURCE = "Balcan lecture 3 (seed 003), §2.2 Decision lists: (4n + 2)(L + 1)"
WINNOW_SOURCES = {
    "elimination": (
        "Littlestone 1988, Winnow1 (α = 2, θ = n); Blum's notes on online learning, "
        "Winnow for disjunctions, basic version (not among the seed texts)"
    ),
    "halving": (
        "Littlestone 1988, Winnow2 (α = 2, θ = n); Blum's notes on online learning, "
        "Winnow for disjunctions, halving version (not among the seed texts)"
    ),
}


def _count(value, name: str) -> int:
    return check_integer(name, value, low=0)


def conjunction_bound(variables: int) -> Bound:
    """The elimination algorithm for conjunctions makes at most n + 1 mistakes (003 §2.1).

    Its hypothesis always contains the target's literals, so it never errs on a
    negative example; the first mistake on a positive one leaves n literals, and
    every later one removes at least one more.

    Parameters
    ----------
    variables : int
        n, the length of the bit vectors.

    Examples
    --------
    >>> b = conjunction_bound(4)
    >>> b.value, b.theorem
    (5.0, 'mistakes ≤ n + 1 with n = 4')
    """
    n = _count(variables, "variables")
    return Bound(n + 1, f"mistakes ≤ n + 1 with n = {n}", CONJUNCTION_SOURCE)


def conjunction_lower_bound(variables: int) -> Bound:
    """Every deterministic learner of conjunctions can be forced into n mistakes (003 §2.1).

    The adversary shows the n vectors with all bits but one set to 1, and puts
    x_i in the (monotone) target exactly when the learner says True on the i-th.

    Examples
    --------
    >>> b = conjunction_lower_bound(20)
    >>> b.value, b.kind, b.holds(20), b.holds(19)
    (20.0, 'lower', True, False)
    """
    n = _count(variables, "variables")
    return Bound(
        n,
        f"mistakes ≥ n = {n} for every deterministic learner",
        LOWER_BOUND_SOURCE,
        kind="lower",
    )


def decision_list_bound(variables: int, length: int) -> Bound:
    """The decision-list algorithm makes at most (4n + 2)(L + 1) mistakes (003 §2.2).

    Every mistake moves at least one of the 4n + 2 rules one level down; rule i
    of the target never goes below level i, so the target's default keeps every
    rule within L + 1 levels of the top.

    Parameters
    ----------
    variables : int
        n.
    length : int
        L, the number of rules of the target before its default ``True → B``.

    Examples
    --------
    >>> decision_list_bound(2, 1).value
    20.0
    """
    n = _count(variables, "variables")
    L = _count(length, "length")
    return Bound(
        (4 * n + 2) * (L + 1),
        f"mistakes ≤ (4n + 2)(L + 1) with n = {n}, L = {L}",
        DECISION_LIST_SOURCE,
    )


def winnow_bound(variables: int, relevant: int, variant: str = "elimination") -> Bound:
    """Winnow's mistakes on a monotone disjunction of r of n variables.

    - elimination (zero the active weights on a false positive):
      1 + 2r(1 + log₂ n);
    - halving (halve them): 2 + 3r(1 + log₂ n).

    Proof: a false negative doubles at least one relevant weight, and a relevant
    weight is doubled only while it is below n, so at most r(1 + log₂ n) times;
    no relevant weight ever shrinks (a negative example has every relevant bit
    0). The total weight starts at n, grows by less than n on a promotion and
    drops by at least n (elimination) or n/2 (halving) on a demotion, and stays
    ≥ 0: so demotions ≤ 1 + promotions, or ≤ 2 + 2·promotions.

    Parameters
    ----------
    variables : int
        n, which is also Winnow's threshold.
    relevant : int
        r, the number of variables of the target disjunction (0 ≤ r ≤ n).
    variant : {"elimination", "halving"}

    Examples
    --------
    >>> winnow_bound(16, 1, "halving").value
    17.0
    >>> winnow_bound(16, 0).value   # the constant False: one demotion at most
    1.0
    """
    n = check_integer("variables", variables, low=1)
    r = check_integer("relevant", relevant, low=0, high=n)
    variant = check_choice("variant", variant, WINNOW_SOURCES)
    if variant == "elimination":
        value = 1 + 2 * r * (1 + math.log2(n))
        shape = "1 + 2r(1 + log₂ n)"
    else:
        value = 2 + 3 * r * (1 + math.log2(n))
        shape = "2 + 3r(1 + log₂ n)"
    return Bound(
        value,
        f"mistakes ≤ {shape} with n = {n}, r = {r} ({variant})",
        WINNOW_SOURCES[variant],
    )
