"""The Batch Perceptron's loop as an adversary: present a misclassified example.

Shalev-Shwartz & Ben-David §9.1.2 (seed 002): the Batch Perceptron starts with
w⁽¹⁾ = 0 and, while some example of the training set has y_i⟨w⁽ᵗ⁾, x_i⟩ ≤ 0,
adds y_i·x_i for one such i. :class:`MisclassifiedPicker` is that loop: it
keeps w⁽ᵗ⁾, presents one example with y_i⟨w⁽ᵗ⁾, x_i⟩ ≤ 0 per round and ends the
game when none is left. Against the online Perceptron with its default
convention (which updates exactly on y·w·x ≤ 0) every round is an update and the
game is the batch algorithm, logged iteration by iteration.
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs
import numpy as np

from game.errors import ParameterError, check_instance
from game.players import data_field, one_of, rng_field
from game.theory import Certificate, HalfspaceCertificate
from game.transcript import Transcript

__all__ = ["RULES", "MisclassifiedPicker", "misclassified", "pick_index", "training_set"]

_EITHER = "give either transcript or instances and labels, not both"

#: How the next example is chosen among the misclassified ones.
RULES = ("first", "cyclic", "random")


def misclassified(X: np.ndarray, y: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Indices i with y_i⟨w, x_i⟩ ≤ 0, in increasing order.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 1.0]])
    >>> misclassified(X, np.array([1, 1, 1]), np.array([1.0, 0.0])).tolist()
    [1, 2]
    """
    return np.flatnonzero(y * (X @ w) <= 0.0)


def pick_index(bad: np.ndarray, rule: str, previous: int, rng: np.random.Generator) -> int:
    """The example the rule picks among the misclassified indices ``bad`` (non-empty).

    ``"first"`` takes the smallest index; ``"cyclic"`` the first index after
    ``previous``, wrapping around (so passes go through the set in order);
    ``"random"`` one uniformly, by ``rng.integers``.

    Examples
    --------
    >>> import numpy as np
    >>> bad = np.array([1, 4, 6])
    >>> rng = np.random.default_rng(0)
    >>> pick_index(bad, "first", 4, rng), pick_index(bad, "cyclic", 4, rng)
    (1, 6)
    >>> pick_index(bad, "cyclic", 6, rng)
    1
    """
    if rule == "first":
        return int(bad[0])
    if rule == "cyclic":
        k = int(np.searchsorted(bad, previous, side="right"))
        return int(bad[k % bad.size])
    if rule == "random":
        return int(bad[rng.integers(bad.size)])
    raise ParameterError("rule", rule, "one of " + ", ".join(map(repr, RULES)))


def training_set(instances: Any, labels: Any) -> tuple[np.ndarray, np.ndarray]:
    """Validated (X, y): a read-only finite float matrix and int ±1 labels, one per row.

    Raises
    ------
    ParameterError
        Naming the parameter and what is wrong: the shape, a non-finite entry, a label not ±1.

    Examples
    --------
    >>> X, y = training_set([[1, 2], [3, 4]], [1, -1])
    >>> X.dtype.name, y.tolist(), X.flags.writeable
    ('float64', [1, -1], False)
    """
    try:
        X = np.array(instances, dtype=np.float64, ndmin=2)
    except (TypeError, ValueError):
        raise ParameterError("instances", instances, "a finite matrix of numbers") from None
    if X.ndim != 2 or not np.all(np.isfinite(X)):
        raise ParameterError("instances", instances, "a finite matrix of numbers")
    y = np.asarray(labels)
    if y.ndim != 1 or y.shape[0] != X.shape[0]:
        raise ParameterError("labels", labels, f"a vector of {X.shape[0]} entries")
    if y.dtype.kind not in "biuf" or (y.size and not np.all(np.abs(y) == 1)):
        raise ParameterError("labels", labels, "a vector of -1 and 1")
    X.flags.writeable = False
    return X, y.astype(np.int64)


