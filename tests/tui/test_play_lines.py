"""The header's text (tui.screens.play.lines.header_line) and which outcome dialog a change
opens (tui.screens.play.outcome.outcome_kind), on a counting game worked by hand."""

from __future__ import annotations

from typing import Any

import pytest

from core.session import Session
from tui.screens.play.lines import header_line
from tui.screens.play.outcome import outcome_kind


class Counter:
    """A number that moves add to: 3 reaches the goal (play may go on), 4 wins and ends
    the game, 5 or more is lost."""

    id = "counter"

    def apply(self, state: int, move: int) -> int:
        return state + move

    def status(self, state: int) -> str:
        return "won" if state in (3, 4) else ("lost" if state >= 5 else "playing")

    def finished(self, state: int) -> bool:
        return state >= 4

    def move_to_json(self, move: int) -> Any:
        return move


def at(*moves: int) -> Session:
    session = Session.begin(Counter(), 0)  # type: ignore[arg-type]
    for move in moves:
        session = session.play(move)
    return session


def header(session: Session, par: int | None = 4, autoplayed: bool = False) -> str:
    return header_line(
        "Counter", "First", session, par=par, move_word="move", autoplayed=autoplayed
    )


def test_the_header_of_a_new_game() -> None:
    assert header(at()) == "Counter: First   0 moves (par 4)"
    assert header(at(), par=None) == "Counter: First   0 moves"


def test_the_header_names_undo_and_redo() -> None:
    assert header(at(1)) == "Counter: First   1 move (par 4)   u undo"
    assert header(at(1, 1).undo()) == "Counter: First   1 move (par 4)   u undo · U redo"
    assert header(at(1).undo()) == "Counter: First   0 moves (par 4)   U redo"


def test_the_header_says_won_goal_and_lost() -> None:
    assert header(at(3)) == "Counter: First   1 move (par 4)   ★ won, keep playing   u undo"
    assert header(at(2, 2)) == "Counter: First   2 moves (par 4)   ★ won   u undo"
    assert header(at(4), autoplayed=True).split("   ")[2] == "★ won by the computer"
    assert header(at(5)).split("   ")[2] == "✗ no moves left"


def test_the_header_words_and_titles() -> None:
    line = header_line("Carving", "", at(1, 1), par=None, move_word="action", autoplayed=False)
    assert line == "Carving   2 actions   u undo"
    hostile = header_line("G", "a\x1b[2Jb", at(), par=None, move_word="move", autoplayed=False)
    assert "\x1b" not in hostile and hostile.startswith("G: a")


@pytest.mark.parametrize(
    ("before", "after", "kind"),
    [
        (at(1), at(1).play(1), None),  # still playing
        (at(2), at(2).play(1), "goal"),  # won, play goes on
        (at(3), at(3).play(1), "won"),  # won and finished: a change of finished alone
        (at(2), at(2).play(3), "lost"),
        (at(2, 2).undo(), at(2, 2), "won"),  # redo forward into the win
        (at(3, 2), at(3, 2).undo(), None),  # undo never opens one (lost -> goal)
        (at(2, 2), at(2, 2).restart(), None),  # nor a restart
        (at(3), at(3).play(0), None),  # a move that changes nothing of the outcome
    ],
)
def test_which_outcome_a_change_opens(before: Session, after: Session, kind: str | None) -> None:
    assert outcome_kind(before, after) == kind


def test_a_redo_into_the_win_opens_it_again() -> None:
    won = at(1, 3)
    assert outcome_kind(won.undo(), won.undo().redo()) == "won"


def test_every_button_of_the_outcome_dialogs_runs_a_screen_action_or_none() -> None:
    """Each button a dialog offers is mapped to an action of the base screen, except "keep"
    (play on after a goal) and "stay" (close the dialog), which run none."""
    from tui.modals.outcome import _BUTTONS
    from tui.screens.play.outcome import CHOICE_ACTIONS
    from tui.screens.puzzle import PuzzleScreen

    offered = {choice for buttons in _BUTTONS.values() for choice, _, _ in buttons}
    assert set(CHOICE_ACTIONS) == offered - {"keep", "stay"}
    assert CHOICE_ACTIONS["next"] == CHOICE_ACTIONS["new"] == "next_level"  # N's, either way
    for action in CHOICE_ACTIONS.values():
        assert callable(getattr(PuzzleScreen, f"action_{action}"))
