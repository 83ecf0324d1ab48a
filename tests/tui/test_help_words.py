"""Each game's help page names a key with the footer's word for it (issue 30 item 8: help
said "E developer panel" and "n next level" where the footer said "E Editor" and "N Next")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.binding import Binding

from core import registry
from tests.tui.helpers import SHELL_GAMES

ROW = re.compile(r"^\|\s*(?P<keys>[^|]*?)\s*\|\s*(?P<action>.*?)\s*\|\s*$")
KEY = re.compile(r"`([^`]+)`")


def footer_words(screen_class: type) -> dict[str, str]:
    """The footer's word for each key of a screen's shown bindings (the subclass's wins)."""
    words: dict[str, str] = {}
    for klass in reversed(screen_class.__mro__):
        for binding in vars(klass).get("BINDINGS", []):
            if isinstance(binding, Binding) and binding.show and binding.description:
                for key in binding.key.split(","):
                    words[key.strip()] = binding.description
                if binding.key_display:
                    words[binding.key_display] = binding.description
    return words


def key_rows(text: str) -> list[tuple[list[str], str]]:
    """The rows of a help page's first key table (the game screen's; a later one is its
    editor's): ``(keys, action)``."""
    rows: list[tuple[list[str], str]] = []
    for line in text.splitlines():
        found = ROW.match(line)
        if found and "`" in found["keys"]:
            rows.append((KEY.findall(found["keys"]), found["action"]))
        elif rows and not line.startswith("|"):
            break  # the table ended
    return rows


@pytest.mark.parametrize("game_id", SHELL_GAMES)
def test_the_help_page_uses_the_footers_words(game_id: str) -> None:
    info = registry.get(game_id)
    assert info is not None
    screen_class = info.load("screen")
    words = footer_words(screen_class)
    assert {"u", "R", "t", "N"} <= set(words)  # the shared keys: the check is not vacuous
    help_file = Path(info.load("screen").__module__.replace(".", "/")).parent / "help.md"
    rows = key_rows(help_file.read_text(encoding="utf-8"))
    assert rows, help_file
    checked, wrong = 0, []
    for keys, action in rows:
        for key in keys:
            if key in words:
                checked += 1
                word = words[key].lower()
                # "undo / redo" names two keys of one row
                if not (action.lower().startswith(word) or f" / {word}" in action.lower()):
                    wrong.append(f"`{key}` is {words[key]!r} in the footer, help: {action!r}")
    assert wrong == [], help_file
    assert checked >= 4
    # A letter in the wrong case (`n` was no key of the screen: the footer's is `N`).
    every_key = set(footer_words_all(screen_class))
    for keys, _ in rows:
        for key in keys:
            if len(key) == 1 and key.isalpha() and key not in every_key:
                assert key.swapcase() not in words, f"{help_file}: `{key}` is `{key.swapcase()}`"


def footer_words_all(screen_class: type) -> set[str]:
    """Every key bound on a screen (shown or not) and the app's."""
    from tui.app import ArcadeApp

    keys: set[str] = set()
    for klass in (*screen_class.__mro__, ArcadeApp):
        for binding in vars(klass).get("BINDINGS", []):
            if isinstance(binding, Binding):
                keys.update(key.strip() for key in binding.key.split(","))
    return keys
