"""Starting a game in the app: its sources, its saved games, its screen.

One :class:`Launcher` per game the player opens. It builds the game's level sources, opens
the level select, and turns a chosen :class:`tui.sources.LevelRef` into a running screen:
the game saved in that level's slot when there is one (with its whole undo history), a new
game otherwise. The puzzle screen base asks it for the next level (``N``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from core.registry import GameInfo, RegistryError
from core.saves import SavedGame, SaveError, UnreadableSave, decode_save, resume
from core.session import Session
from core.text import plural
from tui.legacy_saves import adopt_v1_save, v1_level
from tui.sources import (
    LevelRef,
    SourceKind,
    Sources,
    bundled_renames,
    follow_bundled_renames,
    level_from_text,
)

if TYPE_CHECKING:  # pragma: no cover
    from tui.arcade import Arcade
    from tui.ids import Resolved
    from tui.screens.puzzle import PuzzleScreen

__all__ = ["Launcher", "OpenedLevel"]

OpenedLevel = tuple[LevelRef, Any, Session, str]
"""``(ref, level, session, note)``: a level ready to play; ``note`` says what was resumed."""


class Launcher:
    """Opens one game's levels.

    Args:
        app: The running app.
        info: The game's registration.
        file_pack: A level file from the command line, as ``(path, pack)``.

    Raises:
        RegistryError: When the game's engine or screen cannot be loaded.
    """

    def __init__(
        self, app: Arcade, info: GameInfo, file_pack: tuple[str, Any] | None = None
    ) -> None:
        self.app = app
        self.info = info
        """The game."""
        self.game = info.load("engine")
        """The engine (a :class:`core.game.Game`)."""
        self.screen_class: type[PuzzleScreen] = info.load("screen")
        """The game's :class:`tui.screens.puzzle.PuzzleScreen` subclass: everything the
        launcher asks of it is declared there (``generator_params``, ``START_NEW``,
        ``MOVE_WORD``), with defaults."""
        self.sources = Sources(
            info,
            app.store,
            packs=self._bundled(),
            generators=self._generators(),
            file_pack=file_pack,
            renames=bundled_renames(info.id) if info.level_format is not None else None,
        )
        """Where the game's levels come from."""
        # A bundled level's store key is its title: the player's rows under a title the pack
        # has since changed move to the new one before anything lists or resumes them.
        follow_bundled_renames(app.store, info.id)

    def _bundled(self) -> list[tuple[str, Any]]:
        if self.info.level_format is None:
            return []
        from grammar.levels import bundled_packs

        return bundled_packs(self.info.id)

    def _generators(self) -> Mapping[str, tuple[Any, Mapping[str, Any]]]:
        if self.info.generators is None:
            return {}
        generators = self.info.load("generators")
        chosen = self.screen_class.generator_params(self.app)
        return {name: (gen, chosen.get(name, {})) for name, gen in generators.items()}

    def refresh_generators(self) -> None:
        """Re-read the generators' parameters (after the player changed the settings)."""
        fresh = Sources(self.info, self.app.store, generators=self._generators())
        self.sources.generators = fresh.generators

    # -- opening levels --------------------------------------------------------------------------

    def adopt(self, resolved: Resolved) -> LevelRef:
        """The ref of a level opened by its ID (:mod:`tui.ids`), known to this game's sources.

        A custom level is remembered by the sources (its ID carries it; nothing else does).
        """
        if resolved.ref.source.kind is SourceKind.CUSTOM:
            return self.sources.custom.add(resolved.ref.key, resolved.level)
        return resolved.ref

    def prepare(self, ref: LevelRef, level: Any = None) -> OpenedLevel:
        """The level of ``ref`` with its saved game, or a new game.

        A save keeps its own copy of the level, so it resumes even when the source changed.

        Args:
            ref: The level.
            level: The level itself when the caller has it already (an ID was resolved),
                so a generated level is not made twice; None: ask the sources.

        Raises:
            SaveError: When the slot holds a save this version cannot resume (newer, or
                unreadable): it stays in its slot, untouched, and the message says why.
            LookupError, ValueError: When neither the save nor the source has the level
                (the message says why; ParseError for a damaged level text).
        """
        record = self._saved_game(ref)
        if record is None and self.sources.current(ref) != ref:
            # An old title (a link, an old list): the level and its save are under the new one.
            ref = self.sources.current(ref)
            record = self._saved_game(ref)
        if record is not None:
            level = self._saved_level(ref, record)
            start = self.game.initial(level)
            resumed = resume(self.game, start, record)
            session, problem = resumed.session, resumed.problem
            word = self.screen_class.MOVE_WORD
            note = (
                f"Resumed your game ({plural(session.moves_made, word)})."
                if problem is None
                else f"Resumed your game, but {problem}."
            )
            return ref, level, session, note
        if level is None:
            level = self.sources.level(ref)
        return ref, level, Session.begin(self.game, self.game.initial(level)), ""

    def level_of(self, ref: LevelRef) -> Any:
        """The level of ``ref`` as :meth:`prepare` would open it (its save's copy, else the
        source's), without resuming the game.

        Raises:
            The errors of :meth:`prepare`.
        """
        record = self._saved_game(ref)
        return self.sources.level(ref) if record is None else self._saved_level(ref, record)

    def _saved_game(self, ref: LevelRef) -> SavedGame | None:
        """The decoded save in ``ref``'s slot (None: no save; SaveError: one that cannot be
        resumed, kept in its slot)."""
        saved = self.app.store.load_game(self.info.id, ref.slot)
        if saved is None and self.app.store.save_info(self.info.id, ref.slot) is not None:
            # The slot holds a save the store could not parse: report it, never play over it.
            raise UnreadableSave("its data is not JSON")
        return None if saved is None else decode_save(saved, self.info.id, v1_level)

    def _saved_level(self, ref: LevelRef, saved: SavedGame) -> Any:
        if saved.level:
            return level_from_text(saved.level)
        return self.sources.level(ref)

    def open(self, ref: LevelRef, level: Any = None) -> bool:
        """Push the game screen for ``ref`` (a notification says why when it cannot open).

        Args:
            ref: The level.
            level: The level itself, when the caller has it (see :meth:`prepare`).

        Returns:
            True when the screen was pushed.
        """
        try:
            ref, level, session, note = self.prepare(ref, level)
        except SaveError as error:  # Kept in its slot: say why it cannot be resumed here.
            self._error(
                f"Your saved game of this level cannot be resumed: {error}. It is kept as it "
                "is; D in the level list deletes it to play this level anew.",
                timeout=15,
            )
            return False
        except Exception as error:  # A damaged save or level must not crash the arcade.
            detail = getattr(error, "render", None)
            text = detail() if callable(detail) else f"{type(error).__name__}: {error}"
            self._error(f"This level cannot be opened: {text}", timeout=10)
            return False
        finally:  # what the store set aside while reading the save (a damaged row): say so now
            self.app.show_store_warnings()
        screen = self.screen_class(session, level=level, ref=ref, launcher=self, info=self.info)
        self.app.push_screen(screen, self._closed)
        if note:
            self.app.call_after_refresh(screen.say, note)
        return True

    def _closed(self, ref: LevelRef | None) -> None:
        from tui.screens.level_select import LevelSelectScreen

        select = self.app.screen
        if ref is not None and isinstance(select, LevelSelectScreen):
            select.highlight(ref)

    def has_next(self, ref: LevelRef) -> bool:
        """Whether ``N`` has somewhere to go from ``ref``."""
        return self.sources.after(ref) is not None

    def next_level(self, ref: LevelRef) -> OpenedLevel | None:
        """The level after ``ref`` (a new one for generators), ready to play; None at the end."""
        nxt = self.sources.after(ref)
        if nxt is None:
            return None
        try:
            return self.prepare(nxt)
        except Exception as error:
            self.app.notify(f"The next level cannot be opened: {error}", severity="error")
            return None

    # -- starting ----------------------------------------------------------------------------

    def start(self, level: int | None = None) -> None:
        """Open the level select; resume the newest game in progress on top of it.

        Args:
            level: With a level file from the command line: open its level N (1-based).
        """
        from tui.screens.level_select import LevelSelectScreen

        self.app.push_screen(LevelSelectScreen(self))
        if self.sources.file is not None:
            entries = self.sources.file.entries()
            index = (level or 1) - 1
            if 0 <= index < len(entries):
                self.open(entries[index].ref)
            return
        self._adopt_v1_save()
        in_progress = self.sources.progress.entries()
        if in_progress:
            self.open(in_progress[0].ref)
        elif self.screen_class.START_NEW and self.sources.generators:
            self.open(self.sources.generators[0].new())

    def _adopt_v1_save(self) -> None:
        """Move a save of format 1 (one per game, :mod:`tui.legacy_saves`) to its level's slot,
        so it is listed in progress and resumed like any other; say why when it cannot be."""
        try:
            if adopt_v1_save(self.app.store, self.info.id) is not None:
                # It went to its level's slot as the old save named it: maybe an old title.
                follow_bundled_renames(self.app.store, self.info.id)
        except Exception as error:  # An old save must not keep the game from opening.
            why = str(error) if isinstance(error, SaveError) else f"{type(error).__name__}: {error}"
            self._error(
                f"Your game saved by an early termarcade cannot be resumed: {why}. It is "
                "kept as it is.",
                timeout=15,
            )

    def _error(self, message: str, *, timeout: float) -> None:
        """Notify an error, titled with the game's name, shown for ``timeout`` seconds."""
        self.app.notify(message, title=self.info.title, severity="error", timeout=timeout)


def launcher_for(app: Arcade, game_id: str, file_pack: tuple[str, Any] | None = None) -> Launcher:
    """Make the launcher of a registered game.

    Raises:
        RegistryError: When the game is unknown or cannot be loaded.
    """
    from core import registry

    info = registry.get(game_id)
    if info is None:
        raise RegistryError(f"unknown game {game_id!r}")
    if info.screen is None:
        raise RegistryError(f"{info.title} is coming soon.")
    return Launcher(app, info, file_pack)
