"""One CLI vocabulary (issue 22): shared options, one level-pack loader, JSON by the engines.

* Every registered game's group is walked (``core.registry.games()``, each game's ``cli``
  reference): an option spelled ``--json``, ``--level``, ``--time-limit``, ``--seed``,
  ``--output`` or ``--force`` must be declared the same way everywhere (same spellings,
  help text, type and metavar) and by :mod:`tui.cli.options`.
* The shared loader (:func:`tui.cli.options.load_level_pack`) is driven through each game's
  commands: a file, a bundled pack's name, an ID; every bad input exits 2 with one clean
  message (a caret block for a parse error), never a traceback.
* ``-o/--output`` refuses to replace a file without ``--force`` and writes through a rename.
* Whatever a command prints as a state or a move reads back through the engine codec
  (``state_from_json``/``move_from_json``) to the value the engine itself computes.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click
import pytest

from core import registry
from core.game import replay_moves
from tests.cli.helpers import apart_runner
from tui.cli import main
from tui.cli import options as shared
from tui.cli.codec import engine_state, move_json, state_json
from tui.cli.output import IntBetween

pytestmark = pytest.mark.cli

REPO = Path(__file__).resolve().parents[2]

SHARED_NAMES = ("--json", "--level", "--time-limit", "--seed", "--output", "--force")
"""The options that must have one declaration across the games."""

EXPECTED_HELP = {
    "--json": shared.JSON_HELP,
    "--level": shared.LEVEL_HELP,
    "--time-limit": shared.TIME_LIMIT_HELP,
    "--seed": shared.SEED_HELP,
    "--output": shared.OUTPUT_HELP,
    "--force": shared.FORCE_HELP,
}


def invoke(*args: str, input: str | None = None) -> Any:
    """Run the real ``termarcade`` group (errors reported as a person sees them)."""
    return apart_runner().invoke(main, list(args), input=input)


def _game_groups() -> Iterator[tuple[str, click.Group]]:
    for info in registry.games():
        if info.cli is None:
            continue
        module, _, attribute = info.cli.partition(":")
        group = getattr(importlib.import_module(module), attribute)
        assert isinstance(group, click.Group), info.id
        yield info.id, group


def _commands(group: click.Group, path: str) -> Iterator[tuple[str, click.Command]]:
    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            yield from _commands(command, f"{path} {name}")
        else:
            yield f"{path} {name}", command


def _shared_options() -> list[tuple[str, str, click.Option]]:
    """``(command path, shared name, option)`` for every shared option of every game."""
    found = []
    for game, group in _game_groups():
        for path, command in _commands(group, game):
            for param in command.params:
                if not isinstance(param, click.Option):
                    continue
                for name in SHARED_NAMES:
                    if name in param.opts or name in param.secondary_opts:
                        found.append((path, name, param))
    return found


def _declaration(option: click.Option) -> dict[str, Any]:
    """What a person and a script see of an option (its default may differ per command)."""
    return {
        "class": type(option).__name__,  # SharedOption: errors name the long spelling only
        "opts": sorted(option.opts),
        "secondary": sorted(option.secondary_opts),
        "help": option.help,
        "type": type(option.type).__name__,
        "metavar": option.metavar,
        "flag": option.is_flag,
        "multiple": option.multiple,
    }


def test_every_game_declares_the_shared_options_alike() -> None:
    """Before issue 22, each game wrote its own help (``One JSON object per level.``,
    ``Print {"term", ...}``), types (IntBetween, SeedType, FloatRange) and short forms."""
    found = _shared_options()
    games = {path.split()[0] for path, _, _ in found}
    assert games == set(registry.ids()) - {g for g in registry.ids() if not _has_cli(g)}
    by_name: dict[str, dict[str, list[str]]] = {}
    for path, name, option in found:
        key = json.dumps(_declaration(option), sort_keys=True)
        by_name.setdefault(name, {}).setdefault(key, []).append(path)
    drifted = {name: ways for name, ways in by_name.items() if len(ways) > 1}
    assert drifted == {}, json.dumps(drifted, indent=1)
    assert set(by_name) == set(SHARED_NAMES)


def _has_cli(game: str) -> bool:
    info = registry.get(game)
    return info is not None and info.cli is not None


@pytest.mark.parametrize("name", SHARED_NAMES)
def test_the_one_declaration_is_the_shared_one(name: str) -> None:
    options = [option for _, found, option in _shared_options() if found == name]
    assert options, f"no game declares {name}"
    for option in options:
        assert option.help == EXPECTED_HELP[name]
    types = {
        "--level": click.types.StringParamType,
        "--time-limit": shared.Seconds,
        "--seed": shared.SeedType,
        "--output": click.Path,
        "--json": click.types.BoolParamType,
        "--force": click.types.BoolParamType,
    }
    assert all(isinstance(option.type, types[name]) for option in options)


def test_the_shell_play_and_id_commands_speak_the_same_words() -> None:
    """``termarcade play --level`` and ``termarcade id --level/--json`` are declared as the
    games declare them (``play --level`` once took only a number)."""
    from tui.cli.ids import level_id_command

    reference = {
        name: _declaration(option) for _, name, option in _shared_options() if name == "--level"
    }
    play = next(p for p in main.commands["play"].params if p.name == "level")
    ids = {p.name: p for p in level_id_command.params}
    assert isinstance(play, click.Option) and _declaration(play) == reference["--level"]
    assert isinstance(ids["level"], click.Option)
    assert _declaration(ids["level"]) == reference["--level"]
    assert isinstance(ids["as_json"], click.Option) and ids["as_json"].help == shared.JSON_HELP


def test_the_words_are_shown_by_help() -> None:
    text = " ".join(invoke("longcat", "generate", "--help").stdout.split())
    for words in (shared.SEED_HELP, shared.OUTPUT_HELP, shared.FORCE_HELP, shared.JSON_HELP):
        assert words in text


# --------------------------------------------------------------------------- the loader

READERS = {
    "termcraft": ("termcraft", "lint", "--no-solver", "--json"),
    "carving": ("carving", "solve", "--json"),
    "algebrawl": ("algebrawl", "solve", "--no-count", "--json"),
    "longcat": ("longcat", "check", "--moves", "U", "--json"),
    "2048": ("2048", "check", "--moves", "0", "--json"),
}
"""A quick command per game that reads a level file: (game, command, options...)."""

BUNDLED = {"termcraft": "basics", "carving": "tutorial", "algebrawl": "first-blood"}
"""A bundled pack per game that ships some (2048 ships none)."""


def _reader(game: str, source: str, *extra: str, input: str | None = None) -> Any:
    group, command, *options = READERS[game]
    return invoke(group, command, source, *options, *extra, input=input)


def _one_clean_error(result: Any) -> str:
    assert result.exit_code == 2, (result.exit_code, result.stderr)
    assert "Traceback" not in result.stderr and result.stdout == ""
    return result.stderr


@pytest.mark.parametrize("game", list(READERS))
def test_a_bad_level_file_shows_line_column_and_caret(game: str, tmp_path: Path) -> None:
    path = tmp_path / "bad.levels"
    path.write_text(f'game {game}\nlevel "x" {{\n  fuel @\n}}\n', encoding="utf-8")
    lines = _one_clean_error(_reader(game, str(path))).splitlines()
    assert lines[0].startswith(f"{path}:3:"), lines
    caret = next(line for line in lines[1:] if line.strip() == "^")
    assert caret.index("^") >= 2


@pytest.mark.parametrize("game", list(READERS))
def test_a_file_that_is_not_utf8_is_placed_at_its_line(game: str, tmp_path: Path) -> None:
    path = tmp_path / "latin1.levels"
    path.write_bytes(f"game {game}\n".encode() + b'level "caf\xe9" {\n}\n')
    lines = _one_clean_error(_reader(game, str(path))).splitlines()
    assert lines[0].startswith(f"{path}:2:") and "not UTF-8" in lines[0], lines


@pytest.mark.parametrize("game", list(READERS))
def test_an_unknown_pack_name_lists_the_bundled_packs(game: str) -> None:
    error = _one_clean_error(_reader(game, "no-such-pack"))
    assert error.startswith("error: no-such-pack: no such file, and no bundled")
    assert len(error.splitlines()) == 1
    if game in BUNDLED:
        assert BUNDLED[game] in error


def test_a_pack_name_close_to_a_real_one_is_suggested() -> None:
    error = _one_clean_error(_reader("termcraft", "basic"))
    assert "did you mean basics?" in error


@pytest.mark.parametrize("game", sorted(BUNDLED))
def test_a_bundled_pack_is_read_by_its_name(game: str) -> None:
    from grammar.levels import bundled_packs

    (pack_id, pack), *_ = bundled_packs(game)
    for name in (BUNDLED[game], pack_id):
        result = _reader(game, name, "--level", "1")
        assert result.exit_code in (0, 1), result.stderr
        first = json.loads(result.stdout.splitlines()[0])
        assert first["level"] == 1 and first.get("title", pack.levels[0].title) == (
            pack.levels[0].title
        )


@pytest.mark.parametrize(
    ("game", "source", "words"),
    [
        ("longcat", "longcat:arduboy/999", "has no level 999"),
        ("longcat", "carving:tutorial/1", "names a Triangle Carving level, not a Longcat level"),
        ("termcraft", "termcraft:nope/1", "has no pack 'nope'"),
        ("carving", "carving:Lnot-an-id", "carving:"),
    ],
)
def test_a_bad_id_exits_2_with_one_line(game: str, source: str, words: str) -> None:
    error = _one_clean_error(_reader(game, source))
    assert error.startswith("error: ") and words in error and len(error.splitlines()) == 1


@pytest.mark.parametrize("game", list(READERS))
def test_another_games_file_a_directory_and_an_empty_pack_exit_2(game: str, tmp_path: Path) -> None:
    other = "longcat" if game != "longcat" else "termcraft"
    path = (
        REPO
        / "levels"
        / other
        / ("01-arduboy.levels" if other == "longcat" else "01-basics.levels")
    )
    assert f"not for {game}" in _one_clean_error(_reader(game, str(path)))
    assert "directory" in _one_clean_error(_reader(game, str(tmp_path)))
    empty = tmp_path / "empty.levels"
    empty.write_text(f'title "none"\ngame {game}\n', encoding="utf-8")
    assert "holds no level" in _one_clean_error(_reader(game, str(empty)))


def test_stdin_is_read_through_the_same_loader() -> None:
    text = (REPO / "levels" / "termcraft" / "01-basics.levels").read_text(encoding="utf-8")
    result = _reader("termcraft", "-", "--level", "1", input=text)
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["level"] == 1


# --------------------------------------------------------------------------- -o / --force

WRITERS = [
    ("algebrawl", "generate", "--seed", "1", "-n", "1"),
    ("carving", "generate", "--seed", "1", "-n", "1"),
    ("longcat", "generate", "--seed", "1", "-n", "1", "--size", "4x4"),
    ("algebrawl", "dot", "--numbers", "1", "2", "3", "4"),
]


@pytest.mark.parametrize("command", WRITERS, ids=lambda c: " ".join(c[:2]))
def test_output_is_never_replaced_without_force(command: tuple[str, ...], tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    out.write_text("keep me\n", encoding="utf-8")
    refused = invoke(*command, "-o", str(out))
    assert "add --force" in _one_clean_error(refused)
    assert out.read_text(encoding="utf-8") == "keep me\n"
    forced = invoke(*command, "--output", str(out), "--force")
    assert forced.exit_code == 0, forced.stderr
    assert out.read_text(encoding="utf-8") != "keep me\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]  # no temporary file left


def test_write_output_goes_through_a_rename(tmp_path: Path, monkeypatch) -> None:
    """The file is replaced whole: a reader never sees half of it, a failure leaves it."""
    import os

    out = tmp_path / "pack.levels"
    out.write_text("old\n", encoding="utf-8")
    renamed: list[tuple[str, str]] = []
    real = os.replace

    def spy(src: Any, dst: Any) -> None:
        renamed.append((str(src), str(dst)))
        real(src, dst)

    monkeypatch.setattr(os, "replace", spy)
    shared.write_output(str(out), "new\n", force=True)
    assert out.read_text(encoding="utf-8") == "new\n"
    assert len(renamed) == 1 and renamed[0][1] == str(out) and renamed[0][0] != str(out)
    with pytest.raises(click.exceptions.Exit) as refused:
        shared.write_output(str(out), "newer\n", force=False)
    assert refused.value.exit_code == 2 and out.read_text(encoding="utf-8") == "new\n"
    with pytest.raises(click.exceptions.Exit):
        shared.check_output(str(tmp_path), force=True)  # a directory: --force cannot help


# --------------------------------------------------------------------------- JSON by the codecs


def _json_lines(result: Any) -> list[Any]:
    assert result.exit_code in (0, 1), result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def _bundled_level(game: str, number: int = 1) -> Any:
    from grammar.levels import bundled_packs

    return bundled_packs(game)[0][1].levels[number - 1]


def test_termcraft_state_and_moves_decode_through_the_engine() -> None:
    from core.termcraft import apply, nth_rewrite_action
    from core.termcraft.game import GAME
    from tui.games.termcraft.cli import APPLY_DERIVED

    start = GAME.initial(_bundled_level("termcraft"))
    [printed] = _json_lines(invoke("termcraft", "apply", "basics", "-l", "1", "-r", "1", "--json"))
    after = apply(start, nth_rewrite_action(start, 0))
    assert engine_state(GAME, printed, APPLY_DERIVED) == after
    assert printed == state_json(GAME, after, status=GAME.status(after))
    [solved] = _json_lines(invoke("termcraft", "solve", "basics", "-l", "1", "--json"))
    assert GAME.status(replay_moves(GAME, start, solved["plan"])) == "won"
    [listed] = _json_lines(invoke("termcraft", "actions", "basics", "-l", "1", "--json"))
    for index, data in enumerate(listed["rewrites"]):
        move = {key: data[key] for key in ("kind", "rule", "site", "sigma")}
        assert GAME.move_from_json(start, move) == nth_rewrite_action(start, index)


def test_carving_state_and_plan_decode_through_the_engine(tmp_path: Path) -> None:
    from core.carving import GAME
    from grammar.carving import script_text
    from tui.games.carving.cli import STATE_DERIVED

    start = GAME.initial(_bundled_level("carving"))
    [solved] = _json_lines(invoke("carving", "solve", "tutorial", "-l", "1", "--json"))
    moves = [GAME.move_from_json(start, data) for data in solved["plan"]]
    script = tmp_path / "plan.txt"
    script.write_text(script_text(moves), encoding="utf-8")
    [printed] = _json_lines(
        invoke("carving", "play-script", "tutorial", "-l", "1", "--script", str(script), "--json")
    )
    end = replay_moves(GAME, start, solved["plan"])
    decoded = engine_state(GAME, printed, STATE_DERIVED)
    assert decoded == end
    assert printed["status"] == "won" == GAME.status(decoded)


def test_algebrawl_plan_decodes_through_the_engine() -> None:
    from core.algebrawl import GAME

    start = GAME.initial(_bundled_level("algebrawl"))
    [solved] = _json_lines(invoke("algebrawl", "solve", "first-blood", "-l", "1", "--json"))
    assert solved["plan"] and GAME.status(replay_moves(GAME, start, solved["plan"])) == "won"
    state = start
    for data in solved["plan"]:  # each move decodes, and encodes back to what was printed
        move = GAME.move_from_json(state, data)
        assert move_json(GAME, move) == data
        state = GAME.apply(state, move)


def test_longcat_plan_decodes_through_the_engine() -> None:
    from core.longcat.game import GAME

    level = _bundled_level("longcat", 2)
    [solved] = _json_lines(invoke("longcat", "solve", "arduboy", "-l", "2", "--json"))
    end = replay_moves(GAME, GAME.initial(level), solved["plan"])
    assert GAME.status(end) == "won" and len(solved["plan"]) == solved["shortest"]


def test_2048_state_and_hint_decode_through_the_engine() -> None:
    from core.game2048 import GameConfig
    from core.game2048.game import GAME, replay_session
    from tui.games.game2048.cli import HINT_DERIVED, REPLAY_DERIVED

    state, _ = replay_session(GameConfig(initial_seed=7), ("left", "up", "right", "down"))
    [printed] = _json_lines(invoke("2048", "replay", "--seed", "7", "--moves", "LURD", "--json"))
    assert engine_state(GAME, printed, REPLAY_DERIVED) == state
    # issue 30: "seed" is the seed given; the generator's state is the engine's current_seed
    assert (printed["game_over"], printed["seed"]) == (state.is_game_over, 7)
    [hinted] = _json_lines(
        invoke("2048", "hint", "--seed", "7", "--moves", "LURD", "--time-limit", "0.2", "--json")
    )
    assert engine_state(GAME, hinted, HINT_DERIVED) == state
    assert GAME.move_from_json(state, hinted["direction"]) == hinted["direction"]


def test_a_derived_key_may_not_hide_an_engine_key() -> None:
    from core.game2048 import GameConfig
    from core.game2048.game import GAME, start_game

    with pytest.raises(ValueError, match="hide"):
        state_json(GAME, start_game(GameConfig(initial_seed=1)), score=0)


# --------------------------------------------------------------------------- every command (issue 30)

ASPECTS = ("short", "type", "default", "help")
"""What options sharing a long name must agree in, in every command that has one."""

_SEARCH_COST = "each command's search has its own cost and unit; --help shows the default"
MAY_DIFFER: dict[tuple[str, str], str] = {
    # A command chooses the default; the words stay the same (tui/cli/options.py).
    ("--time-limit", "default"): _SEARCH_COST,
    ("--work-budget", "default"): _SEARCH_COST,
    ("--max-states", "default"): _SEARCH_COST,
    ("--level", "default"): "a command that reads a whole file (solve, lint, check, id) takes "
    "every level, one that opens a position (play, apply, closure) level 1",
    ("--seed", "default"): "a generator may have a documented default seed (its packs in the "
    "docs were made with it); algebrawl generate, 2048 hint and replay require one",
    ("--title", "default"): "what a pack is titled without --title is each command's own "
    "(from the difficulty, the file's): --help says which",
    # The same word for a different thing in each game, each declared once per game.
    ("--size", "type"): "parse --size is a flag (a term's node count); a Longcat grid is "
    "WIDTHxHEIGHT, a 2048 board a square's side",
    ("--size", "default"): "see --size type",
    ("--size", "help"): "see --size type",
    ("--target", "default"): "a TermCraft target is a term (default: the level's), an "
    "Algebrawl target a number (24)",
    ("--target", "help"): "see --target default",
    ("--difficulty", "type"): "each game's own scale: Carving's three generators, Algebrawl's "
    "1-10 or 1-600 bands, Longcat's predicted expected moves",
    ("--difficulty", "default"): "see --difficulty type",
    ("--difficulty", "help"): "see --difficulty type",
    ("--moves", "help"): "the letters agree (L R U D, any case); each command says what the "
    "moves are for (to check, played so far, to replay)",
    ("--moves", "default"): "longcat check needs moves to check; 2048 hint and replay start "
    "from none",
    ("--max-moves", "type"): "2048 check's bounds its estimate, and 0 turns the estimate off; "
    "autoplay's bounds each game",
    ("--max-moves", "default"): "see --max-moves type",
    ("--max-moves", "help"): "see --max-moves type",
    ("--limit", "default"): "each lists its own things: TermCraft's rewrites (the table 200, "
    "JSON all), Algebrawl's solutions per hand (100)",
    ("--limit", "help"): "see --limit default; in both, 0 lists all",
    ("--ascii", "help"): "serve's applies to every player's session; termarcade's to this "
    "terminal, chosen from TERM",
    # --count is a verb in two commands (a flag), a number of levels in the generators.
    ("--count", "type"): "termcraft actions --count and algebrawl solve --count/--no-count are "
    "flags (count the rewrites, the solutions), documented and scripted; the generators' "
    "-n/--count N agree among themselves (tui.cli.options.count_option)",
    ("--count", "short"): "see --count type",
    ("--count", "help"): "see --count type",
    ("--count", "default"): "see --count type; and longcat generate makes 1 level by default "
    "(each is a whole state-graph analysis), carving and algebrawl 10",
}
"""``(long name, aspect)`` that may differ between commands, each with its reason."""

SHORT_FORMS_SHARED: dict[str, str] = {
    "-n": "how many, everywhere: --count levels to generate, 2048 autoplay's --games",
}
"""Short forms that stand for more than one long name, each with its reason."""

HIDDEN: dict[tuple[str, str], str] = {
    ("2048 check", "--moves"): "the old name of --max-moves (a count), kept for scripts; "
    "elsewhere --moves is letters",
}
"""Hidden options (kept so old scripts run; not in ``--help``), left out of the comparison."""


def _every_command() -> Iterator[tuple[str, click.Command]]:
    """``termarcade`` itself (its global options), the shell's commands and every game's
    sub-commands, as ``(path, command)``: the whole tree a person can run."""
    ctx = click.Context(main)

    def walk(group: click.Group, path: str) -> Iterator[tuple[str, click.Command]]:
        for name in group.list_commands(ctx):
            command = group.get_command(ctx, name)
            assert command is not None, name
            # a module that fails to import is listed as "(unavailable: ...)": not silently
            assert not (command.help or "").startswith("(unavailable"), command.help
            if isinstance(command, click.Group):
                yield from walk(command, f"{path} {name}".strip())
            else:
                yield f"{path} {name}".strip(), command

    yield "termarcade", main
    yield from walk(main, "")


def _every_option() -> Iterator[tuple[str, str, click.Option]]:
    """``(command path, long name, option)`` for every option but ``--help`` and the listed
    hidden ones (an unlisted hidden option fails here: hiding is no way round the check)."""
    for path, command in _every_command():
        for param in command.params:
            if not isinstance(param, click.Option) or param.name == "help":
                continue
            long = max(param.opts, key=len)
            if param.hidden:
                assert (path, long) in HIDDEN, f"{path} {long} is hidden: list it in HIDDEN"
                continue
            yield path, long, param


def _type_words(option: click.Option) -> str:
    """An option's type as a person meets it: the kind, the lowest number, the choices (the
    highest number may be each command's own cap)."""
    kind = type(option.type).__name__
    if option.is_flag:
        return "flag" + (" with --no-" if option.secondary_opts else "")
    if isinstance(option.type, IntBetween):
        return f"{kind} from {option.type.low}"
    if isinstance(option.type, click.IntRange):
        return f"{kind} from {option.type.min}"
    if isinstance(option.type, click.Choice):
        return f"{kind} {sorted(option.type.choices)}"
    return kind + (" (repeatable)" if option.multiple else "")


