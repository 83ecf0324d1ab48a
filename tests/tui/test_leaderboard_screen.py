"""Pilot tests of the leaderboard screen: reached from home with ``L``, boards per level and
per 2048 board, the viewer's own line, the autoplayed boards, other games, hostile names."""

from __future__ import annotations

import io
from typing import Any

import pytest
from rich.console import Console
from textual.widgets import Static

from grammar.levels import bundled_packs
from tests.tui.helpers import home_row
from tui.app import ArcadeApp
from tui.screens.home import HomeScreen
from tui.screens.leaderboard import (
    BoardList,
    LeaderboardScreen,
    board_title,
    format_seconds,
    par_note,
)
from tui.store import Store

pytestmark = pytest.mark.pilot

SIZE = (80, 24)


def first_level() -> tuple[str, str, int | None]:
    pack_id, pack = bundled_packs("termcraft")[0]
    level = pack.levels[0]
    return f"pack:{pack_id}", level.title, level.par


def seed_level_board() -> None:
    """Eight players, the local one (``""``) eighth by moves; a bot on the autoplayed board."""
    source, key, _ = first_level()
    for user, moves, seconds in [
        ("alice", 3, 42.3),
        ("bob", 4, 31.0),
        ("carol", 3, 95.5),
        ("dave", 5, 12.9),
        ("erin", 6, 300.0),
        ("frank", 7, 3725.0),
        ("grace", 8, 18.0),
        ("", 11, 61.0),
    ]:
        with Store(user=user) as store:
            store.record_result("termcraft", source, key, moves=moves, seconds=seconds)
    with Store(user="robot") as store:
        store.record_result("termcraft", source, key, moves=3, seconds=1.0, autoplayed=True)


def seed_2048() -> None:
    for user, score in [("alice", 20480), ("bob", 3120), ("", 7000)]:
        with Store(user=user) as store:
            store.record_game_score(
                "2048", "4x4-standard", "run", score, moves=score // 10, seconds=score / 50
            )


def shown(screen: LeaderboardScreen, selector: str) -> str:
    """The text a board shows (its border title first)."""
    static = screen.query_one(selector, Static)
    console = Console(width=60, record=True, color_system=None, file=io.StringIO())
    console.print(static.content)
    return f"{static.border_title}\n{console.export_text()}"


async def open_boards(pilot: Any, keys: tuple[str, ...] = ()) -> LeaderboardScreen:
    await pilot.press(*keys, "L")
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, LeaderboardScreen)
    return screen


def test_formats() -> None:
    assert [format_seconds(s) for s in (None, 0, 42.34, 59.96, 725, 3725.2)] == [
        "–",
        "0:00.0",
        "0:42.3",
        "1:00.0",
        "12:05.0",
        "1:02:05",
    ]
    assert [par_note(m, p) for m, p in ((3, 3), (5, 3), (2, 3), (3, None), (None, 3))] == [
        "par",
        "+2",
        "−1",
        "",
        "",
    ]
    assert board_title("4x4-standard") == "4×4 standard"


async def test_L_on_home_opens_the_highlighted_games_boards_and_escape_returns() -> None:
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_boards(pilot)
        assert screen.game is not None and screen.game.id == "termcraft"
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        screen = await open_boards(pilot, ("j",) * home_row("2048"))  # 2048 highlighted.
        assert screen.game is not None and screen.game.id == "2048"


async def test_level_boards_rank_by_moves_and_by_time_with_the_own_line_marked() -> None:
    seed_level_board()
    source, key, par = first_level()
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        app.store.record_result("termcraft", source, key, moves=11, seconds=61.0)
        screen = await open_boards(pilot)
        choice = screen.selected
        assert choice is not None and (choice.source, choice.key, choice.par) == (source, key, par)
        by_moves = shown(screen, "#lb-first")
        assert by_moves.startswith(f"Fewest moves (par {par}) · humans")
        names = [
            line.split()[1]
            for line in by_moves.splitlines()[2:]
            if line.split()[:1] and line.split()[0].isdigit()
        ]
        assert names[:3] == ["alice", "carol", "bob"]
        assert "robot" not in by_moves  # Autoplayed: not on the human board.
        own = [line for line in by_moves.splitlines() if "▶" in line]
        assert len(own) == 1 and "local player" in own[0] and "+8" in own[0]
        assert "…" in by_moves  # The own line is below the top, after a gap.
        by_time = shown(screen, "#lb-second")
        assert by_time.startswith("Fastest") and by_time.index("dave") < by_time.index("grace")
        # The solved mark on the level the local player won.
        listing = screen.query_one(BoardList)
        assert str(listing.get_option_at_index(listing.highlighted).prompt).startswith("✓")


async def test_a_shows_the_autoplayed_boards() -> None:
    seed_level_board()
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_boards(pilot)
        await pilot.press("a")
        await pilot.pause()
        text = shown(screen, "#lb-first")
        assert "autoplayed" in text and "robot" in text and "alice" not in text
        await pilot.press("a")
        await pilot.pause()
        assert "robot" not in shown(screen, "#lb-first")


async def test_other_games_and_2048_score_boards() -> None:
    seed_2048()
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_boards(pilot)
        await pilot.press(*["right"] * home_row("2048"))
        await pilot.pause()
        assert screen.game is not None and screen.game.id == "2048"
        text = shown(screen, "#lb-first")
        assert text.startswith("Best scores · 4×4 standard · humans")
        assert text.index("20,480") < text.index("7,000") < text.index("3,120")
        assert "▶ local player" in text
        assert not screen.query_one("#lb-second").display
        await pilot.press(*["left"] * home_row("2048"))
        await pilot.pause()
        assert screen.game is not None and screen.game.id == "termcraft"


async def test_a_game_without_boards_says_so() -> None:
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_boards(pilot, ("j",) * home_row("2048"))
        assert screen.choices == [] and "No boards yet" in shown(screen, "#lb-first")


async def test_own_levels_are_listed_for_their_owner_only() -> None:
    with Store(user="bob") as bob:
        level = bob.add_my_level("termcraft", "Bob's secret", "level text")
        assert level is not None
        bob.record_result("termcraft", "mine", str(level.id), moves=4, seconds=9.0)
    app = ArcadeApp()  # The local player: not bob.
    async with app.run_test(size=SIZE) as pilot:
        mine = app.store.add_my_level("termcraft", "Mine", "level text")
        assert mine is not None
        app.store.record_result("termcraft", "mine", str(mine.id), moves=2, seconds=5.0)
        screen = await open_boards(pilot)
        titles = [choice.title for choice in screen.choices]
        assert "My levels" in titles and "Mine" in titles and "Bob's secret" not in titles


async def test_player_names_cannot_drive_the_terminal() -> None:
    source, key, _ = first_level()
    with Store(user="\x1b]0;pwned\x07mallory") as store:
        store.record_result("termcraft", source, key, moves=3, seconds=2.0)
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_boards(pilot)
        text = shown(screen, "#lb-first")
        assert "\x1b" not in text and "\x07" not in text
        assert "\\e]0;pwned\\x07" in text  # Shown escaped (and cut to the name width).
