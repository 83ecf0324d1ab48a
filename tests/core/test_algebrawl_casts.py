"""Seed 002's extra operators that act on the monsters (issue 21).

"会毒杀所有奇数怪物的 (平等扣血) 的中毒巫师, 会攻击后自动叛变的队友 (如果血量大于敌人)":
the poison wizard (``poison_wizard``) takes the same dose from every odd monster; the
traitor ally (``traitor``) attacks one monster and defects when it was the stronger. Today's
``poison`` (−1 on one odd pool value) keeps its name and meaning, and older saves and level
files load as before.
"""

from __future__ import annotations

import json
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.algebrawl import (
    ADD,
    DEFAULT_CARDS,
    GAME,
    LIBRARY,
    POISON,
    POISON_WIZARD,
    SUB,
    TRAITOR,
    Cast,
    PlayCard,
    Puzzle,
    Strike,
    apply_move,
    describe_move,
    hint,
    initial_state,
    legal_moves,
    monster_values,
    solve,
    status,
)
from core.algebrawl.par import shortest, winning_line
from core.algebrawl.solver import _search_with_casts
from core.game import IllegalMove
from grammar.levels import load_pack

LEVELS = """title "Seed 002's extra operators"

level "Poison" {
  game algebrawl
  numbers [3 2 2]
  targets [3 5 2]
  cards [poison_wizard]
}

level "Traitor" {
  game algebrawl
  numbers [9 4]
  targets [5]
  cards [traitor +]
}

level "Old poison" {
  game algebrawl
  numbers [7 1]
  targets [6 1]
  cards [poison]
}
"""


def _play(puzzle: Puzzle, *moves):
    state = initial_state(puzzle)
    for move in moves:
        state = apply_move(state, move)
    return state


# ---------------------------------------------------------------------------
# The poison wizard: 毒杀所有奇数怪物 (平等扣血).
# ---------------------------------------------------------------------------


def test_poison_wizard_takes_the_same_dose_from_every_odd_monster() -> None:
    # Monsters 7, 5, 4; dose 2: the odd ones (7 and 5) both lose 2, the even 4 is untouched.
    puzzle = Puzzle.of([2, 3], [7, 5, 4], cards=(POISON_WIZARD,))
    state = _play(puzzle, Cast(0, 0))
    assert monster_values(state) == (5, 3, 4)
    assert state.standing == (0, 1, 2)
    assert [t.value for t in state.pool] == [3]  # the dose is spent
    assert state.hand == ()
    assert describe_move(initial_state(puzzle), Cast(0, 0)) == "poison wizard, dose 2: 7 → 5, 5 → 3"


def test_poison_wizard_fells_monsters_brought_to_zero_and_wins_the_seed_case() -> None:
    # Hand-worked: numbers 3 2 2, monsters 3 5 2. Dose 3 kills the 3 (3 − 3 = 0) and leaves
    # the 5 at 2; the two 2s strike the two 2s. Without the wizard nothing makes a 5.
    puzzle = Puzzle.of([3, 2, 2], [3, 5, 2], cards=(POISON_WIZARD,))
    state = _play(puzzle, Cast(0, 0))
    assert monster_values(state) == (0, 2, 2) and state.standing == (1, 2)
    state = apply_move(apply_move(state, Strike(0, 1)), Strike(0, 2))
    assert status(state) == "won"
    result = solve(puzzle)
    assert result.status == "solved" and _play(puzzle, *result.moves).standing == ()
    assert solve(Puzzle.of([3, 2, 2], [3, 5, 2], cards=(POISON,))).status == "unsolvable"


@pytest.mark.parametrize(
    "numbers,targets,why",
    [
        ([2, 4], [4, 6], "no standing monster has an odd HP"),
        ([5, 1], [3, 9], "no overkill"),
        ([F(1, 2), 1], [3, 9], "positive whole number"),
        ([-1, 1], [3, 9], "positive whole number"),
    ],
)
def test_poison_wizard_refusals(numbers, targets, why) -> None:
    state = initial_state(Puzzle.of(numbers, targets, cards=(POISON_WIZARD,)))
    with pytest.raises(IllegalMove, match=why):
        apply_move(state, Cast(0, 0))
    assert Cast(0, 0) not in legal_moves(state)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-9, 30), min_size=1, max_size=5), st.integers(1, 12))
