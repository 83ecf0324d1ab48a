"""2048's seeded pseudo-random number generator: the LCG that seed 004 specifies.

termarcade never uses global randomness: every random choice is drawn from an explicit seed
that the caller carries in its (immutable) state, so a game is replayable from its seed and
its moves. The other games draw from ``random.Random(seed)``; 2048 keeps the seed's own
generator, the linear congruential generator (LCG) of seed 004, so that its games are the
seed's games:

    next_seed = (A * seed + C) mod M,    value = next_seed / M

with ``A = 1664525``, ``C = 1013904223`` and ``M = 2**32`` (the "Numerical Recipes" constants,
full period 2**32 because C is odd and A - 1 is divisible by 4). The state is an integer in
``[0, 2**32)`` and ``value`` lies in ``[0, 1)``. The value is taken from the *whole* new state,
so ``floor(value * n)`` depends on its high bits, which are the good ones in an LCG (the low
bits of a power-of-two LCG have short periods).

All functions here are pure: they take a seed and return what they drew together with the
seed to use next.
"""

from __future__ import annotations

LCG_A = 1664525
"""Multiplier of the LCG."""
LCG_C = 1013904223
"""Increment of the LCG."""
LCG_M = 2**32
"""Modulus of the LCG; seeds live in ``[0, LCG_M)``."""

_MASK = LCG_M - 1

SEED_MAX = LCG_M - 1
"""The largest seed, 2**32 - 1; the smallest is 0."""


def check_seed(seed: int) -> int:
    """Accept a seed only if it is already in the generator's range ``[0, 2**32)``.

    :func:`normalize_seed` reduces any integer silently, which suits the engine's own
    arithmetic; a seed typed by a person is checked with this function instead, so that
    ``-1`` or ``2**32`` is refused rather than quietly turned into another seed.

    Args:
        seed: The seed.

    Returns:
        ``seed`` unchanged.

    Raises:
        TypeError: If ``seed`` is not an integer (``bool`` is refused too).
        ValueError: If it lies outside ``[0, 2**32)``; the message gives the range.
    """
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"a seed must be an integer, not {type(seed).__name__}")
    if not 0 <= seed <= SEED_MAX:
        raise ValueError(f"a seed is a whole number from 0 to {SEED_MAX} (32 bits), not {seed}")
    return seed


def normalize_seed(seed: int) -> int:
    """Bring any integer into the seed range ``[0, 2**32)``.

    Args:
        seed: Any integer (negative and huge values are reduced modulo 2**32).

    Returns:
        ``seed mod 2**32``.

    Raises:
        TypeError: If ``seed`` is not an integer (``bool`` is refused too).
    """
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"a seed must be an integer, not {type(seed).__name__}")
    return seed & _MASK


def prng_next(seed: int) -> tuple[float, int]:
    """Advance the LCG by one step.

    Args:
        seed: The current state (any integer; it is reduced modulo 2**32 first).

    Returns:
        ``(value, next_seed)`` where ``next_seed = (A * seed + C) mod 2**32`` and
        ``value = next_seed / 2**32`` lies in ``[0, 1)``.
    """
    next_seed = (LCG_A * normalize_seed(seed) + LCG_C) & _MASK
    return next_seed / LCG_M, next_seed


def prng_below(seed: int, n: int) -> tuple[int, int]:
    """Draw an integer uniformly-ish from ``range(n)``.

    Uses ``floor(value * n)``, the same rule 2048 uses to pick an empty cell.

    Args:
        seed: The current state.
        n: The exclusive upper bound (at least 1).

    Returns:
        ``(k, next_seed)`` with ``0 <= k < n``.

    Raises:
        ValueError: If ``n < 1``.
    """
    if n < 1:
        raise ValueError("prng_below needs n >= 1")
    value, next_seed = prng_next(seed)
    # value < 1 so value * n < n; min() guards against float rounding at the top end.
    return min(int(value * n), n - 1), next_seed
