"""CLI tests for ``termarcade longcat`` (click's CliRunner); answers checked against the core."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import asdict

import pytest

from core.longcat import (
    Level,
    analyse,
    apply_move,
    expected_moves,
    initial,
    parse_moves,
    predict_difficulty,
    status,
)
from core.longcat.difficulty import difficulty_label, level_difficulty
from grammar.levels import bundled_packs, load_pack, load_pack_file
from tests.cli.helpers import apart_runner
from tests.shared_data import ROOT, shared_data
from tui.games.longcat.cli import longcat

pytestmark = pytest.mark.cli

ARDUBOY = str(ROOT / "levels" / "longcat" / "01-arduboy.levels")
SOLVE_KEYS = [
    "level",
    "solvable",
    "success_states",
    "solution_paths",
    "states",
    "shortest",
    "solution",
    "metrics",
    "difficulty",
    "plan",
    "why",
]

MIXED = """game longcat
level "open" {
  grid
    @..
    ...
}
level "cut" {
  grid
    .#.
    .@.
}
"""


def run(*args: str, input: str | None = None):
    return apart_runner().invoke(longcat, list(args), input=input)


def _wins(level: Level, letters: str) -> bool:
    state = initial(level)
    for move in parse_moves(letters):
        state = apply_move(state, move)
    return status(state) == "won"


def test_solve_json_matches_the_core_on_the_arduboy_pack() -> None:
    result = run("solve", ARDUBOY, "--json")
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    levels = dict(bundled_packs("longcat"))["01-arduboy"].levels
    assert [line["level"] for line in lines] == list(range(1, 101))
    for data, level in zip(lines, levels):
        assert list(data) == SOLVE_KEYS
        analysis = analyse(level)
        metrics = asdict(analysis.metrics)
        assert data["solvable"] is True
        assert data["solution_paths"] == metrics["solution_paths"]
        assert data["success_states"] == metrics["success_states"]
        assert data["states"] == metrics["states"]
        assert data["shortest"] == level.par == len(data["solution"])
        assert _wins(level, data["solution"])
        # Every field under the seed's names, and no deprecated alias (issue 29).
        assert {k: v for k, v in data["metrics"].items() if k != "expected_moves"} == metrics
        assert not {"size", "solutions"} & (set(data) | set(data["metrics"]))
        assert data["metrics"]["expected_moves"] == pytest.approx(
            expected_moves(analysis), abs=1e-3
        )
        # The level's one difficulty (issue 30): the figure its title carries.
        assert data["difficulty"] == pytest.approx(level_difficulty(analysis), abs=1e-3)
        assert level.title.endswith(difficulty_label(data["difficulty"]))


def test_solve_reads_the_public_plain_file_and_one_level() -> None:
    result = run("solve", str(shared_data("longcat/arduboy-100.txt")), "--level", "2", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["level"] == 2 and data["shortest"] == 7
    # The figures: 2 winning move sequences, 1 success state.
    assert (data["solution_paths"], data["success_states"]) == (2, 1)
    # 8x8 grid; open: rows of 4, 4, 3 (a wall in the ring) and 4 cells.
    assert (data["metrics"]["grid_cells"], data["metrics"]["open_cells"]) == (64, 15)


def test_solve_says_no_with_exit_1_and_keeps_file_order() -> None:
    result = run("solve", "-", "--json", input=MIXED)
    assert result.exit_code == 1
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    assert (first["level"], first["solvable"]) == (1, True)
    assert second == {
        "level": 2,
        "solvable": False,
        "success_states": 0,
        "solution_paths": 0,
        "states": second["states"],
        "shortest": None,
        "solution": None,
        "metrics": second["metrics"],
        "difficulty": second["difficulty"],
        "plan": [],
        "why": None,
    }
    assert second["metrics"]["expected_moves"] is None
    table = run("solve", "-", input=MIXED)
    assert table.exit_code == 1
    assert "open" in table.stdout and "cut" in table.stdout and "no" in table.stdout


def test_solve_within_limits_gives_unknown_counts() -> None:
    # Level 100 has 145 states: over the limit the full graph is given up, and the pruned
    # solver (fewer positions: it prunes hopeless ones) still decides it within the limit.
    result = run("solve", ARDUBOY, "--level", "100", "--json", "--max-states", "100")
    data = json.loads(result.stdout)
    assert data["states"] is None and data["metrics"] is None and data["difficulty"] is None
    assert data["solution_paths"] is None and data["success_states"] is None
    assert data["solvable"] is True and data["shortest"] == 17 and result.exit_code == 0
    result = run("solve", ARDUBOY, "--level", "100", "--json", "--max-states", "2")
    assert json.loads(result.stdout)["solvable"] is None and result.exit_code == 1


def test_level_selection_and_bad_input() -> None:
    assert (
        json.loads(run("solve", ARDUBOY, "-l", "Arduboy 3 · trivial 9", "--json").stdout)["level"]
        == 3
    )
    result = run("solve", ARDUBOY, "-l", "101")
    assert result.exit_code == 2 and "there is no level 101" in result.stderr
    result = run("solve", "-", input="@.x\n")
    assert result.exit_code == 2
    assert result.stderr.splitlines()[:3] == [
        "<stdin>:1:3: unknown grid character 'x' (expected '#' wall, '.' empty or '@' start)",
        "  @.x",
        "    ^",
    ]
    other = str(ROOT / "levels" / "termcraft" / "01-basics.levels")
    result = run("solve", other)
    assert result.exit_code == 2 and "not for longcat" in result.stderr
    assert run("solve", str(ROOT / "no-such.levels")).exit_code == 2


def test_analyze_json_and_text() -> None:
    result = run("analyze", ARDUBOY, "--level", "2", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    level = dict(bundled_packs("longcat"))["01-arduboy"].levels[1]
    analysis = analyse(level)
    assert list(data) == [
        "level",
        "title",
        "width",
        "height",
        "metrics",
        "classes",
        "difficulty",
        "band",
        "expected_moves",
        "solution",
        "start_success",
    ]
    # 8 of the 15 open cells start a solution (brute force: tests/core/test_longcat_masks.py).
    assert data["start_success"] == {
        "solvable": 8,
        "unknown": 0,
        "cells": 15,
        "rate": round(8 / 15, 4),
    }
    assert data["classes"] == analysis.class_counts()
    assert sum(data["classes"].values()) == analysis.metrics.states == data["metrics"]["states"]
    assert data["band"] == "easy" and data["solution"] == analysis.solution_letters
    text = run("analyze", ARDUBOY, "--level", "2")
    want = f"predicted difficulty {predict_difficulty(analysis):.1f} (easy)"
    assert "indeterminate" in text.stdout and want in text.stdout
    assert "64 grid cells, 15 open" in text.stdout and "success states" in text.stdout


def test_analyze_dot_colours_every_state_by_class() -> None:
    result = run("analyze", ARDUBOY, "--level", "2", "--dot")
    assert result.exit_code == 0
    dot = result.stdout
    assert dot.startswith("digraph level_2 {") and dot.rstrip().endswith("}")
    level = dict(bundled_packs("longcat"))["01-arduboy"].levels[1]
    analysis = analyse(level)
    assert dot.count("fillcolor=") == analysis.metrics.states
    assert dot.count(" -> ") == analysis.metrics.edges
    for colour, cls in (
        ("green", "success"),
        ("red", "fail"),
        ("purple", "dead"),
        ("yellow", "indeterminate"),
    ):
        assert dot.count(f"fillcolor={colour}") == analysis.class_counts()[cls]
    assert run("analyze", ARDUBOY, "--dot", "--json").exit_code == 2


def test_analyze_reports_a_graph_over_the_limit() -> None:
    result = run("analyze", ARDUBOY, "--level", "100", "--max-states", "10")
    assert result.exit_code == 1
    assert "more than 10 states (raise --max-states)" in result.stderr


def test_generate_makes_a_pack_that_solve_reads(tmp_path) -> None:
    out = tmp_path / "easy.levels"
    result = run(
        "generate",
        "--method",
        "sd,template",
        "--count",
        "4",
        "--seed",
        "7",
        "--difficulty",
        "20:50",
        "--unique",
        "-o",
        str(out),
    )
    assert result.exit_code == 0, result.output
    pack = load_pack_file(out)
    assert len(pack.levels) == 4
    assert [lv.title.split(" · ")[0] for lv in pack.levels][:2] == ["sd 8x8 #7", "template 8x8 #8"]
    assert (
        "--method sd,template --size 8x8 --count 4 --seed 7 --unique --difficulty 20:50"
        in pack.description
    )
    for level in pack.levels:
        analysis = analyse(level)
        assert analysis.metrics.solution_paths == 1
        assert 20 <= predict_difficulty(analysis) < 50
        assert level.par == analysis.metrics.shortest_solution
    solved = run("solve", str(out), "--json")
    assert solved.exit_code == 0 and len(solved.stdout.splitlines()) == 4
    # the same command gives the same pack
    again = run(
        "generate", "--method", "sd,template", "-n", "4", "-s", "7", "-d", "20:50", "--unique"
    )
    assert load_pack(again.stdout) == pack


def test_generate_never_overwrites_without_force(tmp_path) -> None:
    out = tmp_path / "mine.levels"
    out.write_text("keep me", encoding="utf-8")
    result = run("generate", "-o", str(out))
    assert result.exit_code == 2
    assert "exists; add --force to replace it" in result.stderr
    assert out.read_text(encoding="utf-8") == "keep me"
    assert run("generate", "-o", str(out), "--force").exit_code == 0
    assert len(load_pack_file(out).levels) == 1


def _winning_starts(level: Level) -> int:
    """How many open cells, taken as the start, let the cat fill the grid (brute force with
    the reference test's step-by-step slides, every move sequence)."""
    from tests.core.test_longcat_reference import free_cells, sequences

    free = free_cells(level)
    return sum(
        any(end[1] == free for _, end in sequences(free, (cell, frozenset([cell]))))
        for cell in free
    )


def test_generate_json_and_bad_options() -> None:
    result = run("generate", "--json", "-n", "2", "--size", "5x4")
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [list(r) for r in rows] == [
        ["seed", "method", "id", "title", "par", "grid", "start_success"]
    ] * 2
    assert [row["id"] for row in rows] == ["longcat:sd-5x4#0", "longcat:sd-5x4#1"]
    for row in rows:
        level = Level.from_rows(row["grid"])
        assert row["start_success"]["cells"] == level.size
        # Independently: the starts from which some sequence of naive slides fills the grid.
        assert row["start_success"]["solvable"] == _winning_starts(level)
        assert row["start_success"]["unknown"] == 0
    assert Level.from_rows(rows[0]["grid"]).width == 5
    for args, words in (
        (("--method", "sdd"), "unknown method 'sdd'; did you mean sd"),
        (("--size", "8"), "WIDTHxHEIGHT"),
        (("--difficulty", "50:20"), "empty"),
        (("--count", "0"), "the number of levels must be between 1 and 10000"),
    ):
        bad = run("generate", *args)
        assert bad.exit_code == 2 and words in bad.stderr, bad.stderr


def test_generate_with_the_learned_generator_is_replayable() -> None:
    args = ("generate", "--method", "rl", "--seed", "4", "--temperature", "0.3", "--json")
    first, second = run(*args), run(*args)
    assert first.exit_code == 0, first.stderr
    assert first.stdout == second.stdout
    row = json.loads(first.stdout)
    assert row["method"] == "rl" and row["title"].startswith("rl T0.3 8x8 #4 · ")
    level = Level.from_rows(row["grid"])
    assert analyse(level).metrics.shortest_solution == row["par"]
    # The level is the core's, whose policy is the bundled one.
    from core.longcat import generate as core_generate
    from tui.games.longcat.weights import install

    install()
    want = core_generate("rl", 4, 8, 8, temperature=0.3)
    assert (level.walls, level.start) == (want.walls, want.start)
    # Another temperature (greedy) is another generator; a pack records the temperature.
    greedy = run("generate", "--method", "rl", "--temperature", "0", "-n", "2")
    assert greedy.exit_code == 0 and "--temperature 0" in greedy.stdout


def test_generate_refuses_a_bad_temperature_cleanly() -> None:
    for value in ("-0.5", "hot", "1.5", "nan"):
        bad = run("generate", "--method", "rl", "--temperature", value)
        assert bad.exit_code == 2, bad.stderr
        assert "a temperature is a number from 0 to 1," in bad.stderr
        assert "Traceback" not in bad.stderr + bad.stdout
    other = run("generate", "--method", "sd", "--temperature", "0.3")
    assert other.exit_code == 2 and "add --method rl" in other.stderr
    size = run("generate", "--method", "rl", "--size", "9x7")
    assert size.exit_code == 2 and "no learned generator for 9x7" in size.stderr


def test_generate_says_when_it_made_too_few() -> None:
    result = run(
        "generate",
        "--method",
        "bsp",
        "--size",
        "16x16",
        "-n",
        "1",
        "-d",
        "extreme",
        "--time-limit",
        "0.05",
    )
    assert result.exit_code == 1
    assert "made 0 of 1 levels" in result.stderr


def test_describe_turns_a_plain_file_into_a_described_pack(tmp_path) -> None:
    plain = tmp_path / "grids.txt"
    plain.write_text("; mine\n\n@..\n...\n\n####\n#@.#\n", encoding="utf-8")
    result = run("describe", str(plain), "--prefix", "Mine", "--comment", "hello")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith('; hello\n\ntitle "grids"')
    pack = load_pack(result.stdout)
    assert [lv.title.split(" · ")[0] for lv in pack.levels] == ["Mine 1", "Mine 2"]
    assert [lv.par for lv in pack.levels] == [
        analyse(lv).metrics.shortest_solution for lv in pack.levels
    ]
    assert pack.description == "mine"
    bad = run("describe", "-", input="@.#.\n")
    assert bad.exit_code == 1 and "unsolvable" in bad.stderr


def test_the_group_is_listed_and_starts_without_textual() -> None:
    code = (
        "import sys; from tui.cli import main; "
        "sys.argv = ['termarcade', 'longcat', 'solve', '-', '--json']; "
        "import io; sys.stdin = io.TextIOWrapper(io.BytesIO(b'@.\\n')); "
        "rc = 0\n"
        "try:\n    main()\nexcept SystemExit as e:\n    rc = e.code\n"
        "print('textual' in sys.modules, rc)"
    )
    run_ = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert run_.stdout.strip().splitlines()[-1] == "False 0", run_.stdout + run_.stderr
    listed = subprocess.run(
        [sys.executable, "-m", "tui", "--help"], cwd=ROOT, capture_output=True, text=True
    )
    assert "longcat" in listed.stdout


def test_ctrl_c_stops_a_long_generation_cleanly(tmp_path) -> None:
    import signal
    import time

    out = tmp_path / "never.levels"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tui",
            "longcat",
            "generate",
            "--method",
            "bsp",
            "--size",
            "16x16",
            "-d",
            "extreme",
            "-n",
            "50",
            "--time-limit",
            "60",
            "-o",
            str(out),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(2.5)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=20)
    assert proc.returncode == 130, stderr
    assert stderr.strip() == "interrupted" and stdout == ""
    assert not out.exists()


