"""2048's registration (seed 004): slide and merge tiles; a pure functional core."""

from core.registry import GameInfo

INFO = GameInfo(
    id="2048",
    title="2048",
    tagline="Slide and merge tiles; seeded, undoable, with an expectimax hint.",
    engine="core.game2048.game:GAME",
    level_format="grammar.game2048:FORMAT",
    cli="tui.games.game2048.cli:game2048",
    screen="tui.games.game2048.screen:Game2048Screen",
    generators="core.game2048.generators:GENERATORS",
    editor="tui.games.game2048.designer:Game2048Designer",
    id_params=(("size", 4), ("rule", "standard")),
    order=50,
)
"""The registration, found by :mod:`core.registry` in this game folder."""
