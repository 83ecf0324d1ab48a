"""tui.ids: an ID names exactly one level, for every game and kind (issue 20).

Pinned IDs: the bundled ones against the pack files read here by hand; the generated ones
against the generator called directly, and against the level they made when the ID form was
introduced (a generator that changes what a seed makes must get a new version, see
core.ids, and this test says so by failing).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.ids import IdError, encode_custom
from grammar.levels import bundled_packs, dump_level, load_pack
from tests.shared_data import shared_data
from tui.ids import CUSTOM_SOURCE, board_ref, level_id, looks_like_id, resolve_id
from tui.sources import LevelRef, level_from_text

ALL_BUNDLED = [
    (game, pack_id, number, level)
    for game in ("termcraft", "carving", "algebrawl", "longcat")
    for pack_id, pack in bundled_packs(game)
    for number, level in enumerate(pack.levels, start=1)
]


def _arduboy_original() -> list[str]:
    """The 100 grids of the original Arduboy game (public data), read without the grammar."""
    text = shared_data("longcat/arduboy-100.txt").read_text(encoding="utf-8")
    blocks = text.split("\n\n")
    return [
        "\n".join(line for line in block.splitlines() if not line.startswith(";"))
        for block in blocks
        if any(line and not line.startswith(";") for line in block.splitlines())
    ]


def _grid(level) -> str:
    return "\n".join(
        "".join(
            "@" if (x, y) == level.start else "#" if level.walls >> level.index(x, y) & 1 else "."
            for x in range(level.width)
        )
        for y in range(level.height)
    )


def test_longcat_arduboy_1_and_17_are_the_original_games_levels() -> None:
    grids = _arduboy_original()
    assert len(grids) == 100
    first = resolve_id("longcat:arduboy/1")
    assert _grid(first.level) == grids[0]
    assert _grid(first.level).splitlines()[3] == "##.@.###"
    assert first.ref == LevelRef("pack:01-arduboy", first.level.title)
    assert _grid(resolve_id("longcat:arduboy/17").level) == grids[16]
    # The pack's file name works too, and prints as the short name.
    assert resolve_id("longcat:01-arduboy/17").id == "longcat:arduboy/17"


@pytest.mark.parametrize(
    ("level_id_text", "title"),
    [
        ("termcraft:basics/1", "The Manual's Puzzle"),
        ("carving:tutorial/1", "First Cut"),
        ("algebrawl:first-blood/1", "First Blood"),
    ],
)
def test_bundled_ids_of_the_other_games(level_id_text: str, title: str) -> None:
    resolved = resolve_id(level_id_text)
    assert resolved.level.title == title
    assert resolved.id == level_id_text


@given(st.sampled_from(ALL_BUNDLED))
@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow], deadline=None)
def test_every_bundled_level_round_trips_through_both_of_its_ids(item) -> None:
    game, pack_id, number, level = item
    ref = LevelRef(f"pack:{pack_id}", level.title)
    bundled = level_id(game, ref, level)
    assert bundled == f"{game}:{re.sub(r'^[0-9]+-', '', pack_id)}/{number}"
    assert resolve_id(bundled).level == level
    custom = level_id(game, None, level)
    assert custom.startswith(f"{game}:L2")
    back = resolve_id(custom)
    assert back.level == level
    assert back.ref.source == CUSTOM_SOURCE and back.id == custom


PINNED_LONGCAT = """\
##.....#
##.###..
##..###.
###..#..
##...#.#
##.@.#.#
##.#...#
##....##"""


def test_a_generated_longcat_id_is_the_generator_called_directly() -> None:
    from core.longcat.catalog import GENERATORS

    resolved = resolve_id("longcat:sd-8x8-hard#48213")
    direct = GENERATORS["sd"].generate(48213, size="8x8", band="hard", unique=0)
    assert resolved.level == direct
    assert _grid(resolved.level) == PINNED_LONGCAT
    # The level select's ref for the same level (every parameter filled in): one save slot.
    assert resolved.ref == LevelRef("gen:sd?band=hard&size=8x8&unique=0", "48213")
    assert level_id("longcat", resolved.ref, resolved.level) == "longcat:sd-8x8-hard#48213"
    # Trailing defaults are left out, and may be written.
    assert resolve_id("longcat:sd-8x8-any-0#5").id == "longcat:sd#5"


