"""Each theorem of the sources as a function returning a :class:`Bound`.

Every function names its source (seed text, lecture, theorem number) in the
returned bound, so a summary says not only the number but where it comes from.

Examples
--------
>>> from game.bounds import block_novikoff
>>> print(block_novikoff(2.0, 0.5).value)
16.0
"""

from game.bounds.base import Bound
from game.bounds.linear import block_novikoff

__all__ = ["Bound", "block_novikoff"]
