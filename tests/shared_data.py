"""Where the public test data lives: ``tests/data`` (small files with their attribution in
``tests/data/README.md``), so the tests that need it run in a plain clone.

``TERMARCADE_SHARED_DATA`` overrides the folder. Tests that need a file call
:func:`shared_data`, which skips the test cleanly when the file is not there.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
"""The repository's root."""


def shared_data_dir() -> Path:
    """The public data folder (``$TERMARCADE_SHARED_DATA`` or ``tests/data``)."""
    override = os.environ.get("TERMARCADE_SHARED_DATA", "").strip()
    return Path(override) if override else ROOT / "tests" / "data"


def shared_data(relative: str) -> Path:
    """The path of a public data file, skipping the calling test when it is missing.

    Args:
        relative: The file inside the data folder, e.g. ``"longcat/arduboy-100.txt"``.
    """
    path = shared_data_dir() / relative
    if not path.is_file():
        pytest.skip(f"public data {relative} not found in {shared_data_dir()}")
    return path
