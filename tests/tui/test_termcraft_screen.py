"""Pilot tests of the TermCraft screen, its modals and its widgets.

The sample level of seed 000 §3.5 (the first bundled level) is played to a win by keys only,
following the hand-worked solution from the seed: swap the pair, turn the apple (equal to
red through ``equiv``) blue, construct ``done`` at the placeholder.
"""

from __future__ import annotations

import os

import pytest
from textual.widgets import Button, Input, TextArea

from core.termcraft import ConstructAction, RewriteAction, State, rewrite_actions
from core.termcraft.game import GAME, move_from_json, move_to_json
from core.termcraft.terms import compound, const, to_str
from core.termcraft.terms import short_str as short_text
from grammar.levels import bundled_packs, load_pack_file
from grammar.terms import parse_term
from tests.tui.helpers import (
    number_picked,
    open_designer,
    palette_found,
    play_first_level,
    wait_until,
)
from tui.app import ArcadeApp
from tui.games.termcraft.action_list import ActionList, ConstructEntry
from tui.games.termcraft.construct import ConstructModal
from tui.games.termcraft.dev_panel import DevPanel, format_term_for_editing, parse_field
from tui.games.termcraft.screen import TermCraftScreen
from tui.games.termcraft.term_tree import (
    AUTO_EXPAND_NODES,
    CHUNK,
    MAX_DEPTH,
    MoreData,
    NodeData,
    TermTree,
    ZoomData,
)
from tui.modals.choice import ChoiceModal
from tui.modals.confirm import ConfirmModal
from tui.modals.export import ExportModal
from tui.modals.outcome import OutcomeModal, par_verdict
from tui.modals.text_view import TextModal
from tui.screens.level_select import LevelSelectScreen
from tui.sources import LevelRef

pytestmark = pytest.mark.pilot

GAME_ID = "termcraft"

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


def ref_of(index: int = 0) -> LevelRef:
    pack_id, pack = first_pack()
    return LevelRef(f"pack:{pack_id}", pack.levels[index].title)


async def open_first_level(pilot) -> TermCraftScreen:
    """From the home screen: start TermCraft, then play the first level (enter)."""
    screen = await play_first_level(pilot, GAME_ID)
    assert isinstance(screen, TermCraftScreen)
    return screen


def entry_index(screen: TermCraftScreen, site: tuple[int, ...], replacement: str) -> int:
    """Index of the rewrite at ``site`` producing ``replacement`` in the action list."""
    entries = screen.query_one(ActionList).entries
    for index, entry in enumerate(entries):
        if (
            isinstance(entry, RewriteAction)
            and entry.site == site
            and to_str(entry.replacement) == replacement
        ):
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
        assert isinstance(app.screen, OutcomeModal) and app.screen.kind == "won"
        assert "3 moves" in app.screen.detail
        ref = ref_of(0)
        assert ref.key in app.store.solved_levels(GAME_ID, ref.source)
        saved = app.store.saves(GAME_ID)
        assert [(s.slot, s.summary["status"]) for s in saved] == [(ref.slot, "won")]
        # Next level from the win dialog.
        await pilot.press("n")
        await pilot.pause()
        assert app.screen is screen
        assert screen.level.title == first_pack()[1].levels[1].title
        assert screen.session.moves_made == 0


async def test_undo_redo_and_restart_that_can_be_undone() -> None:
    """Regression: R restarted without asking and could not be undone."""
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
        assert screen.state == start and screen.session.moves_made == 0
        await pilot.press("u")  # the restart itself is undone
        assert screen.state is after and screen.session.moves_made == 1


async def test_game_in_progress_is_saved_and_resumed_with_its_history() -> None:
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_first_level(pilot)
        await choose(pilot, screen, entry_index(screen, (3, 0), "rev_pair(green,apple)"))
        expected = screen.state
        saved = app.store.load_game(GAME_ID, ref_of(0).slot)
        assert saved is not None and len(saved["session"]["moves"]) == 1
        await pilot.press("escape")  # back to the level list
        await pilot.pause()
        assert isinstance(app.screen, LevelSelectScreen)
    app2 = ArcadeApp()
    async with app2.run_test(size=SIZE) as pilot:
        app2.start_game(GAME_ID)  # resumes the newest game in progress on top of the list
        await pilot.pause()
        screen = app2.screen
        assert isinstance(screen, TermCraftScreen)
        assert screen.state == expected and screen.session.moves_made == 1
        await pilot.press("u")  # the resumed history can be undone to the start
        assert to_str(screen.state.term) == SAMPLE_CURRENT
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app2.screen, LevelSelectScreen)


