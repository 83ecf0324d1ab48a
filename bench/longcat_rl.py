"""SD-PCGRL training: a DQN learns to act as the Solution-Down generator (seed 003, "PCGRL").

    python bench/longcat_rl.py train --size 8x8 --episodes N --seed S [--out DIR] [--ship]
    python bench/longcat_rl.py evaluate WEIGHTS.npz [--count N]

Needs the ``rl`` extra (``pip install -e '.[rl]'``: torch, stable-baselines3, gymnasium,
matplotlib); playing the learned generator does not (it runs ``core.longcat.policy``).

Training: stable-baselines3's DQN on :class:`core.longcat.sdenv.SDEnv`, with the seed's
network as a custom features extractor (conv, conv, max-pool, conv, conv, max-pool, fc) and
SB3's Q head as the seed's second fc and 4 outputs, and the seed's hyper-parameters:
learning rate 0.0007, discount 0.9, epsilon 1.0 -> 0.0 linearly over the episodes, replay
buffer 600, mini-batch 64, target network synchronised every 10 episodes (a callback; SB3
counts its own interval in steps). Every option can be changed from the command line.

It writes into ``--out`` (default ``bench/out/longcat_rl/<size>-seed<S>``):

* ``curve.csv`` and ``curve.png``: the learning curve, per block of episodes: mean
  predicted difficulty of the episodes' levels, share of non-trivial levels (>= 20), share of
  very hard ones (80-200), epsilon and episodes per second;
* ``weights.npz``: the Q-network as numpy arrays (see :mod:`core.longcat.policy`) with the
  run's settings under ``info`` (JSON text);
* ``summary.json``: settings, wall time, episodes per second, and the evaluation of the
  trained policy at several temperatures (fixed seeds).

``--ship`` copies the weights to ``levels/longcat/rl/sdpcgrl-<size>.npz``, the file the
game loads (:mod:`tui.games.longcat.weights`).
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

from core.longcat.catalog import parse_size  # noqa: E402
from core.longcat.difficulty import predict_difficulty  # noqa: E402
from core.longcat.graph import analyse  # noqa: E402
from core.longcat.policy import Policy, policy_walk  # noqa: E402
from tui.games.longcat.weights import read_policy  # noqa: E402

SEED_RECIPE: dict[str, Any] = {
    "learning_rate": 0.0007,
    "gamma": 0.9,
    "buffer_size": 600,
    "batch_size": 64,
    "target_sync_episodes": 10,
    "eps_start": 1.0,
    "eps_end": 0.0,
}
"""The seed's hyper-parameters."""

TEMPERATURES = (1.0, 0.5, 0.3, 0.2, 0.0)
"""The temperatures of the evaluation (and of the benchmark table)."""


