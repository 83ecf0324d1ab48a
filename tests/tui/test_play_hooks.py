"""What a game screen gets for a hook it does not write (tui.screens.play.hooks.GameHooks):
the defaults the toy game, which writes almost none, plays with."""

from __future__ import annotations

from typing import Any

from core.session import Session
from tests.toycore.engine import GAME as TOY
from tests.toycore.engine import Level
from tests.toygame.screen import ToyScreen
from tui.screens.play.hints import Hint
from tui.screens.play.hooks import GameHooks
from tui.screens.puzzle import PuzzleScreen

GAME: Any = TOY  # the toy engine (typed looser than core.game.Game: status is str)


def test_the_base_screen_is_declared_with_the_hooks() -> None:
    assert issubclass(PuzzleScreen, GameHooks)
    above = PuzzleScreen.__mro__[: PuzzleScreen.__mro__.index(GameHooks)]
    hooks = [name for name in vars(GameHooks) if not name.startswith("_")]
    assert len(hooks) >= 18  # seven class attributes, eleven methods
    for name in hooks:  # the base does not redefine a hook: a game reads its default there
        assert not any(name in vars(klass) for klass in above), name


def test_a_game_that_writes_no_hook_gets_the_defaults() -> None:
    hooks = GameHooks()
    session = Session.begin(GAME, GAME.initial(Level("Slide", "1.23")))
    assert list(hooks.compose_board()) == []
    assert hooks.prepare_position(None) is True  # shown at once
    assert hooks.score(session) is None  # its result is its moves, not points
    assert hooks.loss_reason() is None
    assert hooks.compute_hint(session.state, lambda: False, 1.0) == Hint(
        "There are no tips for this game."
    )
    assert GameHooks.generator_params(None) == {} and GameHooks.settings_dialog(None) is None
    assert (GameHooks.NUMBERED_MOVES, GameHooks.START_NEW, GameHooks.HAS_SETTINGS) == (
        False,
        False,
        False,
    )
    assert (GameHooks.MOVE_WORD, GameHooks.RESULT_WORD, GameHooks.NUMBER_WORD) == (
        "move",
        "move",
        "Move",
    )


def test_the_toy_game_overrides_only_what_it_needs() -> None:
    """The toy screen keeps the base's defaults for what it does not write."""
    assert ToyScreen.compute_hint is GameHooks.compute_hint
    assert ToyScreen.score is GameHooks.score
    assert ToyScreen.render_state is not GameHooks.render_state  # it draws its row
