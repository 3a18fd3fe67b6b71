"""``python -m game margin``: the best margin of a data set, and the Perceptrons' bounds from it.

::

    python -m game margin data.csv                   # labels ±1 in the last column
    python -m game margin X.npy --labels y.npy       # labels in a file of their own
    python -m game margin game.jsonl                 # a transcript's instances and labels
    python -m game margin data.csv --normalize       # every row scaled to unit length first

DATA is read as a :class:`~adversaries.Replay` reads its data: a ``.npy`` or
``.csv`` matrix of finite numbers (:func:`game.theory.read_array_file`), or a
``.jsonl`` transcript, whose instances and labels are the rounds played. In a
matrix the labels are the **last column**, unless ``--labels FILE`` names a
``.npy`` or ``.csv`` vector of them (then every column of DATA is an instance's).
A label is -1 or 1.

It prints γ* = max_{‖u‖=1} min_i y_i⟨u, x_i⟩ between the bounds
:func:`game.theory.solve.best_margin` proves, B = 1/γ* (Theorem 9.1's), R =
max ‖x_i‖, Block–Novikoff's (R/γ)² and Theorem 9.1's (RB)² with the margin the
separator attains (what a Perceptron replaying the data reports), and the
separator. Bad input is one line naming the file and what was wrong (exit 2).
"""

from __future__ import annotations

import argparse
import importlib
import time
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table
from rich.text import Text

from game.errors import GameError, ParameterError
from game.theory import read_array_file, refusal, row_norms

__all__ = ["add_parser", "load_data", "run"]

_SUFFIXES = (".npy", ".csv", ".jsonl")


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Add the ``margin`` command to an argparse subparsers object."""
    p = subparsers.add_parser(
        "margin",
        help="the best margin of a data set, its B, and the Perceptrons' bounds from them",
        description=(
            "The maximum-margin separator through the origin of a labelled data set: "
            "γ* with its proven bounds, B = 1/γ* (Theorem 9.1), R = max ‖x‖, "
            "Block–Novikoff's (R/γ)² and Theorem 9.1's (RB)²."
        ),
    )
    p.add_argument(
        "data",
        metavar="DATA",
        help=(
            "a .npy or .csv matrix, one example per row, its labels (-1 or 1) in the last "
            "column unless --labels is given; or a .jsonl transcript (its rounds' instances "
            "and labels)"
        ),
    )
    p.add_argument(
        "--labels",
        metavar="FILE",
        type=Path,
        help="a .npy or .csv vector of labels (-1 or 1), one per row of DATA "
        "(then every column of DATA is an instance's)",
    )
    p.add_argument(
        "--normalize",
        action="store_true",
        help="scale every row to unit length first (the Perceptron's normalize=True)",
    )
    return p


def _labels_of(values: np.ndarray, where: str) -> np.ndarray:
    """±1 labels, or a GameError naming where the first other value is (never the value)."""
    wrong = np.flatnonzero((values != 1) & (values != -1))
    if wrong.size:
        raise GameError(f"{where}: labels must be -1 or 1; row {wrong[0] + 1} is neither")
    return values.astype(np.int64)


def load_data(data: str | Path, labels: str | Path | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The examples and labels the command line names: (X, y).

    Parameters
    ----------
    data : path-like
        A ``.npy``/``.csv`` matrix (labels in its last column unless ``labels``
        is given) or a ``.jsonl`` transcript.
    labels : path-like, optional
        A ``.npy``/``.csv`` vector of labels, one per row of ``data``.

    Raises
    ------
    GameError
        One line naming the file and what is wrong with it (never what it holds).

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "d.csv"
    ...     _ = path.write_text("1,2,1\\n-3,1,-1\\n")
    ...     X, y = load_data(path)
    >>> X.tolist(), y.tolist()
    ([[1.0, 2.0], [-3.0, 1.0]], [1, -1])
    >>> load_data("d.txt")
    Traceback (most recent call last):
    ...
    game.errors.GameError: d.txt: a .txt file; expected a .npy or .csv matrix or a .jsonl transcript
    """
    path = Path(data)
    if path.suffix not in _SUFFIXES:
        raise GameError(
            f"{data}: a {path.suffix or 'suffixless'} file; "
            "expected a .npy or .csv matrix or a .jsonl transcript"
        )
    if path.suffix == ".jsonl":
        from game.transcript import Transcript

        if labels is not None:
            raise GameError(f"{labels}: a transcript holds its labels; --labels takes none")
        transcript = Transcript.load(path)  # its errors name the file and the line
        X = transcript.instances
        if (
            not isinstance(X, np.ndarray)
            or X.ndim != 2
            or X.dtype.kind not in "iuf"
            or X.shape[0] == 0
        ):
            raise GameError(
                f"{data}: the transcript's instances are not real vectors of one length"
            )
        return X.astype(np.float64), transcript.labels.astype(np.int64)
    array = read_array_file(path, fail=refusal(GameError, data), ndmin=2)
    if array.ndim != 2 or array.dtype.kind not in "iuf":
        raise GameError(f"{data}: expected a matrix of numbers, one example per row")
    if labels is None:
        if array.shape[1] < 2:
            raise GameError(
                f"{data}: one column; expected the instances' columns and the labels in the "
                "last (or give --labels FILE)"
            )
        return array[:, :-1].astype(np.float64), _labels_of(array[:, -1], f"{data}, last column")
    label_path = Path(labels)
    if label_path.suffix not in (".npy", ".csv"):
        raise GameError(
            f"{labels}: a {label_path.suffix or 'suffixless'} file; expected a .npy or .csv vector"
        )
    y = read_array_file(label_path, fail=refusal(GameError, labels))
    if y.ndim == 2 and 1 in y.shape:
        y = y.ravel()
    if y.ndim != 1 or y.shape[0] != array.shape[0]:
        raise GameError(
            f"{labels}: expected one label per row of {data} ({array.shape[0]}), "
            f"got an array of shape {y.shape}"
        )
    if y.dtype.kind not in "iuf":
        raise GameError(f"{labels}: labels must be -1 or 1")
    return array.astype(np.float64), _labels_of(y, str(labels))


