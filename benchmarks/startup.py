"""Start-up of the command line beside the start-up of numpy itself, in one run.

Times, interleaved, each in a fresh interpreter (best of ``--repeats``):

- ``python -c "import numpy"``: the floor every command pays;
- ``python -c "import game"``: the referee's vocabulary on top of numpy;
- ``python -m game run scenarios/perceptron_separable.toml --no-out``: a whole
  built-in game from the command line, its table printed (to a pipe);
- ``python -m game list --scenarios``: a command that plays nothing.

and prints each against the first. The figure that matters is the run's
ratio: target ≤ 1.4×. Beside it, the modules a run of the scenario loads that
it does not need (networkx, matplotlib, scipy, numba) are listed: none, if
the lazy imports hold.

Run: ``python benchmarks/startup.py [--repeats K]``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "scenarios" / "perceptron_separable.toml"
HEAVY = ("networkx", "matplotlib", "scipy", "numba")

COMMANDS = {
    "import numpy": [sys.executable, "-c", "import numpy"],
    "import game": [sys.executable, "-c", "import game"],
    "run perceptron-separable --no-out": [
        sys.executable, "-m", "game", "run", str(SCENARIO), "--no-out",
    ],
    "list --scenarios": [sys.executable, "-m", "game", "list", "--scenarios"],
}  # fmt: skip


def timed(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
    return time.perf_counter() - start


def loaded_by_run() -> list[str]:
    """The heavy modules a run of the scenario leaves in ``sys.modules``."""
    probe = (
        "import sys, runpy\n"
        f"sys.argv = ['game', 'run', {str(SCENARIO)!r}, '--no-out', '--quiet']\n"
        "try:\n    runpy.run_module('game', run_name='__main__')\n"
        "except SystemExit:\n    pass\n"
        f"print('loaded:' + ','.join(m for m in {HEAVY!r} if m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], check=True, capture_output=True, text=True, cwd=ROOT
    )
    line = [x for x in out.stdout.splitlines() if x.startswith("loaded:")][-1]
    return [m for m in line.removeprefix("loaded:").split(",") if m]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    for command in COMMANDS.values():  # warm the file cache and numba's, if any
        timed(command)
    best = {name: float("inf") for name in COMMANDS}
    for _ in range(args.repeats):
        for name, command in COMMANDS.items():
            best[name] = min(best[name], timed(command))
    floor = best["import numpy"]
    table = Table(title=f"start-up, best of {args.repeats}, fresh interpreters, interleaved")
    for column in ("command", "seconds", "÷ import numpy"):
        table.add_column(column, justify="left" if column == "command" else "right")
    for name, seconds in best.items():
        table.add_row(name, f"{seconds:.3f}", f"{seconds / floor:.2f}×")
    console = Console()
    console.print(table)
    heavy = loaded_by_run()
    console.print(
        "modules the run loads that it does not need: " + (", ".join(heavy) if heavy else "none")
    )
    console.print("target: run perceptron-separable --no-out ≤ 1.4× import numpy")


if __name__ == "__main__":
    main()
