"""The two measures the fuzz cases bound their inputs by: CPU time (not wall-clock time, so a
busy machine does not change it much) and the peak of newly allocated memory."""

from __future__ import annotations

import time
import tracemalloc
from collections.abc import Callable


def cpu_seconds(action: Callable[[], object]) -> float:
    """The least CPU time (``time.process_time``) of three runs of ``action``."""
    best = float("inf")
    for _ in range(3):
        started = time.process_time()
        action()
        best = min(best, time.process_time() - started)
    return best


def peak_bytes(action: Callable[[], object]) -> int:
    """The peak of memory newly allocated while ``action()`` runs (bytes, ``tracemalloc``)."""
    tracemalloc.start()
    try:
        action()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
