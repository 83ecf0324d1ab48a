"""Games plug in through the registry, and no game's terminals change how another's files read.

A toy game (tests/grammar/toygame.py) is registered at run time. Its body token, a row of
``x``, ``.`` and digits with priority 3, would take ``x``, ``x1`` and ``3x`` away from
TermCraft's terms if both were lexed together (the last test shows that it does, in a
combined grammar). With a parser per game, every bundled file lexes into the same tokens and
loads into the same values whether or not the toy is registered, and the toy's files load
next to them.
"""

from __future__ import annotations

import pytest
from lark import Lark

from core import registry
from grammar import envelope
from grammar.errors import ParseError
from grammar.levels import bundled_packs, dump_pack, format_for, load_pack, registered_formats
from levels import pack_files
from tests.grammar import toygame

TERMCRAFT_CLASH = """title "Names a row would take"
level "x" {
  game termcraft
  fuel 3 budget 12 par 3
  current f(x, x1, 3x, x3, 0, 12, x_, level(game))
  target g(x)
}
"""

TOY = """game toyrow
level "one" { row x.x3  length 12 }
level "two" { row 3x }
"""

TWO_THOUSAND = """level "Puzzle" {
  game 2048
  size 2 rule standard seed 1 tiles 0 goal none distribution "2:1"
  board [2 0] [0 2]
}
"""


def _texts() -> list[tuple[str, str]]:
    """Every bundled file of every registered game, and the hand-written ones above."""
    out = [("termcraft-clash", TERMCRAFT_CLASH), ("2048", TWO_THOUSAND)]
    for fmt in registered_formats():
        out += [
            (f"{fmt.game}/{entry.name}", entry.read_text(encoding="utf-8"))
            for entry in pack_files(fmt.game)
        ]
    return out


def _tokens(text: str) -> list[tuple[str, str, int]]:
    """The token stream of a level file, as the parser of its game lexes it."""
    found = envelope.scan(text)
    fmt = format_for(str(found.game)) if found.game is not None else None
    interactive = envelope.parser_for(fmt).parse_interactive(text)
    return [(tok.type, str(tok), tok.start_pos) for tok in interactive.iter_parse()]


def test_a_registered_toy_game_loads_prints_and_lists_itself():
    with registry.register(toygame.INFO):
        pack = load_pack(TOY, "toy.levels")
        assert pack.game == "toyrow"
        assert pack.levels == (toygame.ToyLevel("one", "x.x3", 12), toygame.ToyLevel("two", "3x"))
        assert load_pack(dump_pack(pack)) == pack
        assert "toyrow" in [fmt.game for fmt in registered_formats()]
        with pytest.raises(ParseError) as info:
            load_pack("game chess")
        assert "toyrow" in info.value.message and "toyrow" in info.value.expected
    with pytest.raises(ParseError) as info:  # gone again with its registration
        load_pack(TOY)
    assert "unknown game 'toyrow'" in info.value.message
    assert "toyrow" not in info.value.expected


def test_other_games_change_no_token_and_no_value_of_a_file():
    texts = _texts()
    assert len(texts) >= 6
    alone = [(_tokens(text), load_pack(text)) for _, text in texts]
    with registry.register(toygame.INFO):
        together = [(_tokens(text), load_pack(text)) for _, text in texts]
        toy = _tokens(TOY)
    for (name, _), before, after in zip(texts, alone, together):
        assert before == after, name
    # The clash file really holds the words a row would take, lexed as TermCraft names.
    clash_tokens = alone[0][0]
    names = {value for kind, value, _ in clash_tokens if kind == "termcraft__NAME"}
    assert {"x", "x1", "3x", "x3", "12", "level", "game"} <= names
    assert ("toyrow__ROW", "x.x3", TOY.index("x.x3")) in toy
    assert ("INT", "12", TOY.index("12")) in toy


def test_each_game_has_its_own_parser_with_only_its_own_terminals():
    with registry.register(toygame.INFO):
        parsers = {fmt.game: envelope.parser_for(fmt) for fmt in registered_formats()}
    assert {"termcraft", "2048", "toyrow"} <= set(parsers)
    envelope_names = {t.name for t in envelope.parser_for(None).terminals}
    for game, parser in parsers.items():
        namespace = format_for(game).body_namespace if game != "toyrow" else "toyrow"
        for terminal in parser.terminals:
            name = terminal.name
            assert name in envelope_names or name.startswith(namespace + "__") or name.isupper(), (
                game,
                name,
            )  # anonymous punctuation: "(" is LPAR
        others = {
            fmt.body_namespace
            for fmt in (format_for("termcraft"), format_for("2048"), toygame.FORMAT)
        } - {namespace}
        assert not [t.name for t in parser.terminals if t.name.split("__")[0] in others], game
    # Registering a game compiles its parser; it does not touch another game's.
    before = envelope.parser_for(format_for("termcraft"))
    with registry.register(toygame.INFO):
        load_pack(TOY)
        assert envelope.parser_for(format_for("termcraft")) is before


