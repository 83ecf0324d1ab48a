"""Bundled level packs: they load, from a source checkout and from an installed location."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

from core.termcraft import Level
from grammar.levels import bundled_packs, dump_pack, load_pack
from grammar.terms import parse_term

ROOT = Path(__file__).resolve().parents[2]


def test_every_bundled_termcraft_pack_loads_and_round_trips():
    packs = bundled_packs("termcraft")
    ids = [pack_id for pack_id, _ in packs]
    assert ids == sorted(ids) and len(ids) >= 2
    assert sum(len(pack.levels) for _, pack in packs) >= 16
    for pack_id, pack in packs:
        assert pack.game == "termcraft" and pack.title and pack.levels, pack_id
        assert all(isinstance(level, Level) for level in pack.levels)
        assert load_pack(dump_pack(pack)) == pack


def test_games_without_packs_have_none():
    assert bundled_packs("nosuchgame") == []


def test_first_level_is_the_seed_sample():
    _, pack = bundled_packs("termcraft")[0]
    first = pack.levels[0]
    rules = (
        "rewrite(pair(var(X),var(Y)),rev_pair(var(Y),var(X))),rewrite(red,blue),equiv(apple,red),"
    )
    assert first.current is parse_term(
        "puzzle_state(" + rules + "data(pair(apple,green)),data(placeholder))"
    )
    assert first.target is parse_term(
        "puzzle_state(" + rules + "data(rev_pair(green,blue)),data(done))"
    )


def test_packs_are_found_from_an_installed_zip(tmp_path):
    """Only the packages, zipped (as in a zip-safe install): no source tree on the path."""
    archive = tmp_path / "site.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for package in ("core", "grammar", "levels"):
            for path in (ROOT / package).rglob("*"):
                if path.suffix in {".py", ".lark", ".levels"} and "__pycache__" not in path.parts:
                    zf.write(path, path.relative_to(ROOT).as_posix())
    code = (
        "import sys, grammar.levels as g\n"
        "assert g.__file__.startswith(sys.argv[1]), g.__file__\n"
        "packs = g.bundled_packs('termcraft')\n"
        "print(len(packs), sum(len(p.levels) for _, p in packs), packs[0][1].levels[0].title)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(archive)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": str(archive), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    expected = bundled_packs("termcraft")
    count, levels, title = done.stdout.split(maxsplit=2)
    assert int(count) == len(expected)
    assert int(levels) == sum(len(p.levels) for _, p in expected)
    assert title.strip() == expected[0][1].levels[0].title
