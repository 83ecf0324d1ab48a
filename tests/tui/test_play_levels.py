"""Where ``N``, a Game ID and the editor's round trip take a puzzle screen
(tui.screens.play.levels), without an app: the toy game's real launcher over its level file
(two levels: "Slide", row ``1.23``, then "Far", row ``.123``) and a real store."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from core import registry
from core.session import Session
from grammar.levels import load_pack_file
from tests.toycore.engine import GAME as TOY
from tests.toycore.engine import Level
from tests.toygame import INFO
from tui.ids import level_id as id_of
from tui.ids import resolve_id
from tui.launch import Launcher
from tui.screens.designer import Edited
from tui.screens.play.levels import LevelNav, Opening, level_id, mine_id, now_playing
from tui.screens.play.records import LevelRecords
from tui.sources import LevelRef, SourceId, level_to_text
from tui.store import Store

LEVELS = Path(__file__).resolve().parents[1] / "toygame" / "levels.levels"
FILE = SourceId.of_file(str(LEVELS))
SLIDE, FAR = LevelRef(FILE, "Slide"), LevelRef(FILE, "Far")

GAME: Any = TOY  # the toy engine (typed looser than core.game.Game: status is str)


@pytest.fixture
def launcher(store: Store) -> Iterator[Launcher]:
    app: Any = SimpleNamespace(store=store, notify=lambda *args, **kwargs: None)
    with registry.register(INFO):
        yield Launcher(app, INFO, (str(LEVELS), load_pack_file(LEVELS)))


def played(opening: Opening | None) -> tuple[str, str, int]:
    """The level, the row shown and the moves made of what an opening plays."""
    assert opening is not None and opening.session is not None and opening.ref is not None
    return opening.ref.key, opening.session.state.row, opening.session.moves_made


def test_next_level_goes_through_the_pack_and_stops_after_its_last(launcher: Launcher) -> None:
    nav = LevelNav(launcher)
    assert nav.has_next(SLIDE) and nav.after_win_keys(SLIDE) == "N: next level · esc: levels"
    opening = nav.next_level(SLIDE, touched=False)
    assert played(opening) == ("Far", ".123", 0)
    assert opening.text == "Now playing Far." and opening.save_current
    assert not nav.has_next(FAR) and nav.after_win_keys(FAR) == "esc: levels"
    assert nav.next_level(FAR, touched=True) == Opening("That was the last level of this pack.")


def test_without_a_launcher_or_a_slot_there_is_no_next_level(launcher: Launcher) -> None:
    nowhere = Opening("There is no next level here.")
    assert LevelNav(None).next_level(SLIDE, touched=True) == nowhere
    assert LevelNav(launcher).next_level(None, touched=True) == nowhere  # a preview
    assert not LevelNav(None).has_next(SLIDE) and not LevelNav(launcher).has_next(None)
    assert LevelNav(None).resolved(SLIDE, object(), True) is None  # type: ignore[arg-type]
    assert LevelNav(None).edited(SLIDE, Edited(SLIDE, None, play=True)) is None


def test_the_next_level_resumes_its_saved_game_and_says_both(
    launcher: Launcher, store: Store
) -> None:
    far = launcher.sources.level(FAR)
    records = LevelRecords("toy", lambda: store, FAR, far)
    session = Session.begin(GAME, GAME.initial(far)).play("left")
    records.save(records.save_data(session, records.level_text(), True), {"title": "Far"})
    opening = LevelNav(launcher).next_level(SLIDE, touched=True)
    assert played(opening) == ("Far", "1.23", 1)
    assert opening.text == (
        "Resumed your game (1 move). Now playing Far. Your game of the previous level is saved."
    )


def test_a_level_opened_by_its_id_is_played_unless_it_is_this_one(launcher: Launcher) -> None:
    wanted = resolve_id(id_of("toy", None, Level("Other", "21.")))
    nav = LevelNav(launcher)
    opening = nav.resolved(SLIDE, wanted, touched=False)
    assert played(opening)[1:] == ("21.", 0) and opening is not None
    assert opening.text == "Now playing Other."
    again = nav.resolved(opening.ref, wanted, touched=True)
    assert again == Opening(f"You are playing {wanted.id} already.")


def test_the_editor_round_trip_keeps_the_position_when_only_the_title_changed(
    launcher: Launcher, store: Store
) -> None:
    """The editor replaced the level being played (My levels' own) with a new title only:
    the screen plays the edited level with the game its slot keeps, and does not write the
    game it leaves back over that slot."""
    slide = Level("Slide", "1.23", par=2)
    mine = store.add_my_level("toy", "Slide", level_to_text("toy", slide))
    assert mine is not None
    ref = LevelRef("mine", str(mine.id))
    records = LevelRecords("toy", lambda: store, ref, slide)
    session = Session.begin(GAME, GAME.initial(slide)).play("left")
    records.save(records.save_data(session, records.level_text(), True), {"title": "Slide"})
    renamed = Level("Slide again", "1.23", par=2)
    store.replace_my_level("toy", mine.id, renamed.title, level_to_text("toy", renamed))
    nav = LevelNav(launcher)
    opening = nav.edited(ref, Edited(ref, renamed, play=False))
    assert played(opening) == (str(mine.id), "12.3", 1)  # the position is kept
    assert opening is not None and opening.level is renamed and not opening.save_current
    assert opening.text == "Playing the edited level “Slide again”."


def test_the_editor_closing_without_play_on_another_level_changes_nothing(
    launcher: Launcher,
) -> None:
    nav = LevelNav(launcher)
    other = LevelRef("mine", "7")
    assert nav.edited(SLIDE, None) is None  # closed without saving
    assert nav.edited(SLIDE, Edited(other, Level("New", "1."), play=False)) is None
    opening = nav.edited(SLIDE, Edited(other, Level("New", "1."), play=True))
    assert opening is not None and opening.severity == "error"  # not in My levels: said
    assert opening.text.startswith("The edited level cannot be opened: ")


def test_the_words_and_ids_of_a_level() -> None:
    assert now_playing("", Level("Far", ".123"), touched=False) == "Now playing Far."
    assert now_playing("Resumed.", None, touched=True) == (
        "Resumed. Now playing . Your game of the previous level is saved."
    )
    assert mine_id(LevelRef("mine", "12")) == 12
    assert mine_id(SLIDE) is None and mine_id(None) is None
    assert level_id("toy", SLIDE, None) is None
    with registry.register(INFO):
        far = Level("Far", ".123")
        assert level_id("toy", None, far) == id_of("toy", None, far)
        assert level_id("toy", None, object()) is None  # no level format: no custom ID
