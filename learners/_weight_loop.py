"""The compiled loop of :mod:`learners.weight_kernels` (imported only when numba is installed)."""

from __future__ import annotations

import numba

__all__ = ["run"]


# 'reassoc' lets the sums be split across vector lanes; nothing else is relaxed, so
# every product and every weight is rounded exactly as numpy rounds it.
@numba.njit(cache=True, nogil=True, fastmath={"reassoc"})
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
