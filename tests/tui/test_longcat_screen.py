"""Pilot tests of the Longcat screen: it shows exactly what the core computes, on the seam."""

from __future__ import annotations

import pytest

from core.longcat import Level, apply_move, initial, shortest_solution
from core.longcat.prune import is_dead
from core.longcat.rules import body_from_history
from grammar.levels import bundled_packs
from tests.tui.helpers import open_level, play_first_level, wait_until
from tui.app import ArcadeApp
from tui.games.longcat import screen as screen_module
from tui.games.longcat.board import BoardPicture, LongcatBoard, cell_scale, draw
from tui.games.longcat.panels import LongcatInfo, LongcatStatus, stuck_regions
from tui.games.longcat.screen import LongcatScreen
from tui.games.longcat.settings_modal import SETTINGS_KEY, LongcatSettings, LongcatSettingsModal
from tui.modals.outcome import OutcomeModal
from tui.sources import LevelRef
from tui.workers import running

pytestmark = pytest.mark.pilot

ARDUBOY = dict(bundled_packs("longcat"))["01-arduboy"]
SPLIT = Level.from_rows(["...", "@..", "..."], title="split")
"""Sliding right from the start splits the empty cells in two."""
KEYS = {
    "up": ("up", "k", "w"),
    "down": ("down", "j", "s"),
    "left": ("left", "h", "a"),
    "right": ("right", "l", "d"),
}


def still(app: ArcadeApp) -> None:
    """No slide animation (faster, deterministic)."""
    app.store.set_setting(SETTINGS_KEY, LongcatSettings(animate=False).to_dict())


async def open_arduboy(pilot, number: int) -> LongcatScreen:
    level = ARDUBOY.levels[number - 1]
    return await open_level(pilot, "longcat", level, ref=LevelRef("pack:01-arduboy", level.title))


async def open_settings(pilot) -> tuple[LongcatScreen, LongcatSettingsModal]:
    """Arduboy 3, then o: the settings modal over it."""
    screen = await open_arduboy(pilot, 3)
    await pilot.press("o")
    await pilot.pause()
    modal = pilot.app.screen
    assert isinstance(modal, LongcatSettingsModal)
    return screen, modal


async def test_solving_an_arduboy_level_by_keys_wins_and_marks_it_solved() -> None:
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        still(app)
        screen = await open_arduboy(pilot, 2)
        level = screen.level
        expected = initial(level)
        moves = shortest_solution(level).moves
        for i, move in enumerate(moves):
            await pilot.press(KEYS[move][i % 3])  # arrows, vi keys and WASD alike
            expected = apply_move(expected, move)
            assert screen.state == expected
        await pilot.pause()
        assert isinstance(app.screen, OutcomeModal) and app.screen.kind == "won"
        assert "7 moves (par 7): on par" in app.screen.detail
        assert app.store.solved_moves("longcat", "pack:01-arduboy") == {level.title: 7}


async def test_an_illegal_move_changes_nothing() -> None:
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        still(app)
        screen = await open_arduboy(pilot, 1)  # the start is inside a 3x3 room
        await pilot.press("up")
        after_up = screen.state
        await pilot.press("up")  # blocked by the wall now
        assert screen.state is after_up and screen.session.moves_made == 1
        assert "cannot move up" in screen.last_message


async def test_undo_redo_and_restart() -> None:
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        still(app)
        screen = await open_arduboy(pilot, 2)
        start = screen.state
        await pilot.press("up", "right")
        two = screen.state
        await pilot.press("u")
        assert screen.state == apply_move(start, "up")
        assert [
            screen.level.xy(i) for i in body_from_history(screen.session.line_since_restart())
        ] == [
            (4, 2),
            (4, 1),
        ]
        await pilot.press("U")
        assert screen.state == two
        await pilot.press("R")
        assert screen.state == start and body_from_history(screen.session.line_since_restart()) == (
            start.head,
        )
        await pilot.press("u")
        assert screen.state == two
        assert len(body_from_history(screen.session.line_since_restart())) == two.filled.bit_count()


async def test_the_body_is_drawn_as_one_cat_with_a_face() -> None:
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        still(app)
        screen = await open_arduboy(pilot, 2)
        await pilot.press("up", "right", "down")
        board = screen.query_one(LongcatBoard)
        picture = board.picture
        assert picture.path == ((4, 2), (4, 1), (5, 1), (5, 2), (5, 3), (5, 4))
        assert board.scale == (4, 2)
        shown = "\n".join(board.render_line(y).text for y in range(board.size.height))
        assert "=ºº=" in shown and "┏━━━┓" in shown and "╹" in shown
        assert shown.count("·") == screen.level.size - 6


