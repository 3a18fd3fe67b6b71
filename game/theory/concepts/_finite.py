"""Finite concept classes: ±1 matrices, hypotheses × points.

A :class:`FiniteClass` is the matrix M with M[h, x] the label hypothesis h
gives point x. Its instances are the point indices 0, …, m − 1 (Python ints).
Duplicate hypotheses (equal rows) are removed when a class is made, keeping the
first one and its name; the rows are read-only. Hypothesis h of a class, handed
over by an adversary, is a :class:`FiniteClassCertificate` that carries the
row's labels, so a transcript loaded later re-verifies it without the class.

The builders below make the classes of the mistake-bound literature; the ones
over bit vectors have the 2ⁿ points of {0, 1}ⁿ in the order of
:func:`bit_vectors` (point i is the binary expansion of i, x1 its most
significant bit, so point names read ``x1 x2 … xn``):

===============================  =========================  ===========================
builder                          hypotheses                 Littlestone dimension
===============================  =========================  ===========================
``thresholds(n)``                n + 1: x ↦ +1 iff x ≥ θ    ⌊log₂(n + 1)⌋
``intervals(n)``                 n(n + 1)/2 + 1 (∅ too)     computed: 4, 6, …, 14 for
                                                            n = 8, 16, …, 256
``singletons(n)``                n: x ↦ +1 iff x = i        1 (n ≥ 2)
``all_functions(m)``             2^m                        m
``parities(n)``                  2ⁿ over {0, 1}ⁿ            n
``conjunctions(n)``              3ⁿ + 1 (``False`` too)     computed: n + 1 for n ≤ 8
``monotone_conjunctions(n)``     2ⁿ                         n
``decision_lists(n, length)``    every list of ≤ length     computed
                                 rules, deduplicated
===============================  =========================  ===========================

Each builder refuses a size past its limit (thresholds and singletons 8,192
points, intervals 512, conjunctions 10 bits, decision lists 6 bits and 2^18
distinct functions, the other Boolean classes 12 bits), so a scenario's typo
never asks for terabytes.

Any object with a vectorised ``labels(X)`` over a bool matrix of bit vectors
(the Boolean concepts of :mod:`game.theory.concepts` among them) becomes a
finite class over {0, 1}ⁿ with :meth:`FiniteClass.from_concepts`.

Examples
--------
>>> from game.theory.concepts import FiniteClass, thresholds
>>> cls = thresholds(3)
>>> cls
FiniteClass('thresholds(3)': 4 hypotheses × 3 points)
>>> cls.matrix
array([[ 1,  1,  1],
       [-1,  1,  1],
       [-1, -1,  1],
       [-1, -1, -1]], dtype=int8)
>>> cls.restrict([1], [-1]).hypothesis_names
('x ≥ 2', 'x ≥ 3')
>>> FiniteClass([[1, -1], [1, -1], [-1, 1]]).n_hypotheses   # duplicates removed
2
"""

from __future__ import annotations

import inspect
import numbers
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, ClassVar

import attrs
import numpy as np

from game.errors import ParameterError, check_integer
from game.theory._certificates import Certificate, _rebuilt, _rounds, _unfit, frozen_copy
from game.theory._files import read_array_file

__all__ = [
    "BUILDERS",
    "MAX_BITS",
    "FiniteClass",
    "FiniteClassCertificate",
    "all_functions",
    "as_finite_class",
    "bit_vectors",
    "build_class",
    "conjunctions",
    "decision_lists",
    "intervals",
    "monotone_conjunctions",
    "parities",
    "point_index",
    "singletons",
    "thresholds",
]

#: The most bits a builder over {0, 1}ⁿ accepts (2ⁿ points).
MAX_BITS = 12
#: The most hypotheses a builder makes (decision lists stop with an error past it).
MAX_HYPOTHESES = 1 << 18


#: What a finite class's matrix must be, as an error says it.
_MATRIX = "a 2-D matrix of +1 or -1 entries (or bools), hypotheses × points"


def _as_matrix(matrix: Any, parameter: str = "matrix") -> np.ndarray:
    """A read-only int8 ±1 matrix from a ±1 (or bool) 2-D array-like."""
    try:
        array = np.asarray(matrix)
    except (TypeError, ValueError):  # ragged rows
        raise ParameterError(parameter, matrix, _MATRIX) from None
    if array.ndim != 2:
        raise ParameterError(parameter, matrix, _MATRIX)
    if array.dtype == np.bool_:
        return _signs(array.copy())
    # two counts, one temporary at a time: no more than the matrix again in flight
    if array.dtype.kind not in "iuf" or (
        np.count_nonzero(array == 1) + np.count_nonzero(array == -1) != array.size
    ):
        raise ParameterError(parameter, matrix, _MATRIX)
    return array.astype(np.int8)


