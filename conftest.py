"""Collection setup for the doctests of the packages.

``learners/_weight_loop.py`` imports numba (the ``fast`` extra); without it
the module is not collected, and the learners take the numpy way.
"""

import importlib.util

collect_ignore = [] if importlib.util.find_spec("numba") else ["learners/_weight_loop.py"]
