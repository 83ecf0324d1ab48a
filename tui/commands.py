"""The arcade's commands in the command palette (``ctrl+p``).

:class:`ArcadeCommands` is the app's only palette provider (so the order is fixed): the
arcade's own commands first, then the current screen's actions and Textual's (themes, keys,
screenshot), each title once (issue 30: "Quit", "Help" and "Leaderboards" were listed twice):

* ``Play GAME`` (its level list, resuming the game in progress) and ``Levels of GAME``
  (the level list only), for every playable game of the registry;
* ``New GAME game, seed N``: type a number (``2048 42``) for a seeded game of every game with
  a generator; without one, a fresh seed;
* ``Game ID / seed…``: the ID of the level being played, and a box to open a level by ID
  (:mod:`tui.modals.level_id`; ``I`` on a game screen); an ID typed in the palette itself
  (``longcat:arduboy/17``) offers ``Open level ID …``;
* ``Leaderboards``, ``Settings: GAME`` (games whose screen has a settings dialog),
  ``Keymap`` (every binding id, its keys, and how to remap it) and ``Help``.

Commands only call the app and the launchers: the rules stay in the games' screens and core.
Leaving a game screen for another place saves it first (:meth:`PuzzleScreen.leave`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import partial, wraps
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content

from core import registry
from tui.text import plain

if TYPE_CHECKING:  # pragma: no cover
    from tui.arcade import Arcade

__all__ = [
    "ArcadeCommands",
    "go_home",
    "level_id_dialog",
    "new_seeded_game",
    "open_level_id",
    "open_levels",
    "open_resolved",
    "show_keymap",
]

Command = tuple[str, Callable[[], Any], str]
"""``(title, callback, help)`` of one palette command."""

_SEED = re.compile(r"(?:^|\s)(\d{1,18})\s*$")
"""A seed typed at the end of the palette's query."""


def go_home(app: Arcade) -> None:
    """Close every screen above the home screen; game screens save first."""
    from tui.screens.puzzle import PuzzleScreen

    while len(app.screen_stack) > 1:
        screen = app.screen
        if isinstance(screen, PuzzleScreen):
            screen.leave()
        app.pop_screen()


def leaves_home(command: Callable[..., None]) -> Callable[..., None]:
    """Decorate a command that closes every screen above home: it asks first when an editor
    holds unsaved edits (:mod:`tui.unsaved`), as ``escape`` in the editor does."""

    @wraps(command)
    def asking(app: Arcade, *args: Any) -> None:
        from tui.unsaved import confirm_leaving

        confirm_leaving(app, lambda: command(app, *args))

    return asking


@leaves_home
def open_levels(app: Arcade, game_id: str) -> None:
    """Show a game's level list (without resuming a game in progress)."""
    from tui.launch import launcher_for
    from tui.screens.level_select import LevelSelectScreen

    go_home(app)
    app.push_screen(LevelSelectScreen(launcher_for(app, game_id)))


@leaves_home
def play(app: Arcade, game_id: str) -> None:
    """Open a game as its home-screen row does."""
    go_home(app)
    app.start_game(game_id)


@leaves_home
def new_seeded_game(app: Arcade, game_id: str, seed: int | None) -> None:
    """A new level of the game's first generator with ``seed`` (None: a fresh seed)."""
    from tui.launch import launcher_for
    from tui.screens.level_select import LevelSelectScreen

    go_home(app)
    launcher = launcher_for(app, game_id)
    app.push_screen(LevelSelectScreen(launcher))
    launcher.open(launcher.sources.generators[0].new(seed))


def open_resolved(app: Arcade, resolved: Any) -> None:
    """Play the level an ID named (:class:`tui.ids.Resolved`): in the game screen shown when
    it is the same game (that game stays saved), else from the home screen, as the level
    select would open it (its saved game resumes)."""
    from tui.screens.puzzle import PuzzleScreen

    screen = app.screen
    if (
        isinstance(screen, PuzzleScreen)
        and resolved.info.id == screen.info.id
        and screen.launcher is not None
    ):
        screen.play_resolved(resolved)
        return
    _open_from_home(app, resolved)


@leaves_home
def _open_from_home(app: Arcade, resolved: Any) -> None:
    from core.registry import RegistryError
    from tui.launch import launcher_for
    from tui.screens.level_select import LevelSelectScreen

    go_home(app)
    try:
        launcher = launcher_for(app, resolved.info.id)
    except RegistryError as error:
        app.notify(str(error), title=resolved.info.title, severity="warning")
        return
    app.push_screen(LevelSelectScreen(launcher))
    launcher.open(launcher.adopt(resolved), resolved.level)


def open_level_id(app: Arcade, text: str) -> None:
    """Play the level of an ID (``termarcade play ID``, the palette); a notification says
    why it cannot. The level is resolved in a background thread: a generated one may take
    seconds to make, and the arcade stays responsive meanwhile."""
    from tui.modals.level_id import resolve_in_background

    def opened(resolved: Any, problem: str) -> None:
        if resolved is None:
            app.notify(f"This ID cannot be opened: {problem}", severity="error", timeout=10)
        else:
            open_resolved(app, resolved)

    resolve_in_background(app, text, opened)


def level_id_dialog(app: Arcade) -> None:
    """The "Game ID / seed…" dialog, on the level being played (if any)."""
    from tui.modals.level_id import LevelIdModal
    from tui.screens.common import ScreenHooks

    screen = app.screen
    current = screen.level_id if isinstance(screen, ScreenHooks) else None

    def chosen(resolved: Any) -> None:
        if resolved is not None:
            open_resolved(app, resolved)

    app.push_screen(LevelIdModal(current), chosen)


