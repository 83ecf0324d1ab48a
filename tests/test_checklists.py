"""The "adding a game" lists agree: CONTRIBUTING.md has the whole checklist, core/game.py's
docstring the files every game must write, and CONTRIBUTING says which of its steps those are
(issue 31: they were called "the same list" while one had 9 steps and the other 5)."""

from __future__ import annotations

import re
from pathlib import Path

import core.game

ROOT = Path(__file__).resolve().parents[1]

# core/game.py's step -> CONTRIBUTING's steps, as CONTRIBUTING.md says in words.
STEPS = {1: (1,), 2: (2,), 3: (3, 4), 4: (5,), 5: (7,)}


def _steps(text: str) -> dict[int, str]:
    """The numbered items of a list (``1. ...`` up to the next item or a blank line)."""
    found: dict[int, str] = {}
    for match in re.finditer(r"^(\d+)\. (.*?)(?=^\d+\. |^\s*$)", text, re.M | re.S):
        found[int(match.group(1))] = match.group(2)
    return found


def _files(step: str) -> set[str]:
    """The paths a step names (``a/b``, ``x.py``), without the quoting."""
    names = re.findall(r"`+([^`]+)`+", step)
    return {
        name for name in names if "/" in name or re.search(r"\.(py|lark|tcss|md|levels)$", name)
    }


def test_every_file_core_game_lists_is_in_the_checklist_step_contributing_says() -> None:
    contributing = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    section = contributing.split("## Adding a game", 1)[1].split("\n## ", 1)[0]
    checklist = _steps(section)
    engine_side = _steps((core.game.__doc__ or "").split("-----\n", 1)[1])
    assert sorted(checklist) == list(range(1, 10)) and sorted(engine_side) == [1, 2, 3, 4, 5]
    assert "its steps 1 to 5 are steps 1,\n2, 3 and 4 (one folder), 5 and 7 here" in section
    for number, step in engine_side.items():
        files = _files(step)
        assert files, f"core/game.py's step {number} names no file"
        where = " ".join(checklist[n] for n in STEPS[number])
        folders = [name for name in _files(where) if name.endswith("/")]
        missing = [
            name
            for name in files
            if name.rsplit("/", 1)[-1] not in where
            and not any(name.startswith(folder) for folder in folders)
        ]
        assert not missing, f"core/game.py step {number}: {missing} not in CONTRIBUTING"
    assert "the same list" not in contributing
    page = (ROOT / "docs" / "adding-a-game.md").read_text(encoding="utf-8")
    assert "the same list" not in page
