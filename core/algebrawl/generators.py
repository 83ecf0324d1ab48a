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
* ``casts`` — seed 002's extra operators dealt (:class:`CastGenerator`): a brawl draw of the
  band, then one ``poison_wizard`` or ``traitor`` card and the number it is cast with, the
  monsters' HP set so that the cast brings them to the drawn trees' values.

Every generated level gets the shortest solution's move count as its par when the solver
proves it within :data:`PAR_MAX_ENTRIES` entries and :data:`PAR_BUDGET` units; otherwise it
has no par (a par nobody proved is never shown). Pure: the same seed and band give the same
level on every machine. ``generate(..., watch=)`` bounds one level's generation: each draw
costs a unit, each par search what it spent (its own bounds stay those above, so the level
does not depend on the watch; a watch that runs out raises :class:`core.search.Interrupted`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Protocol

from core.search import Interrupted, Watch

from .ast import Node, postorder
from .cards import ADD, DIV, MUL, POISON_WIZARD, SPLIT, SQUARE, SUB, TRAITOR
from .generator import Generated, GenerationFailed, GeneratorConfig, generate, generate_hand
from .level import Level
from .par import shortest
from .puzzle import Puzzle
from .values import format_value

__all__ = [
    "BRAWL_BAND",
    "BRAWL_LIMITS",
    "CASTS_BAND",
    "CASTS_LIMITS",
    "GENERATORS",
    "HAND_BAND",
    "HAND_LIMITS",
    "BrawlGenerator",
    "CastGenerator",
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


def _par(puzzle: Puzzle, watch: Watch | None = None) -> int | None:
    """The shortest solution's moves, or None when the solver does not prove it within
    :data:`PAR_MAX_ENTRIES` entries and :data:`PAR_BUDGET` units (no time limit: those
    bounds make it the same on every machine). ``watch`` is charged what the search spent,
    and its deadline and cancel test apply.

    Raises:
        Interrupted: When ``watch`` runs out (its budget, deadline or cancel test).
    """
    outer = watch or Watch()
    inner = Watch(should_stop=outer.should_stop, deadline=outer.deadline, budget=PAR_BUDGET)
    found = shortest(puzzle, max_entries=PAR_MAX_ENTRIES, watch=inner)
    outer.spend(inner.spent)
    if found.reason in ("time limit", "cancelled"):  # the caller's bounds, not the level's
        raise Interrupted("limit" if found.reason == "time limit" else "cancelled")
    return found.moves if found.status == "solved" else None


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

    def generate(
        self,
        seed: int,
        low: int = BRAWL_BAND[0],
        high: int = BRAWL_BAND[1],
        *,
        watch: Watch | None = None,
    ) -> Level:
        """The level of ``seed`` for the band ``(low, high)``.

        Args:
            seed: The seed.
            low: Smallest total card score.
            high: Largest total card score.
            watch: Bounds this level's generation (see the module docstring).

        Raises:
            ValueError: A bad band; ``GenerationFailed`` (a ValueError) when no puzzle
                was drawn (it does not happen for the bands the limits allow).
            Interrupted: When ``watch`` runs out.
        """
        made, par = _brawl_level(low, high, seed, watch or Watch())
        puzzle = made.puzzle
        monsters = ", ".join(format_value(t) for t in puzzle.targets)
        return Level(
            f"Brawl {seed} (score {made.score})",
            puzzle,
            par,
            description=f"Generated from seed {seed}, card score {made.score} "
            f"(band {low}-{high}). Strike {monsters}.",
        )


def _brawl_level(low: int, high: int, seed: int, watch: Watch) -> tuple[Generated, int | None]:
    """A brawl draw without a shortcut when one is found, and its proved par (or None).

    A level with a shortcut (a solution with fewer cards than the generated one, such as
    7 − 5 for the tree (5 + 7) − 10) is easier than its score says: draw again from seeds
    derived from this one, and keep the first level without one (or the one whose shortest
    solution is longest). A draw whose par is not proved counts as having none.
    """
    best: tuple[Generated, int | None, int] | None = None
    for attempt in range(SHORTCUT_TRIES):
        watch.spend(1)
        watch.poll("draw")
        made = _draw_brawl(low, high, derived_seed(seed, attempt))
        moves = _moves(made)
        par = _par(made.puzzle, watch)
        length = moves if par is None else par
        if best is None or length > best[2]:
            best = (made, par, length)
        if length >= moves:
            break
    assert best is not None
    return best[0], best[1]


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

    def generate(
        self,
        seed: int,
        low: int = HAND_BAND[0],
        high: int = HAND_BAND[1],
        *,
        watch: Watch | None = None,
    ) -> Level:
        """The hand of ``seed`` whose predicted solve time lies in ``(low, high)`` seconds.

        Args:
            seed: The seed.
            low: Fewest predicted seconds.
            high: Most predicted seconds.
            watch: Bounds this level's generation (hands drawn, the predictor's and the
                par search's units).

        Raises:
            ValueError: A bad band, or no hand found in it (``GenerationFailed``).
            Interrupted: When ``watch`` runs out.
        """
        low, high = check_band(low, high, HAND_LIMITS, "predicted seconds")
        watch = watch or Watch()
        made = generate_hand((low, high), seed, watch=watch)
        puzzle = made.puzzle
        hand = " ".join(format_value(v) for v in puzzle.numbers)
        seconds = made.predicted_seconds or 0.0
        return Level(
            f"24: {hand}",
            puzzle,
            _par(puzzle, watch),
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
    def generate(
        self, seed: int, low: int = ..., high: int = ..., *, watch: Watch | None = ...
    ) -> Level: ...


CASTS_LIMITS = (1, 6)
"""Smallest and largest card score of the brawl draw under a cast generator's level (the
par search runs over the game's own moves, so the hands stay small)."""
CASTS_BAND = (2, 4)
"""Default band of the cast generator (one or two cards besides the cast card)."""


def _with_poison(made: Generated, dose: int) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
    """Monster HP that a poison wizard of ``dose`` brings to the drawn trees' values.

    A tree's value ``t`` gets a monster of ``t + dose`` HP when that is odd (the wizard
    hits it and leaves ``t``), else ``t`` itself, which must then be even (the wizard
    leaves it alone). An even dose therefore suits every target; an odd dose only even
    ones. The dose is added to the numbers.

    Returns:
        ``(numbers, monsters)``.
    """
    monsters = tuple(t + dose if (t + dose) % 2 == 1 else t for t in made.puzzle.targets)
    return made.puzzle.numbers + (Fraction(dose),), monsters


def _with_traitor(
    made: Generated, rng: random.Random
) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
    """Monster HP and the ally's number for a traitor cast on the first target.

    Either the ally is weaker (a monster of ``t + ally`` HP, wounded down to ``t``) or it is
    stronger and defects (a monster of ``h`` HP for an ally of ``t + h``: the monster dies
    and the ally defects with ``t`` HP); the drawn tree strikes what is left either way.

    Returns:
        ``(numbers, monsters)``.
    """
    targets = list(made.puzzle.targets)
    t = targets[0]
    if rng.random() < 0.5:
        ally = Fraction(rng.randint(1, 9))
        targets[0] = t + ally
    else:
        h = Fraction(rng.randint(1, 9))
        ally, targets[0] = t + h, h
    return made.puzzle.numbers + (ally,), tuple(targets)


@dataclass(frozen=True, slots=True)
class CastGenerator:
    """Seed 002's extra operators dealt: a brawl draw, then a ``poison_wizard`` or a
    ``traitor`` the level needs (see the module docstring and :func:`_with_poison`,
    :func:`_with_traitor`). The band is the brawl draw's card score."""

    title: str = "Poison & traitor"
    """Shown in the level select."""
    description: str = "a brawl with a poison wizard or a traitor ally"
    """One line for the level select."""
    limits: tuple[int, int] = CASTS_LIMITS
    """The band's allowed range."""
    default_band: tuple[int, int] = CASTS_BAND
    """The band used when none is given."""
    unit: str = "total card score"
    """What the band measures (of the cards besides the cast card)."""

    def generate(
        self,
        seed: int,
        low: int = CASTS_BAND[0],
        high: int = CASTS_BAND[1],
        *,
        watch: Watch | None = None,
    ) -> Level:
        """The level of ``seed`` for the band ``(low, high)``.

        Args:
            seed: The seed.
            low: Smallest card score of the brawl draw.
            high: Largest card score of the brawl draw.
            watch: Bounds this level's generation (see the module docstring).

        Raises:
            ValueError: A bad band; ``GenerationFailed`` when no puzzle was drawn.
            Interrupted: When ``watch`` runs out.
        """
        low, high = check_band(low, high, CASTS_LIMITS, "total card score")
        watch = watch or Watch()
        # As for brawls: a draw with a shortcut (a proved par below the planned moves, such
        # as a monster a pool number strikes at once) is drawn again from derived seeds.
        best: tuple[Level, int] | None = None
        for attempt in range(SHORTCUT_TRIES):
            watch.spend(1)
            watch.poll("draw")
            level, planned = _cast_level(low, high, seed, derived_seed(seed, attempt))
            level = replace(level, par=_par(level.puzzle, watch))
            length = planned if level.par is None else level.par
            if best is None or length > best[1]:
                best = (level, length)
            if length >= planned:
                break
        assert best is not None
        return best[0]


def _cast_level(low: int, high: int, seed: int, draw: int) -> tuple[Level, int]:
    """One draw of :class:`CastGenerator` (without its par) and the moves it was planned
    with (the brawl's cards and strikes, and the cast)."""
    made = _draw_brawl(low, high, draw)
    rng = random.Random(f"algebrawl-casts:{draw}")
    poison = rng.random() < 0.5
    if poison:
        even = all(t % 2 == 0 for t in made.puzzle.targets)
        dose = rng.choice((1, 3) if even else (2, 4))  # at least one monster poisoned
        numbers, monsters = _with_poison(made, dose)
        card = POISON_WIZARD
    else:
        numbers, monsters = _with_traitor(made, rng)
        card = TRAITOR
    old = made.puzzle
    puzzle = Puzzle(numbers, monsters, old.cards + (card,), integer_only=old.integer_only)
    shown = ", ".join(format_value(t) for t in monsters)
    level = Level(
        f"{'Poison' if poison else 'Traitor'} {seed} (score {made.score})",
        puzzle,
        None,
        description=f"Generated from seed {seed}, card score {made.score} (band "
        f"{low}-{high}), with a {'poison wizard' if poison else 'traitor ally'}. "
        f"Strike {shown}.",
    )
    return level, _moves(made) + 1


GENERATORS: dict[str, LevelGenerator] = {
    "brawl": BrawlGenerator(),
    "24": HandGenerator(),
    "casts": CastGenerator(),
}
"""The generators of Algebrawl (the registry's ``generators`` reference)."""
