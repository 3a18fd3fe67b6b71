"""Every code block of README.md runs, so the README cannot drift from the code.

The rules, which the README's blocks are written to:

- The README is cut into sections at its level-2 headings (``## ``); the text
  before the first is a section of its own. Each section runs in a fresh
  temporary folder holding a copy of the repository's ``scenarios/``, and its
  Python blocks share one namespace (a module of its own, so that the classes
  it defines pickle), in the order they appear, as one session would.
- A ```` ```python ```` block runs; it must not raise. One whose first line is
  a comment ``# not run: REASON`` (visible in the README) is only compiled.
- A ```` ```sh ```` block holds shell commands. Each ``python -m game ...``
  among them (after ``&&`` too, with any ``python`` path) is parsed by the
  command line's own parser and then run, in the section's folder, and must
  exit with status 0; so the README's commands use small sizes. Other commands
  (making a virtual environment, ``pip``, ``pytest``) are not run.
- A ```` ```text ```` block is deliberately not run: command synopses with
  placeholders (``SCENARIO``, ``[--out FILE]``), output. ``toml`` and ``yaml``
  blocks are data, shown as written. Any other fence is an error here, so that
  every new block is put under one rule or another.
- A block that needs an optional package (:data:`NEEDS`: pyarrow for
  ``.parquet``, matplotlib for figures, hypothesis for the strategies, dask's
  ``distributed``) is skipped, that block alone, when the package is missing.

Blocks are tests of their own, in order; a block runs the section's earlier
blocks first if they have not run, and fails when one of them failed.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import re
import shlex
import shutil
import sys
import traceback
import types
from pathlib import Path

import attrs
import pytest

from game.cli import main
from game.cli._main import parser
from game.players import _registry as registry

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"

#: The fences a README block may have, and what is done with it.
RUN, COMMANDS, SHOWN = "run", "commands", "shown"
FENCES = {"python": RUN, "sh": COMMANDS, "text": SHOWN, "toml": SHOWN, "yaml": SHOWN}
#: Blocks whose code matches a pattern need the package beside it.
NEEDS = [
    (re.compile(r"\.parquet\b"), "pyarrow"),
    (re.compile(r"--plot\b|-m game (plot|report)\b|game\.viz\.plots|matplotlib"), "matplotlib"),
    (re.compile(r"\bhypothesis\b|game\.testing\.strategies"), "hypothesis"),
    (re.compile(r"\bdistributed\b"), "distributed"),
]
NOT_RUN = re.compile(r"#\s*not run:\s*\S")
PYTHON = re.compile(r"^(\S*/)?python(3(\.\d+)?)?$")


@attrs.frozen
class Block:
    """One fenced block of the README."""

    section: str
    line: int  # of its opening fence, counted from 1
    fence: str
    code: str

    @property
    def id(self) -> str:
        return f"{self.section} (line {self.line}, {self.fence})"

    def missing(self) -> list[str]:
        """The packages this block needs that are not installed."""
        # comments say what a line does, not what it needs
        code = "\n".join(line.split("#", 1)[0] for line in self.code.splitlines())
        needed = {package for pattern, package in NEEDS if pattern.search(code)}
        return sorted(p for p in needed if importlib.util.find_spec(p) is None)


def read_blocks(text: str) -> list[Block]:
    """The fenced blocks of a Markdown text, in order, each with its section's heading."""
    blocks, section, fence, start, lines, indent = [], "(top)", None, 0, [], ""
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if fence is None:
            if line.startswith("## "):
                section = line[3:].strip()
            elif stripped.startswith("```"):
                fence, start, lines = stripped[3:].strip(), number, []
                indent = line[: len(line) - len(line.lstrip())]
        elif stripped == "```":
            blocks.append(Block(section, start, fence, "\n".join(lines) + "\n"))
            fence = None
        else:
            lines.append(line[len(indent) :] if line.startswith(indent) else line)
    assert fence is None, f"README.md: the block opened at line {start} is never closed"
    return blocks


def game_commands(script: str) -> list[list[str]]:
    """The ``python -m game`` commands of a shell script, as argument lists for ``main``."""
    commands = []
    script = script.replace("\\\n", " ")
    for line in script.splitlines():
        words = shlex.split(line, comments=True)
        segment: list[str] = []
        for word in [*words, "&&"]:
            if word not in ("&&", ";", "||"):
                segment.append(word)
                continue
            if len(segment) >= 3 and PYTHON.match(segment[0]) and segment[1:3] == ["-m", "game"]:
                commands.append(segment[3:])
            segment = []
    return commands


BLOCKS = read_blocks(README.read_text(encoding="utf-8"))
CHECKED = [b for b in BLOCKS if FENCES.get(b.fence) in (RUN, COMMANDS)]


