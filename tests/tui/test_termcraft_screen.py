"""Pilot tests of the TermCraft screen, its modals and its widgets.

The sample level of seed 000 §3.5 (the first bundled level) is played to a win by keys only,
following the hand-worked solution from the seed: swap the pair, turn the apple (equal to
red through ``equiv``) blue, construct ``done`` at the placeholder.
"""

from __future__ import annotations

import pytest
from textual.widgets import Button, Input, TextArea

from core.termcraft import ConstructAction, RewriteAction, State
from core.terms import compound, const, to_str
from grammar.levels import bundled_packs
from grammar.terms import parse_term
from tui.app import ArcadeApp
from tui.modals.construct import ConstructModal
from tui.modals.outcome import OutcomeModal, par_verdict
from tui.screens.termcraft import (
    GAME_ID,
    SAVE_SLOT,
    TermCraftScreen,
    level_from_json,
    level_to_json,
    move_to_json,
    replay_move,
)
from tui.widgets.action_list import ActionList, ConstructEntry
from tui.widgets.dev_panel import DevPanel, format_term_for_editing, parse_field
from tui.widgets.term_tree import (
    AUTO_EXPAND_NODES,
    CHUNK,
    MAX_DEPTH,
    MoreData,
    NodeData,
    TermTree,
    ZoomData,
)
from core.terms import short_str as short_text

SIZE = (80, 24)

SAMPLE_CURRENT = (
    "puzzle_state(rewrite(pair(var(X),var(Y)),rev_pair(var(Y),var(X))),rewrite(red,blue),"
    "equiv(apple,red),data(pair(apple,green)),data(placeholder))"
)
SAMPLE_WON = (
    "puzzle_state(rewrite(pair(var(X),var(Y)),rev_pair(var(Y),var(X))),rewrite(red,blue),"
    "equiv(apple,red),data(rev_pair(green,blue)),data(done))"
)


def first_pack():
    pack_id, pack = bundled_packs(GAME_ID)[0]
    return pack_id, pack


async def open_first_level(pilot) -> TermCraftScreen:
    """From the home screen: start TermCraft, then play the first level (enter)."""
    pilot.app.start_game(GAME_ID)
    await pilot.pause()
    await pilot.press("enter")
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, TermCraftScreen)
    return screen


def entry_index(screen: TermCraftScreen, site: tuple[int, ...], replacement: str) -> int:
    """Index of the rewrite at ``site`` producing ``replacement`` in the action list."""
    entries = screen.query_one(ActionList).entries
    for index, entry in enumerate(entries):
        if (isinstance(entry, RewriteAction) and entry.site == site
                and to_str(entry.replacement) == replacement):
            return index
    raise AssertionError(f"no rewrite at {site} giving {replacement}: {entries}")


async def choose(pilot, screen: TermCraftScreen, index: int) -> None:
    """Highlight list entry ``index`` with keys only (home, then j), then press enter."""
    screen.query_one(ActionList).focus()
    await pilot.press("home", *(["j"] * index), "enter")
    await pilot.pause()


def test_sample_level_is_the_first_bundled_level() -> None:
    _, pack = first_pack()
    assert to_str(pack.levels[0].current) == SAMPLE_CURRENT


async def test_play_sample_level_to_a_win_by_keys() -> None:
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_first_level(pilot)
        assert to_str(screen.state.term) == SAMPLE_CURRENT
        # 1. pair(apple,green) -> rev_pair(green,apple) at data/0.
        await choose(pilot, screen, entry_index(screen, (3, 0), "rev_pair(green,apple)"))
        assert to_str(screen.state.term.args[3]) == "data(rev_pair(green,apple))"
        assert screen.state.fuel == screen.level.fuel - 1
        # 2. apple (≡ red) -> blue inside rev_pair.
        await choose(pilot, screen, entry_index(screen, (3, 0, 1), "blue"))
        assert to_str(screen.state.term.args[3]) == "data(rev_pair(green,blue))"
        # 3. construct done at the placeholder: c, type, enter.
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, ConstructModal)
        await pilot.press(*"done", "enter")
        await pilot.pause()
        assert to_str(screen.state.term) == SAMPLE_WON
        assert isinstance(app.screen, OutcomeModal) and app.screen.won
        assert "3 moves" in app.screen.detail
        pack_id, pack = first_pack()
        assert pack.levels[0].title in app.store.solved_levels(GAME_ID, pack_id)
        assert app.store.load_game(GAME_ID, SAVE_SLOT) is None  # won: nothing to resume
        # Next level from the win dialog.
        await pilot.press("n")
        await pilot.pause()
        assert app.screen is screen
        assert screen.level.title == pack.levels[1].title
        assert screen.history.moves == 0


