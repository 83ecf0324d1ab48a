"""Declared rows and option groups (issue 31, item 5): a command's JSON object is declared
once (:class:`tui.cli.output.Row`), its options as groups (:class:`tui.cli.options.OptionGroup`).

The declarations are checked against the game pages' JSON key lists (docs/termcraft.md,
docs/carving.md, docs/longcat.md, read here as the reader reads them), against what the commands print, and
the text forms against the JSON ones.
"""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import click
import pytest

from tests.cli.helpers import apart_runner
from tui.cli.options import (
    LevelFile,
    OptionGroup,
    OrderedOptions,
    game_play_command,
    level_file_options,
    options_in_order,
)
from tui.cli.output import Field, Row, StageProgress, parsed
from tui.games.carving import cli as carving_cli
from tui.games.longcat import cli as longcat_cli
from tui.games.termcraft import cli as termcraft_cli

pytestmark = pytest.mark.cli

DOCS = Path(__file__).resolve().parents[2] / "docs"


def invoke(group: click.Group, *args: str, input: str | None = None):
    return apart_runner().invoke(group, list(args), input=input)


def json_lines(result) -> list[dict]:
    return [json.loads(line) for line in result.stdout.splitlines() if line.strip()]


# --------------------------------------------------------------------------- Row


def test_a_row_orders_its_keys_as_declared_and_converts_declared_fields():
    row = Row("b", Field("a", lambda pair: [pair[1], pair[0]]), "c", text_only=("note",))
    values = row(c=None, note="seen in text only", a=(1, 2), b="x")
    assert list(values) == ["b", "a", "c", "note"]
    assert row.json(values) == {"b": "x", "a": [2, 1], "c": None}
    assert list(row.json(values)) == ["b", "a", "c"] == list(row.keys)


def test_a_row_refuses_a_missing_or_undeclared_key_and_a_key_declared_twice():
    row = Row("level", "status")
    with pytest.raises(TypeError, match="missing \\['status'\\]"):
        row(level=1)
    with pytest.raises(TypeError, match="undeclared \\['extra'\\]"):
        row(level=1, status="won", extra=0)
    with pytest.raises(ValueError):
        Row("a", "b", "a")
    with pytest.raises(ValueError):
        Row("a", text_only=("a",))


def test_a_row_reads_attributes_and_prints_json_or_its_text(capsys):
    class Result:
        status = "solved"
        explored = 15

    row = Row("level", "status", "explored", text=lambda r: [f"{r['level']}: {r['status']}", "end"])
    values = row.of(Result(), level=3)
    assert values == {"level": 3, "status": "solved", "explored": 15}
    row.emit(values, as_json=True)
    row.emit(values, as_json=False)
    assert capsys.readouterr().out == (
        '{"level": 3, "status": "solved", "explored": 15}\n3: solved\nend\n'
    )
    with pytest.raises(TypeError):
        Row("a").text({"a": 1})  # no text form declared


# --------------------------------------------------------------------------- OptionGroup


def test_an_option_group_hands_the_command_one_value_and_keeps_the_help_order():
    seen: list = []
    pair = OptionGroup(
        "pair",
        [click.option("--first", default="1"), click.option("--second", type=int, default=2)],
        into=lambda first, second: (first, second),
    )

    @click.command()
    @pair
    @click.option("--last", is_flag=True)
    def command(pair: tuple[str, int], last: bool) -> None:
        seen.append((pair, last))

    result = invoke(command, "--second", "5", "--last")
    assert result.exit_code == 0, result.output
    assert seen == [(("1", 5), True)]
    assert [param.name for param in command.params] == ["first", "second", "last"]
    assert pair.names() == ["first", "second"]
    help_text = invoke(command, "--help").stdout
    assert help_text.index("--first") < help_text.index("--second") < help_text.index("--last")


def test_level_file_options_give_a_level_file():
    seen: list[LevelFile] = []

    @click.command()
    @level_file_options("every level", metavar="LEVEL")
    def command(levels: LevelFile) -> None:
        seen.append(levels)

    assert invoke(command, "pack.levels", "-l", "2").exit_code == 0
    assert seen == [LevelFile("pack.levels", "2")] and seen[0].source == "pack.levels"
    missing = invoke(command)
    assert missing.exit_code == 2 and "LEVEL" in missing.stderr