# -- check (seed 003's validatePath) -----------------------------------------------------------

HOOK = """game longcat
level "hook" {
  grid
    @..
    ##.
    ...
}
"""


def test_check_exit_codes_and_json() -> None:
    solved = run("check", "-", "--moves", "RDL", "--json", input=HOOK)
    assert solved.exit_code == 0, solved.output
    assert json.loads(solved.stdout) == {
        "level": 1,
        "title": "hook",
        "moves": "RDL",
        "valid": True,
        "filled": True,
        "won": True,
        "played": 3,
        "played_moves": "RDL",
        "fail_move": None,
        "reason": None,
        "head": [0, 2],
        "cells_left": 0,
    }
    short = run("check", "-", "--moves", "RD", "--json", input=HOOK)
    assert short.exit_code == 1
    data = json.loads(short.stdout)
    assert (data["valid"], data["filled"], data["cells_left"], data["head"]) == (
        True,
        False,
        2,
        [2, 2],
    )
    wrong = run("check", "-", "--moves", "RU", input=HOOK)
    assert wrong.exit_code == 1
    assert "invalid at move 2: the cat cannot move up from (2, 0)" in wrong.stdout
    bad = run("check", "-", "--moves", "RQ", input=HOOK)
    assert bad.exit_code == 2 and "'Q' is not a move letter" in bad.stderr
    assert run("check", "-", input=HOOK).exit_code == 2  # --moves is required


