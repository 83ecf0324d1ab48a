"""The designer's bench: every game's level editor, through the shared base.

For every registered game with an editor: ``E`` opens it on the level being played (not the
game in progress), a broken level shows the loader's message with a caret, closing with
unsaved edits asks, Save keeps the level in My levels, and Play plays the saved level. The
per-game editors' own parts (a painted grid, a live verdict) have their own tests.
"""

from __future__ import annotations

import pytest
from textual.widgets import TextArea

from core import registry
from grammar.levels import dump_level
from tests.tui.helpers import open_level, wait_until
from tests.tui.test_games_together import first_level
from tui.app import ArcadeApp
from tui.modals.confirm import ConfirmModal
from tui.screens.designer import DesignerScreen, LevelTextDesigner

pytestmark = pytest.mark.pilot

SIZE = (80, 24)

EDITORS = [info.id for info in registry.games() if info.editor is not None]


def test_every_playable_game_has_a_bench() -> None:
    playable = [info.id for info in registry.games() if info.playable]
    assert playable == EDITORS


async def _open_bench(pilot, game_id: str):
    app = pilot.app
    level = first_level(app, game_id)
    screen = await open_level(pilot, game_id, level)
    await pilot.press("E")
    await pilot.pause()
    bench = app.screen
    assert isinstance(bench, DesignerScreen), game_id
    assert game_id == bench.info.id == bench.game_id == bench.help_topic
    return screen, bench, level


@pytest.mark.parametrize("game_id", EDITORS)
async def test_the_bench_opens_on_the_level_and_closes_without_asking(game_id: str) -> None:
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen, bench, level = await _open_bench(pilot, game_id)
        assert not bench.edited
        assert bench.read_level() == level
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen


@pytest.mark.parametrize(
    "game_id", [g for g in EDITORS if issubclass(registry.get(g).load("editor"), LevelTextDesigner)]
)
async def test_a_broken_level_shows_a_caret_and_ctrl_z_mends_it(game_id: str) -> None:
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        _screen, bench, level = await _open_bench(pilot, game_id)
        area = bench.query_one("#dev-level-text", TextArea)
        area.focus()
        area.move_cursor((1, 0))
        # One key: the editor's undo joins keys typed close together in time into one step,
        # so two keys could need one ctrl+z or two depending on the machine's load.
        await pilot.press("end", "@")
        await pilot.pause()
        assert bench.read_level(quiet=True) is None
        assert "^" in bench.error_text and "<editor>:2:" in bench.error_text
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert bench.read_level() == level
        assert bench.error_text == ""


@pytest.mark.parametrize("game_id", EDITORS)
async def test_unsaved_edits_ask_before_closing_then_save_and_play(game_id: str) -> None:
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen, bench, level = await _open_bench(pilot, game_id)
        title = "Bench test level"
        if isinstance(bench, LevelTextDesigner):
            text = dump_level(level, game_id).replace(level.title, title, 1)
            bench.text_area.text = text
        else:
            from textual.widgets import Input

            bench.query_one("#dev-title-input", Input).value = title
        await pilot.pause()
        assert bench.edited
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmModal)
        await pilot.press("n")  # keep editing
        await pilot.pause()
        assert app.screen is bench
        await pilot.press("f2")  # save in My levels, then play it
        await pilot.pause()
        assert app.screen is screen
        assert screen.level_title == title
        assert screen.ref is not None and screen.ref.source == "mine"
        mine = app.store.my_levels(game_id)
        assert [item.title for item in mine] == [title]
        # ... and it travels as a custom ID, which names the very same level
        from tui.ids import level_id, resolve_id

        shared = level_id(game_id, None, screen.level)
        assert shared.startswith(f"{game_id}:L")
        assert resolve_id(shared).level == screen.level


async def _retitle(pilot, bench, game_id: str, level, title: str) -> None:
    if isinstance(bench, LevelTextDesigner):
        bench.text_area.text = dump_level(level, game_id).replace(level.title, title, 1)
    else:
        from textual.widgets import Input

        bench.query_one("#dev-title-input", Input).value = title
    await pilot.pause()


async def _until(pilot, done, what: str) -> None:
    await pilot.pause()
    await wait_until(pilot, done, what)  # was a 5 s bound: a busy machine failed it


@pytest.mark.parametrize("key", ["f2", "f3"])
@pytest.mark.parametrize("game_id", EDITORS)
@pytest.mark.slow
async def test_replacing_the_level_being_played_does_not_bring_its_old_game_back(
    game_id: str, key: str
) -> None:
    """Playing one of My levels, the player edits it and agrees to replace it ("its game in
    progress would be deleted"). Before, the game screen wrote the old game back into the
    level's slot (when switching to the new version with Play, or at its next save after
    Save and Close), so opening the level resumed the old version. Now the screen plays the
    new version, and the deleted game stays deleted."""
    from tui.modals.choice import ChoiceModal

    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen, bench, level = await _open_bench(pilot, game_id)
        await _retitle(pilot, bench, game_id, level, "Mine, first version")
        await pilot.press("f2")  # save in My levels and play it
        await _until(pilot, lambda: app.screen is screen, "the game screen")
        ref = screen.ref
        assert ref is not None and ref.source == "mine"
        game = screen.game
        move, keys = next(
            (m, tuple(screen.keys_for(m))) for m in game.moves(screen.state) if screen.keys_for(m)
        )
        await pilot.press(*keys)
        await _until(pilot, lambda: screen.session.moves_made == 1, f"the move {move}")
        assert app.store.load_game(game_id, ref.slot) is not None

        await pilot.press("E")
        await _until(pilot, lambda: isinstance(app.screen, DesignerScreen), "the editor")
        bench = app.screen
        await _retitle(pilot, bench, game_id, screen.level, "Mine, second version")
        await pilot.press(key)
        await _until(pilot, lambda: isinstance(app.screen, ChoiceModal), "the replace question")
        await pilot.press("r")  # replace: its game in progress is deleted
        if key == "f3":  # saved: close the editor
            await _until(pilot, lambda: app.screen is bench, "the editor again")
            await pilot.press("escape")
        await _until(pilot, lambda: app.screen is screen, "the game screen again")
        assert screen.ref == ref and screen.level_title == "Mine, second version"
        assert screen.session.moves_made == 0
        assert app.store.load_game(game_id, ref.slot) is None
        await pilot.press("escape")  # leaving saves nothing: the new game has no move
        await _until(pilot, lambda: app.screen is not screen, "the level list")
        assert app.store.load_game(game_id, ref.slot) is None
