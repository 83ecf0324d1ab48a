"""Text fields for the benches and dialogs that never hold a control character.

Textual's :class:`~textual.widgets.Input` and :class:`~textual.widgets.TextArea` draw their
text as it is, so an ESC, a C1 control or a bidi override in a level's hint or author
(filled into a designer's fields) or in pasted text would reach the player's terminal raw:
an ANSI or OSC sequence could restyle the screen or retitle the window, a bidi override
could hide text. These fields write each such character as its visible escape (``\\e``,
``\\x07``, ``\\u202e``: :func:`core.text.escape_controls`, used wherever text from a player
is shown), so a field shows, and the level keeps, what the player can see.
"""

from __future__ import annotations

from typing import Any

from textual.widgets import Input, TextArea
from textual.widgets.text_area import Edit, EditResult

from core.text import escape_controls

__all__ = ["PlainInput", "PlainTextArea", "plain_lines"]


def plain_lines(text: str) -> str:
    """``text`` with its control characters escaped, line breaks and tabs kept.

    Args:
        text: Text for a multi-line field (``\\r\\n`` and ``\\r`` line breaks are read as
            ``\\n``, as a paste from another system brings them).

    Returns:
        The text, every other control character written as a visible escape.
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return "\t".join(escape_controls(part, keep_newlines=True) for part in text.split("\t"))


class PlainInput(Input):
    """An :class:`~textual.widgets.Input` whose value has its control characters escaped,
    and which keeps its text when it gets the focus: Textual's selects it all by default, so
    the first key typed replaced a title or a number list (issue 30); the cursor goes to the
    end instead."""

    def __init__(self, *args: Any, select_on_focus: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, select_on_focus=select_on_focus, **kwargs)

    def validate_value(self, value: str) -> str:
        """Escape control characters, whichever way the value is set (constructor, paste,
        typing, code).

        Args:
            value: The value being set.

        Returns:
            The value with each control character written as a visible escape.
        """
        return escape_controls(value)


class PlainTextArea(TextArea):
    """A :class:`~textual.widgets.TextArea` whose text has its control characters escaped
    (line breaks and tabs kept)."""

    def __init__(self, text: str = "", **kwargs: Any) -> None:
        super().__init__(plain_lines(text), **kwargs)

    def load_text(self, text: str) -> None:
        """Load ``text`` (``.text = ...`` too), control characters escaped."""
        super().load_text(plain_lines(text))

    def edit(self, edit: Edit) -> EditResult:
        """Perform an edit (typing, paste, code), its text's control characters escaped;
        undo and redo replay the escaped edit."""
        edit.text = plain_lines(edit.text)
        return super().edit(edit)
