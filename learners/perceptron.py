"""The Perceptron, with each source's conventions selectable.

The sources differ in two details:

- the label predicted on a zero score: +1 in the CS229 notes (seed 001) and
  Abernethy's lecture 16 (seed 004), −1 in Balcan's lecture 3 (seed 003,
  "predict positive iff w·x > 0");
- when to update: on mistakes (001, 003), or whenever y·w·x ≤ 0 (004 and
  Shalev-Shwartz & Ben-David §21.4, seed 000), which also updates on a
  zero-score round predicted right.

==========================  ==============  ===============  =============
source                      ``zero_label``  ``update``       ``normalize``
==========================  ==============  ===============  =============
CS229 notes (001)           +1              "mistake"        False
Balcan lecture 3 (003)      −1              "mistake"        True
Abernethy lecture 16 (004)  +1              "nonpositive"    False
§21.4 as OGD (000)          +1              "nonpositive"    False
==========================  ==============  ===============  =============

The default is 004's. Updates are recorded apart from mistakes either way.

The class declares its lockstep kernel (``Perceptron.lockstep``, the protocol
of :mod:`game.players`): K Perceptrons play K games at once, on a K × d
weight matrix, each game exactly its serial game.
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs
import numpy as np

from game.players import LockstepLearner, integer_at_least, one_of, rounds_of
from game.theory import HalfspaceCertificate
from game.theory.bounds import Bound, balcan_nonseparable, block_novikoff, perceptron_hinge

__all__ = ["Perceptron", "comparator_bounds", "instances_as_used", "tightest"]


def instances_as_used(transcript, normalize: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The instances played, as a Perceptron-type learner used them, and their norms.

    Parameters
    ----------
    transcript : Transcript
        A game on vectors (or bit vectors, read as 0/1 vectors).
    normalize : bool, default False
        Scale every non-zero instance to unit length, as the learner did.

    Returns
    -------
    (X, norms) : tuple of numpy.ndarray
        One row per round, and each row's Euclidean norm.

    Examples
    --------
    >>> import numpy as np
    >>> from game import play
    >>> from adversaries import Replay
    >>> tr = play(Perceptron(), Replay(instances=[[3.0, 4.0]], labels=[1]), rounds=1)
    >>> X, norms = instances_as_used(tr, normalize=True)
    >>> X.tolist(), norms.tolist()
    ([[0.6, 0.8]], [1.0])
    """
    X = np.asarray(transcript.instances, dtype=np.float64).reshape(len(transcript), -1)
    norms = np.linalg.norm(X, axis=1)
    if normalize:
        X = X / np.where(norms > 0, norms, 1.0)[:, None]
        norms = np.linalg.norm(X, axis=1)
    return X, norms


