"""Player text is data, never markup: hostile level text in every game's own screens.

A level's title, description, hint and author are written by whoever made the level (a My
level, a shared level ID, a served player), so each game's screen, its designer bench (``E``),
its level-ID dialog (``I``) and its help must show them literally: markup such as
``[@click=app.screenshot('pwn','DIR')]X[/]`` stays text (clicking it runs no action), ANSI and
OSC escapes and bidi controls never reach the terminal raw, and a 10,000-character text
neither crashes nor hangs a screen. Text typed into a bench's fields, which its parse errors
and verdicts quote, is held to the same rule.

The shell's widgets (the header, the message line, the shared dialogs) are tested in
``tests/tui/test_hostile_text.py``; here every game's own widgets are.
"""

from __future__ import annotations

import dataclasses
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.segment import Segment
from rich.style import Style
from textual.errors import NoWidget
from textual.geometry import Offset, Region
from textual.widget import Widget
from textual.widgets import Input, TextArea

from core import registry
from core.game2048.level import Level as Level2048
from core.game2048.level import make_config
from grammar.levels import bundled_packs, load_pack
from tests.tui.helpers import fixed_registry, open_level, wait_until
from tui.app import ArcadeApp

pytestmark = pytest.mark.pilot

SIZE = (100, 40)
WAIT = 30.0
"""Seconds a screen may take to appear (a loaded 2-core machine)."""

LONG = "long " * 2000
"""A 10,000-character text."""
CONTROLS = "\x1b[31mRED\x1b[0m \x1b]0;pwned\x07 \x9b2J \u202eevil\u202c \u2066iso\u2069"
"""ANSI (SGR), OSC (window title), a C1 CSI, and bidi overrides/isolates."""


def click_markup(folder: Path) -> str:
    """Markup that, interpreted, would write a screenshot into ``folder`` on a click."""
    return f"[@click=app.screenshot('pwn','{folder}')]X[/]"


def hostile_title(folder: Path) -> str:
    """A title (one printable line, at most 200 characters) made of markup."""
    return f"{click_markup(folder)} [b]B[/] [reverse]R[/] [link=http://x]L[/] [@click=app.quit]Q[/]"


def hostile_text(folder: Path, what: str) -> str:
    """A free text (description, hint, author) with markup, controls and 10,000 characters."""
    return f"{what}: {click_markup(folder)} [@click=app.quit]Q[/] [b]B[/] {CONTROLS} {LONG}"


ALGEBRAWL = """level "Workshop" {
  game algebrawl
  numbers [3 4 5]
  targets [7]
  cards [f(a, b) symbol "[/]" = a + b, g(a, b) symbol "[b]" = a - b, +]
}
"""
"""Workshop cards whose symbols (at most 3 printable characters) are markup tags."""


def first_level(game_id: str) -> Any:
    """The first bundled level of a game (2048: the standard game; Algebrawl: workshop
    cards with markup for symbols)."""
    if game_id == "2048":
        return Level2048("standard", make_config())
    if game_id == "algebrawl":
        return load_pack(ALGEBRAWL).levels[0]
    return bundled_packs(game_id)[0][1].levels[0]


def hostile_level(game_id: str, folder: Path) -> Any:
    """The game's first level with hostile metadata."""
    return dataclasses.replace(
        first_level(game_id),
        title=hostile_title(folder),
        description=hostile_text(folder, "description"),
        hint=hostile_text(folder, "hint"),
        author=hostile_text(folder, "author"),
    )


CLICK = "[@click=app.screenshot('pwn',"
QUIT = "[@click=app.quit]Q[/]"
"""What a screen shows of hostile text (a wrapped line keeps each of these whole)."""

GAMES = ("termcraft", "carving", "algebrawl", "longcat", "2048")

BAD_CATEGORIES = {"Cc", "Cf"}
"""Control and format characters (ESC, C1, bidi overrides): never on screen raw."""


def _bad_char(text: str) -> str | None:
    for ch in text:
        if ch not in "\n" and unicodedata.category(ch) in BAD_CATEGORIES and ch != "\u200b":
            return ch
    return None


