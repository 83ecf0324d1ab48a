"""SD-PCGRL's environment (core.longcat.sdenv): the Solution-Down MDP in Gymnasium's API.

Checked against independent answers: the project's solver (every level solvable), seed 003's
SD generator (the pseudo-code written out on its own in the tests, driven by the same random
choices, makes the same levels and stops at the same step), the difficulty predictor on the final level (the
incremental rewards add up to it), and Gymnasium's own env checker.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from core.longcat import is_solvable, predict_difficulty  # noqa: E402
from core.longcat.level import DIRECTIONS, Level  # noqa: E402
from core.longcat.sdenv import SDEnv  # noqa: E402
from core.longcat.sdmdp import CHANNELS, SDWalk  # noqa: E402
from tests.core.test_longcat_generate import reference_solution_down  # noqa: E402


def run_episode(env: SDEnv, rng: random.Random, **reset: object) -> tuple[list, dict]:
    """Random actions (any of the four) until the episode ends: (steps, last info)."""
    obs, info = env.reset(**reset)
    steps = []
    while True:
        obs, reward, terminated, truncated, info = env.step(rng.randrange(4))
        steps.append((obs, reward, terminated, truncated, info))
        if terminated or truncated:
            return steps, info


def empty_neighbours(obs: np.ndarray) -> int:
    """Empty 4-neighbours of the head, read off the view's centre."""
    _, rows, cols = obs.shape
    cy, cx = rows // 2, cols // 2
    empty = obs[CHANNELS.index("empty")]
    return int(empty[cy - 1, cx] + empty[cy + 1, cx] + empty[cy, cx - 1] + empty[cy, cx + 1])


def test_gymnasium_env_checker_passes() -> None:
    from gymnasium.utils.env_checker import check_env

    check_env(SDEnv(8, 8), skip_render_check=True)
    check_env(SDEnv(5, 4, reward="final"), skip_render_check=True)


@pytest.mark.parametrize("seed", range(40))
def test_random_actions_reproduce_solution_down(seed: int) -> None:
    """Driven by the same choices as SD's pseudo-code (start, then rng.choice over the empty
    neighbours), the environment makes SD's level and stops when SD stops."""
    width, height = (8, 8) if seed % 2 else (7, 5)
    want, moves = reference_solution_down(random.Random(seed), width, height)
    rng = random.Random(seed)
    env = SDEnv(width, height)
    start = (rng.randrange(width), rng.randrange(height))
    _, info = env.reset(seed=seed, options={"start": start})
    steps = 0
    while True:
        valid = [d for d in range(4) if info["valid"][d]]
        _, _, terminated, truncated, info = env.step(rng.choice(valid))
        steps += 1
        assert not truncated
        if terminated:
            break
    assert info["level"] == want
    # One step per filled cell after the start; SD's moves are the straight runs.
    assert steps == want.size - 1
    runs = [d for i, d in enumerate(info["moves"]) if i == 0 or info["moves"][i - 1] != d]
    assert tuple(DIRECTIONS[d] for d in runs) == moves


def test_every_level_is_solvable_and_the_episode_ends_exactly_when_sd_would() -> None:
    env = SDEnv(8, 8)
    rng = random.Random(3)
    for episode in range(30):
        steps, info = run_episode(env, rng, seed=episode)
        level = info["level"]
        assert isinstance(level, Level) and is_solvable(level) is True
        for obs, _, terminated, _, _ in steps:
            # Terminated exactly when the head has no empty neighbour left.
            assert terminated == (empty_neighbours(obs) == 0)
        assert level.size == len(steps) + 1


def test_observations_have_the_documented_shape_and_channels() -> None:
    for width, height in ((8, 8), (6, 4)):
        env = SDEnv(width, height)
        obs, _ = env.reset(seed=1)
        assert obs.shape == (len(CHANNELS), 2 * height - 1, 2 * width - 1) == (5,) + obs.shape[1:]
        assert obs.dtype == np.float32 and env.observation_space.contains(obs)
        rng = random.Random(width)
        steps, _ = run_episode(env, rng, seed=2)
        for obs, *_ in steps:
            # empty, wall, body, outside: exactly one per cell of the view.
            assert np.array_equal(obs[:4].sum(axis=0), np.ones(obs.shape[1:]))
            # the grid is inside the view wherever the head is: width*height cells in it
            assert int(obs[:3].sum()) == width * height
            assert obs[CHANNELS.index("body"), height - 1, width - 1] == 1  # the head
            assert int(obs[CHANNELS.index("previous")].sum()) == 1


def test_the_view_is_centred_on_the_head() -> None:
    env = SDEnv(8, 8)
    obs, _ = env.reset(options={"start": (0, 0)})
    outside = obs[CHANNELS.index("outside")]
    # The head in the top-left corner: everything above and left of the centre is outside.
    assert outside[:7, :].all() and outside[:, :7].all()
    assert not outside[7:, 7:].any()
    assert int(obs[CHANNELS.index("previous")].sum()) == 0  # no step yet


def test_seeded_resets_repeat() -> None:
    def trace(seed: int) -> list:
        env = SDEnv(8, 8)
        steps, _ = run_episode(env, random.Random(0), seed=seed)
        return [(o.tobytes(), r, t) for o, r, t, _, _ in steps]

    assert trace(11) == trace(11)
    assert trace(11) != trace(12)


def test_an_action_towards_a_full_cell_is_remapped_to_a_valid_one() -> None:
    env = SDEnv(8, 8)
    _, info = env.reset(seed=0, options={"start": (0, 0)})
    assert list(info["valid"]) == [False, True, False, True]  # down, right
    _, _, _, _, info = env.step(0)  # up: outside the grid
    assert info["remapped"] and info["action"] in (1, 3)
    _, _, _, _, info = env.step(info["action"])
    assert not info["remapped"]


def test_incremental_rewards_add_up_to_the_final_difficulty() -> None:
    for seed in range(10):
        env = SDEnv(8, 8, reward="incremental", scale=10.0)
        steps, info = run_episode(env, random.Random(seed), seed=seed)
        start = env.walk.start if env.walk else (0, 0)
        one_cell = predict_difficulty(SDWalk(8, 8, start).level())
        total = sum(r for _, r, *_ in steps)
        want = min(info["difficulty"], 400.0)
        assert total == pytest.approx((want - one_cell) / 10.0, abs=1e-9)
        assert info["difficulty"] == pytest.approx(predict_difficulty(info["level"]))
        final = SDEnv(8, 8, reward="final", scale=10.0)
        steps, info = run_episode(final, random.Random(seed), seed=seed)
        assert [r for _, r, *_ in steps[:-1]] == [0.0] * (len(steps) - 1)
        assert steps[-1][1] == pytest.approx(min(info["difficulty"], 400.0) / 10.0)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError):
        SDEnv(1, 8)
    with pytest.raises(ValueError):
        SDEnv(8, 8, reward="faster")
    env = SDEnv(4, 4)
    with pytest.raises(RuntimeError):
        env.step(0)  # before reset
    env.reset(seed=0)
    with pytest.raises(ValueError):
        env.step(7)
