"""The Batch Perceptron of Shalev-Shwartz & Ben-David §9.1.2 (seed 002).

Batch Perceptron: w⁽¹⁾ = 0; for t = 1, 2, …: if some i has y_i⟨w⁽ᵗ⁾, x_i⟩ ≤ 0,
w⁽ᵗ⁺¹⁾ = w⁽ᵗ⁾ + y_i·x_i, else output w⁽ᵗ⁾. Theorem 9.1: on a separable set it
stops after at most (RB)² iterations with every example classified correctly,
where R = max ‖x_i‖ and B = min{‖w‖ : y_i⟨w, x_i⟩ ≥ 1 for all i}.

:meth:`BatchPerceptron.fit` runs the loop directly; as a player the same
learner is the online Perceptron, and against
:class:`adversaries.picker.MisclassifiedPicker` the game is the same loop with
every iteration logged as a round.
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs
import numpy as np

from game.errors import GameError, ParameterError, check_choice, check_generator, check_integer
from game.players import integer_at_least
from game.theory import HalfspaceCertificate
from game.theory.bounds import Bound, batch_perceptron
from learners.perceptron import (
    Perceptron,
    bound_with,
    halfspace_margins,
    instances_as_used,
    realizable,
    weights_finite,
)

__all__ = ["BatchPerceptron"]


@attrs.define(eq=False, on_setattr=attrs.setters.NO_OP)
class BatchPerceptron:
    """The Batch Perceptron of §9.1.2: the batch loop (fit), and the Perceptron as a player.

    As a player it is the online Perceptron with §9.1.2's rule (update
    w += y·x whenever y⟨w, x⟩ ≤ 0, predict sign(w·x) with sign(0) = +1), and
    its ``mistake_bound`` is Theorem 9.1's (RB)² on the iterations (updates).

    Parameters
    ----------
    dimension : int, optional
        The instances' dimension; by default taken from the first instance.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1.0, 0.5], [0.5, 1.0], [-1.0, -0.2]])
    >>> w, iterations = BatchPerceptron().fit(X, np.array([1, 1, -1]))
    >>> w.tolist(), iterations
    ([1.0, 0.5], 1)
    """

    proof: ClassVar[str] = "perceptron"
    deterministic: ClassVar[bool] = True
    plays: ClassVar[frozenset[str]] = frozenset({"vector", "bits", "advice"})

    dimension: int | None = attrs.field(
        default=None,
        validator=attrs.validators.optional(integer_at_least(1, 2**26)),
        metadata={"doc": "dimension of the instances (default: from the first one)"},
    )
    _online: Any = attrs.field(init=False, default=None, repr=False)

    def __attrs_post_init__(self) -> None:
        self._online = Perceptron(dimension=self.dimension)

    @property
    def weights(self) -> np.ndarray:
        """A copy of the current weight vector."""
        return self._online.weights

    def predict(self, x) -> float:
        """sign(w·x) as ±1.0, +1 on a zero score."""
        return self._online.predict(x)

    def update(self, x, y: int) -> bool:
        """w += y·x when y⟨w, x⟩ ≤ 0 (one iteration of the batch loop)."""
        return self._online.update(x, y)

    def snapshot(self) -> dict[str, Any]:
        """‖w‖² and w, the quantities of the proof of Theorem 9.1."""
        return self._online.snapshot()

    def fit(
        self,
        X,
        y,
        *,
        rule: str = "first",
        rng: np.random.Generator | None = None,
        max_iterations: int = 1_000_000,
    ) -> tuple[np.ndarray, int]:
        """Run the batch loop on (X, y) from w = 0; return the separator and the iterations.

        Each iteration picks one example with y_i⟨w, x_i⟩ ≤ 0 by ``rule``
        (as :class:`~adversaries.picker.MisclassifiedPicker` does, with the
        same generator calls, so a game against a picker with the same rule
        and generator makes the same picks). The learner's weights are set to
        the result.

        Parameters
        ----------
        X : array_like
            The examples, one per row.
        y : array_like
            Their labels ±1.
        rule : {"first", "cyclic", "random"}, default "first"
            Which misclassified example to add.
        rng : numpy.random.Generator, optional
            For the "random" rule (default: seeded with 0).
        max_iterations : int, default 1_000_000
            Give up after this many iterations (an integer ≥ 0).

        Returns
        -------
        (w, iterations) : tuple
            The output w (every y_i⟨w, x_i⟩ > 0) and the number of updates made.

        Raises
        ------
        ParameterError
            For a bad argument, named as ``fit`` calls it: ``X`` not a finite
            matrix, ``y`` not one label ±1 per row, an unknown ``rule``, ``rng``
            not a Generator, ``max_iterations`` not an integer ≥ 0.
        GameError
            When no separator is found within ``max_iterations`` (the set may
            not be linearly separable through the origin).
        """
        from adversaries.picker import RULES, misclassified, pick_index, training_set

        try:
            X, labels = training_set(X, y)
        except ParameterError as exc:  # training_set names them instances and labels
            named = {"instances": "X", "labels": "y"}
            raise exc.renamed(named.get(exc.parameter, exc.parameter)) from None
        rule = check_choice("rule", rule, RULES)
        rng = np.random.default_rng(0) if rng is None else check_generator("rng", rng)
        max_iterations = check_integer("max_iterations", max_iterations, low=0)
        w = np.zeros(X.shape[1])
        previous = -1
        for t in range(max_iterations + 1):
            bad = misclassified(X, labels, w)
            if bad.size == 0:
                self._online = Perceptron(dimension=X.shape[1])
                self._online._w[:] = w
                return w, t
            if t == max_iterations:
                break
            i = pick_index(bad, rule, previous, rng)
            previous = i
            if labels[i] > 0:
                w += X[i]
            else:
                w -= X[i]
        raise GameError(
            f"the batch Perceptron found no separator in {max_iterations} iterations; "
            "is the set linearly separable through the origin?"
        )

    def mistake_bound(self, transcript) -> Bound | None:
        """Theorem 9.1's (RB)² on the iterations, with B estimated from the certificate.

        R is the largest norm played; B is estimated by the certificate's w
        rescaled so that min_t y_t⟨w, x_t⟩ = 1 over the rounds played, i.e.
        B ≤ ‖w‖ / min_t y_t⟨w, x_t⟩ = 1/γ. That w is feasible, so its norm is at
        least the theorem's B and the value is a valid (larger) bound.

        The theorem's hypotheses, as checked on the game: "realizable" (the
        examples are separable: a halfspace certificate the referee verified),
        "margin measured" (γ > 0, so B is finite), "norms finite" (R finite)
        and "weights finite" (the floating point w is the theorem's); where one
        fails the bound is not applicable. None without a halfspace certificate
        or without a round.

        Examples
        --------
        >>> import numpy as np
        >>> from game import play
        >>> from adversaries import Replay
        >>> X = np.array([[1.0, 0.0], [-0.6, 0.8]]) * 1e-170
        >>> tr = play(BatchPerceptron(), Replay(instances=X, labels=[1, -1], separator=[1, 0]),
        ...           rounds=2)
        >>> tr.bound.value, tr.bound.applies   # R = 1e-170, γ = 0.6e-170
        (2.777777777777778, True)
        """
        cert = transcript.certificate
        if not isinstance(cert, HalfspaceCertificate) or len(transcript) == 0:
            return None
        X, norms = instances_as_used(transcript)
        margin = float(halfspace_margins(X, transcript.labels, cert.weights, norms).min())
        with np.errstate(over="ignore"):
            b = float(np.float64(1.0) / margin) if margin > 0 else np.inf
        bound = batch_perceptron(float(norms.max()), b)
        return bound_with(
            realizable(transcript, cert), bound, weights_finite(X, transcript.updated, norms)
        )
