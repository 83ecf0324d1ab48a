"""What the player's terminal can show, and the app's answers to it.

One place decides how the arcade adapts to a terminal, so every screen (including future
ones) gets the same treatment without edits:

* **Glyphs.** :func:`detect_profile` picks a glyph set from ``TERM`` (or the player's choice):
  ``unicode`` (the default), ``cp437`` for the Linux console (its fonts have the box drawings,
  blocks and Latin-1 of code page 437, but not arrows, stars or most symbols) and ``ascii`` for
  VT100-class and "dumb" terminals or on request (``serve --ascii``, ``TERMARCADE_GLYPHS``). The
  translation happens in the output driver (:class:`TerminalDriver`): every character the app
  writes goes through a table that maps box drawings, blocks, arrows and symbols to safe
  look-alikes of the same cell width, so layouts never shift.
* **Colours.** With 16 colours (``TERM=xterm``, ``linux``, ``screen`` ...) the app uses Textual's
  ANSI theme, so colours come from the terminal's own palette instead of rough
  approximations of the default theme's 24-bit colours. With ``NO_COLOR`` Textual draws in
  greys only (no hue), whatever the terminal.
* **Size.** Below :data:`MIN_SIZE` a "terminal too small" screen covers the app until the window
  grows again (:func:`check_size`, called by the app on every resize).
* **Exit.** :class:`TerminalDriver` drops anything the app writes after it left application
  mode, so a repaint racing the exit (after a resize, say) cannot draw a frame on the shell.
"""

from __future__ import annotations

import os
import sys
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Static

if TYPE_CHECKING:  # pragma: no cover
    from textual.app import App
    from textual.driver import Driver

__all__ = [
    "ENV_GLYPHS",
    "GLYPH_SETS",
    "MIN_SIZE",
    "TerminalProfile",
    "TooSmallScreen",
    "check_size",
    "detect_profile",
    "driver_class",
    "theme_for",
    "translator",
]

GLYPH_SETS = ("unicode", "cp437", "ascii")
"""The glyph sets, richest first."""

ENV_GLYPHS = "TERMARCADE_GLYPHS"
"""Environment variable naming the glyph set (overrides what ``TERM`` suggests)."""

MIN_SIZE = (60, 20)
"""Smallest (columns, lines) the screens are usable at: at 60x20 every game still shows its
board, its status and the start of its footer; below it boards and targets get cut off.
The screens are designed for 80x24."""

# TERM values (or prefixes before "-") whose terminals cannot be trusted with more than ASCII.
_ASCII_TERMS = frozenset(
    {
        "dumb",
        "unknown",
        "vt52",
        "vt100",
        "vt102",
        "vt220",
        "vt320",
        "ansi",
        "cons25",
        "sun",
        "hp",
        "wy50",
        "adm3a",
    }
)
# The Linux (and FreeBSD syscons) console: code page 437 fonts.
_CP437_TERMS = frozenset({"linux", "con80x25", "cons25l1", "pcansi", "screen.linux", "tmux.linux"})


@dataclass(frozen=True, slots=True)
class TerminalProfile:
    """What a terminal can show.

    Attributes:
        term: The ``TERM`` value ("" when unset).
        glyphs: ``"unicode"``, ``"cp437"`` or ``"ascii"``.
        colors: 0 (no colour), 16, 256 or 16777216 (24-bit), as Rich will detect it.
        no_color: ``NO_COLOR`` is set (Textual then drops colours).
    """

    term: str = ""
    glyphs: str = "unicode"
    colors: int = 16777216
    no_color: bool = False


def detect_profile(
    env: Mapping[str, str] | None = None, *, glyphs: str | None = None
) -> TerminalProfile:
    """Work out the terminal from the environment.

    Args:
        env: The environment (default ``os.environ``).
        glyphs: A glyph set chosen by the player (``--ascii`` gives ``"ascii"``); wins over
            ``TERMARCADE_GLYPHS``, which wins over what ``TERM`` suggests. A
            ``TERMARCADE_GLYPHS`` that names no glyph set is ignored (it may come from a
            stranger's SSH client: a bad value must not end their session).

    Returns:
        The profile.

    Raises:
        ValueError: For an unknown glyph set name in ``glyphs`` (a caller's mistake).
    """
    env = os.environ if env is None else env
    term = env.get("TERM", "").strip().lower()
    if glyphs is not None and glyphs not in GLYPH_SETS:
        raise ValueError(f"unknown glyph set {glyphs!r} (choose from {', '.join(GLYPH_SETS)})")
    from_env = env.get(ENV_GLYPHS, "").strip().lower()
    if from_env not in GLYPH_SETS:
        from_env = ""
    chosen = glyphs or from_env or _glyphs_for_term(term)
    return TerminalProfile(
        term=term, glyphs=chosen, colors=_colors(env, term), no_color="NO_COLOR" in env
    )  # set at all, as Textual reads it


