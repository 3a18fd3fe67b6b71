"""The table a sweep returns: one row per game, and per grid point a summary.

Rows are ordered by grid point, then by seed in the order the seeds were
given, whatever order the games finished in. Columns: ``point`` (with a
grid), the grid's keys, ``seed``, then :data:`game.sweep.ROW_COLUMNS`
(rounds, mistakes, updates, loss, bound, bound_quantity, within_bound,
lower_bound, forced, certificate_verified, status, reason, wall_time) and
``digest`` when asked for. A value that does not apply (no bound, a game that
ended with an error) is None.

Examples
--------
>>> from game.sweep import SweepResult
>>> rows = [{"seed": s, "mistakes": m, "updates": m, "bound": 4.0, "bound_quantity": "updates",
...          "within_bound": m <= 4, "status": "complete"} for s, m in [(0, 2), (1, 5)]]
>>> r = SweepResult(rows=rows, columns=["seed", "mistakes", "updates", "bound",
...                 "bound_quantity", "within_bound", "status"])
>>> s = r.summary()[0]
>>> s["games"], s["mistakes_max"], s["violations"], s["violation_seeds"]
(2, 5, 1, [1])
"""

from __future__ import annotations

import csv
import math
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from game.errors import GameError, check_real

__all__ = ["SweepResult"]


def _float(value: Any) -> float:
    return math.nan if value is None else float(value)


