"""Bundled level packs, one folder per game (``levels/<game>/*.levels``).

The files are package data, so they are found through :mod:`importlib.resources` both from a
source checkout and from a non-editable install (wheel or zip). Nothing is read at import time.
"""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable

__all__ = ["pack_dir", "pack_files"]


def pack_dir(game: str) -> Traversable:
    """Return the folder of bundled level packs for a game.

    Args:
        game: A game id such as ``"termcraft"`` or ``"longcat"``.

    Returns:
        A :class:`~importlib.resources.abc.Traversable` for ``levels/<game>``; it may not exist
        when the game ships no packs (check with ``.is_dir()``).

    Raises:
        ValueError: If ``game`` is not a plain identifier (no path separators or dots).
    """
    if not game or not all(ch.isalnum() or ch == "_" for ch in game):
        raise ValueError(f"not a game id: {game!r}")
    return files(__name__).joinpath(game)


def pack_files(game: str) -> list[Traversable]:
    """Return the bundled ``*.levels`` files for a game, sorted by name.

    Args:
        game: A game id.

    Returns:
        The pack files (an empty list when the game has none).
    """
    folder = pack_dir(game)
    if not folder.is_dir():
        return []
    return sorted(
        (entry for entry in folder.iterdir() if entry.name.endswith(".levels") and entry.is_file()),
        key=lambda entry: entry.name,
    )
