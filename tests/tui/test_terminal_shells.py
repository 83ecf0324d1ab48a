"""The arcade from a person's shell: the installed command on a new login shell's PATH, and
the shell's screen given back intact after playing and resizing inside tmux."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tui import __version__

pytestmark = [pytest.mark.slow, pytest.mark.cli]


def _installed_command() -> Path:
    """The ``termarcade`` console script of the environment running the tests."""
    script = Path(sys.executable).parent / "termarcade"
    if not script.exists():
        pytest.skip("termarcade is not installed as a command in this environment")
    return script


def test_a_new_login_shell_finds_termarcade(tmp_path: Path) -> None:
    skel = Path("/etc/skel")
    profiles = [skel / name for name in (".profile", ".bash_profile", ".bashrc")]
    if not any(p.exists() and ".local/bin" in p.read_text(errors="replace") for p in profiles):
        pytest.skip("this system's default login profile does not put ~/.local/bin on PATH")
    home = tmp_path / "home"
    shutil.copytree(skel, home)
    # docs/remote.md, "Install so that termarcade is on your PATH": the command goes into ~/.local/bin (uv tool install / pipx
    # do this; for a virtual environment, a symbolic link).
    (home / ".local" / "bin").mkdir(parents=True)
    (home / ".local" / "bin" / "termarcade").symlink_to(_installed_command())
    result = subprocess.run(
        ["bash", "-l", "-c", "command -v termarcade && termarcade --version"],
        env={
            "HOME": str(home),
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "TERM": "dumb",
            "USER": "player",
            "SHELL": "/bin/bash",
        },
        capture_output=True,
        text=True,
        timeout=120,
        cwd=home,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == str(home / ".local" / "bin" / "termarcade")
    assert __version__ in result.stdout


class Tmux:
    """A private tmux server (its own socket) running one window."""

    def __init__(self, socket: Path, command: str, width: int, height: int) -> None:
        self.base = ["tmux", "-S", str(socket)]
        subprocess.run(
            self.base + ["new-session", "-d", "-x", str(width), "-y", str(height), command],
            check=True,
            timeout=30,
        )

    def __call__(self, *args: str) -> str:
        return subprocess.run(
            self.base + list(args), check=True, capture_output=True, text=True, timeout=30
        ).stdout

    def screen(self) -> str:
        return self("capture-pane", "-p")

    def wait_for(self, text: str, timeout: float = 60.0) -> str:
        deadline = time.monotonic() + timeout
        while text not in (screen := self.screen()):
            if time.monotonic() > deadline:
                raise AssertionError(f"waiting for {text!r}; tmux shows:\n{screen}")
            time.sleep(0.1)
        return screen

    def close(self) -> None:
        subprocess.run(self.base + ["kill-server"], capture_output=True, timeout=30)


def test_quitting_after_resizes_in_tmux_gives_the_shell_back(tmp_path: Path) -> None:
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")
    tmux = Tmux(tmp_path / "tmux.sock", "bash --norc --noprofile", 80, 24)
    try:
        tmux("send-keys", f"clear; echo BEFORE; {sys.executable} -m tui; echo AFTER=$?", "Enter")
        tmux.wait_for("Pick a game")
        for width, height in ((70, 22), (100, 30), (64, 20), (90, 26), (75, 23)):
            tmux("resize-window", "-x", str(width), "-y", str(height))
            time.sleep(0.2)
        tmux("send-keys", "C-q")
        screen = tmux.wait_for("AFTER=0")
        assert "BEFORE" in screen
        for drawn in ("Pick a game", "palette", "TermCraft", "▔", "▁"):
            assert drawn not in screen, f"{drawn!r} left on the shell:\n{screen}"
    finally:
        tmux.close()
