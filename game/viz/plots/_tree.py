"""A Littlestone tree drawn top-down, with the path an adversary walked highlighted.

Trees are ``networkx.DiGraph`` objects as :mod:`game.theory.littlestone` makes them:
internal nodes carry ``instance`` (and optionally ``point_name``), the two
out-edges of a node a ``label`` of −1 and +1, leaves a ``witness`` (and
optionally ``witness_name``). The layout is computed here (leaves left to
right, the −1 child on the left; each node above the middle of its
children), so no graphviz is needed; networkx draws on matplotlib.

Examples
--------
>>> import networkx as nx
>>> tree = nx.DiGraph()
>>> tree.add_node(1, instance=0)
>>> tree.add_edge(1, 2, label=-1); tree.add_edge(1, 3, label=1)
>>> tree.add_node(2, witness=0); tree.add_node(3, witness=1)
>>> fig = draw_tree(tree, labels=[1])
>>> tree_path(tree, labels=[1])
[1, 3]
"""

from __future__ import annotations

import hashlib
import itertools
import numbers
from typing import Any

import numpy as np

from game.errors import ParameterError, check_instance
from game.viz.plots._figure import TEXT_PT, new_figure, place_legend
from game.viz.plots._series import begin_series, check_label, mark

__all__ = ["draw_tree", "tree_depth_of", "tree_layout", "tree_path"]

#: Trees with more nodes than this show labels only along the highlighted path.
_LABELLED = 127
#: The title's size, in points.
TITLE_PT = 11


def _root(tree) -> Any:
    """The root of a rooted tree (every node below it, no cycle); else a ParameterError.

    Drawn trees may be partial (a walk and its siblings), so only the root and
    the arborescence are checked, not :func:`~game.theory.littlestone.tree_depth`'s
    completeness.
    """
    import networkx as nx  # loaded when a tree is drawn, not with the figures

    from game.theory.littlestone import tree_root

    root = tree_root(tree)
    if not nx.is_arborescence(tree):
        raise ParameterError("tree", tree, "a rooted tree", "some nodes are not below the root")
    return root


def _children(tree, node) -> list:
    """The children of ``node``, the −1 edge first."""
    return sorted(tree.successors(node), key=lambda c: tree.edges[node, c].get("label", 0))


def tree_layout(tree) -> dict:
    """Positions (x, y) of every node: leaves at x = 0, 1, 2, … left to right, y = −depth.

    Examples
    --------
    >>> import networkx as nx
    >>> t = nx.DiGraph([(1, 2, {"label": -1}), (1, 3, {"label": 1})])
    >>> tree_layout(t)
    {2: (0.0, -1.0), 3: (1.0, -1.0), 1: (0.5, 0.0)}
    """
    pos: dict = {}
    next_leaf = 0.0
    stack = [(_root(tree), 0, False)]
    while stack:
        node, depth, expanded = stack.pop()
        kids = _children(tree, node)
        if not kids:
            pos[node] = (next_leaf, -float(depth))
            next_leaf += 1.0
        elif expanded:
            xs = [pos[c][0] for c in kids]
            pos[node] = ((min(xs) + max(xs)) / 2.0, -float(depth))
        else:
            stack.append((node, depth, True))
            stack.extend((c, depth + 1, False) for c in reversed(kids))
    return pos


def tree_depth_of(tree) -> int:
    """The number of edges on the longest root-to-leaf path."""
    depth, stack = 0, [(_root(tree), 0)]
    while stack:
        node, d = stack.pop()
        depth = max(depth, d)
        stack.extend((c, d + 1) for c in tree.successors(node))
    return depth


def _same(a, b) -> bool:
    try:
        return bool(np.array_equal(np.asarray(a), np.asarray(b)))
    except (TypeError, ValueError):
        return False


