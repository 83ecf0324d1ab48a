"""CLI tests for ``termarcade 2048`` (click's CliRunner); results are checked against the core."""

from __future__ import annotations

import json
import random

import click
import pytest
from click.testing import CliRunner

import core.game2048 as g
from core.game2048 import (
    DIRECTIONS,
    GameConfig,
    ai,
    create_game,
    legal_moves,
    max_tile,
    move,
    replay,
)
from tests.cli.helpers import apart_runner
from tui.cli.output import IntBetween
from tui.games.game2048.cli import game2048, parse_distribution

pytestmark = pytest.mark.cli


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(game2048, list(args), input=input)


def test_replay_json_matches_core() -> None:
    rng = random.Random(5)
    for seed in (0, 1, 42, 2**31 + 7):
        dirs = [rng.choice(DIRECTIONS) for _ in range(60)]
        letters = "".join(d[0].upper() for d in dirs)
        result = run("replay", "--seed", str(seed), "--moves", letters, "--json")
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        # The engine's state (core.game2048.game), then the keys replay derives.
        assert list(data) == [
            *("board", "score", "config", "current_seed", "is_game_over"),
            *("tiles_placed_count", "move_count"),
            *("game_over", "won", "moves_applied", "seed"),
        ]
        state, applied = replay(GameConfig(initial_seed=seed), dirs)
        assert data["board"] == [list(r) for r in state.board]
        assert data["score"] == state.score
        assert data["game_over"] == state.is_game_over
        assert data["moves_applied"] == applied
        # issue 30: "seed" is the seed given, as in autoplay and check (it was current_seed)
        assert data["seed"] == seed and data["current_seed"] == state.current_seed
        assert data["won"] is False


def test_replay_move_syntax_variants_agree() -> None:
    outs = {
        run("replay", "--seed", "9", "--moves", text, "--json").stdout
        for text in ("LLRUD", "l,l r u d", "L, L, R, U, D", " llrud ")
    }
    assert len(outs) == 1
    stdin = run("replay", "--seed", "9", "--moves", "-", "--json", input="LLRUD\n")
    assert stdin.stdout in outs


def test_replay_rule_options() -> None:
    result = run(
        "replay",
        "--seed",
        "3",
        "--size",
        "3",
        "--merge",
        "fibonacci",
        "--distribution",
        "1:1",
        "--tiles",
        "4",
        "--moves",
        "LURDLURD",
        "--json",
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    config = GameConfig(
        board_size=3,
        initial_seed=3,
        number_of_initial_tiles=4,
        tile_value_distribution=[(1, 1)],
        merge_logic="fibonacci",
        goal=2584,
    )
    state, applied = replay(config, g.parse_moves("LURDLURD"))
    assert data["board"] == [list(r) for r in state.board]
    assert len(data["board"]) == 3
    assert data["moves_applied"] == applied


def test_replay_won_flag_with_small_goal() -> None:
    # With goal 4 any merge of two 2s wins; find one in a short random replay.
    result = run("replay", "--seed", "1", "--goal", "4", "--moves", "LRLRUDUD" * 3, "--json")
    data = json.loads(result.stdout)
    assert data["won"] == (max(max(r) for r in data["board"]) >= 4)
    assert data["won"] is True


def test_replay_pretty_output() -> None:
    result = run("replay", "--seed", "42", "--moves", "LURD")
    assert result.exit_code == 0
    state, _ = replay(GameConfig(initial_seed=42), g.parse_moves("LURD"))
    assert f"score {state.score}" in result.stdout
    for v in {v for row in state.board for v in row if v}:
        assert str(v) in result.stdout


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["replay", "--seed", "1", "--moves", "LUX"], "column 3"),
        (["replay", "--seed", "1", "--distribution", "2:x"], "not a number"),
        (["replay", "--seed", "1", "--distribution", "x:1"], "not a value:weight pair"),
        (["replay", "--seed", "1", "--distribution", "0:1"], "at least 1"),
        (["replay", "--seed", "1", "--distribution", ","], "empty"),
        (["replay", "--seed", "1", "--size", "1"], "--size"),
        (["replay", "--seed", "1", "--size", "2", "--tiles", "5"], "does not fit on a 2×2 board"),
        (["replay", "--seed", "1", "--merge", "nope"], "--merge"),
        (["replay", "--seed", "x"], "--seed"),
        (["replay"], "--seed"),
        (["autoplay", "--games", "0"], "--games"),
    ],
)
def test_bad_input_exits_2_cleanly(args: list[str], needle: str) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert needle in result.output
    assert "Traceback" not in result.output


