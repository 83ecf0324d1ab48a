"""What the fuzz cases share: the two measures they bound their inputs by (CPU time, not
wall-clock time, so a busy machine does not change it much; the peak of newly allocated memory)
and the damaging of a valid level file."""

from __future__ import annotations

import contextlib
import time
import tracemalloc
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from grammar.errors import ParseError
from grammar.levels import load_pack

FUZZ = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
"""The fuzz tests' settings: a fixed, modest number of examples (derandomized: the same cases
on every run, so a bound that holds once holds in CI)."""


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


def edits(pieces: st.SearchStrategy[str]) -> st.SearchStrategy[list[tuple[int, int, str]]]:
    """Up to six damages to a text: at a place, cut 0-3 characters and put a piece there."""
    return st.lists(
        st.tuples(st.integers(0, 10_000), st.integers(0, 3), pieces), min_size=1, max_size=6
    )


def damaged(text: str, damages: list[tuple[int, int, str]]) -> str:
    """``text`` with each of :func:`edits`' damages applied in turn."""
    for where, cut, piece in damages:
        at = where % (len(text) + 1)
        text = text[:at] + piece + text[at + cut :]
    return text


def load_or_refuse(text: str, game: str) -> None:
    """Load ``text`` as a ``game`` pack; a refusal is a ``ParseError`` (anything else fails)."""
    with contextlib.suppress(ParseError):
        load_pack(text, game=game)


def loads_in_linear_memory(text: str, game: str) -> None:
    """Loading or refusing ``text`` allocates at most memory linear in its length."""
    load_or_refuse(text, game)  # a parser is built on its first use: not this input's cost
    peak = peak_bytes(lambda: load_or_refuse(text, game))
    assert peak < 200 * len(text) + 8_000_000, peak


def refuses_no_slower_than_loading(valid: str, bad: str, game: str) -> None:
    """Issue 28: ``bad`` (``valid`` with one defect, about its size) is refused in at most
    twice the CPU time that loading ``valid`` takes, plus 0.5 s.

    Args:
        valid: A ``game`` pack that loads.
        bad: The same pack with one defect; it must be refused with a ``ParseError``.
        game: The game id the packs are loaded for.
    """
    assert abs(len(bad) - len(valid)) < 20
    with pytest.raises(ParseError):
        load_pack(bad, game=game)
    loading = cpu_seconds(lambda: load_pack(valid, game=game))
    refusing = cpu_seconds(lambda: load_or_refuse(bad, game))
    assert refusing <= 2 * loading + 0.5, (refusing, loading)
