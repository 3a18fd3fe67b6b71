"""A corpus of hostile inputs: each run through the command line and judged.

Every :class:`HostileCase` is one input an attacker or a careless user could
give ``python -m game``: a scenario file, a data file a scenario names, a
transcript, a command-line argument, a player's name, or a user-written player
that breaks the round. Each says how to make it (in a folder it is given), the
command line that meets it, the exit status expected (2 for bad input, 1 for a
failed check) and the part of the one-line message that must be printed, and
what the line must never hold (a data file's content is never echoed).

:func:`run_case` runs one case in this process through :func:`game.cli.main`,
with standard output and error captured and a time limit, and judges it as one
of :data:`VERDICTS`:

- ``clean``: the expected exit status and one line on standard error holding
  the expected words (and none of the forbidden ones), no traceback;
- ``traceback``: an exception escaped, or standard error shows a traceback;
- ``hang``: the time limit passed;
- ``silent``: exit 0 where a refusal was expected;
- ``wrong``: refused, but not with the expected status or line.

:func:`run_corpus` runs every case and counts the verdicts by class;
``python -m game selfcheck`` prints the counts and fails unless every case is
clean. The cases marked ``isolate`` (a FIFO, ``/dev/zero``, a header claiming
terabytes) are those that would hang or exhaust memory if their refusal broke:
the test suite also runs each of them alone in a fresh interpreter under a
memory cap and a time limit.

Examples
--------
>>> import tempfile
>>> from game.cli import main
>>> from game.testing._corpus import corpus, run_case
>>> case = next(c for c in corpus() if c.name == "seeds-step-0")
>>> case.kind, case.status
('argument', 2)
>>> with tempfile.TemporaryDirectory() as folder:
...     outcome = run_case(case, folder, main)
>>> outcome.verdict
'clean'
>>> outcome.line  # doctest: +ELLIPSIS
"error: --seeds must be ... got '0:1:0' (the step of '0:1:0' is 0; it must be positive)"
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import signal
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from game.players import registered_for_now

__all__ = [
    "KINDS",
    "VERDICTS",
    "CaseOutcome",
    "CorpusReport",
    "HostileCase",
    "corpus",
    "run_case",
    "run_corpus",
]

#: The classes of hostile input, in the order selfcheck prints them.
KINDS = ("scenario", "data", "transcript", "argument", "name", "player")

#: How a case can end, in the order selfcheck prints them; only ``clean`` is right.
VERDICTS = ("clean", "traceback", "hang", "silent", "wrong")

#: Seconds one case may take in :func:`run_case` before it counts as a hang.
TIME_LIMIT = 20.0

_running = False

#: What a data file or a transcript holds that must never be echoed in an error.
SECRET = "db_password"


@attrs.frozen
class HostileCase:
    """One hostile input, the command line that meets it and the refusal it must get.

    Attributes
    ----------
    kind : str
        Its class, one of :data:`KINDS`.
    name : str
        A short name, unique in its class.
    make : callable
        ``make(folder) -> argv``: writes what the case needs into ``folder``
        (a :class:`pathlib.Path`) and returns the arguments of ``python -m game``.
    status : int
        The exit status expected: 2 for bad input, 1 for a failed check.
    says : str
        Words the one line on standard error must hold.
    never : tuple of str
        Words it must not hold (what the hostile file contains).
    players : dict
        User-written players registered by name while the case runs.
    installed : dict
        Player entry points that seem installed while the case runs: name ->
        ``"module:attribute"``.
    isolate : bool
        Would hang or exhaust memory if its refusal broke: the tests run it
        alone in a fresh interpreter under a memory cap.
    """

    kind: str = attrs.field(validator=attrs.validators.in_(KINDS))
    name: str
    make: Callable[[Path], list[str]] = attrs.field(repr=False)
    status: int
    says: str
    never: tuple[str, ...] = ()
    players: dict = attrs.field(factory=dict, repr=False)
    installed: dict = attrs.field(factory=dict, repr=False)
    isolate: bool = False


@attrs.frozen
class CaseOutcome:
    """How one case ended: its verdict, exit status and what standard error said."""

    case: HostileCase
    verdict: str
    status: int | None
    err: str
    seconds: float

    @property
    def line(self) -> str:
        """The last line on standard error (the error line, or a traceback's last)."""
        lines = self.err.strip().splitlines()
        return lines[-1] if lines else ""

    def describe(self) -> str:
        """One line: the case, its verdict and what was printed."""
        return (
            f"corpus {self.case.kind}/{self.case.name}: {self.verdict} "
            f"(exit {self.status}, expected {self.case.status}): {self.line!r}"
        )


@attrs.define
class CorpusReport:
    """Every case's outcome, counted by class and by verdict."""

    outcomes: list[CaseOutcome] = attrs.field(factory=list)

    def by_kind(self) -> dict[str, int]:
        """The number of cases of each class, in the order of :data:`KINDS`."""
        return {k: sum(o.case.kind == k for o in self.outcomes) for k in KINDS}

    def by_verdict(self) -> dict[str, int]:
        """The number of cases of each verdict, in the order of :data:`VERDICTS`."""
        return {v: sum(o.verdict == v for o in self.outcomes) for v in VERDICTS}

    @property
    def failures(self) -> list[str]:
        """One line for each case that was not clean."""
        return [o.describe() for o in self.outcomes if o.verdict != "clean"]

    @property
    def ok(self) -> bool:
        """Every case was clean."""
        return all(o.verdict == "clean" for o in self.outcomes)


# -- running a case -----------------------------------------------------------------------


class _Hang(BaseException):
    """Raised by the time limit's alarm: no handler of the command line catches it."""


@contextlib.contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`_Hang` after ``seconds`` (only in the main thread, where signals go)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(
        signal, "setitimer"
    ):
        yield
        return

    def alarm(signum, frame):
        raise _Hang

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def judge(case: HostileCase, status: int | None, err: str) -> str:
    """The verdict of a case that exited with ``status`` after printing ``err``.

    Examples
    --------
    >>> case = HostileCase("argument", "x", lambda folder: [], 2, "--seeds")
    >>> judge(case, 2, "error: --seeds must be a seed\\n")
    'clean'
    >>> judge(case, 0, ""), judge(case, 1, "failed: no\\n"), judge(case, 2, "error: a\\nb\\n")
    ('silent', 'wrong', 'wrong')
    """
    if "Traceback (most recent call last)" in err:
        return "traceback"
    if status == 0:
        return "silent"
    lines = err.strip().splitlines()
    if (
        status == case.status
        and len(lines) == 1
        and case.says in lines[0]
        and not any(word in lines[0] for word in case.never)
    ):
        return "clean"
    return "wrong"


def run_case(
    case: HostileCase,
    folder: str | os.PathLike,
    main: Callable[[list[str]], int],
    limit: float = TIME_LIMIT,
) -> CaseOutcome:
    """Make ``case`` in ``folder`` and run its command line in this process; judge it.

    Parameters
    ----------
    case : HostileCase
        The case.
    folder : path-like
        An empty folder the case's files are made in.
    main : callable
        The command line's entry point, ``main(argv) -> exit status``
        (:func:`game.cli.main`; handed in, since the command line imports this
        package).
    limit : float
        Seconds before the case counts as a hang (enforced in the main thread).
    """
    folder = Path(folder)
    start = time.perf_counter()
    out, err = io.StringIO(), io.StringIO()
    status: int | None = None
    hang = False
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            with registered_for_now(case.players, case.installed), _time_limit(limit):
                argv = case.make(folder)
                status = main(argv)
        except SystemExit as exc:  # argparse's usage errors
            status = exc.code if isinstance(exc.code, int) else 1
        except _Hang:
            hang = True
        except BaseException:  # judged as a traceback
            traceback.print_exc(file=err)
    seconds = time.perf_counter() - start
    text = err.getvalue()
    verdict = "hang" if hang else judge(case, status, text)
    return CaseOutcome(case, verdict, status, text, seconds)


def run_corpus(
    main: Callable[[list[str]], int],
    cases: list[HostileCase] | None = None,
    *,
    limit: float = TIME_LIMIT,
) -> CorpusReport:
    """Run every case (default: the whole :func:`corpus`) through ``main``, each in a fresh folder.

    Examples
    --------
    >>> from game.cli import main
    >>> report = run_corpus(main, [c for c in corpus() if c.kind == "name"])
    >>> report.by_verdict()["clean"] == report.by_kind()["name"], report.ok
    (True, True)
    """
    global _running
    report = CorpusReport()
    _running, running = True, _running
    try:
        for case in corpus() if cases is None else cases:
            with tempfile.TemporaryDirectory(prefix="corpus-") as folder:
                report.outcomes.append(run_case(case, folder, main, limit))
    finally:
        _running = running
    return report


def running() -> bool:
    """Whether the corpus is running: a ``selfcheck`` it runs must not run it again."""
    return _running


# -- making cases -------------------------------------------------------------------------

_SEPARABLE = """\
rounds = 20
seed = 0

[learner]
name = "{learner}"

[adversary]
name = "{adversary}"
dimension = 3
margin = 0.1
"""

_REPLAY = """\
rounds = 3

[learner]
name = "perceptron"

[adversary]
name = "replay"
"""

_CLASS = """\
rounds = 5

[learner]
name = "halving"

[adversary]
name = "optimal"

[concept_class]
"""


def _write(folder: Path, name: str, content: str | bytes) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def _run(path: Path | str, *more: str) -> list[str]:
    return ["run", str(path), "--no-out", "--quiet", *more]


def _scenario(text: str) -> Callable[[Path], list[str]]:
    """A case: ``run`` of a scenario file holding ``text``."""
    return lambda folder: _run(_write(folder, "s.toml", text))


def _made(make_path: Callable[[Path], Any], name: str = "s.toml", command: str = "run"):
    """A case: ``command`` on the path ``folder/name`` after ``make_path`` made it."""

    def make(folder: Path) -> list[str]:
        path = folder / name
        make_path(path)
        if command == "run":
            return _run(path)
        return [command, str(path)]

    return make


def _digits(line: str, n: int) -> str:
    """A round's line whose round number is an integer of ``n`` nines."""
    return re.sub(r'"t":\s*1\b', '"t": ' + "9" * n, line, count=1)


def _symlink_loop(path: Path) -> None:
    other = path.with_name("other" + path.suffix)
    path.symlink_to(other)
    other.symlink_to(path)


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _sparse(size: int) -> Callable[[Path], None]:
    def make(path: Path) -> None:
        with open(path, "wb") as f:
            f.truncate(size)  # nothing is written

    return make


def _npy_header(shape: tuple, size: int = 192) -> bytes:
    """The bytes of a .npy file of ``size`` bytes whose header claims ``shape``."""
    f = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        f, {"descr": "<f8", "fortran_order": False, "shape": shape}
    )
    return f.getvalue() + b"\0" * (size - len(f.getvalue()))