def test_a_level_file_chooses_by_number_title_or_default():
    class Titled:
        def __init__(self, title: str) -> None:
            self.title = title

    levels = [(1, Titled("Alpha")), (2, Titled("Beta")), (3, Titled("Gamma"))]
    assert LevelFile("f", None).chosen(levels) == levels[:1]
    assert LevelFile("f", None).chosen(levels, every_level=True) == levels
    assert LevelFile("f", "3").chosen(levels) == [levels[2]]
    assert LevelFile("f", "beta").chosen(levels, every_level=True) == [levels[1]]
    with pytest.raises(click.exceptions.Exit):
        LevelFile("f", "4").chosen(levels)


def test_parsed_turns_a_parse_error_into_its_caret_block(capsys):
    from grammar.carving import parse_operator

    edge = "theta(N(x,x,x),D(y,y,y),D(y,y,y),D(y,y,y),D(y,y,y))"
    assert str(parsed(parse_operator, edge, "<--edge>")) == edge
    with pytest.raises(click.exceptions.Exit) as stop:
        parsed(parse_operator, "theta(N(x,x,x)", "<--edge>")
    assert stop.value.exit_code == 2
    assert capsys.readouterr().err.startswith("<--edge>:1:15: ")


def test_ordered_options_interleave_as_written():
    seen: list = []

    @click.command(cls=OrderedOptions)
    @click.option("-a", "a", multiple=True)
    @click.option("-b", "b", multiple=True, type=int)
    @click.pass_context
    def command(ctx: click.Context, a: tuple[str, ...], b: tuple[int, ...]) -> None:
        seen.append(options_in_order(ctx, a=a, b=b))

    assert invoke(command, "-b", "1", "-a", "x", "-b", "2", "-a", "y").exit_code == 0
    assert seen == [[("b", 1), ("a", "x"), ("b", 2), ("a", "y")]]


def test_a_games_play_command_opens_the_arcade_on_that_game(monkeypatch):
    import tui.cli as shell

    launched: list[dict] = []
    monkeypatch.setattr(shell, "launch_app", lambda **options: launched.append(options))
    play = game_play_command("carving", "Open the arcade on Triangle Carving.")
    pack = Path(__file__).resolve().parents[2] / "levels" / "carving" / "01-tutorial.levels"
    assert invoke(play, str(pack), "--level", "Clean Slate").exit_code == 0
    assert invoke(play).exit_code == 0
    assert launched == [
        {"start_game": "carving", "level_file": str(pack), "level": 2},
        {"start_game": "carving"},
    ]
    assert play.name == "play" and play.help == "Open the arcade on Triangle Carving."
    assert invoke(play, "--level", "2").exit_code == 2  # --level needs a FILE


# --------------------------------------------------------------------------- the docs' key lists


def object_keys(text: str, start: int) -> list[str]:
    """The top-level keys of the JSON-like object that opens at ``text[start]`` (``{``), as
    the docs write them: ``{"a": 1, "b": [...]}`` or the short ``{"a", "b"}``; a quoted word
    is a key when it starts an item (after ``{`` or ``,``) and ends one (``:``, ``,``, ``}``,
    or ``|`` as in Longcat's ``"fail_move"|null``), so the values of ``"status": "won" |
    "lost"`` are not."""
    assert text[start] == "{", text[start : start + 20]
    keys: list[str] = []
    depth, index, last = 0, start, ""
    while True:
        char = text[index]
        if char == '"':
            end = text.index('"', index + 1)
            after = text[end + 1 :].lstrip()[:1]
            if depth == 1 and last in "{," and after in (":", ",", "}", "|"):
                keys.append(text[index + 1 : end])
            index, last = end + 1, '"'
            continue
        if char in "{[":
            depth += 1
        elif char in "}]":
            depth -= 1
            if depth == 0:
                return keys
        if not char.isspace():
            last = char
        index += 1


