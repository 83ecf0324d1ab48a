"""Level packs: a titled, ordered collection of levels of one game, and the shared level bounds.

A :class:`LevelPack` is what one level file (``levels/<game>/*.levels``) holds, whatever the
game; its ``levels`` are the game's own level values (for TermCraft,
:class:`core.termcraft.level.Level`).  The text format and its loader live in ``grammar/``;
this module is the pure value.

Every level constructor checks its bounds itself, so that every value a constructor accepts
can be written to a level file and read back (the loader reports a constructor's complaint
with a caret at the field).  The checks shared by every game (titles, free texts) live here,
and a complaint about one field is a :class:`LevelFieldError` naming it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = [
    "MAX_TEXT",
    "MAX_TITLE",
    "LevelFieldError",
    "LevelPack",
    "check_text",
    "check_title",
]

MAX_TITLE = 200
"""Longest level title, in characters (titles are shown on one line in level lists)."""

MAX_TEXT = 20_000
"""Longest free text (descriptions, hints, author names, pack titles), in characters."""


class LevelFieldError(ValueError):
    """A level (or pack) constructor's complaint about one of its fields.

    The loader puts the caret on that field's value when the file gives it.

    Attributes:
        field: The field's name as a level file writes it (``"fuel"``, ``"size"``).
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def _has_surrogate(text: str) -> bool:
    # Lone surrogates cannot be encoded in a UTF-8 file, so such a text could be saved
    # (as an escape) but never read back.
    return not text.isascii() and any("\ud800" <= ch <= "\udfff" for ch in text)


def check_text(field: str, value: Any, limit: int = MAX_TEXT) -> None:
    """Check a free text field: a string of at most ``limit`` characters, UTF-8 encodable.

    Args:
        field: The field's name (for the message).
        value: The value given.
        limit: The most characters allowed.

    Raises:
        LevelFieldError: When the value is not such a text.
    """
    if not isinstance(value, str):
        raise LevelFieldError(field, f"{field} must be a string, not {type(value).__name__}")
    if len(value) > limit:
        raise LevelFieldError(
            field, f"{field} is too long ({len(value)} characters; at most {limit})"
        )
    if _has_surrogate(value):
        raise LevelFieldError(field, f"{field} contains a lone surrogate (not encodable text)")


def check_title(value: Any, field: str = "title") -> None:
    """Check a level title: 1 to :data:`MAX_TITLE` printable characters, not only spaces.

    Titles are shown on one line in lists and headers, so control characters, line breaks
    and other non-printable characters are refused (they could drive the terminal).

    Args:
        value: The title given.
        field: The field's name (for the message).

    Raises:
        LevelFieldError: When the value is not such a title.
    """
    check_text(field, value, MAX_TITLE)
    if not value.strip():
        raise LevelFieldError(field, f"{field} must not be empty")
    if not value.isprintable():
        bad = next(ch for ch in value if not ch.isprintable())
        raise LevelFieldError(
            field, f"{field} must be printable text on one line (it contains U+{ord(bad):04X})"
        )


@dataclass(frozen=True, slots=True)
class LevelPack:
    """An ordered collection of levels with a header.

    Attributes:
        title: The pack's title (shown in level selection; empty, or a title as
            :func:`check_title` accepts).
        author: Who made the pack ("" when unknown).
        description: What the pack is about ("" when none).
        levels: The levels, in play order (the game's own level values; titles unique).
        game: The game id every level belongs to (``"termcraft"``, ``"longcat"``, ...);
            required when the pack has levels.
    """

    title: str
    """The pack's title."""
    author: str = ""
    """Who made the pack."""
    description: str = ""
    """What the pack is about."""
    levels: tuple[Any, ...] = ()
    """The levels, in play order."""
    game: str = ""
    """The game id shared by every level."""

    def __post_init__(self) -> None:
        # Accept any sequence but store a tuple, so packs stay immutable and hashable.
        if not isinstance(self.levels, tuple):
            object.__setattr__(self, "levels", tuple(self.levels))
        for name in ("title", "author", "description", "game"):
            if not isinstance(getattr(self, name), str):
                raise TypeError(f"LevelPack.{name} must be a string")
        check_text("author", self.author)
        check_text("description", self.description)
        if self.title:  # an untitled pack is fine; a title is shown on one line like a level's
            check_title(self.title)
        if self.game and not all(ch.isascii() and (ch.isalnum() or ch == "_") for ch in self.game):
            raise LevelFieldError(
                "game", f"a game id is letters, digits and _ only, not {self.game!r}"
            )
        if self.levels and not self.game:
            raise LevelFieldError("game", "a pack with levels must name their game")
        # Titles identify levels (progress, saves, the level file), so they are unique.
        seen: set[str | None] = set()
        for level in self.levels:
            title: str | None = getattr(level, "title", None)
            if title in seen:
                raise LevelFieldError("title", f"duplicate level title {title!r} in the pack")
            seen.add(title)

    def __len__(self) -> int:
        return len(self.levels)

    def titles(self) -> tuple[str, ...]:
        """Return the level titles in order (titles are unique within a pack).

        Returns:
            One title per level.
        """
        return tuple(getattr(level, "title", "") for level in self.levels)

    def index_of(self, title: str) -> int:
        """Return the position of the level with this title.

        Args:
            title: A level title.

        Returns:
            Its 0-based index.

        Raises:
            KeyError: When no level has that title.
        """
        for i, level in enumerate(self.levels):
            if getattr(level, "title", None) == title:
                return i
        raise KeyError(title)
