"""Figures fit for a lecture: room around the data, legends that cover nothing, text ≥ 9 pt,
games overlaid with their own colours and names, and pictures in a notebook.

The first test plays every built-in scenario and checks its default figure
(the mistakes against the bounds, and for a game of expert advice its regret
too): every bound line and the last point of the game lie strictly inside the
axes, never on the frame.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path

import networkx as nx
import numpy as np
import pytest

pytest.importorskip("matplotlib")

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.text import Text

from adversaries import SeparableStream
from adversaries.halving import HalvingLowerBound
from game import GameError, ParameterError, load_scenario, play
from game.sweep import SweepResult
from game.theory.concepts import intervals, thresholds
from game.theory.littlestone import LittlestoneTree, halfspace_tree, littlestone_tree
from game.viz.plots import (
    compare,
    draw_tree,
    figure_for,
    figures_for,
    new_figure,
    plot_mistakes,
    plot_potential,
    plot_regret,
    plot_sweep,
    save_figure,
)
from learners import MarginPerceptron, Perceptron
from learners.experts import Halving, RandomizedWeightedMajority, WeightedMajority

ROOT = Path(__file__).resolve().parents[3]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.toml"))


def entries(ax) -> list[str]:
    """The labels of the lines of ``ax`` that a legend shows."""
    return [ln.get_label() for ln in ax.get_lines() if not ln.get_label().startswith("_")]


def bound_lines(ax) -> list:
    return [ln for ln in ax.get_lines() if "bound" in ln.get_label()]


def strictly_inside(ax, x: float, y: float) -> bool:
    (x0, x1), (y0, y1) = sorted(ax.get_xlim()), sorted(ax.get_ylim())
    return x0 < x < x1 and y0 < y < y1


def y_strictly_inside(ax, y: float) -> bool:
    y0, y1 = sorted(ax.get_ylim())
    return y0 < y < y1


def rendered(fig):
    """The figure drawn once (tick labels and the layout exist), and its renderer."""
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    return canvas.get_renderer()


# -- every built-in scenario: the bound and the last point are inside the frame --------------
@pytest.fixture(scope="module", params=[p.stem for p in SCENARIOS])
def scenario_game(request):
    return load_scenario(ROOT / "scenarios" / f"{request.param}.toml").play(snapshots=True)


def test_every_scenario_draws_its_bounds_and_its_last_point_inside_the_axes(scenario_game):
    tr = scenario_game
    (ax,) = plot_mistakes(tr).axes
    x, y = (np.asarray(v, float) for v in ax.get_lines()[0].get_data())
    assert ax.get_lines()[0].get_label() == "mistakes"
    assert x[-1] == len(tr) and y[-1] == tr.observed("mistakes")
    assert strictly_inside(ax, x[-1], y[-1])
    finite = [b for b in (tr.bound, tr.lower_bound) if b is not None and math.isfinite(b.value)]
    lines = bound_lines(ax)
    assert len(lines) == len({(b.kind, b.quantity, b.value) for b in finite})
    for line in lines:
        (level,) = set(np.asarray(line.get_ydata(), float))
        assert y_strictly_inside(ax, level), line.get_label()
    for line in ax.get_lines():  # every curve ends inside too (updates, the loss)
        lx, ly = (np.asarray(v, float) for v in line.get_data())
        if line.get_transform().contains_branch_seperately(ax.transData)[0]:
            assert strictly_inside(ax, lx[-1], ly[-1]), line.get_label()
    if "regret" in figures_for(tr):
        for panel in plot_regret(tr).axes:
            for line in panel.get_lines():
                lx, ly = (np.asarray(v, float) for v in line.get_data())
                keep = np.isfinite(ly)
                if keep.any():
                    assert strictly_inside(panel, lx[keep][-1], ly[keep][-1]), line.get_label()
                    assert y_strictly_inside(panel, float(np.max(ly[keep])))


def test_the_scenarios_named_in_the_issue_show_their_whole_game():
    conjunction = load_scenario(ROOT / "scenarios" / "conjunction_lower_bound.toml").play()
    (ax,) = plot_mistakes(conjunction).axes
    assert ax.get_ylim()[1] > 21 > 20 and ax.get_xlim()[1] > 20 == len(conjunction)
    halving = load_scenario(ROOT / "scenarios" / "halving_lower_bound.toml").play()
    (ax,) = plot_mistakes(halving).axes
    x, y = ax.get_lines()[0].get_data()
    assert y[-1] == 10 and strictly_inside(ax, x[-1], y[-1])
    assert ax.get_lines()[0].get_markevery() == [len(x) - 1]  # the last count is marked


# -- legends and text --------------------------------------------------------------------------
@pytest.fixture(scope="module")
def perceptron():
    stream = SeparableStream(5, 0.1, 1.0, np.random.default_rng(0))
    return play(Perceptron(), stream, rounds=400, snapshots=True)


@pytest.fixture(scope="module")
def tree_game():
    return load_scenario(ROOT / "scenarios" / "tree_halving.toml").play(snapshots=True)


@pytest.fixture(scope="module")
def expert_games():
    return [
        play(learner, HalvingLowerBound(6), rounds=10, snapshots=True)
        for learner in (
            Halving(),
            WeightedMajority(beta=0.5),
            RandomizedWeightedMajority(beta=0.5, rng=np.random.default_rng(1)),
        )
    ]


def sweep_result() -> SweepResult:
    rows = [
        {
            "point": p,
            "adversary.margin": m,
            "seed": s,
            "mistakes": 20 - 5 * p + s,
            "updates": 20 - 5 * p + s,
            "bound": 40.0 / (p + 1),
            "bound_quantity": "updates",
            "within_bound": 20 - 5 * p + s <= 40.0 / (p + 1),
            "status": "complete",
        }
        for p, m in enumerate([0.1, 0.2])
        for s in range(5)
    ]
    return SweepResult(
        rows=rows,
        columns=list(rows[0]),
        points=[{"adversary.margin": 0.1}, {"adversary.margin": 0.2}],
        grid_keys=["adversary.margin"],
        requested=len(rows),
    )


def every_figure(perceptron, tree_game, expert_games):
    yield "mistakes", plot_mistakes(perceptron)
    yield "potential", plot_potential(perceptron)
    yield "regret", plot_regret(expert_games[1])
    yield "halving potential", plot_potential(expert_games[0])
    yield "tree", figure_for(tree_game, "tree")
    yield "sweep", plot_sweep(sweep_result())
    yield "compare", compare(expert_games)


def test_no_text_is_smaller_than_9_points(perceptron, tree_game, expert_games):
    for name, fig in every_figure(perceptron, tree_game, expert_games):
        rendered(fig)
        small = [
            (t.get_text(), t.get_fontsize())
            for t in fig.findobj(Text)
            if t.get_visible() and t.get_text().strip() and t.get_fontsize() < 9
        ]
        assert not small, f"{name}: {small[:3]}"


def test_legends_sit_beside_the_axes_inside_the_figure(perceptron, tree_game, expert_games):
    for name, fig in every_figure(perceptron, tree_game, expert_games):
        renderer = rendered(fig)
        page = fig.bbox
        legends = 0
        for ax in fig.axes:
            legend = ax.get_legend()
            if legend is None:
                continue
            legends += 1
            box, frame = legend.get_window_extent(renderer), ax.get_window_extent(renderer)
            assert box.x0 >= frame.x1, f"{name}: the legend overlaps the axes"
            assert box.x1 <= page.x1 + 1 and box.y0 >= page.y0 - 1, f"{name}: legend cut"
        assert legends or name == "tree", name


def test_the_caption_is_under_the_axes_and_readable(perceptron):
    fig = plot_mistakes(perceptron)
    renderer = rendered(fig)
    label = fig.get_supxlabel()
    assert "Block 1962" in label
    caption = fig._supxlabel
    assert caption.get_fontsize() >= 9
    assert caption.get_window_extent(renderer).y1 <= fig.axes[0].get_window_extent(renderer).y0


# -- the Perceptron's updates ------------------------------------------------------------------
def test_the_perceptron_draws_its_updates_when_its_bound_counts_them(perceptron):
    assert perceptron.bound.quantity == "updates"
    (ax,) = plot_mistakes(perceptron).axes
    assert [label.split(" ")[0] for label in entries(ax)] == ["mistakes", "updates", "upper"]
    x, updates = ax.get_lines()[1].get_data()
    assert updates[-1] == perceptron.observed("updates") and x[-1] == len(perceptron)


def test_updates_equal_to_the_mistakes_are_drawn_and_said_so():
    tr = load_scenario(ROOT / "scenarios" / "perceptron_separable.toml").play()
    assert tr.observed("updates") == tr.observed("mistakes")
    (ax,) = plot_mistakes(tr).axes
    assert "updates (= mistakes on this game)" in entries(ax)
    mistakes, updates = ax.get_lines()[0], ax.get_lines()[1]
    assert np.array_equal(mistakes.get_ydata(), updates.get_ydata())
    assert updates.get_linestyle() != "-"  # dashed over the mistakes, so both show


def test_a_bound_on_mistakes_draws_no_updates(expert_games):
    (ax,) = plot_mistakes(expert_games[0]).axes
    assert not [e for e in entries(ax) if e.startswith("updates")]


# -- several games on one axes --------------------------------------------------------------------
def test_games_drawn_with_labels_take_their_own_colours_and_names(expert_games):
    fig, (ax,) = new_figure()
    ax.set_title("three learners")
    for tr, name in zip(expert_games, ("H", "WM", "RWM"), strict=True):
        assert plot_mistakes(tr, ax=ax, label=name) is fig
    mains = [ln for ln in ax.get_lines() if ln.get_label().endswith(": mistakes")]
    assert [ln.get_label() for ln in mains] == ["H: mistakes", "WM: mistakes", "RWM: mistakes"]
    assert len({ln.get_color() for ln in mains}) == 3
    assert ax.get_title() == "three learners"  # not clobbered by the last game
    legend = [t.get_text().replace("\n", " ") for t in ax.get_legend().get_texts()]
    assert "H: mistakes" in legend and "RWM: mistakes" in legend


def test_games_drawn_over_one_another_without_labels_are_still_told_apart(expert_games):
    _, (ax,) = new_figure()
    for tr in expert_games[:2]:
        plot_mistakes(tr, ax=ax)
    mistakes = [ln for ln in ax.get_lines() if "mistakes" == ln.get_label().split(": ")[-1]]
    assert len(mistakes) == 2 and mistakes[0].get_color() != mistakes[1].get_color()
    assert mistakes[1].get_label() == "weighted-majority: mistakes"
    assert ax.get_title() == "halving vs halving-lower-bound"  # the first game's


def test_a_bound_several_games_share_is_drawn_once_naming_them(expert_games):
    fig = compare(expert_games)
    (ax,) = fig.axes
    lower = [ln for ln in ax.get_lines() if ln.get_label().startswith("lower bound")]
    assert len(lower) == 1
    assert lower[0].get_label() == (
        "lower bound: mistakes ≥ 6 (halving, weighted-majority, randomized-weighted-majority)"
    )
    uppers = [ln for ln in ax.get_lines() if "upper bound" in ln.get_label()]
    assert len(uppers) == 3  # three theorems, three values
    assert len({ln.get_color() for ln in uppers}) == 3
    assert ax.get_title() == "3 learners vs halving-lower-bound"
    for line in bound_lines(ax):
        assert y_strictly_inside(ax, float(line.get_ydata()[0]))


def test_compare_names_the_games_and_draws_each_bound_once(perceptron):
    other = play(
        MarginPerceptron(gamma=0.05),
        SeparableStream(5, 0.1, 1.0, np.random.default_rng(0)),
        rounds=400,
    )
    twice = compare([perceptron, perceptron], labels=["a", "b"])
    (ax,) = twice.axes
    upper = [ln for ln in ax.get_lines() if "upper bound" in ln.get_label()]
    assert len(upper) == 1 and upper[0].get_label().endswith("(a, b)")
    fig = compare([perceptron, other])
    assert fig.axes[0].get_title() == "perceptron, margin-perceptron vs separable-stream"
    assert "margin-perceptron: mistakes" in entries(fig.axes[0])


def test_compare_draws_regret_and_potentials_in_panels(expert_games, perceptron):
    fig = compare(expert_games, "regret")
    top, bottom = fig.axes
    assert len([e for e in entries(top) if e.startswith("best expert")]) == 1
    assert len([e for e in entries(bottom) if e.endswith(": regret")]) == 3
    assert "mistakes / expected mistakes" in top.get_ylabel()
    other = play(
        Perceptron(),
        SeparableStream(5, 0.3, 1.0, np.random.default_rng(0)),
        rounds=400,
        snapshots=True,
    )
    top, bottom = compare([perceptron, other], "potential", labels=["γ 0.1", "γ 0.3"]).axes
    assert [e for e in entries(top) if e.endswith("w·u")] == ["γ 0.1: w·u", "γ 0.3: w·u"]


def test_compare_refuses_what_it_cannot_draw(expert_games, perceptron):
    with pytest.raises(ParameterError) as info:
        compare([])
    assert info.value.parameter == "transcripts"
    with pytest.raises(ParameterError) as info:
        compare(perceptron)
    assert info.value.parameter == "transcripts"
    with pytest.raises(ParameterError, match="a list of 3 strings") as info:
        compare(expert_games, labels=["one"])
    assert info.value.parameter == "labels"
    with pytest.raises(ParameterError) as info:
        compare(expert_games, kind="nope")
    assert info.value.parameter == "kind"
    with pytest.raises(GameError, match="different proofs"):
        compare([perceptron, expert_games[0]], "potential")


def test_figures_take_one_axes_or_a_pair(expert_games, perceptron):
    fig, (ax,) = new_figure()
    plot_regret(expert_games[0], ax=ax, label="halving")
    assert entries(ax)[0] == "halving: regret" and ax.get_xlabel() == "round t"
    fig, axes = new_figure(3, 1)
    with pytest.raises(ParameterError) as info:
        plot_regret(expert_games[0], ax=axes)
    assert info.value.parameter == "ax"
    with pytest.raises(ParameterError, match="two Axes") as info:
        plot_potential(perceptron, ax=axes[0])
    assert info.value.parameter == "ax"
    with pytest.raises(ParameterError) as info:
        plot_mistakes(perceptron, label=3)
    assert info.value.parameter == "label"
    fig, (ax,) = new_figure()
    assert figure_for(expert_games[0], "potential", ax=ax, label="H") is fig
    assert entries(ax)[0] == "H: |C|, the experts right so far"


def test_two_sweeps_overlay_side_by_side():
    _, (ax,) = new_figure()
    plot_sweep(sweep_result(), ax=ax, label="first")
    plot_sweep(sweep_result(), ax=ax, label="second")
    boxes = [ln for ln in ax.get_lines() if ln.get_label() in ("first", "second")]
    assert len(boxes) == 2 and boxes[0].get_color() != boxes[1].get_color()
    centres = [float(np.mean(ln.get_xdata())) for ln in boxes]
    assert centres[1] > centres[0]
    assert [line.get_label() for line in bound_lines(ax)] == ["bound (median) (first, second)"]


def test_walks_drawn_over_one_tree_draw_the_tree_once():
    tree = littlestone_tree(thresholds(7))
    _, (ax,) = new_figure()
    draw_tree(tree, labels=[1, 1, 1], ax=ax, label="right")
    texts = len(ax.texts)
    edges = [c for c in ax.collections if c.get_gid() and c.get_gid().startswith("olg-tree:")]
    draw_tree(littlestone_tree(thresholds(7)), labels=[-1, -1, -1], ax=ax, label="left")
    again = [c for c in ax.collections if c.get_gid() and c.get_gid().startswith("olg-tree:")]
    assert len(edges) == len(again) == 1 and len(ax.texts) == texts  # the tree drawn once
    walks = [c for c in ax.collections if c.get_gid() == "olg-series"]
    assert len(walks) == 2 and not np.array_equal(walks[0].get_color(), walks[1].get_color())
    assert entries(ax) == ["right", "left"]


# -- files ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("suffix", [".png", ".svg", ".pdf"])
def test_every_figure_saves_in_each_format(tmp_path, suffix, perceptron, tree_game, expert_games):
    start = {".png": b"\x89PNG", ".svg": b"<?xml", ".pdf": b"%PDF"}[suffix]
    for name, fig in every_figure(perceptron, tree_game, expert_games):
        path = save_figure(fig, tmp_path / f"{name}{suffix}", dpi=40)
        assert path.read_bytes().startswith(start), name


# -- pictures in a notebook -----------------------------------------------------------------------
def test_a_littlestone_tree_draws_itself_as_svg():
    tree = littlestone_tree(thresholds(7))
    assert isinstance(tree, LittlestoneTree) and isinstance(tree, nx.DiGraph)
    svg = ET.fromstring(tree._repr_svg_())
    ns = "{http://www.w3.org/2000/svg}"
    texts = [t.text for t in svg.iter(f"{ns}text")]
    assert len(list(svg.iter(f"{ns}ellipse"))) == 7 and len(list(svg.iter(f"{ns}rect"))) == 8
    assert "a tree of depth 3, shattered by thresholds(7)" in texts
    assert texts.count("+") == 7 and texts.count("−") == 7
    assert {tree.nodes[n]["point_name"] for n in tree if "point_name" in tree.nodes[n]} <= set(
        texts
    )


def test_a_deep_tree_shows_its_top_levels_and_says_how_deep_it_goes():
    svg = littlestone_tree(intervals(32))._repr_svg_()
    assert "the top 4 levels" in svg and "+4 levels" in svg
    assert halfspace_tree(2)._repr_svg_().count("<rect") == 4
    assert halfspace_tree(2).copy()._repr_svg_() == halfspace_tree(2)._repr_svg_()


def test_a_graph_that_is_not_a_tree_falls_back_to_text():
    graph = LittlestoneTree([(1, 2), (3, 4)])
    assert graph._repr_svg_() is None


def test_a_scenario_shows_itself_as_a_table():
    html = load_scenario(ROOT / "scenarios" / "halving_lower_bound.toml")._repr_html_()
    assert html.startswith('<div class="olg">') and html.count("<table>") == 2
    assert "halving-lower-bound" in html and "expected on every run and replay" in html


def test_a_sweep_result_shows_its_figure():
    result = sweep_result()
    assert result._repr_png_().startswith(b"\x89PNG")
    assert "data:image/png;base64," in result._repr_html_()
    empty = SweepResult(rows=[], columns=[], requested=0)
    assert empty._repr_png_() is None
    assert "<img" not in empty._repr_html_()
