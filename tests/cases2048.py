"""Hand-worked 2048 lines (moving left, standard rule), shared by the tests of every board.

Each case is ``(row, expected_row, points)``; the first five are the original game's examples
quoted in issue 3, the rest cover gaps, no-ops and the "merges at most once" rule.
"""

from __future__ import annotations

LEFT_LINES: list[tuple[tuple[int, ...], tuple[int, ...], int]] = [
    ((2, 2, 2, 2), (4, 4, 0, 0), 8),
    ((4, 4, 2, 2), (8, 4, 0, 0), 12),
    ((2, 2, 4, 4), (4, 8, 0, 0), 12),
    ((8, 0, 2, 2), (8, 4, 0, 0), 4),
    ((2, 2, 2, 0), (4, 2, 0, 0), 4),
    ((0, 0, 0, 2), (2, 0, 0, 0), 0),
    ((2, 4, 8, 16), (2, 4, 8, 16), 0),
    ((4, 0, 0, 4), (8, 0, 0, 0), 8),
    ((0, 4, 0, 4), (8, 0, 0, 0), 8),
    ((2, 2, 4, 0), (4, 4, 0, 0), 4),  # the new 4 does not merge again
    ((4, 2, 2, 0), (4, 4, 0, 0), 4),
    ((0, 0, 0, 0), (0, 0, 0, 0), 0),
    ((16384, 16384, 2, 0), (32768, 2, 0, 0), 32768),
]
"""Rows before and after a move to the left, with the points scored."""
