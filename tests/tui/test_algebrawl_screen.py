"""Pilot tests of the Algebrawl screen: levels solved by keys, refusals, undo, hints, the
generator dialog; every check against the core."""

from __future__ import annotations

from typing import Any

import pytest

from core.algebrawl import (
    DIV,
    GAME,
    MUL,
    POISON_WIZARD,
    TRAITOR,
    Cast,
    PlayCard,
    Puzzle,
    Strike,
    hint,
    solution_moves,
    solve,
)
from core.algebrawl.generators import GENERATORS
from core.algebrawl.level import Level
from core.algebrawl.par import shortest
from grammar.levels import bundled_packs
from tests.tui.helpers import open_level
from tui.app import ArcadeApp
from tui.games.algebrawl.board import SECTIONS, AstView, BrawlBoard
from tui.games.algebrawl.generator_modal import GeneratorModal, read_choice
from tui.games.algebrawl.screen import GENERATOR_KEY, AlgebrawlScreen, generator_settings
from tui.modals.outcome import OutcomeModal

pytestmark = pytest.mark.pilot

PACKS = dict(bundled_packs("algebrawl"))


def level(pack: str, title: str) -> Level:
    return next(lv for lv in PACKS[pack].levels if lv.title == title)


async def go_to(pilot: Any, screen: AlgebrawlScreen, section: str, index: int) -> None:
    """Move the cursor with the arrow keys (never by setting it)."""
    now = SECTIONS.index(screen.cursor[0])
    want = SECTIONS.index(section)
    key = "down" if want > now else "up"
    for _ in range(abs(want - now)):
        await pilot.press(key)
    assert screen.cursor[0] == section
    step = "right" if index > screen.cursor[1] else "left"
    for _ in range(abs(index - screen.cursor[1])):
        await pilot.press(step)
    assert screen.cursor == (section, index)


async def play_by_keys(pilot: Any, screen: AlgebrawlScreen, move: Any) -> None:
    """Play a move the way a person does: cursor keys and enter."""
    if isinstance(move, PlayCard):
        await go_to(pilot, screen, "cards", move.card)
        await pilot.press("enter")
        for arg in move.args:
            await go_to(pilot, screen, "pool", arg)
            await pilot.press("enter")
    else:
        await go_to(pilot, screen, "pool", move.value)
        await pilot.press("enter")
        await go_to(pilot, screen, "monsters", move.target)
        await pilot.press("enter")
    await pilot.pause()


async def solve_by_keys(pilot: Any, screen: AlgebrawlScreen) -> None:
    best = shortest(screen.level.puzzle)
    for move in solution_moves(screen.state, best.strikes):
        before = screen.state
        await play_by_keys(pilot, screen, move)
        assert screen.state == GAME.apply(before, move)


@pytest.mark.parametrize("lv", PACKS["01-first-blood"].levels, ids=lambda lv: lv.title)
async def test_first_pack_levels_are_solved_by_keys_on_par(lv: Level) -> None:
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_level(pilot, "algebrawl", lv)
        await app.workers.wait_for_complete()
        await solve_by_keys(pilot, screen)
        assert screen.session.status == "won" and screen.session.moves_made == lv.par
        await pilot.pause()
        assert isinstance(app.screen, OutcomeModal)
        count = solve(lv.puzzle, count=True).count
        detail = screen.outcome_detail("won")
        assert "on par" in detail
        assert f"has {count} distinct solution" in detail


async def test_custom_cards_and_the_trees_of_the_pool() -> None:
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        lv = level("02-workshop", "Mean Streak")
        screen = await open_level(pilot, "algebrawl", lv)
        await play_by_keys(pilot, screen, PlayCard(0, (0, 1)))  # avg(3, 5) = 4
        assert [t.value for t in screen.state.pool] == [4, 9, 5]
        shown = screen.query_one(AstView).shown_text
        assert "4 = avg(3, 5)" in shown and "avg → 4" in shown
        assert "Played avg(3, 5) = 4." in screen.last_message
        await play_by_keys(pilot, screen, Strike(0, 0))
        assert screen.state.standing == (1,)
        assert "Monster 4 struck with avg(3, 5)" in screen.last_message


async def test_division_by_zero_is_refused_with_the_engines_message() -> None:
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        lv = Level("zero", Puzzle.of([5, 0, 2], [10], [DIV, MUL]))
        screen = await open_level(pilot, "algebrawl", lv)
        start = screen.state
        await play_by_keys(pilot, screen, PlayCard(0, (0, 1)))
        assert screen.state is start and screen.session.moves_made == 0
        assert screen.last_message == "Div: division by zero"
        assert screen.card == 0 and screen.args == []  # the card stays picked
        # The other way round is fine: 0 ÷ 5 = 0.
        for pos in (1, 0):
            await go_to(pilot, screen, "pool", pos)
            await pilot.press("enter")
        assert [t.value for t in screen.state.pool] == [0, 2]


