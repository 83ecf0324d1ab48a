"""docs/remote.md's threat model names the test that keeps each promise: those tests exist.

The table under "Threat model" is how an operator (and whoever closes issue 27) checks that a
promise is tested. A test renamed or moved without the table would leave a promise pointing
at nothing, so every ``tests/...py::name`` and the ``::name`` after it in a row must be a test
function of that file.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

_REFERENCE = re.compile(r"`(tests/[\w/]+\.py)?(?:::(\w+))?`")


def threat_model_rows(page: str) -> list[str]:
    """The table rows of the page's "Threat model" section (up to its next heading).

    Args:
        page: The Markdown of docs/remote.md.

    Returns:
        Each row of the section's table, as written.
    """
    section = page.split("\n## Threat model\n", 1)[1]
    section = re.split(r"\n#{2,3} ", section, maxsplit=1)[0]
    return [line for line in section.splitlines() if line.startswith("| **")]


def named_tests(row: str) -> list[tuple[str, str]]:
    """``(file, test)`` for each test a row names: ``tests/f.py::a`` and a later ``::b``
    (which means ``tests/f.py::b``, the file last named)."""
    found: list[tuple[str, str]] = []
    current = ""
    for path, name in _REFERENCE.findall(row):
        current = path or current
        if name and current:
            found.append((current, name))
    return found


def defined_tests(path: Path) -> set[str]:
    """The names of the test functions (sync or async) defined at the top of a file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.name.startswith("test_")
    }


def test_named_tests_are_read_from_a_row() -> None:
    row = "| **x** | y | `tests/a.py::test_one`, `::test_two`; `tests/b.py::test_three` |"
    assert named_tests(row) == [
        ("tests/a.py", "test_one"),
        ("tests/a.py", "test_two"),
        ("tests/b.py", "test_three"),
    ]


def test_every_test_the_threat_model_names_exists() -> None:
    page = (ROOT / "docs" / "remote.md").read_text(encoding="utf-8")
    rows = threat_model_rows(page)
    assert len(rows) >= 10, "the threat model's table was not found"
    missing = []
    for row in rows:
        tests = named_tests(row)
        assert tests, f"a promise names no test: {row[:80]}"
        for file, name in tests:
            path = ROOT / file
            if not path.exists() or name not in defined_tests(path):
                missing.append(f"{file}::{name}")
    assert missing == []
