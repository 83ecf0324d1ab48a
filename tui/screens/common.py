"""What every arcade screen declares for the app (:class:`ScreenHooks`), and small widgets
shared by the arcade's own screens."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.widgets import OptionList


class ScreenHooks:
    """What the app and the command palette may ask of the screen shown, with defaults.

    Mixed into the arcade's screens (home, level select, leaderboards, puzzle screens, level
    editors), so the app reads these attributes instead of probing screens with ``getattr``;
    a screen that is not one of these (a modal dialog) gets the defaults from the app.
    """

    HELP_TOPIC: ClassVar[str] = "home"
    """The help page of a screen that is about no game (``"home"``, ``"leaderboard"``)."""

    @property
    def help_topic(self) -> str:
        """The help page F1 / ``?`` opens: a game id, ``"home"`` or ``"leaderboard"``."""
        return self.game_id or self.HELP_TOPIC

    @property
    def game_id(self) -> str | None:
        """The game this screen is about (the leaderboards open on it), or None."""
        return None

    @property
    def level_id(self) -> str | None:
        """The ID of the level shown (the "Game ID" dialog starts from it), or None."""
        return None


class NavOptionList(OptionList):
    """An option list that also moves with ``j``/``k`` and selects with ``space``.

    The arrow keys, ``home``/``end``, page keys and ``enter`` come from :class:`OptionList`.
    Disabled options are skipped by the cursor and cannot be selected.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "cursor_down", "Down", show=False, id="list.down"),
        Binding("k", "cursor_up", "Up", show=False, id="list.up"),
        Binding("space", "select", "Select", show=False, id="list.select"),
    ]