def test_draw_joins_cells_with_box_characters() -> None:
    picture = BoardPicture(3, 2, frozenset({(2, 0)}), [(0, 0), (1, 0), (1, 1), (0, 1)])
    assert ["".join(t for t, _ in row) for row in draw(picture, 2, 1)] == ["╺━┓ ██", "ºº┛ · "]
    roles = [role for row in draw(picture, 2, 1) for _, role in row]
    assert roles == ["body", "body", "wall", "head", "body", "empty"]
    cut = BoardPicture(2, 1, frozenset(), [(0, 0)], frozenset({(1, 0)}), ("right", [(1, 0)]))
    assert ["".join(t for t, _ in row) for row in draw(cut, 2, 1)] == ["ºº→ "]
    assert cell_scale(8, 8, 50, 20) == (4, 2) and cell_scale(12, 10, 48, 20) == (4, 2)
    assert cell_scale(12, 10, 40, 20) == (2, 1) and cell_scale(40, 40, 10, 10) == (2, 1)


async def test_a_dead_position_is_said_and_marked() -> None:
    level = SPLIT
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        still(app)
        screen = await open_level(pilot, "longcat", level)
        assert not screen.query_one(LongcatBoard).picture.cut_off
        await pilot.press("right")  # the middle row: the top and bottom rows are apart
        assert is_dead(level.board, screen.state.filled)
        assert "split in two" in screen.last_message
        # the larger region (ties: the first in reading order) stays dots, the rest is ×
        assert screen.query_one(LongcatBoard).picture.cut_off == {(0, 2), (1, 2), (2, 2)}
        assert "Dead end" in str(screen.query_one("#lc-status").render())
        await pilot.press("u")
        assert "Dead end" not in str(screen.query_one("#lc-status").render())
        assert not screen.query_one(LongcatBoard).picture.cut_off


async def test_tip_gives_the_next_move_of_a_solution_or_says_none() -> None:
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        still(app)
        screen = await open_arduboy(pilot, 2)
        await pilot.press("t")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.last_message.startswith("Tip: ")
        move = screen.last_message.split()[2]
        after = apply_move(screen.state, move)
        assert shortest_solution(after.level).status == "solved"
        from core.longcat.solver import solution_from

        assert solution_from(after).status == "solved"
        assert screen.query_one(LongcatBoard).picture.hint[0] == move
        # a dead position: no solution from here
        screen = await open_level(pilot, "longcat", SPLIT)
        await pilot.press("right")
        await pilot.press("t")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.last_message.startswith("No solution from here")


async def test_p_plays_a_solution_step_by_step(monkeypatch) -> None:
    monkeypatch.setattr(screen_module, "SOLUTION_STEP", 0.01)
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        still(app)
        screen = await open_arduboy(pilot, 5)
        await pilot.press("p")
        await app.workers.wait_for_complete()
        await wait_until(pilot, lambda: isinstance(app.screen, OutcomeModal), "the win dialog")
        assert screen.session.status == "won" and screen.autoplayed
        assert screen.session.moves_made == len(
            [s for s in screen.session.history if s.move is not None]
        )
        assert isinstance(app.screen, OutcomeModal)
        await pilot.press("s")
        # from a dead position p says so, and plays nothing
        screen = await open_level(pilot, "longcat", SPLIT)
        await pilot.press("right")
        await pilot.press("p")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.last_message.startswith("No solution from here: the position is lost")
        assert screen.session.moves_made == 1


async def test_p_again_stops_the_solution(monkeypatch) -> None:
    monkeypatch.setattr(screen_module, "SOLUTION_STEP", 10.0)
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        still(app)
        screen = await open_arduboy(pilot, 12)
        await pilot.press("p")
        # The solution is played by a job of its own (issue 31): wait for it to start, not
        # for every worker to end (the playing one would take its 10 s steps).
        status = screen.query_one(LongcatStatus)
        await wait_until(pilot, lambda: status.demo, "the solution to be shown")
        assert screen.session.moves_made == 1  # the first move is played at once
        await pilot.press("p")
        assert screen.last_message == "Stopped showing the solution."
        await pilot.pause(0.05)
        assert screen.session.moves_made == 1


