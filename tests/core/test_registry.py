"""How games are found: first-party game folders, third-party entry points, broken ones."""

from __future__ import annotations

import re
import sys
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from core import registry
from core.registry import ENTRY_POINT_GROUP, FOLDER_GROUP, GameInfo

THIRD = GameInfo("thirdparty", "Third Party", "From its own package.", "x:GAME")
"""A game a third-party package lists under the ``termarcade.games`` entry point."""


@pytest.fixture
def found(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    """Discovery over a fake installation: the arcade's folder group, plus the entry points
    of two third-party packages (one good, one broken) and a folder group that is broken."""
    folders = tmp_path / "extra_games"
    (folders / "boxed").mkdir(parents=True)
    (folders / "__init__.py").write_text("", encoding="utf-8")
    (folders / "boxed" / "__init__.py").write_text(
        "from core.registry import GameInfo\n"
        "INFO = GameInfo('boxed', 'Boxed', 'A folder game.', 'x:GAME')\n",
        encoding="utf-8",
    )
    (folders / "helpers").mkdir()
    (folders / "helpers" / "__init__.py").write_text("VALUE = 1\n", encoding="utf-8")
    (folders / "broken").mkdir()
    (folders / "broken" / "__init__.py").write_text("raise RuntimeError('oops')\n", "utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    points = {
        FOLDER_GROUP: [
            EntryPoint("arcade", "tui.games", FOLDER_GROUP),
            EntryPoint("extra", "extra_games", FOLDER_GROUP),
            EntryPoint("gone", "no_such_games_package", FOLDER_GROUP),
        ],
        ENTRY_POINT_GROUP: [
            EntryPoint("thirdparty", f"{__name__}:THIRD", ENTRY_POINT_GROUP),
            EntryPoint("bad", f"{__name__}:NOT_THERE", ENTRY_POINT_GROUP),
            EntryPoint("odd", f"{__name__}:found", ENTRY_POINT_GROUP),
        ],
    }
    monkeypatch.setattr(registry, "entry_points", lambda group: points.get(group, []))
    registry.rediscover()
    yield
    monkeypatch.undo()
    registry.rediscover()
    for name in [name for name in sys.modules if name.startswith("extra_games")]:
        del sys.modules[name]


def test_folders_and_third_party_entry_points_are_both_found(found) -> None:
    ids = registry.ids()
    assert {"termcraft", "carving", "algebrawl", "longcat", "2048"} <= set(ids)
    assert "boxed" in ids and "thirdparty" in ids
    assert "helpers" not in ids  # a subpackage without INFO is not a game
    assert registry.get("thirdparty") is THIRD


def test_a_broken_folder_or_plug_in_is_reported_and_hides_no_other_game(found) -> None:
    problems = "\n".join(registry.problems())
    assert "extra_games.broken could not be loaded (RuntimeError: oops)" in problems
    assert "no_such_games_package could not be loaded (ModuleNotFoundError" in problems
    assert "NOT_THERE" in problems and "is not a GameInfo" in problems
    assert len(registry.problems()) == 4


def test_pinned_shows_exactly_the_games_given(found) -> None:
    with registry.pinned(THIRD):
        assert registry.ids() == ("thirdparty",)
        assert registry.get("termcraft") is None
    assert "termcraft" in registry.ids()


def test_help_defaults_to_the_page_beside_the_screen() -> None:
    info = GameInfo("g", "G", "t", "core.g.game:GAME", screen="tui.games.g.screen:GScreen")
    assert info.help_ref == "tui.games.g:help.md"
    assert GameInfo("g", "G", "t", "x:y", help="pkg:doc.md").help_ref == "pkg:doc.md"


SETUP_CALLS: list[str] = []
"""The calls of the test setup below, in order."""

GENERATORS_OF_SETUP = {"only": "a generator"}


def record_setup() -> None:
    """A game's setup: it must run before its generators are handed out."""
    SETUP_CALLS.append("setup")


def failing_setup() -> None:
    raise OSError("weights file unreadable")


def test_a_games_setup_runs_before_its_generators_are_loaded() -> None:
    SETUP_CALLS.clear()
    info = GameInfo(
        "g",
        "G",
        "t",
        "x:y",
        generators=f"{__name__}:GENERATORS_OF_SETUP",
        setup=f"{__name__}:record_setup",
    )
    assert SETUP_CALLS == []  # declaring a game runs nothing
    assert info.load("generators") is GENERATORS_OF_SETUP and SETUP_CALLS == ["setup"]
    info.load("generators")
    assert SETUP_CALLS == ["setup", "setup"]  # every load: a test may have undone it
    with pytest.raises(
        registry.RegistryError, match=re.escape("G's setup failed (OSError: weights")
    ):
        GameInfo(
            "g", "G", "t", "x:y", generators=info.generators, setup=f"{__name__}:failing_setup"
        ).load("generators")


def test_a_setup_reference_is_checked_like_the_others() -> None:
    with pytest.raises(ValueError, match="setup must be 'module:attr'"):
        GameInfo("g", "G", "t", "x:y", setup="no_colon")


def test_every_registration_names_its_cores_generators_mapping() -> None:
    """Uniform: the registry points at the mapping a game's core defines (no shell module
    wraps it); what core cannot do itself is the game's setup, run on loading."""
    from core.longcat import catalog
    from core.longcat.generate import install_policies

    with_generators = [info for info in registry.games() if info.generators is not None]
    assert {"longcat", "2048", "carving", "algebrawl"} <= {info.id for info in with_generators}
    for info in with_generators:
        module, _, attr = info.generators.partition(":")  # type: ignore[union-attr]
        assert module.startswith("core.") and attr == "GENERATORS", info.generators
    longcat = registry.get("longcat")
    assert longcat is not None and longcat.setup == "tui.games.longcat.weights:install"
    install_policies(None)  # as a fresh process: the learned generator has no weights
    try:
        with pytest.raises(Exception, match="no learned generator for 6x6"):
            catalog.GENERATORS["rl"].generate(3, size="6x6")
        loaded = longcat.load("generators")
        assert loaded is catalog.GENERATORS
        level = loaded["rl"].generate(3, size="6x6")
        assert (level.width, level.height) == (6, 6)
    finally:
        from tui.games.longcat.weights import install

        install()