def test_check_echoes_the_moves_given_and_says_why_a_move_after_the_win_fails() -> None:
    # Issue 29: "moves" is the string given (spaces, commas and case kept); the legal moves
    # played are "played_moves".
    given = "r d, l  L"
    result = run("check", "-", "--moves", given, "--json", input=HOOK)
    data = json.loads(result.stdout)
    assert result.exit_code == 1
    assert (data["moves"], data["played_moves"], data["played"]) == (given, "RDL", 3)
    assert (data["valid"], data["filled"], data["fail_move"]) == (False, True, 4)
    text = run("check", "-", "--moves", given, input=HOOK)
    assert "no move left is left" not in text.stdout
    assert "already won after 3 moves (every cell filled), so move 4 (left)" in text.stdout


def test_check_arduboy_level_2_with_its_shortest_solution() -> None:
    result = run("check", ARDUBOY, "--level", "2", "--moves", "URDLURD")
    assert result.exit_code == 0 and "valid, every cell filled in 7 moves" in result.stdout
    # The same moves on level 1 (start in the middle of a 3x3 ring): U, R, then D fills the
    # right column; L fills the bottom row; U the left column; R is blocked.
    other = run("check", ARDUBOY, "--level", "1", "--moves", "URDLURD", "--json")
    data = json.loads(other.stdout)
    assert other.exit_code == 1 and (data["valid"], data["fail_move"]) == (False, 6)


