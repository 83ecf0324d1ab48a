"""Pilot tests of 2048's level editor: the canvas and fields, the live verdict, undo, Save,
Play, Export (read back by ``termarcade 2048 check``) and "Current position"."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from textual.widgets import Input, Select

from core.game2048 import GameConfig, move
from core.game2048.level import Level
from grammar.levels import load_pack, load_pack_file
from tests.tui.helpers import open_designer, open_level, wait_until
from tui.app import ArcadeApp
from tui.cli import main
from tui.games.game2048.designer import BoardCanvas, Game2048Designer
from tui.games.game2048.screen import Game2048Screen
from tui.modals.export import ExportModal

pytestmark = pytest.mark.pilot

SIZE = (80, 24)


async def _bench(pilot, level: Level, state=None) -> tuple[Game2048Screen, Game2048Designer]:
    screen = await open_level(pilot, "2048", level, state=state)
    bench = await open_designer(pilot, Game2048Designer)
    return screen, bench


async def _verdict(pilot, bench: Game2048Designer, contains: str) -> str:
    """Wait (bounded) for the live verdict to say ``contains``."""
    await wait_until(
        pilot,
        lambda: contains in bench.verdict_text,
        lambda: f"the verdict to say {contains!r}: {bench.verdict_text!r}",
    )
    return bench.verdict_text


def _text_level(bench: Game2048Designer) -> Level:
    (level,) = load_pack(bench.text_area.text).levels
    return level


async def _type(pilot, bench: Game2048Designer, widget_id: str, text: str) -> None:
    field = bench.query_one(f"#{widget_id}", Input)
    field.focus()
    field.value = ""
    await pilot.press(*text)
    await pilot.pause()


async def test_make_a_level_on_the_canvas_with_a_live_verdict_then_undo() -> None:
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        _screen, bench = await _bench(pilot, Level("Seven", GameConfig(initial_seed=7)))
        await _verdict(pilot, bench, "Start (2 random tiles, seed 7)")
        assert bench.focused is bench.canvas
        dealt = bench.canvas.board
        assert sum(1 for row in dealt for v in row if v) == 2  # the seed's deal, shown
        # Type 16 on the top-left cell: "1" waits (16, 128, ... start with it), "6" puts it.
        await pilot.press("1")
        await pilot.pause()
        assert _text_level(bench).board is None and bench.canvas.typed == "1"
        await pilot.press("6")
        await pilot.pause()
        board = _text_level(bench).board
        assert board is not None and board[0][0] == 16
        assert board[1:] == dealt[1:] and board[0][1:] == dealt[0][1:]  # the deal is kept
        verdict = await _verdict(pilot, bench, "largest 16")
        assert "Start (this board, seed 7 spawns)" in verdict
        assert bench.query_one("#g2048ed-start", Select).value == "board"
        # + steps to the next tile of the rule, - back, twice - empties the cell.
        await pilot.press("right", "plus", "plus")
        await pilot.pause()
        assert _text_level(bench).board[0][1] == step_twice(dealt[0][1])
        await pilot.press("minus", "minus", "minus", "minus", "minus")
        await pilot.pause()
        assert _text_level(bench).board[0][1] == 0
        await pilot.press("left", "backspace")
        await pilot.pause()
        assert _text_level(bench).board[0][0] == 0
        # Every canvas change is undoable (the canvas keeps the focus).
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert _text_level(bench).board[0][0] == 16
        assert bench.canvas.board[0][0] == 16
        await pilot.press("ctrl+y")
        await pilot.pause()
        assert _text_level(bench).board[0][0] == 0


def step_twice(value: int) -> int:
    """Two standard tiles up from ``value`` (0 is empty: 2, then 4)."""
    return 4 if value == 0 else value * 4


@pytest.mark.slow
async def test_fields_rule_size_goal_spawn_and_their_checks() -> None:
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        rows = ((2, 4, 8, 16), (0, 0, 0, 0), (0, 0, 0, 2), (0, 0, 0, 0))
        level = Level("Fields", GameConfig(board_size=4, initial_seed=3), rows)
        _screen, bench = await _bench(pilot, level)
        await _verdict(pilot, bench, "✓ legal for standard")
        # Fibonacci: its preset goal and spawns follow; 4 and 16 are no Fibonacci tiles.
        bench.query_one("#g2048ed-rule", Select).value = "fibonacci"
        await pilot.pause()
        edited = _text_level(bench)
        assert edited.config.merge_rule == "fibonacci" and edited.config.goal == 2584
        assert [tuple(t) for t in edited.config.tile_value_distribution] == [(1, 9), (2, 1)]
        await _verdict(pilot, bench, "✗ 4, 16 not tile(s) of fibonacci")
        assert bench.query_one("#g2048ed-goal", Input).value == "2584"
        # Back to standard (undo), then resize: what fits is kept.
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert _text_level(bench).config.merge_rule == "standard"
        await _type(pilot, bench, "g2048ed-size", "3")
        assert _text_level(bench).board == ((2, 4, 8), (0, 0, 0), (0, 0, 0))
        await _verdict(pilot, bench, "6 empty")
        # A goal that is no tile of the rule is refused, and nothing can be saved then.
        await _type(pilot, bench, "g2048ed-goal", "3000")
        assert bench.error_text.startswith("Goal: the goal 3000 is not a tile of standard")
        assert _text_level(bench).config.goal is None  # the emptied field (endless), not 3000
        assert bench.query_one("#g2048ed-goal", Input).value == "3000"  # left for the fix
        assert bench.read_level(quiet=True) is None
        await _type(pilot, bench, "g2048ed-goal", "8")
        assert _text_level(bench).config.goal == 8
        await _verdict(pilot, bench, "already WON")
        # Probabilities must sum to 1; whole-number weights are relative.
        await _type(pilot, bench, "g2048ed-spawn", "2:0.5 4:0.3")
        assert "sum to 0.8, not 1" in bench.error_text
        await _type(pilot, bench, "g2048ed-spawn", "2:0.75 4:0.25")
        assert bench.error_text == ""
        spawn = _text_level(bench).config.tile_value_distribution
        assert [tuple(t) for t in spawn] == [(2, 0.75), (4, 0.25)]
        await _verdict(pilot, bench, "Spawns: 2 75% · 4 25%")
        await _type(pilot, bench, "g2048ed-spawn", "2:1 3:1")
        assert "the spawn value 3 is not a tile of standard" in bench.error_text
        await _type(pilot, bench, "g2048ed-spawn", "4")
        # Random start: the board goes, the canvas shows what the seed deals with 5 tiles
        # (the number of tiles can be typed only then: a start board deals none).
        tiles = bench.query_one("#g2048ed-tiles", Input)
        assert tiles.disabled
        bench.query_one("#g2048ed-start", Select).value = "random"
        await pilot.pause()
        assert not tiles.disabled
        await _type(pilot, bench, "g2048ed-tiles", "5")
        edited = _text_level(bench)
        assert edited.board is None and edited.config.number_of_initial_tiles == 5
        assert sum(1 for row in bench.canvas.board for v in row if v) == 5
        assert bench.canvas.preview
        await _verdict(pilot, bench, "Start (5 random tiles, seed 3)")


async def test_the_text_moves_the_fields_and_a_dead_start_is_over() -> None:
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        _screen, bench = await _bench(pilot, Level("Text", GameConfig(initial_seed=1)))
        await _verdict(pilot, bench, "Estimate")
        bench.text_area.text = (
            'level "Dead" {\n  game 2048\n  size 2\n  seed 9\n  goal 8\n'
            "  board\n    [2 4]\n    [4 2]\n}\n"
        )
        await pilot.pause()
        assert bench.query_one("#g2048ed-title", Input).value == "Dead"
        assert bench.query_one("#g2048ed-size", Input).value == "2"
        assert bench.query_one("#g2048ed-seed", Input).value == "9"
        assert bench.canvas.board == ((2, 4), (4, 2)) and not bench.canvas.preview
        verdict = await _verdict(pilot, bench, "already OVER")
        assert "0 empty · largest 4, goal 8" in verdict
        assert "Estimate" not in verdict  # nothing to play


async def test_save_play_and_export_read_back_by_the_cli(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen, bench = await _bench(pilot, Level("Seed five", GameConfig(initial_seed=5)))
        await _type(pilot, bench, "g2048ed-title", "Corner")
        bench.canvas.focus()
        await pilot.press("down", "right", "6", "4", "down", "2")
        await pilot.pause()
        await _verdict(pilot, bench, "largest 64")
        made = _text_level(bench)
        assert made.title == "Corner" and made.board[1][1] == 64 and made.board[2][1] == 2
        # Export (F8): the file holds the very level; the CLI reads it back.
        await pilot.press("f8")
        await pilot.pause()
        modal = app.screen
        assert isinstance(modal, ExportModal)
        modal.query_one("#export-path", Input).value = "corner.levels"
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is bench
        path = tmp_path / "corner.levels"
        assert load_pack_file(path).levels == (made,)
        result = CliRunner().invoke(main, ["2048", "check", str(path), "--json", "--moves", "0"])
        assert result.exit_code == 0, result.output
        data = json.loads(result.output)
        assert data["title"] == "Corner" and data["seed"] == 5 and data["rule"] == "standard"
        assert data["board"] == [list(row) for row in made.board]
        assert data["legal"] and data["largest"] == 64 and data["estimate"] is None
        # Save (F3) keeps it in My levels; Play (F2) plays that level.
        await pilot.press("f3")
        await pilot.pause()
        assert [item.title for item in app.store.my_levels("2048")] == ["Corner"]
        assert not bench.edited
        await pilot.press("f2")
        await pilot.pause()
        assert app.screen is screen
        assert screen.ref is not None and screen.ref.source == "mine"
        assert screen.level_title == "Corner"
        assert screen.state.board == made.board
        assert screen.state.current_seed == 5


async def test_current_position_becomes_the_start_board_with_its_seed() -> None:
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        level = Level("Play on", GameConfig(initial_seed=11))
        from core.game2048.game import GAME

        state = GAME.initial(level)
        for direction in ("left", "up", "left", "down"):
            state = move(state, direction)
        _screen, bench = await _bench(pilot, level, state=state)
        await pilot.press("f9")
        await pilot.pause()
        edited = _text_level(bench)
        assert edited.board == state.board
        assert edited.config.initial_seed == state.current_seed
        assert edited.title == "Play on"
        assert isinstance(bench.canvas, BoardCanvas) and bench.canvas.board == state.board
        # The level plays on exactly as the game would have: same spawns from there.
        assert GAME.initial(edited).board == state.board
        assert move(GAME.initial(edited), "right").board == move(state, "right").board
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert _text_level(bench) == level


async def test_undo_and_redo_of_field_changes_keep_fields_and_text_together() -> None:
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        _screen, bench = await _bench(pilot, Level("Undo", GameConfig(initial_seed=4)))
        goal = bench.query_one("#g2048ed-goal", Input)
        goal.focus()
        await pilot.press("end", *["backspace"] * 4)  # empty: endless play
        await pilot.pause()
        assert _text_level(bench).config.goal is None
        await pilot.press("3", "0")  # refused (no tile of standard), nothing changes
        await pilot.pause()
        assert bench.error_text.startswith("Goal: ") and _text_level(bench).config.goal is None
        seed = bench.query_one("#g2048ed-seed", Input)
        seed.focus()
        await pilot.press("end", "9")
        await pilot.pause()
        assert _text_level(bench).config.initial_seed == 49
        await pilot.press("ctrl+z")  # the seed
        await pilot.pause()
        assert _text_level(bench).config.initial_seed == 4 and seed.value == "4"
        # Backspacing the goal applied 2 (a tile) then none; 204 and 20 were refused.
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert _text_level(bench).config.goal == 2 and goal.value == "2"
        await pilot.press("ctrl+z", "ctrl+z")  # the second has nothing left to undo
        await pilot.pause()
        assert _text_level(bench).config.goal == 2048 and goal.value == "2048"
        assert not bench.edited
        await pilot.press("ctrl+y")
        await pilot.pause()
        assert _text_level(bench).config.goal == 2 and goal.value == "2"
        await pilot.press("ctrl+y", "ctrl+y")
        await pilot.pause()
        assert _text_level(bench).config.initial_seed == 49 and seed.value == "49"
        assert _text_level(bench).config.goal is None and goal.value == ""


async def test_keys_typed_faster_than_the_text_follows_still_add_up() -> None:
    """Regression: three quick + gave 2, not 8 (each step read the board before the last
    one reached the text); a digit typed after an arrow landed on the old cell."""
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        rows = ((0, 0), (0, 2))
        _screen, bench = await _bench(pilot, Level("Quick", GameConfig(board_size=2), rows))
        canvas = bench.canvas
        for _ in range(3):  # no pause: the editor has not seen the first step yet
            canvas.action_step(1)
        canvas.action_cursor(1, 0)
        canvas.action_digit("4")
        await pilot.pause()
        assert _text_level(bench).board == ((8, 0), (4, 2))
        assert canvas.board == ((8, 0), (4, 2))


async def test_f1_opens_2048s_help_from_the_editor() -> None:
    from tui.screens.help import HelpScreen

    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        _screen, bench = await _bench(pilot, Level("Help", GameConfig()))
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen) and app.screen.topic == "2048"
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is bench


def test_the_live_verdict_bounds_each_estimate_move_by_a_work_budget(monkeypatch) -> None:
    """Issue 30 (every search takes a work budget): the bench's estimate gave its AI only a
    time limit. Each move's search now gets ESTIMATE_BUDGET nodes; the goal at move 1 of
    [4 4]/[2 2] (left or right merge into 8, scoring 8 + 4) says where it stopped."""
    from types import SimpleNamespace

    from core.game2048 import ai, legal_moves

    seen: list[dict] = []

    def first_legal(state, **kwargs):
        seen.append(kwargs)
        return legal_moves(state)[0]

    monkeypatch.setattr(ai, "hint", first_legal)
    bench = SimpleNamespace(ESTIMATE_MOVES=200, ESTIMATE_SECONDS=600.0, ESTIMATE_BUDGET=1234)
    level = Level("eight", GameConfig(board_size=2, goal=8), ((4, 4), (2, 2)))
    verdict = Game2048Designer.live_verdict(bench, level, lambda: False)  # type: ignore[arg-type]
    assert verdict is not None and "goal 8 at move 1, score 12" in verdict
    assert [kwargs["budget"] for kwargs in seen] == [1234]
