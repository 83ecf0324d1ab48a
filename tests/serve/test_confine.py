"""What a session process may do to the host (tui.serve.confine): write only in the data folder
(Landlock), and map only so much memory (RLIMIT_AS).

Confinement lasts for the rest of a process's life, so each test confines a child: a fresh
interpreter, a process of the sessions' own fork server running the session's confine step,
or a real served session. The Landlock tests skip where the kernel has none.
"""

from __future__ import annotations

import multiprocessing
import os
import resource
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from tui.serve.confine import DEFAULT_MEMORY_LIMIT, landlock_abi, parse_size
from tui.serve.spec import SessionSpec

needs_landlock = pytest.mark.skipif(landlock_abi() < 1, reason="the kernel has no Landlock")

ROOT = Path(__file__).resolve().parents[2]


def run_python(code: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter of the project (its outcome in stdout)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


@needs_landlock
def test_a_confined_process_writes_only_in_its_folder(tmp_path: Path) -> None:
    inside, outside = tmp_path / "data", tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "kept.txt").write_text("the host's file\n")
    result = run_python(
        f"""
        import os
        from tui.serve.confine import confine_writes
        print(confine_writes([{str(inside)!r}], [os.devnull]).applied)
        with open({str(inside / "store.txt")!r}, "w") as f:
            f.write("saved")
        os.replace({str(inside / "store.txt")!r}, {str(inside / "renamed.txt")!r})
        for attempt in (
            lambda: open({str(outside / "new.txt")!r}, "w"),
            lambda: open({str(outside / "kept.txt")!r}, "w"),
            lambda: os.unlink({str(outside / "kept.txt")!r}),
            lambda: os.rename({str(inside / "renamed.txt")!r}, {str(outside / "moved")!r}),
            lambda: os.mkdir({str(outside / "folder")!r}),
        ):
            try:
                attempt()
                print("written")
            except PermissionError:
                print("refused")
        with open(os.devnull, "w") as f:
            f.write("x")
        import json, textual.app  # reading and importing stay allowed
        print("read", len(open({str(outside / "kept.txt")!r}).read()))
        """
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", *["refused"] * 5, "read", "16"]
    assert (inside / "renamed.txt").read_text() == "saved"
    assert sorted(p.name for p in outside.iterdir()) == ["kept.txt"]
    assert (outside / "kept.txt").read_text() == "the host's file\n"


def _session_confine_then_write(spec: SessionSpec, outside: str) -> None:
    """In a process of the sessions' fork server: the session's own confine step, then writes;
    the exit status says what happened (0: inside written and outside refused)."""
    from tui.serve import child

    child._confine(spec)
    with open(os.path.join(spec.data_dir, "inside.txt"), "w") as handle:
        handle.write("ok")
    try:
        with open(os.path.join(outside, "outside.txt"), "w") as handle:
            handle.write("escaped")
    except PermissionError:
        os._exit(0)
    os._exit(5)


@needs_landlock
def test_a_session_process_confines_itself_to_the_data_folder(tmp_path: Path) -> None:
    data, outside = tmp_path / "data", tmp_path / "host"
    outside.mkdir()
    spec = SessionSpec(session_id=1, user="mallory", tty_path="/dev/null", data_dir=str(data))
    process = multiprocessing.get_context("forkserver").Process(
        target=_session_confine_then_write, args=(spec, str(outside))
    )
    process.start()
    process.join(120)
    assert process.exitcode == 0
    assert (data / "inside.txt").read_text() == "ok"
    assert not (outside / "outside.txt").exists()


def test_the_store_folder_is_writable_as_well() -> None:
    from tui.serve.child import writable_folders

    spec = SessionSpec(1, "a", "/dev/null", data_dir="/srv/arcade", store="/var/lib/x/db.sqlite3")
    assert writable_folders(spec) == ["/srv/arcade", "/var/lib/x"]
    spec = SessionSpec(1, "a", "/dev/null", data_dir="/srv/arcade", store="postgresql://db/x")
    assert writable_folders(spec) == ["/srv/arcade"]


def test_a_runaway_allocation_fails_in_the_limited_process_only() -> None:
    result = run_python(
        """
        from tui.serve.child import apply_limits
        apply_limits(0, 0, 1024 ** 3)
        small = bytearray(64 * 1024 ** 2)  # a game's real work still fits
        try:
            huge = bytearray(2 * 1024 ** 3)
            print("allocated")
        except MemoryError:
            print("MemoryError")
        print(len(small))
        """
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["MemoryError", str(64 * 1024**2)]
    soft, _hard = resource.getrlimit(resource.RLIMIT_AS)
    assert soft == resource.RLIM_INFINITY or soft > 1024**3  # this process is untouched


@pytest.mark.parametrize(
    ("text", "size"),
    [("2G", 2 * 1024**3), ("512M", 512 * 1024**2), ("1.5GiB", 3 * 1024**3 // 2), ("4096", 4096)],
)
def test_sizes(text: str, size: int) -> None:
    assert parse_size(text) == size


@pytest.mark.parametrize("text", ["none", "0", "OFF"])
def test_no_limit(text: str) -> None:
    assert parse_size(text) == 0


def test_bad_memory_limits_are_one_line() -> None:
    from tui.cli import main

    for value, said in (("lots", "not a size"), ("100M", "at least 512M")):
        result = CliRunner().invoke(main, ["serve", "--ssh", "--memory-limit", value])
        assert result.exit_code == 2 and said in result.output
        assert "Traceback" not in result.output
    assert "--memory-limit" in CliRunner().invoke(main, ["serve", "--help"]).output


# -- a real served session ---------------------------------------------------------------------


def _limits_of(pid: int) -> tuple[str, str]:
    """The session's address-space limit (soft) and its no-new-privileges flag."""
    limit = next(
        line.split()[3]
        for line in Path(f"/proc/{pid}/limits").read_text().splitlines()
        if line.startswith("Max address space")
    )
    flag = next(
        line.split()[1]
        for line in Path(f"/proc/{pid}/status").read_text().splitlines()
        if line.startswith("NoNewPrivs")
    )
    return limit, flag


@needs_landlock
@pytest.mark.skipif(not Path("/proc/self/limits").exists(), reason="needs Linux's /proc")
async def test_a_served_session_plays_confined_under_the_default_memory_limit() -> None:
    from tests.serve.helpers import connect, open_2048, open_player, running_arcade

    async with running_arcade() as (arcade, port):
        conn = await connect(port, "alice")
        try:
            player = await open_player(conn)
            await open_2048(player)
            (seat,) = arcade.seats.values()
            assert seat.pid is not None
            assert _limits_of(seat.pid) == (str(DEFAULT_MEMORY_LIMIT), "1")
            before = player.text()
            player.press("left", "up", "right", "down")
            await player.wait_for(lambda text: text != before and "Moves" in text)
        finally:
            conn.close()


@needs_landlock
async def test_a_served_session_cannot_write_through_a_link_out_of_its_folder(
    tmp_path: Path,
) -> None:
    """The store's file, replaced by a link to a file elsewhere, is not written through
    (without Landlock, SQLite writes its tables into the host's file)."""
    from tests.serve.helpers import connect, open_player, running_arcade
    from tui.store import DB_FILENAME, data_dir

    victim = tmp_path / "host-file"
    victim.write_bytes(b"")
    (data_dir()).mkdir(parents=True, exist_ok=True)
    (data_dir() / DB_FILENAME).symlink_to(victim)
    async with running_arcade() as (_arcade, port):
        conn = await connect(port, "alice")
        try:
            player = await open_player(conn)
            # The session lives on (its store falls back to memory, and says so).
            await player.wait_for(lambda text: "Pick a game" in text and "Storage" in text)
        finally:
            conn.close()
    assert victim.read_bytes() == b""


def test_without_landlock_a_session_says_so_and_goes_on(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A kernel without Landlock (or another system): one warning, nothing confined."""
    from tui.serve import confine

    monkeypatch.setattr(confine, "landlock_abi", lambda: 0)
    caplog.set_level("WARNING", "termarcade.serve.session")
    logger = confine.log
    monkeypatch.setattr(logger, "propagate", True)
    done = confine.confine_writes([str(tmp_path / "data")])
    assert (done.abi, done.applied) == (0, False)
    assert [r.getMessage() for r in caplog.records] == [
        "no Landlock in this kernel: the session's writes are not confined"
    ]
    (tmp_path / "elsewhere.txt").write_text("still writable")  # this process was left alone


@needs_landlock
def test_a_web_tab_writes_no_file_and_has_the_memory_limit(tmp_path: Path) -> None:
    # A web guest's store is in memory: its tab process may write nowhere but /dev/null.
    from tui.serve.limits import ServeLimits
    from tui.serve.web import WebArcade

    web = WebArcade(ServeLimits(), data_dir=str(tmp_path), glyphs=None, host="127.0.0.1", port=0)
    command = web.command()
    assert f"--memory-limit {DEFAULT_MEMORY_LIMIT}" in command
    result = run_python(
        f"""
        import os
        from tui.serve.webchild import _confine
        _confine()
        with open(os.devnull, "w") as f:
            f.write("x")
        try:
            open({str(tmp_path / "new.txt")!r}, "w")
            print("written")
        except PermissionError:
            print("refused")
        """
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["refused"]
    assert not (tmp_path / "new.txt").exists()
