"""``python -m game``: see :mod:`game.cli`."""

import sys

__all__: list[str] = []

from game.cli import main

if __name__ == "__main__":
    sys.exit(main())
