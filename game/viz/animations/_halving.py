"""Halving's consistent experts shrinking: alive or eliminated, and ``|C_t|`` against its bound."""

from __future__ import annotations

import math

import numpy as np

from game.viz.animations._kinds import expert_matrix
from game.viz.animations._scene import MISTAKE_COLOUR, mistakes_after, new_figure, round_title

__all__ = ["HalvingScene", "eliminated_at"]


def eliminated_at(advice: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """The round each expert is first wrong (sign of its advice, sign(0) = +1, not the label).

    ``advice`` is (T, N), ``labels`` (T,); an expert never wrong gets T + 1.

    Examples
    --------
    >>> eliminated_at(np.array([[1, -1, 1], [1, 1, -1]]), np.array([1, -1])).tolist()
    [2, 1, 3]
    """
    wrong = (np.asarray(advice) >= 0) != (np.asarray(labels)[:, None] > 0)
    t = advice.shape[0]
    first = np.argmax(wrong, axis=0) + 1
    return np.where(wrong.any(axis=0), first, t + 1)


class HalvingScene:
    """A grid of the N experts (alive, just eliminated, eliminated) beside ``|C_t|`` by round."""

    def __init__(self, transcript) -> None:
        self.transcript = transcript
        advice = expert_matrix(transcript)
        self.n = advice.shape[1]
        self.fell = eliminated_at(advice, np.asarray(transcript.labels))
        t = len(transcript)
        counts = np.bincount(np.minimum(self.fell, t + 1), minlength=t + 2)
        self.alive = self.n - np.cumsum(counts[: t + 1])  # |C_k|, k = 0..T
        self.mistakes = mistakes_after(transcript)
        self.side = max(1, math.ceil(math.sqrt(self.n)))

    def figure(self):
        self.fig = new_figure(9.6, 3.6)
        self.grid, self.curve = self.fig.subplots(1, 2, width_ratios=[1, 1.5])
        return self.fig

    def draw(self, k: int) -> None:
        from matplotlib.colors import ListedColormap
        from matplotlib.patches import Patch

        grid, curve = self.grid, self.curve
        grid.clear()
        state = np.full(self.side * self.side, 3)  # 3: no expert (the grid's padding)
        state[: self.n] = np.where(self.fell > k, 0, np.where(self.fell == k, 1, 2))
        colours = ListedColormap(["#2ca02c", MISTAKE_COLOUR, "0.85", "white"])
        grid.imshow(
            state.reshape(self.side, self.side), cmap=colours, vmin=0, vmax=3, interpolation="none"
        )
        grid.set_xticks([])
        grid.set_yticks([])
        grid.set_title(f"{int(self.alive[k])} of {self.n} experts consistent", fontsize=10)
        grid.legend(
            handles=[
                Patch(color="#2ca02c", label="consistent"),
                Patch(color=MISTAKE_COLOUR, label="wrong this round"),
                Patch(color="0.85", label="eliminated"),
            ],
            loc="upper center",
            bbox_to_anchor=(0.5, -0.02),
            ncol=3,
            fontsize=8,
            frameon=False,
            handlelength=1.0,
            columnspacing=0.8,
        )
        curve.clear()
        t = len(self.transcript)
        rounds = np.arange(t + 1)
        bound = self.n / 2.0**self.mistakes
        curve.step(rounds, bound, where="post", color="0.6", linestyle="--", alpha=0.5)
        curve.step(
            rounds[: k + 1],
            bound[: k + 1],
            where="post",
            color="0.3",
            linestyle="--",
            label=r"bound $N\cdot 2^{-\mathrm{mistakes}}$",
        )
        curve.step(
            rounds[: k + 1], self.alive[: k + 1], where="post", color="#2ca02c", lw=2, label="|C_t|"
        )
        hit = np.flatnonzero(np.asarray(self.transcript.mistakes)[:k]) + 1
        curve.plot(hit, self.alive[hit], "o", color=MISTAKE_COLOUR, markersize=4, label="mistake")
        curve.set_yscale("log", base=2)
        curve.set_ylim(0.7, self.n * 1.6)
        curve.set_xlim(0, max(t, 1))
        curve.set_xlabel("round t", fontsize=9)
        curve.set_ylabel("consistent experts", fontsize=9)
        curve.tick_params(labelsize=8)
        bound_text = f"mistakes ≤ log₂ N = {math.log2(self.n):.3g}" if self.n > 0 else ""
        curve.set_title(
            f"{round_title(self.transcript, k, self.mistakes)}; {bound_text}",
            fontsize=10,
            loc="left",
        )
        curve.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=8, frameon=False)
