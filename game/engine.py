"""The referee: :func:`play` runs the round protocol and logs every round.

See :mod:`game.protocol` for the round. The loop is thin on purpose: it keeps
four Python lists (instances, predictions, labels, updated) and turns them into
columns when the game ends; checks that a player broke the protocol cost one
comparison each on the common path.

Examples
--------
>>> import numpy as np
>>> from game import play
>>> from learners import Perceptron
>>> from adversaries import SeparableStream
>>> stream = SeparableStream(dimension=5, margin=0.1, radius=1.0, rng=np.random.default_rng(1))
>>> tr = play(Perceptron(), stream, rounds=200)
>>> s = tr.summary()
>>> s["rounds"], s["certificate_verified"], s["mistakes"] <= s["updates"] <= s["bound"]
(200, True, True)
"""

from __future__ import annotations

import math
import numbers
import time
from typing import Any

import numpy as np

from game.errors import CertificateError, GameError, ProtocolError
from game.players._registry import describe_player
from game.protocol import History
from game.theory._certificates import Certificate, first_disagreement
from game.theory._losses import get_loss
from game.theory.bounds import Bound
from game.transcript._transcript import Transcript, TranscriptWriter, versions

__all__ = ["game_header", "play"]

_ndarray = np.ndarray
_STAGES = {
    1: ("adversary", "instance"),
    2: ("learner", "predict"),
    3: ("adversary", "label"),
    4: ("learner", "update"),
    5: ("learner", "snapshot"),
    6: ("learner", "extras"),
    7: ("adversary", "extras"),
}


def _who(role: str, player: Any) -> str:
    return f"{role} {describe_player(player)['name']}"


def _prediction(p: Any, learner: Any, t: int) -> float:
    """Slow path of the prediction check: coerce a real number, else raise."""
    if isinstance(p, numbers.Real) and not isinstance(p, bool | np.bool_):
        q = float(p)
        if -1.0 <= q <= 1.0:
            return q
    raise ProtocolError(
        f"{_who('learner', learner)}, round {t}: predict returned {p!r}; "
        "expected a float in [-1, 1]"
    )


def _label(y: Any, adversary: Any, t: int) -> int:
    """Slow path of the label check: accept integral ±1, else raise."""
    if isinstance(y, numbers.Integral) and not isinstance(y, bool | np.bool_) and y in (-1, 1):
        return int(y)
    raise ProtocolError(
        f"{_who('adversary', adversary)}, round {t}: label returned {y!r}; expected -1 or 1"
    )


def _extras(values: Any, role: str, player: Any, t: int) -> dict:
    if not isinstance(values, dict) or not all(
        isinstance(v, numbers.Real) and not isinstance(v, bool) for v in values.values()
    ):
        raise ProtocolError(
            f"{_who(role, player)}, round {t}: extras() returned {values!r}; "
            "expected a dict of numbers"
        )
    return values


def _extras_clash(adversary: Any, t: int, keys) -> ProtocolError:
    """The error for extras keys that both players log on round t (one column per key)."""
    return ProtocolError(
        f"{_who('adversary', adversary)}, round {t}: extras() key(s) {sorted(keys)} are also "
        "the learner's; expected keys of its own (one column per key)"
    )


def game_header(
    learner: Any,
    adversary: Any,
    *,
    rounds: int,
    loss: str,
    snapshots: bool = False,
    meta: dict | None = None,
    shared: dict | None = None,
) -> dict[str, Any]:
    """The transcript header of a game: the one place it is built.

    Parameters
    ----------
    learner, adversary : object
        The players, described by registry name and parameters.
    rounds : int
        The most rounds of the game.
    loss : str
        The loss that grades every round.
    snapshots : bool, default False
        Whether the learner's snapshots are logged.
    meta : dict, optional
        Extra entries (a scenario's path, spec and seed), added last.
    shared : dict, optional
        ``versions`` already read for a batch of games (read once per batch).

    Examples
    --------
    >>> from learners import Perceptron
    >>> from adversaries import Replay
    >>> h = game_header(Perceptron(), Replay(instances=[[1.0]], labels=[1]), rounds=3,
    ...                 loss="zero-one")
    >>> h["learner"]["name"], h["adversary"]["name"], h["rounds"]
    ('perceptron', 'replay', 3)
    """
    header: dict[str, Any] = {
        "learner": describe_player(learner),
        "adversary": describe_player(adversary),
        "rounds": int(rounds),
        "loss": loss,
        "snapshots": bool(snapshots),
        "versions": (shared or {}).get("versions") or versions(),
    }
    if meta:
        header.update(meta)
    return header


