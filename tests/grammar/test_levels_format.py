"""The level-file format (TermCraft files): hand-written valid and invalid files, exact positions."""

from __future__ import annotations

import pytest

from core.levelpack import LevelPack
from core.termcraft import Level
from core.termcraft.level import MAX_RESOURCE
from core.termcraft.terms import compound, const, var
from grammar.errors import ParseError
from grammar.levels import MAX_FILE_CHARS, dump_pack, escape_string, load_pack, load_pack_file

VALID = r"""; A hand-written pack.   Comments run to the end of a line.
title "Two \"quoted\" levels"   ; header fields
author "Ada \\ Lovelace"
description "line one\nline two, tab\there "
  "and a continued string \u00e9\U0001F600"

level "First" {
  game termcraft
  description "Make it blue."
  hint "rewrite"
  fuel 3
  budget 0
  par 1
  current puzzle_state(   ; a term can span lines,
    rewrite(red, blue),   ; with comments between its tokens
    data(red)
  )
  target puzzle_state(rewrite(red,blue),data(blue))
}

level "Second, with ; and {braces} in its title" { game termcraft fuel 0 budget 7
  current f(level, VAR(X), t(), 007) target g  author "me" }
"""


def test_hand_written_pack_loads_with_exact_values():
    pack = load_pack(VALID, "valid.levels")
    assert pack.title == 'Two "quoted" levels'
    assert pack.author == "Ada \\ Lovelace"
    assert (
        pack.description == "line one\nline two, tab\there and a continued string \u00e9\U0001f600"
    )
    assert pack.game == "termcraft"
    first, second = pack.levels
    rule = compound("rewrite", [const("red"), const("blue")])
    assert first == Level(
        title="First",
        current=compound("puzzle_state", [rule, compound("data", [const("red")])]),
        target=compound("puzzle_state", [rule, compound("data", [const("blue")])]),
        fuel=3,
        budget=0,
        par=1,
        description="Make it blue.",
        hint="rewrite",
        author="",
    )
    # `level` is an ordinary constant inside a term; VAR(X) is a variable; t() is a
    # zero-argument compound; 007 is a constant (only integer fields read digits as numbers).
    assert second.title == "Second, with ; and {braces} in its title"
    assert second.current is compound(
        "f", [const("level"), var("X"), compound("t", []), const("007")]
    )
    assert second.target is const("g")
    assert (second.fuel, second.budget, second.par, second.author) == (0, 7, None, "me")
    assert second.description == "" and second.hint == ""


def test_header_game_is_inherited_and_integers_are_decimal():
    pack = load_pack('game termcraft\nlevel "a" { fuel 010 budget 0 current a target b }')
    assert pack.game == "termcraft" and pack.title == ""
    assert pack.levels[0].fuel == 10


def test_empty_pack_and_byte_order_mark():
    assert load_pack("") == LevelPack(title="")
    assert load_pack('\ufeff; nothing\ntitle "x"\n') == LevelPack(title="x")


def test_pack_helpers():
    pack = load_pack(VALID)
    assert pack.titles() == ("First", "Second, with ; and {braces} in its title")
    assert pack.index_of("First") == 0 and len(pack) == 2
    with pytest.raises(KeyError):
        pack.index_of("Third")


def _body(extra: str) -> str:
    """A level whose fields start on line 3; ``extra`` is inserted as line 3."""
    return 'title "t"\nlevel "L" {\n' + extra + "\n}\n"


GOOD = "game termcraft fuel 1 budget 0 current a target b"


