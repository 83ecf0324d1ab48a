"""Regenerate the documentation's screenshots from the app itself.

Every picture under ``docs/images/`` is an SVG that Textual's ``App.save_screenshot`` writes
while the real app runs headless under the Pilot, at 80x24, with a fresh empty store, so the
pictures can be remade after any visual change::

    python docs/screenshots.py            # all of them
    python docs/screenshots.py home       # only the named ones

Returns exit status 0 when every requested picture was written.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

IMAGES = Path(__file__).resolve().parent / "images"
SIZE = (80, 24)
FIXED_SEED = 2048

# A shot drives the app (the pilot) into the state to picture.
Shot = Callable[..., Awaitable[None]]


SETTLE = 0.5
"""Seconds to let animations (2048's tile flash) and workers finish before a picture."""


async def _press(pilot, *keys: str) -> None:
    """Press keys one by one, letting each screen settle (as a player types)."""
    for key in keys:
        await pilot.press(key)
        await pilot.pause(0.1)


async def _open_game(pilot, game: str) -> None:
    """From the home screen, open ``game``'s first level (2048 starts a game at once)."""
    from core import registry

    row = [info.id for info in registry.games()].index(game)  # the home screen's order
    await _press(pilot, *["j"] * row, "enter")
    if game != "2048":
        await _press(pilot, "enter")  # the level select's first level


def _game(game: str, *keys: str) -> Shot:
    """A shot of ``game``'s first level after the player typed ``keys``."""

    async def shot(pilot) -> None:
        await _open_game(pilot, game)
        await _press(pilot, *keys)

    return shot


async def _2048_editor(pilot) -> None:
    """2048's level editor: the game in progress made the start board (F9), with the verdict."""
    await _game("2048", *["left", "down", "right", "down"] * 4, "E", "f9", "right", "down")(pilot)
    for _ in range(100):  # the verdict's estimate takes up to a second
        if "Estimate" in getattr(pilot.app.screen, "verdict_text", ""):
            break
        await pilot.pause(0.05)


async def _home(pilot) -> None:
    """The home screen as it opens."""
    await pilot.pause()


async def _level_select(pilot) -> None:
    """TermCraft's level select."""
    await _press(pilot, "enter")


async def _termcraft_editor(pilot) -> None:
    """TermCraft's developer panel, with its live verdict (a few milliseconds of search)."""
    await _game("termcraft", "E")(pilot)
    for _ in range(100):
        if "Verdict" in getattr(pilot.app.screen, "verdict_text", ""):
            break
        await pilot.pause(0.05)


async def _leaderboard(pilot) -> None:
    """The leaderboards, from the home screen's ``L``."""
    await _press(pilot, "L")


SHOTS: dict[str, Shot] = {
    "home": _home,
    "level-select": _level_select,
    "termcraft": _game("termcraft"),
    "termcraft-editor": _termcraft_editor,
    "carving": _game("carving"),
    "carving-editor": _game("carving", "E"),
    "algebrawl": _game("algebrawl"),
    "algebrawl-editor": _game("algebrawl", "E"),
    "longcat": _game("longcat", "right"),
    "longcat-editor": _game("longcat", "E", "left"),
    "2048": _game("2048", *["left", "down", "right", "down"] * 4),
    "2048-editor": _2048_editor,
    "leaderboard": _leaderboard,
}
"""The pictures with their own key presses; :func:`shots` adds every other registered game."""


def shots() -> dict[str, Shot]:
    """Every picture: :data:`SHOTS`, plus a game screen as it opens for each registered game
    that has no entry there (a new game is pictured without editing this script).

    Returns:
        Picture name -> what to do before it is taken.
    """
    from core import registry

    found = dict(SHOTS)
    for info in registry.games():
        if info.playable:
            found.setdefault(info.id, _game(info.id))
    return found


async def take(name: str, shot: Shot, out: Path = IMAGES) -> Path:
    """Run the app headless, drive it with ``shot`` and save its screen as ``OUT/NAME.svg``.

    Args:
        name: The picture's name (file stem).
        shot: The coroutine that brings the app into the state to picture.
        out: The folder to write to (the documentation's images/ by default).

    Returns:
        The written file.
    """
    from tui.app import ArcadeApp  # after TERMARCADE_DATA_DIR is set: a fresh store

    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await shot(pilot)
        await pilot.pause(SETTLE)
        app.save_screenshot(filename=f"{name}.svg", path=str(out))
    return out / f"{name}.svg"


def main(argv: list[str]) -> int:
    """Write the named pictures (all when none is named).

    Args:
        argv: Picture names.

    Returns:
        The exit status: 0 on success, 2 for an unknown name.
    """
    every = shots()
    names = argv or list(every)
    unknown = [name for name in names if name not in every]
    if unknown:
        print(
            f"error: unknown screenshot(s): {', '.join(unknown)}; known: {', '.join(every)}",
            file=sys.stderr,
        )
        return 2
    sys.path.insert(0, str(IMAGES.parent.parent))
    IMAGES.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as data:
        # A fresh, empty store: no progress or saves of whoever runs the script leak into a picture.
        os.environ["TERMARCADE_DATA_DIR"] = data
        import tui.sources

        # A fixed seed for generated levels and new 2048 games, so a picture only changes when
        # the screen does.
        tui.sources.new_seed = lambda: FIXED_SEED
        for name in names:
            print(asyncio.run(take(name, every[name])).relative_to(IMAGES.parent.parent))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
