"""The leaderboards in the store, on SQLite and on a real PostgreSQL server.

Level boards rank each player's best win once (fewest moves, ties by time; or fastest, ties
by moves), equal results share a place, the caller's own line comes back even below the
top, and autoplayed games never reach the human board. Score boards (2048) keep each game's
best score and its sticky autoplay mark.
"""

from __future__ import annotations

import uuid

import pytest

from tests.postgres_server import BACKENDS, select_backend
from tui.store import BY_MOVES, BY_TIME, BoardEntry, Store


@pytest.fixture(autouse=True, params=BACKENDS)
def backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run each test on SQLite and on PostgreSQL."""
    return select_backend(request, monkeypatch)


LEVEL = ("termcraft", "pack:01-basics", "Paint It Blue")


def win(
    user: str,
    moves: int | None,
    seconds: float | None,
    *,
    autoplayed: bool = False,
    level: tuple[str, str, str] = LEVEL,
) -> None:
    with Store(user=user) as store:
        store.record_result(*level, moves=moves, seconds=seconds, autoplayed=autoplayed)
        assert store.warnings == []


def lines(entries: list[BoardEntry]) -> list[tuple[int, str, int | None, float | None]]:
    return [(entry.place, entry.user, entry.moves, entry.seconds) for entry in entries]


def test_level_board_by_moves_ranks_each_players_best_once() -> None:
    win("alice", 5, 40.0)
    win("alice", 3, 90.0)  # Her best by moves, although slower.
    win("bob", 3, 60.0)  # Ties alice on moves; faster, so ahead.
    win("carol", 4, 10.0)
    win("dave", 3, 60.0)  # Exactly bob's result: same place.
    with Store(user="zed") as viewer:
        board = viewer.level_board(*LEVEL)
    assert lines(board) == [
        (1, "bob", 3, 60.0),
        (1, "dave", 3, 60.0),
        (3, "alice", 3, 90.0),
        (4, "carol", 4, 10.0),
    ]
    assert all(not entry.autoplayed and entry.score is None for entry in board)
    assert board[0].recorded_at < board[1].recorded_at  # Equal results: the earlier first.


def test_level_board_by_time_ranks_fastest_then_fewest_moves() -> None:
    win("alice", 5, 40.0)
    win("alice", 3, 90.0)
    win("bob", 3, 60.0)
    win("carol", 4, 40.0)  # Ties alice's fastest; fewer moves, so ahead.
    with Store(user="alice") as alice:
        board = alice.level_board(*LEVEL, by=BY_TIME)
    assert lines(board) == [(1, "carol", 4, 40.0), (2, "alice", 5, 40.0), (3, "bob", 3, 60.0)]


def test_own_line_comes_back_below_the_top() -> None:
    for index in range(6):
        win(f"player{index}", 3 + index, 10.0)
    win("me", 20, 1.0)
    with Store(user="me") as me:
        by_moves = me.level_board(*LEVEL, by=BY_MOVES, limit=3)
        by_time = me.level_board(*LEVEL, by=BY_TIME, limit=3)
        other = Store(user="nobody").level_board(*LEVEL, limit=3)
    assert [entry.user for entry in by_moves] == ["player0", "player1", "player2", "me"]
    assert by_moves[-1].place == 7
    assert by_time[0].user == "me" and len(by_time) == 3  # Already in the top: once.
    assert [entry.user for entry in other] == ["player0", "player1", "player2"]


def test_autoplayed_wins_are_kept_off_the_human_board() -> None:
    win("alice", 6, 50.0)
    win("bot-helped", 2, 1.0, autoplayed=True)
    win("alice", 1, 0.5, autoplayed=True)  # Her autoplayed win does not improve her line.
    with Store() as viewer:
        humans = viewer.level_board(*LEVEL)
        machines = viewer.level_board(*LEVEL, autoplayed=True)
        humans_by_time = viewer.level_board(*LEVEL, by=BY_TIME)
    assert lines(humans) == [(1, "alice", 6, 50.0)]
    assert lines(humans_by_time) == [(1, "alice", 6, 50.0)]
    assert lines(machines) == [(1, "alice", 1, 0.5), (2, "bot-helped", 2, 1.0)]
    assert all(entry.autoplayed for entry in machines)


def test_boards_are_per_level_and_game() -> None:
    win("alice", 3, 5.0)
    win("alice", 7, 5.0, level=("termcraft", "pack:01-basics", "Chain Reaction"))
    win("alice", 1, 5.0, level=("longcat", "pack:01-basics", "Paint It Blue"))
    with Store() as viewer:
        assert lines(viewer.level_board(*LEVEL)) == [(1, "alice", 3, 5.0)]
        assert viewer.boards("termcraft") == [
            ("pack:01-basics", "Chain Reaction"),
            ("pack:01-basics", "Paint It Blue"),
        ]
        assert viewer.boards("longcat") == [("pack:01-basics", "Paint It Blue")]
        assert viewer.boards("2048") == []


def test_a_result_without_time_or_moves_stays_off_that_board() -> None:
    win("alice", None, 12.0)  # A game that does not count moves.
    win("bob", 4, None)  # A result recorded without a clock.
    with Store() as viewer:
        assert lines(viewer.level_board(*LEVEL, by=BY_MOVES)) == [(1, "bob", 4, None)]
        assert lines(viewer.level_board(*LEVEL, by=BY_TIME)) == [(1, "alice", None, 12.0)]


def test_a_win_is_also_progress() -> None:
    with Store(user="alice") as alice:
        alice.record_result(*LEVEL, moves=9, seconds=3.0)
        alice.record_result(*LEVEL, moves=5, seconds=30.0)
        alice.record_result(*LEVEL, moves=7, seconds=1.0)
        game, pack, level = LEVEL
        assert alice.solved_moves(game, pack) == {level: 5}
        assert Store(user="bob").solved_levels(game, pack) == set()


def test_an_autoplayed_win_is_not_progress() -> None:
    """The computer's win goes to the autoplayed board, never to the player's solved levels."""
    game, pack, level = LEVEL
    with Store(user="alice") as alice:
        alice.record_result(*LEVEL, moves=3, seconds=1.0, autoplayed=True)
        assert alice.solved_moves(game, pack) == {}
        assert [e.user for e in alice.level_board(*LEVEL, autoplayed=True)] == ["alice"]
        alice.record_result(*LEVEL, moves=8, seconds=9.0)  # Then she solves it herself.
        assert alice.solved_moves(game, pack) == {level: 8}


def test_a_retried_result_counts_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A write repeated after a lost connection carries the same id: the second is a no-op."""
    fixed = uuid.UUID(int=42)
    monkeypatch.setattr(uuid, "uuid4", lambda: fixed)
    with Store(user="alice") as alice:
        alice.record_result(*LEVEL, moves=3, seconds=1.0)
        alice.record_result(*LEVEL, moves=3, seconds=1.0)
        assert alice.warnings == []
        count = alice._read(0, lambda db: db.execute("SELECT COUNT(*) FROM results").fetchone()[0])
    assert count == 1


