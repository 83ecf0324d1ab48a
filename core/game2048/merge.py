"""Merge logic for 2048: pure functions deciding whether two adjacent tiles combine.

Seed 004 makes the merge rule a function ``merge_logic(val1, val2)`` returning the merged
value and the score earned, or ``None`` when the tiles do not combine. ``val1`` is the tile
nearer the side the tiles move towards (it was already in place), ``val2`` the one sliding
into it; the presets below are symmetric, so the order only matters for custom rules.

Configurations store the *name* of a preset (so games can be saved and replayed); the
function is looked up with :func:`resolve_merge_logic`. As in the seed's ``GameConfig``, any
pure callable may also be given: such a game plays, replays and gets hints (through the
general AI path), but it can only be saved once its function is registered as a preset with
:func:`register_merge_preset` (a save names the rule; code is never stored).

Presets:

* ``standard``: equal tiles merge into their sum, which is also the score (classic 2048).
* ``fibonacci``: two *consecutive* Fibonacci numbers merge (1+1, 1+2, 2+3, 3+5, ...) into
  their sum, the next Fibonacci number; the score is the sum.
* ``threes``: Threes-style: 1 and 2 merge into 3; equal tiles of 3 or more merge into their
  sum (3+3=6, 6+6=12, ...); 1+1 and 2+2 do not merge. The score is the merged value.
"""

from __future__ import annotations

from collections.abc import Callable
from math import isqrt
from typing import NamedTuple


class MergeResult(NamedTuple):
    """What two merging tiles become."""

    merged_value: int
    """The value of the new tile."""
    score_earned: int
    """Points added to the score for this merge."""


MergeLogic = Callable[[int, int], MergeResult | None]
"""Type of a merge rule: ``(val1, val2) -> MergeResult | None``."""


def standard_merge(val1: int, val2: int) -> MergeResult | None:
    """Classic 2048: equal tiles merge into their sum.

    Args:
        val1: The tile nearer the side the tiles move towards.
        val2: The tile sliding into it.

    Returns:
        ``MergeResult(val1 + val2, val1 + val2)`` when the values are equal and non-zero,
        else ``None``.
    """
    if val1 == val2 and val1 != 0:
        total = val1 + val2
        return MergeResult(total, total)
    return None


def is_fibonacci(n: int) -> bool:
    """True when ``n`` is a positive Fibonacci number (1, 2, 3, 5, 8, ...).

    Uses the classic test: ``n`` is Fibonacci iff ``5n^2 + 4`` or ``5n^2 - 4`` is a square.

    Args:
        n: Any integer.

    Returns:
        Whether ``n`` is a positive Fibonacci number.
    """
    if n <= 0:
        return False
    for m in (5 * n * n + 4, 5 * n * n - 4):
        r = isqrt(m)
        if r * r == m:
            return True
    return False


def fibonacci_merge(val1: int, val2: int) -> MergeResult | None:
    """Fibonacci 2048: consecutive Fibonacci numbers merge into the next one.

    Two positive Fibonacci numbers whose sum is again a Fibonacci number are necessarily
    consecutive in the sequence (1+1, 1+2, 2+3, ...), so that is the test used.

    Args:
        val1: The tile nearer the side the tiles move towards.
        val2: The tile sliding into it.

    Returns:
        ``MergeResult(val1 + val2, val1 + val2)`` or ``None``.
    """
    if is_fibonacci(val1) and is_fibonacci(val2) and is_fibonacci(val1 + val2):
        total = val1 + val2
        return MergeResult(total, total)
    return None


def threes_merge(val1: int, val2: int) -> MergeResult | None:
    """Threes-style rule: 1+2 make 3, equal tiles of at least 3 merge into their sum.

    Args:
        val1: The tile nearer the side the tiles move towards.
        val2: The tile sliding into it.

    Returns:
        The merge result or ``None``.
    """
    if (val1, val2) in ((1, 2), (2, 1)):
        return MergeResult(3, 3)
    if val1 == val2 and val1 >= 3:
        total = val1 + val2
        return MergeResult(total, total)
    return None


MERGE_PRESETS: dict[str, MergeLogic] = {
    "standard": standard_merge,
    "fibonacci": fibonacci_merge,
    "threes": threes_merge,
}
"""The named merge rules a configuration may refer to (grown by :func:`register_merge_preset`)."""