async def test_choosing_another_level_keeps_the_first_levels_game() -> None:
    """Regression: one save slot; choosing another level silently discarded the game."""
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_first_level(pilot)
        await choose(pilot, screen, entry_index(screen, (3, 0), "rev_pair(green,apple)"))
        first_state = screen.state
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("down", "enter")  # the second level of the pack
        await pilot.pause()
        second = app.screen
        assert isinstance(second, TermCraftScreen)
        assert second.level.title == first_pack()[1].levels[1].title
        await pilot.press("1")  # play its first numbered move
        await number_picked(pilot, second)
        assert second.session.moves_made == 1
        await pilot.press("escape")
        await pilot.pause()
        select = app.screen
        assert isinstance(select, LevelSelectScreen)
        await pilot.press("up", "enter")  # back to the first level: its game is there
        await pilot.pause()
        again = app.screen
        assert isinstance(again, TermCraftScreen) and again.state == first_state
        slots = {info.slot for info in app.store.saves(GAME_ID)}
        assert {ref_of(0).slot, ref_of(1).slot} <= slots


async def test_level_list_shows_progress_solved_and_best_against_par() -> None:
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_first_level(pilot)
        await choose(pilot, screen, entry_index(screen, (3, 0), "rev_pair(green,apple)"))
        await pilot.press("escape")
        await pilot.pause()
        select = app.screen
        assert isinstance(select, LevelSelectScreen)
        levels = select.query_one("#levels")
        row = str(levels.get_option_at_index(0).prompt)
        assert row.startswith("…") and "in progress, 1 move" in row
        app.store.mark_solved(GAME_ID, ref_of(1).source, ref_of(1).key, 4)
        select.on_screen_resume()
        row = str(levels.get_option_at_index(1).prompt)
        par = first_pack()[1].levels[1].par
        assert row.startswith("✓") and f"best 4 moves (par {par})" in row


def test_move_json_round_trip_replays_the_same_state() -> None:
    _, pack = first_pack()
    level = pack.levels[0]
    state = State.from_level(level)
    from core.termcraft import apply

    action = next(a for a in rewrite_actions(state) if a.site == (3, 0))
    assert move_from_json(state, move_to_json(action)) == action
    assert GAME.apply(state, move_from_json(state, move_to_json(action))) == apply(state, action)
    built = ConstructAction((4, 0), const("done"))
    assert move_from_json(state, move_to_json(built)) == built
    assert move_to_json(built) == {"kind": "construct", "site": [4, 0], "term": "done"}


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
        assert app.screen is screen and screen.session.moves_made == 0


async def open_editor(pilot) -> DevPanel:
    """Press E on the level being played: the level editor opens over it (asserted)."""
    panel = await open_designer(pilot, DevPanel)
    return panel


async def test_editor_edits_the_level_not_the_game_in_progress() -> None:
    """Regression: "Save level…" saved the game in progress (fuel spent, mid-game term)."""
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_first_level(pilot)
        await choose(pilot, screen, entry_index(screen, (3, 0), "rev_pair(green,apple)"))
        panel = await open_editor(pilot)
        assert panel.read_level() == screen.level  # the level as designed, not the game
        await pilot.press("f9")  # explicitly: start from the current position
        await pilot.pause()
        edited = panel.read_level()
        assert edited.current is screen.state.term and edited.fuel == screen.state.fuel


