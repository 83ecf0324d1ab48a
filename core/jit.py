"""What the compiled (numba) searches share: the on-disk cache switch and the kernel import.

:mod:`core.game2048.native` and :mod:`core.longcat.native` each compile a loop with numba
when it is installed. Both cache the compiled code like Python's ``.pyc`` files, under the
same switches, and both import their kernel module the same way.
"""

from __future__ import annotations

import importlib
import os
import sys
from types import ModuleType

CACHE_ENV = "TERMARCADE_NO_JIT_CACHE"
"""Set this environment variable to 1 to keep numba from caching compiled code."""


def cache_enabled(refused: list[bool]) -> bool:
    """Whether numba may cache compiled code on disk (``cache=True``).

    Like Python's own bytecode cache, and off when that is (``python -B``,
    ``PYTHONDONTWRITEBYTECODE``) or when :data:`CACHE_ENV` is set. numba writes it next to
    the installed module (``__pycache__``) or, where that is read-only (a system or served
    install), in the user's cache directory (``NUMBA_CACHE_DIR`` overrides both).

    Args:
        refused: The caller's flag, set by :func:`import_kernel` when numba found nowhere
            to write its cache.

    Returns:
        True to cache.
    """
    if sys.dont_write_bytecode or refused[0]:
        return False
    return os.environ.get(CACHE_ENV, "") in ("", "0")


def import_kernel(name: str, refused: list[bool]) -> ModuleType:
    """Import a kernel module (its functions compile, or load from the cache, on first use).

    numba raises ``RuntimeError`` ("no locator available") while importing a module whose
    ``cache=True`` functions have nowhere to write; the import is then tried again with the
    cache off (``refused`` set, which :func:`cache_enabled` reads).

    Args:
        name: The kernel module's dotted name.
        refused: The caller's flag that turns the cache off.

    Returns:
        The imported module.
    """
    try:
        return importlib.import_module(name)
    except RuntimeError:
        sys.modules.pop(name, None)
        refused[0] = True
        return importlib.import_module(name)
