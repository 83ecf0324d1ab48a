"""TermCraft's registration (seed 000): rewrite terms with rules, axioms, fuel and budget."""

from core.registry import GameInfo

INFO = GameInfo(
    id="termcraft",
    title="TermCraft",
    tagline="Rewrite terms with rules and axioms until they match the target.",
    engine="core.termcraft.game:GAME",
    level_format="grammar.termcraft:FORMAT",
    cli="tui.cli.termcraft:termcraft",
    screen="tui.screens.termcraft:TermCraftScreen",
    editor="tui.widgets.dev_panel:DevPanel",
    order=10,
)
"""The registration read through the ``termarcade.games`` entry point."""