@attrs.define(eq=False)
class SweepResult:
    """One row per game played by :func:`game.sweep`.

    Parameters
    ----------
    rows : list of dict
        One dict per game, keyed by ``columns``.
    columns : list of str
        The table's columns, in order.
    points : list of dict
        Each grid point's parameters, in grid order (one empty dict without a grid).
    grid_keys : list of str
        The grid's keys (empty without a grid).
    scenario : str
        The scenario's path.
    requested : int
        How many games the sweep was asked to play.
    interrupted : bool
        The sweep was stopped (Ctrl-C) before every game was played; the rows
        are every game that finished.
    lockstep : int
        How many of the games were played in lockstep.
    elapsed : float
        The sweep's wall-clock seconds.
    """

    rows: list = attrs.field(factory=list)
    columns: list = attrs.field(factory=list)
    points: list = attrs.field(factory=lambda: [{}])
    grid_keys: list = attrs.field(factory=list)
    scenario: str = ""
    requested: int = 0
    interrupted: bool = False
    lockstep: int = 0
    elapsed: float = 0.0

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[dict]:
        return iter(self.rows)

    def __getitem__(self, index: int) -> dict:
        return self.rows[index]

    def __repr__(self) -> str:
        state = ", interrupted" if self.interrupted else ""
        return f"SweepResult({len(self)} games of {self.requested}{state})"

    @property
    def complete(self) -> bool:
        """Whether every requested game was played."""
        return not self.interrupted and len(self) == self.requested

    def column(self, name: str) -> list:
        """The values of one column, in row order."""
        if name not in self.columns and name != "point":
            raise GameError(f"no column {name!r}; the columns are {', '.join(self.columns)}")
        return [row.get(name) for row in self.rows]

    def matches(self, other: SweepResult) -> bool:
        """Whether two sweeps played the same games with the same outcomes (wall times aside).

        Examples
        --------
        >>> a = SweepResult(rows=[{"seed": 0, "wall_time": 0.1}], columns=["seed", "wall_time"])
        >>> b = SweepResult(rows=[{"seed": 0, "wall_time": 0.2}], columns=["seed", "wall_time"])
        >>> a.matches(b)
        True
        """

        def strip(rows):
            return [{k: v for k, v in row.items() if k != "wall_time"} for row in rows]

        return self.columns == other.columns and strip(self.rows) == strip(other.rows)

    def violations(self) -> list[dict]:
        """The rows of games that exceeded their bound (replay each with its seed)."""
        return [row for row in self.rows if row.get("within_bound") is False]

    def errors(self) -> list[dict]:
        """The rows of games that ended with an error (status ``"error"``)."""
        return [row for row in self.rows if row.get("status") == "error"]

    # -- summary ---------------------------------------------------------------
    def _repr_html_(self) -> str:
        """The figure, the summary table, then the rows, as HTML (for Jupyter)."""
        from game.viz import sweep_html

        return sweep_html(self, figure=self._repr_png_())

    def _repr_png_(self) -> bytes | None:
        """The sweep's figure (:func:`game.viz.plots.plot_sweep`) as PNG, for Jupyter.

        None without matplotlib (the ``plot`` extra) or without a finished game.
        """
        from game.errors import GameError
        from game.viz.plots import figure_bytes, plot_sweep

        try:
            return figure_bytes(plot_sweep(self), "png", dpi=80)
        except GameError:
            return None

    def summary(self, quantiles: Sequence[float] = (0.5, 0.9, 0.99)) -> list[dict]:
        """Per grid point: mistakes' mean, quantiles and max beside the bound, and violations.

        Parameters
        ----------
        quantiles : sequence of float
            The quantiles of mistakes to report, each in [0, 1]; q = 0.9 is
            reported as ``mistakes_q90`` (linear interpolation, numpy's default).

        Returns
        -------
        list of dict
            One per grid point that has games: its parameters, ``games``
            (finished without error), ``errors``, ``mistakes_mean``,
            ``mistakes_q…``, ``mistakes_max``, ``updates_mean``, ``updates_max``,
            ``loss_mean``, ``bound_quantity`` (what the bound counts), ``bound_min``
            and ``bound_median`` (the bound is evaluated on each game),
            ``violations`` (games over their bound), ``violation_seeds`` and
            ``error_seeds``.
        """
        quantiles = [check_real("quantiles", q, low=0, high=1) for q in quantiles]
        by_point: dict[int, list[dict]] = {}
        for row in self.rows:
            by_point.setdefault(row.get("point", 0), []).append(row)
        out = []
        for index in sorted(by_point):
            rows = by_point[index]
            played = [r for r in rows if r.get("status") != "error"]
            params = self.points[index] if index < len(self.points) else {}
            entry: dict[str, Any] = {**params, "games": len(played)}
            entry["errors"] = len(rows) - len(played)
            mistakes = np.array([_float(r.get("mistakes")) for r in played])
            updates = np.array([_float(r.get("updates")) for r in played])
            loss = np.array([_float(r.get("loss")) for r in played])
            empty = mistakes.size == 0
            entry["mistakes_mean"] = None if empty else float(mistakes.mean())
            for q in quantiles:
                entry[f"mistakes_q{q * 100:g}"] = None if empty else float(np.quantile(mistakes, q))
            entry["mistakes_max"] = None if empty else int(mistakes.max())
            entry["updates_mean"] = None if empty else float(updates.mean())
            entry["updates_max"] = None if empty else int(updates.max())
            entry["loss_mean"] = None if empty else float(loss.mean())
            bounds = np.array(
                [r["bound"] for r in played if r.get("bound") is not None], dtype=float
            )
            quantities = sorted({r["bound_quantity"] for r in played if r.get("bound_quantity")})
            entry["bound_quantity"] = ", ".join(quantities) or None
            entry["bound_min"] = float(bounds.min()) if bounds.size else None
            entry["bound_median"] = float(np.median(bounds)) if bounds.size else None
            bad = [r["seed"] for r in played if r.get("within_bound") is False]
            entry["violations"] = len(bad)
            entry["violation_seeds"] = bad
            entry["error_seeds"] = [r["seed"] for r in rows if r.get("status") == "error"]
            out.append(entry)
        return out

    # -- files -----------------------------------------------------------------
    def to_pandas(self):
        """The table as a ``pandas.DataFrame`` (needs pandas)."""
        try:
            import pandas as pd
        except ImportError:
            raise GameError("to_pandas needs pandas: pip install pandas") from None
        return pd.DataFrame(self.rows, columns=self.columns)

    def to_csv(self, path: str | os.PathLike) -> Path:
        """Write the table as CSV: a header line, then one line per game.

        None is written as an empty field, booleans as ``True``/``False``, floats
        in their shortest exact form, so ``pandas.read_csv`` reads the values back.
        """
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(path, "w", newline="", encoding="utf-8") as f:
                writer = csv.writer(f)
                writer.writerow(self.columns)
                for row in self.rows:
                    writer.writerow(
                        ["" if row.get(c) is None else row.get(c) for c in self.columns]
                    )
        except OSError as exc:
            raise GameError(f"{path}: cannot write the results: {exc.strerror}") from None
        return path

    def to_parquet(self, path: str | os.PathLike) -> Path:
        """Write the table as Parquet (needs pyarrow: the ``parquet`` extra)."""
        try:
            import pyarrow as pa
            import pyarrow.parquet as pq
        except ImportError:
            raise GameError(
                "Parquet output needs pyarrow: pip install 'online-learning-games[parquet]'"
            ) from None
        path = Path(path)
        columns = {c: [row.get(c) for row in self.rows] for c in self.columns}
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            pq.write_table(pa.table(columns), path)
        except OSError as exc:
            raise GameError(f"{path}: cannot write the results: {exc}") from None
        return path

    def save(self, path: str | os.PathLike, *, overwrite: bool = True) -> Path:
        """Write the table to ``.csv`` or ``.parquet``, chosen by the suffix.

        Parameters
        ----------
        path : path-like
            The file (its folder is made).
        overwrite : bool, default True
            Whether an existing file is replaced, as :func:`numpy.save` does;
            False refuses one (the command line's ``sweep --out`` without ``--force``).

        Examples
        --------
        >>> import tempfile
        >>> from pathlib import Path
        >>> result = SweepResult(rows=[{"seed": 0, "mistakes": 1}], columns=["seed", "mistakes"])
        >>> path = result.save(Path(tempfile.mkdtemp()) / "r.csv")
        >>> path.read_text().splitlines()
        ['seed,mistakes', '0,1']
        >>> result.save(path, overwrite=False)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        game.errors.GameError: .../r.csv: the file exists; not overwritten
        """
        suffix = Path(path).suffix
        if not overwrite and os.path.isfile(path):
            raise GameError(f"{os.fspath(path)}: the file exists; not overwritten")
        if suffix == ".csv":
            return self.to_csv(path)
        if suffix == ".parquet":
            return self.to_parquet(path)
        raise GameError(
            f"{path}: results are written to .csv or .parquet, not {suffix or 'no suffix'!r}"
        )