def _legal(state, move: str) -> bool:
    """Whether ``move`` can be played from ``state``."""
    from core.game import IllegalMove

    try:
        apply_move(state, move)
    except IllegalMove:
        return False
    return True


async def test_a_move_stops_the_solution_being_shown(monkeypatch) -> None:
    monkeypatch.setattr(screen_module, "SOLUTION_STEP", 10.0)
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        still(app)
        screen = await open_arduboy(pilot, 12)
        status = screen.query_one(LongcatStatus)
        await pilot.press("p")
        await wait_until(pilot, lambda: status.demo, "the solution to be shown")
        assert running(screen, screen_module.DEMO_GROUP)
        shown = screen.state
        legal = next(m for m in ("up", "down", "left", "right") if _legal(shown, m))
        await pilot.press(KEYS[legal][0])
        assert not running(screen, screen_module.DEMO_GROUP) and not status.demo
        assert screen.state == apply_move(shown, legal) and screen.session.moves_made == 2
        assert "Showing the solution" not in str(status.render())


async def test_g_generates_a_playable_level_and_m_keeps_it() -> None:
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        app.store.set_setting(
            SETTINGS_KEY,
            LongcatSettings(method="sd", band="easy", size="6x6", animate=False).to_dict(),
        )
        screen = await play_first_level(pilot, "longcat")  # Arduboy 1 from the level list
        assert isinstance(screen, LongcatScreen)
        await pilot.press("g")
        await app.workers.wait_for_complete()
        await pilot.pause()
        level = screen.level
        assert level.title.startswith("sd 6x6 #") and " · easy " in level.title
        assert screen.ref.source == "gen:sd?band=easy&size=6x6&unique=0"
        for move in shortest_solution(level).moves:
            await pilot.press(KEYS[move][0])
        await pilot.pause()
        assert isinstance(app.screen, OutcomeModal) and app.screen.kind == "won"
        await pilot.press("s")
        await pilot.press("m")
        assert [item.title for item in app.store.my_levels("longcat")] == [level.title]
        await pilot.press("m")
        assert "already has" in screen.last_message
        # N on a generated level makes another one
        await pilot.press("N")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.level.title.startswith("sd 6x6 #") and screen.level != level


async def test_settings_change_what_new_levels_are() -> None:
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        still(app)
        screen, modal = await open_settings(pilot)
        from textual.widgets import Select

        modal.query_one("#lc-settings-method", Select).value = "fractal"
        modal.query_one("#lc-settings-band", Select).value = "hard"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is screen
        saved = LongcatSettings.from_dict(app.store.get_setting(SETTINGS_KEY))
        assert (saved.method, saved.band, saved.animate) == ("fractal", "hard", False)
        assert LongcatScreen.generator_params(app)["sd"] == {
            "size": "8x8",
            "band": "hard",
            "unique": 0,
        }
        assert "Fractal" in screen.last_message


async def test_slides_are_animated_cell_by_cell(monkeypatch) -> None:
    # A long step: the test sees one step's picture however loaded the machine is.
    monkeypatch.setattr(screen_module, "SLIDE_STEP", 1.0)
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_level(pilot, "longcat", Level.from_rows(["@....", "....."]))
        await pilot.press("right")  # animation on (the default): 4 cells to draw
        board = screen.query_one(LongcatBoard)
        assert screen.animating and board.shown_cells == 1
        assert len(board.picture.path) == 5 and screen.state.head_xy == (4, 0)
        # the first step, then the next cell: one at a time
        await wait_until(pilot, lambda: board.shown_cells != 1, "the slide's next step")
        assert board.shown_cells == 2
        # a move during a slide finishes the first one at once, and draws the next one
        await pilot.press("down")
        assert board.shown_cells == 5 and len(board.picture.path) == 6
        monkeypatch.setattr(screen_module, "SLIDE_STEP", 0.01)
        await pilot.press("left")
        await wait_until(pilot, lambda: not screen.animating, "the slide to end")
        assert not screen.animating and board.shown_cells is None


async def test_a_large_level_follows_the_cat() -> None:
    rows = ["@" + "." * 29] + ["." * 30 for _ in range(29)]
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        still(app)
        screen = await open_level(pilot, "longcat", Level.from_rows(rows, title="big"))
        board = screen.query_one(LongcatBoard)
        assert board.clipped and board.scale == (2, 1)
        await pilot.press("right", "down")
        await pilot.pause()
        lines = [board.render_line(y).text for y in range(board.size.height)]
        assert "the view follows the cat" in lines[-1]
        assert any("ºº" in line for line in lines)


