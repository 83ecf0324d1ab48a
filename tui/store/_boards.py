"""Leaderboards: every win on a level, the best score of every scored game, and the boards.

Two kinds of board, one shape of answer (:class:`BoardEntry`):

* **Level boards** (puzzles), per ``(game, source, level)`` — the level's identity in
  :class:`tui.sources.LevelRef`. :meth:`Leaderboards.record_result` appends one row per win
  (moves, seconds of play, autoplayed or not); :meth:`Leaderboards.level_board` ranks each
  player's best once, by fewest moves (ties: faster) or by time (ties: fewer moves).
* **Score boards** (2048), per ``(game, board)`` where the board names the rules a score is
  comparable under (``"4x4-standard"``). :meth:`Leaderboards.record_game_score` keeps one
  row per game played (``run``: its save slot) with its best score; once a game is marked
  autoplayed it stays marked. :meth:`Leaderboards.score_board` ranks each player's best game.

Autoplayed results are kept off the human boards: every board query asks for one or the
other (``autoplayed=False`` by default). Ranks are SQL ``RANK()``: equal results share a
place. Each query returns the top ``limit`` lines and, when the store's own player is further
down, that player's line too (the screen highlights it).
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass

from ._changes import Change
from ._db import Database
from ._engine import StoreBase

__all__ = ["BY_MOVES", "BY_TIME", "BoardEntry", "Leaderboards", "upsert_solved"]

BY_MOVES = "moves"
"""Level board order: fewest moves, then fastest."""
BY_TIME = "time"
"""Level board order: fastest, then fewest moves."""


@dataclass(frozen=True)
class BoardEntry:
    """One player's line on a board.

    Attributes:
        place: 1-based rank; players with equal results share a place.
        user: The player (``""`` is the local player).
        moves: Moves of that result (None if the game does not count them).
        seconds: Seconds of play (None if not measured).
        score: The score (score boards only; None on level boards).
        recorded_at: When the result was reached (seconds since the epoch).
        autoplayed: Whether the computer played (part of) that game.
    """

    place: int
    user: str
    moves: int | None
    seconds: float | None
    score: int | None
    recorded_at: float
    autoplayed: bool


# Orders are written once for both dialects: "(x IS NULL), x" puts NULLs last in both
# (SQLite sorts NULL first, PostgreSQL last). recorded_at breaks ties: the earlier result wins.
_ORDERS = {
    BY_MOVES: ("moves IS NOT NULL", "moves, (seconds IS NULL), seconds"),
    BY_TIME: ("seconds IS NOT NULL", "seconds, (moves IS NULL), moves"),
    "score": ("1 = 1", "score DESC, (moves IS NULL), moves, (seconds IS NULL), seconds"),
}


def _board_sql(table: str, columns: str, where: str, kind: str) -> str:
    """The ranking query: each player's best row once, ranked, top lines plus the caller's.

    Parameters, in order: the ``where`` ones, then the line limit, then the caller's user.
    """
    present, order = _ORDERS[kind]
    return f"""
        WITH best AS (
            SELECT "user", {columns}, autoplayed, recorded_at,
                   ROW_NUMBER() OVER (PARTITION BY "user" ORDER BY {order}, recorded_at) AS pick
            FROM {table}
            WHERE {where} AND autoplayed = ? AND {present}
        ), ranked AS (
            SELECT "user", {columns}, autoplayed, recorded_at,
                   RANK() OVER (ORDER BY {order}) AS place,
                   ROW_NUMBER() OVER (ORDER BY {order}, recorded_at, "user") AS line
            FROM best WHERE pick = 1
        )
        SELECT place, "user", {columns}, recorded_at, autoplayed FROM ranked
        WHERE line <= ? OR "user" = ?
        ORDER BY line
    """


_LEVEL_BOARDS = {
    kind: _board_sql("results", "moves, seconds", "game = ? AND source = ? AND level = ?", kind)
    for kind in (BY_MOVES, BY_TIME)
}
_SCORE_BOARD = _board_sql("game_scores", "score, moves, seconds", "game = ? AND board = ?", "score")


def upsert_solved(db: Database, row: tuple[object, ...]) -> None:
    """Record a solved level, keeping the fewest moves (and the time they were reached).

    Args:
        db: The database, inside a write transaction.
        row: ``(user, game, pack, level, moves, solved_at)``.
    """
    # SET expressions see the row as it was (both dialects), so solved_at moves only with a
    # better count. CASE, not MIN(a, b): PostgreSQL's two-argument minimum is LEAST.
    db.execute(
        """
        INSERT INTO solved ("user", game, pack, level, moves, solved_at)
        VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT ("user", game, pack, level) DO UPDATE SET
            moves = CASE
                WHEN solved.moves IS NULL THEN excluded.moves
                WHEN excluded.moves IS NULL THEN solved.moves
                WHEN excluded.moves < solved.moves THEN excluded.moves
                ELSE solved.moves
            END,
            solved_at = CASE
                WHEN excluded.moves IS NOT NULL
                     AND (solved.moves IS NULL OR excluded.moves < solved.moves)
                THEN excluded.solved_at
                ELSE solved.solved_at
            END
        """,
        row,
    )


class Leaderboards(StoreBase):
    """The leaderboard half of :class:`~._store.Store` (see the module docstring)."""

    # -- recording ---------------------------------------------------------------------------

    def record_result(
        self,
        game: str,
        source: str,
        level: str,
        *,
        moves: int | None,
        seconds: float | None,
        autoplayed: bool = False,
        board: tuple[str, str] | None = None,
    ) -> None:
        """Record a win: a line for the level's boards, and the level solved (progress).

        Both happen in one transaction. An autoplayed win (the computer played part of the
        game: 2048's autoplay, Longcat's solution) goes on the autoplayed boards only; it does
        not mark the level solved, since the player did not solve it (Tatham's rule). Every win is kept (the boards rank each player's best),
        under an id made here, so a write retried after a lost connection counts once.

        Args:
            game: Game id.
            source: The level's source id (``LevelRef.source``, e.g. ``"pack:01-basics"``).
            level: The level's key in its source (``LevelRef.key``).
            moves: Moves on the winning line (None if the game does not count them).
            seconds: Seconds of play on the level up to the win (None if not measured).
            autoplayed: The computer played (part of) this game: keep it off the human board
                and off the player's solved levels.
            board: ``(source, level)`` of the board the result goes on when it is not the
                level's own ref: the level's ID's (:func:`tui.ids.board_ref`; a level of My
                levels or a file shares the board of its custom ID). Progress (solved) stays
                under ``(source, level)``.
        """
        now = time.time()
        board_source, board_level = board if board is not None else (source, level)
        row = (
            uuid.uuid4().hex,
            self.user,
            game,
            board_source,
            board_level,
            None if moves is None else int(moves),
            None if seconds is None else float(seconds),
            int(bool(autoplayed)),
            now,
        )

        # Progress (solved) goes under the level's own ref, the result on its board.
        self._change(Change("result", (*row, source, level)))

    def move_results(self, game: str, old: tuple[str, str], new: tuple[str, str]) -> None:
        """Move this player's results from one board to another (``(source, level)`` each).

        The leaderboard screen uses it once per level of My levels: results recorded before
        issue 20 under ``("mine", id)`` move to the board of the level's ID, where new ones go.
        """
        if old == new:
            return

        self._change(Change("move_results", (new[0], new[1], self.user, game, old[0], old[1])))

    def record_game_score(
        self,
        game: str,
        board: str,
        run: str,
        score: int,
        *,
        moves: int | None = None,
        seconds: float | None = None,
        autoplayed: bool = False,
    ) -> None:
        """Record the score of one game of a scored game (2048), keeping the game's best.

        One statement compares and updates, so sessions racing cannot lower a score. The
        autoplayed mark is sticky: once a game is recorded as autoplayed it stays so.

        Args:
            game: Game id.
            board: What scores are comparable under (``"4x4-standard"``).
            run: This game's identity (its save slot): one line per game played.
            score: The score now.
            moves: Moves played when that score was reached.
            seconds: Seconds of play when that score was reached.
            autoplayed: The computer has played (part of) this game.
        """
        row = (
            self.user,
            game,
            run,
            board,
            int(score),
            None if moves is None else int(moves),
            None if seconds is None else float(seconds),
            int(bool(autoplayed)),
            time.time(),
        )
        self._change(Change("game_score", row))

    # -- boards ------------------------------------------------------------------------------

    def level_board(
        self,
        game: str,
        source: str,
        level: str,
        *,
        by: str = BY_MOVES,
        autoplayed: bool = False,
        limit: int = 10,
    ) -> list[BoardEntry]:
        """The board of one level: each player's best result once, ranked.

        Args:
            game: Game id.
            source: The level's source id.
            level: The level's key.
            by: :data:`BY_MOVES` (fewest moves, ties by time) or :data:`BY_TIME` (fastest,
                ties by moves).
            autoplayed: False for the human board, True for the autoplayed one.
            limit: How many lines from the top.

        Returns:
            The top ``limit`` lines, then this store's player's line if it is further down.

        Raises:
            ValueError: For an unknown ``by``.
        """
        if by not in _LEVEL_BOARDS:
            raise ValueError(f"unknown board order {by!r} (use {BY_MOVES!r} or {BY_TIME!r})")
        params = (game, source, level, int(autoplayed), int(limit), self.user)
        return self._read(
            [],
            lambda db: [
                BoardEntry(int(place), user, moves, seconds, None, recorded_at, bool(auto))
                for place, user, moves, seconds, recorded_at, auto in db.execute(
                    _LEVEL_BOARDS[by], params
                ).fetchall()
            ],
        )

    def score_board(
        self, game: str, board: str, *, autoplayed: bool = False, limit: int = 10
    ) -> list[BoardEntry]:
        """The best scores under one board (2048 size and rule): each player's best game once.

        Args:
            game: Game id.
            board: The board (``"4x4-standard"``).
            autoplayed: False for the human board, True for the autoplayed one.
            limit: How many lines from the top.

        Returns:
            The top ``limit`` lines (highest score; ties by fewer moves, then faster), then
            this store's player's line if it is further down.
        """
        params = (game, board, int(autoplayed), int(limit), self.user)
        return self._read(
            [],
            lambda db: [
                BoardEntry(int(place), user, moves, seconds, int(score), recorded_at, bool(auto))
                for place, user, score, moves, seconds, recorded_at, auto in db.execute(
                    _SCORE_BOARD, params
                ).fetchall()
            ],
        )

    def boards(self, game: str) -> list[tuple[str, str]]:
        """The levels of a game that have results, as ``(source, level)``, sorted."""
        return self._read(
            [],
            lambda db: [
                (source, level)
                for source, level in db.execute(
                    "SELECT DISTINCT source, level FROM results WHERE game = ? "
                    "ORDER BY source, level",
                    (game,),
                ).fetchall()
            ],
        )

    def score_boards(self, game: str) -> list[str]:
        """The score boards of a game that have scores (``"4x4-standard"`` ...), sorted."""
        return self._read(
            [],
            lambda db: [
                board
                for (board,) in db.execute(
                    "SELECT DISTINCT board FROM game_scores WHERE game = ? ORDER BY board",
                    (game,),
                ).fetchall()
            ],
        )
