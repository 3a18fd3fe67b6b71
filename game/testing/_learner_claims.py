"""The conformance checks of what a learner says about itself, each a public function.

``update`` says whether the learner's state changed
(:func:`check_learner_update_state`), ``snapshot()`` gives the quantities its
proof tracks (:func:`check_learner_snapshot`), ``mistake_bound`` claims a
theorem's guarantee (:func:`check_learner_bound`): each claim is held against
the games the learner is given, the reference games of its kind
(:func:`~game.testing.reference_adversary`), as long as the other checks'.

When the state changed
----------------------
The learner's state is what :mod:`pickle` keeps of it, the state
:func:`~game.testing.check_learner_pickling` requires it to continue from,
less the concept class a scenario hands it (the field it declares with
:func:`~game.players.concept_class_field`: data it shares and never changes).
``update`` returning True is wrong when the pickled state after the update is,
byte for byte, the one before it: nothing changed. ``update`` returning False
is wrong when the state visibly changed: its ``snapshot()`` differs, or a copy
of the learner taken after the update predicts differently from a copy taken
before it, on the round's instance or on earlier ones (the copies, made from
the pickled states, or by ``copy.deepcopy`` for a learner that cannot be
pickled, predict the same instances in the same order, so a generator they
hold draws alike). A pickled state that differs and nothing else does not count
against False: a learner may keep a cache or a coin it drew, which is no
learning. A learner whose copies of one state predict differently is not
judged on its predictions (``deterministic`` and ``same_seed`` judge that).

Examples
--------
>>> from game.testing import check_learner_update_state, check_learner_bound
>>> from learners import Perceptron
>>> check_learner_update_state(lambda rng: Perceptron(), "vector")
>>> check_learner_bound(lambda rng: Perceptron(), "vector")
"""

from __future__ import annotations

import copy
import io
import numbers
import pickle
from collections.abc import Callable
from typing import Any

import numpy as np

from game.testing._failure import a_kind, fail, play_or_fail, shown
from game.testing._games import HandGame, game_length, same_answer, when
from game.testing._reference import declared, player_name, reference_adversary

__all__ = [
    "check_learner_bound",
    "check_learner_snapshot",
    "check_learner_update_state",
    "opponent",
]

Factory = Callable[[np.random.Generator], Any]

#: Earlier instances that the copies before and after an update also predict.
PROBES = 1
#: The seeds of the games a learner's bound is checked on.
BOUND_SEEDS = (16, 17)


def opponent(kind: str, seed: int, concept_class: Any, rounds: int) -> Any:
    """The reference adversary of ``kind`` for a check with ``seed``, ``rounds`` long."""
    return reference_adversary(kind, np.random.default_rng(seed), concept_class, rounds)


def _name(factory: Factory) -> str:
    return player_name(factory(np.random.default_rng(0)))


def _shared(learner: Any) -> list:
    """What the learner holds but does not own: its declared concept class (or nothing)."""
    field = declared(type(learner), "concept_class")
    value = getattr(learner, field, None) if field is not None else None
    return [] if value is None else [value]


class _StatePickler(pickle.Pickler):
    """Pickles a learner's state; the shared objects are named, not written."""

    def __init__(self, file: io.BytesIO, shared: list):
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.shared = {id(obj): i for i, obj in enumerate(shared)}

    def persistent_id(self, obj: Any) -> int | None:
        return self.shared.get(id(obj))


class _StateUnpickler(pickle.Unpickler):
    """Rebuilds a state :class:`_StatePickler` wrote, with the very shared objects."""

    def __init__(self, file: io.BytesIO, shared: list):
        super().__init__(file)
        self.shared = shared

    def persistent_load(self, pid: int) -> Any:
        return self.shared[pid]


def _pickled(learner: Any, shared: list) -> bytes | None:
    """The learner's state as bytes (its shared objects by name), or None: it cannot be pickled."""
    out = io.BytesIO()
    try:
        if not shared:
            return pickle.dumps(learner, protocol=pickle.HIGHEST_PROTOCOL)
        _StatePickler(out, shared).dump(learner)
    except Exception:
        return None
    return out.getvalue()