def seed_network(filters: tuple[int, ...], fc: int) -> Any:
    """The seed's conv stack + first fc as an SB3 features extractor class."""
    import torch
    from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
    from torch import nn

    class SeedCNN(BaseFeaturesExtractor):
        """conv, conv, max-pool, conv, conv, max-pool, fc (ReLU after each)."""

        def __init__(self, observation_space: Any) -> None:
            super().__init__(observation_space, features_dim=fc)
            c, h, w = observation_space.shape
            f1, f2, f3, f4 = filters
            self.conv1 = nn.Conv2d(c, f1, 3, padding=1)
            self.conv2 = nn.Conv2d(f1, f2, 3, padding=1)
            self.conv3 = nn.Conv2d(f2, f3, 3, padding=1)
            self.conv4 = nn.Conv2d(f3, f4, 3, padding=1)
            self.pool = nn.MaxPool2d(2)
            self.fc1 = nn.Linear(f4 * (h // 2 // 2) * (w // 2 // 2), fc)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            relu = torch.relu
            x = self.pool(relu(self.conv2(relu(self.conv1(x)))))
            x = self.pool(relu(self.conv4(relu(self.conv3(x)))))
            return relu(self.fc1(torch.flatten(x, 1)))

    return SeedCNN


def build_model(
    env: Any,
    *,
    seed: int = 0,
    lr: float = SEED_RECIPE["learning_rate"],
    gamma: float = SEED_RECIPE["gamma"],
    buffer: int = SEED_RECIPE["buffer_size"],
    batch: int = SEED_RECIPE["batch_size"],
    learning_starts: int = 200,
    train_freq: int = 4,
    filters: tuple[int, ...] = (16, 32, 32, 64),
    fc: int = 128,
    double: bool = False,
) -> Any:
    """An SB3 DQN with the seed's network on ``env`` (the target network is synchronised by
    :func:`train`'s callback every few episodes, so SB3's own step-counted interval is set
    beyond reach). ``double``: Double DQN (:func:`double_dqn_class`)."""
    from stable_baselines3 import DQN

    assert len(filters) == 4, "four convolutions"
    return (double_dqn_class() if double else DQN)(
        "MlpPolicy",
        env,
        learning_rate=lr,
        gamma=gamma,
        buffer_size=buffer,
        batch_size=batch,
        learning_starts=learning_starts,
        train_freq=train_freq,
        gradient_steps=1,
        target_update_interval=10**12,
        exploration_initial_eps=SEED_RECIPE["eps_start"],
        exploration_final_eps=SEED_RECIPE["eps_end"],
        policy_kwargs=dict(
            features_extractor_class=seed_network(tuple(filters), fc),
            net_arch=[fc],
            normalize_images=False,
        ),
        seed=seed,
        device="cpu",
        verbose=0,
    )


def double_dqn_class() -> Any:
    """SB3's DQN with the Double DQN target (van Hasselt et al. 2016): the online network
    picks the next action, the target network values it (SB3 itself has no such option)."""
    import torch
    import torch.nn.functional as F
    from stable_baselines3 import DQN

    class DoubleDQN(DQN):
        def train(self, gradient_steps: int, batch_size: int = 100) -> None:
            self.policy.set_training_mode(True)
            self._update_learning_rate(self.policy.optimizer)
            losses = []
            assert self.replay_buffer is not None
            for _ in range(gradient_steps):
                data = self.replay_buffer.sample(batch_size, env=self._vec_normalize_env)
                with torch.no_grad():
                    best = self.q_net(data.next_observations).argmax(dim=1, keepdim=True)
                    next_q = torch.gather(self.q_net_target(data.next_observations), 1, best)
                    target = data.rewards + (1 - data.dones) * self.gamma * next_q
                current = torch.gather(self.q_net(data.observations), 1, data.actions.long())
                loss = F.smooth_l1_loss(current, target)
                losses.append(loss.item())
                self.policy.optimizer.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(self.policy.parameters(), self.max_grad_norm)
                self.policy.optimizer.step()
            self._n_updates += gradient_steps
            self.logger.record("train/n_updates", self._n_updates, exclude="tensorboard")
            self.logger.record("train/loss", np.mean(losses))

    return DoubleDQN


def export_weights(model: Any) -> dict[str, np.ndarray]:
    """The online Q-network of an SB3 DQN as the arrays of :mod:`core.longcat.policy`."""
    q_net = model.policy.q_net
    ext = q_net.features_extractor
    head = [m for m in q_net.q_net if hasattr(m, "weight")]
    layers = {
        "conv1": ext.conv1,
        "conv2": ext.conv2,
        "conv3": ext.conv3,
        "conv4": ext.conv4,
        "fc1": ext.fc1,
        "fc2": head[0],
        "out": head[1],
    }
    out = {}
    for name, module in layers.items():
        out[f"{name}.weight"] = module.weight.detach().cpu().numpy().astype(np.float32)
        out[f"{name}.bias"] = module.bias.detach().cpu().numpy().astype(np.float32)
    return out


def save_weights(path: Path, arrays: dict[str, np.ndarray], info: dict[str, Any]) -> None:
    """Write the arrays and ``info`` (as JSON text) to an ``.npz`` file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    content: dict[str, Any] = {"info": np.array(json.dumps(info, sort_keys=True)), **arrays}
    np.savez_compressed(path, **content)


def evaluate(policy: Policy, count: int, temperatures=TEMPERATURES) -> dict[str, dict]:
    """The learned generator at each temperature, seeds 0..count-1: mean predicted
    difficulty, % non-trivial, % very hard (80-200), % duplicates."""
    rows = {}
    for t in temperatures:
        diffs, keys = [], set()
        for seed in range(count):
            level, _ = policy_walk(policy, random.Random(seed), t)
            keys.add((level.walls, level.start))
            diffs.append(predict_difficulty(analyse(level)))
        rows[str(t)] = {
            "mean_difficulty": sum(diffs) / count,
            "non_trivial": sum(d >= 20 for d in diffs) / count,
            "very_hard": sum(80 <= d < 200 for d in diffs) / count,
            "duplicates": (count - len(keys)) / count,
        }
    return rows


def train(args: argparse.Namespace) -> int:
    import torch
    from stable_baselines3.common.callbacks import BaseCallback

    from core.longcat.sdenv import SDEnv

    torch.set_num_threads(args.threads)
    width, height = parse_size(args.size)
    out = Path(
        args.out or ROOT / "bench" / "out" / "longcat_rl" / f"{width}x{height}-seed{args.seed}"
    )
    out.mkdir(parents=True, exist_ok=True)
    filters = tuple(int(v) for v in args.filters.split(","))
    env = SDEnv(width, height, reward=args.reward, scale=args.scale)
    episodes = args.episodes
    block = args.block or max(1, episodes // 50)
    sync = args.target_sync
    model = build_model(
        env,
        seed=args.seed,
        lr=args.lr,
        gamma=args.gamma,
        buffer=args.buffer,
        batch=args.batch,
        learning_starts=args.learning_starts,
        train_freq=args.train_freq,
        filters=filters,
        fc=args.fc,
        double=args.double,
    )
    done_episodes = [0]
    # Epsilon falls linearly with the episodes (not SB3's steps): 1.0 at the first, 0.0 at
    # the last.
    model.exploration_schedule = lambda _progress: max(0.0, 1.0 - done_episodes[0] / episodes)
    rows: list[dict[str, Any]] = []
    started = time.perf_counter()

    class Curve(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            self.diffs: list[float] = []
            self.block_start = time.perf_counter()

        def _on_step(self) -> bool:
            for done, info in zip(self.locals["dones"], self.locals["infos"]):
                if not done:
                    continue
                done_episodes[0] += 1
                self.diffs.append(info["difficulty"])
                if done_episodes[0] % sync == 0:
                    model.q_net_target.load_state_dict(model.q_net.state_dict())
                if len(self.diffs) == block:
                    now = time.perf_counter()
                    d = self.diffs
                    rows.append(
                        {
                            "episodes": done_episodes[0],
                            "steps": self.num_timesteps,
                            "mean_difficulty": round(sum(d) / len(d), 3),
                            "non_trivial": round(sum(v >= 20 for v in d) / len(d), 4),
                            "very_hard": round(sum(80 <= v < 200 for v in d) / len(d), 4),
                            "epsilon": round(model.exploration_rate, 4),
                            "episodes_per_s": round(len(d) / (now - self.block_start), 2),
                            "elapsed_s": round(now - started, 1),
                        }
                    )
                    r = rows[-1]
                    print(
                        f"ep {r['episodes']:>7} steps {r['steps']:>8} eps {r['epsilon']:.3f} "
                        f"mean diff {r['mean_difficulty']:7.2f} non-triv {r['non_trivial']:.3f} "
                        f"very hard {r['very_hard']:.3f} ({r['episodes_per_s']:.1f} ep/s, "
                        f"{r['elapsed_s']:.0f}s)",
                        flush=True,
                    )
                    self.diffs = []
                    self.block_start = now
            over = args.max_minutes and time.perf_counter() - started > 60 * args.max_minutes
            return done_episodes[0] < episodes and not over

    model.learn(total_timesteps=episodes * width * height, callback=Curve())
    wall = time.perf_counter() - started
    settings = {
        "size": args.size,
        "width": width,
        "height": height,
        "episodes": done_episodes[0],
        "episodes_planned": episodes,
        "seed": args.seed,
        "reward": args.reward,
        "scale": args.scale,
        "learning_rate": args.lr,
        "gamma": args.gamma,
        "buffer_size": args.buffer,
        "batch_size": args.batch,
        "learning_starts": args.learning_starts,
        "train_freq": args.train_freq,
        "target_sync_episodes": sync,
        "filters": list(filters),
        "fc": args.fc,
        "threads": args.threads,
        "trainer": "stable-baselines3 DQN" + (" (Double DQN target)" if args.double else ""),
        "double": args.double,
        "wall_s": round(wall, 1),
        "episodes_per_s": round(done_episodes[0] / wall, 2),
        "steps": int(model.num_timesteps),
    }
    arrays = export_weights(model)
    weights = out / "weights.npz"
    save_weights(weights, arrays, settings)
    with (out / "curve.csv").open("w", newline="", encoding="utf-8") as f:
        if rows:
            writer = csv.DictWriter(f, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
    plot_curve(rows, out / "curve.png", settings)
    print(
        f"trained {done_episodes[0]} episodes ({model.num_timesteps} steps) in {wall:.0f}s: "
        f"{done_episodes[0] / wall:.1f} episodes/s on {args.threads} thread(s)"
    )
    policy = read_policy(weights)
    evaluation = evaluate(policy, args.eval) if args.eval else {}
    for t, r in evaluation.items():
        print(
            f"  T={t:>4}: mean diff {r['mean_difficulty']:6.2f}  non-trivial "
            f"{100 * r['non_trivial']:5.1f}%  very hard {100 * r['very_hard']:5.1f}%  "
            f"duplicates {100 * r['duplicates']:5.1f}%"
        )
    summary = {"settings": settings, "evaluation": evaluation, "curve": rows}
    (out / "summary.json").write_text(json.dumps(summary, indent=1), encoding="utf-8")
    if args.ship:
        target = ROOT / "levels" / "longcat" / "rl" / f"sdpcgrl-{width}x{height}.npz"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(weights, target)
        print(f"shipped {target.relative_to(ROOT)}")
    print(f"wrote {out}")
    return 0


def plot_curve(rows: list[dict[str, Any]], path: Path, settings: dict[str, Any]) -> None:
    """The learning curve as a PNG (matplotlib, headless)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, left = plt.subplots(figsize=(8, 4.5))
    x = [r["episodes"] for r in rows]
    left.plot(x, [r["mean_difficulty"] for r in rows], color="tab:blue", label="mean difficulty")
    left.set_xlabel("episodes")
    left.set_ylabel("mean predicted difficulty", color="tab:blue")
    right = left.twinx()
    right.plot(x, [r["non_trivial"] for r in rows], color="tab:orange", label="non-trivial")
    right.plot(x, [r["very_hard"] for r in rows], color="tab:red", label="very hard")
    right.plot(x, [r["epsilon"] for r in rows], color="grey", linestyle=":", label="epsilon")
    right.set_ylabel("share of episodes / epsilon")
    right.set_ylim(0, 1)
    fig.legend(loc="upper left", bbox_to_anchor=(0.1, 0.88), fontsize="small")
    left.set_title(
        f"SD-PCGRL {settings['size']}, seed {settings['seed']}, reward {settings['reward']}, "
        f"buffer {settings['buffer_size']}, lr {settings['learning_rate']:g}"
    )
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("train", help="train a policy")
    t.add_argument("--size", default="8x8", help="WIDTHxHEIGHT (default 8x8)")
    t.add_argument("--episodes", type=int, default=20_000)
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--out", type=Path, help="output folder")
    t.add_argument("--ship", action="store_true", help="copy the weights into levels/longcat/rl/")
    t.add_argument("--threads", type=int, default=1, help="torch threads (default 1)")
    t.add_argument("--reward", default="incremental", choices=("incremental", "final"))
    t.add_argument("--scale", type=float, default=10.0, help="difficulty units per reward unit")
    t.add_argument("--lr", type=float, default=SEED_RECIPE["learning_rate"])
    t.add_argument("--gamma", type=float, default=SEED_RECIPE["gamma"])
    t.add_argument("--buffer", type=int, default=SEED_RECIPE["buffer_size"])
    t.add_argument("--batch", type=int, default=SEED_RECIPE["batch_size"])
    t.add_argument("--target-sync", type=int, default=SEED_RECIPE["target_sync_episodes"])
    t.add_argument("--learning-starts", type=int, default=200)
    t.add_argument("--train-freq", type=int, default=4, help="env steps per gradient step")
    t.add_argument("--filters", default="16,32,32,64", help="channels of the four convolutions")
    t.add_argument("--fc", type=int, default=128, help="width of the two fc layers")
    t.add_argument("--double", action="store_true", help="Double DQN target (not the seed's)")
    t.add_argument("--block", type=int, help="episodes per curve point (default episodes/50)")
    t.add_argument("--max-minutes", type=float, help="stop early after this many minutes (a guard)")
    t.add_argument("--eval", type=int, default=300, help="levels per temperature afterwards")
    e = sub.add_parser("evaluate", help="evaluate saved weights at each temperature")
    e.add_argument("weights", type=Path)
    e.add_argument("--count", type=int, default=500)
    args = parser.parse_args(argv)
    if args.command == "train":
        return train(args)
    policy = read_policy(args.weights)
    for t_, r in evaluate(policy, args.count).items():
        print(t_, json.dumps(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
