"""`termarcade keymap` edits the store setting that the app applies at start-up; it accepts
only binding ids the code declares and key names Textual knows."""

from __future__ import annotations

import json
import re
import sys
import textwrap
from pathlib import Path

import pytest

from tests.cli.helpers import apart_runner
from tui.cli import main
from tui.keys import BindingInfo, binding_ids, collect_bindings, normalize_key, parse_keys
from tui.store import KEYMAP_SETTING, Store

pytestmark = pytest.mark.cli

KEYS_PAGE = Path(__file__).resolve().parents[2] / "docs" / "keys.md"


def run(*args: str):
    return apart_runner().invoke(main, ["keymap", *args])


def stored() -> object:
    return Store().get_setting(KEYMAP_SETTING, None)


def test_set_unset_reset_round_trip():
    other = next(binding_id for binding_id in binding_ids() if binding_id != "app.help")
    assert run().output.strip() == "no keys remapped"
    assert run("app.help", "f2").exit_code == 0
    assert run(other, "z, ctrl+z").exit_code == 0
    assert json.loads(run("--json").output) == {"app.help": "f2", other: "z,ctrl+z"}
    # the app reads the very same setting
    assert stored() == {"app.help": "f2", other: "z,ctrl+z"}
    assert run("app.help", "--unset").exit_code == 0
    assert json.loads(run("--json").output) == {other: "z,ctrl+z"}
    assert run("--reset").exit_code == 0
    assert json.loads(run("--json").output) == {}


def test_missing_keys_is_bad_input():
    result = run("app.help")
    assert result.exit_code == 2 and "give the keys" in result.stderr


def test_unknown_binding_id_is_refused_with_the_closest_ones():
    """Defect: `keymap nope.id f2` exited 0 and stored a remapping nothing uses."""
    result = run("app.hlp", "f2")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: unknown binding id 'app.hlp'; did you mean app.help")
    assert run("nope.id", "f2").exit_code == 2
    assert stored() is None


def test_unknown_key_name_is_refused():
    """Defect: `keymap app.help notakey` exited 0; the footer showed "notakey Help" and help
    was out of reach."""
    result = run("app.help", "notakey")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: unknown key name 'notakey'")
    result = run("app.help", "f2,escpe")
    assert result.stderr.startswith("error: unknown key name 'escpe'; did you mean escape")
    for bad in ("", "a,,b", "ctrl+", "ctl+z", "ctrl+ctrl+z", "shift+u", "\x1b"):
        assert run("app.help", bad).exit_code == 2, bad
    assert stored() is None


def test_keys_are_stored_the_way_textual_names_them():
    assert run("app.help", "?, F2, shift+ctrl+up, ctrl++, U").exit_code == 0
    assert stored() == {"app.help": "question_mark,f2,ctrl+shift+up,ctrl+plus,U"}
    assert parse_keys("j, j ,down") == ("j", "down")
    assert normalize_key("Escape") == "escape" and normalize_key(",") == "comma"
    with pytest.raises(ValueError, match="did you mean pageup"):
        normalize_key("pgup")


def test_a_stale_id_can_still_be_unset():
    Store().set_setting(KEYMAP_SETTING, {"old.removed": "x", "app.help": "f2"})
    assert run("old.removed", "--unset").exit_code == 0
    assert stored() == {"app.help": "f2"}
    assert run("never.there", "--unset").exit_code == 2


def test_ids_lists_every_binding_with_its_keys():
    result = run("--ids")
    assert result.exit_code == 0
    rows = [line.split("\t") for line in result.stdout.splitlines()]
    assert [row[0] for row in rows] == list(binding_ids())
    assert ["app.help", "f1,question_mark", "Help"] in rows


def test_binding_ids_are_read_from_the_code(tmp_path, monkeypatch):
    """A game registered at run time brings its screen's ids; nothing is hard-coded."""
    from core import registry
    from core.registry import GameInfo

    (tmp_path / "zz_keys_screen.py").write_text(
        textwrap.dedent("""
        from textual.binding import Binding
        from textual.screen import Screen

        class ZzScreen(Screen):
            BINDINGS = [Binding("j", "jump", "Jump", id="zz.jump"), ("k", "kick", "Kick")]

        def start(app):
            app.push_screen(ZzScreen())
    """),
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    assert "zz.jump" not in binding_ids()
    with registry.register(GameInfo("zz_keys", "Zz", "t", "x:GAME", screen="zz_keys_screen:start")):
        bindings, problems = collect_bindings()
        assert problems == ()
        assert bindings["zz.jump"] == BindingInfo(
            "zz.jump", "j", "Jump", ("zz_keys_screen.ZzScreen",)
        )
        assert run("zz.jump", "J").exit_code == 0
    sys.modules.pop("zz_keys_screen", None)


def test_a_broken_screen_module_is_reported_not_fatal(monkeypatch):
    from core import registry
    from core.registry import GameInfo

    with registry.register(
        GameInfo("zz_broken", "Zz", "t", "x:GAME", screen="no_such_module_xyz:start")
    ):
        bindings, problems = collect_bindings()
    assert "app.help" in bindings
    assert any("no_such_module_xyz" in problem for problem in problems)


def _ids_in(markdown: str) -> set[str]:
    return set(re.findall(r"^\| `([\w-]+\.[\w-]+)` \|", markdown, flags=re.M))


def test_key_reference_is_generated_from_exactly_the_binding_ids_of_the_code():
    """The reference lists every id once, with the keys the code binds it to."""
    from tui.keys import reference_markdown

    reference = reference_markdown()
    assert _ids_in(reference) == set(binding_ids())
    assert "| `app.help` | `f1`, `question_mark` | Help |" in reference
    headings = re.findall(r"^### (.+)$", reference, flags=re.M)
    from core import registry

    # the shell first, then one section per registered game that declares bindings
    assert headings[0] == "The app and every screen"
    assert headings[1:] == [info.title for info in registry.games() if info.title in headings]
    longcat = reference.split("### Longcat", 1)[1].split("###", 1)[0]
    assert "`longcat.up`" in longcat and "`longcat_editor.toggle`" in longcat
    assert "`puzzle.undo`" not in longcat  # the base's bindings are the shell's


def test_a_registered_game_gets_its_own_section_without_editing_the_page():
    from core import registry
    from tests.toygame import INFO
    from tui.keys import reference_markdown

    assert "toy.left" not in reference_markdown()
    with registry.register(INFO):
        reference = reference_markdown()
    toy = reference.split("### Slide-1D", 1)[1].split("###", 1)[0]
    assert _ids_in(toy) == {"toy.left", "toy.right"}


def test_the_keys_page_is_generated_not_hand_kept():
    """docs/keys.md once listed the ids by hand: every game edited the same lines."""
    text = KEYS_PAGE.read_text(encoding="utf-8")
    assert "<!-- binding-reference -->" in text
    listed = set(re.findall(r"`([\w-]+\.[\w]+)`", text))
    # only the remapping examples name ids by hand
    assert listed <= {"app.help", "puzzle.undo"}, sorted(listed)
