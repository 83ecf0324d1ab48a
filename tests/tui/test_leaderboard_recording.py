"""What the game screens record for the leaderboards: wins with moves and play time, 2048
games with their scores, and the autoplay mark that keeps a game off the human boards.

Time is driven by a fake clock (``tui.screens.playtime.NOW``), so the tests say exactly how
many seconds count: while the level is on top, not while help is open, not while away, and
carried over when a saved game is resumed.
"""

from __future__ import annotations

from typing import Any

import pytest

from grammar.levels import bundled_packs
from tests.tui.helpers import FakeClock, fake_play_clock, start_2048, wait_until
from tui.app import ArcadeApp
from tui.games.game2048.screen import Game2048Screen, score_key
from tui.launch import Launcher, launcher_for
from tui.screens.help import HelpScreen
from tui.screens.playtime import PlayClock, play_record, restored
from tui.screens.puzzle import PuzzleScreen
from tui.sources import LevelRef

pytestmark = pytest.mark.pilot

SIZE = (80, 24)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    return fake_play_clock(monkeypatch)


# -- the clock ------------------------------------------------------------------------------


def test_play_clock_counts_only_while_running(clock: FakeClock) -> None:
    watch = PlayClock()
    assert watch.seconds == 0 and not watch.running
    watch.start()
    clock.now += 5
    watch.start()  # Already running: nothing changes.
    assert watch.seconds == 5
    watch.pause()
    clock.now += 100
    assert watch.seconds == 5 and not watch.running
    watch.start()
    clock.now += 2.5
    assert watch.seconds == 7.5
    watch.set(40.0)  # Another level's (or a save's) time; still running.
    clock.now += 1
    assert watch.seconds == 41.0 and watch.running


def test_play_record_round_trip_and_damaged_values() -> None:
    watch = PlayClock(12.34567)
    assert play_record(watch, True) == {"seconds": 12.346, "autoplayed": True}
    assert restored(play_record(watch, True)) == (12.346, True)
    assert restored(None) == (0.0, False)
    for damaged in (
        {"seconds": "12"},
        {"seconds": -3},
        {"seconds": float("nan")},
        {"seconds": True},
        {"autoplayed": "yes"},
    ):
        assert restored(damaged) == (0.0, False)


# -- puzzle wins ----------------------------------------------------------------------------


def pack_level(title: str) -> tuple[LevelRef, Any]:
    pack_id, pack = bundled_packs("termcraft")[0]
    level = next(level for level in pack.levels if level.title == title)
    return LevelRef(f"pack:{pack_id}", title), level


def winning_line(game: Any, state: Any, depth: int) -> list[Any]:
    """A shortest winning line of at most ``depth`` moves (brute force: tiny levels only)."""
    frontier: list[tuple[Any, list[Any]]] = [(state, [])]
    for _ in range(depth):
        frontier = [
            (game.apply(s, move), line + [move]) for s, line in frontier for move in game.moves(s)
        ]
        for s, line in frontier:
            if game.status(s) == "won":
                return line
    raise AssertionError("no win within depth")


async def open_ref(pilot: Any, ref: LevelRef) -> PuzzleScreen:
    """Open ``ref`` the way the level select does (resuming its save, if any)."""
    launcher = launcher_for(pilot.app, "termcraft")
    assert launcher.open(ref)
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, PuzzleScreen)
    return screen


async def test_a_win_records_moves_and_play_time_without_pauses(clock: FakeClock) -> None:
    ref, _level = pack_level("Chain Reaction")
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_ref(pilot, ref)
        first, second = winning_line(screen.game, screen.state, 2)
        clock.now += 4
        screen.play(first)
        clock.now += 6
        await pilot.press("question_mark")  # Help covers the level: the clock stops.
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen) and not screen.clock.running
        clock.now += 500
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen and screen.clock.running
        clock.now += 3
        screen.play(second)
        await pilot.pause()
        (entry,) = app.store.level_board("termcraft", ref.source, ref.key)
        assert (entry.moves, entry.seconds, entry.autoplayed) == (2, 13.0, False)
        assert app.store.solved_moves("termcraft", ref.source) == {ref.key: 2}


