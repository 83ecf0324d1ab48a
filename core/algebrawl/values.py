"""Exact numbers of Algebrawl: fractions, their bounds and their text form.

Every value in the game is a :class:`fractions.Fraction`, so ``1/3 * 3`` is exactly ``1``.
Bounds keep values small: a puzzle's numbers and targets have numerator and denominator of
at most :data:`MAX_INPUT` (so a level file stays readable), and any value reached in play
stays within :data:`MAX_VALUE` (so a card such as repeated squaring cannot produce numbers
that are slow to compute or impossible to show). A value outside the bounds is refused, not
rounded.
"""

from __future__ import annotations

import re
from fractions import Fraction

__all__ = [
    "MAX_INPUT",
    "MAX_VALUE",
    "Number",
    "as_value",
    "format_value",
    "is_integer",
    "parse_value",
    "within",
]

MAX_INPUT = 10**6
"""Largest numerator or denominator magnitude of a puzzle's numbers and targets."""
MAX_VALUE = 10**12
"""Largest numerator or denominator magnitude of any value reached in play."""

Number = int | Fraction
"""What callers may pass where a value is expected (never float: floats are inexact)."""

_VALUE_TEXT = re.compile(r"-?[0-9]{1,40}(/[0-9]{1,40})?")


def as_value(x: object) -> Fraction:
    """Convert an ``int`` or ``Fraction`` to a Fraction.

    Args:
        x: The number.

    Returns:
        ``Fraction(x)``.

    Raises:
        TypeError: For floats, bools, strings and anything else: they are refused rather
            than silently converted (a float is not exact).
    """
    if isinstance(x, bool) or not isinstance(x, (int, Fraction)):
        raise TypeError(f"a value must be an int or a Fraction, not {type(x).__name__}")
    return Fraction(x)


def within(value: Fraction, bound: int) -> bool:
    """True when numerator and denominator of ``value`` have magnitude at most ``bound``."""
    return abs(value.numerator) <= bound and value.denominator <= bound


def is_integer(value: Fraction) -> bool:
    """True when ``value`` is a whole number."""
    return value.denominator == 1


def format_value(value: Fraction) -> str:
    """The text form of a value: ``"3"``, ``"-7/2"`` (what :func:`parse_value` reads)."""
    if value.denominator == 1:
        return str(value.numerator)
    return f"{value.numerator}/{value.denominator}"


def parse_value(text: str) -> Fraction:
    """Read a value written by :func:`format_value` (``"3"``, ``"-7/2"``).

    Only this strict form is accepted (no spaces, decimals or exponents), so saved states
    cannot smuggle in huge numbers through ``"1e999999"``.

    Args:
        text: The text.

    Returns:
        The value.

    Raises:
        ValueError: When the text is not of that form or the denominator is zero.
    """
    if not isinstance(text, str) or not _VALUE_TEXT.fullmatch(text):
        raise ValueError(f"not a number: {text!r:.40}")
    num, _, den = text.partition("/")
    if den and int(den) == 0:
        raise ValueError(f"zero denominator: {text!r:.40}")
    return Fraction(int(num), int(den) if den else 1)
