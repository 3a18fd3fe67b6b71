"""The command modules: one convention, one parser built from their list, one list of figures."""

from __future__ import annotations

import argparse
import inspect
import pkgutil
import subprocess
import sys

import pytest

import game.cli
from game.cli._main import COMMANDS, main, parser
from game.viz import FIGURE_KINDS

SHARED = {"game.cli._main", "game.cli._output"}  # the entry point and what commands share


def subcommands(top: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    (action,) = [a for a in top._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(action.choices)


def test_every_command_module_is_listed_and_follows_the_convention():
    found = {
        info.name
        for info in pkgutil.iter_modules(game.cli.__path__, "game.cli.")
        if info.name not in SHARED
    }
    assert found == {module.__name__ for module in COMMANDS}
    for module in COMMANDS:
        assert {"add_parser", "run"} <= set(module.__all__), module.__name__
        assert list(inspect.signature(module.add_parser).parameters) == ["subparsers"]
        assert list(inspect.signature(module.run).parameters) == ["args", "console"]


def test_each_module_adds_the_command_it_is_named_for_and_runs_it():
    commands = subcommands(parser())
    names = [module.__name__.removeprefix("game.cli._") for module in COMMANDS]
    assert list(commands) == names
    for module, name in zip(COMMANDS, names, strict=True):
        added = module.add_parser(argparse.ArgumentParser().add_subparsers())
        assert isinstance(added, argparse.ArgumentParser) and added.prog.endswith(name)
        assert commands[name].get_default("handler") is module.run


def test_the_figures_are_the_plots_kinds():
    commands = subcommands(parser())

    def option(command: str, flag: str) -> argparse.Action:
        (action,) = [a for a in commands[command]._actions if flag in a.option_strings]
        return action

    assert tuple(option("run", "--plot-kind").choices) == FIGURE_KINDS
    assert tuple(option("plot", "--kind").choices) == FIGURE_KINDS
    assert option("report", "--figures").default == ",".join(FIGURE_KINDS)


def test_the_command_line_does_not_import_matplotlib():
    probe = (
        "import sys, game.cli, game.viz.plots; "
        "from game.cli._main import parser; parser(); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'matplotlib'))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize(
    ("error", "status", "start"),
    [
        ("ExpectationError", 1, "failed: "),
        ("ReplayMismatch", 1, "failed: "),
        ("GameError", 2, "error: "),
    ],
)
def test_exit_statuses(capsys, monkeypatch, error, status, start):
    import game.errors
    from game.cli import _list

    def fail(args, console):
        raise getattr(game.errors, error)("why")

    monkeypatch.setattr(_list, "run", fail)
    assert main(["list"]) == status
    assert capsys.readouterr().err == f"{start}why\n"


def test_an_interrupt_exits_130(capsys, monkeypatch):
    from game.cli import _list

    def interrupted(args, console):
        raise KeyboardInterrupt

    monkeypatch.setattr(_list, "run", interrupted)
    assert main(["list"]) == 130
    assert capsys.readouterr().err == "interrupted\n"
