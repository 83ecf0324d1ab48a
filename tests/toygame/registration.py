"""The toy game's one registration (a test registers it with ``core.registry.register``)."""

from core.registry import GameInfo

INFO = GameInfo(
    id="toy",
    title="Slide-1D",
    tagline="Sort a row of tiles by sliding them into the gap.",
    engine="tests.toygame.engine:GAME",
    level_format="tests.toygame.grammar:FORMAT",
    cli="tests.toygame.cli:toy",
    screen="tests.toygame.screen:ToyScreen",
    help="tests.toygame:help.md",
    order=5,
)
