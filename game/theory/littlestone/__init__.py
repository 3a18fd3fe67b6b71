"""The Littlestone dimension: the exact ``ldim`` (a bitset engine), ``vcdim``,
shattered trees and the §21.4 halfspace tree, and tree files.
"""

from game.theory._ldim_engine import LdimEngine
from game.theory.littlestone._dimension import ldim, ldim_plain, vcdim
from game.theory.littlestone._files import read_tree, write_tree
from game.theory.littlestone._trees import (
    MAX_HALFSPACE_DEPTH,
    LittlestoneTree,
    halfspace_tree,
    is_shattered,
    littlestone_tree,
    tree_children,
    tree_depth,
    tree_root,
)

__all__ = [
    "MAX_HALFSPACE_DEPTH",
    "LdimEngine",
    "LittlestoneTree",
    "halfspace_tree",
    "is_shattered",
    "ldim",
    "ldim_plain",
    "littlestone_tree",
    "read_tree",
    "tree_children",
    "tree_depth",
    "tree_root",
    "vcdim",
    "write_tree",
]
