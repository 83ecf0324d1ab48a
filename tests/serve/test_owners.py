"""Names have owners on the SSH arcade: the first key that plays a name owns it, other keys are
refused under it, clients without a key play as guests whose progress ends with the session,
the operator lists, releases and gives names, and ``--names open`` keeps the old ways.

Real servers on 127.0.0.1 and real asyncssh clients (see :mod:`tests.serve.helpers`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import shutil
import stat
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.serve.helpers import (
    TIMEOUT,
    asyncssh,
    connect,
    open_2048,
    open_player,
    running_arcade,
    wait_until,
)
from tests.serve.test_ssh_play import _moves, _settled_moves
from tui.cli import main
from tui.serve.arcade import Arcade
from tui.serve.limits import ServeLimits
from tui.serve.owners import NAMES_FILENAME, NameBook, key_identity
from tui.store import Store, data_dir


def arcade_with(
    names: NameBook | None, authorized_keys: Path | None = None
) -> contextlib.AbstractAsyncContextManager[tuple[Arcade, int]]:
    """An SSH arcade on 127.0.0.1 with owned names (a book) or open ones (None)."""
    return running_arcade(authorized_keys, names=names)


def _book() -> NameBook:
    return NameBook.in_folder(data_dir())


def _key() -> Any:
    return asyncssh.generate_private_key("ssh-ed25519")


def _fingerprint(key: Any) -> str:
    return key_identity(key)[1]


async def _claimed(book: NameBook, name: str) -> None:
    """Wait (up to TIMEOUT) until ``book`` shows ``name`` owned."""
    deadline = asyncio.get_running_loop().time() + TIMEOUT
    while await asyncio.to_thread(book.owner, name) is None:
        assert asyncio.get_running_loop().time() < deadline, f"{name} was never claimed"
        await asyncio.sleep(0.05)


async def _refused(port: int, user: str, **options: Any) -> list[str]:
    """Log in and expect a refusal; returns the banners the client was shown."""
    banners: list[str] = []

    class Client(asyncssh.SSHClient):
        def auth_banner_received(self, msg: str, lang: str) -> None:
            banners.append(msg)

    with pytest.raises(asyncssh.PermissionDenied):
        await connect(port, user, client_factory=Client, **options)
    return banners


async def _seat_of(arcade: Arcade, conn: Any) -> Any:
    """Open a session on ``conn``; returns its seat once the arcade gave it one."""
    player = await open_player(conn)
    await wait_until(lambda: bool(arcade.seats), TIMEOUT, lambda: "a seat")
    seat = next(iter(arcade.seats.values()))
    return player, seat


def _cli(*args: str) -> Any:
    return CliRunner().invoke(main, ["serve", *args])


# -- the owner book itself ----------------------------------------------------------------------


def test_the_first_claim_wins_and_the_book_is_private(tmp_path: Path) -> None:
    book = NameBook.in_folder(tmp_path / "data")
    first, second = key_identity(_key()), key_identity(_key())
    assert book.owner("alice") is None
    assert book.claim("alice", *first)
    assert not book.claim("alice", *second)  # taken: the second key does not get it
    assert book.claim("alice", *first)  # the owner comes back
    owner = book.owner("alice")
    assert owner is not None and (owner.key, owner.fingerprint) == first
    assert owner.first_used <= owner.last_used
    assert stat.S_IMODE(os.stat(book.path).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(book.path.parent).st_mode) == 0o700
    assert book.release("alice") and not book.release("alice")
    assert book.claim("alice", *second)


def test_a_guest_gets_a_fresh_name_and_a_session_of_its_own() -> None:
    arcade = Arcade(ServeLimits(max_per_address=20), data_dir=str(data_dir()), names=_book())
    named, _ = arcade.admit(1, "alice", "10.0.0.1")
    guests = [arcade.admit(2 + number, "alice", "10.0.0.1", guest=True)[0] for number in range(9)]
    assert named is not None and (named.user, named.guest) == ("alice", False)
    assert all(seat is not None and seat.guest for seat in guests)
    names = [seat.user for seat in guests if seat is not None]
    assert all(re.fullmatch(r"guest-[0-9a-f]{4}", name) for name in names)
    assert len(set(names)) == len(names)  # never two guests of one name at once
    first = guests[0]
    assert first is not None
    spec = arcade.spec(first, "/dev/pts/9", "xterm", {})
    assert spec.guest and spec.user == names[0]
    assert not arcade.spec(named, "/dev/pts/8", "xterm", {}).guest


# -- a real arcade ------------------------------------------------------------------------------


@pytest.mark.slow
async def test_a_name_belongs_to_the_first_key_that_plays_it() -> None:
    alice_key, other_key = _key(), _key()
    async with arcade_with(_book()) as (arcade, port):
        async with await connect(port, "alice", client_keys=[alice_key]) as conn:
            player, seat = await _seat_of(arcade, conn)
            assert (seat.user, seat.guest) == ("alice", False)
            await player.wait_for("Pick a game")
        owner = _book().owner("alice")
        assert owner is not None and owner.fingerprint == _fingerprint(alice_key)

        # Another key is refused under her name, even when it would settle for a guest login
        # (OpenSSH goes on to keyboard-interactive): it is told why, once.
        assert await _refused(port, "alice", client_keys=[other_key]) == []
        banners = await _refused(port, "alice", client_keys=[other_key], password="")
        assert len(banners) == 1 and "belongs to another SSH key" in banners[0]

        # The owner is let in again; the other key may take a free name of its own.
        async with await connect(port, "alice", client_keys=[alice_key]):
            pass
        await _claimed(_book(), "alice")
        async with await connect(port, "mallory", client_keys=[other_key]):
            pass
        await _claimed(_book(), "mallory")
        await wait_until(lambda: not arcade.seats, TIMEOUT, lambda: "every seat released")
    assert _book().owner("mallory").fingerprint == _fingerprint(other_key)  # type: ignore[union-attr]
    assert _book().owner("alice").fingerprint == _fingerprint(alice_key)  # type: ignore[union-attr]


async def _guest_plays_2048(arcade: Arcade, port: int, play: bool) -> tuple[str, int]:
    """A key-less client asks for ``alice``; returns its name and the moves found (and made)."""
    async with await connect(port, "alice", password="") as conn:
        player, seat = await _seat_of(arcade, conn)
        assert seat.guest and seat.user.startswith("guest-")
        await player.wait_for(seat.user)  # the greeting names the guest
        found = _moves(await open_2048(player))
        if play:
            player.press("left", "up", "right", "down", "left")
            await player.wait_for(lambda text: _moves(text) >= 2)
            found = await _settled_moves(player)
            player.press("ctrl+q")  # quitting saves the game (in the guest's store)
            await player.wait_for("Quit termarcade?")
            player.press("y")
            await asyncio.wait_for(player.closed.wait(), TIMEOUT)
    await wait_until(lambda: not arcade.seats, TIMEOUT, lambda: "the guest's seat released")
    return seat.user, found


@pytest.mark.slow
async def test_a_client_without_a_key_plays_as_a_guest_and_keeps_nothing() -> None:
    async with arcade_with(_book()) as (arcade, port):
        first, played = await _guest_plays_2048(arcade, port, play=True)
        assert played >= 2
        second, found = await _guest_plays_2048(arcade, port, play=False)
        assert found == 0  # the next guest starts afresh
    # Nothing of theirs reached the arcade's store, and no name was claimed.
    for name in (first, second, "alice"):
        assert not Store(user=name).saves("2048")
    assert _book().names() == []


@pytest.mark.slow
async def test_guest_names_cannot_be_claimed_with_a_key() -> None:
    async with arcade_with(_book()) as (arcade, port):
        async with await connect(port, "guest-1234", client_keys=[_key()]) as conn:
            player = await open_player(conn)
            await asyncio.wait_for(player.closed.wait(), TIMEOUT)
        assert player.exit_status == 1 and b"are for guests" in player.stderr
        assert not arcade.seats
    assert _book().names() == []


@pytest.mark.slow
async def test_open_names_keep_the_old_ways() -> None:
    async with arcade_with(None) as (arcade, port):
        for options in ({"client_keys": [_key()]}, {"client_keys": [_key()]}, {}):
            async with await connect(port, "alice", **options) as conn:
                _, seat = await _seat_of(arcade, conn)
                assert (seat.user, seat.guest) == ("alice", False)
            await wait_until(lambda: not arcade.seats, TIMEOUT, lambda: "the seat released")
    assert not (data_dir() / NAMES_FILENAME).exists()


@pytest.mark.slow
async def test_authorized_keys_still_decide_who_comes_in(tmp_path: Path) -> None:
    alice_key, bob_key, stranger = _key(), _key(), _key()
    keys_file = tmp_path / "authorized_keys"
    keys_file.write_bytes(alice_key.export_public_key() + bob_key.export_public_key())
    async with arcade_with(_book(), keys_file) as (_arcade, port):
        async with await connect(port, "alice", client_keys=[alice_key]):
            pass
        await _claimed(_book(), "alice")
        await _refused(port, "alice", client_keys=[bob_key], password="")
        await _refused(port, "stranger", client_keys=[stranger], password="")
        await _refused(port, "anyone", password="")  # no guests on a closed arcade
        async with await connect(port, "bob", client_keys=[bob_key]):
            pass
        await _claimed(_book(), "bob")
    assert [owner.name for owner in _book().names()] == ["alice", "bob"]


@pytest.mark.slow
async def test_the_operator_lists_releases_and_gives_names(tmp_path: Path) -> None:
    alice_key, new_key = _key(), _key()
    async with arcade_with(_book()) as (_arcade, port):
        async with await connect(port, "alice", client_keys=[alice_key]):
            pass
        await _claimed(_book(), "alice")
        listed = _cli("--list-names")
        assert listed.exit_code == 0
        assert listed.output.split()[:2] == ["alice", _fingerprint(alice_key)]
        assert "first " in listed.output and "last " in listed.output

        missing = _cli("--release-name", "nobody")
        assert missing.exit_code == 1 and "not owned: nobody" in missing.output

        released = _cli("--release-name", "alice")
        assert released.exit_code == 0 and "alice released" in released.output
        assert _cli("--list-names").output == ""
        # Released: a new key claims it, and the old one is refused from now on.
        async with await connect(port, "alice", client_keys=[new_key]):
            pass
        await _claimed(_book(), "alice")
        await _refused(port, "alice", client_keys=[alice_key])

        # The operator gives the name back to the old key (a player's lost key, say).
        key_file = tmp_path / "alice.pub"
        key_file.write_bytes(alice_key.export_public_key())
        given = _cli("--give-name", "alice", str(key_file))
        assert given.exit_code == 0 and f"was {_fingerprint(new_key)}" in given.output
        async with await connect(port, "alice", client_keys=[alice_key]):
            pass
        await _claimed(_book(), "alice")
        await _refused(port, "alice", client_keys=[new_key])


def test_bad_operator_input_is_one_line(tmp_path: Path) -> None:
    junk = tmp_path / "junk.pub"
    junk.write_text("not a key\n")
    result = _cli("--give-name", "alice", str(junk))
    assert result.exit_code == 2 and "cannot read a public key" in result.output
    result = _cli("--give-name", "guest-1", str(junk))
    assert result.exit_code == 2 and "cannot be a player name" in result.output
    result = _cli("--names", "shared", "--ssh")
    assert result.exit_code == 2 and "owned" in result.output
    assert "Traceback" not in result.output


@pytest.mark.slow
@pytest.mark.postgres
async def test_hosts_on_one_postgresql_store_share_the_owners(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.postgres_server import postgres_url

    url = postgres_url(request)
    alice_key, other_key = _key(), _key()
    book_a = NameBook.for_arcade(data_dir() / "a", url)
    book_b = NameBook.for_arcade(data_dir() / "b", url)
    async with arcade_with(book_a) as (_, port_a), arcade_with(book_b) as (_, port_b):
        async with await connect(port_a, "alice", client_keys=[alice_key]):
            pass
        # SSH tells the client it is in before the server's auth_completed records the claim
        # (in a thread): wait for the record, as a second player would come later.
        await _claimed(book_b, "alice")
        # Through the other host, alice is still hers.
        await _refused(port_b, "alice", client_keys=[other_key])
        async with await connect(port_b, "alice", client_keys=[alice_key]):
            pass
    # The operator sees (and manages) the shared book with the store's URL, as serve is given it.
    monkeypatch.setenv("TERMARCADE_STORE", url)
    listed = _cli("--list-names")
    assert listed.exit_code == 0 and listed.output.split()[:2] == ["alice", _fingerprint(alice_key)]
    assert not (data_dir() / NAMES_FILENAME).exists()  # nothing kept per host


async def _openssh(port: int, user: str, *options: str) -> tuple[int, str]:
    """``ssh -T user@127.0.0.1`` with stdin at its end (no terminal: an admitted client is
    told it needs one, so exit status 1 means "logged in", 255 "refused at login")."""
    ssh = await asyncio.create_subprocess_exec(
        "ssh",
        "-p",
        str(port),
        "-F",
        "/dev/null",
        "-o",
        "StrictHostKeyChecking=no",
        "-o",
        "UserKnownHostsFile=/dev/null",
        "-o",
        "IdentitiesOnly=yes",
        *options,
        "-T",
        f"{user}@127.0.0.1",
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        start_new_session=True,  # no terminal to ask a password on: a prompt fails, never waits
    )
    try:
        _, err = await asyncio.wait_for(ssh.communicate(), TIMEOUT)
    except TimeoutError:
        ssh.kill()
        await ssh.wait()
        pytest.fail("ssh hung")
    return ssh.returncode or 0, err.decode()


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("ssh") is None, reason="no OpenSSH client (ssh) installed")
async def test_openssh_reads_why_its_key_is_refused(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    keys = {}
    for name in ("owner", "other"):
        keys[name] = tmp_path / name
        _key().write_private_key(str(keys[name]))
        keys[name].chmod(0o600)
    caplog.set_level(logging.INFO, "termarcade")
    async with arcade_with(_book()) as (_, port):
        status, err = await _openssh(port, "alice", "-i", str(keys["owner"]))
        assert status == 1 and "needs a terminal" in err  # logged in, and alice is its
        status, err = await _openssh(port, "alice", "-i", str(keys["other"]))
        assert status == 255 and "The name alice belongs to another SSH key." in err
        assert "Permission denied" in err
        # Without a key OpenSSH goes on to keyboard-interactive: a guest, without a question.
        status, err = await _openssh(port, "alice", "-o", "PubkeyAuthentication=no")
        assert status == 1 and "needs a terminal" in err
    assert "user 'alice' logged in as a guest" in caplog.text
