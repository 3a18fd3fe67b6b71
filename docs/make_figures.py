"""Draw the README's figures from the project's own scenarios.

Run from the repository's root (needs the ``plot`` extra)::

    python docs/make_figures.py [--format png|svg|pdf] [--out FOLDER]

It plays three scenarios of ``scenarios/`` and writes, beside this script (or
into ``--out``), as PNG unless ``--format`` says otherwise:

- ``perceptron_potential.png``: the Block–Novikoff proof round by round on
  ``perceptron_separable.toml`` (w·u against γ·k, ‖w‖² against R²·k);
- ``exponential_weights_regret.png``: Exponential Weights' loss and regret
  against Theorem 16.3's bound after every round (``exponential_weights_graded.toml``);
- ``tree_walk.png``: the Littlestone tree of the intervals over 32 points and
  the path the tree adversary walked against Halving (``tree_halving.toml``).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from game import load_scenario
from game.viz.plots import draw_tree, plot_potential, plot_regret, save_figure, walked_tree

HERE = Path(__file__).resolve().parent
SCENARIOS = HERE.parent / "scenarios"
DPI = 100


def main(argv: list[str] | None = None) -> None:
    """Play the three scenarios and write their figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--format", choices=("png", "svg", "pdf"), default="png")
    parser.add_argument("--out", type=Path, default=HERE, help="folder (default: docs/)")
    args = parser.parse_args(argv)
    perceptron = load_scenario(SCENARIOS / "perceptron_separable.toml").play(snapshots=True)
    ewa = load_scenario(SCENARIOS / "exponential_weights_graded.toml").play(snapshots=True)
    walk = load_scenario(SCENARIOS / "tree_halving.toml").play()
    tree = walked_tree(walk)
    figures = {
        "perceptron_potential": plot_potential(perceptron),
        "exponential_weights_regret": plot_regret(ewa),
        "tree_walk": draw_tree(tree, transcript=walk),
    }
    for name, fig in figures.items():
        print(save_figure(fig, args.out / f"{name}.{args.format}", dpi=DPI))


if __name__ == "__main__":
    main()
