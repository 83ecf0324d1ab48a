"""What a level leaves in the arcade store: its saved game, play clock, autoplay mark, scores
and results (:class:`LevelRecords`, a plain class: no Textual).

Every change of the game is saved in the level's own slot with every move from the level's
start (:func:`core.saves.encode_save`), so leaving a level keeps its game and coming back
resumes it with its whole undo history. Games scored by points (2048) record each position's
:class:`Score` on the score boards; the others record a win on the level's leaderboards.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from core.saves import encode_save
from core.session import Session
from tui.screens.playtime import PlayClock, play_record, restored
from tui.sources import LevelRef, level_to_text

if TYPE_CHECKING:  # pragma: no cover
    from tui.store import Store

__all__ = ["LevelRecords", "Score"]


@dataclass(frozen=True, slots=True)
class Score:
    """A position's score, for games scored by points (2048): what the base records.

    Attributes:
        board: The score board it counts on (one per board size and rule: ``"4x4-standard"``).
        points: The score.
        moves: The moves made for it.
    """

    board: str
    """The score board's key."""
    points: int
    """The score."""
    moves: int
    """The moves made for it."""


class LevelRecords:
    """One level's records in the store, for the screen that plays it.

    Args:
        game_id: The game's id (the store's key).
        store: Returns the arcade's store (read when first needed: a screen is made before
            it is attached to the app).
        ref: Where the level comes from (its save slot), or None: nothing is saved.
        level: The level being played.
    """

    def __init__(
        self,
        game_id: str,
        store: Callable[[], Store],
        ref: LevelRef | None = None,
        level: Any = None,
    ) -> None:
        self.game_id = game_id
        """The game's id."""
        self._store = store
        self.ref = ref
        """Where the level comes from (None: not saved)."""
        self.level = level
        """The level being played."""
        self.clock = PlayClock()
        """Play time on this level (see :mod:`tui.screens.playtime`); kept in the save."""
        self.autoplayed = False
        """True once the computer played in this level's game (kept in the save)."""
        self._level_text: str | None = None
        self._best: int | None = None
        self._run_recorded: tuple[int, bool] | None = None
        self._last_save: tuple[str, dict[str, Any]] | None = None

    def switch(self, ref: LevelRef, level: Any) -> None:
        """Another level: its own text, score board and game line from now on."""
        self.ref, self.level, self._level_text = ref, level, None
        self._best, self._run_recorded = None, None

    # -- the saved game ----------------------------------------------------------------------

    def level_text(self) -> str | None:
        """The level as level-file text (cached; None when the game has no level format)."""
        if self._level_text is None and self.level is not None:
            try:
                self._level_text = level_to_text(self.game_id, self.level)
            except Exception:  # No format for this level: saves then rely on the source.
                self._level_text = ""
        return self._level_text or None

    def save_data(self, session: Session, level_text: str | None, fresh: bool) -> dict[str, Any]:
        """What the store keeps for the level (:func:`core.saves.encode_save`).

        Args:
            session: The game.
            level_text: The level as level-file text (None: its source has it).
            fresh: Checkpoint the current state; otherwise the last save's checkpoint is
                kept while it is recent (the last save of this slot only).

        Returns:
            The save's data.
        """
        last = self._last_save
        ref = self.ref
        previous = last[1] if last is not None and ref and last[0] == ref.slot else None
        return encode_save(session, level_text, previous, fresh)

    def summary(self, session: Session, title: str, par: int | None) -> dict[str, Any]:
        """What the level list shows without loading the save (the play record included)."""
        return {
            "title": title,
            "status": session.status,
            "finished": session.finished,
            "moves": session.moves_made,
            "par": par,
            **play_record(self.clock, self.autoplayed),
        }

    def save(self, data: dict[str, Any], summary: dict[str, Any]) -> None:
        """Write the save in the level's slot (nothing for a level that is not saved)."""
        if self.ref is None:
            return
        self._store().save_game(self.game_id, self.ref.slot, data, summary=summary)
        self._last_save = (self.ref.slot, data)

    def restore(self, session: Session) -> None:
        """Continue the clock and the autoplay mark of a resumed game (a new one starts at 0)."""
        info = None
        if self.ref is not None and session.touched:
            info = self._store().save_info(self.game_id, self.ref.slot)
        seconds, self.autoplayed = restored(info.summary if info is not None else None)
        self.clock.set(seconds)

    def mark_autoplayed(self) -> None:
        """The computer plays in this game: its results go to the autoplayed boards, for good."""
        self.autoplayed = True

    # -- scores and results ------------------------------------------------------------------

    def best_score(self, score: Score | None) -> int:
        """The player's best on ``score``'s board, ``score`` included (0 without a score)."""
        return max(self._best or 0, score.points if score is not None else 0)

    def record_progress(self, session: Session, score: Score | None) -> None:
        """Record a position's ``score``: this game's line on the board (its best score; the
        autoplay mark sticks) and the player's own best (a game the computer played is not
        the player's). Nothing for games without a score."""
        if score is None:
            return
        store = self._store()
        if self._best is None:
            self._best = store.best_score(self.game_id, score.board) or 0
        recorded = self._run_recorded
        if (
            self.ref is not None
            and session.touched
            and (recorded is None or score.points > recorded[0] or self.autoplayed > recorded[1])
        ):
            store.record_game_score(
                self.game_id,
                score.board,
                self.ref.slot,
                score.points,
                moves=score.moves,
                seconds=self.clock.seconds,
                autoplayed=self.autoplayed,
            )
            self._run_recorded = (score.points, self.autoplayed)
        if score.points > self._best and not self.autoplayed:
            store.record_score(self.game_id, score.board, score.points)
            self._best = score.points

    def record_win(self, session: Session) -> None:
        """Record a won game: the level solved in ``session.moves_made`` moves and the play
        time, on the level's leaderboards (an autoplayed win on the autoplayed boards only:
        the store does not mark the level solved)."""
        if self.ref is None:
            return
        # The board is the level's ID's (tui.ids.board_ref): a level from My levels or a file
        # shares its board with everybody who opens the same level by its ID.
        from tui.ids import board_ref

        board = board_ref(self.game_id, self.ref, self.level)
        self._store().record_result(
            self.game_id,
            self.ref.source,
            self.ref.key,
            moves=session.moves_made,
            seconds=self.clock.seconds,
            autoplayed=self.autoplayed,
            board=None if board == self.ref else (board.source, board.key),
        )
