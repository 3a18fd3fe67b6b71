"""Collection setup for the doctests of the packages.

``learners/_weight_loop.py`` imports numba (the ``fast`` extra); where numba
is missing or does not load, the module is not collected, and the learners
take the numpy way.
"""

from learners.weight_kernels import available

collect_ignore = [] if available() else ["learners/_weight_loop.py"]
