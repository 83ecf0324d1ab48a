"""The toy game's CLI group: ``termarcade toy rows FILE`` prints each level's row.

It speaks the arcade's one CLI vocabulary (``tui.cli.options``): the shared ``--level``
option and level-pack loader, so a file, ``-``, a level ID or a bundled pack name all work,
with the same errors as every game's commands.
"""

from __future__ import annotations

import click

from tui.cli.options import level_option, load_level_pack, numbered_levels
from tui.cli.output import choose_levels, emit_json


@click.group()
def toy() -> None:
    """Slide-1D, the toy game of the tests."""


@toy.command()
@click.argument("level_file", metavar="FILE|ID")
@level_option("every level")
def rows(level_file: str, level: str | None) -> None:
    """Print each level's row as JSON."""
    pack = load_level_pack(level_file, "toy")
    for number, chosen in choose_levels(numbered_levels(pack), level):
        emit_json({"level": number, "row": chosen.row})