def _signs(truth: np.ndarray) -> np.ndarray:
    """A bool array turned, in place and without a temporary, into int8 ±1 (True: +1).

    The array must be the caller's own: its buffer becomes the result's.

    Examples
    --------
    >>> _signs(np.array([[True, False]])).tolist()
    [[1, -1]]
    """
    out = np.ascontiguousarray(truth).view(np.int8)
    out *= 2
    out -= 1
    return out


class _Owned:
    """A ±1 int8 matrix a builder made and hands over: taken as it is, unchecked, uncopied."""

    __slots__ = ("array",)

    def __init__(self, array: np.ndarray):
        self.array = array


def _matrix_fault(array: np.ndarray) -> str | None:
    """Why an array is not a class's ±1 matrix, naming where and not what (None: it is one).

    Rows and columns are counted from 1.

    Examples
    --------
    >>> _matrix_fault(np.array([[1, -1], [-1, 0]]))
    'row 2, column 2: not +1 or -1'
    >>> _matrix_fault(np.zeros((0, 0)))
    'no hypotheses and no points; expected at least one of each'
    >>> _matrix_fault(np.ones(3)), _matrix_fault(np.ones((1, 2)))
    ('a 1-D array; expected a 2-D matrix, hypotheses × points', None)
    """
    if array.ndim != 2:
        return f"a {array.ndim}-D array; expected a 2-D matrix, hypotheses × points"
    if array.size == 0:
        names = ("hypotheses", "points")
        empty = [what for what, n in zip(names, array.shape, strict=True) if n == 0]
        return "no " + " and no ".join(empty) + "; expected at least one of each"
    if array.dtype == np.bool_:
        return None
    if array.dtype.kind not in "iuf":
        return f"holds {array.dtype.name} entries; expected +1 or -1"
    bad = (array != 1) & (array != -1)
    if bad.any():
        row, column = (int(i) + 1 for i in np.argwhere(bad)[0])
        return f"row {row}, column {column}: not +1 or -1"
    return None


