"""The app's key bindings as the code declares them, and Textual's key names.

``termarcade keymap ID KEYS`` must refuse ids and keys that the app would silently ignore
(a footer showing "notakey Help" and help out of reach). Both lists come from the code, never
from a copy: :func:`collect_bindings` imports the app, every registered game's screen module
(:mod:`core.registry`) and every module of ``tui.screens``, ``tui.modals`` and ``tui.widgets``,
then reads the ``BINDINGS`` of every Textual class they define. :func:`normalize_key` checks a
key name against Textual's own tables and writes it the way Textual matches keys.

This module imports Textual (the CLI only imports it for ``keymap``).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from core import registry

__all__ = [
    "BINDING_PACKAGES",
    "MODIFIERS",
    "BindingInfo",
    "binding_ids",
    "collect_bindings",
    "key_names",
    "normalize_key",
    "parse_keys",
]

BINDING_PACKAGES = ("tui.screens", "tui.modals", "tui.widgets")
"""Packages whose every module is imported to find bindings (besides ``tui.app``)."""

MODIFIERS = ("alt", "ctrl", "hyper", "meta", "shift", "super")
"""Modifier names, in the (alphabetical) order Textual writes them in a key event."""


@dataclass(frozen=True, slots=True)
class BindingInfo:
    """One remappable binding.

    Attributes:
        id: The binding id (``"2048.undo"``), the name used by ``keymap``.
        keys: Its default keys as declared (``"u,ctrl+z"``).
        description: The footer text (may be empty).
        owners: ``module.Class`` of every class declaring it, sorted.
    """

    id: str
    keys: str
    description: str
    owners: tuple[str, ...]


def _module_names() -> Iterator[str]:
    """The modules to import: the app, each game's screen module, the binding packages."""
    yield "tui.app"
    packages = list(BINDING_PACKAGES)
    for info in registry.games():
        if info.screen is not None:
            module_name = info.screen.partition(":")[0]
            yield module_name
            # The game's folder: its widgets and modals declare bindings too.
            packages.append(module_name.rpartition(".")[0])
    for package_name in filter(None, packages):
        yield package_name
        try:
            package = importlib.import_module(package_name)
        except Exception:  # reported when the package itself is imported below
            continue
        for module in pkgutil.iter_modules(getattr(package, "__path__", [])):
            yield f"{package_name}.{module.name}"


def _import_all(names: Iterable[str]) -> tuple[set[str], list[str]]:
    """Import ``names``; return the top-level packages seen and one message per failure."""
    roots: set[str] = set()
    problems: list[str] = []
    for name in dict.fromkeys(names):  # keeps order, drops repeats
        roots.add(name.partition(".")[0])
        try:
            importlib.import_module(name)
        except Exception as error:  # a broken screen must not hide the other bindings
            problems.append(f"{name} could not be imported ({type(error).__name__}: {error})")
    return roots, problems


def _subclasses(base: type) -> Iterator[type]:
    """Every class derived from ``base``, at any depth, each once."""
    seen: set[type] = set()
    stack: list[type] = [base]
    cls: type
    while stack:
        for cls in stack.pop().__subclasses__():
            if cls not in seen:
                seen.add(cls)
                stack.append(cls)
                yield cls


def _own_bindings(cls: type) -> Iterator[Any]:
    """The Binding objects a class declares itself (inherited ones belong to the base)."""
    for binding in cls.__dict__.get("BINDINGS", ()) or ():
        if getattr(binding, "id", None):  # tuples and id-less bindings cannot be remapped
            yield binding


