"""One switch for every compiled loop of the package, and the way each loop is compiled.

With the ``fast`` extra (numba) a few loops run compiled: the Perceptron's
lockstep kernel and the experts' weight pass (:mod:`learners`), the streams'
draws (:mod:`adversaries`) and the Littlestone dimension engine's search
(:mod:`game.theory.littlestone`). Each gives the same numbers as its numpy
way, bit for bit (property-tested); each loads numba only when it is worth
the second that takes. :func:`compiled` turns them all off or on at once, for
the whole process and its threads: the tests and the benchmarks compare the
two ways with it. :func:`jit` is how every loop module compiles its functions.

Examples
--------
>>> from game.theory import compiled, compiled_enabled
>>> compiled_enabled()
True
>>> with compiled(False):
...     compiled_enabled()
False
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["compiled", "compiled_enabled", "jit"]

_state = {"enabled": True}


@contextlib.contextmanager
def compiled(enabled: bool) -> Iterator[None]:
    """Switch every compiled loop on or off inside a ``with`` block (on by default).

    Off, every player and the Ldim engine take their numpy way even where
    numba is installed, with the same results.

    Examples
    --------
    >>> import numpy as np
    >>> from adversaries import SeparableStream
    >>> with compiled(False):
    ...     X, y = SeparableStream(3, 0.1, rng=np.random.default_rng(0)).examples(5)
    >>> X.shape
    (5, 3)
    """
    before = _state["enabled"]
    _state["enabled"] = bool(enabled)
    try:
        yield
    finally:
        _state["enabled"] = before


def compiled_enabled() -> bool:
    """Whether the compiled loops are switched on (:func:`compiled`); numba may still be missing.

    Examples
    --------
    >>> compiled_enabled()
    True
    """
    return _state["enabled"]


def jit(function: Callable | None = None, **options: Any) -> Any:
    """``numba.njit`` without the GIL, its machine code cached on disk where it can be written.

    Used as ``@jit`` or ``@jit(option=...)`` inside the loop modules, which are
    imported only once numba is wanted; ``options`` go to ``numba.njit``.
    """
    import numba

    def compile_(f: Callable) -> Any:
        try:
            return numba.njit(cache=True, nogil=True, **options)(f)
        except RuntimeError:  # no writable cache location (a read-only install)
            return numba.njit(nogil=True, **options)(f)

    return compile_ if function is None else compile_(function)
