"""Figures: every plotting function on a game of each kind, inspected through the Figure.

Examples to paste::

    python -m game run scenarios/halving_lower_bound.toml --plot halving.png
    python -m game plot runs/halving_lower_bound.jsonl --kind regret
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import networkx as nx
import numpy as np
import pytest

pytest.importorskip("matplotlib")

import attrs
from matplotlib.collections import LineCollection

from adversaries import Replay, SeparableStream
from adversaries.experts import ExpertStream
from adversaries.halving import HalvingLowerBound
from game import GameError, ParameterError, load_scenario, play
from game.sweep import SweepResult
from game.viz import FIGURE_KINDS
from game.viz.plots import (
    draw_tree,
    figure_for,
    figures_for,
    plot_mistakes,
    plot_potential,
    plot_regret,
    plot_sweep,
    potential_kind,
    save_figure,
    walked_tree,
)
from game.viz.plots._figure import figure_bytes, thin
from game.viz.plots._kinds import is_expert_game
from game.viz.plots._mistakes import cumulative
from game.viz.plots._regret import bound_curve_of
from game.viz.plots._tree import tree_layout, tree_path
from learners import MarginPerceptron, Perceptron
from learners.experts import (
    ExponentialWeights,
    Halving,
    RandomizedWeightedMajority,
    WeightedMajority,
)

ROOT = Path(__file__).resolve().parents[3]
SCENARIOS = ROOT / "scenarios"
PNG = b"\x89PNG\r\n\x1a\n"


def labels_of(ax) -> list[str]:
    """The legend entries of the lines of ``ax`` (lines without a label are left out)."""
    return [line.get_label() for line in ax.get_lines() if not line.get_label().startswith("_")]


def line(ax, prefix: str):
    """The (x, y) data of the one line whose label is ``prefix`` or starts with it."""
    lines = ax.get_lines()
    exact = [ln for ln in lines if ln.get_label() == prefix]
    (found,) = exact or [ln for ln in lines if ln.get_label().startswith(prefix)]
    return np.asarray(found.get_xdata(), float), np.asarray(found.get_ydata(), float)


# -- games of each kind ---------------------------------------------------------------------
@pytest.fixture(scope="module")
def perceptron():
    stream = SeparableStream(8, 0.1, 1.0, np.random.default_rng(0))
    return play(Perceptron(), stream, rounds=600, snapshots=True)


@pytest.fixture(scope="module")
def halving():
    return play(Halving(), HalvingLowerBound(7), rounds=20, snapshots=True)


@pytest.fixture(scope="module")
def ewa():
    stream = ExpertStream(32, 12, np.random.default_rng(1), horizon=300, graded=True)
    learner = ExponentialWeights(eta=0.5, loss="absolute")
    return play(learner, stream, rounds=300, loss="absolute", snapshots=True)


@pytest.fixture(scope="module")
def weighted_majority():
    stream = ExpertStream(32, 10, np.random.default_rng(2), horizon=300)
    return play(WeightedMajority(beta=0.5), stream, rounds=300, snapshots=True)


@pytest.fixture(scope="module")
def randomized():
    stream = ExpertStream(32, 10, np.random.default_rng(3), horizon=300)
    learner = RandomizedWeightedMajority(beta=0.5, rng=np.random.default_rng(4))
    return play(learner, stream, rounds=300, snapshots=True)


@pytest.fixture(scope="module")
def soa():
    return load_scenario(SCENARIOS / "soa_thresholds.toml").play(snapshots=True)


@pytest.fixture(scope="module")
def tree_game():
    return load_scenario(SCENARIOS / "tree_halving.toml").play(snapshots=True)


GAMES = ["perceptron", "halving", "ewa", "weighted_majority", "randomized", "soa", "tree_game"]
EXPERT_GAMES = ["halving", "ewa", "weighted_majority", "randomized", "soa", "tree_game"]


# -- every figure on every kind of game writes a PNG -----------------------------------------
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("kind", FIGURE_KINDS)
def test_every_figure_that_applies_writes_a_png(request, tmp_path, game, kind):
    tr = request.getfixturevalue(game)
    applies = {
        "mistakes": True,
        "regret": game in EXPERT_GAMES,
        "potential": True,
        "tree": game == "tree_game",
    }[kind]
    assert (kind in figures_for(tr)) == applies
    if not applies:
        with pytest.raises(GameError):
            figure_for(tr, kind)
        return
    fig = figure_for(tr, kind)
    path = save_figure(fig, tmp_path / f"{game}-{kind}.png", dpi=40)
    data = path.read_bytes()
    assert data.startswith(PNG) and len(data) > 1000
    assert len(fig.axes) == {"mistakes": 1, "regret": 2, "tree": 1}.get(
        kind, 2 if game == "perceptron" else 1
    )


# -- mistakes ---------------------------------------------------------------------------------
def test_mistakes_draws_counts_and_the_bound(perceptron):
    (ax,) = plot_mistakes(perceptron).axes
    assert ax.get_xlabel() == "round t"
    x, y = line(ax, "mistakes")
    assert y[-1] == perceptron.observed("mistakes") and x[-1] == len(perceptron)
    _, bound = line(ax, "upper bound")
    assert np.allclose(bound, perceptron.bound.value)
    assert "lower bound" not in " ".join(labels_of(ax))


def test_mistakes_draws_updates_only_where_they_differ():
    # a zero score on round 1 with label +1: the Perceptron of lecture 16 updates, no mistake
    X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    tr = play(Perceptron(), Replay(instances=X, labels=[1, -1, 1]), rounds=3)
    assert tr.observed("updates") != tr.observed("mistakes")
    (ax,) = plot_mistakes(tr).axes
    # Replay hands over the data's best-margin separator: (R/γ*)² = (√2·√5)² = 10
    assert labels_of(ax) == ["mistakes", "updates", "upper bound: updates ≤ 10"]
    _, updates = line(ax, "updates")
    assert updates.tolist() == cumulative(tr, "updates").tolist()


def test_mistakes_draws_the_lower_bound_the_adversary_forces(halving):
    (ax,) = plot_mistakes(halving).axes
    assert labels_of(ax) == ["mistakes", "upper bound: mistakes ≤ 7", "lower bound: mistakes ≥ 7"]
    _, lower = line(ax, "lower bound")
    assert np.allclose(lower, 7.0)


def test_mistakes_draws_the_loss_when_the_bound_is_on_the_loss(ewa):
    (ax,) = plot_mistakes(ewa).axes
    assert labels_of(ax)[:2] == ["mistakes", "loss (absolute)"]
    _, loss = line(ax, "loss")
    assert np.isclose(loss[-1], ewa.observed("loss"))
    assert "updates" not in labels_of(ax)  # EWA changes its weights every round: noise


def test_long_games_are_thinned_but_keep_their_ends():
    idx = thin(10**6, 500)
    assert idx[0] == 0 and idx[-1] == 10**6 - 1 and len(idx) <= 501
    assert np.all(np.diff(idx) > 0)


# -- regret -----------------------------------------------------------------------------------
def test_regret_draws_learner_best_expert_and_bound(halving):
    fig = plot_regret(halving)
    top, bottom = fig.axes
    assert labels_of(top) == ["learner", "best expert", "bound"]
    assert labels_of(bottom) == ["regret", "regret the bound allows"]
    _, mine = line(top, "learner")
    _, best = line(top, "best expert")
    assert mine.tolist() == list(range(8)) and best.tolist() == [0.0] * 8
    _, regret = line(bottom, "regret")
    assert regret.tolist() == (mine - best).tolist()


@pytest.mark.parametrize("game", ["halving", "ewa", "weighted_majority", "randomized"])
def test_the_bound_after_the_last_round_is_the_learners_own(request, game):
    tr = request.getfixturevalue(game)
    curve = bound_curve_of(tr)
    assert len(curve.values) == len(tr) + 1
    assert curve.quantity == tr.bound.quantity
    assert np.isclose(curve.values[-1], tr.bound.value)
    # and the theorem holds after every round, not only at the end
    assert np.all(cumulative(tr, curve.quantity) <= curve.values + 1e-9)


# -- the players say what they are: no figure tells them apart by their names ----------------
def expert_game(learner, *, rounds: int = 150):
    stream = ExpertStream(16, 6, np.random.default_rng(5), horizon=rounds)
    snapshots = callable(getattr(learner, "snapshot", None))
    return play(learner, stream, rounds=rounds, snapshots=snapshots)


@pytest.mark.parametrize(
    "cls, make",
    [
        (WeightedMajority, lambda: WeightedMajority(beta=0.5)),
        (
            RandomizedWeightedMajority,
            lambda: RandomizedWeightedMajority(beta=0.5, rng=np.random.default_rng(0)),
        ),
    ],
)
def test_the_same_class_under_another_name_draws_the_same_figures(register, cls, make):
    builtin = expert_game(make())
    register("my-weighted-majority", cls)
    mine = expert_game(make())
    assert mine.header["learner"]["name"] == "my-weighted-majority"
    top_builtin, _ = plot_regret(builtin).axes
    top_mine, _ = plot_regret(mine).axes
    assert labels_of(top_mine) == labels_of(top_builtin)
    assert labels_of(top_mine)[-1] == "bound after round t"
    _, curve = line(top_mine, "bound after round t")
    assert curve.tolist() == line(top_builtin, "bound after round t")[1].tolist()
    assert curve[0] < curve[-1]  # the best expert's mistakes so far move it
    assert potential_kind(mine) == potential_kind(builtin) == cls.proof
    assert figures_for(mine) == figures_for(builtin) == ["mistakes", "regret", "potential"]


def test_the_margin_perceptron_under_another_name_keeps_its_own_proof(register):
    register("my-margin-perceptron", MarginPerceptron)
    stream = SeparableStream(5, 0.2, 1.0, np.random.default_rng(0))
    tr = play(MarginPerceptron(gamma=0.2), stream, rounds=300, snapshots=True)
    assert potential_kind(tr) == "margin-perceptron"
    _, bottom = plot_potential(tr).axes
    assert bottom.get_ylabel() == "‖w‖"  # the margin proof's panel, not Block–Novikoff's


@attrs.define
class Optimist:
    """Always +1, with a theorem of its own: at most 2 + t mistakes after round t."""

    deterministic = True
    plays = frozenset({"advice"})

    def predict(self, x) -> float:
        return 1.0

    def update(self, x, y) -> bool:
        return False

    @staticmethod
    def bound_curve(transcript):
        return 2.0 + np.arange(len(transcript) + 1)


def test_a_users_learner_gets_its_own_bound_curve_drawn(register):
    register("optimist", Optimist)
    tr = expert_game(Optimist(), rounds=40)
    top, bottom = plot_regret(tr).axes
    assert labels_of(top) == ["learner", "best expert", "bound after round t"]
    _, curve = line(top, "bound after round t")
    assert curve.tolist() == (2.0 + np.arange(41)).tolist()
    _, allowed = line(bottom, "regret the bound allows")
    _, best = line(top, "best expert")
    assert allowed.tolist() == (curve - best).tolist()


def test_a_learner_without_a_curve_gets_its_whole_game_bound_labelled_so(soa):
    assert not hasattr(type(soa), "bound_curve")  # the fixture is a game, its learner SOA
    top, _ = plot_regret(soa).axes
    assert labels_of(top)[-1] == "bound on the whole game"
    _, flat = line(top, "bound on the whole game")
    assert np.all(flat == soa.bound.value)


def test_a_constant_curve_is_labelled_bound(halving):
    curve = bound_curve_of(halving)
    assert curve.label == "bound" and np.all(curve.values == np.log2(128))


@attrs.define
class Careless(Optimist):
    """A curve declared as a plain method, or of the wrong length."""

    def bound_curve(self, transcript):
        return np.zeros(len(transcript) + 1)


@attrs.define
class Short(Optimist):
    @staticmethod
    def bound_curve(transcript):
        return np.zeros(len(transcript))  # one value per round, without round 0


def test_a_curve_the_figure_cannot_ask_for_is_a_clear_error(register):
    register("careless", Careless)
    register("short", Short)
    with pytest.raises(GameError, match="'careless': bound_curve must be a classmethod"):
        plot_regret(expert_game(Careless(), rounds=10))
    with pytest.raises(GameError, match=r"'short': bound_curve returned shape \(10,\); expected"):
        plot_regret(expert_game(Short(), rounds=10))


@pytest.mark.parametrize(
    "cls, make, loss",
    [
        (Halving, Halving, "zero-one"),
        (WeightedMajority, lambda: WeightedMajority(beta=0.7), "zero-one"),
        (ExponentialWeights, lambda: ExponentialWeights(eta=0.4, loss="squared"), "squared"),
        (ExponentialWeights, lambda: ExponentialWeights(loss_bound=20.0), "absolute"),
    ],
)
def test_the_learners_curve_ends_at_its_bound_and_holds_after_every_round(cls, make, loss):
    stream = ExpertStream(32, 0, np.random.default_rng(8), horizon=200, graded=loss != "zero-one")
    tr = play(make(), stream, rounds=200, loss=loss)
    curve = cls.bound_curve(tr)
    assert curve.shape == (201,) and np.isclose(curve[-1], tr.bound.value)
    assert np.all(np.diff(curve) >= 0)  # the best expert's loss never falls
    assert np.all(cumulative(tr, tr.bound.quantity) <= curve + 1e-9)


def test_exponential_weights_has_no_curve_where_its_theorem_does_not_apply():
    stream = ExpertStream(8, 2, np.random.default_rng(0), horizon=30)
    tr = play(ExponentialWeights(loss="zero-one"), stream, rounds=30, loss="zero-one")
    assert ExponentialWeights.bound_curve(tr) is None and not tr.bound.applies
    assert bound_curve_of(tr) is None


def test_regret_of_a_game_over_a_finite_class_reads_the_class_from_the_scenario(soa):
    assert np.ndim(soa.raw_instances[0]) == 0  # the instances are points
    top, _ = plot_regret(soa).axes
    _, best = line(top, "best expert")
    assert best[-1] == 0.0  # the optimal adversary's certificate is a perfect hypothesis


def test_regret_on_a_game_without_experts_is_a_clear_error(perceptron):
    assert not is_expert_game(perceptron)
    with pytest.raises(GameError, match=r"expert advice.*perceptron vs separable-stream"):
        plot_regret(perceptron)


# -- potentials ----------------------------------------------------------------------------------
def test_perceptron_potential_draws_both_claims(perceptron):
    top, bottom = plot_potential(perceptron).axes
    assert (top.get_ylabel(), bottom.get_ylabel()) == ("w·u", "‖w‖²")
    _, wu = line(top, "w·u")
    _, floor = line(top, "γ·k")
    _, norm2 = line(bottom, "‖w‖²")
    _, ceiling = line(bottom, "R²·k")
    assert len(wu) == len(perceptron) + 1
    assert np.all(wu >= floor - 1e-9) and np.all(norm2 <= ceiling + 1e-9)
    assert floor[-1] > 0 and np.isclose(ceiling[-1], perceptron.observed("updates"), rtol=1e-3)


def test_halving_potential_is_on_a_log_scale_between_one_and_the_halving_line(halving):
    (ax,) = plot_potential(halving).axes
    assert ax.get_yscale() == "log"
    _, size = line(ax, "|C|")
    _, ceiling = line(ax, "N·2^(−M)")
    assert size[0] == 128 and size[-1] == 1
    assert np.all(size <= ceiling) and np.all(size >= 1)


def test_exponential_weights_potential_lies_between_its_two_inequalities(ewa):
    (ax,) = plot_potential(ewa).axes
    assert len(labels_of(ax)) == 3
    _, gain = line(ax, "Φ − Φ₁")
    _, lower = line(ax, "(1 − e^(−η))·L_EWA")
    _, upper = line(ax, "η·L* + ln N")
    assert gain[0] == 0.0
    assert np.all(lower <= gain + 1e-9) and np.all(gain <= upper + 1e-9)


@pytest.mark.parametrize("game", ["weighted_majority", "randomized"])
def test_weighted_majority_potentials_lie_between_their_inequalities(request, game):
    tr = request.getfixturevalue(game)
    assert potential_kind(tr) == game.replace("_", "-").replace(
        "randomized", "randomized-weighted-majority"
    )
    (ax,) = plot_potential(tr).axes
    _, log_w = line(ax, "log₂ W")
    _, upper = line(ax, "log₂ N")
    _, lower = line(ax, "m·log₂ β")
    assert log_w[0] == 5.0
    assert np.all(lower <= log_w + 1e-9) and np.all(log_w <= upper + 1e-9)


def test_soa_potential_loses_a_dimension_per_mistake(soa):
    (ax,) = plot_potential(soa).axes
    _, dims = line(ax, "Ldim(V)")
    _, ceiling = line(ax, "Ldim(H) − M")
    assert np.all(dims <= ceiling) and np.all(dims >= 0)
    assert dims[0] - dims[-1] == soa.observed("mistakes")


def test_potential_needs_snapshots():
    stream = SeparableStream(3, 0.2, 1.0, np.random.default_rng(0))
    tr = play(Perceptron(), stream, rounds=10)
    with pytest.raises(GameError, match="snapshots=True"):
        plot_potential(tr)


def test_potential_of_a_learner_without_a_drawn_proof_names_it():
    tr = load_scenario(SCENARIOS / "conjunction_stream.toml").play(rounds=50)
    with pytest.raises(GameError, match="conjunction-learner"):
        plot_potential(tr)


# -- sweeps -----------------------------------------------------------------------------------
def small_sweep() -> SweepResult:
    rows = []
    for point, margin in enumerate([0.1, 0.2, 0.4]):
        for seed in range(6):
            mistakes = 30 - 10 * point + seed
            bound = 100.0 / (1 + point) ** 2 + 0.1 * seed
            rows.append(
                {
                    "point": point,
                    "adversary.margin": margin,
                    "seed": seed,
                    "mistakes": mistakes,
                    "updates": mistakes,
                    "loss": float(mistakes),
                    "bound": bound,
                    "bound_quantity": "updates",
                    "within_bound": mistakes <= bound,
                    "status": "complete",
                }
            )
    return SweepResult(
        rows=rows,
        columns=list(rows[0]),
        points=[{"adversary.margin": m} for m in (0.1, 0.2, 0.4)],
        grid_keys=["adversary.margin"],
        scenario="scenarios/perceptron_separable.toml",
        requested=len(rows),
    )


@pytest.mark.parametrize("kind", ["box", "violin"])
def test_sweep_draws_a_distribution_per_point_against_the_bound(tmp_path, kind):
    result = small_sweep()
    fig = plot_sweep(result, kind=kind)
    (ax,) = fig.axes
    assert [t.get_text() for t in ax.get_xticklabels()] == [
        "margin=0.1",
        "margin=0.2",
        "margin=0.4",
    ]
    assert ax.get_ylabel() == "updates per game"
    names = labels_of(ax)
    assert names[:2] == ["bound (median)", "bound (smallest)"]
    # at margin 0.4 the bound is 100/9 + 0.1·seed ≈ 11.1–11.6 and mistakes 10–15: violations
    bad = [r["seed"] for r in result.violations()]
    assert names[2] == f"over its bound: seed {', '.join(map(str, bad[:5]))}" + (
        f" and {len(bad) - 5} more" if len(bad) > 5 else ""
    )
    _, ys = line(ax, "over its bound")
    assert len(ys) == len(bad)
    assert save_figure(fig, tmp_path / "sweep.png").read_bytes().startswith(PNG)


def test_sweep_errors_are_clear():
    with pytest.raises(GameError, match="no finished game"):
        plot_sweep(SweepResult(rows=[], columns=[]))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"kind": "bars"}, "kind must be one of 'box', 'violin', got 'bars'"),
        ({"quantity": "x"}, "quantity must be one of 'mistakes', 'updates', 'loss', got 'x'"),
        ({"quantity": "regret"}, "quantity must be one of"),
        ({"log": "yes"}, "log must be one of False, True, got 'yes'"),
    ],
)
def test_plot_sweep_refuses_a_bad_argument_naming_it(kwargs, message):
    with pytest.raises(ParameterError, match=re.escape(message)) as info:
        plot_sweep(small_sweep(), **kwargs)
    assert info.value.parameter == next(iter(kwargs))


# -- trees ------------------------------------------------------------------------------------
def complete_tree(depth: int) -> nx.DiGraph:
    """Figure 21.1's numbering: node i has children 2i (label −1) and 2i + 1 (label +1)."""
    tree = nx.DiGraph()
    for node in range(1, 2**depth):
        tree.add_node(node, instance=node + 100)
        tree.add_edge(node, 2 * node, label=-1)
        tree.add_edge(node, 2 * node + 1, label=1)
    for leaf in range(2**depth, 2 ** (depth + 1)):
        tree.add_node(leaf, witness=leaf - 2**depth)
    return tree