@pytest.mark.parametrize(
    "text, line, column, message_part",
    [
        # unknown field (with a suggestion), at the key
        (
            _body("  game termcraft fule 1"),
            3,
            18,
            "unknown field 'fule' for a termcraft level (did you mean 'fuel'?)",
        ),
        # duplicate field, at the second key
        (
            _body("  game termcraft\n  fuel 1\n    fuel 2"),
            5,
            5,
            "duplicate field 'fuel' (first given on line 4)",
        ),
        # missing required fields, at the `level` keyword
        (
            _body("  game termcraft fuel 1 budget 0"),
            2,
            1,
            "missing required fields current, target",
        ),
        # wrong types, at the value
        (
            _body('  game termcraft fuel "3"'),
            3,
            23,
            "fuel must be a non-negative integer, not a string",
        ),
        (_body("  game termcraft fuel f(x)"), 3, 23, "not the term f(x)"),
        (_body('  game termcraft current "a"'), 3, 26, "current must be a term, not a string"),
        (_body("  game termcraft hint here"), 3, 23, "hint must be a string in double quotes"),
        # negative fuel, at the minus sign
        (_body("  game termcraft fuel -3"), 3, 23, "fuel must be a non-negative integer, not -3"),
        (_body("  game termcraft budget\n   -1"), 4, 4, "budget must be a non-negative integer"),
        # a term value after a comment and a line break: the caret is on the term
        (_body("  game termcraft par ; comment\n\n     p(q)"), 5, 6, "par must be a non-negative"),
        # bounds are the constructor's; the caret is still on the field's value
        (
            _body(f"  game termcraft fuel {MAX_RESOURCE + 1} budget 0 current a target b"),
            3,
            23,
            "level 'L': fuel must be an integer from 0 to 1000000000, not 1000000001",
        ),
        (
            _body("  game termcraft fuel 1 budget 0 par 10000000000 current a target b"),
            3,
            38,
            "par must be an integer from 0 to 1000000000",
        ),
        (
            _body("  game termcraft fuel " + "9" * 41),
            3,
            23,
            "fuel: the number is too large (41 digits)",
        ),
        (_body(f"  {GOOD} current var(a)"), 3, 53, "duplicate field 'current'"),
        # games: known before the first value, one per pack
        (_body("  game chess"), 3, 8, "unknown game 'chess' (games with level files: "),
        (_body('  game "termcraft"'), 3, 8, "game must be a game id such as"),
        (
            _body("  fuel 1"),
            3,
            3,
            "level 'L' does not say its game: write 'game <id>' as its "
            "first field (or once in the pack header)",
        ),
        (
            'game termcraft\nlevel "a" {\n fuel 1 budget 0 current a target b\n  game termcraft }',
            4,
            3,
            "the game field comes first in a level block",
        ),
        (
            'level "a" {\n game termcraft fuel 1 budget 0 current a target b }\nlevel "b" { fuel 1 }',
            3,
            1,
            "level 'b' has no game: write 'game termcraft' as its first field",
        ),
        (
            'game termcraft\nlevel "a" {\n  game 2048 }',
            3,
            8,
            "level 'a' is a 2048 level but this pack holds termcraft levels (one game per pack)",
        ),
        ("game termcraft game termcraft", 1, 16, "duplicate field 'game'"),
        # title inside a level block
        (_body(f'  {GOOD}\n  title "x"'), 4, 3, "duplicate field title"),
        # header problems
        ('titel "x"\n', 1, 1, "unknown field 'titel' for the pack header (did you mean 'title'?)"),
        ('title "x"\ntitle "y"\n', 2, 1, "duplicate field 'title' (first given on line 1)"),
        ("title x\n", 1, 7, "title must be a string in double quotes, not the word x"),
        ("title 12\n", 1, 7, "title must be a string in double quotes, not the integer 12"),
        ('title "a\\u0007b"\n', 1, 7, "pack field title: title must be printable text on one line"),
        (_body(GOOD) + 'author "late"\n', 5, 1, "the pack header comes before the first level"),
        # duplicate level titles, at the second title
        (
            _body(GOOD) + 'level "L" { ' + GOOD + " }\n",
            5,
            7,
            "duplicate level title 'L' (first used on line 2)",
        ),
        # titles are checked by the level constructor: the caret is on the title
        ('level "  " {\n  ' + GOOD + "\n}\n", 1, 7, "title must not be empty"),
        ('level "a\\tb" {\n  ' + GOOD + "\n}\n", 1, 7, "title must be printable text"),
        ('level "' + "t" * 201 + '" {\n  ' + GOOD + "\n}\n", 1, 7, "title is too long (201"),
        # strings
        ('title "abc\n', 1, 7, "unterminated string"),
        ('title "a\\qb"\n', 1, 9, "invalid escape sequence '\\q'"),
        ('title "a\\u12g4"\n', 1, 9, "invalid escape sequence '\\u'"),
        ('title "\\ud800"\n', 1, 8, "invalid escape sequence '\\u'"),
        ('level "a" { game termcraft hint "\\x" }', 1, 34, "invalid escape sequence '\\x'"),
        # syntax errors come from the grammar, with what was expected
        (_body("  game termcraft current f(a,"), 4, 1, "unexpected '}'"),
        (_body("  game termcraft current f(a) g"), 4, 1, "unexpected '}'"),
        ("level {\n}", 1, 7, "unexpected '{'"),
        ('level "a" {\n  game termcraft\n', 2, 17, "unexpected end of input"),
        ('title "a" # wall\n', 1, 11, "unexpected character '#'"),
        # `level` is a keyword in the header only; inside a block it is a (wrong) key
        (_body("  game termcraft level 3"), 3, 18, "unknown field 'level'"),
    ],
)
def test_invalid_files_give_exact_positions(text, line, column, message_part):
    with pytest.raises(ParseError) as info:
        load_pack(text, "bad.levels")
    err = info.value
    assert (err.line, err.column) == (line, column), err.render()
    assert message_part in err.message, err.render()
    assert err.filename == "bad.levels"
    rendered = err.render().splitlines()
    assert rendered[0].startswith(f"bad.levels:{line}:{column}: ")
    # The offending line is shown with a caret under the column (long lines: a window).
    shown = text.split("\n")[line - 1].expandtabs(1)
    if len(shown) <= 72:
        assert rendered[1] == "  " + shown
        assert rendered[2] == "  " + " " * (column - 1) + "^"
    else:
        assert rendered[2].endswith("^") and len(rendered[1]) < 80


