"""The import graph of ``game``, read from the source: no cycles, a pure theory, no players.

Every ``import`` and ``from … import …`` statement of every module of ``game``
is read with :mod:`ast`, wherever it stands (at module level, inside a class,
inside a function), and drawn as an edge between modules of ``game``. A
package's ``__init__`` is a module of its own, named for the package.

What an edge is
    Module M *imports* module T when a statement of M names T:
    ``import game.a.b`` and ``from game.a.b import name`` name ``game.a.b``,
    or ``game.a.b.name`` when ``name`` is a submodule (``from game.theory
    import bounds`` names ``game.theory.bounds``). Relative imports are
    resolved against M's package.

    Python runs a package's ``__init__`` before any of its submodules, so
    naming ``game.x._y`` from outside ``game.x`` also imports the façade
    ``game.x``: M gets an edge to every package above T that M is not itself
    inside. From inside ``game.x`` the façade is already being run, so a private
    module naming its sibling ``game.x._z`` draws no edge to ``game.x``. A façade
    importing its own private modules is therefore an ordinary edge, and only
    becomes part of a cycle when something it imports leads back to it.

What a cycle is
    A strongly connected component of that graph with more than one module.
    ``game.theory._certificates`` → (inside a function) ``game.theory.concepts``
    → ``game.theory.concepts._finite`` → ``game.theory._certificates`` is one.
    Imports inside functions count: they run later, but the two modules still
    cannot be understood, tested or moved apart.

The rules (DESIGN.md, Layout): no cycles among ``game``'s modules;
``game.theory`` imports nothing of the project outside itself but
``game.errors``, and of third-party packages only its numerical kind (the
standard library is free); nothing in ``game`` imports ``learners`` or
``adversaries`` at module level (inside a function it may: the registry
imports a player when it is looked up); only ``game.testing.strategies``
imports hypothesis (the ``testing`` extra).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import attrs
import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "game"

#: Third-party packages the theory may import (beside the standard library).
THEORY_THIRD_PARTY = frozenset({"numpy", "networkx", "attrs", "scipy"})
#: The theory's compiled loop and the helper that compiles every loop of the package, which
#: import numba only once it is wanted (the ``fast`` extra).
THEORY_COMPILED = {
    "game.theory._ldim_loop": frozenset({"numba", "llvmlite"}),
    "game.theory._compiled": frozenset({"numba"}),
}
#: The project's own modules the theory may import, beside its own.
THEORY_MAY_IMPORT = ("game.errors",)
#: The players: imported by ``game`` only inside functions.
PLAYERS = ("learners", "adversaries")
#: The only modules of ``game`` that may import hypothesis (at any level).
HYPOTHESIS_USERS = "game.testing.strategies"


@attrs.frozen
class Import:
    """One import statement's target, as written, in a module of ``game``."""

    module: str  # the importing module
    target: str  # the module named (resolved to a submodule where one exists)
    line: int
    deferred: bool  # inside a function body: runs when the function is called


def module_files(package: str = PACKAGE) -> dict[str, Path]:
    """Every module of ``package`` by dotted name (a package by its own name)."""
    modules = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


MODULES = module_files()


def _is_package(name: str) -> bool:
    return MODULES.get(name, Path()).name == "__init__.py"


def _resolve_relative(module: str, level: int, name: str | None) -> str:
    package = module if _is_package(module) else module.rpartition(".")[0]
    base = package.split(".")
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join(base + ([name] if name else []))


