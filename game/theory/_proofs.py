"""Mistake-bound proofs checked round by round on a played game.

The Block–Novikoff proof (CS229 notes, seed 001; Balcan lecture 3, seed 003,
Claims 1 and 2; Abernethy lecture 16, seed 004, by a potential) rests on two
claims about every update w ← w + y·x, made on a round with y·(w·x) ≤ 0:

1. w·u grows by at least γ, since y·(u·x) ≥ γ for the unit separator u;
2. ‖w‖² grows by at most R², since ‖w + y·x‖² = ‖w‖² + 2y·(w·x) + ‖x‖².

A learner of the Perceptron family logs ‖w‖² (``norm2``) and w (``w``) in its
snapshots; given the certificate u, :func:`block_novikoff_claims` computes w·u
after every round and evaluates both claims on every update round of a
transcript played with ``snapshots=True``. For Online Gradient Descent the
weights are η times the Perceptron's, so the claims read "by at least η·γ" and
"by at most η²R²". :func:`margin_perceptron_claims` does the same for the
proof of Theorem 2 of lecture 3, whose second claim is
‖w_{t+1}‖ ≤ ‖w_t‖ + 1/(2‖w_t‖) + γ/2.

Examples
--------
>>> import numpy as np
>>> from game import play
>>> from game.theory import block_novikoff_claims
>>> from learners import Perceptron
>>> from adversaries import SeparableStream
>>> stream = SeparableStream(5, 0.1, 1.0, np.random.default_rng(0))
>>> tr = play(Perceptron(), stream, rounds=300, snapshots=True)
>>> proof = block_novikoff_claims(tr)
>>> proof.holds, len(proof.rounds) == tr.observed("updates")
(True, True)
"""

from __future__ import annotations

import math
from typing import Any

import attrs
import numpy as np

from game.errors import GameError
from game.theory._certificates import HalfspaceCertificate
from game.theory._numerics import row_norms, scores, unit_vector

__all__ = ["ProofClaims", "block_novikoff_claims", "margin_perceptron_claims"]

_RELATIVE = 1e-9


@attrs.frozen(eq=False)
class ProofClaims:
    """The two claims of a proof, evaluated on every update round of one game.

    Attributes
    ----------
    rounds : numpy.ndarray
        The numbers t (from 1) of the update rounds.
    progress, progress_floor : numpy.ndarray
        Claim 1: the change of w·u on each update round, and what the claim promises.
    growth, growth_ceiling : numpy.ndarray
        Claim 2: the change of the tracked size of w on each update round
        (‖w‖² or ‖w‖, see ``claims``), and what the claim allows.
    wu, norm2 : numpy.ndarray
        w·u and ‖w‖² before round 1 and after every round (length T + 1).
    margin, radius : float
        γ and R on the instances as the learner used them.
    claims : tuple of str
        The two statements, in words.
    unit_exponent : int
        0, unless the game's numbers are too large or too small for floats
        in the claims (‖w‖² of instances of size 1e200, say): then every
        quantity of degree one (w·u, γ, R, ``progress``) is in units of
        2**unit_exponent and every one of degree two (‖w‖², ``growth``) in
        units of 4**unit_exponent, the claims being homogeneous.
    """

    rounds: np.ndarray
    progress: np.ndarray
    progress_floor: np.ndarray
    growth: np.ndarray
    growth_ceiling: np.ndarray
    wu: np.ndarray
    norm2: np.ndarray
    margin: float
    radius: float
    claims: tuple[str, str]
    slack: np.ndarray = attrs.field(repr=False)
    unit_exponent: int = 0

    @property
    def progress_holds(self) -> np.ndarray:
        """Claim 1 on each update round (a relative slack of 1e-9 for rounding)."""
        return self.progress >= self.progress_floor - self.slack

    @property
    def growth_holds(self) -> np.ndarray:
        """Claim 2 on each update round."""
        return self.growth <= self.growth_ceiling + self.slack

    @property
    def holds(self) -> bool:
        """Both claims on every update round."""
        return bool(np.all(self.progress_holds) and np.all(self.growth_holds))

    def first_failure(self) -> int | None:
        """The first update round where a claim fails, or None."""
        bad = np.flatnonzero(~(self.progress_holds & self.growth_holds))
        return int(self.rounds[bad[0]]) if bad.size else None

    def rows(self) -> list[dict[str, Any]]:
        """One dict per update round: t, the two changes, their limits, and whether each holds."""
        return [
            {
                "t": int(t),
                "progress": float(p),
                "progress_floor": float(pf),
                "progress_holds": bool(ph),
                "growth": float(g),
                "growth_ceiling": float(gc),
                "growth_holds": bool(gh),
            }
            for t, p, pf, ph, g, gc, gh in zip(
                self.rounds,
                self.progress,
                self.progress_floor,
                self.progress_holds,
                self.growth,
                self.growth_ceiling,
                self.growth_holds,
                strict=True,
            )
        ]


