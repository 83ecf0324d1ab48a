"""The puzzle screen's two lines of text: the header above the board and the message line
under it (small widgets), and what the header says (:func:`header_line`, plain)."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from core.session import Session
from core.text import escape_controls, plural

__all__ = ["MessageBar", "PuzzleHeader", "header_line"]


class MessageBar(Static):
    """The message line under the board; never covers what is being played.

    One line, growing to three for a long message (tips and verdicts name whole terms and
    operators, 60+ characters): wrapped, never cut at 80 columns, in every game.
    """

    DEFAULT_CSS = """
    MessageBar { height: auto; max-height: 3; padding: 0 1; color: $text-muted; }
    MessageBar.-warning { color: $text-warning; }
    MessageBar.-error { color: $text-error; text-style: bold; }
    """

    def say(self, text: str, severity: str = "information") -> None:
        """Show ``text`` (control characters escaped), replacing the previous message."""
        self.set_class(severity == "warning", "-warning")
        self.set_class(severity == "error", "-error")
        self.update(Text(escape_controls(text.replace("\n", " "))))


class PuzzleHeader(Static):
    """The top line: game and level, moves against par, won or lost, undo/redo."""

    DEFAULT_CSS = """
    PuzzleHeader { height: 1; padding: 0 1; background: $boost; text-style: bold; }
    """


def header_line(
    game_title: str,
    level_title: str,
    session: Session,
    *,
    par: int | None,
    move_word: str,
    autoplayed: bool,
) -> str:
    """The header's text: game and level, moves (par), status, undo/redo availability.

    Args:
        game_title: The game's title.
        level_title: The level's title ("" when it has none; control characters escaped).
        session: The game.
        par: The level's par, if it has one.
        move_word: What one move is called (``"move"``; Carving: ``"action"``).
        autoplayed: Whether the computer played in this game (a win then says so).

    Returns:
        The parts, three spaces apart.
    """
    title = f"{game_title}: {escape_controls(level_title)}" if level_title else game_title
    moves = plural(session.moves_made, move_word)
    parts = [title, f"{moves} (par {par})" if par is not None else moves]
    if session.status == "won":
        won = "★ won by the computer" if autoplayed else "★ won"
        parts.append(won + ("" if session.finished else ", keep playing"))
    elif session.status == "lost":
        parts.append("✗ no moves left")
    undo = [word for word, ok in (("u undo", session.can_undo), ("U redo", session.can_redo)) if ok]
    if undo:
        parts.append(" · ".join(undo))
    return "   ".join(parts)
