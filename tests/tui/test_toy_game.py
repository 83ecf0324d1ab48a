"""The seam, proved end to end with a game that exists only inside the tests.

Slide-1D (``tests/toygame``) writes its own engine, level grammar, puzzle screen, CLI group and
one registration, and edits nothing shared. Registered at run time, it appears on the home
screen and in ``termarcade --help``, its level file loads and plays in the puzzle screen base,
and it passes the shared protocol checks (``tests/test_games_protocol.py``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from core import registry
from tests.toygame import INFO
from tests.toygame.screen import ToyScreen
from tui.app import ArcadeApp
from tui.cli import main
from tui.modals.outcome import OutcomeModal
from tui.screens.home import HomeScreen
from tui.screens.level_select import LevelSelectScreen

LEVELS = Path(__file__).resolve().parents[1] / "toygame" / "levels.levels"

pytestmark = pytest.mark.pilot


@pytest.fixture
def toy():
    with registry.register(INFO):
        yield INFO


def test_toy_game_is_listed_by_the_cli_and_its_group_runs(toy) -> None:
    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0 and "toy" in result.output and "Slide-1D" in result.output
    result = CliRunner().invoke(main, ["toy", "rows", str(LEVELS)])
    assert result.exit_code == 0
    assert [json.loads(line) for line in result.output.splitlines()] == [
        {"level": 1, "row": "1.23"},
        {"level": 2, "row": ".123"},
    ]


async def test_toy_game_is_on_the_home_screen(toy) -> None:
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, HomeScreen)
        games = app.screen.query_one("#games")
        ids = [games.get_option_at_index(i).id for i in range(games.option_count)]
        assert ids[0] == "toy"  # order=5 puts it first
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, LevelSelectScreen)  # no bundled packs, no progress


async def test_toy_level_file_plays_in_the_puzzle_screen_base(toy) -> None:
    app = ArcadeApp(start_game="toy", level_file=str(LEVELS), level=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ToyScreen) and screen.level.title == "Slide"
        await pilot.press("right", "left")  # .123, then 1.23 again
        assert screen.state.row == "1.23" and screen.session.moves_made == 2
        await pilot.press("R")
        assert screen.session.moves_made == 0
        await pilot.press("u")
        assert screen.session.moves_made == 2
        await pilot.press("left", "left")
        await pilot.pause()
        assert isinstance(app.screen, OutcomeModal) and app.screen.kind == "won"
        assert "4 moves (par 2): 2 over par" in app.screen.detail
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, LevelSelectScreen)
        file_source = app.screen.launcher.sources.file
        assert file_source is not None and "Slide" in app.store.solved_levels("toy", file_source.id)


async def test_the_toy_help_page_comes_from_its_registration(toy) -> None:
    from tui.screens.help import load_help

    assert load_help("toy").startswith("# Slide-1D")


def test_toy_cli_speaks_the_shared_vocabulary(toy) -> None:
    """--level and the loader's errors are the arcade's, not the toy's own."""
    result = CliRunner().invoke(main, ["toy", "rows", str(LEVELS), "--level", "2"])
    assert result.exit_code == 0
    assert json.loads(result.output) == {"level": 2, "row": ".123"}
    result = CliRunner().invoke(main, ["toy", "rows", "no-such-pack"])
    assert result.exit_code == 2 and "Traceback" not in result.output


async def test_an_undo_into_a_past_that_no_longer_replays_says_so(toy) -> None:
    """A resumed game rebuilds its earlier states on the first undo; when the engine no
    longer replays the saved moves to the saved position, the player is told, not shown a
    different past in silence (core.session.Session.replay_problem)."""
    from core.session import Session

    app = ArcadeApp(start_game="toy", level_file=str(LEVELS), level=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ToyScreen) and screen.state.row == "1.23"
        game, start = screen.game, screen.session.start
        played = Session.begin(game, start).play("right").play("left").play("left")
        moves = ["left", "left", "left"]  # "left" from the start is not what was played
        screen.session = Session.resume(game, start, moves, len(moves), played.state)
        await pilot.pause()
        await pilot.press("u")
        assert "no longer replays" in screen.last_message
        assert "may not be the position you played" in screen.last_message
        played_here = screen.session  # the state shown is the replay's, the move count kept
        assert played_here.moves_made == 2