def doc_keys(page: str, anchor: str, nth: int = 0) -> list[str]:
    """The keys of the ``nth`` object (counting every ``{``) after ``anchor`` on a page."""
    text = (DOCS / page).read_text(encoding="utf-8")
    at = text.index(anchor)
    for _ in range(nth + 1):
        at = text.index("{", at + 1)
    return object_keys(text, at)


def test_the_key_reader_reads_both_spellings():
    assert object_keys('{"a": "x" | "y", "b": [{"c": 1}], "d"}', 0) == ["a", "b", "d"]
    assert object_keys('{"a", "b": "" \\| "z", "e"}', 0) == ["a", "b", "e"]
    assert object_keys('{"a"|null, "b": "x"|"y"|null, "c"}', 0) == ["a", "b", "c"]


TERMCRAFT_DOCS = {
    "ACTIONS_ROW": ("**`termcraft actions", 0),
    "REWRITE_ROW": ("**`termcraft actions", 1),
    "JSONL_SUMMARY_ROW": ("`--jsonl` writes one rewrite object", 0),
    "COUNT_ROW": ("`--count` prints only", 0),
    "APPLY_ROW": ("**`termcraft apply", 0),
    "SOLVE_ROW": ("**`termcraft solve", 0),
    "LINT_ROW": ("**`termcraft lint", 0),
    "ISSUE_ROW": ("**`termcraft lint", 1),
    "UNREAD_ROW": ('with `--json`, `{"level": null', 0),
}
CARVING_DOCS = {
    "CLOSURE_ROW": "| `closure LEVEL`",
    "ELIMINABLE_ROW": "| `eliminable LEVEL",
    "SOLVE_ROW": "| `solve LEVEL",
    "GENERATE_ROW": "| `generate ",
}


LONGCAT_DOCS = {
    "SOLVE_ROW": "\nsolve:    {",
    "CHECK_ROW": "\ncheck:    {",
    "ANALYZE_ROW": "\nanalyze:  {",
    "GENERATE_ROW": "\ngenerate: {",
}


def declared_rows(module) -> dict[str, Row]:
    return {name: value for name, value in vars(module).items() if isinstance(value, Row)}


def test_every_termcraft_row_has_the_documented_keys_in_order():
    rows = declared_rows(termcraft_cli)
    assert set(rows) == set(TERMCRAFT_DOCS)  # a new row gets its place in the docs
    for name, (anchor, nth) in TERMCRAFT_DOCS.items():
        assert list(rows[name].keys) == doc_keys("termcraft.md", anchor, nth), name


def test_every_carving_row_has_the_documented_keys_in_order():
    rows = declared_rows(carving_cli)
    assert set(rows) == {*CARVING_DOCS, "STATE_ROW"}
    for name, anchor in CARVING_DOCS.items():
        assert list(rows[name].keys) == doc_keys("carving.md", anchor), name
    # play-script: the engine's state, then the derived keys (two objects on the page)
    engine = doc_keys("carving.md", "| `play-script LEVEL", 0)
    derived = doc_keys("carving.md", "| `play-script LEVEL", 1)
    assert list(rows["STATE_ROW"].keys) == engine + derived
    assert tuple(derived) == carving_cli.STATE_DERIVED


def test_every_longcat_row_has_the_documented_keys_in_order():
    rows = declared_rows(longcat_cli)
    assert set(rows) == set(LONGCAT_DOCS)
    for name, anchor in LONGCAT_DOCS.items():
        assert list(rows[name].keys) == doc_keys("longcat.md", anchor), name


# --------------------------------------------------------------------------- what the commands print


