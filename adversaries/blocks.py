"""Oblivious streams that draw their examples in blocks.

:class:`BlockStream` gives a stream with ``draw(n) -> (X, y)`` its
``instance``, ``label`` and ``examples``: examples are drawn ``BLOCK`` at a
time, so a fresh stream's ``examples(n)`` is exactly the sequence a game
against it would see.
"""

from __future__ import annotations

import numpy as np

__all__ = ["BLOCK", "BlockStream"]

#: How many examples a stream draws at a time.
BLOCK = 256


class BlockStream:
    """Mixin for attrs streams with fields ``_rows``, ``_labels``, ``_i``, ``_y`` and ``draw``.

    Examples
    --------
    >>> import numpy as np
    >>> from adversaries import SeparableStream
    >>> X, y = SeparableStream(3, 0.2, rng=np.random.default_rng(0)).examples(300)
    >>> game = SeparableStream(3, 0.2, rng=np.random.default_rng(0))
    >>> bool(np.array_equal(game.instance(None), X[0])), bool(game.label(None, 1.0, None) == y[0])
    (True, True)
    """

    __slots__ = ()

    def examples(self, n: int) -> tuple[np.ndarray, np.ndarray]:
        """The next ``n`` examples exactly as ``instance`` would present them, as (X, y)."""
        if n <= 0:
            return self.draw(0)
        blocks = [self.draw(BLOCK) for _ in range(-(-n // BLOCK))]
        X = np.concatenate([b[0] for b in blocks])[:n]
        y = np.concatenate([b[1] for b in blocks])[:n]
        return X, y

    def instance(self, history) -> np.ndarray:
        """The next example (a read-only row)."""
        i = self._i
        if i == len(self._rows):
            X, y = self.draw(BLOCK)
            self._rows, self._labels, i = list(X), y.tolist(), 0
        self._i = i + 1
        self._y = self._labels[i]
        return self._rows[i]

    def label(self, x, p, history) -> int:
        """The label of the example just presented (the prediction is ignored)."""
        return self._y
