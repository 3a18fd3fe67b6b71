"""The per-round pass over N expert counts, compiled when numba is installed.

Exponential Weights and Weighted Majority with more than 1,024 experts spend
each round in one call over their experts' loss counts m_i: the previous
round's zero-one update (every expert whose label differs from the outcome
has its count raised by 1, and the least count follows), then Σ_i w_i and
the weighted sum Σ_i w_i·f_i of the new advice, each weight
w_i = table[m_i − least] read from the table of powers
(``learners._weights``), none kept. Without numba these are a few numpy
operations per block of experts; with numba (``pip install
'online-learning-games[fast]'``) they are two compiled loops, each of which
vectorises, the sums kept in vector registers.

Both ways compute the same counts, so the same weights, bit for bit. Only
the sums may differ in their last bits, because the compiled loop adds in
the order of the processor's vector registers (as BLAS does, whose dot
product the numpy way calls). A vote whose sign those bits could decide is
summed again exactly (``Weights.vote`` in ``learners._weights``), so the
majority votes and the ties are the same either way; other numbers (an
Exponential Weights prediction, a Randomized Weighted Majority mixture)
may differ in their last bits, which transcripts' digests, rounded to single
precision, see only with the small chance :mod:`game.transcript` states.

:func:`weights_pass` gives the compiled loop, or None when numba is not
installed or the loop is switched off with :func:`game.theory.compiled`.

Examples
--------
>>> import numpy as np
>>> from game.theory import compiled
>>> from learners.weight_kernels import weights_pass
>>> counts, table = np.array([0, 0, 1, 1]), np.array([1.0, 0.5, 0.25, 0.0])
>>> labels = np.array([1, 1, -1, -1], dtype=np.int8)
>>> advice = np.array([1, -1, 1, -1], dtype=np.int8)
>>> run = weights_pass()
>>> if run is None:          # numba is not installed: the arithmetic the loop does
...     counts += labels != 1; w = table[counts]; got = (w.sum(), w @ advice)
... else:
...     got = run(counts, table, 0, labels, 1, advice, True, True)[:2]
>>> [float(s) for s in got], counts.tolist()
([2.5, 0.0], [0, 0, 2, 2])
>>> with compiled(False):
...     weights_pass() is None
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from game.theory import compiled_enabled

__all__ = ["accepts", "available", "weights_pass"]

_state: dict[str, Any] = {"kernel": None, "failed": None}

#: The dtypes the compiled loop takes for labels and advice (native byte order).
_DTYPES = frozenset(
    np.dtype(t)
    for t in (
        np.bool_, np.int8, np.int16, np.int32, np.int64,
        np.uint8, np.uint16, np.uint32, np.uint64, np.float32, np.float64,
    )
)  # fmt: skip


def _load() -> Callable | None:
    """Import the compiled loop once; None when numba is missing or cannot load."""
    if _state["kernel"] is None and _state["failed"] is None:
        try:
            from learners._weight_loop import run

            one = np.ones(1, dtype=np.int8)  # compile (or load) the commonest case now
            run(np.zeros(1, dtype=np.int64), np.ones(2), 0, one, 1, one, True, True)
        except Exception as exc:  # no numba, one built for another numpy, or a broken one
            _state["failed"] = f"{type(exc).__name__}: {exc}"
        else:
            _state["kernel"] = run
    return _state["kernel"]


def available() -> bool:
    """Whether numba is installed and loads, so that the compiled loop can run.

    Examples
    --------
    >>> isinstance(available(), bool)
    True
    """
    return _load() is not None


def accepts(array: np.ndarray) -> bool:
    """Whether the compiled loop takes this array as labels or advice (else numpy does).

    A plain ``numpy.ndarray`` (not a subclass such as a masked array) of bool,
    integers, float32 or float64, in the machine's byte order.

    Examples
    --------
    >>> import numpy as np
    >>> accepts(np.ones(3, dtype=np.int8)), accepts(np.ones(3, dtype=np.float16))
    (True, False)
    """
    return type(array) is np.ndarray and array.dtype in _DTYPES


def weights_pass() -> Callable | None:
    """The compiled pass, or None (numba missing or not loading, or switched off).

    The pass is ``run(counts, table, least, labels, y, advice, update, weigh)``:
    with ``update``, every i with ``labels[i] != y`` gets ``counts[i] += 1``
    and ``least`` becomes the least count; then, expert i weighing
    ``table[min(counts[i] − least, len(table) − 1)]``, it forms Σ_i w_i and
    (with ``weigh``) Σ_i w_i·advice_i. It returns (Σ w, Σ w·advice, least);
    a sum not asked for is 0.0. Arrays not used may be empty; labels and
    advice are arrays :func:`accepts` takes.

    Examples
    --------
    >>> run = weights_pass()
    >>> run is None or callable(run)
    True
    """
    return _load() if compiled_enabled() else None
