"""Benchmark: the TermCraft screen on huge positions, driven headless by Textual's Pilot.

Issue 12 asks that a 100k-node level opens, shows its tree and the first page of actions,
and applies a move without the interface stalling for more than a second.  This script
opens seeded levels (:func:`bench.termcraft.make_state`; nothing big is committed) in the
real app (``ArcadeApp().run_test``) and measures, wall seconds from the key press or the
push of the screen:

* **open** -- until the screen shows the term tree and the first page of actions;
* **total** -- until the action total is known (counted in a worker thread);
* **page** -- until the next page is loaded after the cursor reaches the end of the first;
* **move** -- from ``enter`` until the next position is shown with its first page;
* **stall** -- the largest gap between the ticks of a 50 ms timer on the app's event loop,
  minus 50 ms, over the whole run (what a player feels as a frozen screen; the budget is
  1 s), and the same per phase.

Against, in the same run (each measurement in a fresh process), the **eager** screen of
before: the same screen class with the old way of listing, every action materialised on
the UI thread (``rewrite_actions``), then 1,000 of them shown.  The eager screen runs only
where it can finish (it would materialise billions of actions on the big-class state).

Usage: python bench/termcraft_tui.py [--cases 100k/80,100k/300 big class] [--skip-eager]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CASES = {
    # name: (data nodes, axioms, axiom sides may be constants)
    "20k/40": (20_000, 40, False),
    "100k/80": (100_000, 80, False),
    "100k/300 big class": (100_000, 300, True),
    "300k/80": (300_000, 80, False),
}
"""The positions (the generator of ``bench/termcraft.py``, seed 0, 30 rules)."""

TICK = 0.05
"""Period of the timer that measures how long the event loop was blocked."""

EAGER_SHOWN = 1000
"""How many actions the eager screen of before listed."""


def _make_state(case: str):
    sys.path.insert(0, str(ROOT / "bench"))
    from termcraft import make_state  # bench/termcraft.py

    return make_state(*CASES[case])


async def _until(pilot, test, limit: float = 120.0) -> float:
    """Wait (letting the app run) until ``test()`` holds; the seconds waited."""
    started = time.perf_counter()
    while not test():
        if time.perf_counter() - started > limit:
            raise TimeoutError("the screen did not get there in time")
        await pilot.pause(0.005)
    return time.perf_counter() - started


def measure(case: str, mode: str) -> dict:
    """Open the case's level in the app (``mode``: "lazy" or "eager") and time it."""
    os.environ.setdefault("TERMARCADE_DATA_DIR", tempfile.mkdtemp(prefix="tc-bench-"))
    from core.session import Session
    from core.termcraft import Level, rewrite_actions
    from core.termcraft.terms import const
    from tui.app import ArcadeApp
    from tui.games.termcraft.action_list import PAGE, ActionList
    from tui.games.termcraft.screen import TermCraftScreen
    from tui.launch import launcher_for
    from tui.sources import LevelRef

    class EagerScreen(TermCraftScreen):
        """The screen as it was: every action materialised on the UI thread."""

        CSS_PATH = str(ROOT / "tui" / "games" / "termcraft" / "styles.tcss")  # not beside this file

        def _prepare_now(self, job) -> None:
            actions = rewrite_actions(job.state)
            job.rewrites, job.total = list(actions[:EAGER_SHOWN]), len(actions)
            job.complete, job.ready = True, True

    built = time.perf_counter()
    term = _make_state(case)
    level = Level(f"bench {case}", term, const("goal"), 5, 0)
    out: dict = {
        "case": case,
        "mode": mode,
        "nodes": term.size,
        "generate_s": time.perf_counter() - built,
    }
    ticks: list[float] = []

    def jobs(screen: Any) -> Any:
        """The screen's current action-listing job (set once the screen shows a position)."""
        return screen._listing

    marks: dict[str, tuple[float, float]] = {}

    async def run() -> None:
        app = ArcadeApp()
        async with app.run_test(size=(80, 24)) as pilot:
            app.set_interval(TICK, lambda: ticks.append(time.perf_counter()))
            await pilot.pause(0.2)
            launcher = launcher_for(app, "termcraft")
            cls = EagerScreen if mode == "eager" else TermCraftScreen
            screen = cls(
                Session.begin(launcher.game, launcher.game.initial(level)),
                level=level,
                ref=LevelRef("bench", case),
                launcher=launcher,
            )
            listing: Any = None  # the screen's ActionList, once composed

            def shown() -> bool:
                nonlocal listing
                try:
                    listing = screen.query_one(ActionList)
                    tree: Any = screen.query_one("#tc-tree")
                except Exception:  # not composed yet
                    return False
                return bool(listing.rewrites) and tree.term is screen.state.term

            start = time.perf_counter()
            app.push_screen(screen)
            await _until(pilot, shown)
            out["open_s"] = time.perf_counter() - start
            marks["open"] = (start, time.perf_counter())
            start = time.perf_counter()
            out["total_s"] = out["open_s"] + await _until(pilot, lambda: listing.total is not None)
            marks["total"] = (start, time.perf_counter())
            out["actions"] = jobs(screen).total
            if mode == "lazy":
                start = time.perf_counter()
                listing.highlighted = PAGE - 1
                out["page_s"] = await _until(pilot, lambda: len(listing.rewrites) >= 2 * PAGE)
                marks["page"] = (start, time.perf_counter())
                listing.highlighted = 0
                await pilot.pause(0.1)
            before = screen.state
            start = time.perf_counter()
            await pilot.press("enter")
            await _until(
                pilot,
                lambda: (
                    screen.state is not before
                    and jobs(screen).ready
                    and listing.rewrites
                    and listing._term is screen.state.term
                ),
            )
            out["move_s"] = time.perf_counter() - start
            marks["move"] = (start, time.perf_counter())
            await pilot.pause(0.3)
            for job in app.workers:
                job.cancel()
            jobs(screen).drop()  # the listing's workers too (cancelled above: a no-op)

    asyncio.run(run())

    def stall(lo: float, hi: float) -> float:
        inside = [t for t in ticks if lo - TICK <= t <= hi + 2 * TICK]
        gaps = [b - a for a, b in itertools.pairwise(inside)]
        return max(gaps, default=0.0) - TICK

    out["stall_s"] = stall(ticks[0], ticks[-1]) if ticks else None
    for name, (lo, hi) in marks.items():
        out[f"stall_{name}_s"] = stall(lo, hi)
    return out


