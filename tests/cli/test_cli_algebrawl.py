"""CLI tests for ``termarcade algebrawl``: hands, batches, level files, packs, DOT; checked
against the core, yuuki15's published counts and the bundled levels."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from fractions import Fraction as F
from itertools import combinations_with_replacement
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from core.algebrawl import count_solutions24, solvable24
from core.algebrawl.countdown import countdown_reachable
from grammar.levels import load_pack, load_pack_file
from tests.cli.helpers import apart_runner
from tests.core.test_algebrawl_hands import naive_solvable
from tests.shared_data import shared_data
from tui.cli import main

pytestmark = pytest.mark.cli

REPO = Path(__file__).resolve().parents[2]
BOSS = REPO / "levels" / "algebrawl" / "03-boss-rush.levels"


def run(*args: str, input: str | bytes | None = None) -> Any:
    """``termarcade algebrawl ARGS`` in-process; stdout and stderr kept apart."""
    return apart_runner().invoke(main, ["algebrawl", *args], input=input)


def lines(result: Any) -> list[dict]:
    return [json.loads(line) for line in result.stdout.splitlines() if line.strip()]


def evaluate(text: str) -> F:
    """Evaluate a compact ASCII solution exactly (an independent check of the printing)."""
    import ast

    def walk(node: ast.AST) -> F:
        if isinstance(node, ast.Expression):
            return walk(node.body)
        if isinstance(node, ast.Constant):
            return F(node.value)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -walk(node.operand)
        assert isinstance(node, ast.BinOp), ast.dump(node)
        a, b = walk(node.left), walk(node.right)
        return (
            {ast.Add: a + b, ast.Sub: a - b, ast.Mult: a * b}.get(type(node.op))
            if not isinstance(node.op, ast.Div)
            else a / b
        )

    return walk(ast.parse(text, mode="eval"))


# --------------------------------------------------------------------------- one hand


def test_solve_a_hand_json_shape_and_answers() -> None:
    result = run("solve", "--numbers", "4", "7", "8", "8", "--target", "24", "--json")
    assert result.exit_code == 0, result.stderr
    (data,) = lines(result)
    assert list(data)[:5] == ["numbers", "target", "solvable", "count", "solutions"]
    assert data["numbers"] == [4, 7, 8, 8] and data["target"] == 24
    assert data["solvable"] is True and data["count"] == 3 == len(data["solutions"])
    assert data["complete"] is True
    for text in data["solutions"]:
        assert " " not in text and evaluate(text) == 24
        assert sorted(int(n) for n in __import__("re").findall(r"\d+", text)) == [4, 7, 8, 8]


def test_an_unsolvable_hand_exits_1() -> None:
    result = run("solve", "--numbers", "1", "1", "1", "1", "--json")
    assert result.exit_code == 1
    assert lines(result) == [
        {
            "numbers": [1, 1, 1, 1],
            "target": 24,
            "solvable": False,
            "count": 0,
            "solutions": [],
            "complete": True,
            "reason": None,
        }
    ]
    text = run("solve", "--numbers", "1", "1", "1", "1")
    assert text.exit_code == 1 and "no solution" in text.stdout


def test_negative_and_fraction_numbers_and_targets() -> None:
    result = run("solve", "--numbers", "-3", "7/2", "--target", "1/2", "--json")
    assert result.exit_code == 0, result.stderr
    (data,) = lines(result)
    assert data["numbers"] == [-3, "7/2"] and data["target"] == "1/2"
    assert all(evaluate(text) == F(1, 2) for text in data["solutions"])


def test_custom_operator_sets() -> None:
    plain = lines(run("solve", "--numbers", "4", "7", "8", "8", "--cards", "+,-,*,/", "--json"))
    assert plain[0]["count"] == 3 and plain[0]["solvable"] is True
    only_plus = run("solve", "--numbers", "4", "7", "8", "8", "--cards", "+", "--json")
    assert only_plus.exit_code == 1 and lines(only_plus)[0]["solvable"] is False
    avg = lines(
        run(
            "solve",
            "--numbers",
            "3",
            "5",
            "--target",
            "4",
            "--cards",
            "avg(a, b) commutative = (a + b) / 2",
            "--json",
        )
    )[0]
    assert avg["solvable"] is True and avg["count"] == 1
    assert avg["solutions"] in (["avg(3,5)"], ["avg(5,3)"])  # commutative: one of the two
    # The puzzle solver and the 24-game solver agree on the distinct solutions.
    for hand in ([1, 2, 3, 4], [3, 3, 8, 8], [6, 6, 6, 6], [2, 5, 7, 11]):
        data = lines(run("solve", "--numbers", *map(str, hand), "--cards", "+ - * /", "--json"))[0]
        assert data["count"] == count_solutions24(hand, 24)


def test_countdown_rules() -> None:
    result = run(
        "solve",
        "--numbers",
        "25",
        "50",
        "75",
        "100",
        "3",
        "6",
        "--target",
        "952",
        "--countdown",
        "--json",
    )
    (data,) = lines(result)
    assert data["solvable"] is True and data["count"] == 2
    for text in data["solutions"]:
        assert evaluate(text) == 952
    # Agreement with the reachability table on a whole selection.
    numbers = [1, 3, 7, 10, 25, 50]
    reachable = countdown_reachable(numbers, 101, 140)
    for target in range(101, 141):
        out = lines(
            run(
                "solve",
                "--numbers",
                *map(str, numbers),
                "--target",
                str(target),
                "--countdown",
                "--limit",
                "1",
                "--json",
            )
        )[0]
        assert out["solvable"] is (target in reachable), target
    bad = run("solve", "--numbers", "1", "7/2", "--countdown")
    assert bad.exit_code == 2 and "whole numbers" in bad.stderr


def test_time_limits_give_unknown_not_a_hang() -> None:
    start = time.monotonic()
    result = run(
        "solve", "--numbers", "1", "2", "3", "4", "5", "6", "7", "--time-limit", "0.3", "--json"
    )
    assert time.monotonic() - start < 10
    (data,) = lines(result)
    assert data["complete"] is False and data["count"] is None
    assert data["solvable"] in (None, True)
    assert result.exit_code == (0 if data["solvable"] else 1)


def test_the_time_limit_counts_from_the_command_start(monkeypatch) -> None:
    """Issue 28: ``--time-limit`` bounds the whole command, reading included. A command that
    (by the clock) began an hour ago has no time left for its first hand or level; the same
    hand and level are answered in full otherwise (4 4 4 4 and First Blood: a few ms)."""
    import tui.cli.options as options  # LevelDeadlines counts the first hand from there

    level = str(REPO / "levels" / "algebrawl" / "01-first-blood.levels")
    assert lines(run("solve", "--numbers", "1", "2", "3", "4", "--json"))[0]["complete"] is True
    assert json.loads(run("solve", level, "--level", "1", "--json").stdout)["status"] == "solved"
    monkeypatch.setattr(options, "command_started", lambda: time.monotonic() - 3600.0)
    result = run("solve", "--numbers", "1", "2", "3", "4", "--json")
    (hand,) = lines(result)
    assert result.exit_code == 1
    assert (hand["solvable"], hand["complete"], hand["reason"]) == (None, False, "time limit")
    result = run("solve", level, "--level", "1", "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert (data["status"], data["reason"], data["plan"]) == ("unknown", "time limit", [])


def test_bad_hands_are_usage_errors() -> None:
    for args, words in [
        (("--numbers",), "give the numbers"),
        (("--numbers", "1", "x"), "'x' is not a number"),
        (("--numbers", "1", "2", "--target", "y"), "--target"),
        (("--numbers", *["1"] * 8), "1 to 7 numbers"),
        (("--numbers", "1", "--cards", "+ foo"), "unknown card 'foo'"),
        (("--numbers", "1", "--countdown", "--cards", "+"), "--countdown"),
        (("--numbers", "1", "--tagret", "3"), "no such option '--tagret'"),
        ((str(BOSS), "--countdown"), "go with --numbers"),
    ]:
        result = run("solve", *args)
        assert result.exit_code == 2, (args, result.stdout)
        assert words in result.stderr, (args, result.stderr)
        assert "Traceback" not in result.stderr


@pytest.mark.parametrize("command", ["solve", "dot"])
@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--numbers", "1", "--tagret", "3"), "no such option '--tagret'"),
        (("BOSS", "--countdown"), "--countdown and --cards go with --numbers"),
        (("BOSS", "BOSS"), "give one level FILE, or --numbers with a hand"),
        (("--numbers", "4", "7", "--level", "1"), "--level goes with a level FILE"),
        (("--numbers", "1", "--countdown", "--cards", "+"), "--countdown plays + - * / only"),
    ],
)
def test_solve_and_dot_check_their_arguments_alike(
    command: str, args: tuple[str, ...], words: str
) -> None:
    """solve and dot take the same hand-or-file arguments and refuse the same mistakes."""
    result = run(command, *(str(BOSS) if arg == "BOSS" else arg for arg in args))
    assert result.exit_code == 2, (command, args, result.stdout)
    assert words in result.stderr, (command, args, result.stderr)


# --------------------------------------------------------------------------- batches


def test_batch_mode_one_object_per_line_and_statuses() -> None:
    text = "4 7 8 8\n\n# a comment\n1,1,1,1\n3 3 8 8\n"
    result = run("solve", "--numbers", "-", "--json", input=text)
    assert result.exit_code == 1  # one hand is unsolvable
    data = lines(result)
    assert [d["numbers"] for d in data] == [[4, 7, 8, 8], [1, 1, 1, 1], [3, 3, 8, 8]]
    assert [d["solvable"] for d in data] == [True, False, True]
    bad = run("solve", "--numbers", "-", "--json", input="4 7 8 8\n1 x\n2 2 2 3\n")
    assert bad.exit_code == 2 and len(lines(bad)) == 2
    assert "<stdin>:2: error: 'x' is not a number" in bad.stderr
    assert run("solve", "--numbers", "-", "--json", input="4 7 8 8\n").exit_code == 0


def test_batch_counts_agree_with_yuuki15() -> None:
    path = shared_data("algebrawl/24-distinct-solutions-yuuki15.tsv")
    expected = {}
    for row in path.read_text(encoding="utf-8").splitlines():
        hand, count = row.split("\t")[:2]
        numbers = tuple(int(v) for v in hand.split())
        if all(1 <= v <= 13 for v in numbers):
            expected[numbers] = int(count)
    hands = sorted(expected)[::7]  # every 7th hand: ~200 hands, a few seconds
    result = run(
        "solve",
        "--numbers",
        "-",
        "--json",
        "--limit",
        "1",
        input="".join(" ".join(map(str, h)) + "\n" for h in hands),
    )
    assert result.exit_code == 0, result.stderr
    got = {tuple(d["numbers"]): d["count"] for d in lines(result)}
    assert got == {h: expected[h] for h in hands}


def test_batch_output_is_flushed_line_by_line() -> None:
    """A consumer gets each answer before the next hand is even written."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "tui", "algebrawl", "solve", "--numbers", "-", "--json"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=REPO,
    )
    try:
        for hand, count in (("4 7 8 8", 3), ("3 3 8 8", 1), ("1 1 1 1", 0)):
            proc.stdin.write((hand + "\n").encode())
            proc.stdin.flush()
            line = proc.stdout.readline()  # would block forever if the line were buffered
            assert json.loads(line)["count"] == count
        proc.stdin.close()
        assert proc.wait(30) == 1
    finally:
        proc.kill()