def comparator_bounds(transcript, certificate=None, *, normalize: bool = False) -> list[Bound]:
    """The non-separable Perceptron bounds for a comparator u on the game played.

    - Balcan lecture 3: updates ≤ 1/γ² + (2/γ)·TD_γ, when every instance as
      used has norm ≤ 1 (unit length with ``normalize``, as in the lecture),
      at the γ ∈ (0, 1] that minimises it, TD_γ over all rounds
      (:func:`game.theory.bounds.balcan_nonseparable`);
    - Shalev-Shwartz & Ben-David §21.4, Theorem 21.16: updates ≤ F + R‖w*‖√F +
      R²‖w*‖², w* = c·u with the scaling c chosen from the whole sequence and F
      the hinge loss of w* on the update rounds (:func:`game.theory.bounds.perceptron_hinge`).

    Both hold for any u, separating or not, and bound updates (so mistakes)
    under every convention.

    Parameters
    ----------
    transcript : Transcript
        The game played.
    certificate : HalfspaceCertificate, optional
        The comparator (default: the transcript's certificate).
    normalize : bool, default False
        Whether the learner scaled instances to unit length.

    Returns
    -------
    list of Bound
        Empty when there is no halfspace comparator or no round.

    Examples
    --------
    >>> import numpy as np
    >>> from game import play, HalfspaceCertificate
    >>> from adversaries import Replay
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0], [-0.6, 0.2]])
    >>> tr = play(Perceptron(), Replay(instances=X, labels=[1, 1, 1]), rounds=3)
    >>> bounds = comparator_bounds(tr, HalfspaceCertificate([1.0, 1.0], realizable=False))
    >>> [b.source.split(" (")[0] for b in bounds]
    ['Balcan lecture 3', 'Shalev-Shwartz & Ben-David §21.4']
    >>> all(b.holds(tr.observed("updates")) for b in bounds)
    True
    """
    cert = transcript.certificate if certificate is None else certificate
    if not isinstance(cert, HalfspaceCertificate) or len(transcript) == 0:
        return []
    X, norms = instances_as_used(transcript, normalize)
    u = cert.weights / np.linalg.norm(cert.weights)
    margins = np.asarray(transcript.labels, dtype=np.float64) * (X @ u)
    radius = float(norms.max())
    bounds = []
    if radius <= 1.0 + 1e-12:
        bounds.append(balcan_nonseparable(margins))
    bounds.append(perceptron_hinge(margins[transcript.updated], radius, margins=margins))
    return bounds


def tightest(bounds: list[Bound]) -> Bound | None:
    """The smallest of a list of upper bounds (None for an empty list).

    Examples
    --------
    >>> tightest([block_novikoff(1.0, 0.5), block_novikoff(1.0, 1.0)]).value
    1.0
    """
    return min(bounds, key=lambda b: b.value) if bounds else None


# -- lockstep: K Perceptrons at once (the kernel the class declares) -------------
def _lockstep_accepts(learner: Perceptron, d: int, dtype: np.dtype) -> bool:
    if dtype != np.float64:  # the learner's arithmetic on other dtypes is not reproduced
        return False
    w = learner._w
    if w is None:
        return learner.dimension is None
    return type(w) is np.ndarray and w.dtype == np.float64 and w.shape == (d,)


def _normalized(X: np.ndarray) -> np.ndarray:
    """X scaled row by row as ``_prepare`` does (a zero row kept as it is)."""
    norms = np.sqrt(np.vecdot(X, X))  # x @ x, one BLAS dot per row
    safe = np.where(norms > 0, norms, 1.0)
    return np.where((norms > 0)[:, None], X / safe[:, None], X)


def _lockstep_run(learners: list, Xs: list, y: np.ndarray, lengths: np.ndarray):
    """The Perceptron's rounds on K games at once (every convention, per game).

    Round t: s = w·x (``numpy.vecdot``: the learner's ``w @ x``, one BLAS dot
    per game), prediction +1 if s > 0, −1 if s < 0, else ``zero_label``;
    update when y·s ≤ 0 ("nonpositive") or when the predicted label (s == 0
    giving +1 only with ``zero_label`` = 1, as ``update`` reads it) differs
    from y ("mistake"), unless x is zero; w ± x on the games that update, the
    same elementwise sums as the learner's.
    """
    k_games, n_max = y.shape
    d = Xs[0].shape[1] if Xs else 1
    W = np.zeros((k_games, d))
    for k, learner in enumerate(learners):
        if learner._w is not None:
            W[k] = learner._w
    zero_label = np.array([float(p.zero_label) for p in learners])
    by_mistake = np.array([p.update_rule == "mistake" for p in learners])
    Xs = [_normalized(X) if p.normalize else X for p, X in zip(learners, Xs, strict=True)]
    yf = y.astype(np.float64)
    # rounds that may update: inside the game, and x not zero (a zero x leaves w as it is)
    may = np.zeros((k_games, n_max), dtype=bool)
    for k, X in enumerate(Xs):
        may[k, : len(X)] = X.any(axis=1)
    S = np.empty((k_games, n_max))
    U = np.zeros((k_games, n_max), dtype=bool)
    any_mistake, all_mistake = bool(by_mistake.any()), bool(by_mistake.all())
    zero_plus = zero_label > 0
    for t, xt in rounds_of(Xs, d):
        s = S[:, t] = np.vecdot(W, xt)
        yt = yf[:, t]
        if any_mistake:
            predicted = np.where((s > 0.0) | ((s == 0.0) & zero_plus), 1.0, -1.0)
            change = predicted != yt
            if not all_mistake:
                change = np.where(by_mistake, change, yt * s <= 0.0)
        else:
            change = yt * s <= 0.0
        change &= may[:, t]
        U[:, t] = change
        idx = np.flatnonzero(change)
        if idx.size:
            W[idx] += yt[idx, None] * xt[idx]  # w + (−x) is w − x exactly
    P = np.where(S > 0.0, 1.0, np.where(S < 0.0, -1.0, zero_label[:, None]))
    for k, learner in enumerate(learners):
        if lengths[k] > 0 or learner._w is not None:
            learner._w = W[k].copy()
    return P, U