def _npy(array: Any) -> bytes:
    f = io.BytesIO()
    np.save(f, np.asarray(array))
    return f.getvalue()


_X = _npy([[1.0, 0.0], [0.0, 1.0], [2.0, 1.0]])
_Y = "1\n-1\n1\n"


def _data(instances: str, content: str | bytes | Callable[[Path], Any], labels: str = "y.csv"):
    """A case: a replay scenario whose data file ``data/<instances>`` is made hostile.

    ``content`` is the file's bytes or text, or a callable that makes the path.
    """

    def make(folder: Path) -> list[str]:
        _write(folder, "data/X.npy", _X)
        _write(folder, "data/y.csv", _Y)
        target = folder / "data" / instances
        if callable(content):
            content(target)
        else:
            _write(folder, f"data/{instances}", content)
        which = "labels" if instances.startswith("y") else "instances"
        lines = {"instances": '"data/X.npy"', "labels": f'"data/{labels}"'}
        lines[which] = json.dumps(instances if instances[0] == "/" else f"data/{instances}")
        text = _REPLAY + "".join(f"{k} = {v}\n" for k, v in lines.items())
        return _run(_write(folder, "s.toml", text))

    return make


def _inline(instances: str) -> Callable[[Path], list[str]]:
    return _scenario(_REPLAY.replace("rounds = 3", "rounds = 2") + instances + "labels = [1, -1]\n")


