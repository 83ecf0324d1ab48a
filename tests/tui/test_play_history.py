"""Undo, redo and restart as the puzzle screen answers them (tui.screens.play.history),
without an app: the toy game's row ``1.23`` by hand (``left`` slides the tile right of the
gap into it: ``1.23`` -> ``12.3`` -> ``123.``, solved)."""

from __future__ import annotations

from typing import Any

from core.session import RESTART, Session
from tests.toycore.engine import GAME as TOY
from tests.toycore.engine import Level
from tui.screens.play import history

GAME: Any = TOY  # the toy engine (typed looser than core.game.Game: status is str)
START = GAME.initial(Level("Slide", "1.23"))


def rows(session: Session | None) -> str:
    assert session is not None
    return session.state.row


def test_undo_takes_back_one_move_and_says_when_it_reaches_the_start() -> None:
    two = Session.begin(GAME, START).play("left").play("left")
    step = history.undo(two)
    assert (rows(step.session), step.text, step.transient) == ("12.3", "Undone.", True)
    step = history.undo(step.session)  # type: ignore[arg-type]
    assert (rows(step.session), step.text) == ("1.23", "Undone. This is the start.")
    assert step.severity == "information" and step.transient


def test_nothing_to_undo_or_redo_changes_nothing_and_goes_away() -> None:
    fresh = Session.begin(GAME, START)
    assert history.undo(fresh) == (None, "Nothing to undo.", "information", True)
    assert history.redo(fresh.play("left")) == (None, "Nothing to redo.", "information", True)


def test_redo_plays_the_move_taken_back_again() -> None:
    undone = Session.begin(GAME, START).play("right").undo()
    step = history.redo(undone)
    assert (rows(step.session), step.text, step.transient) == (".123", "Redone.", True)
    assert step.session is not None and step.session.last_move == "right"


def test_restart_is_a_move_that_undo_takes_back() -> None:
    fresh = Session.begin(GAME, START)
    assert history.restart(fresh) == (None, "Already at the start.", "information", False)
    moved = fresh.play("left")
    step = history.restart(moved)
    assert rows(step.session) == "1.23" and step.text == "Restarted. u undoes the restart."
    assert step.session is not None and step.session.last_move == RESTART
    assert not step.transient  # it says how to get the game back: it stays
    assert rows(history.undo(step.session).session) == "12.3"  # nothing was lost


def test_an_undo_into_a_past_that_no_longer_replays_is_a_warning() -> None:
    """A resumed game's past is replayed on the first undo; here the saved moves (three
    ``left``) do not lead to the saved position (``right, left, left`` was played), which is
    said, and not as a passing acknowledgement."""
    played = Session.begin(GAME, START).play("right").play("left").play("left")
    resumed = Session.resume(GAME, START, ["left", "left", "left"], 3, played.state)
    step = history.undo(resumed)
    assert step.severity == "warning" and not step.transient
    assert step.text.startswith("Undone, but ") and "no longer replays" in step.text
    assert step.text.endswith(": this may not be the position you played.")


def test_a_legal_move_is_played_and_an_illegal_one_says_why() -> None:
    fresh = Session.begin(GAME, START)
    step = history.play(fresh, "left")
    assert rows(step.session) == "12.3" and step.text == ""
    at_edge = Session.begin(GAME, GAME.initial(Level("Edge", ".12")))
    refused = history.play(at_edge, "right")  # no tile left of the gap
    assert refused == (None, "Cannot slide right here", "warning", False)  # capitalised


def test_no_move_is_played_once_the_game_is_over() -> None:
    won = Session.begin(GAME, START).play("left").play("left")
    assert won.finished and won.state.row == "123."
    refused = history.play(won, "right")
    assert refused.session is None and refused.severity == "warning"
    assert refused.text == "The game is over: u undoes, R restarts, esc goes back."