def _first_of_each_row(matrix: np.ndarray) -> np.ndarray:
    """Indices of the first occurrence of each distinct row, in order."""
    if matrix.shape[0] <= 1:
        return np.arange(matrix.shape[0])
    width = (matrix.shape[1] + 7) >> 3
    if width == 0:
        return np.arange(1)
    packed = np.empty((matrix.shape[0], width), dtype=np.uint8)
    step = max(1, (1 << 22) // max(1, matrix.shape[1]))  # 4 MB of bools at a time
    for start in range(0, matrix.shape[0], step):
        packed[start : start + step] = np.packbits(matrix[start : start + step] > 0, axis=1)
    rows = np.ascontiguousarray(packed).view(np.dtype((np.void, width))).ravel()
    _, first = np.unique(rows, return_index=True)
    return np.sort(first)


def _names(given: Sequence[Any] | None, count: int, prefix: str, what: str) -> tuple[str, ...]:
    if given is None:
        return tuple(f"{prefix}{i}" for i in range(count))
    names = tuple(str(n) for n in given)
    if len(names) != count:
        raise ParameterError(f"{what}_names", given, f"one name per {what} ({count})")
    return names


@attrs.frozen(eq=False, repr=False, init=False)
class FiniteClass:
    """A finite concept class: the ±1 matrix M[h, x], hypotheses × points.

    Parameters
    ----------
    matrix : array_like
        ±1 entries (or bools, True for +1), one row per hypothesis, one
        column per point. Equal rows are merged (the first is kept).
    hypothesis_names, point_names : sequence of str, optional
        Readable names (default ``h0, h1, …`` by the input row and ``0, 1, …``);
        the names of the rows kept are kept.
    name : str, optional
        What the class is, e.g. ``"intervals(8)"``.

    Attributes
    ----------
    matrix : numpy.ndarray
        int8 ±1, read-only, rows distinct.
    source_rows : numpy.ndarray
        For each hypothesis kept, its row in the input matrix.

    Examples
    --------
    >>> cls = FiniteClass([[1, 1], [1, -1], [1, 1]], point_names=["a", "b"], name="toy")
    >>> cls.n_hypotheses, cls.n_points, cls.hypothesis_names, cls.source_rows.tolist()
    (2, 2, ('h0', 'h1'), [0, 1])
    >>> cls.consistent([1], [-1]).tolist()
    [False, True]
    >>> cls.certificate(1).describe()
    "hypothesis 'h1' (row 1) of 'toy', over 2 points: +−"
    """

    matrix: np.ndarray
    hypothesis_names: tuple[str, ...]
    point_names: tuple[str, ...]
    name: str
    source_rows: np.ndarray
    _cache: dict = attrs.field(factory=dict)

    def __init__(
        self,
        matrix: Any,
        hypothesis_names: Sequence[Any] | None = None,
        point_names: Sequence[Any] | None = None,
        name: str = "",
    ):
        if isinstance(matrix, _Owned):
            full = matrix.array
        else:
            if hasattr(matrix, "matrix") and not isinstance(matrix, np.ndarray):
                matrix = matrix.matrix
            full = _as_matrix(matrix)
        h_names = _names(hypothesis_names, full.shape[0], "h", "hypothesis")
        p_names = _names(point_names, full.shape[1], "", "point")
        keep = _first_of_each_row(full)
        if keep.size < full.shape[0]:
            full = full[keep]
            h_names = tuple(h_names[i] for i in keep)
        full = np.ascontiguousarray(full)
        full.flags.writeable = False
        keep = keep.astype(np.intp)
        keep.flags.writeable = False
        self.__attrs_init__(full, h_names, p_names, str(name), keep, {})

    # -- sizes and names -----------------------------------------------------------

    @property
    def n_hypotheses(self) -> int:
        """The number of (distinct) hypotheses."""
        return int(self.matrix.shape[0])

    @property
    def n_points(self) -> int:
        """The number of points (instances are 0, …, n_points − 1)."""
        return int(self.matrix.shape[1])

    def __len__(self) -> int:
        return self.n_hypotheses

    def __repr__(self) -> str:
        label = f"{self.name!r}: " if self.name else ""
        return f"FiniteClass({label}{self.n_hypotheses} hypotheses × {self.n_points} points)"

    def index_of(self, name: str) -> int:
        """The row of the hypothesis with this name (ValueError when there is none)."""
        try:
            return self.hypothesis_names.index(str(name))
        except ValueError:
            raise ValueError(f"{self!r} has no hypothesis named {name!r}") from None

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, FiniteClass)
            and self.matrix.shape == other.matrix.shape
            and bool(np.array_equal(self.matrix, other.matrix))
            and self.hypothesis_names == other.hypothesis_names
            and self.point_names == other.point_names
        )

    __hash__ = None  # type: ignore[assignment]

    def __getstate__(self) -> dict:
        # the cached dimension engine is rebuilt on demand, never pickled
        return {
            "matrix": self.matrix,
            "hypothesis_names": self.hypothesis_names,
            "point_names": self.point_names,
            "name": self.name,
            "source_rows": self.source_rows,
        }

    def __setstate__(self, state: dict) -> None:
        for key, value in state.items():
            object.__setattr__(self, key, value)
        object.__setattr__(self, "_cache", {})

    # -- restriction ---------------------------------------------------------------

    def _points(self, points: Any) -> np.ndarray:
        idx = np.asarray(points, dtype=np.int64).reshape(-1)
        if idx.size and (idx.min() < 0 or idx.max() >= self.n_points):
            raise IndexError(f"points must be in 0..{self.n_points - 1}, got {points!r}")
        return idx

    def consistent(self, points: Any = (), labels: Any = ()) -> np.ndarray:
        """The hypotheses that agree with every labelled point, as a bool mask.

        Parameters
        ----------
        points : sequence of int
            Point indices.
        labels : sequence of int
            Their labels, ±1.
        """
        idx = self._points(points)
        y = np.asarray(labels).reshape(-1)
        if y.shape != idx.shape:
            raise ValueError(f"{idx.size} points but {y.size} labels")
        if idx.size == 0:
            return np.ones(self.n_hypotheses, dtype=bool)
        return np.all(self.matrix[:, idx] == y, axis=1)

    def restrict(self, points: Any = (), labels: Any = ()) -> FiniteClass:
        """The class of the hypotheses consistent with the labelled points (same points).

        Examples
        --------
        >>> from game.theory.concepts import intervals
        >>> intervals(4).restrict([0, 3], [1, 1]).hypothesis_names
        ('[0, 3]',)
        """
        return self.subclass(self.consistent(points, labels))

    def subclass(self, rows: Any) -> FiniteClass:
        """The class of the given hypotheses (a bool mask or indices), names kept."""
        rows = np.asarray(rows)
        idx = np.flatnonzero(rows) if rows.dtype == np.bool_ else rows.astype(np.intp)
        return FiniteClass(
            self.matrix[idx],
            [self.hypothesis_names[i] for i in idx],
            self.point_names,
            name=self.name,
        )

    # -- certificates --------------------------------------------------------------

    def certificate(self, h: int, *, realizable: bool = True) -> FiniteClassCertificate:
        """Hypothesis ``h`` as a certificate (its row of labels, index and name)."""
        h = int(h)
        if not 0 <= h < self.n_hypotheses:
            raise IndexError(f"hypothesis {h} is not in 0..{self.n_hypotheses - 1}")
        return FiniteClassCertificate(
            self.matrix[h],
            index=h,
            name=self.hypothesis_names[h],
            class_name=self.name,
            realizable=realizable,
        )

    @property
    def columns(self) -> np.ndarray:
        """The matrix transposed, points × hypotheses, C-contiguous and read-only (made once).

        Row x is every hypothesis's label of point x in one contiguous run: a
        learner reading the class point by point reads N bytes a round instead
        of striding across the whole matrix.

        Examples
        --------
        >>> FiniteClass([[1, -1], [-1, -1]]).columns.tolist()
        [[1, -1], [-1, -1]]
        """
        columns = self._cache.get("columns")
        if columns is None:
            columns = np.ascontiguousarray(self.matrix.T)
            columns.flags.writeable = False
            self._cache["columns"] = columns
        return columns

    # -- the dimension engine, cached on the class ---------------------------------

    @property
    def engine(self):
        """The class's :class:`game.theory.littlestone.LdimEngine` (made once, then shared).

        Every player and function that asks this class for Littlestone
        dimensions goes through this one engine, so what one computed the next
        finds in its memo.
        """
        engine = self._cache.get("engine")
        if engine is None:
            from game.theory._ldim_engine import LdimEngine

            engine = self._cache["engine"] = LdimEngine(self.matrix)
        return engine

    # -- files ---------------------------------------------------------------------

    @classmethod
    def load(cls, path: str | Path, *, name: str | None = None) -> FiniteClass:
        """Read a class from a ``.npy`` file or a comma-separated ``.csv`` of ±1 entries.

        The file is read with :func:`game.theory.read_array_file`: a regular
        file, a ``.npy`` header checked before its data is read, a ``.csv``
        with the same number of columns on every row.

        Raises
        ------
        ParameterError
            Naming ``path``: another suffix, a file that cannot be read or is
            not a regular file, no entries (a class needs a hypothesis and a
            point), an entry that is not +1 or -1 (its row and column, counted
            from 1, for a ``.csv`` that is not numbers).

        Examples
        --------
        >>> import tempfile
        >>> with tempfile.TemporaryDirectory() as folder:
        ...     path = Path(folder) / "cls.csv"
        ...     _ = path.write_text("1,-1\\n-1,secret\\n")
        ...     FiniteClass.load(path)
        Traceback (most recent call last):
        ...
        game.errors.ParameterError: path must be ... (row 2, column 2: not a number; ...)
        """
        path = Path(path)
        expected = "a .npy or .csv file of a ±1 matrix"
        if path.suffix not in (".npy", ".csv"):
            raise ParameterError("path", str(path), expected)

        def fail(problem: str) -> ParameterError:
            return ParameterError("path", str(path), expected, problem)

        matrix = read_array_file(path, fail=fail, ndmin=2)
        fault = _matrix_fault(matrix)
        if fault is not None:  # where, never what: the file's content is not echoed
            raise fail(fault)
        return cls(matrix, name=path.name if name is None else name)

    def save(self, path: str | Path) -> Path:
        """Write the matrix to a ``.npy`` or ``.csv`` file (names are not saved)."""
        path = Path(path)
        if path.suffix == ".npy":
            np.save(path, self.matrix)
        elif path.suffix == ".csv":
            np.savetxt(path, self.matrix, fmt="%d", delimiter=",")
        else:
            raise ParameterError("path", str(path), "a .npy or .csv file")
        return path

    # -- from concepts -------------------------------------------------------------

    @classmethod
    def from_concepts(
        cls, concepts: Iterable[Any], n: int, *, names: Sequence[str] | None = None, name: str = ""
    ) -> FiniteClass:
        """The class over {0, 1}ⁿ of concepts with a vectorised ``labels(X)``.

        Parameters
        ----------
        concepts : iterable
            Objects whose ``labels(X)`` maps a bool matrix of bit vectors (one
            per row, x1 in column 0) to their labels, ±1 or bool.
        n : int
            The number of bits; the points are :func:`bit_vectors` (n).
        names : sequence of str, optional
            Default: each concept's ``str``.

        Examples
        --------
        >>> class Bit:
        ...     def __init__(self, i): self.i = i
        ...     def labels(self, X): return X[:, self.i]
        ...     def __str__(self): return f"x{self.i + 1}"
        >>> FiniteClass.from_concepts([Bit(0), Bit(1)], 2).matrix
        array([[-1, -1,  1,  1],
               [-1,  1, -1,  1]], dtype=int8)
        """
        X = bit_vectors(n)
        concepts = list(concepts)
        matrix = np.empty((len(concepts), X.shape[0]), dtype=np.int8)
        for i, concept in enumerate(concepts):
            labels = np.asarray(concept.labels(X)).reshape(-1)
            if labels.shape != (X.shape[0],):
                raise ValueError(
                    f"{concept!r}: labels(X) gave {labels.size} labels for {X.shape[0]} points"
                )
            matrix[i] = np.where(labels > 0, 1, -1)
        if names is None:
            names = [str(c) for c in concepts]
        return cls(matrix, names, _point_names(n), name=name)


