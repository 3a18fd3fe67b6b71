"""The exact worst case of a deterministic learner over a finite class.

The mistake-bound game over a finite class H (Shalev-Shwartz & Ben-David
§21.1.1, the chapter of seed 000): each round the adversary presents a point
x, the learner predicts, and the adversary reveals a label y that some
hypothesis of H gives every point labelled so far. Lemma 21.6: every
deterministic learner can be made to err Ldim(H) times; Lemma 21.7: SOA errs
no more. A given learner's own worst case lies at or above Ldim(H), and is
found here by searching the game exactly.

The game's states are pairs (V, learner): V the version space (the
hypotheses consistent so far, an ``int`` bitset) and the learner's state. From
(V, L) the adversary picks a point x and a label y with V_y = {h ∈ V : h(x) = y}
non-empty; the round is a mistake when sign(L.predict(x)) ≠ y (sign(0) = +1);
the next state is (V_y, L') with L' a copy (:func:`copy.deepcopy`) of L after
``update(x, y)``. A learner's state is known by its ``state_key()`` when it
defines one (a hashable value: equal keys, equal future behaviour), so states
reached along different paths are merged; otherwise only by the rounds played
to reach it, and the search then needs a horizon.

Without a horizon the states form a finite graph, which can have cycles: a
point whose forced label changes the learner without removing a hypothesis.
A point that changes nothing (V and the key the same, no mistake) is a no-op
and is dropped. The value is the longest path counted in mistakes: when a
cycle of the graph (V is the same all along it) carries a mistake, the
adversary forces mistakes without end and the value is ``math.inf``;
otherwise it is the longest path over the graph's strongly connected
components. With a horizon T the value is over games of at most T rounds.

Examples
--------
>>> from game.theory.concepts import thresholds
>>> class Plus:
...     '''Predicts +1 and never learns.'''
...     def predict(self, x): return 1.0
...     def update(self, x, y): return False
>>> worst_case(Plus(), thresholds(3), rounds=5).value  # a −1 point, five times
5
"""

from __future__ import annotations

import copy
import gc
import math
import numbers
import operator
import time
from collections import deque
from collections.abc import Hashable
from typing import Any

import attrs
import numpy as np

from game.errors import ParameterError, check_integer
from game.theory.concepts import FiniteClass, as_finite_class

__all__ = ["DEFAULT_MAX_STATES", "WorstCase", "worst_case"]

#: The most game states :func:`worst_case` searches unless told otherwise.
DEFAULT_MAX_STATES = 100_000

#: Moves searched before the answers of a learner's keys stop being kept when
#: fewer than one in ten of them was asked again.
_CACHE_TRIAL = 20_000

#: How many rounds of a path ``str(WorstCase)`` shows.
_SHOWN_ROUNDS = 12


def _sign(label: int) -> str:
    return "+1" if label > 0 else "−1"


