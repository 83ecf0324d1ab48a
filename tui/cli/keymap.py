"""``termarcade keymap``: show, set and reset the user's key remapping.

Every binding in the app has an id (``app.help``, ``termcraft.undo``, ``game2048.hint`` …); the
``keymap`` setting in the store maps ids to comma-separated keys and the app applies it at
start-up (Textual's ``App.set_keymap``).  This command edits that setting without opening the
app, so it never imports Textual.
"""

from __future__ import annotations

from typing import Optional

import click

from tui.cli.output import emit_json, fail



@click.command("keymap")
@click.argument("binding_id", required=False)
@click.argument("keys", required=False)
@click.option("--unset", "unset", is_flag=True, help="Remove BINDING_ID's remapping.")
@click.option("--reset", is_flag=True, help="Remove every remapping.")
@click.option("--json", "as_json", is_flag=True, help="Print the keymap as JSON.")
def keymap(binding_id: Optional[str], keys: Optional[str], unset: bool, reset: bool,
           as_json: bool) -> None:
    """Show the key remapping, or remap BINDING_ID to KEYS (e.g. `keymap app.help f2`).

    KEYS is a comma-separated list of Textual key names (`f2`, `ctrl+h`, `j,n`). Binding ids
    are listed in the README ("Remapping keys") and in each screen's help.
    """
    from tui.store import KEYMAP_SETTING, Store

    store = Store()
    current = store.get_setting(KEYMAP_SETTING, None)
    mapping = dict(current) if isinstance(current, dict) else {}
    if reset:
        mapping = {}
    elif binding_id and unset:
        mapping.pop(binding_id, None)
    elif binding_id:
        if not keys or not all(k.strip() for k in keys.split(",")):
            fail("give the keys to bind, e.g. `termarcade keymap app.help f2`")
        mapping[binding_id] = ",".join(k.strip() for k in keys.split(","))
    elif unset:
        fail("--unset needs a BINDING_ID")
    if reset or binding_id:
        store.set_setting(KEYMAP_SETTING, mapping)
    for warning in store.warnings:
        click.echo(f"warning: {warning}", err=True)
    if as_json:
        emit_json(mapping)
    elif not mapping:
        click.echo("no keys remapped")
    else:
        for name in sorted(mapping):
            click.echo(f"{name}\t{mapping[name]}")
