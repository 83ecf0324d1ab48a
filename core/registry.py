"""The arcade's table of games: one registration per game, read by every part of the shell.

A game declares itself once with a :class:`GameInfo`: its id, title and tagline, and its
parts (engine, level format, CLI group, screen, generators, help page) as lazy
``"module:attr"`` strings. Nothing is imported until a part is needed, so ``termarcade
--help``, ``termarcade <game> ...`` and ``termarcade parse`` never import Textual, and a
broken game cannot bring the others down.

Discovery needs no list of games that every game edits:

* First-party games are folders. A package named under the ``termarcade.game_folders``
  entry-point group (the arcade names ``tui.games`` there, once) is scanned, and each of its
  subpackages that defines ``INFO`` is a game: adding ``tui/games/<game>/`` is enough.
* Third-party games use Python entry points, the packaging ecosystem's plugin convention: a
  ``GameInfo`` listed under the ``termarcade.games`` group of its own distribution::

      [project.entry-points."termarcade.games"]
      mygame = "mygame.registration:INFO"

  so installing the package is enough to make it appear.

No list of game ids exists anywhere else in the code. Tests (and embedders) add games at
run time with :func:`register` (a context manager that removes the game again on exit).

Layering: this module holds data and a resolver only. Each layer resolves the references of
its own layer (the engine in ``core``, the level format in ``grammar``, the screen and the
CLI group in ``tui``), so no static import crosses the layers.
"""

from __future__ import annotations

import importlib
import pkgutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any

__all__ = [
    "ENTRY_POINT_GROUP",
    "FOLDER_GROUP",
    "GameInfo",
    "RegistryError",
    "games",
    "get",
    "ids",
    "pinned",
    "rediscover",
    "register",
    "resolve",
]

ENTRY_POINT_GROUP = "termarcade.games"
"""The entry-point group that lists third-party games' :class:`GameInfo`."""

FOLDER_GROUP = "termarcade.game_folders"
"""The entry-point group naming packages whose every subpackage with ``INFO`` is a game."""


class RegistryError(Exception):
    """A registration or one of its references could not be loaded (message for a person)."""


