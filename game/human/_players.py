"""The human players: a person predicts, or a person chooses instances and labels.

Both talk through a seat (:mod:`game.human` ``TerminalSeat`` by default, or a
``ScriptedSeat``): given as ``seat=``, else the one :func:`seated` sets for a
``with`` block, else a terminal. The seat is never part of the transcript's
header: a game played at the terminal and its replay from a script of the
recorded moves have the same header and the same digest.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator
from typing import Any, ClassVar

import attrs
import numpy as np

from game.errors import ParameterError
from game.human._moves import (
    END,
    parse_instance,
    parse_label,
    parse_prediction,
)
from game.human._seats import Seat, TerminalSeat
from game.players import concept_class_field, integer_at_least, loss_field, one_of
from game.protocol import INSTANCE_KINDS
from game.theory import get_loss

__all__ = ["HumanAdversary", "HumanLearner", "seated"]

_SEAT: contextvars.ContextVar[Seat | None] = contextvars.ContextVar("seat", default=None)

#: At most this many hypotheses (or experts) are listed one by one.
LISTED = 8


@contextlib.contextmanager
def seated(seat: Seat) -> Iterator[Seat]:
    """Within the block, a human player built without a seat talks through ``seat``.

    Examples
    --------
    >>> from game.human import ScriptedSeat
    >>> with seated(ScriptedSeat(["+"])) as seat:
    ...     HumanLearner().predict(np.array([1, -1], dtype=np.int8))
    1.0
    """
    token = _SEAT.set(seat)
    try:
        yield seat
    finally:
        _SEAT.reset(token)


class _Seated:
    """What both human players share: the seat they talk through, taken when first needed."""

    __slots__ = ()

    def _taken_seat(self) -> Seat:
        """The player's seat: its own, else the one :func:`seated` holds, else the terminal."""
        if self._seat is None:
            self._seat = _SEAT.get() or TerminalSeat()
        return self._seat


def _sign(v: float) -> str:
    return "+" if v >= 0 else "−"


def _row(matrix_row: np.ndarray) -> str:
    return "".join("+" if v > 0 else "−" for v in matrix_row)


def _describe_instance(x: Any, cls: Any) -> str:
    """One line for the instance of a round."""
    if isinstance(x, int | np.integer) and not isinstance(x, bool):
        name = ""
        if cls is not None and 0 <= x < cls.n_points and cls.point_names[x] != str(x):
            name = f" ({cls.point_names[x]})"
        return f"point {int(x)}{name}"
    x = np.asarray(x)
    if x.dtype.kind == "i" and x.ndim == 1 and x.size and np.all(np.abs(x) == 1):
        signs = " ".join("+" if v > 0 else "−" for v in x[:64])
        return f"advice {signs}{' …' if x.size > 64 else ''}"
    if x.dtype == np.bool_ or (x.dtype.kind == "u" and x.size and x.max() <= 1):
        return "x = " + "".join("1" if v else "0" for v in x)
    shown = ", ".join(f"{v:g}" for v in x[:12])
    return f"x = ({shown}{', …' if x.size > 12 else ''})  [{x.size} entries]"


def _version_space(cls: Any, alive: np.ndarray, x: int | None = None) -> list[str]:
    """What the learner knows of a finite class: the hypotheses consistent so far."""
    n, left = cls.n_hypotheses, int(np.count_nonzero(alive))
    lines = [f"version space: {left} of {n} hypotheses consistent so far"]
    rows = np.flatnonzero(alive)
    if x is not None and left:
        plus = int(np.count_nonzero(cls.matrix[rows, x] > 0))
        lines.append(f"  on point {x}: {plus} of them say +1, {left - plus} say −1")
    if 0 < left <= LISTED:
        for h in rows:
            row = _row(cls.matrix[h]) if cls.n_points <= 40 else ""
            lines.append(f"  {cls.hypothesis_names[h]:>6}  {row}")
    return lines


def _kind_check(instance, attribute, value) -> None:
    if value is not None:
        one_of(*INSTANCE_KINDS)(instance, attribute, value)


