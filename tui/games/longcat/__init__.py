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
    # core.longcat.catalog's generators, with the learned one given its bundled weights (read
    # through levels/, since core reads no files; only when a learned level is made).
    generators="levels.longcat_rl:GENERATORS",
    editor="tui.games.longcat.designer:LongcatDesigner",
    id_params=(("size", "8x8"), ("band", "any"), ("unique", 0)),
    order=40,
)
"""The registration, found by :mod:`core.registry` in this game folder."""