def _class_file(name: str, content: Any, command: str = "run") -> Callable[[Path], list[str]]:
    """A case: a class file, given to ``ldim`` or named by a scenario's [concept_class]."""

    def make(folder: Path) -> list[str]:
        path = folder / name
        if callable(content):
            content(path)
        else:
            _write(folder, name, content)
        if command == "ldim":
            return ["ldim", str(path)]
        return _run(_write(folder, "s.toml", _CLASS + f"path = {json.dumps(name)}\n"))

    return make


# transcripts: a short game's record, then one of its lines edited


def _record(folder: Path) -> Path:
    from adversaries import Replay
    from game.engine import play
    from learners import Perceptron

    X = np.array([[1.0, 0.0], [0.0, 1.0], [2.0, 1.0]])
    return play(Perceptron(), Replay(instances=X, labels=[1, -1, 1]), rounds=3).save(
        folder / "t.jsonl"
    )


def _transcript(edit: Callable[[list[str]], list[str]], command: str = "replay"):
    """A case: ``command`` on a transcript whose lines ``edit`` rewrote."""

    def make(folder: Path) -> list[str]:
        path = _record(folder)
        lines = edit(path.read_text(encoding="utf-8").splitlines())
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        if command == "plot":
            return ["plot", str(path), "--out", str(folder / "t.png")]
        return [command, str(path)]

    return make


def _animate(*options: str) -> Callable[[Path], list[str]]:
    """A case: ``animate`` of a short game's transcript, with ``options``."""

    def make(folder: Path) -> list[str]:
        path = _record(folder)
        return ["animate", str(path), *(o.replace("{folder}", str(folder)) for o in options)]

    return make


def _line(index: int, **changes: Any) -> Callable[[list[str]], list[str]]:
    """An edit: line ``index`` of the transcript with ``changes`` to its object."""

    def edit(lines: list[str]) -> list[str]:
        obj = json.loads(lines[index])
        obj.update(changes)
        return [*lines[:index], json.dumps(obj), *lines[index + 1 :]]

    return edit


def _deep_header(lines: list[str]) -> list[str]:
    deep: list = []
    for _ in range(100):
        deep = [deep]
    return _line(0, versions={"numpy": deep})(lines)


