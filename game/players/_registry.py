"""Players by name: the one table scenario files and the command line go through.

The built-in players are listed in :data:`BUILTIN` by import path and imported
only when looked up. Users add their own with :func:`register` in Python, or an
installed package declares them in the entry-point group
``online_learning_games.players``. A scenario names a player only by a key of
this registry; it can never import a module by path.

A player's constructor parameters (:func:`parameters`) are the keys of its
scenario table, except the ones it declares the scenario supplies (its
generator, the game's loss, the shared finite class): an attrs player declares
them with :func:`~game.players.rng_field`, :func:`~game.players.loss_field` and
:func:`~game.players.concept_class_field`; a plain class in its class attribute
``scenario_supplies`` (:data:`SUPPLIES_ATTRIBUTE`), a dict from constructor
parameter to what is supplied there (``{"rng": "rng"}``), its other parameters
read from its signature. Nothing is matched by a parameter's name.

Examples
--------
>>> from game.players import lookup, name_of
>>> cls = lookup("perceptron")
>>> cls.__name__, name_of(cls)
('Perceptron', 'perceptron')
>>> lookup("perceptorn")
Traceback (most recent call last):
...
game.errors.UnknownPlayerError: unknown player 'perceptorn'; did you mean 'perceptron'...
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import inspect
import re
import sys
from collections.abc import Iterator
from importlib.metadata import EntryPoint, entry_points
from typing import Any

import attrs
import numpy as np

from game.errors import GameError, ParameterError, UnknownPlayerError, check_choice
from game.players._params import SUPPLIED, supplied
from game.protocol import INSTANCE_KINDS
from game.theory.concepts import build_class

__all__ = [
    "BUILTIN",
    "ENTRY_POINT_GROUP",
    "SUPPLIES_ATTRIBUTE",
    "broken_entry_points",
    "build_by_name",
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

#: The class attribute in which a plain (non-attrs) player declares the constructor
#: parameters a scenario supplies: ``scenario_supplies = {"rng": "rng", "loss": "loss"}``.
SUPPLIES_ATTRIBUTE = "scenario_supplies"

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
    "minimax-forecaster": "learners.minimax:MinimaxForecaster",
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
    "forcing-adversary": "adversaries.forcing:ForcingAdversary",
    "minimax-regret-adversary": "adversaries.regret:MinimaxRegretAdversary",
    "regret-forcing-adversary": "adversaries.regret:RegretForcingAdversary",
}

_NAME = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
_registered: dict[str, type] = {}
_loaded: dict[str, type] = {}


@functools.cache
def _entry_points() -> dict[str, Any]:
    """Players declared by installed packages (read once per process)."""
    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


@contextlib.contextmanager
def registered_for_now(
    players: dict[str, type] | None = None, entry_points: dict[str, str] | None = None
) -> Iterator[None]:
    """Players registered, and entry points installed, for a ``with`` block only.

    On leaving the block the registry is as it was: what the block registered
    or looked up is forgotten. For tests and checks that need a player of their
    own (or a broken installed one) without changing the process's registry.

    Parameters
    ----------
    players : dict of str to type, optional
        Names and classes registered as :func:`register` would.
    entry_points : dict of str to str, optional
        Names and ``"module:Class"`` values seen as the installed entry points
        of :data:`ENTRY_POINT_GROUP` (instead of the installed ones).

    Examples
    --------
    >>> from learners import Perceptron
    >>> with registered_for_now({"my-perceptron": Perceptron}):
    ...     lookup("my-perceptron") is Perceptron
    True
    >>> "my-perceptron" in names()
    False
    """
    global _entry_points
    registered, loaded, installed = dict(_registered), dict(_loaded), _entry_points
    if entry_points:
        eps = {
            name: EntryPoint(name=name, value=value, group=ENTRY_POINT_GROUP)
            for name, value in entry_points.items()
        }
        _entry_points = lambda: eps  # noqa: E731
    try:
        for name, cls in (players or {}).items():
            register(name, cls)
        yield
    finally:
        _entry_points = installed
        _registered.clear()
        _registered.update(registered)
        _loaded.clear()
        _loaded.update(loaded)


def register(name: str, cls: type, *, replace: bool = False) -> type:
    """Add a player class under ``name`` (lower-case words joined by hyphens).

    A scenario builds the player with its table's keys as constructor keywords
    and fills the parameters the player declares it supplies. An attrs class
    declares them in its fields (:func:`~game.players.rng_field`,
    :func:`~game.players.loss_field`, :func:`~game.players.concept_class_field`);
    a plain class in its ``scenario_supplies`` class attribute, a dict from
    constructor parameter to ``"rng"``, ``"loss"`` or ``"concept_class"``, its
    other parameters read from its signature (so a table's keys are checked
    and ``python -m game list`` shows them). Nothing is matched by name: a
    parameter called ``rng`` or ``loss`` that is not declared is an ordinary
    parameter, set from the table or left at its default.

    Parameters
    ----------
    name : str
        The name scenario files will use.
    cls : type
        A learner (``predict``/``update``) or adversary (``instance``/``label``) class.
    replace : bool, default False
        Allow replacing an existing registration.

    Raises
    ------
    GameError
        In one line: a bad name, a class with no role, a constructor whose
        signature cannot be read, or a ``scenario_supplies`` that does not fit it.

    Examples
    --------
    >>> class Coin:
    ...     '''Predicts the side of a biased coin.'''
    ...     plays = frozenset({"vector"})
    ...     scenario_supplies = {"generator": "rng"}   # the scenario's generator
    ...     def __init__(self, generator=None, bias: float = 0.5):
    ...         self.generator, self.bias = generator, bias
    ...     def predict(self, x): return 1.0 if self.generator.random() < self.bias else -1.0
    ...     def update(self, x, y): return False
    >>> _ = register("biased-coin", Coin, replace=True)
    >>> lookup("biased-coin") is Coin
    True
    >>> [(p["name"], p["supplied"]) for p in parameters(Coin)]
    [('generator', 'rng'), ('bias', None)]
    >>> Coin.scenario_supplies = {"seed": "rng"}
    >>> register("biased-coin", Coin, replace=True)
    Traceback (most recent call last):
    ...
    game.errors.GameError: Coin.scenario_supplies names 'seed', which is not a parameter of ...
    >>> _ = _registered.pop("biased-coin")  # leave the registry as it was
    """
    if not isinstance(name, str) or not _NAME.match(name):
        raise ParameterError("name", name, "lower-case words joined by hyphens")
    if not isinstance(cls, type):
        raise ParameterError("cls", cls, f"a class (register({name!r}, …) expects one)")
    role_of(cls)
    _check_declared(cls)
    if not replace and (name in BUILTIN or name in _registered):
        raise GameError(f"a player named {name!r} is already registered (pass replace=True)")
    _registered[name] = cls
    _loaded.pop(name, None)
    return cls


def _load_entry_point(ep: Any) -> type:
    """The player class an installed entry point names; a :class:`GameError` naming it if broken.

    Whatever the entry point's module raises on import, or an object that is
    not a player class, is one line naming the entry point, its target and
    what went wrong.
    """
    where = f"the player entry point {ep.name!r} ({ep.value})"
    try:
        cls = ep.load()
    except Exception as exc:
        raise GameError(f"{where} cannot be loaded: {type(exc).__name__}: {exc}") from None
    if not isinstance(cls, type):
        raise GameError(f"{where} must name a player class, got {type(cls).__name__}")
    try:
        role_of(cls)
    except GameError as exc:
        raise GameError(f"{where}: {exc}") from None
    return cls


def broken_entry_points() -> dict[str, str]:
    """The installed player entry points that cannot be loaded: name -> why, in one line.

    :func:`names` leaves them out when it filters by role, and ``python -m
    game list`` lists the other players, then names each of these.

    Examples
    --------
    >>> broken_entry_points()  # none installed here
    {}
    """
    broken = {}
    for name in sorted(set(_entry_points()) - set(BUILTIN) - set(_registered)):
        try:
            lookup(name)
        except GameError as exc:
            broken[name] = str(exc)
    return broken


def names(role: str | None = None) -> list[str]:
    """Every registered name, optionally only learners or only adversaries.

    Filtered by role, an installed entry point that cannot be loaded is left
    out (:func:`broken_entry_points` names it).
    """
    every = sorted(set(BUILTIN) | set(_registered) | set(_entry_points()))
    if role is None:
        return every
    broken = broken_entry_points() if _entry_points() else {}
    return [n for n in every if n not in broken and role_of(lookup(n)) == role]


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
        cls = _load_entry_point(eps[name])
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
    check_choice("kind", kind, INSTANCE_KINDS)
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


def kinds_clash(learner: Any, adversary: Any) -> str | None:
    """Why two players cannot play each other, or None when their declared kinds fit.

    A learner declares the instance kinds it plays (``plays``, a set of
    :data:`~game.protocol.INSTANCE_KINDS`), an adversary the kind it presents
    (``presents``: one kind, or a frozenset of the kinds its instances can be
    read as); the game is refused before round 1 when no kind the adversary
    presents is among the learner's. A player that declares nothing is not
    checked.

    Examples
    --------
    >>> import numpy as np
    >>> from learners import Halving, Perceptron
    >>> from adversaries import SeparableStream
    >>> stream = SeparableStream(3, 0.1, rng=np.random.default_rng(0))
    >>> kinds_clash(Perceptron(), stream) is None
    True
    >>> print(kinds_clash(Halving(), stream))
    learner halving plays advice, point; adversary separable-stream presents vector: \
