"""Game IDs on the command line (issue 20): play ID, FILE arguments that take an ID,
``generate --json`` rows with their id, and ``termarcade id``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from core.ids import encode_custom
from tui.cli import main
from tui.ids import resolve_id
from tui.sources import level_to_text

pytestmark = pytest.mark.cli


def run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def _file_of(tmp_path: Path, level_id: str) -> str:
    resolved = resolve_id(level_id)
    path = tmp_path / "level.levels"
    path.write_text(level_to_text(resolved.info.id, resolved.level), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    ("game", "level_id"),
    [
        ("longcat", "longcat:arduboy/4"),
        ("longcat", "longcat:sd-8x8-hard#48213"),
        ("carving", "carving:tutorial/1"),
        ("carving", "carving:easy#42"),
        ("algebrawl", "algebrawl:first-blood/2"),
        ("algebrawl", "algebrawl:brawl-3-6#7"),
        ("termcraft", "termcraft:basics/1"),
    ],
)
def test_solve_id_says_what_solve_file_says(tmp_path: Path, game: str, level_id: str) -> None:
    by_file = run(game, "solve", _file_of(tmp_path, level_id), "--json")
    by_id = run(game, "solve", level_id, "--json")
    assert by_id.exit_code == by_file.exit_code == 0, by_id.output
    assert _timeless(by_id.stdout) == _timeless(by_file.stdout)
    custom = run(game, "solve", _custom(level_id), "--json")
    assert _timeless(custom.stdout) == _timeless(by_file.stdout)


def _timeless(output: str) -> list[Any]:
    """JSON lines without the run's timings (``elapsed``, ``seconds``)."""

    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in ("elapsed", "seconds")}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    return [strip(json.loads(line)) for line in output.splitlines() if line.strip()]


def _custom(level_id: str) -> str:
    resolved = resolve_id(level_id)
    from grammar.levels import dump_level

    return encode_custom(resolved.info.id, dump_level(resolved.level, resolved.info.id))


