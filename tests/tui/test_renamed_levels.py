"""A bundled level's new title never loses a player's work (issue 30, the Longcat retitling).

A bundled level's store key is its title; the Longcat packs retitled 53 levels when their
difficulty became one number. The packs ship the renames (``levels/longcat/renames.json``,
made by :mod:`levels.renames`), the sources find a level by its old title, and the store
moves the player's save, solved mark and results to the new title (both backends).
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.longcat import Level, apply_move, initial, shortest_solution
from grammar.levels import bundled_packs
from levels.renames import compose, derive
from tests.postgres_server import BACKENDS, select_backend
from tests.tui.helpers import open_level, wait_until
from tui.app import ArcadeApp
from tui.games.longcat.screen import LongcatScreen
from tui.games.longcat.settings_modal import SETTINGS_KEY, LongcatSettings
from tui.screens.level_select import ChoiceList, LevelSelectScreen
from tui.sources import LevelRef, PackSource, bundled_renames
from tui.store import Store
from tui.store import _store as store_module

PACKS = dict(bundled_packs("longcat"))
RENAMES = bundled_renames("longcat")
SOURCE = "pack:01-arduboy"
# Issue 30 item 2 names these: "Arduboy 2" was "easy 25" in its title (now "easy 28");
# Arduboy 3 was "trivial 10" on main (now "trivial 9").
OLD2, NEW2 = "Arduboy 2 · easy 25", "Arduboy 2 · easy 28"
OLD3, NEW3 = "Arduboy 3 · trivial 10", "Arduboy 3 · trivial 9"


# -- the record ---------------------------------------------------------------------------------


def test_the_record_maps_every_old_title_to_a_current_one_and_no_current_title_is_old() -> None:
    assert set(RENAMES) <= set(PACKS)
    for pack_id, renames in RENAMES.items():
        titles = {level.title for level in PACKS[pack_id].levels}
        assert renames and set(renames.values()) <= titles, pack_id
        assert not set(renames) & titles, pack_id
    # The retitling of this branch: 53 of the 142 bundled titles, the two the issue names.
    assert sum(len(renames) for renames in RENAMES.values()) == 53
    assert RENAMES["01-arduboy"][OLD2] == NEW2 and RENAMES["01-arduboy"][OLD3] == NEW3


def test_an_arduboy_rename_keeps_the_level_number() -> None:
    """Same pack, same position: "Arduboy N · ..." stays level N."""
    for old, new in RENAMES["01-arduboy"].items():
        assert old.split(" · ")[0] == new.split(" · ")[0]


def test_derive_finds_a_retitled_level_and_not_a_changed_one() -> None:
    a, b = Level.from_rows(["@.."], title="A 1"), Level.from_rows(["@.", ".."], title="B 1")
    retitled = Level.from_rows(["@.."], title="A 2", description="re-described")
    changed = Level.from_rows(["@.", "#."], title="B 2")
    assert derive([a, b], [retitled, changed]) == {"A 1": "A 2"}


def test_compose_follows_chains_and_drops_a_title_renamed_back() -> None:
    """A -> B then B -> C: both old titles find C. X -> Y then Y -> X: X is a title again
    (no longer an old one), and a save made under Y finds X."""
    record = {"p": {"A": "B", "X": "Y"}}
    found = {"p": {"B": "C", "Y": "X"}}
    assert compose(record, found, {"p": {"C", "X"}}) == {"p": {"A": "C", "B": "C", "Y": "X"}}


def test_a_pack_source_finds_a_level_by_its_old_title() -> None:
    source = PackSource(SOURCE, PACKS["01-arduboy"], renames=RENAMES["01-arduboy"])
    assert source.level(OLD3).title == NEW3
    assert source.after(OLD2) == LevelRef(SOURCE, NEW3)
    with pytest.raises(LookupError):
        PackSource(SOURCE, PACKS["01-arduboy"]).level(OLD3)


def test_an_old_title_still_has_the_level_id() -> None:
    from tui.ids import ref_id

    assert ref_id("longcat", LevelRef(SOURCE, OLD3)) == "longcat:arduboy/3"
    assert ref_id("longcat", LevelRef(SOURCE, NEW3)) == "longcat:arduboy/3"


# -- the store, on both backends ----------------------------------------------------------------


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    return select_backend(request, monkeypatch)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The store's clock, set by the test (which save is newer must not be a race)."""
    now = [1000.0]
    monkeypatch.setattr(store_module, "time", SimpleNamespace(time=lambda: now[0]))
    return now


