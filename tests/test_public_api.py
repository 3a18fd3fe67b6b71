"""The packages' public faces: ``__all__`` everywhere, and ``game`` never imports players.

Every module of ``game``, ``learners`` and ``adversaries`` (found by walking the
packages, so new modules are checked as they appear) declares ``__all__``, every
name in it exists, and each package's ``__init__`` exports exactly what it
imports, in an ``__all__`` written out as a list of names. Inside ``game``'s
subpackages every module is private (``_name.py``) behind its package's
``__init__``; ``game`` itself holds exactly the rooms of DESIGN.md's Layout, and
``game.__all__`` is the deliberate surface. ``game`` is the referee: importing
it or any of its modules must not import ``learners`` or ``adversaries``
(DESIGN.md, Layout).

Run as a script, this file prints how many distinct objects the ``__all__``
lists make public.
"""

import ast
import importlib
import inspect
import json
import pkgutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from learners.weight_kernels import available

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("game", "learners", "adversaries")
SKIP = {"game.__main__"}  # a script: importing it runs the command line
if not available():  # the compiled loops need numba (the fast extra)
    SKIP |= {"learners._weight_loop", "learners._perceptron_loop", "adversaries._compiled_draws"}


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
    """The names a package's ``__init__`` binds with ``from … import …`` (public ones).

    A façade that imports its modules when a name is first used (``learners``,
    ``adversaries``) lists those names in its ``_WHERE`` table instead.
    """
    module = importlib.import_module(package)
    source = inspect.getsource(module)
    names = set(getattr(module, "_WHERE", {}))
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


def package_folders() -> list[Path]:
    """Every folder of the packages that holds Python files."""
    return sorted({path.parent for package in PACKAGES for path in (ROOT / package).rglob("*.py")})


def test_every_folder_of_python_files_is_a_package():
    folders = package_folders()
    assert ROOT / "game" / "theory" / "bounds" in folders
    loose = [str(f.relative_to(ROOT)) for f in folders if not (f / "__init__.py").is_file()]
    assert not loose, f"folders of modules without an __init__.py: {loose}"


def written_all(package: str) -> list[str] | None:
    """The names of ``__all__`` when the ``__init__`` assigns it a literal list of strings."""
    source = inspect.getsource(importlib.import_module(package))
    for node in ast.parse(source).body:
        targets = [node.target] if isinstance(node, ast.AnnAssign) else getattr(node, "targets", [])
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
            value = node.value
            if isinstance(value, ast.List | ast.Tuple) and all(
                isinstance(e, ast.Constant) and isinstance(e.value, str) for e in value.elts
            ):
                return [e.value for e in value.elts]
            return None
    return None


@pytest.mark.parametrize("package", PACKAGE_NAMES)
def test_each_package_writes_out_its_all(package):
    written = written_all(package)
    assert written is not None, f"{package}/__init__.py must assign __all__ a list of names"
    assert written == list(importlib.import_module(package).__all__), (
        f"{package}.__all__ is changed after it is written"
    )


def test_inside_the_rooms_every_module_is_private():
    inside = [n for n in MODULES if n.startswith("game.") and n.count(".") >= 2]
    assert "game.theory._certificates" in inside and "game.testing.strategies" in inside
    public = [
        n for n in inside if n not in PACKAGE_NAMES and not n.rpartition(".")[2].startswith("_")
    ]
    assert not public, f"modules inside game's subpackages are private (_name.py): {public}"


#: The modules at the top of ``game`` (DESIGN.md, Layout).
TOP_MODULES = {"errors", "protocol", "engine", "scenario", "__main__"}
#: The rooms of ``game``: its subpackages.
ROOMS = {"transcript", "theory", "players", "sweep", "testing", "viz", "cli", "human"}