def as_finite_class(value: Any, parameter: str = "concept_class") -> FiniteClass:
    """The one coercion to a finite class: a FiniteClass as it is, else made into one.

    Accepts a :class:`FiniteClass` as it is (so players handed one class share
    its dimension engine), and an object with ``.matrix`` or a ±1 matrix
    (hypotheses × points) as a new class (equal rows merged). Players'
    ``concept_class`` fields and the Littlestone functions all go through it.

    Parameters
    ----------
    value : FiniteClass, object with ``.matrix``, or array_like
        The class.
    parameter : str, default "concept_class"
        The name a refusal gives the value.

    Raises
    ------
    ParameterError
        Naming ``parameter``, when the value is None or not a ±1 matrix.

    Examples
    --------
    >>> as_finite_class([[1, -1], [-1, 1]])
    FiniteClass(2 hypotheses × 2 points)
    >>> as_finite_class([[1, 0]], "cls")
    Traceback (most recent call last):
    ...
    game.errors.ParameterError: cls must be a 2-D matrix of +1 or -1 entries (or bools), ...
    """
    if isinstance(value, FiniteClass):
        return value
    if value is None:
        raise ParameterError(parameter, value, "a finite class, or its ±1 matrix")
    if hasattr(value, "matrix") and not isinstance(value, np.ndarray):
        value = value.matrix
    return FiniteClass(_as_matrix(value, parameter))


