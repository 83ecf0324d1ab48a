"""The limits that keep a public arcade healthy, and the input rate limiter.

Every limit is per session unless it says otherwise; docs/remote.md, "Running a public
arcade safely", says how they add up on one host.
"""

from __future__ import annotations

import ipaddress
import re
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass

from tui.serve.confine import DEFAULT_MEMORY_LIMIT

__all__ = [
    "Bursts",
    "ConnectionGate",
    "InputGate",
    "ServeLimits",
    "TokenBucket",
    "address_group",
    "connection_bounds",
    "valid_user_name",
]

_USER_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,31}")


def valid_user_name(name: str) -> bool:
    """Whether an SSH user name may name a player: 1-32 of letters, digits, ``_ . -``, not
    starting with ``.`` or ``-`` (it shows on screens and in logs, and keys the saves)."""
    return _USER_NAME.fullmatch(name) is not None


@dataclass(frozen=True)
class ServeLimits:
    """How much one arcade lets its players use.

    Attributes:
        max_sessions: Sessions at once (the whole server); more are told to come back later.
        max_per_address: Sessions at once from one IP address.
        idle_timeout: Seconds without input before a session is closed (0: never).
        cpu_limit: CPU seconds a player may use per hour, hints and solvers included (an
            address: :data:`tui.serve.ledger.ADDRESS_PLAYERS` times it; 0: no limit).
        input_rate: Bytes per second of input a session may send, on average.
        input_burst: Bytes a session may send at once above that rate.
        nice: Niceness added to session processes, so the server itself stays responsive.
        login_timeout: Seconds a client has to finish logging in (and, once more, to open its
            session after that).
        max_connections: Connections at once that have no session yet (the whole server);
            0: derived from the open-file limit at start (:func:`connection_bounds`).
        max_connections_per_address: Connections at once without a session from one IP address;
            0: 10, or ``max_per_address`` when that is more (players from one address may all
            log in at once).
        memory_limit: Bytes of address space one session may map (0: no limit).
    """

    max_sessions: int = 50
    max_per_address: int = 8
    idle_timeout: float = 900.0
    cpu_limit: float = 600.0
    input_rate: float = 4096.0
    input_burst: float = 16384.0
    nice: int = 5
    login_timeout: float = 15.0
    max_connections: int = 0
    max_connections_per_address: int = 0
    memory_limit: int = DEFAULT_MEMORY_LIMIT

    def __post_init__(self) -> None:
        if self.max_sessions < 1 or self.max_per_address < 1:
            raise ValueError("session limits must be at least 1")
        if min(self.max_connections, self.max_connections_per_address) < 0:
            raise ValueError("connection limits cannot be negative")
        if min(self.idle_timeout, self.cpu_limit, self.login_timeout) < 0:
            raise ValueError("time limits cannot be negative")
        if self.input_rate <= 0 or self.input_burst <= 0:
            raise ValueError("the input rate and burst must be positive")
        if self.memory_limit < 0:
            raise ValueError("the memory limit cannot be negative")
        if not 0 <= self.nice <= 19:
            raise ValueError("nice must be between 0 and 19")