def test_game_holds_exactly_its_top_modules_and_rooms():
    top = list(pkgutil.iter_modules(importlib.import_module("game").__path__))
    modules = {m.name for m in top if not m.ispkg}
    packages = {m.name for m in top if m.ispkg}
    assert modules == TOP_MODULES, (
        f"top-level modules of game: extra {sorted(modules - TOP_MODULES)}, "
        f"missing {sorted(TOP_MODULES - modules)}"
    )
    assert packages == ROOMS, (
        f"subpackages of game: extra {sorted(packages - ROOMS)}, missing {sorted(ROOMS - packages)}"
    )


#: ``game.__all__``, the deliberate surface: these names and every error of game.errors.
SURFACE = {
    "play",
    "play_batch",
    "Transcript",
    "Round",
    "Scenario",
    "load_scenario",
    "builtin_scenarios",
    "sweep",
    "SweepResult",
    "tournament",
    "TournamentResult",
    "HumanLearner",
    "HumanAdversary",
    "register",
    "Learner",
    "Adversary",
    "History",
    "Bound",
    "Certificate",
    "HalfspaceCertificate",
}


def test_game_exports_its_deliberate_surface():
    import game
    import game.errors

    errors = {n for n in game.errors.__all__ if isinstance(getattr(game.errors, n), type)}
    expected = SURFACE | errors
    exported = set(game.__all__)
    assert exported == expected, (
        f"game.__all__: unexpected {sorted(exported - expected)}, "
        f"missing {sorted(expected - exported)}"
    )
    for name in errors:
        assert getattr(game, name) is getattr(game.errors, name)


def _identity(name: str, value) -> object:
    """What tells public objects apart: the object itself, or a constant's name and value."""
    if isinstance(value, int | float | str | bytes | tuple | frozenset | type(None)):
        return ("constant", name, repr(value))
    return ("object", id(value))


def public_objects(packages=PACKAGES, *, public_modules_only: bool = False) -> dict:
    """Distinct objects named by the ``__all__`` lists of ``packages``' modules.

    Returns a dict with ``modules`` (how many ``__all__`` lists were read),
    ``names`` (entries over all of them) and ``objects`` (distinct objects: one
    re-exported by a façade counts once).
    """
    lists, entries, seen = 0, 0, set()
    for name in MODULES:
        if name.split(".")[0] not in packages:
            continue
        if public_modules_only and any(p.startswith("_") for p in name.split(".")):
            continue
        module = importlib.import_module(name)
        lists += 1
        for exported in module.__all__:
            entries += 1
            seen.add(_identity(exported, getattr(module, exported)))
    return {"modules": lists, "names": entries, "objects": len(seen)}


def test_the_public_objects_are_counted_once_each():
    import game

    everything = public_objects(("game",))
    faces = public_objects(("game",), public_modules_only=True)
    print(f"game: {everything} over every module, {faces} over the public ones")
    # a name re-exported by a façade is the same object: fewer objects than entries
    assert everything["objects"] < everything["names"]
    assert len(game.__all__) <= faces["objects"] <= everything["objects"]


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


PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("package", PACKAGES)
def test_each_package_ships_its_py_typed_marker(package):
    assert (ROOT / package / "py.typed").is_file()
    assert "py.typed" in PYPROJECT["tool"]["setuptools"]["package-data"][package]


def test_hypothesis_is_the_testing_extra_and_dev_includes_it():
    project = PYPROJECT["project"]
    extras = project["optional-dependencies"]

    def named(requirements):
        return {r.split("[")[0].split(">")[0].split("=")[0].strip() for r in requirements}

    assert "hypothesis" not in named(project["dependencies"])
    assert named(extras["testing"]) == {"hypothesis"}
    assert f"{project['name']}[testing]" in extras["dev"]
    assert "hypothesis" not in named(extras["dev"])  # it comes through the testing extra


if __name__ == "__main__":
    for packages in (("game",), ("learners",), ("adversaries",), PACKAGES):
        everything = public_objects(packages)
        faces = public_objects(packages, public_modules_only=True)
        print(
            f"{' + '.join(packages)}: {everything['objects']} distinct public objects in "
            f"{everything['modules']} __all__ lists; {faces['objects']} in the "
            f"{faces['modules']} lists of public modules"
        )
