"""What an adversary hands over to prove its labels were realizable.

A :class:`Certificate` is a target concept the adversary claims agrees with
every label it gave (``realizable=True``), or a comparator it does not claim
is perfect (``realizable=False``, used by the non-separable bounds). After a
game the engine checks a realizable certificate against every round with
:func:`first_disagreement`, so a lower-bound demonstration cannot cheat.

Certificates serialise to JSON with :meth:`Certificate.to_dict` and back with
:func:`~game.theory.certificate_from_dict`, through the table of kinds
(:data:`~game.theory.CERTIFICATE_KINDS`), which sits above this module and the
concept classes.

Examples
--------
>>> import numpy as np
>>> from game.theory import HalfspaceCertificate, first_disagreement
>>> u = HalfspaceCertificate(np.array([1.0, 0.0]))
>>> X = np.array([[2.0, 1.0], [-1.0, 3.0]])
>>> first_disagreement(u, X, np.array([1, -1])) is None
True
>>> first_disagreement(u, X, np.array([1, 1]))
1
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs
import numpy as np

from game.errors import ParameterError, check_integer

__all__ = ["Certificate", "ExpertCertificate", "HalfspaceCertificate", "first_disagreement"]


@attrs.frozen
class Certificate:
    """Base class: a concept that labels instances with ±1.

    Subclasses set the class attribute ``kind``, implement :meth:`labels`,
    :meth:`describe`, :meth:`params` and (as a classmethod) :meth:`from_params`.
    ``realizable`` is the adversary's claim: True means the engine verifies
    the concept against every round.
    """

    kind: ClassVar[str] = "certificate"
    realizable: bool = attrs.field(default=True, kw_only=True)

    def labels(self, instances) -> np.ndarray:
        """The concept's label (±1, int8) on each instance (stacked along axis 0)."""
        raise NotImplementedError

    def agrees(self, instances, labels) -> np.ndarray:
        """A boolean array: does the concept give round t's label?"""
        return self.labels(instances) == np.asarray(labels)

    def describe(self) -> str:
        """A short readable form of the concept."""
        raise NotImplementedError

    def params(self) -> dict[str, Any]:
        """The JSON-ready parameters that rebuild the concept."""
        raise NotImplementedError

    @classmethod
    def from_params(cls, params: dict[str, Any], realizable: bool) -> Certificate:
        """Rebuild from :meth:`params`."""
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: kind, realizable, description and parameters."""
        return {
            "kind": self.kind,
            "realizable": self.realizable,
            "description": self.describe(),
            "params": self.params(),
        }


def first_disagreement(certificate: Certificate, instances, labels) -> int | None:
    """The 0-based index of the first round whose label the certificate contradicts.

    Returns None when the certificate agrees with every round (or no round was played).
    """
    labels = np.asarray(labels)
    if labels.size == 0:
        return None
    bad = np.flatnonzero(~np.asarray(certificate.agrees(instances, labels), dtype=bool))
    return int(bad[0]) if bad.size else None


def _float_vector(value) -> np.ndarray:
    try:
        array = np.array(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise ParameterError("weights", value, "a non-empty finite vector") from None
    if array.ndim != 1 or array.size == 0 or not np.all(np.isfinite(array)):
        raise ParameterError("weights", value, "a non-empty finite vector")
    array.flags.writeable = False
    return array


@attrs.frozen(eq=False)
class HalfspaceCertificate(Certificate):
    """A homogeneous halfspace x ↦ sign(w·x) through the origin.

    It agrees with a round only when y·(w·x) > 0 strictly: a point on the
    hyperplane is on neither side, so a realizable halfspace certificate has a
    positive margin on every round.

    Parameters
    ----------
    weights : array_like
        w, any non-zero vector; :meth:`margin` normalises it.

    Examples
    --------
    >>> import numpy as np
    >>> h = HalfspaceCertificate([3.0, 4.0])
    >>> float(h.margin(np.array([[1.0, 1.0], [-1.0, 0.0]]), np.array([1, -1])))
    0.6
    """

    kind: ClassVar[str] = "halfspace"
    weights: np.ndarray = attrs.field(converter=_float_vector)

    @weights.validator
    def _nonzero(self, attribute, value) -> None:
        if not np.any(value):
            raise ParameterError("weights", value, "a non-zero vector")

    def labels(self, instances) -> np.ndarray:
        scores = np.asarray(instances, dtype=np.float64) @ self.weights
        return np.where(scores >= 0, 1, -1).astype(np.int8)

    def agrees(self, instances, labels) -> np.ndarray:
        scores = np.asarray(instances, dtype=np.float64) @ self.weights
        return np.asarray(labels) * scores > 0

    def margin(self, instances, labels) -> float:
        """min over rounds of y·(u·x) with u = w/‖w‖ (inf when no round was played)."""
        labels = np.asarray(labels)
        if labels.size == 0:
            return float("inf")
        scores = np.asarray(instances, dtype=np.float64) @ self.weights
        return float(np.min(labels * scores) / np.linalg.norm(self.weights))

    def describe(self) -> str:
        w = self.weights
        shown = ", ".join(f"{v:.4g}" for v in w[:6]) + (", …" if w.size > 6 else "")
        return f"sign(w·x), w = ({shown}) in dimension {w.size}"

    def params(self) -> dict[str, Any]:
        return {"weights": self.weights.tolist()}

    @classmethod
    def from_params(cls, params, realizable):
        return cls(params["weights"], realizable=realizable)

    def __eq__(self, other):
        return (
            type(other) is type(self)
            and self.realizable == other.realizable
            and np.array_equal(self.weights, other.weights)
        )

    __hash__ = None


def _plain_int(value):
    return int(value) if isinstance(value, np.integer) else value


def _expert_index(instance, attribute, value) -> None:
    check_integer(attribute.alias, value, low=0)


@attrs.frozen
class ExpertCertificate(Certificate):
    """Expert i of an expert-advice game: "this expert is right on every round".

    The expert labels round t with the sign of its advice f_i^t, with
    sign(0) = +1 (the convention of Abernethy lecture 16, seed 004, for the
    predicted label). So the certificate agrees with a round when that sign
    equals the outcome: for ±1 advice, when f_i^t = y_t; for graded advice in
    [-1, 1], when the expert's advice points the right way, however confident.
    A realizable expert certificate is a perfect expert (zero-one loss 0 on the
    rounds played); with ``realizable=False`` it names a comparator, such as
    the best expert in hindsight, whose mistakes a bound counts.

    Instances are the advice vectors, stacked into a (rounds × N) array or
    given as a list of vectors.

    Parameters
    ----------
    expert : int
        The expert's index i, from 0.
    experts : int, optional
        N, the number of experts (shown in the description).

    Examples
    --------
    >>> import numpy as np
    >>> advice = np.array([[1, -1, 1], [-1, -1, 1], [0.5, 0.0, -0.2]])
    >>> c = ExpertCertificate(1, experts=3)
    >>> c.labels(advice).tolist(), c.agrees(advice, [-1, -1, 1]).tolist()
    ([-1, -1, 1], [True, True, True])
    >>> c.describe()
    'expert 1 of 3'
    """

    kind: ClassVar[str] = "expert"
    expert: int = attrs.field(converter=_plain_int, validator=_expert_index)
    experts: int | None = attrs.field(default=None, converter=_plain_int)

    def advice(self, instances) -> np.ndarray:
        """The expert's advice on each round (a float column)."""
        i = self.expert
        if isinstance(instances, np.ndarray) and instances.ndim == 2:
            return instances[:, i].astype(np.float64)
        if isinstance(instances, np.ndarray) and instances.size == 0:
            return np.empty(0)
        return np.fromiter((x[i] for x in instances), dtype=np.float64, count=len(instances))

    def labels(self, instances) -> np.ndarray:
        return np.where(self.advice(instances) >= 0, 1, -1).astype(np.int8)

    def describe(self) -> str:
        of = "" if self.experts is None else f" of {self.experts}"
        return f"expert {self.expert}{of}"

    def params(self) -> dict[str, Any]:
        return {"expert": self.expert, "experts": self.experts}

    @classmethod
    def from_params(cls, params, realizable):
        return cls(int(params["expert"]), experts=params.get("experts"), realizable=realizable)
