"""The proof's potential, round by round, against the inequality the proof needs.

A mistake-bound proof tracks a quantity of the learner's state (its
*potential*) and shows that it moves by a fixed amount on each mistake or
update while staying inside a range; the bound is where the two meet. With
snapshots logged (``snapshots=True``) the transcript holds that quantity after
every round, and :func:`plot_potential` draws it against the inequality.

A learner class says which proof its snapshots follow in a class attribute
``proof``, one of :data:`POTENTIALS` (``Perceptron.proof == "perceptron"``); the
figure asks the class found through the registry, never the learner's name.
A user's learner whose snapshots follow one of these proofs declares it too:

============================  =====================================================
``proof`` (snapshot)          what is drawn, after round t (k_t updates, M_t mistakes)
============================  =====================================================
perceptron (``w``), as the    w·u ≥ η·γ·k_t and ‖w‖² ≤ η²R²·k_t (Block–Novikoff:
Perceptron, OGD and batch     CS229 notes, seed 001; Balcan lecture 3, seed 003,
Perceptron declare            Claims 1 and 2; Abernethy lecture 16, seed 004)
margin-perceptron (``w``)     w·w* ≥ γ*·k_t, and ‖w‖ ≤ the sum over updates of
                              the growth inequality (1) of Theorem 2 (seed 003)
halving (``consistent``)      1 ≤ |C_{t+1}| ≤ N·2^(−M_t), log scale (seed 004, Thm 16.1)
soa (``ldim``)                0 ≤ Ldim(V_{t+1}) ≤ Ldim(H) − M_t (Shalev-Shwartz &
                              Ben-David §21.1.1, Lemma 21.7, the chapter of seed 000)
weighted-majority             β^(m_t) ≤ W_{t+1} ≤ N·((1+β)/2)^(M_t), log₂ scale
(``log2_weight``)
randomized-weighted-majority  β^(m_t) ≤ W_{t+1} ≤ N·e^(−(1−β)·E[M_t]), log₂ scale
(``log2_weight``)
exponential-weights           (1 − e^(−η))·L_EWA ≤ Φ_{t+1} − Φ_1 ≤ η·L*_t + ln N
(``potential``)               (seed 004, Theorem 16.3: Lemma 16.5 and Jensen)
============================  =====================================================

u is the certificate's unit direction, γ its smallest margin and R the largest
norm on the rounds played (as the learner used the instances); m_t and L*_t are
the best expert's mistakes and loss after round t; W is the total weight
Σ_i β^(m_i) and Φ = −ln Σ_i e^(−η·L_i). The parameters (η, β, the loss) are the
learner's as its transcript's header records them; Exponential Weights' η played
with N experts is the class's ``learning_rate_for(N)`` on those parameters.

Examples
--------
>>> import numpy as np
>>> from game import play
>>> from learners import Perceptron
>>> from adversaries import SeparableStream
>>> stream = SeparableStream(5, 0.1, 1.0, np.random.default_rng(0))
>>> tr = play(Perceptron(), stream, rounds=300, snapshots=True)
>>> potential_kind(tr)
'perceptron'
>>> fig = plot_potential(tr)
>>> [ax.get_ylabel() for ax in fig.axes]
['w·u', '‖w‖²']
"""

from __future__ import annotations

import math

import numpy as np

from game.errors import GameError
from game.theory import block_novikoff_claims, get_loss, margin_perceptron_claims
from game.theory.bounds import RANDOMIZED_WEIGHTED_MAJORITY_SOURCE, WEIGHTED_MAJORITY_SOURCE
from game.viz.plots._figure import caption, game_title, new_figure, thin
from game.viz.plots._kinds import expert_count, player_class, player_name, player_params
from game.viz.plots._mistakes import cumulative
from game.viz.plots._regret import best_so_far

__all__ = ["POTENTIALS", "plot_potential", "potential_kind"]

#: The proofs :func:`plot_potential` draws, as a learner class declares them in
#: ``proof``, with the snapshot each one reads.
POTENTIALS = {
    "perceptron": "w",
    "margin-perceptron": "w",
    "halving": "consistent",
    "soa": "ldim",
    "weighted-majority": "log2_weight",
    "randomized-weighted-majority": "log2_weight",
    "exponential-weights": "potential",
}


