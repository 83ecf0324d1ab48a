"""The settings glue a game with generator settings shares (2048, Longcat): written once.

A :class:`SettingsScreen` names its settings (a :class:`tui.params.Settings` class), where
the store keeps them, its dialog and its generators; it gets the base's hooks filled in:
:meth:`generator_params` (what each generator is given), :meth:`settings_dialog` (the
palette's "Settings: <game>"), the :attr:`settings` property and ``o`` (:meth:`action_settings`,
which refreshes the level select's generators when their parameters changed). A game words
what it says after a change in :meth:`settings_applied` and stops its own work first in
:meth:`before_settings`.
"""

from __future__ import annotations

from typing import Any, ClassVar

from tui.params import Settings
from tui.screens.puzzle import PuzzleScreen

__all__ = ["SettingsScreen"]


class SettingsScreen(PuzzleScreen):
    """A puzzle screen whose game has stored settings and generators that read them."""

    HAS_SETTINGS: ClassVar[bool] = True
    SETTINGS: ClassVar[type[Settings]] = Settings
    """The settings' class (its declaration)."""
    SETTINGS_KEY: ClassVar[str] = ""
    """The store setting that holds them (as :meth:`tui.params.Settings.to_dict`)."""
    SETTINGS_MODAL: ClassVar[Any] = None
    """The dialog: called with the current settings, dismissed with new ones or None."""
    SETTINGS_SAVED: ClassVar[str] = "Settings saved."
    """What the palette's dialog says when it saved (outside the game)."""
    GENERATORS: ClassVar[tuple[str, ...]] = ()
    """The generators the settings' parameters go to."""

    @classmethod
    def stored_settings(cls, store: Any) -> Any:
        """The player's settings as ``store`` keeps them (defaults where it has none).

        Args:
            store: The app's store.

        Returns:
            A :attr:`SETTINGS` instance.
        """
        return cls.SETTINGS.from_dict(store.get_setting(cls.SETTINGS_KEY, None))

    @classmethod
    def generator_params(cls, app: Any) -> dict[str, dict[str, Any]]:
        """Every generator gets the player's settings that it takes (in ID form)."""
        settings = cls.stored_settings(app.store)
        return {name: settings.params(name) for name in cls.GENERATORS}

    @classmethod
    def settings_dialog(cls, app: Any) -> tuple[Any, Any]:
        """The settings dialog and what stores its choice (the palette, outside the game)."""

        def applied(new: Settings | None) -> None:
            if new is not None:
                app.store.set_setting(cls.SETTINGS_KEY, new.to_dict())
                app.notify(cls.SETTINGS_SAVED, timeout=4)

        return cls.SETTINGS_MODAL(cls.stored_settings(app.store)), applied

    @property
    def settings(self) -> Any:
        """The player's settings."""
        return self.stored_settings(self.arcade.store)

    def action_settings(self) -> None:
        """Open the settings; on apply, store them, refresh the generators if what they are
        given changed, and say so (:meth:`settings_applied`)."""
        self.before_settings()
        old = self.settings

        def applied(new: Settings | None) -> None:
            if new is None:
                return
            self.arcade.store.set_setting(self.SETTINGS_KEY, new.to_dict())
            changed = any(new.params(name) != old.params(name) for name in self.GENERATORS)
            if changed and self.launcher is not None:
                self.launcher.refresh_generators()
            self.settings_applied(old, new, changed)

        self.app.push_screen(self.SETTINGS_MODAL(old), applied)

    def before_settings(self) -> None:
        """Stop what the dialog would interrupt (a game's autoplay, a shown solution)."""

    def settings_applied(self, old: Any, new: Any, generators_changed: bool) -> None:
        """Say what the new settings change.

        Args:
            old: The settings before.
            new: The settings saved.
            generators_changed: Whether what the generators are given changed.
        """
        self.say("Settings saved.")
