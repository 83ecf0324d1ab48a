"""SD-PCGRL's environment: the Solution-Down MDP (:mod:`core.longcat.sdmdp`) in Gymnasium's API.

Only the training script (``bench/longcat_rl.py``) and the tests import this module: it needs
``gymnasium`` (the ``rl`` and ``test`` extras). Playing never does; the learned generator
runs :mod:`core.longcat.policy` on the same :class:`~core.longcat.sdmdp.SDWalk`.

* Observation: :meth:`SDWalk.observation`, a ``(5, 2h-1, 2w-1)`` float32 box of 0/1
  (channels :data:`core.longcat.sdmdp.CHANNELS`; 15x15 for 8x8).
* Actions: ``Discrete(4)``, the directions up, down, left, right. An action towards a cell
  that is not empty (wall, body or outside) is remapped to a uniformly random valid
  direction (drawn from the environment's seeded ``np_random``): the seed's SD only picks
  among empty neighbours, and with this rule a uniformly random agent *is* SD-random (the
  seed's temperature 1.0). ``info["remapped"]`` says when it happened.
* Episode: starts with the head on a random cell (or ``options={"start": (x, y)}``) and
  terminates exactly when SD stops: the head has no empty neighbour. Never truncated.
* Reward: from the shipped difficulty predictor
  (:func:`core.longcat.difficulty.predict_difficulty`) on the level SD would make if it
  stopped now (:meth:`SDWalk.level`). ``reward="incremental"`` (default) pays the change of
  that difficulty at every step, ``(D_t - D_{t-1}) / scale``: a step that raises the
  difficulty is rewarded, one that lowers it penalised, and the undiscounted return is the
  final level's difficulty minus the one-cell level's. ``reward="final"`` pays
  ``D_final / scale`` once, at the last step. The incremental form suits the seed's discount
  of 0.9: a 20-step episode would discount a final-only reward to ~0.12 at the first step.
  The difficulty is clipped to ``[-inf, clip]`` (default 400) so that a rare extreme level
  does not swamp the value targets.
* ``info`` at the end: ``difficulty`` (unclipped predicted difficulty of the final level),
  ``level`` (the :class:`~core.longcat.level.Level`) and ``moves``.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from core.longcat.difficulty import predict_difficulty
from core.longcat.graph import AnalysisLimit, analyse
from core.longcat.level import Level
from core.longcat.sdmdp import SDWalk, observation_shape

__all__ = ["REWARDS", "SDEnv", "level_difficulty"]

REWARDS: tuple[str, ...] = ("incremental", "final")
"""The reward shapes :class:`SDEnv` offers."""


def level_difficulty(level: Level, max_states: int = 200_000) -> float:
    """Predicted difficulty of a level (``nan`` when its state graph exceeds ``max_states``)."""
    try:
        return predict_difficulty(analyse(level, max_states=max_states))
    except AnalysisLimit:
        return float("nan")


class SDEnv(gym.Env):
    """The Solution-Down MDP (see the module docstring).

    Args:
        width: Columns (2 to 16).
        height: Rows (2 to 16).
        reward: ``"incremental"`` or ``"final"``.
        scale: Rewards are difficulties divided by this.
        clip: Largest difficulty a reward counts.
        render_mode: ``None`` or ``"ansi"`` (the level in progress as text).
    """

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 (gymnasium's class attribute)

    def __init__(
        self,
        width: int = 8,
        height: int = 8,
        *,
        reward: str = "incremental",
        scale: float = 10.0,
        clip: float = 400.0,
        render_mode: str | None = None,
    ) -> None:
        if not (2 <= width <= 16 and 2 <= height <= 16):
            raise ValueError(f"size must be 2x2 to 16x16, not {width}x{height}")
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.width, self.height = width, height
        self.reward_kind = reward
        self.scale = float(scale)
        self.clip = float(clip)
        self.render_mode = render_mode
        self.observation_space = spaces.Box(
            0.0, 1.0, shape=observation_shape(width, height), dtype=np.float32
        )
        self.action_space = spaces.Discrete(4)
        self.walk: SDWalk | None = None
        self._potential = 0.0

    def _difficulty(self) -> float:
        assert self.walk is not None
        value = level_difficulty(self.walk.level())
        return self.clip if np.isnan(value) else min(value, self.clip)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        start = (options or {}).get("start")
        if start is None:
            start = (
                int(self.np_random.integers(self.width)),
                int(self.np_random.integers(self.height)),
            )
        self.walk = SDWalk(self.width, self.height, tuple(start))
        self._potential = self._difficulty() if self.reward_kind == "incremental" else 0.0
        return self.walk.observation(), {"valid": self.walk.valid_mask()}

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        walk = self.walk
        if walk is None or walk.done:
            raise RuntimeError("step() after the episode ended: call reset()")
        a = int(action)
        if not 0 <= a < 4:
            raise ValueError(f"action must be 0 to 3, not {action!r}")
        valid = walk.valid()
        remapped = a not in valid
        if remapped:
            a = valid[int(self.np_random.integers(len(valid)))]
        walk.step(a)
        done = walk.done
        info: dict[str, Any] = {"action": a, "remapped": remapped, "valid": walk.valid_mask()}
        if self.reward_kind == "incremental":
            potential = self._difficulty()
            reward = (potential - self._potential) / self.scale
            self._potential = potential
        else:
            reward = self._difficulty() / self.scale if done else 0.0
        if done:
            level = walk.level()
            info.update(difficulty=level_difficulty(level), level=level, moves=tuple(walk.moves))
        return walk.observation(), float(reward), done, False, info

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.walk is None:
            return None
        walk = self.walk
        rows = []
        for y in range(walk.height):
            row = ""
            for x in range(walk.width):
                cell = walk.cells[y * walk.width + x]
                row += "H" if (x, y) == walk.head else ".#o"[cell]
            rows.append(row)
        return "\n".join(rows)
