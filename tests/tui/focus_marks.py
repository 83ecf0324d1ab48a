"""What a widget looks like on screen without its colours: to check that focus shows in a
16-colour or NO_COLOR terminal too (issue 30: nothing showed which field Tab reached)."""

from __future__ import annotations

from typing import Any

from textual.widget import Widget

Cell = tuple[str, bool, bool, bool, bool]
"""A cell's character and its colour-free attributes: bold, underline, reverse, italic."""


def cells(app: Any, widget: Widget) -> list[list[Cell]]:
    """The screen's cells over ``widget``'s region, colours left out."""
    region = widget.region
    strips = app.screen._compositor.render_strips()
    rows: list[list[Cell]] = []
    for y in range(region.y, region.bottom):
        row: list[Cell] = []
        for segment in strips[y].crop(region.x, region.right):
            style = segment.style
            flags = (
                bool(style and style.bold),
                bool(style and style.underline),
                bool(style and style.reverse),
                bool(style and style.italic),
            )
            row.extend((char, *flags) for char in segment.text)
        rows.append(row)
    return rows


async def unmarked(pilot: Any, widgets: list[Widget], elsewhere: Widget) -> list[str]:
    """The widgets whose cells look the same focused and not (colours left out).

    Args:
        pilot: The Textual pilot.
        widgets: Focusable widgets on the current screen.
        elsewhere: A focusable widget to park the focus on (not one of ``widgets``).

    Returns:
        ``"Type#id"`` of each widget with no colour-free focus mark.
    """
    app = pilot.app
    found = []
    for widget in widgets:
        elsewhere.focus()
        await pilot.pause()
        blurred = cells(app, widget)
        widget.focus()
        await pilot.pause()
        assert app.focused is widget, widget
        if cells(app, widget) == blurred:
            found.append(f"{type(widget).__name__}#{widget.id}")
    return found
