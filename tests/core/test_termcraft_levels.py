"""Every bundled TermCraft level is playable as designed.

For each level: a hand-worked plan (written from the level's rules, not taken from the
solver) is legal and reaches the target in exactly ``par`` moves within the level's fuel
and budget; the solver proves no shorter plan exists (``par`` = shortest plan length);
the level is not won at the start; the linter reports no error.  The traps the level
descriptions promise (an obvious move that loses) are checked too.
"""

from __future__ import annotations

import pytest

from core.termcraft import (
    ConstructAction,
    Level,
    State,
    apply,
    lint,
    rewrite_actions,
    solve,
    status,
)
from grammar.levels import bundled_packs
from grammar.terms import parse_term

PACKS = bundled_packs("termcraft")
LEVELS = {level.title: level for _, pack in PACKS for level in pack.levels}

# Hand-worked plans: ("rw", site, replacement) = the rewrite at that path giving that
# replacement; ("mk", site, term) = construct that term at the placeholder at that path.
PLANS = {
    "The Manual's Puzzle": [
        ("rw", (3, 0), "rev_pair(green,apple)"),
        ("rw", (3, 0, 1), "blue"),
        ("mk", (4, 0), "done"),
    ],
    "Paint It Blue": [("rw", (1, 0), "blue")],
    "Chain Reaction": [("rw", (2, 0), "sprout"), ("rw", (2, 0), "tree")],
    "Swap Meet": [
        ("rw", (1, 0), "pair(pair(middle,right),left)"),
        ("rw", (1, 0, 0), "pair(right,middle)"),
    ],
    "Copy Machine": [("rw", (2, 0, 0), "dog"), ("rw", (2, 0), "pair(dog,dog)")],
    "Twins": [("rw", (2, 0, 1), "sun"), ("rw", (2, 0), "twin(sun)")],
    "Russian Dolls": [("rw", (2, 0), "box(box(doll))"), ("rw", (2, 0), "box(doll)")],
    "Apples Are Red": [("rw", (2, 0), "blue")],
    "Skeleton Key": [("rw", (2, 0), "open")],
    "Shortcut": [("rw", (4, 0), "goal")],
    "Alchemy": [("rw", (3, 0), "crown")],
    "Two Readings": [("rw", (2, 0), "c")],
    "Keep the Witness": [("rw", (2, 0), "twin(red)"), ("rw", (3, 0), "twin(red)")],
    "Fill the Gap": [("mk", (0, 0), "pair(apple,green)")],
    "Seed Money": [("mk", (1, 0), "seed"), ("rw", (1, 0), "tree(fruit,fruit,fruit)")],
    "Write Your Own Rule": [("mk", (0, 0), "lead"), ("rw", (1, 0), "gold")],
    "Exact Change": [
        ("mk", (1, 0), "coin"),
        ("rw", (1, 0), "bag(coin,coin,coin)"),
        ("mk", (2, 0), "bag(coin,coin,coin)"),
    ],
    "Build the Witness": [("mk", (3, 0), "pair(red,red)"), ("rw", (2, 0), "twin(red)")],
    "Forge an Axiom": [("mk", (1, 1), "coin"), ("rw", (2, 0), "treasure")],
    "Rewrite the Law": [("rw", (2, 1), "cheese"), ("rw", (3, 0), "feast")],
    "Blueprint": [
        ("mk", (2, 0), "make(make(bolt))"),
        ("rw", (2, 0, 0), "pair(bolt,bolt)"),
        ("rw", (2, 0), "pair(pair(bolt,bolt),pair(bolt,bolt))"),
    ],
    "Mirror, Mirror": [
        ("rw", (4, 0), "pair(red,red)"),
        ("rw", (3, 0), "twin(red)"),
        ("rw", (4, 0), "twin(red)"),
    ],
    "Grand Finale": [
        ("rw", (4, 0), "rev_pair(placeholder,apple)"),
        ("rw", (4, 0, 1), "blue"),
        ("mk", (4, 0, 0), "blue"),
        ("rw", (4, 0), "twin(blue)"),
        ("mk", (5, 0), "done"),
    ],
}

