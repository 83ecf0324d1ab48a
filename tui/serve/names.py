"""The operator's commands on the owners of names: ``termarcade serve --list-names``,
``--release-name NAME`` and ``--give-name NAME KEYFILE`` (see :mod:`tui.serve.owners`).

They work on the book in the data directory whether or not the server runs (each change is
one transaction), and print one line per name or change.
"""

from __future__ import annotations

import time
from pathlib import Path

import click

from core.text import escape_controls
from tui.cli.output import EXIT_NEGATIVE, fail
from tui.serve.limits import valid_user_name
from tui.serve.owners import GUEST_PREFIX, NameBook, NameOwner, key_identity

__all__ = ["manage_names"]


def manage_names(
    book: NameBook,
    *,
    list_names: bool,
    release: tuple[str, ...],
    give: tuple[str, Path] | None,
) -> None:
    """Do what the operator asked, in the order give, release, list.

    Args:
        book: The arcade's owner book.
        list_names: Print every owned name.
        release: Names to free.
        give: ``(name, public key file)``: make that key the name's owner.

    Raises:
        click.exceptions.Exit: With status 2 for a bad name, key file or unreadable book, 1
            when a name to release was not owned (after releasing the others).
    """
    try:
        if give is not None:
            _give(book, *give)
        missing = [name for name in release if not _release(book, name)]
        if list_names:
            for owner in book.names():
                click.echo(_row(owner))
    except book.errors as error:
        fail(f"cannot use the owners of names ({book.where}): {error}")
    if missing:
        fail(f"not owned: {', '.join(escape_controls(name) for name in missing)}", EXIT_NEGATIVE)


def _give(book: NameBook, name: str, key_file: Path) -> None:
    if not valid_user_name(name) or name.startswith(GUEST_PREFIX):
        fail(f"{escape_controls(name)!r} cannot be a player name")
    import asyncssh

    try:
        key = asyncssh.read_public_key(str(key_file))
    except (OSError, asyncssh.KeyImportError, ValueError) as error:
        fail(f"cannot read a public key from {key_file}: {getattr(error, 'strerror', error)}")
    line, fingerprint = key_identity(key)
    before = book.give(name, line, fingerprint)
    was = f" (was {before.fingerprint})" if before and before.fingerprint != fingerprint else ""
    click.echo(f"{name} now belongs to {fingerprint}{was}")


def _release(book: NameBook, name: str) -> bool:
    released = book.release(name)
    if released:
        click.echo(f"{name} released: the next key that plays it owns it")
    return released


def _row(owner: NameOwner) -> str:
    """One name: ``name  fingerprint  first use  last use`` (UTC)."""

    def when(stamp: float) -> str:
        return time.strftime("%Y-%m-%d %H:%M", time.gmtime(stamp))

    return (
        f"{owner.name:<20} {owner.fingerprint}  "
        f"first {when(owner.first_used)}  last {when(owner.last_used)} UTC"
    )
