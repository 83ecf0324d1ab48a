"""Player text on screen: always data, never markup, never a terminal escape.

Textual reads a plain ``str`` given to ``Static``, ``Label``, ``Option``, ``notify`` or a
border title as *content markup*: ``[b]`` styles, ``[@click=app.screenshot(...)]`` runs an
action when clicked. Level titles, descriptions, player names, IDs and messages quoting them
come from strangers in a served arcade, so the shell turns them into
:class:`textual.content.Content` here, never into a markup string. Rich and Textual pass ESC
and the bidi controls through to the terminal as they are, so the same step writes control
characters as visible escapes (:func:`core.text.escape_controls`).
"""

from __future__ import annotations

from textual.content import Content

from core.text import escape_controls

__all__ = ["plain", "visible"]


def visible(text: str, *, multiline: bool = False) -> str:
    """``text`` with every control character written as an escape (``\\e``, ``\\u202e``).

    Args:
        text: Any text (a player's, a file's, an error message quoting them).
        multiline: Keep line breaks as line breaks (messages of several lines).

    Returns:
        Printable text; still a plain string, so give it to a widget as :func:`plain`.
    """
    return escape_controls(text, keep_newlines=multiline)


def plain(text: str | Content, style: str = "", *, multiline: bool = False) -> Content:
    """Content showing ``text`` literally: brackets are characters, controls are escapes.

    Args:
        text: The text; a :class:`Content` is trusted as built (returned as it is).
        style: A style for the whole text (``"bold"``, ``"dim"``), or none.
        multiline: Keep line breaks (else they are shown as ``\\n``).

    Returns:
        Content to give to any widget, option, border title or dialog.
    """
    if isinstance(text, Content):
        return text
    shown = visible(text, multiline=multiline)
    return Content.styled(shown, style) if style else Content(shown)
