"""tui.terminal: what a terminal can show, glyph translation, and the "too small" screen."""

from __future__ import annotations

import unicodedata

import pytest
from rich.cells import cell_len

from tui.terminal import (  # tables, tested as such
    _ASCII_EXTRA,
    _CP437_EXTRA,
    MIN_SIZE,
    TerminalProfile,
    TooSmallScreen,
    _is_cp437_safe,
    detect_profile,
    theme_for,
    translator,
)

pytestmark = pytest.mark.pilot


@pytest.mark.parametrize(
    ("env", "glyphs", "colors"),
    [
        ({"TERM": "xterm-256color", "COLORTERM": "truecolor"}, "unicode", 16777216),
        ({"TERM": "xterm-256color"}, "unicode", 256),
        ({"TERM": "xterm"}, "unicode", 16),
        ({"TERM": "screen"}, "unicode", 16),
        ({"TERM": "linux"}, "cp437", 16),
        ({"TERM": "vt100"}, "ascii", 16),
        ({"TERM": "vt220"}, "ascii", 16),
        ({"TERM": "dumb"}, "ascii", 0),
        ({"TERM": "xterm-256color", "TERMARCADE_GLYPHS": "ascii"}, "ascii", 256),
        ({"TERM": "linux", "TERMARCADE_GLYPHS": "unicode"}, "unicode", 16),
        ({}, "unicode", 16),
    ],
)
def test_profile_from_the_environment(env, glyphs, colors) -> None:
    profile = detect_profile(env)
    assert (profile.glyphs, profile.colors) == (glyphs, colors)


def test_the_players_choice_wins_and_nonsense_is_refused() -> None:
    assert detect_profile({"TERM": "linux"}, glyphs="ascii").glyphs == "ascii"
    with pytest.raises(ValueError):
        detect_profile({}, glyphs="ebcdic")
    # Issue 27: a variable may come from a stranger's SSH client; it is ignored, not fatal.
    assert detect_profile({"TERM": "linux", "TERMARCADE_GLYPHS": "ebcdic"}).glyphs == "cp437"


def test_sixteen_colours_get_the_ansi_theme_and_no_color_keeps_textuals_greys() -> None:
    assert theme_for(TerminalProfile(colors=16)) == "ansi-dark"
    assert theme_for(TerminalProfile(colors=256)) is None
    assert theme_for(TerminalProfile(colors=16777216)) is None
    assert theme_for(TerminalProfile(colors=16, no_color=True)) is None
    assert detect_profile({"NO_COLOR": ""}).no_color  # set at all counts, as in Textual


# The glyphs the arcade's screens and Textual's widgets draw (borders, scroll bars, footer,
# tree guides, markers), plus a sample of what players may type.
APP_GLYPHS = (
    "▊▔▁▎▏▕▌▐█▀▄▂▃▅▆▇▉▋▍░▒▓ ┏━┓┃┗┛╭─╮│╰╯├└┤┬┴┼╔═╗║╚╝ ⏎⭘▼▶▲◀◆★☆σΣ⇒⇐→←↑↓»« ·•●…⋯"
    "−–—✗✓×⚠ é ü ß Ω 中 😀 \u0301"
)


@pytest.mark.parametrize("glyphs", ["ascii", "cp437"])
def test_translation_keeps_every_cell_and_stays_in_the_set(glyphs) -> None:
    translate = translator(glyphs)
    for char in APP_GLYPHS + "".join(_ASCII_EXTRA) + "".join(_CP437_EXTRA):
        out = translate(char)
        assert cell_len(out) == cell_len(char), (char, out)
        if glyphs == "ascii":
            assert out.isascii(), (char, out)
        else:
            assert all(_is_cp437_safe(c) for c in out), (char, out)


def test_translation_reads_like_the_original() -> None:
    ascii_ = translator("ascii")
    assert ascii_("╭─ Term ─╮") == "+- Term -+"
    assert ascii_("┏━ Actions ━┓") == "+= Actions =+"  # the focused panel stays apart
    assert ascii_("a ⇒ b") == "a > b"
    assert ascii_("★ won   ✗ lost") == "* won   x lost"
    assert ascii_("café") == "cafe"
    cp437 = translator("cp437")
    assert cp437("┏━┓") == "╔═╗" and cp437("╭─╮") == "┌─┐"
    assert cp437("σ · é") == "s · é"
    assert translator("unicode")("▊⇒★") == "▊⇒★"


def test_escape_sequences_pass_unchanged() -> None:
    text = "\x1b[38;2;1;2;3m┃x┃\x1b[0m\x1b]0;title\x07"
    assert translator("ascii")(text) == "\x1b[38;2;1;2;3m|x|\x1b[0m\x1b]0;title\x07"


def test_the_cp437_set_is_what_the_console_fonts_draw() -> None:
    for char in "─│┌┐└┘├┤┬┴┼═║╔╗╚╝█▄▀▌▐░▒▓■·«»éü£":
        assert _is_cp437_safe(char), unicodedata.name(char)
    for char in "╭━▔▁⇒★σ∞":
        assert not _is_cp437_safe(char), unicodedata.name(char)


async def test_too_small_screen_comes_and_goes(arcade_app) -> None:
    app = arcade_app()
    async with app.run_test(size=(50, 16)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        assert "50×16" in app.screen.text() and f"{MIN_SIZE[0]}×{MIN_SIZE[1]}" in app.screen.text()
        await pilot.press("q", "question_mark", "escape")  # nothing acts on the hidden screens
        assert isinstance(app.screen, TooSmallScreen)
        await pilot.resize_terminal(*MIN_SIZE)
        await pilot.pause()
        assert type(app.screen).__name__ == "HomeScreen"
        await pilot.resize_terminal(70, 12)
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen) and "70×12" in app.screen.text()
        await pilot.resize_terminal(59, 40)
        await pilot.pause()
        assert "59×40" in app.screen.text()
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        assert type(app.screen).__name__ == "HomeScreen"
        assert sum(isinstance(screen, TooSmallScreen) for screen in app.screen_stack) == 0


async def test_too_small_over_a_game_keeps_the_game(arcade_app) -> None:
    app = arcade_app(start_game="2048")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.pause()
        game = app.screen
        assert game.info.id == "2048"
        await pilot.resize_terminal(40, 10)
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        await pilot.press("left", "up")  # not played blind
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert app.screen is game and game.session.moves_made == 0
        await pilot.press("ctrl+q")  # quitting still works


async def test_served_apps_offer_no_screenshot(arcade_app) -> None:
    served = arcade_app(served=True)
    async with served.run_test() as pilot:
        await pilot.pause()
        titles = {command.title for command in served.get_system_commands(served.screen)}
        assert "Screenshot" not in titles and "Quit" in titles
    local = arcade_app()
    async with local.run_test() as pilot:
        await pilot.pause()
        assert "Screenshot" in {
            command.title for command in local.get_system_commands(local.screen)
        }