async def test_whole_numbers_only_and_wrong_strikes_are_refused() -> None:
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        lv = level("02-workshop", "Whole Numbers Only")  # 9 9 6 4 -> 30
        screen = await open_level(pilot, "algebrawl", lv)
        start = screen.state
        await play_by_keys(pilot, screen, PlayCard(3, (0, 2)))  # 9 ÷ 6
        assert screen.state is start
        assert screen.last_message == "Only whole numbers are allowed here, not 3/2"
        await pilot.press("escape")  # drops the picked card, stays on the level
        assert screen.card is None and app.screen is screen
        await play_by_keys(pilot, screen, Strike(0, 0))  # 9 against 30
        assert screen.state is start and screen.last_message == "9 does not match the target 30"


async def test_undo_redo_and_restart() -> None:
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        lv = level("01-first-blood", "Both Barrels")
        screen = await open_level(pilot, "algebrawl", lv)
        start = screen.state
        await play_by_keys(pilot, screen, PlayCard(0, (0, 1)))
        after = screen.state
        assert after is not start
        await pilot.press("u")
        assert screen.state == start
        await pilot.press("U")
        assert screen.state == after
        await pilot.press("R")
        assert screen.state == start
        await pilot.press("ctrl+z")
        assert screen.state == after


async def test_a_lost_game_says_why() -> None:
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        lv = Level("lose", Puzzle.of([3, 4], [7], [MUL]))
        screen = await open_level(pilot, "algebrawl", lv)
        await play_by_keys(pilot, screen, PlayCard(0, (0, 1)))
        assert screen.session.status == "lost"
        assert isinstance(app.screen, OutcomeModal)
        assert screen.outcome_detail("lost").startswith("No card can be played")


async def test_hint_shows_the_levels_hint_then_a_next_step() -> None:
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        lv = level("03-boss-rush", "The Impossible Hand")
        screen = await open_level(pilot, "algebrawl", lv)
        await pilot.press("t")
        assert screen.last_message.startswith("Hint: 8 ÷ (1/3) is 24.")
        await pilot.press("t")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.last_message.startswith("Next step (4 moves to go): ")
        section, index = screen.cursor
        assert section == "cards" and lv.puzzle.cards[index] == DIV  # the way passes by ÷
        # Each further t gives the next step; playing them wins.
        for _ in range(4):
            await pilot.press("t")
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert screen.last_message.startswith("Next step")
            await play_by_keys(pilot, screen, hint(screen.state))
        assert screen.session.status == "won"


async def test_escape_and_backspace_drop_picks_before_leaving() -> None:
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        lv = level("01-first-blood", "Both Barrels")
        screen = await open_level(pilot, "algebrawl", lv)
        await pilot.press("plus")  # the + card by its key; its values come next
        assert screen.card == 0 and screen.cursor == ("pool", 0)
        await go_to(pilot, screen, "pool", 1)
        await pilot.press("enter")
        assert screen.args == [1]
        await pilot.press("backspace")
        assert screen.args == [] and screen.card == 0
        await pilot.press("escape")
        assert screen.card is None and app.screen is screen
        await pilot.press("escape")
        assert app.screen is not screen


async def test_the_cursor_goes_where_the_next_pick_is() -> None:
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        lv = level("01-first-blood", "Both Barrels")
        screen = await open_level(pilot, "algebrawl", lv)
        await go_to(pilot, screen, "pool", 0)
        await pilot.press("enter")  # a value first: it becomes the card's first argument
        await pilot.press("plus")
        assert screen.args == [0] and screen.cursor == ("pool", 1)
        await pilot.press("escape")
        await go_to(pilot, screen, "monsters", 0)
        await pilot.press("enter")  # a monster first: a value strikes it next
        assert screen.target == 0 and screen.cursor == ("pool", 0)


async def test_clicking_tiles_plays_too() -> None:
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        lv = level("01-first-blood", "First Blood")
        screen = await open_level(pilot, "algebrawl", lv)
        board = screen.query_one(BrawlBoard)

        async def click(section: str, pos: int) -> None:
            line, start, _, _, _ = next(r for r in board._regions if r[3:] == (section, pos))
            region = board.content_region
            await pilot.click(offset=(region.x + start + 1, region.y + line))

        await click("cards", 0)
        await click("pool", 0)
        await click("pool", 1)
        assert [t.value for t in screen.state.pool] == [7]
        await click("pool", 0)
        await click("monsters", 0)
        assert screen.session.status == "won"


