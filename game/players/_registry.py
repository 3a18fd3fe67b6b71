"""Players by name: the one table scenario files and the command line go through.

The built-in players are listed in :data:`BUILTIN` by import path and imported
only when looked up. Users add their own with :func:`register` in Python, or an
installed package declares them in the entry-point group
``online_learning_games.players``. A scenario names a player only by a key of
this registry; it can never import a module by path.

Examples
--------
>>> from game.players._registry import lookup, name_of
>>> cls = lookup("perceptron")
>>> cls.__name__, name_of(cls)
('Perceptron', 'perceptron')
>>> lookup("perceptorn")
Traceback (most recent call last):
...
game.errors.UnknownPlayerError: unknown player 'perceptorn'; did you mean 'perceptron'...
"""

from __future__ import annotations

import functools
import importlib
import re
from importlib.metadata import entry_points
from typing import Any

import attrs
import numpy as np

from game.errors import GameError, UnknownPlayerError
from game.protocol import INSTANCE_KINDS

__all__ = [
    "BUILTIN",
    "ENTRY_POINT_GROUP",
    "describe_player",
    "learners_for",
    "lookup",
    "name_of",
    "names",
    "parameters",
    "register",
    "role_of",
]


ENTRY_POINT_GROUP = "online_learning_games.players"

#: Built-in players: registry name -> "module:Class".
BUILTIN: dict[str, str] = {
    # learners
    "perceptron": "learners.perceptron:Perceptron",
    "online-gradient-descent": "learners.ogd:OnlineGradientDescent",
    "margin-perceptron": "learners.margin:MarginPerceptron",
    "batch-perceptron": "learners.batch:BatchPerceptron",
    "conjunction-learner": "learners.boolean:ConjunctionLearner",
    "decision-list-learner": "learners.boolean:DecisionListLearner",
    "winnow": "learners.boolean:Winnow",
    "halving": "learners.experts:Halving",
    "weighted-majority": "learners.experts:WeightedMajority",
    "randomized-weighted-majority": "learners.experts:RandomizedWeightedMajority",
    "exponential-weights": "learners.experts:ExponentialWeights",
    "soa": "learners.soa:SOA",
    # adversaries
    "separable-stream": "adversaries.streams:SeparableStream",
    "replay": "adversaries.replay:Replay",
    "orthogonal-adversary": "adversaries.perceptron:OrthogonalAdversary",
    "misclassified-picker": "adversaries.picker:MisclassifiedPicker",
    "noisy-stream": "adversaries.noisy:NoisyStream",
    "conjunction-lower-bound": "adversaries.conjunction:ConjunctionLowerBound",
    "concept-stream": "adversaries.concepts:ConceptStream",
    "halving-lower-bound": "adversaries.halving:HalvingLowerBound",
    "expert-stream": "adversaries.experts:ExpertStream",
    "two-constant-experts": "adversaries.experts:TwoConstantExperts",
    "advice-replay": "adversaries.experts:AdviceReplay",
    "tree-adversary": "adversaries.trees:TreeAdversary",
    "halfspace-tree-adversary": "adversaries.trees:HalfspaceTreeAdversary",
    "optimal-adversary": "adversaries.optimal:OptimalAdversary",
}

_NAME = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
_registered: dict[str, type] = {}
_loaded: dict[str, type] = {}


@functools.cache
def _entry_points() -> dict[str, Any]:
    """Players declared by installed packages (read once per process)."""
    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


def register(name: str, cls: type, *, replace: bool = False) -> type:
    """Add a player class under ``name`` (lower-case words joined by hyphens).

    Parameters
    ----------
    name : str
        The name scenario files will use.
    cls : type
        A learner (``predict``/``update``) or adversary (``instance``/``label``) class.
    replace : bool, default False
        Allow replacing an existing registration.

    Examples
    --------
    >>> class Constant:
    ...     '''Always predicts +1.'''
    ...     deterministic = True
    ...     def predict(self, x): return 1.0
    ...     def update(self, x, y): return False
    >>> _ = register("constant-plus", Constant, replace=True)
    >>> lookup("constant-plus") is Constant
    True
    >>> _ = _registered.pop("constant-plus")  # leave the registry as it was
    """
    if not isinstance(name, str) or not _NAME.match(name):
        raise GameError(f"player name {name!r} must be lower-case words joined by hyphens")
    if not isinstance(cls, type):
        raise GameError(f"register({name!r}, …) expects a class, got {cls!r}")
    role_of(cls)
    if not replace and (name in BUILTIN or name in _registered):
        raise GameError(f"a player named {name!r} is already registered (pass replace=True)")
    _registered[name] = cls
    _loaded.pop(name, None)
    return cls