@dataclass(frozen=True, slots=True)
class GameInfo:
    """Everything the shell needs to know about one game.

    Attributes:
        id: The game id: CLI group name, level-file ``game`` value, store key, help topic.
            Letters, digits and ``_`` only (``"2048"`` is fine).
        title: The name shown to players.
        tagline: One line saying what the game is about (home screen, ``--help``).
        engine: ``"module:attr"`` of the object implementing :class:`core.game.Game`.
        level_format: ``"module:attr"`` of the game's ``grammar.levels.LevelFormat``, or
            None when the game has no level files.
        cli: ``"module:attr"`` of the game's click group, or None.
        screen: ``"module:attr"`` of the game's puzzle screen class, or None (not playable
            in the app yet).
        generators: ``"module:attr"`` of a mapping ``name -> core generator`` (seeded level
            generators: the core mapping itself, ``core.<game>.<module>:GENERATORS``), or None.
        setup: ``"module:attr"`` of a function (no arguments) the shell's side provides and
            :meth:`load` calls before it loads the generators: what core cannot do itself
            (Longcat's learned generator gets the reader of its bundled weights file); or None.
        help: ``"package:path"`` of the game's help page (markdown) inside an installed
            package; default ``help.md`` beside the screen's module (its game folder).
        editor: ``"module:attr"`` of the game's level editor (a
            ``tui.screens.designer.DesignerScreen``), or None (the game screen then has no
            ``E``).
        id_params: The generators' parameters in the order a generated level's ID spells
            their values, each ``(name, default)``; trailing values equal to their default are
            left out of an ID, a default of None is always written (:mod:`core.ids`).
        order: Position on the home screen (smaller first; ties by title).
    """

    id: str
    """The game id."""
    title: str
    """The name shown to players."""
    tagline: str
    """One line saying what the game is about."""
    engine: str
    """``"module:attr"`` of the engine (a :class:`core.game.Game`)."""
    level_format: str | None = None
    """``"module:attr"`` of the level format, or None."""
    cli: str | None = None
    """``"module:attr"`` of the click group, or None."""
    screen: str | None = None
    """``"module:attr"`` of the puzzle screen class, or None."""
    generators: str | None = None
    """``"module:attr"`` of the generators mapping, or None."""
    setup: str | None = None
    """``"module:attr"`` of a function run before the generators are loaded, or None."""
    help: str | None = None
    """``"package:path"`` of the help page (default: ``help.md`` in the screen's package)."""
    editor: str | None = None
    """``"module:attr"`` of the level editor, or None."""
    id_params: tuple[tuple[str, Any], ...] = ()
    """The generators' parameters as a generated level's ID spells them: ``(name, default)``."""
    order: int = 100
    """Position on the home screen."""

    def __post_init__(self) -> None:
        if not self.id or not all(ch.isascii() and (ch.isalnum() or ch == "_") for ch in self.id):
            raise ValueError(f"a game id is letters, digits and _ only, not {self.id!r}")
        for name in ("engine", "level_format", "cli", "screen", "generators", "setup", "editor"):
            ref = getattr(self, name)
            if ref is not None and ":" not in ref:
                raise ValueError(f"{self.id}: {name} must be 'module:attr', not {ref!r}")

    @property
    def help_ref(self) -> str:
        """The help page reference, with the default filled in."""
        if self.help:
            return self.help
        package = (self.screen or self.engine).partition(":")[0].rpartition(".")[0]
        return f"{package}:help.md"

    @property
    def playable(self) -> bool:
        """True when the game has a screen in the app."""
        return self.screen is not None

    def load(self, part: str) -> Any:
        """Import and return one part (``"engine"``, ``"level_format"``, ``"cli"``, ...).

        The generators come after the game's :attr:`setup` has run (every time: a setup is
        idempotent and cheap, and a test may have undone it).

        Args:
            part: The attribute holding the reference.

        Returns:
            The object it names.

        Raises:
            RegistryError: When the part is not declared or cannot be imported (or the setup
                fails).
        """
        ref = getattr(self, part, None)
        if ref is None:
            raise RegistryError(f"{self.title} has no {part.replace('_', ' ')}")
        if part == "generators" and self.setup is not None:
            self._run_setup(self.setup)
        return resolve(ref, what=f"{self.title}'s {part.replace('_', ' ')}")

    def _run_setup(self, ref: str) -> None:
        """Run the game's setup function (a failure is the game's, in one line)."""
        setup = resolve(ref, what=f"{self.title}'s setup")
        try:
            setup()
        except Exception as error:  # A plug-in's setup must not crash the shell.
            raise RegistryError(
                f"{self.title}'s setup failed ({type(error).__name__}: {error})"
            ) from error


def resolve(ref: str, what: str = "") -> Any:
    """Import the object named by ``"module:attr"`` (``attr`` may be dotted).

    Args:
        ref: The reference.
        what: Words for the error message ("Longcat's engine").

    Returns:
        The object.

    Raises:
        RegistryError: When the module cannot be imported or has no such attribute; the
            message names ``what`` and the cause in one line.
    """
    module_name, _, attr = ref.partition(":")
    label = what or ref
    try:
        obj: Any = importlib.import_module(module_name)
    except Exception as error:  # Any import-time failure of a plug-in must stay contained.
        raise RegistryError(
            f"{label} could not be loaded ({type(error).__name__}: {error})"
        ) from error
    for name in filter(None, attr.split(".")):
        try:
            obj = getattr(obj, name)
        except AttributeError:
            raise RegistryError(f"{label} could not be loaded (no {ref})") from None
    return obj


_lock = threading.Lock()
_discovered: dict[str, GameInfo] | None = None
_added: dict[str, GameInfo] = {}
_problems: list[str] = []
_pinned: dict[str, GameInfo] | None = None


