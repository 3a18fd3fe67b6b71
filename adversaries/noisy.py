"""A separable stream with noise: some labels flipped or points pushed into the margin.

``NoisyStream`` declares its lockstep source (``NoisyStream.lockstep``): its
games drawn ahead block by block, as ``instance`` draws them, with the
``corrupted`` record.
"""

from __future__ import annotations

from typing import ClassVar

import attrs
import numpy as np

from adversaries import draw_kernels
from adversaries.blocks import BLOCK
from adversaries.streams import SeparableStream
from game.players import Source, one_of, real_in
from game.theory import HalfspaceCertificate

__all__ = ["NoisyStream"]


def _lockstep_examples(stream: NoisyStream, n: int) -> tuple:
    """The n examples ``instance`` would present (drawn BLOCK at a time) and ``corrupted``."""
    rows = -(-n // BLOCK) * BLOCK
    drawn = stream._draw_compiled(rows, BLOCK) if rows else None
    if drawn is not None:
        X, y, corrupted = drawn
        return X[:n], y[:n], {"corrupted": corrupted[:n].astype(np.float64)}
    blocks = [stream.draw_noisy(BLOCK) for _ in range(-(-n // BLOCK))]
    if not blocks:
        return np.empty((0, stream.dimension)), np.empty(0, dtype=np.int64), {}
    X, y, corrupted = (np.concatenate([b[i] for b in blocks])[:n] for i in range(3))
    return X, y, {"corrupted": corrupted.astype(np.float64)}


@attrs.define(eq=False, on_setattr=attrs.setters.NO_OP)
class NoisyStream(SeparableStream):
    """A separable stream, each example corrupted at a rate: label flipped or point pushed in.

    Examples are drawn by :meth:`SeparableStream.draw` (x = y·a·u + v,
    a ∈ [margin, radius], ‖x‖ ≤ radius); each is then corrupted independently
    with probability ``rate``:

    - ``noise = "flip"``: its label is flipped, so y·(u·x) ≤ −margin;
    - ``noise = "margin"``: it is pushed inside the margin, its component along
      u replaced so that y·(u·x) is uniform on [−margin, margin), its label
      kept (the norm can only shrink).

    Every block draws the same random numbers whatever the rate and the noise,
    so the clean examples of two streams with one generator coincide.

    The certificate is u as a **comparator** (``realizable=False``): the
    non-separable bounds are evaluated against it, and the engine does not
    verify it. The per-round record ``corrupted`` (1 or 0) says which examples
    were corrupted.

    Parameters
    ----------
    dimension, margin, radius, rng, direction
        As for :class:`~adversaries.streams.SeparableStream`.
    rate : float, default 0.1
        The probability in [0, 1] that an example is corrupted.
    noise : {"flip", "margin"}, default "flip"
        How a corrupted example is corrupted.

    Examples
    --------
    >>> import numpy as np
    >>> s = NoisyStream(3, margin=0.2, rate=0.5, rng=np.random.default_rng(0))
    >>> X, y, corrupted = s.draw_noisy(200)
    >>> m = y * (X @ s.direction)
    >>> bool(np.all(m[~corrupted] >= 0.2)), bool(np.all(m[corrupted] <= -0.2))
    (True, True)
    >>> s.certificate().realizable
    False
    """

    #: Its games drawn ahead with their noise, K at once (:func:`game.play_batch`).
    lockstep: ClassVar[Source] = Source(
        plan=SeparableStream.lockstep.plan, examples=_lockstep_examples
    )

    rate: float = attrs.field(
        default=0.1,
        validator=real_in(0.0, 1.0),
        metadata={"doc": "probability that an example is corrupted"},
    )
    noise: str = attrs.field(
        default="flip",
        validator=one_of("flip", "margin"),
        metadata={"doc": "'flip' the label, or push the point inside the 'margin'"},
    )
    _flags: list = attrs.field(init=False, factory=list, repr=False)
    _flag: bool = attrs.field(init=False, default=False, repr=False)

    def draw_noisy(self, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The next ``n`` examples as (X, y, corrupted): the clean draw, then the noise."""
        drawn = self._draw_compiled(n, n)
        if drawn is not None:
            return drawn
        X, y = SeparableStream.draw(self, n)
        rng = self.rng
        corrupted = rng.uniform(size=n) < self.rate
        inside = rng.uniform(-self.margin, self.margin, n)
        return self._corrupt(X, y.copy(), corrupted, inside)

    def _draw_compiled(self, rows: int, block: int) -> tuple | None:
        """``draw_noisy(block)`` over ``rows`` rows in one compiled call, or None (numpy's turn).

        The two uniform runs of each block are drawn raw on [0, 1) and mapped
        here as ``Generator.uniform`` maps them (low + (high − low)·U).
        """
        drawn = draw_kernels.separable(
            self.rng, self.direction, self.margin, self.radius, rows, block, noise=2
        )
        if drawn is None:
            return None
        X, y, (flags, raw) = drawn
        low, high = float(-self.margin), float(self.margin)
        inside = low + (high - low) * raw
        X.flags.writeable = False
        return self._corrupt(X, y, flags < self.rate, inside)

    def _corrupt(self, X, y, corrupted, inside) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The noise applied to clean examples (y writable, X read-only): (X, y, corrupted)."""
        u = self.direction
        if self.noise == "flip":
            y[corrupted] = -y[corrupted]
        elif corrupted.any():
            X = X.copy()
            rows = X[corrupted]
            along = (rows * u).sum(axis=1)
            X[corrupted] = rows + ((y[corrupted] * inside[corrupted]) - along)[:, None] * u
            X.flags.writeable = False
        return X, y, corrupted

    def draw(self, n: int) -> tuple[np.ndarray, np.ndarray]:
        """The next ``n`` examples with their noise, as (X, y)."""
        X, y, _ = self.draw_noisy(n)
        return X, y

    def instance(self, history) -> np.ndarray:
        """The next example (a read-only row)."""
        i = self._i
        if i == len(self._rows):
            X, y, corrupted = self.draw_noisy(BLOCK)
            self._rows, self._labels, self._flags, i = list(X), y.tolist(), corrupted.tolist(), 0
        self._i = i + 1
        self._y = self._labels[i]
        self._flag = self._flags[i]
        return self._rows[i]

    def extras(self) -> dict[str, float]:
        """``corrupted``: 1.0 when the round's example was corrupted."""
        return {"corrupted": 1.0 if self._flag else 0.0}

    def certificate(self) -> HalfspaceCertificate:
        """The clean separator u, as a comparator (not claimed to agree with every label)."""
        return HalfspaceCertificate(self.direction, realizable=False)
