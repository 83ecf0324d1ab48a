"""The code stays clean under the linter and the type checker configured in pyproject.toml.

``ruff check`` (the lint rules in ``[tool.ruff.lint]``) and ``mypy`` (``[tool.mypy]``: the
packages it checks and how strictly) run over the repository; a finding fails the test with
the tool's own report. Each tool is skipped when it is not installed (the ``test`` extra
installs both, at the versions the code was made clean with).
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Both tools read the whole tree: keep them on one xdist worker, away from each other's CPU.
pytestmark = pytest.mark.xdist_group("habits")


def _tool(module: str) -> list[str]:
    """The command that runs ``module`` with this interpreter, or skip when it is missing."""
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{module} is not installed (pip install -e '.[test]')")
    return [sys.executable, "-m", module]


def _run(command: list[str]) -> subprocess.CompletedProcess[str]:
    # NO_COLOR and a plain terminal keep the report readable in pytest's output.
    env = {**os.environ, "NO_COLOR": "1", "TERM": "dumb"}
    return subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, env=env, timeout=600, check=False
    )


def test_ruff_finds_nothing() -> None:
    result = _run([*_tool("ruff"), "check", "--no-cache", "--output-format", "concise", "."])
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow
def test_mypy_finds_nothing(tmp_path: Path) -> None:
    # A private cache: parallel runs (and a developer's own mypy) never share a half-written one.
    result = _run([*_tool("mypy"), "--cache-dir", str(tmp_path / "mypy-cache")])
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_leaves_everything_as_it_is() -> None:
    # The formatter is the one style ([tool.ruff.format]); `ruff format .` applies it.
    result = _run([*_tool("ruff"), "format", "--check", "--no-cache", "."])
    assert result.returncode == 0, result.stdout + result.stderr
