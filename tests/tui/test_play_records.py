"""A level's records in the store (tui.screens.play.records.LevelRecords), without an app:
a real store in the test's own data directory, a bundled Longcat level, a fake clock."""

from __future__ import annotations

from typing import Any

import pytest

from core import registry
from core.saves import decode_save, resume
from core.session import Session
from grammar.levels import bundled_packs
from tests.tui.helpers import FakeClock, fake_play_clock
from tui.screens.play.records import LevelRecords, Score
from tui.sources import LevelRef, level_from_text
from tui.store import Store

PACK_REF = LevelRef("pack:test", "a level")


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    return fake_play_clock(monkeypatch)


def longcat() -> tuple[Any, Any]:
    """Longcat's engine and its first bundled level with at least two moves at the start."""
    engine = registry.get("longcat").load("engine")  # type: ignore[union-attr]
    for _, pack in bundled_packs("longcat"):
        for level in pack.levels:
            if len(engine.moves(engine.initial(level))) >= 2:
                return engine, level
    raise AssertionError("no Longcat level with two first moves")


def played(engine: Any, level: Any, choices: list[int]) -> Session:
    """A session that plays the ``choices``-th legal move at each step."""
    session = Session.begin(engine, engine.initial(level))
    for choice in choices:
        moves = engine.moves(session.state)
        session = session.play(moves[choice % len(moves)])
    return session


def read_back(store: Store, engine: Any, slot: str) -> Session:
    """The session the launcher would resume from the slot (its own copy of the level)."""
    saved = decode_save(store.load_game("longcat", slot), "longcat")
    assert saved.level is not None
    level = level_from_text(saved.level)
    return resume(engine, engine.initial(level), saved).session


def records_of(store: Store, ref: LevelRef | None = PACK_REF, level: Any = None) -> LevelRecords:
    return LevelRecords("longcat", lambda: store, ref, level)


@pytest.mark.parametrize("fresh", [False, True])
def test_the_save_of_a_position_reads_back_to_the_same_moves(store: Store, fresh: bool) -> None:
    engine, level = longcat()
    session = played(engine, level, [0, 1])
    session = session.restart().play(engine.moves(engine.initial(level))[1]).undo()
    records = records_of(store, level=level)
    records.save(records.save_data(session, records.level_text(), fresh), {"title": "t"})
    back = read_back(store, engine, PACK_REF.slot)
    assert back.to_json() == session.to_json()  # every move, the restart and the redo branch
    assert engine.state_to_json(back.state) == engine.state_to_json(session.state)
    assert back.redo().last_move == session.redo().last_move


def test_a_level_without_a_ref_is_not_saved(store: Store) -> None:
    engine, level = longcat()
    records = records_of(store, ref=None, level=level)
    records.save(records.save_data(played(engine, level, [0]), None, True), {})
    assert store.saves("longcat") == []


def test_the_summary_carries_the_play_record(store: Store, clock: FakeClock) -> None:
    engine, level = longcat()
    session = played(engine, level, [0])
    records = records_of(store, level=level)
    records.clock.start()
    clock.now += 12.5
    records.mark_autoplayed()
    assert records.summary(session, "T", 7) == {
        "title": "T",
        "status": session.status,
        "finished": session.finished,
        "moves": 1,
        "par": 7,
        "seconds": 12.5,
        "autoplayed": True,
    }


def test_a_resumed_game_continues_its_clock_and_mark(store: Store, clock: FakeClock) -> None:
    engine, level = longcat()
    session = played(engine, level, [0])
    first = records_of(store, level=level)
    first.clock.start()
    clock.now += 40.0
    first.mark_autoplayed()
    first.save(first.save_data(session, None, True), first.summary(session, "T", None))
    again = records_of(store, level=level)
    again.restore(session)
    assert (again.clock.seconds, again.autoplayed) == (40.0, True)
    new = records_of(store, level=level)
    new.restore(Session.begin(engine, engine.initial(level)))  # nothing played: a new game
    assert (new.clock.seconds, new.autoplayed) == (0.0, False)


def test_best_score_is_the_stored_best_or_this_game(store: Store) -> None:
    engine, level = longcat()
    session = played(engine, level, [0])
    store.record_score("longcat", "4x4", 100)
    records = records_of(store)
    records.record_progress(session, Score("4x4", 80, 1))
    assert records.best_score(Score("4x4", 80, 1)) == 100
    assert store.best_score("longcat", "4x4") == 100  # not lowered
    records.record_progress(session, Score("4x4", 120, 2))
    assert records.best_score(Score("4x4", 120, 2)) == 120
    assert store.best_score("longcat", "4x4") == 120
    [line] = store.score_board("longcat", "4x4")
    assert (line.score, line.moves, line.autoplayed) == (120, 2, False)


def test_an_autoplayed_score_is_not_the_players_best(store: Store) -> None:
    engine, level = longcat()
    session = played(engine, level, [0])
    records = records_of(store)
    records.mark_autoplayed()
    records.record_progress(session, Score("4x4", 300, 9))
    assert store.best_score("longcat", "4x4") is None
    assert store.score_board("longcat", "4x4") == []
    [line] = store.score_board("longcat", "4x4", autoplayed=True)
    assert (line.score, line.autoplayed) == (300, True)
    assert records.best_score(None) == 0  # a game without a score


def test_a_new_level_reads_its_own_score_board(store: Store) -> None:
    engine, level = longcat()
    session = played(engine, level, [0])
    store.record_score("longcat", "5x5", 50)
    records = records_of(store)
    records.record_progress(session, Score("4x4", 10, 1))
    records.switch(LevelRef("pack:test", "another"), level)
    records.record_progress(session, Score("5x5", 20, 1))
    assert records.best_score(Score("5x5", 20, 1)) == 50


def test_a_win_is_recorded_on_the_levels_board(store: Store, clock: FakeClock) -> None:
    engine, level = longcat()
    session = played(engine, level, [0, 0])
    records = records_of(store, level=level)
    records.clock.start()
    clock.now += 7.0
    records.record_win(session)
    assert store.solved_levels("longcat", "pack:test") == {"a level"}
    [line] = store.level_board("longcat", "pack:test", "a level")
    assert (line.moves, line.seconds, line.autoplayed) == (2, 7.0, False)


def test_an_autoplayed_win_does_not_solve_the_level(store: Store) -> None:
    engine, level = longcat()
    records = records_of(store, level=level)
    records.mark_autoplayed()
    records.record_win(played(engine, level, [0]))
    assert store.solved_levels("longcat", "pack:test") == set()
    [line] = store.level_board("longcat", "pack:test", "a level", autoplayed=True)
    assert line.autoplayed and line.moves == 1


def test_a_save_keeps_the_last_checkpoint_of_its_own_slot_only(store: Store) -> None:
    engine, level = longcat()
    records = records_of(store, level=level)
    text = records.level_text()
    one = played(engine, level, [0])
    records.save(records.save_data(one, text, fresh=True), {})  # leaving: checkpoint at 1
    two = one.play(engine.moves(one.state)[0])
    assert records.save_data(two, text, fresh=False)["checkpoint"]["index"] == 1  # kept
    records.switch(LevelRef("pack:test", "another"), level)  # another slot: not its save
    assert records.save_data(two, text, fresh=False)["checkpoint"] is None
