"""What a game screen may declare or override, with the defaults a game without it gets
(:class:`GameHooks`, mixed into :class:`tui.screens.puzzle.PuzzleScreen`).

A game reads this page to know what it can write; the base's machinery (the session reactive,
saves, the actions, the hint worker) is in :mod:`tui.screens.puzzle`. The shell reads these
names without probing (``tests/tui/test_declared_hooks.py``). More hooks with a default
behaviour, written in terms of the screen, are on the base itself: ``numbered_moves``,
``pick``, ``keys_for``, ``show_hint``, ``record_win``, ``outcome_detail``, ``level_text``,
``action_settings``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from core.session import Session
from tui.screens.play.hints import Hint
from tui.screens.play.records import Score

if TYPE_CHECKING:  # pragma: no cover
    from textual.app import ComposeResult

__all__ = ["GameHooks"]


class GameHooks:
    """The class attributes and hook methods a game screen may override, with defaults."""

    HINT_TIME_LIMIT: ClassVar[float] = 5.0
    """Seconds a hint may think."""
    NUMBERED_MOVES: ClassVar[bool] = False
    """Whether digit keys pick numbered moves (games with a move list)."""
    MOVE_WORD: ClassVar[str] = "move"
    """What one undoable move of the session is called in the header, the level list's "in
    progress" note and "Resumed your game" (Carving: ``"action"``)."""
    RESULT_WORD: ClassVar[str] = "move"
    """What par and a win's result count, in the level list (Carving: ``"step"``)."""
    START_NEW: ClassVar[bool] = False
    """Whether opening the game with no game in progress starts a new generated level at once
    (2048) instead of showing the level list."""
    HAS_SETTINGS: ClassVar[bool] = False
    """Whether the game has settings: it then overrides :meth:`settings_dialog` (the palette
    offers "Settings: <game>") and may override :meth:`action_settings`."""
    NUMBER_WORD: ClassVar[str] = "Move"
    """How a numbered entry picked by digits is named ("Move 2: …"; TermCraft: "Action")."""

    def compose_board(self) -> ComposeResult:
        """The game's own widgets (between the header and the message line)."""
        return iter(())

    def render_state(self, session: Session) -> None:
        """Draw ``session.state`` (and anything else of the session) in the board widgets."""

    def after_mount(self) -> None:
        """Called once the screen is mounted and its first position drawn: focus a widget,
        start a timer or a background job. The default does nothing.

        A game writes this rather than its own ``on_mount``: Textual calls ``on_mount`` of
        every class along the MRO, so an override calling ``super().on_mount()`` ran the base's
        twice (the play record read and the first position drawn twice).
        """

    def prepare_position(self, old: Session | None) -> bool:
        """Get the current position ready to be shown; False defers :meth:`show_position`.

        Called for every new position (a move, undo, restart, another level) before it is
        drawn. The default is ready at once. A game whose positions can take long to analyse
        returns False, does the work in a worker (the screen stays responsive), and calls
        :meth:`show_position` with the same ``old`` once the position is ready.

        Args:
            old: The session shown before (None: nothing was, or another level starts).

        Returns:
            True to show the position now.
        """
        return True

    def on_level_changed(self) -> None:
        """Called after :meth:`switch_level` (reset per-level widgets)."""

    def score(self, session: Session) -> Score | None:
        """The score of ``session``'s position, for games scored by points (2048).

        The base records it after each change, before the screen is drawn
        (:meth:`record_progress`); rendering only reads :attr:`best_score`.

        Args:
            session: The game.

        Returns:
            The score, or None for games whose result is their moves (the default: their
            wins are recorded when the outcome dialog opens).
        """
        return None

    def compute_hint(self, state: Any, should_stop: Any, time_limit: float) -> Hint:
        """Find a hint for ``state`` (runs in a worker thread; poll ``should_stop()``).

        Args:
            state: The position.
            should_stop: Returns True when the hint is no longer wanted (the worker was
                cancelled); the thread cannot be killed, so long searches must poll it.
            time_limit: Seconds the search may take.

        Returns:
            The hint.
        """
        return Hint("There are no tips for this game.")

    def highlight_move(self, move: Any) -> None:
        """Point at ``move`` on the board (games with a move list select it)."""

    def loss_reason(self) -> str | None:
        """Why the game is lost, in a sentence (the game's engine knows best)."""
        return None

    @classmethod
    def generator_params(cls, app: Any) -> dict[str, dict[str, Any]]:
        """The parameters the player chose for the game's generators (from the settings).

        Args:
            app: The running app (its store holds the settings).

        Returns:
            ``generator name -> keyword arguments``; generators not named use their defaults.
        """
        return {}

    @classmethod
    def settings_dialog(cls, app: Any) -> tuple[Any, Any] | None:
        """The game's settings dialog for the command palette, outside the game.

        Args:
            app: The running app (its store holds the settings).

        Returns:
            ``(modal, on_result)``: push ``modal`` with ``on_result`` as its callback (it
            stores the choice); None when the game has no settings.
        """
        return None
