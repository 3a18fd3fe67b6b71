"""A sweep's parameter grid: keys, values, and the scenario at each point.

A grid maps keys to lists of values; its points are every combination, in the
order the keys and values are given. A key names what a scenario file would
set:

- ``"rounds"`` or ``"loss"``: the scenario's own keys;
- ``"learner.PARAMETER"`` or ``"adversary.PARAMETER"``: a key of the
  ``[learner]`` or ``[adversary]`` table (``"adversary.name"`` swaps the
  player itself).

Every point is validated as a scenario file would be, and its players are
built once, before any game is played: a bad key or value is a
:class:`~game.errors.ScenarioError` naming the point.

Examples
--------
>>> from game.scenario import load_scenario
>>> from game.sweep import grid_points
>>> sc = load_scenario("scenarios/perceptron_separable.toml")
>>> [p.params for p in grid_points(sc, {"adversary.margin": [0.1, 0.2]})]
[{'adversary.margin': 0.1}, {'adversary.margin': 0.2}]
>>> grid_points(sc, {"adversary.margn": [0.1]})
Traceback (most recent call last):
...
game.errors.ScenarioError: scenarios/perceptron_separable.toml: grid point adversary.margn = ...
"""

from __future__ import annotations

import itertools
from typing import Any

import attrs
import numpy as np

from game.errors import ScenarioError
from game.scenario import Scenario, scenario_from_dict

__all__ = ["Point", "ResolvedScenario", "grid_points"]

_TOP_KEYS = ("rounds", "loss")
_ROLES = ("learner", "adversary")


@attrs.define
class ResolvedScenario(Scenario):
    """A scenario whose players' classes and parameters are resolved once.

    :meth:`Scenario.player_spec` reads data files on every call; here the
    result is kept, so building the players for thousands of seeds reads each
    file once. Each build gets its own copy of the keyword dict.
    """

    specs: dict = attrs.field(factory=dict, repr=False)

    def player_spec(self, role: str) -> tuple[type, dict[str, Any]]:
        """The class and constructor keywords of ``role``, resolved on first use."""
        if role not in self.specs:
            self.specs[role] = Scenario.player_spec(self, role)
        cls, kwargs = self.specs[role]
        return cls, dict(kwargs)


@attrs.frozen
class Point:
    """One point of a sweep's grid: its parameters and the scenario they make.

    Parameters
    ----------
    index : int
        The point's number, from 0, in grid order.
    params : dict
        Grid key -> value at this point (empty without a grid).
    scenario : ResolvedScenario
        The scenario with the point's parameters set.
    alone : bool
        The sweep has no grid (transcript files are then named by seed alone).
    """

    index: int
    params: dict
    scenario: ResolvedScenario
    alone: bool = False

    @property
    def spec(self) -> dict:
        """The scenario's tables with the point's parameters set."""
        return self.scenario.spec

    @property
    def rounds(self) -> int:
        """The most rounds of each game at this point."""
        return self.scenario.rounds

    @property
    def loss(self) -> str:
        """The games' loss at this point."""
        return self.scenario.loss

    def meta(self, seed: int) -> dict:
        """The header entries :meth:`Scenario.play` records for game ``seed``."""
        return self.scenario.meta(seed=seed)


def _describe(params: dict) -> str:
    return ", ".join(f"{k} = {v!r}" for k, v in params.items()) or "(no grid)"


def _check_keys(scenario: Scenario, grid: dict) -> list[tuple[str, list]]:
    where = scenario.source
    if not isinstance(grid, dict):
        raise ScenarioError(
            f"{where}: grid: expected a dict of key -> list of values, got {grid!r}"
        )
    items = []
    for key, values in grid.items():
        if key == "seed":
            raise ScenarioError(
                f"{where}: grid key 'seed': seeds are swept with seeds=, not a grid"
            )
        role, dot, name = key.partition(".") if isinstance(key, str) else ("", "", "")
        if not (key in _TOP_KEYS or (role in _ROLES and dot and name and "." not in name)):
            raise ScenarioError(
                f"{where}: grid key {key!r}: expected 'rounds', 'loss', "
                "'learner.PARAMETER' or 'adversary.PARAMETER'"
            )
        if isinstance(values, np.ndarray):
            values = values.tolist()
        if not isinstance(values, list | tuple | range) or len(values) == 0:
            raise ScenarioError(
                f"{where}: grid key {key!r}: expected a non-empty list of values, got {values!r}"
            )
        items.append((key, list(values)))
    return items


def _point_spec(spec: dict, params: dict) -> dict:
    out = dict(spec)
    for role in _ROLES:
        out[role] = dict(spec[role])
    for key, value in params.items():
        role, _, name = key.partition(".")
        if key in _TOP_KEYS:
            out[key] = value
        else:
            out[role][name] = value
    return out


def grid_points(scenario: Scenario, grid: dict | None, *, first_seed: int | None = None) -> list:
    """The scenario at every point of ``grid``, each validated and its players built once.

    Parameters
    ----------
    scenario : Scenario
        The scenario swept.
    grid : dict or None
        Key -> list of values (see the module's docstring); None or {} for one point.
    first_seed : int, optional
        The seed the trial build uses (default: the scenario's).

    Returns
    -------
    list of Point

    Raises
    ------
    ScenarioError
        A key that names nothing a scenario sets, an empty list of values, or
        a point whose scenario is invalid or whose players cannot be built.
    """
    items = _check_keys(scenario, grid or {})
    keys = [k for k, _ in items]
    points = []
    for index, combination in enumerate(itertools.product(*(v for _, v in items))):
        params = dict(zip(keys, combination, strict=True))
        spec = _point_spec(scenario.spec, params)
        try:
            spec = scenario_from_dict(spec, source=scenario.source, base=scenario.base).spec
            resolved = ResolvedScenario(source=scenario.source, base=scenario.base, spec=spec)
            resolved.build(scenario.seed if first_seed is None else first_seed)
        except ScenarioError as exc:
            if not params:
                raise
            message = str(exc).removeprefix(f"{scenario.source}: ")
            raise ScenarioError(
                f"{scenario.source}: grid point {_describe(params)}: {message}"
            ) from None
        points.append(Point(index=index, params=params, scenario=resolved, alone=not items))
    return points
