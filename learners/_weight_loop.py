"""The compiled loop of :mod:`learners.weight_kernels` (imported only when numba is installed)."""

from __future__ import annotations

import numba

__all__ = ["run"]


def _jit(function):
    """Compile lazily, the machine code cached on disk when there is somewhere to write it.

    'reassoc' lets the sums be split across vector lanes; nothing else is
    relaxed, so every product and every weight is rounded as numpy rounds it.
    """
    options = {"nogil": True, "fastmath": {"reassoc"}}
    try:
        return numba.njit(cache=True, **options)(function)
    except RuntimeError:  # no writable cache location (a read-only install)
        return numba.njit(**options)(function)


@_jit
def run(w, recent, labels, y, lose, advice, update, weigh):
    """One pass: the pending zero-one update, then (Σ w_i, Σ w_i·advice_i).

    See :func:`learners.weight_kernels.weights_pass`.
    """
    total = 0.0
    product = 0.0
    if update:
        for i in range(w.shape[0]):
            wrong = labels[i] != y
            x = w[i] * (lose if wrong else 1.0)
            w[i] = x
            recent[i] += wrong
            total += x
            if weigh:
                product += x * advice[i]
    elif weigh:
        for i in range(w.shape[0]):
            product += w[i] * advice[i]
    return total, product
