"""Littlestone dimension, VC dimension and shattered trees.

Shalev-Shwartz & Ben-David, *Understanding Machine Learning*, §21.1.1 (the
chapter of seed 000): a tree of depth d whose internal nodes are instances
is *shattered* by H when every root-to-leaf path, reading the label on each
edge, is realised by some h ∈ H (Definition 21.4); Ldim(H) is the largest
depth of a shattered tree (Definition 21.5); no learner has a mistake bound
below Ldim(H) (Lemma 21.6) and the Standard Optimal Algorithm attains it
(Lemma 21.7). §21.4 (seed 000) shows halfspaces in d ≥ 2 dimensions shatter
trees of every depth.

Trees are ``networkx.DiGraph`` objects numbered as in the book's Figure 21.1:
the root is node 1 and node i has children 2i (edge ``label`` −1) and 2i + 1
(edge ``label`` +1), so a path's labels are the bits of the leaf's number.
Internal nodes carry ``instance`` (a point index, or a vector for halfspace
trees), leaves a ``witness`` (a hypothesis index, or a weight vector) that
realises their path. The graph's attributes say its ``depth`` and ``kind``.
:func:`write_tree` writes GraphML (through networkx) or DOT; :func:`read_tree`
reads GraphML back.

Examples
--------
>>> from game.theory.concepts._finite import thresholds
>>> from game.theory.littlestone._trees import is_shattered, ldim, littlestone_tree, vcdim
>>> cls = thresholds(7)
>>> ldim(cls), vcdim(cls)
(3, 1)
>>> tree = littlestone_tree(cls)
>>> tree.graph["depth"], tree.nodes[1]["instance"], is_shattered(tree, cls)
(3, 3, True)
"""

from __future__ import annotations

import json
import math
import time
from pathlib import Path
from typing import Any

import networkx as nx
import numpy as np

from game.errors import ParameterError, check_integer
from game.theory.concepts import FiniteClass, as_finite_class

__all__ = [
    "MAX_HALFSPACE_DEPTH",
    "halfspace_tree",
    "is_shattered",
    "ldim",
    "ldim_plain",
    "littlestone_tree",
    "read_tree",
    "tree_children",
    "tree_depth",
    "tree_root",
    "vcdim",
    "write_tree",
]

#: The deepest halfspace tree built: 2^(depth + 1) − 1 nodes.
MAX_HALFSPACE_DEPTH = 20


def _finite(cls: Any) -> FiniteClass:
    return as_finite_class(cls, "cls")


def ldim(cls: Any) -> int:
    """The exact Littlestone dimension of a finite class.

    Ldim(∅) = −1 and Ldim of a single hypothesis is 0. Computed by
    :class:`game.theory.littlestone.LdimEngine` (the class's cached one for a
    :class:`FiniteClass`, so later questions about its restrictions reuse the work).

    Parameters
    ----------
    cls : FiniteClass, object with ``.matrix``, or a ±1 matrix

    Examples
    --------
    >>> from game.theory.concepts._finite import all_functions, intervals, singletons
    >>> ldim(all_functions(4)), ldim(singletons(9)), ldim(intervals(16))
    (4, 1, 6)
    >>> ldim([[1, -1]]), ldim(FiniteClass(np.zeros((0, 3))))
    (0, -1)
    """
    return _finite(cls).engine.ldim()


def ldim_plain(cls: Any, *, deadline: float | None = None, max_memo: int | None = None) -> int:
    """Ldim by the textbook recursion, memoised on the restricted set: a reference.

    Ldim(V) = 1 + max over splitting points x of min(Ldim(V_x⁺), Ldim(V_x⁻)),
    with V a Python-int bitset over the hypotheses and one memo entry per set
    met. No bounds, pruning or merging: it is what :func:`ldim` is checked and
    benchmarked against, and is exponential in practice (intervals over 20
    points take seconds).

    Parameters
    ----------
    deadline : float, optional
        A ``time.perf_counter()`` value; past it, ``TimeoutError`` is raised.
    max_memo : int, optional
        The most restricted sets to remember; past it, ``MemoryError`` is raised.

    Examples
    --------
    >>> from game.theory.concepts._finite import thresholds
    >>> ldim_plain(thresholds(7))
    3
    """
    M = _finite(cls).matrix
    H, n = M.shape
    if H == 0:
        return -1
    pos = []
    for x in range(n):
        bits = np.flatnonzero(M[:, x] > 0)
        pos.append(sum(1 << int(h) for h in bits))
    memo: dict[int, int] = {}
    calls = [0]

    def rec(V: int) -> int:
        if V & (V - 1) == 0:
            return 0 if V else -1
        got = memo.get(V)
        if got is not None:
            return got
        calls[0] += 1
        if calls[0] & 1023 == 0:
            if deadline is not None and time.perf_counter() > deadline:
                raise TimeoutError("the plain recursion ran past its deadline")
            if max_memo is not None and len(memo) > max_memo:
                raise MemoryError(f"the plain recursion met more than {max_memo} sets")
        best = 0
        for p in pos:
            a = V & p
            if a and a != V:
                value = 1 + min(rec(a), rec(V ^ a))
                if value > best:
                    best = value
        memo[V] = best
        return best

    return rec((1 << H) - 1)


