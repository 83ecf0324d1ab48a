"""Numbered moves typed as digits: ``1`` then ``2`` within :data:`DIGIT_WAIT` picks move 12.

A plain class with its timer and its screen injected (:class:`DigitEntry`), so the rules of
typing a number are tested without Textual.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

__all__ = ["DIGIT_WAIT", "DigitEntry", "MoveDeferred", "numbered"]

DIGIT_WAIT = 0.6
"""Seconds to wait for a second digit before picking move N (``1`` then ``2`` picks 12)."""


class MoveDeferred(LookupError):
    """A numbered move that is being looked for in the background: the screen picks it
    when it is found (the message says so; no bell, unlike a missing move)."""


def numbered(moves: Sequence[Any], number: int) -> Any:
    """Numbered move ``number`` (from 1) of ``moves``.

    Raises:
        LookupError: When there is no such move (empty message: the default sentence).
    """
    if not 1 <= number <= len(moves):
        raise LookupError("")
    return moves[number - 1]


class Stoppable(Protocol):
    """A started timer (Textual's ``Timer``)."""

    def stop(self) -> None:
        """Stop it: its callback is not called."""


class DigitEntry:
    """The digits typed so far and the timer that picks their number.

    Args:
        count: How many numbered moves there are, or None while not known yet (digits then
            wait for a second digit).
        lookup: Numbered move N (from 1); raises :class:`MoveDeferred` (said, no bell) or
            another ``LookupError`` (bell and a warning: its message, or the default sentence)
            when there is none.
        pick: Plays (or selects) a found move: ``pick(move, number)``.
        say: Shows a message: ``say(text, severity)``.
        bell: Rings the terminal's bell.
        start_timer: Starts a one-shot timer: ``start_timer(seconds, callback)``, returning
            something with ``stop()`` (a screen's ``set_timer``).
        word: How a numbered entry is named (``"Move"``; TermCraft: ``"Action"``).
        wait: Seconds to wait for another digit.
    """

    def __init__(
        self,
        *,
        count: Callable[[], int | None],
        lookup: Callable[[int], Any],
        pick: Callable[[Any, int], None],
        say: Callable[[str, str], None],
        bell: Callable[[], None],
        start_timer: Callable[[float, Callable[[], None]], Stoppable],
        word: str = "Move",
        wait: float = DIGIT_WAIT,
    ) -> None:
        self._count = count
        self._lookup = lookup
        self._pick = pick
        self._say = say
        self._bell = bell
        self._start_timer = start_timer
        self.word = word
        """How a numbered entry is named in the messages."""
        self.wait = wait
        """Seconds to wait for another digit."""
        self.typed = ""
        """The digits typed and not picked yet (leading zeros dropped)."""
        self._timer: Stoppable | None = None

    def press(self, digit: int) -> None:
        """A digit key: pick now when no longer number starts with the digits, else wait."""
        self._stop_timer()
        self.typed = (self.typed + str(digit)).lstrip("0")
        if not self.typed:
            return
        count = self._count()
        if count is not None and int(self.typed) * 10 > count:
            self.flush()
        else:
            self._say(f"{self.word} {self.typed}…", "information")
            self._timer = self._start_timer(self.wait, self.flush)

    def flush(self) -> None:
        """Pick the number typed so far (the timer ran out, or no digit can follow)."""
        self._timer = None  # ran out, or stopped by press (a timer does not stop itself)
        number, self.typed = int(self.typed or "0"), ""
        try:
            move = self._lookup(number)
        except MoveDeferred as deferred:
            self._say(str(deferred), "information")
            return
        except LookupError as missing:
            self._bell()
            self._say(str(missing) or self._missing(number), "warning")
            return
        self._pick(move, number)

    def _missing(self, number: int) -> str:
        count = self._count()
        if count is None:
            return f"There is no move {number}."
        return f"There is no move {number} (moves are numbered 1 to {count})."

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
