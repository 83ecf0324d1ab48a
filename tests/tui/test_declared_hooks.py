"""Declared hooks: everything the shell reads of a game's screen, level or registration is
declared with a default, and nothing under tui/ probes for it with getattr / hasattr."""

from __future__ import annotations

import ast
import dataclasses
import pathlib

import pytest
from textual.screen import ModalScreen, Screen

from core import registry
from core.levelmeta import LevelMeta
from core.registry import GameInfo
from tui.screens.common import ScreenHooks
from tui.screens.designer import DesignerScreen
from tui.screens.puzzle import PuzzleScreen, Score
from tui.sources import LevelGenerator

ROOT = pathlib.Path(__file__).resolve().parents[2]

# What the launcher, the level list, the palette and the app read of a game screen.
SCREEN_HOOKS = (
    "generator_params",
    "settings_dialog",
    "action_settings",
    "HAS_SETTINGS",
    "START_NEW",
    "MOVE_WORD",
    "RESULT_WORD",
    "NUMBER_WORD",
    "NUMBERED_MOVES",
    "HINT_TIME_LIMIT",
    "compose_board",
    "render_state",
    "compute_hint",
    "highlight_move",
    "show_hint",
    "record_win",
    "prepare_position",
    "show_position",
    "after_mount",
    "score",
    "best_score",
    "record_progress",
    "level_title",
    "par",
    "level_id",
    "game_id",
    "help_topic",
    "on_level_changed",
    "loss_reason",
    "outcome_detail",
)


def _own_names(*classes: type) -> set[str]:
    """Public names the classes (and their bases up to Textual's) declare."""
    names: set[str] = set()
    textual = set(Screen.__mro__) | set(ModalScreen.__mro__)
    for cls in classes:
        for klass in cls.__mro__:
            if klass not in textual:
                names |= {name for name in vars(klass) if not name.startswith("_")}
    return names


def hook_names() -> set[str]:
    """Every name the shell reads of a screen, a level, a generator or a registration."""
    names = _own_names(PuzzleScreen, ScreenHooks, DesignerScreen)
    names |= {"title", "par", "hint", "description", "author"}  # LevelMeta
    names |= {"title", "description", "generate"}  # LevelGenerator
    names |= {field.name for field in dataclasses.fields(GameInfo)}
    names |= {"GAME_ID", "HELP_TOPIC", "GAME"}  # the old per-screen ids: never again
    # Textual's Binding.id is read by tui/keys.py on bindings that may be plain tuples; it
    # is not GameInfo.id.
    names.discard("id")
    return names


def test_every_hook_is_declared_on_the_base() -> None:
    for name in SCREEN_HOOKS:
        assert hasattr(PuzzleScreen, name), name
    for name in ("help_topic", "game_id", "level_id"):
        assert hasattr(ScreenHooks, name) and hasattr(DesignerScreen, name), name
    assert {"title", "par", "hint", "description", "author"} <= set(dir(LevelMeta))
    assert {"title", "description", "generate"} <= set(dir(LevelGenerator))


def _probes(path: pathlib.Path, names: set[str]) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr")
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and (node.args[1].value in names or node.args[1].value == "__func__")
        ):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.args[1].value}")
    return found


def test_no_module_under_tui_probes_for_a_hook() -> None:
    names = hook_names()
    found = [hit for path in sorted((ROOT / "tui").rglob("*.py")) for hit in _probes(path, names)]
    assert found == []


def test_the_scan_finds_a_probe() -> None:
    # The scan itself can fail: a probe written the old way is found.
    sample = ROOT / "tests" / "tui" / "_probe_sample.py"
    sample.write_text('x = getattr(screen, "GAME_ID", None) or getattr(level, "par", None)\n')
    try:
        assert [hit.rsplit(": ", 1)[1] for hit in _probes(sample, hook_names())] == [
            "GAME_ID",
            "par",
        ]
    finally:
        sample.unlink()


@pytest.mark.parametrize("info", registry.games(), ids=lambda info: info.id)
def test_game_screens_take_their_ids_from_their_registration(info: GameInfo) -> None:
    if info.screen is None:
        pytest.skip("not playable")
    screen_class = info.load("screen")
    assert issubclass(screen_class, PuzzleScreen)
    assert not hasattr(screen_class, "GAME_ID")
    # The help page is the game's (ScreenHooks.help_topic); no screen names it again.
    assert all(
        "HELP_TOPIC" not in vars(klass)
        for klass in screen_class.__mro__[:-1]
        if issubclass(klass, PuzzleScreen)
    )
    # HAS_SETTINGS says whether the game has its own settings dialog.
    own_dialog = screen_class.settings_dialog.__func__ is not PuzzleScreen.settings_dialog.__func__
    assert own_dialog == screen_class.HAS_SETTINGS
    if info.editor is not None:
        editor = info.load("editor")
        assert issubclass(editor, DesignerScreen) and not hasattr(editor, "GAME")
        assert "HELP_TOPIC" not in vars(editor)


def test_a_screen_knows_its_game_from_its_registration() -> None:
    info = registry.get("longcat")
    assert info is not None
    screen = info.load("screen")(None, info=info)
    assert screen.info is info and screen.game_id == "longcat" == screen.help_topic
    assert screen.level_title == "" and screen.par is None and screen.level_id is None
    # The launcher's registration, else the one given: never guessed from the class.
    with pytest.raises(TypeError, match="LongcatScreen needs its registration: pass info="):
        info.load("screen")(None)


def test_the_base_records_the_score_the_game_declares() -> None:
    # Games without points record nothing; 2048 scores by points, one board per size and rule.
    assert PuzzleScreen.score(None, None) is None  # type: ignore[arg-type]
    from core.game2048.game import GAME
    from core.game2048.level import Level, make_config
    from core.session import Session

    info = registry.get("2048")
    assert info is not None
    session = Session.begin(GAME, GAME.initial(Level("T", make_config(size=3, seed=1))))
    screen = info.load("screen")(session, info=info)
    moved = next(s for m in ("left", "right", "up", "down") if (s := _try(session, m)))
    score = screen.score(moved)
    assert score == Score("3x3-standard", moved.state.score, 1)


def _try(session, move):
    """``session`` after ``move``, or None when the move is illegal."""
    from core.game import IllegalMove

    try:
        return session.play(move)
    except IllegalMove:
        return None