async def test_play_time_is_kept_with_the_save_and_resumed(clock: FakeClock) -> None:
    ref, _level = pack_level("Chain Reaction")
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_ref(pilot, ref)
        first, second = winning_line(screen.game, screen.state, 2)
        clock.now += 7
        screen.play(first)
        clock.now += 2  # Thinking, then leaving: those seconds count too.
        await pilot.press("escape")
        await pilot.pause()
        info = app.store.save_info("termcraft", ref.slot)
        assert info is not None and info.summary["seconds"] == 9.0
        clock.now += 3600  # Away from the level.
        screen = await open_ref(pilot, ref)
        assert screen.session.moves_made == 1 and screen.clock.seconds == 9.0
        clock.now += 1.5
        screen.play(second)
        await pilot.pause()
        (entry,) = app.store.level_board("termcraft", ref.source, ref.key)
        assert entry.seconds == 10.5


async def test_restart_keeps_the_clock_and_resets_the_moves(clock: FakeClock) -> None:
    ref, _level = pack_level("Chain Reaction")
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_ref(pilot, ref)
        first, second = winning_line(screen.game, screen.state, 2)
        screen.play(first)
        clock.now += 20
        screen.action_restart()
        screen.play(first)
        clock.now += 1
        screen.play(second)
        await pilot.pause()
        (entry,) = app.store.level_board("termcraft", ref.source, ref.key)
        assert (entry.moves, entry.seconds) == (2, 21.0)


# -- 2048 -------------------------------------------------------------------------------------


async def test_human_2048_games_reach_the_human_board(clock: FakeClock) -> None:
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_2048(pilot)
        for direction in ["left", "down", "right", "down", "left", "down"] * 4:
            clock.now += 1
            await pilot.press(direction)
        await pilot.pause()
        state, ref = screen.state, screen.ref
        assert ref is not None and state.score > 0
        (line,) = app.store.score_board("2048", score_key(state))
        assert (line.score, line.autoplayed) == (state.score, False)
        # Moves and time when that score was reached (a last move may have merged nothing).
        assert line.moves is not None and 0 < line.moves <= state.move_count
        assert line.seconds is not None and 0 < line.seconds <= 24
        assert app.store.best_score("2048", score_key(state)) == state.score


async def test_autoplay_marks_the_game_for_good_across_save_and_resume(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(Game2048Screen, "HINT_TIME_LIMIT", 0.02)  # Quick AI moves.
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_2048(pilot)
        await pilot.press("left", "down")
        await pilot.pause()
        key, ref = score_key(screen.state), screen.ref
        assert ref is not None and not screen.autoplayed
        human_best = app.store.best_score("2048", key)
        await pilot.press("p")  # Autoplay on: the AI plays a few moves.
        await wait_until(pilot, lambda: screen.session.moves_made >= 6)
        await pilot.press("p")  # Off again; the human goes on.
        await pilot.pause()
        assert screen.autoplayed and screen.session.moves_made >= 6
        await pilot.press("escape")  # Leave: the save keeps the mark.
        await pilot.pause()
        info = app.store.save_info("2048", ref.slot)
        assert info is not None and info.summary["autoplayed"] is True

        launcher = app.screen.launcher  # The level select's.
        assert isinstance(launcher, Launcher) and launcher.open(ref)
        await pilot.pause()
        resumed = app.screen
        assert isinstance(resumed, Game2048Screen) and resumed.autoplayed
        for _ in range(3):
            resumed.action_undo()  # Undoing the AI's moves does not lift the mark.
        for direction in ["right", "up", "left", "down"] * 3:
            await pilot.press(direction)
        await pilot.pause()
        assert app.store.score_board("2048", key) == []  # Off the human board ...
        (line,) = app.store.score_board("2048", key, autoplayed=True)  # ... on its own.
        assert line.autoplayed and line.score >= resumed.state.score
        assert line.score > (human_best or 0)
        assert app.store.best_score("2048", key) == human_best  # Nor the player's own best.
