"""One face for the CLI (issue 7): errors, exit statuses, ctrl+c, closed pipes, ``play FILE``.

Most tests go through the real ``termarcade`` group (CliRunner); the ones about signals,
pipes and buffering run the installed console script and ``python -m tui`` in a subprocess,
because only a real process has real signals and pipes.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import tui.cli
from tests.cli.helpers import apart_runner
from tui.cli import main

pytestmark = pytest.mark.cli

REPO = Path(__file__).resolve().parents[2]
LEVELS = REPO / "levels" / "termcraft" / "01-basics.levels"
SCRIPT = Path(sys.executable).with_name("termarcade")


def invoke(args: list[str], input: str | bytes | None = None) -> Any:
    """Run ``termarcade ARGS`` in-process; stdout and stderr are kept apart."""
    return apart_runner().invoke(main, args, input=input)


def raw_controls(text: str) -> list[str]:
    """Control characters other than the line break (they would drive the terminal)."""
    return [ch for ch in text if ch != "\n" and unicodedata.category(ch) in ("Cc", "Cf")]


def installed_script() -> Path:
    """The ``termarcade`` console script of this environment (it must be current)."""
    if not SCRIPT.exists():
        pytest.skip(f"the console script is not installed next to {sys.executable}")
    if "tui.entry" not in SCRIPT.read_text(encoding="utf-8", errors="replace"):
        pytest.fail("the installed termarcade script predates tui.entry: re-run pip install -e .")
    return SCRIPT


# --------------------------------------------------------------------------- ctrl+c


def _interrupt_after_entry(command: list[str], delay: float) -> tuple[int, str]:
    """Start ``command``, send SIGINT ``delay`` s after :mod:`tui.entry` was imported.

    The moment comes from Python's own import log (PYTHONPROFILEIMPORTTIME), so the sweep
    starts exactly where termarcade's first line runs; what comes before it (the interpreter's
    start-up and ``site``, ~15 ms with an editable install) is no program's to guard.

    Returns:
        The exit status and stderr without the import log.
    """
    env = dict(os.environ, PYTHONPROFILEIMPORTTIME="1")
    proc = subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
        cwd=REPO,
    )
    lines: list[bytes] = []
    entry_loaded = threading.Event()

    def drain() -> None:
        for line in proc.stderr:  # type: ignore[union-attr]
            lines.append(line)
            if line.rsplit(b"|", 1)[-1].strip() == b"tui.entry":  # the module-name column
                entry_loaded.set()
        entry_loaded.set()

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    assert entry_loaded.wait(60), "tui.entry was never imported"
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    status = proc.wait(60)
    reader.join(10)
    text = b"".join(line for line in lines if not line.startswith(b"import time:"))
    return status, text.decode("utf-8", "replace")


@pytest.mark.slow
@pytest.mark.parametrize("how", ["script", "module"])
def test_ctrl_c_is_clean_from_the_first_moment(how: str) -> None:
    """Defect: ctrl+c in the first ~50 ms printed a KeyboardInterrupt traceback (21 of 24).

    Now: status 130 and just "interrupted", whether the signal lands while click, rich and
    the registry are being imported or while the command runs.
    """
    if how == "script":
        command = [str(installed_script()), "parse"]  # waits on stdin once started
    else:
        command = [sys.executable, "-m", "tui", "2048", "autoplay", "--games", "500", "--json"]
    for delay_ms in (0, 1, 2, 5, 10, 20, 30, 40, 50, 75, 100, 150, 200):
        status, err = _interrupt_after_entry(command, delay_ms / 1000)
        assert "Traceback" not in err, (delay_ms, err)
        assert (status, err.strip()) == (130, "interrupted"), (delay_ms, status, err)


def test_keyboard_interrupt_in_a_command_is_130() -> None:
    import click

    from tui.cli import LazyGroup

    @click.group(cls=LazyGroup)
    def group() -> None:
        """Test group."""

    @group.command()
    def slow() -> None:
        raise KeyboardInterrupt

    result = CliRunner().invoke(group, ["slow"])
    assert result.exit_code == 130 and result.output.strip() == "interrupted"


# --------------------------------------------------------------------------- closed pipes


@pytest.mark.parametrize(
    "args",
    [
        ["2048", "replay", "--seed", "1"],  # a rich table (exited 1 before)
        ["parse", "--tree", "f(a,b)"],  # a rich tree (exited 1 before)
        ["termcraft", "actions", str(LEVELS)],  # a rich table from another command's console
        ["parse", "f(a)"],  # plain click.echo
        ["2048", "replay", "--seed", "1", "--json"],
        ["--help"],
    ],
)
def test_closed_stdout_is_141_and_quiet_whatever_printed_it(args: list[str]) -> None:
    """Defect: rich output exited 1 on a closed pipe where plain output exited 141."""
    proc = subprocess.Popen(
        [str(installed_script()), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO
    )
    proc.stdout.close()  # type: ignore[union-attr]  # the reader is gone before anything is written
    err = proc.stderr.read()  # type: ignore[union-attr]
    assert proc.wait(60) == 141
    assert err == b""


def test_autoplay_json_streams_one_line_per_game_on_a_pipe() -> None:
    """Defect: ``autoplay --json`` was block-buffered on a pipe (nothing until the end)."""
    proc = subprocess.Popen(
        [
            str(installed_script()),
            "2048",
            "autoplay",
            "--seed",
            "1",
            "--games",
            "3",
            "--size",
            "8",
            "--max-moves",
            "3",
            "--depth",
            "1",
            "--json",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=REPO,
    )
    first = proc.stdout.readline()  # type: ignore[union-attr]
    first_at = time.monotonic()
    rest = proc.stdout.read()  # type: ignore[union-attr]
    assert proc.wait(120) == 0, proc.stderr.read()  # type: ignore[union-attr]
    ended_at = time.monotonic()
    assert first.startswith(b'{"seed": 1,')
    assert len(rest.splitlines()) == 2
    # Two more games were played after the first line arrived.
    assert ended_at - first_at > 0.3


def test_emit_json_flushes_each_line() -> None:
    from tui.cli.output import emit_json

    class Recorder:
        def __init__(self) -> None:
            self.events: list[str] = []

        def write(self, text: str) -> int:
            self.events.append("write")
            return len(text)

        def flush(self) -> None:
            self.events.append("flush")

    out = Recorder()
    emit_json({"a": 1}, file=out)  # type: ignore[arg-type]
    assert out.events[-1] == "flush"


class _Stream:
    """A stand-in stdout/stderr that says whether it is a terminal."""

    def __init__(self, tty: bool) -> None:
        self.tty = tty
        self.text = ""

    def isatty(self) -> bool:
        return self.tty

    def write(self, text: str) -> int:
        self.text += text
        return len(text)

    def flush(self) -> None:
        pass


def test_progress_bar_only_on_a_terminal_and_never_over_json_lines(monkeypatch) -> None:
    """The one level progress bar: nothing on a pipe or when the command says so; while
    --json lines go to a terminal, commands are told not to show it."""
    from tui.cli.output import progress_bar, progress_wanted

    monkeypatch.setattr(sys, "stdout", _Stream(tty=True))
    assert progress_wanted(as_json=True) is False
    assert progress_wanted(as_json=False) is True
    monkeypatch.setattr(sys, "stdout", _Stream(tty=False))
    assert progress_wanted(as_json=True) is True
    for tty, show, total in [(False, True, 5), (True, False, 5), (True, True, 0)]:
        err = _Stream(tty)
        monkeypatch.setattr(sys, "stderr", err)
        with progress_bar(total, "generating", show) as advance:
            advance(label="a level")
        assert err.text == "", (tty, show, total)
    monkeypatch.setenv("TERM", "xterm-256color")
    for name in ("FORCE_TERMINAL", "TTY_INTERACTIVE", "TTY_COMPATIBLE"):
        monkeypatch.delenv(name, raising=False)
    err = _Stream(tty=True)
    monkeypatch.setattr(sys, "stderr", err)
    with progress_bar(3, "generating") as advance:
        advance(label="a level")
    assert "generating" in err.text


# --------------------------------------------------------------------------- one error line


def test_usage_errors_are_one_line_pointing_at_help() -> None:
    """Defect: click's usage errors were a three-line block (Usage, Try, Error)."""
    result = invoke(["2048", "replay", "--seed", "1", "--size", "1"])
    assert result.exit_code == 2
    assert result.stderr == (
        "error: invalid value for '--size': the board size must be "
        "between 2 and 64, not 1 (see 'termarcade 2048 replay --help')\n"
    )
    result = invoke(["2048", "replay"])
    assert result.stderr == "error: missing option '--seed' (see 'termarcade 2048 replay --help')\n"
    result = invoke(["2048", "replay", "--sed", "1"])
    assert result.stderr.startswith("error: no such option '--sed'; did you mean --seed")
    result = invoke(["2048x"])
    assert (
        result.stderr
        == "error: no such command '2048x'; did you mean 2048? (see 'termarcade --help')\n"
    )