class _Collector(ast.NodeVisitor):
    def __init__(self, module: str):
        self.module = module
        self.depth = 0  # how many function bodies enclose the statement
        self.found: list[Import] = []

    def _function(self, node) -> None:
        for decorator in node.decorator_list:  # run when the function is defined
            self.visit(decorator)
        self.depth += 1
        for statement in node.body:
            self.visit(statement)
        self.depth -= 1

    visit_FunctionDef = visit_AsyncFunctionDef = _function

    def _add(self, target: str, node: ast.stmt) -> None:
        self.found.append(Import(self.module, target, node.lineno, self.depth > 0))

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._add(alias.name, node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level:
            base = _resolve_relative(self.module, node.level, node.module)
        else:
            base = node.module or ""
        for alias in node.names:
            submodule = f"{base}.{alias.name}"
            self._add(submodule if submodule in MODULES else base, node)


def imports_of(module: str) -> list[Import]:
    """Every import statement of ``module``, one entry per name it imports."""
    collector = _Collector(module)
    collector.visit(ast.parse(MODULES[module].read_text(encoding="utf-8")))
    return collector.found


IMPORTS = [found for module in MODULES for found in imports_of(module)]


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def _owner(target: str) -> str | None:
    """The module of ``game`` a dotted target lives in (None when it is outside ``game``)."""
    while target and target not in MODULES:
        target = target.rpartition(".")[0]
    return target or None


def import_graph() -> nx.DiGraph:
    """Modules of ``game`` and the edges drawn from their imports (see the module's text)."""
    graph = nx.DiGraph()
    graph.add_nodes_from(MODULES)
    for found in IMPORTS:
        target = _owner(found.target)
        if target is None:
            continue
        graph.add_edge(found.module, target)
        parts = target.split(".")
        for i in range(1, len(parts)):
            package = ".".join(parts[:i])
            if not _within(found.module, package):
                graph.add_edge(found.module, package)
    graph.remove_edges_from(nx.selfloop_edges(graph))
    return graph


GRAPH = import_graph()


def cycles(graph: nx.DiGraph) -> list[frozenset[str]]:
    """The strongly connected components with more than one module."""
    return [frozenset(c) for c in nx.strongly_connected_components(graph) if len(c) > 1]


def _lines(graph: nx.DiGraph, component: frozenset[str]) -> str:
    """One loop through ``component``, each step with the statements that draw it."""
    loop = nx.find_cycle(graph.subgraph(component))
    steps = []
    for a, b in loop:
        where = sorted(
            {
                f"line {f.line}{' (in a function)' if f.deferred else ''}"
                for f in IMPORTS
                if f.module == a and (_owner(f.target) == b or _within(_owner(f.target) or "", b))
            }
        )
        steps.append(f"    {a} -> {b}  [{', '.join(where)}]")
    return "\n".join(steps)


# -- the walk itself -------------------------------------------------------------------------------
def test_the_walk_reads_every_kind_of_import():
    assert {"game", "game.theory", "game.theory._certificates", "game.engine"} <= set(MODULES)
    assert _resolve_relative("game.theory._certificates", 1, "_losses") == "game.theory._losses"
    assert _resolve_relative("game.theory.bounds", 1, "_base") == "game.theory.bounds._base"
    assert _resolve_relative("game.theory.bounds._base", 2, "_losses") == "game.theory._losses"
    targets = {(f.module, f.target) for f in IMPORTS}
    # a plain import, a from-import of a submodule, and an import inside a function
    assert ("game.theory._certificates", "attrs") in targets
    assert ("game", "game.engine") in targets
    deferred = [f for f in IMPORTS if f.deferred and f.module == "game.transcript._transcript"]
    assert {f.target for f in deferred} >= {"game.viz"}


def test_a_private_module_naming_a_sibling_does_not_draw_its_facade():
    graph = nx.DiGraph()
    graph.add_edge("game.x", "game.x._a")
    assert not cycles(graph)
    # what import_graph draws for a sibling import from inside game.x: no edge to game.x
    edges = {(a, b) for a, b in GRAPH.edges if a.startswith("game.theory.bounds._")}
    assert ("game.theory.bounds._linear", "game.theory.bounds") not in edges


def test_the_rule_catches_a_cycle_through_a_facade():
    """A certificate module reaching the concepts' façade, which leads back to it."""
    graph = nx.DiGraph()
    for a, b in [
        ("game.theory.concepts", "game.theory.concepts._finite"),
        ("game.theory.concepts._finite", "game.theory._certificates"),
        ("game.theory._certificates", "game.theory.concepts"),
    ]:
        graph.add_edge(a, b)
    assert cycles(graph) == [
        frozenset(
            {"game.theory._certificates", "game.theory.concepts", "game.theory.concepts._finite"}
        )
    ]


# -- the rules -------------------------------------------------------------------------------------
def test_game_has_no_import_cycles():
    found = sorted(sorted(c) for c in cycles(GRAPH))
    report = [
        f"import cycle among {', '.join(c)}; one loop:\n{_lines(GRAPH, frozenset(c))}"
        for c in found
    ]
    assert not report, "\n".join(report)


def _first_party(target: str) -> bool:
    return target.split(".")[0] in (PACKAGE, *PLAYERS)


def test_the_theory_imports_only_itself_the_errors_and_numerical_packages():
    stdlib = sys.stdlib_module_names
    bad = []
    for f in IMPORTS:
        if not _within(f.module, "game.theory"):
            continue
        top = f.target.split(".")[0]
        if _first_party(f.target):
            allowed = any(_within(f.target, p) for p in ("game.theory", *THEORY_MAY_IMPORT))
        else:
            allowed = (
                top in stdlib
                or top in THEORY_THIRD_PARTY
                or top == "__future__"
                or top in THEORY_COMPILED.get(f.module, ())
            )
        if not allowed:
            bad.append(f"{f.module} line {f.line} imports {f.target}")
    assert not bad, "game.theory reaches outside itself:\n" + "\n".join(bad)


def test_game_imports_players_only_inside_functions():
    bad = [
        f"{f.module} line {f.line} imports {f.target} at module level"
        for f in IMPORTS
        if f.target.split(".")[0] in PLAYERS and not f.deferred
    ]
    assert not bad, "\n".join(bad)


def test_the_walk_sees_players_imported_inside_functions():
    """The rule above has something to look at: some functions of ``game`` import players."""
    deferred = [f for f in IMPORTS if f.target.split(".")[0] in PLAYERS and f.deferred]
    assert deferred


def test_only_the_strategies_import_hypothesis():
    users = {f.module for f in IMPORTS if f.target.split(".")[0] == "hypothesis"}
    assert users, "the strategies import hypothesis: the walk should see it"
    outside = sorted(m for m in users if not _within(m, HYPOTHESIS_USERS))
    assert not outside, f"only {HYPOTHESIS_USERS} may import hypothesis; also: {outside}"


@pytest.mark.parametrize("module", ["game", "game.testing"])
def test_importing_leaves_hypothesis_alone(module):
    probe = f"import sys, {module}; print('hypothesis' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False", f"import {module} imported hypothesis"


def _private_package(target: str) -> str | None:
    """The package whose private module ``target`` is (``game.x`` for ``game.x._y.z``), or None."""
    parts = target.split(".")
    for i, part in enumerate(parts):
        if part.startswith("_") and not part.startswith("__"):
            return ".".join(parts[:i])
    return None


def test_a_room_reaches_another_only_through_its_facade():
    """``game.x._y`` is imported only from inside ``game.x``; other rooms use ``game.x``."""
    bad = []
    for f in IMPORTS:
        owner = _private_package(f.target) if _within(f.target, PACKAGE) else None
        if owner is not None and not _within(f.module, owner):
            bad.append(f"{f.module} line {f.line} imports {f.target}: use the façade {owner}")
    assert not bad, "\n".join(bad)
