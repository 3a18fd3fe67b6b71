"""The distribution: a wheel that plays the README's demo by name from any folder, and an sdist.

The wheel is built from a copy of the sources (``python -m pip wheel``, with
build isolation: the build backend comes from the package index), installed
with ``pip install --no-deps --target`` into a folder outside the checkout, and
run from another folder with only that folder on ``PYTHONPATH``. When the build
backend cannot be fetched the tests are skipped, saying so. Together they take
about 20 s; ``-m "not packaging"`` leaves them out.

Examples to paste (what ``.ci/run`` does in a fresh virtual environment)::

    python -m pip wheel . --no-deps -w /tmp/dist
    cd /tmp && python -m game run perceptron-separable --no-out
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from game import builtin_scenarios
from game.players import names

pytestmark = pytest.mark.packaging

ROOT = Path(__file__).resolve().parents[1]

#: What a build needs of the checkout (the sdist's MANIFEST.in adds the rest).
SOURCES = ("pyproject.toml", "MANIFEST.in", "README.md", "conftest.py")
PACKAGES = ("game", "learners", "adversaries", "scenarios", "tests", "benchmarks", "docs")

#: Why a build failed when it is the package index, not the project: skip rather than fail.
UNREACHABLE = re.compile(
    r"No matching distribution found for (setuptools|build)|Could not find a version that "
    r"satisfies the requirement (setuptools|build)|Failed to establish a new connection|"
    r"Temporary failure in name resolution|Network is unreachable|Max retries exceeded"
)


def _source_copy(folder: Path) -> Path:
    """The checkout's tracked layout copied to ``folder`` (no build leftovers, no caches)."""
    ignore = shutil.ignore_patterns(
        "__pycache__", "*.py[cod]", "build", "dist", "*.egg-info", "_build", "runs"
    )
    for name in SOURCES:
        shutil.copy2(ROOT / name, folder / name)
    for name in PACKAGES:
        if (ROOT / name).exists():  # game/scenarios stays a link to scenarios/
            shutil.copytree(ROOT / name, folder / name, symlinks=True, ignore=ignore)
    link = (ROOT / "game" / "scenarios").is_symlink()  # a folder in an unpacked sdist
    assert (folder / "game" / "scenarios").is_symlink() == link
    return folder


def _build(command: list[str], what: str) -> None:
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        output = done.stdout + done.stderr
        if UNREACHABLE.search(output):
            pytest.skip(f"{what}: the build backend cannot be fetched from the package index")
        pytest.fail(f"{what} failed:\n{output[-4000:]}")


@pytest.fixture(scope="module")
def sources(tmp_path_factory) -> Path:
    return _source_copy(tmp_path_factory.mktemp("sources"))


@pytest.fixture(scope="module")
def wheel(sources, tmp_path_factory) -> Path:
    """The wheel, built with pip from the copy of the sources."""
    dist = tmp_path_factory.mktemp("dist")
    _build(
        [sys.executable, "-m", "pip", "wheel", str(sources), "--no-deps", "-q", "-w", str(dist)],
        "pip wheel",
    )
    (built,) = dist.glob("online_learning_games-*.whl")
    return built


@pytest.fixture(scope="module")
def site(wheel, tmp_path_factory) -> Path:
    """The wheel installed (without its dependencies, which the test run has) into a folder."""
    target = tmp_path_factory.mktemp("site")
    _build(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), wheel],
        "pip install --target",
    )
    return target


@pytest.fixture
def elsewhere(site, tmp_path):
    """Run ``python ARGS`` in an empty folder with only the installed wheel on the path."""
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE")}
    env["PYTHONPATH"] = str(site)
    env["COLUMNS"] = "80"

    def python(*args: str, program: str = sys.executable) -> subprocess.CompletedProcess:
        return subprocess.run(
            [program, *args], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300
        )

    return python