def test_solve_without_json_prints_every_level_s_moves_in_full(monkeypatch) -> None:
    # Issue 30 item 9: at 80 columns the table had no room for the solution column. Level
    # 100's shortest solution has 17 moves; "cut" has none.
    monkeypatch.setenv("COLUMNS", "80")
    result = run("solve", ARDUBOY, "--level", "100")
    assert result.exit_code == 0
    moves = result.stdout.splitlines()[-1].rpartition(": ")[2]
    assert result.stdout.splitlines()[-1] == f"level 100: solved in 17 moves: {moves}"
    assert _wins(dict(bundled_packs("longcat"))["01-arduboy"].levels[99], moves)
    mixed = run("solve", "-", input=MIXED)
    assert mixed.stdout.splitlines()[-2:] == [
        "level 1: solved in 3 moves: RDL",
        "level 2: unsolvable",
    ]


def test_solve_text_shows_success_states_over_paths() -> None:
    result = run("solve", ARDUBOY, "--level", "2")
    assert result.exit_code == 0
    assert "sols: success states/paths" in result.stdout and " 1/2 " in result.stdout


def test_describe_names_both_counts_or_keeps_the_old_wording() -> None:
    grid = "@..\n##.\n...\n"  # one solution: 1 success state, 1 path
    new = run("describe", "-", input=grid)
    assert new.exit_code == 0, new.output
    assert "1 success state, 1 solution path." in new.stdout.replace('"\n    "', "")
    old = run("describe", "-", "--predictor", "solution-paths", input=grid)
    assert old.exit_code == 0 and "; 1 solution." in old.stdout.replace('"\n    "', "")
    bad = run("describe", "-", "--predictor", "nope", input=grid)
    assert bad.exit_code == 2


