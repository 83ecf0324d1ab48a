"""Player text is data, never markup (issue 27): the shell's screens and dialogs.

Hostile strings (:mod:`tests.tui.hostile`: markup, ``[@click=...]`` actions, ANSI/OSC
escapes, bidi controls, 10,000 characters) go into every player-controlled field that
reaches the shell: My levels (saved as the level editor saves them), names and titles on the
leaderboards, a level file's pack, the dialogs that quote them, notifications that quote a
damaged level, an ID typed in the command palette. Each must be shown literally (control
characters as visible escapes, never raw), and a click on it must run no action: the spy
records every ``@click`` that reaches the app, and the two actions the strings name
(``screenshot``, ``quit``) are replaced by recorders, so nothing is written or closed.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from textual.command import CommandPalette
from textual.widgets import Input

from core.levelpack import LevelPack
from grammar.levels import bundled_packs, dump_pack
from tests.tui.helpers import fixed_registry, wait_until
from tests.tui.hostile import CLICKABLE, CONTROLS, HOSTILE, LONG, MARKUP, TITLES, on_screen
from tui.app import ArcadeApp
from tui.commands import level_id_dialog, open_levels
from tui.exporting import save_to_my_levels
from tui.modals.choice import ChoiceModal
from tui.modals.confirm import ConfirmModal
from tui.modals.level_id import LevelIdModal
from tui.modals.outcome import OutcomeModal
from tui.modals.text_view import TextModal
from tui.screens.leaderboard import BoardList, LeaderboardScreen
from tui.screens.level_select import LevelSelectScreen
from tui.store import Store

pytestmark = pytest.mark.pilot

SIZE = (160, 50)
"""Wide, so that a short hostile string fits on one line and can be found whole."""
SHOWN = 40
"""How much of a long string's start is looked for (the rest wraps or is cut)."""
RAW = ("\x1b", "\x07", "\x9b", "\u202e", "\u2066", "\u2069")
"""Characters that must never reach the screen."""


class ActionSpy:
    """Records every click action that reaches the app, and stubs the hostile ones.

    ``clicks`` gets the meta of each clicked style that carries an ``@`` action (what
    Textual would run); ``ran`` gets the names of the stubbed actions that were called.
    """

    def __init__(self, app: ArcadeApp) -> None:
        self.clicks: list[dict[str, Any]] = []
        self.ran: list[str] = []
        broker = app._broker_event

        async def spying(event_name: str, event: Any, default_namespace: Any) -> bool:
            style = getattr(event, "style", None)
            meta = dict(style.meta) if style is not None else {}
            if any(key.startswith("@") for key in meta):
                self.clicks.append(meta)
            return await broker(event_name, event, default_namespace)

        app._broker_event = spying  # type: ignore[method-assign]
        app.action_screenshot = lambda *args, **kw: self.ran.append("screenshot")  # type: ignore[method-assign]
        app.action_quit = lambda *args, **kw: self.ran.append("quit")  # type: ignore[method-assign]


def screen_lines(app: ArcadeApp) -> list[str]:
    """The text of every line of the screen shown (a dialog: the dialog's own lines)."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


async def wait_for(pilot: Any, condition: Any, what: str) -> None:
    """Pause until ``condition()`` holds (generous bound; the outcome is not timing)."""
    await wait_until(pilot, condition, what)


async def eventually(pilot: Any, condition: Any) -> bool:
    """Whether ``condition()`` holds within :func:`wait_until`'s bound (a busy machine only
    makes it wait longer; the caller asserts what is shown)."""
    try:
        await wait_until(pilot, condition)
    except AssertionError:
        return False
    return True


async def shown_and_inert(
    pilot: Any, spy: ActionSpy, text: str, click: bool = True, length: int = SHOWN
) -> None:
    """Assert that ``text`` (its first ``length`` characters) is on the screen literally;
    click it; assert that no action ran."""
    app = pilot.app
    expected = on_screen(text)[:length]
    await eventually(pilot, lambda: any(expected in line for line in screen_lines(app)))
    lines = screen_lines(app)
    screen = "\n".join(lines)
    for raw in RAW:
        assert raw not in screen, f"{raw!r} reached the screen"
    found = [(row, line.find(expected)) for row, line in enumerate(lines) if expected in line]
    assert found, f"{expected!r} is not shown literally:\n{screen}"
    if not click:
        return
    row, column = found[0]
    await pilot.click(offset=(column + len(expected) // 2, row))
    await pilot.pause()
    assert spy.clicks == [] and spy.ran == [], f"a click on {text!r} ran {spy.clicks} {spy.ran}"


def hostile_levels() -> list[Any]:
    """TermCraft levels titled and described with the hostile strings."""
    level = bundled_packs("termcraft")[0][1].levels[0]
    descriptions = HOSTILE * 2
    return [
        dataclasses.replace(level, title=title, description=descriptions[index])
        for index, title in enumerate(TITLES)
    ]


def save_my_levels() -> list[Any]:
    """Save the hostile levels in My levels, the way the level editor's F3 does."""
    levels = hostile_levels()
    with Store() as store:
        for level in levels:
            save_to_my_levels(store, "termcraft", level)
    return levels


