"""Game IDs in the arcade: the ID of a level being played, and the level an ID names.

:mod:`core.ids` reads and prints the three forms; this module connects them to the level
sources (:mod:`tui.sources`), so an ID opens exactly the level the level select would open,
under the same :class:`~tui.sources.LevelRef` (its saved game and its leaderboards included):

* a bundled ID ``longcat:arduboy/17`` is ``LevelRef("pack:01-arduboy", <title of level 17>)``;
* a generated ID ``longcat:sd-8x8-hard#48213`` is the generator source's ref
  ``LevelRef("gen:sd?band=hard&size=8x8&unique=0", "48213")`` (every declared parameter
  filled in, so it is the slot the level select uses for the same level);
* a custom ID is ``LevelRef("custom", <digest of the level text>)``: the same level gets the
  same ref wherever it came from (an ID, My levels, a file), so everybody who plays it shares
  its leaderboard (:func:`board_ref`).

No Textual here: the CLI uses it too. Every failure is an :class:`core.ids.IdError` whose
message says what is wrong (unknown game, pack or level, bad checksum, newer termarcade...),
the same words in the CLI and in the app.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any

from core import registry
from core.ids import (
    BundledId,
    CustomId,
    GeneratedId,
    IdError,
    encode_custom,
    generated_id,
    parse_id,
)
from core.registry import GameInfo
from tui.sources import CUSTOM, LevelRef, SourceId, SourceKind

__all__ = [
    "CUSTOM_SOURCE",
    "Resolved",
    "board_ref",
    "custom_key",
    "generated_level_id",
    "level_id",
    "looks_like_id",
    "ref_id",
    "resolve_id",
    "short_pack_name",
]

CUSTOM_SOURCE = CUSTOM
"""Source id of the levels opened by a custom ID (their key is :func:`custom_key`;
:data:`tui.sources.CUSTOM`)."""

_ID_START = re.compile(r"^\s*[A-Za-z0-9_]+:\S")


@dataclass(frozen=True, slots=True)
class Resolved:
    """The level an ID names.

    Attributes:
        info: The game.
        ref: The level's ref (its save slot and leaderboard key).
        level: The level.
        id: The ID, as this termarcade prints it.
    """

    info: GameInfo
    """The game."""
    ref: LevelRef
    """The level's ref."""
    level: Any
    """The level."""
    id: str
    """The canonical ID."""

    @property
    def text(self) -> str:
        """The level as a one-level file (what the CLI's commands read)."""
        from tui.sources import level_to_text

        return level_to_text(self.info.id, self.level)


def looks_like_id(text: str) -> bool:
    """Whether a command-line argument is meant as an ID rather than a file name.

    An ID starts with a registered game id and ``:`` (``longcat:...``). A file that exists
    is always a file, so a path with a colon keeps working; ``C:\\...`` is no game.
    """
    if not _ID_START.match(text):
        return False
    return registry.get(text.strip().partition(":")[0]) is not None


def _game(game_id: str) -> GameInfo:
    info = registry.get(game_id)
    if info is None:
        known = ", ".join(registry.ids())
        raise IdError(f"unknown game {game_id!r} in this ID (the games: {known})")
    return info


def short_pack_name(pack_id: str) -> str:
    """``01-arduboy`` -> ``arduboy``: the pack's name in IDs, and the one a person types
    (``termarcade longcat solve arduboy``)."""
    return re.sub(r"^\d+-", "", pack_id)


def _bundled(game: str) -> list[tuple[str, Any]]:
    from grammar.levels import bundled_packs

    return bundled_packs(game)


def resolve_id(text: str, *, generate: bool = True) -> Resolved:
    """The level an ID names.

    Args:
        text: The ID (whitespace is ignored).
        generate: False: check a generated ID (game, generator, parameters) without making
            its level, which may take seconds; the result's ``level`` is then None.

    Returns:
        The game, the level's ref, the level and the canonical ID.

    Raises:
        IdError: With a message for a person.
    """
    parsed = parse_id(text)
    info = _game(parsed.game)
    if isinstance(parsed, BundledId):
        return _resolve_bundled(info, parsed)
    if isinstance(parsed, GeneratedId):
        return _resolve_generated(info, parsed, generate)
    return _resolve_custom(info, parsed)