def _folder_games(package_name: str) -> Iterator[tuple[str, Any]]:
    """Yield ``(where, registration)`` for each subpackage of ``package_name``.

    A subpackage without ``INFO`` is skipped (a shared helper package may live there too);
    one that fails to import is reported as ``(where, error)``.
    """
    package = importlib.import_module(package_name)
    for module in sorted(
        pkgutil.iter_modules(getattr(package, "__path__", [])), key=lambda found: found.name
    ):
        if not module.ispkg:
            continue
        where = f"{package_name}.{module.name}"
        try:
            found = importlib.import_module(where)
        except Exception as error:  # A broken game must not hide the others.
            yield where, error
            continue
        if hasattr(found, "INFO"):
            yield where, found.INFO


def _candidates() -> Iterator[tuple[str, Any]]:
    """Every registration found, as ``(where, object or the error that stopped it)``."""
    for point in entry_points(group=FOLDER_GROUP):
        try:
            yield from _folder_games(point.value)
        except Exception as error:  # A broken folder must not hide the others.
            yield point.value, error
    for point in entry_points(group=ENTRY_POINT_GROUP):
        try:
            yield point.value, point.load()
        except Exception as error:  # A broken plug-in must not hide the others.
            yield point.value, error


def _discover() -> dict[str, GameInfo]:
    """Find every game once: game folders, then entry points (bad ones become :func:`problems`)."""
    global _discovered
    with _lock:
        if _discovered is None:
            found: dict[str, GameInfo] = {}
            for where, info in _candidates():
                if isinstance(info, Exception):
                    _problems.append(
                        f"game {where} could not be loaded ({type(info).__name__}: {info})"
                    )
                elif not isinstance(info, GameInfo):
                    _problems.append(f"game {where} is not a GameInfo")
                else:
                    found.setdefault(info.id, info)
            _discovered = found
        return _discovered


def _table() -> dict[str, GameInfo]:
    """Id -> registration: the pinned set if any, else the discovered and added games."""
    if _pinned is not None:
        return dict(_pinned)
    table = dict(_discover())
    table.update(_added)
    return table


def games() -> tuple[GameInfo, ...]:
    """Every registered game, in home-screen order (``order``, then title).

    Returns:
        The registrations (found games and :func:`register`-ed ones, or the :func:`pinned` set).
    """
    table = _table()
    return tuple(sorted(table.values(), key=lambda info: (info.order, info.title.casefold())))


def ids() -> tuple[str, ...]:
    """The ids of every registered game, in home-screen order."""
    return tuple(info.id for info in games())


def get(game_id: str) -> GameInfo | None:
    """Return the registration of a game, or None when no game has that id."""
    if _pinned is not None:
        return _pinned.get(game_id)
    # No table copy: get() runs for every level label, save and palette entry.
    return _added.get(game_id) or _discover().get(game_id)


def problems() -> tuple[str, ...]:
    """Messages about registrations that could not be loaded (shown by the app and CLI)."""
    _discover()
    return tuple(_problems)


@contextmanager
def register(info: GameInfo) -> Iterator[GameInfo]:
    """Add a game at run time for the duration of a ``with`` block (tests, embedders).

    Args:
        info: The registration; it shadows an entry point with the same id.

    Yields:
        ``info``.
    """
    previous = _added.get(info.id)
    _added[info.id] = info
    try:
        yield info
    finally:
        if previous is None:
            _added.pop(info.id, None)
        else:
            _added[info.id] = previous


@contextmanager
def pinned(*infos: GameInfo) -> Iterator[tuple[GameInfo, ...]]:
    """Make exactly ``infos`` the registered games for the duration of a ``with`` block.

    Screens that list every game (home, leaderboards) are recorded as snapshots with a fixed
    set of games, so adding a game to the arcade never changes their pictures.

    Args:
        infos: The registrations to show; found and :func:`register`-ed games are hidden.

    Yields:
        ``infos``.
    """
    global _pinned
    previous = _pinned
    _pinned = {info.id: info for info in infos}
    try:
        yield infos
    finally:
        _pinned = previous


def rediscover() -> None:
    """Forget what discovery found, so the next question looks again (a folder was added)."""
    global _discovered
    with _lock:
        _discovered = None
        _problems.clear()
