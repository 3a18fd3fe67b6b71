"""The compiled loop of :mod:`learners.weight_kernels` (imported only when numba is installed)."""

from __future__ import annotations

from game.theory import jit

__all__ = ["run"]


#: 'reassoc' lets sums be split across vector lanes; nothing else is relaxed (no fused
#: multiply-add), so every product and every w ± x is rounded as numpy rounds it.
REASSOCIATE = {"reassoc"}


@jit(fastmath=REASSOCIATE)
def run(counts, table, least, labels, y, advice, update, weigh):
    """The pending zero-one update and its least count, then the sums at that least.

    Two loops, each of which vectorises: the counts (and their least), then
    the weights read from the table. See :func:`learners.weight_kernels.weights_pass`.
    """
    n = counts.shape[0]
    if update:
        least = counts[0] + (labels[0] != y)
        for i in range(n):
            c = counts[i] + (labels[i] != y)
            counts[i] = c
            least = min(least, c)
    last = table.shape[0] - 1
    total = 0.0
    product = 0.0
    if weigh:
        for i in range(n):
            w = table[min(counts[i] - least, last)]
            total += w
            product += w * advice[i]
    else:
        for i in range(n):
            total += table[min(counts[i] - least, last)]
    return total, product, least