def _slot(key: str) -> str:
    return LevelRef(SOURCE, key).slot


def test_the_rows_under_an_old_title_move_to_the_new_one_once(backend: str) -> None:
    with Store() as store, Store(user="bob") as bob:
        store.save_game("longcat", _slot(OLD3), {"moves": ["up"]}, {"status": "playing"})
        store.mark_solved("longcat", SOURCE, OLD2, 7)
        store.record_result("longcat", SOURCE, OLD2, moves=7, seconds=3.0)
        bob.record_result("longcat", SOURCE, OLD2, moves=9, seconds=5.0)
        bob.record_result("longcat", SOURCE, NEW2, moves=8, seconds=4.0)
        moved = store.follow_renames("longcat", {SOURCE: RENAMES["01-arduboy"]})
        assert moved == 1 + 1 + 2  # the save, the mark, both players' wins on OLD2
        assert store.load_game("longcat", _slot(NEW3)) == {"moves": ["up"]}
        assert store.load_game("longcat", _slot(OLD3)) is None
        assert store.solved_moves("longcat", SOURCE) == {NEW2: 7}
        board = store.level_board("longcat", SOURCE, NEW2)
        assert sorted(entry.moves or 0 for entry in board) == [7, 8]  # bob's best is 8
        assert store.level_board("longcat", SOURCE, OLD2) == []
        assert store.follow_renames("longcat", {SOURCE: RENAMES["01-arduboy"]}) == 0
        assert store.warnings == []


def test_a_solved_mark_merges_keeping_the_fewest_moves(backend: str) -> None:
    with Store() as store:
        store.mark_solved("longcat", SOURCE, OLD2, 7)
        store.mark_solved("longcat", SOURCE, NEW2, 9)
        store.mark_solved("longcat", SOURCE, OLD3, None)
        store.mark_solved("longcat", SOURCE, NEW3, 4)
        store.follow_renames("longcat", {SOURCE: {OLD2: NEW2, OLD3: NEW3}})
        assert store.solved_moves("longcat", SOURCE) == {NEW2: 7, NEW3: 4}


def test_when_both_titles_hold_a_save_the_newer_wins_and_the_older_stays(
    backend: str, clock: list[float]
) -> None:
    with Store() as store:
        playing = {"status": "playing", "title": NEW3}
        store.save_game("longcat", _slot(NEW3), {"n": "older"}, playing)
        clock[0] = 2000.0
        store.save_game("longcat", _slot(OLD3), {"n": "newer"}, {"status": "playing"})
        clock[0] = 1500.0  # a save under the new title older than the old title's
        store.save_game("longcat", _slot(NEW2), {"n": "older2"}, {"status": "playing"})
        store.save_game("longcat", _slot(OLD2), {"n": "oldest2"}, {"status": "playing"})
        clock[0] = 1600.0
        store.save_game("longcat", _slot(NEW2), {"n": "newer2"}, {"status": "playing"})
        renames = {SOURCE: {OLD2: NEW2, OLD3: NEW3}}
        assert store.follow_renames("longcat", renames) == 1
        assert store.load_game("longcat", _slot(NEW3)) == {"n": "newer"}
        assert store.load_game("longcat", _slot(OLD3)) == {"n": "older"}  # still reachable
        info = store.save_info("longcat", _slot(OLD3))  # listed in progress, told apart
        assert info is not None and info.summary == {**playing, "title": NEW3 + " (older save)"}
        assert store.load_game("longcat", _slot(NEW2)) == {"n": "newer2"}
        assert store.load_game("longcat", _slot(OLD2)) == {"n": "oldest2"}
        assert store.follow_renames("longcat", renames) == 0  # nothing is swapped back
        assert store.load_game("longcat", _slot(NEW3)) == {"n": "newer"}