def test_termcraft_commands_print_their_rows():
    tc = termcraft_cli
    [listed] = json_lines(invoke(tc.termcraft, "actions", "basics", "--json"))
    assert list(listed) == list(tc.ACTIONS_ROW.keys) and listed["rewrites"]
    assert all(list(item) == list(tc.REWRITE_ROW.keys) for item in listed["rewrites"])
    *moves, summary = json_lines(invoke(tc.termcraft, "actions", "basics", "--jsonl"))
    assert moves == listed["rewrites"]
    assert summary == {"count": len(moves), **{k: listed[k] for k in ("placeholders", "warnings")}}
    assert list(summary) == list(tc.JSONL_SUMMARY_ROW.keys)
    [counted] = json_lines(invoke(tc.termcraft, "actions", "basics", "--count"))
    assert counted == {"rewrites": len(moves), "placeholders": len(listed["placeholders"])}
    [applied] = json_lines(invoke(tc.termcraft, "apply", "basics", "-r", "1", "--json"))
    assert list(applied) == list(tc.APPLY_ROW.keys)
    solved = json_lines(invoke(tc.termcraft, "solve", "basics", "--json"))
    assert solved and all(list(row) == list(tc.SOLVE_ROW.keys) for row in solved)
    bad = "f(rewrite(var(X),b),a)"
    [linted] = json_lines(invoke(tc.termcraft, "lint", "--term", bad, "--json"))
    assert list(linted) == list(tc.LINT_ROW.keys) and linted["issues"]
    assert all(list(issue) == list(tc.ISSUE_ROW.keys) for issue in linted["issues"])


def test_carving_commands_print_their_rows(tmp_path):
    cc = carving_cli
    [closure] = json_lines(invoke(cc.carving, "closure", "tutorial", "--json"))
    assert list(closure) == list(cc.CLOSURE_ROW.keys)
    edge = "theta(N(x,x,x),D(y,y,y),D(y,y,y),D(y,y,y),D(y,y,y))"
    [elim] = json_lines(invoke(cc.carving, "eliminable", "tutorial", "--edge", edge, "--json"))
    assert list(elim) == list(cc.ELIMINABLE_ROW.keys)
    script = tmp_path / "s.txt"
    script.write_text(f"construct {edge}\n", encoding="utf-8")
    args = ("play-script", "tutorial", "--script", str(script), "--json")
    [state] = json_lines(invoke(cc.carving, *args))
    assert list(state) == list(cc.STATE_ROW.keys)
    solved = json_lines(invoke(cc.carving, "solve", "tutorial", "-l", "1", "--json"))
    assert [list(row) for row in solved] == [list(cc.SOLVE_ROW.keys)]
    made = json_lines(invoke(cc.carving, "generate", "-n", "1", "--json"))
    assert [list(row) for row in made] == [list(cc.GENERATE_ROW.keys)]


LONGCAT_PACK = "; two levels worked by hand\n@..\n...\n\n.#.\n.@.\n"
"""A plain grid pack: level 1, a 3x2 room with the start top left, is solved by RDL and by no
shorter path; level 2 (``.#.`` over ``.@.``, the start under a wall) cannot be filled: either
way the cat goes, the two cells on the other side stay empty."""


def test_longcat_commands_print_their_rows():
    lc = longcat_cli
    solved = json_lines(invoke(lc.longcat, "solve", "-", "--json", input=LONGCAT_PACK))
    assert [list(row) for row in solved] == [list(lc.SOLVE_ROW.keys)] * 2
    assert [(r["solvable"], r["shortest"], r["solution"]) for r in solved] == [
        (True, 3, "RDL"),
        (False, None, None),
    ]
    assert solved[0]["plan"] == ["right", "down", "left"] and solved[1]["plan"] == []
    checked = json_lines(
        invoke(lc.longcat, "check", "-", "-m", "RDL", "--json", input=LONGCAT_PACK)
    )
    assert [list(row) for row in checked] == [list(lc.CHECK_ROW.keys)] * 2
    assert [row["won"] for row in checked] == [True, False]
    analysed = json_lines(invoke(lc.longcat, "analyze", "-", "--json", input=LONGCAT_PACK))
    assert [list(row) for row in analysed] == [list(lc.ANALYZE_ROW.keys)] * 2
    assert [(row["width"], row["height"]) for row in analysed] == [(3, 2), (3, 2)]
    # A time limit only a hang reaches: the work budget bounds the level (its default).
    args = ("generate", "--method", "sd", "--size", "4x4", "--time-limit", "86400", "--json")
    [made] = json_lines(invoke(lc.longcat, *args))
    assert list(made) == list(lc.GENERATE_ROW.keys) and made["id"].startswith("longcat:")


# --------------------------------------------------------------------------- text and JSON agree