def test_other_reading_commands_take_ids_too(tmp_path: Path) -> None:
    pairs = [
        ("longcat", "check", "longcat:arduboy/1", "--moves", "RDLU", "--json"),
        ("longcat", "analyze", "longcat:arduboy/1", "--json"),
        ("carving", "closure", "carving:tutorial/1", "--json"),
        ("termcraft", "actions", "termcraft:basics/1", "--json"),
        ("termcraft", "lint", "termcraft:basics/1", "--json"),
        ("algebrawl", "dot", "algebrawl:first-blood/1"),
    ]
    for game, command, level_id, *rest in pairs:
        by_id = run(game, command, level_id, *rest)
        by_file = run(game, command, _file_of(tmp_path, level_id), *rest)
        assert by_id.exit_code == by_file.exit_code != 2, (command, by_id.output)
        assert by_id.stdout == by_file.stdout and by_id.stdout.strip(), command


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("longcat", "solve", "longcat:arduboy/99999"), "has no level 99999"),
        (("longcat", "solve", "longcat:L1AAAAAAAAAAAA"), "checksum"),
        (("longcat", "solve", "longcat:sd-8x8#1@9"), "newer termarcade"),
        (("carving", "solve", "carving:nopack/1"), "has no pack 'nopack'"),
        (("longcat", "solve", "carving:tutorial/1"), "not a Longcat level"),
        (("play", "chess:e4/1"), "unknown game 'chess'"),
        (("play", "longcat:arduboy/0"), "numbered from 1"),
        (("play", "carving", "longcat:arduboy/1"), "names a Longcat level, not a Triangle"),
        (("longcat", "play", "longcat:nopack/1"), "has no pack"),
        (("id", "longcat:arduboy/x"), "not a bundled level ID"),
    ],
)
def test_bad_ids_exit_2_with_one_line(args: tuple[str, ...], words: str) -> None:
    result = run(*args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and words in lines[0], lines
    assert "Traceback" not in result.output


def test_play_id_opens_the_app_on_that_level(monkeypatch: pytest.MonkeyPatch) -> None:
    import tui.cli as shell

    started: list[dict[str, Any]] = []
    monkeypatch.setattr(shell, "launch_app", lambda **kwargs: started.append(kwargs))
    assert run("play", "longcat:01-arduboy/3").exit_code == 0
    assert run("play", "longcat", "longcat:sd-8x8-any-0#5").exit_code == 0
    assert run("longcat", "play", "longcat:arduboy/3").exit_code == 0
    assert run("algebrawl", "play", "algebrawl:first-blood/1").exit_code == 0
    assert run("play", "2048:new-5#42").exit_code == 0
    assert run("2048", "play", "2048:new#42").exit_code == 0
    assert run("carving", "play", "carving:easy#3").exit_code == 0
    assert started == [
        {"start_game": "longcat", "start_id": "longcat:arduboy/3"},
        {"start_game": "longcat", "start_id": "longcat:sd#5"},
        {"start_game": "longcat", "start_id": "longcat:arduboy/3"},
        {"start_game": "algebrawl", "start_id": "algebrawl:first-blood/1"},
        {"start_game": "2048", "start_id": "2048:new-5#42"},
        {"start_game": "2048", "start_id": "2048:new#42"},
        {"start_game": "carving", "start_id": "carving:easy#3"},
    ]
    usage = run("play", "longcat:arduboy/3", "--level", "2")
    assert usage.exit_code == 2 and "an ID names one level" in usage.stderr


def test_a_file_whose_name_has_a_colon_is_still_a_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tui.cli as shell

    monkeypatch.chdir(tmp_path)
    name = "longcat:mine.levels"  # would be an ID (and name nothing) if no file had the name
    Path(name).write_text(
        level_to_text("longcat", resolve_id("longcat:arduboy/2").level), encoding="utf-8"
    )
    solved = run("longcat", "solve", name, "--json")
    assert solved.exit_code == 0 and json.loads(solved.stdout)["level"] == 1
    started: list[dict[str, Any]] = []
    monkeypatch.setattr(shell, "launch_app", lambda **kwargs: started.append(kwargs))
    assert run("play", "longcat", name).exit_code == 0
    assert started[0]["level_file"] == str(tmp_path / name)


def test_generate_json_rows_carry_ids_that_make_the_same_level() -> None:
    rows = [
        json.loads(line)
        for line in run(
            "longcat", "generate", "--json", "-n", "2", "-d", "hard", "--seed", "5"
        ).stdout.splitlines()
    ]
    assert [row["id"] for row in rows] == ["longcat:sd-8x8-hard#5", "longcat:sd-8x8-hard#6"]
    for row in rows:
        assert list(resolve_id(row["id"]).level.rows()) == row["grid"]
    other = json.loads(
        run("longcat", "generate", "--json", "--predictor", "solution-paths", "--seed", "5").stdout
    )
    assert other["id"].startswith("longcat:L2")  # not the arcade's generator: the level itself
    assert list(resolve_id(other["id"]).level.rows()) == other["grid"]
    # The learned generator's level depends on its temperature and weights: a custom ID, which
    # names exactly the level made at T=0.2 (longcat:rl#5 would be today's T=0.3 level).
    learned = json.loads(
        run(
            "longcat", "generate", "--json", "--method", "rl", "--temperature", "0.2", "--seed", "5"
        ).stdout
    )
    assert learned["id"].startswith("longcat:L2")
    assert list(resolve_id(learned["id"]).level.rows()) == learned["grid"]


def test_carving_and_algebrawl_generate_rows_carry_ids(tmp_path: Path) -> None:
    from core.carving.generators import GENERATORS

    out = tmp_path / "c.levels"
    rows = run("carving", "generate", str(out), "--json", "-n", "2", "--seed", "1").stdout
    for row in map(json.loads, rows.splitlines()):
        assert row["id"] == f"carving:easy#{row['seed']}"
        assert resolve_id(row["id"]).level == GENERATORS["easy"].generate(row["seed"])
    made = run("algebrawl", "generate", "--json", "-n", "2", "--seed", "3", "-g", "24")
    assert [json.loads(line)["id"] for line in made.stdout.splitlines()] == [
        "algebrawl:24-5-20#3",
        "algebrawl:24-5-20#4",
    ]


def test_the_id_command_prints_ids_that_open_the_files_levels() -> None:
    from grammar.levels import bundled_packs

    pack = dict(bundled_packs("algebrawl"))["01-first-blood"]
    result = run("id", "levels/algebrawl/01-first-blood.levels")
    assert result.exit_code == 0
    ids = result.stdout.split()
    assert len(ids) == len(pack.levels)
    assert [resolve_id(text).level for text in ids] == list(pack.levels)
    one = json.loads(run("id", "levels/longcat/01-arduboy.levels", "--level", "2", "--json").stdout)
    assert one["level"] == 2 and one["kind"] == "custom" and one["game"] == "longcat"
    checked = json.loads(run("id", "longcat:01-arduboy/3", "--json").stdout)
    assert checked["id"] == "longcat:arduboy/3" and checked["kind"] == "bundled"
    generated = json.loads(run("id", "carving:easy#42", "--json").stdout)
    assert generated["id"] == "carving:easy#42" and generated["kind"] == "generated"


def test_a_plain_file_two_games_would_read_needs_game(tmp_path: Path) -> None:
    """With a second game whose plain files are also grids, the file is ambiguous: the
    command says so (exit 2, caret) and --game settles it."""
    from core import registry
    from tests.grammar.test_levels_format import _plain_game

    grid = tmp_path / "maze.txt"
    grid.write_text("#.#\n#@#\n###\n", encoding="utf-8")
    alone = run("id", str(grid), "--json")
    assert alone.exit_code == 0 and json.loads(alone.output)["game"] == "longcat"
    with registry.register(_plain_game(lambda text: "@" in text)):
        result = run("id", str(grid))
        assert result.exit_code == 2
        assert "could be a gridtoy or longcat level file" in result.output
        assert "Traceback" not in result.output
        settled = run("id", str(grid), "--game", "longcat", "--json")
    assert settled.exit_code == 0 and json.loads(settled.output) == json.loads(alone.output)