def point_index(x: Any, n_points: int) -> int:
    """A point instance as a Python int in 0..n_points − 1; else a ParameterError naming ``x``.

    Examples
    --------
    >>> import numpy as np
    >>> point_index(np.int64(2), 3)
    2
    >>> point_index(3, 3)
    Traceback (most recent call last):
    ...
    game.errors.ParameterError: x must be a point: an integer index in 0..2, got 3
    """
    n_points = check_integer("n_points", n_points, low=0)
    if isinstance(x, np.ndarray) and x.ndim == 0 and x.dtype.kind in "iu":
        x = x.item()
    expected = f"a point: an integer index in 0..{n_points - 1}"
    if isinstance(x, bool | np.bool_) or not isinstance(x, numbers.Integral):
        raise ParameterError("x", x, expected)
    if not 0 <= x < n_points:
        raise ParameterError("x", x, expected)
    return int(x)


def _row_string(row: np.ndarray) -> str:
    return "".join("+" if v > 0 else "−" for v in row)


def _parse_row(text: str) -> np.ndarray:
    table = {"+": 1, "-": -1, "−": -1}
    if not isinstance(text, str):
        raise ValueError(f"a row of labels is a string of + and −, got {text!r}")
    try:
        return np.array([table[ch] for ch in text], dtype=np.int8)
    except KeyError as exc:
        raise ValueError(f"a row of labels is a string of + and −, got {exc.args[0]!r}") from None


def _as_row(value: Any) -> np.ndarray:
    row = np.asarray(value)
    if row.ndim != 1:
        raise ValueError(f"a hypothesis's row is 1-D, got shape {row.shape}")
    return frozen_copy(_as_matrix(row[None, :])[0])


def _row_index(value: Any) -> int | None:
    if value is None:
        return None
    return check_integer("index", value, low=0)


@attrs.frozen(eq=False)
class FiniteClassCertificate(Certificate):
    """Hypothesis h of a finite class: its row of labels, with its index and name.

    The row itself is stored (in immutable memory), so a transcript read back
    re-verifies the certificate without the class. Instances are point
    indices: a game fits the certificate when its rounds are a column of
    integers in 0 … points − 1 (floats are refused, integral ones too: the
    referee records points as integers).

    Parameters
    ----------
    row : array_like
        The hypothesis's label (±1) on every point of the class.
    index : int, optional
        Its row in the class (an integer ≥ 0).
    name, class_name : str, optional
        Readable names of the hypothesis and of the class.

    Examples
    --------
    >>> import numpy as np
    >>> c = FiniteClassCertificate([1, -1, 1], index=2, name="h2")
    >>> c.labels(np.array([0, 1])).tolist(), c.agrees([2, 1], [1, 1]).tolist()
    ([1, -1], [True, False])
    >>> from game.theory import certificate_from_dict
    >>> certificate_from_dict(c.to_dict()) == c
    True
    """

    kind: ClassVar[str] = "finite-class"
    row: np.ndarray = attrs.field(converter=_as_row)
    index: int | None = attrs.field(default=None, converter=_row_index)
    name: str = attrs.field(default="", validator=attrs.validators.instance_of(str))
    class_name: str = attrs.field(default="", validator=attrs.validators.instance_of(str))

    def labels(self, instances) -> np.ndarray:
        idx = np.asarray(instances)
        if idx.dtype.kind not in "iu":
            if idx.size and not np.all(np.mod(idx, 1) == 0):
                raise ValueError("finite-class instances are point indices (integers)")
            idx = idx.astype(np.int64)
        if idx.size and (idx.min() < 0 or idx.max() >= self.row.size):
            raise IndexError(f"points must be in 0..{self.row.size - 1}")
        return self.row[idx]

    def check_fits(self, instances) -> None:
        """Refuse rounds that are not a column of integer points in 0 … points − 1.

        Examples
        --------
        >>> import numpy as np
        >>> c = FiniteClassCertificate([1, -1, 1])
        >>> c.check_fits(np.array([0, 2, 1]))
        >>> c.check_fits(np.array([0.0, 2.0]))
        Traceback (most recent call last):
        ...
        game.errors.CertificateError: a finite-class certificate over 3 points judges points: ...
        """
        m = self.row.size
        judges = (
            f"a finite-class certificate over {m} points judges points: "
            f"a column of integers in 0..{m - 1}"
        )
        X = _rounds(instances, judges)
        if X.shape[0] == 0:
            return
        if X.ndim != 1 or X.dtype.kind not in "iu":
            raise _unfit(judges, X)
        outside = (X < 0) | (X >= m)
        if np.any(outside):
            t = int(np.flatnonzero(outside)[0])
            raise _unfit(judges, X, f"round {t + 1} holds point {X[t]}")

    def describe(self) -> str:
        who = f"hypothesis {self.name!r}" if self.name else "a hypothesis"
        where = f" (row {self.index})" if self.index is not None else ""
        of = f" of {self.class_name!r}" if self.class_name else ""
        shown = _row_string(self.row[:32]) + ("…" if self.row.size > 32 else "")
        return f"{who}{where}{of}, over {self.row.size} points: {shown}"

    def params(self) -> dict[str, Any]:
        return {
            "row": _row_string(self.row).replace("−", "-"),
            "index": self.index,
            "name": self.name,
            "class_name": self.class_name,
        }

    @classmethod
    def from_params(cls, params, realizable):
        return cls(
            _parse_row(params["row"]),
            index=params.get("index"),
            name=params.get("name", ""),
            class_name=params.get("class_name", ""),
            realizable=realizable,
        )

    def __eq__(self, other):
        return (
            type(other) is type(self)
            and self.realizable == other.realizable
            and self.index == other.index
            and self.name == other.name
            and np.array_equal(self.row, other.row)
        )

    __hash__ = None

    def __reduce__(self):
        return _rebuilt, (type(self), self.params(), self.realizable)


