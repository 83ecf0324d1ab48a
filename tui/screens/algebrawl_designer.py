"""The level editor of Algebrawl on the designer's bench (:mod:`tui.screens.designer`)."""

from __future__ import annotations

from tui.screens.designer import LevelTextDesigner

__all__ = ["AlgebrawlDesigner"]


class AlgebrawlDesigner(LevelTextDesigner):
    """The level as level-file text, checked by the same loader as level files."""

    GAME = "algebrawl"
