"""The ``termarcade`` command group: help, version, lazy loading, clean errors."""

from __future__ import annotations

import json
import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from tui.cli import LazyGroup, main
from tui.cli.output import emit_json, fail, read_input, to_jsonable, user_errors

pytestmark = pytest.mark.cli


def test_help_lists_commands() -> None:
    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0
    for name in ["play", "parse", "termcraft", "2048"]:
        assert name in result.output


def test_version() -> None:
    result = CliRunner().invoke(main, ["--version"])
    assert result.exit_code == 0
    assert result.output.startswith("termarcade, version ")


@pytest.mark.parametrize("game", ["nosuchgame", "TERMCRAFT", "../x"])
def test_play_unknown_game_exit_2(game: str) -> None:
    result = CliRunner().invoke(main, ["play", game])
    assert result.exit_code == 2
    assert "unknown game" in result.output
    assert "Traceback" not in result.output


def test_play_a_game_without_screen_exit_2() -> None:
    from core import registry
    from core.registry import GameInfo

    with registry.register(GameInfo("zz_soon", "Zz Soon", "t", "no_such_module_xyz:GAME")):
        result = CliRunner().invoke(main, ["play", "zz_soon"])
    assert result.exit_code == 2 and "coming soon" in result.output


def test_no_tty_is_a_clean_error() -> None:
    result = CliRunner().invoke(main, [])
    assert result.exit_code == 2 and "interactive terminal" in result.output


def test_unknown_command_is_usage_error() -> None:
    result = CliRunner().invoke(main, ["frobnicate"])
    assert result.exit_code == 2
    assert result.output == "error: no such command 'frobnicate' (see 'termarcade --help')\n"


def test_data_dir_option_sets_env(tmp_path, monkeypatch) -> None:
    import os

    target = tmp_path / "elsewhere"
    CliRunner().invoke(main, ["--data-dir", str(target), "play", "nosuchgame"])
    assert os.environ["TERMARCADE_DATA_DIR"] == str(target)


def _group_with(lazy: dict[str, tuple[str, str]]) -> click.Group:
    @click.group(cls=LazyGroup, lazy_commands=lazy)
    def group() -> None:
        """Test group."""

    return group


def test_missing_module_gives_clean_error_and_others_still_work() -> None:
    group = _group_with(
        {
            "ghost": ("no_such_module_xyz:cmd", "A command whose module is missing."),
            "ok": ("click.testing:CliRunner", "Not a command."),
        }
    )
    result = CliRunner().invoke(group, ["--help"])
    assert result.exit_code == 0 and "ghost" in result.output
    result = CliRunner().invoke(group, ["ghost", "--json", "x"])
    assert result.exit_code == 2
    assert "not available" in result.output and "Traceback" not in result.output
    result = CliRunner().invoke(group, ["ok"])
    assert result.exit_code == 2 and "not a click command" in result.output


def test_internal_error_has_no_traceback() -> None:
    @click.group(cls=LazyGroup)
    def group() -> None:
        """Test group."""

    @group.command()
    def boom() -> None:
        raise ValueError("kaputt")

    class FakeParseError(Exception):
        def render(self) -> str:
            return "input:1:3: unexpected ')'\nf()) \n   ^\nexpected end of input"

    @group.command()
    def badparse() -> None:
        raise FakeParseError("x")

    result = CliRunner().invoke(group, ["boom"])
    assert result.exit_code == 70
    assert result.output.startswith("error: internal error: ValueError: kaputt")
    assert len(result.output.splitlines()) == 1 and "Traceback" not in result.output
    result = CliRunner().invoke(group, ["badparse"])
    assert result.exit_code == 2
    assert result.output.startswith("input:1:3: unexpected ')'") and "^" in result.output


def test_emit_json_stable_and_unicode() -> None:
    @click.command()
    def show() -> None:
        emit_json({"b": 1, "a": ("x", frozenset({3, 1, 2})), "ü": "✓", "none": None})

    result = CliRunner().invoke(show)
    assert result.output == '{"b": 1, "a": ["x", [1, 2, 3]], "ü": "✓", "none": null}\n'
    assert json.loads(result.output)["ü"] == "✓"


def test_to_jsonable_dataclass_and_to_json() -> None:
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class Point:
        x: int
        y: tuple[int, ...]

    class Term:
        def to_json(self) -> object:
            return {"const": "a"}

    assert to_jsonable(Point(1, (2, 3))) == {"x": 1, "y": [2, 3]}
    assert to_jsonable([Term()]) == [{"const": "a"}]
    with pytest.raises(TypeError):
        to_jsonable(object())


def test_fail_and_user_errors(tmp_path) -> None:
    @click.command()
    @click.argument("source")
    def cat(source: str) -> None:
        text, name = read_input(source)
        if not text:
            fail("empty input", 1)
        click.echo(f"{name}:{text}")

    runner = CliRunner()
    good = tmp_path / "good.txt"
    good.write_text("héllo", encoding="utf-8")
    assert runner.invoke(cat, [str(good)]).output == f"{good}:héllo\n"
    assert runner.invoke(cat, ["-"], input="from stdin").output == "<stdin>:from stdin\n"
    missing = runner.invoke(cat, [str(tmp_path / "missing.txt")])
    assert missing.exit_code == 2 and "No such file" in missing.output
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\xff\xfe\x00bad")
    result = runner.invoke(cat, [str(bad)])
    assert result.exit_code == 2 and "UTF-8" in result.output
    assert runner.invoke(cat, [str(tmp_path)]).exit_code == 2
    empty = tmp_path / "empty.txt"
    empty.write_text("", encoding="utf-8")
    result = runner.invoke(cat, [str(empty)])
    assert result.exit_code == 1 and "error: empty input" in result.output


def test_user_errors_recursion() -> None:
    @click.command()
    def deep() -> None:
        with user_errors():
            raise RecursionError()

    result = CliRunner().invoke(deep)
    assert result.exit_code == 2 and "nested too deeply" in result.output


def test_cli_import_does_not_load_textual() -> None:
    code = (
        "import sys, tui.cli, tui.cli.output, tui.games, tui.store; "
        "assert 'textual' not in sys.modules, 'textual imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_python_dash_m_tui_help() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "tui", "--help"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0
    assert "Usage: termarcade" in result.stdout


def test_help_lists_games_without_importing_textual() -> None:
    code = (
        "import sys; from click.testing import CliRunner; from tui.cli import main; "
        "r = CliRunner().invoke(main, ['--help']); assert r.exit_code == 0, r.output; "
        "assert 'termcraft' in r.output and '2048' in r.output; "
        "assert 'textual' not in sys.modules, 'textual imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_entry_sets_up_ctrl_c_before_anything_heavy() -> None:
    """The console script's module handles SIGINT before click, rich or the registry load,
    and ``tui`` itself stays trivial (its version is looked up on first use)."""
    code = (
        "import signal, sys; import tui.entry as entry; "
        "heavy = {'click', 'rich', 'importlib.metadata', 'core.registry'} & set(sys.modules); "
        "assert not heavy, heavy; "
        "assert signal.getsignal(signal.SIGINT) is entry._exit_interrupted"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_console_script_is_the_entry_module() -> None:
    from importlib.metadata import entry_points

    (script,) = entry_points(group="console_scripts", name="termarcade")
    assert script.value == "tui.entry:main"


def test_version_is_looked_up_lazily() -> None:
    import tui

    assert isinstance(tui.__version__, str) and tui.__version__
    with pytest.raises(AttributeError):
        tui.no_such_attribute  # noqa: B018