@attrs.define(eq=False)
class HumanLearner(_Seated):
    """A person predicts: each round shows what the theory says a learner sees.

    Each round the seat shows the round number, the instance (a point of the
    finite class, a bit vector, a vector, or the experts' advice), and what a
    learner knows so far: with a finite class (the scenario's
    ``[concept_class]``) the version space, its size and, when at most 8
    hypotheses are left, those hypotheses as rows of signs; with advice the
    experts still consistent and, for up to 8 experts, each one's cumulative
    loss; and the mistakes so far. It then asks for a prediction: ``+``,
    ``-``, ``+1``, ``-1`` or ``1``, or, when the game's loss is not zero-one,
    a number in [-1, 1]. After the label it shows the label and whether the
    prediction was a mistake.

    A bad answer is refused with the reason and asked again. The end of the
    input (Ctrl-D, or a script run out) stops the game as Ctrl-C does: a
    KeyboardInterrupt, every finished round kept.

    Parameters
    ----------
    concept_class : FiniteClass, optional
        The class the points belong to (the scenario supplies its ``[concept_class]``).
    loss : str, default "zero-one"
        The game's loss (the scenario supplies it): any other also takes numbers.
    kind : {"point", "bits", "vector", "advice"}, optional
        The kind of instance, when known (``python -m game play`` gives the
        adversary's): advice is then shown with the experts, graded advice too;
        without it only ±1 advice (signed integers) is.
    seat : Seat, optional
        Where the person sits (default: the one :func:`seated` sets, else the terminal).

    Notes
    -----
    The player declares itself deterministic (its predictions are a function
    of what it was shown), so a worst-case adversary's lower bound applies to
    it. ``update`` returns True on a mistake (a person corrected), else False.

    Examples
    --------
    >>> from game.human import ScriptedSeat
    >>> seat = ScriptedSeat(["maybe", "-"])
    >>> person = HumanLearner(concept_class=[[1, 1], [-1, 1], [-1, -1]], seat=seat)
    >>> person.predict(0), person.update(0, -1)
    (-1.0, False)
    >>> print("\\n".join(seat.transcript))
    round 1: point 0
    version space: 3 of 3 hypotheses consistent so far
      on point 0: 1 of them say +1, 2 say −1
          h0  ++
          h1  −+
          h2  −−
    mistakes so far: 0
    your prediction (+ or -): maybe
    ✗ a prediction is + or - (or +1, -1), got 'maybe'
    your prediction (+ or -): -
    label −1: right (mistakes so far: 0)
    """

    deterministic: ClassVar[bool] = True
    plays: ClassVar[frozenset[str]] = frozenset(INSTANCE_KINDS)

    concept_class: Any = concept_class_field(
        "the finite class the points belong to (its version space is shown)", required=False
    )
    loss: str = loss_field()
    kind: str | None = attrs.field(
        default=None,
        validator=_kind_check,
        metadata={"doc": "the kind of instance, when known: advice shows the experts"},
    )
    _seat: Seat | None = attrs.field(default=None, alias="seat", repr=False)
    _t: int = attrs.field(default=0, init=False, repr=False)
    _mistakes: int = attrs.field(default=0, init=False, repr=False)
    _alive: Any = attrs.field(default=None, init=False, repr=False)
    _expert_losses: Any = attrs.field(default=None, init=False, repr=False)
    _p: float = attrs.field(default=0.0, init=False, repr=False)
    _loss: float = attrs.field(default=0.0, init=False, repr=False)

    def _shown(self, x: Any) -> list[str]:
        cls = self.concept_class
        point = isinstance(x, int | np.integer) and not isinstance(x, bool)
        lines = [f"[bold]round {self._t}[/]: {_describe_instance(x, cls if point else None)}"]
        if point and cls is not None:
            if self._alive is None:
                self._alive = np.ones(cls.n_hypotheses, dtype=bool)
            if not 0 <= x < cls.n_points:
                raise ValueError(f"point {x} is outside the class's {cls.n_points} points")
            lines += _version_space(cls, self._alive, int(x))
        elif not point and (self.kind == "advice" or self.reads_as_advice(x)):
            lines += self._experts(np.asarray(x))
        lines.append(f"mistakes so far: {self._mistakes}")
        return lines

    @staticmethod
    def reads_as_advice(x: Any) -> bool:
        """Whether ``x`` is ±1 advice (signed integers, each −1 or +1): then experts are shown.

        Graded advice (floats) is shown as a vector.
        """
        a = np.asarray(x)
        return a.ndim == 1 and a.size > 0 and a.dtype.kind == "i" and bool(np.all(np.abs(a) == 1))

    def _experts(self, f: np.ndarray) -> list[str]:
        n = f.shape[0]
        if self._expert_losses is None or self._expert_losses.shape[0] != n:
            self._expert_losses = np.zeros(n)
        losses = self._expert_losses
        perfect = losses == 0
        plus = f >= 0
        lines = [f"advice of {n} experts: {int(plus.sum())} say +1, {n - int(plus.sum())} say −1"]
        if f.dtype.kind != "f":  # ±1 advice: the experts right on every round so far
            lines.append(
                f"experts consistent so far: {int(perfect.sum())} of {n}; among them "
                f"{int((plus & perfect).sum())} say +1, {int((~plus & perfect).sum())} say −1"
            )
        best = int(np.argmin(losses))
        lines.append(f"best expert so far: expert {best}, cumulative loss {losses[best]:g}")
        if n <= LISTED:
            for i in range(n):
                lines.append(f"  expert {i}: advises {f[i]:+g}, cumulative loss {losses[i]:g}")
        return lines

    def predict(self, x: Any) -> float:
        """Show the round and read the person's prediction."""
        self._t += 1
        seat = self._taken_seat()
        seat.show("\n".join(self._shown(x)))
        if self.loss == "zero-one":
            prompt = "your prediction (+ or -): "
        else:
            prompt = "your prediction (+, - or a number in [-1, 1]): "
        try:
            self._p = seat.ask(prompt, lambda text: parse_prediction(text, self.loss))
        except EOFError:
            raise KeyboardInterrupt("the input ended") from None
        return self._p

    def update(self, x: Any, y: int) -> bool:
        """Show the label and whether it was a mistake; True on a mistake."""
        mistake = (self._p >= 0) != (y > 0)
        self._mistakes += int(mistake)
        point = isinstance(x, int | np.integer) and not isinstance(x, bool)
        if point and self._alive is not None:
            self._alive &= (self.concept_class.matrix[:, int(x)] > 0) == (y > 0)
        elif self._expert_losses is not None and not point:
            loss = get_loss(self.loss)
            f = np.asarray(x, dtype=float)
            self._expert_losses = self._expert_losses + np.array([loss(v, y) for v in f])
        verdict = "[red]a mistake[/]" if mistake else "[green]right[/]"
        said = f"label {_sign(y)}1: {verdict} (mistakes so far: {self._mistakes}"
        if self.loss != "zero-one":
            self._loss += float(get_loss(self.loss)(self._p, y))
            said += f"; your {self.loss} loss so far: {self._loss:g}"
        self._taken_seat().show(said + ")")
        return bool(mistake)