def test_a_games_values_are_syntax_errors_in_another_games_files():
    with registry.register(toygame.INFO):
        with pytest.raises(ParseError) as info:
            load_pack('level "a" { game termcraft current x.x }')
        assert "a row" not in info.value.expected
        assert not [t for t in info.value.terminals if t.startswith("toyrow__")]
        with pytest.raises(ParseError) as info:
            load_pack('level "a" { game toyrow row f(x) }')
        assert (info.value.line, info.value.column) == (1, 29)
        assert "an identifier" not in info.value.expected


def test_inside_a_level_block_level_is_never_the_keyword():
    """LALR merges states with equal items: the envelope keeps header and block rules apart."""
    with registry.register(toygame.INFO):
        for fmt in registered_formats():
            table = (
                envelope.parser_for(fmt).parse_interactive("").parser_state.parse_conf.parse_table
            )
            for state, actions in table.states.items():
                assert not ("RBRACE" in actions and "LEVEL" in actions), (fmt.game, state)
    for value in ('"s"', "f(a)", "a", "-3"):
        with pytest.raises(ParseError) as info:
            load_pack(f'level "a" {{ game termcraft hint {value} level 3 }}')
        assert "unknown field 'level'" in info.value.message or "must be" in info.value.message


def test_lexed_together_the_toy_would_change_termcraft_tokens():
    """The control: one grammar holding both bodies does lex TermCraft's words as rows."""
    combined = envelope.read_resource(envelope.ENVELOPE) + (
        "game_value: termcraft_value | toy_value\n"
        "%import termcraft.value -> termcraft_value\n"
        "%import toyrow.value -> toy_value\n"
    )

    def loader(base, path):
        for ref, ns in (
            ("grammar:termcraft.lark", "termcraft"),
            ("tests.grammar:toyrow.lark", "toyrow"),
        ):
            try:
                return envelope._BodyLoader(ns, ref)(base, path)
            except OSError:
                continue
        raise OSError(path)

    text = 'level "a" {\n  game termcraft\n  fuel 3 budget 0\n  current x1\n  target f(x)\n}\n'

    def lexed(lexer):  # the envelope itself needs the contextual lexer (game ids vs keys)
        parser = Lark(combined, parser="lalr", lexer=lexer, import_paths=[loader])
        kinds = []
        try:
            for token in parser.parse_interactive(text).iter_parse():
                kinds.append((token.type, str(token)))
        except Exception:
            pass
        return kinds

    # Where a value starts, both bodies' tokens are possible: TermCraft's x1 becomes a row.
    assert ("toyrow__ROW", "x1") in lexed("contextual")
    # The game's own parser reads both as TermCraft names.
    tokens = _tokens(text)
    assert ("termcraft__NAME", "x1", text.index("x1")) in tokens
    assert ("termcraft__NAME", "x", text.index("x)")) in tokens
    assert load_pack(text).levels[0].current.name == "x1"


def test_bundled_packs_of_a_game_without_files_are_empty():
    assert bundled_packs("2048") == []


BROKEN = None  # set by the test below: a format whose body grammar does not compile


def test_a_broken_or_missing_format_is_a_clean_error_at_the_game_field():
    from dataclasses import replace

    from core.registry import GameInfo

    global BROKEN
    BROKEN = replace(
        toygame.FORMAT, game="broken", grammar="tests.grammar:no-such-file.lark", namespace="broken"
    )
    cases = [
        (
            GameInfo(
                id="broken",
                title="Broken",
                tagline="t",
                engine="x:y",
                level_format=f"{__name__}:BROKEN",
            ),
            "the level format of broken is broken",
        ),
        (
            GameInfo(id="broken", title="Broken", tagline="t", engine="x:y"),
            "Broken has no level files",
        ),
        (
            GameInfo(
                id="broken",
                title="Broken",
                tagline="t",
                engine="x:y",
                level_format="tests.grammar.no_such_module:FORMAT",
            ),
            "Broken's level format could not be loaded (ModuleNotFoundError",
        ),
    ]
    for info, message in cases:
        with registry.register(info):
            with pytest.raises(ParseError) as err:
                load_pack('title "t"\ngame broken\n', "b.levels")
            assert (err.value.line, err.value.column) == (2, 6)
            assert message in err.value.message, err.value.render()
            assert load_pack(TWO_THOUSAND).game == "2048"  # the others still load
