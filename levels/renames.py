"""Regenerate a game's record of renamed bundled levels (``levels/<game>/renames.json``).

A bundled level's key in the store is its title, so a pack that retitles a level ships a
record of the rename: ``{pack_id: {old_title: new_title}}``. The arcade finds the level by
its old title and moves the player's rows to the new one (:mod:`tui.store._renames`).

The record is derived, never typed: a level is renamed when the pack at an earlier revision
has, at the same position, the same level (everything but its title and description) under
another title. Renames accumulate: an old record is kept, and an entry whose new title was
itself renamed since is pointed at the latest title (``A -> B`` then ``B -> C`` gives
``A -> C`` and ``B -> C``)::

    python -m levels.renames longcat --since main      # rewrites levels/longcat/renames.json

Needs git and the grammar (a developer's tool; the arcade reads only the JSON).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

__all__ = ["RENAMES_FILE", "compose", "derive", "main"]

RENAMES_FILE = "renames.json"
"""The record's file name in ``levels/<game>/``."""

Record = dict[str, dict[str, str]]
"""``{pack_id: {old_title: new_title}}``."""


def _body(level: Any) -> Any:
    """A level without the words a re-description may change (title, description)."""
    if dataclasses.is_dataclass(level) and not isinstance(level, type):
        return dataclasses.replace(level, title="", description="")
    return level


def derive(old_levels: list[Any], new_levels: list[Any]) -> dict[str, str]:
    """The renames between two versions of one pack.

    Args:
        old_levels: The pack's levels at the earlier revision.
        new_levels: Its levels now.

    Returns:
        ``{old_title: new_title}`` for each position holding the same level under another
        title (a changed level is a new level, not a rename).
    """
    return {
        old.title: new.title
        for old, new in zip(old_levels, new_levels, strict=False)
        if old.title != new.title and _body(old) == _body(new)
    }


def compose(record: Record, found: Record, current: dict[str, set[str]]) -> Record:
    """Merge newly found renames into an existing record, following chains.

    Args:
        record: The record so far.
        found: The renames found now.
        current: Each pack's current titles.

    Returns:
        The new record: every old title maps to a current title; a title in use now is
        never an old one (a level renamed back is no longer renamed).
    """
    merged: Record = {}
    for pack in sorted(set(record) | set(found)):
        step = {**record.get(pack, {}), **found.get(pack, {})}
        titles = current.get(pack, set())
        out: dict[str, str] = {}
        for old, new in step.items():
            seen = {old}
            while new in step and new not in titles and new not in seen:
                seen.add(new)
                new = step[new]
            if old not in titles and new in titles:
                out[old] = new
        if out:
            merged[pack] = dict(sorted(out.items()))
    return merged


def _git_show(root: Path, revision: str, path: str) -> str | None:
    """A file's text at a revision (None when it did not exist there)."""
    shown = subprocess.run(
        ["git", "-C", str(root), "show", f"{revision}:{path}"],
        capture_output=True,
        text=True,
        check=False,
    )
    return shown.stdout if shown.returncode == 0 else None


def main(argv: list[str] | None = None) -> int:
    """Rewrite ``levels/<game>/renames.json`` from the packs at ``--since`` and now.

    Returns:
        The exit status (0; 2 for a game without packs).
    """
    from grammar.levels import load_pack

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--since", default="main", help="the git revision to compare with")
    args = parser.parse_args(argv)
    root = Path(__file__).resolve().parents[1]
    folder = root / "levels" / args.game
    if not folder.is_dir():
        print(f"no bundled packs for {args.game!r}", file=sys.stderr)
        return 2
    found: Record = {}
    current: dict[str, set[str]] = {}
    for path in sorted(folder.glob("*.levels")):
        new = load_pack(path.read_text(encoding="utf-8"), filename=str(path), game=args.game)
        current[path.stem] = {level.title for level in new.levels}
        old_text = _git_show(root, args.since, f"levels/{args.game}/{path.name}")
        if old_text is not None:
            old = load_pack(old_text, filename=f"{args.since}:{path.name}", game=args.game)
            found[path.stem] = derive(list(old.levels), list(new.levels))
    target = folder / RENAMES_FILE
    record = json.loads(target.read_text(encoding="utf-8")) if target.is_file() else {}
    merged = compose(record, found, current)
    target.write_text(json.dumps(merged, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    count = sum(len(pack) for pack in merged.values())
    print(f"{target.relative_to(root)}: {count} renamed levels")
    return 0


if __name__ == "__main__":
    sys.exit(main())
