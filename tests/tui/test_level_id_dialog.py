"""Game IDs in the app (issue 20): ``play ID`` at start-up, the "Game ID / seed…" dialog
(I on every game screen, and the palette), and the boards of levels shared by ID."""

from __future__ import annotations

import asyncio
import threading

import pytest

from core import registry
from core.ids import encode_custom
from core.longcat.solver import shortest_solution
from grammar.levels import dump_level
from tui.app import ArcadeApp
from tui.commands import ArcadeCommands
from tui.games.longcat.settings_modal import SETTINGS_KEY, LongcatSettings
from tui.ids import CUSTOM_SOURCE, board_ref, level_id, resolve_id
from tui.modals.level_id import THREAD_NAME, LevelIdModal
from tui.modals.outcome import OutcomeModal
from tui.screens.level_select import LevelSelectScreen
from tui.screens.puzzle import PuzzleScreen
from tui.sources import LevelRef
from tui.store import Store

pytestmark = pytest.mark.pilot

SIZE = (80, 24)


def still(app: ArcadeApp) -> None:
    app.store.set_setting(SETTINGS_KEY, LongcatSettings(animate=False).to_dict())


async def settle(pilot) -> None:
    """Let the ID threads finish (an ID is resolved in a background thread), then the
    screens settle."""
    await pilot.pause()
    for thread in threading.enumerate():
        if thread.name == THREAD_NAME:
            await asyncio.to_thread(thread.join, 60)
    await pilot.pause()
    await pilot.pause()


def corrupted(level_id_text: str) -> str:
    """The ID with one character of its payload changed."""
    index = len(level_id_text) - 5
    swap = "A" if level_id_text[index] != "A" else "B"
    return level_id_text[:index] + swap + level_id_text[index + 1 :]


async def test_play_id_opens_that_level_over_its_level_select() -> None:
    app = ArcadeApp(start_id="longcat:arduboy/3")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PuzzleScreen) and screen.info.id == "longcat"
        assert screen.level == resolve_id("longcat:arduboy/3").level
        assert screen.ref == LevelRef("pack:01-arduboy", screen.level.title)
        assert isinstance(app.screen_stack[-2], LevelSelectScreen)  # esc goes to its levels
        assert screen.level_id == "longcat:arduboy/3"


@pytest.mark.parametrize(
    "text",
    [
        "termcraft:basics/2",
        "carving:easy#42",
        "algebrawl:brawl-3-6#7",
        "2048:new-5#42",
        "longcat:sd-6x6#11",
    ],
)
async def test_every_game_opens_by_id_and_shows_the_same_id(text: str) -> None:
    app = ArcadeApp(start_id=text)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        resolved = resolve_id(text)
        assert isinstance(screen, PuzzleScreen) and resolved.info.id == screen.info.id
        assert screen.level == resolved.level
        assert screen.level_id == resolved.id


async def test_a_custom_id_opens_in_every_game() -> None:
    for game, bundled in (
        ("termcraft", "termcraft:basics/1"),
        ("carving", "carving:tutorial/2"),
        ("algebrawl", "algebrawl:first-blood/1"),
        ("longcat", "longcat:arduboy/2"),
        ("2048", "2048:new-3#9"),
    ):
        level = resolve_id(bundled).level
        custom = encode_custom(game, dump_level(level, game))
        app = ArcadeApp(start_id=custom)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            screen = app.screen
            assert isinstance(screen, PuzzleScreen) and screen.level == level, game
            assert screen.ref is not None and screen.ref.source == CUSTOM_SOURCE
            assert screen.level_id == custom


async def test_a_bad_id_at_start_up_is_a_notification_not_a_crash() -> None:
    app = ArcadeApp(start_id="longcat:arduboy/99999")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert not isinstance(app.screen, PuzzleScreen)
        assert any("has no level 99999" in str(n.message) for n in app._notifications)


