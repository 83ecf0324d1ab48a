"""Level packs: a titled, ordered collection of levels of one game.

A :class:`LevelPack` is what one level file (``levels/<game>/*.levels``) holds, whatever the
game; its ``levels`` are the game's own level values (for TermCraft,
:class:`core.termcraft.level.Level`).  The text format and its loader live in
``grammar/levels.py``; this module is the pure value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["LevelPack"]


@dataclass(frozen=True, slots=True)
class LevelPack:
    """An ordered collection of levels with a header.

    Attributes:
        title: The pack's title (shown in level selection).
        author: Who made the pack ("" when unknown).
        description: What the pack is about ("" when none).
        levels: The levels, in play order (the game's own level values).
        game: The game id every level belongs to (``"termcraft"``, ``"longcat"``, ...).
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
