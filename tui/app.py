"""The termarcade Textual app: home screen, help, quitting, and starting games.

Games plug in through :mod:`core.registry`: the home screen lists the registered games, and
a game's engine and screen are imported only when the player picks it (through
:class:`tui.launch.Launcher`), so a broken or missing game shows a notification instead of
bringing the arcade down.

Screens tell the app which help page belongs to them through their declared ``help_topic``
(:class:`tui.screens.common.ScreenHooks`: a game's screens name their game, whose help page
is rendered); ``?`` and ``f1`` open it from anywhere. Game
screens keep :attr:`ArcadeApp.game_in_progress` up to date so that quitting asks first. The
command palette (``ctrl+p``) offers the arcade's commands (:mod:`tui.commands`: open a game,
a level list, a seeded new game, leaderboards, settings, keymap, help), the current screen's
actions by name, and Textual's own; a theme picked there is kept in the store
(:data:`THEME_SETTING`) and applied at the next start.

Colours: the stylesheet uses theme variables only, and Textual itself honours ``NO_COLOR``
(it renders monochrome when the variable is set), so the app stays readable in 16 colours and
without colour.

The terminal (:mod:`tui.terminal`) is asked three things: which glyph set it can show (the
output driver translates, e.g. ASCII for the Linux console or ``--ascii``), whether it has only
16 colours (then the ANSI theme is used), and whether it is big enough (below the minimum a
"terminal too small" screen covers the app until it grows).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar

from textual import events, on
from textual.actions import ActionError as ActionSyntaxError
from textual.actions import ActionParseResult
from textual.app import ActionError, SystemCommand
from textual.binding import Binding, BindingType
from textual.command import Provider
from textual.css.query import NoMatches
from textual.dom import DOMNode
from textual.notifications import SeverityLevel
from textual.screen import Screen

from core import registry
from core.registry import RegistryError
from core.text import escape_controls, shorten
from tui import terminal
from tui.allowlist import action_allowed
from tui.arcade import Arcade, arcade_of
from tui.commands import ArcadeCommands, open_level_id
from tui.launch import launcher_for
from tui.store import KEYMAP_SETTING, Store, StoreStatus
from tui.text import visible

__all__ = ["NOTIFY_LIMIT", "THEME_SETTING", "ArcadeApp", "arcade_of"]

THEME_SETTING = "theme"
"""Store setting: the name of the theme the player picked (command palette)."""
NOTIFY_LIMIT = 600
"""The most characters of a notification shown (about a dozen lines of a toast)."""

COVERED_ACTIONS = frozenset(
    {"help", "request_quit", "quit", "leaderboard", "leaderboards", "level_id", "settings"}
    | {"command_palette"}  # the palette's own key, offered in the palette
)
"""Screen actions the palette already offers under the arcade's own names ("Help",
"Quit", "Leaderboards", "Game ID / seed…", "Settings: GAME"): listed once (issue 30)."""
GENERIC_ACTIONS = ("digit(", "app.", "focus_", "cursor_", "scroll_", "page_", "screen.")
"""Prefixes of the widgets' and Textual's own actions (moving a cursor, scrolling, focus,
copying a selection, the palette itself): keys, not commands worth a palette entry."""

SERVED_TEXTUAL_COMMANDS = frozenset({"Theme", "Keys", "Maximize", "Minimize"})
"""Textual's own palette entries a served player is offered (an allowlist: a Textual upgrade
that adds one, like "Screenshot" which writes a file on the host, adds nothing here)."""

log = logging.getLogger("termarcade.tui")


class ArcadeApp(Arcade):
    """The arcade.

    Args:
        start_game: Game id to open straight away (``termarcade play GAME``), or None for the
            home screen only.
        level_file: A level file to play (``termarcade play GAME FILE``); its levels appear
            as a source of the game's level select.
        level: With ``level_file``: open its level N (1-based) at once.
        start_id: A level ID to play straight away (``termarcade play ID``, :mod:`tui.ids`).
        store: The store to use; by default the one in the user data directory
            (``TERMARCADE_DATA_DIR`` overrides it).
        glyphs: ``"unicode"``, ``"cp437"`` or ``"ascii"`` to force a glyph set; None picks
            one from the terminal (:func:`tui.terminal.detect_profile`).
        served: True when the app runs for a remote player (``termarcade serve``).
        user: Whose progress the default store holds (``""``: the local player; the SSH
            user name when served).
    """

    TITLE = "termarcade"
    SUB_TITLE = "formal puzzle games"
    CSS_PATH = "styles/app.tcss"
    COMMANDS: ClassVar[set[type[Provider] | Callable[[], type[Provider]]]] = {ArcadeCommands}
    """One provider, so the palette's order is fixed: the arcade's commands, then the screen's
    and Textual's (:meth:`get_system_commands`); two providers answer in either order."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1,question_mark", "help", "Help", id="app.help", key_display="?"),
        Binding(
            "ctrl+q",
            "request_quit",
            "Quit",
            show=False,
            priority=True,
            id="app.quit",
            tooltip="Quit termarcade (asks first when a game is in progress).",
        ),
    ]

    def __init__(
        self,
        start_game: str | None = None,
        *,
        level_file: str | None = None,
        level: int | None = None,
        start_id: str | None = None,
        store: Store | None = None,
        glyphs: str | None = None,
        served: bool = False,
        user: str = "",
    ) -> None:
        # The terminal decides the output driver (glyph translation), so it comes first.
        self.terminal = terminal.detect_profile(glyphs=glyphs)
        """What the terminal can show (:mod:`tui.terminal`): glyph set and colours."""
        super().__init__(driver_class=terminal.driver_class(self.terminal.glyphs))
        self.start_game_id = start_game
        """Game to open after the home screen is shown."""
        self.level_file = level_file
        """A level file to offer (and open) in that game."""
        self.level_number = level
        """The level of ``level_file`` to open first (1-based)."""
        self.start_id = start_id
        """A level ID to play after the home screen is shown (``termarcade play ID``)."""
        self.store = store if store is not None else Store(user=user)
        """Progress, saves, best scores, own levels and settings."""
        self.game_in_progress = False
        """Kept up to date by game screens: quitting asks first while it is True."""
        self.served = served
        """True when the app runs for a remote player (``serve``): nothing touches the
        host's files by path (export goes to the player's own levels)."""
        self._remember_theme = False

    def get_default_screen(self) -> Screen[Any]:
        """The home screen is the bottom of the screen stack."""
        from tui.screens.home import HomeScreen

        return HomeScreen()

    def on_mount(self) -> None:
        """Apply the user's keymap, show storage warnings, and open the requested game."""
        keymap = self.store.get_setting(KEYMAP_SETTING, None)
        if isinstance(keymap, dict) and keymap:
            self.set_keymap({str(key): str(value) for key, value in keymap.items()})
        theme = terminal.theme_for(self.terminal)
        if theme is not None and not self.is_headless:  # headless (tests) has no terminal
            self.theme = theme
        chosen = self.store.get_setting(THEME_SETTING, None)
        if isinstance(chosen, str) and chosen in self.available_themes:
            self.theme = chosen  # the player's own pick wins over the terminal's default
        self._remember_theme = True  # from now on a change is the player's
        terminal.check_size(self)
        self.store.watch(self.store_status_changed)
        self.show_store_warnings()
        for problem in registry.problems():
            self.notify(problem, title="Games", severity="warning", timeout=10)
        if self.start_id is not None:
            self.call_after_refresh(open_level_id, self, self.start_id)
        elif self.start_game_id is not None:
            self.call_after_refresh(self.start_game, self.start_game_id)

    def watch_theme(self, theme: str) -> None:
        """Keep the theme the player picks (command palette) for the next start."""
        if getattr(self, "_remember_theme", False):
            self.store.set_setting(THEME_SETTING, theme)

    def on_resize(self, event: events.Resize) -> None:
        """Cover the app with a "too small" notice below the minimum size (and lift it)."""
        terminal.check_size(self, event.size)

    def show_store_warnings(self) -> None:
        """Turn new store warnings into notifications (then forget them)."""
        for message in self.store.warnings:
            self.notify(message, title="Storage", severity="warning", timeout=10)
        self.store.warnings.clear()

    def store_status_changed(self, status: StoreStatus) -> None:
        """The store went away or came back: tell the player (safe from the store's thread).

        Args:
            status: What the store reported (:meth:`tui.store.Store.watch`).
        """
        from tui.unsaved import store_notice

        # call_later posts to the app's own loop: never blocks the store's retry thread.
        self.call_later(store_notice, self, status)

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Show a notification whose message and title are plain text, whatever ``markup`` says.

        Textual reads a notification as markup by default (every widget's ``notify`` passes
        ``markup=True``), and the arcade's messages quote level titles, IDs, parse errors and
        file names: a ``[@click=...]`` in them would become an action. So markup is never
        interpreted here, control characters are shown as escapes, and a message quoting a
        huge text is cut (a toast of hundreds of lines would cover the game).

        Args:
            message: The message (plain text; line breaks are kept; at most
                :data:`NOTIFY_LIMIT` characters are shown).
            title: Its heading (plain text).
            severity: ``"information"``, ``"warning"`` or ``"error"``.
            timeout: Seconds it stays (None: Textual's default).
            markup: Ignored: kept for Textual's signature (its own messages pass it).
        """
        del markup  # never markup: see above
        super().notify(
            shorten(visible(message, multiline=True), NOTIFY_LIMIT),
            title=shorten(visible(title), NOTIFY_LIMIT),
            severity=severity,
            timeout=timeout,
            markup=False,
        )

    @on(events.DeliveryComplete)
    def _screenshot_saved(self, event: events.DeliveryComplete) -> None:
        # Textual's own notice is markup, which notify() above would show as brackets.
        if event.name == "screenshot":
            event.prevent_default()
            where = "" if event.path is None else f" to {event.path}"
            self.notify(f"Saved screenshot{where}", title="Screenshot")

    def action_help_quit(self) -> None:
        """Textual's ``ctrl+c`` reminder, in plain words (its own is markup)."""
        keys = [
            key
            for key, active in self.active_bindings.items()
            if active.binding.action in ("request_quit", "app.request_quit")
        ]
        self.notify(f"Press {keys[0] if keys else 'ctrl+q'} to quit", title="Do you want to quit?")

    def start_game(self, game_id: str) -> bool:
        """Open a game's level select (and its newest game in progress, if any).

        Args:
            game_id: A registered game id (:mod:`core.registry`).

        Returns:
            True if the game started; otherwise the player gets a notification.
        """
        info = registry.get(game_id)
        title = info.title if info is not None else game_id
        file_pack = None
        try:
            if self.level_file is not None and game_id == self.start_game_id:
                file_pack = self._load_level_file(self.level_file, game_id)
            launcher = launcher_for(self, game_id, file_pack)
            launcher.start(self.level_number if file_pack is not None else None)
        except RegistryError as error:
            self.notify(str(error), title=title, severity="warning")
            return False
        except Exception as error:  # A game bug must not crash the arcade.
            self.log.error(f"starting {game_id} failed", error)
            render = getattr(error, "render", None)
            text = render() if callable(render) else f"{type(error).__name__}: {error}"
            self.notify(f"{title} failed to start ({text}).", title=title, severity="error")
            return False
        return True

    @staticmethod
    def _load_level_file(path: str, game_id: str) -> tuple[str, Any]:
        from grammar.levels import load_pack_file

        return path, load_pack_file(path, game=game_id)

    def action_help(self) -> None:
        """Open the help page of the current screen (its ``help_topic``, else the arcade's)."""
        from tui.screens.common import ScreenHooks
        from tui.screens.help import HelpScreen

        if isinstance(self.screen, HelpScreen):
            return
        screen = self.screen
        topic = screen.help_topic if isinstance(screen, ScreenHooks) else "home"
        self.push_screen(HelpScreen(topic))

    def action_request_quit(self) -> None:
        """Quit, asking first when an editor holds unsaved edits or a game is in progress."""
        from tui.modals.confirm import ConfirmModal
        from tui.unsaved import confirm_leaving, quit_question, unsaved_work

        if unsaved_work(self.screen_stack):
            confirm_leaving(self, self.exit, verb="Quit termarcade", yes="Lose edits and quit")
            return
        question = quit_question(self.store, self.game_in_progress)
        if question is None:
            self.exit()
            return
        if isinstance(self.screen, ConfirmModal):
            return

        def decided(quit_now: bool | None) -> None:
            if quit_now:
                self.exit()

        self.push_screen(ConfirmModal(question, yes="Quit", no="Stay"), decided)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The command palette: the current screen's actions by name, then the app's own.

        Quit goes through :meth:`action_request_quit` (it asks while a game is in progress).
        """
        seen: set[str] = set()
        for active in screen.active_bindings.values():
            binding = active.binding
            if binding.action in seen or not active.enabled or not binding.description:
                continue
            if binding.action in COVERED_ACTIONS or binding.action.startswith(GENERIC_ACTIONS):
                continue
            seen.add(binding.action)
            keys = binding.key_display or binding.key.split(",")[0]
            node = active.node
            yield SystemCommand(
                binding.description,
                (binding.tooltip or f"{binding.description} ({keys})"),
                lambda node=node, action=binding.action: self.call_later(node.run_action, action),
            )
        yield SystemCommand(
            "Quit",
            "Quit termarcade (asks first while a game is in progress)",
            self.action_request_quit,
        )
        for command in super().get_system_commands(screen):
            if command.title in ("Quit", "Help"):
                continue
            # Served: only the listed entries ("Screenshot" would write on the host's disk).
            if not self.served or command.title in SERVED_TEXTUAL_COMMANDS:
                yield command

    # -- served mode: the action allowlist (tui.allowlist) and no host files or programs ----

    async def run_action(
        self,
        action: str | ActionParseResult,
        default_namespace: DOMNode | None = None,
        namespaces: Mapping[str, DOMNode] | None = None,
    ) -> bool:
        """Run an action; served, a malformed one (from a click on stray markup) is refused
        and logged instead of ending the session.

        Args:
            action: The action string (or Textual's parsed form).
            default_namespace: The node it runs on when it names none (None: the app).
            namespaces: Extra namespaces by name.

        Returns:
            True when the action ran.
        """
        try:
            return await super().run_action(action, default_namespace, namespaces)
        except (ActionError, ActionSyntaxError) as error:  # an unknown namespace; bad syntax
            if not self.served:
                raise
            self._refused("a malformed action", str(error))
            return False

    async def _dispatch_action(self, namespace: DOMNode, action_name: str, params: Any) -> bool:
        """Every action passes here (keys, bindings, ``@click`` markup, buttons, the palette,
        ``run_action``): served, one not on the allowlist is refused and logged."""
        if self.served and not action_allowed(self, namespace, action_name, tuple(params)):
            self._refused(f"the action {action_name!r}", type(namespace).__name__)
            return False
        return await super()._dispatch_action(namespace, action_name, params)

    def _refused(self, what: str, detail: str) -> None:
        log.warning(
            "served session refused %s (%s)",
            escape_controls(what[:80]),
            escape_controls(detail[:80]),
        )

    def open_url(self, url: str, *, new_tab: bool = True) -> None:
        """Open a URL in the player's browser; served, refused (the terminal driver would
        start a browser on the host).

        Args:
            url: The address.
            new_tab: Whether a web browser opens it in a new tab.
        """
        if self.served:
            self._refused("opening a URL", escape_controls(url[:80]))
            return
        super().open_url(url, new_tab=new_tab)

    def _deliver_binary(self, binary: Any, **options: Any) -> str | None:
        """Where Textual saves a file (a screenshot, ``deliver_text``, ``deliver_binary``);
        served, refused: it would write on the host's disk, where the arguments say."""
        if self.served:
            where = f"{options.get('save_directory')}/{options.get('save_filename')}"
            self._refused("saving a file", escape_controls(where[:80]))
            return None
        return super()._deliver_binary(binary, **options)

    def _handle_exception(self, error: Exception) -> None:
        """End the app on an unhandled error, except for one that only closing causes.

        Once :meth:`exit` is called (the player quit; served: the CPU limit, an idle time-out,
        the server's shutdown) Textual mounts nothing more (``Widget.mount_all``), so a screen
        pushed just before finds none of its children and its ``on_mount`` query fails. That
        is the exit racing a mount, not a fault: the app keeps the reason it was closing for
        (a served player is told "used its share of the server", not "internal error").

        Args:
            error: The unhandled exception.
        """
        if self._exit and isinstance(error, NoMatches):
            log.info("closing: %s", escape_controls(str(error)[:200]))
            return
        super()._handle_exception(error)

    def on_unmount(self) -> None:
        """Close the store cleanly."""
        self.store.close()
