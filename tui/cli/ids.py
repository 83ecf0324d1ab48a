"""``termarcade id``: the IDs of the levels of a file, or what an ID names (issue 20).

See :mod:`core.ids` for the three forms and the docs' "Sharing levels" page.
"""

from __future__ import annotations

import os
from typing import Any

import click

from tui.cli.options import json_option, level_option, pick_levels
from tui.cli.output import emit_json, fail, read_input, user_errors

__all__ = ["level_id_command"]


@click.command(name="id")
@click.argument("source", metavar="FILE|ID")
@level_option("every level")
@json_option
@click.option(
    "--game",
    "game",
    default=None,
    metavar="GAME",
    help="The game of a plain FILE that several games' plain formats would read.",
)
def level_id_command(source: str, level: str | None, as_json: bool, game: str | None) -> None:
    """Print the ID of every level of FILE (one per line), to share them.

    A level of a file gets its custom ID (the level itself, compressed, with a checksum):
    `termarcade play ID` opens it anywhere. Given an ID instead of a file, check it and
    print it as termarcade writes it (exit 2 with the reason when it names no level).
    JSON keys: level, game, kind (bundled, generated or custom), id, title.
    """
    from tui.ids import looks_like_id

    rows: list[dict[str, Any]] = []
    if source != "-" and not os.path.exists(source) and looks_like_id(source):
        if level is not None:
            raise click.UsageError("--level goes with a FILE; an ID names one level")
        from core.ids import parse_id
        from tui.cli import resolve_level_id

        resolved = resolve_level_id(source)
        rows.append(
            {
                "level": 1,
                "game": resolved.info.id,
                "kind": parse_id(resolved.id).kind,
                "id": resolved.id,
                "title": str(resolved.level.title),
            }
        )
    else:
        from grammar.levels import load_pack
        from tui.ids import level_id

        text, name = read_input(source)
        with user_errors():
            pack = load_pack(text, filename=name, game=game)
        if not pack.levels:
            fail(f"{name} holds no level")
        for number, chosen in pick_levels(pack, level):
            try:
                made = level_id(pack.game, None, chosen)
            except ValueError as error:
                fail(f"level {number} has no ID: {error}")
            rows.append(
                {
                    "level": number,
                    "game": pack.game,
                    "kind": "custom",
                    "id": made,
                    "title": str(chosen.title),
                }
            )
    for row in rows:
        if as_json:
            emit_json(row)
        else:
            click.echo(row["id"])
