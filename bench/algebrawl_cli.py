"""Benchmark: the 24 game's 1,820 hands through the CLI's batch path against a naive solver.

Every hand of four cards from 1-13 (``itertools.combinations_with_replacement``), one per
line on stdin, through ``termarcade algebrawl solve --numbers - --json`` (issue 32: the CLI
should ask the solver only for what was asked, and be at least 30x faster than naive):

* ``cli-witness``: ``--no-count --limit 1``: one witness per hand, the search stops at the
  first solution (an unsolvable hand is the whole search).
* ``cli-count``: ``--limit 1`` with counting on (the default): every distinct solution is
  enumerated to count them. Before issue 32 ``--no-count`` was ignored for hands, so this is
  also what ``cli-witness`` cost then.
* ``api``: :func:`core.algebrawl.hands.solve24` on the same hands, in a loop (no parsing,
  no output): the floor the CLI's batch path can reach.

Baseline (``naive``): a simple exhaustive solver: every ordering of the four cards x every
choice of three operators x the five tree shapes, evaluated with ``Fraction``; it stops at
the first expression worth 24 (the same task as ``cli-witness``), so an unsolvable hand costs
all 7,680 expressions. A second, stronger baseline (``pairs``, the one of
``bench/algebrawl.py``'s ``24-classify``): pick two values, combine them every way, recurse,
first solution wins; its ratio is printed too. Every path must find exactly 1,362 solvable hands, the same ones, and
every witness the CLI prints must evaluate to 24 (checked here with an independent evaluator).

The CLI runs in-process through click's runner (CPU seconds of this process,
``time.process_time``; every memo cleared first); ``--subprocess`` also runs it as
``python -m tui`` with the hands piped in, timed by the child's CPU seconds (start-up and
imports included). Output: ``case  fast=<s>  baseline=<s>  ratio=<baseline/fast>x`` per
case; ``--json`` prints JSON lines.

Usage: python bench/algebrawl_cli.py [--quick] [--subprocess] [--json]
"""

from __future__ import annotations

import argparse
import ast
import json
import platform
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from itertools import combinations_with_replacement, permutations, product
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from algebrawl import naive24  # noqa: E402  (bench/algebrawl.py: this script's folder is on the path)

from core.algebrawl import hands  # noqa: E402

TARGET = Fraction(24)
SOLVABLE = 1362
"""Solvable hands among the 1,820 (the 24 game's known figure, e.g. 4nums.com)."""


# -- the naive baseline --------------------------------------------------------------------


def _apply(op: str, a: Fraction | None, b: Fraction | None) -> Fraction | None:
    """``a op b``, or None for a division by zero (or a part that had one)."""
    if a is None or b is None:
        return None
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    return a / b if b else None


SHAPES: tuple[tuple[str, Callable[..., Fraction | None]], ...] = (
    (
        "(({a}{x}{b}){y}{c}){z}{d}",
        lambda a, b, c, d, x, y, z: _apply(z, _apply(y, _apply(x, a, b), c), d),
    ),
    (
        "({a}{x}({b}{y}{c})){z}{d}",
        lambda a, b, c, d, x, y, z: _apply(z, _apply(x, a, _apply(y, b, c)), d),
    ),
    (
        "({a}{x}{b}){y}({c}{z}{d})",
        lambda a, b, c, d, x, y, z: _apply(y, _apply(x, a, b), _apply(z, c, d)),
    ),
    (
        "{a}{x}(({b}{y}{c}){z}{d})",
        lambda a, b, c, d, x, y, z: _apply(x, a, _apply(z, _apply(y, b, c), d)),
    ),
    (
        "{a}{x}({b}{y}({c}{z}{d}))",
        lambda a, b, c, d, x, y, z: _apply(x, a, _apply(y, b, _apply(z, c, d))),
    ),
)
"""The five binary trees over four leaves in order: a format and an evaluator each."""


def naive_solve(hand: tuple[int, ...]) -> str | None:
    """The first expression worth 24 over every ordering x operators x tree shape, or None."""
    for order in permutations(Fraction(v) for v in hand):
        for x, y, z in product("+-*/", repeat=3):
            for text, value in SHAPES:
                if value(*order, x, y, z) == TARGET:
                    a, b, c, d = (str(v) for v in order)
                    return text.format(a=a, b=b, c=c, d=d, x=x, y=y, z=z)
    return None


# -- an independent check of the CLI's expressions ----------------------------------------


def evaluate(text: str) -> Fraction:
    """A compact ASCII expression's exact value (Python's parser, Fraction arithmetic)."""

    def walk(node: ast.AST) -> Fraction:
        if isinstance(node, ast.Expression):
            return walk(node.body)
        if isinstance(node, ast.Constant):
            assert isinstance(node.value, int), node.value
            return Fraction(node.value)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -walk(node.operand)
        assert isinstance(node, ast.BinOp), ast.dump(node)
        a, b = walk(node.left), walk(node.right)
        if isinstance(node.op, ast.Add):
            return a + b
        if isinstance(node.op, ast.Sub):
            return a - b
        if isinstance(node.op, ast.Mult):
            return a * b
        return a / b

    return walk(ast.parse(text, mode="eval"))


