"""One screen test for every registered game, as ``tests/test_games_protocol.py`` is for engines.

Each game's screen is opened through the registry, on a level named by its ID (as ``termarcade
play ID`` and the ``I`` dialog open one), and played with seeded random legal moves of its
engine, each typed with the keys the screen declares for it (:meth:`PuzzleScreen.keys_for`).
After each move the screen's state must be the engine's ``apply`` of the previous state: the
engine is the judge, not the screen. Then ``u`` undoes, ``U`` redoes, ``R`` restarts and ``u``
undoes the restart; ``esc`` leaves, and opening the level again resumes the same game (state
and move count), whose last move ``u`` still undoes. A game that ends is restarted from its
outcome dialog and played on, so every game plays :data:`MOVES` moves by its keys.

A new game gets this test by registering and writing ``keys_for``: the toy game of
``tests/toygame`` runs it too, registered at run time.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from core import registry
from tests.toycore.engine import Level as ToyLevel
from tests.toygame import INFO as TOY
from tests.tui.every_game import choose, level_to_play
from tests.tui.helpers import wait_until
from tui.commands import open_resolved
from tui.ids import resolve_id
from tui.modals.outcome import OutcomeModal
from tui.screens.home import HomeScreen
from tui.screens.puzzle import PuzzleScreen

pytestmark = pytest.mark.pilot

SIZE = (80, 24)
SEED = 2026
"""Seed of the random move choices (and of the level choice: see ``level_to_play``)."""
MOVES = 10
"""Moves each game plays through its keys."""
WAIT = 30.0
"""Seconds a key's effect may take (a digit waits for a second one; TermCraft analyses): a
bound only a hang reaches, on a loaded 2-core machine too."""

GAMES = [info.id for info in registry.games() if info.playable] + [TOY.id]
"""Every playable game of the registry, and the toy game (registered by the test)."""
TOY_LEVELS = [ToyLevel("Shuffle", "4.321")]
"""The toy game has no bundled level nor a generator: a level of the test's own."""


def as_json(game: Any, state: Any) -> Any:
    """The engine's JSON of a state (what equality means across the codec and the screen)."""
    return game.state_to_json(state)


async def until(pilot: Any, done: Callable[[], bool], what: str) -> None:
    """Let the app run once, then until ``done()`` (fail after :data:`WAIT` seconds)."""
    await pilot.pause()
    await wait_until(pilot, done, what, timeout=WAIT)


async def open_level(pilot: Any, level_id: str) -> PuzzleScreen:
    """Open the level of ``level_id`` from the home screen, the way the app opens an ID (the
    game's level select, then the level on top: a saved game resumes)."""
    app = pilot.app
    await until(pilot, lambda: isinstance(app.screen, HomeScreen), "the home screen")
    open_resolved(app, resolve_id(level_id))
    await until(pilot, lambda: isinstance(app.screen, PuzzleScreen), "the game screen")
    screen = app.screen
    assert isinstance(screen, PuzzleScreen)
    await until(pilot, lambda: screen.is_mounted, "the game screen mounted")
    return screen


async def press(pilot: Any, screen: PuzzleScreen, binding_id: str, what: str) -> None:
    """Press the key of one of the base's bindings (undo, redo, restart, back) and let the
    session change."""
    before = screen.session
    await pilot.press(screen.binding_key(binding_id))
    await until(pilot, lambda: screen.session is not before, what)


