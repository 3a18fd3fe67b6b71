"""The packages' public faces: ``__all__`` everywhere, and ``game`` never imports players.

Every module of ``game``, ``learners`` and ``adversaries`` (found by walking the
packages, so new modules are checked as they appear) declares ``__all__``, every
name in it exists, and each package's ``__init__`` exports exactly what it
imports. ``game`` is the referee: importing it or any of its modules must not
import ``learners`` or ``adversaries`` (DESIGN.md, Layout).
"""

import ast
import importlib
import inspect
import json
import pkgutil
import subprocess
import sys

import pytest

from learners.weight_kernels import available

PACKAGES = ("game", "learners", "adversaries")
SKIP = {"game.__main__"}  # a script: importing it runs the command line
if not available():  # the compiled loop needs numba (the fast extra)
    SKIP.add("learners._weight_loop")


def module_names():
    names = []
    for package in PACKAGES:
        names.append(package)
        module = importlib.import_module(package)
        for info in pkgutil.walk_packages(module.__path__, f"{package}."):
            if info.name not in SKIP:
                names.append(info.name)
    return names


MODULES = module_names()
PACKAGE_NAMES = [name for name in MODULES if hasattr(importlib.import_module(name), "__path__")]


def test_the_walk_finds_the_core():
    for name in ("game.engine", "game.theory.bounds", "game.theory.bounds", "learners.perceptron"):
        assert name in MODULES
    assert {"game", "game.theory.bounds", "learners", "adversaries"} <= set(PACKAGE_NAMES)


@pytest.mark.parametrize("name", MODULES)
def test_every_module_declares_all_and_every_name_exists(name):
    module = importlib.import_module(name)
    assert hasattr(module, "__all__"), f"{name} has no __all__"
    exported = list(module.__all__)
    assert all(isinstance(n, str) for n in exported), f"{name}.__all__ holds a non-string"
    assert len(set(exported)) == len(exported), f"{name}.__all__ repeats a name"
    missing = [n for n in exported if not hasattr(module, n)]
    assert not missing, f"{name}.__all__ names what it lacks: {missing}"


def imported_names(package: str) -> set[str]:
    """The names a package's ``__init__`` binds with ``from … import …`` (public ones)."""
    source = inspect.getsource(importlib.import_module(package))
    names = set()
    for node in ast.parse(source).body:
        if isinstance(node, ast.ImportFrom) and node.module != "__future__":
            for alias in node.names:
                bound = alias.asname or alias.name
                if not bound.startswith("_"):
                    names.add(bound)
    return names


@pytest.mark.parametrize("package", PACKAGE_NAMES)
def test_each_package_exports_what_it_imports(package):
    exported = set(importlib.import_module(package).__all__)
    imported = imported_names(package)
    assert exported == imported, (
        f"{package}: in __all__ but not imported: {sorted(exported - imported)}; "
        f"imported but not in __all__: {sorted(imported - exported)}"
    )


def test_the_package_faces_name_the_core():
    import adversaries
    import game
    import learners

    assert {"play", "Transcript", "ProtocolError", "CertificateError", "Bound"} <= set(game.__all__)
    assert "Perceptron" in learners.__all__
    assert {"Replay", "SeparableStream"} <= set(adversaries.__all__)


PROBE = """
import importlib, json, pkgutil, sys

def players():
    return sorted(m for m in sys.modules if m.split(".")[0] in ("learners", "adversaries"))

import game
first = {"game": players()} if players() else {}
for info in pkgutil.walk_packages(game.__path__, "game."):
    if first or info.name == "game.__main__":
        continue
    importlib.import_module(info.name)
    if players():
        first = {info.name: players()}
print(json.dumps(first))
"""


def test_game_never_imports_the_players_at_module_level():
    result = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    leaked = json.loads(result.stdout.strip().splitlines()[-1])
    assert leaked == {}, f"importing this module imported players: {leaked}"
