"""The target term, wrapped at term boundaries, with what still differs highlighted.

Terms print canonically without spaces, so a long target would wrap in the middle of a name.
Here arguments are separated by ``", "`` for display, so the text wraps only between
arguments, and the positions where the target differs from the current term
(:func:`core.termcraft.terms.differences`) are underlined and bold — visible without colour.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.text import Text
from textual.widgets import Static

from core.termcraft.terms import COMPOUND, VAR, Path, Term

__all__ = ["TermTargetView", "term_text"]

DIFF_STYLE = "bold underline"
"""How differing subterms are marked (no colour needed)."""


def term_text(term: Term, marked: Iterable[Path] = (), limit: int = 4000) -> Text:
    """Display text of ``term`` with ``", "`` between arguments and ``marked`` positions styled.

    Args:
        term: The term.
        marked: Positions to highlight.
        limit: Stop after about this many characters (``…`` marks the cut).

    Returns:
        Rich text; it wraps at the spaces after commas, i.e. between arguments.
    """
    marks = set(marked)
    text = Text()
    # Stack items: a string to emit, ("end", start) to close a highlight, or (term, path).
    stack: list[Any] = [(term, ())]  # str pieces, ("end", start) marks and (term, path) items
    while stack:
        if len(text) > limit:
            text.append("…")
            break
        item = stack.pop()
        if isinstance(item, str):
            text.append(item)
            continue
        if item[0] == "end":
            text.stylize(DIFF_STYLE, item[1], len(text))
            continue
        t, path = item
        if path in marks:
            stack.append(("end", len(text)))
        if t.kind == VAR:
            text.append(f"var({t.name})")
        elif t.kind == COMPOUND:
            text.append(t.name + "(")
            stack.append(")")
            for i in range(len(t.args) - 1, -1, -1):
                stack.append((t.args[i], path + (i,)))
                if i:
                    stack.append(", ")
        else:
            text.append(t.name)
    return text


class TermTargetView(Static):
    """Shows the target; what still differs from the current term is bold and underlined."""

    DEFAULT_CSS = """
    TermTargetView { height: auto; max-height: 3; width: 1fr; }
    """

    text: Text = Text()
    """What is shown (before wrapping)."""

    def show(self, target: Term, marked: Iterable[Path]) -> None:
        """Render ``target`` with ``marked`` positions highlighted."""
        self.text = term_text(target, marked)
        self.update(self.text)