@pytest.fixture
def toy():
    """The toy game, registered for the test (it is a game like the others meanwhile)."""
    with registry.register(TOY):
        yield TOY


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.slow
async def test_every_game_plays_by_its_keys_undoes_restarts_and_resumes(
    game_id: str, toy, arcade_app
) -> None:
    info = registry.get(game_id)
    assert info is not None and info.playable
    game = info.load("engine")
    level_id, level = level_to_play(info, SEED, TOY_LEVELS if game_id == TOY.id else ())
    start = as_json(game, game.initial(level))
    rng = random.Random(SEED)
    app = arcade_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_level(pilot, level_id)
        assert isinstance(screen, info.load("screen"))
        assert as_json(game, screen.state) == start

        played = 0
        previous = start
        for _ in range(2 * MOVES):  # a move or a restart per round; moves are counted below
            if played == MOVES:
                break
            state = screen.state
            typed: list[tuple[Any, tuple[str, ...]]] = []  # moves need not be hashable
            if not game.finished(state):
                for move in game.moves(state):
                    keys = tuple(screen.keys_for(move))
                    if keys:
                        typed.append((move, keys))
            if not typed:  # over (or nothing to type here): start again, as a player would
                assert screen.session.moves_made, f"{level_id}: no move to type from the start"
                await press(pilot, screen, "puzzle.restart", "the restart")
                assert as_json(game, screen.state) == start
                continue
            move = choose(rng, game, state, [move for move, _ in typed])
            keys = next(keys for candidate, keys in typed if candidate is move)
            expected = as_json(game, game.apply(state, move))
            count = screen.session.moves_made
            await pilot.press(*keys)
            await until(
                pilot,
                lambda before=state: screen.state is not before,
                f"{game.describe_move(state, move)} by {keys} "
                f"(the screen says {screen.last_message!r})",
            )
            assert as_json(game, screen.state) == expected, (move, keys)
            assert screen.session.moves_made == count + 1
            played += 1
            previous = as_json(game, state)
            if isinstance(app.screen, OutcomeModal):  # the move ended the game: stay
                await pilot.press(screen.binding_key("outcome.stay", OutcomeModal))
                await until(pilot, lambda: app.screen is screen, "the outcome dialog to close")
        assert played == MOVES, f"{level_id}: only {played} moves typed"  # never vacuous
        last, count = as_json(game, screen.state), screen.session.moves_made

        await press(pilot, screen, "puzzle.undo", "the undo")
        assert as_json(game, screen.state) == previous
        assert screen.session.moves_made == count - 1
        await press(pilot, screen, "puzzle.redo", "the redo")
        assert as_json(game, screen.state) == last
        await press(pilot, screen, "puzzle.restart", "the restart")
        assert as_json(game, screen.state) == start
        await press(pilot, screen, "puzzle.undo", "the undo of the restart")
        assert as_json(game, screen.state) == last

        await pilot.press(screen.binding_key("puzzle.back"))  # to the game's level select
        await until(pilot, lambda: not screen.is_attached, "the game screen to close")
        for _ in range(3):  # the level select, then home
            if isinstance(app.screen, HomeScreen):
                break
            await pilot.press("escape")
            await pilot.pause()
        again = await open_level(pilot, level_id)
        assert again is not screen
        assert as_json(game, again.state) == last
        assert again.session.moves_made == count
        await press(pilot, again, "puzzle.undo", "the undo after resuming")
        assert as_json(game, again.state) == previous


@pytest.mark.parametrize("game_id", GAMES)
async def test_the_base_mounts_each_game_screen_once(game_id: str, toy, arcade_app, monkeypatch):
    """Textual calls ``on_mount`` of every class along a screen's MRO: a game screen whose own
    ``on_mount`` called ``super().on_mount()`` ran the base's twice (TermCraft, Algebrawl and
    Carving did). Games write :meth:`PuzzleScreen.after_mount`, run once, after the base."""
    info = registry.get(game_id)
    assert info is not None
    level_id, _ = level_to_play(info, SEED, TOY_LEVELS if game_id == TOY.id else ())
    mounts: list[type] = []
    base_mount = PuzzleScreen.on_mount

    def on_mount(self: PuzzleScreen) -> None:
        mounts.append(type(self))
        base_mount(self)

    monkeypatch.setattr(PuzzleScreen, "on_mount", on_mount)
    async with arcade_app().run_test(size=SIZE) as pilot:
        screen = await open_level(pilot, level_id)
        await pilot.pause()
        assert mounts == [type(screen)]


async def test_keys_follow_the_players_keymap_and_an_unknown_binding_is_an_error(toy) -> None:
    from tests.toygame.screen import ToyScreen
    from tui.app import ArcadeApp
    from tui.store import KEYMAP_SETTING, Store

    store = Store()
    store.set_setting(KEYMAP_SETTING, {"toy.left": "y", "outcome.stay": "x"})
    level_id, level = level_to_play(TOY, SEED, TOY_LEVELS)
    app = ArcadeApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_level(pilot, level_id)
        assert screen.state.row == "4.321"
        assert screen.keys_for("left") == ("y",)  # the screen shown: Textual's active keys
        await pilot.press("y")
        await until(pilot, lambda: screen.state.row == "43.21", "the remapped slide")
        # A dialog's binding, not active yet: declared, then remapped by the keymap.
        assert screen.binding_key("outcome.stay", OutcomeModal) == "x"
        assert screen.binding_key("outcome.undo", OutcomeModal) == "u"
        with pytest.raises(LookupError):
            screen.binding_key("toy.up")  # a typo must not press nothing
        with pytest.raises(LookupError):
            screen.binding_key("toy.up", OutcomeModal)
    # Outside a running app (the terminal tour's screens): the declared keys.
    offline = ToyScreen(screen.session, level=level, info=TOY)
    assert offline.keys_for("left") == ("left",)
    assert offline.keys_for("right") == ("right",)
