"""Playing a move, undo, redo and restart in a puzzle screen (plain: no Textual).

Each action answers a :class:`Step`: the game to show next (None: nothing changes) and what
the message line says about it. Acknowledgements ("Undone.", "Redone.") are transient: they
would mislead once the player moves on.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from core.game import IllegalMove
from core.session import Session

__all__ = ["Step", "play", "redo", "restart", "undo"]


class Step(NamedTuple):
    """The outcome of undo, redo or restart.

    Attributes:
        session: The game to show, or None: it stays as it is.
        text: What the message line says.
        severity: ``"information"`` or ``"warning"``.
        transient: Whether the message goes away after a while and at the next move.
    """

    session: Session | None
    text: str
    severity: str = "information"
    transient: bool = False


def play(session: Session, move: Any) -> Step:
    """Play ``move`` through the engine; an illegal move, or any move once the game is over,
    changes nothing and says why (a warning: the screen rings the bell too).

    Returns:
        The game after the move (no message), or None and why not.
    """
    if session.finished:
        return Step(None, "The game is over: u undoes, R restarts, esc goes back.", "warning")
    try:
        return Step(session.play(move), "")
    except IllegalMove as error:
        return Step(None, str(error)[:1].upper() + str(error)[1:], "warning")


def undo(session: Session) -> Step:
    """Take back the last move; a saved past that does not replay as it was played is a
    warning (the position may not be the one the player saw)."""
    if not session.can_undo:
        return Step(None, "Nothing to undo.", transient=True)
    undone = session.undo()
    # A resumed game's past is replayed when its state is first read: only then is a
    # problem known (the screen reads it when drawing; here it must be read first).
    _ = undone.state
    problem = undone.replay_problem
    if problem is not None:
        text = f"Undone, but {problem}: this may not be the position you played."
        return Step(undone, text, "warning")
    return Step(
        undone, "Undone." + ("" if undone.can_undo else " This is the start."), transient=True
    )


def redo(session: Session) -> Step:
    """Play again a move taken back."""
    if not session.can_redo:
        return Step(None, "Nothing to redo.", transient=True)
    return Step(session.redo(), "Redone.", transient=True)


def restart(session: Session) -> Step:
    """Back to the start, as a move (undo takes it back: nothing is lost)."""
    restarted = session.restart()
    if restarted is session:
        return Step(None, "Already at the start.")
    return Step(restarted, "Restarted. u undoes the restart.")
