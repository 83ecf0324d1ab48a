"""The Longcat level editor (tui.games.longcat.designer): the canvas, the live verdict,
the solution played on the canvas, the par, and the way out (save, play, export, CLI)."""

from __future__ import annotations

import json

import pytest
from textual.widgets import Input

from core.longcat import analyse
from core.longcat.level import Level
from core.longcat.solver import shortest_solution
from grammar.levels import bundled_packs, dump_level, load_pack_file
from tests.cli.helpers import apart_runner
from tests.tui.helpers import open_designer, open_level, wait_until
from tui.app import ArcadeApp
from tui.games.longcat.canvas import LongcatCanvas
from tui.games.longcat.cli import longcat
from tui.games.longcat.designer import DOT_COMMAND, DOT_NOTE, LongcatDesigner
from tui.games.longcat.screen import LongcatScreen
from tui.modals.export import ExportModal
from tui.modals.stale_metadata import StaleMetadataModal

pytestmark = pytest.mark.pilot

SIZE = (80, 24)
ARDUBOY_2 = dict(bundled_packs("longcat"))["01-arduboy"].levels[1]


async def open_bench(pilot, level: Level = ARDUBOY_2, state=None) -> LongcatDesigner:
    await open_level(pilot, "longcat", level, state=state)
    bench = await open_designer(pilot, LongcatDesigner)
    assert isinstance(pilot.app.focused, LongcatCanvas)
    return bench


async def verdict(pilot, bench: LongcatDesigner, level: Level) -> str:
    """Wait (bounded) for the live verdict on ``level``."""

    def judged() -> bool:
        result = bench.assessment
        return result is not None and result.level == level and bool(bench.verdict_text)

    await wait_until(pilot, judged, lambda: f"a verdict on {level.rows()}: {bench.verdict_text!r}")
    return bench.verdict_text


def cli(*args: str):
    return apart_runner().invoke(longcat, list(args))


async def test_painting_resizing_and_the_live_verdict() -> None:
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        bench = await open_bench(pilot)
        text = await verdict(pilot, bench, ARDUBOY_2)
        truth = analyse(ARDUBOY_2).metrics  # 1 success state, 2 solution paths
        assert text.startswith("Solvable · shortest solution 7 moves = par 7")
        assert "Unique solution: yes · success states 1" in text
        assert f"solution paths {truth.solution_paths}" in text
        assert f"States {truth.states}: start 1, success 1, fail {truth.fails}" in text
        assert bench.canvas.cursor == ARDUBOY_2.start
        # The bottom three rows and right two columns are walls: removing them keeps the
        # puzzle (the board edge is a wall), so the verdict's figures stay.
        await pilot.press("minus", "minus", "minus", "less_than_sign", "shift+left")
        await pilot.pause()
        small = bench.read_level()
        assert small.rows() == ("######", "##....", "##..@.", "##..#.", "##....")
        assert (await verdict(pilot, bench, small)).splitlines()[1:] == text.splitlines()[1:]
        # A wall left of the start splits the grid: unsolvable, by the verdict and the core.
        await pilot.press("left", "space")
        await pilot.pause()
        walled = bench.read_level()
        assert walled.rows()[2] == "##.#@."
        assert shortest_solution(walled).status == "unsolvable"
        assert (await verdict(pilot, bench, walled)).startswith("Unsolvable")
        assert "Unique solution: no · success states 0" in bench.verdict_text
        # ctrl+z undoes the paint, ctrl+y redoes it, each a change of the text.
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert bench.read_level() == small
        await pilot.press("ctrl+y")
        await pilot.pause()
        assert bench.read_level() == walled
        await verdict(pilot, bench, walled)  # (a verdict's start clears the message line)
        # The start cannot become a wall; the refusal says why and changes nothing.
        await pilot.press("right", "space")
        await pilot.pause()
        assert "start cannot be a wall" in bench.error_text
        assert bench.read_level() == walled
        # s moves the start; '.' paints an empty cell; a click toggles the clicked cell.
        await pilot.press("left", "full_stop", "down", "down", "s")
        await pilot.pause()
        moved = bench.read_level()
        assert moved.start == (3, 4) and moved.rows()[2] == "##....", moved.rows()
        await verdict(pilot, bench, moved)
        canvas = bench.canvas
        spot = next(
            (x, y)
            for y in range(canvas.size.height)
            for x in range(canvas.size.width)
            if canvas.cell_at(x, y) == (5, 1)
        )
        await pilot.click("#lc-ed-canvas", offset=spot)
        await pilot.pause()
        clicked = bench.read_level()
        assert clicked.rows()[1] == "##...#" and canvas.cursor == (5, 1), (spot, canvas.region)
        text = await verdict(pilot, bench, clicked)
        truth = analyse(clicked).metrics
        assert f"success states {truth.success_states}" in text
        assert f"solution paths {truth.solution_paths}" in text
        # Typing in the text redraws the canvas; a text that does not load keeps the last
        # grid, and painting then points at the error.
        area = bench.text_area
        area.text = area.text.replace("##...#", "##..##")
        await pilot.pause()
        assert ((4, 1)) in canvas.picture.walls
        area.text = area.text.replace("##..##", "##..x#")
        await pilot.pause()
        assert ((4, 1)) in canvas.picture.walls
        canvas.focus()
        await pilot.press("space")
        await pilot.pause()
        assert "unknown grid character" in bench.error_text and "^" in bench.error_text


