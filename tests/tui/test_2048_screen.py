"""Pilot tests of the 2048 screen: it shows exactly what the core computes, on the seam."""

from __future__ import annotations

import pytest

from core.game2048 import GameConfig, create_game, move, replay
from core.game2048.level import Level
from tests.tui.helpers import open_level, start_2048, wait_until
from tui.app import ArcadeApp
from tui.games.game2048.board import Board2048, cell_geometry, tile_style
from tui.games.game2048.screen import SETTINGS_KEY, Game2048Screen
from tui.games.game2048.settings_modal import Settings2048, Settings2048Modal
from tui.modals.confirm import ConfirmModal
from tui.modals.outcome import OutcomeModal
from tui.screens.level_select import LevelSelectScreen

pytestmark = pytest.mark.pilot

KEYS = {
    "left": "left",
    "right": "right",
    "up": "up",
    "down": "down",
    "h": "left",
    "l": "right",
    "k": "up",
    "j": "down",
    "a": "left",
    "d": "right",
    "w": "up",
    "s": "down",
}


def still(app: ArcadeApp) -> None:
    """No flashing tiles (faster, deterministic)."""
    app.store.set_setting(SETTINGS_KEY, Settings2048(animate=False).to_dict())


def level(seed: int = 7, **config: object) -> Level:
    return Level(f"seed {seed}", GameConfig(initial_seed=seed, **config))  # type: ignore[arg-type]


def directions(screen: Game2048Screen) -> list[str]:
    return [step.move for step in screen.session.history if step.move is not None]


async def test_moves_follow_the_core() -> None:
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        still(app)
        screen = await open_level(pilot, "2048", level(7))
        expected = create_game(GameConfig(initial_seed=7))
        assert screen.state == expected
        for key in ["left", "h", "a", "down", "j", "s", "right", "l", "d", "up", "k", "w"] * 2:
            await pilot.press(key)
            expected = move(expected, KEYS[key])
            assert screen.state == expected
            assert screen.query_one(Board2048).board == expected.board
        assert replay(GameConfig(initial_seed=7), directions(screen))[0] == expected


async def test_undo_redo_and_restart_as_an_undoable_move() -> None:
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        still(app)
        screen = await open_level(pilot, "2048", level(11))
        seen = [screen.state]
        for key in ["left", "up", "right", "down", "left"]:
            await pilot.press(key)
            if screen.state is not seen[-1]:
                seen.append(screen.state)
        assert len(seen) >= 4
        await pilot.press("u")
        assert screen.state == seen[-2]
        await pilot.press("ctrl+z")
        assert screen.state == seen[-3] and screen.query_one(Board2048).board == seen[-3].board
        await pilot.press("U", "ctrl+y")
        assert screen.state == seen[-1]
        # R restarts without asking, because u takes the restart back.
        await pilot.press("R")
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmModal)
        assert screen.state == seen[0] and screen.session.moves_made == 0
        await pilot.press("u")
        assert screen.state == seen[-1]


async def test_game_over_dialog_then_undo() -> None:
    board = ((2, 4, 2, 4), (4, 2, 4, 2), (2, 4, 2, 4), (0, 8, 16, 32))
    config = GameConfig(board_size=4, tile_value_distribution=((2, 1),))
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        still(app)
        screen = await open_level(pilot, "2048", Level("locked", config, board))
        start = screen.state
        await pilot.press("up")  # changes nothing: no dialog, no move
        assert app.screen is screen and screen.session.moves_made == 0
        await pilot.press("left")
        await pilot.pause()
        assert screen.state.is_game_over
        assert isinstance(app.screen, OutcomeModal) and app.screen.kind == "lost"
        await pilot.press("u")
        await pilot.pause()
        assert app.screen is screen and screen.state == start