def _keys(transcript) -> set[str]:
    return set(transcript.snapshots or {}) | set(transcript.initial_snapshot or {})


def potential_kind(transcript) -> str | None:
    """The proof the learner's snapshots follow (one of :data:`POTENTIALS`), as its class declares.

    The learner's class, found through the registry by the name in the header,
    declares it in ``proof``. None when the game was played without snapshots,
    the class declares no proof drawn here, or the transcript lacks the
    snapshot the proof reads.
    """
    proof = getattr(player_class(transcript, "learner"), "proof", None)
    if not isinstance(proof, str) or proof not in POTENTIALS:
        return None
    return proof if POTENTIALS[proof] in _keys(transcript) else None


def _series(transcript, key: str, first: float | None) -> np.ndarray:
    """A snapshot column with its value before round 1 in front (T + 1 values)."""
    values = transcript.snapshot(key)
    initial = (transcript.initial_snapshot or {}).get(key, first)
    if initial is None:
        raise GameError(f"the snapshot {key!r} before round 1 is unknown")
    return np.concatenate(([float(initial)], values))


def plot_potential(transcript, *, certificate=None):
    """The potential of the learner's mistake-bound proof against its inequality, by round.

    See the module's text for what is drawn for each learner.

    Parameters
    ----------
    transcript : Transcript
        A game played with ``snapshots=True`` by a learner of the table.
    certificate : HalfspaceCertificate, optional
        For the Perceptron family: the separator u (default: the transcript's).

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    GameError
        Without snapshots, for a learner whose proof is not drawn here, or for
        the Perceptron without a halfspace certificate.
    """
    if not transcript.snapshots:
        raise GameError(
            "the potential figure needs the learner's snapshots: play with snapshots=True "
            "(python -m game run SCENARIO --snapshots)"
        )
    kind = potential_kind(transcript)
    if kind is None:
        proof = getattr(player_class(transcript, "learner"), "proof", None)
        declared = f"declares the proof {proof!r}" if proof else "declares no proof"
        raise GameError(
            f"no potential argument is drawn for the learner "
            f"{player_name(transcript, 'learner')!r}: its class {declared} (its snapshots: "
            f"{', '.join(sorted(_keys(transcript)))}); potentials are drawn for a learner "
            f"class whose `proof` is one of {', '.join(POTENTIALS)}"
        )
    if kind in ("perceptron", "margin-perceptron"):
        return _perceptron(transcript, certificate, margin=kind == "margin-perceptron")
    if kind == "halving":
        return _halving(transcript)
    if kind == "soa":
        return _soa(transcript)
    if kind == "exponential-weights":
        return _exponential_weights(transcript)
    return _weighted_majority(transcript, randomized=kind == "randomized-weighted-majority")


def _perceptron(transcript, certificate, *, margin: bool):
    claims = (
        margin_perceptron_claims(transcript, certificate)
        if margin
        else block_novikoff_claims(transcript, certificate)
    )
    n = len(transcript)
    k = cumulative(transcript, "updates")
    idx = thin(n + 1)
    fig, (top, bottom) = new_figure(2, 1, height=2.8, sharex=True)
    top.plot(idx, claims.wu[idx], color="C0", label="w·u")
    if margin:
        floor, floor_label = claims.margin * k, "γ*·k"
    else:
        eta = float(player_params(transcript, "learner").get("eta", 1.0))
        floor = eta * claims.margin * k
        floor_label = "γ·k" if eta == 1.0 else "η·γ·k"
    top.plot(
        idx,
        floor[idx],
        color="C3",
        linestyle="--",
        label=f"{floor_label}, k = updates so far: w·u ≥ {floor_label}",
    )
    top.set_ylabel("w·u")
    top.set_title(game_title(transcript))
    top.legend(loc="lower right", fontsize=8)
    if margin:
        norm = np.sqrt(np.maximum(claims.norm2, 0.0))
        ceiling = np.zeros(n + 1)
        ceiling[claims.rounds] = claims.growth_ceiling
        ceiling = np.cumsum(ceiling)
        bottom.plot(idx, norm[idx], color="C0", label="‖w‖")
        bottom.plot(
            idx,
            ceiling[idx],
            color="C3",
            linestyle="--",
            label="Σ over updates of 1/(2‖w‖) + γ/2: ‖w‖ ≤ this",
        )
        bottom.set_ylabel("‖w‖")
    else:
        bottom.plot(idx, claims.norm2[idx], color="C0", label="‖w‖²")
        eta = float(player_params(transcript, "learner").get("eta", 1.0))
        ceiling = (eta * claims.radius) ** 2 * k
        what = "R²·k" if eta == 1.0 else "η²R²·k"
        bottom.plot(idx, ceiling[idx], color="C3", linestyle="--", label=f"{what}: ‖w‖² ≤ {what}")
        bottom.set_ylabel("‖w‖²")
    bottom.set_xlabel("round t")
    bottom.set_xlim(0, max(n, 1))
    bottom.legend(loc="lower right", fontsize=8)
    first = claims.first_failure()
    verdict = (
        "both claims hold on every update"
        if first is None
        else f"a claim fails first on round {first}"
    )
    caption(
        bottom,
        [f"γ = {claims.margin:.4g}, R = {claims.radius:.4g}; {verdict}.", *claims.claims],
    )
    return fig


