"""Longcat level files: grids in the envelope and plain grid packs, with exact error places."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.levelmeta import MAX_PAR
from core.levelpack import LevelPack
from core.longcat import Level
from grammar.errors import ParseError
from grammar.levels import dump_level, dump_pack, format_for, load_pack
from grammar.longcat import check_grid, load_plain, sniff_plain

PACK = """; a comment: '#' is a wall here, so comments start with ';'
title "Two levels"
author "me"
game longcat

level "Corridor" {
  description "Slide right."
  par 1
  grid           ; the rows
    @...
}

level "Square" {
  hint "Go round."
  grid
    ####
    #@.#   ; a row may end with a comment
    #..#
    ####
}
"""


def test_a_hand_written_pack_loads_with_exact_values() -> None:
    pack = load_pack(PACK, "two.levels")
    assert (pack.title, pack.author, pack.game) == ("Two levels", "me", "longcat")
    corridor, square = pack.levels
    assert corridor == Level.from_rows(
        ["@..."], title="Corridor", description="Slide right.", par=1
    )
    assert square == Level.from_rows(
        ["####", "#@.#", "#..#", "####"], title="Square", hint="Go round."
    )
    assert square.start == (1, 1) and square.size == 4
    assert load_pack(dump_pack(pack)) == pack


def test_the_printed_grid_has_one_row_per_line() -> None:
    level = Level.from_rows(["#@.", "..#"], title="T", par=3, author="a")
    assert dump_level(level) == (
        'level "T" {\n  game longcat\n  author "a"\n  par 3\n  grid\n    #@.\n    ..#\n}\n'
    )
    assert format_for("longcat").game == "longcat"


def _grid_file(rows: str) -> str:
    """A level whose grid rows start on line 4, column 5."""
    return 'game longcat\nlevel "L" {\n  grid\n' + rows + "\n}\n"


@pytest.mark.parametrize(
    "rows, line, column, message",
    [
        ("    #@x#\n    ....", 4, 7, "unknown grid character 'x'"),
        ("    #@.#\n    ...", 5, 8, "grid row 2 has 3 cells, row 1 has 4"),
        ("    #@.#\n    .....", 5, 9, "grid row 2 has 5 cells, row 1 has 4"),
        ("    #..#\n    ....", 4, 5, "the grid has no start cell '@'"),
        ("    #@.#\n    ..@.", 5, 7, "a second start '@' (the first is at row 1, column 2"),
        ("    " + "." * 33 + "@", 4, 37, "at most 32 columns"),
        ("\n".join("    ." for _ in range(32)) + "\n    @", 36, 5, "at most 32 rows"),
        ('    #@."x', 4, 8, "unterminated string"),  # '"' never belongs to a row
    ],
)
def test_grid_errors_point_at_the_offending_cell(
    rows: str, line: int, column: int, message: str
) -> None:
    text = _grid_file(rows)
    with pytest.raises(ParseError) as info:
        load_pack(text, "bad.levels")
    error = info.value
    assert message in error.message
    assert (error.line, error.column) == (line, column)
    rendered = error.render().splitlines()
    assert rendered[0].startswith(f"bad.levels:{line}:{column}: ")
    _caret_under(rendered, text, line, column)


def _caret_under(rendered: list[str], text: str, line: int, column: int) -> None:
    """The caret line points at ``column`` of the shown line (just past it for a short row)."""
    source, caret = rendered[1], rendered[2]
    assert source == "  " + text.splitlines()[line - 1]
    assert caret == " " * (column + 1) + "^"


def test_rows_are_blank_separated_words() -> None:
    assert load_pack(_grid_file("    #@.# ....")).levels[0].rows() == ("#@.#", "....")


@pytest.mark.parametrize(
    "fields, line, column, message",
    [
        ("  par 3", 2, 1, "missing required field grid"),
        ('  grid "@.."', 3, 8, "grid must be a grid of rows of '#', '.' and '@', not a string"),
        ("  grid @ par -1", 3, 14, "par must be a non-negative integer"),
        ("  grid @ size 3", 3, 10, "unknown field 'size' for a longcat level"),
        ("  grid @ grid @", 3, 10, "duplicate field 'grid'"),
    ],
)
def test_field_errors(fields: str, line: int, column: int, message: str) -> None:
    text = 'game longcat\nlevel "L" {\n' + fields + "\n}\n"
    with pytest.raises(ParseError) as info:
        load_pack(text, "f.levels")
    assert message in info.value.message
    assert (info.value.line, info.value.column) == (line, column)


def test_a_lone_bad_word_is_a_syntax_error_with_what_was_expected() -> None:
    with pytest.raises(ParseError) as info:
        load_pack(_grid_file("    #@.#\n    7..."), "f.levels")
    assert (info.value.line, info.value.column) == (5, 5)
    assert "a grid row" in info.value.expected


# -- plain grid packs --------------------------------------------------------------------------

PLAIN = """; Some levels
; (c) someone

