"""Where levels come from: one abstraction for the level select and for ``N`` (next / new).

A game's levels come from several *sources*:

* **bundled packs** shipped in ``levels/<game>/`` (one source per pack);
* **My levels**, the player's own levels kept in the store (what the level editor saves;
  also what served mode uses instead of files);
* **a level file** given on the command line (``termarcade play GAME FILE``);
* **generators**: the game's seeded level generators (a level is its generator, parameters
  and seed, so it can always be made again);
* **In progress**: every saved game of this game, whatever source its level came from.

A level is named by a :class:`LevelRef` (source id and a key inside the source); its store
slot is ``ref.slot``, so every level keeps its own saved game (choosing another level never
discards one). Saves also keep the level's text, so a game can be resumed even when its
source changed or is gone.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

from core.levelpack import LevelPack
from core.registry import GameInfo

__all__ = [
    "CUSTOM",
    "MINE",
    "PROGRESS",
    "CustomSource",
    "GeneratorSource",
    "InProgressSource",
    "LevelEntry",
    "LevelGenerator",
    "LevelRef",
    "LevelSource",
    "MyLevelsSource",
    "PackSource",
    "SourceId",
    "SourceKind",
    "Sources",
    "bundled_renames",
    "follow_bundled_renames",
    "level_from_text",
    "level_to_text",
    "new_seed",
    "parse_slot",
]


def new_seed() -> int:
    """A fresh seed for a generated level (the UI draws it; engines stay deterministic)."""
    return random.SystemRandom().randrange(2**31)


class SourceKind(StrEnum):
    """What a source id names (the part of the id before its ``:``, or the whole id)."""

    PACK = "pack"
    """A bundled pack: ``pack:01-basics``."""
    FILE = "file"
    """A level file from the command line: ``file:/abs/path``."""
    MINE = "mine"
    """My levels: ``mine``."""
    GENERATOR = "generator"
    """A generator with its parameters: ``gen:sd?size=8x8&unique=1``."""
    CUSTOM = "custom"
    """Levels opened by a custom ID: ``custom``."""
    PROGRESS = "progress"
    """The in-progress list: ``progress``."""
    OTHER = "other"
    """Any other string (a source this termarcade does not know)."""


_PREFIXED = {"pack:": SourceKind.PACK, "file:": SourceKind.FILE, "gen:": SourceKind.GENERATOR}
_WHOLE = {"mine": SourceKind.MINE, "custom": SourceKind.CUSTOM, "progress": SourceKind.PROGRESS}


class SourceId(str):
    """A source id, typed: the first half of every :class:`LevelRef` and of every store slot.

    A ``str`` subclass, so the exact string is what the store, saves, leaderboard keys and
    links hold (old data reads back unchanged, and ``SourceId(s) == s``), while the code asks
    what it names (:attr:`kind`, :attr:`pack`, :attr:`generator`, :attr:`params`) instead of
    testing prefixes. Every string is a source id (an unknown one is :attr:`SourceKind.OTHER`).

    Make one with :meth:`of_pack`, :meth:`of_file`, :meth:`of_generator`, the constants
    :data:`MINE`, :data:`CUSTOM`, :data:`PROGRESS`, or ``SourceId(text)`` to read a stored one.
    """

    __slots__ = ()

    @classmethod
    def of_pack(cls, pack_id: str) -> SourceId:
        """The source id of a bundled pack (``01-basics`` -> ``pack:01-basics``)."""
        return cls(f"pack:{pack_id}")

    @classmethod
    def of_file(cls, path: str) -> SourceId:
        """The source id of a level file given by ``path`` (made absolute)."""
        return cls("file:" + os.path.abspath(path))

    @classmethod
    def of_generator(cls, name: str, params: Mapping[str, Any]) -> SourceId:
        """The source id of a generator with these parameters (``gen:sd?size=8x8&unique=1``):
        the parameters sorted by name, as :attr:`params` reads them back."""
        query = "&".join(f"{k}={params[k]}" for k in sorted(params))
        return cls(f"gen:{name}" + (f"?{query}" if query else ""))

    @property
    def kind(self) -> SourceKind:
        """What this id names."""
        for prefix, kind in _PREFIXED.items():
            if self.startswith(prefix):
                return kind
        return _WHOLE.get(str(self), SourceKind.OTHER)

    @property
    def named_by_id(self) -> bool:
        """Whether a level of this source has an ID naming this very ref (bundled and
        generated levels); the others' IDs are custom ones, keyed by the level's text."""
        return self.kind in (SourceKind.PACK, SourceKind.GENERATOR)

    @property
    def pack(self) -> str:
        """The pack id of a bundled pack's source (``pack:01-basics`` -> ``01-basics``);
        ``""`` for other sources."""
        return self.removeprefix("pack:") if self.kind is SourceKind.PACK else ""

    @property
    def path(self) -> str:
        """The path of a level file's source; ``""`` for other sources."""
        return self.removeprefix("file:") if self.kind is SourceKind.FILE else ""

    @property
    def generator(self) -> str:
        """The generator's name in a generator's source (``gen:sd?size=8x8`` -> ``sd``);
        ``""`` for other sources."""
        if self.kind is not SourceKind.GENERATOR:
            return ""
        return self.removeprefix("gen:").partition("?")[0]

    @property
    def params(self) -> dict[str, Any]:
        """The parameters in a generator's source, as :meth:`of_generator` wrote them
        (``gen:sd?size=8x8&unique=1`` -> ``{"size": "8x8", "unique": 1}``; whole numbers as
        ints); empty for other sources."""
        params: dict[str, Any] = {}
        if self.kind is not SourceKind.GENERATOR:
            return params
        for pair in filter(None, self.partition("?")[2].split("&")):
            key, _, value = pair.partition("=")
            params[key] = int(value) if value.lstrip("-").isdigit() else value
        return params