def test_poison_wizard_matches_a_reference(monsters, dose) -> None:
    puzzle = Puzzle.of([dose] + [1] * (len(monsters) - 1), monsters, cards=(POISON_WIZARD,))
    state = initial_state(puzzle)
    odd = [m for m in monsters if m % 2 == 1]
    legal = bool(odd) and dose <= min(odd)
    if not legal:
        with pytest.raises(IllegalMove):
            apply_move(state, Cast(0, 0))
        return
    after = apply_move(state, Cast(0, 0))
    expected = [m - dose if m % 2 == 1 else m for m in monsters]
    assert list(monster_values(after)) == expected
    assert after.standing == tuple(
        i for i, m in enumerate(monsters) if not (m % 2 == 1 and m == dose)
    )


# ---------------------------------------------------------------------------
# The traitor ally: 会攻击后自动叛变的队友 (如果血量大于敌人).
# ---------------------------------------------------------------------------


def test_traitor_weaker_than_the_monster_wounds_it() -> None:
    state = _play(Puzzle.of([3, 4], [7], cards=(TRAITOR,)), Cast(0, 0, 0))
    assert monster_values(state) == (4,) and state.standing == (0,)
    assert status(apply_move(state, Strike(0, 0))) == "won"  # 4 strikes the wounded 4


def test_traitor_equal_to_the_monster_kills_it_without_defecting() -> None:
    state = _play(Puzzle.of([5, 1], [5, 1], cards=(TRAITOR,)), Cast(0, 0, 0))
    assert monster_values(state) == (0, 1) and state.standing == (1,)


def test_traitor_stronger_than_the_monster_kills_it_and_defects() -> None:
    # Ally 9 against monster 5: the monster dies, the ally defects with 9 − 5 = 4 HP.
    puzzle = Puzzle.of([9, 4], [5], cards=(TRAITOR, ADD))
    state = _play(puzzle, Cast(0, 0, 0))
    assert monster_values(state) == (0, 4) and state.standing == (1,)
    assert (
        describe_move(initial_state(puzzle), Cast(0, 0, 0))
        == "traitor 9 attacks 5: it dies, the ally defects as 4"
    )
    assert status(apply_move(state, Strike(0, 1))) == "won"
    assert solve(puzzle).status == "solved"
    assert solve(Puzzle.of([9, 4], [5], cards=(ADD,))).status == "unsolvable"


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-3, 20), min_size=1, max_size=4), st.integers(-2, 25), st.data())
def test_traitor_matches_a_reference(monsters, ally, data) -> None:
    target = data.draw(st.integers(0, len(monsters) - 1))
    puzzle = Puzzle.of([ally] + [1] * (len(monsters) - 1), monsters, cards=(TRAITOR,))
    state = initial_state(puzzle)
    m = monsters[target]
    if ally <= 0 or m <= 0:
        with pytest.raises(IllegalMove):
            apply_move(state, Cast(0, 0, target))
        return
    after = apply_move(state, Cast(0, 0, target))
    expected = list(monsters)
    expected[target] = max(m - ally, 0)
    standing = [i for i in range(len(monsters)) if i != target or ally < m]
    if ally > m:  # the ally defects with what it has left
        expected.append(ally - m)
        standing.append(len(monsters))
    assert list(monster_values(after)) == expected
    assert list(after.standing) == standing
    assert GAME.state_from_json(json.loads(json.dumps(GAME.state_to_json(after)))) == after


def test_traitor_needs_a_standing_target() -> None:
    state = initial_state(Puzzle.of([9, 4], [5], cards=(TRAITOR,)))
    for bad in (Cast(0, 0, -1), Cast(0, 0, 3)):
        with pytest.raises(IllegalMove, match="standing monster"):
            apply_move(state, bad)
    with pytest.raises(IllegalMove, match="cast it"):
        apply_move(state, PlayCard(0, (0,)))  # not an operator on pool values


# ---------------------------------------------------------------------------
# Solver, counting, par, hints.
# ---------------------------------------------------------------------------


def test_the_cast_search_agrees_with_the_table_solver_without_casts() -> None:
    # The same search is exact on ordinary hands: compare it with the table solver.
    import random

    rng = random.Random(21)
    for _ in range(60):
        numbers = [rng.randint(1, 9) for _ in range(rng.randint(2, 4))]
        targets = [rng.randint(1, 20) for _ in range(rng.randint(1, min(2, len(numbers))))]
        puzzle = Puzzle.of(numbers, targets, cards=DEFAULT_CARDS)
        searched = _search_with_casts(initial_state(puzzle), 10**6, float("inf"), None)
        assert searched.status == solve(puzzle).status, (numbers, targets)
        if searched.moves:
            assert status(_play(puzzle, *searched.moves)) == "won"


