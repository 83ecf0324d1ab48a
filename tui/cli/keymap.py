"""``termarcade keymap``: show, set and reset the user's key remapping.

Every binding in the app has an id (``app.help``, ``termcraft.undo``, ``2048.hint`` …); the
``keymap`` setting in the store maps ids to comma-separated keys and the app applies it at
start-up (Textual's ``App.set_keymap``). This command edits that setting without opening the
app. Setting a binding checks the id against the bindings the code declares and the keys
against Textual's key names (:mod:`tui.keys`, which imports Textual; listing, ``--unset`` of a
stored id and ``--reset`` do not need it), so a typo can no longer make a key unreachable.
"""

from __future__ import annotations

import click

from tui.cli.options import json_option
from tui.cli.output import did_you_mean, emit_json, fail


def _known_bindings() -> dict:
    """id -> :class:`tui.keys.BindingInfo`; warns about screens that failed to import."""
    from tui.keys import collect_bindings

    bindings, problems = collect_bindings()
    for problem in problems:
        click.echo(f"warning: {problem}; its key bindings are not known", err=True)
    return bindings


def _check_binding_id(binding_id: str, known: dict) -> None:
    """Exit 2 when ``binding_id`` is not a binding of the app, naming the closest ones."""
    if binding_id not in known:
        fail(
            f"unknown binding id {binding_id!r}{did_you_mean(binding_id, known, cutoff=0.5)} "
            "(`termarcade keymap --ids` lists them)"
        )


def _checked_keys(binding_id: str, keys: str | None) -> str:
    """The normalised KEYS for ``binding_id``; exit 2 when missing or not key names."""
    from tui.keys import parse_keys

    if keys is None or not keys.strip():
        fail(f"give the keys to bind, e.g. `termarcade keymap {binding_id} f2`")
    try:
        return ",".join(parse_keys(keys))
    except ValueError as error:
        fail(str(error))


def _print_ids() -> None:
    """Every binding id with its default keys and description, one per line."""
    for info in _known_bindings().values():
        click.echo(f"{info.id}\t{info.keys}\t{info.description}")


def _print_mapping(mapping: dict[str, str], as_json: bool) -> None:
    """The stored remappings, as JSON or ``id<TAB>keys`` lines."""
    if as_json:
        emit_json(mapping)
    elif not mapping:
        click.echo("no keys remapped")
    else:
        for name in sorted(mapping):
            click.echo(f"{name}\t{mapping[name]}")


@click.command("keymap")
@click.argument("binding_id", required=False)
@click.argument("keys", required=False)
@click.option("--unset", "unset", is_flag=True, help="Remove BINDING_ID's remapping.")
@click.option("--reset", is_flag=True, help="Remove every remapping.")
@click.option(
    "--ids", "list_ids", is_flag=True, help="List every binding id with its default keys and exit."
)
@json_option
def keymap(
    binding_id: str | None,
    keys: str | None,
    unset: bool,
    reset: bool,
    list_ids: bool,
    as_json: bool,
) -> None:
    """Show the key remapping, or remap BINDING_ID to KEYS (e.g. `keymap app.help f2`).

    KEYS is a comma-separated list of key names: Textual's names (f2, escape, pageup,
    question_mark), single characters (?, U) and modifiers (ctrl+z, alt+left). Binding ids
    are listed by --ids and in the documentation (docs/keys.md, "Remapping keys").
    """
    from tui.store import KEYMAP_SETTING, Store

    if list_ids:
        _print_ids()
        return
    if unset and not binding_id:
        fail("--unset needs a BINDING_ID")
    if unset and keys is not None:
        fail("--unset takes a BINDING_ID only, no KEYS")
    store = Store()
    current = store.get_setting(KEYMAP_SETTING, None)
    mapping = dict(current) if isinstance(current, dict) else {}
    if reset:
        mapping = {}
    elif binding_id and unset:
        if binding_id not in mapping:  # a stored id may be stale: removing it is always fine
            _check_binding_id(binding_id, _known_bindings())
        mapping.pop(binding_id, None)
    elif binding_id:
        _check_binding_id(binding_id, _known_bindings())
        mapping[binding_id] = _checked_keys(binding_id, keys)
    if reset or binding_id:
        store.set_setting(KEYMAP_SETTING, mapping)
    for warning in store.warnings:
        click.echo(f"warning: {warning}", err=True)
    _print_mapping(mapping, as_json)