def play(
    learner: Any,
    adversary: Any,
    *,
    rounds: int,
    loss: str = "zero-one",
    snapshots: bool = False,
    out: Any = None,
    meta: dict | None = None,
    progress: Any = None,
) -> Transcript:
    """Play one game and return its transcript.

    Parameters
    ----------
    learner : Learner
        Has ``predict(x) -> float`` and ``update(x, y) -> bool``.
    adversary : Adversary
        Has ``instance(history)``, ``label(x, p, history)`` and ``certificate()``.
    rounds : int
        The most rounds to play; the adversary ends the game sooner by returning None.
    loss : {"zero-one", "absolute", "squared"}
        The loss that grades every round.
    snapshots : bool, default False
        Log the learner's ``snapshot()`` after every round's update (and before round 1).
    out : path-like, optional
        Stream the transcript to this JSON Lines file as the game runs.
    meta : dict, optional
        Extra header entries (a scenario records its spec and seed here).
    progress : callable, optional
        ``progress(done, rounds)``, called with the number of rounds completed
        at most about every 0.1 s while the game runs, and once when it ends.
        Without it the loop carries no progress code at all. An exception it
        raises stops the game as a :class:`GameError`.

    Returns
    -------
    Transcript

    Raises
    ------
    ProtocolError
        A player broke the protocol (a prediction outside [-1, 1] or NaN, a label
        other than ±1, an ``update`` that returned no bool) or raised: the message
        names the player, the round and the value. The file written so far keeps
        every complete round and a footer marked aborted.
    CertificateError
        The adversary's realizable certificate contradicts a label; names the
        first such round. The transcript file is completed first.
    """
    if isinstance(rounds, bool) or not isinstance(rounds, numbers.Integral) or rounds < 0:
        raise GameError(f"rounds must be a non-negative integer, got {rounds!r}")
    get_loss(loss)
    header = game_header(
        learner, adversary, rounds=rounds, loss=loss, snapshots=snapshots, meta=meta
    )

    snap_fn = getattr(learner, "snapshot", None) if snapshots else None
    if snapshots and snap_fn is None:
        raise GameError(f"{_who('learner', learner)} has no snapshot(); play with snapshots=False")
    learner_extras = getattr(learner, "extras", None)
    adversary_extras = getattr(adversary, "extras", None)
    initial = dict(snap_fn()) if snap_fn else None
    writer = TranscriptWriter(out, header, initial) if out is not None else None

    xs: list = []
    ps: list[float] = []
    ys: list[int] = []
    us: list[bool] = []
    snaps: dict[str, list] | None = None
    extras: dict[str, list] = {}
    history = History(xs, ps, ys)
    instance, predict = adversary.instance, learner.predict
    if progress is not None:
        instance = _reporting(instance, progress, int(rounds))
    label, update = adversary.label, learner.update
    plain = snap_fn is None and learner_extras is None and adversary_extras is None
    start = time.perf_counter()
    t = 0
    stage = 1
    sealed = None  # a read-only array whose views need no further check
    try:
        for t in range(1, rounds + 1):
            stage = 1
            x = instance(history)
            if x is None:
                break
            if x.__class__ is _ndarray and (x.base is not sealed or sealed is None):
                if x.flags.writeable:
                    x = x.view()  # players get read-only views: a write raises
                    x.flags.writeable = False
                else:  # rows of one read-only block: check the next ones by their base
                    base = x.base
                    if base is not None and not base.flags.writeable:
                        sealed = base
            stage = 2
            p = predict(x)
            if p.__class__ is not float or not -1.0 <= p <= 1.0:
                p = _prediction(p, learner, t)
            stage = 3
            y = label(x, p, history)
            if y.__class__ is not int or (y != 1 and y != -1):
                y = _label(y, adversary, t)
            stage = 4
            u = update(x, y)
            if u is not True and u is not False:
                if not isinstance(u, np.bool_):
                    raise ProtocolError(
                        f"{_who('learner', learner)}, round {t}: update returned {u!r}; "
                        "expected True or False"
                    )
                u = bool(u)
            xs.append(x)
            ps.append(p)
            ys.append(y)
            us.append(u)
            if plain and writer is None:
                continue
            snap = row = None
            if snap_fn is not None:
                stage = 5
                snap = snap_fn()
                if snaps is None:
                    snaps = {k: [] for k in snap}
                elif snap.keys() != snaps.keys():
                    raise ProtocolError(
                        f"{_who('learner', learner)}, round {t}: snapshot keys {sorted(snap)} "
                        f"differ from round 1's {sorted(snaps)}"
                    )
                for k, v in snap.items():
                    snaps[k].append(v)
            if learner_extras is not None or adversary_extras is not None:
                row = {}
                if learner_extras is not None:
                    stage = 6
                    row.update(_extras(learner_extras(), "learner", learner, t))
                if adversary_extras is not None:
                    stage = 7
                    theirs = _extras(adversary_extras(), "adversary", adversary, t)
                    if row.keys() & theirs.keys():
                        raise _extras_clash(adversary, t, row.keys() & theirs.keys())
                    row.update(theirs)
                if t == 1:  # round 1 fixes the keys, even when it logs none
                    extras = {k: [] for k in row}
                if row.keys() != extras.keys():
                    raise ProtocolError(
                        f"round {t}: extras keys {sorted(row)} differ "
                        f"from round 1's {sorted(extras)}"
                    )
                for k, v in row.items():
                    extras[k].append(float(v))
            if writer is not None:
                writer.round(t, x, p, y, u, snap, row)
    except BaseException as exc:
        # Round t failed before its line was written (a player, a hook or the
        # record): the transcript keeps the t - 1 complete rounds.
        played = t - 1
        if len(ys) > played:
            del xs[played:], ps[played:], ys[played:], us[played:]
            for column in (*(snaps or {}).values(), *extras.values()):
                del column[played:]
        if isinstance(exc, GameError):
            error: BaseException = exc
        elif isinstance(exc, Exception):
            role, method = _STAGES[stage]
            player = learner if role == "learner" else adversary
            error = ProtocolError(
                f"{_who(role, player)}, round {t}: {method} raised {type(exc).__name__}: {exc}"
            )
        else:  # KeyboardInterrupt and friends: keep the file, then let it through
            error = exc
        if writer is not None:
            partial = _transcript(header, xs, ps, ys, us, extras, snaps, initial)
            partial.status, partial.reason = "aborted", str(error) or type(error).__name__
            partial.wall_time = time.perf_counter() - start
            writer.close(partial.footer())
        if error is exc:
            raise
        raise error from exc

    transcript = _transcript(header, xs, ps, ys, us, extras, snaps, initial)
    transcript.wall_time = time.perf_counter() - start
    failure = _settle(transcript, learner, adversary)
    if writer is not None:
        if failure is not None:
            transcript.status, transcript.reason = "aborted", str(failure)
        writer.close(transcript.footer())
    if failure is not None:
        raise failure
    if progress is not None:
        _report(progress, len(transcript), int(rounds))
    return transcript


