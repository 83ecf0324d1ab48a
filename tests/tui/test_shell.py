"""Pilot tests of the arcade shell: home, help, quitting, level select, confirm modal."""

from __future__ import annotations

import pytest
from textual.css.query import NoMatches
from textual.screen import Screen

from core import registry
from core.levelpack import LevelPack
from core.registry import GameInfo, RegistryError
from tests.toycore.engine import Level as ToyLevel
from tests.tui.helpers import wait_until
from tui.app import ArcadeApp
from tui.launch import launcher_for
from tui.modals.confirm import ConfirmModal
from tui.screens.help import HelpScreen, load_help
from tui.screens.home import HomeScreen
from tui.screens.level_select import LevelSelectScreen
from tui.screens.puzzle import PuzzleScreen
from tui.serve.spec import EXIT_CPU
from tui.sources import LevelRef, Sources

pytestmark = pytest.mark.pilot


def test_registry_lists_the_installed_games_in_order() -> None:
    ids = registry.ids()
    assert ids[:1] == ("termcraft",) and "2048" in ids
    assert all(info.playable for info in registry.games() if info.id in ("termcraft", "2048"))
    with pytest.raises(RegistryError, match="could not be loaded"):
        GameInfo("x", "X", "", "no_such_module_xyz:GAME", screen="no_such_module_xyz:start").load(
            "screen"
        )


SOON = GameInfo("zz_soon", "Zz Soon", "Not playable yet.", "no_such_module_xyz:GAME", order=999)
"""A registered game without a screen: listed, but disabled."""


async def test_home_lists_registered_games_and_skips_unplayable_ones() -> None:
    with registry.register(SOON):
        app = ArcadeApp()
        async with app.run_test(size=(80, 24)) as pilot:
            assert isinstance(app.screen, HomeScreen)
            games = app.screen.query_one("#games")
            count = len(registry.games())
            ids = [games.get_option_at_index(i).id for i in range(games.option_count)]
            assert ids == [info.id for info in registry.games()] and len(ids) == count
            disabled = [games.get_option_at_index(i).disabled for i in range(count)]
            assert disabled == [not info.playable for info in registry.games()]
            assert disabled[-1] and not any(disabled[:-1])
            for key in ["down"] * (count + 2):
                await pilot.press(key)
                assert games.highlighted != count - 1, (
                    "the cursor must never land on a game that is not playable"
                )


def _record_starts(monkeypatch: pytest.MonkeyPatch, started: list[str]) -> None:
    monkeypatch.setattr(ArcadeApp, "start_game", lambda self, game_id: started.append(game_id))


async def test_selecting_a_game_calls_its_starter(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[str] = []
    _record_starts(monkeypatch, started)
    second = registry.ids()[1]
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("j", "enter")
        assert started == [second]
        await pilot.press("k", "space")
        assert started == [second, "termcraft"]


async def test_broken_starter_gives_notification_not_crash() -> None:
    broken = GameInfo(
        "termcraft",
        "TermCraft",
        "t",
        "no_such_module_xyz:GAME",
        screen="no_such_module_xyz:start",
        order=-1,
    )
    with registry.register(broken):
        app = ArcadeApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, HomeScreen)
            messages = [n.message for n in app._notifications]
            assert any("could not be loaded" in m for m in messages)


async def test_starter_that_raises_gives_notification(monkeypatch: pytest.MonkeyPatch) -> None:
    def explode(self: object, level: object = None) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr("tui.launch.Launcher.start", explode)
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        assert app.is_running and isinstance(app.screen, HomeScreen)
        assert any("boom" in n.message for n in app._notifications)


async def test_help_opens_and_closes() -> None:
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        for open_key, close_key in [
            ("question_mark", "escape"),
            ("f1", "q"),
            ("question_mark", "question_mark"),
        ]:
            await pilot.press(open_key)
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            assert app.screen.topic == "home"
            await pilot.press(close_key)
            await pilot.pause()
            assert isinstance(app.screen, HomeScreen)
        assert app.is_running


def test_home_help_names_every_playable_game_and_none_as_coming_soon() -> None:
    page = load_help("home")
    assert "coming soon" not in page.lower()
    for info in registry.games():
        if info.playable:
            assert f"**{info.title}**: {info.tagline}" in page, info.title
    assert "<!--" not in page
    # the list is the registry's: a game added is named without editing the page
    from tests.toygame import INFO as TOY

    with registry.register(TOY):
        assert f"**{TOY.title}**: {TOY.tagline}" in load_help("home")