# -- builders ------------------------------------------------------------------------


def bit_vectors(n: int) -> np.ndarray:
    """The 2ⁿ points of {0, 1}ⁿ as a bool matrix: row i is i in binary, x1 first.

    ``n`` is at most ``MAX_BITS`` = 12.

    Examples
    --------
    >>> bit_vectors(2).astype(int).tolist()
    [[0, 0], [0, 1], [1, 0], [1, 1]]
    """
    n = check_integer("n", n, low=0, high=MAX_BITS)
    i = np.arange(1 << n)
    return ((i[:, None] >> np.arange(n - 1, -1, -1)) & 1).astype(bool)


def _point_names(n: int) -> list[str]:
    return [format(i, f"0{n}b") if n else "()" for i in range(1 << n)]


def thresholds(n: int) -> FiniteClass:
    """Thresholds on the points 0, …, n − 1: h_θ(x) = +1 iff x ≥ θ, θ = 0, …, n.

    Its Littlestone dimension is ⌊log₂(n + 1)⌋ (binary search on θ). ``n`` is
    at most 8192 (a 64 MiB matrix).

    Examples
    --------
    >>> thresholds(2).hypothesis_names
    ('x ≥ 0', 'x ≥ 1', 'x ≥ 2')
    """
    n = check_integer("n", n, low=0, high=8192)
    x = np.arange(n)
    theta = np.arange(n + 1)
    matrix = _signs(x[None, :] >= theta[:, None])
    return FiniteClass(_Owned(matrix), [f"x ≥ {t}" for t in theta], name=f"thresholds({n})")


def intervals(n: int) -> FiniteClass:
    """Intervals [a, b] ∩ {0, …, n − 1} with a ≤ b, and the empty interval first.

    n(n + 1)/2 + 1 hypotheses, ordered (a, b) lexicographically after ∅. ``n``
    is at most 512 (131,329 hypotheses, a 64 MiB matrix).

    Examples
    --------
    >>> intervals(3).hypothesis_names
    ('∅', '[0, 0]', '[0, 1]', '[0, 2]', '[1, 1]', '[1, 2]', '[2, 2]')
    """
    n = check_integer("n", n, low=0, high=512)
    a, b = np.triu_indices(n)
    # the intervals starting at a are rows n − a of a lower triangle, placed at column a
    triangle = _signs(np.tri(n, dtype=bool))
    matrix = np.full((1 + a.size, n), -1, dtype=np.int8)
    row = 1
    for start in range(n):
        size = n - start
        matrix[row : row + size, start:] = triangle[:size, :size]
        row += size
    names = ["∅"] + [f"[{i}, {j}]" for i, j in zip(a.tolist(), b.tolist(), strict=True)]
    return FiniteClass(_Owned(matrix), names, name=f"intervals({n})")


def singletons(n: int) -> FiniteClass:
    """Singletons on n points: h_i(x) = +1 iff x = i (no empty hypothesis).

    Its Littlestone dimension is 1 for n ≥ 2 (Shalev-Shwartz & Ben-David §21.1.1,
    Example 21.3): one mistake reveals i. ``n`` is from 1 to 8192 (a 64 MiB matrix).
    """
    n = check_integer("n", n, low=1, high=8192)
    matrix = _signs(np.eye(n, dtype=bool))
    return FiniteClass(_Owned(matrix), [f"x = {i}" for i in range(n)], name=f"singletons({n})")