def leaderboards(app: Arcade) -> None:
    """The leaderboards, on the game being played (if any)."""
    from tui.screens.common import ScreenHooks
    from tui.screens.leaderboard import LeaderboardScreen

    screen = app.screen
    app.push_screen(LeaderboardScreen(screen.game_id if isinstance(screen, ScreenHooks) else None))


def settings(app: Arcade, game_id: str) -> None:
    """The game's settings: through its screen when it is the one shown (it redraws)."""
    info = registry.get(game_id)
    if info is None:
        return
    screen_class = info.load("screen")
    current = app.screen
    if isinstance(current, screen_class):  # the game is shown: it applies a change at once
        current.action_settings()
        return
    dialog = screen_class.settings_dialog(app)
    if dialog is not None:
        app.push_screen(*dialog)


def keymap_text(app: Arcade) -> Text:
    """Every binding id with its keys (the player's own marked), and how to change them."""
    from tui.keys import collect_bindings
    from tui.store import KEYMAP_SETTING

    bindings, _ = collect_bindings()
    mine = app.store.get_setting(KEYMAP_SETTING, None)
    mine = mine if isinstance(mine, dict) else {}
    text = Text(
        "Change a key with: termarcade keymap ID KEYS (e.g. termarcade keymap "
        "app.help f2); termarcade keymap --reset undoes every change.\n\n",
        "dim",
    )
    for binding_id, info in bindings.items():
        keys = str(mine.get(binding_id, info.keys))
        text.append(f"{binding_id:<28} ", "bold")
        text.append(keys + ("  (yours)" if binding_id in mine else ""))
        text.append(f"  {info.description}\n" if info.description else "\n", "dim")
    text.rstrip()
    return text


def show_keymap(app: Arcade) -> None:
    """Show :func:`keymap_text` in a dialog."""
    from tui.modals.text_view import TextModal

    app.push_screen(TextModal("Keymap: binding ids and their keys", keymap_text(app)))


class ArcadeCommands(Provider):
    """The arcade's commands (see the module docstring)."""

    @property
    def arcade(self) -> Arcade:
        """The app, typed."""
        return self.app  # type: ignore[return-value]

    def commands(self) -> Iterator[Command]:
        """The commands offered without a seed."""
        app = self.arcade
        games = [info for info in registry.games() if info.playable]
        for info in games:
            yield (
                f"Play {info.title}",
                partial(play, app, info.id),
                f"Open {info.title}: its levels, resuming the game in progress",
            )
        for info in games:
            yield (
                f"Levels of {info.title}",
                partial(open_levels, app, info.id),
                f"Pick a level of {info.title}",
            )
        for info in games:
            if info.generators is not None:
                yield (
                    f"New {info.title} game",
                    partial(new_seeded_game, app, info.id, None),
                    "A new generated level; type a number after it for that seed",
                )
        yield (
            "Game ID / seed…",
            partial(level_id_dialog, app),
            "This level's ID, to share it; or open a level by its ID (I in a game)",
        )
        yield (
            "Leaderboards",
            partial(leaderboards, app),
            "The best results of every level and board",
        )
        for info in games:
            if self._has_settings(info):
                yield (
                    f"Settings: {info.title}",
                    partial(settings, app, info.id),
                    f"{info.title}'s settings",
                )
        yield (
            "Keymap",
            partial(show_keymap, app),
            "Every binding id and its keys, and how to remap them",
        )
        yield ("Help", app.action_help, "Help for this screen (?)")

    @staticmethod
    def _has_settings(info: Any) -> bool:
        try:
            screen_class = info.load("screen")
        except Exception:  # a broken game must not break the palette
            return False
        return bool(screen_class.HAS_SETTINGS)

    def seeded(self, query: str) -> Iterator[tuple[str, Command]]:
        """``(words before the seed, command)`` for a query ending in a number."""
        found = _SEED.search(query)
        if found is None:
            return
        seed = int(found.group(1))
        words = query[: found.start()].strip()
        for info in registry.games():
            if info.playable and info.generators is not None:
                yield (
                    words,
                    (
                        f"New {info.title} game, seed {seed}",
                        partial(new_seeded_game, self.arcade, info.id, seed),
                        f"The generated level of {info.title} from seed {seed} "
                        "(your saved game of it, if any, resumes)",
                    ),
                )

    def every_command(self) -> Iterator[Command]:
        """The arcade's commands, then the screen's actions and Textual's (the app's
        ``get_system_commands``, by title), each title once: the palette's whole list.

        Returns:
            ``(title, callback, help)`` in the palette's order.
        """
        titles: set[str] = set()
        for command in self.commands():
            titles.add(command[0])
            yield command
        system = sorted(self.app.get_system_commands(self.screen), key=lambda c: c.title)
        for entry in system:
            if entry.discover and entry.title not in titles:
                titles.add(entry.title)
                yield (entry.title, entry.callback, entry.help)

    async def discover(self) -> Hits:
        for title, callback, help_text in self.every_command():
            yield DiscoveryHit(title, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, callback, help_text in self.every_command():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), callback, help=help_text)
        level_id = query.strip()
        if ":" in level_id:
            from tui.ids import looks_like_id

            if looks_like_id(level_id):
                yield Hit(
                    1.0,
                    # What the player typed: shown as text, never read as markup.
                    Content("Open level ID ") + plain(level_id),
                    partial(open_level_id, self.arcade, level_id),
                    help="Play the level this ID names (a bad ID says what is wrong)",
                )
        for words, (title, callback, help_text) in self.seeded(query):
            # "42" alone offers every game; "2048 42" the games whose title matches.
            score = self.matcher(words).match(title) if words else 0.5
            if score > 0:
                yield Hit(max(score, 0.5), title, callback, help=help_text)