@pytest.mark.slow
def test_ctrl_c_stops_a_long_solve_cleanly() -> None:
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tui",
            "algebrawl",
            "solve",
            "--numbers",
            "1",
            "2",
            "3",
            "4",
            "5",
            "6",
            "7",
            "--time-limit",
            "300",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=REPO,
    )
    time.sleep(2.5)
    proc.send_signal(signal.SIGINT)
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert err.decode().strip() == "interrupted"


# --------------------------------------------------------------------------- level files


def test_solve_level_files() -> None:
    result = run("solve", str(BOSS), "--json")
    assert result.exit_code == 0, result.stderr
    data = lines(result)
    pack = load_pack_file(BOSS)
    assert [d["title"] for d in data] == [lv.title for lv in pack.levels]
    for item, level in zip(data, pack.levels):
        assert list(item)[:5] == ["level", "title", "status", "shortest", "par"]
        assert item["status"] == "solved" and item["shortest"] == level.par
        assert len(item["moves"]) == item["shortest"]
        assert item["count"] >= 1 and item["complete"] is True
        targets = sorted(F(t) for t in level.puzzle.targets)
        assert sorted(F(s["target"]) for s in item["solution"]) == targets
    one = run("solve", str(BOSS), "--level", "countdown")
    assert one.exit_code == 0 and "shortest 6 moves, par 6, 1 distinct solution" in one.stdout


