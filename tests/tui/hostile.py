"""Hostile player text for the "player text is data, never markup" tests (issue 27).

Self-contained (it imports nothing from the arcade), so any test may put these strings into a
field a stranger controls: a level title or description, a player name, an ID, a file name.
A screen passes when it shows each one literally (control characters as visible escapes)
and a click on it runs no action.
"""

from __future__ import annotations

__all__ = [
    "CLICKABLE",
    "CONTROLS",
    "HOSTILE",
    "LONG",
    "MARKUP",
    "TITLES",
    "on_screen",
]

MARKUP = (
    "[b]x[/]",
    "[reverse]rev[/reverse]",
    "[link=http://x]y[/]",
    "[@click=app.screenshot('pwn','/tmp')]X[/]",
    "[@click=app.quit]Q[/]",
)
"""Textual content markup: styles, a link, and two click actions."""

CLICKABLE = tuple(text for text in MARKUP if "@click" in text)
"""The strings that run an action when a click lands on them as markup."""

CONTROLS = (
    "\x1b]0;pwned\x07title",
    "\x1b[31mred\x1b[0m\x1b[2J",
    "\u202eevil\u2066x\u2069\x9b",
)
"""An OSC window title, CSI colour and screen clear, bidi overrides and a C1 control."""

LONG = "[b]" + "w" * 9_990 + "[/]"
"""10,000 characters (markup at both ends)."""

HOSTILE = MARKUP + CONTROLS + (LONG,)
"""Every hostile string: for free text (descriptions, player names, messages)."""

TITLES = MARKUP + ("[i]" + "t" * 190 + "[/]",)
"""The hostile strings a level title may hold (titles are printable, 200 characters at most)."""

_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r", "\x1b": "\\e", "\0": "\\0"}


def on_screen(text: str) -> str:
    """What a screen must show for ``text``: each control character as a visible escape.

    Written out here (not imported from the arcade) so that the expectation is independent
    of the code under test: ``\\e`` for ESC, ``\\x07`` for BEL, ``\\u202e`` for a bidi
    override; printable characters (brackets included) unchanged.
    """
    out = []
    for ch in text:
        if ch == " " or ch.isprintable():
            out.append(ch)
        elif ch in _NAMED:
            out.append(_NAMED[ch])
        else:
            out.append(f"\\x{ord(ch):02x}" if ord(ch) <= 0xFF else f"\\u{ord(ch):04x}")
    return "".join(out)
