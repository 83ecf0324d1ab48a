"""Helpers for Pilot tests of game screens: open a level on a screen the way the app does."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from core import registry
from core.session import Session
from tui.games.game2048.screen import Game2048Screen
from tui.launch import launcher_for
from tui.screens.level_select import LevelSelectScreen
from tui.sources import LevelRef

ScreenT = TypeVar("ScreenT")

SHELL_GAMES = ("termcraft", "carving", "algebrawl", "longcat", "2048")
"""The games the shell's snapshots picture: fixed, so adding a game changes no picture."""


@contextmanager
def fixed_registry() -> Iterator[None]:
    """Pin the registry to :data:`SHELL_GAMES` (screens that list every game are snapshots)."""
    infos = [registry.get(game_id) for game_id in SHELL_GAMES]
    assert all(infos), f"a shell game is not registered: {SHELL_GAMES}"
    with registry.pinned(*(info for info in infos if info is not None)):
        yield


def home_row(game_id: str) -> int:
    """The game's row on the home screen (registry order), counted from 0."""
    return [info.id for info in registry.games()].index(game_id)


async def open_level(
    pilot: Any, game_id: str, level: Any, ref: LevelRef | None = None, state: Any = None
) -> Any:
    """Push ``game_id``'s screen on ``level`` (a new game, or from ``state``).

    Args:
        pilot: The Textual pilot.
        game_id: A registered game id.
        level: The level to play.
        ref: Its save slot (default: a test source named after the level's title).
        state: Start from this state instead of the level's initial one.

    Returns:
        The screen.
    """
    app = pilot.app
    launcher = launcher_for(app, game_id)
    ref = ref or LevelRef("test", getattr(level, "title", "level"))
    start = state if state is not None else launcher.game.initial(level)
    screen = launcher.screen_class(
        Session.begin(launcher.game, start), level=level, ref=ref, launcher=launcher
    )
    app.push_screen(screen)
    await pilot.pause()
    return screen


async def start_2048(pilot: Any) -> Game2048Screen:
    """Open 2048 as the home screen does: the game in progress, else a new one.

    Args:
        pilot: The Textual pilot.

    Returns:
        The 2048 screen that opened (asserted to be one).
    """
    pilot.app.start_game("2048")
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, Game2048Screen)
    return screen


class FakeClock:
    """Monotonic seconds that move only when a test says so (set ``now``)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def play_first_level(pilot: Any, game_id: str) -> Any:
    """From the home screen: start ``game_id`` (no game in progress), then play the first level
    of its level select (enter).

    Args:
        pilot: The Textual pilot.
        game_id: A registered game id.

    Returns:
        The screen on top afterwards (the game's screen; the caller asserts its class).
    """
    pilot.app.start_game(game_id)
    await pilot.pause()
    assert isinstance(pilot.app.screen, LevelSelectScreen)
    await pilot.press("enter")
    await pilot.pause()
    return pilot.app.screen


async def open_designer(pilot: Any, screen_class: type[ScreenT]) -> ScreenT:
    """Press E on a game screen: the game's designer bench (or editor) opens over it.

    Args:
        pilot: The Textual pilot.
        screen_class: The class the opened screen must be (asserted).

    Returns:
        The opened screen.
    """
    await pilot.press("E")
    await pilot.pause()
    bench = pilot.app.screen
    assert isinstance(bench, screen_class)
    return bench


async def verdict_with(pilot: Any, bench: Any, *words: str) -> str:
    """Wait (bounded) until a designer bench's live verdict is shown and holds every word.

    Args:
        pilot: The Textual pilot.
        bench: The designer bench (anything with a ``verdict_text``).
        *words: Each must be in the verdict.

    Returns:
        The verdict text.
    """
    await wait_until(
        pilot,
        lambda: bench.verdict_text and all(w in bench.verdict_text for w in words),
        lambda: f"the verdict to hold {words} (it reads {bench.verdict_text!r})",
    )
    return str(bench.verdict_text)


def fake_play_clock(monkeypatch: Any) -> FakeClock:
    """Drive the play clock (``tui.screens.playtime.NOW``) by a :class:`FakeClock`.

    Args:
        monkeypatch: The test's ``pytest.MonkeyPatch`` (the real clock comes back after).

    Returns:
        The fake clock, at 1000.0 s.
    """
    from tui.screens import playtime

    fake = FakeClock()
    monkeypatch.setattr(playtime, "NOW", fake)
    return fake


WAIT_SECONDS = 30.0
"""How long :func:`wait_until` waits: generous, so a busy machine only slows a test down."""


async def wait_until(
    pilot: Any,
    predicate: Callable[[], object],
    what: str | Callable[[], str] = "",
    timeout: float = WAIT_SECONDS,
) -> None:
    """Pause the app until ``predicate()`` holds (a redraw, a worker, a timer that fired).

    A fixed pause decides the outcome by the machine's speed; this waits for the condition
    itself and only bounds the wait (a hang fails, with ``what`` in the message).

    Args:
        pilot: The Textual pilot.
        predicate: What to wait for (called between short pauses).
        what: What is awaited, for the failure message (a callable: asked at the failure,
            to show the state then).
        timeout: At most this many seconds (monotonic clock).

    Raises:
        AssertionError: When ``predicate()`` is still false after ``timeout`` seconds.
    """
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            said = what() if callable(what) else what
            raise AssertionError(f"timed out after {timeout:g} s waiting for {said or predicate}")
        await pilot.pause(0.02)


async def number_picked(pilot: Any, screen: Any) -> None:
    """Wait until a typed move number is picked (:data:`tui.screens.puzzle.DIGIT_WAIT` after
    a digit that a longer number could start with), instead of pausing past the timer."""
    await wait_until(
        pilot, lambda: not screen.digit_entry.typed, "the typed move number to be picked"
    )


async def palette_found(pilot: Any, wanted: str) -> None:
    """Wait until the open command palette highlights a hit whose text has ``wanted``.

    The palette searches in the background as the query is typed: enter pressed before the
    search of the whole query ends would pick an earlier query's hit, or nothing.
    """
    from textual.command import CommandList

    def found() -> bool:
        hits = pilot.app.screen.query(CommandList)
        if not hits or hits.first().highlighted is None:
            return False
        listing = hits.first()
        option = listing.get_option_at_index(listing.highlighted)
        return wanted in str(getattr(option.prompt, "plain", option.prompt))

    await wait_until(pilot, found, f"the palette to offer {wanted!r}")


async def verdict_settled(pilot: Any, bench: Any) -> None:
    """Wait until a designer bench shows its live verdict on what its fields hold now: its
    quiet delay has passed, its verdict worker has ended, and the verdict line is not empty."""

    def settled() -> bool:
        running = any(
            worker.group == "designer-verdict" and not worker.is_finished
            for worker in pilot.app.workers
        )
        return getattr(bench, "_live_timer", None) is None and not running

    await wait_until(pilot, lambda: settled() and bench.verdict_text, "the live verdict")
    await pilot.pause()