def _received(folder: Path) -> list[str]:
    """A transcript whose header names a data file it does not hold beside it."""
    from game.scenario import load_scenario

    _write(folder, "home/data/X.npy", _X)
    _write(folder, "home/data/y.csv", _Y)
    scenario = _write(
        folder, "home/s.toml", _REPLAY + 'instances = "data/X.npy"\nlabels = "data/y.csv"\n'
    )
    out = folder / "received" / "t.jsonl"
    out.parent.mkdir()
    load_scenario(scenario).play(out=out)
    _write(folder, "home/data/y.csv", f"1\n{SECRET}\n1\n")
    return ["replay", str(out)]


# arguments

_BUILTIN = "perceptron-separable"


def _argv(*argv: str) -> Callable[[Path], list[str]]:
    return lambda folder: [a.replace("{folder}", str(folder)) for a in argv]


def _sweep(*options: str) -> Callable[[Path], list[str]]:
    return _argv(
        "sweep",
        _BUILTIN,
        "--workers",
        "1",
        "--quiet",
        "--transcripts",
        "{folder}/runs",
        *options,
    )


def _tournament(text: str, *options: str) -> Callable[[Path], list[str]]:
    """A case: ``tournament`` of a tournament file holding ``text``, with ``options``."""

    def make(folder: Path) -> list[str]:
        path = _write(folder, "t.toml", text)
        extra = [o.replace("{folder}", str(folder)) for o in options]
        return ["tournament", str(path), "--workers", "1", "--quiet", *extra]

    return make


_TOURNAMENT = (
    '[tournament]\nlearners = ["perceptron"]\nadversaries = ["separable-stream"]\n'
    "seeds = 2\nrounds = 20\n[adversary.separable-stream]\ndimension = 2\nmargin = 0.1\n"
)


# user-written players that break the round


class _Learner:
    """A well-behaved vector learner the broken ones below start from."""

    plays = frozenset({"vector"})
    deterministic = True

    def predict(self, x):
        return 1.0

    def update(self, x, y):
        return False


class NaNLearner(_Learner):
    """Predicts NaN."""

    def predict(self, x):
        return float("nan")


class ObjectLearner(_Learner):
    """Predicts an object that is not a number."""

    def predict(self, x):
        return object()


class StringLearner(_Learner):
    """Predicts a string."""

    def predict(self, x):
        return "1.0"


class ComplexLearner(_Learner):
    """Predicts a complex number."""

    def predict(self, x):
        return 1 + 1j


class FarLearner(_Learner):
    """Predicts outside [-1, 1]."""

    def predict(self, x):
        return 3.0


class StringUpdateLearner(_Learner):
    """``update`` answers a string, not a bool."""

    def update(self, x, y):
        return "yes"


class _Adversary:
    """A well-behaved vector adversary the broken ones below start from."""

    presents = "vector"

    def instance(self, history):
        return np.ones(3)

    def label(self, x, p, history):
        return 1

    def certificate(self):
        return None


class ZeroLabelAdversary(_Adversary):
    """Labels 0."""

    def label(self, x, p, history):
        return 0


class NaNInstanceAdversary(_Adversary):
    """Presents NaN."""

    def instance(self, history):
        return np.array([1.0, np.nan, 0.0])


class StringInstanceAdversary(_Adversary):
    """Presents a string."""

    def instance(self, history):
        return "x"


def _player(learner: type | None = None, adversary: type | None = None, *more: str) -> dict:
    """The fields of a case in which a user-written player plays a short game."""
    players = {}
    text = _SEPARABLE.replace("dimension = 3\nmargin = 0.1\n", "")
    if learner is not None:
        players["corpus-learner"] = learner
    if adversary is not None:
        players["corpus-adversary"] = adversary
    text = text.format(
        learner="corpus-learner" if learner else "perceptron",
        adversary="corpus-adversary" if adversary else "separable-stream",
    )
    if adversary is None:
        text += "dimension = 3\nmargin = 0.1\n"
    return {
        "make": lambda folder: [*_run(_write(folder, "s.toml", text)), *more],
        "players": players,
    }


