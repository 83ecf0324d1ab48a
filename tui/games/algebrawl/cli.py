"""``termarcade algebrawl``: solve hands and puzzles, generate level packs, draw solutions.

Commands::

    termarcade algebrawl play [FILE]
    termarcade algebrawl solve --numbers 4 7 8 8 [--target 24] [--countdown] [--cards "+ - * /"]
                               [--limit N] [--no-count] [--time-limit S] [--work-budget N]
                               [--json]
    termarcade algebrawl solve --numbers - [...]          # one hand per stdin line (batch)
    termarcade algebrawl solve LEVEL_FILE [--level N|TITLE] [--no-count] [--json]
    termarcade algebrawl generate [--generator brawl|24] [--difficulty LO:HI] [--count N]
                                  --seed S [-o FILE] [--force]
    termarcade algebrawl dot (--numbers ... | LEVEL_FILE [--level N]) [--svg] [-o FILE]

Hands (``--numbers``) follow the 24 game's rule by default: every number used once, the
operators as often as needed (``--cards`` changes the operators: a card list as in level
files, each card usable up to N − 1 times); ``--countdown`` follows the Countdown numbers
round (any subset of the numbers, positive whole intermediate results). JSON shapes are in
docs/algebrawl.md (one object per line, flushed line by line), each declared once as a
:class:`~tui.cli.output.Row` (``*_ROW`` below: the page's key order, and the text form read
from the same values); ``solve`` and ``dot`` take their hand-or-file options as one group
(:func:`query_options`, received as a :class:`Query`). A hand's solver is asked only
for what is printed: with ``--no-count`` the 24 rule stops at the first solution (``--limit
1``) or at ``--limit`` distinct ones, and a solvable hand's count is null (not asked).

Every solver call is bounded by a work budget, ``--work-budget`` (combinations for hands, candidate
values for levels: the same answer on an idle and on a busy machine), and by ``--time-limit``,
a guard against a hang that counts from the command's start for the first hand or level (its
loading included); an answer cut short is ``"solvable": null`` / status ``"unknown"``, and its
``"reason"`` says which bound was hit (``"work budget"``, ``"time limit"``); ctrl+c stops
cleanly (status 130).

Exit status: 0 success, 1 a negative answer (a hand or level unsolvable or unknown),
2 bad input or usage. Textual is imported only by ``play``.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from fractions import Fraction
from typing import Any

import click

from core.algebrawl.handrule import HandRule
from core.algebrawl.solver import REASONS
from core.search import Interrupted, Watch
from core.text import plural
from tui.cli.codec import move_json
from tui.cli.options import (
    LevelDeadlines,
    LevelFile,
    OptionGroup,
    budget_option,
    check_output,
    check_seed_run,
    count_option,
    game_play_command,
    json_option,
    level_option,
    load_level_pack,
    numbered_levels,
    output_option,
    seed_option,
    time_limit_option,
    title_option,
    write_output,
)
from tui.cli.output import (
    EXIT_BAD_INPUT,
    EXIT_NEGATIVE,
    EXIT_OK,
    IntBetween,
    Row,
    fail,
    parsed,
    progress_bar,
    progress_wanted,
)
from tui.cli.parse import closed_pipe_safe

__all__ = [
    "GENERATE_ROW",
    "HAND_ROW",
    "LEVEL_ROW",
    "LEVEL_UNCOUNTED_ROW",
    "Query",
    "algebrawl",
    "hand_json",
    "parse_band",
    "parse_hand",
    "query_options",
]

DEFAULT_TIME_LIMIT = 120.0
"""Seconds a solver call may take by default: a guard against a hang, well above what the
default budget costs on a busy machine, so that the budget is what binds."""
DEFAULT_BUDGET = 1_000_000
"""Work units a hand or level may cost by default (combinations for hands, candidate values
for levels). Measured (docs/algebrawl.md, "Bounds"): every 4- and 5-number hand and the
6-number hands' counts fit in it with room to spare (the costliest 6-number count of a
sample from 1-13, 456,000), as does the solvability of 7-number hands (at most 310,000);
counting a 7-number hand's solutions does not, and stops at it."""
GENERATE_BUDGET = 50_000_000
"""Work units one generated level may cost by default (draws, the par search's units, the
predictor's combinations): far above what the bands need (a brawl's par search stops at
5,000,000 units of its own), so only a pathological draw meets it."""
DEFAULT_LIMIT = 100
"""Solutions listed by default (the count is always complete when time allows)."""
MAX_LINE = 4096
"""Longest stdin line read in batch mode."""


