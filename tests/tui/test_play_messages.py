"""The message line's text and its transient timer (tui.screens.play.messages), without an
app: a fake line and a fake timer that fires when the test says."""

from __future__ import annotations

from collections.abc import Callable

from tui.screens.play.messages import TRANSIENT_SECONDS, MessageLine


class FakeTimer:
    def __init__(self, seconds: float, callback: Callable[[], None]) -> None:
        self.seconds, self.callback, self.stopped = seconds, callback, False

    def stop(self) -> None:
        self.stopped = True


class Harness:
    """A message line over a fake widget (``shown``) and fake timers (``timers``)."""

    def __init__(self, mounted: bool = True) -> None:
        self.shown: list[tuple[str, str]] = []
        self.timers: list[FakeTimer] = []
        self.mounted = mounted
        self.line = MessageLine(lambda: self.show if self.mounted else None, self.start)

    def show(self, text: str, severity: str) -> None:
        self.shown.append((text, severity))

    def start(self, seconds: float, callback: Callable[[], None]) -> FakeTimer:
        self.timers.append(FakeTimer(seconds, callback))
        return self.timers[-1]


def test_a_message_stays_and_a_transient_one_goes_after_its_time() -> None:
    h = Harness()
    h.line.say("Keep going!")
    assert h.line.last == "Keep going!" and h.timers == [] and not h.line.transient
    h.line.say("Undone.", transient=True)
    assert h.shown[-1] == ("Undone.", "information") and h.line.transient
    assert [t.seconds for t in h.timers] == [TRANSIENT_SECONDS]
    h.timers[0].callback()  # the time passed
    assert h.line.last == "" and h.shown[-1] == ("", "information") and not h.line.transient


def test_a_move_clears_a_transient_message_only() -> None:
    h = Harness()
    h.line.say("Restarted. u undoes the restart.", "warning")
    h.line.moved()
    assert h.line.last == "Restarted. u undoes the restart."  # not transient: it stays
    h.line.say("Redone.", transient=True)
    h.line.moved()
    assert h.line.last == "" and h.timers[0].stopped and not h.line.transient


def test_a_new_message_stops_the_old_timer() -> None:
    """A later message is not cleared by the timer of an earlier transient one."""
    h = Harness()
    h.line.say("Undone.", transient=True)
    h.line.say("Move 3: left", "warning")
    assert h.timers[0].stopped and h.shown[-1] == ("Move 3: left", "warning")
    h.line.say("", transient=True)  # clearing starts no timer
    assert len(h.timers) == 1


def test_before_the_line_exists_the_text_is_only_remembered() -> None:
    h = Harness(mounted=False)
    h.line.say("Thinking…")
    assert h.line.last == "Thinking…" and h.shown == []
