"""Oblivious random streams of labelled examples.

``SeparableStream`` declares its lockstep source (``SeparableStream.lockstep``,
the protocol of :mod:`game.players`): a fresh stream's game is
``examples(n)``, drawn ahead for :func:`game.play_batch`. With numba its draws
are compiled (``adversaries.draw_kernels``): the same numbers, bit for bit.
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs
import numpy as np

from adversaries import draw_kernels
from adversaries.blocks import BLOCK, BlockStream
from game.errors import ParameterError
from game.players import Footprint, Source, integer_at_least, positive, rng_field
from game.theory import HalfspaceCertificate

__all__ = ["MAX_DIMENSION", "SeparableStream"]

#: The largest dimension accepted: a block of 256 examples at d = 2¹⁶ is
#: 128 MiB, and drawing it holds about four such arrays at once.
MAX_DIMENSION = 2**16

#: Arrays of one block's size that drawing a block holds at once (X, the
#: Gaussian draws, their product with u, and the rows handed out).
_BLOCK_COPIES = 4


def _unit_direction(value):
    if value is None:
        return None
    try:
        u = np.array(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise ParameterError("direction", value, "a non-zero finite vector") from None
    norm = np.linalg.norm(u) if u.ndim == 1 else 0.0
    if u.ndim != 1 or not np.isfinite(norm) or norm == 0:
        raise ParameterError("direction", value, "a non-zero finite vector")
    return u / norm


def _lockstep_plan(stream: SeparableStream, rounds: int) -> tuple | None:
    # ``examples`` reproduces a game only from a stream that has presented nothing yet
    if stream._rows != [] or stream._i != 0:
        return None
    return int(rounds), int(stream.dimension), np.dtype(np.float64)


def _lockstep_examples(stream: SeparableStream, n: int) -> tuple[np.ndarray, np.ndarray]:
    return stream.examples(n)


@attrs.define(eq=False, on_setattr=attrs.setters.NO_OP)
class SeparableStream(BlockStream):
    """I.i.d. examples in a ball, separated by a hidden unit vector u with a margin.

    Each example is drawn as x = y·a·u + v, where the label y is ±1 with
    probability 1/2, the margin a is uniform on [margin, radius], and v is
    uniform in the (d−1)-ball of radius √(radius² − a²) orthogonal to u. So
    ‖x‖ ≤ radius and y·(u·x) = a ≥ margin on every example: the stream is
    separable by u with margin ``margin`` in a ball of radius ``radius``, and
    Block–Novikoff promises at most (radius/margin)² updates.

    Parameters
    ----------
    dimension : int
        d, from 1 to 2¹⁶ (``MAX_DIMENSION``); a game records 8d bytes a
        round and draws blocks of 256 × d floats.
    margin : float
        γ > 0, at most ``radius``.
    radius : float, default 1.0
        R > 0.
    rng : numpy.random.Generator
        Draws u (unless ``direction`` is given) and the examples.
    direction : array_like, optional
        The separator u (normalised); drawn uniformly on the sphere by default.

    Examples
    --------
    >>> import numpy as np
    >>> s = SeparableStream(3, margin=0.5, radius=2.0, rng=np.random.default_rng(0))
    >>> x = s.instance(None); y = s.label(x, 1.0, None)
    >>> bool(y * (s.direction @ x) >= 0.5), bool(np.linalg.norm(x) <= 2.0)
    (True, True)
    """

    presents: ClassVar[str] = "vector"
    #: Its games drawn ahead, K at once (:func:`game.play_batch`).
    lockstep: ClassVar[Source] = Source(plan=_lockstep_plan, examples=_lockstep_examples)

    dimension: int = attrs.field(
        validator=integer_at_least(1, MAX_DIMENSION),
        metadata={"doc": f"dimension d (at most {MAX_DIMENSION})"},
    )
    margin: float = attrs.field(validator=positive, metadata={"doc": "margin γ of the separator"})
    radius: float = attrs.field(
        default=1.0, validator=positive, metadata={"doc": "radius R of the ball"}
    )
    rng: np.random.Generator = rng_field("draws the separator and the examples")
    direction: Any = attrs.field(
        default=None,
        converter=_unit_direction,
        metadata={"doc": "the separator u (default: uniform on the sphere)"},
    )
    _rows: list = attrs.field(init=False, factory=list, repr=False)
    _labels: list = attrs.field(init=False, factory=list, repr=False)
    _i: int = attrs.field(init=False, default=0, repr=False)
    _y: int = attrs.field(init=False, default=1, repr=False)

    def __attrs_post_init__(self) -> None:
        if self.margin > self.radius:
            raise ParameterError("margin", self.margin, f"≤ radius ({self.radius!r})")
        if self.direction is None:
            self.direction = _unit_direction(self.rng.standard_normal(self.dimension))
        elif self.direction.shape != (self.dimension,):
            entries = f"a vector of {self.dimension} entries"
            raise ParameterError("direction", self.direction, entries)
        self.direction.flags.writeable = False

    @classmethod
    def footprint(cls, params: dict, rounds: int) -> Footprint:
        """Its sizes (:func:`game.players.estimate`): 8d bytes a round, blocks of 256 × d."""
        d = int(params.get("dimension") or 1)
        own = _BLOCK_COPIES * BLOCK * 8 * d
        return Footprint(instance=8 * d, entries=d, own=own, key="dimension")

    def draw(self, n: int) -> tuple[np.ndarray, np.ndarray]:
        """The next ``n`` examples drawn from the stream's distribution, as (X, y).

        Compiled when ``adversaries.draw_kernels`` can (the same numbers).
        """
        drawn = draw_kernels.separable(self.rng, self.direction, self.margin, self.radius, n, n)
        if drawn is not None:
            X, y, _ = drawn
            X.flags.writeable = False
            return X, y
        rng, u, d = self.rng, self.direction, self.dimension
        y = rng.integers(0, 2, n) * 2 - 1
        a = rng.uniform(self.margin, self.radius, n)
        X = (y * a)[:, None] * u
        if d > 1:
            g = rng.standard_normal((n, d))
            # an elementwise product and numpy's own sum, not BLAS: the same bits everywhere
            g -= (g * u).sum(axis=1)[:, None] * u
            norms = np.linalg.norm(g, axis=1)
            spread = np.sqrt(np.maximum(self.radius**2 - a**2, 0.0))
            r = spread * rng.uniform(size=n) ** (1.0 / (d - 1))
            X += g * (r / np.where(norms > 0, norms, 1.0))[:, None]
        X.flags.writeable = False
        return X, y

    def examples(self, n: int) -> tuple[np.ndarray, np.ndarray]:
        """The next ``n`` examples exactly as ``instance`` would present them, as (X, y).

        Drawn ``BLOCK`` at a time (``BlockStream.examples``), in one
        compiled call when ``adversaries.draw_kernels`` can.
        """
        rows = -(-n // BLOCK) * BLOCK if n > 0 else 0
        drawn = self._draw_compiled(rows, BLOCK) if rows else None
        if drawn is None:
            return BlockStream.examples(self, n)
        return drawn[0][:n], drawn[1][:n]

    def _draw_compiled(self, rows: int, block: int) -> tuple | None:
        """``draw(block)`` over ``rows`` rows in one compiled call as (X, y, …), or None."""
        return draw_kernels.separable(
            self.rng, self.direction, self.margin, self.radius, rows, block
        )

    def certificate(self) -> HalfspaceCertificate:
        """The hidden separator u."""
        return HalfspaceCertificate(self.direction)
