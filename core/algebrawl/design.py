"""What the level designer's bench says about an Algebrawl level (issue 20).

:func:`design_verdict` answers, within a time limit, the questions a designer asks while
editing a level: is it solvable, what is its par (the fewest moves: card plays, casts and
strikes), how many distinct solutions does it have (:mod:`.normal`'s ``"neutral"`` normal
form, as the CLI and the win dialog count), what is a shortest solution, and how hard is it
predicted to be. :func:`level_from_state` turns a game in progress into a level (the bench's
"Current position").

Par comes from :func:`.par.shortest_state` (the solver's tables); a hand holding a card that
acts on the monsters (``poison_wizard``, ``traitor``) is outside those tables, so its par
comes from a breadth-first search over the game's own moves (positions with the same pool
values, cards and monster HP merged), bounded by the same limits. Their distinct solutions
are counted by :mod:`.castcount` (casts in order, strikes as a multiset, each value by its
normal form). A verdict cut short says which bound cut it (:attr:`Verdict.reason`).

Predicted difficulty:

* a 24-game hand (one monster, ``use_all``, only ``+ − × ÷`` cards, 2 to 4 whole numbers):
  :func:`.difficulty.predict_seconds`, the predicted time a person needs, with the bands of
  :func:`.generator.generate_hand`'s documentation (:data:`SECONDS_BANDS`);
* every level: the *card score* of the shortest solution, the Brawl generator's difficulty
  (the total of :data:`.generator.DEFAULT_SCORES`, 3 for any other card) with the bands the
  documentation measures the generator by (:data:`SCORE_BANDS`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from core.search import Interrupted, Watch

from .ast import Node, postorder, to_infix
from .cards import ADD, DIV, MUL, SUB
from .castcount import form_text
from .generator import DEFAULT_SCORES
from .level import Level
from .par import shortest_state
from .play import (
    Cast,
    PlayCard,
    State,
    apply_move,
    describe_move,
    initial_state,
    monster_values,
)
from .puzzle import MAX_NUMBERS
from .solver import solve_state
from .values import MAX_INPUT, format_value, within

__all__ = [
    "LIVE_BUDGET",
    "LIVE_TIME_LIMIT",
    "SCORE_BANDS",
    "SECONDS_BANDS",
    "Verdict",
    "card_score",
    "design_verdict",
    "level_from_state",
    "score_band",
    "seconds_band",
]

LIVE_TIME_LIMIT = 3.0
"""Seconds the bench's live verdict may spend (par and counting together)."""
LIVE_BUDGET = 1_000_000
"""Work units the bench's verdicts (live and F4) may spend on par and on counting, each: the
bound that decides on a busy machine, where a time limit would cut the same level short sooner
(the bundled levels need at most about 22,000)."""

SECONDS_BANDS = ((15.0, "easy"), (40.0, "medium"), (float("inf"), "hard"))
"""Bands of predicted seconds: under 15 s easy, under 40 s medium, else hard (the examples of
:func:`.generator.generate_hand`: ``(5, 15)`` easy, ``(40, 300)`` hard)."""
SCORE_BANDS = ((3, "easy"), (6, "medium"), (10, "hard"))
"""Bands of card score: 1-3 easy, 4-6 medium (the Brawl generator's default band), 7-10 hard;
above 10 is beyond the generator's range."""
OTHER_CARD_SCORE = 3
"""Score of a card :data:`.generator.DEFAULT_SCORES` does not list (as the generator does)."""
ARITHMETIC = (ADD, SUB, MUL, DIV)


