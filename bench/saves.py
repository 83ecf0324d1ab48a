"""Resuming a saved game from its checkpoint (save format 3) against replaying every move (2).

    python bench/saves.py [--quick] [--huge] [--json] [--repeat N]

For games of increasing length (2048 with 100, 1,000 and 5,000 moves; Longcat's largest
bundled level and TermCraft's level with the most fuel, 100 and 1,000 moves each; with
``--huge``, 20 moves on a 100,000-node TermCraft position), the save is written through the
one save codec (:func:`core.saves.encode_save`), and then, in the same run, on the same save:

* **left**: the launcher now, on the save made when the player left the level (checkpoint at
  the cursor): parse the JSON text, :func:`core.saves.decode_save`, :func:`core.saves.resume`;
* **quit**: the same on the worst save made after a move (the player quit from inside the
  level): its checkpoint is ``CHECKPOINT_EVERY - 1`` = 15 moves behind the cursor, which the
  resume plays;
* **baseline**: the old way, on the same text: parse it and replay every move from the
  level's start (:meth:`core.session.Session.from_json`, as format 2 did).

All three end as the screen's first frame does (the current state, and the header's move count,
which walks the played line). Printed: the three times, baseline/left and baseline/quit, the
first undo past the checkpoint after a "left" resume (it rebuilds the earlier states: the
replay, moved from the resume to the first undo), and what a save costs: ``save`` (a move's
save keeping a checkpoint), ``save+cp`` (one that encodes the state, once per 16 moves and on
leaving), ``save v2`` (format 2: the moves only).

Games are seeded random playouts; a game that ends is restarted (a restart is a move, as
``R`` is in the app) until it has the wanted number of moves. Times are the best of
``--repeat`` runs; the save text is also sent through ``json.dumps``, as the store does.
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


def cases(quick: bool, huge: bool) -> list[tuple[str, str, Any, int]]:
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
    if huge:
        out.append(("TermCraft 100k nodes, 20", "termcraft", huge_termcraft(), 20))
    return out


def huge_termcraft() -> Any:
    """A level whose position has about 100,000 nodes (``bench/termcraft.py``'s generator,
    as ``bench/termcraft_tui.py`` uses), with fuel for every move."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from termcraft import make_state  # bench/termcraft.py

    from core.termcraft.level import Level

    return Level("100k", make_state(100_000, 80), make_state(50, 1, seed=3), 1_000, 50)


def main(argv: list[str] | None = None) -> None:
    """Run the cases and print one line each (``--json``: JSON lines)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter games, fewer repeats")
    parser.add_argument("--huge", action="store_true", help="add a 100k-node TermCraft game")
    parser.add_argument("--json", action="store_true", help="JSON lines")
    parser.add_argument("--repeat", type=int, default=0, help="runs per timing (best kept)")
    args = parser.parse_args(argv)
    repeat = args.repeat or (3 if args.quick else 5)
    for name, game_id, level, moves in cases(args.quick, args.huge):
        game = registry.get(game_id).load("engine")  # type: ignore[union-attr]
        session = playout(game, level, moves, seed=1)
        level_text = level_to_text(game_id, level)
        left = json.dumps(encode_save(session, level_text, fresh=True))
        # The worst save made after a move: it kept the checkpoint of a save 15 moves back.
        behind = session
        for _ in range(min(CHECKPOINT_EVERY - 1, session.history.index)):
            behind = behind.undo()
        earlier = encode_save(behind, level_text, fresh=True)
        quit_ = json.dumps(encode_save(session, level_text, earlier))
        start = game.initial(level)

        def fast(text: str, game: Any = game, start: Any = start, game_id: str = game_id) -> Any:
            resumed = resume(game, start, decode_save(json.loads(text), game_id))
            assert resumed.session.moves_made >= 0
            return resumed.session

        def baseline(text: str = left, game: Any = game, start: Any = start) -> Session:
            played = json.loads(text)["session"]
            session = Session.from_json(game, start, played)[0]
            assert session.moves_made >= 0
            return session

        assert resume(game, start, decode_save(json.loads(left), game_id)).from_checkpoint
        assert fast(left).state == fast(quit_).state == baseline().state == session.state
        previous = json.loads(quit_)

        def resume_left(fast: Callable[[str], Any] = fast, text: str = left) -> Any:
            return fast(text)

        def resume_quit(fast: Callable[[str], Any] = fast, text: str = quit_) -> Any:
            return fast(text)

        def first_undo(fast: Callable[[str], Any] = fast, text: str = left) -> Any:
            return fast(text).undo().state

        def save(s: Session = session, t: str = level_text, p: Any = previous) -> str:
            return json.dumps(encode_save(s, t, p))

        def save_checkpoint(s: Session = session, t: str = level_text) -> str:
            return json.dumps(encode_save(s, t))

        def save_v2(s: Session = session, t: str = level_text) -> str:
            return json.dumps({"level": t, "session": s.to_json()})

        left_s, quit_s = best(resume_left, repeat), best(resume_quit, repeat)
        base_s = best(baseline, repeat)
        undo_s = best(first_undo, repeat) - left_s
        save_s, save_cp_s = best(save, repeat), best(save_checkpoint, repeat)
        save_v2_s = best(save_v2, repeat)
        row: dict[str, Any] = {
            "case": name,
            "left": left_s,
            "quit": quit_s,
            "baseline": base_s,
            "ratio_left": base_s / left_s,
            "ratio_quit": base_s / quit_s,
            "first_undo": max(undo_s, 0.0),
            "save": save_s,
            "save_checkpoint": save_cp_s,
            "save_v2": save_v2_s,
            "save_bytes": len(left),
        }
        if args.json:
            print(json.dumps(row))
        else:
            print(
                f"{name:24}  left={left_s * 1e3:.2f}ms  quit={quit_s * 1e3:.2f}ms  "
                f"baseline={base_s * 1e3:.2f}ms  ratio={row['ratio_left']:.1f}x/"
                f"{row['ratio_quit']:.1f}x  first_undo={row['first_undo'] * 1e3:.2f}ms  "
                f"save={save_s * 1e3:.2f}/{save_cp_s * 1e3:.2f}/{save_v2_s * 1e3:.2f}ms  "
                f"{len(left):,} bytes"
            )


if __name__ == "__main__":
    main()