async def test_undo_redo_restart_keys() -> None:
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_first_level(pilot)
        start = screen.state
        await choose(pilot, screen, entry_index(screen, (3, 0), "rev_pair(green,apple)"))
        after = screen.state
        assert after is not start
        await pilot.press("u")
        assert screen.state is start
        await pilot.press("U")
        assert screen.state is after
        await pilot.press("ctrl+z")
        assert screen.state is start
        await pilot.press("ctrl+y")
        assert screen.state is after
        await pilot.press("R")
        assert screen.state == start and screen.history.moves == 0


async def test_game_in_progress_is_saved_and_resumed() -> None:
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_first_level(pilot)
        await choose(pilot, screen, entry_index(screen, (3, 0), "rev_pair(green,apple)"))
        expected = screen.state
        saved = app.store.load_game(GAME_ID, SAVE_SLOT)
        assert saved is not None and len(saved["moves"]) == 1
        await pilot.press("escape")  # back to the level list
        await pilot.pause()
        assert not isinstance(app.screen, TermCraftScreen)
    app2 = ArcadeApp()
    async with app2.run_test(size=SIZE) as pilot:
        app2.start_game(GAME_ID)
        await pilot.pause()
        screen = app2.screen
        assert isinstance(screen, TermCraftScreen)
        assert screen.state == expected and screen.history.moves == 1
        await pilot.press("u")  # the resumed history can be undone to the start
        assert to_str(screen.state.term) == SAMPLE_CURRENT
        await pilot.press("escape")
        await pilot.pause()
        assert type(app2.screen).__name__ == "LevelSelectScreen"


def test_move_json_round_trip_replays_the_same_state() -> None:
    _, pack = first_pack()
    level = pack.levels[0]
    state = State.from_level(level)
    from core.termcraft import apply, rewrite_actions

    action = next(a for a in rewrite_actions(state) if a.site == (3, 0))
    assert replay_move(state, move_to_json(action)) == apply(state, action)
    site = (4, 0)
    built = ConstructAction(site, const("done"))
    assert replay_move(state, move_to_json(built)).term.args[4] == compound("data", [const("done")])
    assert level_from_json(level_to_json(level)) == level


async def test_construct_modal_rejects_bad_and_over_budget_input() -> None:
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_first_level(pilot)
        assert screen.state.budget == 1
        await pilot.press("c")
        await pilot.pause()
        modal = app.screen
        assert isinstance(modal, ConstructModal)
        ok = modal.query_one("#construct-ok", Button)
        assert ok.disabled  # empty input
        await pilot.press(*"pair(a")
        assert ok.disabled and modal.term is None
        assert modal.error.startswith("line 1, column 7")
        error_text = str(modal.query_one("#construct-error").render())
        assert "^" in error_text and "expected" in error_text
        # Over budget: Size 3 > budget 1.
        modal.query_one(Input).value = "pair(a, b)"
        await pilot.pause()
        assert ok.disabled and modal.term is None
        assert "Size 3" in modal.error and "1" in modal.error
        # Not ground.
        modal.query_one(Input).value = "var(X)"
        await pilot.pause()
        assert ok.disabled and "ground" in modal.error
        # Enter on an invalid term does not construct.
        await pilot.press("enter")
        assert app.screen is modal
        # Whitespace is stripped first: "do ne" is the constant done.
        modal.query_one(Input).value = " do ne "
        await pilot.pause()
        assert not ok.disabled and modal.term == const("done")
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen and screen.history.moves == 0


