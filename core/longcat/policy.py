"""The learned generator at play time: SD-PCGRL's Q-network as a numpy forward pass.

The network is the seed's (conv, conv, max-pool, conv, conv, max-pool, fc, fc, 4 outputs;
:data:`LAYERS`): 3x3 convolutions with padding 1 and ReLU, 2x2 max-pools (floor), then two
fully connected ReLU layers and a linear output of one Q-value per direction. Training
(``bench/longcat_rl.py``, PyTorch + stable-baselines3) exports its weights as plain arrays;
here they are run with numpy only, so playing needs no PyTorch. Loading the file is not done
here (core does no I/O): :mod:`tui.games.longcat.weights` reads the bundled file and hands the
arrays to :meth:`Policy.from_arrays`, and :func:`core.longcat.generate.install_policies` tells the
``rl`` generator where to find them.

Temperature sampling (seed 003: "Temperature = 1.0: 完全随机（等同于随机生成器）",
completely random, the same as the random generator; "Temperature = 0.0: 完全确定性",
fully deterministic). ``T`` runs from 0 to 1. Among the valid directions (those with an
empty neighbour, as SD), direction ``d`` is drawn with probability ``softmax(Q * (1 - T) / T)``
(:func:`action_probabilities`): ``T = 0`` is greedy (the valid direction of highest Q, the
first on a tie), ``T = 1`` is uniform over the valid directions, SD-random's own choice; in
between the network's preference weakens as ``T`` grows (``T = 0.5`` is ``softmax(Q)``).
At ``T = 1`` the walk draws exactly as :func:`core.longcat.sdpu.solution_down` does
(``rng.choice`` of the valid directions, the network unused), so the learned generator at
``T = 1`` makes SD-random's level for the same random source.

Before issue 29 the probabilities were ``softmax(Q / T)`` for any ``T`` up to 100: ``T = 1``
was then still the network's preference (24.9% non-trivial 8x8 levels against SD-random's
18.2%), not the seed's random generator.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from core.longcat.level import DIRECTIONS, Level
from core.longcat.sdmdp import SDWalk, observation_shape

__all__ = [
    "CONVS",
    "DENSE",
    "LAYERS",
    "Policy",
    "PolicyError",
    "action_probabilities",
    "choose",
    "policy_walk",
]

CONVS: tuple[str, ...] = ("conv1", "conv2", "conv3", "conv4")
"""The convolutions (a max-pool after the second and the fourth)."""
DENSE: tuple[str, ...] = ("fc1", "fc2", "out")
"""The fully connected layers (ReLU after all but ``out``)."""
LAYERS: tuple[str, ...] = CONVS + DENSE
"""Every layer; a weights mapping holds ``<layer>.weight`` and ``<layer>.bias`` of each."""


class PolicyError(ValueError):
    """Weights that are not a policy of the seed's network, or no policy for a size."""


@dataclass(frozen=True, slots=True)
class Policy:
    """A trained Q-network for one grid size.

    Attributes:
        width: Columns of the levels it makes.
        height: Rows.
        weights: ``<layer>.weight`` / ``<layer>.bias`` arrays (float64, PyTorch layouts:
            convolutions ``(out, in, 3, 3)``, dense ``(out, in)``).
        info: What the training recorded (episodes, seed, recipe...).
    """

    width: int
    """Columns."""
    height: int
    """Rows."""
    weights: Mapping[str, np.ndarray] = field(repr=False)
    """Layer arrays."""
    info: Mapping[str, Any] = field(default_factory=dict)
    """Training notes."""

    @classmethod
    def from_arrays(
        cls, width: int, height: int, arrays: Mapping[str, Any], info: Mapping[str, Any] = {}
    ) -> Policy:
        """Check and convert exported arrays.

        Raises:
            PolicyError: A layer missing, or shapes that do not chain to 4 outputs from the
                ``width`` x ``height`` observation.
        """
        weights: dict[str, np.ndarray] = {}
        for layer in LAYERS:
            for part in ("weight", "bias"):
                key = f"{layer}.{part}"
                if key not in arrays:
                    raise PolicyError(f"the weights have no {key}")
                weights[key] = np.asarray(arrays[key], dtype=np.float64)
        channels, rows, cols = observation_shape(width, height)
        for layer in CONVS:
            w, b = weights[f"{layer}.weight"], weights[f"{layer}.bias"]
            if (
                w.ndim != 4
                or w.shape[1] != channels
                or w.shape[2:] != (3, 3)
                or b.shape != (w.shape[0],)
            ):
                raise PolicyError(f"{layer} has shape {w.shape}, expected (out, {channels}, 3, 3)")
            channels = w.shape[0]
            if layer in ("conv2", "conv4"):
                rows, cols = rows // 2, cols // 2
        size = channels * rows * cols
        for layer in DENSE:
            w, b = weights[f"{layer}.weight"], weights[f"{layer}.bias"]
            if w.ndim != 2 or w.shape[1] != size or b.shape != (w.shape[0],):
                raise PolicyError(f"{layer} has shape {w.shape}, expected (out, {size})")
            size = w.shape[0]
        if size != 4:
            raise PolicyError(f"the network has {size} outputs, not 4")
        return cls(width, height, weights, dict(info))

    def q_values(self, obs: np.ndarray) -> np.ndarray:
        """Q-values of one observation ``(C, H, W)`` -> ``(4,)``, or a batch
        ``(N, C, H, W)`` -> ``(N, 4)``."""
        x = np.asarray(obs, dtype=np.float64)
        single = x.ndim == 3
        if single:
            x = x[None]
        if x.shape[1:] != observation_shape(self.width, self.height):
            raise PolicyError(
                f"observation shape {x.shape[1:]} is not "
                f"{observation_shape(self.width, self.height)}"
            )
        w = self.weights
        for layer in CONVS:
            x = np.maximum(_conv3x3(x, w[f"{layer}.weight"], w[f"{layer}.bias"]), 0.0)
            if layer in ("conv2", "conv4"):
                x = _maxpool2(x)
        x = x.reshape(x.shape[0], -1)
        for layer in DENSE:
            x = x @ w[f"{layer}.weight"].T + w[f"{layer}.bias"]
            if layer != "out":
                x = np.maximum(x, 0.0)
        return x[0] if single else x