def screen_cells(app: ArcadeApp) -> Iterator[tuple[int, int, Segment]]:
    """Every segment the screen draws now, with its row and first column."""
    for y, strip in enumerate(app.screen._compositor.render_strips()):
        x = 0
        for segment in strip:
            yield y, x, segment
            x += segment.cell_length


def screen_text(app: ArcadeApp) -> str:
    """The screen as plain text, one line per row."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def shell_owned(app: ArcadeApp, x: int, y: int) -> bool:
    """Whether the cell at ``(x, y)`` is drawn by the shell rather than by a game.

    The nearest widget (or screen) at the cell, or above it, that termarcade defines decides:
    one of ``tui.games`` is a game's; the shell's (the header, the message line, the shared
    dialogs) are tested by ``tests/tui/test_hostile_text.py``.
    """
    try:
        widget, _ = app.screen.get_widget_at(x, y)
    except NoWidget:  # no widget there: nothing of a game's
        return True
    for node in [widget, *widget.ancestors]:
        module = type(node).__module__
        if module.startswith("tui."):
            return not module.startswith("tui.games.")
    return True


def assert_inert(app: ArcadeApp, where: str, region: Region | None = None) -> None:
    """No cell of a game's widget carries an action or a link, nor a raw control character.

    Args:
        app: The running app.
        where: What is on screen (for the failure message).
        region: Check every cell of this region (a game's text in a shared dialog), not
            only those of the game's widgets.
    """
    for y, x, segment in screen_cells(app):
        style = segment.style or Style()
        bad = _bad_char(segment.text)
        actions = bool(style.meta.get("@click") or style.link)
        mine = region.contains(x, y) if region is not None else not shell_owned(app, x, y)
        if (actions or bad) and mine:
            what = f"control U+{ord(bad):04X}" if bad else f"action {style.meta or style.link}"
            raise AssertionError(f"{where}: {what} at ({x}, {y}) in {segment.text!r:.80}")


async def click_literals(pilot: Any, app: ArcadeApp, literal: str = "[@click=") -> int:
    """Click every place the screen shows ``literal``; return how many were clicked."""
    clicked = 0
    for y, line in enumerate(screen_text(app).splitlines()):
        start = line.find(literal)
        while start >= 0:
            # The X the markup would make clickable follows the literal's closing bracket.
            end = line.find("]X[/]", start)
            for x in (start, end + 1 if end >= 0 else start + 2):
                await pilot.click(offset=Offset(x, y))
                clicked += 1
            start = line.find(literal, start + 1)
    return clicked


def shows(app: ArcadeApp, text: str) -> Callable[[], bool]:
    """A condition for :func:`until`: the screen shows ``text``."""
    return lambda: text in screen_text(app)


async def until(pilot: Any, done: Callable[[], bool], what: str) -> None:
    """Let the app run once, then until ``done()`` (fail after :data:`WAIT` seconds)."""
    await pilot.pause()
    await wait_until(pilot, done, what, timeout=WAIT)


class Spy:
    """Records every action the app runs (``App.run_action``), and screenshots asked for."""

    def __init__(self, app: ArcadeApp, monkeypatch: pytest.MonkeyPatch) -> None:
        self.actions: list[str] = []
        original = app.run_action

        async def run_action(action: Any, *args: Any, **kwargs: Any) -> bool:
            self.actions.append(str(action))
            return await original(action, *args, **kwargs)

        monkeypatch.setattr(app, "run_action", run_action)
        monkeypatch.setattr(app, "action_screenshot", self._screenshot)
        self.screenshots: list[tuple[Any, ...]] = []

    def _screenshot(self, *args: Any) -> None:
        self.screenshots.append(args)

    def assert_clean(self, folder: Path) -> None:
        """No screenshot was asked for or written, and no quit was run."""
        assert not self.screenshots, self.screenshots
        assert not [a for a in self.actions if "screenshot" in a or "quit" in a], self.actions
        assert not list(folder.iterdir())


async def check_screen(
    pilot: Any, spy: Spy, folder: Path, where: str, region: Region | None = None
) -> str:
    """Assert the screen is inert, click the literals it shows, and return its text."""
    app = pilot.app
    await pilot.pause()
    assert_inert(app, where, region)
    await click_literals(pilot, app)
    await pilot.pause()
    spy.assert_clean(folder)
    assert app.is_running, where
    return screen_text(app)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """Where a hostile screenshot would land: must stay empty."""
    path = tmp_path / "pwn"
    path.mkdir()
    return path


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.slow
async def test_hostile_level_text_shows_literally_in_every_game(
    game_id: str, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    level = hostile_level(game_id, folder)
    with fixed_registry():
        app = ArcadeApp()
        async with app.run_test(size=SIZE) as pilot:
            spy = Spy(app, monkeypatch)
            screen = await open_level(pilot, game_id, level)
            await until(pilot, lambda: screen.is_mounted, "the game screen")
            shown = await check_screen(pilot, spy, folder, f"{game_id} screen")
            await GAME_EXTRAS.get(game_id, no_extras)(pilot, spy, folder, shown)
            await pilot.press("t")  # the level's hint
            await check_screen(pilot, spy, folder, f"{game_id} hint")
            await pilot.press("I")
            await until(pilot, lambda: app.screen is not screen, "the level-ID dialog")
            await check_screen(pilot, spy, folder, f"{game_id} level-ID dialog")
            await pilot.press("escape")
            await until(pilot, lambda: app.screen is screen, "back from the ID dialog")
            info = registry.get(game_id)
            assert info is not None
            if info.editor is not None:
                await pilot.press("E")
                await until(pilot, lambda: app.screen is not screen, "the designer bench")
                bench = app.screen
                shown = await check_screen(pilot, spy, folder, f"{game_id} bench")
                assert any(level.title in field_text(f) for f in text_fields(bench)), shown
                await type_hostile(pilot, spy, bench, folder, f"{game_id} bench")


async def no_extras(pilot: Any, spy: Spy, folder: Path, shown: str) -> None:
    """A game without screens of its own that show level text."""


async def algebrawl_extras(pilot: Any, spy: Spy, folder: Path, shown: str) -> None:
    """The description shows literally; picking a card whose symbol is ``[/]`` (then one
    whose symbol is ``[b]``) shows it on the building line."""
    assert "description:" in shown and CLICK in shown and QUIT in shown
    screen = pilot.app.screen
    for index, symbol in enumerate(("[/]", "[b]")):
        if index:
            await pilot.press("escape")  # drop the first card's pick
        screen.cursor = ("cards", index)
        await pilot.press("enter")
        building = f"Playing _ {symbol} _"
        await until(pilot, shows(pilot.app, building), building)
        await check_screen(pilot, spy, folder, f"algebrawl card {symbol}")


async def carving_extras(pilot: Any, spy: Spy, folder: Path, shown: str) -> None:
    """The level information dialog (``i``) shows the title and description literally."""
    screen = pilot.app.screen
    await pilot.press("i")
    await until(pilot, lambda: pilot.app.screen is not screen, "the level dialog")
    body = pilot.app.screen.query_one("#text-body")
    text = await check_screen(pilot, spy, folder, "carving level dialog", body.region)
    assert "Level:" in text and "description:" in text
    assert text.count(CLICK) == 2 and text.count(QUIT) == 2
    await pilot.press("escape")
    await until(pilot, lambda: pilot.app.screen is screen, "back from the level dialog")


async def termcraft_extras(pilot: Any, spy: Spy, folder: Path, shown: str) -> None:
    """The construct dialog (``c``): typed hostile text is quoted by its parse error."""
    from tui.games.termcraft.screen import TermCraftScreen

    app = pilot.app
    screen = app.screen
    assert isinstance(screen, TermCraftScreen)
    await until(pilot, lambda: bool(screen._placeholders), "the position analysed")
    await pilot.press("c")
    await until(pilot, lambda: app.screen is not screen, "the construct dialog")
    field = app.screen.query_one(Input)
    field.value = f"pair({click_markup(folder)}[b]B[/]{CONTROLS}"
    # The field and, once the dialog has read it, the parse error's line show it.
    await until(
        pilot, lambda: screen_text(app).count("[@click=app") >= 2, "the construct error line"
    )
    await check_screen(pilot, spy, folder, "termcraft construct dialog")
    await pilot.press("escape")
    await until(pilot, lambda: app.screen is screen, "back from the construct dialog")


GAME_EXTRAS = {
    "algebrawl": algebrawl_extras,
    "carving": carving_extras,
    "termcraft": termcraft_extras,
}
"""Each game's own screens and dialogs that show level text, beyond the board."""


def text_fields(bench: Widget) -> list[Input | TextArea]:
    """The bench's text fields (inputs and text areas) that a player can type into."""
    return [
        w
        for w in bench.query("*")
        if isinstance(w, Input | TextArea) and w.display and not w.disabled
    ]


def field_text(field: Input | TextArea) -> str:
    """What a field holds."""
    return field.text if isinstance(field, TextArea) else field.value


def set_field(field: Input | TextArea, text: str) -> None:
    """Replace what a field holds, as typing would."""
    if isinstance(field, TextArea):
        field.text = text
    else:
        field.value = text


async def bench_settled(pilot: Any, bench: Widget) -> None:
    """Wait until the bench has read its changed fields (its quiet delay passed) and its live
    verdict, if one started, has ended: what the change shows is then on the screen."""
    await pilot.pause()  # the field's Changed message reaches the bench
    await until(pilot, lambda: getattr(bench, "_live_timer", None) is None, "the bench's read")
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def type_hostile(pilot: Any, spy: Spy, bench: Widget, folder: Path, where: str) -> None:
    """Type hostile text into each of the bench's text fields in turn and check the bench
    each time: a text area's parse error quotes it, a field shows it as text."""
    hostile = f"{click_markup(folder)}[b]B[/]{CONTROLS}("
    for field in text_fields(bench):
        before = field_text(field)
        set_field(field, hostile)
        if isinstance(field, TextArea):
            # The text area shows the line, and the parse error (once the bench has read
            # the text) quotes it.
            await until(
                pilot,
                lambda: screen_text(pilot.app).count(CLICK) >= 2,
                f"{where}: the parse error quoting #{field.id}",
            )
        await bench_settled(pilot, bench)
        await check_screen(pilot, spy, folder, f"{where}, typed into #{field.id}")
        if not isinstance(field, TextArea):
            assert field.value.startswith(click_markup(folder) + "[b]B[/]\\e[31mRED")
        set_field(field, before)
        await bench_settled(pilot, bench)


def test_longcat_solve_table_shows_a_markup_title_literally() -> None:
    """``termarcade longcat solve``'s table: a title made of markup is text (a lone ``[/]``
    made Rich raise, a ``[b]`` restyled the row)."""
    from click.testing import CliRunner

    from tui.games.longcat.cli import longcat

    title = "[/] [b]B[/b]"  # the table's title column is 20 wide
    levels = f'game longcat\nlevel "{title}" {{\n  grid\n    @..\n}}\n'
    result = CliRunner().invoke(longcat, ["solve", "-"], input=levels)
    assert result.exception is None, result.output
    assert title in result.stdout


async def test_pasted_control_characters_are_escaped_in_game_fields() -> None:
    """A paste (the one way a player's terminal sends ESC or a bidi override into a field)
    lands in the games' fields as visible escapes (line breaks and tabs kept)."""
    from textual import events
    from textual.app import App, ComposeResult

    from tui.widgets.plain_fields import PlainInput, PlainTextArea

    class Fields(App[None]):
        def compose(self) -> ComposeResult:
            yield PlainInput(id="field")
            yield PlainTextArea("x", id="area")

    app = Fields()
    async with app.run_test() as pilot:
        field, area = app.query_one(PlainInput), app.query_one(PlainTextArea)
        pasted = "a\x1b[31mb\r\nc\u202ed\te"
        for widget in (field, area):
            widget.focus()
            await pilot.pause()
            widget.post_message(events.Paste(pasted))
            await pilot.pause()
        assert field.value == "a\\e[31mb"  # an input takes the first line
        area_text = area.text
        assert "a\\e[31mb\nc\\u202ed\te" in area_text and "\x1b" not in area_text
