"""Pilot tests of the arcade shell: home, help, quitting, level select, confirm modal."""

from __future__ import annotations

import pytest

from tui import games as games_module
from tui.app import ArcadeApp
from tui.games import GAMES, GameEntry, StarterError, load_starter
from tui.modals.confirm import ConfirmModal
from tui.screens.help import HelpScreen, load_help
from tui.screens.home import HomeScreen
from tui.screens.level_select import LevelSelectScreen, PackInfo

pytestmark = pytest.mark.pilot


def test_games_table() -> None:
    assert [entry.id for entry in GAMES] == ["termcraft", "2048", "carving", "algebrawl", "longcat"]
    playable = {entry.id for entry in GAMES if entry.playable}
    assert playable == {"termcraft", "2048"}
    with pytest.raises(StarterError, match="coming soon"):
        load_starter(games_module.get_game("longcat"))  # type: ignore[arg-type]
    with pytest.raises(StarterError, match="could not be loaded"):
        load_starter(GameEntry("x", "X", "", "no_such_module_xyz:start"))


async def test_home_lists_five_games_and_skips_coming_soon() -> None:
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, HomeScreen)
        games = app.screen.query_one("#games")
        assert games.option_count == 5
        ids = [games.get_option_at_index(i).id for i in range(5)]
        assert ids == ["termcraft", "2048", "carving", "algebrawl", "longcat"]
        disabled = [games.get_option_at_index(i).disabled for i in range(5)]
        assert disabled == [False, False, True, True, True]
        seen = set()
        for key in ["down", "j", "down", "j", "down", "k", "up", "up"]:
            await pilot.press(key)
            seen.add(games.highlighted)
        assert seen <= {0, 1}, "the cursor must never land on a coming-soon game"
        assert seen == {0, 1}


async def test_selecting_a_game_calls_its_starter(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[str] = []

    def fake_load(entry: GameEntry):
        return lambda app: started.append(entry.id)

    monkeypatch.setattr("tui.app.load_starter", fake_load)
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("j", "enter")
        assert started == ["2048"]
        await pilot.press("k", "space")
        assert started == ["2048", "termcraft"]


async def test_broken_starter_gives_notification_not_crash(monkeypatch: pytest.MonkeyPatch) -> None:
    broken = GameEntry("termcraft", "TermCraft", "t", "no_such_module_xyz:start")
    monkeypatch.setattr("tui.app.get_game", lambda game_id: broken)
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        messages = [n.message for n in app._notifications]
        assert any("could not be loaded" in m for m in messages)


async def test_starter_that_raises_gives_notification(monkeypatch: pytest.MonkeyPatch) -> None:
    def explode(app: ArcadeApp) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr("tui.app.load_starter", lambda entry: explode)
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        assert app.is_running and isinstance(app.screen, HomeScreen)
        assert any("boom" in n.message for n in app._notifications)


async def test_help_opens_and_closes() -> None:
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        for open_key, close_key in [("question_mark", "escape"), ("f1", "q"), ("question_mark", "question_mark")]:
            await pilot.press(open_key)
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            assert app.screen.topic == "home"
            await pilot.press(close_key)
            await pilot.pause()
            assert isinstance(app.screen, HomeScreen)
        assert app.is_running


def test_help_files_and_fallback() -> None:
    assert load_help("home").startswith("# termarcade")
    fallback = load_help("no_such_topic")
    assert "no help page" in fallback
    assert "no help page" in load_help("../etc/passwd")  # Not a path.


async def test_quit_without_game_is_immediate() -> None:
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running


async def test_quit_with_game_in_progress_asks_first() -> None:
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        app.game_in_progress = True
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmModal)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen) and app.is_running
        await pilot.press("q")
        await pilot.pause()
        await pilot.press("enter")  # Focus starts on "No": a stray enter does not quit.
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen) and app.is_running
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmModal)
        await pilot.press("y")
        await pilot.pause()
        assert not app.is_running


