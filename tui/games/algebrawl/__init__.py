"""Algebrawl's registration (seed 002): play operator cards on numbers to strike the monsters."""

from core.registry import GameInfo

INFO = GameInfo(
    id="algebrawl",
    title="Algebrawl",
    tagline="Play operator cards on numbers; strike the monsters with the results.",
    engine="core.algebrawl.game:GAME",
    level_format="grammar.algebrawl:FORMAT",
    cli="tui.games.algebrawl.cli:algebrawl",
    screen="tui.games.algebrawl.screen:AlgebrawlScreen",
    generators="core.algebrawl.generators:GENERATORS",
    editor="tui.games.algebrawl.designer:AlgebrawlDesigner",
    id_params=(("low", None), ("high", None)),
    order=30,
)
"""The registration, found by :mod:`core.registry` in this game folder."""
