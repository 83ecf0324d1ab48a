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
