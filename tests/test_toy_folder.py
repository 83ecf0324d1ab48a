"""A game is one folder plus its core package: adding one edits no shared file.

The toy game Slide-1D (``tests/toygame``, engine in ``tests/toycore``) is installed here the
way a first-party game is found: its folder is put among ``tui.games``'s folders, nothing is
registered by hand, and no shared file (pyproject.toml, README, docs, snapshots) is edited.
A second copy with its own id stands for a game added on another branch: the two land side by
side, each in its own new folder, so their branches cannot conflict.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

import tui.games
from core import registry
from tests.tui.helpers import fixed_registry

ROOT = Path(__file__).resolve().parents[1]
TOY = ROOT / "tests" / "toygame"
LEVELS = TOY / "levels.levels"


def _add_folder(games: Path, name: str, game_id: str, title: str) -> None:
    """Copy the toy's folder as ``games/name`` with its own id and title."""
    shutil.copytree(TOY, games / name, ignore=shutil.ignore_patterns("__pycache__"))
    init = games / name / "__init__.py"
    text = init.read_text(encoding="utf-8")
    text = text.replace('id="toy"', f'id="{game_id}"').replace('"Slide-1D"', f'"{title}"')
    init.write_text(text, encoding="utf-8")


@pytest.fixture
def toys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Two toy folders found by discovery (as if added under tui/games/ on two branches)."""
    games = tmp_path / "games"
    games.mkdir()
    _add_folder(games, "slide_one", "toy", "Slide-1D")
    _add_folder(games, "slide_two", "toy2", "Slide-Again")
    monkeypatch.setattr(tui.games, "__path__", [*tui.games.__path__, str(games)])
    registry.rediscover()
    try:
        yield games
    finally:
        monkeypatch.undo()
        registry.rediscover()
        for name in [name for name in sys.modules if name.startswith("tui.games.slide_")]:
            del sys.modules[name]


def test_a_game_folder_is_found_without_any_registration(toys: Path) -> None:
    assert registry.problems() == ()
    found = registry.ids()
    assert "toy" in found and "toy2" in found
    assert {"termcraft", "carving", "algebrawl", "longcat", "2048"} <= set(found)
    toy = registry.get("toy")
    assert toy is not None and toy.title == "Slide-1D"
    assert toy.load("engine").initial is not None


def test_without_the_folder_the_toy_is_not_a_game() -> None:
    registry.rediscover()
    assert "toy" not in registry.ids() and "toy2" not in registry.ids()


def test_the_found_games_play_through_the_cli(toys: Path) -> None:
    from tui.cli import main

    result = CliRunner().invoke(main, ["--help"])
    assert "Slide-1D" in result.output and "Slide-Again" in result.output
    result = CliRunner().invoke(main, ["toy2", "rows", str(LEVELS)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output.splitlines()[0]) == {"level": 1, "row": "1.23"}


def test_the_found_games_bring_their_keys_to_the_generated_reference(toys: Path) -> None:
    from tui.keys import reference_markdown

    reference = reference_markdown()
    # both copies share the toy's screen module, so its bindings are listed once
    section = reference.split("### Slide-1D", 1)[1].split("###", 1)[0]
    assert "`toy.left`" in section and "`toy.right`" in section


async def test_the_found_games_are_on_the_home_screen(toys: Path) -> None:
    from tui.app import ArcadeApp

    app = ArcadeApp()
    async with app.run_test(size=(80, 24)):
        games = app.screen.query_one("#games")
        ids = [games.get_option_at_index(i).id for i in range(games.option_count)]
    assert "toy" in ids and "toy2" in ids


async def _home_picture() -> str:
    from tui.app import ArcadeApp

    with fixed_registry():
        app = ArcadeApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            return re.sub(r"terminal-\d+", "terminal", app.export_screenshot())


async def test_shell_snapshots_do_not_change_when_a_game_is_added(tmp_path: Path) -> None:
    """The shell's snapshots picture a fixed set of games (tests/tui/helpers.fixed_registry)."""
    before = await _home_picture()
    games = tmp_path / "games"
    games.mkdir()
    _add_folder(games, "slide_one", "toy", "Slide-1D")
    saved = list(tui.games.__path__)
    tui.games.__path__.append(str(games))
    registry.rediscover()
    try:
        assert "toy" in registry.ids()
        after = await _home_picture()
    finally:
        tui.games.__path__[:] = saved
        registry.rediscover()
        sys.modules.pop("tui.games.slide_one", None)
    assert "Slide-1D" not in after
    assert after == before


def test_no_shared_file_lists_the_games() -> None:
    """What each game once edited at the same lines: the entry-point list, the key-id list."""
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '[project.entry-points."termarcade.games"]' not in pyproject
    assert re.search(r'^arcade = "tui\.games"$', pyproject, flags=re.M)
    keys_page = (ROOT / "docs" / "keys.md").read_text(encoding="utf-8")
    assert "longcat.up" not in keys_page and "termcraft.apply" not in keys_page
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "longcat.up" not in readme