def test_an_unsolvable_level_exits_1(tmp_path: Path) -> None:
    path = tmp_path / "u.levels"
    path.write_text(
        'game algebrawl\nlevel "No" { numbers [1 1] targets 5 cards [+] }\n', encoding="utf-8"
    )
    result = run("solve", str(path), "--json")
    assert result.exit_code == 1
    assert lines(result)[0]["status"] == "unsolvable" and lines(result)[0]["moves"] == []


def test_level_file_errors(tmp_path: Path) -> None:
    bad = tmp_path / "b.levels"
    bad.write_text(
        'game algebrawl\nlevel "B" {\n  numbers [1 2]\n  targets 3\n  cards [f(a) = a + z]\n}\n',
        encoding="utf-8",
    )
    result = run("solve", str(bad))
    assert result.exit_code == 2
    assert result.stderr.splitlines()[:3] == [
        f"{bad}:5:21: unknown name 'z'; the arguments are a",
        "    cards [f(a) = a + z]",
        "                      ^",
    ]
    other = REPO / "levels" / "termcraft" / "01-basics.levels"
    assert "not for algebrawl" in run("solve", str(other)).stderr
    assert "there is no level 9" in run("solve", str(BOSS), "--level", "9").stderr
    assert run("solve", str(tmp_path / "missing.levels")).exit_code == 2