# --------------------------------------------------------------------------- bounds


class Bounds:
    """The bounds of one command: ``--time-limit`` and ``--work-budget``, per hand or level.

    The first hand or level's deadline counts from the command's start, each later one from
    its own start (:class:`tui.cli.options.LevelDeadlines`), as ``--time-limit``'s help says.

    Args:
        seconds: ``--time-limit``.
        budget: ``--work-budget`` (0: no budget).
    """

    def __init__(self, seconds: float, budget: int):
        self.budget: int | None = budget or None
        """The work budget of one hand or level (None: none)."""
        self._deadlines = LevelDeadlines(seconds)

    def deadline(self) -> float:
        """The next hand or level's deadline (monotonic seconds)."""
        return self._deadlines.next()


# --------------------------------------------------------------------------- values


def parse_number(text: str) -> Fraction:
    """A hand's number: ``7``, ``-3`` or ``7/2`` (ValueError in words)."""
    from core.algebrawl.values import MAX_INPUT, parse_value, within

    token = text.strip()
    # A batch's numbers are mostly small whole numbers: read those without the pattern
    # (ASCII digits only: str.isdigit also takes "²", which int() refuses).
    if token.isascii() and token.isdigit() and len(token) <= 7 and int(token) <= MAX_INPUT:
        return Fraction(int(token))
    try:
        value = parse_value(text.strip())
    except ValueError:
        raise ValueError(f"{text.strip()[:40]!r} is not a number (write 7, -3 or 7/2)") from None
    if not within(value, MAX_INPUT):
        raise ValueError(f"{text.strip()[:40]} is out of range (at most {MAX_INPUT:,})")
    return value


def parse_hand(text: str) -> tuple[Fraction, ...]:
    """A hand from a line: numbers separated by spaces and/or commas."""
    parts = text.replace(",", " ").split()
    if not parts:
        raise ValueError("no numbers")
    return tuple(parse_number(part) for part in parts)


def _json_number(value: Fraction) -> Any:
    """A whole number as a JSON number, a fraction as text (``"7/2"``)."""
    return value.numerator if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def expression(tree: Any) -> str:
    """A tree as a compact ASCII expression: ``(8-4)*6``, ``avg(3,5)``."""
    from core.algebrawl import to_infix

    return to_infix(tree, ascii=True).replace(" ", "")


def parse_band(text: str) -> tuple[int, int]:
    """``LO:HI`` (or a single ``N``) -> ``(LO, HI)``; ValueError in words."""
    low, sep, high = text.partition(":")
    try:
        band = (int(low), int(high)) if sep else (int(low), int(low))
    except ValueError:
        raise ValueError(f"give the difficulty as LO:HI, such as 3:6, not {text!r}") from None
    return band


# --------------------------------------------------------------------------- the query


