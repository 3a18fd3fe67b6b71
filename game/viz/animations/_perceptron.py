"""The Perceptron's separating line turning, in two dimensions, with the points so far."""

from __future__ import annotations

import numpy as np

from game.theory import HalfspaceCertificate
from game.viz.animations._kinds import player_params
from game.viz.animations._scene import (
    LABEL_COLOURS,
    MISTAKE_COLOUR,
    mistakes_after,
    new_figure,
    round_title,
)

__all__ = ["PerceptronScene", "weights_after"]


def weights_after(transcript) -> tuple[np.ndarray, str]:
    """w after each round k = 0, …, T, a (T + 1, 2) array, and where it comes from.

    The learner's logged snapshot ``w`` when the game logged it (before round 1
    too), else the Perceptron's rule replayed on the recorded rounds: w starts
    at 0 and adds y·x (x/‖x‖ when the learner normalises) on every round the
    record marks as an update.
    """
    n = len(transcript)
    snaps = transcript.snapshots or {}
    first = (transcript.initial_snapshot or {}).get("w")
    if "w" in snaps and first is not None and len(snaps["w"]) == n:
        first = np.asarray(first, dtype=float)
        first = np.zeros(2) if first.size == 0 else first  # before round 1, d unknown: w = 0
        rows = [first] + [np.asarray(w, dtype=float) for w in snaps["w"]]
        if all(r.shape == (2,) for r in rows):
            return np.vstack(rows), "w: the learner's snapshots"
    x = np.asarray(transcript.instances, dtype=float).reshape(n, 2)
    if player_params(transcript, "learner").get("normalize"):
        norms = np.linalg.norm(x, axis=1, keepdims=True)
        x = np.divide(x, norms, out=np.zeros_like(x), where=norms > 0)
    steps = np.where(transcript.updated[:, None], transcript.labels[:, None] * x, 0.0)
    return np.vstack((np.zeros((1, 2)), np.cumsum(steps, axis=0))), "w: Σ y·x over the updates"


class PerceptronScene:
    """The points so far, the line w·x = 0 and w's arrow, the target u when certified."""

    def __init__(self, transcript) -> None:
        self.transcript = transcript
        n = len(transcript)
        self.x = np.asarray(transcript.instances, dtype=float).reshape(n, 2)
        self.y = np.asarray(transcript.labels, dtype=int)
        self.wrong = np.asarray(transcript.mistakes, dtype=bool)
        self.w, self.source = weights_after(transcript)
        self.mistakes = mistakes_after(transcript)
        cert = transcript.certificate
        self.u = None
        if isinstance(cert, HalfspaceCertificate) and np.shape(cert.weights) == (2,):
            self.u = np.asarray(cert.weights, dtype=float)
        reach = float(np.max(np.abs(self.x))) if n else 1.0
        self.r = 1.15 * (reach if reach > 0 and np.isfinite(reach) else 1.0)

    def figure(self):
        self.fig = new_figure(6.4, 5.0)
        self.ax = self.fig.subplots()
        return self.fig

    def _line(self, v: np.ndarray, **style) -> None:
        """The line v·x = 0 across the axes (nothing when v = 0)."""
        norm = float(np.hypot(*v))
        if norm == 0 or not np.isfinite(norm):
            return
        along = np.array([-v[1], v[0]]) / norm * 2 * self.r
        self.ax.plot([-along[0], along[0]], [-along[1], along[1]], **style)

    def draw(self, k: int) -> None:
        ax, r = self.ax, self.r
        ax.clear()
        ax.set_xlim(-r, r)
        ax.set_ylim(-r, r)
        ax.set_aspect("equal")
        ax.axhline(0, color="0.9", linewidth=0.8, zorder=0)
        ax.axvline(0, color="0.9", linewidth=0.8, zorder=0)
        w = self.w[k]
        norm = float(np.hypot(*w))
        if norm > 0 and np.isfinite(norm):  # the side w calls +1, lightly shaded
            g = np.linspace(-r, r, 2)
            xx, yy = np.meshgrid(g, g)
            ax.contourf(
                xx, yy, w[0] * xx + w[1] * yy, levels=[0, np.inf], colors=["C0"], alpha=0.08
            )
        if self.u is not None:
            self._line(self.u, color="0.45", linestyle="--", linewidth=1.2, label="target u·x = 0")
        self._line(w, color="k", linewidth=2.0, label="w·x = 0")
        if norm > 0 and np.isfinite(norm):
            tip = w / norm * 0.35 * r
            ax.annotate(
                "", xy=tip, xytext=(0, 0), arrowprops={"arrowstyle": "->", "color": "k", "lw": 1.5}
            )
            ax.text(*(tip * 1.12), "w", ha="center", va="center", fontsize=10)
        seen = slice(0, k)
        for label in (1, -1):
            pick = self.y[seen] == label
            ax.scatter(
                *self.x[seen][pick].T,
                s=40,
                c=LABEL_COLOURS[label],
                marker="o",
                edgecolors="none",
                alpha=0.8,
                label=f"label {label:+d}",
            )
        bad = self.wrong[seen]
        if bad.any():
            ax.scatter(
                *self.x[seen][bad].T,
                s=130,
                facecolors="none",
                edgecolors=MISTAKE_COLOUR,
                linewidths=1.5,
                label="mistake",
            )
        if k:
            ax.scatter(*self.x[k - 1], s=260, facecolors="none", edgecolors="k", linewidths=1.0)
        ax.set_title(round_title(self.transcript, k, self.mistakes), fontsize=11, loc="left")
        ax.set_xlabel(f"x₁   ({self.source})", fontsize=9)
        ax.set_ylabel("x₂", fontsize=9)
        ax.tick_params(labelsize=8)
        ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=9, frameon=False)
