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
from pathlib import Path
from typing import Awaitable, Callable

IMAGES = Path(__file__).resolve().parent / "images"
SIZE = (80, 24)

# A shot drives the app (the pilot) into the state to picture.
Shot = Callable[..., Awaitable[None]]


async def _home(pilot) -> None:
    """The home screen as it opens."""
    await pilot.pause()


SHOTS: dict[str, Shot] = {
    "home": _home,
}


async def take(name: str, shot: Shot) -> Path:
    """Run the app headless, drive it with ``shot`` and save its screen as ``images/NAME.svg``.

    Args:
        name: The picture's name (file stem).
        shot: The coroutine that brings the app into the state to picture.

    Returns:
        The written file.
    """
    from tui.app import ArcadeApp  # after TERMARCADE_DATA_DIR is set: a fresh store

    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        await shot(pilot)
        await pilot.pause()
        app.save_screenshot(filename=f"{name}.svg", path=str(IMAGES))
    return IMAGES / f"{name}.svg"


def main(argv: list[str]) -> int:
    """Write the named pictures (all when none is named).

    Args:
        argv: Picture names.

    Returns:
        The exit status: 0 on success, 2 for an unknown name.
    """
    names = argv or list(SHOTS)
    unknown = [name for name in names if name not in SHOTS]
    if unknown:
        print(f"error: unknown screenshot(s): {', '.join(unknown)}; known: {', '.join(SHOTS)}",
              file=sys.stderr)
        return 2
    sys.path.insert(0, str(IMAGES.parent.parent))
    IMAGES.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as data:
        # A fresh, empty store: no progress or saves of whoever runs the script leak into a picture.
        os.environ["TERMARCADE_DATA_DIR"] = data
        for name in names:
            print(asyncio.run(take(name, SHOTS[name])).relative_to(IMAGES.parent.parent))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