@dataclasses.dataclass(frozen=True, slots=True)
class Query:
    """What ``solve`` and ``dot`` are asked about: a hand (``--numbers``) or a level FILE,
    as :func:`query_options` gathers it (nothing is checked until a method is called, so
    each command checks in its own order).

    Attributes:
        args: ``FILE`` or the hand's numbers (``-``: one hand per stdin line).
        numbers_mode: ``--numbers`` was given.
        target_text: ``--target``.
        countdown: ``--countdown``.
        cards_text: ``--cards`` (None: not given).
        level: ``--level`` (None: not given).
    """

    args: tuple[str, ...]
    numbers_mode: bool
    target_text: str
    countdown: bool
    cards_text: str | None
    level: str | None

    def rule(self) -> HandRule | None:
        """The hand's rule with ``--numbers``, None for one level FILE (:attr:`levels`).

        Raises:
            click.UsageError: When the arguments do not make one of the two.
        """
        for arg in self.args:
            if arg.startswith("--"):
                raise click.UsageError(f"no such option {arg!r}")
        if not self.numbers_mode:
            if self.countdown or self.cards_text is not None:
                raise click.UsageError("--countdown and --cards go with --numbers")
            if len(self.args) != 1:
                raise click.UsageError("give one level FILE, or --numbers with a hand")
            return None
        if self.level is not None:
            raise click.UsageError("--level goes with a level FILE, not --numbers")
        return _rule(self.countdown, self.cards_text)

    def target(self) -> Fraction:
        """``--target`` as a number (ValueError in words)."""
        return parse_number(self.target_text)

    def hand(self, rule: HandRule, target: Fraction) -> tuple[Fraction, ...]:
        """The hand of the arguments, checked by ``rule`` (ValueError in words)."""
        hand = tuple(parse_number(arg) for arg in self.args)
        if not hand:
            raise ValueError("give the numbers after --numbers")
        rule.check(hand, target)
        return hand

    @property
    def levels(self) -> LevelFile:
        """The level FILE and ``--level`` (when :meth:`rule` is None)."""
        return LevelFile(self.args[0], self.level)


def query_options(level_default: str) -> OptionGroup:
    """``[FILE | NUMBERS...]``, ``--numbers``, ``--target``, ``--countdown``, ``--cards`` and
    ``--level``: what ``solve`` and ``dot`` ask about, received as one :class:`Query` (the
    ``query`` parameter).

    Args:
        level_default: What the command takes without ``--level`` (:func:`level_option`).

    Returns:
        The group.
    """
    return OptionGroup(
        "query",
        [
            click.argument("args", nargs=-1, metavar="[FILE | NUMBERS...]"),
            click.option(
                "--numbers",
                "numbers_mode",
                is_flag=True,
                help="The arguments are a hand of numbers (or - for one hand per stdin "
                "line) instead of a level file.",
            ),
            click.option(
                "--target",
                "target_text",
                default="24",
                show_default=True,
                metavar="T",
                help="The value to make (hands).",
            ),
            click.option(
                "--countdown",
                is_flag=True,
                help="Countdown rules: any subset of the numbers, positive whole results.",
            ),
            click.option(
                "--cards",
                "cards_text",
                default=None,
                metavar="CARDS",
                help='Operators for hands, as in level files: "+ - * /", "+ - avg(a, b) '
                '= (a + b) / 2" (each usable up to N-1 times).',
            ),
            level_option(level_default),
        ],
        into=Query,
    )


def _rule(countdown: bool, cards_text: str | None) -> HandRule:
    """A hand's rule: the 24 game's, Countdown's, or the 24 game's with ``--cards``."""
    if cards_text is None:
        return HandRule(countdown)
    if countdown:
        raise click.UsageError("--countdown plays + - * / only; leave out --cards")
    from grammar.algebrawl import parse_cards

    cards = parsed(lambda text, name: parse_cards(text, filename=name), cards_text, "<--cards>")
    if not cards:
        fail("--cards: give at least one card")
    cast = [c.name for c in cards if c.effect]
    if cast:  # a hand's cards are reusable operators on its numbers; these act on monsters
        fail(
            f"--cards: {', '.join(dict.fromkeys(cast))}: cards cast on the monsters, not on "
            "a hand's numbers; put them in a level file and run 'termarcade algebrawl solve FILE'"
        )
    return HandRule(False, tuple(cards))


