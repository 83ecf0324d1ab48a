"""2048 level files: configurations and puzzle boards, with exact error positions."""

from __future__ import annotations

import pytest

from core.game2048 import GameConfig
from core.game2048.level import Level, make_config
from grammar.errors import ParseError
from grammar.game2048 import format_distribution, parse_distribution
from grammar.levels import dump_pack, format_for, load_pack

PACK = """title "2048 puzzles"
game 2048                      ; once for every level

level "Classic" { }            ; everything defaults: GameConfig's defaults

level "Fibonacci corner" {
  hint "Keep the big ones in a corner."
  size 4 rule fibonacci seed 7 tiles 0
  goal none                    ; endless
  distribution "1:9, 2:0.5"    ; value:weight, commas and/or spaces
  board
    [1 0 0 1]
    [0,2,0,0]                  ; commas between cells are fine too
    [0 0 0 0]
    [0 0 0 3]
}
"""


def test_a_hand_written_2048_pack_loads_with_exact_values():
    pack = load_pack(PACK, "puzzles.levels")
    assert pack.game == "2048" and pack.title == "2048 puzzles"
    classic, corner = pack.levels
    assert classic == Level("Classic", GameConfig())
    assert corner.config == GameConfig(
        board_size=4,
        initial_seed=7,
        number_of_initial_tiles=0,
        tile_value_distribution=((1, 9), (2, 0.5)),
        merge_rule="fibonacci",
        goal=None,
    )
    assert corner.board == ((1, 0, 0, 1), (0, 2, 0, 0), (0, 0, 0, 0), (0, 0, 0, 3))
    assert corner.hint == "Keep the big ones in a corner."
    assert load_pack(dump_pack(pack)) == pack


def test_a_rule_alone_takes_its_presets_goal_and_distribution():
    level = load_pack('level "t" { game 2048 rule threes }').levels[0]
    assert level.config == GameConfig.for_preset("threes")
    assert format_for("2048").game == "2048"


def _level(fields: str) -> str:
    """A 2048 level whose fields are on line 3."""
    return 'game 2048\nlevel "L" {\n' + fields + "\n}\n"


@pytest.mark.parametrize(
    "fields, column, message_part",
    [
        ("  size 1", 8, "size must be an integer >= 2, got 1"),
        ("  size 65", 8, "size must be at most 64, not 65"),
        (
            "  size 4 tiles 17",
            16,
            "tiles must be between 0 and 16 (the cells of a 4×4 board), got 17",
        ),
        ("  seed 4294967296", 8, "seed must be an integer from 0 to 4294967295"),
        ("  seed -1", 8, "seed must be a non-negative integer, not -1"),
        ("  rule fib", 8, "unknown merge rule 'fib'; choose one of: standard, fibonacci, threes"),
        (
            '  rule "standard"',
            8,
            "rule must be a merge rule name (standard, fibonacci or threes), not a string",
        ),
        ("  goal 0", 8, "goal must be a positive integer or None, got 0"),
        ("  goal nothing", 8, "goal must be a positive integer or none, not the word nothing"),
        ("  goal 1000000000000000001", 8, "goal values must be at most 1000000000000000000"),
        ('  distribution "2:x"', 16, "bad distribution item '2:x': expected value:weight"),
        ('  distribution ""', 16, "the distribution is empty"),
        ('  distribution "0:1"', 16, "tile values must be positive integers, got 0"),
        ('  distribution "2:0"', 16, "needs a positive total weight"),
        ("  distribution 2", 16, "distribution must be value:weight pairs in double quotes"),
        ("  size 2 board [2 0 0] [0 0 0] [0 0 0]", 16, "the board has 3 rows but size is 2"),
        (
            "  size 2 board [2 0] [0 0] [0 0]",
            16,
            "a board must be square: a row has 2 cells, expected 3",
        ),
        ("  size 2 board [2 0] [0]", 16, "a board must be square"),
        ("  board 2", 9, "board must be a board of rows such as [2 0 0 2], not the integer 2"),
        ("  size 2 board [2 0] [0 99999999999999999999]", 16, "board values must be at most"),
        ("  fuel 3", 3, "unknown field 'fuel' for a 2048 level"),
        ("  sise 3", 3, "(did you mean 'size'?)"),
        ("  size 2 size 3", 10, "duplicate field 'size'"),
        # syntax errors, with exactly what may stand there
        ("  board [2 0", 1, "unexpected '}'"),
        ("  size ]", 8, "unexpected ']'"),
        ("  size 2x", 8, "unexpected '2x'"),
    ],
)
def test_bad_2048_levels_give_exact_positions(fields, column, message_part):
    text = _level(fields)
    with pytest.raises(ParseError) as info:
        load_pack(text, "bad.levels")
    err = info.value
    line = 4 if message_part == "unexpected '}'" else 3
    assert (err.line, err.column) == (line, column), err.render()
    assert message_part in err.message, err.render()


def test_syntax_errors_in_a_board_say_what_may_follow():
    with pytest.raises(ParseError) as info:
        load_pack(_level("  board [2 0"))
    assert info.value.expected == ('","', '"]"', "a number")
    with pytest.raises(ParseError) as info:
        load_pack(_level("  size"))
    assert info.value.expected == ('"["', "a negative integer", "a string", "a word", "an integer")


def test_distribution_text_round_trips_exactly():
    pairs = (
        (2, 9),
        (4, 1),
        (8, 0.1),
        (16, 1e-05),
        (32, 5e-324),
        (64, 1.7976931348623157e308),
        (128, 0.0),
    )
    assert parse_distribution(format_distribution(pairs)) == pairs
    assert format_distribution([(2, -0.0)]) == "2:0.0"
    assert parse_distribution("2 4:3") == ((2, 1), (4, 3))
    level = Level("w", make_config(distribution=pairs[:-1]))
    assert (
        load_pack(
            dump_pack(
                load_pack(
                    'level "w" { game 2048 distribution "' + format_distribution(pairs[:-1]) + '" }'
                )
            )
        ).levels[0]
        == level
    )
