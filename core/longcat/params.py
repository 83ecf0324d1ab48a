"""Longcat's generator settings, declared once (:mod:`core.params`).

The method, size, difficulty band, uniqueness and the learned generator's temperature: the
``longcat generate`` options, the settings dialog's fields, the stored settings and the
parameters a generated level's source and ID spell (``gen:sd?band=easy&size=6x6&unique=0``)
all come from :data:`METHOD` and :data:`GENERATOR_PARAMS`.

The band is ``band`` everywhere but on the command line, where scripts know it as
``--difficulty``; a yes/no is a ``bool`` in the settings and ``0``/``1`` in an ID.

Pure: no I/O.
"""

from __future__ import annotations

from core.longcat.catalog import (
    BAND_RANGES,
    GENERATORS,
    parse_band,
    parse_size,
    parse_temperature,
)
from core.longcat.generate import MAX_TEMPERATURE
from core.params import Param, Params

__all__ = ["BAND_LABELS", "GENERATOR_PARAMS", "METHOD", "SIZES", "TEMPERATURES"]

SIZES: tuple[str, ...] = ("5x5", "6x6", "8x8", "10x8", "12x10", "16x12")
"""Grid sizes offered for generated levels (width x height)."""

BAND_LABELS: dict[str, str] = {
    "any": "Any difficulty",
    "trivial": "Trivial (below 20)",
    "easy": "Easy (20 to 50)",
    "hard": "Hard (50 to 80)",
    "very_hard": "Very hard (80 to 200)",
    "extreme": "Extreme (200 and more)",
}
"""How the difficulty bands are offered (ids of :data:`core.longcat.catalog.BAND_RANGES`)."""

TEMPERATURES: dict[float, str] = {
    0.0: "Learned: temperature 0 (greedy)",
    0.2: "Learned: temperature 0.2",
    0.3: "Learned: temperature 0.3 (the seed's best)",
    0.5: "Learned: temperature 0.5",
    1.0: "Learned: temperature 1 (random, as Solution-Down)",
}
"""The learned generator's temperatures offered (``rl`` only)."""


def size_text(text: object) -> str:
    """A grid size read (:func:`core.longcat.catalog.parse_size`) and written ``WxH``.

    Args:
        text: ``"8x8"``, ``"12 × 10"``...

    Returns:
        ``"8x8"``, ``"12x10"``.

    Raises:
        GenerationError: (a ValueError) when it is no size.
    """
    width, height = parse_size(text)
    return f"{width}x{height}"


def band_text(text: object) -> str:
    """A difficulty band read (:func:`core.longcat.catalog.parse_band`): a band's id
    (``"very_hard"``, however it was written) or the ``LOW:HIGH`` text as given.

    Raises:
        GenerationError: (a ValueError) when it is no band.
    """
    parse_band(text)
    name = str(text).strip().lower().replace(" ", "_").replace("-", "_")
    return name if name in BAND_RANGES else str(text).strip()


def temperature_id(value: float) -> str:
    """The temperature as a level's source spells it (``"0.3"``)."""
    return f"{value:g}"


METHOD = Param(
    "method",
    "sd",
    "sd, pu, template, ca, bsp, carve, fractal, shapes, notch or rl (the learned generator, "
    "SD-PCGRL); several (comma-separated) take turns.",
    choices=tuple((name, f"{gen.title} ({name})") for name, gen in GENERATORS.items()),
    metavar="METHOD[,METHOD...]",
    many=True,
)
"""The generator of new levels (``g``, and ``N`` on a generated level; ``--method``)."""

GENERATOR_PARAMS = Params(
    [
        Param(
            "size",
            "8x8",
            "Grid size, WIDTHxHEIGHT.",
            choices=tuple((size, size.replace("x", " × ")) for size in SIZES),
            parse=size_text,
            metavar="WxH",
        ),
        Param(
            "band",
            "any",
            "Predicted difficulty LO:HI (LO <= d < HI; 80: or :20 leave an end open), "
            "or a band: trivial, easy, hard, very_hard, extreme.",
            choices=tuple(BAND_LABELS.items()),
            parse=band_text,
            flag="--difficulty",
            short="-d",
            metavar="LO:HI",
        ),
        Param(
            "unique",
            False,
            "Only levels with exactly one solution.",
            label="Only levels with one solution",
            id_text=int,
        ),
        Param(
            "temperature",
            0.3,
            "--method rl: sampling temperature over the network's Q-values, 0 (greedy) to 1 "
            "(uniformly random: the sd generator's levels, as seed 003 says); 0.2-0.3 the "
            "seed's best.",
            choices=tuple(TEMPERATURES.items()),
            low=0.0,
            high=MAX_TEMPERATURE,
            parse=parse_temperature,
            metavar="T",
            generators=("rl",),
            id_text=temperature_id,
        ),
    ]
)
"""What every generator takes (the temperature: the learned one only), in the order a
generated level's ID spells them (``longcat:sd-6x6-easy#7``)."""
