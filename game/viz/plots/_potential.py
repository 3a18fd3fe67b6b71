"""The proof's potential, round by round, against the inequality the proof needs.

A mistake-bound proof tracks a quantity of the learner's state (its
*potential*) and shows that it moves by a fixed amount on each mistake or
update while staying inside a range; the bound is where the two meet. With
snapshots logged (``snapshots=True``) the transcript holds that quantity after
every round, and :func:`plot_potential` draws it against the inequality.

A learner class says which proof its snapshots follow in a class attribute
``proof``, one of ``POTENTIALS`` (``Perceptron.proof == "perceptron"``); the
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

from game.errors import GameError, ParameterError
from game.theory import block_novikoff_claims, get_loss, margin_perceptron_claims
from game.theory.bounds import RANDOMIZED_WEIGHTED_MAJORITY_SOURCE, WEIGHTED_MAJORITY_SOURCE
from game.viz.plots._figure import caption, finish, fit_height, game_title, new_figure, thin
from game.viz.plots._kinds import expert_count, player_class, player_name, player_params
from game.viz.plots._mistakes import cumulative, learner_name
from game.viz.plots._regret import best_so_far
from game.viz.plots._series import begin_series, check_label, mark, reference

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
    """The proof the learner's snapshots follow (one of ``POTENTIALS``), as its class declares.

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


def plot_potential(transcript, *, certificate=None, ax=None, label: str | None = None):
    """The potential of the learner's mistake-bound proof against its inequality, by round.

    See the module's text for what is drawn for each learner.

    Parameters
    ----------
    transcript : Transcript
        A game played with ``snapshots=True`` by a learner of the table.
    certificate : HalfspaceCertificate, optional
        For the Perceptron family: the separator u (default: the transcript's).
    ax : matplotlib Axes, or a pair of them for the Perceptron family, optional
        Draw into these axes, over what they hold: each game in its own colour,
        an inequality several games share drawn once. The Perceptron's two
        claims take two axes (w·u above, the norm below).
    label : str, optional
        The game's name in the legend (default: the learner's, when the axes
        already hold a game).

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    GameError
        Without snapshots, for a learner whose proof is not drawn here, or for
        the Perceptron without a halfspace certificate.
    ParameterError
        For ``ax`` other than the axes the proof takes, a label that is not a string.
    """
    check_label(label)
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
        fig, axes = _axes(ax, 2, kind)
        series = begin_series(axes[0], label, learner_name(transcript))
        _perceptron(transcript, certificate, axes, series, margin=kind == "margin-perceptron")
    else:
        fig, (one,) = _axes(ax, 1, kind)
        series = begin_series(one, label, learner_name(transcript))
        if kind == "halving":
            _halving(transcript, one, series)
        elif kind == "soa":
            _soa(transcript, one, series)
        elif kind == "exponential-weights":
            _exponential_weights(transcript, one, series)
        else:
            _weighted_majority(
                transcript, one, series, randomized=kind == "randomized-weighted-majority"
            )
    if ax is None:
        fit_height(fig)
    return fig


def _axes(ax, panels: int, kind: str):
    """The figure and the ``panels`` axes a proof is drawn on: new ones, or those given."""
    if ax is None:
        if panels == 2:
            fig, axes = new_figure(2, 1, height=2.8, sharex=True)
        else:
            fig, axes = new_figure()
        return fig, axes
    axes = list(ax) if isinstance(ax, list | tuple) else [ax]
    if len(axes) != panels:
        raise ParameterError(
            "ax",
            ax,
            f"{'two Axes (one per claim)' if panels == 2 else 'one Axes'} for the {kind} proof",
        )
    return axes[0].figure, axes


