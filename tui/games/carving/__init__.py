"""Triangle Carving's registration (seed 001): carve a target hypergraph out of a deductive closure."""

from core.registry import GameInfo

INFO = GameInfo(
    id="carving",
    title="Triangle Carving",
    tagline="Build edges, carve paths, leave a component shaped like the target.",
    engine="core.carving.game:GAME",
    level_format="grammar.carving:FORMAT",
    cli="tui.games.carving.cli:carving",
    screen="tui.games.carving.screen:CarvingScreen",
    generators="core.carving.generators:GENERATORS",
    editor="tui.games.carving.designer:CarvingDesigner",
    order=20,
)
"""The registration, found by :mod:`core.registry` in this game folder."""
