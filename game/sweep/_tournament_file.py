"""Tournament files: a tournament in TOML, validated with a scenario's vocabulary.

::

    description = "Three learners on two streams"

    [tournament]
    learners = ["perceptron", "winnow", "halving"]
    adversaries = ["separable-stream", "concept-stream", "expert-stream"]
    seeds = 5              # a count, a list of seeds, or text "0:10"
    rounds = 200           # the most rounds of each game
    loss = "zero-one"      # or "absolute", "squared"

    [concept_class]        # optional: handed to adversaries over a finite class
    builder = "thresholds"
    n = 16

    [adversary.separable-stream]   # optional: a player's parameter table
    dimension = 2
    margin = 0.1

Every pair's game is a scenario made of these tables
(:meth:`game.sweep.TournamentResult.scenario`). An error names the file and
the key (``adversary.separable-stream.dimension``) and what was expected, as
a scenario's errors do.

The built-in tournaments ship in the package's ``scenarios/tournaments/``
folder (never mistaken for scenarios: :func:`game.scenario.builtin_scenarios`
lists the top folder only); :func:`builtin_tournaments` names them and
:func:`load_tournament` takes a name as well as a path.

Examples
--------
>>> from game.sweep import load_tournament
>>> spec = load_tournament("builtin")
>>> len(spec.learners), spec.seeds
(13, range(0, 5))
"""

from __future__ import annotations

import difflib
import numbers
import os
from pathlib import Path
from typing import Any

import attrs

from game.errors import ParameterError, ScenarioError, check_instance
from game.scenario import BUILTIN_FOLDER, read_toml
from game.sweep._standings import TournamentResult
from game.sweep._sweep import parse_seeds
from game.sweep._tournament import check_players, tournament

__all__ = ["Tournament", "builtin_tournaments", "load_tournament", "tournament_from_dict"]

#: The built-in tournaments' folder (inside the package's scenarios).
_FOLDER = BUILTIN_FOLDER / "tournaments"

_TOP = ("description", "tournament", "concept_class", "learner", "adversary")
_TABLE = ("learners", "adversaries", "seeds", "rounds", "loss")


def builtin_tournaments() -> dict[str, Path]:
    """The built-in tournaments by name: the file's stem with ``-`` for ``_``.

    Examples
    --------
    >>> from game.sweep import builtin_tournaments
    >>> builtin_tournaments()["builtin"].name
    'builtin.toml'
    """
    return {f.stem.replace("_", "-"): f for f in sorted(_FOLDER.glob("*.toml"))}


@attrs.frozen
class Tournament:
    """A validated tournament file: its players, seeds, rounds, loss and shared class.

    Use :func:`load_tournament` or :func:`tournament_from_dict` to make one, and
    :meth:`play` to play it.
    """

    learners: dict
    adversaries: dict
    seeds: Any
    rounds: int
    loss: str
    concept_class: dict | None
    source: Path
    description: str = ""

    def play(
        self,
        *,
        seeds: Any = None,
        executor: Any = None,
        workers: int | None = None,
        chunk_size: int | None = None,
        lockstep: bool = True,
        progress: Any = False,
    ) -> TournamentResult:
        """Play the tournament (:func:`game.tournament`); ``seeds`` overrides the file's."""
        return tournament(
            self.learners,
            self.adversaries,
            self.seeds if seeds is None else seeds,
            rounds=self.rounds,
            loss=self.loss,
            concept_class=self.concept_class,
            executor=executor,
            workers=workers,
            chunk_size=chunk_size,
            lockstep=lockstep,
            progress=progress,
            source=self.source,
        )


def _path(path: str | os.PathLike) -> Path:
    if isinstance(path, os.PathLike) or os.sep in path or "/" in path or path.endswith(".toml"):
        return Path(path)
    gallery = builtin_tournaments()
    name = path.replace("_", "-")
    if name in gallery and not Path(path).is_file():
        return gallery[name]
    if not Path(path).exists():
        near = difflib.get_close_matches(name, list(gallery), n=3, cutoff=0.5)
        hint = (
            "did you mean " + " or ".join(repr(s) for s in near) + "?"
            if near
            else f"the built-in tournaments are {', '.join(map(repr, gallery)) or 'none'}"
        )
        raise ScenarioError(f"{path}: no such tournament file or built-in tournament; {hint}")
    return Path(path)


def load_tournament(path: str | os.PathLike) -> Tournament:
    """Read and validate a tournament file, or the built-in tournament of a name.

    Raises
    ------
    ScenarioError
        Naming the file, the key and what was expected.
    """
    check_instance("path", path, (str, os.PathLike), "a path (str or os.PathLike)")
    path = _path(path)
    spec = read_toml(path, "tournament")
    return tournament_from_dict(spec, source=path)