def test_parse_distribution() -> None:
    assert parse_distribution("2:9,4:1") == ((2, 9), (4, 1))
    assert parse_distribution("3 5:0.5") == ((3, 1), (5, 0.5))
    for bad in ("a:1", "2:inf", "2:nan", "2:-1", "2:0", "0:1", "2:1,2:5", "2:1e308 4:1e308"):
        with pytest.raises(ValueError):
            parse_distribution(bad)


def shell(*args: str):
    """Run through the whole ``termarcade`` group, stderr apart (as a person sees it)."""
    from tui.cli import main

    return apart_runner().invoke(main, list(args))


@pytest.mark.parametrize(
    ("weights", "shown"), [("2:inf", "'2:inf'"), ("2:nan", "'2:nan'"), ("2:9,4:inf", "'4:inf'")]
)
def test_infinite_or_nan_weights_are_bad_input(weights: str, shown: str) -> None:
    """Defect: ``--distribution 2:inf`` was an internal error (exit 70) and ``2:nan`` said
    "cannot convert float NaN to integer"."""
    result = shell("2048", "replay", "--seed", "1", "--distribution", weights)
    assert result.exit_code == 2
    assert result.stderr == (
        f"error: --distribution: the weight in {shown} must be a finite number greater than 0\n"
    )


@pytest.mark.parametrize("seed", ["-1", str(2**32), str(2**40), "-4294967296"])
@pytest.mark.parametrize("command", ["replay", "hint", "autoplay"])
def test_seeds_outside_the_generator_are_refused(command: str, seed: str, monkeypatch) -> None:
    """Defect: seeds of 2**32 and above and negative ones were reduced silently."""
    monkeypatch.setattr(ai, "hint", _first_legal)  # should the seed slip through: be quick
    extra = ["--max-moves", "1"] if command == "autoplay" else []
    result = shell("2048", command, "--seed", seed, *extra, "--json")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (
        f"error: invalid value for '--seed': a seed is a whole number from "
        f"0 to 4294967295 (32 bits), not {seed} "
        f"(see 'termarcade 2048 {command} --help')\n"
    )


def test_the_largest_seed_works_and_autoplay_stays_in_range(monkeypatch) -> None:
    monkeypatch.setattr(ai, "hint", _first_legal)
    top = 2**32 - 1
    result = run("replay", "--seed", str(top), "--json")
    assert result.exit_code == 0
    state, _ = replay(GameConfig(initial_seed=top), ())
    assert json.loads(result.stdout)["board"] == [list(r) for r in state.board]
    result = shell("2048", "autoplay", "--seed", str(top - 1), "--games", "3", "--json")
    assert result.exit_code == 2
    assert result.stderr == (
        "error: --games 3 from --seed 4294967294 would go past the last seed, 4294967295\n"
    )
    result = run("autoplay", "--seed", str(top - 1), "--games", "2", "--max-moves", "3", "--json")
    assert [json.loads(line)["seed"] for line in result.stdout.splitlines()] == [top - 1, top]


