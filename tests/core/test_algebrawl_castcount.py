"""Distinct solutions and par for hands holding seed 002's cast cards (issue 29, item 4).

The references here enumerate every play of a small hand, move by move, with their own move
generator (no memo, no de-duplication of equal trees): the counted solutions must equal the
plays' forms de-duplicated (casts in order with the normal form of the value consumed and the
HP a traitor attacks, strikes as a multiset of HP and normal form), and par the shortest
winning play.
"""

from __future__ import annotations

import random
from itertools import permutations

from hypothesis import given, settings
from hypothesis import strategies as st

from core.algebrawl import (
    ADD,
    DEFAULT_CARDS,
    DIV,
    MUL,
    POISON_WIZARD,
    SUB,
    TRAITOR,
    Cast,
    PlayCard,
    Puzzle,
    Strike,
    apply_move,
    initial_state,
    monster_values,
    solve,
    status,
)
from core.algebrawl.castcount import count_with_casts, form_text
from core.algebrawl.normal import normal_form
from core.algebrawl.par import shortest
from core.game import IllegalMove
from core.search import Watch


def _every_move(state):
    """Every move shape, each card and pool position on its own (nothing merged)."""
    hp = monster_values(state)
    for v in range(len(state.pool)):
        for t in state.standing:
            if state.pool[v].value == hp[t]:
                yield Strike(v, t)
    for c in state.hand:
        card = state.puzzle.cards[c]
        if card.effect == "poison_wizard":
            yield from (Cast(c, v) for v in range(len(state.pool)))
        elif card.effect == "traitor":
            yield from (Cast(c, v, t) for v in range(len(state.pool)) for t in state.standing)
        else:
            yield from (PlayCard(c, a) for a in permutations(range(len(state.pool)), card.arity))


def _plays(state, path=()):
    """Every winning play from ``state``, as (moves, the state each move was played in)."""
    if status(state) != "playing":
        if status(state) == "won":
            yield path
        return
    for move in _every_move(state):
        try:
            after = apply_move(state, move)
        except IllegalMove:
            continue
        yield from _plays(after, path + ((state, move),))


def _form(play) -> tuple:
    casts, strikes = [], []
    for state, move in play:
        if isinstance(move, Strike):
            hp = monster_values(state)[move.target]
            strikes.append((hp, normal_form(state.pool[move.value])))
        elif isinstance(move, Cast):
            card = state.puzzle.cards[move.card]
            aimed = (monster_values(state)[move.target],) if card.effect == "traitor" else ()
            casts.append((card.name, normal_form(state.pool[move.value]), aimed))
    return (tuple(casts), tuple(sorted(strikes)))


def _brute(puzzle: Puzzle) -> tuple[set, int | None]:
    plays = list(_plays(initial_state(puzzle)))
    return {_form(p) for p in plays}, min((len(p) for p in plays), default=None)


hands = st.builds(
    lambda numbers, targets, casts, ops, use_all: Puzzle.of(
        numbers, targets[: len(numbers)], cards=tuple(casts) + tuple(ops), use_all=use_all
    ),
    st.lists(st.integers(1, 9), min_size=1, max_size=3),
    st.lists(st.integers(1, 9), min_size=1, max_size=2),
    st.lists(st.sampled_from([POISON_WIZARD, TRAITOR]), min_size=1, max_size=2),
    st.lists(st.sampled_from([ADD, SUB, MUL, DIV]), max_size=1),
    st.booleans(),
)


@settings(max_examples=60, deadline=None)
@given(hands)
def test_count_and_par_with_casts_equal_brute_force(puzzle: Puzzle) -> None:
    forms, fewest = _brute(puzzle)
    counted = solve(puzzle, count=True)
    best = shortest(puzzle)
    if not forms:
        assert counted.status == best.status == "unsolvable"
        return
    assert counted.status == "solved" and counted.complete
    assert counted.count == len(forms)
    assert set(counted.forms) == forms
    assert best.status == "solved" and best.moves == fewest
    end = initial_state(puzzle)
    for move in best.plan:  # the plan replays to a win in par moves
        end = apply_move(end, move)
    assert status(end) == "won" and len(best.plan) == fewest


def test_hand_worked_counts() -> None:
    # Monsters 3 5 2, numbers 3 2 2, the wizard only: the dose must be 3 (a 2 is needed for
    # the 2, and a dose of 2 leaves 1 and 3, which no 2 strikes), then the 5 is at 2.
    poison = solve(Puzzle.of([3, 2, 2], [3, 5, 2], cards=(POISON_WIZARD,)), count=True)
    assert poison.count == 1
    assert form_text(poison.forms[0]) == "poison_wizard(3); 2 = 2; 2 = 2"
    # Monster 5, numbers 9 4 1, a traitor and +: 1 + 4 strikes it; the traitor 1 + 4 fells
    # it; the traitor 1 leaves 4 (struck by the 4); the 4 leaves 1 (struck by the 1); the 9
    # defects as 4 (struck by the 4). Five ways, by hand.
    traitor = solve(Puzzle.of([9, 4, 1], [5], cards=(TRAITOR, ADD)), count=True)
    assert [form_text(f) for f in traitor.forms] == [
        "5 = 1 + 4",
        "traitor(1 + 4) on 5",
        "traitor(1) on 5; 4 = 4",
        "traitor(4) on 5; 1 = 1",
        "traitor(9) on 5; 4 = 4",
    ]
    assert shortest(Puzzle.of([9, 4, 1], [5], cards=(TRAITOR, ADD))).moves == 2


def test_without_casts_the_forms_count_as_the_table_solver() -> None:
    # Two different algorithms (game moves + memo, subset tables) on ordinary hands.
    rng = random.Random(29)
    for _ in range(25):
        numbers = [rng.randint(1, 9) for _ in range(rng.randint(2, 3))]
        targets = [rng.randint(1, 20) for _ in range(rng.randint(1, min(2, len(numbers))))]
        puzzle = Puzzle.of(numbers, targets, cards=DEFAULT_CARDS, use_all=rng.random() < 0.5)
        tables = solve(puzzle, count=True)
        forms = count_with_casts(initial_state(puzzle))
        assert len(forms.forms) == (tables.count or 0), (numbers, targets)


def test_counting_with_casts_stops_at_the_work_budget() -> None:
    puzzle = Puzzle.of([9, 4, 1, 2], [5, 3], cards=(TRAITOR, POISON_WIZARD, ADD, MUL))
    cut = solve(puzzle, count=True, budget=50, time_limit=None)
    assert cut.status == "unknown" and cut.reason == "work budget" and cut.count is None
    assert count_with_casts(initial_state(puzzle), watch=Watch(budget=50)).reason == "work budget"
    par = shortest(puzzle, budget=5, time_limit=None)
    assert par.status == "unknown" and par.reason == "work budget" and par.moves is None
