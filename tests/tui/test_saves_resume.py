"""Pilot tests of resuming through the one save codec (core.saves): the app restarted resumes
at the checkpoint without replaying, undo works; old saves migrate; a save this version cannot
resume is reported and kept, never replaced by a new game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from core.game2048.game import Game2048
from core.saves import CHECKPOINT_EVERY, SAVE_VERSION
from tests.tui.helpers import start_2048
from tests.tui.test_2048_screen import still
from tui.app import ArcadeApp
from tui.ids import resolve_id
from tui.screens.level_select import LevelSelectScreen
from tui.sources import LevelRef
from tui.store import Store

pytestmark = pytest.mark.pilot

DATA = Path(__file__).resolve().parents[1] / "data" / "saves"
SLOT = LevelRef("gen:new?rule=standard&size=4", "5").slot
"""A generated 2048 level's slot (listed in progress, so opening 2048 resumes it)."""


@pytest.fixture
def applied(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts every 2048 move the engine plays (a resume that replays would show here)."""
    calls = [0]
    real = Game2048.apply

    def counting(self: Game2048, state: Any, direction: str) -> Any:
        calls[0] += 1
        return real(self, state, direction)

    monkeypatch.setattr(Game2048, "apply", counting)
    return calls


def messages(app: ArcadeApp) -> list[str]:
    return [str(n.message) for n in app._notifications]


@pytest.mark.slow
async def test_a_restarted_app_resumes_at_the_checkpoint_and_undo_replays_once(
    applied: list[int],
) -> None:
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        still(app)
        screen = await start_2048(pilot)
        for key in ["left", "up", "right", "down"] * 20:
            await pilot.press(key)
        await pilot.press("u", "u")  # a redo branch of two moves
        history = [step.state for step in screen.session.history.states]
        index, played, slot = screen.session.history.index, screen.state, screen.ref.slot
        saved = app.store.load_game("2048", slot)
        assert saved is not None and saved["version"] == SAVE_VERSION
        at = saved["checkpoint"]["index"]  # a move's save keeps a recent checkpoint
        assert index >= CHECKPOINT_EVERY and 0 <= index - at < CHECKPOINT_EVERY
        assert saved["checkpoint"]["state"] == screen.game.state_to_json(history[at])
        await pilot.press("escape")  # leaving the level checkpoints the current state
        await pilot.pause()
        saved = app.store.load_game("2048", slot)
        assert saved is not None and saved["checkpoint"]["index"] == index
    app2 = ArcadeApp()  # the app restarted
    async with app2.run_test(size=(80, 24)) as pilot:
        still(app2)
        applied[0] = 0
        resumed = await start_2048(pilot)  # resumes the newest game in progress
        assert resumed.state == played
        assert applied[0] == 0  # nothing replayed to show the game
        assert resumed.session.history.index == index
        await pilot.press("u")  # the first undo rebuilds the earlier states, once
        assert resumed.state == history[index - 1]
        assert applied[0] == index  # the replay from the start, checked against the checkpoint
        for _ in range(index - 1):
            await pilot.press("u")
        assert resumed.state == history[0] and applied[0] == index
        for _ in range(len(history) - 1):  # redo all the way, the old redo branch included
            await pilot.press("U")
        assert resumed.state == history[-1]


async def test_a_game_quit_without_leaving_replays_only_the_moves_after_its_checkpoint(
    applied: list[int],
) -> None:
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        still(app)
        screen = await start_2048(pilot)
        for key in ["left", "up", "right", "down"] * 12:
            await pilot.press(key)
        played, index = screen.state, screen.session.history.index
        at = app.store.load_game("2048", screen.ref.slot)["checkpoint"]["index"]
    app2 = ArcadeApp()  # quit from inside the level (no leave): the last move's save stands
    async with app2.run_test(size=(80, 24)) as pilot:
        still(app2)
        applied[0] = 0
        app2.start_game("2048")
        await pilot.pause()
        assert app2.screen.state == played
        assert applied[0] == index - at < CHECKPOINT_EVERY


async def _open_2048_with(data: Any) -> tuple[ArcadeApp, Any]:
    """Put ``data`` in a generated level's slot (listed in progress) and open 2048."""
    with Store() as store:
        store.save_game("2048", SLOT, data, summary={"title": "seed 5", "status": "playing"})
    app = ArcadeApp()
    return app, data


@pytest.mark.parametrize(
    "data, why",
    [
        ({"version": SAVE_VERSION + 1, "level": None, "session": {}}, "newer termarcade"),
        ({"version": 2, "level": None, "session": "damaged"}, "moves are missing"),
        ({"config": {}, "moves": "LR"}, "no format version"),
    ],
)
async def test_a_save_this_version_cannot_resume_is_reported_and_kept(data: Any, why: str) -> None:
    """Regression: the launcher read any version but 2 as "no save" and started a new game,
    whose first move overwrote the saved one."""
    app, data = await _open_2048_with(data)
    async with app.run_test(size=(80, 24)) as pilot:
        still(app)
        app.start_game("2048")
        await pilot.pause()
        assert isinstance(app.screen, LevelSelectScreen)  # no new game over it
        reported = [m for m in messages(app) if "cannot be resumed" in m]
        assert reported and why in reported[0] and "kept" in reported[0]
        assert app.store.load_game("2048", SLOT) == data


async def test_a_save_the_store_cannot_parse_is_reported_and_set_aside(data_dir: Path) -> None:
    """A save whose data is not JSON is moved whole to the damaged_rows table and the player
    is told where (issue 28: a bad row is reported and set aside, every other row stays
    usable); the level then opens as a new game, and the damaged data is still there."""
    with Store() as store:
        store.save_game("2048", SLOT, {"version": 3}, summary={"status": "playing"})
    import sqlite3

    with sqlite3.connect(data_dir / "termarcade.sqlite3") as db:
        db.execute("UPDATE saves SET data = '{not json' WHERE slot = ?", (SLOT,))
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_game("2048")
        await pilot.pause()
        told = [m for m in messages(app) if "is unreadable" in m]
        assert told and "set aside in the damaged_rows table" in told[0] and SLOT in told[0]
    with sqlite3.connect(data_dir / "termarcade.sqlite3") as db:
        kept = db.execute(
            "SELECT content FROM damaged_rows WHERE source = 'saves' AND row_key LIKE ?",
            (f"%{SLOT}",),
        ).fetchall()
    assert len(kept) == 1 and '"data": "{not json"' in kept[0][0]


async def test_a_format_1_save_moves_to_its_level_and_resumes() -> None:
    """The first 2048 screen kept one save in the slot "current" (genuine data, see
    tests/data/saves); it is now a game in progress of its generated level."""
    case = json.loads((DATA / "v1-2048.json").read_text(encoding="utf-8"))
    with Store() as store:
        store.save_game("2048", "current", case["save"])
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        still(app)
        screen = await start_2048(pilot)
        assert [list(row) for row in screen.state.board] == case["expect"]["board"]
        assert screen.state.score == case["expect"]["score"]
        assert screen.ref == LevelRef("gen:new?rule=standard&size=4", "7")
        # the slot a new game of that seed gets (its ID's ref): one slot per level, not two
        assert screen.ref == resolve_id("2048:new#7").ref
        assert app.store.load_game("2048", "current") is None
        saved = app.store.load_game("2048", screen.ref.slot)
        assert saved is not None and saved["version"] == SAVE_VERSION
        await pilot.press("u")
        assert screen.session.moves_made == case["expect"]["moves"] - 1


def test_a_termcraft_format_1_save_moves_to_its_pack_level_once() -> None:
    from core.saves import V1_SLOT, decode_save
    from tui.legacy_saves import adopt_v1_save

    case = json.loads((DATA / "v1-termcraft.json").read_text(encoding="utf-8"))
    title = case["save"]["level"]["title"]
    with Store() as store:
        store.save_game("termcraft", V1_SLOT, case["save"])
        ref = adopt_v1_save(store, "termcraft")
        assert ref == LevelRef("pack:01-basics", title)  # a pack level's key is its title
        assert store.load_game("termcraft", V1_SLOT) is None
        moved = store.load_game("termcraft", ref.slot)
        saved = decode_save(moved, "termcraft")
        assert saved.version == SAVE_VERSION and len(saved.moves) == case["expect"]["moves"]
        info = store.save_info("termcraft", ref.slot)
        assert info is not None and info.summary["title"] == title
        assert adopt_v1_save(store, "termcraft") is None  # nothing left to move


def test_a_format_1_save_never_overwrites_a_newer_game_of_its_level() -> None:
    from core.saves import V1_SLOT
    from tui.legacy_saves import adopt_v1_save

    case = json.loads((DATA / "v1-2048.json").read_text(encoding="utf-8"))
    target = LevelRef("gen:new?rule=standard&size=4", "7").slot
    newer = {"version": SAVE_VERSION, "level": None, "session": {"moves": [], "index": 0}}
    with Store() as store:
        store.save_game("2048", target, newer)
        store.save_game("2048", V1_SLOT, case["save"])
        assert adopt_v1_save(store, "2048") is None
        assert store.load_game("2048", target) == newer
        assert store.load_game("2048", V1_SLOT) == case["save"]  # kept where it was
