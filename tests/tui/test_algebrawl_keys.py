"""Algebrawl's ``keys_for`` on the casts no bundled level has (seed 002's poison wizard and
traitor): the generic screen test (``test_every_game.py``) plays bundled levels only, so a
solution with casts is played here by the keys the screen declares, against the engine."""

from __future__ import annotations

import pytest

from core.algebrawl import MUL, POISON_WIZARD, TRAITOR, Cast, Puzzle, solve
from core.algebrawl.game import GAME
from core.algebrawl.level import Level
from tests.tui.helpers import open_level

pytestmark = pytest.mark.pilot


@pytest.mark.parametrize(
    "level",
    [
        Level("Poison", Puzzle.of([3, 2, 2], [3, 5, 2], cards=(POISON_WIZARD,))),
        Level("Traitor", Puzzle.of([9, 4], [5], cards=(TRAITOR, MUL))),
    ],
    ids=lambda level: level.title,
)
async def test_a_solution_with_casts_is_played_by_keys_for(level: Level, arcade_app) -> None:
    moves = solve(level.puzzle).moves
    assert moves and any(isinstance(move, Cast) for move in moves)
    app = arcade_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_level(pilot, "algebrawl", level)
        for move in moves:
            before = screen.state
            await pilot.press(*screen.keys_for(move))
            await pilot.pause()
            assert screen.state == GAME.apply(before, move), (move, screen.last_message)
        assert screen.session.status == "won"