async def test_editor_reports_errors_then_plays_the_level_kept_in_my_levels() -> None:
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_first_level(pilot)
        panel = await open_editor(pilot)
        area = panel.query_one("#dev-current-term-input", TextArea)
        area.text = "puzzle_state(\n  data(a,,b)\n)"
        await pilot.press("f2")
        await pilot.pause()
        assert app.screen is panel  # not played
        assert panel.error_text.startswith("starting term:2:10: unexpected ','")
        assert area.cursor_location == (1, 9)
        panel.query_one("#dev-fuel-input", Input).value = ""
        await pilot.press("f2")
        assert "Fuel must be a non-negative integer" in panel.error_text
        panel.query_one("#dev-fuel-input", Input).value = "1"
        panel.query_one("#dev-title-input", Input).value = "Tiny"
        # The right par, so the live verdict (which may or may not have finished by F2)
        # has no stale par to offer: the play is the same either way.
        panel.query_one("#dev-par-input", Input).value = "1"
        area.text = "puzzle_state(\n  rewrite(a, b),\n  data(a)\n)"
        panel.query_one(
            "#dev-target-term-input", TextArea
        ).text = "puzzle_state(rewrite(a,b),data(b))"
        await pilot.press("f2")
        await pilot.pause()
        assert app.screen is screen
        assert to_str(screen.state.term) == "puzzle_state(rewrite(a,b),data(a))"
        assert screen.ref.source == "mine" and screen.session.moves_made == 0
        mine = app.store.my_levels(GAME_ID)
        assert [m.title for m in mine] == ["Tiny"]
        # The edited level plays and its progress is saved in its own slot.
        await choose(pilot, screen, entry_index(screen, (1, 0), "b"))
        assert isinstance(app.screen, OutcomeModal) and app.screen.kind == "won"
        assert "Tiny" in app.store.solved_levels(GAME_ID, "mine") or str(
            mine[0].id
        ) in app.store.solved_levels(GAME_ID, "mine")


async def test_editor_close_with_unsaved_edits_asks_first() -> None:
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        await open_first_level(pilot)
        panel = await open_editor(pilot)
        panel.query_one("#dev-title-input", Input).value = "Changed"
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmModal)
        await pilot.press("n")
        await pilot.pause()
        assert app.screen is panel


async def _editor_with_edits(pilot) -> DevPanel:
    """Open the editor on the first level and type an unsaved change into its title."""
    await open_first_level(pilot)
    panel = await open_editor(pilot)
    panel.query_one("#dev-title-input", Input).value = "Changed"
    await pilot.pause()
    assert panel.edited
    return panel


async def test_editor_quit_with_unsaved_edits_asks_about_the_edits() -> None:
    """Regression (issue 17): ctrl+q only asked about the (saved) game and dropped the edits."""
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        panel = await _editor_with_edits(pilot)
        await pilot.press("ctrl+q")
        await pilot.pause()
        modal = app.screen
        assert isinstance(modal, ConfirmModal)
        assert "unsaved edits" in modal.message and "F3" in modal.message
        await pilot.press("n")  # keep editing
        await pilot.pause()
        assert app.screen is panel and app.return_code is None
        assert panel.query_one("#dev-title-input", Input).value == "Changed"
        await pilot.press("ctrl+q")
        await pilot.pause()
        await pilot.press("y")  # lose them, knowingly
        await pilot.pause()
        assert app.return_code == 0


async def test_editor_palette_commands_that_leave_ask_about_the_edits() -> None:
    """Opening another game from the command palette closed the editor without asking."""
    from tui.commands import play

    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        panel = await _editor_with_edits(pilot)
        play(app, "game2048")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmModal)
        await pilot.press("n")
        await pilot.pause()
        assert app.screen is panel


async def test_editor_current_position_is_undone_by_ctrl_z() -> None:
    """Regression (issue 17): F9 replaced edited fields and ctrl+z did not bring them back."""
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_first_level(pilot)
        await choose(pilot, screen, entry_index(screen, (3, 0), "rev_pair(green,apple)"))
        panel = await open_editor(pilot)
        area = panel.query_one("#dev-current-term-input", TextArea)
        area.focus()
        area.replace("puzzle_state(data(mine))", area.document.start, area.document.end)
        panel.query_one("#dev-fuel-input", Input).value = "7"
        await pilot.pause()
        typed = panel.field_values()
        await pilot.press("f9")
        await pilot.pause()
        assert "ctrl+z" in panel.error_text
        assert panel.read_level().current is screen.state.term
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert panel.field_values() == typed  # every field as it was typed
        assert area.text == "puzzle_state(data(mine))"
        await pilot.press("ctrl+y")  # and redone
        await pilot.pause()
        assert panel.read_level().current is screen.state.term


async def test_editor_ctrl_z_still_undoes_typing_in_a_term_field() -> None:
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        await open_first_level(pilot)
        panel = await open_editor(pilot)
        area = panel.query_one("#dev-current-term-input", TextArea)
        before = area.text
        area.focus()
        await pilot.press("end", "x")
        await pilot.pause()
        assert area.text != before
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert area.text == before