def test_hint_on_a_huge_board_keeps_to_its_time_limit(monkeypatch, ticking_clock) -> None:
    """Defect: ``2048 hint --size 32`` took 18 s and ``--size 64`` 256 s, with no bound.

    One clock, ticking 1 ms per read, serves both the command (its start counts against the
    limit) and the search, so the 0.5 s limit falls after 500 reads on any machine: the hint
    comes back with a legal move once it has (the whole search would read the clock many
    thousand times). (The command's start once used the real clock and the search the ticking
    one: on a busy machine the start took 0.16 s of real time and the test failed.)"""
    monkeypatch.setattr(ai, "perf_counter", ticking_clock)
    ticking_clock.reads = 0
    result = run("hint", "--seed", "5", "--size", "64", "--time-limit", "0.5", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    state, _ = replay(GameConfig(board_size=64, initial_seed=5), ())
    assert data["direction"] in legal_moves(state)
    assert data["cut"] == "time limit"
    assert 500 <= ticking_clock.reads <= 520, ticking_clock.reads


def test_hint_has_a_default_time_limit(monkeypatch) -> None:
    from tui.games.game2048.cli import DEFAULT_TIME_LIMIT

    seen: list[dict] = []
    monkeypatch.setattr(ai, "hint", lambda state, **kw: seen.append(kw) or _first_legal(state))
    assert run("hint", "--seed", "4", "--json").exit_code == 0
    assert run("hint", "--seed", "4", "--time-limit", "0.25", "--json").exit_code == 0
    assert (
        run(
            "autoplay", "--seed", "4", "--max-moves", "1", "--time-limit", "600", "--json"
        ).exit_code
        == 0
    )
    # hint's limit counts from the command's start (so a little is spent replaying); autoplay's
    # --time-limit bounds the whole run and each move gets --think-time within it (issue 28).
    limits = [kw["time_limit"] for kw in seen]
    assert DEFAULT_TIME_LIMIT - 1 < limits[0] <= DEFAULT_TIME_LIMIT
    assert 0 < limits[1] <= 0.25
    assert limits[2] == DEFAULT_TIME_LIMIT  # the run's 600 s leave each move its --think-time
    assert 0 < DEFAULT_TIME_LIMIT <= 5


def _first_legal(state, **kwargs):
    moves = legal_moves(state)
    return moves[0] if moves else None


def test_autoplay_loop_against_core(monkeypatch: pytest.MonkeyPatch) -> None:
    # A deterministic stand-in strategy isolates the CLI loop from the AI's strength.
    monkeypatch.setattr(ai, "hint", _first_legal)
    result = run(
        "autoplay", "--seed", "10", "--games", "3", "--max-moves", "150", "--size", "3", "--json"
    )
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [d["seed"] for d in lines] == [10, 11, 12]
    for d in lines:
        assert list(d) == ["seed", "score", "max_tile", "moves", "reached", "reason", "cut"]
        assert d["cut"] == {"time limit": 0, "work budget": 0}  # the stand-in reports none
        state = create_game(GameConfig(board_size=3, initial_seed=d["seed"]))
        count = 0
        while not state.is_game_over and count < 150:
            state = move(state, _first_legal(state))
            count += 1
        assert (d["score"], d["max_tile"], d["moves"]) == (
            state.score,
            max_tile(state.board),
            count,
        )
        assert d["reached"] == {
            k: max_tile(state.board) >= int(k) for k in ("2048", "4096", "8192")
        }
        assert d["reason"] == ("game over" if state.is_game_over else "max moves")


def test_autoplay_text_mode_summary(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ai, "hint", _first_legal)
    result = run("autoplay", "--seed", "1", "--games", "2", "--max-moves", "20")
    assert result.exit_code == 0
    assert "2 game(s); reached 2048: 0%" in result.stdout


def test_hint_command_uses_core_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ai, "hint", _first_legal)
    result = run("hint", "--seed", "4", "--moves", "LU", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    state, _ = replay(GameConfig(initial_seed=4), ("left", "up"))
    assert data["direction"] == legal_moves(state)[0]
    # No legal move -> exit 1 with direction null.
    monkeypatch.setattr(ai, "hint", lambda state, **kw: None)
    result = run("hint", "--seed", "4", "--json")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["direction"] is None


def test_autoplay_with_real_ai_smoke() -> None:
    pytest.importorskip("core.game2048.ai")
    result = run("autoplay", "--seed", "3", "--games", "1", "--max-moves", "40", "--json")
    assert result.exit_code == 0, result.output
    d = json.loads(result.stdout)
    assert d["moves"] >= 1 and d["moves"] <= 40 and d["max_tile"] >= 8


def test_registered_as_2048_in_main() -> None:
    from tui.cli import main

    result = CliRunner().invoke(main, ["2048", "replay", "--seed", "42", "--moves", "L", "--json"])
    assert result.exit_code == 0, result.output
    state, _ = replay(GameConfig(initial_seed=42), ("left",))
    assert json.loads(result.stdout)["board"] == [list(r) for r in state.board]


def test_play_without_tty_is_clean() -> None:
    result = run("play")
    assert result.exit_code == 2
    assert "terminal" in result.output


def test_help_speaks_the_players_language() -> None:
    result = run("--help")
    assert result.exit_code == 0
    assert "seed 004" not in result.output and "2048: slide the tiles" in result.output
    text = " ".join(run("hint", "--help").output.split())  # help text is wrapped
    assert "--time-limit" in text and "best move found so far" in text


CHECK_FILE = """\
level "Open" {
  game 2048
  seed 7
}
level "Dead" {
  game 2048
  size 2
  goal 8
  board
    [2 4]
    [4 2]
}
level "Odd" {
  game 2048
  size 2
  rule threes
  board
    [3 0]
    [4 0]
}
"""


def test_check_gives_the_editors_verdict_per_level(tmp_path) -> None:
    path = tmp_path / "check.levels"
    path.write_text(CHECK_FILE, encoding="utf-8")
    result = run("check", str(path), "--json", "--moves", "0")
    assert result.exit_code == 1, result.output  # "Dead" is over, "Odd" is not legal
    opened, dead, odd = (json.loads(line) for line in result.stdout.splitlines())
    assert list(opened)[:3] == ["level", "title", "size"]
    assert opened["board"] is None and opened["legal"] and not opened["over"]
    assert opened["board"] is None and opened["empty_cells"] == 14
    assert opened["moves"] == list(legal_moves(create_game(GameConfig(initial_seed=7))))
    assert dead["over"] and dead["moves"] == [] and dead["largest"] == 4 and dead["goal"] == 8
    assert odd["rule"] == "threes" and odd["illegal_tiles"] == [4] and not odd["legal"]
    one = run("check", str(path), "--level", "Open", "--moves", "5")
    assert one.exit_code == 0, one.output
    assert "1. Open" in one.stdout and "Estimate" in one.stdout
    single = json.loads(run("check", str(path), "--level", "1", "--json", "--moves", "5").stdout)
    assert single["estimate"]["moves"] == 5 and single["estimate"]["complete"]


def test_check_refuses_bad_files_with_a_caret(tmp_path) -> None:
    broken = tmp_path / "broken.levels"
    broken.write_text('level "B" {\n  game 2048\n  size x\n}\n', encoding="utf-8")
    result = run("check", str(broken))
    assert result.exit_code == 2 and "^" in result.stderr
    other = tmp_path / "other.levels"
    other.write_text('level "L" {\n  game longcat\n  grid\n    #@.#\n}\n', encoding="utf-8")
    refused = run("check", str(other))
    assert refused.exit_code == 2 and "not for 2048" in refused.stderr


def test_check_takes_a_level_id_as_every_file_reading_command_does(tmp_path) -> None:
    """A generated ID checks the level the generator deals for that seed, and a custom ID the
    very level of a file; a damaged ID exits 2 with one line."""
    by_id = json.loads(run("check", "2048:new#7", "--json", "--moves", "0").stdout)
    assert by_id["moves"] == list(legal_moves(create_game(GameConfig(initial_seed=7))))
    path = tmp_path / "check.levels"
    path.write_text(CHECK_FILE, encoding="utf-8")
    from grammar.levels import load_pack_file
    from tui.ids import level_id

    dead = load_pack_file(path).levels[1]
    custom = level_id("2048", None, dead)
    from_file = run("check", str(path), "--level", "2", "--json", "--moves", "0")
    from_id = run("check", custom, "--json", "--moves", "0")
    assert from_id.exit_code == from_file.exit_code == 1
    # the same verdict; only the position differs (the ID's one-level file vs the 2nd level)
    assert {**json.loads(from_id.stdout), "level": 2} == json.loads(from_file.stdout)
    damaged = run("check", custom[:-3] + ("AAA" if custom[-3:] != "AAA" else "BBB"))
    assert damaged.exit_code == 2 and len(damaged.stderr.strip().splitlines()) == 1


def test_autoplay_stops_each_game_at_the_goal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Defect (issue 28): ``--goal G`` was ignored and the summary said "reached 2048: 0%"."""
    monkeypatch.setattr(ai, "hint", _first_legal)
    result = run("autoplay", "--seed", "3", "--games", "2", "--goal", "32", "--json")
    assert result.exit_code == 0, result.output
    for d in map(json.loads, result.stdout.splitlines()):
        state = create_game(GameConfig(initial_seed=d["seed"], goal=32))
        count = 0
        while max_tile(state.board) < 32 and not state.is_game_over:
            state = move(state, _first_legal(state))
            count += 1
        assert (d["moves"], d["max_tile"], d["score"]) == (count, 32, state.score)
        assert d["reached"] == {"32": True} and d["reason"] == "goal"
    text = run("autoplay", "--seed", "3", "--games", "2", "--goal", "32")
    assert "2 game(s); reached 32: 100%" in text.stdout


def test_autoplay_progress_goes_to_stderr_when_it_is_a_file(tmp_path) -> None:
    """Defect (issue 28): the progress showed only when stderr was a terminal."""
    import subprocess
    import sys

    from tests.shared_data import ROOT

    log = tmp_path / "progress.txt"
    with log.open("w") as err:
        done = subprocess.run(
            [sys.executable, "-m", "tui", "2048", "autoplay", "--games", "3", "--max-moves", "4"],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
            timeout=600,
            env={**__import__("os").environ, "PYTHONPATH": str(ROOT)},
        )
    assert done.returncode == 0, log.read_text()
    lines = log.read_text().splitlines()
    assert [line.split(":")[0] for line in lines] == ["game 1/3", "game 2/3", "game 3/3"]
    assert all("moves 4" in line for line in lines)
    assert "3 game(s)" in done.stdout


def test_autoplay_progress_lines_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    from tui.games.game2048.cli import PLAIN_PROGRESS_LINES

    monkeypatch.setattr(ai, "hint", _first_legal)
    games = PLAIN_PROGRESS_LINES * 2 + 1
    result = shell("2048", "autoplay", "--games", str(games), "--max-moves", "1")
    assert result.exit_code == 0
    lines = result.stderr.splitlines()
    assert len(lines) <= PLAIN_PROGRESS_LINES + 1
    assert lines[-1].startswith(f"game {games}/{games}:")


def test_autoplay_time_limit_bounds_the_whole_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Defect (issue 28): the limit was per move, so ``--size 64`` ran for minutes. A fake
    clock (one second per reading) makes the run's limit fall at a known point."""
    import tui.games.game2048.cli as cli

    clock = iter(range(10**9))
    monkeypatch.setattr(ai, "hint", _first_legal)
    monkeypatch.setattr(ai, "monotonic", lambda: float(next(clock)))
    monkeypatch.setattr(cli.time, "monotonic", ai.monotonic)
    monkeypatch.setattr(cli, "command_started", lambda: 0.0)
    result = shell("2048", "autoplay", "--games", "3", "--time-limit", "20", "--json")
    assert result.exit_code == 1
    games = [json.loads(line) for line in result.stdout.splitlines()]
    assert games and games[-1]["reason"] == "time limit"
    # one clock reading per move and a few per game: the 20 s run stops after 18 moves
    assert [g["moves"] for g in games] == [18]
    assert f"was up after {len(games)} of 3 games" in result.stderr


def test_hint_time_limit_counts_from_the_command_start(monkeypatch) -> None:
    """Issue 28: the limit covered only the search, not replaying the moves before it."""
    import time

    import tui.games.game2048.cli as cli

    seen: list[dict] = []
    monkeypatch.setattr(ai, "hint", lambda state, **kw: seen.append(kw) or _first_legal(state))
    monkeypatch.setattr(cli, "command_started", lambda: time.monotonic() - 3600.0)
    assert run("hint", "--seed", "4", "--json").exit_code == 0
    assert seen[0]["time_limit"] == 0.0 and seen[0]["budget"] == cli.DEFAULT_BUDGET


# --------------------------------------------------------------------------- issue 30


def _said_seeds(text: str) -> tuple[list[str], list[str]]:
    """The numbers after ``seed`` (not ``current_seed``) and after ``current_seed``."""
    import re

    return re.findall(r"(?<![_\w])seed (\d+)", text), re.findall(r"current_seed (\d+)", text)


@pytest.mark.parametrize("command", ["replay", "hint"])
def test_replay_and_hint_print_the_seed_given(command: str, monkeypatch) -> None:
    """Defect (issue 30): ``-s 1`` printed ``seed 1814098701``, the generator's state after the
    moves; the seed given is printed, the state is labelled ``current_seed``."""
    monkeypatch.setattr(ai, "hint", _first_legal)
    result = run(command, "-s", "1", "-m", "LURD")
    assert result.exit_code == 0, result.output
    state, _ = replay(GameConfig(initial_seed=1), g.parse_moves("LURD"))
    assert state.current_seed != 1  # else the test could not tell them apart
    assert _said_seeds(result.stdout) == (["1"], [str(state.current_seed)])


def test_autoplay_takes_n_for_the_number_of_games(monkeypatch) -> None:
    """Defect (issue 30): ``autoplay -n`` was refused; ``-n`` is how many, as in every
    generator's ``-n/--count``, and each game takes the next seed."""
    monkeypatch.setattr(ai, "hint", _first_legal)
    short = run("autoplay", "-s", "10", "-n", "3", "--max-moves", "4", "--size", "3", "--json")
    assert short.exit_code == 0, short.output
    lines = [json.loads(line) for line in short.stdout.splitlines()]
    assert [d["seed"] for d in lines] == [10, 11, 12]
    for d in lines:  # each game is the first-legal strategy's, worked here move by move
        state = create_game(GameConfig(board_size=3, initial_seed=d["seed"]))
        for _ in range(4):
            state = move(state, _first_legal(state))
        assert (d["score"], d["moves"]) == (state.score, 4)
    long = run("autoplay", "-s", "10", "--games", "3", "--max-moves", "4", "--size", "3", "--json")
    assert long.stdout == short.stdout


def _options_2048() -> dict[str, dict[str, click.Option]]:
    """Each visible option of each ``2048`` command, by its long name."""
    found: dict[str, dict[str, click.Option]] = {}
    for name, command in game2048.commands.items():
        for param in command.params:
            if isinstance(param, click.Option) and not param.hidden:
                long = max(param.opts, key=len)
                found.setdefault(long, {})[name] = param
    return found


def test_every_2048_option_means_one_thing_with_one_short_form() -> None:
    """Defect (issue 30): ``check --moves 200`` was a count where ``replay --moves LURD`` is
    letters; ``autoplay`` had no ``-n``, ``replay``/``hint`` no ``-m`` (``longcat check``'s)."""
    options = _options_2048()
    for long, by_command in options.items():
        ways = {
            (tuple(sorted(o.opts)), type(o.type).__name__, o.metavar) for o in by_command.values()
        }
        assert len(ways) == 1, (long, sorted(by_command))
    shorts = {
        long: sorted(opt for opt in next(iter(by_command.values())).opts if len(opt) == 2)
        for long, by_command in options.items()
    }
    assert {long: s for long, s in shorts.items() if s} == {
        "--seed": ["-s"],
        "--moves": ["-m"],
        "--games": ["-n"],
        "--level": ["-l"],
    }
    assert sorted(options["--moves"]) == ["hint", "replay"]
    assert sorted(options["--max-moves"]) == ["autoplay", "check"]
    assert all(isinstance(o.type, click.types.StringParamType) for o in options["--moves"].values())


def test_the_other_games_use_2048s_short_forms_alike() -> None:
    """``-s`` is a seed, ``-l`` a level, ``-m`` moves as letters (where an option is called
    --moves) and ``-n`` a number of things (levels, games) in every game's commands."""
    import importlib

    from core import registry

    for info in registry.games():
        if info.cli is None or info.id == "2048":
            continue
        module, _, attribute = info.cli.partition(":")
        group = getattr(importlib.import_module(module), attribute)
        for command in group.commands.values():
            for param in getattr(command, "params", ()):
                if not isinstance(param, click.Option):
                    continue
                if "--seed" in param.opts or "--level" in param.opts or "--moves" in param.opts:
                    assert {"--seed": "-s", "--level": "-l", "--moves": "-m"}[
                        max(param.opts, key=len)
                    ] in param.opts
                if "-n" in param.opts:
                    assert param.name == "count" and isinstance(param.type, IntBetween)


def test_check_stops_its_estimate_at_the_goal_with_that_moves_score(tmp_path) -> None:
    """Defect (issue 30): ``check`` said "goal 16 at move 17, score 2640", the score of the
    estimate's last move. Worked by hand: on [4 4]/[2 2] only left and right move, each
    merging 4+4 (the goal, 8) and 2+2: goal at move 1, score 12, and there it stops."""
    path = tmp_path / "goal.levels"
    path.write_text(
        'level "Eight" {\n  game 2048\n  size 2\n  goal 8\n  board\n    [4 4]\n    [2 2]\n}\n',
        encoding="utf-8",
    )
    common = ("--max-moves", "200", "--time-limit", "600")  # 600 s: only a hang reaches it
    data = json.loads(run("check", str(path), *common, "--json").stdout)
    assert data["moves"] == ["left", "right"]
    estimate = data["estimate"]
    assert (estimate["moves"], estimate["goal_at"], estimate["score"]) == (1, 1, 12)
    assert estimate["max_tile"] == 8 and estimate["complete"] and not estimate["over"]
    text = run("check", str(path), *common)
    assert "goal 8 at move 1, score 12" in text.stdout
    old = run("check", str(path), "--moves", "0", "--json")  # the old spelling still works
    assert json.loads(old.stdout)["estimate"] is None


# --------------------------------------------------------------------------- issue 32


def test_hint_says_when_its_work_budget_cut_the_search() -> None:
    """Issue 32: a search cut short by its limit answered as if it had finished."""
    # --time-limit 600: only the work budget can cut these searches (only a hang reaches it).
    result = run(
        "hint", "--seed", "4", "--depth", "3", "--work-budget", "1", "--time-limit", "600", "--json"
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["depth"], data["target_depth"], data["cut"]) == (0, 3, "work budget")
    state, _ = replay(GameConfig(initial_seed=4), ())
    assert data["direction"] == ai.hint(state, depth=0)  # the one-move look-ahead's answer
    whole = json.loads(
        run("hint", "--seed", "4", "--depth", "2", "--time-limit", "600", "--json").stdout
    )
    assert (whole["depth"], whole["target_depth"], whole["cut"]) == (2, 2, None)
    assert whole["engine"] in ("native", "pure")
    text = run("hint", "--seed", "4", "--depth", "3", "--work-budget", "1", "--time-limit", "600")
    assert "(search cut by the work budget at depth 0 of 3)" in text.stdout
    assert (
        "search cut" not in run("hint", "--seed", "4", "--depth", "2", "--time-limit", "600").stdout
    )


def test_hint_on_a_big_board_says_its_search_was_cut() -> None:
    result = run(
        "hint", "--seed", "5", "--size", "16", "--work-budget", "5", "--time-limit", "600", "--json"
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["depth"], data["target_depth"], data["cut"], data["engine"]) == (
        0,
        1,
        "work budget",
        "general",
    )


def test_autoplay_counts_the_moves_whose_search_was_cut() -> None:
    args = ["autoplay", "--seed", "3", "--max-moves", "6", "--depth", "2", "--think-time", "600"]
    cut = run(*args, "--work-budget", "1", "--json")
    assert cut.exit_code == 0, cut.output
    assert json.loads(cut.stdout)["cut"] == {"time limit": 0, "work budget": 6}
    assert (
        "the work budget cut the search short on 6 move(s)"
        in run(*args, "--work-budget", "1").stdout
    )
    whole = run(*args, "--json")
    assert json.loads(whole.stdout)["cut"] == {"time limit": 0, "work budget": 0}


# --------------------------------------------------------------------------- issue 31


def test_play_opens_a_level_file_as_every_games_play_does(tmp_path, monkeypatch) -> None:
    """Issue 31 item 5: ``2048 play`` is the shared play command, so it takes a level FILE
    and ``--level`` (before, only an ID); an ID still opens its game."""
    import tui.cli as shell

    launched: list[dict] = []
    opened: list[tuple] = []
    monkeypatch.setattr(shell, "launch_app", lambda **options: launched.append(options))
    monkeypatch.setattr(shell, "play_level_id", lambda *args: opened.append(args))
    path = tmp_path / "check.levels"
    path.write_text(CHECK_FILE, encoding="utf-8")
    assert run("play", str(path), "--level", "Dead").exit_code == 0
    assert launched == [{"start_game": "2048", "level_file": str(path), "level": 2}]
    assert run("play", "2048:new#7").exit_code == 0
    assert opened == [("2048:new#7", "2048", None)]
    assert run("play", "--level", "2").exit_code == 2  # --level needs a FILE