def _aspect(option: click.Option, aspect: str) -> str:
    if aspect == "short":
        return " ".join(sorted(o for o in option.opts + option.secondary_opts if o[1] != "-"))
    if aspect == "type":
        return _type_words(option)
    if aspect == "default":
        if option.required:
            return "required"
        shown = getattr(option, "default_text", None)  # SharedOption: what --help shows
        default = option.default if type(option.default).__name__ != "Sentinel" else None
        if option.is_flag and default is None:
            default = False  # click's unset flag is off
        return repr(shown if shown is not None else default)
    return str(option.help)


def _disagreements() -> dict[tuple[str, str], dict[str, list[str]]]:
    """``(long name, aspect)`` -> value -> commands, wherever commands disagree."""
    values: dict[tuple[str, str], dict[str, list[str]]] = {}
    for path, long, option in _every_option():
        for aspect in ASPECTS:
            values.setdefault((long, aspect), {}).setdefault(_aspect(option, aspect), []).append(
                path
            )
    return {key: ways for key, ways in values.items() if len(ways) > 1}


def test_options_sharing_a_name_agree_in_every_command() -> None:
    """Issue 30: ``--count`` said "How many levels.", "Levels in the pack." and "How many
    (different) levels."; ``--max-states`` had three helps and two types; ``--title`` three
    helps; ``parse`` and ``keymap`` had their own ``--json``."""
    drifted = {
        f"{long} {aspect}": ways
        for (long, aspect), ways in _disagreements().items()
        if (long, aspect) not in MAY_DIFFER
    }
    assert drifted == {}, json.dumps(drifted, indent=1)