def vcdim(cls: Any) -> int:
    """The VC dimension: the size of the largest set of points the class shatters.

    A depth-first search over sets of points in increasing order, extending a
    shattered set S only by points that split every labelling class of S, and
    stopping at the upper bound min(Ldim, ⌊log₂|H|⌋). VCdim(∅) = −1 (no set,
    not even the empty one, is shattered by no hypothesis), which keeps
    VCdim ≤ Ldim for every class. Exponential in the worst case; meant for
    small and structured classes.

    Examples
    --------
    >>> from game.theory.concepts._finite import all_functions, intervals
    >>> vcdim(intervals(10)), vcdim(all_functions(3))
    (2, 3)
    """
    fc = _finite(cls)
    H = fc.n_hypotheses
    if H <= 1:
        return H - 1
    upper = min(fc.engine.ldim(), int(math.log2(H)))
    B = fc.matrix > 0
    # points that split the class, one per class of equal-or-opposite columns
    B = B[:, B.any(axis=0) & ~B.all(axis=0)]
    B = B ^ B[0]
    _, first = np.unique(np.packbits(B.T, axis=1), axis=0, return_index=True)
    B = B[:, np.sort(first)]
    n = B.shape[1]
    best = min(1, n)
    if best >= upper:
        return best
    width = ((H + 63) >> 6) << 3
    pad = np.zeros((n, width * 8 - H), dtype=bool)
    pos = np.packbits(np.concatenate([B.T, pad], axis=1), axis=1, bitorder="little")
    neg = np.packbits(np.concatenate([~B.T, pad], axis=1), axis=1, bitorder="little")
    pos, neg = pos.view(np.uint64), neg.view(np.uint64)

    def dfs(classes: np.ndarray, size: int, cand: np.ndarray) -> bool:
        # S ∪ {x} is shattered iff x splits every labelling class of S; a point
        # that extends S ∪ {x} extends S, so the candidates only shrink
        nonlocal best
        splits = (classes[:, None, :] & pos[cand][None]).any(axis=2)
        splits &= (classes[:, None, :] & neg[cand][None]).any(axis=2)
        ok = cand[splits.all(axis=0)]
        for i, x in enumerate(ok.tolist()):
            if size + (ok.size - i) <= best:
                break
            if size + 1 > best:
                best = size + 1
                if best >= upper:
                    return True
            children = np.concatenate([classes & pos[x], classes & neg[x]])
            if dfs(children, size + 1, ok[i + 1 :]):
                return True
        return False

    everyone = np.packbits(
        np.concatenate([np.ones(H, dtype=bool), pad[0]]), bitorder="little"
    ).view(np.uint64)
    dfs(everyone[None, :], 0, np.arange(n))
    return best


# -- trees ---------------------------------------------------------------------------


