"""The experts' weights over time, as bars: Weighted Majority's β^(mistakes), Exponential
Weights' exp(−η·loss), recomputed from the recorded advice and labels.

The weights are the referee's, not the learner's: each expert's loss is read
from the record (advice, or a finite class's labels of the points, and the
labels), and the learner's recorded parameters give β or η. When the game
logged the learner's potential (Weighted Majority's ``log2_weight``,
Exponential Weights' ``potential``), the recomputed weights are checked
against it and the figure says whether they agree.
"""

from __future__ import annotations

import math

import numpy as np

from game.errors import GameError
from game.theory import get_loss
from game.viz.animations._kinds import expert_matrix, learner_proof, player_class, player_params
from game.viz.animations._scene import MISTAKE_COLOUR, mistakes_after, new_figure, round_title

__all__ = ["WeightsScene", "log_weights"]


def _eta(transcript, n: int) -> float:
    """η as the learner played it with N = n experts (its ``learning_rate_for``)."""
    params = player_params(transcript, "learner")
    cls = player_class(transcript, "learner")
    try:
        return float(cls(**params).learning_rate_for(n))
    except Exception:
        eta = params.get("eta", 1.0)
        if not isinstance(eta, int | float):
            raise GameError(f"the learner's recorded eta is {eta!r}; expected a number") from None
        return float(eta)


def log_weights(transcript) -> tuple[np.ndarray, str, str | None]:
    """ln of every expert's weight after each round k = 0, …, T, a (T + 1, N) array.

    Also the parameter shown (``β = 0.5``, ``η = 0.37``) and the snapshot the
    learner logs of the same weights (None when it logs none).
    """
    advice = expert_matrix(transcript)
    labels = np.asarray(transcript.labels, dtype=np.float64)
    n = advice.shape[1]
    proof = learner_proof(transcript)
    params = player_params(transcript, "learner")
    if proof == "exponential-weights":
        eta = _eta(transcript, n)
        fn = get_loss(str(params.get("loss") or transcript.loss_name))
        step = fn(advice, labels[:, None])
        scale, shown, snap = -eta, f"η = {eta:.4g}", "potential"
    else:
        beta = float(params.get("beta", 0.5))
        step = (advice >= 0) != (labels[:, None] > 0)
        scale, shown, snap = math.log(beta), f"β = {beta:.4g}", "log2_weight"
    losses = np.vstack((np.zeros((1, n)), np.cumsum(step, axis=0, dtype=np.float64)))
    return scale * losses, shown, snap


def _logsumexp(a: np.ndarray) -> np.ndarray:
    top = a.max(axis=1, keepdims=True)
    return top[:, 0] + np.log(np.exp(a - top).sum(axis=1))


class WeightsScene:
    """Bars of the normalised weights (the best expert so far marked), with β or η."""

    def __init__(self, transcript) -> None:
        self.transcript = transcript
        self.logw, self.param, snap = log_weights(transcript)
        self.n = self.logw.shape[1]
        total = _logsumexp(self.logw)
        self.share = np.exp(self.logw - total[:, None])
        self.best = np.argmax(self.logw, axis=1)
        self.mistakes = mistakes_after(transcript)
        self.name = str((transcript.header.get("learner") or {}).get("name", "learner"))
        self.checked = None  # whether the learner's logged potential agrees
        logged = (transcript.snapshots or {}).get(snap)
        if logged is not None and len(logged) == len(transcript):
            mine = -total[1:] if snap == "potential" else total[1:] / math.log(2.0)
            self.checked = bool(np.allclose(mine, np.asarray(logged, float), rtol=1e-6, atol=1e-9))
        self.top = float(self.share.max()) * 1.08
        low = float(self.share[self.share > 0].min()) if np.any(self.share > 0) else 1.0
        # weights spread over many orders of magnitude are shown on a log scale, down to 1e-12
        self.floor = max(low / 2, 1e-12) if self.top / low > 100 else None

    def figure(self):
        self.fig = new_figure(8.0, 3.8)
        self.ax = self.fig.subplots()
        return self.fig

    def draw(self, k: int) -> None:
        from matplotlib.ticker import MaxNLocator

        ax = self.ax
        ax.clear()
        share = self.share[k]
        best = int(self.best[k])
        edges = np.arange(self.n + 1) - 0.5
        base = 0.0 if self.floor is None else self.floor
        shown = np.maximum(share, base)
        if self.n <= 64:  # bars apart
            ax.bar(np.arange(self.n), shown - base, bottom=base, width=0.8, color="C0", lw=0)
        else:  # one artist for the many bars
            ax.stairs(shown, edges, baseline=base, fill=True, color="C0", lw=0)
        ax.bar(
            [best],
            [shown[best] - base],
            bottom=base,
            width=0.8 if self.n <= 64 else 1.0,
            color="C2",
            lw=0,
        )
        if self.floor is not None:
            ax.set_yscale("log")
        ax.axhline(1.0 / self.n, color="0.5", linestyle=":", linewidth=1.0)
        ax.text(-0.5, 1.0 / self.n, " 1/N", fontsize=8, va="bottom", ha="left", color="0.3")
        if k and self.transcript.mistakes[k - 1]:
            ax.text(
                0.99,
                0.97,
                "✗ mistake",
                transform=ax.transAxes,
                ha="right",
                va="top",
                color=MISTAKE_COLOUR,
                fontsize=10,
            )
        ax.set_xlim(-0.7, self.n - 0.3)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_ylim(base, self.top * (1.5 if self.floor is not None else 1.0))
        ax.set_xlabel(
            f"expert (best so far, in green: {best}, weight {share[best]:.3g})", fontsize=9
        )
        ax.set_ylabel("normalised weight", fontsize=9)
        ax.tick_params(labelsize=8)
        check = ""
        if self.checked is not None:
            check = "; matches its logged potential" if self.checked else "; ≠ its logged potential"
        ax.set_title(
            f"{self.name}, {self.param}: {round_title(self.transcript, k, self.mistakes)}{check}",
            fontsize=10,
            loc="left",
        )
