"""``termarcade serve``: run the arcade for many players, over SSH or in web browsers."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from tui.cli.output import fail
from tui.store import ENV_STORE

__all__ = ["serve"]

DEFAULT_PORTS = {"ssh": 2222, "web": 8000}


class _ServeCommand(click.Command):
    """``serve``'s command: its help ends with the data directory this run would use (the
    global ``--data-dir`` and ``TERMARCADE_DATA_DIR`` are read before ``serve --help``)."""

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The epilog, then ``Data directory for this run: PATH``."""
        super().format_epilog(ctx, formatter)
        from core.text import escape_controls
        from tui.store import data_dir

        formatter.write_paragraph()
        # written as is, not wrapped: a long path stays one line to copy
        formatter.write(f"Data directory for this run: {escape_controls(str(data_dir()))}\n")


@click.command(cls=_ServeCommand)
@click.option(
    "--ssh", "mode", flag_value="ssh", help="Serve over SSH (asyncssh): ssh -p PORT name@HOST."
)
@click.option(
    "--web",
    "mode",
    flag_value="web",
    help="Serve in web browsers (textual-serve: the web extra; in a clone, "
    "pip install -e '.[web]').",
)
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on (0.0.0.0 or :: for every interface).",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=None,
    help="Port to listen on [default: 2222 for --ssh, 8000 for --web].",
)
@click.option(
    "--host-key",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="SSH host key (private key file) [default: made on first run, kept in the data dir].",
)
@click.option(
    "--authorized-keys",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Only let in the SSH keys in this authorized_keys file [default: anyone].",
)
@click.option(
    "--max-sessions",
    type=click.IntRange(1, 10_000),
    default=50,
    show_default=True,
    help="Players at once.",
)
@click.option(
    "--max-per-address",
    type=click.IntRange(1, 10_000),
    default=8,
    show_default=True,
    help="Players at once from one IP address.",
)
@click.option(
    "--idle-timeout",
    type=click.FloatRange(0),
    default=900,
    show_default=True,
    help="Close a session after this many seconds without a key press (0: never).",
)
@click.option(
    "--cpu-limit",
    type=click.FloatRange(0),
    default=600,
    show_default=True,
    help=(
        "CPU seconds a player may use per hour, hints and solvers included, across "
        "reconnects; an address gets four players' worth (SSH; a web session gets it "
        "alone) (0: no limit)."
    ),
)
@click.option(
    "--memory-limit",
    default="2G",
    show_default=True,
    metavar="SIZE",
    help="Address space one session may map, e.g. 1G or 512M (at least; none: no limit): "
    "past it, that session's allocation fails, not the host.",
)
@click.option(
    "--input-rate",
    type=click.FloatRange(64),
    default=4096,
    show_default=True,
    help="Bytes per second of input a session may send (bursts of 4x that pass).",
)
@click.option(
    "--max-connections",
    type=click.IntRange(1, 100_000),
    default=None,
    help="--ssh: connections at once that have not opened a session yet; past it they are "
    "closed at once [default: a quarter of the open-file limit, at most 256].",
)
@click.option(
    "--max-connections-per-address",
    type=click.IntRange(1, 10_000),
    default=None,
    help="--ssh: connections at once from one IP address that have not opened a session yet "
    "[default: 10, or --max-per-address when that is more].",
)
@click.option(
    "--login-timeout",
    type=click.FloatRange(1, 600),
    default=15,
    show_default=True,
    help="--ssh: seconds a client has to log in (and again to open its session).",
)
@click.option(
    "--public-url",
    default=None,
    help="--web: the address players use, when behind a proxy (e.g. https://arcade.example.org).",
)
@click.option(
    "--ascii",
    "ascii_",
    is_flag=True,
    help="Draw with ASCII only for every player (e.g. for old terminals).",
)
# -- who is who (docs/remote.md, "Who is who: names and keys") --------------------------------
@click.option(
    "--names",
    "names_mode",
    type=click.Choice(["owned", "open"]),
    default="owned",
    show_default=True,
    help="--ssh: owned: a name belongs to the first SSH key that plays it, clients without a "
    "key play as guests (progress kept for the session); open: anyone plays any name "
    "(a LAN of people you trust).",
)
@click.option(
    "--list-names",
    is_flag=True,
    help="List the owned names (key fingerprint, first and last use) and exit.",
)
@click.option(
    "--release-name",
    "release_names",
    metavar="NAME",
    multiple=True,
    help="Free a name (the next key that plays it owns it) and exit; may be repeated.",
)
@click.option(
    "--give-name",
    nargs=2,
    type=(str, click.Path(dir_okay=False, path_type=Path)),
    default=None,
    metavar="NAME KEYFILE",
    help="Make the public key in KEYFILE the owner of NAME (e.g. a player's new key) and exit.",
)
@click.option("--verbose", "-v", is_flag=True, help="Log more.")
def serve(
    mode: str | None,
    host: str,
    port: int | None,
    host_key: Path | None,
    authorized_keys: Path | None,
    max_sessions: int,
    max_per_address: int,
    idle_timeout: float,
    cpu_limit: float,
    memory_limit: str,
    input_rate: float,
    max_connections: int | None,
    max_connections_per_address: int | None,
    login_timeout: float,
    public_url: str | None,
    ascii_: bool,
    names_mode: str,
    list_names: bool,
    release_names: tuple[str, ...],
    give_name: tuple[str, Path] | None,
    verbose: bool,
) -> None:
    """Run a termarcade arcade for many players.

    Every player gets their own arcade in its own process, with their own saves (kept under
    their SSH user name), and nothing else: no shell, no commands, no file transfer, no port
    forwarding. A name belongs to the first SSH key that plays it; clients without a key
    play as guests (--names). docs/remote.md, "Playing remotely, and running an arcade", says how to run a
    public arcade safely, on one host and on several.

    Everything the arcade keeps (every player's progress, saves and scores, the owned names,
    the SSH host key) goes in the data directory: the platform's user data directory
    (~/.local/share/termarcade on Linux) unless termarcade's global option --data-dir DIR,
    given before serve, or the TERMARCADE_DATA_DIR environment variable names another:

    \b
      termarcade --data-dir /srv/arcade serve --ssh

    The global --store postgresql://... puts the progress in a PostgreSQL database instead.
    The last line below names the directory this run would use.

    \b
    Players connect with:
      ssh -p 2222 theirname@HOST      (--ssh)
      http://HOST:8000                (--web)
    """
    if list_names or release_names or give_name:
        _manage_names(list_names, release_names, give_name)
        return
    if mode is None:
        fail("choose --ssh or --web")
    if sys.platform == "win32":
        fail("termarcade serve needs Linux, macOS or another POSIX system")
    from tui.serve.confine import MIN_MEMORY_LIMIT, parse_size
    from tui.serve.limits import ServeLimits
    from tui.store import data_dir

    try:
        memory_bytes = parse_size(memory_limit)
    except ValueError as error:
        fail(f"--memory-limit: {error}")
    if 0 < memory_bytes < MIN_MEMORY_LIMIT:  # no session could even start
        fail("--memory-limit: a session needs at least 512M (or none for no limit)")
    limits = ServeLimits(
        memory_limit=memory_bytes,
        max_sessions=max_sessions,
        max_per_address=max_per_address,
        idle_timeout=idle_timeout,
        cpu_limit=cpu_limit,
        input_rate=input_rate,
        input_burst=4 * input_rate,
        max_connections=max_connections or 0,  # 0: derived from the open-file limit
        max_connections_per_address=max_connections_per_address or 0,
        login_timeout=login_timeout,
    )
    glyphs = "ascii" if ascii_ else None
    port = DEFAULT_PORTS[mode] if port is None else port
    if mode == "ssh":
        _serve_ssh(
            limits,
            str(data_dir()),
            glyphs,
            host,
            port,
            host_key,
            authorized_keys,
            verbose,
            owned_names=names_mode == "owned",
        )
    else:
        if host_key is not None or authorized_keys is not None:
            fail("--host-key and --authorized-keys are for --ssh")
        _serve_web(limits, str(data_dir()), glyphs, host, port, public_url, verbose)