def littlestone_tree(cls: Any) -> nx.DiGraph:
    """A tree of depth Ldim(cls) that the class shatters.

    Node numbering and attributes as in the module docstring: internal nodes
    carry ``instance`` (a point index) and ``point_name``; leaves carry
    ``witness`` (the index of a hypothesis realising the path) and
    ``witness_name``. Each internal node's instance is a point x maximising
    min(Ldim(V_x⁺), Ldim(V_x⁻)) over the hypotheses V consistent with the path
    so far, so every subtree is itself of the largest possible depth. The
    empty class gives an empty graph of depth −1.

    Examples
    --------
    >>> from game.theory.concepts._finite import singletons
    >>> t = littlestone_tree(singletons(3))
    >>> sorted(t.edges(data="label"))
    [(1, 2, -1), (1, 3, 1)]
    >>> t.nodes[3]["witness_name"], t.nodes[2]["witness_name"]
    ('x = 0', 'x = 1')
    """
    fc = _finite(cls)
    engine = fc.engine
    top = engine.state()
    depth = engine.state_ldim(top)
    tree = nx.DiGraph(depth=depth, kind="finite-class", name=fc.name)
    if depth < 0:
        return tree
    names, points = fc.hypothesis_names, fc.point_names
    stack = [(1, top, depth)]
    while stack:
        node, state, m = stack.pop()
        if m == 0:
            h = int(state.rows[0])
            tree.add_node(node, witness=h, witness_name=names[h])
            continue
        if m == 1:  # the leaves need one hypothesis of each side, not the sides' states
            x, plus_rows, minus_rows = engine.split_rows(state, 1)
            for child, h in ((2 * node, int(minus_rows[0])), (2 * node + 1, int(plus_rows[0]))):
                tree.add_node(child, witness=h, witness_name=names[h])
        else:
            x, plus, minus = engine.split(state, m)
            stack.append((2 * node + 1, plus, m - 1))
            stack.append((2 * node, minus, m - 1))
        tree.add_node(node, instance=x, point_name=points[x])
        tree.add_edge(node, 2 * node, label=-1)
        tree.add_edge(node, 2 * node + 1, label=1)
    return tree


def halfspace_tree(depth: int, dimension: int = 2) -> nx.DiGraph:
    """The §21.4 tree (seed 000): shattered by halfspaces, of any depth.

    Node i at level t (2^(t−1) ≤ i < 2^t) holds v_i = (q, 1, 0, …, 0) with the
    dyadic q = (2j + 1)/2^t, j = i − 2^(t−1): v1 = (1/2, 1), v2 = (1/4, 1),
    v3 = (3/4, 1), … The leaf below a path holds the witness
    w = (−1, a, 0, …, 0) with a the midpoint of the path's dyadic interval:
    sign(w·v) = sign(a − q) is the path's label at every node, with margin
    |a − q| ≥ 2^−(depth+1). All values are exact in floating point for depth ≤ 52.

    Parameters
    ----------
    depth : int
        0 ≤ depth ≤ :data:`MAX_HALFSPACE_DEPTH` (the tree has 2^(depth+1) − 1 nodes).
    dimension : int, default 2
        d ≥ 2; the coordinates past the second are 0.

    Examples
    --------
    >>> t = halfspace_tree(2)
    >>> [t.nodes[i]["instance"].tolist() for i in (1, 2, 3)]
    [[0.5, 1.0], [0.25, 1.0], [0.75, 1.0]]
    >>> t.nodes[7]["witness"].tolist(), is_shattered(t)
    ([-1.0, 0.875], True)
    """
    depth = check_integer("depth", depth, low=0, high=MAX_HALFSPACE_DEPTH)
    dimension = check_integer("dimension", dimension, low=2)
    tree = nx.DiGraph(depth=depth, kind="halfspace", dimension=dimension)
    for level in range(1, depth + 2):
        first = 1 << (level - 1)
        for j in range(first):
            node = first + j
            v = np.zeros(dimension)
            if level <= depth:
                v[0], v[1] = (2 * j + 1) / (1 << level), 1.0
                tree.add_node(node, instance=v)
                tree.add_edge(node, 2 * node, label=-1)
                tree.add_edge(node, 2 * node + 1, label=1)
            else:
                v[0], v[1] = -1.0, (2 * j + 1) / (1 << level)
                tree.add_node(node, witness=v)
    return tree


def tree_root(tree: nx.DiGraph) -> Any:
    """The root of a tree (ValueError unless the graph has exactly one node without parent)."""
    roots = [n for n, d in tree.in_degree() if d == 0]
    if len(roots) != 1:
        raise ValueError(f"a tree has one root, this graph has {len(roots)}")
    return roots[0]


def tree_children(tree: nx.DiGraph, node: Any) -> dict[int, Any]:
    """An internal node's children by edge label, ``{-1: child, 1: child}`` (else ValueError)."""
    out = {}
    for _, child, label in tree.out_edges(node, data="label"):
        if label not in (-1, 1) or label in out:
            raise ValueError(f"node {node!r}: its two edges must be labelled -1 and +1")
        out[int(label)] = child
    if len(out) != 2:
        raise ValueError(f"node {node!r}: an internal node has exactly two children")
    return out