def _halving(transcript):
    n = len(transcript)
    initial = (transcript.initial_snapshot or {}).get("consistent")
    experts = int(initial) if initial is not None else expert_count(transcript)
    size = _series(transcript, "consistent", experts)
    mistakes = cumulative(transcript, "mistakes")
    ceiling = experts * np.exp2(-mistakes)
    idx = thin(n + 1)
    fig, (ax,) = new_figure()
    ax.plot(
        idx, size[idx], drawstyle="steps-post", color="C0", label="|C|, the experts right so far"
    )
    ax.plot(
        idx,
        ceiling[idx],
        drawstyle="steps-post",
        color="C3",
        linestyle="--",
        label="N·2^(−M), M = mistakes so far: |C| ≤ N·2^(−M)",
    )
    ax.axhline(1.0, color="C2", linestyle=":", label="1: |C| ≥ 1, a perfect expert stays")
    ax.set_yscale("log", base=2)
    ax.set_ylabel("consistent experts |C|")
    ax.set_xlabel("round t")
    ax.set_xlim(0, max(n, 1))
    ax.set_title(game_title(transcript))
    ax.legend(loc="upper right", fontsize=8)
    caption(
        ax,
        [
            f"N = {experts}: a mistake at least halves C, and C keeps the perfect expert, "
            f"so mistakes ≤ log₂ N = {math.log2(experts):.4g} "
            "(Abernethy lecture 16 (seed 004), Theorem 16.1)."
        ],
    )
    return fig


def _soa(transcript):
    n = len(transcript)
    initial = (transcript.initial_snapshot or {}).get("ldim")
    if initial is None:
        raise GameError("the potential figure needs Ldim(H), the snapshot before round 1")
    dims = _series(transcript, "ldim", initial)
    ceiling = float(initial) - cumulative(transcript, "mistakes")
    idx = thin(n + 1)
    fig, (ax,) = new_figure()
    ax.plot(idx, dims[idx], drawstyle="steps-post", color="C0", label="Ldim(V), V = consistent")
    ax.plot(
        idx,
        ceiling[idx],
        drawstyle="steps-post",
        color="C3",
        linestyle="--",
        label="Ldim(H) − M, M = mistakes so far: Ldim(V) ≤ this",
    )
    ax.axhline(0.0, color="C2", linestyle=":", label="0: Ldim(V) ≥ 0 while a target remains")
    ax.set_ylabel("Littlestone dimension")
    ax.set_xlabel("round t")
    ax.set_xlim(0, max(n, 1))
    ax.set_title(game_title(transcript))
    ax.legend(loc="upper right", fontsize=8)
    caption(
        ax,
        [
            f"Ldim(H) = {int(initial)}: SOA predicts the label whose restriction has the larger "
            "Ldim, so a mistake lowers Ldim(V) by at least 1 and mistakes ≤ Ldim(H) "
            "(Shalev-Shwartz & Ben-David §21.1.1, Lemma 21.7, the chapter of seed 000)."
        ],
    )
    return fig