def test_tree_layout_is_top_down_with_the_minus_child_on_the_left():
    pos = tree_layout(complete_tree(2))
    assert pos[1] == (1.5, 0.0)
    assert pos[2][0] < pos[3][0] and pos[2][1] == pos[3][1] == -1.0
    assert [pos[n][0] for n in (4, 5, 6, 7)] == [0.0, 1.0, 2.0, 3.0]


def test_draw_tree_labels_nodes_and_edges_and_highlights_the_walk():
    tree = complete_tree(3)
    assert tree_path(tree, labels=[1, -1, 1]) == [1, 3, 6, 13]
    fig = draw_tree(tree, labels=[1, -1, 1])
    (ax,) = fig.axes
    texts = {t.get_text() for t in ax.texts}
    assert {"101", "103", "106", "h5", "+", "−"} <= texts
    edges = [c for c in ax.collections if isinstance(c, LineCollection)]
    (walked,) = [c for c in edges if np.max(c.get_linewidth()) >= 2.5]
    assert len(walked.get_segments()) == 3
    assert sum(len(c.get_segments()) for c in edges) == tree.number_of_edges()
    assert "the walk: 3 edges" in ax.get_title()


def test_draw_tree_of_a_game_against_the_tree_adversary(tree_game, tmp_path):
    tree = walked_tree(tree_game)
    assert tree is not None
    path = tree_path(tree, transcript=tree_game)
    assert len(path) == len(tree_game) + 1 and tree.out_degree(path[-1]) == 0
    fig = draw_tree(tree, transcript=tree_game)
    assert "8 edges" in fig.axes[0].get_title()
    assert save_figure(fig, tmp_path / "tree.svg").read_text().lstrip().startswith("<?xml")