def _copy(learner: Any, pickled: bytes | None, shared: list) -> Any:
    """A copy of ``learner`` in the state ``pickled`` holds (a deep copy if None); or None."""
    try:
        if pickled is not None and not shared:
            return pickle.loads(pickled)
        if pickled is not None:
            return _StateUnpickler(io.BytesIO(pickled), shared).load()
        return copy.deepcopy(learner, {id(obj): obj for obj in shared})
    except Exception:
        return None


def _same_value(a: Any, b: Any) -> bool:
    try:
        return bool(np.array_equal(a, b, equal_nan=True))
    except (TypeError, ValueError):
        try:
            return bool(a == b)
        except Exception:
            return a is b


def _changed_key(a: Any, b: Any) -> str | None:
    """The first key whose snapshot value differs between ``a`` and ``b`` (None: the same)."""
    if not isinstance(a, dict) or not isinstance(b, dict):
        return None if _same_value(a, b) else "(the whole snapshot)"
    for key in list(a) + [k for k in b if k not in a]:
        if key not in a or key not in b or not _same_value(a[key], b[key]):
            return key
    return None


def check_learner_update_state(factory: Factory, kind: str, concept_class: Any = None) -> None:
    """``update`` returns True exactly when the learner's state changed.

    See the module's "When the state changed" for the rule: True with the
    pickled state unchanged byte for byte fails; False with a changed
    ``snapshot()``, or with copies before and after the update that predict
    differently, fails.

    Examples
    --------
    >>> from learners import Winnow
    >>> check_learner_update_state(lambda rng: Winnow(), "bits")
    """
    name, rounds, check = _name(factory), game_length(15), "update_state"
    learner = factory(np.random.default_rng(15))
    game = HandGame(learner, opponent(kind, 15, concept_class, rounds), name, check)
    snapshot = getattr(learner, "snapshot", None)
    shared = _shared(learner)
    pick = np.random.default_rng([15, 0x70726F6265])
    for t, x in game.rounds(rounds):
        p = game.predict(t, x)
        y = game.label(t, x, p)
        snap = game.call(t, "snapshot", snapshot) if snapshot is not None else None
        before = _pickled(learner, shared)
        then = _copy(learner, None, shared) if before is None else None  # unpicklable: now
        u = game.update(t, x, y)
        game.record(x, p, y)
        after = _pickled(learner, shared)
        if u:
            if before is not None and before == after:
                raise fail(
                    name,
                    check,
                    f"round {t}: update returned True, yet the learner's state did not change "
                    "(its pickled state is the same byte for byte)",
                )
            continue
        if snapshot is not None:
            now = game.call(t, "snapshot", snapshot)
            key = _changed_key(snap, now)
            if key is not None:
                was = snap.get(key) if isinstance(snap, dict) else snap
                is_ = now.get(key) if isinstance(now, dict) else now
                raise fail(
                    name,
                    check,
                    f"round {t}: update returned False, yet its snapshot changed: "
                    f"{key} was {shown(was)}, is {shown(is_)}",
                )
        if before is not None and before == after:
            continue  # the very same state: nothing to compare
        earlier = pick.choice(t - 1, size=min(PROBES, t - 1), replace=False) if t > 1 else []
        probes = [(t, x)] + [(int(i) + 1, game.xs[i]) for i in earlier]
        _compare_copies(game, t, (before, then, after, shared), probes)


def _compare_copies(game: HandGame, t: int, states: tuple, probes: list) -> None:
    """Copies from before and after round t's update (which returned False) predict alike.

    ``states`` holds the pickled state before the update (or None), the copy
    taken before it when the learner cannot be pickled, the pickled state after
    it, and the shared objects.
    """
    learner = game.learner
    before, then, after, shared = states
    then = _copy(learner, before, shared) if before is not None else then
    now = _copy(learner, after, shared)
    if then is None or now is None:
        return
    answers = []
    for s, z in probes:
        a = game.call(t, "predict", then.predict, z)
        b = game.call(t, "predict", now.predict, z)
        answers.append(a)
        if same_answer(a, b):
            continue
        again = _copy(learner, before, shared) if before is not None else None  # one state alike?
        if again is None:
            return
        for (_, w), was in zip(probes, answers, strict=False):
            if not same_answer(game.call(t, "predict", again.predict, w), was):
                return  # copies of one state predict differently: not judged here
        which = "its instance" if s == t else f"round {s}'s instance"
        raise fail(
            game.name,
            game.check,
            f"round {t}: update returned False, yet the learner changed: on {which} it "
            f"predicted {shown(a)} before the update and {shown(b)} after it",
        )