async def test_editor_buttons_fit_at_80x24() -> None:
    """Issue 17: the button row was cut at 80 columns (Close was off screen)."""
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        await open_first_level(pilot)
        panel = await open_editor(pilot)
        row = panel.query_one("#dev-buttons")
        for button in row.query(Button):
            if button.display:
                region = button.region
                assert region.width > 0 and region.right <= row.region.right, button.id


async def _export(pilot, path_text: str) -> ExportModal:
    app = pilot.app
    await pilot.press("E")
    await pilot.pause()
    await pilot.press("f8")
    await pilot.pause()
    modal = app.screen
    assert isinstance(modal, ExportModal)
    modal.query_one("#export-path", Input).value = path_text
    await pilot.pause()
    return modal


async def test_export_never_overwrites_a_pack_without_asking(tmp_path, monkeypatch) -> None:
    """Regression: "Save level…" overwrote a 7-level pack with one level without asking."""
    monkeypatch.setenv("HOME", str(tmp_path))
    _pack_id, pack = bundled_packs(GAME_ID)[0]
    target = tmp_path / "mine.levels"
    from grammar.levels import dump_pack

    target.write_text(dump_pack(pack), encoding="utf-8")
    before = target.read_text(encoding="utf-8")
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        await open_first_level(pilot)
        modal = await _export(pilot, "~/mine.levels")
        shown = str(modal.query_one("#export-resolved").render())
        assert str(target) in shown  # the full path, ~ expanded
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceModal)
        await pilot.press("c")  # cancel: nothing written
        await pilot.pause()
        assert target.read_text(encoding="utf-8") == before
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("a")  # append: the level of the same title is replaced in place
        await pilot.pause()
        after = load_pack_file(target)
        assert len(after.levels) == len(pack.levels)
        assert [lvl.title for lvl in after.levels] == [lvl.title for lvl in pack.levels]