def test_a_transcript_that_did_not_walk_the_tree_is_refused(halving):
    with pytest.raises(ParameterError, match="did not walk this tree") as info:
        tree_path(complete_tree(3), transcript=halving)
    assert info.value.parameter == "transcript"


@pytest.mark.parametrize(
    ("call", "parameter", "message"),
    [
        (lambda: tree_path(complete_tree(2), labels=[1, 0]), "labels", "no edge labelled 0"),
        (lambda: tree_layout(nx.DiGraph([(1, 2), (3, 4)])), "tree", "with one root"),
        (lambda: tree_layout(nx.DiGraph([(1, 2), (2, 3), (3, 2)])), "tree", "a rooted tree"),
        (lambda: draw_tree(nx.DiGraph()), "tree", "tree must be a tree with a node"),
        (lambda: draw_tree({1: 2}), "tree", "tree must be a networkx.DiGraph, got {1: 2}"),
    ],
    ids=["label", "two roots", "not below the root", "empty", "not a graph"],
)
def test_drawing_a_malformed_tree_names_the_argument(call, parameter, message):
    with pytest.raises(ParameterError, match=re.escape(message)) as info:
        call()
    assert info.value.parameter == parameter


# -- files ------------------------------------------------------------------------------------
def test_save_figure_chooses_the_format_by_suffix(tmp_path, halving):
    fig = plot_mistakes(halving)
    assert save_figure(fig, tmp_path / "a" / "m.pdf").read_bytes().startswith(b"%PDF")
    assert b"<svg" in save_figure(fig, tmp_path / "m.svg").read_bytes()
    with pytest.raises(
        ParameterError, match=r"^path must be a file name ending in \.png, \.svg, \.pdf"
    ):
        save_figure(fig, tmp_path / "m.gif")