def test_a_short_form_stands_for_one_option() -> None:
    longs: dict[str, set[str]] = {}
    for _, long, option in _every_option():
        for short in (o for o in option.opts + option.secondary_opts if o[1] != "-"):
            longs.setdefault(short, set()).add(long)
    shared = {short: sorted(names) for short, names in longs.items() if len(names) > 1}
    assert set(shared) == set(SHORT_FORMS_SHARED), shared


@pytest.mark.parametrize(
    ("args", "gone"),
    [
        (("longcat", "generate", "-m", "sd"), "-m"),
        (("longcat", "generate", "--method", "rl", "-t", "0"), "-t"),
        (("carving", "play-script", "tutorial", "-s", "steps.txt"), "-s"),
    ],
)
def test_a_short_form_that_meant_two_things_is_refused_plainly(
    args: tuple[str, ...], gone: str
) -> None:
    """Issue 30: ``-m`` was ``--moves`` and ``longcat generate --method``, ``-t`` TermCraft's
    ``--term`` and ``--temperature``, ``-s`` ``--seed`` and ``carving play-script
    --script``. The second meanings are gone (docs/cli.md's version note): the old spelling is
    a usage error (exit 2) that names the option, never a different option's value."""
    result = invoke(*args)
    assert result.exit_code == 2, result.output
    assert f"no such option '{gone}'" in result.stderr
    assert "Traceback" not in result.output + result.stderr


