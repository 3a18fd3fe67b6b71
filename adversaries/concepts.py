"""Oblivious random streams of bit vectors labelled by a Boolean target concept."""

from __future__ import annotations

from typing import Any, ClassVar

import attrs
import numpy as np

from adversaries.blocks import BLOCK, BlockStream
from game.errors import ParameterError
from game.players import Footprint, integer_at_least, one_of, real_in, rng_field
from game.theory.concepts import (
    CONCEPT_KINDS,
    BooleanConcept,
    parse_concept,
    random_concept,
)

__all__ = ["MAX_VARIABLES", "ConceptStream"]

#: The most variables of a stream: a block of 256 examples at n = 2¹⁶ is
#: 16 MiB of bits, drawn through 128 MiB of uniform floats.
MAX_VARIABLES = 2**16

#: Bytes per bit of a block while it is drawn (a float64 uniform and the bool kept).
_BLOCK_BYTES = 9


def _bias(value):
    if isinstance(value, str) and value.strip().lower() == "none":
        return None
    return value


def _concept(value):
    if value is None or isinstance(value, BooleanConcept | str):
        return value
    raise ParameterError("concept", value, "a Boolean concept or its readable form (a string)")


@attrs.define(eq=False, on_setattr=attrs.setters.NO_OP)
class ConceptStream(BlockStream):
    """I.i.d. bit vectors labelled by a conjunction, disjunction or decision list.

    The target is ``concept`` (a concept object, or its readable form such as
    ``"x1 ∧ ¬x3"`` or ``"if x2 then + elif ¬x1 then − else +"``), or, when it
    is None, a random concept of ``kind`` with ``size`` literals (or rules)
    over ``variables`` bits, drawn first from ``rng``.

    Each example is drawn on its own (the stream is oblivious: it ignores the
    learner's predictions). With ``bias = q`` its label is +1 with probability
    q and the instance is drawn from the bit distribution conditioned on that
    label, exactly: the target's decision-list regions (cylinder sets) of that
    label are chosen in proportion to their probability and the free bits drawn
    afresh. So a conjunction of 10 literals still gives positives half the time
    with q = 1/2, where uniform bits would give one in 1024. With
    ``bias = None`` instances are drawn from the bit distribution itself and
    labelled by the target. The bit distribution sets every bit to 1 with
    probability ``density``, independently (1/2: uniform on {0, 1}ⁿ; small:
    sparse vectors, as in Winnow's setting).

    Parameters
    ----------
    concept : BooleanConcept or str, optional
        The target; None draws one.
    rng : numpy.random.Generator
        Draws the target (when drawn) and the examples.
    kind : {"conjunction", "monotone-conjunction", "disjunction", "decision-list"}
        The kind of random target (default "conjunction"); ignored with a concept.
    variables : int, optional
        n, from 1 to 2¹⁶ (``MAX_VARIABLES``). With a concept it must match
        (a readable form is read over n variables); without one the default is 10.
    size : int, default 3
        Literals (conjunctions, disjunctions) or rules (decision lists) of a random target.
    bias : float or None, default 0.5
        Probability of a positive example, or None (``"none"`` in a scenario
        file, which has no null) for unconditioned draws.
    density : float, default 0.5
        Probability that a bit is 1, in (0, 1).

    Examples
    --------
    >>> import numpy as np
    >>> from game import play
    >>> from learners.boolean import ConjunctionLearner
    >>> s = ConceptStream("x1 ∧ ¬x3", rng=np.random.default_rng(0), variables=6)
    >>> tr = play(ConjunctionLearner(), s, rounds=200)
    >>> tr.certificate_verified, tr.within_bound, int(tr.mistakes.sum()) <= 7
    (True, True, True)
    >>> X, y = ConceptStream(kind="disjunction", variables=50, size=2, bias=0.3,
    ...                      rng=np.random.default_rng(1)).examples(1000)
    >>> X.shape, X.dtype, bool(0.25 < (y > 0).mean() < 0.35)
    ((1000, 50), dtype('bool'), True)
    """

    presents: ClassVar[str] = "bits"

    concept: Any = attrs.field(
        default=None,
        converter=_concept,
        metadata={"doc": "the target, or its readable form (default: a random one of kind)"},
    )
    rng: np.random.Generator = rng_field("draws the target (when random) and the examples")
    kind: str = attrs.field(
        default="conjunction",
        validator=one_of(*CONCEPT_KINDS),
        metadata={"doc": "kind of the random target: " + ", ".join(CONCEPT_KINDS)},
    )
    variables: int | None = attrs.field(
        default=None,
        validator=attrs.validators.optional(integer_at_least(1, MAX_VARIABLES)),
        metadata={
            "doc": f"n, the number of bits (default: the concept's, or 10; at most {MAX_VARIABLES})"
        },
    )
    size: int = attrs.field(
        default=3,
        validator=integer_at_least(0),
        metadata={"doc": "literals or rules of the random target"},
    )
    bias: float | None = attrs.field(
        default=0.5,
        converter=_bias,
        validator=attrs.validators.optional(real_in(0.0, 1.0)),
        metadata={"doc": "probability of a positive example ('none': unconditioned draws)"},
    )
    density: float = attrs.field(
        default=0.5,
        validator=real_in(0.0, 1.0, closed_low=False, closed_high=False),
        metadata={"doc": "probability that a bit is 1"},
    )
    _target: Any = attrs.field(init=False, default=None, repr=False)
    _regions: dict = attrs.field(init=False, factory=dict, repr=False)
    _rows: list = attrs.field(init=False, factory=list, repr=False)
    _labels: list = attrs.field(init=False, factory=list, repr=False)
    _i: int = attrs.field(init=False, default=0, repr=False)
    _y: int = attrs.field(init=False, default=1, repr=False)

    def __attrs_post_init__(self) -> None:
        target = self.concept
        if isinstance(target, str):
            try:
                target = parse_concept(target, self.variables)
            except ParameterError as exc:
                raise ParameterError("concept", target, exc.expected, exc.note) from None
        if target is None:
            n = 10 if self.variables is None else self.variables
            if self.size > n:
                raise ParameterError("size", self.size, f"at most the {n} variables")
            target = random_concept(self.kind, n, self.size, self.rng)
        elif self.variables is not None and target.variables != self.variables:
            raise ParameterError("variables", self.variables, f"the concept's {target.variables}")
        if target.variables > MAX_VARIABLES:
            raise ParameterError(
                "concept", self.concept, f"a concept over at most {MAX_VARIABLES} variables"
            )
        self._target = target
        regions = target.regions()
        for label in (1, -1):
            mine = [r for r in regions if r.label == label]
            if mine:
                logs = np.array([r.log_weight(self.density) for r in mine])
                weights = np.exp(logs - logs.max())
                self._regions[label] = (mine, weights / weights.sum())
        if self.bias is not None:
            for label, share, word, only in (
                (1, self.bias, "positive", 0),
                (-1, 1 - self.bias, "negative", 1),
            ):
                if share > 0 and label not in self._regions:
                    raise ParameterError(
                        "bias", self.bias, f"{only} or None", f"{target} has no {word} examples"
                    )

    @classmethod
    def footprint(cls, params: dict, rounds: int) -> Footprint:
        """Its sizes (:func:`game.players.estimate`): n bytes a round, blocks of 256 × n."""
        n = int(params.get("variables") or 10)
        return Footprint(instance=n, entries=n, own=_BLOCK_BYTES * BLOCK * n, key="variables")

    @property
    def target(self) -> BooleanConcept:
        """The target concept."""
        return self._target

    def draw(self, m: int) -> tuple[np.ndarray, np.ndarray]:
        """The next ``m`` examples from the stream's distribution, as (X bool, y int)."""
        rng, n = self.rng, self._target.variables
        X = rng.random((m, n)) < self.density
        if self.bias is not None:
            want = np.where(rng.random(m) < self.bias, 1, -1)
            for label in (1, -1):
                rows = np.flatnonzero(want == label)
                if rows.size == 0:
                    continue
                regions, weights = self._regions[label]
                picks = rng.choice(len(regions), size=rows.size, p=weights)
                for j, region in enumerate(regions):
                    chosen = rows[picks == j]
                    if chosen.size and region.variables.size:
                        X[np.ix_(chosen, region.variables)] = region.values
        y = self._target.labels(X).astype(np.int64)
        X.flags.writeable = False
        return X, y

    def certificate(self) -> BooleanConcept:
        """The target concept."""
        return self._target