def names(role: str | None = None) -> list[str]:
    """Every registered name, optionally only learners or only adversaries."""
    every = sorted(set(BUILTIN) | set(_registered) | set(_entry_points()))
    if role is None:
        return every
    return [n for n in every if role_of(lookup(n)) == role]


def lookup(name: str, role: str | None = None) -> type:
    """The class registered under ``name``; :class:`UnknownPlayerError` suggests close names.

    Parameters
    ----------
    name : str
        A registry name.
    role : {"learner", "adversary"}, optional
        When given, the player must have this role.
    """
    if not isinstance(name, str):
        raise UnknownPlayerError(repr(name), names(), role)
    if name in _registered:
        cls = _registered[name]
    elif name in _loaded:
        cls = _loaded[name]
    elif name in BUILTIN:
        module, _, attr = BUILTIN[name].partition(":")
        cls = getattr(importlib.import_module(module), attr)
        _loaded[name] = cls
    else:
        eps = _entry_points()
        if name not in eps:
            raise UnknownPlayerError(name, names(), role)
        cls = eps[name].load()
        _loaded[name] = cls
    if role is not None and role_of(cls) != role:
        error = UnknownPlayerError(name, names(role), role)
        a = {"learner": "a learner", "adversary": "an adversary"}
        error.args = (
            f"{name!r} is {a[role_of(cls)]}, not {a.get(role, role)}; "
            f"the {role} names: {', '.join(names(role)) or 'none'}",
        )
        raise error
    return cls


def learners_for(kind: str, *, deterministic: bool | None = None) -> list[str]:
    """Names of the registered learners that play instances of ``kind``.

    Parameters
    ----------
    kind : str
        One of :data:`INSTANCE_KINDS`.
    deterministic : bool, optional
        Keep only the learners whose ``deterministic`` class attribute matches.

    Examples
    --------
    >>> "perceptron" in learners_for("vector", deterministic=True)
    True
    """
    if kind not in INSTANCE_KINDS:
        raise GameError(
            f"unknown instance kind {kind!r}; expected one of {', '.join(INSTANCE_KINDS)}"
        )
    out = []
    for name in names("learner"):
        cls = lookup(name)
        if kind not in getattr(cls, "plays", ()):
            continue
        if (
            deterministic is not None
            and bool(getattr(cls, "deterministic", False)) != deterministic
        ):
            continue
        out.append(name)
    return out


def role_of(cls: type) -> str:
    """``"learner"`` or ``"adversary"``, from the methods the class defines."""
    if callable(getattr(cls, "predict", None)) and callable(getattr(cls, "update", None)):
        return "learner"
    if callable(getattr(cls, "instance", None)) and callable(getattr(cls, "label", None)):
        return "adversary"
    raise GameError(
        f"{getattr(cls, '__name__', cls)!r} is neither a learner (predict, update) "
        "nor an adversary (instance, label)"
    )


def name_of(cls: type) -> str | None:
    """The registry name of a class, or None when it is not registered."""
    for name, registered in _registered.items():
        if registered is cls:
            return name
    target = f"{cls.__module__}:{cls.__qualname__}"
    for name, path in BUILTIN.items():
        if path == target:
            return name
    for name, loaded in _loaded.items():
        if loaded is cls:
            return name
    return None


def parameters(cls: type) -> list[dict[str, Any]]:
    """The constructor parameters of an attrs player: name, type, default, doc."""
    if not attrs.has(cls):
        return []
    out = []
    for field in attrs.fields(cls):
        if not field.init or field.name.startswith("_"):
            continue
        default = field.default
        if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
            default = "…"
        elif default is attrs.NOTHING:
            default = None
        kind = field.type if isinstance(field.type, str) else getattr(field.type, "__name__", "")
        out.append(
            {
                "name": field.alias,
                "type": kind or "",
                "default": default,
                "required": field.default is attrs.NOTHING,
                "doc": field.metadata.get("doc", ""),
            }
        )
    return out


def _param_value(value: Any) -> Any:
    if isinstance(value, np.random.Generator):
        return "Generator"
    if isinstance(value, np.ndarray):
        if value.size <= 64:
            return value.tolist()
        return f"array of shape {list(value.shape)} and dtype {value.dtype}"
    if isinstance(value, np.generic):
        return value.item()
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list | tuple) and len(value) <= 64:
        return [_param_value(v) for v in value]
    return type(value).__name__


def describe_player(player: Any) -> dict[str, Any]:
    """Name and JSON-ready parameters of a player object, for a transcript's header."""
    cls = type(player)
    name = name_of(cls) or f"{cls.__module__}:{cls.__qualname__}"
    params = {}
    if attrs.has(cls):
        for field in attrs.fields(cls):
            if field.init and not field.name.startswith("_"):
                params[field.alias] = _param_value(getattr(player, field.name))
    return {"name": name, "params": params}