@attrs.define(eq=False, on_setattr=attrs.setters.NO_OP)
class MisclassifiedPicker:
    """Presents an example the Batch Perceptron's w misclassifies; ends when none is.

    It keeps the batch algorithm's w⁽ᵗ⁾ = Σ y_s·x_s over the examples presented
    so far (each presented example is added, as the Perceptron does on a round
    with y·w·x ≤ 0), computes y_i⟨w, x_i⟩ for the whole set with one
    matrix–vector product per round, and presents one example with a value
    ≤ 0 chosen by ``rule``. It ignores the learner's predictions: matched with
    the Perceptron's default convention, the learner's w equals its own.

    Give either ``instances`` and ``labels`` (arrays, or ``.npy``/``.csv``
    files in a scenario) or a ``transcript`` whose examples form the set.

    Its certificate, in order of preference: the halfspace ``separator`` if
    given; the transcript's certificate; otherwise the final w itself when it
    classifies every example correctly (Theorem 9.1's stopping condition),
    else none.

    Parameters
    ----------
    instances : array_like, optional
        The training set, one example per row.
    labels : array_like, optional
        ±1 per example.
    transcript : Transcript, optional
        A recorded game whose examples form the training set.
    rule : {"first", "cyclic", "random"}, default "first"
        Which misclassified example to present (see ``pick_index``).
    separator : array_like, optional
        A weight vector claimed to separate the set (realizable certificate).
    rng : numpy.random.Generator
        Used by the "random" rule.

    Examples
    --------
    >>> import numpy as np
    >>> from game import play
    >>> from learners import Perceptron
    >>> X = np.array([[1.0, 0.2], [0.3, 1.0], [-1.0, 0.5]])
    >>> picker = MisclassifiedPicker(instances=X, labels=[1, 1, -1], rule="cyclic")
    >>> tr = play(Perceptron(), picker, rounds=100)
    >>> len(tr) == int(tr.updated.sum()), tr.certificate_verified
    (True, True)
    >>> bool(np.all(np.array([1, 1, -1]) * (X @ picker.weights) > 0))
    True
    """

    presents: ClassVar[str] = "vector"

    instances: Any = data_field("the training set, one example per row", default=None)
    labels: Any = data_field("labels ±1, one per example", default=None)
    transcript: Transcript | None = data_field(
        "a transcript (.jsonl) whose examples form the training set", default=None
    )
    rule: str = attrs.field(
        default="first",
        validator=one_of(*RULES),
        metadata={"doc": "which misclassified example: 'first', 'cyclic' or 'random'"},
    )
    separator: Any = attrs.field(
        default=None, metadata={"doc": "weights of a separating halfspace, when known"}
    )
    rng: np.random.Generator = rng_field("chooses the example under the 'random' rule")
    _X: Any = attrs.field(init=False, default=None, repr=False)
    _y: Any = attrs.field(init=False, default=None, repr=False)
    _rows: list = attrs.field(init=False, factory=list, repr=False)
    _w: Any = attrs.field(init=False, default=None, repr=False)
    _last: int = attrs.field(init=False, default=-1, repr=False)
    _cert: Certificate | None = attrs.field(init=False, default=None, repr=False)

    def __attrs_post_init__(self) -> None:
        if self.transcript is not None:
            if self.instances is not None or self.labels is not None:
                raise ParameterError("transcript", self.transcript, "None", _EITHER)
            check_instance("transcript", self.transcript, Transcript, "a Transcript")
            X, y = training_set(self.transcript.instances, self.transcript.labels)
            self._cert = self.transcript.certificate
        else:
            if self.instances is None or self.labels is None:
                missing = "instances" if self.instances is None else "labels"
                raise ParameterError(missing, None, "given", _EITHER)
            X, y = training_set(self.instances, self.labels)
        if self.separator is not None:
            try:
                self._cert = HalfspaceCertificate(self.separator)
            except ParameterError as exc:  # the separator is the certificate's weights
                raise exc.renamed("separator") from None
        self._X, self._y, self._rows = X, y, list(X)
        self._w = np.zeros(X.shape[1])

    @property
    def weights(self) -> np.ndarray:
        """A copy of the batch algorithm's current w."""
        return self._w.copy()

    def remaining(self) -> np.ndarray:
        """Indices of the examples the current w misclassifies (y⟨w, x⟩ ≤ 0)."""
        return misclassified(self._X, self._y, self._w)

    def instance(self, history) -> np.ndarray | None:
        """A misclassified example chosen by the rule, or None when none is left."""
        bad = self.remaining()
        if bad.size == 0:
            return None
        i = pick_index(bad, self.rule, self._last, self.rng)
        self._last = i
        return self._rows[i]

    def label(self, x, p, history) -> int:
        """The example's label; the batch algorithm's w then moves by y·x."""
        i = self._last
        y = int(self._y[i])
        if y > 0:
            self._w += self._X[i]
        else:
            self._w -= self._X[i]
        return y

    def certificate(self) -> Certificate | None:
        """The separator given, the transcript's certificate, or the final w if it separates."""
        if self._cert is not None:
            return self._cert
        if self._y.size and np.any(self._w) and self.remaining().size == 0:
            return HalfspaceCertificate(self._w.copy())
        return None