def _perceptron(transcript, certificate, axes, series, *, margin: bool) -> None:
    claims = (
        margin_perceptron_claims(transcript, certificate)
        if margin
        else block_novikoff_claims(transcript, certificate)
    )
    n = len(transcript)
    k = cumulative(transcript, "updates")
    idx = thin(n + 1)
    top, bottom = axes
    mark(
        top.plot(
            idx,
            claims.wu[idx],
            color=series.colour_or("C0"),
            linewidth=series.width(1.5),
            label=series.entry("w·u"),
        )[0]
    )
    if margin:
        floor, floor_label = claims.margin * k, "γ*·k"
    else:
        eta = float(player_params(transcript, "learner").get("eta", 1.0))
        floor = eta * claims.margin * k
        floor_label = "γ·k" if eta == 1.0 else "η·γ·k"
    reference(
        top,
        series,
        f"{floor_label}, k = updates so far: w·u ≥ {floor_label}",
        own_colour="C3",
        x=idx,
        y=floor[idx],
        linestyle="--",
    )
    top.set_ylabel("w·u")
    finish(top, title=game_title(transcript))
    if margin:
        norm = np.sqrt(np.maximum(claims.norm2, 0.0))
        ceiling = np.zeros(n + 1)
        ceiling[claims.rounds] = claims.growth_ceiling
        ceiling = np.cumsum(ceiling)
        bottom.plot(
            idx,
            norm[idx],
            color=series.colour_or("C0"),
            linewidth=series.width(1.5),
            label=series.entry("‖w‖"),
        )
        reference(
            bottom,
            series,
            "Σ over updates of 1/(2‖w‖) + γ/2: ‖w‖ ≤ this",
            own_colour="C3",
            x=idx,
            y=ceiling[idx],
            linestyle="--",
        )
        bottom.set_ylabel("‖w‖")
    else:
        bottom.plot(
            idx,
            claims.norm2[idx],
            color=series.colour_or("C0"),
            linewidth=series.width(1.5),
            label=series.entry("‖w‖²"),
        )
        eta = float(player_params(transcript, "learner").get("eta", 1.0))
        ceiling = (eta * claims.radius) ** 2 * k
        what = "R²·k" if eta == 1.0 else "η²R²·k"
        reference(
            bottom,
            series,
            f"{what}: ‖w‖² ≤ {what}",
            own_colour="C3",
            x=idx,
            y=ceiling[idx],
            linestyle="--",
        )
        bottom.set_ylabel("‖w‖²")
    bottom.set_xlabel("round t")
    finish(bottom)
    first = claims.first_failure()
    verdict = (
        "both claims hold on every update"
        if first is None
        else f"a claim fails first on round {first}"
    )
    caption(
        bottom,
        [
            series.entry(f"γ = {claims.margin:.4g}, R = {claims.radius:.4g}; {verdict}."),
            *(series.entry(claim) for claim in claims.claims),
        ],
    )


def _halving(transcript, ax, series) -> None:
    n = len(transcript)
    initial = (transcript.initial_snapshot or {}).get("consistent")
    experts = int(initial) if initial is not None else expert_count(transcript)
    size = _series(transcript, "consistent", experts)
    mistakes = cumulative(transcript, "mistakes")
    ceiling = experts * np.exp2(-mistakes)
    idx = thin(n + 1)
    mark(
        ax.plot(
            idx,
            size[idx],
            drawstyle="steps-post",
            color=series.colour_or("C0"),
            linewidth=series.width(1.5),
            label=series.entry("|C|, the experts right so far"),
        )[0]
    )
    reference(
        ax,
        series,
        "N·2^(−M), M = mistakes so far: |C| ≤ N·2^(−M)",
        own_colour="C3",
        x=idx,
        y=ceiling[idx],
        linestyle="--",
        drawstyle="steps-post",
    )
    reference(
        ax,
        series,
        "1: |C| ≥ 1, a perfect expert stays",
        own_colour="C2",
        level=1.0,
        linestyle=":",
    )
    ax.set_yscale("log", base=2)
    ax.set_ylabel("consistent experts |C|")
    ax.set_xlabel("round t")
    finish(ax, title=game_title(transcript))
    caption(
        ax,
        [
            series.entry(
                f"N = {experts}: a mistake at least halves C, and C keeps the perfect expert, "
                f"so mistakes ≤ log₂ N = {math.log2(experts):.4g} "
                "(Abernethy lecture 16 (seed 004), Theorem 16.1)."
            )
        ],
    )


def _soa(transcript, ax, series) -> None:
    n = len(transcript)
    initial = (transcript.initial_snapshot or {}).get("ldim")
    if initial is None:
        raise GameError("the potential figure needs Ldim(H), the snapshot before round 1")
    dims = _series(transcript, "ldim", initial)
    ceiling = float(initial) - cumulative(transcript, "mistakes")
    idx = thin(n + 1)
    mark(
        ax.plot(
            idx,
            dims[idx],
            drawstyle="steps-post",
            color=series.colour_or("C0"),
            linewidth=series.width(1.5),
            label=series.entry("Ldim(V), V = consistent"),
        )[0]
    )
    reference(
        ax,
        series,
        "Ldim(H) − M, M = mistakes so far: Ldim(V) ≤ this",
        own_colour="C3",
        x=idx,
        y=ceiling[idx],
        linestyle="--",
        drawstyle="steps-post",
    )
    reference(
        ax,
        series,
        "0: Ldim(V) ≥ 0 while a target remains",
        own_colour="C2",
        level=0.0,
        linestyle=":",
    )
    ax.set_ylabel("Littlestone dimension")
    ax.set_xlabel("round t")
    ax.yaxis.set_major_locator(_integer_ticks())
    finish(ax, title=game_title(transcript))
    caption(
        ax,
        [
            series.entry(
                f"Ldim(H) = {int(initial)}: SOA predicts the label whose restriction has the "
                "larger Ldim, so a mistake lowers Ldim(V) by at least 1 and mistakes ≤ Ldim(H) "
                "(Shalev-Shwartz & Ben-David §21.1.1, Lemma 21.7, the chapter of seed 000)."
            )
        ],
    )


