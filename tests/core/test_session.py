"""Session: restart as an undoable move, exact saves of long games, damaged saves."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from core.session import RESTART, Session
from tests.toycore.engine import GAME, Level

START = GAME.initial(Level("toy", "3.21"))


def test_restart_is_a_move_that_can_be_undone() -> None:
    session = Session.begin(GAME, START).play("left").play("left")
    played = session.state
    restarted = session.restart()
    assert restarted.state == START and restarted.moves_made == 0
    assert restarted.last_move == RESTART and restarted.can_undo
    assert restarted.undo().state == played and restarted.undo().moves_made == 2
    assert Session.begin(GAME, START).restart().history.size == 1  # nothing to restart


def test_a_long_game_resumes_exactly_with_its_whole_history() -> None:
    """Regression: History kept 10,000 states and saves replayed the truncated list."""
    session = Session.begin(GAME, START)
    for number in range(12_001):
        session = session.play("left" if number % 2 == 0 else "right")
    session = session.undo().undo()
    data = json.loads(json.dumps(session.to_json()))
    assert len(data["moves"]) == 12_001 and data["index"] == 11_999
    resumed, problem = Session.from_json(GAME, START, data)
    assert problem is None
    assert resumed.state == session.state and resumed.history.index == 11_999
    assert [s.state for s in resumed.history.states] == [s.state for s in session.history.states]
    assert resumed.redo().redo().state == session.redo().redo().state


def test_a_save_that_no_longer_replays_keeps_what_does() -> None:
    data = {"moves": ["left", "left", "nonsense", "right"], "index": 3}
    resumed, problem = Session.from_json(GAME, START, data)
    assert problem is not None and "move 3" in problem
    assert resumed.history.size == 3 and resumed.moves_made == 2
    unreadable, problem = Session.from_json(GAME, START, "garbage")
    assert problem and unreadable.history.size == 1


moves = st.lists(st.sampled_from(["play", "undo", "redo", "restart"]), max_size=40)


@settings(max_examples=150, deadline=None)
@given(ops=moves, seed=st.integers(0, 10**6))
def test_saving_and_resuming_any_session_is_exact(ops: list[str], seed: int) -> None:
    import random

    rng = random.Random(seed)
    session = Session.begin(GAME, START)
    for op in ops:
        if op == "play":
            offered = GAME.moves(session.state)
            if offered:
                session = session.play(rng.choice(offered))
        else:
            session = getattr(session, op)()
    resumed, problem = Session.from_json(GAME, START, json.loads(json.dumps(session.to_json())))
    assert problem is None
    assert [s.state for s in resumed.history.states] == [s.state for s in session.history.states]
    assert resumed.history.index == session.history.index
    assert resumed.moves_made == session.moves_made
