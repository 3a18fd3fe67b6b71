"""Several games in one figure: each its own colour and name, each bound drawn once.

:func:`compare` is the common case of drawing with ``ax=`` and ``label=``
(:mod:`game.viz.plots._series`): three learners against one adversary, one
learner on a few streams, a learner before and after a change.

Examples
--------
>>> import numpy as np
>>> from game import play
>>> from learners import MarginPerceptron, Perceptron
>>> from adversaries import SeparableStream
>>> games = [play(learner, SeparableStream(5, 0.1, 1.0, np.random.default_rng(0)), rounds=300)
...          for learner in (Perceptron(), MarginPerceptron(gamma=0.05))]
>>> fig = compare(games)
>>> ax = fig.axes[0]
>>> ax.get_title()
'perceptron, margin-perceptron vs separable-stream'
>>> [line.get_label() for line in ax.get_lines()][:3]
['perceptron: mistakes', 'perceptron: updates', 'perceptron: upper bound: updates ≤ 99.34']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from game.errors import GameError, ParameterError, check_choice
from game.viz._figure_kinds import FIGURE_KINDS
from game.viz.plots._by_kind import figure_for
from game.viz.plots._figure import fit_height, game_title
from game.viz.plots._mistakes import learner_name
from game.viz.plots._potential import potential_kind

__all__ = ["compare", "compare_title", "game_labels"]

#: A title longer than this says how many games instead of naming them.
_TITLE_CHARS = 56


def _unique(names) -> list[str]:
    seen: list[str] = []
    for name in names:
        if name not in seen:
            seen.append(name)
    return seen


def game_labels(transcripts) -> list[str]:
    """Names that tell games apart: the learners', else ``learner vs adversary``, else numbered.

    Examples
    --------
    >>> class Game:
    ...     def __init__(self, learner, adversary):
    ...         self.header = {"learner": {"name": learner}, "adversary": {"name": adversary}}
    >>> game_labels([Game("halving", "a"), Game("soa", "a")])
    ['halving', 'soa']
    >>> game_labels([Game("halving", "a"), Game("halving", "b")])
    ['halving vs a', 'halving vs b']
    >>> game_labels([Game("halving", "a"), Game("halving", "a")])
    ['halving vs a (1)', 'halving vs a (2)']
    """
    for name_of in (learner_name, game_title):
        names = [name_of(tr) for tr in transcripts]
        if len(set(names)) == len(names):
            return names
    counts: Counter = Counter()
    numbered = []
    for name in names:
        counts[name] += 1
        numbered.append(f"{name} ({counts[name]})")
    return numbered


def compare_title(transcripts) -> str:
    """``"learners vs adversaries"`` of several games, each name once; counted when long.

    Examples
    --------
    >>> class Game:
    ...     def __init__(self, learner, adversary):
    ...         self.header = {"learner": {"name": learner}, "adversary": {"name": adversary}}
    >>> compare_title([Game("halving", "a"), Game("soa", "a")])
    'halving, soa vs a'
    >>> compare_title([Game(f"learner-number-{i}", "a") for i in range(5)])
    '5 learners vs a'
    """
    learners = _unique(learner_name(tr) for tr in transcripts)
    adversaries = _unique(
        str((tr.header.get("adversary") or {}).get("name", "adversary")) for tr in transcripts
    )
    learner_part = ", ".join(learners)
    adversary_part = ", ".join(adversaries)
    if len(learner_part) + len(adversary_part) + 4 <= _TITLE_CHARS:
        return f"{learner_part} vs {adversary_part}"
    if len(learners) > 1 and len(adversary_part) <= _TITLE_CHARS // 2:
        return f"{len(learners)} learners vs {adversary_part}"
    if len(adversaries) > 1 and len(learner_part) <= _TITLE_CHARS // 2:
        return f"{learner_part} vs {len(adversaries)} adversaries"
    return f"{len(transcripts)} games"


def _checked(transcripts, labels) -> tuple[list, list[str]]:
    if isinstance(transcripts, str | bytes) or not isinstance(transcripts, Sequence):
        raise ParameterError("transcripts", transcripts, "a list of transcripts")
    games = list(transcripts)
    if not games or not all(hasattr(tr, "header") for tr in games):
        raise ParameterError("transcripts", transcripts, "a non-empty list of transcripts")
    if labels is None:
        return games, game_labels(games)
    if isinstance(labels, str) or not isinstance(labels, Sequence):
        raise ParameterError("labels", labels, "a list of strings, one per transcript")
    names = list(labels)
    if len(names) != len(games) or not all(isinstance(n, str) for n in names):
        raise ParameterError(
            "labels", labels, f"a list of {len(games)} strings, one per transcript"
        )
    return games, names


def compare(transcripts, kind: str = "mistakes", labels=None, ax=None):
    """Several games' ``kind`` figure in one: each game its own colour and legend name.

    Every game is drawn as :func:`figure_for` draws it alone, into the same
    axes, with its label: its curves take its colour and its legend entries
    start with its name; a bound (or the best expert, or a proof's inequality)
    that several games share is drawn once, grey, its entry naming them all.
    The axes leave room around every game and every bound.

    Parameters
    ----------
    transcripts : sequence of Transcript
        The games, in the legend's order.
    kind : {"mistakes", "regret", "potential", "tree"}
        The figure (see :data:`game.viz.FIGURE_KINDS`); a potential figure needs games whose
        learners follow the same proof.
    labels : sequence of str, optional
        One name per game (default: the learners' names, or ``learner vs
        adversary`` where two learners share a name).
    ax : matplotlib Axes (or a pair, for the figures of two panels), optional
        Draw into these axes instead of a new figure.

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    ParameterError
        For an empty list, labels that do not match the games, an unknown kind.
    GameError
        For a game the figure does not apply to, or potentials of different proofs.
    """
    games, names = _checked(transcripts, labels)
    kind = check_choice("kind", kind, FIGURE_KINDS)
    if kind == "potential":
        proofs = _unique(str(potential_kind(tr)) for tr in games)
        if len(proofs) > 1:
            raise GameError(
                "the potential figures of these games follow different proofs "
                f"({', '.join(proofs)}): compare games whose learners follow one"
            )
    first = ax[0] if isinstance(ax, list | tuple) else ax
    titled = first is not None and bool(first.get_title())
    own = ax is None
    fig = figure_for(games[0], kind, ax=ax, label=names[0])
    if own:
        ax = fig.axes[0] if len(fig.axes) == 1 else list(fig.axes[:2])
        first = ax[0] if isinstance(ax, list) else ax
    for game, name in zip(games[1:], names[1:], strict=True):
        figure_for(game, kind, ax=ax, label=name)
    if not titled and kind != "tree":
        first.set_title(compare_title(games))
    if own:
        fit_height(fig)
    return fig