def _integer_ticks():
    from matplotlib.ticker import MaxNLocator  # the optional extra

    return MaxNLocator(nbins="auto", integer=True, steps=[1, 2, 2.5, 5, 10])


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


def _exponential_weights(transcript, ax, series) -> None:
    n = len(transcript)
    experts = expert_count(transcript)
    eta = _eta(transcript, experts)
    phi = _series(transcript, "potential", -math.log(experts))
    gain = phi - phi[0]
    loss_name = player_params(transcript, "learner").get("loss", transcript.loss_name)
    mine = np.concatenate(([0.0], np.cumsum(_losses(transcript, loss_name), dtype=np.float64)))
    best = best_so_far(transcript, loss_name)
    idx = thin(n + 1)
    mark(
        ax.plot(
            idx,
            gain[idx],
            color=series.colour_or("C0"),
            linewidth=series.width(1.5),
            label=series.entry("Φ − Φ₁"),
        )[0]
    )
    reference(
        ax,
        series,
        f"(1 − e^(−η))·L_EWA ({loss_name} loss): Φ − Φ₁ ≥ this",
        own_colour="C3",
        x=idx,
        y=(-math.expm1(-eta) * mine)[idx],
        linestyle="--",
    )
    reference(
        ax,
        series,
        "η·L* + ln N: Φ − Φ₁ ≤ this",
        own_colour="C2",
        x=idx,
        y=(eta * best + math.log(experts))[idx],
        linestyle=":",
    )
    ax.set_ylabel("potential gained")
    ax.set_xlabel("round t")
    finish(ax, title=game_title(transcript))
    notes = [
        series.entry(
            f"N = {experts}, η = {eta:.4g}. Φ = −ln Σ_i exp(−η·L_i) gains at least (1 − e^(−η)) "
            "times the learner's loss each round (Lemma 16.5 and Jensen's inequality) and at "
            "most η·L* + ln N in all: Abernethy lecture 16 (seed 004), Theorem 16.3."
        )
    ]
    if loss_name == "zero-one":
        notes.append("The zero-one loss is not convex: the lower inequality need not hold.")
    caption(ax, notes)


def _losses(transcript, loss_name: str) -> np.ndarray:
    return np.asarray(get_loss(loss_name)(transcript.predictions, transcript.labels), float)


def _weighted_majority(transcript, ax, series, *, randomized: bool) -> None:
    n = len(transcript)
    experts = expert_count(transcript)
    beta = float(player_params(transcript, "learner").get("beta", 0.5))
    log_w = _series(transcript, "log2_weight", math.log2(experts))
    best = best_so_far(transcript, "zero-one")
    idx = thin(n + 1)
    mark(
        ax.plot(
            idx,
            log_w[idx],
            color=series.colour_or("C0"),
            linewidth=series.width(1.5),
            label=series.entry("log₂ W"),
        )[0]
    )
    if randomized:
        expected = cumulative(transcript, "mistake_probability")
        ceiling = math.log2(experts) - (1.0 - beta) * expected / math.log(2.0)
        ceiling_label = "log₂ N − (1 − β)·E[M]/ln 2: log₂ W ≤ this"
    else:
        ceiling = math.log2(experts) - cumulative(transcript, "mistakes") * math.log2(
            2.0 / (1.0 + beta)
        )
        ceiling_label = "log₂ N − M·log₂(2/(1+β)): log₂ W ≤ this"
    reference(ax, series, ceiling_label, own_colour="C3", x=idx, y=ceiling[idx], linestyle="--")
    reference(
        ax,
        series,
        "m·log₂ β, the best expert's weight: log₂ W ≥ this",
        own_colour="C2",
        x=idx,
        y=(best * math.log2(beta))[idx],
        linestyle=":",
    )
    ax.set_ylabel("log₂ of the total weight")
    ax.set_xlabel("round t")
    finish(ax, title=game_title(transcript))
    caption(
        ax,
        [
            series.entry(
                f"N = {experts}, β = {beta:g}; W = Σ_i β^(mistakes of i), m the best expert's "
                "mistakes so far."
            ),
            RANDOMIZED_WEIGHTED_MAJORITY_SOURCE if randomized else WEIGHTED_MAJORITY_SOURCE,
        ],
    )