def test_every_listed_exception_is_still_needed() -> None:
    """An exception whose options have come to agree is removed, so the list stays true."""
    found = _disagreements()
    assert [key for key in MAY_DIFFER if key not in found] == []
    present = {(path, long) for path, command in _every_command() for long in _longs(command)}
    assert [key for key in HIDDEN if key not in present] == []


def _longs(command: click.Command) -> list[str]:
    return [max(p.opts, key=len) for p in command.params if isinstance(p, click.Option)]


def test_serve_help_says_where_data_goes_and_how_to_change_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 30: ``serve --help`` did not mention the data directory (a global option)."""
    monkeypatch.setenv("TERMARCADE_DATA_DIR", str(tmp_path / "from-env"))
    text = invoke("serve", "--help").stdout
    words = " ".join(text.split())
    for needed in ("data directory", "--data-dir DIR", "TERMARCADE_DATA_DIR", "--store"):
        assert needed in words, needed
    assert "termarcade --data-dir /srv/arcade serve --ssh" in text
    assert text.rstrip().splitlines()[-1] == f"Data directory for this run: {tmp_path / 'from-env'}"
    given = invoke("--data-dir", str(tmp_path / "given"), "serve", "--help").stdout
    assert given.rstrip().splitlines()[-1] == f"Data directory for this run: {tmp_path / 'given'}"


def test_limit_0_lists_everything_in_termcraft_as_in_algebrawl() -> None:
    """Issue 30: ``termcraft actions --limit 0`` listed no rewrite, where ``algebrawl solve
    --limit 0`` lists every solution. The reference is the unlimited listing, and the count
    ``--count`` reports (counted apart from the listing)."""
    args = ("termcraft", "actions", "basics", "-l", "1")
    [counts] = _json_lines(invoke(*args, "--count"))
    every = _json_lines(invoke(*args, "--jsonl"))
    assert counts["rewrites"] >= 2 and len(every) == counts["rewrites"] + 1  # + the summary
    assert _json_lines(invoke(*args, "--jsonl", "--limit", "0")) == every
    assert _json_lines(invoke(*args, "--jsonl", "--limit", "1"))[:-1] == every[:1]
    table = invoke(*args, "--limit", "0").stdout
    assert "shown (--limit" not in table
    assert (
        sum(
            line.startswith("│ ") and line.split("│")[1].strip() != ""
            for line in table.splitlines()
        )
        == counts["rewrites"]
    )
    assert "0: all" in " ".join(invoke("termcraft", "actions", "--help").stdout.split())
    assert "0: all" in " ".join(invoke("algebrawl", "solve", "--help").stdout.split())
