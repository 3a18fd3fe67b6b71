"""The walk down a Littlestone tree, the path so far highlighted round by round.

Drawn with :func:`game.viz.plots.draw_tree`, as the ``tree`` figure is: the
tree the game's adversary walked is rebuilt from the scenario recorded in the
transcript's header, and the walk is checked against the recorded instances.
A tree of more than 127 nodes is pruned to the whole walk and the siblings
along it, so the layout stays the same from frame to frame.
"""

from __future__ import annotations

from game.errors import GameError
from game.viz.animations._scene import mistakes_after, new_figure, round_title
from game.viz.plots import draw_tree, walked_tree

#: Trees with more nodes are pruned to the walk and its siblings (as the tree figure does).
LABELLED = 127

__all__ = ["TreeScene"]


def _walk(tree, labels) -> list:
    """The nodes walked from the root along the edges labelled as the rounds were."""
    node = next(n for n in tree.nodes if tree.in_degree(n) == 0)
    path = [node]
    for t, y in enumerate(labels, start=1):
        kids = {tree.edges[node, c].get("label"): c for c in tree.successors(node)}
        if not kids:
            break  # the tree is shallower than the game: the walk ends at a leaf
        if int(y) not in kids:
            raise GameError(f"round {t}: node {node!r} of the tree has no edge labelled {y!r}")
        node = kids[int(y)]
        path.append(node)
    return path


class TreeScene:
    """The tree, the walk's first k edges highlighted on frame k."""

    def __init__(self, transcript) -> None:
        self.transcript = transcript
        tree = walked_tree(transcript)
        self.path = _walk(tree, transcript.labels)
        if tree.number_of_nodes() > LABELLED:
            keep = set(self.path)
            for node in self.path:
                keep.update(tree.successors(node))
            tree = tree.subgraph(keep).copy()
        self.tree = tree
        self.mistakes = mistakes_after(transcript)
        self.leaves = sum(1 for n in tree.nodes if tree.out_degree(n) == 0)
        import networkx as nx  # loaded for a tree's animation only

        self.depth = nx.dag_longest_path_length(tree) if tree.number_of_nodes() > 1 else 1

    def figure(self):
        width = min(16.0, max(6.4, 0.55 * self.leaves))
        height = min(8.0, max(3.0, 0.9 * self.depth + 1.5))
        self.fig = new_figure(width, height)
        self.ax = self.fig.subplots()
        return self.fig

    def draw(self, k: int) -> None:
        ax = self.ax
        ax.clear()
        path = self.path[: min(k, len(self.path) - 1) + 1]
        title = round_title(self.transcript, k, self.mistakes)
        if k:
            y = int(self.transcript.labels[k - 1])
            p = float(self.transcript.predictions[k - 1])
            title += f"\npredicted {p:+.2g}, labelled {y:+d}"
            title += ": ✗ a mistake" if self.transcript.mistakes[k - 1] else ": ✓"
        name = self.tree.graph.get("name")
        head = f"the walk down a tree of depth {self.depth}" + (f" ({name})" if name else "")
        draw_tree(self.tree, path=path, prune=False, ax=ax, title=f"{head}\n{title}")