; level 1
####
#@.#
####

; level 2
@..   ; a trailing comment
...
"""


def test_a_plain_pack_loads_as_it_is() -> None:
    pack = load_pack(PLAIN, "/tmp/my-grids.txt")
    assert pack.game == "longcat" and pack.title == "my-grids"
    assert pack.description == "Some levels\n(c) someone"
    assert pack.titles() == ("Level 1", "Level 2")
    assert pack.levels[0] == Level.from_rows(["####", "#@.#", "####"], title="Level 1")
    assert pack.levels[1].rows() == ("@..", "...")
    assert load_pack(dump_pack(pack)) == pack  # printed as a level file, read back equal
    assert sniff_plain(PLAIN) and not sniff_plain(PACK) and not sniff_plain("; only\n")


def test_plain_pack_from_stdin_gets_a_generic_title() -> None:
    assert load_pack("@.\n", "<stdin>").title == "Longcat levels"
    assert load_plain("\n\n", None) == LevelPack("Longcat levels", game="longcat")


@pytest.mark.parametrize(
    "text, line, column, message",
    [
        ("; c\n\n##\n#@\n\n#.\n..\n", 6, 1, "no start cell"),
        ("@.\n.x\n", 2, 2, "unknown grid character 'x'"),
        ("  @..\n  ..\n", 2, 5, "grid row 2 has 2 cells"),
        ("@.@\n", 1, 3, "a second start"),
    ],
)
def test_plain_pack_errors(text: str, line: int, column: int, message: str) -> None:
    with pytest.raises(ParseError) as info:
        load_pack(text, "grids.txt")
    assert message in info.value.message
    assert (info.value.line, info.value.column) == (line, column)
    _caret_under(info.value.render().splitlines(), text, line, column)


def test_check_grid_reports_faults_in_reading_order() -> None:
    assert check_grid(["#@", ".."]) is None
    assert check_grid(["x@", "."])[1:] == (0, 0)  # an unknown character before a short row
    assert check_grid([]) is not None


# -- round trip --------------------------------------------------------------------------------

TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)
TITLE = st.text(
    st.characters(blacklist_categories=("Cs", "Cc", "Cf", "Zl", "Zp", "Co", "Cn")),
    min_size=1,
    max_size=20,
).filter(lambda t: t.isprintable())


@st.composite
def levels(draw) -> Level:
    width, height = draw(st.integers(1, 32)), draw(st.integers(1, 32))
    cells = [(x, y) for y in range(height) for x in range(width)]
    start = draw(st.sampled_from(cells))
    walls = 0
    for x, y in cells:
        if (x, y) != start and draw(st.booleans()):
            walls |= 1 << (y * (width + 1) + x)
    return Level(
        width,
        height,
        walls,
        start,
        title=draw(TITLE),
        description=draw(TEXT),
        hint=draw(TEXT),
        author=draw(TEXT),
        par=draw(st.none() | st.integers(0, MAX_PAR)),  # the bound every game shares
    )


@settings(max_examples=80, deadline=None)
@given(levels())
def test_dump_then_load_gives_back_every_level_the_constructor_accepts(level: Level) -> None:
    pack = LevelPack(title="p", levels=(level,), game="longcat")
    assert load_pack(dump_pack(pack)) == pack