def test_internal_names_are_not_shown() -> None:
    """Defect: "number_of_initial_tiles must be between 0 and board_size**2"."""
    result = invoke(["2048", "replay", "--seed", "1", "--size", "2", "--tiles", "5"])
    assert result.exit_code == 2
    assert result.stderr == "error: --tiles 5 does not fit on a 2×2 board (at most 4)\n"


def test_control_characters_are_escaped_in_messages_and_caret_blocks(tmp_path: Path) -> None:
    result = invoke(["2048", "replay", "--seed", "1", "--moves", "L\x1b]0;owned\x07"])
    assert result.exit_code == 2 and not raw_controls(result.stderr)
    assert "'\\x1b'" in result.stderr
    bad = tmp_path / "bad\x1b[2J.levels"
    bad.write_text('level "x" {\n  game termcraft\n  fuel \x1b[31m1\n}\n', encoding="utf-8")
    result = invoke(["play", "termcraft", str(bad)])
    assert result.exit_code == 2 and not raw_controls(result.stderr)
    lines = result.stderr.splitlines()
    assert "\\e[2J" in lines[0] and ":3:" in lines[0]
    caret_column = lines[2].index("^")
    assert lines[1][caret_column:].startswith("\\e")  # the caret still points at the ESC


def test_internal_error_is_one_line_with_status_70() -> None:
    import click

    from tui.cli import LazyGroup

    @click.group(cls=LazyGroup)
    def group() -> None:
        """Test group."""

    @group.command()
    def boom() -> None:
        raise ValueError("kaputt\nsecond line")

    result = CliRunner().invoke(group, ["boom"])
    assert result.exit_code == 70
    lines = result.output.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: internal error: ValueError: kaputt\\n")
    assert "TERMARCADE_DEBUG=1" in lines[0]