async def test_store_warnings_become_notifications(data_dir) -> None:
    (data_dir / "termarcade.sqlite3").write_bytes(b"garbage" * 50)
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert any("moved to" in n.message for n in app._notifications)
        assert app.store.warnings == []


PACKS = [
    PackInfo("basics", "Basics", [("b1", "First steps"), ("b2", "Second"), ("b3", "Third")]),
    PackInfo("hard", "Hard", [("h1", "Ouch"), ("h2", "Double ouch")]),
]


async def test_level_select_marks_solved_and_dismisses() -> None:
    app = ArcadeApp()
    results: list[object] = []
    async with app.run_test(size=(80, 24)) as pilot:
        app.store.mark_solved("termcraft", "basics", "b2")
        app.push_screen(LevelSelectScreen("termcraft", PACKS), results.append)
        await pilot.pause()
        screen = app.screen
        levels = screen.query_one("#levels")
        prompts = [str(levels.get_option_at_index(i).prompt) for i in range(levels.option_count)]
        assert prompts == ["  1. First steps", "✓ 2. Second", "  3. Third"]
        packs = screen.query_one("#packs")
        assert "1/3 solved" in str(packs.get_option_at_index(0).prompt)
        await pilot.press("j", "j", "enter")
        await pilot.pause()
        assert results == [("basics", 2)]

        # Second pack via the pack list; q leaves with None.
        app.push_screen(LevelSelectScreen("termcraft", PACKS), results.append)
        await pilot.pause()
        await pilot.press("h", "j", "enter")  # Packs, next pack, open its levels.
        await pilot.pause()
        assert app.screen.query_one("#levels").option_count == 2
        assert app.focused is app.screen.query_one("#levels")
        await pilot.press("j", "space")
        await pilot.pause()
        assert results[-1] == ("hard", 1)

        app.push_screen(LevelSelectScreen("termcraft", PACKS, select=("hard", 1)), results.append)
        await pilot.pause()
        assert app.screen.query_one("#levels").highlighted == 1
        await pilot.press("q")
        await pilot.pause()
        assert results[-1] is None


async def test_level_select_without_packs() -> None:
    app = ArcadeApp()
    results: list[object] = []
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(LevelSelectScreen("longcat", []), results.append)
        await pilot.pause()
        await pilot.press("enter", "escape")
        await pilot.pause()
        assert results == [None]


async def test_level_select_help_is_the_games() -> None:
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(LevelSelectScreen("termcraft", PACKS))
        await pilot.pause()
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen) and app.screen.topic == "termcraft"


async def test_confirm_modal_buttons() -> None:
    app = ArcadeApp()
    answers: list[bool | None] = []
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(ConfirmModal("Really?"), answers.append)
        await pilot.pause()
        await pilot.press("left", "enter")  # Move to "Yes" and press it.
        await pilot.pause()
        app.push_screen(ConfirmModal("Really?"), answers.append)
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert answers == [True, False]


async def test_keymap_setting_remaps_bindings() -> None:
    from tui.store import Store

    store = Store()
    store.set_setting("keymap", {"app.help": "f2"})
    app = ArcadeApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f2")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)


@pytest.mark.parametrize("keys, expected", [(("j", "enter"), "2048"), (("j", "k", "enter"), "termcraft")])
async def test_keys_arriving_together_are_handled_in_order(
    monkeypatch: pytest.MonkeyPatch, keys: tuple[str, ...], expected: str
) -> None:
    """A terminal can deliver "j<enter>" in one read: enter must not overtake the j."""
    from textual import events

    started: list[str] = []
    monkeypatch.setattr("tui.app.load_starter", lambda entry: lambda app: started.append(entry.id))
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        for key in keys:  # queued back to back, as the driver does, with no pause between
            app.post_message(events.Key(key, "\r" if key == "enter" else key))
        await pilot.pause()
        await pilot.pause()
        assert started == [expected]