def tree_path(tree, *, labels=None, transcript=None, matrix=None) -> list:
    """The nodes walked from the root following ``labels`` (or a transcript's labels).

    On round t the tree adversary presents the instance of its node and moves
    along the edge carrying the round's label, so a transcript of a game
    against it walks the tree by its labels. Given a transcript, each round's
    instance is checked against the node's; given the class's ``matrix`` too,
    a walk that presents each point as the advice of the class's hypotheses
    (its column of the matrix) is checked against those columns.

    Raises
    ------
    ParameterError
        When a label has no edge (naming ``labels`` or ``transcript``), or a
        transcript's instance is not its node's; for a graph that is not a tree.
    """
    if transcript is not None:
        labels = [int(y) for y in transcript.labels]
        instances = transcript.raw_instances
    else:
        instances = None
    node = _root(tree)
    path = [node]
    for t, y in enumerate(labels or (), start=1):
        kids = {tree.edges[node, c].get("label"): c for c in tree.successors(node)}
        if not kids:
            break  # the tree is shallower than the game: the walk ends at the leaf
        if instances is not None and "instance" in tree.nodes[node]:
            shown, own = instances[t - 1], tree.nodes[node]["instance"]
            if matrix is not None and isinstance(own, numbers.Integral) and np.ndim(shown) == 1:
                own = np.asarray(matrix)[:, int(own)]  # the point, as its hypotheses' advice
            if not _same(shown, own):
                raise ParameterError(
                    "transcript",
                    transcript,
                    "a game against this tree",
                    f"round {t} presented {_text(instances[t - 1])}, not the instance of "
                    f"node {node!r} ({_text(tree.nodes[node]['instance'])}): the game did not "
                    "walk this tree",
                )
        if y not in kids:
            raise ParameterError(
                "transcript" if transcript is not None else "labels",
                transcript if transcript is not None else labels,
                "a walk along the tree's edges",
                f"node {node!r} has no edge labelled {y!r}",
            )
        node = kids[y]
        path.append(node)
    return path


def _text(value: Any) -> str:
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        return f"{float(value):.3g}"
    array = np.asarray(value)
    if array.ndim == 1 and array.size <= 4:
        return "(" + ", ".join(f"{float(v):.3g}" for v in array) + ")"
    return str(value) if array.ndim == 0 else f"vector of {array.size}"


def _node_label(data: dict) -> str:
    if "instance" in data:
        return str(data.get("point_name", _text(data["instance"])))
    if "witness" in data:
        return str(data.get("witness_name", "h" + _text(data["witness"])))
    return ""


def _tree_key(tree) -> str:
    """A name for a tree's shape, so a second walk drawn over it finds it on the axes."""
    edges = sorted((repr(u), repr(v)) for u, v in tree.edges)
    return "olg-tree:" + hashlib.sha1(repr(edges).encode(), usedforsecurity=False).hexdigest()


