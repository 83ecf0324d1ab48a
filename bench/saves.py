"""Resuming a saved game: at the checkpoint (save format 3) against replaying every move (2).

    python bench/saves.py [--quick] [--json]

For games of increasing length (2048 with 100, 1,000 and 5,000 moves; Longcat's largest
bundled level and TermCraft's level with the most fuel, 100 and 1,000 moves each),
one save is written through the one save codec (:func:`core.saves.encode_save`), and then,
in the same run, on the same save text:

* **fast**: what the launcher does now: parse the JSON text, :func:`core.saves.decode_save`,
  :func:`core.saves.resume` (the session starts at the checkpoint state and plays the moves
  from it to the cursor: here the worst case, ``CHECKPOINT_EVERY - 1`` = 31 moves, as when
  the save kept the checkpoint of an earlier save);
* **baseline**: the old way: parse the same text, and replay every move from the level's
  start (:meth:`core.session.Session.from_json`, as format 2 did);

and prints both, the ratio, and what the first undo after a checkpoint resume costs (it
rebuilds the earlier states once: the replay, moved from the resume to the first undo).

Games are seeded random playouts; a game that ends is restarted (a restart is a move, as
``R`` is in the app) until it has the wanted number of moves. Times are the best of
``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from typing import Any

from core import registry
from core.saves import CHECKPOINT_EVERY, decode_save, encode_save, resume
from core.session import Session
from tui.sources import level_to_text


def playout(game: Any, level: Any, moves: int, seed: int) -> Session:
    """A session of ``moves`` random legal moves (restarting when the game ends)."""
    rng = random.Random(seed)
    session = Session.begin(game, game.initial(level))
    made = 0
    while made < moves:
        offered = list(game.moves(session.state))
        if not offered or session.finished:
            session = session.restart()
        else:
            session = session.play(rng.choice(offered))
        made += 1
    return session


def best(work: Callable[[], Any], repeat: int) -> float:
    """The best wall time of ``repeat`` runs of ``work`` (seconds)."""
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        work()
        times.append(time.perf_counter() - began)
    return min(times)


def cases(quick: bool) -> list[tuple[str, str, Any, int]]:
    """``(name, game id, level, moves)`` for every case."""
    from grammar.levels import bundled_packs

    new2048 = registry.get("2048").load("generators")["new"]  # type: ignore[union-attr]
    lengths = (100, 1_000) if quick else (100, 1_000, 5_000)
    out: list[tuple[str, str, Any, int]] = [
        (f"2048 4x4, {n} moves", "2048", new2048.generate(1), n) for n in lengths
    ]
    # Longcat: the largest bundled level; TermCraft: the level with the most fuel (its
    # rewrites are what replaying costs; a game out of fuel restarts).
    longcat = max(
        (level for _, pack in bundled_packs("longcat") for level in pack.levels),
        key=lambda level: level.width * level.height,
    )
    termcraft = max(
        (level for _, pack in bundled_packs("termcraft") for level in pack.levels),
        key=lambda level: (level.fuel, len(str(level.current))),
    )
    for n in (100,) if quick else (100, 1_000):
        out.append((f"Longcat, {n} moves", "longcat", longcat, n))
    for n in (100,) if quick else (100, 1_000):
        out.append((f"TermCraft, {n} moves", "termcraft", termcraft, n))
    return out


def main(argv: list[str] | None = None) -> None:
    """Run the cases and print one line each (``--json``: JSON lines)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter games, fewer repeats")
    parser.add_argument("--json", action="store_true", help="JSON lines")
    parser.add_argument("--repeat", type=int, default=0, help="runs per timing (best kept)")
    args = parser.parse_args(argv)
    repeat = args.repeat or (3 if args.quick else 5)
    for name, game_id, level, moves in cases(args.quick):
        game = registry.get(game_id).load("engine")  # type: ignore[union-attr]
        session = playout(game, level, moves, seed=1)
        # The worst case: the checkpoint CHECKPOINT_EVERY - 1 moves behind the cursor (made by
        # an earlier save and kept), so the resume replays that many moves.
        behind = session
        for _ in range(min(CHECKPOINT_EVERY - 1, session.history.index)):
            behind = behind.undo()
        level_text = level_to_text(game_id, level)
        earlier = encode_save(behind, level_text)
        text = json.dumps(encode_save(session, level_text, earlier))
        start = game.initial(level)

        # Both end as the screen's first frame does: the current state and the header's move
        # count (which walks the played line).
        def fast(
            text: str = text, game: Any = game, start: Any = start, game_id: str = game_id
        ) -> Session:
            resumed = resume(game, start, decode_save(json.loads(text), game_id))
            assert resumed.from_checkpoint and resumed.session.moves_made >= 0
            return resumed.session

        def baseline(text: str = text, game: Any = game, start: Any = start) -> Session:
            played = json.loads(text)["session"]
            session = Session.from_json(game, start, played)[0]
            assert session.moves_made >= 0
            return session

        assert fast().state == baseline().state == session.state
        fast_s, base_s = best(fast, repeat), best(baseline, repeat)

        def undo(fast: Callable[[], Session] = fast) -> Any:
            return fast().undo().state

        undo_s = best(undo, repeat) - fast_s
        row = {
            "case": name,
            "fast": fast_s,
            "baseline": base_s,
            "ratio": base_s / fast_s,
            "first_undo": max(undo_s, 0.0),
            "save_bytes": len(text),
        }
        if args.json:
            print(json.dumps(row))
        else:
            print(
                f"{name:24}  fast={fast_s:.6f}  baseline={base_s:.6f}  "
                f"ratio={row['ratio']:.1f}x  first_undo={row['first_undo']:.6f}  "
                f"save={len(text):,} bytes"
            )


if __name__ == "__main__":
    main()
