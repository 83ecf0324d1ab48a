"""A served player loses no move while the store cannot be written (issue 27, item 5).

A real ``serve --ssh`` arcade and a real asyncssh player: mid-game another process locks the
store's SQLite file; the player is told at once, plays on, and quits; the quit dialog says
the moves are kept, not saved; the journal is on the host. Once the file is free, the
player's next session finds every move. (The same with PostgreSQL stopped, in the app
itself: ``tests/tui/test_store_outage.py``.)
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

from tests.serve.helpers import TIMEOUT, connect, open_2048, open_player, running_arcade
from tests.serve.test_ssh_play import _moves, _moves_on_return, _settled_moves
from tests.tui.test_store_outage import HOLDER  # the process that locks the SQLite file
from tui.store import ENV_STORE
from tui.store._journal import JOURNAL_DIR

pytestmark = pytest.mark.slow


async def test_a_served_player_who_quits_while_the_store_is_locked_loses_no_move(
    tmp_path: Path, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(ENV_STORE, raising=False)
    db = tmp_path / "arcade.sqlite3"
    async with running_arcade(store=str(db)) as (_arcade, port):
        conn = await connect(port, "olga")
        player = await open_player(conn)
        await open_2048(player)
        player.press("left", "up")
        await player.wait_for(lambda text: _moves(text) >= 1)
        before = await _settled_moves(player)
        holder = subprocess.Popen(
            [sys.executable, "-c", HOLDER, str(db)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
            player.press("right", "down", "left", "up", "right")
            await player.wait_for("The store is unreachable")  # Told at once.
            await player.wait_for(lambda text: _moves(text) > before)
            played = await _settled_moves(player)
            player.press("ctrl+q")
            question = await player.wait_for("not saved yet")
            assert "(it is saved)" not in question and "journal" in question
            player.press("y")
            await asyncio.wait_for(player.closed.wait(), TIMEOUT)
            conn.close()
            # The session has ended; its moves are on the host's disk.
            assert list((data_dir / JOURNAL_DIR).glob("*/*.jsonl"))
        finally:
            holder.communicate("\n", timeout=TIMEOUT)
        assert holder.returncode == 0
        assert await _moves_on_return(port, "olga") == played  # Every move.
    assert not list((data_dir / JOURNAL_DIR).glob("*/*.jsonl"))  # Replayed and removed.