async def open_my_levels(pilot: Any) -> LevelSelectScreen:
    """TermCraft's level list, on the "My levels" source."""
    app = pilot.app
    open_levels(app, "termcraft")
    await wait_for(
        pilot,
        lambda: isinstance(app.screen, LevelSelectScreen) and bool(app.screen._sources),
        "the level list",
    )
    screen = app.screen
    assert isinstance(screen, LevelSelectScreen)
    mine = next(i for i, source in enumerate(screen._sources) if source.kind == "mine")
    screen.query_one("#packs").highlighted = mine  # type: ignore[attr-defined]
    await pilot.pause()
    return screen


async def test_my_level_titles_are_shown_literally_and_clicks_run_nothing() -> None:
    save_my_levels()
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        spy = ActionSpy(app)
        screen = await open_my_levels(pilot)
        for title in TITLES:
            await shown_and_inert(pilot, spy, title, click=False)
        for title in CLICKABLE:  # a click chooses the row: the level opens, and we come back
            await shown_and_inert(pilot, spy, title)
            if app.screen is not screen:
                await pilot.press("escape")
                await wait_for(pilot, lambda: app.screen is screen, "the level list again")


async def test_the_delete_question_quotes_a_title_literally() -> None:
    save_my_levels()
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        spy = ActionSpy(app)
        screen = await open_my_levels(pilot)
        levels = screen.query_one("#levels")
        for title in CLICKABLE:
            row = next(i for i, e in enumerate(screen._entries) if e and e.title == title)
            levels.highlighted = row  # type: ignore[attr-defined]
            await pilot.press("D")
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmModal), "the question")
            await shown_and_inert(pilot, spy, title)
            await pilot.press("n")
            await wait_for(pilot, lambda: app.screen is screen, "the level list again")
        assert len(app.store.my_levels("termcraft")) == len(TITLES)  # nothing deleted


async def test_a_level_files_name_is_shown_literally(tmp_path: Path) -> None:
    level = bundled_packs("termcraft")[0][1].levels[0]
    pack = LevelPack(MARKUP[0], levels=(level,), game="termcraft")
    name = "[@click=app.quit]Q.levels"  # a file name holds no "/": markup needs no closing tag
    path = tmp_path / name
    path.write_text(dump_pack(pack), encoding="utf-8")
    app = ArcadeApp(level_file=str(path), start_game="termcraft")
    async with app.run_test(size=SIZE) as pilot:
        spy = ActionSpy(app)
        # The file's first level opens on top of the list: back to the list.
        await wait_for(pilot, lambda: len(app.screen_stack) == 3, "the file's first level")
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, LevelSelectScreen), "the list")
        await shown_and_inert(pilot, spy, name)


async def test_leaderboard_names_and_titles_are_shown_literally() -> None:
    pack_id, pack = bundled_packs("termcraft")[0]
    first = pack.levels[0]
    for index, name in enumerate(HOSTILE):
        with Store(user=name) as store:
            store.record_result(
                "termcraft", f"pack:{pack_id}", first.title, moves=3 + index, seconds=9.0
            )
    levels = save_my_levels()
    with Store() as store:
        for mine in store.my_levels("termcraft"):
            store.record_result("termcraft", "mine", str(mine.id), moves=2, seconds=5.0)
    app = ArcadeApp()
    with fixed_registry():
        async with app.run_test(size=SIZE) as pilot:
            spy = ActionSpy(app)
            app.push_screen(LeaderboardScreen("termcraft"))
            await wait_for(pilot, lambda: isinstance(app.screen, LeaderboardScreen), "boards")
            screen = app.screen
            assert isinstance(screen, LeaderboardScreen)
            for name in HOSTILE:  # names are cut to 16 characters
                await shown_and_inert(pilot, spy, on_screen(name)[:14], click=False)
            listing = screen.query_one(BoardList)
            for level in levels:  # the list is narrow: its rows wrap after 26 characters
                row = next(i for i, c in enumerate(screen.choices) if c.title == level.title)
                listing.highlighted = row
                await shown_and_inert(pilot, spy, level.title, length=20)
            assert isinstance(app.screen, LeaderboardScreen)