def _snapshot_fault(snap: Any, keys: list | None) -> str | None:
    """What is wrong with one snapshot (None: nothing), given the first one's keys."""
    if not isinstance(snap, dict):
        return f"snapshot() returned {shown(snap)}, {a_kind(snap)}; expected a dict"
    for key, value in snap.items():
        if not isinstance(key, str):
            return f"snapshot() key {shown(key)} is {a_kind(key)}; expected a str"
        why = _value_fault(value)
        if why is not None:
            return (
                f"snapshot()[{key!r}] is {shown(value)}{why}; expected a real number "
                "or an array of real numbers, not NaN"
            )
    if keys is not None and list(snap) != keys:
        return f"snapshot() keys {sorted(snap)} differ from round 1's {sorted(keys)}"
    return None


def _value_fault(value: Any) -> str | None:
    """Why a snapshot value is not real numbers without NaN ("" if it is NaN); None if fine."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool | np.bool_):
        return "" if value != value else None
    if isinstance(value, np.ndarray | list | tuple):
        try:
            array = np.asarray(value)
        except (TypeError, ValueError):
            return f", a ragged {type(value).__name__}"
        if array.dtype.kind not in "iuf" or array.dtype == object:
            return f", an array of {array.dtype}"
        if array.dtype.kind == "f" and np.isnan(array).any():
            return f", with NaN at {np.argwhere(np.isnan(array))[0].tolist()}"
        return None
    return f", {a_kind(value)}"


def check_learner_snapshot(factory: Factory, kind: str, concept_class: Any = None) -> None:
    """``snapshot()`` (for a learner that has one) gives a dict of real numbers or arrays of
    real numbers, not NaN, before round 1 and after every update, with round 1's keys
    on every round (the snapshot before round 1 may have fewer: no instance seen yet).

    Examples
    --------
    >>> from learners import Perceptron
    >>> check_learner_snapshot(lambda rng: Perceptron(), "vector")
    """
    name, rounds, check = _name(factory), game_length(18), "snapshot"
    learner = factory(np.random.default_rng(18))
    snapshot = getattr(learner, "snapshot", None)
    if snapshot is None:
        return
    game = HandGame(learner, opponent(kind, 18, concept_class, rounds), name, check)
    first = game.call(0, "snapshot", snapshot)
    why = _snapshot_fault(first, None)
    if why is not None:
        raise fail(name, check, f"{when(0)}: {why}")
    keys = None  # round 1's (the snapshot before round 1 may know less: no instance seen yet)
    for t, x in game.rounds(rounds):
        p = game.predict(t, x)
        y = game.label(t, x, p)
        game.update(t, x, y)
        game.record(x, p, y)
        snap = game.call(t, "snapshot", snapshot)
        why = _snapshot_fault(snap, keys)
        if why is not None:
            raise fail(name, check, f"{when(t)}: {why}")
        keys = list(snap) if keys is None else keys


def check_learner_bound(factory: Factory, kind: str, concept_class: Any = None) -> None:
    """The bound the learner claims (``mistake_bound``) holds on the games it is given.

    On each game where the bound applies (every hypothesis of its theorem
    holds), the quantity it bounds must respect it; the failure names the first
    round where it does not. A learner with no bound, or whose bound does not
    apply to a game, passes on that game.

    Examples
    --------
    >>> from learners import WeightedMajority
    >>> check_learner_bound(lambda rng: WeightedMajority(), "advice")
    """
    name = _name(factory)
    for seed in BOUND_SEEDS:
        rounds = game_length(seed)
        learner = factory(np.random.default_rng(seed))
        adversary = opponent(kind, seed, concept_class, rounds)
        tr = play_or_fail(learner, adversary, name, "bound", rounds)
        bound = tr.bound
        if bound is None or tr.within_bound is not False:
            continue
        running = tr.running(bound.quantity)
        t = len(tr)
        if bound.kind == "upper":
            t = next(i for i, v in enumerate(running, 1) if not bound.holds(float(v)))
        side = "above" if bound.kind == "upper" else "below"
        raise fail(
            name,
            "bound",
            f"round {t}: {bound.quantity} reached {float(running[t - 1]):g}, {side} its bound "
            f"{bound.value:g} ({bound.theorem}), on a game where every hypothesis of the "
            "theorem holds",
        )
