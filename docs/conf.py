"""Sphinx configuration of the documentation site.

Build it from the repository's root (needs the ``docs`` extra)::

    python -m sphinx -W --keep-going -n -b html docs docs/_build/html

Everything the build makes goes under ``docs/_build/`` or into the git-ignored
``generated/`` folders beside the pages that list them (the API reference's
stubs, the gallery's pages and figures). The tutorials are executed on every
build, each in a temporary folder, and a cell that raises fails the build.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(DOCS / "_ext"))
# The tutorials' kernels import the packages of this checkout, wherever they run.
os.environ["PYTHONPATH"] = os.pathsep.join(
    [str(ROOT), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
)
# The kernels draw with matplotlib-inline, their default: a backend named here would win.
os.environ.pop("MPLBACKEND", None)

from game.transcript import versions  # noqa: E402

project = "online-learning-games"
author = "the online-learning-games authors"
copyright = "the online-learning-games authors"
release = versions().get("online-learning-games", "")
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "numpydoc",
    "myst_nb",
    "api_pages",
    "reexports",
    "scenario_gallery",
]

exclude_patterns = ["_build", "**.ipynb_checkpoints", "make_figures.py"]
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb"}
root_doc = "index"

# -- The API reference ---------------------------------------------------------------------
# The façades, in the order of the reference's index (api_pages writes their pages).
api_modules = [
    "game",
    "game.transcript",
    "game.theory",
    "game.theory.bounds",
    "game.theory.concepts",
    "game.theory.littlestone",
    "game.theory.solve",
    "game.players",
    "game.sweep",
    "game.testing",
    "game.testing.strategies",
    "game.viz",
    "game.viz.plots",
    "game.viz.animations",
    "game.viz.report",
    "game.human",
    "learners",
    "adversaries",
    "game.errors",
    "game.protocol",
    "game.engine",
    "game.scenario",
    "game.cli",
]
autosummary_generate = False  # api_pages writes every page
autodoc_typehints = "none"  # the numpydoc sections say the types
add_module_names = False
numpydoc_show_class_members = False  # autodoc lists the members

# Every cross-reference must resolve (-n), except to other projects' objects: the build
# runs offline, so it has no inventory of numpy's, matplotlib's or networkx's pages.
nitpick_ignore_regex = [
    (r"py:.*", r"(numpy|matplotlib|networkx|hypothesis|attrs|dask|distributed|pandas)(\..*)?"),
]

# -- Executed tutorials ----------------------------------------------------------------------
nb_execution_mode = "force"
nb_execution_raise_on_error = True
nb_execution_in_temp = True
nb_execution_timeout = 600
nb_execution_show_tb = True
myst_enable_extensions = ["dollarmath", "colon_fence"]

# -- HTML ------------------------------------------------------------------------------------
html_theme = "furo"
html_title = f"online-learning-games {release}"
html_static_path = ["_static"]
html_css_files = ["gallery.css"]
html_last_updated_fmt = None
