"""The termarcade Textual app: home screen, help, quitting, and starting games.

Games plug in through :mod:`core.registry`: the home screen imports a game's ``start(app)`` only
when the player picks it, so a broken or missing game shows a notification instead of
bringing the arcade down.

Screens tell the app which help page belongs to them with a ``HELP_TOPIC`` class attribute
(``"termcraft"`` renders ``tui/help/termcraft.md``); ``?`` and ``f1`` open it from anywhere.
Game screens set :attr:`ArcadeApp.game_in_progress` so that quitting asks for confirmation.

Colours: the stylesheet uses theme variables only, and Textual itself honours ``NO_COLOR``
(it renders monochrome when the variable is set), so the app stays readable in 16 colours and
without colour.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import App
from textual.binding import Binding, BindingType
from textual.screen import Screen

from core import registry
from core.registry import RegistryError
from tui.store import KEYMAP_SETTING, Store

__all__ = ["ArcadeApp"]

"""Store setting with ``{binding_id: keys}`` overrides (see README, "Key bindings")."""


class ArcadeApp(App[None]):
    """The arcade.

    Args:
        start_game: Game id to open straight away (``termarcade play GAME``), or None for the
            home screen only.
        store: The store to use; by default the one in the user data directory
            (``TERMARCADE_DATA_DIR`` overrides it).
    """

    TITLE = "termarcade"
    SUB_TITLE = "formal puzzle games"
    CSS_PATH = "styles/app.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1,question_mark", "help", "Help", id="app.help", key_display="?"),
        Binding(
            "ctrl+q",
            "request_quit",
            "Quit",
            show=False,
            priority=True,
            id="app.quit",
            tooltip="Quit termarcade (asks first when a game is in progress).",
        ),
    ]

    def __init__(self, start_game: str | None = None, store: Store | None = None) -> None:
        super().__init__()
        self.start_game_id = start_game
        """Game to open after the home screen is shown."""
        self.store = store if store is not None else Store()
        """Progress, saves, best scores and settings."""
        self.game_in_progress = False
        """Set by game screens while a game has unsaved progress; quitting then asks first."""

    def get_default_screen(self) -> Screen[object]:
        """The home screen is the bottom of the screen stack."""
        from tui.screens.home import HomeScreen

        return HomeScreen()

    def on_mount(self) -> None:
        """Apply the user's keymap, show storage warnings, and open the requested game."""
        keymap = self.store.get_setting(KEYMAP_SETTING, None)
        if isinstance(keymap, dict) and keymap:
            self.set_keymap({str(key): str(value) for key, value in keymap.items()})
        self.show_store_warnings()
        if self.start_game_id is not None:
            self.call_after_refresh(self.start_game, self.start_game_id)

    def show_store_warnings(self) -> None:
        """Turn new store warnings into notifications (then forget them)."""
        for message in self.store.warnings:
            self.notify(message, title="Storage", severity="warning", timeout=10)
        self.store.warnings.clear()

    def start_game(self, game_id: str) -> bool:
        """Start a game by id through its starter.

        Args:
            game_id: A registered game id (:mod:`core.registry`).

        Returns:
            True if the game started; otherwise the player gets a notification.
        """
        entry = registry.get(game_id)
        if entry is None:
            self.notify(f"Unknown game {game_id!r}.", severity="error")
            return False
        try:
            start = entry.load("screen")
        except RegistryError as error:
            self.notify(str(error), title=entry.title, severity="warning")
            return False
        try:
            start(self)
        except Exception as error:  # A game bug must not crash the arcade.
            self.log.error(f"starting {game_id} failed", error)
            self.notify(
                f"{entry.title} failed to start ({type(error).__name__}: {error}).",
                title=entry.title,
                severity="error",
            )
            return False
        return True

    def action_help(self) -> None:
        """Open the help page of the current screen (``HELP_TOPIC``, else the arcade's)."""
        from tui.screens.help import HelpScreen

        if isinstance(self.screen, HelpScreen):
            return
        topic = getattr(self.screen, "HELP_TOPIC", None) or "home"
        self.push_screen(HelpScreen(topic))

    def action_request_quit(self) -> None:
        """Quit, asking first when a game is in progress."""
        from tui.modals.confirm import ConfirmModal

        if not self.game_in_progress:
            self.exit()
            return
        if isinstance(self.screen, ConfirmModal):
            return

        def decided(quit_now: bool | None) -> None:
            if quit_now:
                self.exit()

        self.push_screen(
            ConfirmModal("A game is in progress. Quit termarcade?", yes="Quit", no="Stay"),
            decided,
        )

    def on_unmount(self) -> None:
        """Close the store cleanly."""
        self.store.close()