@attrs.frozen
class WorstCase:
    """What an adversary can force on one deterministic learner, and how.

    Attributes
    ----------
    value : int or float
        The most mistakes an adversary can force with labels some hypothesis
        gives; ``math.inf`` when it can force them without end.
    tree : networkx.DiGraph
        The forcing strategy, drawn as :mod:`game.theory.littlestone` draws
        trees (root 1, the child along label −1 is 2i, along +1 2i + 1): each
        internal node has ``instance`` (a point index), ``point_name`` and
        ``prediction`` (the label the learner predicts there), its out-edge a
        ``label`` and ``mistake``; the leaf a ``witness`` (a hypothesis index
        consistent with the whole path) and ``witness_name``. Against a
        deterministic learner the strategy is one path.
    path : list of (int, int, bool)
        The rounds of the strategy: (point, label, mistake). When the value is
        infinite, ``path[cycle:]`` repeats without end.
    states : int
        The game states the search reached.
    ldim : int
        Ldim(H), the least worst case of any deterministic learner (Lemma 21.6).
    witness : int
        The index of a hypothesis that gives every label of the path.
    learner : str
        The learner's class name.
    class_name : str
        The class's name.
    rounds : int or None
        The horizon searched (None: games of any length).
    cycle : int or None
        With an infinite value, where in ``path`` the repeated part starts.
    witness_name : str
        The witness's name in the class.

    Examples
    --------
    >>> from game.theory.concepts import thresholds
    >>> from learners import Halving
    >>> H = thresholds(7)
    >>> result = worst_case(Halving(H), H)
    >>> print(result)
    worst case of Halving over 'thresholds(7)': 3 mistakes (Ldim 3); 36 states searched
      round 1: point 3, predicts +1, label −1: mistake
      round 2: point 5, predicts +1, label −1: mistake
      round 3: point 6, predicts +1, label −1: mistake
      witness: hypothesis 7 'x ≥ 7'
    >>> result.summary()["value"], result.predictions
    (3, [1, 1, 1])
    """

    value: int | float
    tree: Any = attrs.field(eq=False, repr=False)  # a LittlestoneTree
    path: list = attrs.field(repr=False)
    states: int
    ldim: int
    witness: int
    learner: str = ""
    class_name: str = ""
    rounds: int | None = None
    cycle: int | None = None
    witness_name: str = ""

    @property
    def unbounded(self) -> bool:
        """Whether the adversary can force mistakes without end."""
        return math.isinf(self.value)

    @property
    def predictions(self) -> list[int]:
        """The learner's predicted label on each round of the path."""
        return [label if not mistake else -label for _, label, mistake in self.path]

    def summary(self) -> dict[str, Any]:
        """The result at a glance, JSON-ready (an infinite value is the string ``"inf"``)."""
        return {
            "learner": self.learner,
            "class": self.class_name,
            "value": "inf" if self.unbounded else int(self.value),
            "ldim": self.ldim,
            "rounds": len(self.path),
            "horizon": self.rounds,
            "cycle": self.cycle,
            "states": self.states,
            "witness": self.witness,
            "witness_name": self.witness_name,
        }

    def __str__(self) -> str:
        value = "mistakes without end" if self.unbounded else f"{self.value} mistakes"
        over = f" over {self.class_name!r}" if self.class_name else ""
        horizon = f" in at most {self.rounds} rounds" if self.rounds is not None else ""
        lines = [
            f"worst case of {self.learner or 'the learner'}{over}{horizon}: {value} "
            f"(Ldim {self.ldim}); {self.states:,} states searched"
        ]
        for t, (x, y, mistake) in enumerate(self.path[:_SHOWN_ROUNDS], start=1):
            mark = "mistake" if mistake else "right"
            loop = "  ← repeats from here" if self.cycle is not None and t - 1 == self.cycle else ""
            lines.append(
                f"  round {t}: point {x}, predicts {_sign(y if not mistake else -y)}, "
                f"label {_sign(y)}: {mark}{loop}"
            )
        if len(self.path) > _SHOWN_ROUNDS:
            lines.append(f"  … {len(self.path) - _SHOWN_ROUNDS} more rounds")
        name = f" {self.witness_name!r}" if self.witness_name else ""
        lines.append(f"  witness: hypothesis {self.witness}{name}")
        return "\n".join(lines)


def _bitset(column: np.ndarray) -> int:
    """A bool vector as an int whose bit i is entry i."""
    return int.from_bytes(np.packbits(column, bitorder="little").tobytes(), "little")


def _lowest(bits: int) -> int:
    return (bits & -bits).bit_length() - 1


def _shown_points(points: Any, n_points: int) -> list:
    """What the learner is shown for each point: the index, or the point given."""
    if points is None:
        return list(range(n_points))
    if isinstance(points, np.ndarray):
        array = points.copy()
        array.flags.writeable = False
        shown = [array[i] for i in range(array.shape[0])] if array.ndim else []
    else:
        try:
            shown = list(points)
        except TypeError:
            raise ParameterError("points", points, "a sequence, one instance per point") from None
    if len(shown) != n_points:
        raise ParameterError(
            "points", points, f"one instance per point of the class ({n_points})", f"{len(shown)}"
        )
    return shown


def _attributes(obj: Any) -> list:
    """An object's attribute values, from its ``__dict__`` and its slots."""
    values = list(getattr(obj, "__dict__", {}).values())
    for klass in type(obj).__mro__:
        for name in getattr(klass, "__slots__", ()):
            if name not in ("__dict__", "__weakref__") and hasattr(obj, name):
                values.append(getattr(obj, name))
    return values


def _shared(learner: Any, cls: FiniteClass) -> dict[int, Any]:
    """The parts copies of the learner share: finite classes and read-only arrays.

    Handed to :func:`copy.deepcopy` as its memo, so a copy of the learner
    refers to the same class (and its dimension engine) instead of a copy.
    """
    shared: dict[int, Any] = {id(cls): cls, id(cls.matrix): cls.matrix}
    for value in _attributes(learner):
        if isinstance(value, FiniteClass):
            shared[id(value)] = value
        elif isinstance(value, np.ndarray) and not value.flags.writeable:
            shared[id(value)] = value
    return shared


