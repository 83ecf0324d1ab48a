"""`termarcade keymap` edits the store setting that the app applies at start-up."""

from __future__ import annotations

import json

from click.testing import CliRunner

from tui.cli import main
from tui.store import KEYMAP_SETTING, Store


def run(*args: str):
    return CliRunner().invoke(main, ["keymap", *args])


def test_set_unset_reset_round_trip():
    assert run().output.strip() == "no keys remapped"
    assert run("app.help", "f2").exit_code == 0
    assert run("termcraft.undo", "z, ctrl+z").exit_code == 0
    assert json.loads(run("--json").output) == {"app.help": "f2", "termcraft.undo": "z,ctrl+z"}
    # the app reads the very same setting
    assert Store().get_setting(KEYMAP_SETTING) == {"app.help": "f2", "termcraft.undo": "z,ctrl+z"}
    assert run("app.help", "--unset").exit_code == 0
    assert json.loads(run("--json").output) == {"termcraft.undo": "z,ctrl+z"}
    assert run("--reset").exit_code == 0
    assert json.loads(run("--json").output) == {}


def test_missing_keys_is_bad_input():
    result = run("app.help")
    assert result.exit_code == 2 and "give the keys" in result.output
