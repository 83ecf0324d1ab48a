"""The level-metadata protocol: the fields every game's level carries besides its rules.

Whatever the game, a level has a **title** (level lists, headers, save slots), a **par**
(the designer's move count, or None), a **hint** (the tip shown on the first ``t``), a
**description** and an **author**. The shell reads them through :class:`LevelMeta` (plain
attribute reads, never ``getattr`` probes), and every game's level constructor checks them
with the one :func:`check_meta`, so the same bad value is refused with the same message in
every game, and a level file's loader can put its caret on the field
(:class:`core.levelpack.LevelFieldError` names it).

A game's level declares the five fields in its own frozen dataclass (their order there fixes
its positional constructor, which each game keeps) and calls :func:`check_meta` first in
``__post_init__``; a game with no par (2048 is scored) declares ``par`` as a property that is
always None. A game may add stricter rules of its own after :func:`check_meta` (Algebrawl's
par is at most :data:`core.algebrawl.level.MAX_PAR` moves).

The level-file side is :data:`grammar.format.META_FIELDS` and its two helpers: the field
specs, reading them into constructor arguments and writing them back.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from core.levelpack import MAX_TEXT, LevelFieldError, check_text, check_title

__all__ = ["MAX_PAR", "META_TEXTS", "LevelMeta", "check_meta", "check_par"]

MAX_PAR = 10**9
"""Largest par of any game (keeps counters sane and level files readable)."""

META_TEXTS = ("author", "description", "hint")
"""The free-text metadata fields, in the order level files write them (before the game's
own fields)."""


@runtime_checkable
class LevelMeta(Protocol):
    """What the shell reads of any game's level.

    Attributes:
        title: Shown in level lists and headers; unique within a pack ("" only where the
            game allows untitled levels: Longcat grids built in code, Carving's JSON form).
        par: The designer's move count for a good solution, or None.
        hint: The tip shown on the first ``t`` ("" when none).
        description: Flavour / explanation text ("" when none).
        author: Who made the level ("" when unknown).
    """

    # Read-only properties, so a frozen dataclass field and a computed property (2048's par)
    # both satisfy the protocol.
    @property
    def title(self) -> str:
        """Shown in level lists and headers."""

    @property
    def par(self) -> int | None:
        """The designer's move count, or None."""

    @property
    def hint(self) -> str:
        """The tip shown on ``t``."""

    @property
    def description(self) -> str:
        """Flavour / explanation text."""

    @property
    def author(self) -> str:
        """Who made the level."""


def check_par(par: Any) -> None:
    """Check a par: None, or an integer from 0 to :data:`MAX_PAR` (not a bool).

    Args:
        par: The value given.

    Raises:
        LevelFieldError: On ``par``, when the value is not such a par.
    """
    # type() rather than isinstance: True is an int, and "par True" is a mistake.
    if par is not None and (type(par) is not int or not 0 <= par <= MAX_PAR):
        raise LevelFieldError("par", f"par must be an integer from 0 to {MAX_PAR}, not {par!r}")


def check_meta(level: LevelMeta, *, title_required: bool = True) -> None:
    """Check a level's metadata fields (the one definition of their bounds).

    The title is checked first, then the free texts in :data:`META_TEXTS` order, then the
    par, so a level with several bad fields is always blamed for the same one.

    Args:
        level: The level (any object with the :class:`LevelMeta` attributes).
        title_required: False for games whose levels may be untitled (an empty title is
            then accepted; a given one is checked as any title).

    Raises:
        LevelFieldError: Naming the first field out of bounds: a title that is not 1 to
            :data:`core.levelpack.MAX_TITLE` printable characters on one line, a text that
            is not a string of at most :data:`core.levelpack.MAX_TEXT` encodable
            characters, a par that :func:`check_par` refuses.
    """
    title = level.title
    if title_required or not isinstance(title, str) or title:
        check_title(title)
    for name in META_TEXTS:
        check_text(name, getattr(level, name), MAX_TEXT)  # names from the fixed tuple above
    check_par(level.par)