async def test_goal_dialog_then_keep_playing() -> None:
    config = GameConfig(board_size=4, goal=2048)
    board = ((1024, 1024, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0), (2, 0, 0, 0))
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        still(app)
        screen = await open_level(pilot, "2048", Level("goal", config, board))
        await pilot.press("left")
        await pilot.pause()
        assert screen.state.board[0][0] == 2048
        assert isinstance(app.screen, OutcomeModal) and app.screen.kind == "goal"
        await pilot.press("k")
        await pilot.pause()
        assert app.screen is screen and screen.session.status == "won"
        before = screen.state
        await pilot.press("down")
        await pilot.pause()
        assert screen.state is not before and app.screen is screen


async def test_resume_brings_back_the_whole_undo_history() -> None:
    """Regression: 2048 lost its undo history on resume."""
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        still(app)
        screen = await start_2048(pilot)
        for key in ["left", "up", "right", "down", "left", "up"] * 3:
            await pilot.press(key)
        history = screen.session.history.states
        played = screen.state
        await pilot.press("escape")  # to the level list
        await pilot.pause()
        assert isinstance(app.screen, LevelSelectScreen)
        await pilot.press("escape")
        await pilot.pause()
        resumed = await start_2048(pilot)  # opening 2048 again resumes the game in progress
        assert resumed is not screen
        assert resumed.state == played
        assert [step.state for step in resumed.session.history.states] == [s.state for s in history]
        for _ in range(len(history) - 1):
            await pilot.press("u")
        assert resumed.state == history[0].state


async def test_settings_change_never_discards_the_game() -> None:
    """Regression: changing the size or rule discarded a game in progress without asking."""
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        still(app)
        screen = await start_2048(pilot)
        for key in ["left", "up", "right", "down"] * 5:
            await pilot.press(key)
        played, slot = screen.state, screen.ref.slot
        await pilot.press("o")
        await pilot.pause()
        assert isinstance(app.screen, Settings2048Modal)
        note = str(app.screen.query_one("#settings-note").render())
        assert "next game" in note and "start a new game" not in note  # what really happens
        app.screen.dismiss(Settings2048(board_size=6, merge="fibonacci", animate=False))
        await pilot.pause()
        assert screen.state == played  # the game goes on
        assert "N starts one" in screen.last_message
        await pilot.press("N")  # a new 6×6 game; the old one stays saved
        await pilot.pause()
        assert screen.state.config.board_size == 6 and screen.state.config.merge_rule == "fibonacci"
        saved = app.store.load_game("2048", slot)
        assert saved is not None and len(saved["session"]["moves"]) >= played.move_count


async def test_quitting_mid_game_asks_first() -> None:
    """Regression: 2048 never set game_in_progress, so ctrl+q quit without asking."""
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        still(app)
        screen = await open_level(pilot, "2048", level(3))
        assert not app.game_in_progress
        for key in ["left", "up", "right", "down"]:
            await pilot.press(key)
        assert app.game_in_progress
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmModal) and app.is_running
        await pilot.press("n")
        await pilot.pause()
        assert app.screen is screen


async def test_hint_runs_in_the_worker_and_matches_the_core() -> None:
    ai = pytest.importorskip("core.game2048.ai")
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        still(app)
        screen = await open_level(pilot, "2048", level(5))
        await pilot.press("t")
        await app.workers.wait_for_complete()
        await pilot.pause()
        direction = ai.hint(screen.state)
        assert screen.last_message.endswith(direction)
        assert screen.state.move_count == 0  # a hint does not play


async def test_autoplay_plays_moves_and_stops() -> None:
    pytest.importorskip("core.game2048.ai")
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        still(app)
        screen = await open_level(pilot, "2048", level(9, board_size=3))
        await pilot.press("p")
        await wait_until(pilot, lambda: screen.state.move_count >= 5 or screen.state.is_game_over)
        status = screen.query_one("#g2048-status")
        assert screen.state.is_game_over or "Autoplay ON" in str(status.render())
        await pilot.press("p")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert not screen.autoplaying and screen.state.move_count >= 1
        # The panel said "Autoplay ON (p stops)" after p had stopped it (seen in tmux).
        assert "Autoplay ON" not in str(status.render())
        count = screen.state.move_count
        assert (
            replay(GameConfig(initial_seed=9, board_size=3), directions(screen))[0] == screen.state
        )
        await pilot.pause(0.2)
        assert screen.state.move_count == count  # stopped


