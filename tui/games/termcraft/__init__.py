"""TermCraft's registration (seed 000): rewrite terms with rules, axioms, fuel and budget."""

from core.registry import GameInfo

INFO = GameInfo(
    id="termcraft",
    title="TermCraft",
    tagline="Rewrite terms with rules and axioms until they match the target.",
    engine="core.termcraft.game:GAME",
    level_format="grammar.termcraft:FORMAT",
    cli="tui.games.termcraft.cli:termcraft",
    screen="tui.games.termcraft.screen:TermCraftScreen",
    editor="tui.games.termcraft.dev_panel:DevPanel",
    order=10,
)
"""The registration, found by :mod:`core.registry` in this game folder."""
