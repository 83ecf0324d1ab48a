"""Key lookup (tui.screens.play.keys): plain functions over bindings, without an app."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest
from textual.binding import ActiveBinding, Binding, BindingType

from core.session import Session
from tests.toycore.engine import GAME as TOY
from tests.toycore.engine import Level
from tests.toygame import INFO
from tui.screens.play.keys import (
    active_key,
    declared_key,
    digit_keys,
    keymap_from,
    numbered_keys,
    screen_key,
)
from tui.screens.puzzle import PuzzleScreen

GAME: Any = TOY  # the toy engine (typed looser than core.game.Game: status is str)


class Base:
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("u,ctrl+z", "undo", "Undo", id="t.undo"),
        Binding("x", "drop", "Drop", id="t.drop"),
        ("k", "plain", "A tuple binding has no id"),
    ]


class Child(Base):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("X,delete", "drop", "Drop", id="t.drop")]


def test_the_declared_key_is_the_first_one() -> None:
    assert declared_key(Base, "t.undo", {}) == "u"


def test_a_subclass_declaration_comes_first() -> None:
    assert declared_key(Child, "t.drop", {}) == "X"
    assert declared_key(Child, "t.undo", {}) == "u"  # inherited


def test_the_keymap_remaps_a_key() -> None:
    assert declared_key(Child, "t.undo", {"t.undo": "backspace, z"}) == "backspace"
    assert declared_key(Child, "t.drop", {"other": "y"}) == "X"


def test_an_unknown_binding_is_an_error() -> None:
    with pytest.raises(LookupError, match=r"no binding t\.redo on Child"):
        declared_key(Child, "t.redo", {})


def test_the_base_screen_declares_the_digits() -> None:
    assert digit_keys(207, lambda b: declared_key(PuzzleScreen, b, {})) == ("2", "0", "7")
    remapped = {"puzzle.digit2": "f2"}
    assert digit_keys(22, lambda b: declared_key(PuzzleScreen, b, remapped)) == ("f2", "f2")


def _active(key: str, binding_id: str, enabled: bool = True) -> ActiveBinding:
    return ActiveBinding(None, Binding(key, "a", "A", id=binding_id), enabled)  # type: ignore[arg-type]


def test_the_active_key_is_an_enabled_one() -> None:
    active = {
        "up": _active("up", "list.up"),
        "u": _active("u", "t.undo", enabled=False),
        "ctrl+z": _active("ctrl+z", "t.undo"),
    }
    assert active_key(active, "t.undo", "Toy") == "ctrl+z"
    with pytest.raises(LookupError, match=r"no key runs t\.drop on Toy now"):
        active_key(active, "t.drop", "Toy")
    with pytest.raises(LookupError):
        active_key({"u": _active("u", "t.undo", enabled=False)}, "t.undo", "Toy")


def test_the_keymap_setting_is_read_as_strings() -> None:
    assert keymap_from({"t.undo": "z", 3: 4}) == {"t.undo": "z", "3": "4"}
    assert keymap_from(None) == {} and keymap_from(["t.undo"]) == {}


def test_a_numbered_move_is_typed_as_the_digits_of_its_place() -> None:
    moves = [f"m{n}" for n in range(1, 13)]
    key_of = {f"puzzle.digit{d}": f"k{d}" for d in range(10)}.__getitem__
    assert numbered_keys(moves, "m3", key_of) == ("k3",)
    assert numbered_keys(moves, "m12", key_of) == ("k1", "k2")  # move 12: two digits
    assert numbered_keys(tuple(moves), "m10", key_of) == ("k1", "k0")  # any sequence
    assert numbered_keys(moves, "m13", key_of) == ()  # not a move now: no keys


def test_a_screen_not_shown_answers_its_declared_keys() -> None:
    """Without an app (the terminal tour computes keys outside one) the keys are the
    declared ones, a subclass's first, and a dialog's when it is named."""

    class Game(PuzzleScreen):
        BINDINGS: ClassVar[list[BindingType]] = [Binding("z", "undo", "Undo", id="puzzle.undo")]

    start = GAME.initial(Level("Slide", "1.23"))
    screen = Game(Session.begin(GAME, start), info=INFO)  # never mounted, no app
    assert screen_key(screen, "puzzle.undo") == "z"
    assert screen_key(screen, "puzzle.next") == "N"  # the base's
    assert screen_key(screen, "t.drop", owner=Child) == "X"  # type: ignore[arg-type]
    with pytest.raises(LookupError):
        screen_key(screen, "puzzle.nothing")