def test_syntax_errors_say_what_was_expected():
    with pytest.raises(ParseError) as info:
        load_pack(_body("  game termcraft current f(a) g"))
    assert set(info.value.expected) == {"a negative integer", "a string", "an identifier"}
    with pytest.raises(ParseError) as info:
        load_pack(_body("  game termcraft fule 1"))
    assert "fuel" in info.value.expected and "current" in info.value.expected


def test_escape_string_is_one_line_and_reads_back():
    text = 'quote " backslash \\ newline \n tab \t cr \r nul \0 nel \x85 ls \u2028 emoji \U0001f600'
    quoted = escape_string(text)
    assert "\n" not in quoted and "\r" not in quoted and "\u2028" not in quoted
    assert load_pack(f"description {quoted}").description == text


def test_too_large_text_is_refused_without_parsing():
    with pytest.raises(ParseError) as info:
        load_pack(" " * (MAX_FILE_CHARS + 1), "huge.levels")
    assert "too large" in info.value.message
    # The caret is on the first character past the limit (the line is shown as a window).
    assert (info.value.line, info.value.column) == (1, MAX_FILE_CHARS + 1)
    assert info.value.render().splitlines()[2].endswith("^")


def test_load_pack_file_errors_are_clean(tmp_path):
    missing = tmp_path / "missing.levels"
    with pytest.raises(ParseError) as info:
        load_pack_file(missing)
    assert info.value.filename == str(missing) and "cannot read" in info.value.message
    binary = tmp_path / "latin1.levels"
    binary.write_bytes(b'title "ok"\ntitle "caf\xe9"\n')
    with pytest.raises(ParseError) as info:
        load_pack_file(binary)
    assert (info.value.line, info.value.column) == (2, 11)
    assert "not UTF-8" in info.value.message
    good = tmp_path / "good.levels"
    good.write_text(VALID, encoding="utf-8")
    assert load_pack_file(good) == load_pack(VALID)
    good.write_text(VALID.replace("fuel 3", "fuel -3"), encoding="utf-8")
    with pytest.raises(ParseError) as info:
        load_pack_file(good)
    assert info.value.filename == str(good)
    assert (info.value.line, info.value.column) == (11, 8)