MINE = SourceId("mine")
"""The source id of My levels (its keys are the levels' ids in the store)."""
CUSTOM = SourceId("custom")
"""The source id of the levels opened by a custom ID (its keys are digests of their text)."""
PROGRESS = SourceId("progress")
"""The source id of the in-progress list (it makes no refs of its own)."""


@dataclass(frozen=True, slots=True, init=False)
class LevelRef:
    """A level's identity: which source, and which level inside it.

    Attributes:
        source: The source id (``"pack:01-basics"``, ``"mine"``, ``"file:/abs/path"``,
            ``"gen:sd?size=8x8"``), typed: a plain string given is read as a :class:`SourceId`.
        key: The level inside the source (a title, an id, or a seed).
    """

    source: SourceId
    """The source id."""
    key: str
    """The level inside the source."""

    def __init__(self, source: str, key: str) -> None:
        object.__setattr__(self, "source", source if type(source) is SourceId else SourceId(source))
        object.__setattr__(self, "key", key)

    @property
    def slot(self) -> str:
        """The store slot of this level's saved game."""
        return f"{self.source}|{self.key}"


def parse_slot(slot: str) -> LevelRef | None:
    """The level ref of a store slot (None for slots of another shape)."""
    source, sep, key = slot.partition("|")
    return LevelRef(source, key) if sep else None


@dataclass(frozen=True, slots=True)
class LevelEntry:
    """One row of a level list.

    Attributes:
        ref: The level.
        title: Its title.
        par: The designer's move count, if any.
        number: 1-based position in its source.
    """

    ref: LevelRef
    """The level."""
    title: str
    """Its title."""
    par: int | None = None
    """The designer's move count."""
    number: int = 0
    """1-based position in its source."""


def level_to_text(game: str, level: Any) -> str:
    """A level as level-file text (a one-level pack), the form saves and My levels keep."""
    from grammar.levels import dump_pack

    return dump_pack(LevelPack(title=level.title, levels=(level,), game=game))


def level_from_text(text: str, filename: str = "<saved level>") -> Any:
    """The first level of a level-file text (ParseError when it does not load).

    The text was stored by termarcade (a save, My levels), maybe by an older one, so a field
    it leaves out means what it meant then (``load_pack(stored=True)``)."""
    from grammar.levels import load_pack

    pack = load_pack(text, filename=filename, stored=True)
    if not pack.levels:
        raise LookupError("the saved level text holds no level")
    return pack.levels[0]


