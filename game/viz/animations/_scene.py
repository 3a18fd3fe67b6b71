"""What every scene shares: its figure, its colours and its title line."""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["LABEL_COLOURS", "mistakes_after", "new_figure", "round_title"]

#: The colour of each label: +1 blue, −1 orange (matplotlib's first two).
LABEL_COLOURS = {1: "C0", -1: "C1"}
#: A mistake's mark.
MISTAKE_COLOUR = "C3"


def new_figure(width: float, height: float) -> Any:
    """A figure (no pyplot: nothing is shown) laid out once, on the fullest frame."""
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def mistakes_after(transcript) -> np.ndarray:
    """The mistakes after each round k = 0, 1, …, T (T + 1 values)."""
    return np.concatenate(([0], np.cumsum(np.asarray(transcript.mistakes, dtype=np.int64))))


def round_title(transcript, k: int, mistakes: np.ndarray) -> str:
    """``round k of T, m mistakes`` (``before round 1`` for k = 0)."""
    total = len(transcript)
    if k == 0:
        return f"before round 1 (of {total})"
    m = int(mistakes[k])
    return f"round {k} of {total}: {m} mistake{'' if m == 1 else 's'}"