def test_the_leaderboard_lists_old_results_under_the_new_title(backend: str) -> None:
    from core import registry
    from tui.screens.leaderboard import board_choices

    info = registry.get("longcat")
    assert info is not None
    with Store() as store:
        store.record_result("longcat", SOURCE, OLD2, moves=7, seconds=3.0)
        choice = next(c for c in board_choices(info, store) if c.key == NEW2)
        assert [e.moves for e in store.level_board("longcat", choice.source, choice.key)] == [7]
        assert (SOURCE, OLD2) not in store.boards("longcat")


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from([OLD2, NEW2, OLD3, NEW3]), st.integers(1, 5), st.booleans()),
        max_size=6,
    )
)
def test_no_save_or_mark_is_lost_and_the_newest_save_is_under_the_new_title(
    rows: list[tuple[str, int, bool]],
) -> None:
    """Any mix of saves (at distinct times) and marks under old and new titles: afterwards
    every save still exists, each new title holds the newest save of its pair, each new title's
    mark has the fewest moves of its pair, and a second run changes nothing."""
    pairs = {OLD2: NEW2, OLD3: NEW3}
    now = [0.0]
    with Store(":memory:") as store:
        real_time = store_module.time
        store_module.time = SimpleNamespace(time=lambda: now[0])  # type: ignore[assignment]
        try:
            for index, (title, moves, is_save) in enumerate(rows):
                now[0] = 1000.0 + index
                if is_save:
                    store.save_game("longcat", _slot(title), {"at": index})
                else:
                    store.mark_solved("longcat", SOURCE, title, moves)
        finally:
            store_module.time = real_time
        before = {_slot(t): store.load_game("longcat", _slot(t)) for t in [*pairs, *pairs.values()]}
        marks = store.solved_moves("longcat", SOURCE)
        store.follow_renames("longcat", {SOURCE: pairs})
        after = {slot: store.load_game("longcat", slot) for slot in before}
        saves = sorted(d["at"] for d in before.values() if d)
        assert sorted(d["at"] for d in after.values() if d) == saves  # nothing lost
        for old, new in pairs.items():
            both = [d["at"] for d in (before[_slot(old)], before[_slot(new)]) if d]
            newest = after[_slot(new)]
            assert (newest or {}).get("at") == (max(both) if both else None)
            got = store.solved_moves("longcat", SOURCE)
            counts = [marks[t] or 0 for t in (old, new) if t in marks]  # moves are 1..5
            assert old not in got and got.get(new) == (min(counts) if counts else None)
        assert store.follow_renames("longcat", {SOURCE: pairs}) == 0
        assert {slot: store.load_game("longcat", slot) for slot in before} == after


# -- the arcade ---------------------------------------------------------------------------------


def _rows(select: LevelSelectScreen) -> list[str]:
    levels = select.query_one("#levels", ChoiceList)
    return [str(levels.get_option_at_index(i).prompt) for i in range(levels.option_count)]


async def test_old_progress_shows_under_the_new_titles_and_the_game_resumes() -> None:
    """A store written under the old titles (a save on Arduboy 3, Arduboy 2 solved and on the
    board): the level select marks them under the new titles and the game resumes."""
    level3 = PACKS["01-arduboy"].levels[2]
    assert level3.title == NEW3
    first = shortest_solution(level3).moves[0]
    played = apply_move(initial(level3), first)
    app = ArcadeApp()
    async with app.run_test(size=(100, 30)) as pilot:  # the arcade before the retitling
        app.store.set_setting(SETTINGS_KEY, LongcatSettings(animate=False).to_dict())
        screen = await open_level(pilot, "longcat", level3, ref=LevelRef(SOURCE, OLD3))
        await pilot.press(first)
        await wait_until(pilot, lambda: screen.state == played, "the move")
        app.store.mark_solved("longcat", SOURCE, OLD2, 7)
        app.store.record_result("longcat", SOURCE, OLD2, moves=7, seconds=3.0)
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.store.load_game("longcat", _slot(OLD3)), "saved")
    app = ArcadeApp()  # restarted after the retitling
    async with app.run_test(size=(100, 30)) as pilot:
        assert app.start_game("longcat")
        await wait_until(pilot, lambda: isinstance(app.screen, LongcatScreen), "resumed")
        resumed = app.screen
        assert isinstance(resumed, LongcatScreen)
        assert resumed.ref == LevelRef(SOURCE, NEW3) and resumed.state == played
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, LevelSelectScreen), "the list")
        select = app.screen
        assert isinstance(select, LevelSelectScreen)
        arduboy = [source.id for source in select._sources].index(SOURCE)
        select._select_source(arduboy)
        rows = _rows(select)
        assert rows[1].startswith("✓  2. " + NEW2) and "best 7 moves" in rows[1], rows[1]
        assert NEW3 in rows[2] and "in progress, 1 move" in rows[2], rows[2]
        assert [e.moves for e in app.store.level_board("longcat", SOURCE, NEW2)] == [7]