async def test_a_generated_level_from_the_dialog_is_playable() -> None:
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_level(pilot, "algebrawl", level("01-first-blood", "First Blood"))
        await pilot.press("g")
        assert isinstance(app.screen, GeneratorModal)
        modal = app.screen
        for field, value in (("#gen-low", "4"), ("#gen-high", "7"), ("#gen-seed", "31")):
            modal.query_one(field).value = value
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is screen
        expected = GENERATORS["brawl"].generate(31, 4, 7)
        assert screen.level == expected
        assert screen.ref is not None and screen.ref.key == "31"
        assert generator_settings(app.store)["brawl"] == (4, 7)
        assert app.store.get_setting(GENERATOR_KEY, None)["generator"] == "brawl"
        await solve_by_keys(pilot, screen)
        assert screen.session.status == "won"


async def test_a_seed_typed_as_the_dialog_opens_is_the_seed() -> None:
    """Regression: the focus started on the band's low field, so typing a seed lost it."""
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_level(pilot, "algebrawl", level("01-first-blood", "First Blood"))
        await pilot.press("g")
        await pilot.pause()
        modal = app.screen
        assert isinstance(modal, GeneratorModal)
        low, high = modal.query_one("#gen-low").value, modal.query_one("#gen-high").value
        await pilot.press("3", "1", "enter")
        await pilot.pause()
        assert app.screen is screen and screen.ref is not None and screen.ref.key == "31"
        assert screen.level == GENERATORS["brawl"].generate(31, int(low), int(high))


async def test_the_generator_dialog_refuses_bad_bands() -> None:
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_level(pilot, "algebrawl", level("01-first-blood", "First Blood"))
        await pilot.press("g")
        modal = app.screen
        modal.query_one("#gen-low").value = "9"
        modal.query_one("#gen-high").value = "3"
        await pilot.press("ctrl+s")
        assert app.screen is modal
        assert "LOW <= HIGH" in str(modal.query_one("#gen-error").render())
        await pilot.press("escape")
        assert app.screen is screen and screen.level.title == "First Blood"
    with pytest.raises(ValueError, match="seed"):
        read_choice("brawl", "1", "2", "x")
    assert read_choice("24", "5", "9", "").seed is None


async def test_a_game_with_custom_cards_is_saved_and_resumed() -> None:
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        lv = level("03-boss-rush", "Fused Multiply-Add")
        screen = await open_level(pilot, "algebrawl", lv)
        await play_by_keys(pilot, screen, PlayCard(0, (0, 1, 2)))  # fma(4, 5, 6) = 26
        played = screen.state
        await pilot.press("escape")  # back: the game stays saved
        assert app.screen is not screen
        _ref, resumed_level, session, note = screen.launcher.prepare(screen.ref)
        assert resumed_level == lv and session.state == played
        assert note.startswith("Resumed your game")
        assert session.can_undo and session.undo().state == GAME.initial(lv)


async def play_cast_by_keys(pilot: Any, screen: AlgebrawlScreen, move: Any) -> None:
    """Cast a poison wizard (card, dose) or a traitor (card, ally, monster) by keys."""
    await go_to(pilot, screen, "cards", move.card)
    await pilot.press("enter")
    await go_to(pilot, screen, "pool", move.value)
    await pilot.press("enter")
    if move.target >= 0:
        await go_to(pilot, screen, "monsters", move.target)
        await pilot.press("enter")
    await pilot.pause()


@pytest.mark.parametrize(
    "lv",
    [
        Level("Poison", Puzzle.of([3, 2, 2], [3, 5, 2], cards=(POISON_WIZARD,))),
        Level("Traitor", Puzzle.of([9, 4], [5], cards=(TRAITOR, MUL))),
    ],
    ids=lambda lv: lv.title,
)
async def test_seed_002_casts_are_played_by_keys_and_shown(lv: Level) -> None:
    from tui.games.algebrawl.board import tiles_of

    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_level(pilot, "algebrawl", lv)
        await app.workers.wait_for_complete()
        moves = solve(lv.puzzle).moves
        assert moves and any(isinstance(m, Cast) for m in moves)
        for move in moves:
            before = screen.state
            await (play_cast_by_keys if isinstance(move, Cast) else play_by_keys)(
                pilot, screen, move
            )
            assert screen.state == GAME.apply(before, move)
            if isinstance(move, Cast):  # the monsters row shows the HP the cast left
                shown = [t.text for t in tiles_of(screen.state)["monsters"]]
                assert any(text.startswith("✗ 0") for text in shown), shown
        assert screen.session.status == "won"
        # Issue 29: cast cards are counted too; one way each, by hand (the dose 3, then two
        # strikes of 2; the traitor 9 defecting as 4, struck by the 4).
        assert screen.solution_count() == (1, True)