#: Types whose values a copy shares with its original: immutable, so sharing is copying.
_ATOMIC = frozenset({int, float, complex, str, bytes, bool, type(None), frozenset, range})
_EMPTY = object()


def _own(method: Any, default: Any) -> bool:
    """Whether a copying hook is the default one or one attrs made (which copies field by field)."""
    return method is default or getattr(method, "__module__", "") == "attr._make"


class _Copier:
    """Deep copies of one learner's states: what :func:`copy.deepcopy` makes, sooner.

    A learner whose class leaves deep copying to the default machinery (no
    ``__deepcopy__``, ``__reduce__`` or state hooks of its own, attrs' excepted)
    is copied field by field: immutable values and the shared parts (finite
    classes, read-only arrays) are kept, arrays copied, anything else deep
    copied, with one memo, so values two fields share stay shared. Any other
    learner goes through :func:`copy.deepcopy` itself, with the shared parts
    in its memo.
    """

    def __init__(self, learner: Any, shared: dict[int, Any]):
        self.shared = shared
        kind = type(learner)
        self.kind = kind
        self.slots = [
            name
            for klass in kind.__mro__
            for name in getattr(klass, "__slots__", ())
            if name not in ("__dict__", "__weakref__")
        ]
        self.read = operator.attrgetter(*self.slots) if len(self.slots) > 1 else None
        self.fast = len(self.slots) > 1 and (
            not hasattr(kind, "__deepcopy__")
            and kind.__reduce_ex__ is object.__reduce_ex__
            and kind.__reduce__ is object.__reduce__
            and _own(getattr(kind, "__getstate__", object.__getstate__), object.__getstate__)
            and _own(getattr(kind, "__setstate__", None), None)
            and kind.__new__ is object.__new__
        )

    def __call__(self, learner: Any) -> Any:
        if not self.fast or type(learner) is not self.kind:
            return copy.deepcopy(learner, dict(self.shared))
        try:
            values = self.read(learner)
        except AttributeError:  # an empty slot: read them one by one
            values = tuple(getattr(learner, name, _EMPTY) for name in self.slots)
        shared = self.shared
        memo: dict[int, Any] | None = None
        new = object.__new__(self.kind)
        put = object.__setattr__
        for name, value in zip(self.slots, values, strict=True):
            kind = type(value)
            if kind is np.ndarray and not value.dtype.hasobject:
                if value.flags.writeable and id(value) not in shared:
                    if memo is None:
                        memo = {id(learner): new}
                    done = memo.get(id(value))
                    value = memo[id(value)] = value.copy() if done is None else done
            elif value is _EMPTY:  # an empty slot stays empty
                continue
            elif not (kind in _ATOMIC or id(value) in shared or isinstance(value, np.generic)):
                if memo is None:
                    memo = {id(learner): new}
                memo.update(shared)
                value = copy.deepcopy(value, memo)
            put(new, name, value)
        own = getattr(learner, "__dict__", None)
        if own is not None:
            memo = memo if memo is not None else {id(learner): new}
            memo.update(shared)
            put(new, "__dict__", copy.deepcopy(own, memo))
        return new


def _predicted(p: Any, learner: Any, x: Any) -> int:
    """sign(p), with sign(0) = +1; a prediction that is not a number in [−1, 1] is refused."""
    if type(p) is float and -1.0 <= p <= 1.0:  # the common case, checked first
        return 1 if p >= 0 else -1
    if isinstance(p, bool | np.bool_) or not isinstance(p, numbers.Real) or not -1 <= p <= 1:
        raise ParameterError(
            "learner",
            learner,
            "a learner whose predictions are numbers in [-1, 1]",
            f"predict({x!r}) returned {p!r}",
        )
    return 1 if p >= 0 else -1


