"""Several games on one axes: each its own colour and label, a shared reference drawn once.

Every plotting function of :mod:`game.viz.plots` takes ``ax=`` (draw into
these axes) and ``label=`` (name this game in the legend). What one call draws
for one game is a *series*:

- a figure of one game (no ``label``, fresh axes) keeps the figures' fixed
  colours (the game in blue, an upper bound in red, a lower bound in green) and
  plain legend entries ("mistakes", "upper bound: mistakes ≤ 10");
- a game drawn with a ``label``, or over axes that already hold a game, takes
  the next colour of :data:`PALETTE` for everything it draws, and its legend
  entries start with its name ("perceptron: mistakes").

A *reference* (a bound, the best expert's loss, a proof's inequality) is drawn
once per distinct curve: a second game whose bound has the same value adds its
name to the entry of the line already there ("upper bound: mistakes ≤ 10
(halving, weighted-majority)"), which turns grey (:data:`SHARED`), the colour
of what several games share.

Examples
--------
>>> from game.viz.plots import new_figure
>>> fig, (ax,) = new_figure()
>>> first = begin_series(ax, "a", "learner")
>>> mark(ax.plot([0, 1], [0, 1], color=first.colour)[0]).get_gid()
'olg-series'
>>> second = begin_series(ax, "b", "learner")
>>> first.colour != second.colour, second.entry("mistakes")
(True, 'b: mistakes')
>>> for s in (first, second):
...     _ = reference(ax, s, "upper bound: mistakes ≤ 3", own_colour="C3", level=3.0)
>>> [line.get_label() for line in ax.get_lines()][-1]
'upper bound: mistakes ≤ 3 (a, b)'
"""

from __future__ import annotations

import hashlib
import weakref

import attrs
import numpy as np

from game.errors import check_instance

__all__ = [
    "PALETTE",
    "SHARED",
    "Series",
    "begin_series",
    "check_label",
    "mark",
    "reference",
    "ylabel_of",
]

#: The colours of games drawn with a label, in order (red and green are the bounds').
PALETTE = ("C0", "C1", "C4", "C5", "C6", "C7", "C8", "C9")

#: The colour of a reference line several games share.
SHARED = "0.35"

_SERIES = "olg-series"
_REFERENCE = "olg-reference:"

#: A reference line's entry without its owners, and the games it belongs to.
_OWNERS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

#: The words an axes' y label joins: the quantities of the games drawn on it.
_WORDS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


@attrs.frozen
class Series:
    """One game drawn on one axes.

    Attributes
    ----------
    name : str
        The game's name in the legend (its label, else the learner's name).
    labelled : bool
        Entries start with the name and take :attr:`colour`: a label was given,
        or the axes already held a game.
    colour : str
        The game's colour when labelled.
    index : int
        How many games the axes held before this one.
    """

    name: str
    labelled: bool
    colour: str
    index: int

    def entry(self, what: str) -> str:
        """A legend entry of this game: ``what``, after the game's name when labelled."""
        return f"{self.name}: {what}" if self.labelled else what

    def width(self, own: float) -> float:
        """The width of the game's main curve: later games thinner, so identical curves
        drawn over one another all show (the first as the widest band)."""
        return own if not self.labelled else max(1.0, 3.2 - 0.7 * self.index)

    def colour_or(self, own: str) -> str:
        """The colour to draw in: the figure's own colour for one game, else the game's."""
        return self.colour if self.labelled else own


def check_label(label) -> str | None:
    """``label`` as given: None or a string (else a ParameterError naming ``label``)."""
    if label is None:
        return None
    return check_instance("label", label, str, "a string naming the game in the legend")


def _games_on(ax) -> int:
    return sum(1 for artist in (*ax.get_lines(), *ax.collections) if artist.get_gid() == _SERIES)


def begin_series(ax, label: str | None, default: str) -> Series:
    """The series of a game about to be drawn on ``ax``: its name, colour and whether labelled.

    Parameters
    ----------
    ax : matplotlib Axes
        Where the game is drawn (its first axes, for a figure of several).
    label : str or None
        The game's name in the legend.
    default : str
        The name when no label is given (the learner's).
    """
    label = check_label(label)
    index = _games_on(ax)
    return Series(
        name=label if label is not None else default,
        labelled=label is not None or index > 0,
        colour=PALETTE[index % len(PALETTE)],
        index=index,
    )


def mark(artist):
    """Mark ``artist`` as a game's main curve (so the next game on the axes is told apart)."""
    artist.set_gid(_SERIES)
    return artist


def _key(what: str, values) -> str:
    data = np.round(np.asarray(values, dtype=np.float64), 12).tobytes()
    return _REFERENCE + hashlib.sha1(what.encode() + data, usedforsecurity=False).hexdigest()


def _shared_entry(what: str, owners: list[str]) -> str:
    return f"{what} ({', '.join(owners)})"


def reference(
    ax,
    series: Series,
    what: str,
    *,
    own_colour: str,
    x=None,
    y=None,
    level: float | None = None,
    linestyle: str = "-",
    linewidth: float = 1.3,
    **style,
):
    """Draw a reference curve once: ``y`` against ``x``, or a horizontal line at ``level``.

    When the axes already hold the same reference (the same entry and the same
    values), the game's name is added to its entry and the line turns
    :data:`SHARED`; nothing is drawn again.

    Parameters
    ----------
    ax : matplotlib Axes
        Where to draw.
    series : Series
        The game it belongs to.
    what : str
        Its legend entry, without the game's name.
    own_colour : str
        Its colour in a figure of one game.
    x, y : array_like, optional
        A curve.
    level : float, optional
        A horizontal line instead.
    linestyle, linewidth, **style
        How it is drawn; a solid line of a labelled game is drawn dashed, so it
        is not taken for the game's own curve.

    Returns
    -------
    matplotlib.lines.Line2D
        The line (drawn now or before).
    """
    key = _key(what, [level] if level is not None else np.concatenate([x, y]))
    for line in ax.get_lines():
        if line.get_gid() == key:
            base, owners = _OWNERS.get(line, (what, []))
            if series.name not in owners:
                owners.append(series.name)
            _OWNERS[line] = (base, owners)
            if len(owners) > 1:
                line.set_label(_shared_entry(base, owners))
                line.set_color(SHARED)
            return line
    colour = series.colour_or(own_colour)
    if series.labelled and linestyle in ("-", "solid"):
        linestyle = "--"
    kwargs = {"color": colour, "linestyle": linestyle, "linewidth": linewidth, **style}
    if level is not None:
        line = ax.axhline(level, label=series.entry(what), **kwargs)
    else:
        (line,) = ax.plot(x, y, label=series.entry(what), **kwargs)
    line.set_gid(key)
    _OWNERS[line] = (what, [series.name])
    return line


def ylabel_of(ax, template: str, word: str) -> None:
    """Label the y axis ``template`` with ``word`` in it, joined with the words of the games
    already drawn there ("cumulative mistakes / expected mistakes").

    Examples
    --------
    >>> from game.viz.plots import new_figure
    >>> fig, (ax,) = new_figure()
    >>> for word in ("mistakes", "expected mistakes", "mistakes"):
    ...     ylabel_of(ax, "cumulative {}", word)
    >>> ax.get_ylabel()
    'cumulative mistakes / expected mistakes'
    """
    words = _WORDS.setdefault(ax, [])
    if word not in words:
        words.append(word)
    ax.set_ylabel(template.format(" / ".join(words)))