def _resolve_bundled(info: GameInfo, parsed: BundledId) -> Resolved:
    packs = _bundled(info.id) if info.level_format is not None else []
    if not packs:
        raise IdError(
            f"{info.title} has no bundled levels, so {parsed.game}:{parsed.pack}/… names none"
        )
    for pack_id, pack in packs:
        if parsed.pack in (pack_id, short_pack_name(pack_id)):
            count = len(pack.levels)
            if parsed.number > count:
                raise IdError(
                    f"{info.title}'s pack {short_pack_name(pack_id)} has {count} levels, "
                    f"so it has no level {parsed.number}"
                )
            level = pack.levels[parsed.number - 1]
            return Resolved(
                info,
                LevelRef(SourceId.of_pack(pack_id), level.title),
                level,
                f"{info.id}:{short_pack_name(pack_id)}/{parsed.number}",
            )
    names = ", ".join(short_pack_name(pack_id) for pack_id, _ in packs)
    raise IdError(f"{info.title} has no pack {parsed.pack!r} (its packs: {names})")


def _value(text: str) -> Any:
    return int(text) if text.isdigit() else text


def _generators(info: GameInfo) -> dict[str, Any]:
    if info.generators is None:
        return {}
    return dict(info.load("generators"))


def _resolve_generated(info: GameInfo, parsed: GeneratedId, generate: bool = True) -> Resolved:
    generators = _generators(info)
    if not generators:
        raise IdError(
            f"{info.title} has no generated levels, so {parsed.game}:{parsed.generator}#… names none"
        )
    generator = generators.get(parsed.generator)
    if generator is None:
        raise IdError(
            f"{info.title} has no generator {parsed.generator!r} "
            f"(its generators: {', '.join(generators)})"
        )
    declared = info.id_params
    if len(parsed.values) > len(declared):
        names = "-".join(name.upper() for name, _ in declared) or "no parameters"
        raise IdError(
            f"too many parameters in {info.id}:{parsed.generator}-{'-'.join(parsed.values)}: "
            f"{info.title}'s generators take {names}"
        )
    params: dict[str, Any] = {}
    for index, (name, default) in enumerate(declared):
        if index < len(parsed.values):
            params[name] = _value(parsed.values[index])
        elif default is None:
            raise IdError(
                f"{info.id}:{parsed.generator}…#{parsed.seed} lacks the parameter {name}: "
                f"it is {info.id}:{parsed.generator}-"
                + "-".join(n.upper() for n, _ in declared)
                + f"#{parsed.seed}"
            )
        else:
            params[name] = default
    from tui.sources import GeneratorSource

    source = GeneratorSource(parsed.generator, generator, params, None, info.id)
    ref = source.new(parsed.seed)
    canonical = generated_id(
        info.id, parsed.generator, _written_values(declared, params), parsed.seed, parsed.version
    )
    if not generate:
        return Resolved(info, ref, None, canonical)
    try:
        level = source.level(ref.key)
    except (ValueError, LookupError) as error:
        raise IdError(f"{canonical} cannot be generated: {error}") from None
    return Resolved(info, ref, level, canonical)


def _written_values(declared: tuple[tuple[str, Any], ...], params: dict[str, Any]) -> list[str]:
    """The parameter values an ID spells: declared order, trailing defaults left out."""
    values = [(str(params.get(name, default)), default) for name, default in declared]
    while values and values[-1][1] is not None and values[-1][0] == str(values[-1][1]):
        values.pop()
    return [value for value, _ in values]


def _resolve_custom(info: GameInfo, parsed: CustomId) -> Resolved:
    from grammar.errors import ParseError
    from grammar.levels import dump_level, load_pack

    if info.level_format is None:
        raise IdError(f"{info.title} has no level files, so it has no custom level IDs")
    try:
        # An ID made by an older termarcade means what its text meant then.
        pack = load_pack(parsed.text, filename=f"<{info.id} ID>", stored=True)
    except ParseError as error:
        raise IdError(
            f"the level in this {info.id} ID does not load (made by a newer termarcade?): "
            + error.render().splitlines()[0]
        ) from None
    if pack.game != info.id or len(pack.levels) != 1:
        raise IdError(f"this ID does not hold one {info.title} level")
    level = pack.levels[0]
    # The level is printed once, for both its key and its canonical ID (a 4 MiB level took
    # seconds per print).
    text = dump_level(level, info.id)
    ref = LevelRef(CUSTOM_SOURCE, _text_key(info.id, text))
    return Resolved(info, ref, level, encode_custom(info.id, text))


