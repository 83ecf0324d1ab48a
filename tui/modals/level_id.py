"""The "Game ID / seed…" dialog: the ID of the level being played, and a box to open another.

The ID (:mod:`core.ids`) is shown whole, with its length, in a read-only text area that
wraps it at any width and scrolls (a custom ID runs to hundreds of characters; a fixed-height
label cut one short with no sign, issue 30), where it can be selected; the copy button
(``f2``; :meth:`textual.app.App.copy_to_clipboard`, which asks the terminal through OSC 52,
so it works over SSH in terminals that allow it) copies it whole. Below, an input takes an ID typed or
pasted: ``enter`` opens it. An ID that cannot be read (unknown game, pack or level, a
checksum that does not match, made by a newer termarcade) is explained under the box, in the
words the CLI uses, and the game stays as it was.

The level is found in a background thread (making a generated level can take seconds), so
the arcade stays responsive. Dismisses with the :class:`tui.ids.Resolved` level to open, or None.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, Static, TextArea

from core.ids import IdError
from core.text import escape_controls
from tui.ids import Resolved, resolve_id
from tui.modals.dialog import Dialog
from tui.text import plain
from tui.workers import failure_line, log, lower_this_thread

__all__ = ["LevelIdModal", "open_id_error", "resolve_in_background"]

EXAMPLES = "longcat:arduboy/17, longcat:sd-8x8-hard#48213, carving:L2…"
"""The input's placeholder: one ID of each kind."""


def open_id_error(text: str) -> tuple[Resolved | None, str]:
    """Resolve an ID for the dialog: ``(level, "")``, or ``(None, what is wrong)``."""
    try:
        return resolve_id(text), ""
    except IdError as error:
        return None, str(error)
    except Exception as error:  # A generator's failure must not crash the arcade.
        log.error("Resolving the ID %r failed", text, exc_info=error)
        return None, f"this ID cannot be opened ({type(error).__name__}: {error})"


THREAD_NAME = "termarcade-level-id"
"""The name of the threads that resolve IDs (tests wait for them)."""


def resolve_in_background(
    app: App[Any], text: str, done: Callable[[Resolved | None, str], None]
) -> threading.Thread:
    """Resolve an ID in a daemon thread, then call ``done(level, problem)`` in the app.

    A daemon thread, not a Textual worker: making a generated level cannot be interrupted,
    and Textual's thread workers run in the event loop's default executor, whose threads
    the interpreter joins at exit, so a worker would keep the arcade from quitting until the
    level is made (minutes for some seeds). When the app has gone meanwhile, the answer is
    dropped. A failure of ``done`` is logged and notified, never lost in this thread.
    """

    def deliver(resolved: Resolved | None, problem: str) -> None:
        try:
            done(resolved, problem)
        except Exception as error:  # opening the level failed: say so, the arcade goes on
            log.error("Opening the ID %r failed", text, exc_info=error)
            app.notify(failure_line("Opening the level", error), severity="error", timeout=10)

    def work() -> None:
        lower_this_thread()  # generating a level is background work (tui.workers)
        resolved, problem = open_id_error(text)
        try:
            app.call_from_thread(deliver, resolved, problem)
        except RuntimeError:  # "App is not running": it closed, nobody waits for the answer
            log.debug("The app closed before the ID %r was resolved", text)

    thread = threading.Thread(target=work, name=THREAD_NAME, daemon=True)
    thread.start()
    return thread


class LevelIdModal(Dialog[Resolved | None]):
    """Show the current level's ID (copyable) and open another one.

    Args:
        current: The ID of the level being played (None: no level, or it has no ID).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f2", "copy", "Copy ID", id="level_id.copy"),
        Binding("escape", "cancel", "Cancel", id="level_id.cancel", key_display="esc"),
    ]

    DEFAULT_CSS = """
    LevelIdModal { align: center middle; }
    #level-id-dialog { width: 76; max-width: 100%; height: auto; max-height: 100%;
                       border: thick $accent; background: $surface; padding: 0 1; }
    #level-id-current { height: auto; max-height: 9; text-style: bold; }
    #level-id-note { color: $text-muted; height: auto; }
    #level-id-error { color: $text-error; height: auto; }
    #level-id-buttons { height: auto; align-horizontal: right; }
    #level-id-buttons Button { margin-left: 1; }
    """

    def __init__(self, current: str | None) -> None:
        super().__init__()
        self.current = current
        """The ID shown (and copied)."""

    def compose(self) -> ComposeResult:
        with Vertical(id="level-id-dialog"):
            yield Label(self.heading, id="level-id-heading")
            if self.current:
                yield TextArea(
                    self.current,
                    read_only=True,
                    soft_wrap=True,
                    compact=True,
                    id="level-id-current",
                )
            else:
                yield Static(plain("(no level is being played)"), id="level-id-current")
            yield Static("", id="level-id-note")
            yield Label("Open a level by its ID:")
            # No select-all on focus (issue 30): the first key typed must not replace the text.
            yield Input(placeholder=EXAMPLES, select_on_focus=False, id="level-id-input")
            yield Static("", id="level-id-error")
            with Horizontal(id="level-id-buttons"):
                if self.current:
                    yield Button("Copy ID (f2)", id="level-id-copy", compact=True)
                yield Button("Open", id="level-id-open", variant="primary", compact=True)
                yield Button("Cancel (esc)", id="level-id-cancel", compact=True)

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @property
    def heading(self) -> str:
        """The line above the ID: what it is for, and how long it is (so a cut is seen)."""
        if not self.current:
            return "Game ID / seed: share a level by its ID"
        return f"Game ID / seed ({len(self.current)} characters): share this level by its ID"

    @property
    def error(self) -> str:
        """The error shown under the box ("" when none), for tests."""
        return str(self.query_one("#level-id-error", Static).render())

    def _note(self, message: str) -> None:
        self.query_one("#level-id-note", Static).update(Text(message))

    def _error(self, message: str) -> None:
        self.query_one("#level-id-error", Static).update(Text(escape_controls(message)))

    def action_copy(self) -> None:
        """Copy the ID to the clipboard (through the terminal)."""
        if not self.current:
            self._note("There is no ID to copy.")
            return
        self.app.copy_to_clipboard(self.current)
        self._note("Copied (if your terminal allows programs to set the clipboard).")

    def action_cancel(self) -> None:
        """Close, keeping the game."""
        self.dismiss(None)

    @on(Input.Changed)
    def _typed(self) -> None:
        self._error("")

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.open(event.value)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "level-id-copy":
            self.action_copy()
        elif event.button.id == "level-id-open":
            self.open(self.query_one(Input).value)
        else:
            self.dismiss(None)

    def open(self, text: str) -> None:
        """Open the level of ``text``, or say under the box why it cannot be.

        The level is found in a background thread (a generated level may take seconds);
        ``escape`` meanwhile closes the dialog and the game stays as it was.
        """
        if not text.strip():
            self._error("Type or paste an ID first (" + EXAMPLES + ").")
            return
        self._error("")
        self._note("Opening…  (esc cancels)")
        self.opening = text

        resolve_in_background(self.app, text, partial(self._found, text))

    opening: str | None = None
    """The ID being opened (None when none is)."""

    def _found(self, text: str, resolved: Resolved | None, problem: str) -> None:
        if not self.is_attached or self.opening != text:
            return  # closed, or another ID was asked for since
        self.opening = None
        self._note("")
        if resolved is None:
            self._error(problem)
            return
        self.dismiss(resolved)