@contextmanager
def _bad_parameter(hint: str) -> Iterator[None]:
    """Turn a ValueError in words into click's bad-parameter error (exit 2) naming ``hint``."""
    try:
        yield
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint=hint) from None


# --------------------------------------------------------------------------- hands


def _hand_text(row: Mapping[str, Any]) -> Iterator[str]:
    """A hand's text: the verdict (or the count), the solutions listed, how many more."""
    hand = " ".join(str(v) for v in row["numbers"])
    if row["solvable"] is None:
        yield f"{hand} → {row['target']}: unknown ({row['reason']})"
        return
    if not row["solvable"]:
        yield f"{hand} → {row['target']}: no solution"
        return
    count = row["count"]
    counted = (
        plural(count, "distinct solution")
        if count is not None
        else f"solvable (not counted: {row['reason'] or '--no-count'})"
    )
    yield f"{hand} → {row['target']}: {counted}"
    yield from (f"  {text}" for text in row["solutions"])
    if count is not None and len(row["solutions"]) < count:
        yield f"  … and {count - len(row['solutions'])} more (--limit 0 lists all)"


HAND_ROW = Row(
    *("numbers", "target", "solvable", "count", "solutions", "complete", "reason"),
    text=_hand_text,
)
"""One hand of ``solve --numbers`` (:func:`hand_json`). Its values are plain JSON already
(it converts nothing), which :func:`_emit_hand` relies on."""


def hand_json(
    numbers: Sequence[Fraction],
    target: Fraction,
    rule: HandRule,
    limit: int,
    bounds: Bounds,
    count: bool = True,
) -> dict[str, Any]:
    """Solve one hand, asking the solver only for what is shown.

    Args:
        numbers: The hand (checked by the rule).
        target: The value to make.
        rule: How the hand is solved.
        limit: Solutions listed (0: all).
        bounds: The command's bounds.
        count: Count the distinct solutions; without it the solver looks for ``limit`` of
            them only (the first solution ends the search with ``limit`` 1).

    Returns:
        :data:`HAND_ROW`'s values: ``solvable`` and ``count`` null when a bound was hit
        first (``reason`` names it: ``"work budget"``, ``"time limit"``, else null);
        without ``count`` a solvable hand's ``count`` is null with no reason (not asked),
        an unsolvable hand's 0 (the whole search proved it).
    """
    solvable, distinct, complete, trees, reason = rule.solve(
        numbers,
        target,
        None,
        budget=bounds.budget,
        deadline=bounds.deadline(),
        count=count,
        wanted=limit,
    )
    shown = trees if limit == 0 else trees[:limit]
    return HAND_ROW(
        numbers=[_json_number(v) for v in numbers],
        target=_json_number(target),
        solvable=solvable,
        count=distinct,
        solutions=[expression(tree) for tree in shown],
        complete=complete,
        reason=reason or None,
    )


def _emit_hand(row: dict[str, Any], as_json: bool) -> None:
    """Print a hand's row. Its JSON is written as it is: :data:`HAND_ROW` converts nothing,
    so emit_json's conversion walk, a cost per hand in a batch, is left out (still flushed
    line by line)."""
    if not as_json:
        HAND_ROW.emit(row, as_json)
        return
    click.echo(json.dumps(row, ensure_ascii=False))
    sys.stdout.flush()


# --------------------------------------------------------------------------- level files


def _level_line(data: Mapping[str, Any]) -> str:
    """One level's verdict in words: solved (shortest or not proved so), proved unsolvable,
    or unknown with the bound that cut it; the level's par only as proved or not.

    Args:
        data: :func:`level_json`'s object.

    Returns:
        The text after the level's title.
    """
    status = data["status"]
    if status == "solved" and data["shortest"]:
        text = f"shortest {data['shortest']} moves"
    elif status == "solved":
        text = f"solved in {len(data['moves'])} moves (not proved shortest: {data['reason']})"
    elif status == "unsolvable":
        text = "unsolvable (proved: every move was searched)"
    else:
        text = f"unknown ({data['reason']})"
    if data["par"] is not None:
        proved = data["par_proved"]
        text += f", par {data['par']}" + ("" if proved else " (the level's, not proved)")
    if data.get("count") is not None:
        text += ", " + plural(data["count"], "distinct solution")
        text += "" if data.get("complete") else " (at least)"
    elif status == "solved" and data["reason"]:
        text += f", not counted ({data['reason']})"
    return text


