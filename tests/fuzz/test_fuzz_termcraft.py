"""Hostile TermCraft inputs, each with its bound (issue 28).

* The deep-term ID: 6.4 KB that unpack (within the 4 MiB bound) to a term nested 1.4 million
  deep. ``termcraft solve ID --time-limit 2`` took 27-67 s and 0.9-1.1 GB: reading, keying and
  printing the level did not count against the limit.  Bound: a subprocess under RLIMIT_AS
  (640 MiB) and a hang-only wall bound (120 s); the answer is unknown, exit 1, whether the
  time limit falls while reading or the work budget stops the search.
* Custom IDs of random deep and wide terms: resolved, solved and linted under a work budget
  (term nodes), never a traceback, and the budget's outcome is the one the Size predicts.
* Refusals no slower than acceptances: CPU time (min of 3) of refusing a broken file is at
  most twice that of loading a well-formed file of the same size, plus 0.5 s; terms up to
  200,000 deep or wide (a whole Lark parse of the broken file took 2-4 s there, the good one
  loads in 0.4-0.6 s); the same for ``parse_term`` (``termcraft parse``).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from core.ids import MAX_LEVEL_TEXT, encode_custom
from core.search import Interrupted
from core.termcraft import lint, solve
from grammar.errors import ParseError
from grammar.levels import load_pack
from grammar.terms import parse_term
from tests.fuzz.bounds import cpu_seconds
from tui.ids import resolve_id

REPO = Path(__file__).resolve().parents[2]

MEMORY_BOUND = 640 * 1024 * 1024
"""Address space the deep-ID command may take (it took 1.07 GB of resident memory before)."""


def level_text(current: str, target: str = "b") -> str:
    """One TermCraft level block around ``current``."""
    return (
        f'level "Deep" {{\n  game termcraft\n  fuel 1\n  budget 0\n'
        f"  current {current}\n  target {target}\n}}\n"
    )


def deep_term(depth: int, name: str = "f") -> str:
    return f"{name}(" * depth + "a" + ")" * depth


def deep_id(depth: int) -> str:
    """A custom ID of a level whose current term is ``f(f(...f(a)...))``, ``depth`` deep."""
    text = level_text(deep_term(depth))
    assert len(text) <= MAX_LEVEL_TEXT
    return encode_custom("termcraft", text)


def _limit_memory() -> None:  # in the child, before exec
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BOUND, MEMORY_BOUND))


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_AS")
def test_the_deep_term_id_is_bounded_by_the_time_limit() -> None:
    ident = deep_id(1_390_000)
    assert len(ident) < 7_000  # the issue's 6.4 KB
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    started = time.monotonic()
    proc = subprocess.run(
        # The budget makes the answer the same on a machine fast enough to read the level
        # within the limit: the first state alone is over it.
        [sys.executable, "-m", "tui", "termcraft", "solve", ident, "--time-limit", "2"]
        + ["--work-budget", "1000", "--json"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,  # only a hang reaches it (the fixed command takes about 3 s)
        preexec_fn=_limit_memory,
    )
    elapsed = time.monotonic() - started
    assert proc.returncode == 1, proc.stderr[-2000:]
    assert '"status": "unknown"' in proc.stdout
    assert '"why": "time limit"' in proc.stdout or '"why": "work budget"' in proc.stdout
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr
    assert elapsed < 120


@st.composite
def hostile_terms(draw: st.DrawFn) -> str:
    """Deep chains, wide nodes and nested rules: the shapes that cost most per byte."""
    depth = draw(st.integers(0, 3_000))
    width = draw(st.integers(0, 300))
    link = draw(st.sampled_from(["", "x,", "rewrite(x,y),", "rewrite(var(X),g(var(X))),"]))
    wide = ",".join(["x"] * width) or "x"
    return f"f({link}" * depth + f"w({wide})" + ")" * depth


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hostile_terms(), st.integers(1, 40_000))
def test_hostile_ids_resolve_and_solve_within_the_work_budget(current: str, budget: int) -> None:
    """Bound: the work budget (term nodes): a start larger than the budget is unknown after
    one state, whatever the machine; nothing raises."""
    resolved = resolve_id(encode_custom("termcraft", level_text(current)))
    level = resolved.level
    result = solve(level, budget=budget, time_limit=None)
    if level.current.size > budget:
        assert (result.status, result.why, result.explored) == ("unknown", "work budget", 1)
    else:
        assert result.status in ("unsolvable", "unknown", "solved")
        assert result.spent <= budget or result.why == "work budget"
    if level.current.size > budget:  # the analysis alone is over budget: lint says so
        with pytest.raises(Interrupted) as stop:
            lint(level, budget=budget, time_limit=None)
        assert stop.value.reason == "budget"
    else:
        issues = lint(level, budget=budget, time_limit=None)
        assert all(issue.severity in ("error", "warning", "info") for issue in issues)


def refuse(text: str) -> None:
    with pytest.raises(ParseError):
        load_pack(text, game="termcraft")


BREAKS = {
    "a stray character at the end": lambda term: term + "$",
    "a missing parenthesis": lambda term: term[:-1],
    "an extra parenthesis": lambda term: term + ")",
    "a stray character in the middle": lambda term: term.replace("a", "$", 1),
    "two names in a row": lambda term: term.replace("a", "a b", 1),
}


def shaped_term(depth: int, wide: bool) -> str:
    """A term ``depth`` deep, or with ``depth`` arguments, of fresh names (no term is shared
    with an earlier run)."""
    name = "f" + uuid.uuid4().hex[:8]
    return f"{name}(" + ",".join(["a"] * depth) + ")" if wide else deep_term(depth, name)


@pytest.mark.slow
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1_000, 200_000), st.sampled_from(sorted(BREAKS)), st.booleans())
@example(200_000, "a stray character at the end", False)
@example(200_000, "a missing parenthesis", True)
@example(100_000, "an extra parenthesis", False)
def test_a_broken_file_is_refused_no_slower_than_a_good_one_loads(
    depth: int, how: str, wide: bool
) -> None:
    """Bound: 2 x the CPU time of loading a well-formed file of the same size, + 0.5 s."""
    refuse(level_text("$"))  # the grammar is built once per process: not part of a refusal
    term = shaped_term(depth, wide)
    good = level_text(term)
    bad = level_text(BREAKS[how](term))
    assert abs(len(bad) - len(good)) <= 2
    load = cpu_seconds(lambda: load_pack(good, game="termcraft"))
    refusal = cpu_seconds(lambda: refuse(bad))
    assert refusal <= 2 * load + 0.5, (how, len(good), load, refusal)


@pytest.mark.slow
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1_000, 200_000), st.sampled_from(sorted(BREAKS)), st.booleans())
@example(100_000, "a stray character at the end", False)
def test_a_broken_term_is_refused_no_slower_than_a_good_one_parses(
    depth: int, how: str, wide: bool
) -> None:
    """``termcraft parse``'s reader; bound: 2 x the CPU time of a good term's, + 0.5 s."""
    with pytest.raises(ParseError):
        parse_term("$")  # the grammar is built once per process: not part of a refusal
    term = shaped_term(depth, wide)
    bad = BREAKS[how](term)

    def refuse_term() -> None:
        with pytest.raises(ParseError):
            parse_term(bad)

    load = cpu_seconds(lambda: parse_term(term))
    refusal = cpu_seconds(refuse_term)
    assert refusal <= 2 * load + 0.5, (how, len(term), load, refusal)