@pytest.mark.parametrize(
    ("call", "parameter", "message"),
    [
        (
            lambda fig: figure_bytes(fig, "xyz"),
            "fmt",
            "fmt must be one of 'png', 'svg', 'pdf', got 'xyz'",
        ),
        (lambda fig: figure_bytes(fig, dpi=0), "dpi", "dpi must be a number > 0, got 0"),
        (lambda fig: figure_bytes(fig, dpi=True), "dpi", "dpi must be a number > 0, got True"),
        (
            lambda fig: save_figure(fig, 5),
            "path",
            "path must be a path (str or os.PathLike), got 5",
        ),
        (lambda fig: save_figure(fig, "m.png", dpi=-1), "dpi", "dpi must be a number > 0"),
    ],
    ids=["format", "dpi 0", "dpi bool", "path", "save dpi"],
)
def test_figure_files_refuse_a_bad_argument_naming_it(halving, call, parameter, message):
    fig = plot_mistakes(halving)
    with pytest.raises(ParameterError, match=re.escape(message)) as info:
        call(fig)
    assert info.value.parameter == parameter
    assert figure_bytes(fig, "svg", dpi=np.int64(40)).lstrip().startswith(b"<?xml")


def test_an_unknown_figure_kind_is_a_parameter_error(halving):
    with pytest.raises(
        ParameterError, match=r"^kind must be one of 'mistakes', 'regret', "
    ) as info:
        figure_for(halving, "nope")
    assert info.value.parameter == "kind" and isinstance(info.value, GameError)


