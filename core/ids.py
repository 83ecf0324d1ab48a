"""Game IDs: one short string names a level, so people can share puzzles (issue 20).

Three kinds, each ``GAME:`` followed by the level's form (see ``docs/sharing.md``)::

    longcat:arduboy/17             a bundled level: pack short name / 1-based number
    longcat:sd-8x8-hard#48213      a generated level: generator-parameters#seed
    algebrawl:brawl-3-6#7          (the parameters are the game's, in its own order)
    carving:L1eJzT0...             a custom level: the level itself, compressed

* **Bundled** ``GAME:PACK/N``: ``PACK`` is the pack file's name without its ``NN-`` prefix
  and ``.levels`` (``levels/longcat/01-arduboy.levels`` is ``arduboy``; the full
  ``01-arduboy`` is accepted too), ``N`` the level's 1-based position in it.
* **Generated** ``GAME:GEN[-VALUE...]#SEED[@VERSION]``: the generator's name in the game's
  generators mapping, then its parameters' values in the order the game declares
  (:attr:`core.registry.GameInfo.id_params`; trailing values equal to their default are left
  out), then the seed. ``@VERSION`` pins the generator version (:data:`GENERATED_VERSION`;
  ``@1`` is implied): a generator whose output changes for some seed gets a new version, and
  the old one stays reachable, so an ID keeps naming the same level; an ID of a version this
  termarcade does not know says it was made by a newer termarcade.
* **Custom** ``GAME:L<v><payload>``: ``v`` is the format version (:data:`CUSTOM_VERSION`, one
  digit) and the payload the URL-safe base64 (no padding) of a 4-byte BLAKE2s checksum
  followed by the zlib-compressed level text (one level in the game's level-file format).
  The checksum covers the game id, the version and the compressed bytes, so a mistyped or
  truncated ID is reported as such, never read as another level. Decoding is strict: a
  character that base64 would ignore (the unused low bits of the last one) is an error too.

Whitespace inside an ID is ignored (a long custom ID may be wrapped by a mail program).

Pure: this module parses and prints IDs and packs given text; turning a level into text
needs its level format (``grammar/``), and finding a bundled pack needs files, so the
resolution lives in :mod:`tui.ids`.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

from core.text import shorten

__all__ = [
    "CUSTOM_VERSION",
    "GENERATED_VERSION",
    "MAX_LEVEL_TEXT",
    "BundledId",
    "CustomId",
    "GeneratedId",
    "IdError",
    "LevelId",
    "decode_custom",
    "encode_custom",
    "format_id",
    "generated_id",
    "parse_id",
]

CUSTOM_VERSION = 1
"""Version of the custom form (the digit after ``L``)."""
GENERATED_VERSION = 1
"""Newest generator version this termarcade knows (the ``@N`` of a generated ID)."""
MAX_LEVEL_TEXT = 4 * 1024 * 1024
"""Largest level text a custom ID may unpack to (a bound against decompression bombs)."""

_CHECK_BYTES = 4
_GAME = re.compile(r"[A-Za-z0-9_]+")
_PACK = re.compile(r"[A-Za-z0-9_-]+")
_NAME = re.compile(r"[A-Za-z0-9_]+")
_VALUE = re.compile(r"[A-Za-z0-9_.:]+")
_PAYLOAD = re.compile(r"[A-Za-z0-9_-]*")
_FORMS = "GAME:PACK/N (bundled), GAME:GENERATOR-PARAMS#SEED (generated) or GAME:L1… (custom)"


class IdError(ValueError):
    """An ID that cannot be read; the message says what is wrong, for a person."""


@dataclass(frozen=True, slots=True)
class BundledId:
    """A level of a bundled pack.

    Attributes:
        game: The game id.
        pack: The pack's short name (``arduboy``) or file name (``01-arduboy``).
        number: The level's 1-based position in the pack.
    """

    game: str
    """The game id."""
    pack: str
    """The pack's short name."""
    number: int
    """1-based position in the pack."""


