"""Pausing the cyclic garbage collector while a parse builds many values.

A large level file or term creates millions of nodes and records, none of them in reference
cycles; every automatic collection on the way would walk all of them again (about a third
of the time of a 10 MB file). Reference counting still frees everything as usual. This is
:class:`core.search.quiet_gc` (one policy for the parsers and the engines), sized by the
text: a short text is not worth a pause.
"""

from __future__ import annotations

from core.search import quiet_gc

__all__ = ["collector_paused"]

CHARS_PER_NODE = 4
"""About how many characters of text make one value (``f(a,b)``: 3 nodes in 6)."""


def collector_paused(text: str) -> quiet_gc:
    """Pause automatic garbage collection while ``text`` is parsed, if it is long.

    Args:
        text: The text about to be parsed.

    Returns:
        The context manager (use it in a ``with``).
    """
    return quiet_gc(len(text) // CHARS_PER_NODE)
