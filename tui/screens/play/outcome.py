"""Which outcome dialog a change of the game opens (plain: no Textual)."""

from __future__ import annotations

from core.session import RESTART, Session

__all__ = ["CHOICE_ACTIONS", "outcome_kind"]


def outcome_kind(old: Session, new: Session) -> str | None:
    """The outcome dialog that going from ``old`` to ``new`` opens, if any.

    Only a move forward (a move or a redo; not undo, not restart) that changes the status
    or whether the game is finished opens one.

    Args:
        old: The game shown before.
        new: The game now.

    Returns:
        ``"won"`` (won and finished), ``"goal"`` (won, play may go on), ``"lost"``, or None.
    """
    forward = new.history.index > old.history.index and new.last_move not in (None, RESTART)
    changed = (old.status, old.finished) != (new.status, new.finished)
    if not forward or not changed or new.status == "playing":
        return None
    if new.status == "lost":
        return "lost"
    return "won" if new.finished else "goal"


CHOICE_ACTIONS = {
    "next": "next_level",
    "new": "next_level",
    "undo": "undo",
    "restart": "restart",
    "levels": "back",
}
"""The screen action (``action_<name>``) each button of the outcome dialog runs; "keep" (play
on after a goal) runs none."""
