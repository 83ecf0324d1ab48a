"""Play time on a level, for the "fastest" leaderboards, and the autoplay mark.

How time counts (the puzzle screen base applies these rules; docs/store.md, "How time counts",
states them):

* The clock runs while the level's screen is the one on top. Help, dialogs (the outcome
  dialog, settings, a confirmation) and any other screen pause it, and so does leaving the
  level (``esc``, ``N`` to another level).
* The clock belongs to the level's saved game: it is written with every save (each move, and
  when leaving the level) and continues from there when the game is resumed, in this session
  or a later one. Restart (``R``) and undo do not reset it: a restart is a move of the same
  game, and a clock that restarted with it would reward studying a level and then replaying
  it from memory. A result's time is the whole time spent on that game up to the winning move.
* Thinking time after the last move is kept when the level is left, not when the app is
  quit from inside the level (the save is not written on the way out).
* Whether the computer played (2048's autoplay) is saved the same way, and sticks: once a
  game has been autoplayed its results go to the autoplayed board, even after undoing.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["SUMMARY_AUTOPLAYED", "SUMMARY_SECONDS", "PlayClock", "play_record", "restored"]

NOW: Callable[[], float] = time.monotonic
"""The clocks' time source, looked up at each reading (tests replace it with a fake clock)."""

SUMMARY_SECONDS = "seconds"
"""Save-summary key of the play time (seconds)."""
SUMMARY_AUTOPLAYED = "autoplayed"
"""Save-summary key of the autoplay mark."""


class PlayClock:
    """A stopwatch of play time that can be paused, resumed and set from a save.

    Args:
        seconds: Time already played.
        now: The time source (monotonic seconds); by default :data:`NOW`.
    """

    def __init__(self, seconds: float = 0.0, now: Callable[[], float] | None = None) -> None:
        self._clock = now
        self._banked = seconds
        self._since: float | None = None

    def _now(self) -> float:
        return (self._clock or NOW)()

    @property
    def running(self) -> bool:
        """True while time is counted."""
        return self._since is not None

    @property
    def seconds(self) -> float:
        """Time played so far, the running stretch included."""
        if self._since is None:
            return self._banked
        return self._banked + max(0.0, self._now() - self._since)

    def start(self) -> None:
        """Count time from now on (no-op while running)."""
        if self._since is None:
            self._since = self._now()

    def pause(self) -> None:
        """Stop counting, keeping the time played (no-op while paused)."""
        if self._since is not None:
            self._banked = self.seconds
            self._since = None

    def set(self, seconds: float) -> None:
        """Replace the time played (another level, or a save's); keeps running if it was."""
        self._banked = seconds
        if self._since is not None:
            self._since = self._now()


def play_record(clock: PlayClock, autoplayed: bool) -> dict[str, Any]:
    """The save-summary entries of a level's clock and autoplay mark."""
    return {SUMMARY_SECONDS: round(clock.seconds, 3), SUMMARY_AUTOPLAYED: autoplayed}


def restored(summary: Mapping[str, Any] | None) -> tuple[float, bool]:
    """Read back :func:`play_record`'s entries; absent or damaged values count as 0 / False.

    Returns:
        ``(seconds, autoplayed)``.
    """
    summary = summary or {}
    seconds = summary.get(SUMMARY_SECONDS)
    played = 0.0
    if (
        isinstance(seconds, (int, float))
        and not isinstance(seconds, bool)
        and math.isfinite(seconds)
        and seconds > 0
    ):
        played = float(seconds)
    return played, summary.get(SUMMARY_AUTOPLAYED) is True
