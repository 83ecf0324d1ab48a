"""Going from level to level in a puzzle screen (plain: no Textual).

``N`` (the next level, a new one for a generator), a level opened by its ID in the screen
playing its game, and the level editor's round trip all end the same way: another level to
play in the same screen, and a sentence for the message line. :class:`LevelNav` decides which
level and which words (an :class:`Opening`); the screen only switches to it
(``PuzzleScreen.switch_level``) and says the words.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from core.session import Session
from tui.sources import LevelRef, SourceKind

if TYPE_CHECKING:  # pragma: no cover
    from tui.ids import Resolved
    from tui.launch import Launcher
    from tui.screens.designer import Edited

__all__ = ["LevelNav", "Opening", "level_id", "mine_id", "now_playing", "title_of"]

KEPT = " Your game of the previous level is saved."
"""Added when the game being left had moves (it stays in its slot)."""


@dataclass(frozen=True, slots=True)
class Opening:
    """What the screen does next: play another level (when ``session`` is set), then say
    ``text``.

    Attributes:
        text: The message line's sentence.
        severity: ``"information"``, ``"warning"`` or ``"error"``.
        ref: The level to play, or None: only say ``text``.
        level: That level.
        session: Its game (new or resumed), or None: only say ``text``.
        save_current: Whether the game being left is saved (False when the editor replaced
            its level and the player agreed to delete that game).
    """

    text: str
    severity: str = "information"
    ref: LevelRef | None = None
    level: Any = None
    session: Session | None = None
    save_current: bool = True


def title_of(level: Any) -> str:
    """A level's title ("" without a level), as the screen's header shows it."""
    return level.title if level is not None else ""


def now_playing(note: str, level: Any, touched: bool) -> str:
    """What the message line says on another level: the launcher's note ("Resumed your
    game …"), the new level's title, and whether the game left behind was kept.

    Args:
        note: The launcher's note, or "".
        level: The level now played.
        touched: Whether the game being left had moves.

    Returns:
        The sentence.
    """
    return (
        (note + " " if note else "") + f"Now playing {title_of(level)}." + (KEPT if touched else "")
    )


def mine_id(ref: LevelRef | None) -> int | None:
    """The level's id in My levels when ``ref`` is one of the player's own (the editor's Save
    then replaces it), else None."""
    if ref is None or ref.source.kind is not SourceKind.MINE:
        return None
    return int(ref.key)


def level_id(game_id: str, ref: LevelRef | None, level: Any) -> str | None:
    """The ID of the level being played (:mod:`tui.ids`), or None when it has none (no
    level, or a level without a format)."""
    if level is None:
        return None
    from tui.ids import level_id as id_of

    try:
        return id_of(game_id, ref, level)
    except Exception:  # A level without a format has no custom ID.
        return None


class LevelNav:
    """Which level a screen goes to next, through its game's launcher.

    Args:
        launcher: The game's launcher (its sources and saves); None for a screen made
            without one (isolated tests, a preview): it goes nowhere.
    """

    def __init__(self, launcher: Launcher | None) -> None:
        self.launcher = launcher
        """The game's launcher, if any."""

    def has_next(self, ref: LevelRef | None) -> bool:
        """Whether ``N`` has a level to go to from ``ref`` (not after My levels' last, nor
        in a preview)."""
        return self.launcher is not None and ref is not None and self.launcher.has_next(ref)

    def after_win_keys(self, ref: LevelRef | None) -> str:
        """What to press after a win: ``N: next level · esc: levels``, without N at the end."""
        return "N: next level · esc: levels" if self.has_next(ref) else "esc: levels"

    def next_level(self, ref: LevelRef | None, touched: bool) -> Opening:
        """The level after ``ref`` (a new one for a generator).

        Args:
            ref: The level being played.
            touched: Whether its game has moves (the message then says it is kept).

        Returns:
            The next level, or only a sentence saying there is none.
        """
        if self.launcher is None or ref is None:
            return Opening("There is no next level here.")
        opened = self.launcher.next_level(ref)
        if opened is None:
            return Opening("That was the last level of this pack.")
        ref, level, session, note = opened
        return Opening(now_playing(note, level, touched), ref=ref, level=level, session=session)

    def resolved(self, ref: LevelRef | None, resolved: Resolved, touched: bool) -> Opening | None:
        """The level an ID named, for the screen playing ``ref`` in the same game.

        Args:
            ref: The level being played.
            resolved: What the ID names (:func:`tui.ids.resolve`).
            touched: Whether the game being left has moves.

        Returns:
            The level, or a sentence (it is the level being played; it cannot be opened);
            None without a launcher.
        """
        if self.launcher is None:
            return None
        wanted = self.launcher.adopt(resolved)
        if wanted == ref:
            return Opening(f"You are playing {resolved.id} already.")
        try:
            wanted, level, session, note = self.launcher.prepare(wanted, resolved.level)
        except Exception as error:  # A damaged save must not crash the arcade.
            return Opening(f"This level cannot be opened: {error}")
        return Opening(now_playing(note, level, touched), ref=wanted, level=level, session=session)

    def edited(self, ref: LevelRef | None, result: Edited | None) -> Opening | None:
        """The editor closed: play the edited level if it asked to, or if it replaced the
        level being played (whose game the player agreed to delete: it is not saved again).

        Args:
            ref: The level being played.
            result: What the editor handed back (None: closed without saving).

        Returns:
            The edited level to play, a sentence when it cannot be opened, or None: the
            screen stays as it is.
        """
        if result is None or self.launcher is None:
            return None
        replaced = result.ref == ref
        if not (result.play or replaced):
            return None
        try:
            opened = self.launcher.prepare(result.ref)
        except Exception as error:  # Its slot holds a save this version cannot resume (kept).
            return Opening(f"The edited level cannot be opened: {error}", "error")
        return Opening(
            f"Playing the edited level “{title_of(result.level)}”.",
            ref=opened[0],
            level=result.level,
            session=opened[2],
            save_current=not replaced,
        )