async def test_export_resolves_relative_paths_from_home_and_uses_the_umask(
    tmp_path, monkeypatch
) -> None:
    """Regression: paths were relative to the app's start folder; files were created 0600."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(tmp_path)
    old = os.umask(0o022)
    try:
        app = ArcadeApp()
        async with app.run_test(size=SIZE) as pilot:
            await open_first_level(pilot)
            await _export(pilot, "levels/first.levels")
            (home / "levels").mkdir()
            await pilot.press("enter")
            await pilot.pause()
            written = home / "levels" / "first.levels"
            assert written.exists() and not (tmp_path / "levels").exists()
            assert written.stat().st_mode & 0o777 == 0o644
            assert len(load_pack_file(written).levels) == 1
    finally:
        os.umask(old)


async def test_export_errors_name_the_users_path(tmp_path, monkeypatch) -> None:
    """Regression: errors showed internal temp-file names."""
    monkeypatch.setenv("HOME", str(tmp_path))
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        await open_first_level(pilot)
        modal = await _export(pilot, "no-such-folder/x.levels")
        await pilot.press("enter")
        await pilot.pause()
        error = str(modal.query_one("#export-error").render())
        assert str(tmp_path / "no-such-folder" / "x.levels") in error and ".tmp" not in error


async def test_solve_and_lint_in_the_editor() -> None:
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        await open_first_level(pilot)
        panel = await open_editor(pilot)
        await pilot.press("f4")
        await app.workers.wait_for_complete()
        await pilot.pause()
        # The seed's hand-worked solution has 3 moves and no shorter one exists.
        assert panel.result_text.startswith("Solvable: shortest plan has 3 moves")
        await pilot.press("f5")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert panel.result_text and "error" not in panel.result_text.split("\n")[0]


async def test_tip_shows_hint_then_solver_move() -> None:
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_first_level(pilot)
        await pilot.press("t")
        assert screen.tip_stage == 1 and screen.last_message.startswith("Hint:")
        listing = screen.query_one(ActionList)
        await pilot.press("t")
        await app.workers.wait_for_complete()
        await pilot.pause()
        entry = listing.current_entry
        # The first move of every shortest plan must be one of the three solution moves.
        if isinstance(entry, RewriteAction):
            assert (entry.site, to_str(entry.replacement)) in {
                ((3, 0), "rev_pair(green,apple)"),
                ((3, 0, 0), "blue"),
            }
        else:
            assert entry == ConstructEntry((4, 0))


async def test_digits_pick_the_numbered_rewrites_as_the_cli_numbers_them() -> None:
    """Regression: the app numbered from 1, the CLI from 0, and digit keys did nothing."""
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_first_level(pilot)
        start = screen.state
        numbered = rewrite_actions(start)
        assert len(numbered) >= 2
        await pilot.press("2")
        await number_picked(pilot, screen)  # a second digit could still follow
        assert screen.state == GAME.apply(start, numbered[1])
        listing = screen.query_one(ActionList)
        assert str(listing.get_option_at_index(0).prompt).lstrip().startswith("1.")


async def test_next_level_is_capital_n() -> None:
    """Regression: TermCraft bound n for the next level where SPEC says N."""
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_first_level(pilot)
        await pilot.press("n")
        assert screen.level.title == first_pack()[1].levels[0].title
        await pilot.press("N")
        await pilot.pause()
        assert screen.level.title == first_pack()[1].levels[1].title


async def test_every_warning_is_reachable_at_80x24() -> None:
    """Regression: only the first ignored-rule warning showed at 80×24."""
    from core.termcraft import Level, warnings
    from tests.tui.helpers import open_level

    term = parse_term(
        "puzzle_state(rewrite(a), rewrite(b,var(X)), equiv(c,var(Y)), "
        "equiv(d), rewrite(e,f,g), data(a))"
    )
    level = Level("Warned", term, parse_term("x"), 1, 0)
    found = warnings(term)
    assert len(found) == 5
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_level(pilot, GAME_ID, level)
        line = str(screen.query_one("#tc-resources").render())
        assert "5 warnings" in line
        await pilot.press("W")
        await pilot.pause()
        modal = app.screen
        assert isinstance(modal, TextModal)
        assert all(w in modal.body.plain for w in found)


async def test_messages_never_cover_the_action_list() -> None:
    """Regression: notifications covered the action list at 80×24."""
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_first_level(pilot)
        await pilot.press("u", "U", "t", "9")
        await number_picked(pilot, screen)
        assert not list(app._notifications)
        assert screen.last_message


async def test_command_palette_offers_the_screens_actions() -> None:
    """Regression: ctrl+p offered only Textual's defaults; "undo" found nothing."""
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_first_level(pilot)
        titles = {command.title for command in app.get_system_commands(screen)}
        assert {"Undo", "Redo", "Restart", "Tip", "Construct", "Editor", "Back"} <= titles
        await choose(pilot, screen, entry_index(screen, (3, 0), "rev_pair(green,apple)"))
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"undo")
        await palette_found(pilot, "Undo")
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.screen is screen, "the palette to close")
        await wait_until(pilot, lambda: screen.session.moves_made == 0, "the undo to run")
        assert screen.session.moves_made == 0


async def test_long_targets_wrap_between_arguments_and_show_the_difference() -> None:
    from core.termcraft import Level
    from tests.tui.helpers import open_level

    args = ", ".join(f"item{i}(value{i})" for i in range(30))
    current = parse_term(f"data({args})")
    target = parse_term(f"data({args.replace('value7', 'other7')})")
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_level(pilot, GAME_ID, Level("Long", current, target, 1, 0))
        from rich.console import Console

        view = screen.query_one("#tc-target")
        lines = [line.plain.rstrip() for line in view.text.wrap(Console(), view.size.width)]
        assert len(lines) >= 2 and view.size.width < 80
        assert all(line.endswith((",", ")")) for line in lines)  # cut only between arguments
        await pilot.press("T")
        await pilot.pause()
        modal = app.screen
        assert isinstance(modal, TextModal)
        marked = [modal.body.plain[span.start : span.end] for span in modal.body.spans]
        assert marked == ["other7"]


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
        # Revealing a far child loads its chunk only, with "… N more" gaps around it.
        node = tree.reveal((5_432, 0))
        assert node is not None and node.data.term == const("c5432")
        assert len(tree.root.children) == 2 * CHUNK + 2
        gaps = [c.data for c in tree.root.children if isinstance(c.data, MoreData)]
        assert [(g.start, g.stop) for g in gaps] == [(CHUNK, 5_400), (5_500, 20_000)]
        assert tree.root.children[CHUNK].label.plain == f"… {5_400 - CHUNK:,} more (enter)"
        # Choosing a gap loads its first chunk, where it stands.
        tree.move_cursor(tree.root.children[CHUNK])
        await pilot.press("enter")
        assert tree.cursor_path == (CHUNK,)
        assert [c.data.path for c in tree.root.children[CHUNK - 1 : CHUNK + 1]] == [
            (CHUNK - 1,),
            (CHUNK,),
        ]
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


