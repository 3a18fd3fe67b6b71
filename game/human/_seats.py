"""The seats a person plays through: the terminal, or a script of answers.

A seat shows lines (``show``) and reads one move (``ask``): it asks
with a prompt and hands the answer to a ``parse`` function, which returns the
move or raises :class:`ValueError` with the reason in one line; the seat then
shows ``✗ REASON`` and asks again, so a bad move is never the end of the game.
The end of the input (Ctrl-D at the terminal, a script run out) is an
:class:`EOFError` from ``ask``: the player decides what it means (see
:class:`~game.human.HumanLearner`, :class:`~game.human.HumanAdversary`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import attrs

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["ScriptedSeat", "Seat", "TerminalSeat"]


class Seat:
    """What a human player talks through: ``show`` lines and ``ask`` for a move."""

    def show(self, text: str) -> None:  # pragma: no cover - an interface
        """Show one or more lines to the person."""
        raise NotImplementedError

    def ask(self, prompt: str, parse: Callable[[str], Any]) -> Any:  # pragma: no cover
        """The first answer ``parse`` accepts (a refusal is shown and asked again)."""
        raise NotImplementedError


def _console() -> Console:
    from rich.console import Console

    return Console()


@attrs.define(eq=False)
class TerminalSeat(Seat):
    """The terminal: lines printed with rich, answers read from standard input.

    Parameters
    ----------
    console : rich.console.Console, optional
        Where lines go (default: a console on standard output).
    """

    console: Console = attrs.field(factory=lambda: _console())

    def show(self, text: str) -> None:
        """Print ``text`` (rich markup)."""
        self.console.print(text, highlight=False)

    def ask(self, prompt: str, parse: Callable[[str], Any]) -> Any:
        """Read lines until ``parse`` accepts one; EOFError at the end of the input."""
        from rich.markup import escape

        while True:
            try:
                answer = self.console.input(f"[bold]{escape(prompt)}[/]")
            except (EOFError, KeyboardInterrupt):
                self.console.print()  # what follows starts on a line of its own
                raise
            try:
                return parse(answer)
            except ValueError as exc:
                self.console.print(f"[red]✗[/] {escape(str(exc))}", highlight=False)


@attrs.define(eq=False)
class ScriptedSeat(Seat):
    """A script of answers, taken in order; what a person would have seen is kept.

    Used by tests, the tutorial and by ``python -m game replay`` (a recorded
    human game is replayed with the recorded moves as its script).

    Parameters
    ----------
    answers : iterable of str
        The answers, one per question (a refused answer uses one up too). When
        they run out, ``ask`` raises EOFError, as the end of a terminal's input does.
    echo : bool, default False
        Also print every line shown, prompt and answer (for a notebook).

    Attributes
    ----------
    transcript : list of str
        Every line shown, and each question as ``PROMPT ANSWER``.
    refusals : list of str
        The reasons of the answers refused, in order.

    Examples
    --------
    >>> seat = ScriptedSeat(["seven", "7"])
    >>> seat.ask("a number? ", int)
    7
    >>> seat.refusals
    ["invalid literal for int() with base 10: 'seven'"]
    >>> seat.ask("another? ", int)
    Traceback (most recent call last):
    ...
    EOFError: the script of answers has run out
    """

    answers: list[str] = attrs.field(converter=list)
    echo: bool = False
    transcript: list[str] = attrs.field(factory=list, init=False)
    refusals: list[str] = attrs.field(factory=list, init=False)
    _next: int = attrs.field(default=0, init=False, repr=False)

    def _say(self, line: str) -> None:
        self.transcript.append(line)
        if self.echo:
            print(line)

    def show(self, text: str) -> None:
        """Keep ``text`` (its rich markup removed), and print it when echoing."""
        from rich.text import Text

        for line in Text.from_markup(text).plain.splitlines() or [""]:
            self._say(line)

    def ask(self, prompt: str, parse: Callable[[str], Any]) -> Any:
        """The next answers, until ``parse`` accepts one; EOFError when they run out."""
        while True:
            if self._next >= len(self.answers):
                raise EOFError("the script of answers has run out")
            answer = self.answers[self._next]
            self._next += 1
            self._say(f"{prompt}{answer}")
            try:
                return parse(answer)
            except ValueError as exc:
                self.refusals.append(str(exc))
                self._say(f"✗ {exc}")

    @property
    def remaining(self) -> list[str]:
        """The answers not used yet."""
        return self.answers[self._next :]