# Traps: moves (played from the start) after which the level can no longer be won.
TRAPS = {
    "Paint It Blue": [("rw", (0, 0), "blue")],  # the rule rewrites itself
    "Chain Reaction": [("rw", (1, 0), "tree")],  # the second rule rewrites its own lhs
    "Copy Machine": [("rw", (2, 0), "pair(cat,cat)")],  # copying first costs an extra fuel
    "Shortcut": [("rw", (4, 0), "b")],  # the long way round needs 3 fuel
    "Two Readings": [("rw", (2, 0), "a")],  # the obvious binding X=a
    "Keep the Witness": [("rw", (3, 0), "twin(red)")],  # consumes the witness
    "Write Your Own Rule": [("rw", (0, 0), "gold")],  # the rule eats its own placeholder
    "Rewrite the Law": [("rw", (3, 0), "cheese")],  # stripping maybe in data first
    "Blueprint": [
        ("mk", (2, 0), "make(make(bolt))"),
        ("rw", (2, 0), "pair(make(bolt),make(bolt))"),
    ],  # outside-in copies work
    "Mirror, Mirror": [("rw", (4, 0), "pair(red,red)"), ("rw", (4, 0), "twin(red)")],
}


def _play(state: State, move: tuple) -> State:
    kind, site, text = move
    term = parse_term(text)
    if kind == "mk":
        return apply(state, ConstructAction(site, term))
    found = [a for a in rewrite_actions(state) if a.site == site and a.replacement is term]
    assert found, f"no rewrite at {site} gives {text}"
    return apply(state, found[0])


def test_enough_levels_and_every_level_has_a_hand_plan():
    assert len(LEVELS) == sum(len(pack.levels) for _, pack in PACKS)  # unique titles
    assert len(LEVELS) >= 16
    assert set(LEVELS) == set(PLANS)
    assert set(TRAPS) <= set(LEVELS)


def test_the_seed_sample_ships_first():
    first_pack = PACKS[0][1]
    assert first_pack.levels[0].title == "The Manual's Puzzle"


@pytest.mark.parametrize("title", list(PLANS))
def test_hand_plan_wins_in_par_moves(title):
    level: Level = LEVELS[title]
    state = State.from_level(level)
    assert status(state) == "playing"  # not already won, not lost
    for move in PLANS[title]:
        assert status(state) == "playing"
        state = _play(state, move)
    assert status(state) == "won"
    assert state.term is level.target
    assert level.par == len(PLANS[title])
    assert level.description and level.hint


@pytest.mark.parametrize("title", list(PLANS))
def test_solver_confirms_par_is_the_shortest_plan(title):
    level = LEVELS[title]
    result = solve(level, time_limit=30)
    assert result.status == "solved"
    assert len(result.plan) == level.par


@pytest.mark.parametrize("title", list(PLANS))
def test_linter_reports_no_error(title):
    issues = lint(LEVELS[title], time_limit=30)
    assert [i for i in issues if i.severity == "error"] == []
    assert [i.code for i in issues if i.severity == "warning"] == []


@pytest.mark.parametrize("title", list(TRAPS))
def test_the_tempting_move_is_a_trap(title):
    state = State.from_level(LEVELS[title])
    for move in TRAPS[title]:
        state = _play(state, move)
    assert solve(state, time_limit=30).status == "unsolvable"


def test_resources_are_exactly_tight_where_promised():
    """Fuel (budget) is exactly what the plan spends, and one less makes the level unsolvable."""
    for title in (
        "Copy Machine",
        "Shortcut",
        "Keep the Witness",
        "Blueprint",
        "Mirror, Mirror",
        "Grand Finale",
        "Exact Change",
        "Rewrite the Law",
    ):
        level = LEVELS[title]
        rewrites = sum(1 for kind, _, _ in PLANS[title] if kind == "rw")
        assert level.fuel == rewrites, title
        poorer = State(level.current, level.target, level.fuel - 1, level.budget)
        assert solve(poorer, time_limit=30).status == "unsolvable", title
    for title in (
        "Fill the Gap",
        "Exact Change",
        "Build the Witness",
        "Forge an Axiom",
        "Grand Finale",
        "Blueprint",
    ):
        level = LEVELS[title]
        spent = sum(parse_term(text).size for kind, _, text in PLANS[title] if kind == "mk")
        assert level.budget == spent, title
        poorer = State(level.current, level.target, level.fuel, level.budget - 1)
        assert solve(poorer, time_limit=30).status == "unsolvable", title
