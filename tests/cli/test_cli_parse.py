"""CLI tests of ``termarcade parse`` (click's CliRunner, plus one subprocess import check)."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.termcraft.terms import compound, const, to_str, var
from tests.cli.helpers import apart_runner
from tui.cli.parse import build_tree, parse

pytestmark = pytest.mark.cli

SAMPLE = (
    "puzzle_state(rewrite(pair(var(X),var(Y)),rev_pair(var(Y),var(X))),"
    "rewrite(red,blue),equiv(apple,red),data(pair(apple,green)),data(placeholder))"
)


def run(args: list[str], stdin: str | bytes | None = None):
    """Invoke the command; stdout and stderr are kept apart."""
    return apart_runner().invoke(parse, args, input=stdin, catch_exceptions=False)


def ref_json(term) -> dict:
    """Independent (recursive, small terms only) JSON form of a term."""
    kind = {0: "const", 1: "var", 2: "compound"}[term.kind]
    return {"kind": kind, "name": term.name, "args": [ref_json(a) for a in term.args]}


def ref_size(text: str) -> int:
    """Node count straight from canonical text: every identifier is a node, except that
    ``var(X)`` is one node (two identifiers)."""
    import re

    names = re.findall(r"[A-Za-z0-9_]+", text)
    return len(names) - len(re.findall(r"var\([A-Za-z0-9_]+\)", text))


names = st.sampled_from(["a", "b", "pair", "var", "VAR", "placeholder", "x_1", "0"])


def _printable(name, args):
    """A compound named var(any case) with one constant argument *is* the variable in the
    syntax (seed 000 §3.2), so such compounds have no text of their own: skip them."""
    return not (name.lower() == "var" and len(args) == 1 and args[0].is_const)


terms = st.recursive(
    st.one_of(names.map(const), st.sampled_from(["X", "Y"]).map(var)),
    lambda kids: (
        st.tuples(names, st.lists(kids, max_size=3))
        .filter(lambda p: _printable(*p))
        .map(lambda p: compound(*p))
    ),
    max_leaves=12,
)


@settings(max_examples=60, deadline=None)
@given(terms)
def test_round_trip_and_json_against_reference(term):
    """Canonical output reparses to the same term; --json matches the reference shape."""
    text = to_str(term)
    result = run([text])
    assert result.exit_code == 0, result.stderr
    assert result.stdout == text + "\n"
    spaced = text.replace(",", " , ").replace("(", " ( ")
    assert run([spaced]).stdout == text + "\n"
    out = run(["--json", text]).stdout
    assert json.loads(out) == ref_json(term)
    sized = json.loads(run(["--json", "--size", text]).stdout)
    assert sized == {"size": ref_size(text), "term": ref_json(term)}


def test_hand_worked_examples():
    """Canonical forms, var case-insensitivity, zero-argument compounds, Size."""
    result = run(["pair( apple , green )", "VAR(x)", "var(f(x))", "tuple()", "tuple"])
    assert result.stdout.splitlines() == [
        "pair(apple,green)",
        "var(x)",
        "var(f(x))",
        "tuple()",
        "tuple",
    ]
    assert run(["--size", SAMPLE, "pair(apple,green)", "var(X)"]).stdout.split() == ["20", "3", "1"]
    js = [json.loads(line) for line in run(["--json", "var(f(x))", "tuple()"]).stdout.splitlines()]
    assert js[0] == {
        "kind": "compound",
        "name": "var",
        "args": [
            {"kind": "compound", "name": "f", "args": [{"kind": "const", "name": "x", "args": []}]}
        ],
    }
    assert js[1] == {"kind": "compound", "name": "tuple", "args": []}


def test_stdin_lines_blank_skipped_and_errors_do_not_stop():
    """A bad line gives line/column/caret/expected on stderr and exit 2; later lines print."""
    stdin = "pair(apple,green)\n\n   \nf(a,\nx-y\nVAR(Z)\n"
    result = run([], stdin)
    assert result.exit_code == 2
    assert result.stdout.splitlines() == ["pair(apple,green)", "var(Z)"]
    err = result.stderr.splitlines()
    assert err[0] == "<stdin>:4:5: unexpected end of input"
    assert err[1] == "  f(a,"
    assert err[2] == "  " + " " * 4 + "^"
    assert err[3] == "expected an identifier"
    assert err[4].startswith("<stdin>:5:2: unexpected character '-'")
    assert err[6] == "   ^"
    assert err[7].startswith("expected ")


def test_bad_argument_named_and_not_utf8_stdin():
    result = run(["ok", "f(,a)", "fine(x)"])
    assert result.exit_code == 2
    assert result.stdout.splitlines() == ["ok", "fine(x)"]
    assert result.stderr.startswith("<arg 2>:1:3: unexpected")
    result = run([], b"a\n\xff\xfe\nb\n")
    assert result.exit_code == 2
    assert result.stdout.splitlines() == ["a", "b"]
    assert "<stdin>:2" in result.stderr and "UTF-8" in result.stderr
    assert "Traceback" not in result.stderr


def test_dash_reads_stdin_like_every_other_command():
    result = run(["-"], "pair(apple,green)\n\nf(,a)\n")
    assert result.exit_code == 2  # the bad stdin line, named by its line
    assert result.stdout.splitlines() == ["pair(apple,green)"]
    assert result.stderr.startswith("<stdin>:3:3: unexpected")
    result = run(["first", "-", "last"], "f( a )\n")  # in place, between arguments
    assert result.exit_code == 0
    assert result.stdout.splitlines() == ["first", "f(a)", "last"]


def test_empty_stdin_is_ok():
    result = run([], "")
    assert result.exit_code == 0 and result.stdout == ""


def test_deep_term_through_stdin():
    """A term nested 100,000 deep: canonical text, Size, JSON and a capped tree."""
    depth = 100_000
    text = "f(" * depth + "a" + ")" * depth
    result = run([], text + "\n")
    assert result.exit_code == 0
    assert result.stdout == text + "\n"
    out = run(["--json", "--size"], text + "\n").stdout
    assert out.startswith(
        f'{{"size": {depth + 1}, "term": {{"kind": "compound", "name": "f", "args": [{{'
    )
    assert out.count('"name": "f"') == depth and out.rstrip().endswith("]}" * (depth + 1) + "}")
    tree = run(["--tree", "--max-depth", "3"], text + "\n")
    assert tree.exit_code == 0
    assert f"… {depth - 2} more nodes below" in tree.stdout
    assert len(tree.stdout.splitlines()) == 4


def test_tree_caps_and_sizes():
    wide = "w(" + ",".join(f"c{i}" for i in range(30)) + ")"
    out = run(["--tree", "--max-width", "5", wide]).stdout.splitlines()
    assert out[0] == "w"
    assert [line.strip("├└─ ") for line in out[1:6]] == ["c0", "c1", "c2", "c3", "c4"]
    assert out[6].endswith("… 25 more arguments") and len(out) == 7
    sized = run(["--tree", "--size", SAMPLE]).stdout.splitlines()
    assert sized[0] == "puzzle_state  size 20"
    assert sized[1].endswith("rewrite  size 7")
    # A node cap bounds the output of a huge balanced term.
    tree = build_tree(
        compound("t", [compound("u", [const(f"k{i}") for i in range(50)])] * 50),
        max_depth=50,
        max_width=100,
        max_nodes=30,
    )
    from rich.console import Console

    console = Console(width=100, record=True, file=io.StringIO())
    console.print(tree)
    lines = console.export_text().splitlines()
    # t, 29 u's (30 nodes in all), one marker under each u, one for t's 21 other arguments.
    assert len(lines) == 60 and lines[-1] == "└── … 21 more arguments"


def test_tree_with_json_is_usage_error():
    result = run(["--tree", "--json", "a"])
    assert result.exit_code == 2


def test_cli_modules_do_not_import_textual():
    code = (
        "import tui.cli, tui.cli.parse, sys; "
        "assert 'textual' not in sys.modules, 'textual imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_closed_pipe_ends_quietly(tmp_path):
    """`termarcade parse ... | head -1`: no internal error when the reader goes away."""
    from pathlib import Path

    repo = Path(__file__).resolve().parents[2]
    source = tmp_path / "terms.txt"
    source.write_bytes(b"pair(apple,green)\n" * 200_000)
    with open(source, "rb") as stdin:
        proc = subprocess.Popen(
            [sys.executable, "-m", "tui", "parse"],
            cwd=repo,
            stdin=stdin,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
    assert proc.stdout.readline() == b"pair(apple,green)\n"
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 141
    assert b"error" not in err and b"Traceback" not in err


def test_control_characters_are_escaped_and_the_caret_still_points():
    """A term line holding ESC sequences is shown escaped, never raw, caret realigned."""
    result = run([], b"pair(\x1b[2J\x07,a)\n\xff\n")
    assert result.exit_code == 2
    err = result.stderr.splitlines()
    assert err[0].startswith("<stdin>:1:6: unexpected character '\\x1b'")
    assert err[1] == "  pair(\\e[2J\\x07,a)"
    assert err[1][err[2].index("^") :].startswith("\\e")
    assert err[-1] == "error: <stdin>:2: the line is not valid UTF-8"
    assert not any(ch in result.stderr for ch in "\x1b\x07")