def _conv3x3(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """A 3x3 convolution, stride 1, zero padding 1 (PyTorch's cross-correlation)."""
    n, c, h, w = x.shape
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    windows = np.lib.stride_tricks.sliding_window_view(padded, (3, 3), axis=(2, 3))
    cols = windows.transpose(0, 2, 3, 1, 4, 5).reshape(n * h * w, c * 9)
    out = cols @ weight.reshape(weight.shape[0], -1).T + bias
    return out.reshape(n, h, w, -1).transpose(0, 3, 1, 2)


def _maxpool2(x: np.ndarray) -> np.ndarray:
    """2x2 max-pool, stride 2, odd edges dropped (PyTorch's default floor mode)."""
    n, c, h, w = x.shape
    h2, w2 = h // 2, w // 2
    return x[:, :, : 2 * h2, : 2 * w2].reshape(n, c, h2, 2, w2, 2).max(axis=(3, 5))


def action_probabilities(q: np.ndarray, valid: list[int], temperature: float) -> list[float]:
    """The probability of each valid direction at a temperature (see the module docstring).

    Args:
        q: The four Q-values.
        valid: The allowed directions (non-empty).
        temperature: From 0 (greedy: all on the first valid direction of highest Q) to 1
            (uniform over ``valid``, as SD-random); in between ``softmax(Q * (1 - T) / T)``.

    Returns:
        ``probabilities[i]`` of ``valid[i]`` (they sum to 1).
    """
    values = [float(q[d]) for d in valid]
    if temperature >= 1.0:
        return [1.0 / len(valid)] * len(valid)
    if temperature <= 0:
        best = values.index(max(values))
        return [1.0 if i == best else 0.0 for i in range(len(valid))]
    # The inverse softmax temperature falls from +inf at T = 0 to 0 (uniform) at T = 1.
    sharpness = (1.0 - temperature) / temperature
    top = max(values)
    weights = [math.exp((v - top) * sharpness) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


def choose(q: np.ndarray, valid: list[int], temperature: float, rng: random.Random) -> int:
    """Pick a direction among ``valid`` by temperature sampling of ``q``.

    Args:
        q: The four Q-values.
        valid: The allowed directions (non-empty).
        temperature: 0 to 1 (:func:`action_probabilities`).
        rng: Draws the sample: ``rng.choice(valid)`` at ``T >= 1`` (SD-random's own draw),
            one ``rng.random()`` for ``0 < T < 1``, nothing when greedy.

    Returns:
        The direction.
    """
    if temperature >= 1.0:
        return rng.choice(valid)
    probabilities = action_probabilities(q, valid, temperature)
    if temperature <= 0:
        return valid[probabilities.index(1.0)]
    u = rng.random()
    for d, p in zip(valid, probabilities):
        u -= p
        if u < 0:
            return d
    return valid[-1]


def policy_walk(
    policy: Policy, rng: random.Random, temperature: float
) -> tuple[Level, tuple[str, ...]]:
    """One level made by the learned generator: SD with the policy choosing each step.

    The start is drawn as :func:`core.longcat.sdpu.solution_down` draws it
    (``rng.randrange(width)``, then ``rng.randrange(height)``).

    Args:
        policy: The trained network.
        rng: The random source.
        temperature: See :func:`choose`; at 1 the network is not run and every step is
            drawn as SD-random draws it, so the level is SD-random's.

    Returns:
        The level and the moves that solve it (one per straight run).
    """
    width, height = policy.width, policy.height
    walk = SDWalk(width, height, (rng.randrange(width), rng.randrange(height)))
    while True:
        valid = walk.valid()
        if not valid:
            break
        if temperature >= 1.0:
            walk.step(rng.choice(valid))  # SD-random's draw, even with one valid direction
            continue
        q = policy.q_values(walk.observation()) if len(valid) > 1 else None
        walk.step(valid[0] if q is None else choose(q, valid, temperature, rng))
    moves: list[str] = []
    previous = -1
    for d in walk.moves:
        if d != previous:
            moves.append(DIRECTIONS[d])
            previous = d
    return walk.level(), tuple(moves)