# -- big positions: paged list, background count, cancel ------------------------------------


def big_level(n_nodes: int = 20_000, seed: int = 12):
    """A seeded level of about ``n_nodes`` nodes with thousands of rewrite actions."""
    import random

    from core.termcraft import Level
    from core.termcraft.terms import var

    rng = random.Random(seed)
    consts = [const(f"c{i}") for i in range(40)]

    def ground(depth: int):
        if depth <= 0 or rng.random() < 0.25:
            return rng.choice(consts)
        name, arity = rng.choice((("f", 1), ("g", 2), ("pair", 2)))
        return compound(name, tuple(ground(depth - 1) for _ in range(arity)))

    x, y = var("X"), var("Y")
    items = [
        compound("rewrite", (compound("pair", (x, y)), compound("pair", (y, x)))),
        compound("rewrite", (compound("f", (x,)), compound("g", (x, x)))),
        compound("equiv", (consts[0], consts[1])),
    ]
    total = sum(item.size for item in items)
    while total < n_nodes:
        item = compound("data", (ground(rng.randint(2, 6)),))
        items.append(item)
        total += item.size
    return Level("Big", compound("puzzle_state", tuple(items)), const("goal"), 5, 0)


@pytest.mark.slow
async def test_big_position_lists_a_page_then_counts_then_plays(monkeypatch) -> None:
    """Forced off the UI thread (no synchronous budget): the list shows the first page, then
    the total; moving down loads the next page; enter and a far digit play moves."""
    from core.termcraft import count_rewrite_actions, nth_rewrite_action
    from tests.tui.helpers import open_level
    from tui.games.termcraft.action_list import PAGE

    monkeypatch.setattr(TermCraftScreen, "SYNC_BUDGET", 0.0)
    level = big_level()
    start = State.from_level(level)
    total = count_rewrite_actions(start)
    assert total > 2 * PAGE
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_level(pilot, GAME_ID, level)
        await app.workers.wait_for_complete()
        await pilot.pause()
        listing = screen.query_one(ActionList)
        # The count runs in the background: wait for its total, not for a moment.
        await wait_until(pilot, lambda: listing.total == total, "the count's total")
        assert list(listing.rewrites) == [nth_rewrite_action(start, i) for i in range(PAGE)]
        assert listing.total == total and not listing.complete
        more_line = str(listing.get_option_at_index(PAGE).prompt)
        assert f"{total - PAGE:,} more of {total:,}" in more_line
        assert screen.query_one("#tc-side").border_title == f"Actions: {PAGE} of {total:,}"
        # Moving down towards the end of the page loads the next one, in order.
        listing.focus()
        listing.highlighted = PAGE - 1
        await pilot.pause()
        await app.workers.wait_for_complete()
        await wait_until(pilot, lambda: len(listing.rewrites) >= 2 * PAGE, "the next page")
        assert len(listing.rewrites) == 2 * PAGE
        assert listing.rewrites[PAGE] == nth_rewrite_action(start, PAGE)
        assert listing.highlighted == PAGE - 1
        # Enter plays the highlighted action through the session.
        chosen = listing.current_entry
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await wait_until(pilot, lambda: screen.session.moves_made == 1, "the move played")
        assert screen.state == GAME.apply(start, chosen)
        assert screen.session.moves_made == 1
        # A number beyond the loaded page is found by the engine and played.
        after = screen.state
        await pilot.press("u")
        await app.workers.wait_for_complete()
        await wait_until(pilot, lambda: screen.state == start, "the undo")
        assert screen.state == start
        await pilot.press("2", "5", "0")
        await number_picked(pilot, screen)
        await app.workers.wait_for_complete()
        await wait_until(pilot, lambda: screen.state != start, "move 250 played")
        assert screen.state == GAME.apply(start, nth_rewrite_action(start, 249))
        assert screen.state != after


