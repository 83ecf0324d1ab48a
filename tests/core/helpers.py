"""Data shared by tests/core: seed 000's worked TermCraft example, declared once."""

from __future__ import annotations

TERMCRAFT_SAMPLE = (
    "puzzle_state(rewrite(pair(var(X),var(Y)),rev_pair(var(Y),var(X))),rewrite(red,blue),"
    "equiv(apple,red),data(pair(apple,green)),data(placeholder))"
)
"""Seed 000's starting term: solved in three moves (two rewrites and a construct)."""

TERMCRAFT_SAMPLE_TARGET = (
    "puzzle_state(rewrite(pair(var(X),var(Y)),rev_pair(var(Y),var(X))),"
    "rewrite(red,blue),equiv(apple,red),data(rev_pair(green,blue)),data(done))"
)
"""The target term of :data:`TERMCRAFT_SAMPLE`."""