def test_a_work_budget_stops_solve_and_says_so() -> None:
    """Issue 28: a budget of states, not the clock, decides; the answer names the bound."""
    # Level 100 has 145 states; its pruned solver needs fewer. 100 states stop the graph
    # (its blocks of 1024 are spent at the end: 145 > 100) and leave the solver none.
    result = run("solve", ARDUBOY, "--level", "100", "--json", "--work-budget", "100")
    data = json.loads(result.stdout)
    assert result.exit_code == 1
    assert data["solvable"] is None and data["states"] is None
    assert data["why"] == "work budget"
    enough = json.loads(
        run("solve", ARDUBOY, "--level", "100", "--json", "--work-budget", "145").stdout
    )
    assert enough["solvable"] is True and enough["states"] == 145 and enough["why"] is None
    text = run("solve", ARDUBOY, "--level", "100", "--work-budget", "100")
    assert "level 100: undecided within the work budget" in text.stdout


def test_a_work_budget_stops_analyze_and_says_so() -> None:
    result = run("analyze", ARDUBOY, "--level", "100", "--work-budget", "144")
    assert result.exit_code == 1
    assert "more than the work budget of 144 states (raise --work-budget)" in result.stderr
    assert run("analyze", ARDUBOY, "--level", "100", "--work-budget", "145").exit_code == 0


def test_a_work_budget_stops_generate_and_says_so() -> None:
    args = ("generate", "--method", "sd", "-s", "3000", "-d", "very_hard", "--time-limit", "86400")
    result = run(*args, "--work-budget", "50")
    assert result.exit_code == 1
    assert "within the work budget of 50 states" in result.stderr
    assert run(*args, "--json").exit_code == 0


def test_the_time_limit_counts_from_the_command_start(monkeypatch) -> None:
    """Issue 28: loading counted against no limit. A command that started long ago (as if
    reading its file had taken an hour) has no time left for its first level."""
    import time

    import tui.cli.options as options  # LevelDeadlines counts the first level from there

    monkeypatch.setattr(options, "command_started", lambda: time.monotonic() - 3600.0)
    result = run("solve", ARDUBOY, "--level", "100", "--json")
    data = json.loads(result.stdout)
    assert result.exit_code == 1
    assert data["solvable"] is None and data["why"] == "time limit"