# --------------------------------------------------------------------------- generate


def test_generate_is_deterministic_and_loads_back(tmp_path: Path) -> None:
    first = run("generate", "--seed", "11", "--count", "3", "--difficulty", "4:8")
    assert first.exit_code == 0, first.stderr
    assert (
        run("generate", "--seed", "11", "--count", "3", "--difficulty", "4:8").stdout
        == first.stdout
    )
    pack = load_pack(first.stdout)
    assert pack.game == "algebrawl" and len(pack.levels) == 3
    from core.algebrawl.par import shortest

    for level in pack.levels:
        assert shortest(level.puzzle).moves == level.par
    hands = load_pack(run("generate", "-g", "24", "--seed", "2", "-n", "2", "-d", "10:40").stdout)
    for level in hands.levels:
        assert level.puzzle.use_all and solvable24(level.puzzle.numbers, 24)


def test_generate_never_overwrites_without_force(tmp_path: Path) -> None:
    out = tmp_path / "pack.levels"
    assert run("generate", "--seed", "1", "-n", "2", "-o", str(out)).exit_code == 0
    before = out.read_text(encoding="utf-8")
    again = run("generate", "--seed", "2", "-n", "2", "-o", str(out))
    assert again.exit_code == 2 and "add --force" in again.stderr
    assert out.read_text(encoding="utf-8") == before
    assert run("generate", "--seed", "2", "-n", "2", "-o", str(out), "--force").exit_code == 0
    assert out.read_text(encoding="utf-8") != before
    assert [p.name for p in tmp_path.iterdir()] == ["pack.levels"]  # no temporary left


