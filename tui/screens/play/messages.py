"""The puzzle screen's message line as a plain object: the text shown, and the timer that
clears a transient one (the widget itself is :class:`tui.screens.play.lines.MessageBar`)."""

from __future__ import annotations

from collections.abc import Callable

from tui.screens.play.digits import Stoppable

__all__ = ["TRANSIENT_SECONDS", "MessageLine"]

TRANSIENT_SECONDS = 3.0
"""How long a transient message ("Undone.", "Redone.") stays; the next move clears it too."""


class MessageLine:
    """What the message line says, and when a transient message goes.

    Args:
        show: Puts a message on the line (``text, severity``); None while there is no line
            yet (the screen is not mounted: the text is only remembered).
        start_timer: Calls a function after some seconds (``seconds, callback``) and returns
            the timer (Textual's ``set_timer``).
    """

    def __init__(
        self,
        show: Callable[[], Callable[[str, str], None] | None],
        start_timer: Callable[[float, Callable[[], None]], Stoppable],
    ) -> None:
        self._show = show
        self._start_timer = start_timer
        self._timer: Stoppable | None = None
        self.last = ""
        """The text on the line ("" when empty)."""

    @property
    def transient(self) -> bool:
        """Whether the line shows a transient message (still waiting for its timer)."""
        return self._timer is not None

    def say(self, text: str, severity: str = "information", transient: bool = False) -> None:
        """Show ``text`` ("" clears the line); a transient one is cleared after
        :data:`TRANSIENT_SECONDS` (and by :meth:`moved`)."""
        self.last = text
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        show = self._show()
        if show is not None:
            show(text, severity)
        if transient and text:
            self._timer = self._start_timer(TRANSIENT_SECONDS, self._expired)

    def moved(self) -> None:
        """The position changed: a transient message ("Redone.") is about the previous one."""
        if self._timer is not None:
            self.say("")

    def _expired(self) -> None:
        self._timer = None
        self.say("")
