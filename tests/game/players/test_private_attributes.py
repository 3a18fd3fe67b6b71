"""No module of ``game`` reads or writes a player's private attributes.

The rule, checked on the source of every module under ``game/``: an attribute
whose name is private (one leading underscore, or a mangled ``__name``; not a
``__dunder__``), written ``x._name`` or passed as a literal to ``getattr``,
``setattr``, ``hasattr`` or ``delattr``, may be read or written only

- on ``self`` or ``cls``; or
- when ``game`` itself declares that name (in a class body, as ``self._name``
  or ``cls._name`` in a method, or at a module's top level: the framework's
  own objects, such as a transcript's cache) and no built-in player
  (``learners``, ``adversaries``) declares it too; or
- when it is one of the few private attributes of the standard library's and
  Dask's executors that a sweep reads to count workers (``FOREIGN``).

So ``learner._w = ...`` or ``getattr(learner, "_alive", 0)`` in ``game`` fails:
a player offers what the framework needs through the public protocol of
:mod:`game.players` (its ``lockstep`` kernel, its declared fields).
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]

#: Private attributes of objects game does not define, read to count an executor's workers.
FOREIGN = {
    "_max_workers": "concurrent.futures executors' worker count",
    "_client": "distributed's ClientExecutor's client",
    "_processes": "ProcessPoolExecutor's worker processes (Ctrl-C reaches them)",
}

ACCESSORS = {"getattr", "setattr", "hasattr", "delattr"}


def private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def modules(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


def declared(paths: list[Path]) -> set[str]:
    """Private names the modules declare: in class bodies, on self/cls, at top level."""
    names: set[str] = set()
    for path in paths:
        tree = ast.parse(path.read_text(), str(path))
        scopes = [tree.body] + [n.body for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]
        for body in scopes:
            for node in body:
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    names.add(node.name)
                targets = []
                if isinstance(node, ast.Assign):
                    targets = node.targets
                elif isinstance(node, ast.AnnAssign | ast.AugAssign):
                    targets = [node.target]
                names.update(t.id for t in targets if isinstance(t, ast.Name))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.ctx, ast.Store)
                and isinstance(node.value, ast.Name)
                and node.value.id in ("self", "cls")
            ):
                names.add(node.attr)
    return {name for name in names if private(name)}


def accesses(source: str, filename: str = "<source>"):
    """Every private attribute access on something other than self/cls: (line, name, code)."""
    tree = ast.parse(source, filename)
    for node in ast.walk(tree):
        receiver, name = None, None
        if isinstance(node, ast.Attribute) and private(node.attr):
            receiver, name = node.value, node.attr
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ACCESSORS
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
            and private(node.args[1].value)
        ):
            receiver, name = node.args[0], node.args[1].value
        if name is None:
            continue
        if isinstance(receiver, ast.Name) and receiver.id in ("self", "cls"):
            continue
        yield node.lineno, name, ast.unparse(node)


def violations(source: str, filename: str, own: set[str], players: set[str]) -> list[str]:
    return [
        f"{filename}:{line}: {code}"
        for line, name, code in accesses(source, filename)
        if name not in FOREIGN and (name not in own or name in players)
    ]


@pytest.fixture(scope="module")
def names():
    return declared(modules("game")), declared(modules("learners") + modules("adversaries"))


def test_no_module_of_game_touches_a_private_attribute_of_a_player(names):
    own, players = names
    found = []
    for path in modules("game"):
        found += violations(path.read_text(), str(path.relative_to(ROOT)), own, players)
    assert found == []


@pytest.mark.parametrize(
    "line",
    [
        "learner._w = W[k].copy()",
        "learner._weights = weights",
        "w = getattr(learner, '_alive', 0)",
        "setattr(learner, '_size', 3)",
        "ok = hasattr(stream, '_rows')",
        "return replay._i",
        "weights._pending is None",
        "experts._Weights(d, eta)",
        "del learner.__secret",
    ],
)
def test_the_rule_catches_what_the_old_kernels_did(names, line):
    own, players = names
    assert violations(line, "<kernel>", own, players), line


@pytest.mark.parametrize(
    "line",
    [
        "self._w = 1",
        "cls._registry[name] = value",
        "transcript.__class__",
        "learner.weights",
        "getattr(executor, '_max_workers', None)",
    ],
)
def test_the_rule_lets_through_what_is_game_s_own(names, line):
    own, players = names
    assert not violations(line, "<game>", own, players), line


def test_game_s_own_private_names_are_not_the_players():
    own, players = declared(modules("game")), declared(modules("learners") + modules("adversaries"))
    touched = set()
    for path in modules("game"):
        touched |= {name for _, name, _ in accesses(path.read_text())}
    # the names game reads on objects other than self: none is also a player's private name
    assert touched & players == set()
    assert "_w" in players and "_alive" in players  # the scan sees the players' fields
    assert touched - FOREIGN.keys() <= own
