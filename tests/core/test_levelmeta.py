"""The level-metadata protocol: every game's level refuses the same bad metadata with the same
message (one definition, core.levelmeta.check_meta), and offers the protocol's attributes."""

from __future__ import annotations

import dataclasses

import pytest

from core import registry
from core.game2048.level import Level as Level2048
from core.game2048.level import make_config
from core.levelmeta import MAX_PAR, LevelMeta, check_meta, check_par
from core.levelpack import MAX_TEXT, MAX_TITLE, LevelFieldError
from grammar.levels import bundled_packs

GAMES = ("termcraft", "carving", "algebrawl", "longcat", "2048")


def first_level(game: str):
    """A good level of ``game`` (the first of its first bundled pack; 2048 bundles none)."""
    if game == "2048":
        return Level2048("Classic", make_config())
    _pack_id, pack = bundled_packs(game)[0]
    return pack.levels[0]


# The messages are written out here, not built from the code's constants, so a change of
# wording or bound in core.levelmeta shows up as a failure.
BAD = [
    ("title", "a\nb", "title must be printable text on one line (it contains U+000A)"),
    ("title", "  ", "title must not be empty"),
    ("title", 7, "title must be a string, not int"),
    ("title", "t" * 201, "title is too long (201 characters; at most 200)"),
    ("hint", "x" * 20_001, "hint is too long (20001 characters; at most 20000)"),
    ("description", "a\ud800b", "description contains a lone surrogate (not encodable text)"),
    ("author", None, "author must be a string, not NoneType"),
    ("par", -1, "par must be an integer from 0 to 1000000000, not -1"),
    ("par", True, "par must be an integer from 0 to 1000000000, not True"),
    ("par", "3", "par must be an integer from 0 to 1000000000, not '3'"),
    ("par", 10**9 + 1, "par must be an integer from 0 to 1000000000, not 1000000001"),
]


def test_the_written_messages_match_the_shared_bounds() -> None:
    # The cases above spell the bounds out; they are the shared constants.
    assert (MAX_TITLE, MAX_TEXT, MAX_PAR) == (200, 20_000, 10**9)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    ("field", "value", "message"), BAD, ids=[f"{field}-{i}" for i, (field, *_) in enumerate(BAD)]
)
def test_every_game_refuses_bad_metadata_with_the_same_message(
    game: str, field: str, value: object, message: str
) -> None:
    level = first_level(game)
    if field == "par" and game == "2048":
        pytest.skip("a 2048 level has no par to give (its par is always None)")
    with pytest.raises(LevelFieldError) as info:
        dataclasses.replace(level, **{field: value})
    assert str(info.value) == message
    assert info.value.field == field


@pytest.mark.parametrize("game", GAMES)
def test_every_game_level_offers_the_protocol(game: str) -> None:
    level = first_level(game)
    assert isinstance(level, LevelMeta)
    assert level.title and isinstance(level.hint, str)
    if game == "2048":
        assert level.par is None
    # The bundled levels pass the shared check as they are.
    check_meta(level)


@pytest.mark.parametrize("game", ["carving", "longcat"])
def test_untitled_levels_where_the_game_allows_them(game: str) -> None:
    level = dataclasses.replace(first_level(game), title="")
    assert level.title == ""


def test_every_registered_game_with_levels_is_covered() -> None:
    # A new first-party game joins the list above (its levels get the same checks).
    with_levels = {info.id for info in registry.games() if info.level_format is not None}
    assert with_levels == set(GAMES)


def test_check_par_accepts_the_bounds() -> None:
    for par in (None, 0, 1, MAX_PAR):
        check_par(par)
    with pytest.raises(LevelFieldError):
        check_par(1.0)


def test_algebrawl_keeps_its_own_stricter_par() -> None:
    # Its own rule applies after the shared one: a puzzle takes 1 to 99 moves.
    level = first_level("algebrawl")
    with pytest.raises(LevelFieldError, match="par must be a whole number from 1 to 99, not 0"):
        dataclasses.replace(level, par=0)
    with pytest.raises(LevelFieldError, match="from 1 to 99, not 100"):
        dataclasses.replace(level, par=100)


@pytest.mark.parametrize("game", GAMES)
def test_level_files_write_the_metadata_first_in_the_same_order(game: str) -> None:
    from grammar.levels import dump_level

    level = dataclasses.replace(first_level(game), author="A", description="D", hint="H")
    lines = dump_level(level).splitlines()
    assert lines[1:5] == [f"  game {game}", '  author "A"', '  description "D"', '  hint "H"']