def _run(case: str, mode: str, timeout: float) -> dict:
    try:
        done = subprocess.run(
            [sys.executable, __file__, "--worker", case, mode],
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return {"failed": f"stopped at {timeout:.0f} s"}
    if done.returncode != 0:
        return {"failed": (done.stderr.strip().splitlines() or ["?"])[-1]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def _fmt(value) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.2f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", default="100k/80,100k/300 big class")
    ap.add_argument("--skip-eager", action="store_true")
    ap.add_argument("--timeout", type=float, default=300.0)
    ap.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        print(json.dumps(measure(*args.worker)))
        return
    columns = (
        "nodes",
        "actions",
        "open_s",
        "total_s",
        "page_s",
        "move_s",
        "stall_s",
        "stall_open_s",
        "stall_move_s",
    )
    print("case | mode | " + " | ".join(columns), flush=True)
    for case in args.cases.split(","):
        results = {}
        for mode in ("lazy", "eager"):
            if mode == "eager" and (args.skip_eager or "big class" in case):
                print(f"{case} | eager | not run (it would materialise every action)")
                continue
            results[mode] = r = _run(case, mode, args.timeout)
            if "failed" in r:
                print(f"{case} | {mode} | failed: {r['failed']}", flush=True)
                continue
            print(f"{case} | {mode} | " + " | ".join(_fmt(r.get(c)) for c in columns), flush=True)
        lazy, eager = results.get("lazy", {}), results.get("eager", {})
        if "open_s" in lazy and "open_s" in eager:
            print(
                f"{case}: eager/lazy open {eager['open_s'] / lazy['open_s']:.1f}×, "
                f"move {eager['move_s'] / lazy['move_s']:.1f}×, "
                f"stall {eager['stall_s']:.2f} s vs {lazy['stall_s']:.2f} s",
                flush=True,
            )


if __name__ == "__main__":
    main()