def _learner_params(transcript) -> dict:
    learner = transcript.header.get("learner", {})
    return learner.get("params", {}) if isinstance(learner, dict) else {}


def _unit_rows(X: np.ndarray) -> np.ndarray:
    """Each non-zero row at unit length, scaled by its largest entry first (no overflow)."""
    top = np.max(np.abs(X), axis=1) if X.size else np.zeros(len(X))
    Y = X / np.where(top > 0, top, 1.0)[:, None]
    norms = row_norms(Y)
    return Y / np.where(norms > 0, norms, 1.0)[:, None]


def _trajectory(transcript, certificate, normalize: bool):
    """(X as used, unit u, margins, W with w₀ first, logged ‖w‖² with the initial first)."""
    cert = transcript.certificate if certificate is None else certificate
    if not isinstance(cert, HalfspaceCertificate):
        raise GameError("the proof needs a halfspace certificate u (none was given or recorded)")
    if not transcript.snapshots or "w" not in transcript.snapshots:
        raise GameError("the proof needs snapshots of w; play with snapshots=True")
    n = len(transcript)
    X = np.asarray(transcript.instances, dtype=np.float64).reshape(n, -1)
    if normalize:
        X = _unit_rows(X)
    u = unit_vector(cert.weights)
    margins = np.asarray(transcript.labels, dtype=np.float64) * scores(X, u)
    W = transcript.snapshot("w").reshape(n, -1)
    initial = transcript.initial_snapshot or {}
    w0 = np.asarray(initial.get("w", []), dtype=np.float64).ravel()
    if w0.size != W.shape[1]:
        w0 = np.zeros(W.shape[1])
    W = np.vstack((w0, W))
    if "norm2" in transcript.snapshots:
        norm2 = np.concatenate(
            ([float(initial.get("norm2", np.vdot(w0, w0)))], transcript.snapshot("norm2"))
        )
    else:
        norm2 = np.einsum("ij,ij->i", W, W)
    return X, u, margins, W, norm2


def block_novikoff_claims(
    transcript,
    certificate: HalfspaceCertificate | None = None,
    *,
    normalize: bool | None = None,
    step: float | None = None,
) -> ProofClaims:
    """Block–Novikoff's two claims on every update round of a game played with snapshots.

    Claim 1: w·u grows by at least η·γ; claim 2: ‖w‖² grows by at most η²R²;
    u is the certificate's direction (unit length), γ its smallest y·(u·x) and
    R the largest ‖x‖ over the rounds played, x as the learner used it. Both
    hold for the Perceptron under every convention (each update is made on a
    round with y·(w·x) ≤ 0), and for Online Gradient Descent.

    Parameters
    ----------
    transcript : Transcript
        Played with ``snapshots=True`` by a learner whose snapshots hold ``w``
        (and ``norm2``, else it is computed from w).
    certificate : HalfspaceCertificate, optional
        u (default: the transcript's certificate). A comparator works too:
        γ is then its smallest margin, possibly negative.
    normalize : bool, optional
        Whether the learner scaled instances to unit length (default: the
        learner's ``normalize`` parameter in the transcript's header, else False).
    step : float, optional
        The step η (default: the learner's ``eta`` parameter, else 1).

    Returns
    -------
    ProofClaims

    Raises
    ------
    GameError
        Without a halfspace certificate or without snapshots of w.
    """
    params = _learner_params(transcript)
    if normalize is None:
        normalize = params.get("normalize") is True
    if step is None:
        step = float(params.get("eta", 1.0))
    X, u, margins, W, norm2 = _trajectory(transcript, certificate, normalize)
    radius = float(row_norms(X).max()) if len(X) else 0.0
    gamma = float(margins.min()) if margins.size else float("inf")
    # the claims in units of 2**e where ‖w‖² or (ηR)² would leave the floats
    top = max(step * radius, float(np.max(np.abs(W))) if W.size else 0.0)
    e = 0 if top == 0.0 or 1e-100 <= top <= 1e100 else math.frexp(top)[1]
    if e:
        X, W, margins = np.ldexp(X, -e), np.ldexp(W, -e), np.ldexp(margins, -e)
        radius, gamma = math.ldexp(radius, -e), math.ldexp(gamma, -e)
        norm2 = np.einsum("ij,ij->i", W, W)  # the logged ‖w‖² may be +inf or 0 here
    wu = W @ u
    idx = np.flatnonzero(np.asarray(transcript.updated, dtype=bool))
    k = idx.size
    unit = f" (in units of 2**{e})" if e else ""
    return ProofClaims(
        rounds=idx + 1,
        progress=wu[idx + 1] - wu[idx],
        progress_floor=np.full(k, step * gamma),
        growth=norm2[idx + 1] - norm2[idx],
        growth_ceiling=np.full(k, (step * radius) ** 2),
        wu=wu,
        norm2=norm2,
        margin=gamma,
        radius=radius,
        claims=(
            f"w·u grows by at least η·γ = {step * gamma:.6g}{unit} on every update",
            f"‖w‖² grows by at most η²R² = {(step * radius) ** 2:.6g}{unit} on every update",
        ),
        slack=_RELATIVE * (1.0 + np.abs(wu[idx + 1]) + np.abs(wu[idx]) + norm2[idx + 1]),
        unit_exponent=e,
    )


