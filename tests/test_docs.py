"""The front page's two commands, CI, and the documentation site.

README.md opens with the two set-up commands; `.ci/run` must run the second one verbatim, and
each must install into its own virtual environment (never into whatever ``python`` is). The
mkdocs site under docs/ must build with ``mkdocs build --strict`` (no broken link, no page
left out of the nav) whenever mkdocs is installed (the ``docs`` extra); otherwise that test
skips.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _first_commands(page: str) -> list[str]:
    """The lines of ``page``'s first ``sh`` code block."""
    text = (ROOT / page).read_text(encoding="utf-8")
    match = re.search(r"```sh\n(.*?)\n```", text, re.S)
    assert match, f"{page} has no sh code block"
    return match.group(1).splitlines()


def _readme_commands() -> list[str]:
    """README.md's first ``sh`` code block: the two set-up commands."""
    return _first_commands("README.md")


def test_readme_opens_with_exactly_two_commands() -> None:
    commands = _readme_commands()
    assert len(commands) == 2, commands


def test_the_docs_home_page_shows_the_same_two_commands() -> None:
    assert _first_commands("docs/index.md") == _readme_commands()


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    test_command = _readme_commands()[1]
    ci_lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert test_command in ci_lines, f".ci/run lacks the line {test_command!r}"


def test_each_command_installs_into_its_own_virtual_environment() -> None:
    """Issue 17 item 5: neither command may pip install into a shared interpreter."""
    play, test = _readme_commands()
    for command, venv in ((play, "~/.termarcade"), (test, ".venv")):
        assert command.startswith(f"python3 -m venv {venv} && "), command
        # Every pip and python after the venv is created is the venv's own.
        for word in re.findall(r"(\S*(?:pip|python)\S*) ", command.split(" && ", 1)[1]):
            assert word.startswith(f"{venv}/bin/"), (command, word)
    assert ".venv/" in (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()


def test_readme_links_point_at_files_that_exist() -> None:
    """The front page links into docs/; a moved or renamed page must not leave it dangling."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
    local = [t for t in targets if "://" not in t]
    assert local, "README.md links to no local file"
    missing = [t for t in local if not (ROOT / t).exists()]
    assert missing == []


@pytest.mark.slow
def test_mkdocs_build_strict(tmp_path: Path) -> None:
    if importlib.util.find_spec("mkdocs") is None:
        pytest.skip("mkdocs is not installed (pip install -e '.[docs]')")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "--site-dir",
            str(tmp_path / "site"),
            "--config-file",
            str(ROOT / "mkdocs.yml"),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert result.returncode == 0, result.stderr[-4000:]
    assert (tmp_path / "site" / "index.html").exists()
    # the key reference is generated into docs/keys.md at build time (docs/hooks.py)
    keys_page = (tmp_path / "site" / "keys" / "index.html").read_text(encoding="utf-8")
    assert "binding-reference" not in keys_page
    assert "<code>longcat.up</code>" in keys_page and "<code>puzzle.undo</code>" in keys_page


def test_every_game_has_a_page_with_its_generated_screenshot() -> None:
    """docs/<id>.md per registered game, in the nav, showing images/<id>.svg made by the app."""
    from core import registry
    from docs import screenshots

    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for info in registry.games():
        page = ROOT / "docs" / f"{info.id}.md"
        assert page.exists(), f"no docs page for {info.id}"
        assert f" {info.id}.md" in nav, f"docs/{info.id}.md is not in mkdocs.yml's nav"
        assert f"](images/{info.id}.svg)" in page.read_text(encoding="utf-8")
        assert info.id in screenshots.SHOTS, f"docs/screenshots.py does not picture {info.id}"
    for name in screenshots.SHOTS:
        svg = ROOT / "docs" / "images" / f"{name}.svg"
        assert svg.read_text(encoding="utf-8").startswith("<svg"), f"regenerate {svg.name}"


def test_cli_reference_resolves_every_command_of_the_real_group() -> None:
    """mkdocs-click walks tui.cli.reference:termarcade; the lazy group alone shows only `play`."""
    import click

    from tui.cli import main
    from tui.cli.reference import full_group

    group = full_group()
    expected = main.list_commands(click.Context(main))
    assert list(group.commands) == expected
    assert {"parse", "keymap", "serve", "termcraft", "2048"} <= set(expected)
    # The game groups arrive with their own sub-commands, e.g. TermCraft's solver and linter.
    termcraft = group.commands["termcraft"]
    assert isinstance(termcraft, click.Group)
    assert {"solve", "lint"} <= set(termcraft.commands)
    assert [p.name for p in group.params] == [p.name for p in main.params]


def test_cli_reference_refuses_a_command_that_cannot_be_imported() -> None:
    """A broken game CLI must fail the docs build, not document an "unavailable" stand-in."""
    from core import registry
    from core.registry import GameInfo
    from tui.cli import main
    from tui.cli.reference import CommandImportError, full_group

    broken = GameInfo("zz_docs_broken", "Zz", "t", "x:GAME", cli="no_such_module_xyz:cli")
    try:
        with registry.register(broken), pytest.raises(CommandImportError, match="zz_docs_broken"):
            full_group()
    finally:
        # The real group caches what it resolved; the stand-in must not outlive the test.
        main.commands.pop("zz_docs_broken", None)


@pytest.mark.pilot
async def test_the_screenshot_script_pictures_a_game_screen(tmp_path: Path) -> None:
    """docs/screenshots.py drives the real app: the 2048 shot shows the 2048 screen, 80 wide."""
    from docs import screenshots

    svg = (await screenshots.take("2048", screenshots.SHOTS["2048"], out=tmp_path)).read_text()
    assert svg.startswith("<svg")
    text = svg.replace("&#160;", " ")  # Rich writes spaces in the SVG as no-break entities
    assert "2048: 4×4 standard" in text  # the 2048 screen's header, not the home screen
    assert "Score" in text and "Undo" in text