def connection_bounds(limits: ServeLimits, open_files: int) -> tuple[int, int]:
    """How many connections without a session the server lets in at once.

    Args:
        limits: The arcade's limits (a bound of 0: derive it).
        open_files: The process's (soft) open-file limit.

    Returns:
        ``(per address, in total)``: ``max_connections_per_address`` or the larger of 10 and
        ``max_per_address``; ``max_connections`` or a quarter of the open files (at most 256,
        at least 1), so that a flood of idle connections leaves the descriptors sessions need.
    """
    per_address = limits.max_connections_per_address or max(10, limits.max_per_address)
    total = limits.max_connections or max(1, min(256, open_files // 4))
    return per_address, total


def address_group(address: str) -> str:
    """What the per-address bound counts: the IPv4 address, or the /64 network of an IPv6 one
    (one customer commonly holds a whole /64, so counting single IPv6 addresses bounds nothing).

    Args:
        address: The peer's address as the socket reports it (e.g. ``::ffff:192.0.2.7``).
    """
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class ConnectionGate:
    """Counts the connections that have no session yet, per address (an IPv6 /64 counting as
    one, see :func:`address_group`) and in total.

    A connection enters when it is accepted and leaves when it opens its session or closes
    (it enters again when its session ends and it stays open). Past a bound it is refused.

    Args:
        per_address: Connections without a session at once from one address.
        total: Connections without a session at once, whatever the address.
        on_refused: Called with the address and the bound that refused it (for the log).
    """

    def __init__(
        self, per_address: int, total: int, on_refused: Callable[[str, str], None]
    ) -> None:
        self.per_address = per_address
        self.total = total
        self._on_refused = on_refused
        self._waiting: Counter[str] = Counter()

    @property
    def waiting(self) -> int:
        """Connections without a session now."""
        return sum(self._waiting.values())

    def enter(self, address: str) -> bool:
        """Count a connection from ``address`` in; False (and report) when it must be refused."""
        address = address_group(address)
        if self._waiting[address] >= self.per_address:
            self._on_refused(address, f"per-address bound {self.per_address}")
            return False
        if self.waiting >= self.total:
            self._on_refused(address, f"total bound {self.total}")
            return False
        self._waiting[address] += 1
        return True

    def leave(self, address: str) -> None:
        """Count a connection from ``address`` out (it opened a session or closed)."""
        address = address_group(address)
        self._waiting[address] -= 1
        if self._waiting[address] <= 0:
            del self._waiting[address]


class Bursts:
    """Groups repeated events (refused connections, failed accepts) into bursts, so that a
    flood is logged as one line with a count instead of one line per socket.

    A burst starts with an event and ends once ``quiet`` seconds pass without another, or
    ``longest`` seconds after it started (a flood that never stops is reported that often).

    Args:
        quiet: Seconds without an event that end a burst.
        longest: Seconds after which a burst is reported even if it goes on.
        clock: Seconds from a monotonic clock (tests pass their own).
    """

    def __init__(
        self, quiet: float = 2.0, longest: float = 30.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.quiet = quiet
        self.longest = longest
        self._clock = clock
        self._open: dict[tuple[str, str], list[float]] = {}
        """(first, last, count) of each open burst, by (key, why)."""

    def add(self, key: str, why: str) -> bool:
        """Count one event; True when it starts a new burst."""
        now = self._clock()
        burst = self._open.get((key, why))
        if burst is None:
            self._open[(key, why)] = [now, now, 1]
            return True
        burst[1] = now
        burst[2] += 1
        return False

    def due(self, key: str, why: str) -> float:
        """Seconds until the burst may end (0: it has ended; report it with :meth:`take`)."""
        first, last, _ = self._open[(key, why)]
        now = self._clock()
        return max(0.0, min(last + self.quiet, first + self.longest) - now)

    def take(self, key: str, why: str) -> tuple[int, float]:
        """End a burst: its number of events and the seconds from its first to its last."""
        first, last, count = self._open.pop((key, why))
        return int(count), last - first


class TokenBucket:
    """A token bucket: ``rate`` tokens a second, at most ``burst`` saved up.

    The input limiter spends one token per byte and never splits a chunk (an escape sequence
    cut in two would read as a bare Escape): a chunk waits until the bucket holds enough for it,
    or is full for a chunk bigger than the bucket, and then may take the balance below zero.

    Args:
        rate: Tokens added per second.
        burst: Capacity (and the starting balance).
        clock: Seconds from a monotonic clock (tests pass their own).
    """

    def __init__(
        self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._tokens = burst
        self._stamp = clock()

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._stamp) * self.rate)
        self._stamp = now

    def wait_time(self, size: int) -> float:
        """Seconds until a chunk of ``size`` bytes may pass (0 when it may pass now)."""
        self._refill()
        missing = min(size, self.burst) - self._tokens
        return max(0.0, missing / self.rate)

    def take(self, size: int) -> None:
        """Spend ``size`` tokens (call when :meth:`wait_time` says 0)."""
        self._refill()
        self._tokens -= size


class InputGate:
    """Passes a session's input on at most at its bucket's rate, in whole chunks.

    While input waits, the gate asks the connection to stop reading (SSH flow control then
    holds the client back), so a flood costs the server no memory and a paste arrives whole,
    only later.

    Args:
        bucket: The rate limiter.
        deliver: Receives each chunk when its turn comes (None: hold everything).
        pause: Stops reading from the player.
        resume: Reads from the player again.
        call_later: ``loop.call_later``.
    """

    def __init__(
        self,
        bucket: TokenBucket,
        *,
        deliver: Callable[[bytes], None] | None,
        pause: Callable[[], None],
        resume: Callable[[], None],
        call_later: Callable[..., object],
    ) -> None:
        self.bucket = bucket
        self.deliver = deliver
        self._pause = pause
        self._resume = resume
        self._call_later = call_later
        self._queue: deque[bytes] = deque()
        self._timer: object = None
        self._paused = False

    def feed(self, data: bytes) -> None:
        """Take a chunk of input from the player."""
        self._queue.append(data)
        if self._timer is None:
            self.pump()

    def pump(self) -> None:
        """Pass on what may pass now; wait for the rest (also call once ``deliver`` is set)."""
        self._timer = None
        while self._queue:
            wait = self.bucket.wait_time(len(self._queue[0]))
            if self.deliver is None or wait > 0:
                if not self._paused:
                    self._paused = True
                    self._pause()
                if self.deliver is not None:
                    self._timer = self._call_later(wait, self.pump)
                return
            chunk = self._queue.popleft()
            self.bucket.take(len(chunk))
            self.deliver(chunk)
        if self._paused and not self._queue:
            self._paused = False
            self._resume()

    @property
    def waiting(self) -> int:
        """Bytes held back."""
        return sum(len(chunk) for chunk in self._queue)
