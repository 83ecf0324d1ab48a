"""The ``casts`` generator deals seed 002's poison wizard and traitor (issue 29), and the
generators and the 24-game predictor stop at a work budget (issue 28)."""

from __future__ import annotations

import pytest

from core.algebrawl import GAME, apply_move, status
from core.algebrawl.difficulty import predict_seconds
from core.algebrawl.generator import generate_hand
from core.algebrawl.generators import CASTS_LIMITS, GENERATORS
from core.algebrawl.par import shortest
from core.search import Interrupted, Watch
from tests.core.test_algebrawl_levels import bfs_shortest


@pytest.mark.parametrize("band", [(1, 3), (2, 4), (4, 6)])
def test_the_casts_band_deals_them_with_a_proved_par(band) -> None:
    kinds = set()
    for seed in range(4):
        level = GENERATORS["casts"].generate(seed, *band)
        assert GENERATORS["casts"].generate(seed, *band) == level  # seedable
        cast = [c.effect for c in level.puzzle.cards if c.effect]
        assert len(cast) == 1
        kinds.add(cast[0])
        # Par is the fewest moves by a plain breadth-first search over the game, and the
        # solver's plan replays to a win in that many moves.
        assert level.par is not None and level.par == bfs_shortest(level.puzzle)
        best = shortest(level.puzzle)
        state = GAME.initial(level)
        for move in best.plan:
            state = apply_move(state, move)
        assert status(state) == "won" and len(best.plan) == level.par
    assert kinds == {"poison_wizard", "traitor"}


def test_the_casts_band_is_checked() -> None:
    with pytest.raises(ValueError, match="1 <= LOW <= HIGH <= 6"):
        GENERATORS["casts"].generate(0, 5, CASTS_LIMITS[1] + 1)


@pytest.mark.parametrize("name", ["brawl", "24", "casts"])
def test_generators_stop_at_the_work_budget(name: str) -> None:
    generator = GENERATORS[name]
    with pytest.raises(Interrupted) as stop:
        generator.generate(3, watch=Watch(budget=1))
    assert stop.value.reason == "budget"
    # A budget large enough changes nothing: the same level as without one.
    assert generator.generate(3, watch=Watch(budget=10**9)) == generator.generate(3)


def test_the_predictor_stops_at_the_work_budget() -> None:
    hand = (1, 5, 5, 5)  # 5 × (5 − 1 ÷ 5): a famous hard hand
    with pytest.raises(Interrupted) as stop:
        predict_seconds(hand, watch=Watch(budget=20))
    assert stop.value.reason == "budget"
    assert predict_seconds(hand, watch=Watch(budget=10**7)) == predict_seconds(hand)
    with pytest.raises(Interrupted):
        generate_hand((5, 20), 0, watch=Watch(budget=5))
    assert generate_hand((5, 20), 0, watch=Watch(budget=10**9)) == generate_hand((5, 20), 0)
