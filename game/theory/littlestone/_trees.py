"""Shattered trees: the tree of depth Ldim(H), §21.4's halfspace tree, and the check.

Shalev-Shwartz & Ben-David, *Understanding Machine Learning*, §21.1.1 (the
chapter of seed 000): a tree of depth d whose internal nodes are instances
is *shattered* by H when every root-to-leaf path, reading the label on each
edge, is realised by some h ∈ H (Definition 21.4). §21.4 (seed 000) shows
halfspaces in d ≥ 2 dimensions shatter trees of every depth.

Trees are ``networkx.DiGraph`` objects numbered as in the book's Figure 21.1:
the root is node 1 and node i has children 2i (edge ``label`` −1) and 2i + 1
(edge ``label`` +1), so a path's labels are the bits of the leaf's number.
Internal nodes carry ``instance`` (a point index, or a vector for halfspace
trees), leaves a ``witness`` (a hypothesis index, or a weight vector) that
realises their path. The graph's attributes say its ``depth`` and ``kind``.
The trees built here are :class:`LittlestoneTree` objects: ``networkx.DiGraph``
graphs that a notebook draws (``_repr_svg_``: an SVG picture made here, with no
plotting library).

Examples
--------
>>> from game.theory.concepts import thresholds
>>> from game.theory.littlestone import is_shattered, littlestone_tree
>>> cls = thresholds(7)
>>> tree = littlestone_tree(cls)
>>> tree.graph["depth"], tree.nodes[1]["instance"], is_shattered(tree, cls)
(3, 3, True)
"""

from __future__ import annotations

import numbers
from html import escape
from typing import Any

import networkx as nx
import numpy as np

from game.errors import ParameterError, check_instance, check_integer
from game.theory.concepts import as_finite_class

__all__ = [
    "MAX_HALFSPACE_DEPTH",
    "LittlestoneTree",
    "halfspace_tree",
    "is_shattered",
    "littlestone_tree",
    "tree_children",
    "tree_depth",
    "tree_root",
]

#: The deepest halfspace tree built: 2^(depth + 1) − 1 nodes.
MAX_HALFSPACE_DEPTH = 20

#: The levels of a tree its picture shows (deeper nodes are summed up under their ancestor).
SVG_LEVELS = 4


class LittlestoneTree(nx.DiGraph):
    """A tree in this module's format, which a notebook shows as a picture.

    A ``networkx.DiGraph`` in every other respect. The picture (``_repr_svg_``)
    draws the tree top-down as :func:`game.viz.plots.draw_tree` does: internal
    nodes are ovals named by their instance, leaves boxes named by their
    witness, the −1 edge to the left; below ``SVG_LEVELS`` levels a node
    says how deep its subtree goes.

    Examples
    --------
    >>> from game.theory.concepts import thresholds
    >>> tree = littlestone_tree(thresholds(3))
    >>> isinstance(tree, nx.DiGraph), type(tree).__name__
    (True, 'LittlestoneTree')
    >>> svg = tree._repr_svg_()
    >>> svg.startswith("<svg"), svg.count("<ellipse"), svg.count("<rect")
    (True, 3, 4)
    """

    def _repr_svg_(self) -> str | None:
        try:
            return _svg(self)
        except (ValueError, TypeError, KeyError, nx.NetworkXException):
            return None  # not a tree: the notebook shows the text instead


def _label_text(value: Any) -> str:
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        return f"{float(value):.3g}"
    array = np.asarray(value)
    if array.ndim == 1 and array.size <= 3:
        return "(" + ", ".join(f"{float(v):.3g}" for v in array) + ")"
    return str(value) if array.ndim == 0 else f"vector of {array.size}"


def _svg_node_text(data: dict) -> str:
    if "instance" in data:
        return str(data.get("point_name", _label_text(data["instance"])))
    if "witness" in data:
        return str(data.get("witness_name", "h" + _label_text(data["witness"])))
    return ""