def _level_text(row: Mapping[str, Any]) -> Iterator[str]:
    """A level's text: its verdict, then its solution's moves, numbered."""
    yield f"level {row['level']} {row['title']!r}: {_level_line(row)}"
    yield from (f"  {index}. {move}" for index, move in enumerate(row["moves"], start=1))


_VERDICT = ("level", "title", "status", "shortest", "par", "par_proved", "reason")
_COUNTED = ("count", "complete")
_SOLUTION = ("solution", "moves", "plan")
LEVEL_ROW = Row(*_VERDICT, *_COUNTED, *_SOLUTION, text=_level_text)
"""One level of ``solve FILE``, counted (with ``--count``, the default, and solved)."""
LEVEL_UNCOUNTED_ROW = Row(*_VERDICT, *_SOLUTION, text=_level_text)
"""One level of ``solve FILE`` without its count (``--no-count``, or not solved)."""


def level_json(number: int, level: Any, count: bool, bounds: Bounds) -> dict[str, Any]:
    """Solve one level: the shortest solution, its moves, and the distinct solutions.

    ``moves`` describes the solution's moves for people; ``plan`` holds the same moves in
    the engine's JSON form (:meth:`core.algebrawl.game.AlgebrawlGame.move_to_json`).
    ``reason`` says which bound left the status unknown, the solution not the shortest or
    the count incomplete (``"work budget"``, ``"time limit"``), or is null. Solving and
    counting have a budget each, and share the deadline.

    Returns:
        :data:`LEVEL_ROW`'s values when counted, else :data:`LEVEL_UNCOUNTED_ROW`'s
        (:func:`_level_row` tells which).
    """
    from core.algebrawl import GAME, describe_move, format_value, initial_state, solve
    from core.algebrawl.par import winning_line
    from core.algebrawl.play import apply_move, monster_values

    start = initial_state(level.puzzle)
    deadline = bounds.deadline()
    line = winning_line(start, budget=bounds.budget, deadline=deadline)
    data: dict[str, Any] = {
        "level": number,
        "title": level.title,
        "status": line.status,
        "shortest": len(line.moves) if line.shortest else None,
        "par": level.par,
        # The level file's par is data: say whether the solver proved it the fewest moves.
        "par_proved": level.par is not None and line.shortest and len(line.moves) == level.par,
        "reason": line.reason or None,
    }
    if count and line.status == "solved":
        counted = solve(
            level.puzzle,
            count=True,
            time_limit=max(deadline - time.monotonic(), 0.0),
            budget=bounds.budget,
        )
        data["count"] = counted.count if counted.status == "solved" else None
        data["complete"] = counted.complete and counted.status == "solved"
        data["reason"] = data["reason"] or counted.reason or None
    moves, plan, state = [], [], start
    for move in line.moves:
        moves.append(describe_move(state, move))
        plan.append(move_json(GAME, move))
        state = apply_move(state, move)
    hp = monster_values(state)  # what each monster had when struck (casts change HP)
    data["solution"] = [
        {"target": format_value(hp[t]), "expression": expression(tree)} for t, tree in line.strikes
    ]
    return _level_row(data)(**data, moves=moves, plan=plan)


def _level_row(data: Mapping[str, Any]) -> Row:
    """The row of a level's values: counted or not."""
    return LEVEL_ROW if "count" in data else LEVEL_UNCOUNTED_ROW


# --------------------------------------------------------------------------- the group