async def test_the_dialog_shows_and_copies_the_id_and_opens_another() -> None:
    app = ArcadeApp(start_id="longcat:arduboy/3")
    async with app.run_test(size=SIZE) as pilot:
        still(app)
        await settle(pilot)
        game = app.screen
        assert isinstance(game, PuzzleScreen)
        await pilot.press("right")  # a move: this game must stay saved
        await pilot.press("I")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, LevelIdModal) and dialog.current == "longcat:arduboy/3"
        await pilot.press("f2")
        assert app.clipboard == "longcat:arduboy/3"
        await pilot.press(*"longcat:arduboy/4", "enter")
        await settle(pilot)
        assert app.screen is game  # the same screen plays the other level
        assert game.level == resolve_id("longcat:arduboy/4").level
        assert game.level_id == "longcat:arduboy/4"
        saved = app.store.load_game(
            "longcat", LevelRef("pack:01-arduboy", resolve_id("longcat:arduboy/3").level.title).slot
        )
        assert saved is not None and saved["session"]


async def test_a_corrupted_id_is_explained_and_the_game_stays() -> None:
    custom = level_id("longcat", None, resolve_id("longcat:arduboy/5").level)
    app = ArcadeApp(start_id="longcat:arduboy/3")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        game = app.screen
        before = game.level
        await pilot.press("I")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, LevelIdModal)
        dialog.query_one("#level-id-input").value = corrupted(custom)
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is dialog
        assert "checksum" in dialog.error and "mistyped" in dialog.error
        dialog.query_one("#level-id-input").value = "chess:e4/1"
        await pilot.press("enter")
        await settle(pilot)
        assert "unknown game 'chess'" in dialog.error
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is game and game.level == before


async def test_an_id_of_another_game_switches_games() -> None:
    app = ArcadeApp(start_id="longcat:arduboy/3")
    async with app.run_test(size=SIZE) as pilot:
        still(app)
        await settle(pilot)
        await pilot.press("right")
        await pilot.press("I")
        await pilot.pause()
        await pilot.press(*"carving:tutorial/1", "enter")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PuzzleScreen) and screen.info.id == "carving"
        assert screen.level_id == "carving:tutorial/1"
        assert app.store.load_game(
            "longcat", LevelRef("pack:01-arduboy", resolve_id("longcat:arduboy/3").level.title).slot
        )


async def test_the_palette_offers_the_dialog_everywhere() -> None:
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        provider = ArcadeCommands(app.screen)
        offered = {str(hit.display): hit.command async for hit in provider.discover()}
        offered["Game ID / seed…"]()
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, LevelIdModal) and dialog.current is None  # home: no level
        await pilot.press(*"2048:new#42", "enter")
        await settle(pilot)
        assert isinstance(app.screen, PuzzleScreen) and app.screen.level_id == "2048:new#42"


async def test_a_win_on_a_custom_id_goes_on_the_board_everybody_shares() -> None:
    level = resolve_id("longcat:arduboy/1").level
    custom = level_id("longcat", None, level)
    app = ArcadeApp(start_id=custom, store=Store(user="ann"))
    async with app.run_test(size=SIZE) as pilot:
        still(app)
        await settle(pilot)
        for move in shortest_solution(level).moves:
            await pilot.press(move)
        await pilot.pause()
        assert isinstance(app.screen, OutcomeModal) and app.screen.kind == "won"
    key = resolve_id(custom).ref.key
    # Bob made the same level in his own levels: his board is the same one.
    bob = Store(user="bob")
    mine = board_ref("longcat", LevelRef("mine", "1"), level)
    assert mine == LevelRef(CUSTOM_SOURCE, key)
    board = bob.level_board("longcat", mine.source, mine.key)
    assert [(line.user, line.moves) for line in board] == [("ann", 5)]


