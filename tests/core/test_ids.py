"""core.ids: the ID syntax, the custom form's compression and checksum (issue 20)."""

from __future__ import annotations

import base64
import zlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.ids import (
    CUSTOM_DICTIONARY,
    CUSTOM_VERSION,
    GENERATED_VERSION,
    BundledId,
    CustomId,
    GeneratedId,
    IdError,
    decode_custom,
    encode_custom,
    format_id,
    parse_id,
)

GAMES = st.sampled_from(["longcat", "carving", "algebrawl", "termcraft", "2048"])
NAMES = st.from_regex(r"[A-Za-z0-9_]{1,8}", fullmatch=True)
VALUES = st.from_regex(r"[A-Za-z0-9_.:]{1,8}", fullmatch=True)
PACKS = st.from_regex(r"[A-Za-z0-9_-]{1,12}", fullmatch=True)
B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def test_the_three_forms_read_as_documented() -> None:
    assert parse_id("longcat:arduboy/17") == BundledId("longcat", "arduboy", 17)
    assert parse_id("longcat:sd-8x8-hard#48213") == GeneratedId(
        "longcat", "sd", ("8x8", "hard"), 48213
    )
    assert parse_id("carving:easy#7") == GeneratedId("carving", "easy", (), 7)
    assert parse_id("2048:new-5#42@1") == GeneratedId("2048", "new", ("5",), 42, 1)
    custom = encode_custom("carving", "level text")
    assert custom.startswith("carving:L2")
    assert parse_id(custom) == CustomId("carving", "level text", 2)
    # Each form names its kind (``termarcade id --json`` prints it).
    kinds = [parse_id(text).kind for text in ("longcat:arduboy/17", "carving:easy#7", custom)]
    assert kinds == ["bundled", "generated", "custom"]


def test_whitespace_inside_an_id_is_ignored() -> None:
    wrapped = encode_custom("longcat", "x" * 500)
    broken = "\n  ".join(wrapped[i : i + 20] for i in range(0, len(wrapped), 20))
    assert parse_id(broken) == parse_id(wrapped)
    assert parse_id("  longcat: arduboy / 3 ") == BundledId("longcat", "arduboy", 3)


def test_the_custom_payload_is_base64url_of_checksum_and_raw_deflate_with_the_dictionary() -> None:
    # Decoded by hand: 4 bytes of checksum, then raw deflate primed with the dictionary.
    made = encode_custom("algebrawl", "numbers [3 4]")
    assert made.startswith("algebrawl:L2")
    payload = made.split(":", 1)[1][2:]
    blob = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
    inflater = zlib.decompressobj(-15, zdict=CUSTOM_DICTIONARY)
    assert inflater.decompress(blob[4:]) == b"numbers [3 4]" and inflater.eof
    assert "=" not in payload and "+" not in payload and "/" not in payload


def test_a_version_1_payload_is_base64url_of_checksum_and_zlib() -> None:
    made = encode_custom("algebrawl", "numbers [3 4]", version=1)
    assert made.startswith("algebrawl:L1")
    payload = made.split(":", 1)[1][2:]
    blob = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
    assert zlib.decompress(blob[4:]) == b"numbers [3 4]"


# Made by termarcade before version 2 (issue 30): the level text of longcat:arduboy/2.
OLD_LONGCAT_ID = (
    "longcat:L1KhdvMnjabY07DsIwEET7nGLkNNC4QCAKGuAACVcw3k2wZOLIHySEOBc9J8OWUgQp0-y-1eyM5QdbiJOnd"
    "HVPbPD9gFXI207gVQG9ujOsG3qtYkaV4s15iPbcNq3IB-KgvRmjcQPExTMZHZlApuuMTjaWJLnFqoSuD7kgOJuKO8j"
    "yPiqPfanxhvIA6kkTyKwZHOdQy2XbX8ASvKsfS8Q7GA"
)


def test_an_id_made_before_version_2_still_opens_and_the_new_one_is_shorter() -> None:
    old = parse_id(OLD_LONGCAT_ID)
    assert isinstance(old, CustomId) and old.version == 1
    assert old.text.startswith('level "Arduboy 2') and "par 7" in old.text
    assert encode_custom("longcat", old.text, version=1) == OLD_LONGCAT_ID
    new = encode_custom("longcat", old.text)
    assert parse_id(new) == CustomId("longcat", old.text, 2)
    assert len(new) < 0.7 * len(OLD_LONGCAT_ID)  # 224 characters before, 130 now


@given(GAMES, st.text(max_size=300))
def test_version_1_round_trips_still(game: str, text: str) -> None:
    assert parse_id(encode_custom(game, text, version=1)) == CustomId(game, text, 1)