@attrs.define
class Section:
    """The blocks of one section, run in order in one folder and one namespace."""

    name: str
    folder: Path
    module: types.ModuleType
    outcomes: dict[int, tuple[str, str]] = attrs.field(factory=dict)  # line -> (state, detail)

    def run_through(self, block: Block) -> tuple[str, str]:
        """Run the section's blocks up to ``block`` (each once); its outcome."""
        for earlier in (b for b in CHECKED if b.section == self.name):
            if earlier.line not in self.outcomes:
                self.outcomes[earlier.line] = self._run(earlier)
            if earlier.line == block.line:
                return self.outcomes[block.line]
            state, _ = self.outcomes[earlier.line]
            if state == "failed":
                return "failed", f"the section's block at line {earlier.line} failed first"
        raise AssertionError(f"{block.id} is not a block of {self.name}")

    def _run(self, block: Block) -> tuple[str, str]:
        missing = block.missing()
        if missing:
            return "skipped", f"{block.id} needs {', '.join(missing)}"
        with _inside(self.folder):
            try:
                if block.fence == "python":
                    self._python(block)
                else:
                    self._commands(block)
            except Exception:
                return "failed", f"{block.id}:\n{block.code}\n{traceback.format_exc()}"
        return "passed", ""

    def _python(self, block: Block) -> None:
        code = compile(block.code, f"README.md:{block.line}", "exec")
        first = block.code.lstrip().splitlines()[0] if block.code.strip() else ""
        if NOT_RUN.match(first):
            return
        exec(code, self.module.__dict__)

    def _commands(self, block: Block) -> None:
        for argv in game_commands(block.code):
            shown = " ".join(["python -m game", *argv])
            try:
                parser().parse_args(argv)
            except SystemExit as exc:
                raise AssertionError(f"{shown}: the command line refuses it") from exc
            status = main(argv)
            assert status == 0, f"{shown}: exit status {status}"


@contextlib.contextmanager
def _inside(folder: Path):
    before = Path.cwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)


@pytest.fixture(scope="module")
def sections(tmp_path_factory):
    """One :class:`Section` per README section, made as first needed; the registry kept."""
    registered, loaded = dict(registry._registered), dict(registry._loaded)
    made: dict[str, Section] = {}

    def section(name: str) -> Section:
        if name not in made:
            folder = tmp_path_factory.mktemp("readme")
            shutil.copytree(ROOT / "scenarios", folder / "scenarios")
            module = types.ModuleType(f"readme_section_{len(made)}")
            sys.modules[module.__name__] = module  # so that its classes pickle
            made[name] = Section(name, folder, module)
        return made[name]

    yield section
    for s in made.values():
        sys.modules.pop(s.module.__name__, None)
    registry._registered.clear()
    registry._registered.update(registered)
    registry._loaded.clear()
    registry._loaded.update(loaded)


def test_every_block_is_under_a_rule():
    unknown = [b.id for b in BLOCKS if b.fence not in FENCES]
    assert not unknown, f"blocks with a fence the README test has no rule for: {unknown}"
    assert any(b.fence == "python" for b in BLOCKS) and any(b.fence == "sh" for b in BLOCKS)


def test_the_rules_read_the_readme_as_written():
    blocks = read_blocks(
        "intro\n```sh\npython -m game list\n```\n## A\n  ```python\n  x = 1\n  ```\n"
    )
    assert [(b.section, b.line, b.fence, b.code) for b in blocks] == [
        ("(top)", 2, "sh", "python -m game list\n"),
        ("A", 6, "python", "x = 1\n"),
    ]
    script = (
        "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/python -m game run x\n"
        "python -m game sweep s.toml \\\n    --seeds 0:4  # a comment\n"
        "python -m pytest -q\n"
    )
    assert game_commands(script) == [["run", "x"], ["sweep", "s.toml", "--seeds", "0:4"]]
    parquet = Block("S", 1, "python", 'result.save("runs/x.parquet")\n')
    commented = Block("S", 1, "python", 'result.save("runs/x.csv")  # or .parquet\n')
    assert commented.missing() == []
    assert parquet.missing() == ([] if importlib.util.find_spec("pyarrow") else ["pyarrow"])


def test_a_block_that_raises_fails(tmp_path):
    section = Section("S", tmp_path, types.ModuleType("readme_probe"))

    def run(code, fence="python"):
        return section._run(Block("S", 1, fence, code))

    assert run("x = 1\n") == ("passed", "")
    state, detail = run("raise ValueError('drifted')\n")
    assert state == "failed" and "ValueError: drifted" in detail
    assert run("python -m game run --no-such-option\n", fence="sh")[0] == "failed"
    assert run("python -m game list --no-such-option\n", fence="sh")[0] == "failed"
    assert run("# not run: needs a cluster\nimport nowhere\n")[0] == "passed"  # compiled only
    assert run("# not run: broken\nx = (\n")[0] == "failed"
    assert run("y = x + 1\n") == ("passed", "") and section.module.y == 2  # one namespace


@pytest.mark.parametrize("block", CHECKED, ids=[b.id for b in CHECKED])
def test_the_readme_block_runs(block, sections):
    state, detail = sections(block.section).run_through(block)
    if state == "skipped":
        pytest.skip(detail)
    assert state == "passed", detail