def _report(progress: Any, done: int, total: int) -> None:
    try:
        progress(done, total)
    except Exception as exc:
        raise GameError(
            f"the progress callback raised {type(exc).__name__} after {done} rounds: {exc}"
        ) from exc


#: Rounds between two looks at the clock when a progress callback is given.
_PROGRESS_STRIDE = 64
#: Seconds between two calls of the progress callback.
_PROGRESS_PERIOD = 0.1


def _reporting(instance: Any, progress: Any, total: int) -> Any:
    """``instance`` wrapped so that ``progress(done, total)`` runs about every 0.1 s.

    The adversary's ``instance`` is called once per round, so the wrapper counts
    rounds; it reads the clock every :data:`_PROGRESS_STRIDE` rounds. The plain
    loop, without a callback, never sees it.
    """
    clock = time.perf_counter
    state = [0, clock()]

    def instance_with_progress(history):
        done = state[0]
        state[0] = done + 1
        if done % _PROGRESS_STRIDE == 0 and done:
            now = clock()
            if now - state[1] >= _PROGRESS_PERIOD:
                state[1] = now
                _report(progress, done, total)
        return instance(history)

    return instance_with_progress


def _transcript(header, xs, ps, ys, us, extras, snaps, initial) -> Transcript:
    n = len(ys)
    return Transcript(
        header=header,
        raw_instances=xs,
        predictions=np.fromiter(ps, dtype=np.float64, count=n),
        labels=np.fromiter(ys, dtype=np.int8, count=n),
        updated=np.fromiter(us, dtype=bool, count=n),
        extras={k: np.asarray(v, dtype=np.float64) for k, v in extras.items()},
        snapshots=snaps if snaps is not None else ({} if initial is not None else None),
        initial_snapshot=initial,
    )