def test_my_levels_results_move_to_the_board_of_their_id() -> None:
    from tui.screens.leaderboard import board_choices
    from tui.sources import level_to_text

    level = resolve_id("longcat:arduboy/2").level
    with Store() as store:
        made = store.add_my_level("longcat", level.title, level_to_text("longcat", level))
        assert made is not None
        # A win recorded the way it was before game IDs: on ("mine", id).
        store.record_result("longcat", "mine", str(made.id), moves=9, seconds=3.0)
        info = registry.get("longcat")
        assert info is not None
        choices = [
            c for c in board_choices(info, store) if c.kind == "level" and c.title == level.title
        ]
        key = board_ref("longcat", LevelRef("mine", str(made.id)), level).key
        assert [(c.source, c.key) for c in choices][-1] == (CUSTOM_SOURCE, key)
        assert [line.moves for line in store.level_board("longcat", CUSTOM_SOURCE, key)] == [9]
        assert store.level_board("longcat", "mine", str(made.id)) == []
        assert store.solved_moves("longcat", "mine") == {str(made.id): 9}  # progress stays


async def test_an_id_typed_in_the_palette_opens_it() -> None:
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        provider = ArcadeCommands(app.screen)
        found = {str(hit.text): hit.command async for hit in provider.search("carving:easy#5")}
        found["Open level ID carving:easy#5"]()
        await settle(pilot)
        assert isinstance(app.screen, PuzzleScreen) and app.screen.level_id == "carving:easy#5"
        none = [
            hit async for hit in provider.search("chess:e4") if "Open level ID" in str(hit.text)
        ]
        assert none == []


def test_generated_levels_boards_are_listed_by_their_id() -> None:
    from tui.screens.leaderboard import board_choices

    resolved = resolve_id("longcat:sd-8x8-hard#48213")
    with Store(user="ann") as ann:
        ann.record_result("longcat", resolved.ref.source, resolved.ref.key, moves=20, seconds=9.0)
    with Store(user="bob") as bob:
        info = registry.get("longcat")
        assert info is not None
        choices = board_choices(info, bob)
        listed = [c for c in choices if c.source == resolved.ref.source]
        assert [(c.title, c.key) for c in listed] == [("longcat:sd-8x8-hard#48213", "48213")]
        board = bob.level_board("longcat", listed[0].source, listed[0].key)
        assert [(line.user, line.moves) for line in board] == [("ann", 20)]


async def test_an_id_resumes_the_game_saved_from_the_level_select() -> None:
    from tests.tui.helpers import open_level

    resolved = resolve_id("longcat:arduboy/6")
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        still(app)
        screen = await open_level(pilot, "longcat", resolved.level, ref=resolved.ref)
        move = shortest_solution(resolved.level).moves[0]
        await pilot.press(move)
        assert screen.session.moves_made == 1
        await pilot.press("escape")
        await pilot.pause()
    again = ArcadeApp(start_id="longcat:arduboy/6")
    async with again.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = again.screen
        assert isinstance(screen, PuzzleScreen) and screen.ref == resolved.ref
        assert screen.session.moves_made == 1  # the same slot: the saved game resumed


async def test_a_custom_level_opened_again_by_its_id_resumes() -> None:
    level = resolve_id("longcat:arduboy/6").level
    custom = level_id("longcat", None, level)
    app = ArcadeApp(start_id=custom)
    async with app.run_test(size=SIZE) as pilot:
        still(app)
        await settle(pilot)
        await pilot.press(shortest_solution(level).moves[0])
        await pilot.press("escape")
        await pilot.pause()
    again = ArcadeApp(start_id=custom)
    async with again.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = again.screen
        assert isinstance(screen, PuzzleScreen) and screen.session.moves_made == 1
        assert screen.level == level
    third = ArcadeApp()  # no ID at hand: "In progress" still resumes it from its save
    async with third.run_test(size=SIZE):
        from tui.launch import launcher_for

        launcher = launcher_for(third, "longcat")
        entries = launcher.sources.progress.entries()
        assert [entry.ref.source for entry in entries] == [CUSTOM_SOURCE]
        _, resumed, session, note = launcher.prepare(entries[0].ref)
        assert resumed == level and session.moves_made == 1 and "Resumed" in note
        # the level alone (the level list's ID), read from the save without resuming it
        assert launcher.level_of(entries[0].ref) == level