def all_functions(m: int) -> FiniteClass:
    """All 2^m labellings of m points (row i labels point j by bit j of i, +1 for 1).

    Its Littlestone dimension is m. ``m`` is at most 20 (2²⁰ hypotheses).
    """
    m = check_integer("m", m, low=0, high=20)
    i = np.arange(1 << m)
    truth = np.empty((1 << m, m), dtype=bool)
    for j in range(m):
        truth[:, j] = (i >> j) & 1
    matrix = _signs(truth)
    names = [_row_string(r) if m else "()" for r in matrix]
    return FiniteClass(_Owned(matrix), names, name=f"all_functions({m})")


def parities(n: int) -> FiniteClass:
    """Parities over {0, 1}ⁿ: h_S(x) = +1 iff Σ_{i∈S} x_i is odd, for every S ⊆ {1, …, n}.

    2ⁿ hypotheses (S = ∅ is the constant −1); Littlestone dimension n. ``n`` is
    at most ``MAX_BITS`` = 12 (a 16 MiB matrix).
    """
    n = check_integer("n", n, low=0, high=MAX_BITS)
    S = bit_vectors(n)
    # Σ_{i∈S} x_i is the number of bits that S's index and x's index share (x1 the
    # top bit of both): the parity of that count, a block of rows at a time
    i = np.arange(1 << n, dtype=np.uint16)
    odd = np.empty((1 << n, 1 << n), dtype=bool)
    for start in range(0, 1 << n, 256):
        shared = i[start : start + 256, None] & i[None, :]
        odd[start : start + 256] = _bit_count(shared) & 1
    names = [" ⊕ ".join(f"x{j + 1}" for j in np.flatnonzero(s)) or "0" for s in S]
    return FiniteClass(_Owned(_signs(odd)), names, _point_names(n), name=f"parities({n})")


def _bit_count(a: np.ndarray) -> np.ndarray:
    """The number of set bits of each entry of an unsigned array."""
    if hasattr(np, "bitwise_count"):
        return np.bitwise_count(a)
    count = np.zeros(a.shape, dtype=np.uint8)
    for j in range(8 * a.itemsize):
        count += ((a >> j) & 1).astype(np.uint8)
    return count


def conjunctions(n: int) -> FiniteClass:
    """Conjunctions of literals over {0, 1}ⁿ (seed 003, §2), the empty one and ``False`` too.

    Each variable appears positive, negated or not at all (3ⁿ conjunctions, the
    empty one being ``True``), plus the contradictory conjunctions, all equal to
    ``False`` (the elimination algorithm's starting hypothesis): 3ⁿ + 1. ``n``
    is at most 10 (59,050 hypotheses × 1,024 points, 60 MB).
    """
    n = check_integer("n", n, low=0, high=10)
    X = bit_vectors(n)
    # rows [k, 2k) and [2k, 3k) are rows [0, k) with x_j and with ¬x_j added, k = 3^j
    truth = np.zeros((3**n + 1, 1 << n), dtype=bool)
    truth[0] = True
    names = [""]
    k = 1
    for j in range(n):
        col = X[:, j]
        np.logical_and(truth[:k], col, out=truth[k : 2 * k])
        np.logical_and(truth[:k], ~col, out=truth[2 * k : 3 * k])
        k *= 3
        names = (
            names + [_and(s, f"x{j + 1}") for s in names] + [_and(s, f"¬x{j + 1}") for s in names]
        )
    names = [s or "True" for s in names] + ["False"]
    return FiniteClass(_Owned(_signs(truth)), names, _point_names(n), name=f"conjunctions({n})")


def _and(a: str, b: str) -> str:
    return f"{a} ∧ {b}" if a else b


def monotone_conjunctions(n: int) -> FiniteClass:
    """Conjunctions of positive literals over {0, 1}ⁿ: 2ⁿ of them (``True`` the empty one).

    Littlestone dimension n: seed 003's adversary forces n mistakes, and 2ⁿ
    hypotheses allow no more than log₂ 2ⁿ = n. ``n`` is at most ``MAX_BITS``
    = 12 (a 16 MiB matrix).
    """
    n = check_integer("n", n, low=0, high=MAX_BITS)
    X = bit_vectors(n)
    truth = np.ones((1 << n, 1 << n), dtype=bool)
    names = [""]
    k = 1
    for j in range(n):
        np.logical_and(truth[:k], X[:, j], out=truth[k : 2 * k])
        k *= 2
        names = names + [_and(s, f"x{j + 1}") for s in names]
    return FiniteClass(
        _Owned(_signs(truth)),
        [s or "True" for s in names],
        _point_names(n),
        name=f"monotone_conjunctions({n})",
    )