def test_termcraft_text_says_what_json_says():
    tc = termcraft_cli
    for args in (("apply", "basics", "-r", "1"), ("apply", "--term", "f(a)", "--fuel", "3")):
        [data] = json_lines(invoke(tc.termcraft, *args, "--json"))
        text = invoke(tc.termcraft, *args).stdout.splitlines()
        assert text == [
            f"{key + ':':<8}{data[key]}" for key in ("term", "fuel", "budget", "status")
        ]
    for args in (("basics",), ("basics", "-l", "1", "--max-states", "1")):
        rows = json_lines(invoke(tc.termcraft, "solve", *args, "--json"))
        text = invoke(tc.termcraft, "solve", *args).stdout
        heads = re.findall(r"^level (\d+) .*?: (\w+) \((?:.*: )?(\d+) states? explored", text, re.M)
        assert heads == [(str(r["level"]), r["status"], str(r["explored"])) for r in rows]
        steps = re.findall(r"^  \d+\. (rewrite|construct) ", text, re.M)
        assert steps == [move["kind"] for r in rows for move in r["plan"]]


def test_carving_text_says_what_json_says(tmp_path):
    cc = carving_cli
    [closure] = json_lines(invoke(cc.carving, "closure", "tutorial", "-l", "3", "--json"))
    text = invoke(cc.carving, "closure", "tutorial", "-l", "3").stdout.splitlines()
    listed = [line.strip() for line in text if line.startswith("  ")]
    assert listed == closure["formulas"] + closure["operators"]
    edge = "theta(N(x,x,x),D(y,y,y),D(y,y,y),D(y,y,y),D(y,y,y))"
    script = tmp_path / "s.txt"
    script.write_text(f"construct {edge}\n", encoding="utf-8")
    args = ("play-script", "tutorial", "--script", str(script))
    [state] = json_lines(invoke(cc.carving, *args, "--json"))
    first = invoke(cc.carving, *args).stdout.splitlines()[0]
    assert first == f"status {state['status']}, phase {state['phase']}, steps {state['steps']}" + (
        f" (par {state['par']})" if state["par"] is not None else ""
    )
    solved = json_lines(invoke(cc.carving, "solve", "tutorial", "--json"))
    verdicts = re.findall(
        r"^level \d+ '.*': (.*), par", invoke(cc.carving, "solve", "tutorial").stdout, re.M
    )
    assert verdicts == [row["verdict"] for row in solved]


def test_longcat_text_says_what_json_says():
    lc = longcat_cli
    for moves in ("RDL", "R", "RDDL", "UU"):
        args = ("check", "-", "-m", moves)
        rows = json_lines(invoke(lc.longcat, *args, "--json", input=LONGCAT_PACK))
        text = invoke(lc.longcat, *args, input=LONGCAT_PACK).stdout.splitlines()
        assert text == [line for row in rows for line in lc.CHECK_ROW.text(row)]
        for row, line in zip(rows, text, strict=True):
            verdict = "valid, every" if row["won"] else "valid but" if row["valid"] else "invalid"
            assert line.startswith(f"level {row['level']} ({row['title']}): {verdict}")
    rows = json_lines(invoke(lc.longcat, "solve", "-", "--json", input=LONGCAT_PACK))
    text = invoke(lc.longcat, "solve", "-", input=LONGCAT_PACK).stdout.splitlines()
    assert text[-2:] == ["level 1: solved in 3 moves: RDL", "level 2: unsolvable"]
    assert text[-2:] == [line for row in rows for line in lc.SOLVE_ROW.text(row)]


# --------------------------------------------------------------------------- shared progress


def test_slow_analysis_shows_progress_on_a_terminal_only(monkeypatch):
    # Moved from test_cli_termcraft.py with StageProgress (was termcraft's _StageProgress).
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    StageProgress(after=100.0)("closure", 5, 10)  # not slow yet: nothing shown
    assert screen.getvalue() == ""
    progress = StageProgress(after=0.0)
    progress("closure", 5_000, 10_000)
    assert "analysing: closure 5,000/10,000" in screen.getvalue()
    progress.done()
    assert screen.getvalue().endswith("\r\x1b[K")
    monkeypatch.setattr(sys, "stderr", io.StringIO())  # a pipe: never shown
    assert not StageProgress(after=0.0).enabled


# --------------------------------------------------------------------------- Algebrawl

