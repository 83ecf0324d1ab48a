"""The whole ``termarcade`` command tree, resolved, for the generated CLI reference.

The real group (:data:`tui.cli.main`) imports a sub-command only when it runs, and every
game's group comes from the registry, so a documentation tool that walks the group would see
only the eager commands. :data:`termarcade` is a copy of the group with every sub-command
imported, which ``docs/cli.md`` renders with mkdocs-click (``::: mkdocs-click`` over
``tui.cli.reference:termarcade``), so the reference cannot drift from the commands. Nothing
imports this module but the documentation build and its test.
"""

from __future__ import annotations

import click

from tui.cli import main

__all__ = ["full_group", "termarcade"]


class CommandImportError(RuntimeError):
    """A sub-command could not be imported: the reference would document a stand-in."""


def full_group() -> click.Group:
    """Build the ``termarcade`` group with every sub-command imported.

    Returns:
        A plain :class:`click.Group` with the real group's help, options and commands (the
        shell's own, then one group per registered game, in ``--help`` order).

    Raises:
        CommandImportError: When a sub-command's module is missing or broken (the real group
            would list a stand-in "unavailable" command; the reference must not).
    """
    ctx = click.Context(main, info_name="termarcade")
    commands: dict[str, click.Command] = {}
    for name in main.list_commands(ctx):
        command = main.get_command(ctx, name)
        if command is None or (command.help or "").startswith("(unavailable:"):
            raise CommandImportError(f"termarcade {name}: {command.help if command else 'missing'}")
        commands[name] = command
    return click.Group(
        name="termarcade",
        commands=commands,
        params=list(main.params),
        help=main.help,
        epilog=main.epilog,
        short_help=main.short_help,
        context_settings=dict(main.context_settings),
    )


termarcade = full_group()
"""The resolved group mkdocs-click documents."""
