"""What a hint is and which hint worker's result may be shown (plain: the worker itself is
the screen's one ``@work`` method, ``PuzzleScreen._hint_worker``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from textual.worker import Worker

from tui.workers import is_running

__all__ = ["HINT_GROUP", "Hint", "HintJob", "tip_refusal"]

HINT_GROUP = "puzzle-hint"
"""The worker group of a screen's hint worker (one at a time: a new one cancels the old)."""


@dataclass(frozen=True, slots=True)
class Hint:
    """What a hint worker found.

    Attributes:
        text: A sentence for the player.
        move: The suggested move, or None.
    """

    text: str
    """A sentence for the player."""
    move: Any = None
    """The suggested move, or None."""


class HintJob:
    """The latest hint worker and the position (session) it was asked about.

    A hint about a position the player has left would mislead, and so would an older
    worker's: only the latest worker's result, not cancelled, is shown.
    """

    def __init__(self) -> None:
        self.worker: Worker[Hint] | None = None
        """The latest hint worker, or None before the first request."""
        self.asked: Any = None
        """The session the latest hint is about."""

    def started(self, worker: Worker[Hint], session: Any) -> None:
        """A new hint worker looks at ``session`` (the previous one is cancelled by its group)."""
        self.worker, self.asked = worker, session

    @property
    def running(self) -> bool:
        """True while the latest worker is thinking (a cancelled one no longer counts)."""
        return is_running(self.worker)

    def outdated_by(self, session: Any) -> bool:
        """Whether a hint was asked about another position than ``session`` (cancel it)."""
        return self.asked is not None and self.asked is not session


def tip_refusal(finished: bool, running: bool) -> str | None:
    """Why ``t`` starts no hint now, or None: it starts one.

    Args:
        finished: Whether the game is over (nothing to hint at).
        running: Whether a hint worker is still thinking (one at a time).
    """
    if finished:
        return "The game is over: no tip to give. u undoes, R restarts."
    if running:
        return "Still thinking…"
    return None
