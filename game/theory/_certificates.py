"""What an adversary hands over to prove its labels were realizable.

A :class:`Certificate` is a target concept the adversary claims agrees with
every label it gave (``realizable=True``), or a comparator it does not claim
is perfect (``realizable=False``, used by the non-separable bounds).

The referee never believes the object it was handed: it rebuilds the
certificate from its serialised form with the class registered for its kind
(:func:`~game.theory.referee_copy`), then judges that copy against every round
with :func:`first_disagreement`, which first checks that the rounds are
instances of the kind the certificate labels (:meth:`Certificate.check_fits`).
So a lower-bound demonstration cannot cheat. The arrays a built-in certificate
holds are backed by immutable memory: no write, by any player, changes a
certificate after it was built.

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
>>> first_disagreement(u, np.array([[1.0, 2.0, 3.0]]), np.array([1]))
Traceback (most recent call last):
...
game.errors.CertificateError: a halfspace certificate in dimension 2 judges real vectors: ...
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs
import numpy as np

from game.errors import CertificateError, ParameterError, check_instance, check_integer
from game.theory._numerics import vector_norm

__all__ = [
    "Certificate",
    "ExpertCertificate",
    "HalfspaceCertificate",
    "first_disagreement",
    "frozen_copy",
    "is_immutable",
]


# -- helpers shared with the concept classes ---------------------------------------


def frozen_copy(array: np.ndarray) -> np.ndarray:
    """A copy of ``array`` backed by an immutable ``bytes`` buffer.

    Its ``writeable`` flag cannot be set again (numpy refuses, with a
    ValueError, for memory it does not own and that is read-only), so no write
    through it or its base changes what a certificate, or the record, holds.

    Examples
    --------
    >>> import numpy as np
    >>> a = frozen_copy(np.arange(3.0))
    >>> is_immutable(a), is_immutable(np.arange(3.0))
    (True, False)
    """
    array = np.ascontiguousarray(array)
    return np.frombuffer(array.tobytes(), dtype=array.dtype).reshape(array.shape)


def is_immutable(array: np.ndarray) -> bool:
    """Whether no write can ever change ``array``'s memory (it is read-only for good).

    True for memory numpy cannot make writable again (an immutable buffer
    such as :func:`frozen_copy`'s); an array that is merely read-only, whose
    flag its owner could set back, is not. The check tries to set the flag and
    puts it back.
    """
    if array.flags.writeable:
        return False
    try:
        array.flags.writeable = True
    except ValueError:
        return True
    array.flags.writeable = False
    return False


def _rebuilt(cls: type[Certificate], params: dict[str, Any], realizable: bool) -> Certificate:
    """``cls.from_params(params, realizable)``: how built-in certificates unpickle.

    Going through the constructor again keeps the rebuilt arrays immutable.
    """
    return cls.from_params(params, realizable)


def _shown(X: np.ndarray) -> str:
    return f"an array of shape {X.shape} and dtype {X.dtype}"


def _rounds(instances: Any, judges: str) -> np.ndarray:
    """The instances as one array, rounds along axis 0, or a CertificateError."""
    if isinstance(instances, np.ndarray):
        X = instances
    else:
        try:
            X = np.asarray(instances)
        except (TypeError, ValueError):
            X = None
        if X is None or X.dtype == object:
            raise CertificateError(f"{judges}; the rounds hold instances of different shapes")
    if X.ndim == 0:
        raise CertificateError(f"{judges}; the rounds hold one value, {_shown(X)}")
    return X


def _unfit(judges: str, X: np.ndarray, problem: str = "") -> CertificateError:
    """The one-line error: what the kind judges and what the rounds hold."""
    why = f" ({problem})" if problem else ""
    return CertificateError(f"{judges}; the rounds hold {_shown(X)}{why}")


def _round_count(instances: Any) -> int:
    try:
        return len(instances)
    except TypeError:
        raise CertificateError(
            "the rounds' instances must be one per round (a sequence), "
            f"got {type(instances).__name__}"
        ) from None


def _label_column(labels: Any, rounds: int) -> np.ndarray:
    """``labels`` as a 1-D ±1 column of ``rounds`` entries, or a CertificateError."""
    y = np.asarray(labels)
    fits = (
        y.ndim == 1
        and y.shape[0] == rounds
        and y.dtype.kind in "iuf"
        and bool(np.all((y == 1) | (y == -1)))
    )
    if not fits:
        raise CertificateError(
            f"labels must be a column of ±1, one per round ({rounds}); got {_shown(y)}"
        )
    return y


def _flag(value: Any) -> bool:
    """``realizable``: True or False (numpy's bools too), nothing else."""
    if isinstance(value, bool | np.bool_):
        return bool(value)
    raise ParameterError("realizable", value, "True or False")


# -- the base class ------------------------------------------------------------------


@attrs.frozen
class Certificate:
    """Base class: a concept that labels instances with ±1.

    Subclasses set the class attribute ``kind``, implement :meth:`labels`,
    :meth:`describe`, :meth:`params`, (as a classmethod) :meth:`from_params`
    and :meth:`check_fits`. ``realizable`` is the adversary's claim: True
    means the referee verifies the concept against every round.

    :meth:`labels` and :meth:`agrees` are the concept itself: they assume the
    instances are of the kind it labels. The referee judges a game with
    :func:`first_disagreement`, which checks that first.
    """

    kind: ClassVar[str] = "certificate"
    realizable: bool = attrs.field(default=True, kw_only=True, converter=_flag)

    def labels(self, instances) -> np.ndarray:
        """The concept's label (±1, int8) on each instance (stacked along axis 0)."""
        raise NotImplementedError

    def agrees(self, instances, labels) -> np.ndarray:
        """A boolean array: does the concept give round t's label?"""
        return self.labels(instances) == np.asarray(labels)

    def check_fits(self, instances) -> None:
        """Raise a :class:`~game.errors.CertificateError` unless the rounds are of this kind.

        ``instances`` holds one instance per round, stacked along axis 0. The
        base class checks nothing (a user's certificate class may override
        it); every built-in kind checks the shape and dtype of what it labels,
        and an empty game (no round) fits every kind.

        Examples
        --------
        >>> import numpy as np
        >>> from game.theory.concepts import FiniteClassCertificate
        >>> c = FiniteClassCertificate([1, -1, 1, -1, 1])
        >>> c.check_fits(np.array([0, 4, 2])), c.check_fits(np.empty((0, 5)))
        (None, None)
        >>> c.check_fits(np.zeros((5, 5)))  # 5 rounds of 5-dimensional vectors
        Traceback (most recent call last):
        ...
        game.errors.CertificateError: a finite-class certificate over 5 points judges points: ...
        """
        return None

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

    The certificate first checks that the rounds are instances of its kind
    (:meth:`Certificate.check_fits`), and the labels must be one ±1 per round.
    Call it on the referee's copy of a certificate
    (:func:`~game.theory.referee_copy`), never on the object a player handed
    over: this function calls the certificate's own methods.

    Parameters
    ----------
    certificate : Certificate
        The concept to judge.
    instances : array_like
        One instance per round, stacked along axis 0.
    labels : array_like
        The label (±1) of each round.

    Returns
    -------
    int or None
        The first round (0-based) the certificate contradicts; None when it
        agrees with every round (or no round was played).

    Raises
    ------
    CertificateError
        When the rounds are not of the certificate's kind, the labels are not
        a ±1 column as long as the rounds, or the certificate's agreement is not
        one entry per round.

    Examples
    --------
    >>> import numpy as np
    >>> from game.theory import ExpertCertificate
    >>> advice = np.array([[1, -1], [-1, -1], [1, 1]])
    >>> first_disagreement(ExpertCertificate(1, experts=2), advice, [-1, -1, 1]) is None
    True
    >>> first_disagreement(ExpertCertificate(0, experts=2), advice, [-1, -1, 1])
    0
    >>> first_disagreement(ExpertCertificate(2), advice, [-1, -1, 1])
    Traceback (most recent call last):
    ...
    game.errors.CertificateError: expert certificate 'expert 2' judges advice vectors: ...
    """
    rounds = _round_count(instances)
    step = rounds
    if isinstance(instances, np.ndarray) and instances.ndim:
        row = max(1, int(np.prod(instances.shape[1:], dtype=np.int64)))
        step = max(1, _BLOCK_VALUES // row)
    if rounds <= step:
        certificate.check_fits(instances)
        y = _label_column(labels, rounds)
        return None if rounds == 0 else _first_bad(certificate, instances, y, rounds)
    # a long game's rounds (kept on disk, say) are judged a block at a time
    y = _label_column(labels, rounds)
    for start in range(0, rounds, step):
        block = instances[start : start + step]
        certificate.check_fits(block)
        bad = _first_bad(certificate, block, y[start : start + step], block.shape[0])
        if bad is not None:
            return start + bad
    return None


#: Values :func:`first_disagreement` judges at a time: a long game's rounds are
#: judged a block of rows at a time, never with temporaries as long as the game.
_BLOCK_VALUES = 1 << 20


def _first_bad(certificate: Certificate, instances, y: np.ndarray, rounds: int) -> int | None:
    """The first round of a block the certificate contradicts, or None."""
    agree = np.asarray(certificate.agrees(instances, y))
    if agree.shape != (rounds,) or agree.dtype != np.bool_:
        raise CertificateError(
            f"the {certificate.kind} certificate's agreement must be one bool per round "
            f"({rounds}); got {_shown(agree)}"
        )
    bad = np.flatnonzero(~agree)
    return int(bad[0]) if bad.size else None


# -- halfspaces ----------------------------------------------------------------------


#: Rows whose largest entry lies in [_ROW_LOW, _ROW_HIGH] are scored as they are
#: (against weights scaled into [0.5, 1), no product overflows or underflows).
_ROW_HIGH = 2.0**480
_ROW_LOW = 2.0**-480
#: A score below this may come from a row whose entries are all below _ROW_LOW (d < 2^80).
_TINY_SCORE = 2.0**-400


def _float_vector(value) -> np.ndarray:
    expected = "a non-empty finite vector"
    try:
        array = np.asarray(value)
    except (TypeError, ValueError):
        raise ParameterError("weights", value, expected) from None
    if array.dtype.kind not in "iuf" or array.ndim != 1 or array.size == 0:
        raise ParameterError("weights", value, expected)
    array = array.astype(np.float64)
    if not np.all(np.isfinite(array)):
        raise ParameterError("weights", value, expected)
    return frozen_copy(array)


def _text(instance, attribute, value) -> None:
    check_instance(attribute.alias, value, str, "a string")


@attrs.frozen(eq=False)
class HalfspaceCertificate(Certificate):
    """A homogeneous halfspace x ↦ sign(w·x) through the origin.

    It agrees with a round only when y·(w·x) > 0 strictly: a point on the
    hyperplane is on neither side, so a realizable halfspace certificate has a
    positive margin on every round. Scores are computed as
    :func:`~game.theory.scores` does, scaled so that any finite instance, of
    size 1e200 or 1e-170, gets the right sign and margin y·(u·x), u = w/‖w‖;
    but the weights, and rows of extreme size, are scaled by powers of two,
    which is exact: labels do not change when the instances are scaled by one,
    and a point exactly on the hyperplane scores exactly 0 (dividing by ‖w‖ or
    by a row's largest entry first would round it to either side).

    Its instances are real vectors of w's dimension d: a (rounds × d) array of
    finite numbers (floats, or integers; not bools).

    Parameters
    ----------
    weights : array_like
        w, any non-zero finite vector; :meth:`margin` normalises it. It is
        copied into immutable memory.
    note : str, default ""
        Where the halfspace comes from, shown after its weights by
        :meth:`describe` and kept with them (the separator of
        :meth:`game.theory.solve.BestMargin.certificate` says it is the best
        margin's, with the margin's bounds). It claims nothing the referee checks.

    Examples
    --------
    >>> import numpy as np
    >>> h = HalfspaceCertificate([3.0, 4.0])
    >>> float(h.margin(np.array([[1.0, 1.0], [-1.0, 0.0]]), np.array([1, -1])))
    0.6
    >>> h.weights.flags.writeable = True
    Traceback (most recent call last):
    ...
    ValueError: cannot set WRITEABLE flag to True of this array
    """

    kind: ClassVar[str] = "halfspace"
    weights: np.ndarray = attrs.field(converter=_float_vector)
    note: str = attrs.field(default="", kw_only=True, validator=_text)

    @weights.validator
    def _nonzero(self, attribute, value) -> None:
        if not np.any(value):
            raise ParameterError("weights", value, "a non-zero vector")

    def _direction(self) -> np.ndarray:
        """w times a power of two, its largest entry in [0.5, 1)."""
        w = self.weights
        _, exponent = np.frexp(np.max(np.abs(w)))
        return np.ldexp(w, -int(exponent))

    def _scores(self, instances) -> tuple[np.ndarray, np.ndarray | None, np.ndarray]:
        """(scores, exponents, direction): x·v per row for v = :meth:`_direction`.

        Rows of extreme size (an entry past 2^±480) are first scaled by powers
        of two, their largest entry into [0.5, 1), and ``exponents`` holds the
        powers (None when no row needed it): x·v = ldexp(score, exponent).
        Every scaling is exact, so the scores have the signs of the dot product
        at unit scale, ties on the hyperplane included, and nothing overflows
        or underflows that the true value does not.
        """
        X = np.asarray(instances, dtype=np.float64)
        v = self._direction()
        if not (X.ndim and X.shape[-1]):
            return X @ v, None, v
        if not max(X.max(), -X.min()) <= _ROW_HIGH:  # a huge entry (or NaN): row by row
            big = np.maximum(X.max(axis=-1), -X.min(axis=-1))  # max |x_i|, no copy of X
            nonzero = big[big > 0]
            if nonzero.size and (nonzero.max() > _ROW_HIGH or nonzero.min() < _ROW_LOW):
                _, exponents = np.frexp(big)
                return np.ldexp(X, -exponents[..., None]) @ v, exponents, v
            return X @ v, None, v
        # no entry past 2^480: only rows whose largest entry is below 2^-480 need
        # scaling, and every such row scores below d·2^-480 < _TINY_SCORE
        scores = X @ v
        tiny = np.flatnonzero(np.abs(scores) < _TINY_SCORE)
        if not tiny.size:
            return scores, None, v
        rows = X[tiny]
        big = np.maximum(rows.max(axis=-1), -rows.min(axis=-1))
        small = (big > 0) & (big < _ROW_LOW)
        if not small.any():
            return scores, None, v
        exponents = np.zeros(scores.shape, dtype=np.int64)
        _, exponents[tiny[small]] = np.frexp(big[small])
        scaled = np.ldexp(rows[small], -exponents[tiny[small], None])
        scores[tiny[small]] = scaled @ v
        # rows and v now have their largest entries between 2^-480 and 2^480: the
        # plain product is what game.theory.scores computes, without its |X| pass
        return scores, exponents, v

    def labels(self, instances) -> np.ndarray:
        return np.where(self._scores(instances)[0] >= 0, 1, -1).astype(np.int8)

    def agrees(self, instances, labels) -> np.ndarray:
        return np.asarray(labels) * self._scores(instances)[0] > 0

    def check_fits(self, instances) -> None:
        """Refuse rounds that are not finite real vectors of the weights' dimension.

        Examples
        --------
        >>> import numpy as np
        >>> HalfspaceCertificate([1.0, 0.0]).check_fits(np.ones((5, 3)))
        Traceback (most recent call last):
        ...
        game.errors.CertificateError: a halfspace certificate in dimension 2 judges real ...
        """
        d = self.weights.size
        judges = (
            f"a halfspace certificate in dimension {d} judges real vectors: "
            f"a (rounds × {d}) array of finite numbers"
        )
        X = _rounds(instances, judges)
        if X.shape[0] == 0:
            return
        if X.ndim != 2 or X.shape[1] != d or X.dtype.kind not in "iuf":
            raise _unfit(judges, X)
        if X.dtype.kind == "f" and not (np.isfinite(X.max()) and np.isfinite(X.min())):
            # a row is finite iff its largest and smallest entries are (NaN propagates)
            finite = np.isfinite(X.max(axis=1)) & np.isfinite(X.min(axis=1))
            if not finite.all():
                bad = int(np.flatnonzero(~finite)[0]) + 1
                raise _unfit(judges, X, f"round {bad} is not finite")

    def margins(self, instances, labels) -> np.ndarray:
        """y_t·(u·x_t) on each round, with u = w/‖w‖ (negative where the concept disagrees).

        Raises
        ------
        CertificateError
            When the rounds do not fit (:meth:`check_fits`) or the labels are
            not a ±1 column as long as them.

        Examples
        --------
        >>> import numpy as np
        >>> h = HalfspaceCertificate([0.0, 2.0])
        >>> h.margins(np.array([[5.0, 1e200], [1.0, -3e-170]]), [1, -1]).tolist()
        [1e+200, 3e-170]
        """
        self.check_fits(instances)
        y = _label_column(labels, _round_count(instances))
        if y.size == 0:
            return np.empty(0)
        values, exponents, direction = self._scores(instances)
        margins = y * values / vector_norm(direction)
        if exponents is not None:
            with np.errstate(over="ignore", under="ignore"):
                margins = np.ldexp(margins, exponents)
        return margins

    def margin(self, instances, labels) -> float:
        """min over rounds of y·(u·x) with u = w/‖w‖ (inf when no round was played).

        Examples
        --------
        >>> import numpy as np
        >>> h = HalfspaceCertificate([1.0, 1.0])
        >>> h.margin(np.array([[3e200, 1e200], [-2e200, 0.0]]), [1, -1])  # 2e200/√2
        1.414213562373095e+200
        """
        m = self.margins(instances, labels)
        return float(m.min()) if m.size else float("inf")

    def describe(self) -> str:
        w = self.weights
        shown = ", ".join(f"{v:.4g}" for v in w[:6]) + (", …" if w.size > 6 else "")
        note = f"; {self.note}" if self.note else ""
        return f"sign(w·x), w = ({shown}) in dimension {w.size}{note}"

    def params(self) -> dict[str, Any]:
        return {"weights": self.weights.tolist(), **({"note": self.note} if self.note else {})}

    @classmethod
    def from_params(cls, params, realizable):
        return cls(params["weights"], realizable=realizable, note=params.get("note", ""))

    def __eq__(self, other):
        return (
            type(other) is type(self)
            and self.realizable == other.realizable
            and self.note == other.note
            and np.array_equal(self.weights, other.weights)
        )

    __hash__ = None

    def __reduce__(self):
        return _rebuilt, (type(self), self.params(), self.realizable)


# -- experts -------------------------------------------------------------------------


def _plain_int(value):
    return int(value) if isinstance(value, np.integer) else value


def _expert_index(instance, attribute, value) -> None:
    check_integer(attribute.alias, value, low=0)


def _expert_count(instance, attribute, value) -> None:
    if value is not None:
        check_integer(attribute.alias, value, low=instance.expert + 1)


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
    given as a list of vectors. A game fits the certificate when N > i (and N
    equals ``experts`` when that is given) and every advice is in [-1, 1].

    Parameters
    ----------
    expert : int
        The expert's index i, from 0.
    experts : int, optional
        N, the number of experts (more than i).

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
    experts: int | None = attrs.field(default=None, converter=_plain_int, validator=_expert_count)

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

    def check_fits(self, instances) -> None:
        """Refuse rounds that are not advice vectors in [-1, 1] of N > i experts (N = ``experts``).

        Examples
        --------
        >>> import numpy as np
        >>> ExpertCertificate(3).check_fits(np.ones((4, 3)))
        Traceback (most recent call last):
        ...
        game.errors.CertificateError: expert certificate 'expert 3' judges advice vectors: ...
        """
        n = f"N = {self.experts}" if self.experts is not None else f"N > {self.expert}"
        judges = (
            f"expert certificate {self.describe()!r} judges advice vectors: "
            f"a (rounds × N) array of numbers in [-1, 1] with {n}"
        )
        X = _rounds(instances, judges)
        if X.shape[0] == 0:
            return
        wanted = self.experts if self.experts is not None else X.shape[-1]
        if (
            X.ndim != 2
            or X.dtype.kind not in "iuf"
            or X.shape[1] <= self.expert
            or X.shape[1] != wanted
        ):
            raise _unfit(judges, X)
        inside = (X.max(axis=1) <= 1) & (X.min(axis=1) >= -1)  # NaN is outside too
        if not inside.all():
            bad = int(np.flatnonzero(~inside)[0]) + 1
            raise _unfit(judges, X, f"round {bad} holds advice outside [-1, 1]")

    def describe(self) -> str:
        of = "" if self.experts is None else f" of {self.experts}"
        return f"expert {self.expert}{of}"

    def params(self) -> dict[str, Any]:
        return {"expert": self.expert, "experts": self.experts}

    @classmethod
    def from_params(cls, params, realizable):
        return cls(params["expert"], experts=params.get("experts"), realizable=realizable)