def _svg(tree: nx.DiGraph, levels: int = SVG_LEVELS) -> str:
    """An SVG picture of the top ``levels`` levels of a tree (see :class:`LittlestoneTree`)."""
    step_y, r, pad = 64.0, 17.0, 24.0
    if tree.number_of_nodes() == 0:
        return (
            '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="30">'
            '<text x="4" y="20" font-family="sans-serif" font-size="13">an empty tree</text></svg>'
        )
    root = tree_root(tree)

    def kids(node):
        return sorted(tree.successors(node), key=lambda c: tree.edges[node, c].get("label", 0))

    pos: dict = {}
    cut: dict = {}
    next_x = 0.0
    stack = [(root, 0, False)]
    while stack:
        node, depth, expanded = stack.pop()
        below = kids(node)
        if below and depth == levels:
            cut[node] = _subtree_depth(tree, node)
            below = []
        if not below:
            pos[node] = (next_x, depth)
            next_x += 1.0
        elif expanded:
            xs = [pos[c][0] for c in below]
            pos[node] = ((min(xs) + max(xs)) / 2.0, depth)
        else:
            stack.append((node, depth, True))
            stack.extend((c, depth + 1, False) for c in reversed(below))
    deepest = max(d for _, d in pos.values())
    texts = {node: _svg_node_text(tree.nodes[node]) for node in pos}
    half = {node: max(r, 3.3 * len(text) + 6) for node, text in texts.items()}  # half widths
    step_x = max(2 * r + 24, 2 * max(half.values()) + 10)
    width = pad * 2 + step_x * max(next_x - 1.0, 0.0) + 2 * max(half.values()) + 40
    height = pad * 2 + step_y * deepest + 2 * r + (18 if cut else 0) + 22

    def xy(node):
        x, d = pos[node]
        return pad + max(half.values()) + 20 + step_x * x, pad + 22 + r + step_y * d

    depth = tree.graph.get("depth")
    name = tree.graph.get("name") or tree.graph.get("kind")
    title = "a tree" + (f" of depth {depth}" if depth is not None else "")
    title += f", shattered by {name}" if tree.graph.get("name") else f" ({name})" if name else ""
    if cut:
        title += f"; the top {levels} levels"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="sans-serif" font-size="12">',
        f'<text x="{pad:.0f}" y="{pad:.0f}" font-size="13">{escape(title)}</text>',
    ]
    for u, v, label in tree.edges(data="label"):
        if u not in pos or v not in pos:
            continue
        (x1, y1), (x2, y2) = xy(u), xy(v)
        parts.append(
            f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#999"/>'
        )
        sign = "+" if label == 1 else "−"
        mx, my = (x1 + x2) / 2 + (8 if label == 1 else -8), (y1 + y2) / 2
        parts.append(f'<text x="{mx:.1f}" y="{my:.1f}" text-anchor="middle">{sign}</text>')
    for node in pos:
        cx, cy = xy(node)
        text, w = escape(texts[node]), half[node]
        if tree.out_degree(node) == 0:
            parts.append(
                f'<rect x="{cx - w:.1f}" y="{cy - r:.1f}" width="{2 * w:.1f}" height="{2 * r:.0f}" '
                'fill="white" stroke="#2ca02c"/>'
            )
        else:
            dash = ' stroke-dasharray="3,2"' if node in cut else ""
            parts.append(
                f'<ellipse cx="{cx:.1f}" cy="{cy:.1f}" rx="{w:.1f}" ry="{r:.0f}" fill="white" '
                f'stroke="#1f77b4"{dash}/>'
            )
        parts.append(
            f'<text x="{cx:.1f}" y="{cy + 4:.1f}" text-anchor="middle" font-size="11">{text}</text>'
        )
        if node in cut:
            parts.append(
                f'<text x="{cx:.1f}" y="{cy + r + 14:.1f}" text-anchor="middle" font-size="10" '
                f'fill="#666">+{cut[node]} levels</text>'
            )
    parts.append("</svg>")
    return "".join(parts)


def _subtree_depth(tree: nx.DiGraph, node: Any) -> int:
    depth, stack = 0, [(node, 0)]
    while stack:
        here, d = stack.pop()
        depth = max(depth, d)
        stack.extend((c, d + 1) for c in tree.successors(here))
    return depth