def test_figures_show_themselves_in_jupyter(halving):
    fig = plot_mistakes(halving)
    assert fig._repr_png_().startswith(PNG)


# -- imports ------------------------------------------------------------------------------------
VIZ = ROOT / "game" / "viz"
#: What a function of game.viz may import: the optional extra, or the one module wrapping it;
#: and networkx with the Littlestone trees, loaded only when a tree is drawn (the command
#: line imports the figures' modules for every command).
OPTIONAL = ("matplotlib", "game.viz.plots._display", "networkx", "game.theory.littlestone")


def module_of(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def viz_imports() -> dict[str, list[tuple[str, bool]]]:
    """Every import of every module of game/viz, at every level: (target, inside a function)."""
    modules = {module_of(p): p for p in VIZ.rglob("*.py")}
    found: dict[str, list[tuple[str, bool]]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges: list[tuple[str, bool]] = []

        def visit(node, in_function: bool, package=package, edges=edges) -> None:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                in_function = True
            if isinstance(node, ast.Import):
                edges.extend((alias.name, in_function) for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module != "__future__":
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, *([base] if base else [])])
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    edges.append((sub if sub in modules else base, in_function))
            for child in ast.iter_child_nodes(node):
                visit(child, in_function)

        visit(ast.parse(path.read_text(encoding="utf-8")), False)
        found[name] = edges
    return found


def test_the_walk_of_game_viz_finds_its_imports():
    imports = viz_imports()
    assert ("game.viz.plots._figure", False) in imports["game.viz.plots._regret"]
    assert ("game.viz.plots._display", True) in imports["game.viz.plots._figure"]
    assert "game.viz.plots._tree" in imports


def test_game_viz_has_no_import_cycle_even_inside_functions():
    imports = viz_imports()
    graph = {
        name: {target for target, _ in edges if target in imports and target != name}
        for name, edges in imports.items()
    }
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done

    def walk(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            assert state.get(nxt) != 1, "import cycle: " + " -> ".join([*path, node, nxt])
            if nxt not in state:
                walk(nxt, [*path, node])
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            walk(name, [])


def test_functions_of_game_viz_import_only_the_optional_extra():
    inside = {
        (name, target)
        for name, edges in viz_imports().items()
        for target, in_function in edges
        if in_function and not target.startswith(OPTIONAL)
    }
    assert inside == set()


def test_game_viz_never_imports_the_players():
    players = {
        (name, target)
        for name, edges in viz_imports().items()
        for target, _ in edges
        if target.split(".")[0] in ("learners", "adversaries")
    }
    assert players == set()


def test_the_figures_script_uses_only_the_public_faces():
    tree = ast.parse((ROOT / "docs" / "make_figures.py").read_text(encoding="utf-8"))
    modules = [
        n.module
        for n in ast.walk(tree)
        if isinstance(n, ast.ImportFrom) and n.module != "__future__"
    ]
    assert "game.viz.plots" in modules
    assert not [m for m in modules if any(part.startswith("_") for part in m.split("."))]