@dataclass(frozen=True)
class Verdict:
    """What :func:`design_verdict` found.

    Attributes:
        status: ``"solved"``, ``"unsolvable"`` or ``"unknown"`` (the time limit was hit).
        par: The fewest moves that win (card plays, casts and strikes), or None.
        solution: A shortest solution (any solution when par is unknown), each monster as
            ``"24 = 8 ÷ (3 − 8 ÷ 3)"``, or as moves when cards act on the monsters.
        count: Distinct solutions, or None (not counted: see ``count_note``).
        count_complete: Whether ``count`` is exact (else it is a lower bound).
        count_note: Why there is no count, or ``""``.
        predicted_seconds: The 24-game predictor's time for a person, when it applies.
        seconds_band: Its band (:data:`SECONDS_BANDS`), or ``""``.
        predictor_note: How far the hand is from the predictor's data, or ``""``.
        card_score: The shortest solution's card score, or None.
        score_band: Its band (:data:`SCORE_BANDS`), or ``""``.
        time_limit: The limit the verdict ran under, in seconds.
        distinct: The distinct solutions counted (at most ``list_limit``), each as its
            monsters' expressions joined by ``"; "`` (with cast cards, as
            :func:`.castcount.form_text` writes the solution's form).
        reason: Which bound left the status ``"unknown"`` (``"work budget"``, ``"time
            limit"``, ``"cancelled"``), or ``""``.
    """

    status: str
    par: int | None = None
    solution: tuple[str, ...] = ()
    count: int | None = None
    count_complete: bool = True
    count_note: str = ""
    predicted_seconds: float | None = None
    seconds_band: str = ""
    predictor_note: str = ""
    card_score: int | None = None
    score_band: str = ""
    time_limit: float = LIVE_TIME_LIMIT
    distinct: tuple[str, ...] = ()
    reason: str = ""


def seconds_band(seconds: float) -> str:
    """The band of a predicted solve time (:data:`SECONDS_BANDS`)."""
    return next(name for top, name in SECONDS_BANDS if seconds < top)


def score_band(score: int) -> str:
    """The band of a card score (:data:`SCORE_BANDS`); ``"beyond 10"`` above them."""
    return next((name for top, name in SCORE_BANDS if score <= top), "beyond 10")


def card_score(card_names: list[str]) -> int:
    """Total difficulty score of the cards played (the Brawl generator's measure)."""
    return sum(DEFAULT_SCORES.get(name, OTHER_CARD_SCORE) for name in card_names)


def _predictor(level: Level) -> tuple[float, str] | None:
    """The 24-game predictor's seconds and a note, when the level is a 24-game hand."""
    puzzle = level.puzzle
    n = len(puzzle.numbers)
    if (
        len(puzzle.targets) != 1
        or not puzzle.use_all
        or not 2 <= n <= 4  # 5 numbers take the predictor about a second, not interruptible
        or not puzzle.cards
        or any(c not in ARITHMETIC for c in puzzle.cards)
        or any(v.denominator != 1 for v in puzzle.numbers + puzzle.targets)
    ):
        return None
    from .difficulty import predict_seconds

    try:
        seconds = predict_seconds(
            puzzle.numbers, puzzle.targets[0], watch=Watch(budget=LIVE_BUDGET)
        )
    except (ValueError, Interrupted):  # no solution even with reusable cards, or too costly
        return None
    notes = []
    if n != 4 or puzzle.targets[0] != 24 or not all(1 <= v <= 13 for v in puzzle.numbers):
        notes.append("extrapolated beyond four numbers from 1-13 making 24")
    counts = puzzle.card_counts()
    if puzzle.integer_only or any(counts[c] < n - 1 for c in ARITHMETIC):
        notes.append("which assumes + − × ÷ reusable and fractions allowed")
    return seconds, "; ".join(notes)