@pytest.mark.slow
async def test_a_far_action_number_is_found_in_the_background_and_played(monkeypatch) -> None:
    """With no time to look on the UI thread, digits beyond the loaded page start a worker
    that finds the action (in engine order, as the CLI numbers it) and plays it; a number
    past the end is refused once counted."""
    from core.termcraft import count_rewrite_actions, nth_rewrite_action
    from tests.tui.helpers import open_level

    monkeypatch.setattr(TermCraftScreen, "SYNC_BUDGET", 0.0)
    monkeypatch.setattr(TermCraftScreen, "NTH_BUDGET", 0.0)
    looked_for: list[int] = []
    find = TermCraftScreen._find_worker

    def spied_find(self, state, number):
        looked_for.append(number)
        return find(self, state, number)

    monkeypatch.setattr(TermCraftScreen, "_find_worker", spied_find)
    level = big_level()
    start = State.from_level(level)
    total = count_rewrite_actions(start)
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_level(pilot, GAME_ID, level)
        listing = screen.query_one(ActionList)
        await wait_until(pilot, lambda: listing.total == total, "the count's total")
        await pilot.press("3", "0", "0")
        await number_picked(pilot, screen)
        await app.workers.wait_for_complete()
        await wait_until(pilot, lambda: screen.state != start, "action 300 played")
        assert screen.state == GAME.apply(start, nth_rewrite_action(start, 299))
        assert screen.session.moves_made == 1
        assert looked_for == [300]


async def test_a_long_count_shows_work_and_is_cancelled_by_x(monkeypatch) -> None:
    """A count that would not end shows on the work line; x stops it and the list stays."""
    import threading

    import tui.games.termcraft.screen as screen_module
    from tests.tui.helpers import open_level

    started = threading.Event()

    def endless_count(state, watch):
        started.set()
        while True:
            watch.poll("count", 0, 0)
            threading.Event().wait(0.005)

    monkeypatch.setattr(screen_module, "count_rewrite_actions", endless_count)
    level = big_level(5_000)
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_level(pilot, GAME_ID, level)
        await pilot.pause()
        assert started.wait(60)
        work = screen.query_one("#tc-work")
        await wait_until(
            pilot, lambda: work.display and "counting" in str(work.render()), "the work line"
        )
        assert work.display and "counting" in str(work.render())
        assert "of ? (counting…)" in screen.query_one("#tc-side").border_title
        assert screen.check_action("cancel_work", ()) is True
        await pilot.press("x")
        await app.workers.wait_for_complete()
        await wait_until(
            pilot,
            lambda: "count cancelled" in screen.query_one("#tc-side").border_title,
            "the side panel to say the count was cancelled",
        )
        assert "count cancelled" in screen.query_one("#tc-side").border_title
        assert not screen.query_one("#tc-work").display
        assert screen.last_message.startswith("Cancelled the count")
        # The loaded page still plays.
        before = screen.state
        await pilot.press("enter")
        await pilot.pause()
        assert screen.state is not before and screen.session.moves_made == 1


def test_move_json_decodes_without_listing_the_actions() -> None:
    """Regression: decoding a saved rewrite listed every action of the position (1 s per move
    at 100k nodes, never ending with billions of actions); every action still round-trips."""
    from core.termcraft import IllegalMove as Illegal

    state = State.from_level(big_level(3_000))
    actions = rewrite_actions(state)
    assert len(actions) > 500
    for action in actions:
        assert move_from_json(state, move_to_json(action)) == action
    good = move_to_json(actions[0])
    for bad in (
        {**good, "sigma": {"X": "("}},
        {**good, "sigma": {}},
        {**good, "rule": [0, 0, 9]},
        {**good, "site": [0]},
        {**good, "sigma": {"X": "var(X)", "Y": "a"}},
    ):
        with pytest.raises(Illegal):
            move_from_json(state, bad)
    with pytest.raises(Illegal):
        move_from_json(State(state.term, state.target, 0, 0), good)