class LevelSource:
    """A place levels come from (see the module docstring).

    Attributes:
        id: The source id (first part of every :class:`LevelRef` it makes).
        title: Shown in the level select.
    """

    def __init__(self, source_id: str, title: str) -> None:
        self.id = SourceId(source_id)
        """The source id."""
        self.title = title
        """Shown in the level select."""

    @property
    def kind(self) -> SourceKind:
        """What kind of source this is (its id's kind: a pack, My levels, a generator...)."""
        return self.id.kind

    def entries(self) -> list[LevelEntry]:
        """The levels to list, in play order."""
        return []

    def level(self, key: str) -> Any:
        """The level with this key (LookupError when there is none)."""
        raise LookupError(key)

    def after(self, key: str) -> LevelRef | None:
        """The level that follows ``key`` in this source (None at the end)."""
        keys = [entry.ref.key for entry in self.entries()]
        if key in keys and keys.index(key) + 1 < len(keys):
            return LevelRef(self.id, keys[keys.index(key) + 1])
        return None


class PackSource(LevelSource):
    """The levels of a pack (bundled, or a file); a level's key is its title (unique).

    A bundled pack that retitled a level ships the rename (:func:`bundled_renames`): the
    level is still found by its old title (an old save's ref, an old link).
    """

    def __init__(
        self,
        source_id: str,
        pack: LevelPack,
        title: str | None = None,
        renames: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(source_id, title or pack.title or source_id)
        self.pack = pack
        """The pack."""
        self.renames: dict[str, str] = dict(renames or {})
        """``{old title: current title}`` of the pack's renamed levels."""

    def current_key(self, key: str) -> str:
        """The key a level has now (its current title when ``key`` is an old one)."""
        return self.renames.get(key, key)

    def entries(self) -> list[LevelEntry]:
        return [
            LevelEntry(LevelRef(self.id, level.title), level.title, level.par, number)
            for number, level in enumerate(self.pack.levels, start=1)
        ]

    def level(self, key: str) -> Any:
        wanted = self.current_key(key)
        for level in self.pack.levels:
            if level.title == wanted:
                return level
        raise LookupError(key)

    def after(self, key: str) -> LevelRef | None:
        return super().after(self.current_key(key))


class MyLevelsSource(LevelSource):
    """The player's own levels, kept in the store (key: the level's id in the store)."""

    def __init__(self, game: str, store: Any) -> None:
        super().__init__(MINE, "My levels")
        self.game = game
        """The game id."""
        self.store = store
        """The app's store."""

    def entries(self) -> list[LevelEntry]:
        out = []
        for number, item in enumerate(self.store.my_levels(self.game), start=1):
            par = None
            # A damaged level is still listed; opening it says why.
            with contextlib.suppress(Exception):
                par = level_from_text(item.text).par
            out.append(LevelEntry(LevelRef(self.id, str(item.id)), item.title, par, number))
        return out

    def level(self, key: str) -> Any:
        try:
            item = self.store.get_my_level(self.game, int(key))
        except ValueError:
            item = None
        if item is None:
            raise LookupError(key)
        return level_from_text(item.text, filename=f"My levels: {item.title}")


class LevelGenerator(Protocol):
    """What the shell reads of a game's core generator (every game's generators have these)."""

    @property
    def title(self) -> str:
        """Shown in the level select (the source's title)."""

    @property
    def description(self) -> str:
        """One line under the title in the level select."""

    # Each game's generate takes its own keyword parameters: ``generate(seed, **params)``
    # gives the level of ``seed`` (the same seed and parameters give the same level).
    @property
    def generate(self) -> Callable[..., Any]:
        """``generate(seed, **params) -> level``."""


class GeneratorSource(LevelSource):
    """A seeded generator: every level is (generator, parameters, seed).

    Args:
        generator_id: The generator's name in the game's generators mapping.
        generator: The core generator; None where only the source's id is wanted (a
            generated level's ID).
        params: The parameters to generate with (part of the source id).
        store: The app's store (to list the generated levels that have saves).
        game: The game id.
    """

    def __init__(
        self,
        generator_id: str,
        generator: LevelGenerator,
        params: Mapping[str, Any],
        store: Any = None,
        game: str = "",
    ) -> None:
        super().__init__(SourceId.of_generator(generator_id, params), generator.title)
        self.generator = generator
        """The core generator."""
        self.params = dict(params)
        """Parameters passed to every ``generate`` call."""
        self.store = store
        self.game = game
        self._cache: dict[int, Any] = {}

    def level(self, key: str) -> Any:
        try:
            seed = int(key)
        except ValueError:
            raise LookupError(key) from None
        if seed not in self._cache:
            self._cache[seed] = self.generator.generate(seed, **self.params)
        return self._cache[seed]

    def new(self, seed: int | None = None) -> LevelRef:
        """A new level of this generator (a fresh seed unless one is given)."""
        return LevelRef(self.id, str(new_seed() if seed is None else seed))

    def entries(self) -> list[LevelEntry]:
        """The generated levels that have a saved game (newest first)."""
        if self.store is None:
            return []
        out: list[LevelEntry] = []
        for info in self.store.saves(self.game):
            ref = parse_slot(info.slot)
            if ref is not None and ref.source == self.id:
                title = str((info.summary or {}).get("title") or f"seed {ref.key}")
                out.append(LevelEntry(ref, title, None, len(out) + 1))
        return out

    def after(self, key: str) -> LevelRef | None:
        """``N`` on a generated level makes a new one."""
        return self.new()


class CustomSource(LevelSource):
    """Levels opened by a custom ID (:mod:`tui.ids`): the key is a digest of the level text.

    The levels live in the ID, not here: :meth:`add` keeps the ones opened in this run, and
    a saved game keeps its own copy of its level, so it resumes without the ID.
    """

    def __init__(self) -> None:
        super().__init__(CUSTOM, "Shared levels")
        self._levels: dict[str, Any] = {}

    def add(self, key: str, level: Any) -> LevelRef:
        """Remember a level opened by its ID; returns its ref."""
        self._levels[key] = level
        return LevelRef(self.id, key)

    def level(self, key: str) -> Any:
        if key not in self._levels:
            raise LookupError(f"the shared level {key} is not open: open it by its ID again")
        return self._levels[key]

    def after(self, key: str) -> LevelRef | None:
        return None


class InProgressSource(LevelSource):
    """Every saved game of a game that is still being played, newest first."""

    def __init__(self, game: str, store: Any) -> None:
        super().__init__(PROGRESS, "In progress")
        self.game = game
        self.store = store

    def entries(self) -> list[LevelEntry]:
        out: list[LevelEntry] = []
        for info in self.store.saves(self.game):
            summary = info.summary or {}
            ref = parse_slot(info.slot)
            if ref is None or summary.get("status", "playing") != "playing":
                continue
            out.append(
                LevelEntry(
                    ref, str(summary.get("title") or ref.key), summary.get("par"), len(out) + 1
                )
            )
        return out


class Sources:
    """All the sources of one game, in level-select order, and how to move between them.

    Args:
        info: The game's registration.
        store: The app's store.
        packs: The bundled packs as ``(pack_id, pack)``.
        generators: The game's generators (name -> generator), with the parameters to use.
        file_pack: A level file given on the command line, as ``(path, pack)``.
        renames: The bundled packs' renamed levels, ``{pack_id: {old title: new title}}``
            (:func:`bundled_renames`).
    """

    def __init__(
        self,
        info: GameInfo,
        store: Any,
        packs: Sequence[tuple[str, LevelPack]] = (),
        generators: Mapping[str, tuple[Any, Mapping[str, Any]]] | None = None,
        file_pack: tuple[str, LevelPack] | None = None,
        renames: Mapping[str, Mapping[str, str]] | None = None,
    ) -> None:
        self.info = info
        """The game."""
        self.store = store
        self.progress = InProgressSource(info.id, store)
        """Saved games still being played."""
        renamed = renames or {}
        self.packs = [
            PackSource(SourceId.of_pack(pack_id), pack, renames=renamed.get(pack_id))
            for pack_id, pack in packs
        ]
        """The bundled packs."""
        self.mine = MyLevelsSource(info.id, store)
        """The player's own levels."""
        self.file = (
            None
            if file_pack is None
            else PackSource(
                SourceId.of_file(file_pack[0]),
                file_pack[1],
                title=f"File: {os.path.basename(file_pack[0])}",
            )
        )
        """The level file from the command line, if any."""
        self.generators = [
            GeneratorSource(name, gen, params, store, info.id)
            for name, (gen, params) in (generators or {}).items()
        ]
        """One source per generator."""
        self.custom = CustomSource()
        """Levels opened by a custom ID (not listed: their saves are in progress)."""

    def all(self) -> list[LevelSource]:
        """Every source, in level-select order."""
        listed: list[LevelSource] = [self.progress]
        if self.file is not None:
            listed.append(self.file)
        listed += self.packs
        listed.append(self.mine)
        listed += self.generators
        return listed

    def generator(self, name: str) -> GeneratorSource | None:
        """The source of the generator called ``name`` (``"sd"``), with the current parameters;
        None when the game has no such generator."""
        return next((g for g in self.generators if g.id.generator == name), None)

    def get(self, source_id: str) -> LevelSource | None:
        """The source with this id (None when it is not one of them).

        A generator id with other parameters than the current ones (a level generated before
        the settings changed) still resolves: its parameters are in the id.
        """
        for source in self.all():
            if source.id == source_id:
                return source
        if source_id == self.custom.id:
            return self.custom
        wanted = SourceId(source_id)
        generator = self._generator_named(wanted)
        if generator is not None:
            return GeneratorSource(
                wanted.generator,
                generator.generator,
                wanted.params,
                self.store,
                self.info.id,
            )
        return None

    def _generator_named(self, source_id: SourceId) -> GeneratorSource | None:
        """The current generator source with the same generator name as ``source_id``."""
        if source_id.kind is not SourceKind.GENERATOR:
            return None
        return self.generator(source_id.generator)

    def current(self, ref: LevelRef) -> LevelRef:
        """``ref`` under its level's current key (a renamed bundled level's new title)."""
        source = self.get(ref.source)
        if isinstance(source, PackSource) and source in self.packs:
            return LevelRef(ref.source, source.current_key(ref.key))
        return ref

    def level(self, ref: LevelRef) -> Any:
        """The level a ref names (LookupError when its source does not have it)."""
        source = self.get(ref.source)
        if source is None:
            raise LookupError(ref.source)
        return source.level(ref.key)

    def after(self, ref: LevelRef) -> LevelRef | None:
        """The next level: the next in its source; after a bundled pack, the next pack."""
        current = self._generator_named(ref.source)
        if current is not None:  # N on a generated level: a new one with today's settings
            return current.new()
        source = self.get(ref.source)
        if source is None:
            return None
        nxt = source.after(ref.key)
        if nxt is not None or source not in self.packs:
            return nxt
        for later in self.packs[self.packs.index(source) + 1 :]:
            entries = later.entries()
            if entries:
                return entries[0].ref
        return None


def bundled_renames(game: str) -> dict[str, dict[str, str]]:
    """The renamed levels of a game's bundled packs (``levels/<game>/renames.json``).

    Args:
        game: The game id.

    Returns:
        ``{pack_id: {old title: current title}}`` (a fresh copy); empty when the game ships
        no record (or a damaged one: the levels still open under their current titles).
    """
    return {pack: dict(titles) for pack, titles in _renames_record(game).items()}


@functools.cache
def _renames_record(game: str) -> dict[str, dict[str, str]]:
    # The record ships with the code, like the packs: read it once per game.
    from levels import pack_dir

    try:
        record = json.loads(pack_dir(game).joinpath("renames.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(record, dict):
        return {}
    return {
        str(pack): {str(old): str(new) for old, new in titles.items()}
        for pack, titles in record.items()
        if isinstance(titles, dict)
    }


def follow_bundled_renames(store: Any, game: str) -> int:
    """Move the player's rows under renamed bundled levels' old titles to the new ones.

    Args:
        store: The app's store (:meth:`tui.store.Store.follow_renames`).
        game: The game id.

    Returns:
        How many rows moved (0 when nothing was left under an old title).
    """
    renames = bundled_renames(game)
    if not renames:
        return 0
    by_source = {SourceId.of_pack(pack_id): titles for pack_id, titles in renames.items()}
    return int(store.follow_renames(game, by_source))


def generator_source_id(name: str, params: Mapping[str, Any]) -> SourceId:
    """The source id of a generator with these parameters (:meth:`SourceId.of_generator`)."""
    return SourceId.of_generator(name, params)


GeneratorFactory = Callable[[Any], Mapping[str, tuple[Any, Mapping[str, Any]]]]
"""Gives a game's generators with the parameters chosen in its settings."""