def corpus() -> list[HostileCase]:
    """Every hostile case, in the order of :data:`KINDS`.

    Examples
    --------
    >>> cases = corpus()
    >>> len({(c.kind, c.name) for c in cases}) == len(cases)
    True
    >>> sorted({c.kind for c in cases}) == sorted(KINDS)
    True
    """
    S, D, T, A, N, P = KINDS
    deep = "rounds = " + "[" * 100_000 + "]" * 100_000 + "\n"
    cases = [
        # -- scenario files ---------------------------------------------------------------
        HostileCase(S, "toml-nested-100000", _scenario(deep), 2, "nested deeper than 64"),
        HostileCase(
            S,
            "toml-integer-5000-digits",
            _scenario("rounds = " + "7" * 5000 + "\n"),
            2,
            "an integer longer than 4300 digits",
        ),
        HostileCase(
            S,
            "toml-over-16-MiB",
            _made(_sparse(16 * 2**20 + 1), "big.toml"),
            2,
            "larger than the 16 MiB",
            isolate=True,
        ),
        HostileCase(
            S,
            "toml-not-utf8",
            lambda f: _run(_write(f, "s.toml", b"rounds = 3\n\xff\n")),
            2,
            "s.toml",
        ),
        HostileCase(S, "empty", _scenario(""), 2, "missing key rounds"),
        HostileCase(S, "not-found", _argv("run", "{folder}/none.toml", "--no-out"), 2, "none"),
        HostileCase(
            S, "directory", _made(Path.mkdir, "d.toml"), 2, "not a regular file (a directory)"
        ),
        HostileCase(S, "symlink-loop", _made(_symlink_loop), 2, "a symlink loop"),
        HostileCase(
            S,
            "name-too-long",
            _made(lambda p: None, "x" * 300 + ".toml"),
            2,
            "a file name too long",
        ),
        HostileCase(S, "nul-in-path", _made(lambda p: None, "a\0b.toml"), 2, "NUL character"),
        HostileCase(
            S, "fifo", _made(_fifo, "pipe.toml"), 2, "not a regular file (a FIFO)", isolate=True
        ),
        HostileCase(
            S,
            "dev-zero",
            _argv("run", "/dev/zero", "--no-out"),
            2,
            "not a regular file (a character device)",
            isolate=True,
        ),
        HostileCase(
            S,
            "rounds-negative",
            _scenario(
                _SEPARABLE.replace("20", "-1").format(
                    learner="perceptron", adversary="separable-stream"
                )
            ),
            2,
            "rounds",
        ),
        HostileCase(
            S,
            "margin-nan",
            _scenario(
                _SEPARABLE.replace("0.1", "nan").format(
                    learner="perceptron", adversary="separable-stream"
                )
            ),
            2,
            "adversary.margin",
        ),
        HostileCase(
            S,
            "expectation-fails",
            _scenario(
                _SEPARABLE.format(learner="perceptron", adversary="separable-stream")
                + "\n[expect]\nmistakes = 999\n"
            ),
            1,
            "failed: ",
        ),
        HostileCase(
            S, "empty-class-0x0", _class_file("cls.npy", _npy(np.zeros((0, 0)))), 2, "no numbers"
        ),
        HostileCase(
            S,
            "empty-inline-class",
            _scenario(_CLASS.replace("[concept_class]\n", "[concept_class]\nrows = []\n")),
            2,
            "concept_class",
        ),
        # -- data files a scenario names -------------------------------------------------------
        HostileCase(
            D,
            "npy-header-claims-7-TiB",
            _data("huge.npy", _npy_header((10**6, 10**6))),
            2,
            "claims 1000000×1000000 = 1,000,000,000,000 elements (7.28 TiB)",
            isolate=True,
        ),
        HostileCase(D, "npy-empty", _data("empty.npy", b""), 2, "empty file; expected a .npy"),
        HostileCase(
            D,
            "npy-not-npy",
            _data("bad.npy", f"{SECRET}=hunter2".encode()),
            2,
            "not a .npy file",
            never=(SECRET, "hunter2"),
        ),
        HostileCase(
            D,
            "npy-nan",
            _data("nan.npy", _npy([[1.0, 0.0], [0.0, np.nan], [1.0, 1.0]])),
            2,
            "row 2, column 2: not finite",
        ),
        HostileCase(
            D,
            "npy-inf",
            _data("inf.npy", _npy([[np.inf, 0.0], [0.0, 1.0], [1.0, 1.0]])),
            2,
            "row 1, column 1: not finite",
        ),
        HostileCase(D, "npy-0x0", _data("none.npy", _npy(np.zeros((0, 0)))), 2, "no numbers"),
        HostileCase(
            D, "csv-nan", _data("X.csv", "1,2\nnan,4\n5,6\n"), 2, "row 2, column 1: not finite"
        ),
        HostileCase(
            D,
            "csv-1e400",
            _data("X.csv", "1,2\n3,1e400\n5,6\n"),
            2,
            "row 2, column 2: not finite (inf)",
        ),
        HostileCase(
            D, "csv-inf", _data("X.csv", "1,2\n3,4\n-inf,6\n"), 2, "row 3, column 1: not finite"
        ),
        HostileCase(
            D,
            "csv-ragged",
            _data("X.csv", "1,2\n3,4,5\n5,6\n"),
            2,
            "row 2 has 3 columns, row 1 has 2",
        ),
        HostileCase(
            D,
            "csv-secret-never-echoed",
            _data("X.csv", f"1,2\n3,4\n5,{SECRET}\n"),
            2,
            "row 3, column 2: not a number",
            never=(SECRET,),
        ),
        HostileCase(
            D,
            "csv-labels-not-pm1",
            _data("y2.csv", "1\n7\n-1\n"),
            2,
            "row 2 is neither",
            never=("7\n",),
        ),
        HostileCase(D, "csv-empty", _data("X.csv", ""), 2, "empty file"),
        HostileCase(D, "csv-not-utf8", _data("X.csv", b"1,2\n\xff\n"), 2, "not UTF-8 text"),
        HostileCase(
            D, "directory", _data("dir.npy", Path.mkdir), 2, "not a regular file (a directory)"
        ),
        HostileCase(D, "symlink-loop", _data("a.npy", _symlink_loop), 2, "a symlink loop"),
        HostileCase(
            D,
            "name-too-long",
            _data("x" * 300 + ".npy", lambda p: None),
            2,
            "a file name too long",
        ),
        HostileCase(D, "missing", _data("gone.npy", lambda p: None), 2, "not found"),
        HostileCase(
            D, "fifo", _data("pipe.csv", _fifo), 2, "not a regular file (a FIFO)", isolate=True
        ),
        HostileCase(
            D,
            "escapes-folder",
            _data("../../outside.npy", lambda p: None),
            2,
            "adversary.instances",
        ),
        HostileCase(
            D, "absolute-path", _data("/etc/passwd.csv", lambda p: None), 2, "adversary.instances"
        ),
        HostileCase(
            D,
            "inline-nan",
            _inline("instances = [[1.0, 2.0], [nan, 1.0]]\n"),
            2,
            "row 2, column 1 is not finite",
        ),
        HostileCase(
            D,
            "inline-inf",
            _inline("instances = [[1.0, 2.0], [1.0, inf]]\n"),
            2,
            "row 2, column 2 is not finite",
        ),
        HostileCase(
            D,
            "inline-1e400",
            _inline("instances = [[1.0, 2.0], [1.0, 1e400]]\n"),
            2,
            "row 2, column 2 is not finite",
        ),
        HostileCase(
            D,
            "class-csv-not-pm1",
            _class_file("cls.csv", "1,-1\n-1,0\n", "ldim"),
            2,
            "row 2, column 2: not +1 or -1",
        ),
        HostileCase(
            D,
            "class-csv-secret",
            _class_file("cls.csv", f"1,-1\n-1,{SECRET}\n", "ldim"),
            2,
            "row 2, column 2: not a number",
            never=(SECRET,),
        ),
        HostileCase(
            D,
            "class-npy-0x0",
            _class_file("cls.npy", _npy(np.zeros((0, 0))), "ldim"),
            2,
            "no numbers",
        ),
        HostileCase(
            D,
            "class-npy-2x0",
            _class_file("cls.npy", _npy(np.ones((2, 0))), "ldim"),
            2,
            "no numbers",
        ),
        HostileCase(D, "class-dev-zero", _argv("ldim", "/dev/zero"), 2, "/dev/zero", isolate=True),
        # -- transcripts ------------------------------------------------------------------------
        HostileCase(
            T,
            "json-nested-5000",
            _transcript(lambda ls: [ls[0], "[" * 5000 + "]" * 5000, *ls[2:]]),
            2,
            "nested too deep",
        ),
        HostileCase(
            T,
            "integer-5000-digits",
            _transcript(lambda ls: [ls[0], _digits(ls[1], 5000), *ls[2:]]),
            2,
            "an integer longer than 4300 digits",
        ),
        HostileCase(
            T,
            "round-t-400-digits",
            _transcript(_line(1, t=10**400)),
            2,
            "found t = an integer of 401 digits",
        ),
        HostileCase(
            T, "round-x-1e400", _transcript(_line(1, x=10**400)), 2, "instance x must be a number"
        ),
        HostileCase(
            T,
            "round-p-secret",
            _transcript(_line(1, p=SECRET)),
            2,
            "prediction p must be a number in [-1, 1], got a string",
            never=(SECRET,),
        ),
        HostileCase(
            T,
            "round-y-list",
            _transcript(_line(1, y=[SECRET])),
            2,
            "label y must be -1 or 1, got a list",
            never=(SECRET,),
        ),
        HostileCase(
            T,
            "header-learner-a-string",
            _transcript(_line(0, learner="perceptron")),
            2,
            "learner: expected an object, got a string",
        ),
        HostileCase(
            T,
            "header-params-a-list",
            _transcript(_line(0, learner={"name": "perceptron", "params": [1]})),
            2,
            "learner.params: expected an object",
        ),
        HostileCase(
            T,
            "header-version-a-string",
            _transcript(_line(0, version="1")),
            2,
            "expected an integer version, got a string",
        ),
        HostileCase(
            T, "header-nested-100", _transcript(_deep_header), 2, "nested deeper than 64 levels"
        ),
        HostileCase(
            T,
            "plot-header-learner-a-string",
            _transcript(_line(0, learner="perceptron"), command="plot"),
            2,
            "learner: expected an object, got a string",
        ),
        HostileCase(T, "header-data-not-beside-it", _received, 2, "not found in", never=(SECRET,)),
        HostileCase(
            T, "empty", _made(lambda p: p.write_bytes(b""), "t.jsonl", "replay"), 2, "empty file"
        ),
        HostileCase(T, "not-found", _made(lambda p: None, "t.jsonl", "replay"), 2, "t.jsonl"),
        HostileCase(
            T,
            "directory",
            _made(Path.mkdir, "t.jsonl", "replay"),
            2,
            "not a regular file (a directory)",
        ),
        HostileCase(
            T, "symlink-loop", _made(_symlink_loop, "t.jsonl", "replay"), 2, "a symlink loop"
        ),
        HostileCase(
            T,
            "name-too-long",
            _made(lambda p: None, "t" * 300 + ".jsonl", "replay"),
            2,
            "a file name too long",
        ),
        HostileCase(
            T,
            "fifo",
            _made(_fifo, "pipe.jsonl", "replay"),
            2,
            "not a regular file (a FIFO)",
            isolate=True,
        ),
        HostileCase(
            T,
            "plot-fifo",
            _made(_fifo, "pipe.jsonl", "plot"),
            2,
            "not a regular file (a FIFO)",
            isolate=True,
        ),
        HostileCase(
            T,
            "animate-header-learner-a-string",
            _transcript(_line(0, learner="perceptron"), command="animate"),
            2,
            "learner: expected an object, got a string",
        ),
        HostileCase(
            T, "animate-kind-misfit", _animate("--kind", "tree"), 2, "the tree animation needs"
        ),
        HostileCase(
            T,
            "animate-out-suffix",
            _animate("--out", "{folder}/t.png"),
            2,
            "expected a .gif or .mp4",
        ),
        HostileCase(
            T, "animate-out-is-the-transcript", _animate("--out", "{folder}/t.jsonl"), 2, "--out"
        ),
        HostileCase(
            T, "animate-max-frames-one", _animate("--max-frames", "1"), 2, "max_frames must"
        ),
        HostileCase(
            T,
            "dev-zero",
            _argv("replay", "/dev/zero"),
            2,
            "not a regular file (a character device)",
            isolate=True,
        ),
        HostileCase(
            T,
            "round-contradicts-itself",
            _transcript(_line(1, y=-1)),
            2,
            "mistake = false contradicts p and y",
        ),
        HostileCase(
            T,
            "round-edited",
            _transcript(_line(1, x=[5.0, 0.0])),
            2,
            "the footer's digest does not match the file",
        ),
        # -- command-line arguments -----------------------------------------------------------
        HostileCase(A, "seeds-step-0", _sweep("--seeds", "0:1:0"), 2, "is 0; it must be positive"),
        HostileCase(A, "seeds-10-to-0", _sweep("--seeds", "10:0"), 2, "holds no seed"),
        HostileCase(
            A,
            "seeds-10**10",
            _sweep("--seeds", "0:10**10"),
            2,
            "is not a seed or a range A:B[:STEP] of seeds",
        ),
        HostileCase(
            A,
            "seeds-ten-billion",
            _sweep("--seeds", "0:10000000000"),
            2,
            "(10,000,000,000 seeds;",
            isolate=True,
        ),
        HostileCase(A, "seeds-negative", _sweep("--seeds", "-3"), 2, "(seed -3 is negative)"),
        HostileCase(
            A,
            "sweep-out-not-csv",
            _sweep("--seeds", "0:2", "--out", "{folder}/r.txt"),
            2,
            "--out must be a .csv or .parquet file",
        ),
        HostileCase(
            A,
            "sweep-workers-0",
            _argv("sweep", _BUILTIN, "--seeds", "0:2", "--workers", "0"),
            2,
            "--workers must be an integer ≥ 1, got 0",
        ),
        HostileCase(
            A,
            "scheduler-not-a-url",
            _argv("sweep", _BUILTIN, "--seeds", "0:2", "--scheduler", "not a url"),
            2,
            "--scheduler must be",
        ),
        HostileCase(
            A,
            "tournament-unknown-key",
            _tournament(_TOURNAMENT + "[learner.winnow]\nvariables = 2\n"),
            2,
            "learner.winnow: a parameter table for a learner not in tournament.learners",
        ),
        HostileCase(
            A,
            "tournament-player-key",
            _tournament(_TOURNAMENT.replace("margin = 0.1", "margn = 0.1")),
            2,
            "adversary.separable-stream.margn: separable-stream has no parameter 'margn'",
        ),
        HostileCase(
            A,
            "tournament-seeds-empty",
            _tournament(_TOURNAMENT, "--seeds", "3:3"),
            2,
            "--seeds must be",
        ),
        HostileCase(
            A,
            "tournament-plot-suffix",
            _tournament(_TOURNAMENT, "--plot", "{folder}/heat.txt"),
            2,
            "--plot must be a .png, .svg, .pdf file",
        ),
        HostileCase(
            A,
            "play-size-zero",
            _argv("play", _BUILTIN, "--as", "adversary", "--size", "0", "--out", "{folder}/p"),
            2,
            "--size must be a positive integer, got 0",
        ),
        HostileCase(
            A,
            "play-scenario-misspelt",
            _argv("play", "halving-lower-bund", "--as", "learner", "--out", "{folder}/p.jsonl"),
            2,
            "halving-lower-bound",
        ),
        HostileCase(
            A,
            "play-human-named-in-a-scenario",
            _scenario(_SEPARABLE.format(learner="human-learner", adversary="separable-stream")),
            2,
            "human-learner",
        ),
        HostileCase(
            A,
            "selfcheck-seconds-negative",
            _argv("selfcheck", "--seconds", "-1"),
            2,
            "--seconds must be a number in [0, 86400], got ",
        ),
        HostileCase(
            A,
            "selfcheck-seconds-nan",
            _argv("selfcheck", "--seconds", "nan"),
            2,
            "--seconds must be a number in [0, 86400], got ",
        ),
        HostileCase(
            A,
            "selfcheck-scenarios-missing",
            _argv("selfcheck", "--scenarios", "/nonexistent", "--seconds", "0"),
            2,
            "(no such folder)",
        ),
        HostileCase(
            A,
            "selfcheck-scenarios-empty",
            _argv("selfcheck", "--scenarios", "{folder}", "--seconds", "0"),
            2,
            "holds no .toml",
        ),
        HostileCase(
            A,
            "report-rounds-negative",
            _argv("report", "--rounds", "-1", "--out", "{folder}/r.html", "--quiet"),
            2,
            "--rounds must be an integer ≥ 0, got -1",
        ),
        HostileCase(A, "ldim-argument-a-word", _argv("ldim", "thresholds", "nine"), 2, "nine"),
        HostileCase(
            A,
            "run-rounds-negative",
            _argv("run", _BUILTIN, "--no-out", "--rounds", "-1"),
            2,
            "rounds",
        ),
        HostileCase(
            A, "run-seed-negative", _argv("run", _BUILTIN, "--no-out", "--seed", "-1"), 2, "seed"
        ),
        # -- player and scenario names ---------------------------------------------------------
        HostileCase(
            N,
            "scenario-misspelt",
            _argv("run", "perceptron-separabel", "--no-out"),
            2,
            "perceptron-separable",
        ),
        HostileCase(
            N,
            "learner-misspelt",
            _scenario(_SEPARABLE.format(learner="perceptorn", adversary="separable-stream")),
            2,
            "did you mean 'perceptron'",
        ),
        HostileCase(
            N,
            "adversary-misspelt",
            _scenario(_SEPARABLE.format(learner="perceptron", adversary="separable-steam")),
            2,
            "did you mean 'separable-stream'",
        ),
        HostileCase(
            N,
            "learner-os-system",
            _scenario(_SEPARABLE.format(learner="os:system", adversary="separable-stream")),
            2,
            "learner.name",
        ),
        HostileCase(
            N,
            "learner-module-path",
            _scenario(
                _SEPARABLE.format(
                    learner="learners.perceptron:Perceptron", adversary="separable-stream"
                )
            ),
            2,
            "learner.name",
        ),
        HostileCase(
            N,
            "learner-empty",
            _scenario(_SEPARABLE.format(learner="", adversary="separable-stream")),
            2,
            "learner.name",
        ),
        HostileCase(
            N,
            "learner-an-adversary",
            _scenario(_SEPARABLE.format(learner="separable-stream", adversary="separable-stream")),
            2,
            "learner.name",
        ),
        HostileCase(
            N,
            "broken-entry-point",
            _argv("list"),
            2,
            "the player entry point 'corpus-broken' (no_such_module_of_players:Player) cannot be",
            installed={"corpus-broken": "no_such_module_of_players:Player"},
        ),
        HostileCase(N, "ldim-class-misspelt", _argv("ldim", "threshold", "5"), 2, "thresholds"),
        # -- user-written players --------------------------------------------------------------
        HostileCase(P, "predicts-nan", status=2, says="predict returned", **_player(NaNLearner)),
        HostileCase(
            P, "predicts-object", status=2, says="predict returned", **_player(ObjectLearner)
        ),
        HostileCase(
            P, "predicts-string", status=2, says="predict returned", **_player(StringLearner)
        ),
        HostileCase(
            P, "predicts-complex", status=2, says="predict returned", **_player(ComplexLearner)
        ),
        HostileCase(P, "predicts-3", status=2, says="predict returned", **_player(FarLearner)),
        HostileCase(
            P,
            "update-answers-a-string",
            status=2,
            says="update",
            **_player(StringUpdateLearner),
        ),
        HostileCase(P, "labels-0", status=2, says="label", **_player(None, ZeroLabelAdversary)),
        HostileCase(
            P, "instance-nan", status=2, says="instance", **_player(None, NaNInstanceAdversary)
        ),
        HostileCase(
            P,
            "instance-a-string",
            status=2,
            says="instance",
            **_player(None, StringInstanceAdversary),
        ),
    ]
    return cases