def collect_bindings() -> tuple[dict[str, BindingInfo], tuple[str, ...]]:
    """Every binding id declared by the app, its screens, modals and widgets.

    Returns:
        ``(bindings, problems)``: id -> :class:`BindingInfo`, sorted by id; and a message for
        each module that could not be imported (its bindings are then missing).
    """
    from textual.dom import DOMNode

    roots, problems = _import_all(_module_names())
    found: dict[str, dict[str, Any]] = {}
    for cls in _subclasses(DOMNode):
        if cls.__module__.partition(".")[0] not in roots:
            continue  # Textual's own widgets, tests' subclasses
        for binding in _own_bindings(cls):
            entry = found.setdefault(binding.id, {"binding": binding, "owners": set()})
            entry["owners"].add(f"{cls.__module__}.{cls.__qualname__}")
    bindings = {
        binding_id: BindingInfo(
            binding_id,
            entry["binding"].key,
            entry["binding"].description or "",
            tuple(sorted(entry["owners"])),
        )
        for binding_id, entry in sorted(found.items())
    }
    return bindings, tuple(problems)


def binding_ids() -> tuple[str, ...]:
    """The ids of every binding of the app, sorted (see :func:`collect_bindings`)."""
    return tuple(collect_bindings()[0])


def binding_groups(bindings: dict[str, BindingInfo]) -> list[tuple[str, list[BindingInfo]]]:
    """Group bindings by who declares them: the shell, then each registered game.

    A binding belongs to a game when a class in that game's folder (the package of its
    screen or editor module) declares it; every other binding is the shell's.

    Args:
        bindings: What :func:`collect_bindings` found.

    Returns:
        ``(heading, bindings)`` pairs: the shell's first, then each game's in home-screen
        order; empty groups are left out.
    """
    folders: list[tuple[str, str]] = []
    for info in registry.games():
        for ref in (info.screen, info.editor):
            if ref is not None:
                folders.append((ref.partition(":")[0].rpartition(".")[0] + ".", info.title))
    groups: dict[str, list[BindingInfo]] = {SHELL_GROUP: []}
    groups.update((title, []) for _, title in folders)
    for binding in bindings.values():
        owner = binding.owners[0] if binding.owners else ""
        heading = next((title for prefix, title in folders if owner.startswith(prefix)), None)
        groups[heading or SHELL_GROUP].append(binding)
    return [(heading, found) for heading, found in groups.items() if found]


SHELL_GROUP = "The app and every screen"
"""The heading of the bindings no game folder declares (home, lists, dialogs, the base)."""


def reference_markdown() -> str:
    """The key-binding reference as Markdown, generated from the code (docs/keys.md's table).

    Returns:
        One section per :func:`binding_groups` group, each a table of binding id, keys and
        what the binding does; a problem importing a module is listed first, never hidden.
    """
    bindings, problems = collect_bindings()
    lines = [f"!!! warning\n    {problem}\n" for problem in problems]
    for heading, found in binding_groups(bindings):
        lines += [f"### {heading}", "", "| binding id | keys | does |", "|---|---|---|"]
        for binding in found:
            keys = ", ".join(f"`{key.strip()}`" for key in binding.keys.split(","))
            does = binding.description.replace("|", "\\|") or "—"
            lines.append(f"| `{binding.id}` | {keys} | {does} |")
        lines.append("")
    return "\n".join(lines)


# --------------------------------------------------------------------------- key names


@lru_cache(maxsize=1)
def key_names() -> frozenset[str]:
    """Every key name Textual can report, without modifiers (``f2``, ``escape``, ``a``).

    Collected from Textual's tables: the ``Keys`` enum (modifiers stripped), its aliases, the
    kitty keyboard protocol's functional keys, and the names it gives printable ASCII
    characters (``question_mark``, ``comma``, ``A``).

    Returns:
        The names.
    """
    from textual.keys import KEY_ALIASES, Keys, _character_to_key

    names = {_character_to_key(chr(code)) for code in range(0x20, 0x7F)}
    declared = [key.value for key in Keys] + list(KEY_ALIASES)
    declared += [alias for aliases in KEY_ALIASES.values() for alias in aliases]
    try:
        from textual._keyboard_protocol import FUNCTIONAL_KEYS

        declared += list(FUNCTIONAL_KEYS.values())
    except ImportError:  # private module; the other tables still cover the usual keys
        pass
    for value in declared:
        if value.startswith("<") or value == "ctrl-at":
            continue  # pseudo keys (mouse scroll, "any") and a legacy spelling
        base = value if value == "+" else value.rpartition("+")[2]
        names.add(_character_to_key(base) if len(base) == 1 else base)
    return frozenset(names)


