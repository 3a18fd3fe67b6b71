"""The streams' draws, compiled when numba is installed: the same numbers, the same final state.

:class:`~adversaries.streams.SeparableStream` and
:class:`~adversaries.noisy.NoisyStream` draw their examples from their
``numpy.random.Generator``: labels, margins, Gaussian rows projected off the
separator, radial uniforms (and the noise). With numba (``pip install
'online-learning-games[fast]'``) :func:`separable` draws them in one compiled
loop that runs numpy's PCG64 on the generator's own state and puts the state
back: every number the same as numpy's, bit for bit, and the generator left
where numpy's draws leave it, so a game, its transcript and its digest do not
depend on which way drew it. The loop replays numpy's algorithms exactly
(the ziggurat for normals, Lemire's bounded integers, ``next_double``, the
pairwise sums of ``numpy.add.reduce``) and leaves the two steps whose
results depend on the platform's maths library (the power u^(1/(d−1)) and
the division by the norms) to numpy itself.

Only a ``Generator`` over ``PCG64`` (what ``numpy.random.default_rng``
builds) is drawn compiled; other bit generators, a stream of dimension 1 and
a process without numba draw in numpy. Loading numba takes about a second,
so a draw loads the loop only when it is already loaded, when numba is
already imported (a compiled learner loaded it), or when the draw is large
(``WORTH_LOADING`` values); :func:`available` loads it on purpose.
:func:`game.theory.compiled` switches the compiled draws off (the tests and benchmarks
compare the two ways).

Examples
--------
>>> import numpy as np
>>> from adversaries import SeparableStream
>>> from adversaries.draw_kernels import available
>>> from game.theory import compiled
>>> def game(): return SeparableStream(5, 0.1, rng=np.random.default_rng(7))
>>> fast, slow = game(), game()
>>> ok = available()                       # load the compiled loop (False without numba)
>>> with compiled(False):
...     X0, y0 = slow.examples(300)
>>> X1, y1 = fast.examples(300)
>>> bool(np.array_equal(X0, X1) and np.array_equal(y0, y1))
True
>>> fast.rng.bit_generator.state == slow.rng.bit_generator.state
True
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from game.theory import compiled_enabled

__all__ = ["WORTH_LOADING", "available", "separable"]

#: Values (rows × dimension) a single draw must hold to load numba for itself: loading
#: takes about a second, which the compiled loop repays over some 5·10⁷ values.
WORTH_LOADING = 5 * 10**7

_state: dict[str, Any] = {"loop": None, "failed": None}

_MASK = (1 << 64) - 1


def _load() -> Any:
    """Import the compiled loop once; None when numba is missing or does not load."""
    if _state["loop"] is None and _state["failed"] is None:
        try:
            from adversaries import _compiled_draws as loop

            state = np.zeros(6, dtype=np.uint64)  # compile (or load) the loop now
            X, y, a, U = np.zeros((1, 2)), np.zeros(1, np.int64), np.zeros(1), np.zeros((2, 1))
            loop.separable(state, np.ones(2), 0.5, 1.0, 1, X, y, a, U, np.zeros((0, 1)))
            loop.combine(X, y, a, np.ones(2), np.ones(1))
        except Exception as exc:  # no numba, one built for another numpy, or a broken one
            _state["failed"] = f"{type(exc).__name__}: {exc}"
        else:
            _state["loop"] = loop
    return _state["loop"]


def available() -> bool:
    """Whether numba is installed and the compiled loop loads (loading it now if not yet).

    Examples
    --------
    >>> isinstance(available(), bool)
    True
    """
    return _load() is not None


def _loop_for(values: int) -> Any:
    """The compiled loop if on and loaded, or worth loading for a draw of ``values`` values."""
    if not compiled_enabled() or _state["failed"] is not None:
        return None
    if _state["loop"] is not None:
        return _state["loop"]
    if values >= WORTH_LOADING or "numba" in sys.modules:
        return _load()
    return None


def _pcg64(rng: Any) -> bool:
    """Whether ``rng`` is a ``Generator`` over ``PCG64`` (the generator the loop runs)."""
    return type(rng) is np.random.Generator and type(rng.bit_generator) is np.random.PCG64


def _pcg64_state(rng: np.random.Generator) -> tuple[dict, np.ndarray]:
    """The generator's PCG64 state, whole and as the loop's six uint64 words."""
    full = rng.bit_generator.state
    value, inc = full["state"]["state"], full["state"]["inc"]
    words = [value >> 64, value & _MASK, inc >> 64, inc & _MASK]
    return full, np.array([*words, full["has_uint32"], full["uinteger"]], dtype=np.uint64)


def separable(
    rng: np.random.Generator,
    direction: np.ndarray,
    margin: float,
    radius: float,
    rows: int,
    block: int,
    noise: int = 0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """``SeparableStream.draw(block)`` repeated over ``rows`` rows, compiled; or None.

    Draws exactly what ``-(-rows // block)`` calls of
    :meth:`~adversaries.streams.SeparableStream.draw` (``block`` rows each,
    the last ``rows mod block`` when shorter) draw from ``rng``, each followed
    by ``noise`` runs of a block's uniforms on [0, 1) (a
    :class:`~adversaries.noisy.NoisyStream`'s noise), and leaves ``rng``
    where they leave it. Returns (X, y, uniforms): X (rows × d, float),
    y (±1, int64) and the noise uniforms (noise × rows). None, drawing
    nothing, when the compiled loop is off, not loaded (and the draw not worth
    loading it for) or ``rng`` is not a ``Generator`` over ``PCG64``: the
    caller then draws in numpy.

    Examples
    --------
    >>> import numpy as np
    >>> from adversaries import SeparableStream
    >>> from game.theory import compiled
    >>> u = np.array([0.6, 0.8])
    >>> with compiled(False):
    ...     X, y = SeparableStream(2, 0.1, rng=np.random.default_rng(0), direction=u).draw(3)
    >>> _ = available()                    # load the loop (False without numba)
    >>> got = separable(np.random.default_rng(0), u, 0.1, 1.0, 3, 3)
    >>> got is None or bool(np.array_equal(got[0], X) and np.array_equal(got[1], y))
    True
    """
    d = direction.shape[0]
    loop = _loop_for(rows * d)
    if loop is None or not _pcg64(rng):
        return None
    X = np.empty((rows, d))
    y, a = np.empty(rows, dtype=np.int64), np.empty(rows)
    U, extra = np.empty((2, rows)), np.empty((noise, rows))
    bits = rng.bit_generator
    with bits.lock:  # as numpy's own draws hold it: no other thread draws in between
        full, state = _pcg64_state(rng)
        loop.separable(
            state, direction, float(margin), float(radius), max(block, 1), X, y, a, U, extra
        )
        full["state"]["state"] = (int(state[0]) << 64) | int(state[1])
        full["has_uint32"], full["uinteger"] = int(state[4]), int(state[5])
        bits.state = full
    if d > 1:  # numpy's own power and division, as SeparableStream.draw computes them
        spread = np.sqrt(np.maximum(radius**2 - a**2, 0.0))
        r = spread * U[0] ** (1.0 / (d - 1))
        norms = U[1]
        c = r / np.where(norms > 0, norms, 1.0)
    else:
        c = np.empty(0)
    loop.combine(X, y, a, direction, c)
    return X, y, extra