async def test_flash_highlights_the_new_tile_when_animated(monkeypatch: pytest.MonkeyPatch) -> None:
    # A long flash, so a loaded machine cannot clear it before the assertion (its end is
    # awaited, so a longer one costs nothing unless the machine is that slow).
    monkeypatch.setattr("tui.games.game2048.screen.FLASH_SECONDS", 3.0)
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_level(pilot, "2048", level(7))
        for d in ["left", "right", "up", "down"]:
            before = screen.state
            await pilot.press(d)
            if screen.state is not before:
                break
        widget = screen.query_one(Board2048)
        assert screen.state.last_move.new_tile_position in widget.highlighted
        await wait_until(pilot, lambda: not widget.highlighted, "the flash to end")
        assert not widget.highlighted


def test_tile_styles_and_geometry() -> None:
    # Tiles are reverse video so they stay solid blocks without colour; flashed tiles are not.
    assert tile_style(2).reverse and not tile_style(2, highlighted=True).reverse
    assert tile_style(2).color != tile_style(4).color
    assert tile_style(3 * 2**40).reverse  # huge or odd values still get a style
    w, h, gap = cell_geometry(4, 50, 20)
    assert 4 * w + 3 * gap <= 50 and 4 * h + 3 * gap <= 20 and h % 2 == 1
    w, h, gap = cell_geometry(8, 50, 20)
    assert 8 * w + 7 * gap <= 50 and 8 * h + 7 * gap <= 20


async def test_dialogs_show_their_own_keys_not_the_games() -> None:
    """Regression: a dialog's bottom line showed the game's footer (u Undo, N Next, ...)."""
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        still(app)
        await open_level(pilot, "2048", level(3))
        await pilot.press("left", "up", "right", "down")
        assert app.game_in_progress

        def bottom() -> str:
            return list(app.screen._compositor.render_strips())[-1].text

        assert "Undo" in bottom()  # the game's own footer
        for key, wanted in (("o", "Cancel"), ("ctrl+q", "Yes")):
            await pilot.press(key)
            await pilot.pause()
            line = bottom()
            assert app.screen.is_modal, app.screen
            assert wanted in line and "Undo" not in line and "Restart" not in line, line
            await pilot.press("escape")
            await pilot.pause()


async def test_drawing_never_writes_the_store_the_base_records_the_score_first() -> None:
    """Issue 22: the score boards are written by record_progress (called by the base before
    drawing), never while render_state draws."""
    from tui.games.game2048.screen import score_key

    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        still(app)
        screen = await open_level(pilot, "2048", level(7))
        store = app.store
        drawing = [False]
        writes: list[tuple[str, bool]] = []
        for name in ("record_game_score", "record_score", "save_game", "set_setting"):
            original = getattr(store, name)

            def spy(*args, _name=name, _original=original, **kwargs):
                writes.append((_name, drawing[0]))
                return _original(*args, **kwargs)

            setattr(store, name, spy)
        draw = screen.render_state

        def render_state(session):
            drawing[0] = True
            try:
                draw(session)
            finally:
                drawing[0] = False

        screen.render_state = render_state  # type: ignore[method-assign]
        for key in ["left", "down", "right", "up"] * 4:
            await pilot.press(key)
        await pilot.pause()
        assert screen.state.score > 0
        names = {name for name, _ in writes}
        assert {"record_game_score", "record_score", "save_game"} <= names
        assert [name for name, while_drawing in writes if while_drawing] == []
        assert store.best_score("2048", score_key(screen.state)) == screen.state.score