def _glyphs_for_term(term: str) -> str:
    base = term.split("-")[0]
    if term in _CP437_TERMS or base in _CP437_TERMS:
        return "cp437"
    if term in _ASCII_TERMS or base in _ASCII_TERMS:
        return "ascii"
    return "unicode"


def _colors(env: Mapping[str, str], term: str) -> int:
    """The colour count Rich (and so Textual) will use; mirrors Rich's own detection."""
    forced = env.get("TEXTUAL_COLOR_SYSTEM", "").strip().lower()
    if forced in ("truecolor", "256", "standard"):
        return {"truecolor": 16777216, "256": 256, "standard": 16}[forced]
    if term in ("dumb", "unknown"):
        return 0
    if env.get("COLORTERM", "").strip().lower() in ("truecolor", "24bit"):
        return 16777216
    if term.rpartition("-")[2] in ("256color", "kitty"):
        return 256
    return 16


def theme_for(profile: TerminalProfile) -> str | None:
    """The Textual theme a terminal should get, or None to keep the default.

    With 16 colours the default theme's 24-bit colours would be squeezed onto the standard
    palette; the ANSI theme uses the terminal's own colours instead. With ``NO_COLOR`` Textual
    draws the default theme in greys (its monochrome filter, chosen when the app is made, does
    not combine with the ANSI theme), so the theme is left alone.
    """
    if profile.no_color:
        return None
    return "ansi-dark" if profile.colors <= 16 else None


# -- glyph translation ---------------------------------------------------------------------------

# Hand-picked look-alikes, one cell each; what the tables below do not cover falls back to
# :func:`_ascii_by_name` (box drawings and blocks by their Unicode names) and then to "?".
_ASCII_EXTRA = {
    "⇒": ">",
    "⇐": "<",
    "→": ">",
    "←": "<",
    "↑": "^",
    "↓": "v",
    "↔": "-",
    "↕": "|",
    "⟶": ">",
    "⟵": "<",
    "➜": ">",
    "»": ">",
    "«": "<",
    "›": ">",
    "‹": "<",
    "▶": ">",
    "▸": ">",
    "►": ">",
    "◀": "<",
    "◂": "<",
    "◄": "<",
    "▲": "^",
    "▴": "^",
    "▼": "v",
    "▾": "v",
    "◆": "@",
    "◇": "o",
    "★": "*",
    "☆": "*",
    "✦": "*",
    "✶": "*",
    "●": "*",
    "•": "*",
    "∙": ".",
    "·": ".",
    "○": "o",
    "◯": "O",
    "⭘": "O",
    "◉": "@",
    "■": "#",
    "□": "o",
    "▪": "#",
    "▫": "o",
    "✗": "x",
    "✘": "x",
    "×": "x",
    "✓": "v",
    "✔": "v",
    "…": ".",
    "⋯": ".",
    "⋮": ":",
    "−": "-",
    "–": "-",
    "—": "-",
    "‐": "-",
    "‘": "'",
    "’": "'",
    "“": '"',
    "”": '"',
    "≤": "<",
    "≥": ">",
    "≠": "#",
    "±": "+",
    "⚠": "!",
    "⏎": "<",
    "↵": "<",
    "␣": "_",
    "°": "o",
    "σ": "s",
    "Σ": "E",
    "α": "a",
    "β": "b",
    "λ": "L",
    "∞": "8",
    "÷": "/",
    "¬": "!",
    "≡": "=",
    "≈": "~",
    "‖": "|",
    "█": "#",
    "▓": "#",
    "▒": ":",
    "░": ".",
    "▀": "-",
    "▄": "_",
    "▌": "|",
    "▐": "|",
    "▔": "-",
    "▁": "_",
    "\u00a0": " ",
}

