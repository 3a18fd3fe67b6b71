"""The table a tournament returns: one row per game, per pair a summary, and matrices.

Rows are ordered by learner, then adversary (in the order given), then seed.
Columns (:data:`TOURNAMENT_COLUMNS`): ``learner``, ``adversary``, ``seed``,
the sweep's row (:data:`game.sweep.ROW_COLUMNS`), ``regret`` (expert games)
and ``ratio`` (what the bound counts ÷ the bound). A value that does not
apply is None.

Examples
--------
>>> from game.sweep import TournamentResult
>>> rows = [{"learner": "a", "adversary": "x", "seed": s, "mistakes": m, "status": "complete",
...          "regret": None, "ratio": m / 4} for s, m in [(0, 2), (1, 4)]]
>>> pairs = [{"learner": "a", "adversary": "x", "status": "played", "reason": None},
...          {"learner": "a", "adversary": "y", "status": "unfit", "reason": "kinds differ"}]
>>> r = TournamentResult(rows=rows, pairs=pairs, learners=["a"], adversaries=["x", "y"])
>>> [(s["adversary"], s["status"], s["mistakes_mean"]) for s in r.summary()]
[('x', 'played', 3.0), ('y', 'unfit', None)]
>>> r.matrix("ratio").tolist()
[[0.75, nan]]
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator
from pathlib import Path

import attrs
import numpy as np

from game.errors import GameError, check_choice
from game.sweep._result import SweepResult
from game.sweep._tasks import ROW_COLUMNS

__all__ = ["QUANTITIES", "TOURNAMENT_COLUMNS", "TournamentResult"]

#: A game's row in a tournament.
TOURNAMENT_COLUMNS = ("learner", "adversary", "seed", *ROW_COLUMNS, "regret", "ratio")

#: What a tournament's matrix (and heat map) shows per pair: the mean over its games of
#: mistakes, regret (expert games) or ratio (what the bound counts ÷ the bound).
QUANTITIES = ("mistakes", "regret", "ratio")


def _mean(values: list) -> float | None:
    kept = [float(v) for v in values if v is not None and not math.isnan(float(v))]
    return float(np.mean(kept)) if kept else None


@attrs.define(eq=False)
class TournamentResult:
    """What :func:`game.tournament` played: its games' rows and every pair's status.

    Parameters
    ----------
    rows : list of dict
        One per game, keyed by :data:`TOURNAMENT_COLUMNS`.
    pairs : list of dict
        One per (learner, adversary), learners outer: ``learner``, ``adversary``,
        ``status`` (``"played"``; ``"unfit"``: no instance kind in common, not
        played; ``"failed"``: the players could not be built or play together), ``reason``
        (one line, None when played) and ``spec`` (the pair's scenario as a dict).
    learners, adversaries : list of str
        The players' names, in the order given.
    seeds : list of int
        The seeds every played pair played.
    source : str
        The tournament file, or ``"<tournament>"``.
    requested : int
        Games asked for (played pairs × seeds).
    interrupted : bool
        Stopped (Ctrl-C) before every game was played; the rows are the finished ones.
    lockstep : int
        Games played in lockstep.
    elapsed : float
        Wall-clock seconds.
    """

    rows: list = attrs.field(factory=list)
    pairs: list = attrs.field(factory=list)
    learners: list = attrs.field(factory=list)
    adversaries: list = attrs.field(factory=list)
    seeds: list = attrs.field(factory=list)
    source: str = "<tournament>"
    requested: int = 0
    interrupted: bool = False
    lockstep: int = 0
    elapsed: float = 0.0

    @property
    def columns(self) -> list[str]:
        """The rows' columns, in order (:data:`TOURNAMENT_COLUMNS`)."""
        return list(TOURNAMENT_COLUMNS)

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[dict]:
        return iter(self.rows)

    def __getitem__(self, index: int) -> dict:
        return self.rows[index]

    def __repr__(self) -> str:
        counts = {
            s: sum(p["status"] == s for p in self.pairs) for s in ("played", "unfit", "failed")
        }
        state = ", interrupted" if self.interrupted else ""
        return (
            f"TournamentResult({len(self.learners)} learners × {len(self.adversaries)} "
            f"adversaries: {counts['played']} pairs played, {counts['unfit']} unfit, "
            f"{counts['failed']} failed; {len(self)} games of {self.requested}{state})"
        )

    @property
    def complete(self) -> bool:
        """Whether every requested game was played."""
        return not self.interrupted and len(self) == self.requested

    def pair(self, learner: str, adversary: str) -> dict:
        """The entry of one pair (its status, reason and scenario spec)."""
        for entry in self.pairs:
            if entry["learner"] == learner and entry["adversary"] == adversary:
                return entry
        raise GameError(f"no pair {learner!r} against {adversary!r} in this tournament")

    def scenario(self, learner: str, adversary: str):
        """The scenario of one pair's games: game s is ``scenario.play(seed=s)``.

        Examples
        --------
        >>> import game
        >>> r = game.tournament(["perceptron"], {"separable-stream": {"dimension": 2,
        ...     "margin": 0.2}}, seeds=[3], rounds=40, workers=1)
        >>> tr = r.scenario("perceptron", "separable-stream").play(seed=3)
        >>> tr.summary()["mistakes"] == r.rows[0]["mistakes"]
        True
        """
        from game.scenario import scenario_from_dict

        spec = self.pair(learner, adversary)["spec"]
        source = Path(self.source)
        return scenario_from_dict(spec, source=source)

    def games(self, learner: str, adversary: str) -> list[dict]:
        """The rows of one pair's games."""
        return [r for r in self.rows if r["learner"] == learner and r["adversary"] == adversary]

    def matches(self, other: TournamentResult) -> bool:
        """Whether two tournaments played the same games, outcome for outcome (wall times aside)."""

        def strip(rows):
            return [{k: v for k, v in row.items() if k != "wall_time"} for row in rows]

        def status(pairs):
            return [{k: v for k, v in p.items() if k != "spec"} for p in pairs]

        return strip(self.rows) == strip(other.rows) and status(self.pairs) == status(other.pairs)

    def violations(self) -> list[dict]:
        """The rows of games that exceeded their bound."""
        return [row for row in self.rows if row.get("within_bound") is False]

    def errors(self) -> list[dict]:
        """The rows of games that ended with an error."""
        return [row for row in self.rows if row.get("status") == "error"]

    def summary(self) -> list[dict]:
        """Per pair, in pair order: its status and the means over its games.

        Returns
        -------
        list of dict
            ``learner``, ``adversary``, ``status``, ``reason``, ``games``
            (finished without error), ``errors``, ``mistakes_mean``,
            ``regret_mean`` (expert games, else None), ``ratio_mean`` and
            ``ratio_max`` (what the bound counts ÷ the bound, where one applies),
            ``bound_quantity``, ``violations`` (games over their bound),
            ``lower_bound_mean`` and ``forced`` (games whose adversary's lower
            bound held, of those with one). None where nothing applies.
        """
        by_pair: dict[tuple, list] = {}
        for row in self.rows:
            by_pair.setdefault((row["learner"], row["adversary"]), []).append(row)
        out = []
        for entry in self.pairs:
            rows = by_pair.get((entry["learner"], entry["adversary"]), [])
            played = [r for r in rows if r.get("status") != "error"]
            ratios = [r["ratio"] for r in played if r.get("ratio") is not None]
            quantities = sorted({r["bound_quantity"] for r in played if r.get("bound_quantity")})
            forced = [r["forced"] for r in played if r.get("forced") is not None]
            out.append(
                {
                    "learner": entry["learner"],
                    "adversary": entry["adversary"],
                    "status": entry["status"],
                    "reason": entry["reason"],
                    "games": len(played),
                    "errors": len(rows) - len(played),
                    "mistakes_mean": _mean([r.get("mistakes") for r in played]),
                    "regret_mean": _mean([r.get("regret") for r in played]),
                    "ratio_mean": _mean(ratios),
                    "ratio_max": max(ratios) if ratios else None,
                    "bound_quantity": ", ".join(quantities) or None,
                    "violations": sum(r.get("within_bound") is False for r in played),
                    "lower_bound_mean": _mean([r.get("lower_bound") for r in played]),
                    "forced": sum(bool(f) for f in forced) if forced else None,
                }
            )
        return out

    def matrix(self, quantity: str = "mistakes") -> np.ndarray:
        """The mean of ``quantity`` per pair: learners × adversaries, NaN where none.

        Parameters
        ----------
        quantity : {"mistakes", "regret", "ratio"}
            See :data:`QUANTITIES`. NaN marks a pair not played (unfit or
            failed) or whose games have no such value (no experts, no bound).
        """
        check_choice("quantity", quantity, QUANTITIES)
        out = np.full((len(self.learners), len(self.adversaries)), np.nan)
        li = {name: i for i, name in enumerate(self.learners)}
        ai = {name: j for j, name in enumerate(self.adversaries)}
        for s in self.summary():
            value = s[f"{quantity}_mean"]
            if value is not None:
                out[li[s["learner"]], ai[s["adversary"]]] = value
        return out

    def status_matrix(self) -> list[list[str]]:
        """Each pair's status (``played``, ``unfit``, ``failed``): learners × adversaries."""
        by = {(p["learner"], p["adversary"]): p["status"] for p in self.pairs}
        return [[by[(lr, ad)] for ad in self.adversaries] for lr in self.learners]

    # -- files -----------------------------------------------------------------
    def to_rows(self, *, unplayed: bool = True) -> list[dict]:
        """The games' rows, then (``unplayed``) one row per pair without games.

        Such a pair's row has an empty seed, its status (``unfit`` or
        ``failed``) and its reason; so a CSV of the rows says what every pair
        came to (a pair failed in round 1 has its games' rows, each with the error).
        """
        rows = [dict(r) for r in self.rows]
        if unplayed:
            with_games = {(r["learner"], r["adversary"]) for r in self.rows}
            for p in self.pairs:
                if p["status"] != "played" and (p["learner"], p["adversary"]) not in with_games:
                    row = dict.fromkeys(TOURNAMENT_COLUMNS)
                    row.update(
                        learner=p["learner"],
                        adversary=p["adversary"],
                        status=p["status"],
                        reason=p["reason"],
                    )
                    rows.append(row)
        return rows

    def _table(self) -> SweepResult:
        return SweepResult(rows=self.to_rows(), columns=list(TOURNAMENT_COLUMNS))

    def to_csv(self, path: str | os.PathLike) -> Path:
        """Write :meth:`to_rows` as CSV (as :meth:`game.SweepResult.to_csv` writes its table).

        Examples
        --------
        >>> import tempfile, csv
        >>> r = TournamentResult(rows=[], pairs=[{"learner": "a", "adversary": "x",
        ...     "status": "unfit", "reason": "kinds differ"}], learners=["a"], adversaries=["x"])
        >>> path = r.to_csv(Path(tempfile.mkdtemp()) / "t.csv")
        >>> row = next(csv.DictReader(path.open()))
        >>> row["learner"], row["status"], row["reason"], row["mistakes"]
        ('a', 'unfit', 'kinds differ', '')
        """
        return self._table().to_csv(path)

    def save(self, path: str | os.PathLike, *, overwrite: bool = True) -> Path:
        """Write :meth:`to_rows` to ``.csv`` or ``.parquet`` (see :meth:`game.SweepResult.save`)."""
        return self._table().save(path, overwrite=overwrite)

    def to_pandas(self):
        """:meth:`to_rows` as a ``pandas.DataFrame`` (needs pandas)."""
        return self._table().to_pandas()

    def _repr_png_(self) -> bytes | None:
        """The heat map of mean mistakes (:func:`game.viz.plots.plot_tournament`), for Jupyter."""
        from game.viz.plots import figure_bytes, plot_tournament

        try:
            return figure_bytes(plot_tournament(self), "png", dpi=80)
        except GameError:
            return None
