"""The home screen: pick a game."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Header, Static
from textual.widgets.option_list import Option

from core import registry
from core.registry import GameInfo
from tui.screens.common import NavOptionList, ScreenHooks
from tui.widgets.footer import ArcadeFooter


def game_prompt(entry: GameInfo) -> Content:
    """The two-line text of a game in the list: title, then tagline."""
    if entry.playable:
        return Content.assemble((entry.title, "bold"), "\n  ", (entry.tagline, "dim"))
    return Content.assemble(
        (entry.title, "bold"), ("  (coming soon)", "italic"), "\n  ", (entry.tagline, "dim")
    )


class GameList(NavOptionList):
    """The list of games; ``enter`` plays the highlighted one.

    Enter is bound here, on the focused list, not as a priority key of the screen: a priority
    binding is handled before keys queued to the list, so a quick ``j`` ``enter`` would start
    the game that was highlighted before the ``j``.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select", "Play", id="home.play"),
    ]


class HomeScreen(ScreenHooks, Screen[None]):
    """The list of games, with taglines; games that are not playable yet are dimmed.

    Keys: ``j``/``k``/arrows move, ``enter``/``space`` start the game, ``L`` leaderboards,
    ``?`` help, ``q`` quit (asking first when a game is in progress); ``escape`` does nothing.
    """

    HELP_TOPIC: ClassVar[str] = "home"
    """Help page for this screen."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # Priority, so the footer shows it although the focused list also binds enter.
        # Not escape: pressing escape to back out of a game must stop here, not quit (SPEC:
        # "escape on the home screen does nothing").
        Binding("q", "app.request_quit", "Quit", id="home.quit"),
        Binding("L", "leaderboard", "Leaderboards", id="home.leaderboard"),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="home"):
            yield Static("Pick a game", id="home-title")
            options: list[Option | None] = []
            for entry in registry.games():
                if options:
                    options.append(None)  # A separator line between games.
                options.append(Option(game_prompt(entry), id=entry.id, disabled=not entry.playable))
            yield GameList(*options, id="games")
        yield ArcadeFooter()

    def on_mount(self) -> None:
        games = self.query_one("#games", GameList)
        games.highlighted = 0
        games.focus()

    def action_leaderboard(self) -> None:
        """Open the leaderboards, on the highlighted game."""
        from tui.screens.leaderboard import LeaderboardScreen

        option = self.query_one("#games", GameList).highlighted_option
        self.app.push_screen(LeaderboardScreen(option.id if option is not None else None))

    def on_option_list_option_selected(self, event: NavOptionList.OptionSelected) -> None:
        """Start the chosen game."""
        event.stop()
        if event.option.id is not None:
            self.app.start_game(event.option.id)  # type: ignore[attr-defined]