async def test_score_board_names_are_shown_literally() -> None:
    with Store(user=CLICKABLE[0]) as store:
        store.record_game_score("2048", CLICKABLE[1], "run", 512, moves=60, seconds=9.0)
    app = ArcadeApp()
    with fixed_registry():
        async with app.run_test(size=SIZE) as pilot:
            spy = ActionSpy(app)
            app.push_screen(LeaderboardScreen("2048"))
            await wait_for(pilot, lambda: isinstance(app.screen, LeaderboardScreen), "boards")
            await shown_and_inert(pilot, spy, CLICKABLE[1])  # the list's row
            first = app.screen.query_one("#lb-first")
            assert CLICKABLE[1] in str(first.border_title).replace("\\[", "[")


@pytest.mark.parametrize(
    "dialog",
    [
        lambda text: ConfirmModal(f"Delete your level “{text}”?"),
        lambda text: ChoiceModal(f"Replace your level “{text}”?", [("cancel", "Cancel", "c")]),
        lambda text: TextModal(f"Level: {text}", text),
        lambda text: OutcomeModal("won", text, f"3 moves; {text}"),
        lambda text: OutcomeModal("lost", "level", f"No move: {text}"),
    ],
    ids=["confirm", "choice", "text", "outcome-title", "outcome-detail"],
)
async def test_dialogs_show_quoted_text_literally(dialog: Any) -> None:
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        spy = ActionSpy(app)
        for text in (*CLICKABLE, *CONTROLS, LONG):
            app.push_screen(dialog(text))
            await shown_and_inert(pilot, spy, text, click=text in CLICKABLE)
            app.pop_screen()
            await wait_for(pilot, lambda: len(app.screen_stack) == 1, "the dialog to close")


async def test_notifications_show_quoted_text_literally() -> None:
    # A damaged own level: opening it notifies its parse error, which quotes its text.
    with Store() as store:
        store.add_my_level("termcraft", "Damaged", CLICKABLE[1])
    app = ArcadeApp()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        spy = ActionSpy(app)
        screen = await open_my_levels(pilot)
        screen.query_one("#levels").action_select()  # type: ignore[attr-defined]
        await wait_for(pilot, lambda: bool(app._notifications), "the notification")
        await shown_and_inert(pilot, spy, CLICKABLE[1])
        for text in (CLICKABLE[0], *CONTROLS, LONG):
            app.notify(text, title=text)
            await pilot.pause()
            await shown_and_inert(pilot, spy, text, click=text in CLICKABLE)
        # The 10,000 characters are cut: the toast does not cover the screen with them.
        assert sum(line.count("w") for line in screen_lines(app)) < 2_000


async def test_an_id_typed_in_the_palette_is_shown_literally() -> None:
    typed = "termcraft:" + CLICKABLE[1]
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        spy = ActionSpy(app)
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette), "the palette")
        app.screen.query_one(Input).value = typed
        # The command's own line (the input box above it shows what was typed anyway).
        await shown_and_inert(pilot, spy, "Open level ID " + typed, click=False, length=60)


async def test_the_level_id_dialog_quotes_typed_text_literally() -> None:
    # A guard: the dialog already drew its ID and its error as Text (the ID's own characters
    # are the ID codec's, so the typed text is what a player controls here).
    save_my_levels()
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        spy = ActionSpy(app)
        await open_my_levels(pilot)
        level_id_dialog(app)
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, LevelIdModal) and bool(app.screen.query(Input)),
            "the ID dialog",
        )
        assert isinstance(app.screen, LevelIdModal) and app.screen.current  # the level's ID
        # Markup only: the input box itself shows its value's control characters raw
        # (Textual's Input), which is the typist's own terminal.
        for text in CLICKABLE:
            app.screen.query_one(Input).value = text
            await pilot.press("enter")
            await shown_and_inert(pilot, spy, f"{text!r} is not a level ID")
