"""The arcade's limits and book-keeping without a network: the input rate limiter, admission,
player names and what players are told."""

from __future__ import annotations

import pytest

from tui.serve.arcade import Arcade, goodbye
from tui.serve.limits import InputGate, ServeLimits, TokenBucket, valid_user_name
from tui.serve.spec import EXIT_CPU, EXIT_ERROR, EXIT_OK, exit_reason


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Loop:
    """Just enough of an event loop for the gate: timers run when the test says."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.timers: list[tuple[float, object]] = []

    def call_later(self, delay: float, callback) -> object:
        self.timers.append((self.clock.now + delay, callback))
        return callback

    def run_until(self, when: float) -> None:
        """Run the timers due by ``when`` in time order, including ones they set."""
        while self.timers:
            self.timers.sort(key=lambda timer: timer[0])
            due, callback = self.timers[0]
            if due > when:
                break
            self.timers.pop(0)
            self.clock.now = due
            callback()
        self.clock.now = when


def _gate(rate: float, burst: float):
    clock = Clock()
    loop = Loop(clock)
    delivered: list[bytes] = []
    flow: list[str] = []
    gate = InputGate(
        TokenBucket(rate, burst, clock),
        deliver=delivered.append,
        pause=lambda: flow.append("pause"),
        resume=lambda: flow.append("resume"),
        call_later=loop.call_later,
    )
    return gate, loop, delivered, flow


def test_typing_passes_at_once() -> None:
    gate, _loop, delivered, flow = _gate(rate=100, burst=400)
    for key in (b"\x1b[A", b"j", b"\r"):
        gate.feed(key)
    assert delivered == [b"\x1b[A", b"j", b"\r"] and flow == []


def test_a_flood_is_slowed_to_the_rate_and_the_client_paused() -> None:
    gate, loop, delivered, flow = _gate(rate=100, burst=200)
    for _ in range(10):
        gate.feed(b"x" * 50)
    assert len(delivered) == 4 and flow == ["pause"] and gate.waiting == 300
    loop.run_until(0.5)  # 50 tokens: one more chunk
    assert len(delivered) == 5
    loop.run_until(3.0)
    assert len(delivered) == 10 and flow == ["pause", "resume"] and gate.waiting == 0


def test_chunks_are_never_split_so_escape_sequences_stay_whole() -> None:
    gate, loop, delivered, _flow = _gate(rate=10, burst=20)
    gate.feed(b"x" * 19)
    gate.feed(b"\x1b[1;5A")  # 6 bytes with 1 token left: waits, whole
    assert delivered == [b"x" * 19]
    loop.run_until(0.1)
    assert delivered == [b"x" * 19]
    loop.run_until(1.0)
    assert delivered == [b"x" * 19, b"\x1b[1;5A"]


def test_a_paste_bigger_than_the_burst_passes_whole_once_the_bucket_is_full() -> None:
    gate, loop, delivered, _flow = _gate(rate=100, burst=100)
    gate.feed(b"a" * 60)
    gate.feed(b"p" * 500)
    assert delivered == [b"a" * 60]
    loop.run_until(0.6)
    assert delivered[-1] == b"p" * 500
    gate.feed(b"k")  # the paste left a debt: the next key waits for it
    assert delivered[-1] == b"p" * 500
    loop.run_until(5.0)
    assert delivered[-1] == b"k"


def test_input_before_the_app_is_held() -> None:
    gate, _loop, delivered, flow = _gate(rate=100, burst=100)
    gate.deliver = None
    gate.feed(b"early")
    assert delivered == [] and flow == ["pause"]
    gate.deliver = delivered.append
    gate.pump()
    assert delivered == [b"early"] and flow == ["pause", "resume"]


@pytest.mark.parametrize(
    ("name", "ok"),
    [
        ("alice", True),
        ("Bob_2", True),
        ("a.b-c", True),
        ("x" * 32, True),
        ("x" * 33, False),
        ("", False),
        ("-rf", False),
        (".hidden", False),
        ("../etc", False),
        ("a b", False),
        ("ali\x1b[2Jce", False),
        ("名前", False),
    ],
)
def test_player_names(name, ok) -> None:
    assert valid_user_name(name) is ok


def test_admission_counts_the_server_and_each_address() -> None:
    arcade = Arcade(ServeLimits(max_sessions=3, max_per_address=2), data_dir="/tmp")
    first, _ = arcade.admit(1, "a", "10.0.0.1")
    second, _ = arcade.admit(2, "b", "10.0.0.1")
    assert first and second
    third, why = arcade.admit(3, "c", "10.0.0.1")
    assert third is None and "10.0.0.1" in why
    fourth, _ = arcade.admit(4, "d", "10.0.0.2")
    fifth, why = arcade.admit(5, "e", "10.0.0.3")
    assert fourth and fifth is None and "full" in why
    arcade.release(first)
    arcade.release(first)  # twice is harmless
    again, _ = arcade.admit(6, "a", "10.0.0.1")
    assert again is not None
    nameless, why = arcade.admit(7, "../x", "10.0.0.9")
    assert nameless is None and "player name" in why


def test_what_players_read_at_the_end() -> None:
    limits = ServeLimits(idle_timeout=600, cpu_limit=120)
    assert goodbye("quit", limits) == ""
    assert "10 minutes" in goodbye("idle", limits)
    assert "120 CPU seconds" in goodbye("CPU limit", limits)
    assert "internal error" in goodbye("internal error", limits)
    assert exit_reason(EXIT_OK) == "quit" and exit_reason(EXIT_CPU) == "CPU limit"
    assert exit_reason(-24) == "CPU limit" and exit_reason(EXIT_ERROR) == "internal error"


def test_limits_are_checked() -> None:
    with pytest.raises(ValueError):
        ServeLimits(max_sessions=0)
    with pytest.raises(ValueError):
        ServeLimits(idle_timeout=-1)
    with pytest.raises(ValueError):
        ServeLimits(nice=40)
