"""``python -m game selfcheck``: the conformance suite and a seeded fuzz pass, counted.

Runs every conformance check (:mod:`game.testing`) on every registered player,
then spends a few seconds feeding the referee malformed scenario files and
damaged transcripts (:mod:`game.testing`), and reports how many of each got the
right refusal. Last it runs the corpus of hostile inputs
(:mod:`game.testing._corpus`: scenario files, data files, transcripts,
command-line arguments, player names and user-written players, each through
the command line) and counts them by class and by outcome: clean, traceback,
hang, silent acceptance or a wrong refusal. Anything but clean fails.

The scenarios that tell how to build each adversary are the built-in ones
(:func:`game.builtin_scenarios`, installed with the package) unless a folder
is given.

Examples
--------
>>> from game.testing import selfcheck
>>> report = selfcheck(seconds=0.5, seed=0)
>>> report.checks_failed, report.fuzz_wrong, report.skipped
(0, 0, {})
>>> report.corpus.ok, report.corpus.by_verdict()["traceback"]
(True, 0)
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from game.errors import ParameterError, check_instance, check_integer, check_real
from game.scenario import builtin_scenarios, load_scenario
from game.testing._checks import registered_checks, run_checks
from game.testing._corpus import CorpusReport, run_corpus
from game.testing._corpus import running as corpus_running
from game.testing._fuzz import (
    check_scenario_refused,
    check_transcript_refused,
    damaged_transcript,
    malformed_scenario,
)

__all__ = ["MAX_SECONDS", "SelfcheckReport", "selfcheck"]

#: The longest fuzz pass :func:`selfcheck` runs: one day, in seconds.
MAX_SECONDS = 86_400.0


@attrs.define
class SelfcheckReport:
    """What :func:`selfcheck` counted."""

    players: int = 0
    skipped: dict = attrs.field(factory=dict)
    checks_run: int = 0
    checks_failed: int = 0
    failures: list = attrs.field(factory=list)
    scenarios_tried: int = 0
    scenarios_refused: int = 0
    transcripts_tried: int = 0
    transcripts_right: int = 0
    fuzz_failures: list = attrs.field(factory=list)
    corpus: CorpusReport = attrs.field(factory=CorpusReport)

    @property
    def fuzz_wrong(self) -> int:
        """Fuzzed inputs that did not get the right answer."""
        return (self.scenarios_tried - self.scenarios_refused) + (
            self.transcripts_tried - self.transcripts_right
        )

    @property
    def ok(self) -> bool:
        """Every check passed, every fuzzed input got the right answer, every corpus case clean."""
        return self.checks_failed == 0 and self.fuzz_wrong == 0 and self.corpus.ok


def _arguments(folder: Any, seconds: Any, seed: Any) -> tuple[Path, float, int]:
    """selfcheck's arguments, checked: the folder as a Path, the seconds, the seed."""
    if folder is None:  # the built-in scenarios, installed with the package
        folder = next(iter(builtin_scenarios().values())).parent
    check_instance("folder", folder, (str, os.PathLike), "a path (str or os.PathLike)")
    path = Path(folder)
    if not path.exists():
        raise ParameterError("folder", str(folder), "a folder of scenarios", "no such folder")
    if not path.is_dir():
        raise ParameterError("folder", str(folder), "a folder of scenarios", "not a folder")
    if not any(path.glob("*.toml")):
        raise ParameterError("folder", str(folder), "a folder of scenarios", "it holds no .toml")
    seconds = check_real("seconds", seconds, low=0, high=MAX_SECONDS)
    seed = check_integer("seed", seed, low=0)
    return Path(folder), seconds, seed


def selfcheck(
    folder: str | os.PathLike | None = None,
    *,
    seconds: float = 3.0,
    seed: int = 0,
    cli: Callable[[list[str]], int] | None = None,
) -> SelfcheckReport:
    """Run the conformance suite over the registry, a fuzz pass of ``seconds`` and the corpus.

    Parameters
    ----------
    folder : path-like, optional
        A folder of scenarios that tell how to build each adversary (and point
        learner), and the valid documents the fuzzer mutates (default: the
        built-in scenarios, which build every built-in player). A player no
        scenario of the folder builds is skipped, with the reason.
    seconds : float
        Time for the fuzz pass, from 0 to ``MAX_SECONDS`` (it tries at
        least one scenario and one transcript).
    seed : int
        Seeds the fuzzer, ≥ 0.
    cli : callable, optional
        The command line's entry point (:func:`game.cli.main`): given, the
        corpus of hostile inputs runs through it (about a second), never when
        called from one of the corpus's own cases. ``python -m game selfcheck``
        gives it.

    Raises
    ------
    ParameterError
        For a folder that is not one or holds no scenario (``*.toml``), a
        negative, non-finite or over-long ``seconds``, a seed that is not a non-negative
        integer.
    """
    folder, seconds, seed = _arguments(folder, seconds, seed)
    report = SelfcheckReport()
    checks, report.skipped = registered_checks(folder)
    report.players = len({c.player for c in checks})
    for result in run_checks(checks):
        report.checks_run += 1
        if not result.passed:
            report.checks_failed += 1
            report.failures.append(result.message)
    bases = [None]
    for path in sorted(Path(folder).glob("*.toml")):
        try:
            spec = load_scenario(path).spec
        except Exception:
            continue
        if all(not isinstance(v, dict) or "transcript" not in v for v in spec.values()):
            bases.append(spec)
    rng = np.random.default_rng(seed)
    with tempfile.TemporaryDirectory() as tmp:
        folder_tmp = Path(tmp)
        sample = folder_tmp / "sample.jsonl"
        from adversaries.streams import SeparableStream
        from game.engine import play
        from learners.perceptron import Perceptron

        play(
            Perceptron(),
            SeparableStream(3, 0.2, rng=np.random.default_rng(seed)),
            rounds=12,
            out=sample,
        )
        data = sample.read_bytes()
        deadline = time.perf_counter() + seconds
        turn = 0
        while time.perf_counter() < deadline or turn < 2:
            if turn % 2 == 0:
                base = bases[int(rng.integers(len(bases)))]
                text, key = malformed_scenario(rng, base)
                problem = check_scenario_refused(text, key, folder_tmp)
                report.scenarios_tried += 1
                report.scenarios_refused += problem is None
            else:
                damaged, how, rounds = damaged_transcript(rng, data)
                problem = check_transcript_refused(damaged, how, rounds, folder_tmp)
                report.transcripts_tried += 1
                report.transcripts_right += problem is None
            if problem is not None:
                report.fuzz_failures.append(problem)
            turn += 1
    if cli is not None and not corpus_running():
        report.corpus = run_corpus(cli)
    return report
