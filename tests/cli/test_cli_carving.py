"""``termarcade carving``: closure, eliminable, play-script, solve and generate, against hand
answers and the rules (click's CliRunner; one subprocess for ctrl+c)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from core.carving import GAME, Formula, Level, Operator, Target, level_to_json
from core.carving.generators import GENERATORS
from core.levelpack import LevelPack
from grammar.carving import parse_formula, parse_operator, script_text
from grammar.levels import bundled_packs, dump_pack, load_pack_file
from tests.cli.helpers import apart_runner
from tests.core.helpers import one_type_carving
from tests.processes import wait_for_cpu
from tui.games.carving.cli import carving

pytestmark = pytest.mark.cli

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, input: str | None = None):
    return apart_runner().invoke(carving, list(args), input=input)


def D(v: str) -> Formula:
    return Formula("D", v, v, v)


def N(v: str) -> Formula:
    return Formula("N", v, v, v)


def untyped(names: str, target: Target, **kw) -> Level:
    return one_type_carving(names, target, names[0], **{"title": "L", **kw})


EDGE = Target(("a", "b"), (("a", "b"),))
TYPED = Level(
    types=("t", "u"),
    variables=(("x", "t"), ("y", "u")),
    r_delta=(("t", "t", "t"), ("t", "t", "u"), ("u", "t", "t")),
    r_nabla=(("t", "t", "u"), ("u", "t", "u")),
    axioms=(Formula("D", "y", "x", "x"),),
    root=D("x"),
    target=EDGE,
    title="Typed",
)


def write(tmp_path: Path, *levels: Level, name: str = "p.levels") -> str:
    path = tmp_path / name
    path.write_text(
        dump_pack(LevelPack(title="p", levels=levels, game="carving")), encoding="utf-8"
    )
    return str(path)


# -- closure ----------------------------------------------------------------------------------


def test_closure_of_diagonals_only(tmp_path):
    result = run("closure", write(tmp_path, untyped("xy", EDGE)), "--json")
    assert result.exit_code == 0, result.output
    th = "theta(N({v},{v},{v}),D({v},{v},{v}),D({v},{v},{v}),D({v},{v},{v}),D({v},{v},{v}))"
    om = "omega(D({v},{v},{v}),D({v},{v},{v}),D({v},{v},{v}),D({v},{v},{v}),N({v},{v},{v}))"
    assert json.loads(result.stdout) == {
        "formulas": ["D(x,x,x)", "D(y,y,y)", "N(x,x,x)", "N(y,y,y)"],
        "operators": sorted(t.format(v=v) for t in (th, om) for v in "xy"),
    }


def test_closure_with_an_axiom_worked_by_hand(tmp_path):
    # D(y,x,x) (types u t t) rotates to D(x,x,y) (t t u); D(x,y,x) (t u t) is not in R_Δ.
    # Triangles over {Dxxx, Dxxy, Dyxx}: on base Dxxx with d3 = Dyxx, Ω draws ∇(x,x,y); with
    # d2 = d3 = ... and Θ draws back Dxxx; ∇(x,x,x) is not well-typed (no (t,t,t) in R_∇).
    result = run("closure", write(tmp_path, TYPED), "--json")
    data = json.loads(result.stdout)
    assert data["formulas"] == ["D(x,x,x)", "D(x,x,y)", "D(y,x,x)", "N(x,x,y)", "N(y,x,y)"]
    assert data["operators"] == [
        "omega(D(x,x,x),D(x,x,x),D(x,x,x),D(y,x,x),N(x,x,y))",
        "omega(D(x,x,x),D(y,x,x),D(x,x,x),D(y,x,x),N(y,x,y))",
        "theta(N(x,x,y),D(x,x,x),D(x,x,x),D(y,x,x),D(x,x,x))",
        "theta(N(y,x,y),D(y,x,x),D(x,x,x),D(y,x,x),D(x,x,x))",
    ]
    text = run("closure", write(tmp_path, TYPED)).stdout
    assert "not well-typed, left out: D(x,y,x)" in text


def test_json_levels_and_stdin(tmp_path):
    path = tmp_path / "typed.json"
    path.write_text(json.dumps(level_to_json(TYPED)), encoding="utf-8")
    by_file = run("closure", str(path), "--json").stdout
    by_stdin = run("closure", "-", "--json", input=json.dumps(level_to_json(TYPED))).stdout
    assert by_file == by_stdin and json.loads(by_file)["formulas"][1] == "D(x,x,y)"
    broken = {**level_to_json(TYPED), "variables": {"x": "t", "y": 1}}
    bad = run("closure", "-", input=json.dumps(broken, indent=1))
    assert bad.exit_code == 2
    lines = bad.stderr.splitlines()
    assert lines[0].endswith(": at variables.y: a type must be a string, not a number")
    assert lines[1].strip() == '"y": 1' and lines[2].strip() == "^"


# -- eliminable ----------------------------------------------------------------------------------


def _is_legal_path(level: Level, edge: Operator, path: list[str]) -> bool:
    """Check a reported path by the definitions: a walk from ρ0 in E_Ω ∪ {e}, k ≥ 1,
    consecutive vertices distinct and in the edge, using e, no V T T V run (contiguous)."""
    from core.carving import compute_closure

    edges = set(compute_closure(level).edges) | {edge}
    vertices = [parse_formula(v) for v in path[0::2]]
    walk = [parse_operator(e) for e in path[1::2]]
    if vertices[0] != level.root or not walk or edge not in walk:
        return False
    for a, e, b in zip(vertices, walk, vertices[1:]):
        if e not in edges or a == b or a not in e or b not in e:
            return False
    types = "".join("V" if e == edge else "T" for e in walk)
    return not any(f"V{'T' * n}V" in types for n in range(2, len(types)))


def test_eliminable_legal_with_a_path(tmp_path):
    level = untyped("xy", EDGE)
    edge = Operator(D("y"), D("y"), D("y"), D("y"), N("x"))  # {Dy, Nx}: Nx is next to Dx
    result = run("eliminable", write(tmp_path, level), "--edge", str(edge), "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["legal"] is True and data["exists"] is True
    assert len(data["path"]) == 5 and _is_legal_path(level, edge, data["path"])
    spaced = run(
        "eliminable",
        write(tmp_path, level),
        "--edge",
        "ω(Δ(y,y,y), D(y, y, y), D(y,y,y), D(y,y,y), ∇(x,x,x))",
        "--json",
    )
    assert json.loads(spaced.stdout) == data


def test_eliminable_out_of_reach_and_illegal(tmp_path):
    path = write(tmp_path, untyped("xyz", EDGE))
    far = "theta(N(y,y,y),D(z,z,z),D(z,z,z),D(z,z,z),D(z,z,z))"
    result = run("eliminable", path, "--edge", far, "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {"legal": True, "exists": False, "path": None}
    intrinsic = "theta(N(x,x,x),D(x,x,x),D(x,x,x),D(x,x,x),D(x,x,x))"
    result = run("eliminable", path, "--edge", intrinsic, "--json")
    assert result.exit_code == 1
    assert json.loads(result.stdout) == {"legal": False, "exists": False, "path": None}
    assert "intrinsic edge" in result.stderr
    result = run(
        "eliminable", path, "--edge", "theta(N(q,q,q),D(x,x,x),D(x,x,x),D(x,x,x),D(x,x,x))"
    )
    # Issue 29: the level says nothing, so e_new may hold any well-typed formula (seed 001's
    # U); q is no variable of the level, while N(x,y,z) is a formula outside F*.
    assert result.exit_code == 1 and "not a formula of this level" in result.stdout
    outside = "theta(N(x,y,z),D(z,z,z),D(z,z,z),D(z,z,z),D(z,z,z))"
    result = run("eliminable", path, "--edge", outside, "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {"legal": True, "exists": False, "path": None}


def test_eliminable_bad_edge_is_a_caret_error(tmp_path):
    result = run(
        "eliminable",
        write(tmp_path, untyped("xy", EDGE)),
        "--edge",
        "theta(D(x,x,x),D(x,x,x),D(x,x,x),D(x,x,x),D(x,x,x))",
    )
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert lines[0] == "<--edge>:1:7: unexpected 'D('"
    assert lines[2].index("^") == lines[1].index("D(x")
    assert lines[3] == 'expected "N("'


# -- play-script ----------------------------------------------------------------------------------


def _tutorial(title: str) -> Level:
    pack = bundled_packs("carving")[0][1]
    return pack.levels[pack.index_of(title)]


def test_play_script_to_a_win(tmp_path):
    level = _tutorial("Step Aside")
    moves = [
        GAME.move_from_json(None, m)
        for m in (  # the solver-independent hand solution
            {"kind": "construct", "edge": "theta(N(x,x,x),D(y,y,y),D(y,y,y),D(y,y,y),D(y,y,y))"},
            {
                "kind": "step",
                "edge": "omega(D(x,x,x),D(x,x,x),D(x,x,x),D(x,x,x),N(x,x,x))",
                "to": "N(x,x,x)",
            },
            {
                "kind": "step",
                "edge": "theta(N(x,x,x),D(x,x,x),D(x,x,x),D(x,x,x),D(x,x,x))",
                "to": "D(x,x,x)",
            },
            {
                "kind": "step",
                "edge": "omega(D(x,x,x),D(x,x,x),D(x,x,x),D(x,x,x),N(x,x,x))",
                "to": "N(x,x,x)",
            },
            {
                "kind": "step",
                "edge": "theta(N(x,x,x),D(y,y,y),D(y,y,y),D(y,y,y),D(y,y,y))",
                "to": "D(y,y,y)",
            },
            {"kind": "finish"},
            {"kind": "base", "vertex": "N(x,x,x)"},
            {"kind": "construct", "edge": "theta(N(y,y,y),D(x,x,x),D(x,x,x),D(x,x,x),D(y,y,y))"},
        )
    ]
    script = tmp_path / "s.txt"
    script.write_text("; hand solution\n" + script_text(moves), encoding="utf-8")
    result = run("play-script", write(tmp_path, level), "--script", str(script), "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    # The engine's state (core.carving.game), then the keys the command derives.
    assert list(data) == [
        "level",
        "removed",
        "virtual",
        "base",
        "phase",
        "pending",
        "path",
        "steps",
        "status",
        "par",
        "tree",
        "offered",
        "candidates",
        "component",
    ]
    assert data["status"] == "won" and data["steps"] == 2 == data["par"]
    assert data["base"] == "N(x,x,x)"
    assert data["virtual"] == ["theta(N(y,y,y),D(x,x,x),D(x,x,x),D(x,x,x),D(y,y,y))"]
    assert data["component"]["vertices"] == ["D(x,x,x)", "D(y,y,y)", "N(y,y,y)"]
    assert len(data["removed"]) == 2 and len(data["tree"]) == 4


def test_play_script_stops_at_a_refused_step(tmp_path):
    level = untyped("xy", EDGE)
    script = "construct omega(D(y,y,y),D(y,y,y),D(y,y,y),D(y,y,y),N(x,x,x))\n\nfinish\n"
    result = run("play-script", write(tmp_path, level), "--script", "-", input=script)
    assert result.exit_code == 1
    assert result.stderr.startswith(
        "error: <stdin>:3: finish: the path does not use the new edge yet"
    )
    partial = run(
        "play-script",
        write(tmp_path, level),
        "--script",
        "-",
        "--json",
        input=script.replace("finish\n", ""),
    )
    data = json.loads(partial.stdout)
    assert data["phase"] == "path" and data["pending"].startswith("omega(D(y,y,y)")
    # From Dx: the two x tree edges to Nx (e_new does not hold Dx).
    assert sorted(v for _, v in data["offered"]) == ["N(x,x,x)", "N(x,x,x)"]


def test_play_script_syntax_error(tmp_path):
    result = run(
        "play-script",
        write(tmp_path, untyped("xy", EDGE)),
        "--script",
        "-",
        input="finish\nconstruct D(x,x,x)\n",
    )
    assert result.exit_code == 2
    assert result.stderr.splitlines()[0] == "<stdin>:2:11: unexpected 'D('"


# -- solve ------------------------------------------------------------------------------------------


def test_solve_json_plan_replays_to_a_win(tmp_path):
    level = _tutorial("Rotations")
    result = run("solve", write(tmp_path, level), "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["status"] == "solved" and data["steps"] == 2 == data["par"]
    state = GAME.initial(level)
    for move in data["plan"]:
        state = GAME.apply(state, GAME.move_from_json(state, move))
    assert GAME.status(state) == "won"
    text = run("solve", write(tmp_path, level)).stdout.splitlines()
    assert text[0].startswith("level 1 'Rotations': solved in 2 steps (shortest), par 2")
    assert text[1] == "  construct theta(N(x,x,y),D(x,x,x),D(x,x,x),D(x,x,x),D(x,x,x))"


def test_solve_unsolvable_and_level_choice(tmp_path):
    stuck = Level(
        types=("t",),
        variables=(("x", "t"),),
        r_delta=(("t", "t", "t"),),
        r_nabla=(),
        root=D("x"),
        target=EDGE,
        title="Stuck",
    )
    path = write(tmp_path, untyped("xy", EDGE, title="Easy"), stuck)
    result = run("solve", path, "--json")
    assert result.exit_code == 1
    statuses = [json.loads(line)["status"] for line in result.stdout.splitlines()]
    assert statuses == ["solved", "unsolvable"]
    assert run("solve", path, "--level", "easy", "--json").exit_code == 0
    assert "no level titled 'nope'" in run("solve", path, "--level", "nope").stderr


def test_solve_honours_the_time_limit(tmp_path, ticking_clock, monkeypatch):
    """On a clock that ticks 1 ms per read the 0.5 s limit (loading included) falls after 500
    reads, long before the proof (which takes seconds of CPU), on any machine."""
    import core.carving.generators as generators

    hard = GENERATORS["hard"].generate(5)
    # A search from nothing, as for any level file: no generator's plan remembered for it.
    monkeypatch.setattr(generators, "_KNOWN", type(generators._KNOWN)())
    path = write(tmp_path, hard)
    ticking_clock.reads = 0
    result = run("solve", path, "--time-limit", "0.5", "--json")
    assert ticking_clock.reads <= 700, ticking_clock.reads
    data = json.loads(result.stdout)
    assert result.exit_code == 1 and data["status"] == "unknown" and data["plan"] == []


def test_ctrl_c_stops_the_solver_cleanly(tmp_path):
    path = write(tmp_path, GENERATORS["hard"].generate(5))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "tui", "carving", "solve", path, "--time-limit", "60", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
    )
    wait_for_cpu(proc, 1.0)  # start-up takes ~0.3 s of CPU: the solver is under way
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "interrupted" in err
    data = json.loads(out)
    assert data["status"] == "unknown" and data["reason"] == "cancelled"


# -- generate ---------------------------------------------------------------------------------------


def test_generate_writes_a_pack_and_never_overwrites(tmp_path):
    out = tmp_path / "gen.levels"
    result = run("generate", str(out), "--count", "3", "--seed", "7", "--json")
    assert result.exit_code == 0, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    pack = load_pack_file(out)
    assert [level.title for level in pack.levels] == [row["title"] for row in rows]
    assert [level.par for level in pack.levels] == [row["par"] for row in rows]
    assert pack.levels[0] == GENERATORS["easy"].generate(rows[0]["seed"])
    before = out.read_text(encoding="utf-8")
    again = run("generate", str(out), "--count", "1", "--seed", "99")
    assert again.exit_code == 2 and "add --force" in again.stderr
    assert out.read_text(encoding="utf-8") == before
    forced = run("generate", str(out), "--count", "1", "--seed", "99", "--force")
    assert forced.exit_code == 0 and len(load_pack_file(out).levels) == 1
    assert not [p for p in tmp_path.iterdir() if ".tmp-" in p.name]


def test_generate_to_stdout(tmp_path):
    result = run("generate", "-", "--count", "2", "--difficulty", "medium")
    assert result.exit_code == 0
    path = tmp_path / "out.levels"
    path.write_text(result.stdout, encoding="utf-8")
    assert [level.title.split(" #")[0] for level in load_pack_file(path).levels] == ["Medium"] * 2


# -- bad input: exit 2, one clean message, a caret where there is a position --------------------


def test_a_level_file_syntax_error_has_line_column_and_caret(tmp_path):
    path = tmp_path / "bad.levels"
    path.write_text(
        'title "p"\nlevel "a" {\n  game carving\n  types [t\n  variables [x: t]\n}\n',
        encoding="utf-8",
    )
    for command in (
        ["closure", str(path)],
        ["solve", str(path)],
        ["eliminable", str(path), "--edge", "theta(N(x,x,x),D(x,x,x),D(x,x,x),D(x,x,x),D(x,x,x))"],
    ):
        result = run(*command)
        assert result.exit_code == 2 and result.stdout == ""
        lines = result.stderr.splitlines()
        assert lines[0] == f"{path}:5:3: unexpected 'variables'"
        assert lines[1].strip() == "variables [x: t]" and lines[2].index("^") == lines[1].index("v")
        assert "expected" in lines[3] and "Traceback" not in result.stderr


def test_missing_files_other_games_and_bad_level_numbers(tmp_path):
    missing = run("closure", str(tmp_path / "nope.levels"))
    assert missing.exit_code == 2 and "No such file" in missing.stderr
    other = ROOT / "levels" / "termcraft" / "01-basics.levels"
    result = run("closure", str(other))
    assert result.exit_code == 2
    assert (
        result.stderr.strip()
        == f"error: {other}: this is a level file for termcraft, not for carving"
    )
    path = write(tmp_path, untyped("xy", EDGE))
    result = run("closure", path, "--level", "3")
    assert result.exit_code == 2
    assert (
        result.stderr.strip()
        == "error: there is no level 3: the file has 1 level (numbered from 1)"
    )
    script = run("play-script", path, "--script", str(tmp_path / "none.txt"))
    assert script.exit_code == 2 and "none.txt: No such file" in script.stderr


def test_level_and_script_cannot_both_come_from_stdin(tmp_path):
    result = run("play-script", "-", "--script", "-", input="")
    assert result.exit_code == 2 and "cannot both be read from stdin" in result.stderr


def test_generate_refuses_a_directory_even_with_force(tmp_path):
    for extra in ([], ["--force"]):
        result = run("generate", str(tmp_path), "--count", "1", *extra)
        assert result.exit_code == 2 and "is a directory" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_generate_to_stdout_refuses_json_rows_in_the_pack():
    result = run("generate", "-", "--count", "1", "--json")
    assert result.exit_code == 2 and result.stdout == ""
    assert "--json needs a file OUT" in result.stderr


@pytest.mark.slow
def test_solve_proves_a_generated_levels_par_from_the_generators_plan() -> None:
    """Issue 29: the solver proves par on generated levels too. Hard #0's par (4) was proved by
    the generator against its play-out; searched from nothing, 400,000 state images find no
    plan at all, while ``carving solve`` of its ID, given the generator's plan as the first
    known solution, proves 4 shortest within the same budget (no clock involved)."""
    from core.carving import solve as core_solve

    budget = 400_000
    level = GENERATORS["hard"].generate(0)
    blind = core_solve(level, budget=budget, time_limit=None)
    assert blind.status == "unknown" and blind.reason == "work budget"
    result = run(
        "solve", "carving:hard#0", "--work-budget", str(budget), "--time-limit", "86400", "--json"
    )
    data = json.loads(result.stdout)
    assert result.exit_code == 0, result.output
    assert data["status"] == "solved" and data["proved"] is True
    assert data["steps"] == data["par"] == level.par == 4
    assert data["verdict"] == "solved in 4 steps (shortest)"
    assert data["generated"] <= budget


def test_known_solutions_are_the_latest_generated_levels_only(monkeypatch) -> None:
    """The memo of generated solutions is bounded (the latest levels) and answers by value."""
    import core.carving.generators as generators

    monkeypatch.setattr(generators, "_KNOWN_MAX", 2)
    monkeypatch.setattr(generators, "_KNOWN", type(generators._KNOWN)())
    made = [GENERATORS["easy"].generated(seed) for seed in (1, 2, 3)]
    assert generators.known_solution(made[0].level) is None  # pushed out by the third
    for one in made[1:]:
        assert generators.known_solution(one.level) == tuple(one.solution)
        end = GAME.initial(one.level)
        for move in one.solution:
            end = GAME.apply(end, move)
        assert end.phase == "won"
    bundled = next(iter(bundled_packs("carving")))[1].levels[0]
    assert generators.known_solution(bundled) is None
