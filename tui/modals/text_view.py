"""A scrollable page of text in a dialog (the whole target, every warning, ...)."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Label, Static

from tui.modals.dialog import Dialog
from tui.text import plain, visible
from tui.widgets.footer import ArcadeFooter

__all__ = ["TextModal"]


class TextModal(Dialog[None]):
    """Show ``body`` under ``title``; ``escape``/``q``/``enter`` close, arrows/j/k scroll.

    Args:
        title: The heading (a plain string is shown as it is, never read as markup: it often
            quotes a level's title).
        body: The text (Rich text keeps its styles; a plain string is shown as is, its
            control characters as escapes).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,enter", "close", "Close", id="text_view.close", key_display="esc"),
        Binding("j,down", "scroll(1)", "Down", show=False, id="text_view.down"),
        Binding("k,up", "scroll(-1)", "Up", show=False, id="text_view.up"),
    ]

    DEFAULT_CSS = """
    TextModal { align: center middle; }
    #text-dialog { width: 90%; max-width: 110; height: auto; max-height: 90%;
                   border: thick $accent; background: $surface; padding: 0 1; }
    #text-title { text-style: bold; width: 100%; }
    #text-scroll { height: auto; max-height: 100%; }
    """

    def __init__(self, title: str | Content, body: Text | str) -> None:
        super().__init__()
        self.title_text = title
        """The heading."""
        self.body = body if isinstance(body, Text) else Text(visible(body, multiline=True))
        """The text shown."""

    def compose(self) -> ComposeResult:
        with Vertical(id="text-dialog"):
            yield Label(plain(self.title_text), id="text-title")
            with VerticalScroll(id="text-scroll"):
                yield Static(self.body, id="text-body")
        yield ArcadeFooter(compact=True)

    def on_mount(self) -> None:
        self.query_one("#text-scroll").focus()

    def action_scroll(self, lines: int) -> None:
        """Scroll the text."""
        scroll = self.query_one("#text-scroll", VerticalScroll)
        scroll.scroll_relative(y=lines, animate=False)

    def action_close(self) -> None:
        """Close the dialog."""
        self.dismiss(None)
