"""The level editor of Carving on the designer's bench (:mod:`tui.screens.designer`)."""

from __future__ import annotations

from tui.screens.designer import LevelTextDesigner

__all__ = ["CarvingDesigner"]


class CarvingDesigner(LevelTextDesigner):
    """The level as level-file text, checked by the same loader as level files."""

    GAME = "carving"