@click.group(name="algebrawl", context_settings={"help_option_names": ["-h", "--help"]})
def algebrawl() -> None:
    """Algebrawl: play operator cards on numbers to strike the monsters.

    Solve 24-game and Countdown hands and level files, generate level packs, draw
    solutions as Graphviz trees.  Exit: 0 ok, 1 unsolvable (or unknown), 2 bad input.
    """


algebrawl.add_command(
    game_play_command(
        "algebrawl", "Open the arcade on Algebrawl (on the levels of FILE, or the level of an ID)."
    )
)


@algebrawl.command(context_settings={"ignore_unknown_options": True})
@query_options("every level")
@click.option(
    "--count/--no-count",
    default=True,
    show_default=True,
    help="Also count the distinct solutions of each level or hand (--no-count: a hand's "
    "search stops at --limit solutions).",
)
@click.option(
    "--limit",
    type=IntBetween(0, what="the number of solutions"),
    default=DEFAULT_LIMIT,
    show_default=True,
    help="Solutions listed per hand (0: all).",
)
@time_limit_option(DEFAULT_TIME_LIMIT)
@budget_option(DEFAULT_BUDGET)
@json_option
@closed_pipe_safe
def solve(
    query: Query,
    count: bool,
    limit: int,
    time_limit: float,
    budget: int,
    as_json: bool,
) -> None:
    """Solve a hand (--numbers 4 7 8 8 --target 24), a stream of hands (--numbers -), or
    the puzzles of a level FILE.

    Hands follow the 24 game (every number once, operators reusable) unless --countdown.
    Distinct solutions are counted modulo commutativity, associativity, signs and neutral
    elements (see docs/algebrawl.md); with --no-count a hand's search stops at --limit
    solutions (the first one with --limit 1) and its count is not given.  --json prints one object per hand or level.  Exit 1
    when a hand or level is unsolvable or unknown.

    --work-budget counts combinations for hands (pairs of values or of normal forms combined)
    and candidate values for levels; an answer it cuts short says "work budget".
    """
    bounds = Bounds(time_limit, budget)
    rule = query.rule()
    if rule is None:
        _solve_levels(query.levels, count, bounds, as_json)
        return
    with _bad_parameter("--target"):
        target = query.target()
    if query.args == ("-",):
        raise click.exceptions.Exit(_solve_batch(target, rule, limit, bounds, as_json, count))
    if not query.args:
        raise click.UsageError("give the numbers after --numbers (or - to read hands from stdin)")
    with _bad_parameter("--numbers"):
        hand = query.hand(rule, target)
    row = hand_json(hand, target, rule, limit, bounds, count)
    _emit_hand(row, as_json)
    raise click.exceptions.Exit(EXIT_OK if row["solvable"] else EXIT_NEGATIVE)


def _solve_batch(
    target: Fraction, rule: HandRule, limit: int, bounds: Bounds, as_json: bool, count: bool
) -> int:
    """One hand per stdin line; returns the exit status (2 after a bad line, else 1 when
    some hand is unsolvable or unknown, else 0)."""
    from tui.cli.parse import iter_stdin_lines

    bad = negative = False
    for number, text in iter_stdin_lines():
        if text is not None and (not text.strip() or text.lstrip().startswith("#")):
            continue
        try:
            if text is None:
                raise ValueError("the line is not valid UTF-8")
            if len(text) > MAX_LINE:
                raise ValueError(f"the line is too long (at most {MAX_LINE} characters)")
            hand = parse_hand(text)
            rule.check(hand, target)
        except ValueError as error:
            click.echo(f"<stdin>:{number}: error: {error}", err=True)
            bad = True
            continue
        row = hand_json(hand, target, rule, limit, bounds, count)
        negative |= not row["solvable"]
        _emit_hand(row, as_json)
    return EXIT_BAD_INPUT if bad else (EXIT_NEGATIVE if negative else EXIT_OK)