async def test_action_list_pages_and_total_without_the_screen() -> None:
    """The widget alone: a partial first page, the more line, a page appended after it
    (constructs stay last), and a total equal to what is loaded closes the list."""
    from textual.app import App, ComposeResult

    state = State.from_level(big_level(3_000))
    actions = rewrite_actions(state)

    wanted = []

    class ListApp(App):
        def compose(self) -> ComposeResult:
            yield ActionList()

        def on_action_list_more_wanted(self, event: ActionList.MoreWanted) -> None:
            wanted.append(len(event.listing.rewrites))

    app = ListApp()
    async with app.run_test(size=SIZE) as pilot:
        listing = app.query_one(ActionList)
        listing.show_actions(state.term, actions[:10], [(9,)], 3, complete=False)
        await pilot.pause()
        assert listing.entries[10] is None and listing.entries[11] == ConstructEntry((9,))
        # The cursor is near the end of what is loaded: the list asks for more at once.
        assert wanted == [10] and listing.loading
        assert str(listing.get_option_at_index(10).prompt) == "… more: loading…"
        listing.set_total(20)
        assert str(listing.get_option_at_index(10).prompt) == "… 10 more of 20: loading…"
        listing.highlighted = 11
        listing.add_rewrites(actions[10:20], complete=False)
        assert listing.rewrites == list(actions[:20])
        assert listing.current_entry == ConstructEntry((9,))  # the highlight followed it
        listing.set_total(20)
        await pilot.pause()
        assert listing.complete and None not in listing.entries
        assert listing.entries == list(actions[:20]) + [ConstructEntry((9,))]


async def test_digits_name_actions_and_undo_redo_words_do_not_stay(monkeypatch) -> None:
    """Digits pick an action of the list ("Action 1: …", not a move count); "Redone." goes
    away at the next move and after a few seconds, like other acknowledgements."""
    from tui.screens.play import messages

    # Long enough that a busy machine's slow key presses do not outlast it.
    monkeypatch.setattr(messages, "TRANSIENT_SECONDS", 3.0)
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_first_level(pilot)
        await pilot.press("1")
        await number_picked(pilot, screen)  # a digit waits for a possible second one
        assert screen.session.moves_made == 1
        assert screen.last_message.startswith("Action 1: ")
        await pilot.press("u", "U")
        assert screen.last_message == "Redone."
        await choose(pilot, screen, 0)  # the next move
        assert screen.session.moves_made == 2 and screen.last_message != "Redone."
        await pilot.press("u", "U")
        assert screen.last_message == "Redone."
        await wait_until(pilot, lambda: screen.last_message == "", "TRANSIENT_SECONDS to pass")
        assert screen.last_message == ""
        assert "Redone." not in str(screen.query_one("MessageBar").render())


async def test_a_win_on_the_last_of_my_levels_offers_no_next_level() -> None:
    from tui.sources import level_to_text

    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        level = first_pack()[1].levels[0]
        mine = app.store.add_my_level(GAME_ID, "Only mine", level_to_text(GAME_ID, level))
        assert mine is not None
        app.start_game(GAME_ID)
        await pilot.pause()
        launcher = app.screen.launcher
        assert launcher.open(LevelRef("mine", str(mine.id)))
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TermCraftScreen)
        await choose(pilot, screen, entry_index(screen, (3, 0), "rev_pair(green,apple)"))
        await choose(pilot, screen, entry_index(screen, (3, 0, 1), "blue"))
        await pilot.press("c")
        await pilot.pause()
        await pilot.press(*"done", "enter")
        await pilot.pause()
        assert isinstance(app.screen, OutcomeModal) and "next" not in app.screen.choices
        await pilot.press("s")  # stay
        await pilot.pause()
        shown = screen.query_one(ActionList)._empty
        assert shown.startswith("Solved!") and "N: next" not in shown and "esc: levels" in shown


async def test_a_long_tip_wraps_on_the_message_line_instead_of_being_cut() -> None:
    """At 80×24 the solver's tip (60+ characters of term) is read in full, on up to three
    lines, as in Carving (one MessageBar for every game)."""
    from tui.screens.puzzle import MessageBar

    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_first_level(pilot)
        await pilot.press("t")  # the level's hint
        await pilot.pause()
        await pilot.press("t")  # the solver's next move
        await app.workers.wait_for_complete()
        await pilot.pause()
        tip = screen.last_message
        assert tip.startswith("Next move") and len(tip) > 78
        bar = screen.query_one(MessageBar)
        assert 2 <= bar.size.height <= 3
        shown = "".join(strip.text for strip in app.screen._compositor.render_strips())
        assert "".join(tip.split()) in "".join(shown.split())
