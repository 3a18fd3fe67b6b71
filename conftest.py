"""Collection setup for the doctests of the packages.

``learners/_weight_loop.py``, ``learners/_perceptron_loop.py``,
``adversaries/_compiled_draws.py`` and ``game/theory/_ldim_loop.py`` import
numba (the ``fast`` extra); where numba is missing or does not load, they are
not collected, and the learners, the streams and the Ldim engine take the
numpy way.
"""

from learners.weight_kernels import available

collect_ignore = (
    []
    if available()
    else [
        "learners/_weight_loop.py",
        "learners/_perceptron_loop.py",
        "adversaries/_compiled_draws.py",
        "game/theory/_ldim_loop.py",
    ]
)
