"""Figures of solved games: a learner's forcing strategy, and minimax regret against T.

- :func:`draw_worst_case`: the strategy :func:`game.theory.solve.worst_case` found,
  drawn as the Littlestone trees are (:func:`draw_tree`), with the label not
  given at each node as a grey stub, the learner's prediction under each
  instance and its mistakes marked;
- :func:`plot_minimax_regret`: the exact minimax regret of the experts game for
  T = 1 … horizon (:func:`game.theory.solve.minimax_regret`) beside given
  learners' exact worst-case regret (:func:`game.theory.solve.worst_case_regret`),
  and, for two experts, Cover's √(T/2π).

Examples
--------
>>> from game.theory.concepts import intervals
>>> from game.theory.solve import worst_case
>>> from learners import Halving
>>> H = intervals(6)
>>> result = worst_case(Halving(concept_class=H), H)
>>> fig = draw_worst_case(result)
>>> fig.axes[0].get_title().splitlines()[0]
'Halving over intervals(6): 4 mistakes forced (Ldim 4)'
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from game.errors import ParameterError, check_instance, check_integer
from game.theory.solve import WorstCase, minimax_regret, worst_case_regret
from game.viz.plots._figure import caption, finish, fit_height, new_figure
from game.viz.plots._tree import draw_tree, tree_layout

__all__ = ["draw_worst_case", "plot_minimax_regret"]

_SIGN = {1: "+", -1: "−"}


def _display_tree(result: WorstCase) -> tuple[Any, list]:
    """The strategy's path with a stub for each label not given, labelled for reading."""
    import networkx as nx  # loaded when a tree is drawn, not with the figures

    shown = nx.DiGraph()
    tree = result.tree
    path, node = [], 1
    while tree.out_degree(node):
        data = tree.nodes[node]
        (child,) = tree.successors(node)
        edge = tree.edges[node, child]
        mark = " ✗" if edge.get("mistake") else ""
        name = data.get("point_name", data["instance"])
        shown.add_node(
            node,
            instance=data["instance"],
            point_name=f"{name}\nŷ {_SIGN[int(data['prediction'])]}{mark}",
        )
        shown.add_edge(node, child, label=edge["label"])
        other = 2 * node + (0 if edge["label"] > 0 else 1)
        shown.add_node(other, point_name="")
        shown.add_edge(node, other, label=-edge["label"])
        path.append(node)
        node = child
    leaf = tree.nodes[node]
    shown.add_node(node, witness=leaf["witness"], witness_name=leaf.get("witness_name", ""))
    path.append(node)
    for n in shown.nodes:
        if n not in path and "witness" not in shown.nodes[n]:
            shown.nodes[n].clear()
            shown.nodes[n]["witness_name"] = ""
            shown.nodes[n]["witness"] = -1
    return shown, path