def _vector(v: np.ndarray, shown: int = 6) -> str:
    head = ", ".join(f"{x:.4g}" for x in v[:shown])
    return f"({head}{', …' if v.size > shown else ''}) in dimension {v.size}"


def run(args: argparse.Namespace, console: Console) -> int:
    """Solve the best margin of DATA and print it with the bounds it gives."""
    from game.theory.bounds import batch_perceptron, block_novikoff
    from game.theory.solve import best_margin

    X, y = load_data(args.data, args.labels)
    if args.normalize:
        norms = row_norms(X)
        X = X / np.where(norms > 0, norms, 1.0)[:, None]
    importlib.import_module("scipy.optimize")  # the solver's, not timed with the solve
    start = time.perf_counter()
    try:
        found = best_margin(X, y)
    except ParameterError as exc:  # the data, as read, do not fit
        raise GameError(f"{args.data}: {exc.note or exc.expected}") from None
    elapsed = time.perf_counter() - start
    n, d = X.shape
    title = Text(str(args.data), style="table.title")
    table = Table(title=title, show_header=False, title_justify="left")
    table.add_column("", style="bold")
    table.add_column("", overflow="fold")
    origin = "labels from " + (str(args.labels) if args.labels else "the last column")
    if str(args.data).endswith(".jsonl"):
        origin = "the transcript's rounds"
    scaled = ", rows scaled to unit length" if args.normalize else ""
    table.add_row("examples", f"{n:,} × {d} ({origin}{scaled})")
    table.add_row("R = max ‖x‖", f"{found.radius:.6g}")
    if not found.separable:
        table.add_row("separable", Text(found.describe()))
        table.add_row("γ*", f"≤ {found.margin_high:.6g} (no positive margin: reported as 0)")
        table.add_row("B", "inf (no w with y⟨w, x⟩ ≥ 1 on every example)")
        table.add_row("bounds", "none: the Perceptrons' theorems need separable data")
    else:
        table.add_row("separable", "yes, through the origin")
        table.add_row(
            "γ*", f"∈ [{found.margin_low:.10g}, {found.margin_high:.10g}] (gap {found.gap:.3g})"
        )
        table.add_row("B = 1/γ*", f"∈ [{found.b_low:.10g}, {found.b_high:.10g}]")
        novikoff = block_novikoff(found.radius, found.margin_low)
        batch = batch_perceptron(found.radius, found.b_high)
        table.add_row("Block–Novikoff (R/γ)²", f"{novikoff.value:.6g}")
        table.add_row("Theorem 9.1 (RB)²", f"{batch.value:.6g}")
        table.add_row("separator u", Text(_vector(found.separator)))
    table.add_row("support vectors", f"{found.support.size:,}")
    table.add_row("time", f"{elapsed:.3f} s")
    console.print(table)
    return 0