class _Search:
    """The game graph of one learner over one class, and its value.

    Edges are ints: ``child << shift | x << 2 | (y > 0) << 1 | mistake``;
    ``shrink[s]`` holds the edges that remove a hypothesis, ``same[s]`` those
    that keep V (a forced label), which alone can close a cycle.

    A learner with ``state_key()`` is asked once per key what it predicts on
    a point and which key an update leads to: one learner is kept per key
    (``reps``), and states of different version spaces with one key share
    those answers (``predicted``, ``moves``). A learner without a key is
    copied along every path.
    """

    def __init__(self, learner, cls, shown, keyed, rounds, max_states):
        self.cls, self.shown, self.keyed = cls, shown, keyed
        self.rounds, self.max_states = rounds, max_states
        matrix = cls.matrix
        self.m = cls.n_points
        full = (1 << cls.n_hypotheses) - 1
        self.plus = [_bitset(matrix[:, x] > 0) for x in range(self.m)]
        self.minus = [full & ~p for p in self.plus]
        self.xbits = max(self.m - 1, 1).bit_length()
        self.shift = 2 + self.xbits
        self.clone = _Copier(learner, _shared(learner, cls))
        self.started = time.perf_counter()
        root = self.clone(learner)
        self.V: list[int] = [full]
        self.keys: list[Any] = [self.key(root)]
        self.learners: list[Any] = [root]
        self.depth: list[int] = [0]
        self.shrink: list[list[int]] = [[]]
        self.same: list[list[int]] = [[]]
        self.index: dict = {(full, self.keys[0]): 0} if keyed else {}
        self.frontier: deque[int] = deque([0])
        self.reps: dict = {self.keys[0]: root} if keyed else {}
        self.predicted: dict = {}
        self.moves: dict = {}
        self.caching, self.asked, self.reused = keyed, 0, 0
        self.expand = self.expand_keyed if keyed else self.expand_plain

    # -- the learner ---------------------------------------------------------------

    def key(self, learner: Any) -> Hashable:
        """The learner's ``state_key()``, checked: hashable, and not None once the root had one."""
        if not self.keyed:
            return None
        key = learner.state_key()
        try:
            hash(key)
        except TypeError:
            raise ParameterError(
                "learner", learner, "a learner whose state_key() is hashable", f"got {key!r:.60}"
            ) from None
        if key is None:
            raise ParameterError(
                "learner",
                learner,
                "a learner whose state_key() names every state the game reaches",
                "it returned None after the game's start",
            )
        return key

    # -- the graph -------------------------------------------------------------------

    def explore(self) -> None:
        """Every state reachable (within the horizon), each expanded once."""
        pop = self.frontier.pop if self.rounds is None else self.frontier.popleft
        while self.frontier:
            s = pop()
            if self.rounds is not None and self.depth[s] >= self.rounds:
                self.learners[s] = None
                continue
            self.expand(s)

    def child(self, parent: int, V: int, learner: Any, key: Any) -> int:
        """The state (V, learner), found by its key or added."""
        if self.keyed:
            found = self.index.get((V, key))
            if found is not None:
                return found
        s = len(self.V)
        if s >= self.max_states:
            self.refuse()
        self.V.append(V)
        self.keys.append(key)
        self.learners.append(None if self.keyed else learner)
        self.depth.append(self.depth[parent] + 1)
        self.shrink.append([])
        self.same.append([])
        if self.keyed:
            self.index[(V, key)] = s
        self.frontier.append(s)
        return s

    def refuse(self) -> None:
        waiting = len(self.frontier)
        took = time.perf_counter() - self.started
        raise ParameterError(
            "max_states",
            self.max_states,
            "at least the number of game states the search reaches",
            f"the search reached {len(self.V):,} states (version space, learner state) in "
            f"{took:.1f} s with {waiting:,} of them still to expand, so the game has more; "
            "give worst_case a larger max_states, or a horizon rounds=T",
        )

    def decode(self, e: int) -> tuple[int, int, int, bool]:
        return e >> self.shift, (e >> 2) & ((1 << self.xbits) - 1), 1 if e & 2 else -1, bool(e & 1)

    def expand_keyed(self, s: int) -> None:
        """Every move from state s of a learner with keys: its edges, new states added."""
        V, key = self.V[s], self.keys[s]
        rep = self.reps[key]
        clone, state_key, child, shift = self.clone, self.key, self.child, self.shift
        predicted_on, moves, reps = self.predicted, self.moves, self.reps
        caching = self.caching
        shrink, same = self.shrink[s], self.same[s]
        probe = None  # a copy of rep still in its state, for labels that keep the key
        settled = None  # rep's key once it predicted here (it may start on its first instance)
        for x, plus, minus in zip(range(self.m), self.plus, self.minus, strict=True):
            shown = self.shown[x]
            plus, minus = V & plus, V & minus
            predicted = predicted_on.get((key, x)) if caching else None
            if plus and minus:  # either label removes hypotheses
                fresh = predicted is None  # rep has just predicted x: a copy can update on x
                if fresh:
                    predicted = _predicted(rep.predict(shown), rep, shown)
                    if caching:
                        predicted_on[key, x] = predicted
                    if settled is None:
                        settled = state_key(rep)
                for y, side in ((-1, minus), (1, plus)):
                    after_key = moves.get((key, x, y)) if caching else None
                    self.asked += 1
                    if after_key is None:
                        if not fresh:
                            rep.predict(shown)
                            fresh = True
                        after = clone(rep)
                        changed = after.update(shown, y)
                        # update() returns False only when the learner did not change
                        unchanged = changed is False or (
                            isinstance(changed, np.bool_) and not changed
                        )
                        after_key = key if unchanged else state_key(after)
                        if caching:
                            moves[key, x, y] = after_key
                        if after_key not in reps:  # the first learner seen with this key
                            reps[after_key] = after
                        elif after_key == key or after_key == settled:
                            probe = after  # still in this state: a probe for a forced label
                    else:
                        self.reused += 1
                    c = child(s, side, None, after_key)
                    shrink.append((c << shift) | (x << 2) | (2 if y > 0 else 0) | (predicted != y))
                continue
            # a forced label: V stays; most often the learner too, and the probe is kept
            y = 1 if plus else -1
            after_key = moves.get((key, x, y)) if caching else None
            self.asked += 1
            if after_key is None:
                if probe is None:
                    probe = clone(rep)
                p = _predicted(probe.predict(shown), probe, shown)
                if predicted is None:
                    predicted = p
                    if caching:
                        predicted_on[key, x] = p
                changed = probe.update(shown, y)
                unchanged = changed is False or (isinstance(changed, np.bool_) and not changed)
                after_key = key if unchanged else state_key(probe)
                if caching:
                    moves[key, x, y] = after_key
                if after_key not in reps:
                    reps[after_key] = probe
                    probe = None
                elif not (after_key == key or after_key == settled):
                    probe = None  # moved on to a known state: of no more use
            else:
                self.reused += 1
                if predicted is None:
                    predicted = _predicted(rep.predict(shown), rep, shown)
                    if caching:
                        predicted_on[key, x] = predicted
                    if settled is None:
                        settled = state_key(rep)
            mistake = predicted != y
            if after_key == key or after_key == settled:
                if mistake:  # the same state again, a mistake each time
                    same.append((s << shift) | (x << 2) | (2 if y > 0 else 0) | 1)
                continue
            c = child(s, V, None, after_key)
            same.append((c << shift) | (x << 2) | (2 if y > 0 else 0) | mistake)
        if caching and self.asked > _CACHE_TRIAL and self.reused * 10 < self.asked:
            # the learner's keys are as many as the states: its answers are never asked twice
            self.caching = False
            self.predicted.clear()
            self.moves.clear()
        if settled is not None and state_key(rep) != settled:
            raise ParameterError(
                "learner",
                rep,
                "a learner whose predict() leaves its state_key() unchanged",
                "the key names the state between rounds; a prediction must not change it",
            )

    def expand_plain(self, s: int) -> None:
        """Every move from state s of a learner without keys, copied along every path."""
        learner, V = self.learners[s], self.V[s]
        self.learners[s] = None
        clone, child, shift = self.clone, self.child, self.shift
        shrink, same = self.shrink[s], self.same[s]
        probe = None  # a copy of the learner still in this state, for the forced labels
        for x, plus, minus in zip(range(self.m), self.plus, self.minus, strict=True):
            shown = self.shown[x]
            plus, minus = V & plus, V & minus
            if plus and minus:
                here = clone(learner)
                predicted = _predicted(here.predict(shown), here, shown)
                after = clone(here)
                after.update(shown, -1)
                c = child(s, minus, after, None)
                shrink.append((c << shift) | (x << 2) | (predicted > 0))
                here.update(shown, 1)
                c = child(s, plus, here, None)
                shrink.append((c << shift) | (x << 2) | 2 | (predicted < 0))
                continue
            y = 1 if plus else -1
            if probe is None:
                probe = clone(learner)
            predicted = _predicted(probe.predict(shown), probe, shown)
            changed = probe.update(shown, y)
            mistake = predicted != y
            bits = (x << 2) | (2 if y > 0 else 0) | mistake
            # update() returns False only when the learner did not change (the protocol)
            if changed is False or (isinstance(changed, np.bool_) and not changed):
                if mistake:  # the same state again
                    same.append((s << shift) | bits)
                continue
            c = child(s, V, probe, None)
            same.append((c << shift) | bits)
            probe = None

    # -- the value -------------------------------------------------------------------

    def components(self) -> tuple[list[int], list[list[int]]]:
        """Strongly connected components of the graph of V-keeping edges (Tarjan, iterative).

        Returns the component of each state (−1 for a state on no such edge)
        and the components in reverse topological order (sinks first). Edges
        that remove a hypothesis never close a cycle: V only shrinks along them.
        """
        n = len(self.V)
        comp = [-1] * n
        nodes = [s for s in range(n) if self.same[s]]
        for s in nodes:
            for e in self.same[s]:
                comp[e >> self.shift] = -2  # on the subgraph
            comp[s] = -2
        order: list[list[int]] = []
        index = [0] * n
        low = [0] * n
        seen = [False] * n
        on_stack = [False] * n
        stack: list[int] = []
        counter = 1
        for root in range(n):
            if comp[root] != -2 or seen[root]:
                continue
            work = [(root, 0)]
            while work:
                v, i = work.pop()
                if i == 0:
                    seen[v] = True
                    index[v] = low[v] = counter
                    counter += 1
                    stack.append(v)
                    on_stack[v] = True
                edges = self.same[v]
                while i < len(edges):
                    w = edges[i] >> self.shift
                    i += 1
                    if not seen[w]:
                        work.append((v, i))
                        work.append((w, 0))
                        break
                    if on_stack[w]:
                        low[v] = min(low[v], index[w])
                else:
                    if low[v] == index[v]:
                        members = []
                        while True:
                            w = stack.pop()
                            on_stack[w] = False
                            comp[w] = len(order)
                            members.append(w)
                            if w == v:
                                break
                        order.append(members)
                    if work:
                        parent = work[-1][0]
                        low[parent] = min(low[parent], low[v])
        for s in range(n):
            if comp[s] < 0:
                comp[s] = -1
        return comp, order

    def solve_unbounded(self) -> tuple[float | int, list, int | None, int]:
        """The longest mistake path from the root; (value, path, cycle start, leaf's V)."""
        comp, order = self.components()
        for s in range(len(self.V)):
            for e in self.same[s]:
                c, x, y, mistake = self.decode(e)
                if mistake and comp[c] == comp[s] and (c == s or comp[s] >= 0):
                    return self.cycle_through(s, e, comp)
        n = len(self.V)
        value = [0] * n
        length = [0] * n
        best = [-1] * n  # the edge each state plays (−1: none, the game ends)
        route: dict[int, int] = {}  # component → its member whose edge leaves it best
        popcount = [v.bit_count() for v in self.V]
        rank = [comp[s] if comp[s] >= 0 else 0 for s in range(n)]
        for s in sorted(range(n), key=lambda s: (popcount[s], rank[s])):
            if comp[s] >= 0 and len(order[comp[s]]) > 1:
                if comp[s] in route:
                    continue
                self.settle_component(order[comp[s]], comp, value, length, best, route)
                continue
            top, top_len, top_edge = 0, 0, -1
            for e in self.shrink[s] + self.same[s]:
                c = e >> self.shift
                score, steps = (e & 1) + value[c], 1 + length[c]
                if score > top or (score == top and score > 0 and steps < top_len):
                    top, top_len, top_edge = score, steps, e
            value[s], length[s], best[s] = top, top_len, top_edge
        path: list = []
        s = 0
        while value[s] > 0:
            if comp[s] >= 0 and len(order[comp[s]]) > 1:
                u = route[comp[s]]
                path += self.inside(s, u, comp)
                s = u
            e = best[s]
            c, x, y, mistake = self.decode(e)
            path.append((x, y, mistake))
            s = c
        return value[0], path, None, self.V[s]

    def settle_component(self, members, comp, value, length, best, route) -> None:
        """A component's common value: the best edge leaving it, from any member."""
        top, top_len, top_edge, top_member = 0, 0, -1, members[0]
        here = comp[members[0]]
        for s in members:
            for e in self.shrink[s] + self.same[s]:
                c = e >> self.shift
                if comp[c] == here:
                    continue
                score, steps = (e & 1) + value[c], 1 + length[c]
                if score > top or (score == top and score > 0 and steps < top_len):
                    top, top_len, top_edge, top_member = score, steps, e, s
        for s in members:
            value[s], length[s] = top, top_len
        best[top_member] = top_edge
        route[here] = top_member

    def inside(self, start: int, goal: int, comp: list[int]) -> list:
        """The rounds of a shortest path from start to goal inside one component (V kept)."""
        if start == goal:
            return []
        back: dict[int, tuple[int, int]] = {start: (-1, -1)}
        queue = deque([start])
        while queue:
            v = queue.popleft()
            for e in self.same[v]:
                w = e >> self.shift
                if w in back or comp[w] != comp[start]:
                    continue
                back[w] = (v, e)
                if w == goal:
                    queue.clear()
                    break
                queue.append(w)
        rounds = []
        v = goal
        while v != start:
            v, e = back[v]
            _, x, y, mistake = self.decode(e)
            rounds.append((x, y, mistake))
        return rounds[::-1]

    def cycle_through(self, s: int, e: int, comp: list[int]):
        """A path from the root to s, then the cycle of the mistake edge e back to s."""
        back: dict[int, tuple[int, int]] = {0: (-1, -1)}
        queue = deque([0])
        while queue and s not in back:
            v = queue.popleft()
            for f in self.shrink[v] + self.same[v]:
                w = f >> self.shift
                if w not in back:
                    back[w] = (v, f)
                    queue.append(w)
        prefix = []
        v = s
        while v != 0:
            v, f = back[v]
            _, x, y, mistake = self.decode(f)
            prefix.append((x, y, mistake))
        prefix.reverse()
        c, x, y, mistake = self.decode(e)
        loop = [(x, y, mistake), *self.inside(c, s, comp)]
        return math.inf, prefix + loop, len(prefix), self.V[s]

    def solve_horizon(self) -> tuple[int, list, None, int]:
        """The most mistakes in at most T rounds (T the horizon); (value, path, None, leaf's V).

        Scores are ``mistakes · (T + 2) − rounds``: among the strategies forcing
        the most mistakes, the one with the fewest rounds.
        """
        T = self.rounds
        n = len(self.V)
        K = T + 2
        edges = [self.shrink[s] + self.same[s] for s in range(n)]
        scores = [[0] * n]
        for _ in range(T):
            last = scores[-1]
            now = [0] * n
            for s in range(n):
                top = 0
                for e in edges[s]:
                    score = (e & 1) * K + last[e >> self.shift] - 1
                    if score > top:
                        top = score
                now[s] = top
            scores.append(now)
        path: list = []
        s, t = 0, T
        while t > 0 and scores[t][s] > 0:
            for e in edges[s]:
                if (e & 1) * K + scores[t - 1][e >> self.shift] - 1 == scores[t][s]:
                    break
            c, x, y, mistake = self.decode(e)
            path.append((x, y, mistake))
            s, t = c, t - 1
        value = sum(mistake for _, _, mistake in path)
        return value, path, None, self.V[s]