def test_generated_ids_of_the_other_games() -> None:
    from core.algebrawl.generators import GENERATORS as ALGEBRAWL
    from core.carving.generators import GENERATORS as CARVING
    from core.game2048.generators import GENERATORS as G2048

    brawl = resolve_id("algebrawl:brawl-3-6#7")
    assert brawl.level == ALGEBRAWL["brawl"].generate(7, low=3, high=6)
    assert [str(n) for n in brawl.level.puzzle.numbers] == ["6", "3", "7"]
    assert [str(t) for t in brawl.level.puzzle.targets] == ["25"]
    hand = resolve_id("algebrawl:24-5-20#3")
    assert sorted(str(n) for n in hand.level.puzzle.numbers) == ["4", "5", "8", "9"]
    carving = resolve_id("carving:easy#42")
    assert carving.level == CARVING["easy"].generate(42)
    assert carving.ref == LevelRef("gen:easy", "42")
    game2048 = resolve_id("2048:new#42")
    assert game2048.level == G2048["new"].generate(42, size=4, rule="standard")
    assert game2048.ref == LevelRef("gen:new?rule=standard&size=4", "42")
    assert resolve_id("2048:new-5#42").level.config.board_size == 5
    assert resolve_id("2048:new-4-standard#42").id == "2048:new#42"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("chess:openings/1", "unknown game 'chess'"),
        ("longcat:nopack/1", "has no pack 'nopack' (its packs: arduboy"),
        ("longcat:arduboy/100000", "has no level 100000"),
        ("longcat:zz-8x8#1", "has no generator 'zz'"),
        ("longcat:sd-8x8-any-0-9#1", "too many parameters"),
        ("longcat:sd-99x99#1", "cannot be generated"),
        ("algebrawl:brawl#1", "lacks the parameter low"),
        ("termcraft:easy#1", "TermCraft has no generated levels"),
        ("2048:classic/1", "2048 has no bundled levels"),
    ],
)
def test_ids_naming_nothing_say_why(text: str, words: str) -> None:
    with pytest.raises(IdError) as raised:
        resolve_id(text)
    assert words in str(raised.value)


def test_a_custom_id_of_another_games_text_or_garbage_is_refused() -> None:
    carving_level = resolve_id("carving:tutorial/1").level
    text = dump_level(carving_level, "carving")
    with pytest.raises(IdError, match="does not hold one Longcat level"):
        resolve_id(encode_custom("longcat", text))
    with pytest.raises(IdError, match="does not load"):
        resolve_id(encode_custom("longcat", "level {{{"))


def test_custom_levels_share_a_board_whatever_their_source() -> None:
    level = resolve_id("longcat:arduboy/5").level
    custom = resolve_id(level_id("longcat", None, level))
    mine = board_ref("longcat", LevelRef("mine", "3"), level)
    from_file = board_ref("longcat", LevelRef("file:/tmp/x.levels", level.title), level)
    assert mine == from_file == custom.ref
    # Bundled and generated levels keep their own ref (their ID names it).
    bundled = LevelRef("pack:01-arduboy", level.title)
    assert board_ref("longcat", bundled, level) == bundled


def test_what_counts_as_an_id_on_the_command_line() -> None:
    assert looks_like_id("longcat:arduboy/1")
    assert looks_like_id("2048:new#1")
    assert not looks_like_id("chess:e4")  # no such game: a file name
    assert not looks_like_id("C:\\levels\\a.levels")
    assert not looks_like_id("levels/a.levels")


PINNED = json.loads((Path(__file__).parent / "pinned_ids.json").read_text(encoding="utf-8"))
"""ID -> the level's text, recorded when IDs were introduced (issue 20). A generator that now
makes another level from one of these must keep its old version for these IDs (core.ids)."""


@pytest.mark.parametrize("text", sorted(PINNED))
def test_pinned_ids_still_name_their_levels(text: str) -> None:
    resolved = resolve_id(text)
    # The same game: the pinned text means what it meant when it was pinned (a stored text,
    # read with the defaults of then). Carving now writes its two rule readings always
    # (issue 29), so its text gained those lines; every other game's text is unchanged.
    assert resolved.level == load_pack(PINNED[text], stored=True).levels[0]
    if resolved.info.id != "carving":
        assert dump_level(resolved.level, resolved.info.id) == PINNED[text]
    assert resolved.id == text


def test_an_old_custom_carving_id_keeps_the_readings_of_its_day() -> None:
    # A custom ID made before issue 29 holds a text without density/new_edges: it meant the
    # contiguous reading and edges over F*, and still does; a level file saying nothing
    # gets the seed's readings.
    old_text = PINNED["carving:tutorial/4"].replace("  density contiguous\n", "")
    assert "density" not in old_text and "new_edges" not in old_text
    old_id = encode_custom("carving", old_text)
    level = resolve_id(old_id).level
    assert (level.density, level.new_edges) == ("contiguous", "closure")
    saved = level_from_text(old_text)  # a save or My levels entry of that day, the same
    assert (saved.density, saved.new_edges) == ("contiguous", "closure")
    fresh = load_pack(old_text).levels[0]
    assert (fresh.density, fresh.new_edges) == ("subsequence", "well_typed")
    # A new ID names both readings, so it means the same game to any reader.
    again = resolve_id(level_id("carving", None, fresh)).level
    assert again == fresh


def test_a_custom_carving_level_keeps_the_key_it_had_before_its_format_named_its_readings():
    """Keys made by the code before issue 29 (which printed no ``new_edges`` and no
    ``density contiguous``): saves and leaderboard rows filed under them stay found."""
    from grammar.levels import load_pack_file
    from tui.ids import custom_key

    before = {
        ("01", "First Cut"): "0e4db61d8ed72bd1149a",
        ("01", "Clean Slate"): "5099fb4497464f4589a0",
        ("02", "Easy #1"): "4dfe45800b6ae5fd9afb",
        ("02", "Easy #2"): "ed6ca49c2b576e03a109",
    }
    found = {}
    for path in sorted((Path(__file__).parents[2] / "levels" / "carving").glob("*.levels")):
        for level in load_pack_file(path).levels:
            if (path.name[:2], level.title) in before:
                found[path.name[:2], level.title] = custom_key("carving", level)
    assert found == before
