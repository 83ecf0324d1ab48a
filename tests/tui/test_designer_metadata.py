"""Edited levels never keep stale metadata (issue 30, item 3).

Saved (F3) or exported (F8) from a bench, a level whose par the live verdict contradicts, or
whose title carries a difficulty label the edit made wrong, is not written until the
designer answered the dialog that lists each stale field (old → new); and a My level never
takes a bundled level's exact title.
"""

from __future__ import annotations

import pytest
from textual.widgets import Checkbox, Input

from core.longcat.catalog import difficulty_label
from core.longcat.design import edit_grid
from core.longcat.difficulty import band, predict_difficulty
from grammar.levels import bundled_packs, load_pack_file
from tests.tui.helpers import open_level, wait_until
from tui.app import ArcadeApp
from tui.modals.export import ExportModal
from tui.screens.designer import DesignerScreen

pytestmark = pytest.mark.pilot

SIZE = (80, 24)


def bundled(game: str) -> dict[str, object]:
    return {lv.title: lv for _, pack in bundled_packs(game) for lv in pack.levels}


async def open_bench(pilot, game: str, level) -> DesignerScreen:
    await open_level(pilot, game, level)
    await pilot.press("E")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, DesignerScreen), "the bench")
    return pilot.app.screen


def stale_dialog(app):
    """The stale-metadata dialog when it is the screen, else None (main has none)."""
    screen = app.screen
    return screen if type(screen).__name__ == "StaleMetadataModal" else None


async def dialog_rows(pilot, bench, key: str) -> dict[str, tuple[object, object]]:
    """Press ``key`` (F3, F8), wait for the dialog; its rows as ``field: (old, new)``."""
    app = pilot.app
    before = len(app.store.my_levels(bench.info.id))
    await pilot.press(key)
    await wait_until(
        pilot,
        # Also stop at a write without a dialog (main saves at once): fail fast, saying so.
        lambda: app.screen is not bench or len(app.store.my_levels(bench.info.id)) > before,
        lambda: f"the stale-metadata dialog (the bench says {bench.error_text!r})",
    )
    dialog = stale_dialog(app)
    saved = [item.title for item in app.store.my_levels(bench.info.id)]
    assert dialog is not None, f"no dialog: the bench wrote at once (My levels: {saved})"
    return {u.field: (u.old, u.new) for u in dialog.updates}


async def type_into(pilot, bench, widget_id: str, text: str) -> None:
    field = bench.query_one(f"#{widget_id}", Input)
    field.focus()
    field.value = ""
    await pilot.pause()
    await pilot.press(*("space" if ch == " " else "asterisk" if ch == "*" else ch for ch in text))
    await pilot.pause()


async def test_algebrawl_par_the_verdict_contradicts_is_offered_and_never_kept_silently(
    tmp_path, monkeypatch
) -> None:
    """First Blood (par 2) edited to 14 from 2 3 4 with + and ×: the shortest solution is
    3 moves (3 × 4 = 12, 12 + 2 = 14, strike: two cards and the strike), so par 2 is stale."""
    monkeypatch.setenv("HOME", str(tmp_path))
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        bench = await open_bench(pilot, "algebrawl", bundled("algebrawl")["First Blood"])
        await type_into(pilot, bench, "alg-numbers", "2 3 4")
        await type_into(pilot, bench, "alg-monsters", "14")
        await type_into(pilot, bench, "alg-cards", "+ *")
        await wait_until(pilot, lambda: "par 3 moves" in bench.verdict_text, "verdict par 3")
        assert bench.query_one("#dev-par-input", Input).value == "2"
        # Save: the dialog lists par 2 -> 3 and the bundled title's rename.
        rows = await dialog_rows(pilot, bench, "f3")
        assert rows == {"par": (2, 3), "title": ("First Blood", "First Blood (edited)")}
        await pilot.press("escape")  # back: nothing is written
        await wait_until(pilot, lambda: app.screen is bench)
        assert app.store.my_levels("algebrawl") == []
        # Save again, update the ticked rows (both): the level and the fields get par 3.
        await dialog_rows(pilot, bench, "f3")
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.store.my_levels("algebrawl") != [])
        assert [item.title for item in app.store.my_levels("algebrawl")] == ["First Blood (edited)"]
        saved = bench.read_level()
        assert saved is not None and saved.par == 3 and saved.title == "First Blood (edited)"
        assert not bench.edited
        # The update is one undoable change: ctrl+z brings par 2 back.
        bench.query_one("#alg-numbers", Input).focus()
        await pilot.press("ctrl+z")
        await wait_until(pilot, lambda: bench.query_one("#dev-par-input", Input).value == "2")
        await wait_until(pilot, lambda: "par 3 moves" in bench.verdict_text)
        # Export, the designer unticks par: par 2 is written because the designer said so.
        rows = await dialog_rows(pilot, bench, "f8")
        assert rows == {"par": (2, 3)}  # a file may keep a bundled title
        app.screen.query_one("#stale-par", Checkbox).value = False
        await pilot.pause()
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ExportModal))
        app.screen.query_one("#export-path", Input).value = "kept.levels"
        await pilot.press("enter")
        await wait_until(pilot, (tmp_path / "kept.levels").exists)
        (written,) = load_pack_file(tmp_path / "kept.levels").levels
        assert written.par == 2 and written.title == "First Blood"  # the undone rename