def _solve_levels(levels: LevelFile, count: bool, bounds: Bounds, as_json: bool) -> None:
    """Solve the chosen levels of a FILE, one row each; exit 1 when one is not solved."""
    pack = load_level_pack(levels.source, "algebrawl")
    status = EXIT_OK
    for number, lvl in levels.chosen(numbered_levels(pack), every_level=True):
        row = level_json(number, lvl, count, bounds)
        if row["status"] != "solved":
            status = EXIT_NEGATIVE
        _level_row(row).emit(row, as_json)
    raise click.exceptions.Exit(status)


# --------------------------------------------------------------------------- generate


GENERATE_ROW = Row("seed", "id", "title", "par")
"""One level of ``generate --json``."""


@algebrawl.command()
@click.option(
    "--generator",
    "-g",
    "generator_name",
    type=click.Choice(["brawl", "24", "casts"]),
    default="brawl",
    show_default=True,
    help="brawl: seed 002's generator (difficulty = total card score); "
    "24: 24-game hands (difficulty = predicted seconds); "
    "casts: a brawl with a poison wizard or a traitor ally (total card score, 1 to 6).",
)
@click.option(
    "--difficulty",
    "-d",
    "band_text",
    default=None,
    metavar="LO:HI",
    help="Difficulty band (brawl: 1 to 10, default 3:6; 24: 1 to 600, default 5:20; "
    "casts: 1 to 6, default 2:4).",
)
@count_option(10, 500)
@seed_option(required=True)
@title_option()
@budget_option(GENERATE_BUDGET)
@output_option
@json_option
@closed_pipe_safe
def generate(
    generator_name: str,
    band_text: str | None,
    count: int,
    seed: int,
    title: str | None,
    budget: int,
    output: str | None,
    force: bool,
    as_json: bool,
) -> None:
    """Generate a level pack (level-file text) from a seed and a difficulty band.

    The same seed and band always give the same pack (level k uses seed + k - 1).  Every
    level is solvable by construction; its par is its shortest solution, proved by the
    solver (a level whose par is not proved has none).  --json prints one
    {"seed", "id", "title", "par"} object per level on stdout (the pack still goes to
    --output when given).  --work-budget bounds each level: a unit per draw, the solver's
    units for its par and the predictor's combinations; a level it cuts short stops the
    command (exit 1, "work budget").
    """
    from core.algebrawl.generator import GenerationFailed
    from core.algebrawl.generators import GENERATORS, check_band
    from core.levelpack import LevelPack
    from grammar.levels import dump_pack

    generator = GENERATORS[generator_name]
    with _bad_parameter("--difficulty"):
        low, high = parse_band(band_text) if band_text else generator.default_band
        check_band(low, high, generator.limits, generator.unit)
    check_seed_run(seed, count, "--count")
    check_output(output, force)
    levels = []
    with progress_bar(count, "generating", count >= 3 and progress_wanted(as_json)) as advance:
        for index in range(count):
            try:
                level = generator.generate(
                    seed + index, low, high, watch=Watch(budget=budget or None)
                )
            except GenerationFailed as error:
                fail(f"seed {seed + index}: {error}", EXIT_NEGATIVE)
            except Interrupted as stop:
                fail(f"seed {seed + index}: unknown ({REASONS[stop.reason]})", EXIT_NEGATIVE)
            levels.append(level)
            if as_json:
                from tui.ids import generated_level_id

                params = {"low": low, "high": high}
                level_id = generated_level_id(
                    "algebrawl", generator_name, params, seed + index, level
                )
                row = GENERATE_ROW(seed=seed + index, id=level_id, title=level.title, par=level.par)
                GENERATE_ROW.emit(row, as_json)
            advance()
    pack = LevelPack(
        title=title or f"Algebrawl {generator.title} {low}-{high}, seed {seed}",
        description=f"Generated by termarcade algebrawl generate --generator "
        f"{generator_name} --difficulty {low}:{high} --seed {seed}",
        levels=tuple(levels),
        game="algebrawl",
    )
    if output is None and as_json:  # the JSON lines are stdout's: the pack goes nowhere
        return
    write_output(output, dump_pack(pack), force, plural(count, "level"))


