"""References to objects documented under their façade's name.

The API reference documents each object where users import it: a package's
façade (``game.GameError``, ``game.theory.concepts.FiniteClass``), not the
private module that defines it. Docstrings name objects as their own module
sees them (``GameError``, ``game.errors.ParameterError``, ``Transcript.load``),
which Sphinx looks up only relative to the page's module. This extension
resolves such a reference when Sphinx finds no target: among the documented
objects whose name ends with the reference's, it keeps those that are the
very object the reference names (imported and compared by identity) or, for a
bare name, the same object under several façades; one object found links to
its documentation (under its defining module's name when that is documented,
else its shortest name). A reference to a name documented nowhere, or to two
different objects, is left unresolved and warns as usual.
"""

from __future__ import annotations

import importlib
from typing import Any

from docutils import nodes
from sphinx.addnodes import pending_xref
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util.nodes import make_refnode

_MISSING = object()


def _lookup(dotted: str) -> Any:
    """The object a dotted name imports to, or ``_MISSING``."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        except Exception:  # a module that fails to import is not a target
            return _MISSING
        for attribute in parts[cut:]:
            obj = getattr(obj, attribute, _MISSING)
            if obj is _MISSING:
                return _MISSING
        return obj
    return _MISSING


def _same(a: Any, b: Any) -> bool:
    if a is _MISSING or b is _MISSING:
        return False
    # Constants (numbers, strings) are compared by identity too: equal values are
    # not the same documented object.
    # A classmethod is bound anew on every lookup: compare the functions.
    return getattr(a, "__func__", a) is getattr(b, "__func__", b)


def _preferred(names: list[str], obj: Any) -> str:
    """The documented name to link to: the defining module's, else the shortest."""
    home = getattr(obj, "__module__", None)
    qualname = getattr(obj, "__qualname__", None)
    for name in names:
        if home and qualname and name == f"{home}.{qualname}":
            return name
    return min(names, key=lambda n: (n.count("."), len(n), n))


def resolve(
    app: Sphinx, env: BuildEnvironment, node: pending_xref, contnode: nodes.Element
) -> nodes.Element | None:
    """Resolve a Python reference that Sphinx left unresolved, as the module docstring says."""
    if node.get("refdomain") != "py":
        return None
    target = node["reftarget"].lstrip(".~")
    if not target or target.startswith("_"):
        return None
    objects = env.get_domain("py").objects
    module = node.get("py:module")
    cls = node.get("py:class")
    named = [_lookup(f"{module}.{cls}.{target}")] if module and cls else []
    named += [_lookup(f"{module}.{target}")] if module else []
    if "." in target:
        named.append(_lookup(target))
    named = [obj for obj in named if obj is not _MISSING]
    if named:
        # A name that imports: the documented names of that very object.
        last = "." + target.rsplit(".", 1)[-1]
        candidates = [name for name in objects if name.endswith(last)]
        found = {name: _lookup(name) for name in candidates}
        matches = [name for name, obj in found.items() if _same(obj, named[0])]
    else:
        # A name relative to no module: the documented names ending with it, if one object.
        suffix = "." + target
        candidates = [name for name in objects if name == target or name.endswith(suffix)]
        found = {name: _lookup(name) for name in candidates}
        first = next(iter(found.values()), _MISSING)
        matches = list(found) if all(_same(obj, first) for obj in found.values()) else []
    if not matches:
        return None
    name = _preferred(matches, found[matches[0]])
    entry = objects[name]
    return make_refnode(app.builder, node["refdoc"], entry.docname, entry.node_id, contnode, name)


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("missing-reference", resolve)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