they cannot play each other
    """
    plays = getattr(learner, "plays", None)
    presents = getattr(adversary, "presents", None)
    if isinstance(presents, str):
        presents = frozenset({presents})
    if not isinstance(plays, set | frozenset) or not isinstance(presents, set | frozenset):
        return None
    if plays & presents:
        return None
    return (
        f"learner {_label(learner)} plays {', '.join(sorted(plays))}; adversary "
        f"{_label(adversary)} presents {' or '.join(sorted(presents))}: "
        "they cannot play each other"
    )


def _label(player: Any) -> str:
    cls = type(player)
    return name_of(cls) or cls.__qualname__


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


def _check_declared(cls: type) -> None:
    """Refuse, in one line, a declaration of supplied parameters that does not fit."""
    declared = getattr(cls, SUPPLIES_ATTRIBUTE, None)
    if attrs.has(cls):
        if declared is not None:
            raise GameError(
                f"{cls.__name__} is an attrs class: declare the fields a scenario supplies with "
                "rng_field, loss_field or concept_class_field, not scenario_supplies"
            )
        return
    try:
        signature = inspect.signature(cls)
    except (TypeError, ValueError):
        raise GameError(
            f"{cls.__name__}: the signature of its constructor cannot be read; "
            "give it an __init__ with named parameters"
        ) from None
    if declared is None:
        return
    if not isinstance(declared, dict) or not all(
        isinstance(k, str) and isinstance(v, str) and v in SUPPLIED for k, v in declared.items()
    ):
        raise GameError(
            f"{cls.__name__}.scenario_supplies must be a dict from constructor parameter to "
            f"one of {', '.join(map(repr, SUPPLIED))}, got {declared!r}"
        )
    named = _named(signature)
    for key in declared:
        if key not in named:
            raise GameError(
                f"{cls.__name__}.scenario_supplies names {key!r}, which is not a parameter of "
                f"its constructor ({', '.join(named) or 'none'})"
            )


def _named(signature: inspect.Signature) -> list[str]:
    """The parameters a keyword can set, in order."""
    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return [p.name for p in signature.parameters.values() if p.kind in kinds]


def _type_name(annotation: Any) -> str:
    if annotation is inspect.Parameter.empty or annotation is None:
        return ""
    return annotation if isinstance(annotation, str) else getattr(annotation, "__name__", "")


def parameters(cls: type) -> list[dict[str, Any]]:
    """A player's constructor parameters, in order: the keys its scenario table may hold.

    Each is a dict: ``name`` (as a caller writes it), ``type``, ``default``
    (``"…"`` for a factory), ``required``, ``doc``, ``supplied`` (what the
    scenario supplies there: ``"rng"``, ``"loss"`` or ``"concept_class"``, else
    None) and ``data`` (whether a data file may fill it). An attrs player's come
    from its fields, a plain class's from its constructor's signature and its
    ``scenario_supplies``.

    Examples
    --------
    >>> [(p["name"], p["supplied"]) for p in parameters(lookup("exponential-weights"))][:2]
    [('eta', None), ('loss', 'loss')]
    """
    if not attrs.has(cls):
        return _plain_parameters(cls)
    out = []
    for field in attrs.fields(cls):
        if not field.init or field.name.startswith("_"):
            continue
        default = field.default
        if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
            default = "…"
        elif default is attrs.NOTHING:
            default = None
        out.append(
            {
                "name": field.alias,
                "type": _type_name(field.type),
                "default": default,
                "required": field.default is attrs.NOTHING,
                "doc": field.metadata.get("doc", ""),
                "supplied": supplied(field),
                "data": bool(field.metadata.get("data")),
            }
        )
    return out


def build_by_name(
    name: str, role: str, params: dict | None = None, *, supplies: dict | None = None
) -> Any:
    """A registered player built from its name and parameters, as a scenario table builds it.

    The parameters a player declares a scenario supplies (``"rng"``, ``"loss"``,
    ``"concept_class"``) are taken from ``supplies``; the others from
    ``params``. The solvers' players build the player they solve for this way
    (``ForcingAdversary(H, "halving")``), and so does ``python -m game solve``.

    Parameters
    ----------
    name : str
        A registry name.
    role : {"learner", "adversary"}
        The role the player must have.
    params : dict, optional
        Its parameters, by name (a scenario table's keys).
    supplies : dict, optional
        What the caller supplies, by kind: ``{"loss": "absolute", "rng": rng,
        "concept_class": H}``. A supplied parameter with a default keeps it
        when its kind is not given.

    Raises
    ------
    UnknownPlayerError
        When no player of that role has the name (with close names).
    ParameterError
        Naming ``params`` when a key is not a parameter of the player or a
        required one is missing, and the parameter when the constructor
        refuses a value.

    Examples
    --------
    >>> from game.theory.concepts import thresholds
    >>> build_by_name("halving", "learner", supplies={"concept_class": thresholds(3)})
    Halving(...)
    >>> build_by_name("halving", "learner", {"beta": 0.5})
    Traceback (most recent call last):
    ...
    game.errors.ParameterError: params must be parameters of halving (experts), ... is not one)
    """
    cls = lookup(name, role)
    given = dict(params or {})
    supplies = dict(supplies or {})
    declared = parameters(cls)
    own = [p["name"] for p in declared if p["supplied"] is None]
    for key in given:
        if key not in own:
            raise ParameterError(
                "params", given, f"parameters of {name} ({', '.join(own) or 'none'})",
                f"{key!r} is not one",
            )  # fmt: skip
    for p in declared:
        if p["supplied"] is not None and p["supplied"] in supplies:
            given[p["name"]] = supplies[p["supplied"]]
        elif p["required"] and p["name"] not in given:
            what = p["supplied"] or "a value"
            raise ParameterError("params", given, f"{p['name']} given ({what})")
    return cls(**given)


def rebuild(header: dict, role: str) -> tuple[Any, str | None]:
    """A fresh player built from a transcript header's entry, or None and why it cannot be.

    Only a registered name is looked up (never a module path). Every
    parameter comes from the header, except what a scenario supplies: a
    generator (a fresh one: what a player computes after the game does not
    depend on its draws), the game's loss, and the finite class of the
    scenario's ``[concept_class]`` builder table (none when the header records
    the player had none). A parameter the header records only by a
    description (an array too large to write, a data file's content), or one
    the player does not have, leaves the player unbuilt.

    Parameters
    ----------
    header : dict
        A transcript's header.
    role : {"learner", "adversary"}
        Which player.

    Examples
    --------
    >>> player, why = rebuild({"learner": {"name": "perceptron", "params": {}}}, "learner")
    >>> type(player).__name__, why
    ('Perceptron', None)
    >>> rebuild({"learner": {"name": "x.y:Z", "params": {}}}, "learner")
    (None, "learner 'x.y:Z' is not a registered player")
    >>> rebuild({"learner": {"name": "perceptron", "params": {"eta": 2}}}, "learner")
    (None, "learner 'perceptron' has no parameter 'eta'")
    >>> player, _ = rebuild({"learner": {"name": "halving", "params": {"concept_class": None}}},
    ...                     "learner")
    >>> player.concept_class is None
    True
    """
    entry = header.get(role)
    if not isinstance(entry, dict) or not isinstance(entry.get("params", {}), dict):
        return None, f"the header has no {role} entry"
    name = entry.get("name")
    try:
        cls = lookup(str(name), role)
    except GameError:
        return None, f"{role} {name!r} is not a registered player"
    given = entry.get("params", {})
    declared = parameters(cls)
    unknown = sorted(set(given) - {p["name"] for p in declared})
    if unknown:
        return None, f"{role} {name!r} has no parameter {unknown[0]!r}"
    kwargs: dict[str, Any] = {}
    for p in declared:
        key, what = p["name"], p["supplied"]
        if what == "rng":
            kwargs[key] = np.random.default_rng(0)
        elif what == "loss":
            kwargs[key] = given.get(key, header.get("loss", "zero-one"))
        elif what == "concept_class":
            if key in given and given[key] is None:
                continue  # the player was built without one
            built = _header_class(header)
            if built is None:
                return None, f"{role} {name!r}: its finite class is not in the header"
            kwargs[key] = built
        elif key in given:
            if p["data"] and isinstance(given[key], str):
                return None, f"{role} {name!r}: its {key} is a data file's content"
            kwargs[key] = given[key]
    try:
        return cls(**kwargs), None
    except Exception as exc:
        return None, f"{role} {name!r} cannot be rebuilt from its header: {exc}"


def _header_class(header: dict) -> Any:
    """The finite class of the header's scenario ``[concept_class]`` builder table, or None."""
    scenario = header.get("scenario")
    spec = scenario.get("spec") if isinstance(scenario, dict) else None
    table = spec.get("concept_class") if isinstance(spec, dict) else None
    if not isinstance(table, dict) or "builder" not in table:
        return None
    args = {k: v for k, v in table.items() if k != "builder"}
    try:
        return build_class(table["builder"], **args)
    except (GameError, TypeError, ValueError):
        return None


def _plain_parameters(cls: type) -> list[dict[str, Any]]:
    """:func:`parameters` of a plain class, from its constructor's signature."""
    try:
        signature = inspect.signature(cls)
    except (TypeError, ValueError):
        return []
    declared = getattr(cls, SUPPLIES_ATTRIBUTE, None)
    declared = declared if isinstance(declared, dict) else {}
    out = []
    for name in _named(signature):
        if name.startswith("_"):
            continue
        p = signature.parameters[name]
        required = p.default is inspect.Parameter.empty
        out.append(
            {
                "name": name,
                "type": _type_name(p.annotation),
                "default": None if required else p.default,
                "required": required,
                "doc": "",
                "supplied": declared.get(name),
                "data": False,
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
    nx = sys.modules.get("networkx")  # never imported for this: a graph means it is loaded
    if nx is not None and isinstance(value, nx.DiGraph):
        return "DiGraph"  # a tree of any graph class (its picture is no part of the game)
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