def _names(where: str, key: str, value: Any) -> list[str]:
    if not isinstance(value, list) or not value or not all(isinstance(v, str) and v for v in value):
        raise ScenarioError(f"{where}: tournament.{key}: expected a non-empty list of names")
    if len(set(value)) != len(value):
        dup = next(v for i, v in enumerate(value) if v in value[:i])
        raise ScenarioError(f"{where}: tournament.{key}: {dup!r} is listed twice")
    return value


def tournament_from_dict(spec: dict, *, source: str | os.PathLike = "<tournament>") -> Tournament:
    """Validate a parsed tournament file (a TOML document as a dict).

    Every player is looked up and each of its table's keys checked, and the
    ``[concept_class]`` table built once, before any game: see :func:`load_tournament`.

    Examples
    --------
    >>> from game.sweep import tournament_from_dict
    >>> tournament_from_dict({"tournament": {"learners": ["perceptron"],
    ...     "adversaries": ["separable-stream"], "rounds": -1}})
    Traceback (most recent call last):
    ...
    game.errors.ScenarioError: <tournament>: tournament.rounds: expected an integer from 0 to ...
    """
    source = Path(source)
    where = str(source)

    def fail(key: str, message: str) -> ScenarioError:
        return ScenarioError(f"{where}: {key}: {message}")

    if not isinstance(spec, dict):
        raise ScenarioError(f"{where}: expected a TOML document with tables")
    scenario_like = "rounds" in spec or (
        isinstance(spec.get("learner"), dict) and "name" in spec["learner"]
    )
    if "tournament" not in spec and scenario_like:
        raise ScenarioError(
            f"{where}: a scenario, not a tournament: expected a [tournament] table "
            "(python -m game run plays a scenario)"
        )
    for key, value in spec.items():
        if key not in _TOP:
            raise fail(key, f"unknown key; expected one of {', '.join(_TOP)}")
        expected = str if key == "description" else dict
        if not isinstance(value, expected):
            shown = "a string" if expected is str else "a table"
            raise fail(key, f"expected {shown}, got {value!r}")
    if "tournament" not in spec:
        raise ScenarioError(f"{where}: missing table [tournament]")
    table = spec["tournament"]
    for key in table:
        if key not in _TABLE:
            raise fail(f"tournament.{key}", f"unknown key; expected one of {', '.join(_TABLE)}")
    for key in ("learners", "adversaries"):
        if key not in table:
            raise fail(f"tournament.{key}", "missing; expected a list of registered player names")
    learners = _names(where, "learners", table["learners"])
    adversaries = _names(where, "adversaries", table["adversaries"])
    rounds = table.get("rounds", 200)
    from game.scenario import MAX_ROUNDS

    if (
        not isinstance(rounds, numbers.Integral)
        or isinstance(rounds, bool)
        or not (0 <= rounds <= MAX_ROUNDS)
    ):
        raise fail(
            "tournament.rounds", f"expected an integer from 0 to {MAX_ROUNDS}, got {rounds!r}"
        )
    from game.theory import LOSSES

    loss = table.get("loss", "zero-one")
    if loss not in LOSSES:
        raise fail(
            "tournament.loss", f"expected one of {', '.join(map(repr, LOSSES))}, got {loss!r}"
        )
    seeds = table.get("seeds", 5)
    if isinstance(seeds, bool) or not isinstance(seeds, int | str | list):
        raise fail(
            "tournament.seeds", f"expected a count, a list of seeds or text 'A:B', got {seeds!r}"
        )
    try:
        seeds = parse_seeds(seeds)
    except ParameterError as exc:
        raise fail("tournament.seeds", str(exc)) from None
    tables: dict[str, dict] = {}
    for role, listed in (("learner", learners), ("adversary", adversaries)):
        given = spec.get(role, {})
        for name, params in given.items():
            if name not in listed:
                raise fail(
                    f"{role}.{name}",
                    f"a parameter table for a {role} not in tournament.{role}s "
                    f"({', '.join(listed)})",
                )
            if not isinstance(params, dict):
                raise fail(f"{role}.{name}", f"expected a table of parameters, got {params!r}")
            if "name" in params:
                raise fail(f"{role}.{name}.name", "the table's name is the player's; remove it")
        tables[role] = {name: dict(given.get(name, {})) for name in listed}
    concept_class = spec.get("concept_class")
    found = Tournament(
        learners=tables["learner"],
        adversaries=tables["adversary"],
        seeds=seeds,
        rounds=int(rounds),
        loss=loss,
        concept_class=concept_class,
        source=source,
        description=spec.get("description", ""),
    )
    check_players(
        found.learners, found.adversaries, concept_class, source, "tournament."
    )  # nothing played
    return found