FILE = str(LEVELS)


def _bad_invocations(tmp: Path) -> list[tuple[list[str], int, str]]:
    """(arguments, exit status, "line" for one error line or "caret" for a parse error)."""
    syntax = tmp / "syntax.levels"
    syntax.write_text('level "x" {\n  fuel 1\n  current f(\n}\n', encoding="utf-8")
    seed = ["2048", "replay", "--seed", "1"]
    hint = ["2048", "hint", "--seed", "1"]
    return [
        (["frobnicate"], 2, "line"),
        (["--nope"], 2, "line"),
        (["--data-dir"], 2, "line"),
        (["2048x"], 2, "line"),
        (["play", "nosuchgame"], 2, "line"),
        (["play", "TERMCRAFT"], 2, "line"),
        (["play", "--level", "2"], 2, "line"),
        (["play", "termcraft", str(tmp / "missing.levels")], 2, "line"),
        (["play", "termcraft", str(tmp)], 2, "line"),
        (["play", "termcraft", "-"], 2, "line"),
        (["play", "termcraft", FILE, "--level", "0"], 2, "line"),
        (["play", "termcraft", FILE, "--level", "99"], 2, "line"),
        (["play", "termcraft", FILE, "--level", "x"], 2, "line"),
        (["play", "2048", FILE], 2, "line"),
        (["play", "termcraft", str(syntax)], 2, "caret"),
        (["play", "termcraft", FILE, "extra"], 2, "line"),
        (["play", "nosuch\x1b[31m"], 2, "line"),
        (["keymap", "nope.id", "f2"], 2, "line"),
        (["keymap", "app.help", "notakey"], 2, "line"),
        (["keymap", "app.help", ""], 2, "line"),
        (["keymap", "app.help", "a,,b"], 2, "line"),
        (["keymap", "app.help", "ctrl+"], 2, "line"),
        (["keymap", "app.help", "hyperx+a"], 2, "line"),
        (["keymap", "app.help", "shift+u"], 2, "line"),
        (["keymap", "app.help", "\x1b[31m"], 2, "line"),
        (["keymap", "app.help"], 2, "line"),
        (["keymap", "--unset"], 2, "line"),
        (["keymap", "nope.id", "--unset"], 2, "line"),
        (["keymap", "app.help", "f2", "--unset"], 2, "line"),
        (["keymap", "a", "b", "c"], 2, "line"),
        (["parse", "--tree", "--json", "a"], 2, "line"),
        (["parse", "--tree", "--max-depth", "0", "a"], 2, "line"),
        (["parse", "--nope"], 2, "line"),
        (["parse", "f(,a)"], 2, "caret"),
        (["parse", "f(\x1b)"], 2, "caret"),
        (["2048"], 2, "line"),
        (["2048", "frob"], 2, "line"),
        (["2048", "play", "extra"], 2, "line"),
        (["2048", "replay"], 2, "line"),
        (["2048", "replay", "--seed", "x"], 2, "line"),
        (["2048", "replay", "--seed", "-1"], 2, "line"),
        (["2048", "replay", "--seed", str(2**32)], 2, "line"),
        ([*seed, "--size", "1"], 2, "line"),
        ([*seed, "--size", "65"], 2, "line"),
        ([*seed, "--size", "2", "--tiles", "5"], 2, "line"),
        ([*seed, "--tiles", "-1"], 2, "line"),
        ([*seed, "--goal", "-2"], 2, "line"),
        ([*seed, "--merge", "nope"], 2, "line"),
        ([*seed, "--moves", "LUX"], 2, "line"),
        ([*seed, "--moves", "L\x1b[31m"], 2, "line"),
        *[
            ([*seed, "--distribution", text], 2, "line")
            for text in (
                "2:inf",
                "2:nan",
                "2:-inf",
                "2:-1",
                "2:0",
                "0:1",
                "-2:1",
                "2:x",
                ",",
                "2:1,2:3",
                "2.5:1",
                "2:1e308,4:1e308",
                "2:9:1",
            )
        ],
        ([*hint, "--time-limit", "0"], 2, "line"),
        ([*hint, "--time-limit", "inf"], 2, "line"),
        ([*hint, "--time-limit", "nan"], 2, "line"),
        ([*hint, "--time-limit", "-1"], 2, "line"),
        ([*hint, "--time-limit", "soon"], 2, "line"),
        ([*hint, "--depth", "7"], 2, "line"),
        (["2048", "autoplay", "--games", "0"], 2, "line"),
        (["2048", "autoplay", "--max-moves", "0"], 2, "line"),
        (["2048", "autoplay", "--seed", str(2**32 - 1), "--games", "2"], 2, "line"),
    ]