async def test_dev_panel_reports_error_with_line_and_column_then_applies() -> None:
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_first_level(pilot)
        await pilot.press("E")
        await pilot.pause()
        panel = app.screen
        assert isinstance(panel, DevPanel)
        area = panel.query_one("#dev-current-term-input", TextArea)
        area.text = "puzzle_state(\n  data(a,,b)\n)"
        await pilot.press("f2")
        await pilot.pause()
        assert app.screen is panel  # not applied
        assert panel.error_text.startswith("current term:2:10: unexpected ','")
        assert "expected an identifier" in panel.error_text
        assert area.cursor_location == (1, 9)
        # A bad fuel value is reported too.
        panel.query_one("#dev-fuel-input", Input).value = ""
        await pilot.press("f2")
        assert "Fuel must be a non-negative integer" in panel.error_text
        panel.query_one("#dev-fuel-input", Input).value = "1"
        area.text = "puzzle_state(\n  rewrite(a, b),\n  data(a)\n)"
        panel.query_one("#dev-target-term-input", TextArea).text = "puzzle_state(rewrite(a,b),data(b))"
        await pilot.press("f2")
        await pilot.pause()
        assert app.screen is screen
        assert to_str(screen.state.term) == "puzzle_state(rewrite(a,b),data(a))"
        assert screen.ref is None and screen.state.fuel == 1 and screen.history.moves == 0
        # The edited level plays: one rewrite at data/0 wins.
        await choose(pilot, screen, entry_index(screen, (1, 0), "b"))
        assert isinstance(app.screen, OutcomeModal) and app.screen.won


async def test_dev_panel_solve_lint_and_save(tmp_path) -> None:
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        await open_first_level(pilot)
        await pilot.press("E")
        await pilot.pause()
        panel = app.screen
        assert isinstance(panel, DevPanel)
        await pilot.press("f4")
        await app.workers.wait_for_complete()
        await pilot.pause()
        # The seed's hand-worked solution has 3 moves and no shorter one exists
        # (two rewrites and one construct are all needed).
        assert panel.result_text.startswith("Solvable: shortest plan has 3 move(s)")
        await pilot.press("f5")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "error" not in panel.result_text.split("\n")[0]
        assert panel.result_text  # lint reports (at least the solver's verdict)
        # Save level…: path modal, then the file is a loadable one-level pack.
        target = tmp_path / "saved.levels"
        await pilot.press("f3")
        await pilot.pause()
        path_input = app.screen.query_one("#save-path", Input)
        path_input.value = str(target)
        await pilot.press("enter")
        await pilot.pause()
        from grammar.levels import load_pack_file

        pack = load_pack_file(target)
        assert len(pack.levels) == 1 and to_str(pack.levels[0].current) == SAMPLE_CURRENT
        assert "Saved" in panel.error_text


async def test_tip_shows_hint_then_solver_move() -> None:
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_first_level(pilot)
        await pilot.press("t")
        assert screen.tip_stage == 1
        listing = screen.query_one(ActionList)
        await pilot.press("t")
        await app.workers.wait_for_complete()
        await pilot.pause()
        entry = listing.current_entry
        # The first move of every shortest plan must be one of the three solution moves.
        if isinstance(entry, RewriteAction):
            assert (entry.site, to_str(entry.replacement)) in {
                ((3, 0), "rev_pair(green,apple)"), ((3, 0, 0), "blue")}
        else:
            assert entry == ConstructEntry((4, 0))


async def test_tree_marks_site_and_choosing_a_placeholder_opens_construct() -> None:
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_first_level(pilot)
        tree = screen.query_one(TermTree)
        listing = screen.query_one(ActionList)
        entry = listing.current_entry
        assert isinstance(entry, RewriteAction)
        label = tree._path_nodes[entry.site].label.plain
        assert label.startswith("» ")
        assert tree._path_nodes[entry.rule.path].label.plain.endswith("⇐ rule")
        assert tree._path_nodes[(4, 0)].label.plain == "◆ placeholder"
        await pilot.press("tab")  # focus the tree
        assert app.focused is tree
        tree.move_to_path((4, 0))
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ConstructModal) and app.screen.site == (4, 0)


# -- widgets without the app ----------------------------------------------------------------


def test_short_text_matches_to_str_prefix() -> None:
    term = parse_term("f(g(a,b),var(X),h())")
    text = to_str(term)
    assert short_text(term, 100) == text
    for limit in range(1, len(text)):
        cut = short_text(term, limit)
        assert cut.endswith("…") and len(cut) == limit
        assert text.startswith(cut[:-1])


