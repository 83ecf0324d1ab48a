"""Algebrawl's level generators (the registry's ``generators`` mapping): seeded, banded.

Two generators, each a level from a seed and a difficulty band ``(low, high)``:

* ``brawl`` — seed 002's generator (:func:`core.algebrawl.generator.generate`): random
  numbers reduced by a random operator list; the band bounds the *total card score* of the
  operators (the seed's "score the operators, then reject"), and the band also sets how many
  cards are drawn, how many monsters remain and how deep a tree may grow
  (:func:`brawl_config`). Solvable by construction. A draw with a shortcut (a solution with
  fewer cards than the generated one) is drawn again, up to :data:`SHORTCUT_TRIES` times.
* ``24`` — a 24-game hand (:func:`core.algebrawl.generator.generate_hand`) whose predicted
  human solve time in seconds lies in the band (:mod:`core.algebrawl.difficulty`).

Every generated level gets the shortest solution's move count as its par (when the solver
finds it within :data:`PAR_MAX_ENTRIES` table entries, else the generated solution's move
count). Pure: the same seed and band give the same level on every machine.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol

from .ast import Node, postorder
from .cards import ADD, DIV, MUL, SPLIT, SQUARE, SUB
from .generator import Generated, GenerationFailed, GeneratorConfig, generate, generate_hand
from .level import Level
from .par import shortest
from .puzzle import Puzzle
from .values import format_value

__all__ = [
    "BRAWL_BAND",
    "BRAWL_LIMITS",
    "GENERATORS",
    "HAND_BAND",
    "HAND_LIMITS",
    "BrawlGenerator",
    "HandGenerator",
    "brawl_config",
    "check_band",
    "derived_seed",
]

BRAWL_LIMITS = (1, 10)
"""Smallest and largest total card score a brawl band may ask for."""
BRAWL_BAND = (3, 6)
"""Default band of the brawl generator (two or three cards)."""
HAND_LIMITS = (1, 600)
"""Smallest and largest predicted seconds a 24-hand band may ask for."""
HAND_BAND = (5, 20)
"""Default band of the 24 generator (predicted seconds)."""
PAR_MAX_ENTRIES = 50_000
"""Table entries the solver may store to find a generated level's par (a bound on work,
not on time, so the same seed gives the same par on every machine)."""
PAR_BUDGET = 5_000_000
"""Work units (candidate values computed, :mod:`.solver`) the par search may spend beside
:data:`PAR_MAX_ENTRIES`: values computed but not stored (duplicates) cost time too. Far above
what a level needs (the bundled levels' par costs at most 22,000 units; 45 brawl levels
drawn in the bands 3:6, 7:10 and 9:10, at most 157,000, where the entries ran out first), it
only stops a pathological draw; like the entries, it gives the same par on every machine."""


def check_band(low: int, high: int, limits: tuple[int, int], what: str) -> tuple[int, int]:
    """Check a difficulty band.

    Args:
        low: Lower end (inclusive).
        high: Upper end (inclusive).
        limits: The allowed range.
        what: The band's unit, for the message.

    Returns:
        ``(low, high)`` as ints.

    Raises:
        ValueError: When the band is not ``limits[0] <= low <= high <= limits[1]``.
    """
    if (
        isinstance(low, bool)
        or isinstance(high, bool)
        or not isinstance(low, int)
        or not isinstance(high, int)
        or not limits[0] <= low <= high <= limits[1]
    ):
        raise ValueError(
            f"the difficulty band ({what}) must be LOW:HIGH with "
            f"{limits[0]} <= LOW <= HIGH <= {limits[1]}, not {low}:{high}"
        )
    return low, high


MAX_BRAWL_CARDS = 5
"""Most cards a brawl deals for its solution (the solver's par and hints stay fast)."""


def brawl_config(low: int, high: int, ops: int | None = None) -> GeneratorConfig:
    """The seed-002 generator's settings for a band of total card scores.

    Cards score ``+`` 1, ``−`` 2, ``×`` 2, ``÷`` 3 (``square`` 2, ``split`` 2): a band of
    total ``(low, high)`` draws about ``(low + high) / 4`` cards. More cards leave more
    monsters (the seed's ``leaves-full-reduce`` keeps every tree), allow deeper trees, and
    from a band reaching 10 bring the unary cards and a spare card that no solution needs.

    Args:
        low: Smallest total card score.
        high: Largest total card score.
        ops: How many cards to draw (default: from the band, as above).

    Returns:
        The configuration (integer-only, non-negative, no neutral moves such as ``× 1``).
    """
    low, high = check_band(low, high, BRAWL_LIMITS, "total card score")
    if ops is None:
        ops = max(1, min(MAX_BRAWL_CARDS, round((low + high) / 4)))
        ops = max(ops, -(-low // 3))  # enough cards to reach the low end (3 points at most)
    targets = 1 if ops <= 3 else 2
    rich = high >= 10
    cards = (ADD, SUB, MUL, DIV) + ((SQUARE, SPLIT) if rich else ())
    weights = (3.0, 3.0, 3.0, 2.0) + ((1.0, 1.0) if rich else ())
    return GeneratorConfig(
        numbers=ops + targets,
        low=1,
        high=10 if high < 10 else 12,
        cards=cards,
        weights=weights,
        score_range=(low, high),
        ops=ops,
        max_depth=3 if ops <= 4 else 4,
        min_depth=1 if ops <= 2 else 2,
        integer_only=True,
        nonnegative=True,
        max_target=999,
        min_target=1,
        spare_cards=1 if rich else 0,
    )


def _par(puzzle: Puzzle, fallback: int) -> int:
    """The shortest solution's moves; ``fallback`` (the generated solution's moves) when
    the solver needs more than :data:`PAR_MAX_ENTRIES` entries or :data:`PAR_BUDGET` units
    (the hour's time limit only guards against a hang)."""
    found = shortest(puzzle, max_entries=PAR_MAX_ENTRIES, budget=PAR_BUDGET, time_limit=3600.0)
    return found.moves if found.status == "solved" and found.moves is not None else fallback


def _moves(made: Generated) -> int:
    """Moves of the generated solution: every card in its trees, one strike per tree."""
    return sum(1 for tree in made.solution for a in postorder(tree) if isinstance(a, Node)) + len(
        made.solution
    )


SHORTCUT_TRIES = 6
"""Draws the brawl generator makes to find a level without a shortcut."""


def derived_seed(seed: int, attempt: int) -> int:
    """The seed of a brawl level's ``attempt``-th draw (the level's own seed first).

    Args:
        seed: The level's seed.
        attempt: 0, 1, ...

    Returns:
        ``seed`` for attempt 0, else a 63-bit seed derived from both (string seeds are
        hashed by SHA-512 in :class:`random.Random`, the same on every machine).
    """
    if attempt == 0:
        return seed
    return random.Random(f"algebrawl-brawl:{seed}:{attempt}").getrandbits(63)


def _draw_brawl(low: int, high: int, seed: int) -> Generated:
    """One draw of seed 002's generator for a band of total card scores.

    A narrow band may be hard to hit with the usual number of cards: then one card more,
    or one fewer, is drawn (still from the same seed).

    Raises:
        GenerationFailed: When no puzzle was drawn with any of those card counts.
    """
    config = brawl_config(low, high)
    tries = [config.ops] + [
        n for n in (config.ops + 1, config.ops - 1) if 1 <= n <= MAX_BRAWL_CARDS
    ]
    for ops in tries:
        try:
            return generate(brawl_config(low, high, ops), seed)
        except GenerationFailed:
            if ops == tries[-1]:
                raise
    raise AssertionError("unreachable")


@dataclass(frozen=True, slots=True)
class BrawlGenerator:
    """Seed 002's generator, by band of total card score (see the module docstring)."""

    title: str = "Brawl"
    """Shown in the level select."""
    description: str = "random puzzles (seed 002), by card score"
    """One line for the level select."""
    limits: tuple[int, int] = BRAWL_LIMITS
    """The band's allowed range."""
    default_band: tuple[int, int] = BRAWL_BAND
    """The band used when none is given."""
    unit: str = "total card score"
    """What the band measures."""

    def generate(self, seed: int, low: int = BRAWL_BAND[0], high: int = BRAWL_BAND[1]) -> Level:
        """The level of ``seed`` for the band ``(low, high)``.

        Raises:
            ValueError: A bad band; ``GenerationFailed`` (a ValueError) when no puzzle
                was drawn (it does not happen for the bands the limits allow).
        """
        # A level with a shortcut (a solution with fewer cards than the generated one, such
        # as 7 − 5 for the tree (5 + 7) − 10) is easier than its score says: draw again from
        # seeds derived from this one, and keep the first level without one (or the one
        # whose shortest solution is longest).
        best: tuple[Generated, int] | None = None
        for attempt in range(SHORTCUT_TRIES):
            made = _draw_brawl(low, high, derived_seed(seed, attempt))
            moves = _moves(made)
            par = _par(made.puzzle, moves)
            if best is None or par > best[1]:
                best = (made, par)
            if par >= moves:
                break
        assert best is not None
        made, par = best
        puzzle = made.puzzle
        monsters = ", ".join(format_value(t) for t in puzzle.targets)
        return Level(
            f"Brawl {seed} (score {made.score})",
            puzzle,
            par,
            description=f"Generated from seed {seed}, card score {made.score} "
            f"(band {low}-{high}). Strike {monsters}.",
        )


@dataclass(frozen=True, slots=True)
class HandGenerator:
    """24-game hands by predicted human solve time (see the module docstring)."""

    title: str = "24 game"
    """Shown in the level select."""
    description: str = "four numbers to 24, by predicted time"
    """One line for the level select."""
    limits: tuple[int, int] = HAND_LIMITS
    """The band's allowed range."""
    default_band: tuple[int, int] = HAND_BAND
    """The band used when none is given."""
    unit: str = "predicted seconds"
    """What the band measures."""

    def generate(self, seed: int, low: int = HAND_BAND[0], high: int = HAND_BAND[1]) -> Level:
        """The hand of ``seed`` whose predicted solve time lies in ``(low, high)`` seconds.

        Raises:
            ValueError: A bad band, or no hand found in it (``GenerationFailed``).
        """
        low, high = check_band(low, high, HAND_LIMITS, "predicted seconds")
        made = generate_hand((low, high), seed)
        puzzle = made.puzzle
        hand = " ".join(format_value(v) for v in puzzle.numbers)
        seconds = made.predicted_seconds or 0.0
        return Level(
            f"24: {hand}",
            puzzle,
            _par(puzzle, _moves(made)),
            description=f"Use every number once to make 24 (seed {seed}; a person "
            f"needs about {seconds:.0f} s, predicted).",
        )


class LevelGenerator(Protocol):
    """What the screens and the CLI use of a generator: its words, its band and ``generate``."""

    @property
    def title(self) -> str: ...
    @property
    def description(self) -> str: ...
    @property
    def limits(self) -> tuple[int, int]: ...
    @property
    def default_band(self) -> tuple[int, int]: ...
    @property
    def unit(self) -> str: ...
    def generate(self, seed: int, low: int = ..., high: int = ...) -> Level: ...


GENERATORS: dict[str, LevelGenerator] = {"brawl": BrawlGenerator(), "24": HandGenerator()}
"""The generators of Algebrawl (the registry's ``generators`` reference)."""
