"""The toy game's CLI group: ``termarcade toy rows FILE`` prints each level's row."""

from __future__ import annotations

import click

from tui.cli.output import emit_json


@click.group()
def toy() -> None:
    """Slide-1D, the toy game of the tests."""


@toy.command()
@click.argument("level_file")
def rows(level_file: str) -> None:
    """Print each level's row as JSON."""
    from grammar.levels import load_pack_file

    pack = load_pack_file(level_file)
    for number, level in enumerate(pack.levels, start=1):
        emit_json({"level": number, "row": level.row})
