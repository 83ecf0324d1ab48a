"""Pilot tests of the 2048 screen: it must show exactly what the core computes."""

from __future__ import annotations

import pytest

from core.game2048 import (
    GameConfig,
    create_game,
    move,
    replay,
    state_from_board,
)
from tui.app import ArcadeApp
from tui.modals.game2048_settings import Settings2048, Settings2048Modal
from tui.modals.game_over import GameOverModal, KeepPlayingModal
from tui.screens.game2048 import SAVE_SLOT, Game2048Screen, load_saved_game, start
from tui.widgets.board2048 import Board2048, cell_geometry, tile_style

pytestmark = pytest.mark.pilot

STILL = Settings2048(animate=False)
KEYS = {"left": "left", "right": "right", "up": "up", "down": "down",
        "h": "left", "l": "right", "k": "up", "j": "down",
        "a": "left", "d": "right", "w": "up", "s": "down"}


async def open_screen(pilot, screen: Game2048Screen) -> Game2048Screen:
    pilot.app.push_screen(screen)
    await pilot.pause()
    return screen


async def test_moves_follow_the_core() -> None:
    config = GameConfig(initial_seed=7)
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_screen(pilot, Game2048Screen(config=config, settings=STILL))
        expected = create_game(config)
        assert screen.state == expected
        for key in ["left", "h", "a", "down", "j", "s", "right", "l", "d", "up", "k", "w"] * 2:
            await pilot.press(key)
            expected = move(expected, KEYS[key])
            assert screen.state == expected
            assert screen.query_one(Board2048).board == expected.board
        assert len(screen.moves) == expected.move_count
        assert replay(config, screen.moves)[0] == expected


async def test_undo_and_redo_restore_states() -> None:
    config = GameConfig(initial_seed=11)
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_screen(pilot, Game2048Screen(config=config, settings=STILL))
        seen = [screen.state]
        for key in ["left", "up", "right", "down", "left"]:
            await pilot.press(key)
            if screen.state is not seen[-1]:
                seen.append(screen.state)
        assert len(seen) >= 4
        await pilot.press("u")
        assert screen.state == seen[-2]
        await pilot.press("ctrl+z")
        assert screen.state == seen[-3]
        assert screen.query_one(Board2048).board == seen[-3].board
        await pilot.press("U")
        assert screen.state == seen[-2]
        await pilot.press("ctrl+y")
        assert screen.state == seen[-1]
        # A new move after undo drops the redo branch and records the right move list.
        await pilot.press("u", "u")
        base = screen.state
        for d in ["down", "left", "up", "right"]:
            nxt = move(base, d)
            if nxt is not base:
                await pilot.press(d)
                assert screen.state == nxt
                break
        assert replay(config, screen.moves[: screen.state.move_count])[0] == screen.state
        assert not screen.history.can_redo


async def test_game_over_dialog_on_locked_board() -> None:
    # One move left fills the last hole with a 2 and locks the board.
    board = ((2, 4, 2, 4), (4, 2, 4, 2), (2, 4, 2, 4), (0, 8, 16, 32))
    config = GameConfig(board_size=4, tile_value_distribution=((2, 1),))
    state = state_from_board(board, config)
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_screen(pilot, Game2048Screen(state=state, settings=STILL))
        await pilot.press("up")  # changes nothing: no dialog
        assert not isinstance(app.screen, GameOverModal)
        await pilot.press("left")
        await pilot.pause()
        assert screen.state.is_game_over
        assert isinstance(app.screen, GameOverModal)
        await pilot.press("u")  # undo from the dialog
        await pilot.pause()
        assert app.screen is screen
        assert screen.state == state


async def test_game_over_dialog_for_a_constructed_locked_state() -> None:
    locked = state_from_board(((2, 4, 2), (4, 2, 4), (2, 4, 2)), GameConfig(board_size=3))
    assert locked.is_game_over
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_screen(pilot, Game2048Screen(config=GameConfig(), settings=STILL))
        screen.set_state(locked)
        await pilot.pause()
        assert isinstance(app.screen, GameOverModal)
        await pilot.press("s")  # stay and look at the board
        await pilot.pause()
        assert app.screen is screen
        for key in ["left", "right", "up", "down"]:
            await pilot.press(key)
        assert screen.state is locked