# --------------------------------------------------------------------------- dot


@algebrawl.command(context_settings={"ignore_unknown_options": True})
@query_options("1")
@click.option("--svg", is_flag=True, help="Run Graphviz's dot to make SVG.")
@budget_option(DEFAULT_BUDGET)
@output_option
@closed_pipe_safe
def dot(query: Query, svg: bool, budget: int, output: str | None, force: bool) -> None:
    """Draw a solution as a Graphviz graph (DOT text, or SVG with --svg).

    The solution of a hand (--numbers 4 7 8 8 --target 24) or of a level (FILE --level N):
    numbers are circles, cards double circles, each striking tree under a box naming its
    target.  Exit 1 when there is no solution (or none was found within --work-budget, as
    solve counts it: combinations for hands, the solver's units for levels).
    """
    rule = query.rule()
    check_output(output, force)
    if rule is None:
        text = _level_dot(query.levels, budget)
    else:
        with _bad_parameter("--numbers"):
            target = query.target()
            hand = query.hand(rule, target)
        text = _hand_dot(rule, hand, target, budget)
    write_output(output, _svg(text) if svg else text, force)


def _hand_dot(rule: HandRule, hand: tuple[Fraction, ...], target: Fraction, budget: int) -> str:
    """A hand's first solution as DOT text (exit 1 when there is none)."""
    from core.algebrawl import solution_to_dot

    solvable, _, _, trees, reason = rule.solve(
        hand, target, DEFAULT_TIME_LIMIT, budget=budget or None
    )
    if not trees:
        fail(
            "no solution" if solvable is False else f"no solution found ({reason})",
            EXIT_NEGATIVE,
        )
    return solution_to_dot((target,), ((0, trees[0]),))


def _level_dot(levels: LevelFile, budget: int) -> str:
    """The chosen level's shortest solution as DOT text (exit 1 when it is not solved)."""
    from core.algebrawl import solution_to_dot
    from core.algebrawl.par import shortest

    pack = load_level_pack(levels.source, "algebrawl")
    _, chosen = levels.chosen(numbered_levels(pack))[0]
    best = shortest(chosen.puzzle, time_limit=DEFAULT_TIME_LIMIT, budget=budget or None)
    if best.status != "solved":
        why = f" ({best.reason})" if best.reason else ""
        fail(f"level {chosen.title!r}: {best.status}{why}", EXIT_NEGATIVE)
    return solution_to_dot(_struck_hp(chosen.puzzle, best.plan), best.strikes)


def _struck_hp(puzzle: Any, plan: tuple) -> tuple:
    """Every monster's HP when struck: the targets, or, for a plan with casts (which change
    HP and add defectors), the HP at the end of the plan.

    Args:
        puzzle: The level's puzzle.
        plan: :attr:`core.algebrawl.par.Shortest.plan` (empty without casts).

    Returns:
        HP by monster index.
    """
    from core.algebrawl import initial_state
    from core.algebrawl.play import apply_move, monster_values

    state = initial_state(puzzle)
    for move in plan:
        state = apply_move(state, move)
    return monster_values(state)


def _svg(text: str) -> str:
    """Run ``dot -Tsvg`` (a clean error when Graphviz is not installed or fails)."""
    program = shutil.which("dot")
    if program is None:
        fail(
            "--svg needs Graphviz's dot program, which is not installed (the DOT text "
            "is printed without --svg)"
        )
    try:
        done = subprocess.run(
            [program, "-Tsvg"],
            input=text.encode("utf-8"),
            capture_output=True,
            timeout=60,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        fail(f"dot could not run: {error}")
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        fail(f"dot failed (status {done.returncode}): {message[0] if message else 'no message'}")
    # SVG is XML: Graphviz writes it as UTF-8 text (a bad byte is shown, never a traceback).
    return done.stdout.decode("utf-8", "replace")