ALGEBRAWL_DOCS = {
    "HAND_ROW": "solve --numbers:",
    "LEVEL_ROW": "solve FILE:",
    "GENERATE_ROW": "generate --json` prints one",
}


def algebrawl(*args: str, input: str | None = None):
    from tui.games.algebrawl.cli import algebrawl as group

    return invoke(group, *args, input=input)


def test_every_algebrawl_row_has_the_documented_keys_in_order():
    from tui.games.algebrawl import cli as ac

    rows = declared_rows(ac)
    assert set(rows) == {*ALGEBRAWL_DOCS, "LEVEL_UNCOUNTED_ROW"}
    for name, anchor in ALGEBRAWL_DOCS.items():
        assert list(rows[name].keys) == doc_keys("algebrawl.md", anchor), name
    # "count and complete only with --count, the default, and when solved" (the page)
    counted = [key for key in ac.LEVEL_ROW.keys if key not in ("count", "complete")]
    assert list(ac.LEVEL_UNCOUNTED_ROW.keys) == counted


def test_algebrawl_commands_print_their_rows(tmp_path):
    from tui.games.algebrawl import cli as ac

    [hand] = json_lines(algebrawl("solve", "--numbers", "4", "7", "8", "8", "--json"))
    assert list(hand) == list(ac.HAND_ROW.keys) and hand["count"] == 3  # the page's example
    batch = "4 7 8 8\n1 1 1 1\n"
    hands = json_lines(algebrawl("solve", "--numbers", "-", "--no-count", "--json", input=batch))
    assert [list(row) for row in hands] == [list(ac.HAND_ROW.keys)] * 2
    assert [row["solvable"] for row in hands] == [True, False]
    levels = json_lines(algebrawl("solve", "first-blood", "--json"))
    assert len(levels) == 8 and all(list(row) == list(ac.LEVEL_ROW.keys) for row in levels)
    [uncounted] = json_lines(algebrawl("solve", "first-blood", "-l", "2", "--no-count", "--json"))
    assert list(uncounted) == list(ac.LEVEL_UNCOUNTED_ROW.keys)
    unsolvable = tmp_path / "u.levels"
    unsolvable.write_text(
        'game algebrawl\nlevel "No" {\n  numbers [1 1]\n  targets [7]\n  cards [+]\n}\n',
        encoding="utf-8",
    )
    [lost] = json_lines(algebrawl("solve", str(unsolvable), "--json"))  # counting on: no count
    assert list(lost) == list(ac.LEVEL_UNCOUNTED_ROW.keys) and lost["status"] == "unsolvable"
    made = json_lines(algebrawl("generate", "-n", "2", "-s", "1", "--json"))
    assert [list(row) for row in made] == [list(ac.GENERATE_ROW.keys)] * 2
    assert [row["seed"] for row in made] == [1, 2]


def test_algebrawl_hand_rows_are_plain_json_as_printed():
    # solve --numbers writes a hand's row without the conversion walk: only right while the
    # row's JSON form is the row itself.
    from fractions import Fraction

    from core.algebrawl.handrule import HandRule
    from tui.games.algebrawl import cli as ac

    bounds = ac.Bounds(60.0, 0)
    for hand, target in (((4, 7, 8, 8), 24), ((7, 2), Fraction(7, 2)), ((1, 1, 1, 1), 24)):
        numbers = tuple(Fraction(n) for n in hand)
        row = ac.hand_json(numbers, Fraction(target), HandRule(False), 2, bounds)
        assert ac.HAND_ROW.json(row) == row and list(row) == list(ac.HAND_ROW.keys)
        assert json.loads(json.dumps(row)) == row
    assert row["solvable"] is False and row["count"] == 0