async def test_watching_the_solution_is_not_a_solve_anywhere(monkeypatch) -> None:
    """``p`` wins the level by the solver: the dialog, the list and the count say so."""
    from tui.modals.outcome import BY_COMPUTER_NOTE
    from tui.screens.level_select import BY_COMPUTER_MARK, SOLVED_MARK, LevelSelectScreen

    monkeypatch.setattr(screen_module, "SOLUTION_STEP", 0.01)
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        still(app)
        assert app.start_game("longcat")
        await pilot.pause()
        select = app.screen
        assert isinstance(select, LevelSelectScreen)
        level = ARDUBOY.levels[4]
        ref = LevelRef("pack:01-arduboy", level.title)
        assert select.launcher.open(ref)
        await pilot.pause()
        await pilot.press("p")
        await app.workers.wait_for_complete()
        await wait_until(pilot, lambda: isinstance(app.screen, OutcomeModal), "the win dialog")
        modal = app.screen
        assert isinstance(modal, OutcomeModal) and modal.kind == "won"
        assert modal.heading == "Solved by the computer" and "Level solved" not in modal.heading
        game = app.screen_stack[-2]
        assert "won by the computer" in str(game.query_one("PuzzleHeader").render())
        assert BY_COMPUTER_NOTE in str(modal.query_one("#outcome-detail").render())
        assert app.store.solved_moves("longcat", "pack:01-arduboy") == {}
        await pilot.press("escape")  # the dialog's "Levels"
        await pilot.pause()
        assert app.screen is select
        packs = select.query_one("#packs")
        detail = str(packs.get_option_at_index(select._source_index).prompt)
        assert f"0/{len(ARDUBOY.levels)} solved" in detail
        levels = select.query_one("#levels")
        rows = [str(levels.get_option_at_index(i).prompt) for i in range(levels.option_count)]
        (row,) = [r for r in rows if level.title in r]
        assert row.startswith(BY_COMPUTER_MARK) and "by the computer" in row
        assert not any(r.startswith(SOLVED_MARK) for r in rows)


async def test_the_learned_generator_is_offered_in_the_settings_and_g_uses_it() -> None:
    from textual.widgets import Select

    from core.longcat import generate
    from tui.games.longcat.weights import install

    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        still(app)
        screen, modal = await open_settings(pilot)
        methods = modal.query_one("#lc-settings-method", Select)
        assert "rl" in [value for _, value in methods._options]
        methods.value = "rl"
        modal.query_one("#lc-settings-temperature", Select).value = 0.2
        await pilot.press("ctrl+s")
        await pilot.pause()
        saved = LongcatSettings.from_dict(app.store.get_setting(SETTINGS_KEY))
        assert (saved.method, saved.temperature) == ("rl", 0.2)
        assert "Learned" in screen.last_message and "temperature 0.2" in screen.last_message
        assert LongcatScreen.generator_params(app)["rl"]["temperature"] == "0.2"
        assert "temperature" not in LongcatScreen.generator_params(app)["sd"]
        await pilot.press("g")
        await app.workers.wait_for_complete()
        await pilot.pause()
        level = screen.level
        assert level.title.startswith("rl T0.2 8x8 #")
        assert screen.ref.source == "gen:rl?band=any&size=8x8&temperature=0.2&unique=0"
        seed = int(level.title.split("#")[1].split(" ")[0])
        install()
        want = generate("rl", seed, 8, 8, temperature=0.2)
        assert (level.walls, level.start) == (want.walls, want.start)
        for move in shortest_solution(level).moves:
            await pilot.press(KEYS[move][0])
        await pilot.pause()
        assert isinstance(app.screen, OutcomeModal) and app.screen.kind == "won"


