"""Everything that talks to a person: the Textual app and the click command line.

This package must stay cheap to import: the CLI (``tui.cli``) is used in pipes and scripts,
so nothing here imports Textual at import time. The app lives in :mod:`tui.app`.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

__all__ = ["__version__"]

try:
    __version__ = version("termarcade")
except PackageNotFoundError:  # Running from a source checkout that was never installed.
    __version__ = "0.0.0+unknown"