def test_algebrawl_text_says_what_json_says():
    for args in (
        ("--numbers", "4", "7", "8", "8", "--limit", "2"),
        ("--numbers", "1", "1", "1", "1"),
        ("--numbers", "1", "5", "7", "9", "12", "--work-budget", "50"),
        ("--numbers", "4", "7", "8", "8", "--no-count", "--limit", "1"),
    ):
        [data] = json_lines(algebrawl("solve", *args, "--json"))
        head, *listed = algebrawl("solve", *args).stdout.splitlines()
        hand, verdict = head.split(f" → {data['target']}: ")
        assert hand.split() == [str(n) for n in data["numbers"]]
        if data["solvable"] is None:
            assert verdict == f"unknown ({data['reason']})" and not listed
        elif not data["solvable"]:
            assert verdict == "no solution" and not listed
        else:
            assert [line.strip() for line in listed[: len(data["solutions"])]] == data["solutions"]
            more = listed[len(data["solutions"]) :]
            if data["count"] is None:
                assert verdict == "solvable (not counted: --no-count)" and not more
            else:
                assert verdict.startswith(f"{data['count']} distinct solution")
                assert more == [f"  … and {data['count'] - 2} more (--limit 0 lists all)"]
    rows = json_lines(algebrawl("solve", "poison-and-treason", "--json"))
    text = algebrawl("solve", "poison-and-treason").stdout
    heads = re.findall(r"^level (\d+) '(.*)': shortest (\d+) moves, .*, (\d+) distinct", text, re.M)
    expected = [(str(r["level"]), r["title"], str(r["shortest"]), str(r["count"])) for r in rows]
    assert heads == expected and len(rows) == 4
    moves = re.findall(r"^  \d+\. (.*)$", text, re.M)
    assert moves == [move for r in rows for move in r["moves"]]


def test_algebrawl_queries_are_one_option_group():
    from tui.games.algebrawl import cli as ac

    names = ["args", "numbers_mode", "target_text", "countdown", "cards_text", "level"]
    for command in (ac.solve, ac.dot):
        assert [param.name for param in command.params][: len(names)] == names
    seen: list = []

    @click.command(context_settings={"ignore_unknown_options": True})
    @ac.query_options("1")
    def probe(query) -> None:
        seen.append(query)
        seen.append(query.rule())

    assert invoke(probe, "pack.levels", "-l", "2").exit_code == 0
    query, rule = seen
    assert rule is None and query.levels == LevelFile("pack.levels", "2")
    seen.clear()
    assert invoke(probe, "--numbers", "3", "5", "--target", "7/2", "--countdown").exit_code == 0
    query, rule = seen
    assert query.args == ("3", "5") and rule.countdown
    from fractions import Fraction

    assert query.target() == Fraction(7, 2)
    assert query.hand(rule, Fraction(8)) == (Fraction(3), Fraction(5))
    refused = invoke(probe, "--numbers", "3", "--level", "1")
    assert refused.exit_code == 2 and "--level goes with a level FILE" in refused.stderr


# --------------------------------------------------------------------------- 2048

GAME2048_DOCS = {
    "REPLAY_ROW": "\nreplay:   {",
    "HINT_ROW": "\nhint:     {",
    "AUTOPLAY_ROW": "\nautoplay: {",
    "CHECK_ROW": "\ncheck:    {",
}

GAME2048_PACK = """\
level "Open" {
  game 2048
  seed 7
}
level "Eight" {
  game 2048
  size 2
  goal 8
  board
    [4 4]
    [2 2]
}
"""


def test_every_2048_row_has_the_documented_keys_in_order():
    from tui.games.game2048 import cli as gc

    rows = declared_rows(gc)
    assert set(rows) == set(GAME2048_DOCS)
    for name, anchor in GAME2048_DOCS.items():
        assert list(rows[name].keys) == doc_keys("2048.md", anchor), name
    assert gc.REPLAY_ROW.keys[-len(gc.REPLAY_DERIVED) :] == gc.REPLAY_DERIVED
    assert gc.HINT_ROW.keys[-len(gc.HINT_DERIVED) :] == gc.HINT_DERIVED