@attrs.define(eq=False, on_setattr=attrs.setters.NO_OP)
class Perceptron:
    """The online Perceptron: w₁ = 0, predict sign(w·x), update w += y·x.

    Parameters
    ----------
    zero_label : {1, -1}, default 1
        The label predicted when w·x = 0.
    update : {"nonpositive", "mistake"}, default "nonpositive"
        Update whenever y·w·x ≤ 0 (004, §21.4), or only on mistakes (001, 003).
    normalize : bool, default False
        Scale every instance to unit length before use, as Balcan's lecture 3
        does (a zero instance is used as it is).
    dimension : int, optional
        The instances' dimension; by default taken from the first instance.

    Notes
    -----
    ``mistake_bound`` is Block–Novikoff's (R/γ)² on updates, with R the largest
    norm of an instance played (after normalising) and γ the adversary's
    halfspace certificate's margin on the rounds played. Against a comparator
    (a certificate marked non-realizable) it is the tighter of Balcan's
    1/γ² + (2/γ)·TD_γ and §21.4's F + R‖w*‖√F + R²‖w*‖² (see
    :func:`comparator_bounds`). All are bounds on updates, which every
    convention makes on every mistake.

    ``normalize`` follows Balcan's lecture 3: every example is scaled to unit
    length before it is used, in the score and in the update w ± x/‖x‖; this
    does not change on which side of a hyperplane through the origin it lies,
    so only the updates' lengths change.

    With ``snapshots=True`` the game logs ‖w‖² and w after every round; given
    a certificate u, :func:`game.theory.block_novikoff_claims` turns them into
    w·u and checks the proof's two claims on every update round.

    Examples
    --------
    >>> import numpy as np
    >>> p = Perceptron(zero_label=-1, update="mistake")
    >>> x = np.array([1.0, 0.0])
    >>> p.predict(x), p.update(x, 1), p.predict(x)
    (-1.0, True, 1.0)
    >>> Perceptron().predict(x)   # 004: a zero score predicts +1
    1.0
    """

    proof: ClassVar[str] = "perceptron"
    deterministic: ClassVar[bool] = True
    plays: ClassVar[frozenset[str]] = frozenset({"vector", "bits", "advice"})
    #: K games at once, on float64 vectors (:func:`game.play_batch`).
    lockstep: ClassVar[LockstepLearner] = LockstepLearner(
        accepts=_lockstep_accepts, run=_lockstep_run
    )

    zero_label: int = attrs.field(
        default=1,
        validator=one_of(1, -1),
        metadata={"doc": "label predicted on a zero score: 1 (001, 004) or -1 (003)"},
    )
    update_rule: str = attrs.field(
        default="nonpositive",
        alias="update",
        validator=one_of("nonpositive", "mistake"),
        metadata={"doc": "update when y·w·x ≤ 0 ('nonpositive', 004) or on mistakes ('mistake')"},
    )
    normalize: bool = attrs.field(
        default=False,
        validator=one_of(False, True),
        metadata={"doc": "scale instances to unit length first (003)"},
    )
    dimension: int | None = attrs.field(
        default=None,
        validator=attrs.validators.optional(integer_at_least(1, 2**26)),
        metadata={"doc": "dimension of the instances (default: from the first one)"},
    )
    _w: Any = attrs.field(init=False, default=None, repr=False)
    _seen: Any = attrs.field(init=False, default=None, repr=False)  # (x, x as used, w·x)
    _nonpositive: bool = attrs.field(init=False, default=True, repr=False)

    def __attrs_post_init__(self) -> None:
        self._nonpositive = self.update_rule == "nonpositive"
        if self.dimension is not None:
            self._w = np.zeros(self.dimension)

    @property
    def weights(self) -> np.ndarray:
        """A copy of the current weight vector (empty before the first instance)."""
        return np.zeros(0) if self._w is None else self._w.copy()

    def _prepare(self, x):
        if self.normalize:
            x = np.asarray(x, dtype=np.float64)  # bits: a bool or uint8 x @ x would wrap
            norm = float(np.sqrt(x @ x))
            return x / norm if norm > 0 else x
        return x

    def predict(self, x) -> float:
        """sign(w·x) as ±1.0, with ``zero_label`` on a zero score."""
        w = self._w
        if w is None:
            w = self._w = np.zeros(np.shape(x)[0])
        xn = self._prepare(x) if self.normalize else x
        s = float(w @ xn)
        self._seen = (x, xn, s)
        if s > 0.0:
            return 1.0
        if s < 0.0:
            return -1.0
        return 1.0 if self.zero_label == 1 else -1.0

    def update(self, x, y: int) -> bool:
        """w += y·x when the rule says so; returns whether w changed.

        The score ``predict`` computed is reused once (it is dropped here, so a
        second ``update`` on the same object sees the new w). A zero instance
        leaves w as it is, so its round is no update even when the rule fires.
        """
        seen = self._seen
        if seen is not None and seen[0] is x:
            _, xn, s = seen
            self._seen = None
        else:
            if self._w is None:
                self._w = np.zeros(np.shape(x)[0])
            xn = self._prepare(x) if self.normalize else x
            s = float(self._w @ xn)
        if self._nonpositive:
            change = y * s <= 0.0
        else:
            predicted = 1 if s > 0.0 or (s == 0.0 and self.zero_label == 1) else -1
            change = predicted != y
        if change:
            if not xn.any():
                return False
            if y > 0:
                self._w += xn
            else:
                self._w -= xn
        return change

    def snapshot(self) -> dict[str, Any]:
        """‖w‖² and w itself: the quantities of the Block–Novikoff proof."""
        w = self.weights
        return {"norm2": float(w @ w), "w": w}

    def mistake_bound(self, transcript) -> Bound | None:
        """The Perceptron's bound on the rounds played, from the adversary's halfspace.

        A realizable certificate gives Block–Novikoff's (R/γ)²; a comparator
        (``realizable=False``) the tighter of the non-separable bounds of
        :func:`comparator_bounds`. None without a halfspace certificate.
        """
        cert = transcript.certificate
        if not isinstance(cert, HalfspaceCertificate) or len(transcript) == 0:
            return None
        if not cert.realizable:
            return tightest(comparator_bounds(transcript, cert, normalize=self.normalize))
        X = np.asarray(transcript.instances, dtype=np.float64)
        norms = np.linalg.norm(X, axis=1)
        if self.normalize:
            X = X / np.where(norms > 0, norms, 1.0)[:, None]
            norms = np.linalg.norm(X, axis=1)
        margin = cert.margin(X, transcript.labels)
        if margin <= 0:
            return None
        return block_novikoff(float(norms.max()), margin)