def littlestone_tree(cls: Any) -> LittlestoneTree:
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
    >>> from game.theory.concepts import singletons
    >>> t = littlestone_tree(singletons(3))
    >>> sorted(t.edges(data="label"))
    [(1, 2, -1), (1, 3, 1)]
    >>> t.nodes[3]["witness_name"], t.nodes[2]["witness_name"]
    ('x = 0', 'x = 1')
    """
    fc = as_finite_class(cls, "cls")
    engine = fc.engine
    top = engine.state()
    depth = engine.state_ldim(top)
    tree = LittlestoneTree(depth=depth, kind="finite-class", name=fc.name)
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


def halfspace_tree(depth: int, dimension: int = 2) -> LittlestoneTree:
    """The §21.4 tree (seed 000): shattered by halfspaces, of any depth.

    Node i at level t (2^(t−1) ≤ i < 2^t) holds v_i = (q, 1, 0, …, 0) with the
    dyadic q = (2j + 1)/2^t, j = i − 2^(t−1): v1 = (1/2, 1), v2 = (1/4, 1),
    v3 = (3/4, 1), … The leaf below a path holds the witness
    w = (−1, a, 0, …, 0) with a the midpoint of the path's dyadic interval:
    sign(w·v) = sign(a − q) is the path's label at every node, with margin
    ``|a − q|`` ≥ 2^−(depth+1). All values are exact in floating point for depth ≤ 52.

    Parameters
    ----------
    depth : int
        0 ≤ depth ≤ ``MAX_HALFSPACE_DEPTH`` (the tree has 2^(depth+1) − 1 nodes).
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
    tree = LittlestoneTree(depth=depth, kind="halfspace", dimension=dimension)
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


#: What a tree of this module is, as a refusal says.
_TREE = "a complete binary tree (a networkx.DiGraph in game.theory.littlestone's format)"


def _graph(tree: Any) -> nx.DiGraph:
    return check_instance("tree", tree, nx.DiGraph, "a networkx.DiGraph")


def tree_root(tree: nx.DiGraph) -> Any:
    """The root of a tree: its one node without a parent.

    Raises
    ------
    ParameterError
        Naming ``tree``, unless the graph has exactly one node without a parent.

    Examples
    --------
    >>> import networkx as nx
    >>> tree_root(nx.DiGraph([(1, 2), (1, 3)]))
    1
    >>> tree_root(nx.DiGraph([(1, 2), (3, 4)]))
    Traceback (most recent call last):
    ...
    game.errors.ParameterError: tree must be a tree with one root, got DiGraph with 4 nodes ...
    """
    roots = [n for n, d in _graph(tree).in_degree() if d == 0]
    if len(roots) != 1:
        raise ParameterError(
            "tree", tree, "a tree with one root", f"this graph has {len(roots)} roots"
        )
    return roots[0]


def tree_children(tree: nx.DiGraph, node: Any) -> dict[int, Any]:
    """An internal node's children by edge label, ``{-1: child, 1: child}``.

    Raises
    ------
    ParameterError
        Naming ``tree`` when the node is not in it, or does not have two
        edges labelled −1 and +1.
    """
    if node not in _graph(tree):
        raise ParameterError("tree", tree, f"a tree with the node {node!r}")
    out = {}
    for _, child, label in tree.out_edges(node, data="label"):
        if label not in (-1, 1) or label in out:
            raise ParameterError(
                "tree", tree, _TREE, f"node {node!r}: its two edges must be labelled -1 and +1"
            )
        out[int(label)] = child
    if len(out) != 2:
        raise ParameterError(
            "tree", tree, _TREE, f"node {node!r}: an internal node has exactly two children"
        )
    return out


def tree_depth(tree: nx.DiGraph) -> int:
    """The depth of a complete binary tree (−1 for the empty graph).

    Raises
    ------
    ParameterError
        Naming ``tree`` when the graph is not a binary tree with every leaf at
        the same depth, edges labelled −1 and +1 and an ``instance`` on every
        internal node.

    Examples
    --------
    >>> import networkx as nx
    >>> tree_depth(nx.DiGraph([(1, 2, {"label": -1}), (1, 3, {"label": 1})]))
    Traceback (most recent call last):
    ...
    game.errors.ParameterError: tree must be a complete binary tree ... (internal node 1 has ...)
    """
    if _graph(tree).number_of_nodes() == 0:
        return -1
    if not nx.is_arborescence(tree):
        raise ParameterError("tree", tree, _TREE, "the graph is not a rooted tree")
    depths = set()
    stack = [(tree_root(tree), 0)]
    while stack:
        node, d = stack.pop()
        if tree.out_degree(node) == 0:
            depths.add(d)
            continue
        if "instance" not in tree.nodes[node]:
            raise ParameterError("tree", tree, _TREE, f"internal node {node!r} has no instance")
        for child in tree_children(tree, node).values():
            stack.append((child, d + 1))
    if len(depths) != 1:
        raise ParameterError(
            "tree", tree, _TREE, f"the leaves lie at different depths {sorted(depths)}"
        )
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
    >>> from game.theory.concepts import thresholds
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
        return cls is None or as_finite_class(cls, "cls").n_hypotheses == 0
    root = tree_root(tree)
    if cls is not None:
        fc = as_finite_class(cls, "cls")
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