def test_counting_par_and_hints_with_cast_cards() -> None:
    puzzle = Puzzle.of([3, 2, 2], [3, 5, 2], cards=(POISON_WIZARD, SUB))
    # Issue 29: counted and given a par (tests/core/test_algebrawl_castcount.py checks both
    # against brute force). By hand: the dose 3 then two strikes of 2 is the only way
    # (2 − 2 = 0 strikes nothing; a dose of 2 leaves 1 and 3).
    counted = solve(puzzle, count=True)
    assert counted.count == 1 and counted.complete
    assert shortest(puzzle).moves == 3
    # A level's solution (solve --json, the editor's par) comes from a breadth-first search
    # of the game's own moves instead: still the shortest, the same as a plain BFS finds.
    from tests.core.test_algebrawl_levels import bfs_shortest

    line = winning_line(initial_state(puzzle))
    assert line.status == "solved" and line.shortest
    assert len(line.moves) == bfs_shortest(puzzle) == 3
    assert any(isinstance(m, Cast) for m in line.moves)
    end = _play(puzzle, *line.moves)
    assert status(end) == "won" and end.struck == line.strikes
    # Poison with the 3 takes 3 from the odd monsters (3 falls, 5 becomes 2): two strikes of 2.
    assert sorted(t for t, _ in line.strikes) == [1, 2]
    move = hint(initial_state(puzzle))
    assert move is not None and move in legal_moves(initial_state(puzzle))
    # Once the cast card is played, the ordinary solver counts the rest again.
    after = apply_move(initial_state(puzzle), Cast(0, 0))
    assert solve(Puzzle.of([2, 2], [2, 2], cards=(SUB,)), count=True).count == 1
    assert hint(after) is not None


# ---------------------------------------------------------------------------
# Level files, saves, and today's poison.
# ---------------------------------------------------------------------------


def test_level_files_name_the_cards() -> None:
    pack = load_pack(LEVELS)
    poison, traitor, old = (level.puzzle for level in pack.levels)
    assert poison.cards == (POISON_WIZARD,) and traitor.cards == (TRAITOR, ADD)
    assert solve(poison).status == solve(traitor).status == "solved"
    assert old.cards == (POISON,) and old.cards[0] is LIBRARY["poison"]
    # Today's poison keeps its meaning: 7 − 1 = 6 on the pool value.
    state = apply_move(initial_state(old), PlayCard(0, (0,)))
    assert state.pool[0].value == 6 and solve(old).status == "solved"


def test_a_save_with_casts_round_trips_and_older_saves_load_unchanged() -> None:
    puzzle = Puzzle.of([9, 3, 4], [5, 7], cards=(TRAITOR, POISON_WIZARD, ADD))
    state = _play(puzzle, Cast(0, 0, 0), Cast(1, 0))  # 9 vs 5 defects as 4; dose 3 on the 7
    assert monster_values(state) == (0, 4, 4)
    data = json.loads(json.dumps(GAME.state_to_json(state)))
    assert data["monsters"] == ["0", "4", "4"] and len(data["spent"]) == 2
    assert GAME.state_from_json(data) == state
    move = GAME.move_from_json(state, GAME.move_to_json(Cast(0, 0, 1)))
    assert move == Cast(0, 0, 1)
    # Decoding checks the form: no more monsters than the targets and the traitors cast,
    # each one standing, struck or felled (0 HP).
    for tampered in (
        dict(data, monsters=["0", "4", "4", "4"], standing=[1, 2, 3]),
        dict(data, standing=[1]),
    ):
        with pytest.raises(ValueError):
            GAME.state_from_json(tampered)
    # A save written before the cast cards existed (no monsters/spent keys), using poison.
    old = {
        "puzzle": {
            "numbers": ["7", "1"],
            "targets": ["6", "1"],
            "cards": [{"card": "poison"}],
            "integer_only": False,
            "use_all": False,
        },
        "pool": [{"card": "poison", "args": ["7"]}, "1"],
        "hand": [],
        "standing": [0, 1],
        "struck": [],
    }
    loaded = GAME.state_from_json(old)
    assert loaded.pool[0].value == 6 and monster_values(loaded) == (6, 1)
    assert GAME.state_to_json(loaded) == old  # and it is written back in the same form