def _split_modifiers(text: str) -> tuple[list[str], str]:
    """``"ctrl+shift+up"`` -> ``(["ctrl", "shift"], "up")``; ``"ctrl++"`` -> ``(["ctrl"], "+")``."""
    if len(text) > 1 and text.endswith("++"):
        head, base = text[:-2], "+"
    else:
        head, _, base = text.rpartition("+")
    return (head.split("+") if head else []), base


def _check_modifiers(modifiers: list[str], text: str) -> list[str]:
    """Lower-case, validate and sort modifier names (ValueError naming the bad one)."""
    from tui.cli.output import did_you_mean

    checked: list[str] = []
    for modifier in (m.lower() for m in modifiers):
        if modifier not in MODIFIERS:
            raise ValueError(
                f"unknown modifier {modifier!r} in {text!r}"
                f"{did_you_mean(modifier, MODIFIERS)} "
                f"(modifiers: {', '.join(MODIFIERS)})"
            )
        if modifier in checked:
            raise ValueError(f"{modifier} appears twice in {text!r}")
        checked.append(modifier)
    return sorted(checked)


def _base_key(base: str, text: str) -> str:
    """The Textual name of the key after the modifiers (ValueError when there is none)."""
    from textual.keys import _character_to_key

    from tui.cli.output import did_you_mean

    if len(base) == 1:
        if not base.isprintable() or base.isspace():
            raise ValueError(f"{text!r} is not a key: write the key's name (space, tab, enter …)")
        return _character_to_key(base)
    if base.lower() in key_names():
        return base.lower()
    hint = did_you_mean(base, key_names())
    raise ValueError(
        f"unknown key name {base!r}{hint} (key names are Textual's: f2, ctrl+z, "
        "escape, up, question_mark, or a single character)"
    )


def normalize_key(text: str) -> str:
    """Check one key name and write it the way Textual matches key events.

    Accepted: Textual's key names (``f2``, ``escape``, ``pageup``, ``question_mark``), a
    single printable character (``?`` becomes ``question_mark``, as Textual names it), and
    modifier combinations (``ctrl+``, ``shift+``, ``alt+``, also ``meta+``, ``super+``,
    ``hyper+``; written in Textual's order, ``shift+ctrl+up`` becomes ``ctrl+shift+up``).
    Named keys are case-insensitive (``F2``), single characters are not (``U`` is shift+u).

    Args:
        text: What the person typed for one key.

    Returns:
        The key as Textual names it.

    Raises:
        ValueError: For anything the app would never see, with the closest valid names.
    """
    raw = text.strip()
    if not raw:
        raise ValueError("a key name is empty (KEYS is a comma-separated list such as u,ctrl+z)")
    if len(raw) == 1:
        return _base_key(raw, raw)
    modifiers, base = _split_modifiers(raw)
    if not base:
        raise ValueError(f"{raw!r} has no key after its modifiers")
    mods = _check_modifiers(modifiers, raw)
    if mods == ["shift"] and len(base) == 1 and base.isalpha():
        # Textual reports shift+letter as the capital letter, so this binding could never fire.
        raise ValueError(
            f"{raw!r} never reaches the app: shift+{base.lower()} arrives as "
            f"{base.upper()}; write {base.upper()}"
        )
    return "+".join([*mods, _base_key(base, raw)])


def parse_keys(text: str) -> tuple[str, ...]:
    """Check a comma-separated list of keys (``"z, ctrl+z"``) and normalise each one.

    Args:
        text: The KEYS argument of ``keymap``.

    Returns:
        The keys as Textual names them, in order, without repeats.

    Raises:
        ValueError: For an empty list, an empty item or an unknown key (see
            :func:`normalize_key`).
    """
    keys = [normalize_key(item) for item in text.split(",")]
    return tuple(dict.fromkeys(keys))
