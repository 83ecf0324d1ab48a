"""Saves of format 1: their levels as level-file text, and their move to a level's own slot.

Format 1 (see :mod:`core.saves`) was written by the first 2048 and TermCraft screens only,
one save per game in the slot ``"current"``, with the level as game-specific JSON. Nothing
writes it any more, so this table is closed: a new game never appears here. The level
conversion needs the games' level values and the level-file printer, which core cannot
import; that is why it lives in the shell and is handed to :func:`core.saves.decode_save`.
"""

from __future__ import annotations

from typing import Any

from core.saves import V1_SLOT, decode_save, migrate
from tui.sources import LevelRef, generator_source_id, level_to_text

__all__ = ["adopt_v1_save", "v1_level", "v1_ref"]


def v1_level(game: str, data: Any) -> str | None:
    """A format-1 save's level as level-file text (see :data:`core.saves.V1Level`).

    Args:
        game: The game id (``"2048"`` or ``"termcraft"``).
        data: 2048: the configuration dict; TermCraft: the level dict (terms as text).

    Returns:
        The level text, or None for another game.

    Raises:
        UnreadableSave: When the level data does not make a level (the message says why).
    """
    from core.saves import UnreadableSave

    try:
        level = _v1_level_value(game, data)
    except (KeyError, TypeError, ValueError) as error:
        raise UnreadableSave(f"its level cannot be read ({error})") from None
    return None if level is None else level_to_text(game, level)


def _v1_level_value(game: str, data: Any) -> Any:
    if not isinstance(data, dict):
        raise TypeError("the level is not a JSON object")
    if game == "2048":
        from core.game2048.level import Level as Level2048
        from core.game2048.state import GameConfig

        config = GameConfig.from_dict(data)
        size = config.board_size
        title = f"{size}×{size} {config.merge_rule}, seed {config.initial_seed}"
        return Level2048(title, config)
    if game == "termcraft":
        from core.termcraft.level import Level as TermCraftLevel
        from grammar.terms import parse_term

        return TermCraftLevel(
            str(data["title"]),
            parse_term(data["current"]),
            parse_term(data["target"]),
            int(data["fuel"]),
            int(data["budget"]),
            par=None if data.get("par") is None else int(data["par"]),
            description=str(data.get("description", "")),
            hint=str(data.get("hint", "")),
            author=str(data.get("author", "")),
        )
    return None


def v1_ref(game: str, data: dict[str, Any]) -> LevelRef:
    """The level ref a format-1 save moves to (its slot from now on).

    2048 games were generated: the generator's ref with the save's size, rule and seed (so
    ``N`` makes a new game as for any generated level). A TermCraft level from a bundled pack
    keeps its pack and title; an edited one goes to ``"saved"``, a source that only the save
    itself knows (its level text travels in the save).
    """
    if game == "2048":
        config = data.get("config") or {}
        size = config.get("board_size", 4)
        rule = config.get("merge_logic", "standard")
        source = generator_source_id("new", {"size": size, "rule": rule})
        return LevelRef(source, str(config.get("initial_seed", 0)))
    old = data.get("ref")
    level = data.get("level") or {}
    if isinstance(old, list) and len(old) == 2 and isinstance(level, dict):
        return LevelRef(f"pack:{old[0]}", str(level.get("title", old[1])))
    return LevelRef("saved", f"format 1 {game}")


def adopt_v1_save(store: Any, game: str) -> LevelRef | None:
    """Move a game's format-1 save (slot ``"current"``) to its level's slot, migrated.

    The save is written in the current format to its level's slot, then the old slot is
    deleted (in that order: a failure between the two leaves both, never neither). A slot
    that already holds a game is never overwritten: the format-1 save then stays where it is.
    A format-1 save that cannot be read stays where it is too, and the caller is told why.

    Args:
        store: The app's store.
        game: The game id.

    Returns:
        The ref the save moved to, or None when there was nothing to move.

    Raises:
        SaveError: When the old save cannot be read (it is kept in its slot).
    """
    data = store.load_game(game, V1_SLOT)
    if not isinstance(data, dict) or data.get("version") != 1:
        return None
    # core.saves writes the current format (no checkpoint yet: the first resume replays
    # once); decode_save checks it as a resume will.
    migrated = migrate(data, game, v1_level)
    saved = decode_save(migrated, game)
    ref = v1_ref(game, data)
    if store.save_info(game, ref.slot) is not None:
        return None
    level = _v1_level_value(game, data.get("config" if game == "2048" else "level"))
    summary = {"title": level.title or ref.key, "status": "playing", "moves": saved.index}
    store.save_game(game, ref.slot, migrated, summary=summary)
    store.delete_game(game, V1_SLOT)
    return ref