async def test_a_burst_of_cursor_keys_moves_as_many_cells() -> None:
    """Regression: keys typed faster than the editor handled them moved the cursor once."""
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        bench = await open_bench(pilot, Level.from_rows(["@......."], title="row"))
        for _ in range(5):  # as a terminal delivers a burst: no pause between the keys
            bench.canvas.action_command("right")
        await pilot.pause()
        assert bench.canvas.cursor == (5, 0)
        assert "row 1 col 6: empty" in str(bench.query_one("#lc-ed-cursor").render())
        for _ in range(9):
            bench.canvas.action_command("left")
        await pilot.pause()
        assert bench.canvas.cursor == (0, 0)
        # Paints and resizes queued before the moves do not pull the cursor back.
        for name in ("wider", "right", "right", "toggle", "right", "wider", "right"):
            bench.canvas.action_command(name)
        await pilot.pause()
        assert bench.canvas.cursor == (4, 0)
        assert bench.read_level().rows() == ("@.#.....##",)


async def test_resizing_stops_at_the_format_limits() -> None:
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        bench = await open_bench(pilot, Level.from_rows(["@."], title="tiny"))
        await pilot.press("minus")
        await pilot.pause()
        assert "at least one row" in bench.error_text
        await pilot.press("right", "s", "less_than_sign")
        await pilot.pause()
        assert "start is in the last column" in bench.error_text
        assert bench.read_level().rows() == (".@",)
        await pilot.press("left", "s", "less_than_sign", "less_than_sign")
        await pilot.pause()
        assert "at least one column" in bench.error_text
        assert bench.read_level().rows() == ("@",)
        for _ in range(31):
            await pilot.press("greater_than_sign")
        await pilot.pause()
        assert bench.read_level().width == 32
        await pilot.press("greater_than_sign")
        await pilot.pause()
        assert "at most 32 columns" in bench.error_text
        assert bench.read_level().width == 32


async def test_x_and_o_start_afresh_undoably() -> None:
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        bench = await open_bench(pilot, Level.from_rows(["#.#", ".@.", "#.#"], title="plus"))
        await pilot.press("X")
        await pilot.pause()
        assert bench.read_level().rows() == ("###", "#@#", "###")
        await pilot.press("O")
        await pilot.pause()
        assert bench.read_level().rows() == ("...", ".@.", "...")
        await pilot.press("ctrl+z", "ctrl+z")
        await pilot.pause()
        assert bench.read_level().rows() == ("#.#", ".@.", "#.#")


async def test_p_plays_the_shortest_solution_without_touching_the_level() -> None:
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        bench = await open_bench(pilot)
        await verdict(pilot, bench, ARDUBOY_2)
        before = bench.field_values()
        canvas = bench.canvas
        await pilot.press("p")
        await pilot.pause()
        assert bench.playing is not None and canvas.cursor is None
        # The solution plays out: 7 moves at 0.4 s.
        await wait_until(pilot, lambda: not bench.playing)
        # The body covers every empty cell: the solution won, on the canvas only.
        assert len(canvas.picture.path) == ARDUBOY_2.size
        assert bench.field_values() == before and not bench.edited
        assert "Solved" in bench.error_text
        await pilot.press("x")  # any key returns to editing
        await pilot.pause()
        assert bench.playing is None and canvas.picture.path == (ARDUBOY_2.start,)
        # A key in the middle stops it too, and p again stops it.
        await pilot.press("p")
        await wait_until(pilot, lambda: len(canvas.picture.path) > 1, "the first move played")
        assert bench.playing is not None
        await pilot.press("p")
        await pilot.pause()
        assert bench.playing is None and canvas.cursor == ARDUBOY_2.start


async def test_par_key_sets_the_par_to_the_shortest_solution_undoably() -> None:
    level = Level.from_rows(["@...", "....", "...."], title="no par yet")
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        bench = await open_bench(pilot, level)
        text = await verdict(pilot, bench, level)
        shortest = len(shortest_solution(level).moves)
        assert f"shortest solution {shortest} moves · no par (P sets it)" in text
        await pilot.press("P")
        await pilot.pause()
        assert bench.read_level().par == shortest
        assert f"par {shortest}" in bench.text_area.text
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert bench.read_level().par is None


