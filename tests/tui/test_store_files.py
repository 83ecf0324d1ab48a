"""atomic_write_text: file modes like any editor's, and errors that name the user's file."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tui.store import atomic_write_text

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")


@pytest.fixture
def umask() -> Iterator[None]:
    """Restore the process umask after a test changes it."""
    old = os.umask(0o022)
    os.umask(old)
    try:
        yield
    finally:
        os.umask(old)


@pytest.mark.parametrize(
    "mask, mode", [(0o022, 0o644), (0o002, 0o664), (0o077, 0o600)], ids=["022", "002", "077"]
)
def test_new_file_mode_follows_the_umask(tmp_path: Path, umask: None, mask: int, mode: int) -> None:
    """Regression: new files were always created 0600 (mkstemp's mode)."""
    os.umask(mask)
    target = tmp_path / "mine.levels"
    atomic_write_text(target, "level\n")
    assert target.stat().st_mode & 0o777 == mode
    assert [path.name for path in tmp_path.iterdir()] == ["mine.levels"]


@pytest.mark.parametrize("mode", [0o600, 0o640, 0o664, 0o755], ids=oct)
def test_replaced_file_keeps_its_mode(tmp_path: Path, umask: None, mode: int) -> None:
    os.umask(0o077)  # Even a strict umask does not change an existing file's mode.
    target = tmp_path / "mine.levels"
    target.write_text("old", encoding="utf-8")
    target.chmod(mode)
    atomic_write_text(target, "new ✓\n")
    assert target.read_text(encoding="utf-8") == "new ✓\n"
    assert target.stat().st_mode & 0o777 == mode


def test_error_names_the_target_in_a_missing_directory(tmp_path: Path) -> None:
    """Regression: the message named the internal temporary file."""
    target = tmp_path / "no-such-dir" / "mine.levels"
    with pytest.raises(FileNotFoundError) as caught:
        atomic_write_text(target, "x")
    assert caught.value.filename == str(target)
    assert str(target) in str(caught.value)
    assert ".tmp" not in str(caught.value)


def test_error_names_the_target_when_the_rename_fails(tmp_path: Path) -> None:
    target = tmp_path / "a-directory"
    (target / "inside").mkdir(parents=True)  # os.replace cannot put a file over it.
    with pytest.raises(OSError) as caught:
        atomic_write_text(target, "x")
    assert caught.value.filename == str(target)
    assert caught.value.filename2 is None
    assert ".tmp" not in str(caught.value)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["a-directory"]  # No temp left.