# The Linux console: keep what its code-page-437 fonts draw, replace the rest.
_CP437_EXTRA = {
    "⇒": "»",
    "⇐": "«",
    "→": "»",
    "←": "«",
    "▶": "»",
    "▸": "»",
    "►": "»",
    "◀": "«",
    "◆": "■",
    "▪": "■",
    "●": "·",
    "•": "·",
    "⭘": "O",
    "▔": "▀",
    "▁": "_",
    "▂": "▄",
    "▃": "▄",
    "▅": "▄",
    "▆": "█",
    "▇": "█",
    "▉": "█",
    "▊": "▌",
    "▋": "▌",
    "▍": "▌",
    "▎": "│",
    "▏": "│",
    "▕": "│",
    "╭": "┌",
    "╮": "┐",
    "╯": "┘",
    "╰": "└",
    "╴": "─",
    "╶": "─",
    "╵": "│",
    "╷": "│",
    "╸": "─",
    "╺": "─",
    "╹": "│",
    "╻": "│",
}


def _is_cp437_safe(char: str) -> bool:
    """True for characters every Linux console font draws: CP437 box drawings, blocks, Latin-1."""
    code = ord(char)
    if code < 0x80:
        return True
    in_font_ranges = 0xA0 <= code <= 0xFF or 0x2500 <= code <= 0x25A0
    if not in_font_ranges:
        return False
    try:
        char.encode("cp437")
    except UnicodeEncodeError:
        return False
    return True


def _ascii_by_name(char: str) -> str | None:
    """Box drawings and block elements by their Unicode names (``─`` -> ``-``, ``┼`` -> ``+``)."""
    name = unicodedata.name(char, "")
    if name.startswith("BOX DRAWINGS"):
        words = set(name.split())
        if "DIAGONAL" in words:
            if "CROSS" in words:
                return "X"
            return "/" if "UPPER RIGHT TO LOWER LEFT" in name else "\\"
        across = bool(words & {"HORIZONTAL", "LEFT", "RIGHT"})
        down = bool(words & {"VERTICAL", "UP", "DOWN"})
        if across and down:
            return "+"
        if across:  # heavy lines mark focus in Textual's borders: keep them apart
            return "=" if words & {"DOUBLE", "HEAVY"} else "-"
        return "|" if down else None
    if name.startswith(("LEFT ", "RIGHT ")) and name.endswith("BLOCK"):
        return "|"
    if name.startswith("LOWER ") and name.endswith("BLOCK"):
        return "_" if any(part in name for part in ("ONE", "QUARTER", "THREE EIGHTHS")) else "#"
    if name.startswith("UPPER ") and name.endswith("BLOCK"):
        return "-"
    if name.startswith("QUADRANT"):
        return "#"
    return None


def _double_for_heavy(char: str) -> str | None:
    """The double-line box drawing for a heavy one (``┏`` -> ``╔``): CP437 has no heavy lines,
    and Textual draws the focused panel's border heavy, so the difference must survive."""
    name = unicodedata.name(char, "")
    if not name.startswith("BOX DRAWINGS HEAVY") or " LIGHT" in name:
        return None
    try:
        double = unicodedata.lookup(name.replace("HEAVY", "DOUBLE"))
    except KeyError:
        return None
    return double if _is_cp437_safe(double) else None


def _ascii_fallback(char: str) -> str:
    """An ASCII look-alike of ``char`` with the same cell width."""
    width = max(cell_len(char), 0)
    if width == 0:
        return ""  # combining marks and zero-width characters just go
    found = _ASCII_EXTRA.get(char) or _ascii_by_name(char)
    if found is None:
        stripped = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode()
        found = stripped if len(stripped) == 1 and stripped.isprintable() else "?"
    return found * width if width > 1 and len(found) == 1 else found


class _GlyphTable(dict):
    """A :meth:`str.translate` table that works out each new character once."""

    def __init__(self, glyphs: str) -> None:
        super().__init__()
        self.glyphs = glyphs

    def __missing__(self, code: int) -> str:
        char = chr(code)
        if self.glyphs == "cp437":
            if _is_cp437_safe(char):
                result = char
            else:
                result = _CP437_EXTRA.get(char) or _double_for_heavy(char) or _ascii_fallback(char)
        else:
            result = char if code < 0x80 else _ascii_fallback(char)
        self[code] = result
        return result