async def test_the_level_select_offers_the_highlighted_levels_id() -> None:
    from tui.launch import launcher_for

    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        launcher = launcher_for(app, "longcat")
        select = LevelSelectScreen(launcher)
        app.push_screen(select)
        await pilot.pause()
        select.highlight(LevelRef("pack:01-arduboy", resolve_id("longcat:arduboy/7").level.title))
        await pilot.pause()
        assert select.level_id == "longcat:arduboy/7"
        provider = ArcadeCommands(app.screen)
        offered = {str(hit.display): hit.command async for hit in provider.discover()}
        offered["Game ID / seed…"]()
        await pilot.pause()
        assert isinstance(app.screen, LevelIdModal) and app.screen.current == "longcat:arduboy/7"


async def test_an_own_level_keeps_its_solved_mark_on_the_board_of_its_id() -> None:
    from tui.screens.leaderboard import LeaderboardScreen
    from tui.sources import level_to_text

    level = resolve_id("longcat:arduboy/2").level
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        made = app.store.add_my_level("longcat", "Mine too", level_to_text("longcat", level))
        assert made is not None
        board = board_ref("longcat", LevelRef("mine", str(made.id)), level)
        app.store.record_result(
            "longcat", "mine", str(made.id), moves=7, seconds=2.0, board=(board.source, board.key)
        )
        app.push_screen(LeaderboardScreen("longcat"))
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, LeaderboardScreen)
        rows = [str(option.prompt) for option in screen.query_one("#lb-boards").options]
        assert "✓ Mine too" in rows
        index = [c.title for c in screen.choices].index("Mine too")
        assert (screen.choices[index].source, screen.choices[index].key) == (
            CUSTOM_SOURCE,
            board.key,
        )


@pytest.mark.parametrize("size", [(80, 24), (200, 50)])
async def test_a_long_custom_id_is_shown_whole_with_its_length_and_copied_whole(size) -> None:
    # Issue 30: a 636-character ID showed 432 characters (a 6-line label) with no sign of the cut.
    from textual.widgets import TextArea

    from tests.tui.helpers import wait_until

    level = resolve_id("carving:tutorial/1").level
    custom = level_id("carving", None, level)
    assert len(custom) > 6 * 76  # more than the old label held at any size
    app = ArcadeApp(start_id=custom)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("I")
        await wait_until(pilot, lambda: isinstance(app.screen, LevelIdModal), "the ID dialog")
        dialog = app.screen
        assert f"({len(custom)} characters)" in str(dialog.query_one("#level-id-heading").render())
        shown = dialog.query_one("#level-id-current", TextArea)
        assert shown.text == custom and shown.read_only
        # Wrapped, every row within the width, and the rows together are the whole ID.
        rows = shown.wrapped_document.get_sections(0)
        assert "".join(rows) == custom and len(rows) > 1
        assert all(len(row) <= shown.content_size.width for row in rows)
        # Rows the box cannot hold are reached by scrolling, not cut.
        assert shown.virtual_size.height >= len(rows)
        assert shown.max_scroll_y == max(0, len(rows) - shown.content_size.height)
        await pilot.press("f2")
        assert app.clipboard == custom
        assert resolve_id(app.clipboard).level == level
        # Selected on screen and copied with the text area's own keys: the whole ID too.
        app.copy_to_clipboard("")
        shown.focus()
        await pilot.press("f7", "ctrl+c")
        assert app.clipboard == custom


async def test_an_id_made_by_the_old_encoding_still_opens() -> None:
    from tests.core.test_ids import OLD_LONGCAT_ID

    app = ArcadeApp(start_id=OLD_LONGCAT_ID)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PuzzleScreen) and screen.info.id == "longcat"
        assert screen.ref is not None and screen.ref.source == CUSTOM_SOURCE
        assert screen.level.par == 7 and screen.level_id.startswith("longcat:L2")
        assert resolve_id(screen.level_id).level == screen.level
