"""The learned generator at play time: the shipped weights, the numpy forward pass, temperature
sampling and the ``rl`` method.

The forward pass is checked against a plain-loop convolution written here, and against the
PyTorch model (SB3's Q-network built by the training script) when torch is installed. The
tiny training run needs the ``rl`` extra and is skipped without it.
"""

from __future__ import annotations

import math
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.longcat import generate, is_solvable
from core.longcat.generate import install_policies
from core.longcat.policy import (
    LAYERS,
    Policy,
    PolicyError,
    action_probabilities,
    choose,
    policy_walk,
)
from core.longcat.sdmdp import SDWalk, observation_shape
from core.longcat.sdpu import solution_down
from tui.games.longcat.weights import install, load_policy, policy_file, shipped_sizes

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def bundled_policies():
    install()
    yield
    install()


def random_policy(width: int, height: int, seed: int = 0, filters=(4, 6, 6, 8), fc=10) -> Policy:
    rng = np.random.default_rng(seed)
    c, rows, cols = observation_shape(width, height)
    arrays = {}
    channels = c
    for layer, out in zip(("conv1", "conv2", "conv3", "conv4"), filters):
        arrays[f"{layer}.weight"] = rng.normal(0, 0.5, (out, channels, 3, 3))
        arrays[f"{layer}.bias"] = rng.normal(0, 0.1, out)
        channels = out
    size = channels * (rows // 4) * (cols // 4)
    for layer, out in (("fc1", fc), ("fc2", fc), ("out", 4)):
        arrays[f"{layer}.weight"] = rng.normal(0, 0.5, (out, size))
        arrays[f"{layer}.bias"] = rng.normal(0, 0.1, out)
        size = out
    return Policy.from_arrays(width, height, arrays)


def reference_q(policy: Policy, obs: np.ndarray) -> np.ndarray:
    """The seed's network with explicit loops (independent of the vectorised pass)."""
    w = policy.weights
    x = obs.astype(np.float64)
    for layer in ("conv1", "conv2", "conv3", "conv4"):
        kernel, bias = w[f"{layer}.weight"], w[f"{layer}.bias"]
        c, h, wd = x.shape
        out = np.zeros((kernel.shape[0], h, wd))
        for o in range(kernel.shape[0]):
            for i in range(h):
                for j in range(wd):
                    total = bias[o]
                    for di in range(3):
                        for dj in range(3):
                            ii, jj = i + di - 1, j + dj - 1
                            if 0 <= ii < h and 0 <= jj < wd:
                                total += float(kernel[o, :, di, dj] @ x[:, ii, jj])
                    out[o, i, j] = max(total, 0.0)
        x = out
        if layer in ("conv2", "conv4"):
            c, h, wd = x.shape
            pooled = np.zeros((c, h // 2, wd // 2))
            for i in range(h // 2):
                for j in range(wd // 2):
                    pooled[:, i, j] = x[:, 2 * i : 2 * i + 2, 2 * j : 2 * j + 2].max(axis=(1, 2))
            x = pooled
    v = x.reshape(-1)
    for layer in ("fc1", "fc2", "out"):
        v = w[f"{layer}.weight"] @ v + w[f"{layer}.bias"]
        if layer != "out":
            v = np.maximum(v, 0.0)
    return v


def walk_observations(width: int, height: int, seed: int) -> np.ndarray:
    rng = random.Random(seed)
    walk = SDWalk(width, height, (rng.randrange(width), rng.randrange(height)))
    out = [walk.observation()]
    while not walk.done:
        walk.step(rng.choice(walk.valid()))
        out.append(walk.observation())
    return np.stack(out)


def test_the_shipped_weights_load_with_numpy_only() -> None:
    assert (8, 8) in shipped_sizes()
    assert policy_file(8, 8).is_file()
    size = Path(str(policy_file(8, 8))).stat().st_size
    assert size < 5_000_000
    policy = load_policy(8, 8)
    assert policy is not None and (policy.width, policy.height) == (8, 8)
    assert set(policy.weights) == {f"{layer}.{p}" for layer in LAYERS for p in ("weight", "bias")}
    assert policy.info["width"] == 8 and policy.info["episodes"] > 0
    assert load_policy(7, 9) is None
    for width, height in shipped_sizes():  # every shipped size loads and makes its levels
        shipped = load_policy(width, height)
        assert shipped is not None and (shipped.info["width"], shipped.info["height"]) == (
            width,
            height,
        )
        level = generate("rl", 2, width, height)
        assert (level.width, level.height) == (width, height) and is_solvable(level) is True
    # Playing imports neither torch nor gymnasium.
    code = (
        "import sys; from tui.games.longcat.weights import install; install();"
        "from core.longcat import generate; generate('rl', 1, 8, 8);"
        "print(sorted(m for m in ('torch', 'gymnasium', 'stable_baselines3') if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize("size", [(8, 8), (5, 3)])
def test_the_forward_pass_matches_a_plain_loop_network(size: tuple[int, int]) -> None:
    policy = random_policy(*size, seed=size[0])
    observations = walk_observations(*size, seed=4)[:6]
    batch = policy.q_values(observations)
    for obs, q in zip(observations, batch):
        want = reference_q(policy, obs)
        np.testing.assert_allclose(q, want, rtol=1e-10, atol=1e-10)
        np.testing.assert_allclose(policy.q_values(obs), want, rtol=1e-10, atol=1e-10)


def test_the_forward_pass_of_the_shipped_weights_matches_torch() -> None:
    torch = pytest.importorskip("torch")
    pytest.importorskip("stable_baselines3")
    from bench.longcat_rl import build_model
    from core.longcat.sdenv import SDEnv

    policy = load_policy(8, 8)
    assert policy is not None
    model = build_model(
        SDEnv(8, 8), filters=tuple(policy.info["filters"]), fc=policy.info["fc"], buffer=100
    )
    q_net = model.policy.q_net
    ext = q_net.features_extractor
    head = [m for m in q_net.q_net if hasattr(m, "weight")]
    modules = dict(
        conv1=ext.conv1,
        conv2=ext.conv2,
        conv3=ext.conv3,
        conv4=ext.conv4,
        fc1=ext.fc1,
        fc2=head[0],
        out=head[1],
    )
    with torch.no_grad():
        for name, module in modules.items():
            module.weight.copy_(torch.as_tensor(policy.weights[f"{name}.weight"]))
            module.bias.copy_(torch.as_tensor(policy.weights[f"{name}.bias"]))
        observations = walk_observations(8, 8, seed=9)
        want = q_net(torch.as_tensor(observations, dtype=torch.float32)).numpy()
    np.testing.assert_allclose(policy.q_values(observations), want, atol=1e-5, rtol=0)


def test_bad_weights_are_refused() -> None:
    good = random_policy(6, 6).weights
    missing = {k: v for k, v in good.items() if k != "fc2.bias"}
    with pytest.raises(PolicyError, match=r"fc2\.bias"):
        Policy.from_arrays(6, 6, missing)
    with pytest.raises(PolicyError):
        Policy.from_arrays(8, 8, good)  # a 6x6 network on the 8x8 view
    with pytest.raises(PolicyError):
        random_policy(6, 6).q_values(np.zeros(observation_shape(8, 8)))


def test_temperature_zero_is_greedy_among_the_valid_directions() -> None:
    rng = random.Random(0)
    q = np.array([5.0, 1.0, 3.0, 3.0])
    assert choose(q, [0, 1, 2, 3], 0.0, rng) == 0
    assert choose(q, [1, 2, 3], 0.0, rng) == 2  # first of a tie
    assert choose(q, [1], 0.0, rng) == 1
    # The greedy walk picks the argmax of the network at every step with a choice.
    policy = load_policy(8, 8)
    assert policy is not None
    for seed in range(5):
        level, _ = policy_walk(policy, random.Random(seed), 0.0)
        rng = random.Random(seed)
        walk = SDWalk(8, 8, (rng.randrange(8), rng.randrange(8)))
        while not walk.done:
            valid = walk.valid()
            q = policy.q_values(walk.observation())
            walk.step(max(valid, key=lambda d: (q[d], -d)))
        assert walk.level() == level


def test_temperature_sampling_follows_the_softmax() -> None:
    # T = 0.5 is softmax(Q): Q-values 0 and log 3 give 1/4 and 3/4 (issue 29's scale,
    # softmax(Q * (1 - T) / T); it was softmax(Q / T) before, where this was T = 1).
    q = np.array([0.0, math.log(3.0), 9.0, 9.0])
    assert action_probabilities(q, [0, 1], 0.5) == pytest.approx([0.25, 0.75])
    rng = random.Random(1)
    draws = [choose(q, [0, 1], 0.5, rng) for _ in range(8000)]
    assert draws.count(1) / len(draws) == pytest.approx(0.75, abs=0.02)
    # T = 0.2 is softmax(4 Q): 1 and 81 -> 81/82.
    assert action_probabilities(q, [0, 1], 0.2) == pytest.approx([1 / 82, 81 / 82])
    # Close to 1 is near uniform, close to 0 near greedy.
    draws = [choose(q, [0, 1], 0.99, rng) for _ in range(8000)]
    assert draws.count(1) / len(draws) == pytest.approx(0.5, abs=0.03)
    assert {choose(q, [0, 1], 0.01, rng) for _ in range(200)} == {1}


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.floats(-50, 50), min_size=4, max_size=4),
    st.lists(st.sampled_from(range(4)), min_size=1, max_size=4, unique=True),
)
def test_temperature_one_is_uniform_whatever_the_network_says(
    values: list[float], valid: list[int]
) -> None:
    # Seed 003: "Temperature = 1.0: completely random (the same as the random generator)".
    # SD-random picks uniformly among the valid directions (rng.choice): 1/k each.
    q = np.array(values)
    assert action_probabilities(q, valid, 1.0) == [1 / len(valid)] * len(valid)
    assert sum(action_probabilities(q, valid, 0.3)) == pytest.approx(1.0)


def test_temperature_one_samples_as_the_random_generator_on_a_fixed_state() -> None:
    # A fixed state of an 8x8 walk: start (3, 3), one step right; the head (4, 3) can go up,
    # down or right (left is body). The network prefers one of them strongly.
    policy = load_policy(8, 8)
    assert policy is not None
    walk = SDWalk(8, 8, (3, 3))
    walk.step(3)
    valid = walk.valid()
    assert sorted(valid) == [0, 1, 3]
    q = policy.q_values(walk.observation())
    assert max(action_probabilities(q, valid, 0.3)) > 0.4  # not uniform below T = 1
    rng = random.Random(29)
    draws = [choose(q, valid, 1.0, rng) for _ in range(9000)]
    for d in valid:  # SD-random's exact probability: 1/3 each
        assert draws.count(d) / len(draws) == pytest.approx(1 / 3, abs=0.02)


def test_the_learned_generator_at_temperature_one_is_sd_random() -> None:
    # Draw for draw: the same random source gives SD-random's level, seed after seed.
    policy = load_policy(8, 8)
    assert policy is not None
    for seed in range(20):
        learned, moves = policy_walk(policy, random.Random(seed), 1.0)
        assert (learned, moves) == solution_down(random.Random(seed), 8, 8)


def test_generation_is_deterministic_per_seed_and_temperature() -> None:
    for temperature in (0.0, 0.3, 1.0):
        levels = [generate("rl", seed, 8, 8, temperature=temperature) for seed in range(6)]
        assert levels == [generate("rl", seed, 8, 8, temperature=temperature) for seed in range(6)]
        assert all(is_solvable(level) is True for level in levels)
    hot = {generate("rl", seed, 8, 8, temperature=1.0) for seed in range(10)}
    assert len(hot) >= 8


def test_without_a_policy_the_method_says_so() -> None:
    from core.longcat import GenerationError

    install_policies(None)
    with pytest.raises(GenerationError, match="no learned generator for 8x8"):
        generate("rl", 1, 8, 8)
    install()
    with pytest.raises(GenerationError, match=r"trained sizes: .*8x8"):
        generate("rl", 1, 9, 9)
    with pytest.raises(GenerationError, match="temperature"):
        generate("rl", 1, 8, 8, temperature=-1.0)


def test_a_tiny_training_run_writes_loadable_weights(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("stable_baselines3")
    pytest.importorskip("matplotlib")
    from bench.longcat_rl import load_weights, main

    out = tmp_path / "run"
    code = main(
        [
            "train",
            "--size",
            "5x5",
            "--episodes",
            "30",
            "--seed",
            "3",
            "--out",
            str(out),
            "--block",
            "10",
            "--eval",
            "5",
            "--learning-starts",
            "64",
            "--filters",
            "4,4,8,8",
            "--fc",
            "16",
        ]
    )
    assert code == 0
    policy = load_weights(out / "weights.npz")
    assert (policy.width, policy.height) == (5, 5) and policy.info["episodes"] == 30
    assert (out / "curve.png").stat().st_size > 1000
    assert len((out / "curve.csv").read_text().splitlines()) == 1 + 3
    level, _ = policy_walk(policy, random.Random(0), 0.3)
    assert is_solvable(level) is True
