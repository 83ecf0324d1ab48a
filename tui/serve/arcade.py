"""The arcade's book-keeping, whatever the protocol: who is playing, who may still come in,
and what players are told when a session ends.
"""

from __future__ import annotations

import itertools
import logging
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from core.text import escape_controls, plural
from tui.serve.limits import ServeLimits, valid_user_name
from tui.serve.spec import EXIT_CPU, EXIT_OK, SessionSpec, exit_reason

__all__ = ["RESET_TERMINAL", "Arcade", "duration", "goodbye"]

log = logging.getLogger("termarcade.serve")

RESET_TERMINAL = (
    "\x1b[<u"  # kitty keyboard protocol off
    "\x1b[?1000l\x1b[?1003l\x1b[?1015l\x1b[?1006l\x1b[?1016l"  # mouse reporting off
    "\x1b[?2004l\x1b[?1004l\x1b[?2048l"  # bracketed paste, focus and in-band resize off
    "\x1b[?7h\x1b[?25h\x1b[0m"  # line wrap and cursor back, attributes reset
    "\x1b[?1049l"  # back to the normal screen
)
"""What the app would have written on a clean exit: sent by the server when a session process
did not get to do it (killed, crashed), so the player's terminal is usable again."""


def goodbye(reason: str, limits: ServeLimits) -> str:
    """The line a player reads when the server ended their session ("" when they quit).

    Args:
        reason: ``"idle"``, ``"shutdown"``, or an :func:`tui.serve.spec.exit_reason` phrase.
        limits: The arcade's limits (quoted in the message).
    """
    if reason == "quit":
        return ""
    if reason == "idle":
        return (
            f"Closed after {duration(limits.idle_timeout)} without a key press. "
            "Your games are saved."
        )
    if reason == "shutdown":
        return "The arcade is closing for now. Your games are saved."
    if reason == "CPU limit":
        return (
            f"This session used its share of the server ({limits.cpu_limit:g} CPU "
            "seconds). Your games are saved: connect again to go on."
        )
    return (
        "termarcade stopped because of an internal error (the host has the details). "
        "Your games are saved."
    )


@dataclass
class Seat:
    """One session's place in the arcade.

    Attributes:
        session_id: The session's number.
        user: The player.
        address: Their IP address.
    """

    session_id: int
    user: str
    address: str
    ended_by: str | None = field(default=None)
    """Why the server ended it ("idle", "shutdown"), None while it runs or when the player quit."""
    end: Callable[[str], None] | None = field(default=None, repr=False)
    """Ends the session for a reason (set by the protocol's session)."""
    pid: int | None = None
    """The session process, once started."""


class Arcade:
    """Sessions and limits, shared by every connection of one server.

    Args:
        limits: The limits.
        data_dir: The data directory handed to sessions (their store).
        glyphs: A glyph set forced on every session (``--ascii``), or None.
        store: The store handed to every session (``--store``: a PostgreSQL URL shared by
            several hosts, or a SQLite path); empty for the default file in ``data_dir``.
    """

    def __init__(
        self, limits: ServeLimits, *, data_dir: str, glyphs: str | None = None, store: str = ""
    ) -> None:
        self.limits = limits
        self.data_dir = data_dir
        self.store = store
        self.glyphs = glyphs
        self.seats: dict[int, Seat] = {}
        """Sessions running or starting, by id."""
        self._ids = itertools.count(1)
        self._per_address: Counter[str] = Counter()

    def next_id(self) -> int:
        """A new connection/session number (for logs)."""
        return next(self._ids)

    def admit(self, session_id: int, user: str, address: str) -> tuple[Seat | None, str]:
        """Give a session a seat, or say why not.

        Returns:
            ``(seat, "")``, or ``(None, message for the player)``.
        """
        if not valid_user_name(user):
            return None, (
                "Choose a player name of letters, digits, '.', '_' or '-' (up to 32), "
                "e.g. ssh -p PORT yourname@HOST"
            )
        if len(self.seats) >= self.limits.max_sessions:
            return None, (
                f"The arcade is full ({self.limits.max_sessions} players). "
                "Please try again in a little while."
            )
        if self._per_address[address] >= self.limits.max_per_address:
            return None, (
                f"Too many sessions from {address} ({self.limits.max_per_address} at most)."
            )
        seat = Seat(session_id, user, address)
        self.seats[session_id] = seat
        self._per_address[address] += 1
        return seat, ""

    def release(self, seat: Seat) -> None:
        """Free a seat (idempotent)."""
        if self.seats.pop(seat.session_id, None) is not None:
            self._per_address[seat.address] -= 1
            if self._per_address[seat.address] <= 0:
                del self._per_address[seat.address]

    def spec(self, seat: Seat, tty_path: str, term: str, env: dict[str, str]) -> SessionSpec:
        """What the session process needs."""
        return SessionSpec(
            session_id=seat.session_id,
            user=seat.user,
            tty_path=tty_path,
            term=term,
            env=env,
            glyphs=self.glyphs,
            data_dir=self.data_dir,
            store=self.store,
            cpu_limit=self.limits.cpu_limit,
            nice=self.limits.nice,
        )

    def ended(self, seat: Seat, code: int | None, seconds: float) -> tuple[str, int]:
        """Log a session's end and decide what the player is told.

        Args:
            seat: The session.
            code: The session process's exit status.
            seconds: How long it ran.

        Returns:
            ``(message, exit status for the SSH client)``; the message is "" when the player
            quit.
        """
        reason = seat.ended_by or exit_reason(code)
        if seat.ended_by and code not in (EXIT_OK, EXIT_CPU, None) and code >= 0:
            reason = exit_reason(code)  # it failed while closing: say so
        log.info(
            "session %d user %s ended after %.0f s: %s (exit status %s), %d playing",
            seat.session_id,
            quoted(seat.user),
            seconds,
            reason,
            code,
            len(self.seats) - (seat.session_id in self.seats),
        )
        return goodbye(reason, self.limits), (0 if reason in ("quit", "idle", "shutdown") else 1)


def duration(seconds: float) -> str:
    """A time limit in words, as exact as the limit itself ("15 seconds", "1 minute 30 seconds").

    Args:
        seconds: The limit (rounded to whole seconds; under one second reads "1 second").

    Returns:
        Minutes and seconds, each named only when not zero.
    """
    minutes, rest = divmod(max(1, round(seconds)), 60)
    parts = [plural(minutes, "minute")] if minutes else []
    if rest:
        parts.append(plural(rest, "second"))
    return " ".join(parts)


def quoted(text: str) -> str:
    """A client-supplied string made safe for a log line."""
    return "'" + escape_controls(text[:64]) + "'"