def _settle(transcript: Transcript, learner: Any, adversary: Any) -> GameError | None:
    """Certificate, verification and bounds; returns the error to raise, if any.

    An exception inside ``certificate``, ``mistake_bound`` or ``lower_bound`` is
    returned as a :class:`ProtocolError` naming the player, so the caller still
    writes the footer; a certificate that cannot label the rounds played is a
    :class:`CertificateError`.
    """
    role, method = "adversary", "certificate"
    try:
        get_certificate = getattr(adversary, "certificate", None)
        certificate = get_certificate() if get_certificate is not None else None
        if certificate is not None and not isinstance(certificate, Certificate):
            return ProtocolError(
                f"{_who('adversary', adversary)}: certificate() returned {certificate!r}; "
                "expected a game.theory.Certificate or None"
            )
        transcript.certificate = certificate
        if certificate is not None and certificate.realizable:
            try:
                bad = first_disagreement(certificate, transcript.instances, transcript.labels)
            except Exception as exc:
                transcript.certificate_verified = False
                return CertificateError(
                    f"{_who('adversary', adversary)}: its certificate ({certificate.describe()}) "
                    f"cannot label the rounds played: {type(exc).__name__}: {exc}"
                )
            if bad is not None:
                transcript.certificate_verified = False
                return CertificateError(
                    f"{_who('adversary', adversary)}: its certificate ({certificate.describe()}) "
                    f"disagrees with round {bad + 1}, labelled {int(transcript.labels[bad]):+d}"
                )
            transcript.certificate_verified = True
        role, method = "learner", "mistake_bound"
        bound_fn = getattr(learner, "mistake_bound", None)
        if bound_fn is not None:
            transcript.bound = _bound(bound_fn(transcript), learner, "learner", method)
        role, method = "adversary", "lower_bound"
        lower_fn = getattr(adversary, "lower_bound", None)
        if lower_fn is not None:
            transcript.lower_bound = _bound(lower_fn(), adversary, "adversary", method)
    except GameError as exc:
        return exc
    except Exception as exc:
        player = learner if role == "learner" else adversary
        return ProtocolError(
            f"{_who(role, player)}, after the game: {method} raised {type(exc).__name__}: {exc}"
        )
    if transcript.bound is not None and math.isnan(transcript.bound.value):
        return ProtocolError(f"{_who('learner', learner)}: mistake_bound returned NaN")
    return None


def _bound(value: Any, player: Any, role: str, method: str) -> Bound | None:
    if value is not None and not isinstance(value, Bound):
        raise ProtocolError(
            f"{_who(role, player)}: {method}() returned {value!r}; "
            "expected a game.theory.bounds.Bound or None"
        )
    return value