def draw_tree(
    tree,
    *,
    path=None,
    labels=None,
    transcript=None,
    prune: bool | None = None,
    title: str | None = None,
    ax=None,
    label: str | None = None,
    matrix=None,
):
    """Draw a Littlestone tree top-down: instances on nodes, labels on edges, a path highlighted.

    Parameters
    ----------
    tree : networkx.DiGraph
        A tree in the format of :mod:`game.theory.littlestone`.
    path : sequence of nodes, optional
        The nodes to highlight, from the root.
    labels : sequence of ±1, optional
        Highlight the walk from the root along these edge labels.
    transcript : Transcript, optional
        Highlight the walk of a game played against the tree (its labels; its
        instances are checked against the nodes').
    prune : bool, optional
        Draw only the highlighted path and the other child of each node on
        it. Default: prune trees of more than 127 nodes when a path is given.
    title : str, optional
        The figure's title (default: the tree's depth and kind).
    ax : matplotlib Axes, optional
        Draw into these axes instead of a new figure. Axes that already show
        the same tree get only the new walk, in its own colour.
    label : str, optional
        The walk's name in a legend beside the tree.
    matrix : array_like, optional
        The finite class's ±1 matrix, to check a ``transcript`` that presented
        each point as the advice of the class's hypotheses: its columns.

    Returns
    -------
    matplotlib.figure.Figure

    Notes
    -----
    Internal nodes are circles labelled by their instance (``point_name`` when
    the tree has one), leaves squares labelled by their witness; edges are
    labelled − and +. A tree of more than 127 nodes drawn whole shows labels
    only along the highlighted path.
    """
    import networkx as nx  # loaded when a tree is drawn, not with the figures

    check_instance("tree", tree, nx.DiGraph, "a networkx.DiGraph")
    check_label(label)
    if tree.number_of_nodes() == 0:
        raise ParameterError("tree", tree, "a tree with a node")
    full = tree
    if path is None and (labels is not None or transcript is not None):
        path = tree_path(tree, labels=labels, transcript=transcript, matrix=matrix)
    path = list(path or [])
    depth = tree_depth_of(tree)
    if prune is None:
        prune = bool(path) and tree.number_of_nodes() > _LABELLED
    if prune and path:
        keep = set(path)
        for node in path:
            keep.update(tree.successors(node))
        tree = tree.subgraph(keep)
    pos = tree_layout(tree)
    on_path = list(itertools.pairwise(path))
    leaves = [n for n in tree.nodes if full.out_degree(n) == 0]
    internal = [n for n in tree.nodes if full.out_degree(n) > 0]
    across = sum(1 for n in tree.nodes if tree.out_degree(n) == 0)
    width = min(20.0, max(6.4, 0.55 * across))
    rows = -min(y for _, y in pos.values())
    if ax is None:
        fig, (ax,) = new_figure(width=width, height=min(10.0, max(3.0, 1.0 * rows + 1.5)))
    else:
        fig = ax.figure
    key = _tree_key(tree)
    drawn = any(artist.get_gid() == key for artist in ax.collections)
    series = begin_series(ax, label, "the walk")
    small = tree.number_of_nodes() > _LABELLED
    size = 120 if small else 600
    walk_colour = series.colour_or("C3")
    if not drawn:
        plain = [e for e in tree.edges if e not in set(on_path)]
        edges = nx.draw_networkx_edges(
            tree, pos, edgelist=plain, ax=ax, edge_color="0.6", arrows=False
        )
        edges.set_gid(key)
    if on_path:
        walk = nx.draw_networkx_edges(
            tree,
            pos,
            edgelist=on_path,
            ax=ax,
            edge_color=walk_colour,
            width=max(1.0, 2.5 - 0.6 * series.index),
            arrows=False,
        )
        mark(walk)
        if series.labelled:
            ax.plot([], [], color=walk_colour, linewidth=2.5, label=series.name)
    if not drawn:
        nx.draw_networkx_nodes(
            tree, pos, nodelist=internal, ax=ax, node_color="white", edgecolors="C0", node_size=size
        )
        nx.draw_networkx_nodes(
            tree,
            pos,
            nodelist=leaves,
            ax=ax,
            node_shape="s",
            node_color="white",
            edgecolors="C2",
            node_size=size,
        )
    fill = "mistyrose" if not series.labelled else "white"
    for shape, group in (("o", internal), ("s", leaves)):
        walked = [n for n in group if n in set(path)]
        if walked:
            nx.draw_networkx_nodes(
                tree,
                pos,
                nodelist=walked,
                ax=ax,
                node_color=fill,
                edgecolors=walk_colour,
                node_size=size,
                node_shape=shape,
            )
    if not drawn or small:  # over a tree already drawn, only a pruned tree's new walk is named
        shown = set(path) if small else set(tree.nodes)
        nx.draw_networkx_labels(
            tree,
            pos,
            labels={n: _node_label(tree.nodes[n]) for n in shown},
            ax=ax,
            font_size=TEXT_PT,
        )
        edge_text = {
            e: ("+" if tree.edges[e].get("label") == 1 else "−")
            for e in tree.edges
            if not small or e in set(on_path)
        }
        nx.draw_networkx_edge_labels(
            tree, pos, edge_labels=edge_text, ax=ax, font_size=TEXT_PT, rotate=False
        )
    kind = full.graph.get("kind")
    name = full.graph.get("name")
    default = f"a tree of depth {depth}" + (
        f", shattered by {name}" if name else f" ({kind})" if kind else ""
    )
    if path and not series.labelled:
        default += f"\nthe walk: {len(path) - 1} edges" + (", with its siblings" if prune else "")
    if title is not None:
        ax.set_title(title, fontsize=TITLE_PT)
    elif not ax.get_title():
        ax.set_title(default, fontsize=TITLE_PT)
    ax.set_axis_off()
    place_legend(ax)
    return fig