def test_the_wheel_holds_the_scenarios_their_data_and_py_typed(wheel):
    held = set(zipfile.ZipFile(wheel).namelist())
    for package in ("game", "learners", "adversaries"):
        assert f"{package}/py.typed" in held
    shipped = {
        f"game/scenarios/{path.relative_to(ROOT / 'scenarios').as_posix()}"
        for path in (ROOT / "scenarios").rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }
    assert shipped and shipped <= held, sorted(shipped - held)
    assert not any(name.startswith(("tests/", "scenarios/", "benchmarks/")) for name in held)
    metadata = zipfile.ZipFile(wheel).read(
        next(n for n in held if n.endswith(".dist-info/METADATA"))
    )
    assert b"License-Expression: MIT" in metadata


def readme_demo() -> list[str]:
    """The game of the README's first command: the arguments after ``.venv/bin/python``."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first = re.search(r"```sh\n(.*?)\n```", readme, re.S).group(1)
    *_, demo = first.split("&&")
    program, *args = shlex.split(demo)
    assert program == ".venv/bin/python" and args[:3] == ["-m", "game", "run"], first
    return args


def test_the_installed_wheel_runs_the_readme_demo_by_name_from_another_folder(site, elsewhere):
    where = elsewhere("-c", "import game, learners; print(game.__file__); print(learners.__file__)")
    assert where.returncode == 0, where.stderr
    for line in where.stdout.splitlines():
        assert Path(line).is_relative_to(site), line
    demo = readme_demo()
    assert demo == ["-m", "game", "run", "perceptron-separable"]
    done = elsewhere(*demo, "--no-out")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Perceptron (004's convention) on a separable stream")
    assert lines[-1] == "every expectation holds"
    assert any(re.match(r"│ learner\s+│ perceptron\s+│", line) for line in lines)


def test_the_installed_wheel_lists_its_scenarios(elsewhere):
    done = elsewhere("-m", "game", "list", "--scenarios")
    assert done.returncode == 0, done.stderr
    listed = [line.strip("│").split("│")[0].strip() for line in done.stdout.splitlines()]
    assert [n for n in listed if n in builtin_scenarios()] == list(builtin_scenarios())


def test_the_installed_wheel_selfchecks_every_player(elsewhere):
    done = elsewhere("-m", "game", "selfcheck", "--seconds", "0.5")
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(rf"│ players checked\s+│\s+{len(names())} │", done.stdout), done.stdout
    assert "skipped" not in done.stdout


def test_the_installed_console_script_names_itself_and_its_version(site, wheel, elsewhere):
    script = site / "bin" / "online-learning-games"
    assert script.is_file()
    shown = elsewhere("--version", program=str(script))
    assert shown.returncode == 0, shown.stderr
    release = wheel.name.split("-")[1]
    assert shown.stdout == f"online-learning-games {release}\n"
    usage = elsewhere("--help", program=str(script))
    assert usage.stdout.startswith("usage: online-learning-games [-h] [--version]")


@pytest.fixture(scope="module")
def sdist(sources, tmp_path_factory) -> Path:
    """The sdist, built with ``build`` installed in a throwaway virtual environment."""
    tools = tmp_path_factory.mktemp("buildvenv")
    _build([sys.executable, "-m", "venv", str(tools)], "python -m venv")
    python = tools / "bin" / "python"
    _build([str(python), "-m", "pip", "install", "-q", "build"], "pip install build")
    dist = tmp_path_factory.mktemp("sdist")
    _build([str(python), "-m", "build", "--sdist", "-o", str(dist), str(sources)], "build")
    (built,) = dist.glob("online_learning_games-*.tar.gz")
    return built


def test_the_sdist_holds_the_tests_the_scenarios_and_the_docs(sdist):
    with tarfile.open(sdist) as archive:
        held = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    tracked = {
        path.relative_to(ROOT).as_posix()
        for folder in ("tests", "scenarios")
        for path in (ROOT / folder).rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
    }
    assert tracked <= held, sorted(tracked - held)
    assert {"README.md", "pyproject.toml", "game/scenarios/perceptron_separable.toml"} <= held
    assert "tests/test_packaging.py" in held and "docs" in {n.split("/")[0] for n in held}