def tree_depth(tree: nx.DiGraph) -> int:
    """The depth of a complete binary tree (−1 for the empty graph).

    Raises
    ------
    ValueError
        When the graph is not a binary tree with every leaf at the same depth,
        edges labelled −1 and +1 and an ``instance`` on every internal node.
    """
    if tree.number_of_nodes() == 0:
        return -1
    if not nx.is_arborescence(tree):
        raise ValueError("the graph is not a rooted tree")
    depths = set()
    stack = [(tree_root(tree), 0)]
    while stack:
        node, d = stack.pop()
        if tree.out_degree(node) == 0:
            depths.add(d)
            continue
        if "instance" not in tree.nodes[node]:
            raise ValueError(f"internal node {node!r} has no instance")
        for child in tree_children(tree, node).values():
            stack.append((child, d + 1))
    if len(depths) != 1:
        raise ValueError(f"the leaves lie at different depths {sorted(depths)}")
    return depths.pop()


def is_shattered(tree: nx.DiGraph, cls: Any = None) -> bool:
    """Whether every root-to-leaf path of the tree is realised (Definition 21.4).

    Parameters
    ----------
    tree : networkx.DiGraph
        A complete binary tree in this module's format.
    cls : FiniteClass, object with ``.matrix``, or ±1 matrix, optional
        Check that some hypothesis of the class agrees with every path. Without
        a class, every leaf's ``witness`` is checked instead: a hypothesis index
        needs the class, a weight vector w must give each path's instances x
        their label y with y·(w·x) > 0.

    Returns
    -------
    bool
        False for a graph that is not a complete binary tree in this format.

    Examples
    --------
    >>> import networkx as nx
    >>> from game.theory.concepts._finite import thresholds
    >>> t = nx.DiGraph()
    >>> t.add_node(1, instance=0)
    >>> t.add_edge(1, 2, label=-1); t.add_edge(1, 3, label=1)
    >>> is_shattered(t, thresholds(2)), is_shattered(t, [[1, 1]])
    (True, False)
    """
    try:
        depth = tree_depth(tree)
    except (ValueError, nx.NetworkXException):
        return False
    if depth < 0:
        return cls is None or _finite(cls).n_hypotheses == 0
    root = tree_root(tree)
    if cls is not None:
        fc = _finite(cls)
        M = fc.matrix
        masks = {}
        for x in range(fc.n_points):
            col = M[:, x] > 0
            masks[(x, 1)] = int.from_bytes(np.packbits(col, bitorder="little").tobytes(), "little")
            masks[(x, -1)] = int.from_bytes(
                np.packbits(~col, bitorder="little").tobytes(), "little"
            )
        everyone = (1 << fc.n_hypotheses) - 1
        stack = [(root, everyone)]
        while stack:
            node, alive = stack.pop()
            if not alive:
                return False
            if tree.out_degree(node) == 0:
                continue
            x = tree.nodes[node]["instance"]
            if isinstance(x, bool) or not isinstance(x, int | np.integer):
                return False
            if not 0 <= x < fc.n_points:
                return False
            for label, child in tree_children(tree, node).items():
                stack.append((child, alive & masks[(int(x), label)]))
        return True
    stack = [(root, [])]
    while stack:
        node, path = stack.pop()
        if tree.out_degree(node) == 0:
            w = tree.nodes[node].get("witness")
            if w is None or isinstance(w, int | np.integer):
                return False
            w = np.asarray(w, dtype=np.float64)
            for x, y in path:
                if not y * float(np.asarray(x, dtype=np.float64) @ w) > 0:
                    return False
            continue
        x = tree.nodes[node]["instance"]
        for label, child in tree_children(tree, node).items():
            stack.append((child, [*path, (x, label)]))
    return True


# -- files ---------------------------------------------------------------------------


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

    Examples
    --------
    >>> import tempfile, os
    >>> from game.theory.concepts._finite import thresholds
    >>> t = littlestone_tree(thresholds(3))
    >>> with tempfile.TemporaryDirectory() as d:
    ...     back = read_tree(write_tree(t, os.path.join(d, "t.graphml")))
    >>> sorted(back.nodes(data="instance")) == sorted(t.nodes(data="instance"))
    True
    """
    path = Path(path)
    if path.suffix == ".graphml":
        out = nx.DiGraph(**{k: _encode(v) for k, v in tree.graph.items()})
        for node, data in tree.nodes(data=True):
            out.add_node(node, **{k: _encode(v) for k, v in data.items()})
        for a, b, data in tree.edges(data=True):
            out.add_edge(a, b, **{k: _encode(v) for k, v in data.items()})
        nx.write_graphml(out, path)
    elif path.suffix in (".dot", ".gv"):
        path.write_text(_dot(tree), encoding="utf-8")
    else:
        raise ParameterError("path", str(path), "a .graphml or .dot file")
    return path


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