async def test_one_difficulty_everywhere_a_bundled_level_is_shown() -> None:
    """Issue 30: "Arduboy 2" was "easy 25" in the list and title and "easy 28" in the side
    panel; "Arduboy 1" was "trivial 0", "-10.9" in its description and "-0.7" on the bench.
    Gather the figure from each place (list, title, side panel, bench, description, CLI)."""
    import json
    import re

    from click.testing import CliRunner

    from core.longcat.design import assess
    from tui.games.longcat.cli import longcat
    from tui.games.longcat.designer import verdict_text
    from tui.sources import PackSource

    listed = {
        entry.number: entry.title for entry in PackSource("pack:01-arduboy", ARDUBOY).entries()
    }
    # Hand-checked figures: Arduboy 1's regression value is -0.7, shown as 0.
    expected = {
        1: ("trivial 0", "0.0 (trivial)"),
        2: ("easy 28", "27.7 (easy)"),
        71: ("easy 50", "49.7 (easy)"),
    }
    app = ArcadeApp()
    async with app.run_test(size=(100, 30)) as pilot:
        still(app)
        for number, (label, text) in expected.items():
            screen = await open_arduboy(pilot, number)
            level = screen.level
            panel = str(screen.query_one("#lc-info").render())
            bench = verdict_text(assess(level))
            solved = CliRunner().invoke(longcat, ["solve", "arduboy", "-l", str(number), "--json"])
            figure = json.loads(solved.stdout)["difficulty"]
            assert listed[number].endswith(f" · {label}")  # the level list
            assert screen.header_text().startswith(f"Longcat: Arduboy {number} · {label} ")
            assert re.search(rf"Level\s+{label}$", panel, re.M), panel  # the side panel
            assert f"difficulty {text}" in bench  # the level bench's live verdict
            assert level.description.startswith(f"Predicted difficulty {text};")
            assert f"{figure:.1f} ({label.split()[0]})" == text  # the CLI's JSON
            app.pop_screen()
            await pilot.pause()


POCKET = Level.from_rows(["#.#", "...", "#@#"], title="pocket")
"""Sliding up fills the middle column and the cat is stuck between walls, with the two side
cells of the middle row apart: 2 regions (hand-worked)."""


async def test_a_loss_counts_the_regions_left() -> None:
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        still(app)
        screen = await open_level(pilot, "longcat", POCKET)
        status = screen.query_one(LongcatStatus)
        assert "Stuck" not in status.text().plain
        await pilot.press("up")
        await wait_until(pilot, lambda: isinstance(app.screen, OutcomeModal), "the loss")
        assert app.screen.kind == "lost"
        assert app.screen.detail == (
            "The cat is stuck with 2 empty cells left. "
            "The empty cells are split: 2 regions can no longer both be filled."
        )
        assert status.text().plain == (
            "✗ Stuck: 2 regions can no longer both be filled\n2 cells left: u undoes, R restarts"
        )


def test_the_stuck_text_says_both_or_all() -> None:
    assert stuck_regions(2) == "2 regions can no longer both be filled"
    assert stuck_regions(3) == "3 regions can no longer all be filled"


async def test_the_side_panels_follow_the_session_they_are_given() -> None:
    # The panels are reactive widgets: assigning a session (or the demo flag) redraws them.
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        still(app)
        screen = await open_level(pilot, "longcat", SPLIT)
        info, status = screen.query_one(LongcatInfo), screen.query_one(LongcatStatus)
        assert info.session is screen.session and status.session is screen.session
        start = screen.session
        await pilot.press("right")
        assert info.session is screen.session and status.session is screen.session
        assert "Filled  3/9" in str(info.render()) and "Moves   1" in str(info.render())
        assert str(status.render()).startswith("✗ Dead end")
        status.session = info.session = start  # what the panels show is what they are given
        await pilot.pause()
        assert "Filled  1/9" in str(info.render()) and "Moves   0" in str(info.render())
        assert str(status.render()) == ""
        status.demo = True
        await pilot.pause()
        assert str(status.render()) == "▶ Showing the solution (p stops)"


async def test_a_tip_stays_until_the_position_changes() -> None:
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        still(app)
        screen = await open_arduboy(pilot, 2)
        board = screen.query_one(LongcatBoard)
        await pilot.press("t")
        await wait_until(pilot, lambda: board.picture.hint is not None, "the tip's arrows")
        move = board.picture.hint[0]
        arrows = set(board.picture.hint[1])
        moved = apply_move(screen.state, move)
        filled = {
            screen.level.xy(i) for i in range(64) if (moved.filled & ~screen.state.filled) >> i & 1
        }
        assert arrows == filled  # the arrows cover exactly the cells the slide fills
        await pilot.press(KEYS[move][0])
        assert board.picture.hint is None and screen.state == moved