def test_every_bad_invocation_is_one_clean_error(tmp_path: Path, monkeypatch) -> None:
    """Over every command this face owns: one ``error:`` line (or a parse error's caret
    block), the documented status, nothing on stdout, no traceback, no raw control
    characters."""
    monkeypatch.setattr(tui.cli, "launch_app", lambda **kw: pytest.fail(f"launched {kw}"))
    for args, status, shape in _bad_invocations(tmp_path):
        result = invoke(args)
        where = (args, result.stderr, result.stdout)
        assert result.exit_code == status, where
        assert result.stdout == "", where
        assert "Traceback" not in result.stderr and not raw_controls(result.stderr), where
        lines = result.stderr.splitlines()
        if shape == "line":
            assert len(lines) == 1 and lines[0].startswith("error: "), where
        else:
            assert len(lines) >= 3 and ":" in lines[0] and lines[2].strip() == "^", where


# --------------------------------------------------------------------------- play FILE


@pytest.fixture
def launches(monkeypatch) -> list[dict[str, Any]]:
    """Record app launches instead of starting Textual."""
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(tui.cli, "launch_app", lambda **kw: calls.append(kw))
    return calls


def test_play_a_level_file(launches: list[dict[str, Any]]) -> None:
    from grammar.levels import load_pack_file

    count = len(load_pack_file(LEVELS).levels)
    assert invoke(["play", "termcraft", FILE]).exit_code == 0
    assert invoke(["play", "termcraft", FILE, "--level", str(count)]).exit_code == 0
    assert launches == [
        {"start_game": "termcraft", "level_file": str(LEVELS), "level": 1},
        {"start_game": "termcraft", "level_file": str(LEVELS), "level": count},
    ]
    result = invoke(["play", "termcraft", FILE, "--level", str(count + 1)])
    assert result.exit_code == 2
    assert result.stderr == (
        f"error: there is no level {count + 1}: {FILE} has {count} levels (numbered from 1)\n"
    )
    assert len(launches) == 2


def test_play_checks_the_file_belongs_to_the_game(launches: list[dict[str, Any]]) -> None:
    result = invoke(["play", "2048", FILE])
    assert result.exit_code == 2 and launches == []
    assert result.stderr == f"error: {FILE} holds TermCraft levels, not 2048 levels\n"


def test_play_without_file_and_2048_play_use_the_one_launcher(
    launches: list[dict[str, Any]],
) -> None:
    assert invoke(["play"]).exit_code == 0
    assert invoke(["play", "2048"]).exit_code == 0
    assert invoke(["2048", "play"]).exit_code == 0
    assert launches == [{"start_game": None}, {"start_game": "2048"}, {"start_game": "2048"}]


def test_play_a_game_that_is_coming_soon(launches: list[dict[str, Any]]) -> None:
    from core import registry
    from core.registry import GameInfo

    with registry.register(GameInfo("zz_soon", "Zz Soon", "t", "no_such_module_xyz:GAME")):
        result = invoke(["play", "zz_soon", FILE])
    assert result.exit_code == 2 and launches == []
    assert result.stderr == "error: Zz Soon is coming soon; it cannot be played yet\n"


def test_launch_app_needs_a_terminal() -> None:
    """The one TTY check (CliRunner's streams are not terminals)."""
    for args in (["play", "termcraft", FILE], ["2048", "play"], []):
        result = invoke(args)
        assert result.exit_code == 2, args
        assert result.stderr.startswith("error: the arcade needs an interactive terminal")
