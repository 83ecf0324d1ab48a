"""What the generic screen tests play in every registered game, found through the registry.

The Pilot test of every game (``tests/tui/test_every_game.py``) and the terminal tour
(``tests/tui/test_terminal_pty.py``) know no game by name: each game's level comes from its
registration (its bundled packs, else its first generator with a fixed seed), named by its
level ID so that both open it the way a player can (``termarcade play ID``, the ``I`` dialog),
and each move is typed with the keys its screen declares (:meth:`PuzzleScreen.keys_for`).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from core.registry import GameInfo
from tui.sources import LevelRef

__all__ = ["GENERATED_SEEDS", "LEVELS_TRIED", "ROOM", "candidate_levels", "choose", "level_to_play"]

ROOM = 12
"""Moves of the seeded random playout that rates a level: a tutorial level won in one move
tests little, a level where every kind of move is played tests most."""
GENERATED_SEEDS = (1, 2, 3)
"""Seeds of the generated levels tried when a game has no bundled level."""


def candidate_levels(info: GameInfo, extra: Iterable[Any] = ()) -> Iterator[tuple[str, Any]]:
    """The levels a generic test may play, each with its level ID, in the order tried.

    Args:
        info: The game's registration.
        extra: Levels of a game that has neither bundled levels nor a generator (a test's
            own toy); they are named by their custom IDs.

    Yields:
        ``(level ID, level)``: the bundled levels in pack order; else the first generator's
        levels of :data:`GENERATED_SEEDS`; then ``extra``.
    """
    from tui.ids import generated_level_id, level_id, ref_id

    bundled = False
    if info.level_format is not None:
        from grammar.levels import bundled_packs

        for pack_id, pack in bundled_packs(info.id):
            for level in pack.levels:
                found = ref_id(info.id, LevelRef(f"pack:{pack_id}", level.title))
                if found is not None:
                    bundled = True
                    yield found, level
    if not bundled and info.generators is not None:
        name, generator = next(iter(info.load("generators").items()))
        for seed in GENERATED_SEEDS:
            level = generator.generate(seed)
            yield generated_level_id(info.id, name, {}, seed, level), level
    for level in extra:
        yield level_id(info.id, None, level), level


def choose(rng: random.Random, game: Any, state: Any, moves: Sequence[Any]) -> Any:
    """A random move of ``moves``: first a kind of move (its type), then a move of that kind,
    one that does not end the game when there is one.

    Kinds come first so that a rare kind is played too (Algebrawl's strikes among dozens of
    card plays, Carving's finish among path steps); moves that end the game are avoided
    because a game that ends at once tests little (the tests restart an ended game).

    Args:
        rng: The seeded random source.
        game: The engine.
        state: The position.
        moves: Legal moves of ``state`` (not empty).

    Returns:
        The move.
    """
    going = [move for move in moves if not game.finished(game.apply(state, move))]
    going = going or list(moves)
    kind = rng.choice(sorted({type(move).__name__ for move in going}))
    return rng.choice([move for move in going if type(move).__name__ == kind])


LEVELS_TRIED = 25
"""Most candidate levels a game's level is chosen from (their playouts take milliseconds)."""


def _playout(game: Any, level: Any, seed: int) -> tuple[int, int]:
    """How much of the game a seeded random playout of ``level`` shows: ``ROOM`` moves
    chosen as the tests choose them, an ended game restarted as the tests restart it.

    Returns:
        ``(kinds, room)``: how many kinds of move (types) were played, and how many moves
        were played before the game first ended (up to :data:`ROOM`).
    """
    rng = random.Random(seed)
    start = state = game.initial(level)
    kinds: set[str] = set()
    room: int | None = None
    for played in range(ROOM):
        moves = game.moves(state)
        if game.finished(state) or not moves:
            room = played if room is None else room
            state = start
            moves = game.moves(state)
            if not moves:
                break
        move = choose(rng, game, state, moves)
        kinds.add(type(move).__name__)
        state = game.apply(state, move)
    return len(kinds), ROOM if room is None else room


def level_to_play(info: GameInfo, seed: int, extra: Iterable[Any] = ()) -> tuple[str, Any]:
    """The level a generic test plays: of the first :data:`LEVELS_TRIED` candidates, the
    one whose seeded random playout (:func:`_playout`) plays the most kinds of move, then
    lasts longest before the game ends (the first of those).

    Args:
        info: The game's registration.
        seed: The seed of the test's move choices.
        extra: Levels for a game with neither bundled levels nor generators.

    Returns:
        ``(level ID, level)``.

    Raises:
        LookupError: When the game has no level at all.
    """
    game = info.load("engine")
    best: tuple[tuple[int, int], str, Any] | None = None
    for found, level in itertools.islice(candidate_levels(info, extra), LEVELS_TRIED):
        score = _playout(game, level, seed)
        if best is None or score > best[0]:
            best = (score, found, level)
    if best is None:
        raise LookupError(f"{info.title} has no level to play")
    return best[1], best[2]