def draw_worst_case(result: WorstCase, *, title: str | None = None, ax=None):
    """Draw a learner's worst case: the adversary's walk, its labels and the learner's mistakes.

    Parameters
    ----------
    result : WorstCase
        What :func:`game.theory.solve.worst_case` returned.
    title : str, optional
        The figure's title (default: the learner, the class, the value and Ldim).
    ax : matplotlib Axes, optional
        Draw into these axes instead of a new figure.

    Returns
    -------
    matplotlib.figure.Figure

    Notes
    -----
    Each internal node is a round: the point presented and, under it, the
    learner's prediction ŷ, marked ✗ when the label given (the edge walked,
    highlighted) is the other one. The grey stub at each node is the label the
    adversary did not give. The leaf is the hypothesis that gives every label
    of the walk (the certificate). An unbounded worst case is drawn up to the
    end of the first repetition of its cycle.
    """
    import networkx as nx  # loaded when a tree is drawn, not with the figures

    check_instance("result", result, WorstCase, "a WorstCase (game.theory.solve.worst_case)")
    shown, path = _display_tree(result)
    value = "mistakes without end" if result.unbounded else f"{result.value} mistakes forced"
    over = f" over {result.class_name}" if result.class_name else ""
    default = f"{result.learner or 'the learner'}{over}: {value} (Ldim {result.ldim})"
    fig = draw_tree(shown, path=path, prune=False, title=title or default, ax=ax)
    stubs = [n for n in shown.nodes if shown.nodes[n].get("witness") == -1]
    nx.draw_networkx_nodes(  # the labels not given: grey, over the leaves' green
        shown,
        tree_layout(shown),
        nodelist=stubs,
        ax=fig.axes[0],
        node_shape="s",
        node_color="white",
        edgecolors="0.75",
        node_size=600,
    )
    notes = [
        "Under each point, the learner's prediction ŷ; ✗: the label given is the other one. "
        "Grey: the label the adversary did not give; the leaf: the hypothesis that gives "
        "every label of the walk."
    ]
    if result.cycle is not None:
        notes.append(f"From round {result.cycle + 1} on the walk repeats without end.")
    caption(fig.axes[0], notes)
    if ax is None:
        fit_height(fig)
    return fig


def plot_minimax_regret(
    experts: int,
    horizon: int,
    learners: Mapping[str, Callable[[int], Any]] | None = None,
    *,
    max_states: int = 100_000,
    ax=None,
):
    """Exact minimax regret against T, beside learners' exact worst-case regret.

    Parameters
    ----------
    experts : int
        N, the number of experts (advice and outcomes ±1, absolute loss).
    horizon : int
        The largest T drawn; every T from 1 to it is solved.
    learners : mapping of str to callable, optional
        A name for the legend and a function of T returning a fresh learner for
        a game of T rounds (so a learner tuned to the horizon can be drawn).
    max_states : int, default 100,000
        Passed to :func:`~game.theory.solve.worst_case_regret` for each search.
    ax : matplotlib Axes, optional
        Draw into these axes instead of a new figure.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from learners import ExponentialWeights
    >>> fig = plot_minimax_regret(
    ...     2, 4, {"EWA, η = 1": lambda T: ExponentialWeights(eta=1.0, loss="absolute")}
    ... )
    >>> [line.get_label() for line in fig.axes[0].get_lines()]
    ['minimax regret (exact)', '√(T/2π), Cover', 'EWA, η = 1: worst case (exact)']
    """
    experts = check_integer("experts", experts, low=1)
    horizon = check_integer("horizon", horizon, low=1)
    learners = dict(learners or {})
    for name, make in learners.items():
        if not callable(make):
            raise ParameterError(
                "learners", name, "a mapping of names to functions of T returning a learner"
            )
    own = ax is None
    if own:
        fig, (ax,) = new_figure()
    else:
        fig = ax.figure
    T = list(range(1, horizon + 1))
    values = [minimax_regret(experts, t) for t in T]
    ax.plot(T, [float(v) for v in values], "o-", color="C0", label="minimax regret (exact)")
    if experts == 2:
        ax.plot(
            T,
            [math.sqrt(t / (2 * math.pi)) for t in T],
            ":",
            color="0.4",
            label="√(T/2π), Cover",
        )
    for i, (name, make) in enumerate(learners.items(), start=1):
        worst = [worst_case_regret(make(t), experts, t, max_states=max_states).value for t in T]
        ax.plot(
            T, [float(w) for w in worst], "s--", color=f"C{i}", label=f"{name}: worst case (exact)"
        )
    ax.set_xlabel("horizon T")
    ax.set_ylabel("regret")
    finish(ax, title=f"Binary prediction with {experts} experts: minimax regret")
    caption(
        ax,
        [
            "Advice and outcomes ±1, absolute loss; every value is solved exactly "
            "by backward induction (Cover 1965; Cesa-Bianchi & Lugosi 2006, §2.10)."
        ],
    )
    if own:
        fit_height(fig)
    return fig