def test_generate_bad_options() -> None:
    for args, words in [
        (("--seed", "1", "-d", "9:3"), "LOW <= HIGH"),
        (("--seed", "1", "-d", "x"), "LO:HI"),
        (("--seed", "1", "-d", "0:700", "-g", "24"), "1 <= LOW"),
        (
            (
                "-n",
                "2",
            ),
            "--seed",
        ),
        (("--seed", str(2**32 - 1), "-n", "2"), "past the last seed"),
    ]:
        result = run("generate", *args)
        assert result.exit_code == 2 and words in result.stderr, (args, result.stderr)


# --------------------------------------------------------------------------- dot


def test_dot_of_a_hand_and_of_a_level() -> None:
    result = run("dot", "--numbers", "4", "7", "8", "8")
    assert result.exit_code == 0
    text = result.stdout
    assert text.startswith("digraph {") and '"ans0" [shape=square,label="target 24"];' in text
    assert text.count("shape=circle") == 4 and text.count("shape=doublecircle") == 3
    level = run("dot", str(BOSS), "--level", "3")  # Fused Multiply-Add: two trees
    assert level.exit_code == 0 and level.stdout.count("shape=square") == 2
    assert level.stdout.count('label="fma"') == 2
    none = run("dot", "--numbers", "1", "1", "1", "1")
    assert none.exit_code == 1 and none.stderr.startswith("error: no solution")