async def test_win_dialog_then_keep_playing() -> None:
    config = GameConfig(board_size=4, goal=2048)
    state = state_from_board(((1024, 1024, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0), (2, 0, 0, 0)), config)
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_screen(pilot, Game2048Screen(state=state, settings=STILL))
        await pilot.press("left")
        await pilot.pause()
        assert screen.state.board[0][0] == 2048
        assert isinstance(app.screen, KeepPlayingModal)
        await pilot.press("k")
        await pilot.pause()
        assert app.screen is screen and screen.win_acknowledged
        before = screen.state
        await pilot.press("down")
        await pilot.pause()
        assert screen.state is not before
        assert not isinstance(app.screen, KeepPlayingModal)


async def test_save_and_resume_replays_moves() -> None:
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        app.store.set_setting("2048.settings", {"board_size": 5, "merge": "standard", "animate": False})
        start(app)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, Game2048Screen)
        assert screen.state.config.board_size == 5
        for key in ["left", "up", "right", "down", "left", "up"]:
            await pilot.press(key)
        played = screen.state
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, Game2048Screen)
        saved = app.store.load_game("2048", SAVE_SLOT)
        assert saved is not None and len(saved["moves"]) == played.move_count
        start(app)
        await pilot.pause()
        resumed = app.screen
        assert isinstance(resumed, Game2048Screen) and resumed is not screen
        assert resumed.state == played
        # Undo on the resumed game reaches nothing older, but play continues normally.
        assert not resumed.history.can_undo
        # The best score was recorded per size and rule.
        assert app.store.best_score("2048", "5x5-standard") == (played.score or None)


def test_load_saved_game_rejects_garbage() -> None:
    assert load_saved_game(None) is None
    assert load_saved_game({"config": {"board_size": "x"}}) is None
    config = GameConfig(initial_seed=3)
    good = {"config": config.to_dict(), "moves": "LURD", "score": replay(config, "left up right down".split())[0].score}
    assert load_saved_game(good) is not None
    assert load_saved_game({**good, "moves": "LXRD"}) is None
    assert load_saved_game({**good, "score": -5}) is None


async def test_hint_runs_in_worker_and_matches_core() -> None:
    ai = pytest.importorskip("core.game2048.ai")
    config = GameConfig(initial_seed=5)
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_screen(pilot, Game2048Screen(config=config, settings=STILL))
        await pilot.press("t")
        await app.workers.wait_for_complete()
        await pilot.pause()
        direction = ai.hint(screen.state)
        assert screen.hint_text.endswith(direction)
        assert screen.state.move_count == 0  # a hint does not play


async def test_autoplay_plays_consistent_moves_and_stops() -> None:
    pytest.importorskip("core.game2048.ai")
    config = GameConfig(initial_seed=9, board_size=3)
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_screen(pilot, Game2048Screen(config=config, settings=STILL))
        await pilot.press("p")
        for _ in range(40):
            await pilot.pause(0.05)
            if screen.state.move_count >= 5 or screen.state.is_game_over:
                break
        await pilot.press("p")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert not screen.autoplaying
        assert screen.state.move_count >= 1
        count = screen.state.move_count
        assert replay(config, screen.moves[:count])[0] == screen.state
        await pilot.pause(0.2)
        assert screen.state.move_count == count  # stopped


async def test_settings_dialog_changes_size_and_animation() -> None:
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_screen(pilot, Game2048Screen(config=GameConfig(), settings=Settings2048()))
        await pilot.press("o")
        await pilot.pause()
        modal = app.screen
        assert isinstance(modal, Settings2048Modal)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen
        await pilot.press("comma")
        await pilot.pause()
        modal = app.screen
        assert isinstance(modal, Settings2048Modal)
        modal.dismiss(Settings2048(board_size=6, merge="fibonacci", animate=False))
        await pilot.pause()
        assert screen.state.config.board_size == 6
        assert screen.state.config.merge_rule == "fibonacci"
        assert screen.settings.animate is False
        assert app.store.get_setting("2048.settings")["board_size"] == 6


async def test_flash_highlights_new_tile_when_animated() -> None:
    config = GameConfig(initial_seed=7)
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_screen(pilot, Game2048Screen(config=config, settings=Settings2048()))
        for d in ["left", "right", "up", "down"]:
            before = screen.state
            await pilot.press(d)
            if screen.state is not before:
                break
        widget = screen.query_one(Board2048)
        assert screen.state.last_move.new_tile_position in widget.highlighted
        await pilot.pause(0.4)
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
