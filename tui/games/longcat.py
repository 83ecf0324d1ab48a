"""Longcat's registration (seed 003): slide the cat until it fills every empty cell."""

from core.registry import GameInfo
from levels.longcat_rl import install

# The learned generator (``rl``) reads its bundled weights through levels/ (core reads no
# files); installing only names the loader, nothing is read until a learned level is made.
install()

INFO = GameInfo(
    id="longcat",
    title="Longcat",
    tagline="Slide the long cat until it fills the grid; generated levels too.",
    engine="core.longcat.game:GAME",
    level_format="grammar.longcat:FORMAT",
    cli="tui.cli.longcat:longcat",
    screen="tui.screens.longcat:LongcatScreen",
    generators="core.longcat.catalog:GENERATORS",
    editor="tui.screens.longcat_designer:LongcatDesigner",
    id_params=(("size", "8x8"), ("band", "any"), ("unique", 0)),
    order=40,
)
"""The registration read through the ``termarcade.games`` entry point."""
