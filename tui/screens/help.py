"""Help pages: ``tui/help/<topic>.md`` rendered as Markdown."""

from __future__ import annotations

from importlib.resources import files
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Markdown, Static

from core import registry
from tui.text import plain
from tui.widgets.footer import ArcadeFooter

FALLBACK = """\
# {title}

There is no help page for this screen yet.

## Keys everywhere

| keys | action |
|---|---|
| `?`, `f1` | help for the current screen |
| `escape`, `q` | back; on the home screen quit |
| `ctrl+q` | quit termarcade |
"""


def load_help(topic: str) -> str:
    """Return the Markdown text of a help topic, or a short fallback page.

    A game's page is the one its registration names (``GameInfo.help``, by default
    ``tui:help/<id>.md``), so a game shipped as its own package brings its own page.

    Args:
        topic: A help topic (a game id or ``"home"``).

    Returns:
        The file's text, or the fallback when the file is missing or unreadable.
    """
    info = registry.get(topic)
    ref = info.help_ref if info is not None else f"tui:help/{topic}.md"
    package, _, name = ref.partition(":")
    parts = name.split("/")
    if all(
        part and part not in (".", "..") and all(ch.isalnum() or ch in "_-." for ch in part)
        for part in parts
    ):
        try:
            text = files(package).joinpath(*parts).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError, ModuleNotFoundError, TypeError):
            pass
        else:
            return text.replace(GAMES_MARKER, games_list())
    return FALLBACK.format(title=f"Help: {topic}")


GAMES_MARKER = "<!-- games -->"
"""Where a help page lists the registered games (the home page), so no page lists them by hand."""


def games_list() -> str:
    """Every playable registered game as a Markdown list: its title in bold and its tagline.

    Returns:
        The list, in home-screen order.
    """
    return "\n".join(
        f"- **{info.title}**: {info.tagline}" for info in registry.games() if info.playable
    )


class HelpScreen(Screen[None]):
    """A scrollable help page for a game or for the arcade.

    Keys: ``escape``/``q``/``?``/``f1`` close; ``j``/``k``/arrows/page keys scroll.

    Args:
        topic: Game id (or ``"home"``) whose page ``tui/help/<topic>.md`` is shown.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,f1,question_mark", "close", "Close", id="help.close", key_display="esc"),
        Binding("j,down", "scroll('down')", "Down", show=False, id="help.down"),
        Binding("k,up", "scroll('up')", "Up", show=False, id="help.up"),
    ]

    def __init__(self, topic: str) -> None:
        super().__init__()
        self.topic = topic
        """The help topic shown."""

    def compose(self) -> ComposeResult:
        entry = registry.get(self.topic)
        name = (
            entry.title
            if entry is not None
            else "termarcade"
            if self.topic == "home"
            else self.topic
        )
        yield Static(
            plain("Help: ") + plain(name) + plain("    (escape to close)"), id="help-title"
        )
        with VerticalScroll(id="help-body"):
            yield Markdown(load_help(self.topic), id="help-text")
        yield ArcadeFooter()

    def on_mount(self) -> None:
        self.query_one("#help-body").focus()

    def action_scroll(self, direction: str) -> None:
        """Scroll the page one line."""
        body = self.query_one("#help-body", VerticalScroll)
        if direction == "down":
            body.scroll_down()
        else:
            body.scroll_up()

    def action_close(self) -> None:
        """Close the help page."""
        self.dismiss(None)