@dataclass(frozen=True, slots=True)
class GeneratedId:
    """A generated level: generator, parameter values, seed and generator version.

    Attributes:
        game: The game id.
        generator: The generator's name in the game's generators mapping.
        values: The parameters' values, in the game's declared order, as text.
        seed: The seed.
        version: The generator version.
    """

    game: str
    """The game id."""
    generator: str
    """The generator's name."""
    values: tuple[str, ...]
    """The parameters' values (text), in the game's order."""
    seed: int
    """The seed."""
    version: int = GENERATED_VERSION
    """The generator version."""


@dataclass(frozen=True, slots=True)
class CustomId:
    """A custom level carried in the ID itself.

    Attributes:
        game: The game id.
        text: The level's text (the game's level-file format).
        version: The custom form's version.
    """

    game: str
    """The game id."""
    text: str
    """The level text."""
    version: int = CUSTOM_VERSION
    """The custom form's version."""


LevelId = BundledId | GeneratedId | CustomId
"""Any parsed ID."""


def _checksum(game: str, version: int, packed: bytes) -> bytes:
    head = f"{game}:L{version}:".encode()
    return hashlib.blake2s(head + packed, digest_size=_CHECK_BYTES).digest()


def encode_custom(game: str, text: str) -> str:
    """The custom ID of a level text.

    Args:
        game: The game id.
        text: The level's text.

    Returns:
        ``GAME:L1<payload>``.
    """
    packed = zlib.compress(text.encode("utf-8"), 9)
    blob = _checksum(game, CUSTOM_VERSION, packed) + packed
    payload = base64.urlsafe_b64encode(blob).decode("ascii").rstrip("=")
    return f"{game}:L{CUSTOM_VERSION}{payload}"


def decode_custom(game: str, body: str) -> CustomId:
    """Read the part of a custom ID after ``GAME:`` (``L1...``).

    Raises:
        IdError: Newer version, bad characters, or a checksum that does not match
            (mistyped, truncated or corrupted).
    """
    if len(body) < 2 or not body[1].isdigit():
        raise IdError(f"{game}:{shorten(body, 12)} is not a custom level ID (it starts with L1)")
    version = int(body[1])
    if version > CUSTOM_VERSION:
        raise IdError(
            f"this custom {game} level ID is of version {version}, made by a newer termarcade "
            f"(this one reads version {CUSTOM_VERSION}): update termarcade to open it"
        )
    if version < 1:
        raise IdError(f"custom level IDs have no version {version} (it starts with L1)")
    payload = body[2:]
    bad = next((ch for ch in payload if not _PAYLOAD.fullmatch(ch)), None)
    if bad is not None:
        raise IdError(
            f"this custom {game} level ID holds the character {bad!r}, which no ID has: "
            "it was mistyped or damaged when copied"
        )
    corrupted = IdError(
        f"the checksum of this custom {game} level ID does not match: it was mistyped, "
        "cut short or damaged when copied"
    )
    try:
        blob = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
    except (binascii.Error, ValueError):
        raise corrupted from None
    if base64.urlsafe_b64encode(blob).decode("ascii").rstrip("=") != payload:
        raise corrupted  # a character base64 would ignore, or a length no encoder makes
    check, packed = blob[:_CHECK_BYTES], blob[_CHECK_BYTES:]
    if len(check) < _CHECK_BYTES or _checksum(game, version, packed) != check:
        raise corrupted
    try:
        inflater = zlib.decompressobj()
        data = inflater.decompress(packed, MAX_LEVEL_TEXT + 1)
        if len(data) > MAX_LEVEL_TEXT or not inflater.eof:
            raise IdError(
                f"this custom {game} level is larger than {MAX_LEVEL_TEXT // (1024 * 1024)} MiB "
                "unpacked: termarcade does not open it"
            )
        text = data.decode("utf-8")
    except (zlib.error, UnicodeDecodeError):
        raise corrupted from None
    return CustomId(game, text, version)