def _eta(transcript, experts: int) -> float:
    """η as played with N experts: the class's ``learning_rate_for(N)`` on the recorded
    parameters, or the recorded ``eta`` for a class without one."""
    params = player_params(transcript, "learner")
    cls = player_class(transcript, "learner")
    if cls is not None and callable(getattr(cls, "learning_rate_for", None)):
        try:
            learner = cls(**params)
        except (TypeError, ValueError, GameError) as exc:
            raise GameError(
                f"the learner {player_name(transcript, 'learner')!r} cannot be rebuilt from "
                f"its recorded parameters to learn the η it played: {exc}"
            ) from None
        return float(learner.learning_rate_for(experts))
    return float(params.get("eta", 1.0))


def _exponential_weights(transcript):
    n = len(transcript)
    experts = expert_count(transcript)
    eta = _eta(transcript, experts)
    phi = _series(transcript, "potential", -math.log(experts))
    gain = phi - phi[0]
    loss_name = player_params(transcript, "learner").get("loss", transcript.loss_name)
    mine = np.concatenate(([0.0], np.cumsum(_losses(transcript, loss_name), dtype=np.float64)))
    best = best_so_far(transcript, loss_name)
    idx = thin(n + 1)
    fig, (ax,) = new_figure()
    ax.plot(idx, gain[idx], color="C0", label="Φ − Φ₁")
    ax.plot(
        idx,
        (-math.expm1(-eta) * mine)[idx],
        color="C3",
        linestyle="--",
        label=f"(1 − e^(−η))·L_EWA ({loss_name} loss): Φ − Φ₁ ≥ this",
    )
    ax.plot(
        idx,
        (eta * best + math.log(experts))[idx],
        color="C2",
        linestyle=":",
        label="η·L* + ln N: Φ − Φ₁ ≤ this",
    )
    ax.set_ylabel("potential gained")
    ax.set_xlabel("round t")
    ax.set_xlim(0, max(n, 1))
    ax.set_title(game_title(transcript))
    ax.legend(loc="upper left", fontsize=8)
    notes = [
        f"N = {experts}, η = {eta:.4g}. Φ = −ln Σ_i exp(−η·L_i) gains at least (1 − e^(−η)) "
        "times the learner's loss each round (Lemma 16.5 and Jensen's inequality) and at most "
        "η·L* + ln N in all: Abernethy lecture 16 (seed 004), Theorem 16.3."
    ]
    if loss_name == "zero-one":
        notes.append("The zero-one loss is not convex: the lower inequality need not hold.")
    caption(ax, notes)
    return fig


def _losses(transcript, loss_name: str) -> np.ndarray:
    return np.asarray(get_loss(loss_name)(transcript.predictions, transcript.labels), float)


def _weighted_majority(transcript, *, randomized: bool):
    n = len(transcript)
    experts = expert_count(transcript)
    beta = float(player_params(transcript, "learner").get("beta", 0.5))
    log_w = _series(transcript, "log2_weight", math.log2(experts))
    best = best_so_far(transcript, "zero-one")
    idx = thin(n + 1)
    fig, (ax,) = new_figure()
    ax.plot(idx, log_w[idx], color="C0", label="log₂ W")
    if randomized:
        expected = cumulative(transcript, "mistake_probability")
        ceiling = math.log2(experts) - (1.0 - beta) * expected / math.log(2.0)
        ceiling_label = "log₂ N − (1 − β)·E[M]/ln 2: log₂ W ≤ this"
    else:
        ceiling = math.log2(experts) - cumulative(transcript, "mistakes") * math.log2(
            2.0 / (1.0 + beta)
        )
        ceiling_label = "log₂ N − M·log₂(2/(1+β)): log₂ W ≤ this"
    ax.plot(idx, ceiling[idx], color="C3", linestyle="--", label=ceiling_label)
    ax.plot(
        idx,
        (best * math.log2(beta))[idx],
        color="C2",
        linestyle=":",
        label="m·log₂ β, the best expert's weight: log₂ W ≥ this",
    )
    ax.set_ylabel("log₂ of the total weight")
    ax.set_xlabel("round t")
    ax.set_xlim(0, max(n, 1))
    ax.set_title(game_title(transcript))
    ax.legend(loc="lower left", fontsize=8)
    caption(
        ax,
        [
            f"N = {experts}, β = {beta:g}; W = Σ_i β^(mistakes of i), m the best expert's "
            "mistakes so far.",
            RANDOMIZED_WEIGHTED_MAJORITY_SOURCE if randomized else WEIGHTED_MAJORITY_SOURCE,
        ],
    )
    return fig