def test_help_files_and_fallback() -> None:
    assert load_help("home").startswith("# termarcade")
    fallback = load_help("no_such_topic")
    assert "no help page" in fallback
    assert "no help page" in load_help("../etc/passwd")  # Not a path.


async def test_quit_without_game_is_immediate() -> None:
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running


async def test_escape_on_the_home_screen_does_nothing() -> None:
    """Backing out of a game with escape, one press too many quit the arcade (SPEC: escape
    on the home screen does nothing)."""
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("escape", "escape")
        await pilot.pause()
        assert app.is_running and isinstance(app.screen, HomeScreen)


async def test_quit_with_game_in_progress_asks_first() -> None:
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        app.game_in_progress = True
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmModal)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen) and app.is_running
        await pilot.press("q")
        await pilot.pause()
        await pilot.press("enter")  # Focus starts on "No": a stray enter does not quit.
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen) and app.is_running
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmModal)
        await pilot.press("y")
        await pilot.pause()
        assert not app.is_running


async def test_closing_while_a_screen_mounts_keeps_the_reason_for_closing() -> None:
    """CI: the CPU limit's exit came while the level list was being pushed. Textual mounts
    nothing once exit is under way, so the list's ``on_mount`` found no ``#packs`` and the
    served player read "internal error" instead of "used its share of the server"."""
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)):
        app.push_screen(LevelSelectScreen(launcher_for(app, "2048")))
        app.exit(None, EXIT_CPU)  # what the served app's SIGXCPU handler does
    assert app.return_code == EXIT_CPU


class _Broken(Screen[None]):
    """A screen whose ``on_mount`` looks for a child it never composed."""

    def on_mount(self) -> None:
        self.query_one("#missing")


async def test_a_missing_widget_is_still_an_error_when_not_closing() -> None:
    app = ArcadeApp()
    with pytest.raises(NoMatches):
        async with app.run_test(size=(80, 24)) as pilot:
            app.push_screen(_Broken())
            await pilot.pause()
    assert app.return_code == 1


async def test_store_warnings_become_notifications(data_dir) -> None:
    (data_dir / "termarcade.sqlite3").write_bytes(b"garbage" * 50)
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert any("moved to" in n.message for n in app._notifications)
        assert app.store.warnings == []


class FakeLauncher:
    """What the level select needs of a launcher: the game, its sources, its screen class,
    opening a level."""

    def __init__(self, app: ArcadeApp, packs: list[tuple[str, LevelPack]]) -> None:
        self.app = app
        self.info = registry.get("termcraft")
        self.sources = Sources(self.info, app.store, packs=packs)
        self.screen_class = PuzzleScreen  # the words of moves and results: the base's
        self.opened: list[LevelRef] = []

    def open(self, ref: LevelRef) -> bool:
        self.opened.append(ref)
        return True


PACKS = [
    (
        "basics",
        LevelPack(
            "Basics",
            game="toy",
            levels=tuple(ToyLevel(t, "21.") for t in ("First steps", "Second", "Third")),
        ),
    ),
    (
        "hard",
        LevelPack(
            "Hard", game="toy", levels=(ToyLevel("Ouch", "321."), ToyLevel("Double ouch", "4321."))
        ),
    ),
]


async def test_level_select_marks_solved_and_opens_the_chosen_level() -> None:
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        app.store.mark_solved("termcraft", "pack:basics", "Second", 3)
        launcher = FakeLauncher(app, PACKS)
        app.push_screen(LevelSelectScreen(launcher))
        await pilot.pause()
        screen = app.screen
        levels = screen.query_one("#levels")
        prompts = [str(levels.get_option_at_index(i).prompt) for i in range(levels.option_count)]
        assert prompts == ["   1. First steps", "✓  2. Second   (best 3 moves)", "   3. Third"]
        packs = screen.query_one("#packs")
        sources = [
            str(packs.get_option_at_index(i).prompt).split("\n")[0]
            for i in range(packs.option_count)
        ]
        assert sources == ["Basics", "Hard", "My levels"]  # "In progress" only when not empty
        assert "1/3 solved" in str(packs.get_option_at_index(0).prompt)
        await pilot.press("j", "j", "enter")
        await pilot.pause()
        assert launcher.opened == [LevelRef("pack:basics", "Third")]
        # Second pack via the source list.
        await pilot.press("h", "j", "enter")  # Sources, next source, open its levels.
        await pilot.pause()
        assert screen.query_one("#levels").option_count == 2
        assert app.focused is screen.query_one("#levels")
        await pilot.press("j", "space")
        await pilot.pause()
        assert launcher.opened[-1] == LevelRef("pack:hard", "Double ouch")
        screen.highlight(LevelRef("pack:basics", "Second"))
        assert screen.query_one("#levels").highlighted == 1
        await pilot.press("q")
        await pilot.pause()
        assert not isinstance(app.screen, LevelSelectScreen)


