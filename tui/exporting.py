"""Keeping a level: in the player's own levels (the store) or in a level file.

Used by every level editor and by "keep this generated level". No Textual here: the dialogs
(:mod:`tui.modals.export`) ask the questions, this module resolves paths, plans what a write
would do, and does it.

* ``~`` is expanded and a relative path is taken from the user's home directory (never from
  wherever the app was started); the full path is shown before anything is written.
* An existing file is never overwritten without asking: exporting to a pack offers to append
  the level (or to replace the level of the same title), or to replace the whole file.
* Files are written through a temporary file and a rename (:func:`tui.store.atomic_write_text`)
  and get the mode the umask gives; errors name the user's path.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.levelpack import LevelPack
from core.text import escape_controls

__all__ = [
    "ExportPlan",
    "default_file_name",
    "plan_export",
    "resolve_path",
    "save_to_my_levels",
    "write_export",
]


def resolve_path(text: str) -> Path:
    """The absolute path a person means by ``text``: ``~`` expanded, relative to home.

    Args:
        text: What was typed.

    Returns:
        An absolute path (not required to exist).

    Raises:
        ValueError: For an empty path.
    """
    text = text.strip()
    if not text:
        raise ValueError("type a file name")
    path = Path(os.path.expanduser(text))
    if not path.is_absolute():
        path = Path.home() / path
    return Path(os.path.normpath(path))


def default_file_name(title: str) -> str:
    """A file name from a title (``My level`` -> ``my-level.levels``)."""
    slug = "".join(ch.lower() if ch.isalnum() else "-" for ch in title).strip("-")
    while "--" in slug:
        slug = slug.replace("--", "-")
    return (slug or "level") + ".levels"


@dataclass(frozen=True, slots=True)
class ExportPlan:
    """What exporting a level to a path would do.

    Attributes:
        path: The absolute file path.
        exists: Whether the file exists.
        pack: The pack already in the file (None when new or unreadable).
        problem: Why the file cannot be appended to ("" when it can or is new).
        same_title: Index of a level with the same title in ``pack`` (None when none).
    """

    path: Path
    """The absolute file path."""
    exists: bool
    """Whether the file exists."""
    pack: LevelPack | None = None
    """The pack already in the file."""
    problem: str = ""
    """Why the file cannot be appended to."""
    same_title: int | None = None
    """A level with the same title in the file's pack."""

    @property
    def can_append(self) -> bool:
        """True when the level can be added to the file's pack."""
        return self.pack is not None and not self.problem


def plan_export(path_text: str, game: str, level: Any) -> ExportPlan:
    """Look at the target file before asking the player anything.

    Raises:
        ValueError: For an empty path or a directory (message for the player).
    """
    from grammar.errors import ParseError
    from grammar.levels import load_pack_file

    path = resolve_path(path_text)
    if path.is_dir():
        raise ValueError(f"{path} is a folder: add a file name")
    if not path.exists():
        return ExportPlan(path, False)
    try:
        pack = load_pack_file(path)
    except ParseError as error:
        return ExportPlan(path, True, None, f"it is not a level pack ({error.message})")
    if pack.game and pack.game != game:
        return ExportPlan(path, True, None, f"it holds {pack.game} levels, not {game} levels")
    titles = [lvl.title for lvl in pack.levels]
    title = level.title
    same = titles.index(title) if title in titles else None
    return ExportPlan(path, True, pack, "", same)


def write_export(plan: ExportPlan, game: str, level: Any, mode: str) -> str:
    """Write the level as ``mode`` says and return a sentence saying what was done.

    Args:
        plan: From :func:`plan_export`.
        game: The game id.
        level: The level.
        mode: ``"new"`` (the file does not exist), ``"append"`` (add to the pack, replacing
            the level of the same title if there is one) or ``"replace"`` (the whole file
            becomes a one-level pack).

    Raises:
        OSError: With the user's path as the file name, when writing fails.
    """
    from grammar.levels import dump_pack
    from tui.store import atomic_write_text

    title = level.title
    if mode == "append" and plan.pack is not None:
        levels = list(plan.pack.levels)
        if plan.same_title is not None:
            levels[plan.same_title] = level
        else:
            levels.append(level)
        pack = LevelPack(
            plan.pack.title, plan.pack.author, plan.pack.description, tuple(levels), game
        )
    else:
        pack = LevelPack(title=title, author=level.author, levels=(level,), game=game)
    try:
        atomic_write_text(plan.path, dump_pack(pack))
    except OSError as error:
        raise OSError(error.errno, error.strerror or str(error), str(plan.path)) from None
    where = escape_controls(str(plan.path))
    if mode == "append":
        verb = "replaced in" if plan.same_title is not None else "added to"
        return f"Level {verb} {where} ({len(pack.levels)} levels)."
    return f"Saved to {where}."


def save_to_my_levels(store: Any, game: str, level: Any, replace_id: int | None = None) -> Any:
    """Add a level to the player's own levels, or replace the one with id ``replace_id``.

    Returns:
        The stored :class:`tui.store.MyLevel`.

    Raises:
        ValueError: When another own level has the same title (the caller asks whether to
            replace it).
    """
    from tui.sources import level_to_text

    text = level_to_text(game, level)
    title = level.title
    if replace_id is not None:
        return store.replace_my_level(game, replace_id, title, text)
    return store.add_my_level(game, title, text)