def test_unknown_board_order_is_a_programming_error() -> None:
    with Store() as store, pytest.raises(ValueError, match="unknown board order"):
        store.level_board(*LEVEL, by="score")


# -- score boards (2048) ----------------------------------------------------------------------


def test_game_scores_keep_each_games_best_and_rank_each_players_best_game() -> None:
    with Store(user="alice") as alice:
        alice.record_game_score("2048", "4x4-standard", "run-a", 100, moves=20, seconds=9.0)
        alice.record_game_score("2048", "4x4-standard", "run-a", 80, moves=30)  # After an undo.
        alice.record_game_score("2048", "4x4-standard", "run-b", 60, moves=10)
        alice.record_game_score("2048", "5x5-standard", "run-c", 5000, moves=10)
    with Store(user="bob") as bob:
        bob.record_game_score("2048", "4x4-standard", "run-a", 100, moves=18, seconds=20.0)
        board = bob.score_board("2048", "4x4-standard")
        assert [(e.place, e.user, e.score, e.moves, e.seconds) for e in board] == [
            (1, "bob", 100, 18, 20.0),  # Same score, fewer moves.
            (2, "alice", 100, 20, 9.0),
        ]
        assert bob.score_boards("2048") == ["4x4-standard", "5x5-standard"]
        assert [e.score for e in bob.score_board("2048", "5x5-standard")] == [5000]


def test_autoplay_marks_a_game_for_good() -> None:
    with Store(user="alice") as alice:
        alice.record_game_score("2048", "4x4-standard", "run", 500, moves=40)
        assert [e.score for e in alice.score_board("2048", "4x4-standard")] == [500]
        alice.record_game_score("2048", "4x4-standard", "run", 100, autoplayed=True)
        alice.record_game_score("2048", "4x4-standard", "run", 900, moves=80)  # Unmarked call.
        assert alice.score_board("2048", "4x4-standard") == []
        (line,) = alice.score_board("2048", "4x4-standard", autoplayed=True)
        assert (line.score, line.moves, line.autoplayed) == (900, 80, True)


def test_own_best_game_comes_back_below_the_top() -> None:
    for index in range(5):
        with Store(user=f"p{index}") as store:
            store.record_game_score("2048", "4x4-standard", "r", 1000 - index)
    with Store(user="me") as me:
        me.record_game_score("2048", "4x4-standard", "r", 5)
        board = me.score_board("2048", "4x4-standard", limit=2)
    assert [(e.place, e.user) for e in board] == [(1, "p0"), (2, "p1"), (6, "me")]


def test_closed_store_boards_are_empty_with_a_warning() -> None:
    store = Store()
    store.close()
    assert store.level_board(*LEVEL) == [] and store.score_board("2048", "4x4") == []
    assert store.boards("g") == [] and store.score_boards("g") == []
    store.record_result(*LEVEL, moves=1, seconds=1.0)
    store.record_game_score("2048", "4x4", "r", 1)
    assert store.warnings