def _plain_game(sniff):
    """A registered toy game whose plain files are grids of ``#``, ``.`` and ``@``."""
    from core.registry import GameInfo
    from grammar.format import LevelFormat, PlainLoader

    def load(text, filename):
        return LevelPack(title=f"grid:{len(text.split())}", game="gridtoy")

    fmt = LevelFormat(
        game="gridtoy",
        level_type=tuple,
        fields=(),
        build=lambda t, v: (t,),
        fields_of=lambda level: {},
        plain=PlainLoader(sniff, load),
    )
    import tests.grammar.test_levels_format as here

    here.GRID_FORMAT = fmt
    return GameInfo(
        id="gridtoy",
        title="Grid toy",
        tagline="t",
        engine="x:y",
        level_format=f"{here.__name__}:GRID_FORMAT",
    )


def test_a_plain_loader_takes_texts_it_recognises():
    from core import registry

    # "%" grids: "#" grids are Longcat's own plain packs, which its loader claims first.
    with registry.register(_plain_game(lambda text: text.lstrip().startswith(("%", ";")))):
        assert load_pack("%%%\n%@%\n%%%\n") == LevelPack(title="grid:3", game="gridtoy")
        assert load_pack("; a comment\n%@%\n") == LevelPack(title="grid:4", game="gridtoy")
        # Envelope files are never offered to a plain loader, however eager its sniffer.
        assert load_pack('; c\ntitle "x"') == LevelPack(title="x")
    with pytest.raises(ParseError):
        load_pack("%%%\n%@%\n%%%\n")  # without the game, a grid is a syntax error


def test_packs_hold_one_game_and_unknown_games_list_the_registered_ones():
    with pytest.raises(ParseError) as info:
        load_pack(
            'level "a" { game termcraft fuel 1 budget 0 current a target b }\n'
            'level "b" {\n  game 2048 }'
        )
    err = info.value
    assert (err.line, err.column) == (3, 8)
    assert "is a 2048 level but this pack holds termcraft levels" in err.message
    with pytest.raises(ParseError) as info:
        load_pack("game chess")
    assert "termcraft" in info.value.expected and "2048" in info.value.expected


def test_saved_pack_writes_atomically_and_reads_back(tmp_path):
    """The editor's save path: dump_pack through the store's atomic writer."""
    from tui.store import atomic_write_text

    def save_pack_file(path, pack):
        atomic_write_text(path, dump_pack(pack))

    target = tmp_path / "mine.levels"
    target.write_text("old contents", encoding="utf-8")
    pack = load_pack(VALID)
    save_pack_file(target, pack)
    assert load_pack_file(target) == pack
    assert [p.name for p in tmp_path.iterdir()] == ["mine.levels"]  # no temporary left over
    with pytest.raises(OSError):
        save_pack_file(tmp_path / "no-such-dir" / "x.levels", pack)


def test_a_plain_file_two_games_would_read_asks_for_the_game():
    """Sniffers once ran in registry order, so one game's format could take another's file."""
    from core import registry

    grid = "; three cells\n#.#\n#@#\n###\n"
    assert load_pack(grid).game == "longcat"  # one claim: no question asked
    with registry.register(_plain_game(lambda text: "@" in text)):
        with pytest.raises(ParseError) as info:
            load_pack(grid, filename="maze.txt")
        err = info.value
        assert (err.filename, err.line, err.column) == ("maze.txt", 2, 1)
        assert "could be a gridtoy or longcat level file" in err.message
        assert "--game" in err.message and "  #.#\n  ^" in err.render()
        # The caller that knows its game (a command's own game, --game) gets that format.
        assert load_pack(grid, game="longcat").game == "longcat"
        assert load_pack(grid, game="gridtoy") == LevelPack(title="grid:6", game="gridtoy")
    # Another game's plain file stays that game's: the caller then says whose file it is
    # ("this is a level file for longcat, not for termcraft") instead of a syntax error.
    assert load_pack(grid, game="termcraft").game == "longcat"


def test_the_ambiguous_plain_file_error_points_at_the_first_grid_row_not_into_a_comment():
    """The caret once went to the first occurrence of the row's first character, which a
    leading comment can hold (``; level #1``)."""
    from core import registry

    grid = "; level #1\n  #.#\n  #@#\n  ###\n"
    with (
        registry.register(_plain_game(lambda text: "@" in text)),
        pytest.raises(ParseError) as info,
    ):
        load_pack(grid, filename="maze.txt")
    assert (info.value.line, info.value.column) == (2, 3)