async def test_current_position_walls_the_filled_cells() -> None:
    from core.longcat.rules import apply_move, initial

    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        state = apply_move(initial(ARDUBOY_2), "up")
        bench = await open_bench(pilot, ARDUBOY_2, state=state)
        await pilot.press("f9")
        await pilot.pause()
        level = bench.read_level()
        assert level.start == state.head_xy and level.par is None
        assert level.rows()[1:4] == ("##..@.##", "##..#.##", "##..#.##")
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert bench.read_level() == ARDUBOY_2


async def test_save_export_cli_and_play(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        bench = await open_bench(pilot)
        await pilot.press("left", "space")  # a wall left of the start
        area = bench.text_area
        area.text = area.text.replace(ARDUBOY_2.title, "Bench canvas level")
        await pilot.pause()
        level = bench.read_level()
        assert level.title == "Bench canvas level" and level.rows()[2] == "##.#@.##"
        await verdict(pilot, bench, level)
        assert bench.assessment is not None
        states = bench.assessment.metrics.states
        # Save keeps it in My levels; the verdict contradicts par 7 (no solution): the
        # designer is asked (issue 30) and keeps it ("k"), so Export does not ask again.
        await pilot.press("f3")
        await wait_until(pilot, lambda: isinstance(app.screen, StaleMetadataModal))
        assert [(u.field, u.old, u.new) for u in app.screen.updates] == [("par", 7, None)]
        await pilot.press("k")
        await wait_until(pilot, lambda: app.screen is bench)
        assert [item.title for item in app.store.my_levels("longcat")] == [level.title]
        assert not bench.edited
        # Export writes a level file, which the CLI reads back as the same level.
        await pilot.press("f8")
        await pilot.pause()
        modal = app.screen
        assert isinstance(modal, ExportModal)
        modal.query_one("#export-path", Input).value = "bench.levels"
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is bench
        assert f"Its whole state graph: {DOT_COMMAND}" in bench.error_text
        path = tmp_path / "bench.levels"
        assert load_pack_file(path).levels == (level,)
        result = cli("solve", str(path), "--json")
        assert result.exit_code == 1  # unsolvable: a negative answer
        data = json.loads(result.stdout)
        assert data["solvable"] is False and data["states"] == states
        dot = cli("analyze", str(path), "--dot")
        assert dot.exit_code == 0 and dot.stdout.count("fillcolor=") == states
        assert dump_level(load_pack_file(path).levels[0], "longcat") == area.text
        # Play (F2) opens the saved level on the game screen.
        await pilot.press("f2")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, LongcatScreen)
        assert screen.level == level and screen.ref is not None and screen.ref.source == "mine"


def test_the_bench_names_the_dot_export() -> None:
    assert DOT_COMMAND == "termarcade longcat analyze FILE --dot" and DOT_COMMAND in DOT_NOTE


def test_the_verdict_says_what_is_unknown_within_the_limit() -> None:
    from core.longcat.design import assess
    from tui.games.longcat.designer import verdict_text

    large = dict(bundled_packs("longcat"))["05-generated-large"].levels[0]
    partial = verdict_text(assess(large, max_states=50))
    assert partial.startswith(f"Solvable · shortest solution {large.par} moves = par")
    assert "more than 50 states" in partial and "unknown within the limit" in partial
    unknown = verdict_text(assess(large, max_states=3))
    assert unknown.startswith("Solvable? Unknown within the limit (3 states")


def test_the_graph_picture_has_one_bar_per_class() -> None:
    from core.longcat.design import assess
    from tui.games.longcat.designer import GLYPHS, graph_picture

    result = assess(ARDUBOY_2)
    lines = graph_picture(result, 40).plain.splitlines()
    assert lines[0] == f"State graph: {result.metrics.states} states, {result.metrics.edges} moves"
    assert lines[-1] == DOT_NOTE
    for name, line in zip(result.classes, lines[1:-1], strict=True):
        count = result.classes[name]
        glyph, label, number, *bars = line.split()
        bar = "".join(bars)
        assert (glyph, label, int(number)) == (GLYPHS[name], name, count)
        assert (bar == "") == (count == 0) and set(bar) <= {GLYPHS[name]}
    biggest = max(result.classes, key=result.classes.__getitem__)
    assert max(len(line) for line in lines[1:-1]) <= 40
    assert lines[1 + list(result.classes).index(biggest)].count(GLYPHS[biggest]) > 1


async def test_f1_opens_longcats_help_with_the_editors_keys() -> None:
    from tui.screens.help import HelpScreen

    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        bench = await open_bench(pilot)
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen) and app.screen.topic == "longcat"
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is bench
