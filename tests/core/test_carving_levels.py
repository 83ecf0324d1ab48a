"""The bundled Triangle Carving packs: every level solvable within the solver's limits, par
equal to the shortest plan (not beaten, not missed), and the plan really wins when replayed
move by move through the rules. Generated packs are remade from their seeds.
"""

from __future__ import annotations

import pytest

from core.carving import GAME, solve
from core.carving.generators import GENERATORS
from core.carving.hypergraph import isomorphic, target_shape
from core.game import replay_moves
from grammar.levels import bundled_packs

PACKS = bundled_packs("carving")
LEVELS = [(pack_id, level) for pack_id, pack in PACKS for level in pack.levels]


def test_the_packs_are_there():
    ids = [pack_id for pack_id, _ in PACKS]
    assert ids[0] == "01-tutorial" and any("generated" in i for i in ids[1:])
    tutorial = PACKS[0][1]
    assert len(tutorial.levels) >= 10
    assert all(level.par is not None and level.description for level in tutorial.levels)


@pytest.mark.parametrize("pack_id, level", LEVELS, ids=[f"{p}/{lv.title}" for p, lv in LEVELS])
def test_every_level_is_solved_in_par_steps(pack_id, level):
    # A work budget, not the clock, bounds it (issue 28): the most any bundled level needs
    # is 391,374 state images (Long Division); the time limit is for a hang only.
    result = solve(level, time_limit=600, budget=1_000_000, max_states=20_000)
    assert result.status == "solved", (result.status, result.reason)
    assert result.steps == level.par and result.verdict.endswith("(shortest)")  # proved
    moves = [GAME.move_to_json(m) for m in result.plan]
    end = replay_moves(GAME, GAME.initial(level), moves)
    assert GAME.status(end) == "won" and end.steps == level.par


def test_the_tutorial_teaches_each_rule():
    """Some optimal plan keeps a virtual edge, one moves the base point, one uses axioms."""
    tutorial = PACKS[0][1].levels
    assert any(level.axioms for level in tutorial)
    assert any(level.density == "subsequence" for level in tutorial)
    moved = kept = False
    for level in tutorial:
        state = GAME.initial(level)
        for move in solve(level, time_limit=600, budget=1_000_000).plan:
            after = GAME.apply(state, move)
            kept |= (
                type(move).__name__ == "Construct"
                and after.phase in ("construct", "succession", "won")
                and move.edge in after.virtual
            )
            moved |= type(move).__name__ == "Succeed" and move.vertex != state.base
            state = after
    assert kept and moved


@pytest.mark.parametrize(
    "pack_id, level",
    [(p, lv) for p, lv in LEVELS if "generated" in p],
    ids=[f"{p}/{lv.title}" for p, lv in LEVELS if "generated" in p],
)
def test_generated_levels_are_remade_from_their_seed(pack_id, level):
    name, _, seed = level.title.partition(" #")
    generator = GENERATORS[name.lower()]
    assert generator.generate(int(seed)) == level


def test_generated_packs_have_distinct_targets():
    for pack_id, pack in PACKS:
        if "generated" not in pack_id:
            continue
        shapes = [target_shape(level.target) for level in pack.levels]
        assert not any(isomorphic(a, b) for i, a in enumerate(shapes) for b in shapes[i + 1 :])