class PresetDefaults(NamedTuple):
    """Sensible spawn distribution and goal for a preset."""

    distribution: tuple[tuple[int, int], ...]
    """``(value, weight)`` pairs for new tiles."""
    goal: int
    """The tile value that counts as a win."""


PRESET_DEFAULTS: dict[str, PresetDefaults] = {
    "standard": PresetDefaults(((2, 9), (4, 1)), 2048),
    # Fibonacci 2048 spawns mostly 1s; 2584 is the Fibonacci number nearest 2048.
    "fibonacci": PresetDefaults(((1, 9), (2, 1)), 2584),
    # Threes spawns 1s, 2s and sometimes 3s; 3072 = 3 * 1024.
    "threes": PresetDefaults(((1, 2), (2, 2), (3, 1)), 3072),
}
"""Default distribution and goal per preset (used when a user picks a rule by name only)."""


def merge_preset_names() -> tuple[str, ...]:
    """The preset names in a stable order (``standard`` first)."""
    return tuple(MERGE_PRESETS)


def resolve_merge_logic(name: str) -> MergeLogic:
    """Look up a merge preset by name.

    Args:
        name: A key of :data:`MERGE_PRESETS`.

    Returns:
        The merge function.

    Raises:
        ValueError: If the name is unknown (the message lists the valid names).
    """
    try:
        return MERGE_PRESETS[name]
    except (KeyError, TypeError):
        valid = ", ".join(MERGE_PRESETS)
        raise ValueError(f"unknown merge rule {name!r}; choose one of: {valid}") from None


def merge_logic_name(logic: MergeLogic | str) -> str:
    """The preset name of a merge function (or validate a name).

    Args:
        logic: A preset function or a preset name.

    Returns:
        The preset name.

    Raises:
        ValueError: If ``logic`` is not one of the presets.
    """
    if isinstance(logic, str):
        resolve_merge_logic(logic)
        return logic
    for name, fn in MERGE_PRESETS.items():
        if fn is logic:
            return name
    valid = ", ".join(MERGE_PRESETS)
    raise ValueError(
        "a GameConfig stores merge rules by name so games can be saved; "
        f"use one of: {valid} (custom functions work with execute_move_on_board directly)"
    )


class UnsavableMergeLogic(ValueError):
    """A game whose merge function is not a registered preset cannot be saved.

    Saves and level files name the merge rule; a custom function is code, which they never
    store. Register the function with :func:`register_merge_preset` (before saving and before
    loading) to make such games saveable.
    """


def preset_name_of(logic: MergeLogic) -> str | None:
    """The registered preset name of a merge function, or ``None`` for a custom function.

    Args:
        logic: A merge function.

    Returns:
        The name under which ``logic`` itself (by identity) is registered, else ``None``.
    """
    for name, fn in MERGE_PRESETS.items():
        if fn is logic:
            return name
    return None


def register_merge_preset(
    name: str,
    logic: MergeLogic,
    distribution: tuple[tuple[int, int], ...] = ((2, 9), (4, 1)),
    goal: int = 2048,
) -> None:
    """Register a custom merge function as a named preset, so games using it can be saved.

    The registration lives in the running process: a program that loads such saves must
    register the same name first (loading an unknown name is a clean ``ValueError``).

    Args:
        name: The preset name (an identifier; the built-in names cannot be replaced).
        logic: A pure function ``(val1, val2) -> MergeResult | None``.
        distribution: Default spawn distribution for :meth:`GameConfig.for_preset`.
        goal: Default goal tile.

    Raises:
        ValueError: If the name is not an identifier, names a built-in preset, or is already
            registered for another function; or if ``logic`` is not callable.
    """
    if not isinstance(name, str) or not name.isidentifier():
        raise ValueError(f"a merge preset name is an identifier, not {name!r:.40}")
    if not callable(logic):
        raise ValueError("a merge preset must be a function (val1, val2) -> result or None")
    if name in _BUILT_IN or (name in MERGE_PRESETS and MERGE_PRESETS[name] is not logic):
        raise ValueError(f"the merge preset {name!r} is already taken")
    MERGE_PRESETS[name] = logic
    PRESET_DEFAULTS[name] = PresetDefaults(tuple(distribution), goal)


_BUILT_IN = frozenset(MERGE_PRESETS)