@cache
def translator(glyphs: str) -> Callable[[str], str]:
    """The function that makes text safe for a glyph set.

    Args:
        glyphs: One of :data:`GLYPH_SETS`.

    Returns:
        A function from text to text of the same cell width (escape sequences are ASCII, so
        they pass unchanged). For ``"unicode"`` it returns its argument.
    """
    if glyphs == "unicode":
        return lambda text: text
    table = _GlyphTable(glyphs)

    def translate(text: str) -> str:
        return text if text.isascii() else text.translate(table)

    return translate


# -- the driver ----------------------------------------------------------------------------------


@cache
def driver_class(glyphs: str) -> type[Driver] | None:
    """The output driver for a glyph set (None where Textual's own driver must be used).

    On POSIX this is a :class:`textual.drivers.linux_driver.LinuxDriver` that translates what
    it writes and ignores writes after leaving application mode; on Windows, and when
    ``TEXTUAL_DRIVER`` names another driver (``serve --web`` does), Textual chooses.
    """
    if sys.platform == "win32" or os.environ.get("TEXTUAL_DRIVER"):
        return None
    from textual.drivers.linux_driver import LinuxDriver

    translate = translator(glyphs)

    class TerminalDriver(LinuxDriver):
        """Textual's terminal driver, with glyph translation and a clean exit."""

        _restoring = False
        _left = False

        def write(self, data: str) -> None:
            # After stop_application_mode the terminal belongs to the shell again: a repaint
            # that raced the exit would otherwise land on the shell's screen.
            if self._left and not self._restoring:
                return
            super().write(translate(data))

        def start_application_mode(self) -> None:
            self._left = False
            super().start_application_mode()

        def stop_application_mode(self) -> None:
            self._restoring = True
            try:
                super().stop_application_mode()
            finally:
                self._restoring = False
                self._left = True

    TerminalDriver.__qualname__ = TerminalDriver.__name__ = f"TerminalDriver[{glyphs}]"
    return TerminalDriver


# -- too small -----------------------------------------------------------------------------------


class TooSmallScreen(Screen[None]):
    """Covers the app while the terminal is smaller than :data:`MIN_SIZE`.

    It closes itself as soon as the terminal is big enough again (also when it comes back to
    the top of the screen stack after something was pushed over it). ``ctrl+q`` still quits.
    """

    DEFAULT_CSS = """
    TooSmallScreen { align: center middle; }
    TooSmallScreen > Static { width: 100%; height: auto; text-align: center; }
    """
    # Keys would act on a screen the player cannot see: swallow help and back here. No id:
    # there is nothing to remap (ctrl+q, the app's own binding, still quits).
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1,question_mark,escape,q", "nothing", show=False),
    ]

    def __init__(self, size: Any) -> None:
        super().__init__()
        self._shown = (size.width, size.height)

    def compose(self) -> ComposeResult:
        yield Static(self.text(), id="too-small-text")

    def text(self) -> str:
        """What the screen says (for the current size)."""
        width, height = self._shown
        need_w, need_h = MIN_SIZE
        return (
            f"Terminal too small: {width}×{height}.\n"
            f"termarcade needs at least {need_w}×{need_h}.\n"
            "Make the window bigger (ctrl+q quits)."
        )

    def action_nothing(self) -> None:
        """Ignore a key."""

    def on_resize(self, event: Any) -> None:
        self.follow(event.size)

    def on_screen_resume(self) -> None:
        self.follow(self.app.size)

    def follow(self, size: Any) -> None:
        """Show the new size, or close when it is big enough (once this screen is on top)."""
        self._shown = (size.width, size.height)
        if not is_too_small(size):
            if self.app.screen is self:
                self.dismiss()
            return
        if self.is_mounted:
            self.query_one("#too-small-text", Static).update(self.text())


def is_too_small(size: Any) -> bool:
    """True when a size (``.width``, ``.height``) is below :data:`MIN_SIZE`."""
    return size.width < MIN_SIZE[0] or size.height < MIN_SIZE[1]


def check_size(app: App[Any], size: Any = None) -> None:
    """Show or hide :class:`TooSmallScreen` (call on every resize).

    Args:
        app: The app.
        size: The new size (a resize event's; the app applies it a moment later), or None
            for the app's current size.
    """
    size = app.size if size is None else size
    try:
        top = app.screen
    except Exception:  # No screen yet (the very first resize comes before the first screen).
        return
    if isinstance(top, TooSmallScreen):
        top.follow(size)
    elif is_too_small(size):
        app.push_screen(TooSmallScreen(size))