def parse_id(text: str) -> LevelId:
    """Read an ID (any of the three kinds); the game is not checked against the registry.

    Args:
        text: The ID as typed or pasted (whitespace anywhere is ignored).

    Returns:
        A :class:`BundledId`, :class:`GeneratedId` or :class:`CustomId`.

    Raises:
        IdError: With a message saying what is wrong.
    """
    compact = "".join(str(text).split())
    if not compact:
        raise IdError(f"no ID given: an ID is {_FORMS}")
    game, sep, body = compact.partition(":")
    if not sep or not _GAME.fullmatch(game):
        raise IdError(f"{_short(compact)} is not a level ID: an ID is {_FORMS}")
    if not body:
        raise IdError(f"{game}: says nothing after the game: an ID is {_FORMS}")
    if "#" in body:
        return _parse_generated(game, body)
    if "/" in body:
        return _parse_bundled(game, body)
    if body.startswith("L"):
        return decode_custom(game, body)
    raise IdError(f"{_short(compact)} is not a level ID: an ID is {_FORMS}")


def _short(text: str, limit: int = 40) -> str:
    return repr(shorten(text, limit))


def _parse_bundled(game: str, body: str) -> BundledId:
    pack, _, number = body.rpartition("/")
    if not _PACK.fullmatch(pack) or not number.isdigit() or not number.isascii():
        raise IdError(
            f"{game}:{body} is not a bundled level ID: it is {game}:PACK/N, "
            "such as longcat:arduboy/17"
        )
    value = int(number)
    if value < 1:
        raise IdError(f"{game}:{body}: levels are numbered from 1")
    return BundledId(game, pack, value)


def _parse_generated(game: str, body: str) -> GeneratedId:
    spec, _, rest = body.partition("#")
    seed_text, at, version_text = rest.partition("@")
    usage = (
        f"{game}:{body} is not a generated level ID: it is {game}:GENERATOR-PARAMS#SEED, "
        "such as longcat:sd-8x8-hard#48213"
    )
    name, *values = spec.split("-")
    if not _NAME.fullmatch(name) or not all(_VALUE.fullmatch(v) for v in values):
        raise IdError(usage)
    if not seed_text.isascii() or not seed_text.isdigit() or len(seed_text) > 19:
        raise IdError(f"{usage} (the seed is a whole number, not {seed_text!r})")
    version = GENERATED_VERSION
    if at:
        if not version_text.isascii() or not version_text.isdigit():
            raise IdError(f"{usage} (the version after @ is a number, not {version_text!r})")
        version = int(version_text)
        if version > GENERATED_VERSION:
            raise IdError(
                f"{game}:{body} was made by a newer termarcade (generator version {version}; "
                f"this one knows up to {GENERATED_VERSION}): update termarcade to open it"
            )
        if version < 1:
            raise IdError(f"{usage} (generator versions start at 1)")
    return GeneratedId(game, name, tuple(values), int(seed_text), version)


def format_id(level_id: LevelId) -> str:
    """Print an ID (:func:`parse_id` gives back an equal value).

    Raises:
        ValueError: When a part holds characters its form does not allow.
    """
    if isinstance(level_id, BundledId):
        if not _PACK.fullmatch(level_id.pack) or level_id.number < 1:
            raise ValueError(f"no ID for pack {level_id.pack!r}, level {level_id.number}")
        return f"{level_id.game}:{level_id.pack}/{level_id.number}"
    if isinstance(level_id, GeneratedId):
        return generated_id(
            level_id.game, level_id.generator, level_id.values, level_id.seed, level_id.version
        )
    return encode_custom(level_id.game, level_id.text)


def generated_id(
    game: str, generator: str, values: Sequence[str], seed: int, version: int = GENERATED_VERSION
) -> str:
    """The ID of a generated level (see the module docstring).

    Raises:
        ValueError: A name or value with characters an ID cannot hold, or a negative seed.
    """
    if not _NAME.fullmatch(generator):
        raise ValueError(f"no ID for generator {generator!r}")
    bad = [v for v in values if not _VALUE.fullmatch(v)]
    if bad:
        raise ValueError(f"no ID for the parameter value {bad[0]!r}")
    if seed < 0:
        raise ValueError(f"no ID for the negative seed {seed}")
    spec = "-".join((generator, *values))
    suffix = "" if version == 1 else f"@{version}"
    return f"{game}:{spec}#{seed}{suffix}"
