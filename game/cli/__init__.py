"""The command line, ``python -m game``: one module per command.

::

    python -m game run | play | replay | expect | list | sweep | tournament | plot | animate
                   | report | ldim | solve | margin | selfcheck
    python -m game --version
    online-learning-games ...   # the console script: the same commands

A command that takes a scenario takes a ``.toml`` file or the name of a
built-in scenario (:func:`game.builtin_scenarios`: ``perceptron-separable``),
so the shipped games play from any folder.

Each command's module (``_run``, ``_play``, ``_replay``, ``_expect``, ``_list``,
``_sweep``, ``_tournament``, ``_plot``, ``_animate``, ``_report``, ``_ldim``,
``_solve``, ``_margin``, ``_selfcheck``) has
``add_parser(subparsers)`` and ``run(args, console)``; :func:`main` builds the
parser from their list (:func:`script` is the console script: the same, under
its own name) and turns every :class:`game.errors.GameError` into one
line on standard error and exit 2. What they share (the console, the rounds'
progress bar) is in ``_output``: output that is not a terminal is never
wrapped or cut.
"""

from game.cli._main import main, script

__all__ = ["main", "script"]
