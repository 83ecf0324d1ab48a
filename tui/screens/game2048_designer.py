"""The level editor of 2048 on the designer's bench (:mod:`tui.screens.designer`)."""

from __future__ import annotations

from tui.screens.designer import LevelTextDesigner

__all__ = ["Game2048Designer"]


class Game2048Designer(LevelTextDesigner):
    """The level as level-file text, checked by the same loader as level files."""

    GAME = "2048"