def test_dot_svg_needs_graphviz(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    missing = run("dot", "--numbers", "4", "7", "8", "8", "--svg")
    assert missing.exit_code == 2
    assert missing.stderr.startswith("error: --svg needs Graphviz's dot program")
    fake = tmp_path / "dot"  # a stand-in that checks its input and answers SVG
    fake.write_text(
        f"#!{sys.executable}\nimport sys\nassert sys.argv[1:] == ['-Tsvg']\n"
        "assert sys.stdin.read().startswith('digraph {')\nprint('<svg>ok</svg>')\n",
        encoding="utf-8",
    )
    fake.chmod(0o755)
    out = tmp_path / "t.svg"
    done = run("dot", "--numbers", "4", "7", "8", "8", "--svg", "-o", str(out))
    assert done.exit_code == 0, done.stderr
    assert out.read_text(encoding="utf-8").strip() == "<svg>ok</svg>"
    fake.write_text(
        f"#!{sys.executable}\nimport sys\nsys.exit('Error: syntax')\n", encoding="utf-8"
    )
    failed = run("dot", "--numbers", "4", "7", "8", "8", "--svg")
    assert failed.exit_code == 2 and "dot failed (status 1): Error: syntax" in failed.stderr


def test_the_group_is_listed_and_helps() -> None:
    result = CliRunner().invoke(main, ["--help"])
    assert "algebrawl" in result.output
    for command in ("solve", "generate", "dot", "play"):
        assert run(command, "--help").exit_code == 0


def test_solve_level_file_with_seed_002_casts(tmp_path: Path) -> None:
    from tests.core.test_algebrawl_casts import LEVELS

    path = tmp_path / "casts.levels"
    path.write_text(LEVELS, encoding="utf-8")
    result = run("solve", str(path), "--json")
    assert result.exit_code == 0, result.output
    poison, traitor, old = (json.loads(line) for line in result.stdout.splitlines())
    assert poison["status"] == traitor["status"] == old["status"] == "solved"
    # Issue 29: the cast cards are counted too, one way each by hand: the dose 3 then two
    # strikes of 2; the traitor 9 defecting as 4, struck by the 4 (the traitor 4 leaves a 1
    # and the traitor 13 defects as 8, which nothing strikes). The shortest is proved.
    assert poison["count"] == traitor["count"] == old["count"] == 1
    assert "count_note" not in poison
    assert poison["shortest"] == 3 and traitor["shortest"] == 2
    assert traitor["moves"] == ["traitor 9 attacks 5: it dies, the ally defects as 4", "strike 4"]
    assert traitor["solution"] == [{"target": "4", "expression": "4"}]
    assert poison["moves"][1] == "poison wizard, dose 3: 3 → 0, 5 → 2"


def test_solve_hand_refuses_cast_cards_cleanly() -> None:
    result = run("solve", "--numbers", "3", "2", "--target", "5", "--cards", "+ traitor")
    assert result.exit_code == 2
    assert "traitor: cards cast on the monsters" in result.output
    assert "Traceback" not in result.output


# --------------------------------------------------------------------------- issue 29 / 28


CASTS = REPO / "levels" / "algebrawl" / "04-poison-and-treason.levels"


def test_solve_the_cast_pack_proves_par_and_counts() -> None:
    result = run("solve", str(CASTS), "--json")
    assert result.exit_code == 0, result.stderr
    data = lines(result)
    # Hand-worked: Softened Up has two ways (the traitor 7 leaves 18 = 6 × 3; the traitor
    # 6 × 3 = 18 leaves 7); the others one each.
    assert [d["count"] for d in data] == [1, 1, 2, 1]
    assert all(d["par_proved"] and d["shortest"] == d["par"] for d in data)


def test_a_par_not_proved_is_said_so(tmp_path: Path) -> None:
    path = tmp_path / "p.levels"
    path.write_text(
        'level "L" {\n  game algebrawl\n  numbers [8 3 5 2]\n  targets [9 13]\n'
        "  cards [poison_wizard traitor +]\n  par 4\n}\n",
        encoding="utf-8",
    )
    cut = run("solve", str(path), "--work-budget", "3")
    assert cut.exit_code == 1
    assert "unknown (work budget), par 4 (the level's, not proved)" in cut.stdout
    assert "unsolvable" not in cut.stdout
    data = lines(run("solve", str(path), "--work-budget", "3", "--json"))[0]
    assert data["status"] == "unknown" and data["reason"] == "work budget"
    assert data["par"] == 4 and data["par_proved"] is False and data["shortest"] is None


def test_generate_casts_and_its_work_budget(tmp_path: Path) -> None:
    made = run("generate", "-g", "casts", "--seed", "5", "-n", "3", "--json")
    assert made.exit_code == 0, made.stderr
    for item in lines(made):
        assert item["id"].startswith("algebrawl:casts-2-4#") and item["par"] >= 2
    for name in ("brawl", "24", "casts"):
        cut = run("generate", "-g", name, "--seed", "5", "--work-budget", "1", "--json")
        assert cut.exit_code == 1 and "seed 5: unknown (work budget)" in cut.stderr, name


def test_dot_takes_the_work_budget() -> None:
    hand = run("dot", "--numbers", "1", "5", "5", "5", "--work-budget", "10")
    assert hand.exit_code == 1 and "no solution found (work budget)" in hand.stderr
    level = run("dot", str(BOSS), "--level", "countdown", "--work-budget", "100")
    assert level.exit_code == 1 and "unknown (work budget)" in level.stderr
    assert run("dot", "--numbers", "1", "5", "5", "5").exit_code == 0
    # The traitor 9 defects as a new monster of 4 HP: its box names that HP (not a target).
    traitor = run("dot", str(CASTS), "--level", "2")
    assert traitor.exit_code == 0 and 'label="target 4"' in traitor.stdout


# --------------------------------------------------------------------------- issue 32


ALL_HANDS = tuple(combinations_with_replacement(range(1, 14), 4))
"""Every 24-game hand of four cards 1-13: 1,820, of which 1,362 are solvable."""


def hands_input(hands: Sequence[tuple[int, ...]]) -> str:
    return "".join(" ".join(map(str, hand)) + "\n" for hand in hands)


def test_no_count_limit_1_prints_one_witness_per_hand_of_all_1820() -> None:
    result = run(
        "solve",
        "--numbers",
        "-",
        "--no-count",
        "--limit",
        "1",
        "--json",
        input=hands_input(ALL_HANDS),
    )
    assert result.exit_code == 1, result.stderr  # some hands are unsolvable
    data = lines(result)
    assert [tuple(d["numbers"]) for d in data] == list(ALL_HANDS)
    assert sum(d["solvable"] is True for d in data) == 1362  # 4nums.com's figure
    for item in data:
        assert list(item) == [
            "numbers",
            "target",
            "solvable",
            "count",
            "solutions",
            "complete",
            "reason",
        ]
        if item["solvable"]:
            # The count was not asked: null, and no bound is blamed for it.
            assert (item["count"], item["complete"], item["reason"]) == (None, False, None)
            (text,) = item["solutions"]
            assert evaluate(text) == 24, text
            assert sorted(int(n) for n in re.findall(r"\d+", text)) == item["numbers"]
        else:  # unsolvable: the whole search ran, a proof that there is none
            assert item["solvable"] is False and item["solutions"] == []
            assert (item["count"], item["complete"], item["reason"]) == (0, True, None)
    for item in data[::18]:  # an independent check: the naive search on every 18th hand
        assert item["solvable"] is naive_solvable([F(v) for v in item["numbers"]], F(24))
    sample = ALL_HANDS[::12]  # and the counting path agrees on solvability
    counted = lines(
        run("solve", "--numbers", "-", "--json", "--limit", "1", input=hands_input(sample))
    )
    assert [d["solvable"] for d in counted] == [d["solvable"] for d in data[::12]]
    assert all(d["count"] >= 1 for d in counted if d["solvable"])


def test_no_count_limit_n_stops_at_n_distinct_solutions() -> None:
    hands = [(1, 2, 3, 4), (3, 3, 8, 8), (4, 7, 8, 8), (1, 1, 1, 1), (2, 3, 4, 6)]
    counted = {
        tuple(d["numbers"]): d
        for d in lines(
            run("solve", "--numbers", "-", "--json", "--limit", "0", input=hands_input(hands))
        )
    }
    for limit in (2, 3):
        result = run(
            "solve",
            "--numbers",
            "-",
            "--no-count",
            "--limit",
            str(limit),
            "--json",
            input=hands_input(hands),
        )
        for item in lines(result):
            full = counted[tuple(item["numbers"])]
            assert len(item["solutions"]) == min(limit, full["count"])
            assert len(set(item["solutions"])) == len(item["solutions"])
            assert all(evaluate(text) == 24 for text in item["solutions"])
            assert item["count"] == (0 if full["count"] == 0 else None)
    text = run("solve", "--numbers", "1", "2", "3", "4", "--no-count", "--limit", "1")
    assert text.exit_code == 0
    out = text.stdout.splitlines()
    assert out[0] == "1 2 3 4 → 24: solvable (not counted: --no-count)"
    assert len(out) == 2 and evaluate(out[1].strip()) == 24  # one solution, no "… more"


def test_no_count_asks_the_solver_for_one_witness_only() -> None:
    """A work budget of exactly what one witness costs answers the hand with --no-count
    --limit 1; counting, which needs more, is cut by that budget (1 5 7 9 12)."""
    from core.algebrawl import hands as solvers
    from core.search import Watch

    solvers.clear_caches()
    watch = Watch()
    with solvers.metered(watch):
        solvers.solve24((1, 5, 7, 9, 12))
    args = ("solve", "--numbers", "1", "5", "7", "9", "12", "--work-budget", str(watch.spent))
    one = lines(run(*args, "--no-count", "--limit", "1", "--json"))[0]
    assert (one["solvable"], one["count"], one["reason"]) == (True, None, None)
    assert [evaluate(t) for t in one["solutions"]] == [24]
    counting = lines(run(*args, "--limit", "1", "--json"))[0]
    assert (counting["solvable"], counting["count"], counting["reason"]) == (
        True,
        None,
        "work budget",
    )
    less = run(*args[:-1], str(watch.spent - 1), "--no-count", "--limit", "1", "--json")
    assert less.exit_code == 1 and lines(less)[0]["reason"] == "work budget"


def test_the_batch_fast_path_reads_numbers_as_before() -> None:
    """Plain whole numbers skip the pattern; every other form still meets it (a guard:
    the same answers as the general reader)."""
    from tui.games.algebrawl.cli import parse_number

    assert [parse_number(t) for t in ("007", " 12 ", "1000000", "-3", "7/2")] == [
        7,
        12,
        10**6,
        -3,
        F(7, 2),
    ]
    for text, words in (("1000001", "out of range"), ("²", "not a number"), ("٣", "not a number")):
        with pytest.raises(ValueError, match=words):
            parse_number(text)