# -- the paths -----------------------------------------------------------------------------


def stdin_text(all_hands) -> str:
    return "".join(" ".join(map(str, h)) + "\n" for h in all_hands)


def cli_in_process(text: str, options: list[str]) -> tuple[float, list[dict]]:
    """CPU seconds and answers of ``algebrawl solve --numbers - --json OPTIONS``."""
    from click.testing import CliRunner

    from tui.cli import main

    runner = CliRunner()
    # The command's modules are imported by a first, empty batch: the figure is the batch
    # path's (``--subprocess`` counts start-up and imports).
    runner.invoke(main, ["algebrawl", "solve", "--numbers", "-", *options], "")
    hands.clear_caches()
    start = time.process_time()
    result = runner.invoke(main, ["algebrawl", "solve", "--numbers", "-", "--json", *options], text)
    spent = time.process_time() - start
    assert result.exit_code == 1, (result.exit_code, result.output[-500:])  # some unsolvable
    return spent, [json.loads(line) for line in result.stdout.splitlines()]


def cli_subprocess(text: str, options: list[str]) -> tuple[float, list[dict]]:
    """The child's CPU seconds (start-up included) and answers, ``python -m tui``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [sys.executable, "-m", "tui", "algebrawl", "solve", "--numbers", "-", "--json", *options],
        input=text.encode(),
        capture_output=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        check=False,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert done.returncode == 1, done.stderr.decode()[-500:]
    spent = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return spent, [json.loads(line) for line in done.stdout.splitlines()]


def check(answers: list[dict], all_hands, solvable: set, witnesses: int | None) -> None:
    """Every path finds the same 1,362 hands; every expression printed is worth 24."""
    assert [tuple(a["numbers"]) for a in answers] == list(all_hands)
    got = {tuple(a["numbers"]) for a in answers if a["solvable"]}
    assert got == solvable, len(got ^ solvable)
    for item in answers:
        if witnesses is not None and item["solvable"]:
            assert len(item["solutions"]) == witnesses, item
        for text in item["solutions"]:
            assert evaluate(text) == TARGET, (item, text)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the naive baseline on 1 in 5")
    parser.add_argument("--subprocess", action="store_true", help="also run python -m tui")
    parser.add_argument("--json", action="store_true", help="JSON lines")
    args = parser.parse_args()
    all_hands = tuple(combinations_with_replacement(range(1, 14), 4))
    text = stdin_text(all_hands)
    if not args.json:
        print(
            f"# {platform.processor() or platform.machine()}, Python "
            f"{platform.python_version()}, CPU seconds, {len(all_hands)} hands"
        )
    sample = all_hands[::5] if args.quick else all_hands
    scale = len(all_hands) / len(sample)
    start = time.process_time()
    naive = {h for h in sample if naive_solve(h) is not None}
    naive_t = (time.process_time() - start) * scale
    start = time.process_time()
    pairs = {h for h in sample if naive24([Fraction(v) for v in h], TARGET)}
    pairs_t = (time.process_time() - start) * scale
    hands.clear_caches()
    start = time.process_time()
    api = {h for h in all_hands if hands.solve24(h) is not None}
    api_t = time.process_time() - start
    assert len(api) == SOLVABLE, len(api)
    assert naive == pairs == api & set(sample), "a naive solver disagrees"
    runs = [("api", api_t, "solve24 in a loop: no parsing, no output")]
    for name, options, witnesses in (
        ("cli-witness", ["--no-count", "--limit", "1"], 1),
        ("cli-count", ["--limit", "1"], 1),
    ):
        spent, answers = cli_in_process(text, options)
        check(answers, all_hands, api, witnesses)
        runs.append((name, spent, f"in-process: solve --numbers - --json {' '.join(options)}"))
        if args.subprocess:
            spent, answers = cli_subprocess(text, options)
            check(answers, all_hands, api, witnesses)
            runs.append((name + "-proc", spent, "python -m tui, start-up included"))
    extra = "" if scale == 1 else f"; the baselines on {len(sample)} hands, extrapolated"
    for name, spent, note in runs:
        case = {
            "case": name,
            "fast": spent,
            "baseline": naive_t,
            "ratio": naive_t / spent if spent else float("inf"),
            "baseline_pairs": pairs_t,
            "ratio_pairs": pairs_t / spent if spent else float("inf"),
            "note": note + extra,
        }
        if args.json:
            print(json.dumps(case))
        else:
            print(
                f"{name:18} fast={spent:.3f}  baseline={naive_t:.3f}  "
                f"ratio={case['ratio']:.1f}x  (pairs baseline={pairs_t:.3f}  "
                f"ratio={case['ratio_pairs']:.1f}x)\n{'':18} {case['note']}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