def decision_lists(n: int, length: int) -> FiniteClass:
    """Decision lists over {0, 1}ⁿ with at most ``length`` rules before the default (seed 003).

    A list ``if ℓ1 then b1 elif ℓ2 then b2 … else b`` labels x by the first
    rule whose literal ℓ_i (x_j or ¬x_j) is true, else by b. Lists computing
    the same function are one hypothesis, named by the shortest list found
    first (rules added in the order x1, ¬x1, x2, …, label + before −). ``n`` is
    at most 6 and ``length`` at most 64; the search stops at
    ``MAX_HYPOTHESES`` distinct functions.

    Examples
    --------
    >>> decision_lists(1, 1).hypothesis_names
    ('+', '−', 'if x1 then − else +', 'if ¬x1 then − else +')
    """
    n = check_integer("n", n, low=0, high=6)
    length = check_integer("length", length, low=0, high=64)
    X = bit_vectors(n)
    literals = []
    for j in range(n):
        literals.append((f"x{j + 1}", X[:, j]))
        literals.append((f"¬x{j + 1}", ~X[:, j]))
    fires = np.array([f for _, f in literals], dtype=bool).reshape(2 * n, 1 << n)
    # the candidates of a tail in the order (literal, label +, label −)
    choices = [(lit, sign) for lit, _ in literals for sign in ("+", "−")]
    rows = [np.ones(1 << n, dtype=bool), np.zeros(1 << n, dtype=bool)]
    names = ["+", "−"]
    seen = {r.tobytes() for r in rows}
    frontier = np.arange(2)
    for _ in range(length):
        if not frontier.size:
            break
        start = len(rows)
        for first in range(0, frontier.size, 256):  # a block of tails at a time
            block = frontier[first : first + 256]
            tails = np.array([rows[f] for f in block])  # F × 2ⁿ
            grown = np.empty((block.size, 2 * n, 2, 1 << n), dtype=bool)
            grown[:, :, 0] = tails[:, None, :] | fires[None]  # then +
            grown[:, :, 1] = tails[:, None, :] & ~fires[None]  # then −
            grown = grown.reshape(-1, 1 << n)
            for c, key in enumerate(map(bytes, grown)):
                if key in seen:
                    continue
                seen.add(key)
                tail, choice = divmod(c, len(choices))
                lit, sign = choices[choice]
                rows.append(grown[c].copy())
                names.append(_prepend(lit, sign, names[block[tail]]))
                if len(rows) > MAX_HYPOTHESES:
                    raise ParameterError(
                        "length",
                        length,
                        f"smaller: decision_lists({n}, length) makes more than "
                        f"{MAX_HYPOTHESES:,} hypotheses",
                    )
        frontier = np.arange(start, len(rows))
    return FiniteClass(
        _Owned(_signs(np.array(rows))),
        names,
        _point_names(n),
        name=f"decision_lists({n}, {length})",
    )


def _prepend(literal: str, sign: str, tail: str) -> str:
    if tail in ("+", "−"):
        return f"if {literal} then {sign} else {tail}"
    return f"if {literal} then {sign} el{tail}"


#: Builders by name, for scenario files and the command line.
BUILDERS: dict[str, Callable[..., FiniteClass]] = {
    "thresholds": thresholds,
    "intervals": intervals,
    "singletons": singletons,
    "all_functions": all_functions,
    "parities": parities,
    "conjunctions": conjunctions,
    "monotone_conjunctions": monotone_conjunctions,
    "decision_lists": decision_lists,
}


def build_class(builder: str, *args: Any, **kwargs: Any) -> FiniteClass:
    """The one path from a builder's name and arguments to a class (a key of :data:`BUILDERS`).

    Scenario files' ``[concept_class]`` tables and the command line build through it.

    Raises
    ------
    ParameterError
        Naming ``builder`` when there is no such builder, else the argument
        refused: unknown, missing (its value None) or out of range.

    Examples
    --------
    >>> build_class("decision_lists", 2, length=1)
    FiniteClass('decision_lists(2, 1)': 6 hypotheses × 4 points)
    >>> build_class("interval", 4)
    Traceback (most recent call last):
    ...
    game.errors.ParameterError: builder must be one of 'thresholds', 'intervals', ...
    >>> build_class("intervals", m=4)
    Traceback (most recent call last):
    ...
    game.errors.ParameterError: m must be an argument of builder 'intervals' (n), got 4
    """
    fn = BUILDERS.get(builder) if isinstance(builder, str) else None
    if fn is None:
        raise ParameterError("builder", builder, "one of " + ", ".join(map(repr, BUILDERS)))
    names = list(inspect.signature(fn).parameters)
    takes = f"builder {builder!r} ({', '.join(names)})"
    for key, value in kwargs.items():
        if key not in names:
            raise ParameterError(key, value, f"an argument of {takes}")
    if len(args) > len(names):
        raise ParameterError("args", args, f"at most {len(names)} argument(s) of {takes}")
    given = set(names[: len(args)]) | set(kwargs)
    missing = [name for name in names if name not in given]
    if missing:
        raise ParameterError(
            missing[0], None, "given", f"builder {builder!r} needs {', '.join(missing)}"
        )
    return fn(*args, **kwargs)
