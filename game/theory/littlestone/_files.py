"""Tree files: :func:`write_tree` writes GraphML (through networkx) or DOT;
:func:`read_tree` reads GraphML back, instances and witnesses included.

Examples
--------
>>> import tempfile
>>> from pathlib import Path
>>> from game.theory.concepts import thresholds
>>> from game.theory.littlestone import littlestone_tree, read_tree, write_tree
>>> tree = littlestone_tree(thresholds(7))
>>> path = write_tree(tree, Path(tempfile.mkdtemp()) / "t.graphml")
>>> read_tree(path).nodes[1]["instance"] == tree.nodes[1]["instance"]
True
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import networkx as nx
import numpy as np

from game.errors import ParameterError

__all__ = ["read_tree", "write_tree"]


def _encode(value: Any) -> Any:
    if isinstance(value, np.ndarray | list | tuple):
        return json.dumps(np.asarray(value).tolist())
    if isinstance(value, np.generic):
        return value.item()
    return value


def _decode(value: Any) -> Any:
    if isinstance(value, str) and value.startswith("["):
        try:
            return np.asarray(json.loads(value), dtype=np.float64)
        except ValueError:
            return value
    return value


def write_tree(tree: nx.DiGraph, path: str | Path) -> Path:
    """Write a tree as GraphML (``.graphml``, through networkx) or Graphviz DOT (``.dot``).

    Vector attributes (a halfspace tree's instances and witnesses) are written
    as JSON lists in strings; :func:`read_tree` turns them back into arrays.
    An attribute that is None is left out (GraphML has no null), so it reads
    back absent.

    Examples
    --------
    >>> import tempfile, os
    >>> from game.theory.concepts import thresholds
    >>> from game.theory.littlestone import littlestone_tree
    >>> t = littlestone_tree(thresholds(3))
    >>> with tempfile.TemporaryDirectory() as d:
    ...     back = read_tree(write_tree(t, os.path.join(d, "t.graphml")))
    >>> sorted(back.nodes(data="instance")) == sorted(t.nodes(data="instance"))
    True
    """
    path = Path(path)
    if path.suffix == ".graphml":
        out = nx.DiGraph(**_written(tree.graph))
        for node, data in tree.nodes(data=True):
            out.add_node(node, **_written(data))
        for a, b, data in tree.edges(data=True):
            out.add_edge(a, b, **_written(data))
        nx.write_graphml(out, path)
    elif path.suffix in (".dot", ".gv"):
        path.write_text(_dot(tree), encoding="utf-8")
    else:
        raise ParameterError("path", str(path), "a .graphml or .dot file")
    return path


def _written(data: dict) -> dict:
    """The attributes GraphML can hold, encoded; None is left out."""
    return {k: _encode(v) for k, v in data.items() if v is not None}


def _dot_text(value: Any) -> str:
    if isinstance(value, np.ndarray):
        value = "(" + ", ".join(f"{v:g}" for v in value.tolist()) + ")"
    return str(value).replace("\\", "\\\\").replace('"', '\\"')


def _dot(tree: nx.DiGraph) -> str:
    lines = ["digraph littlestone {", '  node [fontname="Helvetica"];']
    for node, data in sorted(tree.nodes(data=True)):
        if "instance" in data:
            shown = data.get("point_name", data["instance"])
            lines.append(f'  {node} [label="x = {_dot_text(shown)}"];')
        else:
            shown = data.get("witness_name", data.get("witness", ""))
            lines.append(f'  {node} [label="{_dot_text(shown)}", shape=box];')
    for a, b, label in sorted(tree.edges(data="label")):
        lines.append(f'  {a} -> {b} [label="{label:+d}"];')
    lines.append("}")
    return "\n".join(lines) + "\n"


def read_tree(path: str | Path) -> nx.DiGraph:
    """Read a tree written by :func:`write_tree` as GraphML (node ids back to ints)."""
    path = Path(path)
    if path.suffix != ".graphml":
        raise ParameterError("path", str(path), "a .graphml file")
    raw = nx.read_graphml(path, node_type=int)
    tree = nx.DiGraph(**{k: _decode(v) for k, v in raw.graph.items()})
    for node, data in raw.nodes(data=True):
        tree.add_node(node, **{k: _decode(v) for k, v in data.items()})
    for a, b, data in raw.edges(data=True):
        tree.add_edge(a, b, **{k: _decode(v) for k, v in data.items()})
    return tree