async def test_level_select_without_packs() -> None:
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        launcher = FakeLauncher(app, [])
        app.push_screen(LevelSelectScreen(launcher))
        await pilot.pause()
        await pilot.press("enter", "escape")
        await pilot.pause()
        assert launcher.opened == [] and not isinstance(app.screen, LevelSelectScreen)


def test_sources_find_a_generator_by_name_with_its_current_parameters(data_dir) -> None:
    from core.longcat.catalog import GENERATORS
    from tui.store import Store

    info = registry.get("longcat")
    assert info is not None
    params = {"sd": {"size": "6x6"}, "bsp": {"size": "9x9"}}
    with Store() as store:
        sources = Sources(
            info, store, generators={n: (GENERATORS[n], p) for n, p in params.items()}
        )
    sd = sources.generator("sd")
    assert sd is not None and sd.id == "gen:sd?size=6x6"
    assert sources.generator("bsp") is sources.get("gen:bsp?size=9x9")
    assert sources.generator("rl") is None and sources.generator("") is None


async def test_level_select_help_is_the_games() -> None:
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(LevelSelectScreen(FakeLauncher(app, PACKS)))
        await pilot.pause()
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen) and app.screen.topic == "termcraft"


async def test_confirm_modal_buttons() -> None:
    app = ArcadeApp()
    answers: list[bool | None] = []
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(ConfirmModal("Really?"), answers.append)
        await pilot.pause()
        await pilot.press("left", "enter")  # Move to "Yes" and press it.
        await pilot.pause()
        app.push_screen(ConfirmModal("Really?"), answers.append)
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert answers == [True, False]


async def test_keymap_setting_remaps_bindings() -> None:
    from tui.store import Store

    store = Store()
    store.set_setting("keymap", {"app.help": "f2"})
    app = ArcadeApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f2")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)


@pytest.mark.parametrize("keys, expected", [(("j", "enter"), 1), (("j", "k", "enter"), 0)])
async def test_keys_arriving_together_are_handled_in_order(
    monkeypatch: pytest.MonkeyPatch, keys: tuple[str, ...], expected: int
) -> None:
    """A terminal can deliver "j<enter>" in one read: enter must not overtake the j."""
    from textual import events

    started: list[str] = []
    _record_starts(monkeypatch, started)
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        for key in keys:  # queued back to back, as the driver does, with no pause between
            app.post_message(events.Key(key, "\r" if key == "enter" else key))
        await pilot.pause()
        await pilot.pause()
        assert started == [registry.ids()[expected]]


async def test_the_footer_shows_the_keys_while_the_app_has_no_focus() -> None:
    """Regression (serve --web): the page starts unfocused and Textual's footer drew nothing
    until the first key; the arcade's footer draws a new screen's keys at once."""
    from textual import events

    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        app.post_message(events.AppBlur())
        await pilot.pause()
        assert not app.app_focus
        app.start_game("longcat")  # a new screen while the page has no focus

        def bottom_line() -> str:
            if not isinstance(app.screen, LevelSelectScreen):
                return ""
            strips = list(app.screen._compositor.render_strips())
            return strips[-1].text if strips else ""  # not drawn yet

        # drawn within a few frames; longer on a loaded machine
        await wait_until(pilot, lambda: "esc Back" in bottom_line(), bottom_line)
        bottom = bottom_line()
        assert isinstance(app.screen, LevelSelectScreen)
        assert not app.app_focus  # no key came: the footer drew without one
        assert "esc Back" in bottom and "? Help" in bottom, bottom