@given(GAMES, st.text(max_size=300))
def test_custom_round_trip(game: str, text: str) -> None:
    assert parse_id(encode_custom(game, text)) == CustomId(game, text, CUSTOM_VERSION)


@given(GAMES, PACKS, st.integers(1, 10**6))
def test_bundled_round_trip(game: str, pack: str, number: int) -> None:
    level_id = BundledId(game, pack, number)
    assert parse_id(format_id(level_id)) == level_id


@given(GAMES, NAMES, st.lists(VALUES, max_size=4), st.integers(0, 2**63 - 1))
def test_generated_round_trip(game: str, name: str, values: list[str], seed: int) -> None:
    level_id = GeneratedId(game, name, tuple(values), seed)
    text = format_id(level_id)
    assert "@" not in text  # version 1 is implied
    assert parse_id(text) == level_id


@given(GAMES, st.text(min_size=1, max_size=200), st.data())
def test_one_changed_character_is_a_checksum_error_never_another_level(
    game: str, text: str, data: st.DataObject
) -> None:
    made = encode_custom(game, text)
    start = len(game) + 3  # after "game:L2"
    position = data.draw(st.integers(start, len(made) - 1))
    replacement = data.draw(st.sampled_from(B64).filter(lambda ch: ch != made[position]))
    changed = made[:position] + replacement + made[position + 1 :]
    with pytest.raises(IdError, match="checksum"):
        parse_id(changed)


@given(GAMES, st.text(min_size=1, max_size=200), st.data())
def test_a_cut_short_id_is_an_error(game: str, text: str, data: st.DataObject) -> None:
    made = encode_custom(game, text)
    cut = data.draw(st.integers(len(game) + 3, len(made) - 1))
    with pytest.raises(IdError):
        parse_id(made[:cut])


def test_the_checksum_covers_the_game() -> None:
    made = encode_custom("longcat", "grid")
    with pytest.raises(IdError, match="checksum"):
        parse_id("carving" + made[len("longcat") :])


def test_newer_versions_say_so() -> None:
    made = encode_custom("longcat", "grid")
    newer = made.replace(f":L{CUSTOM_VERSION}", f":L{CUSTOM_VERSION + 1}", 1)
    with pytest.raises(IdError, match="newer termarcade"):
        parse_id(newer)
    with pytest.raises(IdError, match="newer termarcade"):
        parse_id(f"longcat:sd-8x8#5@{GENERATED_VERSION + 1}")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "no ID given"),
        ("longcat", "is not a level ID"),
        ("longcat:", "says nothing after the game"),
        ("longcat:arduboy", "is not a level ID"),
        ("longcat:arduboy/0", "numbered from 1"),
        ("longcat:arduboy/x", "not a bundled level ID"),
        ("longcat:sd-8x8#abc", "the seed is a whole number"),
        ("longcat:sd--8x8#1", "not a generated level ID"),
        ("longcat:sd#1@x", "the version after @"),
        ("longcat:L1ab$cd", "character '$'"),
        ("longcat:Lx", "not a custom level ID"),
        ("lo ng-cat:arduboy/1", "is not a level ID"),
    ],
)
def test_bad_ids_say_what_is_wrong(text: str, words: str) -> None:
    with pytest.raises(IdError) as raised:
        parse_id(text)
    assert words in str(raised.value)


def test_a_decompression_bomb_is_refused() -> None:
    huge = "#" * (5 * 1024 * 1024)
    made = encode_custom("longcat", huge)
    assert len(made) < 20_000
    with pytest.raises(IdError, match="larger than"):
        decode_custom("longcat", made.split(":", 1)[1])


def test_the_unused_bits_of_the_last_character_count_too() -> None:
    # base64 ignores the low bits of a last character that carries fewer than 6 bits; a
    # lenient decoder would read such a changed ID as the same level. It is an error here.
    checked = 0
    for text in ("a", "ab", "abc", "abcd", "level"):
        made = encode_custom("longcat", text)
        payload_length = len(made) - len("longcat:L2")
        if payload_length % 4 == 0:
            continue
        last = B64.index(made[-1])
        unused = {2: 0b1111, 3: 0b11}[payload_length % 4]
        twin = B64[last ^ 1]  # flips the lowest bit, which is one of the unused ones
        assert unused & 1
        changed = made[:-1] + twin
        blob = base64.urlsafe_b64decode(changed.split(":", 1)[1][2:] + "=" * (-payload_length % 4))
        original = base64.urlsafe_b64decode(made.split(":", 1)[1][2:] + "=" * (-payload_length % 4))
        assert blob == original  # the lenient reading: the very same bytes
        with pytest.raises(IdError, match="checksum"):
            parse_id(changed)
        checked += 1
    assert checked >= 2