def custom_key(game: str, level: Any) -> str:
    """The key of a custom level: a digest of its level text (the same level, the same key)."""
    from grammar.levels import dump_level

    return _text_key(game, dump_level(level, game))


def _text_key(game: str, text: str) -> str:
    """The key of a custom level printed as ``text``.

    Fields at their format's ``stored_defaults`` are left out of the digest: the printer names
    a field that is new, or whose default changed (Carving's ``density`` and ``new_edges``), but
    a level stored before keeps the key its saves and leaderboard rows were filed under.
    """
    from grammar.levels import format_for

    for name, value in format_for(game).stored_defaults.items():
        text = text.replace(f"\n  {name} {value}\n", "\n")
    return hashlib.blake2s(f"{game}\n{text}".encode(), digest_size=10).hexdigest()


def custom_ref(game: str, level: Any) -> LevelRef:
    """The ref of a custom level (see :data:`CUSTOM_SOURCE`)."""
    return LevelRef(CUSTOM_SOURCE, custom_key(game, level))


def board_ref(game: str, ref: LevelRef, level: Any) -> LevelRef:
    """The ref a level's results are recorded under: the one its ID names.

    Bundled and generated levels keep their own ref (an ID names exactly it); a level from
    My levels, a file or a custom ID is keyed by its text, so everybody who plays the same
    level shares its board.
    """
    if ref.source.named_by_id or level is None:
        return ref
    try:
        return custom_ref(game, level)
    except Exception:  # A level without a format keeps its own ref.
        return ref


def level_id(game: str, ref: LevelRef | None, level: Any) -> str:
    """The ID of a level (bundled or generated when its ref says so, else custom).

    Args:
        game: The game id.
        ref: Where the level comes from (None: custom).
        level: The level.

    Returns:
        The ID.

    Raises:
        ValueError: When the level has no level format (no custom ID is possible).
    """
    found = ref_id(game, ref) if ref is not None else None
    if found is not None:
        return found
    from grammar.levels import dump_level

    return encode_custom(game, dump_level(level, game))


def ref_id(game: str, ref: LevelRef) -> str | None:
    """The bundled or generated ID a ref names, without the level (None for other refs)."""
    info = registry.get(game)
    if info is None:
        return None
    if ref.source.kind is SourceKind.PACK:
        return _bundled_id(info, ref)
    if ref.source.kind is SourceKind.GENERATOR:
        return _generated_id(info, ref)
    return None


def generated_level_id(
    game: str, generator: str, params: dict[str, Any], seed: int, level: Any
) -> str:
    """The ID of a level a generator made (``generate --json`` rows): its generated ID when
    the parameters can be spelled in one, else its custom ID."""
    return level_id(game, LevelRef(SourceId.of_generator(generator, params), str(seed)), level)


def _bundled_id(info: GameInfo, ref: LevelRef) -> str | None:
    from tui.sources import bundled_renames

    pack_id = ref.source.pack
    # A save kept under a renamed level's old title still names the level (by its position).
    title = bundled_renames(info.id).get(pack_id, {}).get(ref.key, ref.key)
    for name, pack in _bundled(info.id):
        if name == pack_id:
            for number, level in enumerate(pack.levels, start=1):
                if level.title == title:
                    return f"{info.id}:{short_pack_name(name)}/{number}"
    return None


def _generated_id(info: GameInfo, ref: LevelRef) -> str | None:
    name = ref.source.generator
    params = ref.source.params
    declared = {n for n, _ in info.id_params}
    required = {n for n, default in info.id_params if default is None}
    if set(params) - declared or required - set(params) or not ref.key.isdigit():
        return None  # parameters an ID cannot spell: the level gets a custom ID
    try:
        return generated_id(info.id, name, _written_values(info.id_params, params), int(ref.key))
    except ValueError:
        return None
