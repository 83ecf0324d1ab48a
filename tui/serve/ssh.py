"""``termarcade serve --ssh``: the arcade as an SSH server (asyncssh).

Every connection may open one session channel; a shell request with a PTY starts the player's
own app process (:class:`tui.serve.process.AppProcess`) at the size of their window, keyed by
their SSH user name. Everything else SSH can do is refused: exec requests get a one-line
explanation and exit status 1, and subsystems (SFTP), port and socket forwarding, agent and X11
forwarding, and tunnels are rejected by the protocol.

Who may play which name (:mod:`tui.serve.owners`): with an owner book (``--names owned``, the
default), a name belongs to the first public key that plays it, a key that does not own the
name is refused, and a client that offers no key (keyboard-interactive or password, with any
answer) plays as a guest. Without one (``--names open``) authentication is open (any user
name, no password). Either way ``authorized_keys`` restricts which keys may log in at all.

The server's event loop only moves bytes: keys from the player through the input rate limiter
into the session's terminal, and the app's output back into the SSH channel, with flow control
both ways (a slow client pauses the app's output; a flooding client is paused by SSH's window).
Idle sessions are closed after ``idle_timeout`` seconds without input.

Connections that have not opened a session yet are counted by a
:class:`tui.serve.limits.ConnectionGate` (per address and in total): past its bounds a connection
is closed before asyncssh sends a byte, and an idle one is closed after the login timeout.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from pathlib import Path
from typing import Any

import asyncssh

from core.text import escape_controls
from tui.serve.arcade import RESET_TERMINAL, Arcade, Seat, quoted
from tui.serve.limits import ConnectionGate, InputGate, TokenBucket, valid_user_name
from tui.serve.owners import GUEST_PREFIX, NameBook, key_identity
from tui.serve.process import AppProcess
from tui.serve.spec import clean_client_env

__all__ = ["ArcadeConnection", "ArcadeSession", "start_ssh_server"]

log = logging.getLogger("termarcade.serve")

_TERM_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.+-_")


def _clean_term(term: str | None) -> str:
    """The client's TERM if it is a plausible terminal name, else ``xterm-256color``."""
    if term and len(term) <= 64 and set(term) <= _TERM_CHARS:
        return term
    return "xterm-256color"