def test_2048_commands_print_their_rows():
    from tui.games.game2048 import cli as gc

    [replayed] = json_lines(invoke(gc.game2048, "replay", "-s", "7", "-m", "LLRUD", "--json"))
    assert list(replayed) == list(gc.REPLAY_ROW.keys)
    # by hand: seed 7's two tiles, then L L R U D; only moves that change the board count
    assert replayed["seed"] == 7 and replayed["moves_applied"] <= 5
    hinted = invoke(gc.game2048, "hint", "-s", "7", "--depth", "1", "--json")
    [hint_row] = json_lines(hinted)
    assert list(hint_row) == list(gc.HINT_ROW.keys) and hint_row["direction"] in (
        "up",
        "down",
        "left",
        "right",
    )
    args = ("autoplay", "-s", "1", "-n", "2", "--max-moves", "5", "--size", "3", "--depth", "1")
    games = json_lines(invoke(gc.game2048, *args, "--json"))
    assert [list(game) for game in games] == [list(gc.AUTOPLAY_ROW.keys)] * 2
    assert [(game["seed"], game["moves"]) for game in games] == [(1, 5), (2, 5)]
    checked = invoke(gc.game2048, "check", "-", "--max-moves", "200", "--json", input=GAME2048_PACK)
    rows = json_lines(checked)
    assert [list(row) for row in rows] == [list(gc.CHECK_ROW.keys)] * 2
    # [4 4]/[2 2], goal 8: left or right merges 4+4 and 2+2, the goal at move 1, score 12
    eight = rows[1]
    assert (eight["level"], eight["title"], eight["board"]) == (2, "Eight", [[4, 4], [2, 2]])
    assert (eight["estimate"]["goal_at"], eight["estimate"]["score"]) == (1, 12)
    assert rows[0]["distribution"] == [[2, 9], [4, 1]] and rows[0]["board"] is None


def test_2048_text_says_what_json_says():
    from tui.games.game2048 import cli as gc

    for args in (("replay", "-s", "7", "-m", "LLRUD"), ("replay", "-s", "3", "-m", "UUUU")):
        [data] = json_lines(invoke(gc.game2048, *args, "--json"))
        status = invoke(gc.game2048, *args).stdout.replace("\n", " ")
        given = len(args[-1])
        assert f"score {data['score']}  moves {data['moves_applied']}/{given}  " in status
        assert f"seed {data['seed']}  current_seed {data['current_seed']}" in status
        for row in data["board"]:  # every tile shown, in its row (dots for empty cells)
            assert " │ ".join(str(v) if v else "·" for v in row) in re.sub(r" +", " ", status)
    args = ("hint", "-s", "7", "--work-budget", "5")  # five nodes: the search is cut
    [data] = json_lines(invoke(gc.game2048, *args, "--json"))
    text = invoke(gc.game2048, *args).stdout.replace("\n", " ")
    assert data["cut"] == "work budget"
    note = f"(search cut by the work budget at depth {data['depth']} of {data['target_depth']})"
    assert f"hint: {data['direction']} {note}" in text
    checked = json_lines(invoke(gc.game2048, "check", "-", "--json", input=GAME2048_PACK))
    text = invoke(gc.game2048, "check", "-", input=GAME2048_PACK).stdout
    heads = re.findall(r"^(\d+)\. (.*)$", text, re.M)
    assert heads == [(str(row["level"]), row["title"]) for row in checked]
    assert "goal 8 at move 1, score 12" in text


def test_2048_options_are_option_groups():
    from tui.games.game2048 import cli as gc

    rules = ["size", "merge", "distribution", "tiles", "goal"]
    assert gc.RULES.names() == rules
    for command, group in ((gc.hint, gc.SEARCH), (gc.autoplay, gc.RUN_LIMITS)):
        names = [param.name for param in command.params]
        at = names.index("size")
        assert names[at : at + 5 + len(group.names())] == rules + group.names()
    assert [param.name for param in gc.check.params][:2] == ["level_file", "level"]
    seen: list = []

    @click.command()
    @gc.RULES
    @gc.RUN_LIMITS
    def probe(rules, limits) -> None:
        seen.extend((rules, limits))

    assert invoke(probe, "--size", "3", "--goal", "64", "--think-time", "0.5").exit_code == 0
    rules_given, limits = seen
    assert rules_given == gc.Rules(3, "standard", None, 2, 64)
    assert rules_given.config(5).board_size == 3 and rules_given.config(5).goal == 64
    assert limits == gc.RunLimits(None, gc.DEFAULT_RUN_LIMIT, 0.5, gc.DEFAULT_BUDGET)
    assert gc.play.name == "play" and "[FILE | ID]" in invoke(gc.game2048, "play", "--help").stdout
