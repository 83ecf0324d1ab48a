"""How games are found: first-party game folders, third-party entry points, broken ones."""

from __future__ import annotations

import sys
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from core import registry
from core.registry import ENTRY_POINT_GROUP, FOLDER_GROUP, GameInfo

THIRD = GameInfo("thirdparty", "Third Party", "From its own package.", "x:GAME")
"""A game a third-party package lists under the ``termarcade.games`` entry point."""


@pytest.fixture
def found(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    """Discovery over a fake installation: the arcade's folder group, plus the entry points
    of two third-party packages (one good, one broken) and a folder group that is broken."""
    folders = tmp_path / "extra_games"
    (folders / "boxed").mkdir(parents=True)
    (folders / "__init__.py").write_text("", encoding="utf-8")
    (folders / "boxed" / "__init__.py").write_text(
        "from core.registry import GameInfo\n"
        "INFO = GameInfo('boxed', 'Boxed', 'A folder game.', 'x:GAME')\n",
        encoding="utf-8",
    )
    (folders / "helpers").mkdir()
    (folders / "helpers" / "__init__.py").write_text("VALUE = 1\n", encoding="utf-8")
    (folders / "broken").mkdir()
    (folders / "broken" / "__init__.py").write_text("raise RuntimeError('oops')\n", "utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    points = {
        FOLDER_GROUP: [
            EntryPoint("arcade", "tui.games", FOLDER_GROUP),
            EntryPoint("extra", "extra_games", FOLDER_GROUP),
            EntryPoint("gone", "no_such_games_package", FOLDER_GROUP),
        ],
        ENTRY_POINT_GROUP: [
            EntryPoint("thirdparty", f"{__name__}:THIRD", ENTRY_POINT_GROUP),
            EntryPoint("bad", f"{__name__}:NOT_THERE", ENTRY_POINT_GROUP),
            EntryPoint("odd", f"{__name__}:found", ENTRY_POINT_GROUP),
        ],
    }
    monkeypatch.setattr(registry, "entry_points", lambda group: points.get(group, []))
    registry.rediscover()
    yield
    monkeypatch.undo()
    registry.rediscover()
    for name in [name for name in sys.modules if name.startswith("extra_games")]:
        del sys.modules[name]


def test_folders_and_third_party_entry_points_are_both_found(found) -> None:
    ids = registry.ids()
    assert {"termcraft", "carving", "algebrawl", "longcat", "2048"} <= set(ids)
    assert "boxed" in ids and "thirdparty" in ids
    assert "helpers" not in ids  # a subpackage without INFO is not a game
    assert registry.get("thirdparty") is THIRD


def test_a_broken_folder_or_plug_in_is_reported_and_hides_no_other_game(found) -> None:
    problems = "\n".join(registry.problems())
    assert "extra_games.broken could not be loaded (RuntimeError: oops)" in problems
    assert "no_such_games_package could not be loaded (ModuleNotFoundError" in problems
    assert "NOT_THERE" in problems and "is not a GameInfo" in problems
    assert len(registry.problems()) == 4


def test_pinned_shows_exactly_the_games_given(found) -> None:
    with registry.pinned(THIRD):
        assert registry.ids() == ("thirdparty",)
        assert registry.get("termcraft") is None
    assert "termcraft" in registry.ids()


def test_help_defaults_to_the_page_beside_the_screen() -> None:
    info = GameInfo("g", "G", "t", "core.g.game:GAME", screen="tui.games.g.screen:GScreen")
    assert info.help_ref == "tui.games.g:help.md"
    assert GameInfo("g", "G", "t", "x:y", help="pkg:doc.md").help_ref == "pkg:doc.md"
