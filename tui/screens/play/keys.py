"""Which key runs a binding: plain functions over bindings, for ``PuzzleScreen.keys_for``.

A generic test plays every game through the keys its screen names, so a key must be one that
really runs the binding now: the player's keymap's, never one a focused widget takes itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from textual.binding import Binding

if TYPE_CHECKING:  # pragma: no cover
    from textual.dom import DOMNode
    from textual.screen import Screen

__all__ = [
    "active_key",
    "declared_key",
    "digit_keys",
    "keymap_from",
    "numbered_keys",
    "screen_key",
]


def active_key(active: Mapping[str, Any], binding_id: str, where: str) -> str:
    """The key that runs ``binding_id`` among a shown screen's active bindings.

    Args:
        active: Textual's ``Screen.active_bindings`` (key -> ``ActiveBinding``): the keymap
            applied, keys taken by the focused widget left out.
        binding_id: The binding's id (``"puzzle.undo"``).
        where: The screen's name, for the error.

    Returns:
        The first key found that runs it and is enabled.

    Raises:
        LookupError: No enabled key runs it now (pressing nothing would let a test pass).
    """
    for key, binding in active.items():
        if binding.binding.id == binding_id and binding.enabled:
            return str(key)
    raise LookupError(f"no key runs {binding_id} on {where} now")


def declared_key(owner: type, binding_id: str, keymap: Mapping[str, str]) -> str:
    """The declared key of ``binding_id`` on ``owner`` (a subclass's declaration first),
    remapped by ``keymap``.

    Args:
        owner: The class declaring the binding (a screen or a dialog), searched along its MRO.
        binding_id: The binding's id.
        keymap: The player's keymap (binding id -> keys, comma separated).

    Returns:
        The first of its keys.

    Raises:
        LookupError: No class along the MRO declares it (a typo must not press nothing).
    """
    for cls in owner.__mro__:
        for binding in vars(cls).get("BINDINGS", ()):
            if isinstance(binding, Binding) and binding.id == binding_id:
                keys = keymap.get(binding_id) or binding.key
                return keys.split(",")[0].strip()
    raise LookupError(f"no binding {binding_id} on {owner.__name__}")


def digit_keys(number: int, key_of: Callable[[str], str]) -> tuple[str, ...]:
    """The keys that type ``number`` through the ``puzzle.digitN`` bindings.

    Args:
        number: The move's number, from 1.
        key_of: The key of a binding id (``PuzzleScreen.binding_key``).

    Returns:
        One key per digit.
    """
    return tuple(key_of(f"puzzle.digit{digit}") for digit in str(number))


def numbered_keys(moves: Sequence[Any], move: Any, key_of: Callable[[str], str]) -> tuple[str, ...]:
    """The digit keys that pick ``move`` by its number in ``moves`` (counted from 1).

    Args:
        moves: The numbered moves, in the order digits pick them.
        move: The move to pick.
        key_of: The key of a binding id (``PuzzleScreen.binding_key``).

    Returns:
        One key per digit of its number; empty when ``move`` is not among ``moves``.
    """
    listed = list(moves)
    if move not in listed:
        return ()
    return digit_keys(listed.index(move) + 1, key_of)


def keymap_from(setting: object) -> dict[str, str]:
    """The player's keymap from its stored setting (anything else than a mapping: none).

    Args:
        setting: The value stored under ``tui.store.KEYMAP_SETTING``.

    Returns:
        Binding id -> keys, as strings.
    """
    if not isinstance(setting, Mapping):
        return {}
    return {str(key): str(value) for key, value in setting.items()}


def screen_key(screen: Screen[Any], binding_id: str, owner: type[DOMNode] | None = None) -> str:
    """The key that runs the binding ``binding_id`` now (``PuzzleScreen.binding_key``).

    On the screen being shown, the key comes from Textual's active bindings, so it is the
    player's keymap's key, and a key that the focused widget takes for itself (an option
    list's ``up``) is never offered for a screen binding. Otherwise (a dialog that the keys
    open, or a screen not mounted) it is the declared key, remapped by the player's keymap
    when an app is running.

    Args:
        screen: The game screen.
        binding_id: The id of a binding (``"puzzle.undo"``, ``"longcat.left"``).
        owner: The class declaring the binding when it is not ``screen`` (a dialog the keys
            open); None: the screen.

    Returns:
        The binding's first key.

    Raises:
        LookupError: When no such binding is declared, or (on the screen shown) no key runs
            it now: pressing nothing would let a test pass without playing.
    """
    if owner is None and screen.is_active:
        return active_key(screen.active_bindings, binding_id, type(screen).__name__)
    return declared_key(owner or type(screen), binding_id, _keymap(screen))


def _keymap(screen: Screen[Any]) -> dict[str, str]:
    """The player's keymap (binding id -> keys), or none when no app is running."""
    if not screen.is_attached:  # No app (the terminal tour computes keys outside one).
        return {}
    from tui.arcade import arcade_of
    from tui.store import KEYMAP_SETTING

    return keymap_from(arcade_of(screen).store.get_setting(KEYMAP_SETTING, None))
