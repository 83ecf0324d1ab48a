"""tui.sources.SourceId: a level's source, typed, and still the exact string the store keeps.

Every source string termarcade writes (bundled packs, My levels, files, generators with their
parameters, custom IDs, the in-progress list) reads back as the same string with the kind and
parts it was made from; a save or a leaderboard row stored before the type existed (plain
text in the store) still resolves to its level.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import registry
from grammar.levels import bundled_packs
from tui.ids import CUSTOM_SOURCE, ref_id, resolve_id
from tui.sources import (
    CUSTOM,
    MINE,
    PROGRESS,
    InProgressSource,
    LevelRef,
    MyLevelsSource,
    SourceId,
    SourceKind,
    Sources,
    level_to_text,
    parse_slot,
)
from tui.store import Store

# Hand-written: the strings and what they name, as docs/sharing.md and tui/sources.py say.
KNOWN = [
    ("pack:01-arduboy", SourceKind.PACK, {"pack": "01-arduboy"}),
    ("mine", SourceKind.MINE, {}),
    ("custom", SourceKind.CUSTOM, {}),
    ("progress", SourceKind.PROGRESS, {}),
    ("file:/tmp/my levels.levels", SourceKind.FILE, {"path": "/tmp/my levels.levels"}),
    (
        "gen:sd?band=hard&size=8x8&unique=0",
        SourceKind.GENERATOR,
        {"generator": "sd", "params": {"band": "hard", "size": "8x8", "unique": 0}},
    ),
    ("gen:new?rule=standard&size=4", SourceKind.GENERATOR, {"generator": "new"}),
    ("gen:brawl", SourceKind.GENERATOR, {"generator": "brawl", "params": {}}),
    ("minecraft", SourceKind.OTHER, {}),
    ("", SourceKind.OTHER, {}),
]


@pytest.mark.parametrize(("text", "kind", "parts"), KNOWN)
def test_a_source_id_names_its_kind_and_parts(text: str, kind: SourceKind, parts: dict) -> None:
    source = SourceId(text)
    assert source == text and str(source) == text and hash(source) == hash(text)
    assert source.kind is kind
    assert source.named_by_id is (kind in (SourceKind.PACK, SourceKind.GENERATOR))
    for name, want in parts.items():
        assert getattr(source, name) == want
    # The parts of another kind are empty, never a slice of the string.
    if kind is not SourceKind.PACK:
        assert source.pack == ""
    if kind is not SourceKind.GENERATOR:
        assert source.generator == "" and source.params == {}
    if kind is not SourceKind.FILE:
        assert source.path == ""


def test_the_constants_and_the_constructors_write_the_stored_strings() -> None:
    assert (MINE, CUSTOM, PROGRESS, CUSTOM_SOURCE) == ("mine", "custom", "progress", "custom")
    assert SourceId.of_pack("01-arduboy") == "pack:01-arduboy"
    assert SourceId.of_file("x.levels") == "file:" + os.path.join(os.getcwd(), "x.levels")
    # Parameters sorted by name, as every save made since generators had parameters.
    made = SourceId.of_generator("sd", {"unique": 0, "size": "8x8", "band": "hard"})
    assert made == "gen:sd?band=hard&size=8x8&unique=0"
    assert SourceId.of_generator("brawl", {}) == "gen:brawl"


def test_a_level_ref_types_its_source_and_keeps_its_slot() -> None:
    ref = LevelRef("gen:sd?size=8x8", "48213")
    assert type(ref.source) is SourceId and ref.source.generator == "sd"
    assert ref.slot == "gen:sd?size=8x8|48213"
    assert ref == LevelRef(SourceId("gen:sd?size=8x8"), "48213")
    assert hash(ref) == hash(LevelRef("gen:sd?size=8x8", "48213"))
    assert parse_slot(ref.slot) == ref and type(parse_slot(ref.slot).source) is SourceId  # type: ignore[union-attr]


_NAME = st.text("abcdefghijklmnopqrstuvwxyz0123456789_", min_size=1, max_size=8)
# Values a generator's parameters take: whole numbers, and words that are not numbers (a
# digit string reads back as an int, which is how the store has always read it).
_VALUE = st.one_of(
    st.integers(-(10**6), 10**6),
    st.text("abcdefghijklmnopqrstuvwxyz0123456789.:x", min_size=1, max_size=8).filter(
        lambda text: not text.lstrip("-").isdigit()
    ),
)


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=40))
def test_every_string_is_a_source_id_and_reads_back_unchanged(text: str) -> None:
    source = SourceId(text)
    assert str(source) == text and source == text
    assert SourceId(str(source)).kind is source.kind
    # Exactly one kind: a prefix's, a whole word's, or OTHER.
    expected = {
        "pack:": SourceKind.PACK,
        "file:": SourceKind.FILE,
        "gen:": SourceKind.GENERATOR,
    }
    found = [kind for prefix, kind in expected.items() if text.startswith(prefix)]
    whole = {"mine": SourceKind.MINE, "custom": SourceKind.CUSTOM, "progress": SourceKind.PROGRESS}
    assert source.kind is (found[0] if found else whole.get(text, SourceKind.OTHER))
    if "|" not in text:  # a store slot splits at the first bar
        key = "k|" + text
        back = parse_slot(LevelRef(text, key).slot)
        assert back is not None and back.source == text and back.key == key
        assert back.source.kind is source.kind


@settings(max_examples=150, deadline=None)
@given(_NAME, st.dictionaries(_NAME, _VALUE, max_size=4), _NAME)
def test_a_generator_source_round_trips_its_name_and_parameters(
    name: str, params: dict, pack: str
) -> None:
    made = SourceId.of_generator(name, params)
    back = SourceId(str(made))
    assert back.kind is SourceKind.GENERATOR
    assert (back.generator, back.params) == (name, params)
    assert SourceId(str(SourceId.of_pack(pack))).pack == pack


def _real_source_ids() -> list[tuple[str, str]]:
    """Every bundled pack's and every generator's source id, of every registered game."""
    found: list[tuple[str, str]] = []
    for info in registry.games():
        if info.level_format is not None:
            found += [(info.id, f"pack:{pack_id}") for pack_id, _ in bundled_packs(info.id)]
        if info.generators is not None:
            defaults = {name: default for name, default in info.id_params if default is not None}
            for name in info.load("generators"):
                found.append((info.id, SourceId.of_generator(name, defaults)))
    return found


def test_every_real_source_id_reads_back_as_what_made_it() -> None:
    real = _real_source_ids()
    games = {game for game, _ in real}
    assert {"longcat", "2048", "carving", "algebrawl"} <= games
    for game, text in real:
        source = SourceId(str(text))
        assert str(source) == text
        if text.startswith("pack:"):
            assert source.kind is SourceKind.PACK
            # The pack's source id is the one its bundled ID resolves to.
            number_one = resolve_id(f"{game}:{source.pack}/1")
            assert number_one.ref.source == text and number_one.ref.source.pack == source.pack
        else:
            assert source.kind is SourceKind.GENERATOR
            assert SourceId.of_generator(source.generator, source.params) == text


def test_plain_strings_in_an_old_store_resolve_to_their_levels() -> None:
    """Rows written before the type (plain text in the database) read back typed."""
    info = registry.get("longcat")
    assert info is not None
    with Store() as store:
        arduboy = dict(bundled_packs("longcat"))["01-arduboy"]
        first, third = arduboy.levels[0], arduboy.levels[2]
        mine = store.add_my_level("longcat", "Mine", level_to_text("longcat", first))
        assert mine is not None
        old_slots = {
            f"mine|{mine.id}": SourceKind.MINE,
            f"pack:01-arduboy|{third.title}": SourceKind.PACK,
            "gen:sd?band=any&size=8x8&unique=0|48213": SourceKind.GENERATOR,
        }
        for slot in old_slots:
            store.save_game("longcat", slot, {"v": 1}, {"status": "playing", "title": slot})
        listed = {entry.ref: entry for entry in InProgressSource("longcat", store).entries()}
        assert {ref.slot for ref in listed} == set(old_slots)
        sources = Sources(info, store, packs=bundled_packs("longcat"))
        for ref in listed:
            assert ref.source.kind is old_slots[ref.slot]
        by_kind = {ref.source.kind: ref for ref in listed}
        # My levels' row opens the stored level; the bundled one is named by its ID.
        assert sources.level(by_kind[SourceKind.MINE]) == first
        assert sources.get(by_kind[SourceKind.MINE].source) is sources.mine
        assert isinstance(sources.mine, MyLevelsSource) and sources.mine.kind is SourceKind.MINE
        assert ref_id("longcat", by_kind[SourceKind.PACK]) == "longcat:arduboy/3"
        assert ref_id("longcat", by_kind[SourceKind.GENERATOR]) == "longcat:sd#48213"


def test_old_leaderboard_rows_are_sorted_by_their_source() -> None:
    """Board rows written as plain text land under the heading of what their source names."""
    from tui.ids import custom_key
    from tui.screens.leaderboard import board_choices

    info = registry.get("longcat")
    assert info is not None
    arduboy = dict(bundled_packs("longcat"))["01-arduboy"]
    with Store() as store:
        mine = store.add_my_level("longcat", "Mine", level_to_text("longcat", arduboy.levels[1]))
        assert mine is not None
        for source, key in (
            ("gen:sd?band=any&size=8x8&unique=0", "48213"),
            ("mine", str(mine.id)),  # before levels had IDs: moves to its custom board
        ):
            store.record_result("longcat", source, key, moves=9, seconds=3.0)
        choices = board_choices(info, store)
    headings = [c.title for c in choices if c.kind == "heading"]
    under: dict[str, list[tuple[str, str, str]]] = {}
    for choice in choices:
        if choice.kind == "heading":
            current = under.setdefault(choice.title, [])
        else:
            current.append((choice.title, choice.source, choice.key))
    assert headings[-2:] == ["My levels", "Generated levels (by ID)"]
    assert under["Generated levels (by ID)"] == [
        ("longcat:sd#48213", "gen:sd?band=any&size=8x8&unique=0", "48213")
    ]
    key = custom_key("longcat", arduboy.levels[1])
    assert under["My levels"] == [("Mine", "custom", key)]
