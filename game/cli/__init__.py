"""The command line, ``python -m game``: one module per command family.

Each command family's module has ``add_parser(subparsers)`` and ``run(args,
console)``; :func:`main` builds the parser from them and turns every
:class:`game.errors.GameError` into one line on standard error and exit 2.
"""

from game.cli._main import main

__all__ = ["main"]