@attrs.define(eq=False)
class HumanAdversary(_Seated):
    """A person chooses each instance, sees the prediction, and gives the label.

    The instance prompt takes a point's index (``kind="point"``), a bit vector
    like ``0110``, a vector like ``0.5, -1``, or advice like ``+ - +`` (or
    numbers in [-1, 1]); an empty line, ``q`` or the end of the input ends the
    game. The label prompt takes ``+``, ``-``, ``+1``, ``-1`` or ``1``. A bad
    answer is refused with the reason and asked again.

    With a finite class the game must stay realizable: a label that no
    hypothesis still consistent agrees with is refused, naming the label that
    would keep one; the certificate at the end is the consistent hypothesis of
    lowest index (a :class:`~game.theory.concepts.FiniteClassCertificate`), which the
    referee checks against every round, and against which the learner's bound
    (Halving's log₂ ``|H|``, SOA's Ldim) is reported. Without a class the
    person hands over no certificate, and the seat says so.

    Parameters
    ----------
    concept_class : FiniteClass, optional
        The class whose points are the instances (the scenario supplies its ``[concept_class]``).
    kind : {"point", "bits", "vector", "advice"}, optional
        The kind of instance (default "point" with a class; otherwise required).
    size : int, optional
        The number of entries of a vector, bit vector or advice (default: any).
    seat : Seat, optional
        Where the person sits (default: the one :func:`seated` sets, else the terminal).

    Examples
    --------
    >>> from game.human import ScriptedSeat
    >>> from game.protocol import History
    >>> seat = ScriptedSeat(["9", "1", "-", "+", "q"])
    >>> person = HumanAdversary(concept_class=[[1, 1], [-1, 1]], seat=seat)
    >>> h = History([], [], [])
    >>> person.instance(h), person.label(1, -1.0, h), person.instance(h)
    (1, 1, None)
    >>> for reason in seat.refusals:
    ...     print(reason)
    a point is an index from 0 to 1, got 9
    no hypothesis left labels point 1 with −1: the game must stay realizable (+1 keeps 2)
    >>> person.certificate().describe()
    "hypothesis 'h0' (row 0), over 2 points: ++"
    """

    concept_class: Any = concept_class_field(
        "the finite class whose points are the instances (keeps the game realizable)",
        required=False,
    )
    kind: str | None = attrs.field(
        default=None,
        validator=_kind_check,
        metadata={"doc": "point, bits, vector or advice (default point with a class)"},
    )
    size: int | None = attrs.field(
        default=None,
        validator=attrs.validators.optional(integer_at_least(1)),
        metadata={"doc": "the entries of a vector, bit vector or advice (default any)"},
    )
    _seat: Seat | None = attrs.field(default=None, alias="seat", repr=False)
    _alive: Any = attrs.field(default=None, init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        if self.kind is None:
            if self.concept_class is None:
                raise ParameterError(
                    "kind", None, "one of point, bits, vector, advice", "there is no finite class"
                )
            self.kind = "point"
        if self.concept_class is not None:
            if self.kind != "point":
                raise ParameterError("kind", self.kind, "point", "the game has a finite class")
            self._alive = np.ones(self.concept_class.n_hypotheses, dtype=bool)

    @property
    def presents(self) -> str:
        """The kind of instance the person enters."""
        return self.kind

    def _prompt(self) -> str:
        cls = self.concept_class
        if self.kind == "point":
            top = f" 0–{cls.n_points - 1}" if cls is not None else ""
            what = f"a point{top}"
        elif self.kind == "bits":
            what = "bits like 0110" if self.size is None else f"{self.size} bits like 0110"
        elif self.kind == "vector":
            n = "" if self.size is None else f"{self.size} "
            what = f"a vector of {n}numbers like 0.5, -1"
        else:
            n = "" if self.size is None else f"{self.size} "
            what = f"{n}experts' advice like + - +"
        return f"instance ({what}; empty or q ends the game): "

    def instance(self, history: Any) -> Any:
        """Read the next instance; None (the game ends) on an empty line, ``q`` or end of input."""
        seat = self._taken_seat()
        lines = [f"[bold]round {history.t}[/]: the learner's mistakes so far: {history.mistakes}"]
        if self._alive is not None:
            lines += _version_space(self.concept_class, self._alive)
        seat.show("\n".join(lines))
        points = self.concept_class.n_points if self.concept_class is not None else None

        def parse(text: str) -> Any:
            if text.strip().lower() in ("", *END):
                return None
            return parse_instance(text, self.kind, self.size, points)

        try:
            return seat.ask(self._prompt(), parse)
        except EOFError:
            return None

    def label(self, x: Any, p: float, history: Any) -> int:
        """Show the prediction and read the label (kept realizable with a class)."""
        seat = self._taken_seat()
        seat.show(f"the learner predicts {_sign(p)}1 (p = {p:g})")
        plus = None
        if self._alive is not None:
            plus = self.concept_class.matrix[:, int(x)] > 0

        def parse(text: str) -> int:
            y = parse_label(text)
            if plus is not None and not np.any(self._alive & (plus == (y > 0))):
                other = int(np.count_nonzero(self._alive & (plus != (y > 0))))
                raise ValueError(
                    f"no hypothesis left labels point {int(x)} with {_sign(y)}1: "
                    f"the game must stay realizable ({_sign(-y)}1 keeps {other})"
                )
            return y

        try:
            y = seat.ask("label (+ or -): ", parse)
        except EOFError:
            raise KeyboardInterrupt("the input ended") from None
        if plus is not None:
            self._alive &= plus == (y > 0)
        mistake = (p >= 0) != (y > 0)
        seat.show(f"label {_sign(y)}1: {'a mistake' if mistake else 'no mistake'}")
        return y

    def certificate(self) -> Any:
        """The consistent hypothesis of lowest index (None without a class, said so)."""
        if self._alive is None:
            self._taken_seat().show("no finite class: you hand over no certificate")
            return None
        alive = np.flatnonzero(self._alive)
        certificate = self.concept_class.certificate(int(alive[0]))
        self._taken_seat().show(f"your certificate: {certificate.describe()}")
        return certificate