def test_short_text_is_cheap_on_deep_terms() -> None:
    term = const("x")
    for _ in range(100_000):
        term = compound("s", [term])
    assert short_text(term, 10) == "s(s(s(s(s…"


def test_parse_field_maps_error_to_typed_position() -> None:
    with pytest.raises(Exception) as info:
        parse_field("a(\n\n   b c(", "target term")
    err = info.value
    # Stripped: "a(bc(" ends too early: column 6, just after the last "(". Typed: line 3 is
    # "   b c(" whose "(" is column 7, so the error is at line 3, column 8.
    assert (err.line, err.column) == (3, 8)
    assert parse_field("pair( a ,\n b )", "x") == parse_term("pair(a,b)")


def test_format_term_for_editing_round_trips() -> None:
    term = parse_term(SAMPLE_CURRENT)
    small = parse_term("f(a)")
    assert format_term_for_editing(small) == "f(a)"
    assert parse_field(format_term_for_editing(term), "x") is term
    big = compound("root", [compound("item", [const(f"c{i}")]) for i in range(40)])
    text = format_term_for_editing(big)
    assert text.count("\n") == 41 and parse_field(text, "x") is big


def test_par_verdict_wording() -> None:
    assert par_verdict(3, 3) == "3 moves (par 3): on par"
    assert "under par" in par_verdict(2, 3)
    assert "1 over par" in par_verdict(4, 3)
    assert "no par" in par_verdict(1, None)


async def test_huge_and_deep_terms_open_lazily() -> None:
    from textual.app import App, ComposeResult

    wide = compound("root", [compound("leaf", [const(f"c{i}")]) for i in range(20_000)])
    deep = const("bottom")
    for _ in range(50_000):
        deep = compound("s", [deep])

    class TreeApp(App):
        def compose(self) -> ComposeResult:
            yield TermTree()

    app = TreeApp()
    async with app.run_test(size=SIZE) as pilot:
        tree = app.query_one(TermTree)
        tree.show_term(wide, keep_view=False)
        await pilot.pause()
        # Only the first chunk of the root's children exists, plus the "more" node.
        assert len(tree.root.children) == CHUNK + 1
        assert isinstance(tree.root.children[-1].data, MoreData)
        assert len(tree._path_nodes) <= 1 + CHUNK * 3
        # Revealing a far child loads the chunks up to it, not everything.
        node = tree.reveal((5_432, 0))
        assert node is not None and node.data.term == const("c5432")
        assert len(tree.root.children) == (5_432 // CHUNK + 1) * CHUNK + 1
        # Choosing the "more" node loads the next chunk.
        more = tree.root.children[-1]
        loaded = len(tree.root.children)
        tree.move_cursor(more)
        await pilot.press("enter")
        assert len(tree.root.children) == loaded + CHUNK
        tree.show_term(deep, keep_view=False)
        await pilot.pause()
        assert len(tree._path_nodes) <= 40  # a 50,000-deep chain unfolds only a little
        path = (0,) * 40_000
        assert tree.move_to_path(path)
        assert isinstance(tree.cursor_node.data, NodeData)
        assert tree.cursor_path == path
        # The view was re-rooted near the target: only a window of the chain exists.
        assert tree.base and len(path) - len(tree.base) <= MAX_DEPTH
        assert len(tree._path_nodes) <= MAX_DEPTH + AUTO_EXPAND_NODES
        await pilot.pause()
        # The root's first child zooms back out towards the term's root.
        zoom_out = tree.root.children[0]
        assert isinstance(zoom_out.data, ZoomData) and zoom_out.data.up
        old_base = tree.base
        tree.move_cursor(zoom_out)
        await pilot.press("enter")
        assert len(tree.base) < len(old_base) and tree.cursor_path == old_base
        # Walking down by keys reaches a "zoom in" node at the view's depth limit.
        tree.zoom(())
        node = tree.reveal((0,) * MAX_DEPTH)
        node.expand()
        await pilot.pause()
        deeper = node.children[0]
        assert isinstance(deeper.data, ZoomData) and not deeper.data.up
        tree.move_cursor(deeper)
        await pilot.press("enter")
        assert tree.cursor_path == (0,) * MAX_DEPTH and tree.base == (0,) * (MAX_DEPTH - 3)