class ArcadeConnection(asyncssh.SSHServer):
    """One SSH connection: authentication, forwarding refusals, at most one session.

    Args:
        arcade: The server's sessions and limits (and the owners of names).
        restricted: True when only authorized keys may log in.
        authorized: The authorized keys, when the arcade checks them itself (owned names);
            None when asyncssh checks them (open names) or anyone may log in.
        gate: Counts the connections that have no session yet (shared by all of them).
    """

    def __init__(
        self,
        arcade: Arcade,
        restricted: bool,
        authorized: asyncssh.SSHAuthorizedKeys | None = None,
        *,
        gate: ConnectionGate,
    ) -> None:
        self.arcade = arcade
        self.restricted = restricted
        self.authorized = authorized
        self.gate = gate
        self.guest = False
        """The client logged in without a key: it plays as a guest."""
        self.refusal = ""
        """Why this connection's session must be refused (a name it may not use)."""
        self._key: Any = None
        """The public key that last passed :meth:`validate_public_key` (the one that logged
        in, when authentication completes with a key)."""
        self._name_taken = ""
        """Set when a key was refused because another key owns the name: the message."""
        self._told = False
        """The refusal was sent as a banner: no guest login is offered any more."""
        self.conn_id = arcade.next_id()
        self.address = "?"
        self.peer = "?"
        self.user = ""
        self.session: ArcadeSession | None = None
        self._conn: Any = None
        self._opened = time.monotonic()
        self._refused = False
        """Refused by the gate: closed before the handshake, and not logged one by one."""
        self._waiting = False
        """Counted by the gate: open without a session."""
        self._timer: asyncio.TimerHandle | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self._conn = conn
        peer = conn.get_extra_info("peername") or ("?", 0)
        self.address = str(peer[0])
        self.peer = f"{peer[0]}:{peer[1]}"
        if not self.gate.enter(self.address):
            # Past a bound: closed before asyncssh sends its version, the cheapest refusal
            # there is; the gate's report logs the whole burst in a line or two.
            self._refused = True
            conn.abort()
            return
        self._waiting = True
        log.info("connection %d from %s", self.conn_id, self.peer)
        # asyncssh closes a login slower than login_timeout; a connection that logged in but
        # never opens a session is closed here, a little later.
        self._arm_timer(2 * self.arcade.limits.login_timeout + 1)

    def _arm_timer(self, delay: float) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = asyncio.get_running_loop().call_later(delay, self._close_if_unused)

    def _close_if_unused(self) -> None:
        self._timer = None
        if self.session is None and self._conn is not None:
            log.info("connection %d closed: no session opened", self.conn_id)
            self._conn.close()

    def _stop_waiting(self) -> None:
        """The connection has its session or is gone: the gate no longer counts it."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._waiting:
            self._waiting = False
            self.gate.leave(self.address)

    def session_closed(self, session: ArcadeSession) -> None:
        """A session channel closed: the connection, should it stay open without another,
        counts again as waiting (and is closed after the login timeout)."""
        if self.session is session:
            self.session = None
        # Later: when the whole connection is closing, asyncssh closes its channels first.
        asyncio.get_running_loop().call_soon(self._wait_again)

    def _wait_again(self) -> None:
        if self._conn is None or self.session is not None or self._waiting:
            return
        if not self.gate.enter(self.address):
            self._conn.close()
            return
        self._waiting = True
        self._arm_timer(self.arcade.limits.login_timeout)

    def connection_lost(self, exc: Exception | None) -> None:
        self._conn = None
        if self._refused:
            return
        self._stop_waiting()  # no longer waiting: counted out, the timer stopped
        why = f": {exc}" if exc else ""
        log.info(
            "connection %d from %s closed after %.0f s%s",
            self.conn_id,
            self.peer,
            time.monotonic() - self._opened,
            why,
        )

    # -- authentication ---------------------------------------------------------------------
    # asyncssh calls these as the client tries its methods: keys first (each probed, then
    # signed), then keyboard-interactive and password. The last hook that said yes decides who
    # logged in: a key (owner of the name) or nobody in particular (a guest).

    def begin_auth(self, username: str) -> bool:
        # A client may change its user name between attempts: what was learnt is forgotten.
        self.user = username
        self._key = None
        self.guest = False
        self._name_taken = ""
        self._told = False
        if self.arcade.names is None:
            return self.restricted  # False: no authentication needed (an open arcade)
        return True

    def public_key_auth_supported(self) -> bool:
        return self.arcade.names is not None

    async def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        book = self.arcade.names
        if book is None:  # open names: only asyncssh's authorized keys get here, and pass it
            return False
        if self.authorized is not None and (
            self.authorized.validate(key, self.address, self.address) is None
        ):
            return False
        if not await self._may_use(book, username, key):
            return False
        self._key = key
        self.guest = False
        return True

    async def _may_use(self, book: NameBook, username: str, key: asyncssh.SSHKey) -> bool:
        """Whether ``key`` owns ``username`` or the name is free (claimed once logged in).

        The book is read in a thread: a slow disk or database delays this login only."""
        try:
            owner = await asyncio.to_thread(book.owner, username)
        except book.errors as error:
            log.error("connection %d: cannot read the owners of names: %s", self.conn_id, error)
            # Closed, not open: a book that cannot be read must not hand out names.
            self._name_taken = "The arcade cannot check names right now; please try again later."
            return False
        if owner is None or owner.fingerprint == key_identity(key)[1]:
            return True
        log.info(
            "connection %d: key %s refused for user %s (owned by %s)",
            self.conn_id,
            key.get_fingerprint(),
            quoted(username),
            owner.fingerprint,
        )
        self._name_taken = (
            f"The name {escape_controls(username[:64])} belongs to another SSH key. Connect "
            "with that key, or choose another name (ssh -p PORT othername@HOST)."
        )
        return False

    def kbdint_auth_supported(self) -> bool:
        return self._guests_welcome()

    def password_auth_supported(self) -> bool:
        return self._guests_welcome()

    def _guests_welcome(self) -> bool:
        """Key-less clients are guests on an arcade of owned names open to anyone."""
        return self.arcade.names is not None and not self.restricted and not self._told

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        return self._as_guest()  # True: in without a question

    def validate_password(self, username: str, password: str) -> bool:
        return self._as_guest()  # any password: a guest has no secret

    def _as_guest(self) -> bool:
        """Let a key-less client in as a guest, unless its key was refused for the name:
        then it reads why (a banner: OpenSSH prints it) and no guest login is offered."""
        if self._name_taken:
            if not self._told:
                self._told = True
                with contextlib.suppress(OSError, asyncssh.Error):
                    self._conn.send_auth_banner(self._name_taken + "\r\n")
            return False
        self._key = None
        self.guest = True
        return True

    async def auth_completed(self) -> None:
        how = " with an authorized key" if self.restricted else ""
        if self.arcade.names is not None:
            how = " as a guest" if self.guest else await self._claim(self.arcade.names)
        log.info("connection %d user %s logged in%s", self.conn_id, quoted(self.user), how)

    async def _claim(self, book: NameBook, /) -> str:
        """The key that logged in takes its name if free; returns how it logged in (for the
        log), and sets :attr:`refusal` when it may not play the name after all."""
        if self._key is None:  # cannot happen: with an owner book every login is one of two
            self.refusal = "The arcade could not tell who you are; please try again."
            return ""
        if not valid_user_name(self.user) or self.user.startswith(GUEST_PREFIX):
            if self.user.startswith(GUEST_PREFIX):
                self.refusal = f"Names starting with {GUEST_PREFIX} are for guests (no key)."
            return ""  # an unusable name is refused with its message when the session opens
        key, fingerprint = key_identity(self._key)
        try:
            claimed = await asyncio.to_thread(book.claim, self.user, key, fingerprint)
        except book.errors as error:
            log.error("connection %d: cannot record the owner of a name: %s", self.conn_id, error)
            self.refusal = "The arcade cannot check names right now; please try again later."
            return ""
        if not claimed:  # another key claimed it between the check and now
            self.refusal = f"The name {self.user} belongs to another SSH key."
        return f" with key {fingerprint}"

    def session_requested(self) -> Any:
        if self.session is not None:  # one channel at a time: one process per connection
            log.info("connection %d: second session refused", self.conn_id)
            return False
        self.session = ArcadeSession(self)
        self._stop_waiting()
        return self.session

    def connection_requested(
        self, dest_host: str, dest_port: int, orig_host: str, orig_port: int
    ) -> bool:
        log.info("connection %d: port forwarding refused", self.conn_id)
        return False

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        log.info("connection %d: remote port forwarding refused", self.conn_id)
        return False

    def unix_connection_requested(self, dest_path: str) -> bool:
        log.info("connection %d: socket forwarding refused", self.conn_id)
        return False

    def unix_server_requested(self, listen_path: str) -> bool:
        log.info("connection %d: socket forwarding refused", self.conn_id)
        return False


class ArcadeSession(asyncssh.SSHServerSession):
    """One player's session channel: refuses what is not a terminal, else runs their app.

    Args:
        connection: The connection it belongs to.
    """

    def __init__(self, connection: ArcadeConnection) -> None:
        self.connection = connection
        self.arcade = connection.arcade
        self._chan: Any = None
        self._term: str | None = None
        self._size = (80, 24)
        self._command: str | None = None
        self._app: AppProcess | None = None
        self._seat: Seat | None = None
        self._started = 0.0
        self._last_input = time.monotonic()
        self._idle_timer: asyncio.TimerHandle | None = None
        self._gone = False
        """The client sent EOF or left: the app's output is dropped and the app ends."""
        self._closed = False
        """The channel is closed: nothing more can be sent."""
        self._gate: InputGate | None = None
        self._task: asyncio.Task[None] | None = None

    # -- what the client asks for ---------------------------------------------------------------

    def connection_made(self, chan: Any) -> None:
        self._chan = chan

    def pty_requested(
        self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Any
    ) -> bool:
        self._term = term_type
        if term_size[0] > 0 and term_size[1] > 0:
            self._size = (term_size[0], term_size[1])
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self._command = command  # answered in session_started: never run
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        log.info("connection %d: subsystem %s refused", self.connection.conn_id, quoted(subsystem))
        return False

    def session_started(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._start())

    # -- starting -------------------------------------------------------------------------------

    async def _start(self) -> None:
        conn = self.connection
        if self._command is not None:
            log.info("connection %d: command %s refused", conn.conn_id, quoted(self._command))
            self._refuse(
                "This server runs termarcade and nothing else: connect without a "
                "command, with a terminal (ssh -t ...)."
            )
            return
        if self._term is None:
            self._refuse("termarcade needs a terminal: connect with ssh -t ...")
            return
        seat, refusal = (
            (None, conn.refusal)
            if conn.refusal
            else self.arcade.admit(conn.conn_id, conn.user, conn.address, guest=conn.guest)
        )
        if seat is None:
            log.info("connection %d user %s refused: %s", conn.conn_id, quoted(conn.user), refusal)
            self._refuse(refusal)
            return
        self._seat = seat
        seat.end = self.end
        loop = asyncio.get_running_loop()
        limits = self.arcade.limits
        self._gate = InputGate(
            TokenBucket(limits.input_rate, limits.input_burst),
            deliver=None,
            pause=self._chan.pause_reading,
            resume=self._chan.resume_reading,
            call_later=loop.call_later,
        )
        term = _clean_term(self._term)
        env = self._client_env(seat.session_id)
        self._app = AppProcess(
            lambda tty: self.arcade.spec(seat, tty, term, env),
            on_output=self._output,
            on_exit=self._app_exited,
        )
        try:
            await self._app.start(*self._size)
        except OSError as error:
            log.error("session %d cannot start: %s", seat.session_id, error)
            self.arcade.release(seat)
            self._app = None
            self._refuse("The arcade cannot start a session right now; please try again later.")
            return
        self._started = time.monotonic()
        seat.pid = self._app.pid
        log.info(
            "session %d user %s from %s: %s %dx%d, pid %d, %d playing",
            seat.session_id,
            quoted(seat.user),
            conn.peer,
            quoted(term),
            *self._size,
            self._app.pid,
            len(self.arcade.seats),
        )
        if self._gone:  # the client left while the process was starting
            self._app.discard_output()
            self._app.terminate()
            return
        self._gate.deliver = self._app.write
        self._gate.pump()
        self._schedule_idle_check(limits.idle_timeout)

    def _client_env(self, session_id: int) -> dict[str, str]:
        """The client's variables that pass :func:`clean_client_env` (the rest are logged)."""
        env, dropped = clean_client_env(self._chan.get_environment() or {})
        if dropped:
            log.info("session %d: ignored the client's %s", session_id, ", ".join(dropped))
        return env

    def _refuse(self, message: str) -> None:
        """Tell the client why in one line and close with exit status 1.

        Sent even after the client's EOF (OpenSSH sends one right after the request when its
        stdin is empty, often before this runs): EOF only ends the client's input, and a
        client left without an exit status and a close would wait for ever.
        """
        if self._closed:
            return
        newline = "\r\n" if self._term is not None else "\n"
        try:
            self._chan.write_stderr((message + newline).encode("utf-8"))
            self._chan.exit(1)
        except (OSError, asyncssh.Error):
            pass

    # -- while playing --------------------------------------------------------------------------

    def data_received(self, data: bytes, datatype: Any) -> None:
        self._last_input = time.monotonic()
        if self._gate is not None:
            self._gate.feed(data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        if width > 0 and height > 0:
            self._size = (width, height)
            if self._app is not None:
                self._app.resize(width, height)

    def _output(self, data: bytes) -> None:
        if not self._gone:
            with contextlib.suppress(OSError, asyncssh.Error):
                self._chan.write(data)

    def pause_writing(self) -> None:
        if self._app is not None:
            self._app.pause_output()

    def resume_writing(self) -> None:
        if self._app is not None:
            self._app.resume_output()

    def _schedule_idle_check(self, delay: float) -> None:
        if self.arcade.limits.idle_timeout > 0:
            loop = asyncio.get_running_loop()
            self._idle_timer = loop.call_later(max(delay, 0.05), self._idle_check)

    def _idle_check(self) -> None:
        idle = time.monotonic() - self._last_input
        limit = self.arcade.limits.idle_timeout
        if idle < limit:
            self._schedule_idle_check(limit - idle)
            return
        self.end("idle")

    # -- ending ---------------------------------------------------------------------------------

    def end(self, reason: str) -> None:
        """Close the session for ``reason`` (``"idle"``, ``"shutdown"``): the app saves and
        restores the screen, then the player reads why."""
        if self._seat is not None and self._seat.ended_by is None:
            self._seat.ended_by = reason
        if self._app is not None:
            self._app.terminate()

    def eof_received(self) -> bool:
        """The client's input ended: stop the app, but keep the channel open for sending
        (True), so that the refusal or the app's end still sends its exit status and closes
        the channel (returning False would send EOF back and leave the channel open)."""
        self._client_left()
        return True

    def connection_lost(self, exc: Exception | None) -> None:
        self._closed = True
        self._client_left()
        self.connection.session_closed(self)  # the channel is closed: another may open

    def _client_left(self) -> None:
        if self._gone:
            return
        self._gone = True
        if self._idle_timer is not None:
            self._idle_timer.cancel()
        if self._seat is not None and self._seat.ended_by is None:
            self._seat.ended_by = "client gone"
        if self._app is not None:
            self._app.discard_output()
            self._app.terminate()

    def _app_exited(self, code: int | None) -> None:
        if self._idle_timer is not None:
            self._idle_timer.cancel()
        seat = self._seat
        assert seat is not None
        clean = code == 0
        self.arcade.release(seat)
        message, status = self.arcade.ended(seat, code, time.monotonic() - self._started)
        if self._closed:
            return
        try:
            if not clean:
                self._chan.write(RESET_TERMINAL.encode())
            if message:
                self._chan.write(("\r\n" + message + "\r\n").encode("utf-8"))
            self._chan.exit(status)
        except (OSError, asyncssh.Error):
            pass


async def start_ssh_server(
    arcade: Arcade,
    host: str,
    port: int,
    host_key: Any,
    *,
    gate: ConnectionGate,
    authorized_keys: Path | None = None,
) -> Any:
    """Listen for players.

    Args:
        arcade: Sessions and limits.
        host: Address to listen on.
        port: TCP port (0: any free port; see the returned server's sockets).
        host_key: The server's private host key (``asyncssh.SSHKey``).
        gate: Bounds the connections that have no session yet (shared by all of them).
        authorized_keys: An ``authorized_keys`` file: only those keys may log in. None: anyone.

    Returns:
        The ``asyncssh.SSHAcceptor`` (``close()`` stops listening).

    Raises:
        OSError: When the address cannot be listened on.
        ValueError: When the authorized keys file cannot be read.
    """
    restricted = authorized_keys is not None
    client_keys: asyncssh.SSHAuthorizedKeys | None = None
    if authorized_keys is not None:
        try:
            client_keys = asyncssh.read_authorized_keys(str(authorized_keys))
        except (OSError, asyncssh.KeyImportError, ValueError) as error:
            raise ValueError(
                f"cannot read {authorized_keys}: {getattr(error, 'strerror', None) or error}"
            ) from None
    limits = arcade.limits
    # Owned names: the arcade checks authorized keys itself, with the name's owner (asyncssh
    # would accept an authorized key without asking who owns the name).
    own = arcade.names is not None
    log.info(
        "names: %s",
        f"owned by SSH keys ({arcade.names.where}), guests without a key"
        if arcade.names is not None
        else "open (any client may play any name)",
    )
    return await asyncssh.create_server(
        lambda: ArcadeConnection(arcade, restricted, client_keys if own else None, gate=gate),
        host,
        port,
        server_host_keys=[host_key],
        authorized_client_keys=None if own else client_keys,
        encoding=None,  # bytes both ways: the app's terminal speaks UTF-8 on its own
        line_editor=False,  # keys go to the app as typed
        agent_forwarding=False,
        x11_forwarding=False,
        allow_scp=False,
        sftp_factory=None,
        login_timeout=limits.login_timeout,  # a pre-auth connection holds a slot at most this long
        keepalive_interval=30,
        keepalive_count_max=3,  # a vanished client is noticed within ~90 s
        server_version="termarcade",
    )
