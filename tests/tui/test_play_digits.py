"""Typed move numbers (tui.screens.play.digits.DigitEntry), without Textual: a fake timer
that a test fires by hand stands in for the screen's ``set_timer``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tui.screens.play.digits import DIGIT_WAIT, DigitEntry, MoveDeferred


class FakeTimer:
    """A one-shot timer the test fires (or sees stopped)."""

    def __init__(self, seconds: float, callback: Callable[[], None]) -> None:
        self.seconds, self.callback, self.stopped = seconds, callback, False

    def stop(self) -> None:
        self.stopped = True


class Board:
    """What the screen gives the entry: ``count`` moves named ``m1`` .. ``mN``."""

    def __init__(self, count: int | None, deferred: bool = False) -> None:
        self.count, self.deferred = count, deferred
        self.picked: list[tuple[Any, int]] = []
        self.said: list[tuple[str, str]] = []
        self.bells = 0
        self.timers: list[FakeTimer] = []
        self.entry = DigitEntry(
            count=lambda: self.count,
            lookup=self.lookup,
            pick=lambda move, number: self.picked.append((move, number)),
            say=lambda text, severity: self.said.append((text, severity)),
            bell=self.ring,
            start_timer=self.start,
        )

    def lookup(self, number: int) -> str:
        if self.deferred:
            raise MoveDeferred(f"Looking for move {number}…")
        if self.count is None or not 1 <= number <= self.count:
            raise LookupError("")
        return f"m{number}"

    def ring(self) -> None:
        self.bells += 1

    def start(self, seconds: float, callback: Callable[[], None]) -> FakeTimer:
        self.timers.append(FakeTimer(seconds, callback))
        return self.timers[-1]

    def type(self, digits: str) -> None:
        for digit in digits:
            self.entry.press(int(digit))

    def time_out(self) -> None:
        """The last timer runs out (a stopped one never calls back)."""
        timer = self.timers[-1]
        assert not timer.stopped
        timer.callback()


def test_two_digits_within_the_wait_pick_move_12() -> None:
    board = Board(20)
    board.type("1")
    assert board.picked == [] and board.said == [("Move 1…", "information")]
    assert board.timers[0].seconds == DIGIT_WAIT
    board.type("2")  # 12 * 10 > 20: no longer number starts with 12, picked at once
    assert board.picked == [("m12", 12)] and board.timers[0].stopped
    assert board.entry.typed == ""


def test_one_digit_then_the_timeout_picks_move_1() -> None:
    board = Board(20)
    board.type("1")
    board.time_out()
    assert board.picked == [("m1", 1)] and board.entry.typed == ""


def test_a_digit_no_longer_number_starts_with_is_picked_at_once() -> None:
    board = Board(5)
    board.type("3")
    assert board.picked == [("m3", 3)] and board.timers == []


def test_a_second_digit_waits_again_when_a_third_could_follow() -> None:
    board = Board(150)
    board.type("12")  # 120 <= 150: 12 could start 120..129
    assert board.picked == [] and len(board.timers) == 2 and board.timers[0].stopped
    assert board.said[-1] == ("Move 12…", "information")
    board.time_out()
    assert board.picked == [("m12", 12)]


def test_leading_zeros_are_dropped() -> None:
    board = Board(9)
    board.type("0")
    assert board.entry.typed == "" and board.said == [] and board.timers == []
    board.type("07")
    assert board.picked == [("m7", 7)]


def test_a_missing_move_rings_and_says_the_range() -> None:
    board = Board(5)
    board.type("9")
    assert board.picked == [] and board.bells == 1
    assert board.said == [("There is no move 9 (moves are numbered 1 to 5).", "warning")]


def test_an_unknown_count_waits_and_says_no_range() -> None:
    board = Board(None)
    board.type("7")  # the moves are still being counted: a second digit may come
    assert board.timers and board.picked == []
    board.time_out()
    assert board.bells == 1 and board.said[-1] == ("There is no move 7.", "warning")


def test_a_deferred_move_is_said_without_a_bell() -> None:
    board = Board(3, deferred=True)
    board.type("2")
    assert board.bells == 0 and board.picked == []
    assert board.said == [("Looking for move 2…", "information")]


def test_the_word_names_the_entries() -> None:
    board = Board(40)
    board.entry.word = "Action"
    board.type("3")
    assert board.said == [("Action 3…", "information")]


@settings(max_examples=60, deadline=None)
@given(count=st.integers(1, 300), data=st.data())
def test_typing_a_number_picks_it(count: int, data: st.DataObject) -> None:
    """Typing N's digits, then letting the timer run out if one is still waiting, picks
    move N, for any count: the rule a player relies on (and ``keys_for`` types)."""
    number = data.draw(st.integers(1, count))
    board = Board(count)
    board.type(str(number))
    if not board.picked:
        board.time_out()
    assert board.picked == [(f"m{number}", number)]
    assert board.bells == 0 and board.entry.typed == ""