def margin_perceptron_claims(
    transcript, certificate: HalfspaceCertificate | None = None, *, gamma: float | None = None
) -> ProofClaims:
    """The two claims of the proof of Theorem 2 (Margin Perceptron), on every update round.

    Claim 1: w·w* grows by at least the data's margin γ* (on unit-length
    instances). Claim 2, inequality (1) of the proof: ‖w_{t+1}‖ ≤ ‖w_t‖ +
    1/(2‖w_t‖) + γ/2, with γ the learner's parameter; on the first update, from
    w = 0, ‖w‖ grows by at most 1. ``growth`` is the change of ‖w‖.

    Parameters
    ----------
    transcript : Transcript
        Played with ``snapshots=True`` by :class:`learners.margin.MarginPerceptron`.
    certificate : HalfspaceCertificate, optional
        w* (default: the transcript's certificate).
    gamma : float, optional
        The learner's γ (default: its ``gamma`` parameter in the header).

    Examples
    --------
    >>> import numpy as np
    >>> from game import play
    >>> from learners import MarginPerceptron
    >>> from adversaries import SeparableStream
    >>> stream = SeparableStream(4, 0.3, 1.0, np.random.default_rng(2))
    >>> tr = play(MarginPerceptron(gamma=0.3), stream, rounds=300, snapshots=True)
    >>> margin_perceptron_claims(tr).holds
    True
    """
    if gamma is None:
        gamma = float(_learner_params(transcript).get("gamma", 0.1))
    _, u, margins, W, norm2 = _trajectory(transcript, certificate, True)
    wu = W @ u
    norm = np.sqrt(np.maximum(norm2, 0.0))
    data_margin = float(margins.min()) if margins.size else float("inf")
    idx = np.flatnonzero(np.asarray(transcript.updated, dtype=bool))
    before = norm[idx]
    with np.errstate(divide="ignore"):
        ceiling = np.where(before > 0, 0.5 / np.where(before > 0, before, 1.0) + gamma / 2, 1.0)
    return ProofClaims(
        rounds=idx + 1,
        progress=wu[idx + 1] - wu[idx],
        progress_floor=np.full(idx.size, data_margin),
        growth=norm[idx + 1] - before,
        growth_ceiling=ceiling,
        wu=wu,
        norm2=norm2,
        margin=data_margin,
        radius=1.0,
        claims=(
            f"w·w* grows by at least γ* = {data_margin:.6g} on every update",
            f"‖w‖ grows by at most 1/(2‖w‖) + γ/2 (γ = {gamma:.6g}) on every update",
        ),
        slack=_RELATIVE * (1.0 + np.abs(wu[idx + 1]) + np.abs(wu[idx]) + norm[idx + 1]),
    )
