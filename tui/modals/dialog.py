"""The base of the arcade's dialogs: their footer shows their own keys.

A modal screen is drawn over the screen below, footer included, so without a footer of its
own a dialog showed the game's keys (``u Undo``, ``N Next`` ...), which do nothing there.
:class:`Dialog` docks a compact footer at the bottom of every dialog, listing the dialog's
bindings (and the app's: help, the palette) over the game's.
"""

from __future__ import annotations

from typing import Generic

from textual import events, on
from textual.screen import ModalScreen, ScreenResultType

from tui.widgets.footer import ArcadeFooter

__all__ = ["Dialog"]


class Dialog(ModalScreen[ScreenResultType], Generic[ScreenResultType]):
    """A modal dialog with its own footer (subclasses compose only their content)."""

    @on(events.Mount)
    def _own_footer(self) -> None:
        # Mounted after the subclass's widgets: a subclass needs no footer code of its own.
        if not self.query(ArcadeFooter):
            self.mount(ArcadeFooter(compact=True))
