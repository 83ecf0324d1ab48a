"""The arcade as screens see it: the small interface between the app and everything it opens.

Screens, launchers, dialogs and palette commands need a few things from the running app (the
store, whether it is served, whether a game is in progress, starting a game). They depend on
:class:`Arcade`, declared here, and never on :mod:`tui.app`; the app subclasses it. So the app
may import the launcher and the screens at the top of its module, and nothing they import
comes back to it: there is no import circle between ``tui.app``, ``tui.launch`` and
``tui.screens``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from textual.app import App

if TYPE_CHECKING:  # pragma: no cover
    from tui.store import Store
    from tui.terminal import TerminalProfile

__all__ = ["Arcade", "arcade_of"]


class Arcade(App[None]):
    """What every screen of the arcade may use of the app (:class:`tui.app.ArcadeApp`)."""

    store: Store
    """Progress, saves, best scores, own levels and settings."""
    terminal: TerminalProfile
    """What the terminal can show (:mod:`tui.terminal`): glyph set and colours."""
    served: bool
    """True when the app runs for a remote player (``serve``): nothing touches the host's
    files by path."""
    game_in_progress: bool
    """Kept up to date by game screens: quitting asks first while it is True."""

    def start_game(self, game_id: str) -> bool:
        """Open a game's level select (and its newest game in progress, if any).

        Returns:
            True if the game started; otherwise the player gets a notification.
        """
        raise NotImplementedError

    def action_help(self) -> None:
        """Open the help page of the current screen."""
        raise NotImplementedError

    def show_store_warnings(self) -> None:
        """Tell the player what the store found since the last call (a damaged row it set
        aside, say), as notifications."""
        raise NotImplementedError


def arcade_of(node: Any) -> Arcade:
    """The running arcade of a screen or widget, typed (no attribute probing).

    Args:
        node: A mounted screen or widget of the arcade.
    """
    return cast(Arcade, node.app)