def _tree(path: list, cls: FiniteClass, witness: int, value, cycle) -> Any:
    """The strategy as a one-path tree in :mod:`game.theory.littlestone`'s drawing."""
    from game.theory.littlestone import LittlestoneTree  # networkx, loaded for a solve only

    tree = LittlestoneTree(depth=len(path), kind="forcing strategy", value=value, cycle=cycle)
    node = 1
    for x, y, mistake in path:
        tree.add_node(
            node,
            instance=int(x),
            point_name=cls.point_names[x],
            prediction=y if not mistake else -y,
        )
        child = 2 * node + (1 if y > 0 else 0)
        tree.add_edge(node, child, label=int(y), mistake=bool(mistake))
        node = child
    tree.add_node(node, witness=witness, witness_name=cls.hypothesis_names[witness])
    return tree


def worst_case(
    learner: Any,
    concept_class: Any,
    *,
    points: Any = None,
    rounds: int | None = None,
    max_states: int = DEFAULT_MAX_STATES,
) -> WorstCase:
    """The most mistakes an adversary can force on a deterministic learner over a finite class.

    Every label the adversary gives must keep some hypothesis of the class
    consistent with all the labels so far (the realizable mistake-bound game
    of Shalev-Shwartz & Ben-David §21.1.1, the chapter of seed 000). The
    value is at least Ldim(H) for every deterministic learner (Lemma 21.6)
    and equal to it for SOA (Lemma 21.7); the search finds it exactly for the
    learner given, with the strategy that forces it. See the module's text
    for the search.

    Parameters
    ----------
    learner : object
        A deterministic learner (``predict`` and ``update``), searched from its
        present state; it is copied, never changed. With ``state_key()`` its
        states are merged by key (see :mod:`game.protocol`); without it a
        horizon is needed.
    concept_class : FiniteClass, object with ``.matrix``, or ±1 matrix
        The class H, hypotheses × points.
    points : sequence, optional
        What the learner is shown for point i: by default the index i (a
        learner that plays "point"); for a learner over n bits,
        :func:`game.theory.concepts.bit_vectors` (n), with a class over
        {0, 1}ⁿ such as ``conjunctions(n)``, whose point i is row i.
    rounds : int, optional
        A horizon T: the value is then over games of at most T rounds, found
        by a depth-limited search. Needed for a learner without ``state_key()``.
    max_states : int, default ``DEFAULT_MAX_STATES``
        The most game states searched; past it the search stops with an error
        saying what it reached.

    Returns
    -------
    WorstCase

    Raises
    ------
    ParameterError
        Naming ``learner`` for a randomised learner (``deterministic`` False) or
        a prediction outside [−1, 1]; ``rounds`` when it is needed and not
        given; ``max_states`` when the game has more states.

    Examples
    --------
    >>> from game.theory.concepts import intervals
    >>> from learners import Halving, SOA
    >>> H = intervals(6)
    >>> soa = worst_case(SOA(H), H)
    >>> soa.value, soa.ldim
    (4, 4)
    >>> halving = worst_case(Halving(H), H)
    >>> halving.value, halving.states
    (4, 190)
    >>> halving.path[0], halving.tree.nodes[1]["prediction"]   # (point, label, mistake)
    ((1, 1, True), -1)

    A learner that ignores what it is told errs without end:

    >>> class Stubborn:
    ...     '''Predicts +1 and never learns.'''
    ...     def predict(self, x): return 1.0
    ...     def update(self, x, y): return False
    ...     def state_key(self): return ()
    >>> w = worst_case(Stubborn(), H)
    >>> w.value, w.path[w.cycle:]
    (inf, [(0, -1, True)])
    """
    cls = as_finite_class(concept_class, "concept_class")
    if getattr(learner, "deterministic", None) is False:
        raise ParameterError(
            "learner",
            learner,
            "a deterministic learner",
            "it declares deterministic = False; a randomised learner's worst case is an "
            "expectation: walk a tree the class shatters against it "
            "(adversaries.TreeAdversary(randomised=True)) and count its expected mistakes "
            "(game.theory.solve.expected_mistakes)",
        )
    if not (
        callable(getattr(learner, "predict", None)) and callable(getattr(learner, "update", None))
    ):
        raise ParameterError("learner", learner, "a learner (with predict and update)")
    if rounds is not None:
        rounds = check_integer("rounds", rounds, low=0)
    max_states = check_integer("max_states", max_states, low=1)
    shown = _shown_points(points, cls.n_points)
    keyed = callable(getattr(learner, "state_key", None)) and learner.state_key() is not None
    if not keyed and rounds is None:
        raise ParameterError(
            "rounds",
            rounds,
            "a horizon, an integer ≥ 0, for a learner without state_key()",
            f"{type(learner).__name__} does not say when two of its states are the same, so "
            "the search can only tell its states apart by the rounds played: give rounds=T, "
            "or define state_key()",
        )
    collecting = gc.isenabled()
    gc.disable()  # millions of small containers, none of them in a cycle: no collector passes
    try:
        search = _Search(learner, cls, shown, keyed, rounds, max_states)
        search.explore()
        if rounds is None:
            value, path, cycle, leaf = search.solve_unbounded()
        else:
            value, path, cycle, leaf = search.solve_horizon()
    finally:
        if collecting:
            gc.enable()
    witness = _lowest(leaf)
    return WorstCase(
        value=value,
        tree=_tree(path, cls, witness, value, cycle),
        path=path,
        states=len(search.V),
        ldim=cls.engine.ldim(),
        witness=witness,
        learner=type(learner).__name__,
        class_name=cls.name,
        rounds=rounds,
        cycle=cycle,
        witness_name=cls.hypothesis_names[witness],
    )
