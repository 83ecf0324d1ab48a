"""Longcat's registration (seed 003): slide the cat until it fills every empty cell."""

from core.registry import GameInfo

INFO = GameInfo(
    id="longcat",
    title="Longcat",
    tagline="Slide the long cat until it fills the grid; generated levels too.",
    engine="core.longcat.game:GAME",
    level_format="grammar.longcat:FORMAT",
    cli="tui.games.longcat.cli:longcat",
    screen="tui.games.longcat.screen:LongcatScreen",
    generators="core.longcat.catalog:GENERATORS",
    # Core reads no files: the learned generator gets the reader of its bundled weights
    # (levels/longcat/rl/) before the generators are loaded; nothing is read until it is used.
    setup="tui.games.longcat.weights:install",
    editor="tui.games.longcat.designer:LongcatDesigner",
    id_params=(("size", "8x8"), ("band", "any"), ("unique", 0)),
    order=40,
)
"""The registration, found by :mod:`core.registry` in this game folder."""