async def test_longcat_title_label_follows_an_edit_that_makes_the_level_easy(
    tmp_path, monkeypatch
) -> None:
    """Arduboy 1 is titled "· trivial 0"; opening the wall above-left of the start (row 2,
    column 3) makes it easy: the title's label and the description's figure are offered."""
    monkeypatch.setenv("HOME", str(tmp_path))
    original = bundled("longcat")["Arduboy 1 · trivial 0"]
    edited = edit_grid(original, "empty", (2, 1))
    predicted = predict_difficulty(edited)
    assert band(predicted) == "easy"  # the edit's point, by core's own predictor
    label = difficulty_label(predicted)
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        bench = await open_bench(pilot, "longcat", original)
        bench.canvas.focus()
        await pilot.press("up", "up", "left", "full_stop")  # from the start (3, 3) to (2, 1)
        await wait_until(pilot, lambda: bench.read_level(quiet=True) == edited, "the edit")
        await wait_until(
            pilot,
            lambda: bench.assessment is not None and bench.assessment.level == edited,
            "the verdict of the edited level",
        )
        rows = await dialog_rows(pilot, bench, "f3")
        assert rows["title"] == ("Arduboy 1 · trivial 0", f"Arduboy 1 · {label}")
        old, new = rows["description"]
        assert "Predicted difficulty 0.0 (trivial)" in str(old)  # as the pack describes it
        assert f"Predicted difficulty {predicted:.1f} (easy)" in str(new)
        assert "par" not in rows  # the shortest solution is still the par (5 moves)
        await pilot.press("u")  # update all
        await wait_until(pilot, lambda: app.store.my_levels("longcat") != [])
        assert [item.title for item in app.store.my_levels("longcat")] == [f"Arduboy 1 · {label}"]
        assert f'level "Arduboy 1 · {label}"' in bench.text_area.text
        assert not bench.edited


async def test_carving_my_level_never_takes_a_bundled_title(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    title, level = next(iter(bundled("carving").items()))
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        bench = await open_bench(pilot, "carving", level)
        rows = await dialog_rows(pilot, bench, "f3")
        assert rows == {"title": (title, f"{title} (edited)")}
        await pilot.press("k")  # keep all: the rename is not optional
        await wait_until(pilot, lambda: app.store.my_levels("carving") != [])
        assert [item.title for item in app.store.my_levels("carving")] == [f"{title} (edited)"]
        assert f'level "{title} (edited)"' in bench.text_area.text


def test_longcat_updates_leave_nothing_stale_after_any_one_cell_edit() -> None:
    """Every one-cell edit of Arduboy 1 (brute force over its 64 cells): applying the offered
    updates leaves nothing stale, keeps the title's own part, and a par only where the
    shortest solution is known."""
    from dataclasses import replace

    from core.longcat.design import assess
    from tui.games.longcat.designer import derived_updates

    original = bundled("longcat")["Arduboy 1 · trivial 0"]
    seen = 0
    for y in range(original.height):
        for x in range(original.width):
            try:
                edited = edit_grid(original, "toggle", (x, y))
            except ValueError:
                continue  # the start cannot be a wall
            result = assess(edited)
            updates = derived_updates(edited, result)
            fixed = replace(edited, **{u.field: u.new for u in updates})
            assert derived_updates(fixed, assess(fixed)) == []
            assert fixed.title.startswith("Arduboy 1 · ")
            if result.difficulty is not None:
                assert fixed.title == f"Arduboy 1 · {difficulty_label(result.difficulty)}"
            if result.status == "unsolvable":
                assert fixed.par is None
            seen += 1
    assert seen == original.width * original.height - 1


async def test_termcraft_par_the_live_verdict_contradicts_is_offered(tmp_path, monkeypatch) -> None:
    """TermCraft's bench (issue 30 item 3): a par the live verdict's shortest plan disproves
    is offered for update before the level is written; updated, the level saves with it."""
    from core.termcraft import solve

    monkeypatch.setenv("HOME", str(tmp_path))
    title, level = next(iter(bundled("termcraft").items()))
    shortest = len(solve(level).plan)  # breadth-first: the shortest plan, independently
    wrong = shortest + 2
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        bench = await open_bench(pilot, "termcraft", level)
        bench.query_one("#dev-par-input", Input).value = str(wrong)
        await wait_until(
            pilot, lambda: f"par {wrong} is not the shortest" in bench.verdict_text, "verdict"
        )
        rows = await dialog_rows(pilot, bench, "f3")
        assert rows == {"par": (wrong, shortest), "title": (title, f"{title} (edited)")}
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.store.my_levels("termcraft") != [])
        saved = bench.read_level()
        assert saved is not None and saved.par == shortest and saved.title == f"{title} (edited)"
        assert bench.query_one("#dev-par-input", Input).value == str(shortest)


async def test_carving_par_the_verdict_disproves_is_offered(tmp_path, monkeypatch) -> None:
    """Carving's bench: a par the live verdict's proved shortest solution contradicts is
    offered before the level is written, with the title rule."""
    from core.carving.design import assess

    monkeypatch.setenv("HOME", str(tmp_path))
    title, level = next(iter(bundled("carving").items()))
    verdict = assess(level)
    assert verdict.status == "solved" and not verdict.reason  # proved shortest, independently
    wrong = verdict.steps + 2
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        bench = await open_bench(pilot, "carving", level)
        area = bench.text_area
        assert f"\n  par {level.par}\n" in area.text
        area.text = area.text.replace(f"\n  par {level.par}\n", f"\n  par {wrong}\n")
        await wait_until(
            pilot,
            lambda: (read := bench.read_level(quiet=True)) is not None and read.par == wrong,
            "the edit",
        )
        await wait_until(
            pilot, lambda: f"Solvable: shortest {verdict.steps} step" in bench.verdict_text
        )
        rows = await dialog_rows(pilot, bench, "f3")
        assert rows == {"par": (wrong, verdict.steps), "title": (title, f"{title} (edited)")}
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.store.my_levels("carving") != [])
        saved = bench.read_level()
        assert saved is not None and saved.par == verdict.steps