def _serve_ssh(
    limits: object,
    data: str,
    glyphs: str | None,
    host: str,
    port: int,
    host_key: Path | None,
    authorized_keys: Path | None,
    verbose: bool,
    *,
    owned_names: bool = True,
) -> None:
    try:
        import asyncssh  # noqa: F401  (a dependency; checked for a clear message)
    except ImportError:
        fail("serve --ssh needs asyncssh: pip install asyncssh")
    import asyncio

    from tui.serve.arcade import Arcade
    from tui.serve.owners import NameBook
    from tui.serve.running import ServeError, configure_logging, run_ssh_arcade

    configure_logging(verbose)
    arcade = Arcade(
        limits,  # type: ignore[arg-type]
        data_dir=data,
        glyphs=glyphs,
        store=os.environ.get(ENV_STORE, ""),
        names=NameBook.for_arcade(data, os.environ.get(ENV_STORE, "")) if owned_names else None,
    )
    try:
        asyncio.run(
            run_ssh_arcade(
                arcade, host, port, host_key_file=host_key, authorized_keys=authorized_keys
            )
        )
    except ServeError as error:
        fail(str(error))


def _serve_web(
    limits: object,
    data: str,
    glyphs: str | None,
    host: str,
    port: int,
    public_url: str | None,
    verbose: bool,
) -> None:
    try:
        from tui.serve.web import WebArcade
    except ImportError as error:
        fail(
            "serve --web needs the web extra (textual-serve): in the termarcade clone, "
            f"pip install -e '.[web]' ({error})"
        )
    from tui.serve.running import ServeError, configure_logging

    configure_logging(verbose)
    try:
        WebArcade(
            limits,  # type: ignore[arg-type]
            data_dir=data,
            glyphs=glyphs,
            host=host,
            port=port,
            public_url=public_url,
        ).run()
    except ServeError as error:
        fail(str(error))


def _manage_names(
    list_names: bool, release_names: tuple[str, ...], give_name: tuple[str, Path] | None
) -> None:
    """The operator's name commands, on the book in the data directory."""
    from tui.serve.names import manage_names
    from tui.serve.owners import NameBook
    from tui.store import data_dir

    manage_names(
        NameBook.for_arcade(data_dir(), os.environ.get(ENV_STORE, "")),
        list_names=list_names,
        release=release_names,
        give=give_name,
    )