def design_verdict(
    level: Level,
    *,
    time_limit: float = LIVE_TIME_LIMIT,
    should_stop: Callable[[], bool] | None = None,
    max_entries: int = 300_000,
    count_limit: int = 10_000,
    list_limit: int = 100,
    budget: int | None = None,
) -> Verdict:
    """Solvability, par, distinct solutions, a shortest solution and predicted difficulty.

    Args:
        level: The level.
        time_limit: Seconds for all of it (a hit limit leaves ``"unknown"`` parts).
        should_stop: Called now and then; True stops early (parts left ``"unknown"``).
        max_entries: Most values the solver's tables may hold.
        count_limit: Stop counting at this many solutions (``count_complete`` False).
        list_limit: Most distinct solutions kept as text (:attr:`Verdict.distinct`).
        budget: Work units for par and for counting, each (the solver's units: candidate
            values computed; None: none). With ``max_entries`` it bounds the verdict the
            same on any machine, where ``time_limit`` does not.

    Returns:
        A :class:`Verdict`.
    """
    start = initial_state(level.puzzle)
    deadline = time.monotonic() + time_limit

    def left() -> float:
        return max(0.0, deadline - time.monotonic())

    base = Verdict("unknown", time_limit=time_limit)
    best = shortest_state(
        start,
        max_entries=max_entries,
        time_limit=left(),
        should_stop=should_stop,
        budget=budget,
    )
    if best.status == "unsolvable":
        return replace(base, status="unsolvable")
    if best.status != "solved":
        return replace(base, reason=best.reason or "time limit")
    monsters = monster_values(start)
    names: list[str] = []

    def as_text(strikes) -> tuple[str, ...]:
        return tuple(f"{format_value(monsters[t])} = {to_infix(tree)}" for t, tree in strikes)

    if best.plan:  # cards cast on the monsters: the solution is told as moves
        state, shown = start, []
        for move in best.plan:
            shown.append(describe_move(state, move))
            if isinstance(move, PlayCard | Cast):
                names.append(level.puzzle.cards[move.card].name)
            state = apply_move(state, move)
        verdict = replace(base, status="solved", par=best.moves, solution=tuple(shown))
    else:
        verdict = replace(base, status="solved", par=best.moves, solution=as_text(best.strikes))
        names = [
            a.card.name for _, tree in best.strikes for a in postorder(tree) if isinstance(a, Node)
        ]
    counted = solve_state(
        start,
        count=True,
        max_entries=max_entries,
        time_limit=left(),
        max_count=count_limit,
        should_stop=should_stop,
        budget=budget,
    )
    if counted.status == "solved":
        distinct = (
            tuple(form_text(f) for f in counted.forms[:list_limit])
            if best.plan
            else tuple("; ".join(as_text(x)) for x in counted.solutions[:list_limit])
        )
        verdict = replace(
            verdict,
            count=counted.count,
            count_complete=counted.complete,
            distinct=distinct,
        )
    else:
        why = counted.reason or "time limit"
        verdict = replace(verdict, count_complete=False, count_note=f"not counted ({why})")
    score = card_score(names)
    verdict = replace(verdict, card_score=score, score_band=score_band(score))
    if should_stop is not None and should_stop():
        return verdict
    predicted = _predictor(level)
    if predicted is not None:
        seconds, note = predicted
        verdict = replace(
            verdict,
            predicted_seconds=seconds,
            seconds_band=seconds_band(seconds),
            predictor_note=note,
        )
    return verdict


def level_from_state(level: Level, state: State) -> Level:
    """The level that starts where the game ``state`` stands: its pool values become the
    numbers, the standing monsters' HP the targets, the cards in hand the cards; the rules,
    title and texts stay, par is cleared (the designer sets it again).

    Raises:
        ValueError: Saying why the position does not make a level (won, values out of the
            level-file range, ...).
    """
    from .level import level_of

    if not state.standing:
        raise ValueError("every monster is struck: there is no level left to start")
    if not state.pool:
        raise ValueError("the pool is empty: there is no number left to start from")
    numbers = tuple(tree.value for tree in state.pool)
    if len(numbers) > MAX_NUMBERS or not all(within(v, MAX_INPUT) for v in numbers):
        raise ValueError(f"a value of the pool is beyond a level's range (at most {MAX_INPUT:,})")
    monsters = monster_values(state)
    targets = tuple(monsters[t] for t in state.standing)
    cards = tuple(state.puzzle.cards[i] for i in state.hand)
    return level_of(
        level.title,
        numbers=numbers,
        targets=targets,
        cards=cards,
        integer_only=state.puzzle.integer_only,
        use_all=state.puzzle.use_all,
        description=level.description,
        hint=level.hint,
        author=level.author,
    )
