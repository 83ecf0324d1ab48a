"""The arcade's footer: Textual's, drawn also while the app does not have the focus.

Textual's :class:`~textual.widgets.Footer` skips redrawing its keys while the app is not
focused (a terminal window in the background). In the web arcade the page starts that way
(xterm.js reports a blur until the player clicks or types), so the footer stayed blank until
the first key. The keys of a screen are worth showing at once, focused or not.
"""

from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Footer

__all__ = ["ArcadeFooter"]


class ArcadeFooter(Footer):
    """A footer that redraws when the bindings change, whether or not the app has focus."""

    def bindings_changed(self, screen: Screen) -> None:
        """The screen's bindings changed: draw them (Footer returns early without focus)."""
        self._bindings_ready = True
        if self.is_attached and screen is self.screen:
            self.call_after_refresh(self.recompose)
