"""The corpus of hostile inputs: every case clean under a memory cap and a time limit.

The cases that would hang or exhaust memory if their refusal broke (a FIFO,
``/dev/zero``, a header claiming terabytes, ten billion seeds) run each alone
as ``python -m game ...`` in a fresh interpreter; the others run together in
one interpreter, in-process through :func:`game.cli.main`. Every interpreter
runs under a cap on its address space and a time limit.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from game.cli import main
from game.testing import _corpus
from game.testing._corpus import KINDS, VERDICTS, HostileCase, corpus, run_case, run_corpus

ROOT = Path(__file__).resolve().parents[3]

#: The address space each interpreter may use.
MEMORY_CAP = 2 * 2**30

#: Seconds an isolated case may take; the batch of the others gets three times as long.
TIME_LIMIT = 20

CASES = corpus()
ISOLATED = [c for c in CASES if c.isolate]
BATCHED = [c for c in CASES if not c.isolate]


def capped() -> None:
    """In the child, before it starts: cap its address space."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def in_capped_interpreter(
    argv: list[str], timeout: float, cwd: Path
) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OPENBLAS_NUM_THREADS": "1"}
    return subprocess.run(
        [sys.executable, *argv],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        cwd=cwd,
        preexec_fn=capped,
    )


BATCH = """
import json
from game.cli import main
from game.testing._corpus import corpus, run_corpus
cases = [c for c in corpus() if not c.isolate]
for o in run_corpus(main, cases).outcomes:
    print(json.dumps({"kind": o.case.kind, "name": o.case.name, "verdict": o.verdict,
                      "status": o.status, "line": o.line}))
"""


@pytest.mark.skipif(sys.platform == "win32", reason="resource limits are POSIX")
def test_the_batched_cases_are_clean_under_a_memory_cap(tmp_path):
    done = in_capped_interpreter(["-c", BATCH], 3 * TIME_LIMIT, tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    outcomes = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(o["kind"], o["name"]) for o in outcomes] == [(c.kind, c.name) for c in BATCHED]
    for case, outcome in zip(BATCHED, outcomes, strict=True):
        assert outcome["verdict"] == "clean", outcome
        assert outcome["status"] == case.status, outcome
        assert case.says in outcome["line"], outcome


@pytest.mark.skipif(sys.platform == "win32", reason="resource limits are POSIX")
@pytest.mark.parametrize("case", ISOLATED, ids=lambda c: f"{c.kind}/{c.name}")
def test_an_isolated_case_is_one_line_in_its_own_capped_interpreter(tmp_path, case):
    if case.name.endswith("fifo") and not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    argv = case.make(tmp_path)
    start = time.perf_counter()
    done = in_capped_interpreter(["-m", "game", *argv], TIME_LIMIT, tmp_path)
    assert time.perf_counter() - start < TIME_LIMIT
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == case.status, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and case.says in lines[0], done.stderr
    assert lines[0].startswith("error: ")


@pytest.mark.skipif(sys.platform == "win32", reason="resource limits are POSIX")
def test_the_cap_holds(tmp_path):
    done = in_capped_interpreter(["-c", f"bytearray({MEMORY_CAP})"], TIME_LIMIT, tmp_path)
    assert done.returncode != 0 and "MemoryError" in done.stderr


def test_the_corpus_covers_every_class_and_both_failure_statuses():
    kinds = {c.kind for c in CASES}
    assert kinds == set(KINDS)
    assert {c.status for c in CASES} == {1, 2}
    assert all(c.says for c in CASES)
    assert ISOLATED and BATCHED
    assert any(c.never for c in CASES if c.kind == "data")
    assert any(c.never for c in CASES if c.kind == "transcript")


def test_the_whole_corpus_runs_clean_in_process():
    report = run_corpus(main)
    assert report.ok, report.failures
    assert sum(report.by_kind().values()) == len(CASES) == report.by_verdict()["clean"]


# -- the verdicts ---------------------------------------------------------------------------------


def _case(make, status: int = 2, says: str = "error") -> HostileCase:
    return HostileCase("argument", "probe", make, status, says)


def _raise(folder):
    raise RuntimeError("a bug")


def _sleep(folder):
    time.sleep(5)
    return ["list"]


@pytest.mark.parametrize(
    "make, verdict",
    [
        (_raise, "traceback"),
        (lambda folder: ["list"], "silent"),  # exit 0 where a refusal was expected
        (lambda folder: ["ldim", "thresholds", "nine"], "clean"),
        (lambda folder: ["ldim", "thresholds"], "clean"),
    ],
)
def test_each_verdict(tmp_path, make, verdict):
    outcome = run_case(_case(make), tmp_path, main)
    assert outcome.verdict == verdict, outcome.err
    if verdict == "traceback":
        assert outcome.line == "RuntimeError: a bug"


def test_a_wrong_status_or_words_are_a_wrong_refusal(tmp_path):
    nine = lambda folder: ["ldim", "thresholds", "nine"]  # noqa: E731
    assert run_case(_case(nine, status=1), tmp_path, main).verdict == "wrong"
    assert run_case(_case(nine, says="no such words"), tmp_path, main).verdict == "wrong"
    echoed = HostileCase("argument", "probe", nine, 2, "error", never=("nine",))
    assert run_case(echoed, tmp_path, main).verdict == "wrong"


def test_an_argparse_usage_error_is_judged_by_its_status(tmp_path):
    outcome = run_case(_case(lambda folder: ["run"]), tmp_path, main)
    assert outcome.status == 2 and outcome.verdict == "wrong"  # usage and error: two lines


@pytest.mark.skipif(not hasattr(__import__("signal"), "setitimer"), reason="no interval timer")
def test_a_case_past_its_time_limit_is_a_hang(tmp_path):
    start = time.perf_counter()
    outcome = run_case(_case(_sleep), tmp_path, main, limit=0.2)
    assert outcome.verdict == "hang" and time.perf_counter() - start < 2


def test_registrations_last_one_case_only(tmp_path):
    from game.players import names

    before = names()
    case = next(c for c in CASES if c.kind == "player")
    assert run_case(case, tmp_path, main).verdict == "clean"
    assert names() == before


# -- selfcheck --------------------------------------------------------------------------------


def test_selfcheck_fails_on_a_case_that_is_not_clean(capsys, monkeypatch):
    silent = HostileCase("argument", "list-accepted", lambda folder: ["list"], 2, "error")
    monkeypatch.setattr(_corpus, "corpus", lambda: [silent])
    assert main(["selfcheck", "--seconds", "0"]) == 1
    out = capsys.readouterr().out
    assert "hostile inputs tried" in out
    assert re.search(r"│   silently accepted +│ +1 │", out), out
    assert "FAIL corpus argument/list-accepted: silent (exit 0, expected 2)" in out


def test_selfcheck_prints_every_class_and_outcome(capsys, monkeypatch):
    monkeypatch.setattr(_corpus, "corpus", lambda: CASES[:3])
    assert main(["selfcheck", "--seconds", "0"]) == 0
    out = capsys.readouterr().out
    for label in ("scenario files", "data files", "transcripts", "user-written players"):
        assert f"│   {label} " in out
    for label in ("clean: one line", "tracebacks", "hangs", "silently accepted", "refused wrongly"):
        assert f"│   {label}" in out
    assert len(VERDICTS) == 5
