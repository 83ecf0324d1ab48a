"""The layers stay apart: core imports nothing from grammar or tui (and no UI library),
grammar nothing from tui. Checked on the source (every import statement, at any depth)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

FORBIDDEN = {
    "core": ("grammar", "tui", "textual", "click", "rich"),
    "grammar": ("tui", "textual", "click", "rich"),
}


def _imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
    return found


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_package_imports_only_what_its_layer_may(package: str) -> None:
    bad = []
    for path in sorted((ROOT / package).rglob("*.py")):
        for line, module in _imports(path):
            if module.split(".")[0] in FORBIDDEN[package]:
                bad.append(f"{path.relative_to(ROOT)}:{line}: import {module}")
    assert not bad, "\n".join(bad)


def test_core_does_no_io() -> None:
    """No open/print/input calls in core (it is pure: values in, values out)."""
    bad = []
    for path in sorted((ROOT / "core").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("open", "print", "input")
            ):
                bad.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.func.id}()")
    assert not bad, "\n".join(bad)


def _game_packages() -> list[Path]:
    return sorted(p for p in (ROOT / "core").iterdir() if (p / "__init__.py").is_file())


@pytest.mark.slow
def test_core_top_level_is_the_seam_every_game_shares() -> None:
    """A module at core/'s top level is used by two games or more (or by the shell's seam:
    registry, session, game protocol); one used by a single game lives in that game's
    package (issue 19: the TermCraft term library moved under core/termcraft/)."""
    games = _game_packages()
    lonely = []
    for module in sorted((ROOT / "core").glob("*.py")):
        name = f"core.{module.stem}"
        if module.stem == "__init__":
            continue
        users = {
            game.name
            for game in games
            for path in game.rglob("*.py")
            if any(m == name or m.startswith(name + ".") for _, m in _imports(path))
        }
        if len(users) == 1:
            lonely.append(f"{name} is used only by core/{users.pop()}")
    assert not lonely, "\n".join(lonely)


def test_screens_and_launcher_do_not_import_the_app() -> None:
    """tui.app imports the launcher, the palette's commands and the screens; they depend on
    the small interface tui.arcade instead, so there is no app <-> launch <-> screens circle
    (checked on every import statement, lazy ones included)."""
    bad = []
    for path in sorted((ROOT / "tui").rglob("*.py")):
        relative = path.relative_to(ROOT)
        if relative.parts[1] in ("app.py", "cli", "serve"):
            continue  # the app itself, and the two programs that start it
        for line, module in _imports(path):
            if module == "tui.app":
                bad.append(f"{relative}:{line}: import {module}")
    assert not bad, "\n".join(bad)


def test_a_registration_imports_no_game_code() -> None:
    """Every command reads every registration (core.registry): they stay declarations, with
    lazy "module:attr" references, so no game's engine, generators or weights are imported
    (or installed) just to list the games."""
    import subprocess
    import sys

    probe = (
        "import sys\n"
        "from core import registry\n"
        "ids = [info.id for info in registry.games()]\n"
        "loaded = sorted(m for m in sys.modules\n"
        "    if m.startswith(('core.', 'levels.', 'grammar.', 'textual'))\n"
        "    and m.split('.')[1:2] != ['registry'])\n"
        "print(len(ids), loaded)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, cwd=ROOT
    )
    assert run.returncode == 0, run.stderr
    count, loaded = run.stdout.split(" ", 1)
    assert int(count) >= 5 and loaded.strip() == "[]", run.stdout
