"""Slide-1D, a toy game that exists only inside the tests: its one folder.

This package is what a game's folder ``tui/games/<game>/`` is for a real game: the
registration (``INFO`` below), screen, CLI group, level grammar, help page and levels; its
engine is its core package, ``tests/toycore``. It edits no shared file of termarcade: tests
either register ``INFO`` at run time or install the folder the way a first-party game is found
(``tests/test_toy_folder.py``).
"""

from core.registry import GameInfo

INFO = GameInfo(
    id="toy",
    title="Slide-1D",
    tagline="Sort a row of tiles by sliding them into the gap.",
    engine="tests.toycore.engine:GAME",
    level_format="tests.toygame.grammar:FORMAT",
    cli="tests.toygame.cli:toy",
    screen="tests.toygame.screen:ToyScreen",
    help="tests.toygame:help.md",
    order=5,
)
