"""The one save codec (core.saves): migrations of genuine old saves, round trips for every
registered game, the checkpoint (used, checked, and replaced by a replay when it fails)."""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest

from core import registry
from core.game import Game
from core.saves import (
    CHECKPOINT_EVERY,
    MIGRATIONS,
    SAVE_VERSION,
    NewerSave,
    UnreadableSave,
    decode_save,
    encode_save,
    migrate,
    resume,
)
from core.session import RESTART, Session
from tests.test_games_protocol import _levels
from tests.toycore.engine import GAME as TOY
from tests.toycore.engine import Level as ToyLevel
from tui.legacy_saves import v1_level
from tui.sources import level_from_text, level_to_text

DATA = Path(__file__).resolve().parents[1] / "data" / "saves"
"""Saves written by the old code itself (see data/saves/README.md for how)."""

TOY_START = TOY.initial(ToyLevel("toy", "3.21"))


def fixture(name: str) -> dict[str, Any]:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def through_json(value: Any) -> Any:
    """What the store gives back: the value through JSON text."""
    return json.loads(json.dumps(value))


class Counting:
    """A game whose ``apply`` calls are counted (to prove what a resume replays)."""

    def __init__(self, game: Game) -> None:
        self.game, self.applied = game, 0

    def apply(self, state: Any, move: Any) -> Any:
        self.applied += 1
        return self.game.apply(state, move)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)


def random_session(game: Any, start: Any, rng: random.Random, steps: int) -> Session:
    """Moves, undos, redos and restarts, seeded (a redo branch is often left at the end)."""
    session = Session.begin(game, start)
    for _ in range(steps):
        roll = rng.random()
        offered = list(game.moves(session.state))
        if roll < 0.7 and offered:
            session = session.play(rng.choice(offered))
        elif roll < 0.85:
            session = session.undo()
        elif roll < 0.95:
            session = session.redo()
        else:
            session = session.restart()
    return session


def states(session: Session) -> list[Any]:
    return [step.state for step in session.history.states]


# -- versions and migrations ---------------------------------------------------------------------


def test_one_migration_per_old_version() -> None:
    assert SAVE_VERSION == 3 and sorted(MIGRATIONS) == list(range(1, SAVE_VERSION))


def test_a_genuine_version_2_save_resumes_by_replaying_it() -> None:
    """Written by the format-2 code (PuzzleScreen.save_data at 38021a6), with a restart and a
    redo branch; the expected states were recorded by that code, not recomputed here."""
    case = fixture("v2-2048.json")
    saved = decode_save(through_json(case["save"]), "2048")
    assert saved.version == 2 and saved.checkpoint is None
    assert saved.index == case["expect"]["index"] == len(saved.moves) - 1
    assert RESTART in saved.moves
    game = registry.get("2048").load("engine")  # type: ignore[union-attr]
    assert saved.level is not None
    resumed = resume(game, game.initial(level_from_text(saved.level)), saved)
    assert not resumed.from_checkpoint and resumed.problem is None
    session = resumed.session
    assert game.state_to_json(session.state) == case["expect"]["state"]
    assert session.moves_made == case["expect"]["moves_made"]
    assert game.state_to_json(session.redo().state) == case["expect"]["redo"]


def test_a_genuine_2048_version_1_save_migrates() -> None:
    """Written by Game2048Screen.save at 37b326c^ (one letter per move, the configuration)."""
    case = fixture("v1-2048.json")
    saved = decode_save(through_json(case["save"]), "2048", v1_level)
    assert saved.version == 1 and saved.checkpoint is None
    assert len(saved.moves) == saved.index == case["expect"]["moves"]
    assert set(saved.moves) <= {"up", "down", "left", "right"}
    assert saved.level is not None
    level = level_from_text(saved.level)
    assert level.config.initial_seed == 7
    game = registry.get("2048").load("engine")  # type: ignore[union-attr]
    session = resume(game, game.initial(level), saved).session
    assert [list(row) for row in session.state.board] == case["expect"]["board"]
    assert session.state.score == case["expect"]["score"]


def test_a_genuine_termcraft_version_1_save_migrates() -> None:
    """Written by TermCraftScreen.save at 37b326c^ (level as JSON, moves in the old shape:
    a substitution as pairs, a construct keyed by "construct")."""
    from core.termcraft.terms import to_str

    case = fixture("v1-termcraft.json")
    saved = decode_save(through_json(case["save"]), "termcraft", v1_level)
    assert saved.version == 1 and len(saved.moves) == case["expect"]["moves"]
    assert [move["kind"] for move in saved.moves] == ["rewrite", "rewrite", "construct"]
    assert saved.moves[0]["sigma"] == {"X": "apple", "Y": "green"}
    game = registry.get("termcraft").load("engine")  # type: ignore[union-attr]
    assert saved.level is not None
    level = level_from_text(saved.level)
    assert level.title == case["save"]["level"]["title"]
    resumed = resume(game, game.initial(level), saved)
    assert resumed.problem is None
    state = resumed.session.state
    assert to_str(state.term) == case["expect"]["term"]
    assert (state.fuel, state.budget) == (case["expect"]["fuel"], case["expect"]["budget"])


def test_migration_goes_one_version_at_a_time_to_the_current_shape() -> None:
    v2 = fixture("v2-2048.json")["save"]
    migrated = migrate(v2, "2048")
    assert migrated["version"] == SAVE_VERSION and migrated["checkpoint"] is None
    assert migrated["session"] == v2["session"] and migrated["level"] == v2["level"]
    v1 = migrate(fixture("v1-2048.json")["save"], "2048")  # no level converter: no level text
    assert v1["version"] == SAVE_VERSION and v1["level"] is None
    assert v1["session"]["index"] == len(v1["session"]["moves"])


def test_a_save_of_a_newer_version_is_refused_with_its_version() -> None:
    with pytest.raises(NewerSave) as caught:
        decode_save({"version": SAVE_VERSION + 1, "anything": "new"}, "2048")
    assert caught.value.version == SAVE_VERSION + 1
    assert f"format {SAVE_VERSION + 1}" in str(caught.value) and "newer" in str(caught.value)


@pytest.mark.parametrize(
    "data, why",
    [
        ("moves", "not a JSON object"),
        ({"level": None, "session": {"moves": []}}, "no format version"),
        ({"version": "3"}, "no format version"),
        ({"version": 0}, "never written"),
        ({"version": 2, "level": None, "session": "garbage"}, "moves are missing"),
        ({"version": 3, "level": 12, "session": {"moves": [], "index": 0}}, "level-file text"),
        ({"version": 1, "moves": "LXR", "config": {}}, "U, D, L and R"),
    ],
)
def test_an_unreadable_save_says_why(data: Any, why: str) -> None:
    with pytest.raises(UnreadableSave, match=why):
        decode_save(data, "2048")


def test_a_version_1_save_of_a_game_that_had_none_is_unreadable() -> None:
    with pytest.raises(UnreadableSave, match="no saves of the game"):
        decode_save({"version": 1, "moves": []}, "longcat")


# -- round trips for every game ------------------------------------------------------------------

CASES = [
    (info.id, label, level)
    for info in registry.games()
    for label, level in itertools.islice(_levels(info), 2)
]


@pytest.mark.parametrize("game_id, label, level", CASES, ids=[f"{g}:{lab}" for g, lab, _ in CASES])
def test_every_game_resumes_exactly_from_its_checkpoint(
    game_id: str, label: str, level: Any
) -> None:
    game = registry.get(game_id).load("engine")  # type: ignore[union-attr]
    start = game.initial(level)
    text = level_to_text(game_id, level)
    for seed in range(3):
        session = random_session(game, start, random.Random(seed), 150)
        saved = decode_save(through_json(encode_save(session, text)), game_id)
        assert saved.version == SAVE_VERSION and saved.level == text
        # A save made without a previous one has its checkpoint at the cursor, or none when
        # fewer moves lead there than a checkpoint is worth.
        has_checkpoint = session.history.index >= CHECKPOINT_EVERY
        assert (saved.checkpoint is not None) == has_checkpoint
        counting = Counting(game)
        resumed = resume(counting, game.initial(level_from_text(text)), saved)  # type: ignore[arg-type]
        assert resumed.from_checkpoint == has_checkpoint and resumed.problem is None
        if has_checkpoint:
            assert counting.applied == 0  # nothing replayed to resume
        again = resumed.session
        assert again.state == session.state and again.moves_made == session.moves_made
        assert again.to_json() == session.to_json()  # saving again loses nothing
        assert states(again) == states(session)  # the whole history, rebuilt on demand
        assert again.redo().state == session.redo().state
        left = decode_save(through_json(encode_save(session, text, fresh=True)), game_id)
        counting = Counting(game)
        resumed = resume(counting, start, left)  # type: ignore[arg-type]
        assert counting.applied == 0  # at the start there is nothing to replay to
        assert resumed.from_checkpoint == (session.history.index > 0)
        assert states(resumed.session) == states(session)


def test_saves_in_a_row_encode_the_state_once_every_checkpoint_interval() -> None:
    """The checkpoint of the previous save is kept while it is valid and recent, so a game
    with huge states does not encode its state at every move."""
    encoded = []

    class Watching(Counting):
        def state_to_json(self, state: Any) -> Any:
            encoded.append(self.game.moves(state))
            return self.game.state_to_json(state)

    game = Watching(TOY)
    session, previous, resumes = Session.begin(game, TOY_START), None, []  # type: ignore[arg-type]
    for number in range(200):
        session = session.play("left" if number % 2 == 0 else "right")
        if number == 120:
            session = session.undo().undo().undo()  # back over moves: still the same line
        previous = encode_save(session, "level", previous)
        saved = decode_save(through_json(previous), TOY.id)
        checkpoint = saved.checkpoint
        index = session.history.index
        if index >= CHECKPOINT_EVERY:
            assert checkpoint is not None and 0 <= index - checkpoint.index < CHECKPOINT_EVERY
            counting = Counting(TOY)
            resumed = resume(counting, TOY_START, saved)  # type: ignore[arg-type]
            assert resumed.from_checkpoint and resumed.session.state == session.state
            resumes.append(counting.applied)
            assert counting.applied == index - checkpoint.index  # only the moves after it
        else:
            assert checkpoint is None
    assert len(encoded) <= 200 // CHECKPOINT_EVERY + 1
    assert max(resumes) == CHECKPOINT_EVERY - 1 and min(resumes) == 0


def test_a_checkpoint_is_not_kept_for_another_line_or_level() -> None:
    session = long_toy_session(60)
    first = encode_save(session, "level")
    at = first["checkpoint"]["index"]
    undone = session
    for _ in range(session.history.index - at + 1):  # back before the checkpoint
        undone = undone.undo()
    replaced = first["session"]["moves"][at - 1]
    other = [move for move in TOY.moves(undone.state) if TOY.move_to_json(move) != replaced]
    played = undone.play(other[0])  # another line from before the checkpoint
    for again in (encode_save(played, "level", first), encode_save(session, "other", first)):
        assert (
            again["checkpoint"] is None
            or again["checkpoint"]["digest"] != first["checkpoint"]["digest"]
        )
    assert encode_save(session, "level", first)["checkpoint"] == first["checkpoint"]


def test_the_toy_game_round_trips_through_the_codec() -> None:
    for seed in range(40):
        session = random_session(TOY, TOY_START, random.Random(seed), 30)
        saved = decode_save(through_json(encode_save(session, None)), TOY.id)
        resumed = resume(TOY, TOY_START, saved).session
        assert states(resumed) == states(session)
        assert resumed.history.index == session.history.index
        assert resumed.to_json() == session.to_json()


# -- the checkpoint ------------------------------------------------------------------------------


def long_toy_session(moves: int) -> Session:
    session = Session.begin(TOY, TOY_START)
    for number in range(moves):
        session = session.play("left" if number % 2 == 0 else "right")
    return session.undo().undo()  # a redo branch, too


def test_resuming_a_long_game_replays_nothing_until_the_first_undo() -> None:
    session = long_toy_session(5_000)
    saved = decode_save(through_json(encode_save(session, None)), TOY.id)
    counting = Counting(TOY)
    resumed = resume(counting, TOY_START, saved).session  # type: ignore[arg-type]
    assert counting.applied == 0
    assert resumed.state == session.state and resumed.moves_made == session.moves_made
    assert encode_save(resumed, None) == encode_save(session, None)  # saving: no replay
    played = resumed.play(TOY.moves(resumed.state)[0])
    assert counting.applied == 1  # the move itself
    back = played.undo().undo()
    assert counting.applied == 1  # undoing moves the cursor; drawing the state replays
    assert back.state == session.history.states[4_997].state
    assert counting.applied == 1 + 4_997 + 1  # the past once, and the check that it ends right
    assert back.undo().undo().state == session.history.states[4_995].state
    assert counting.applied == 4_999  # never twice
    assert resumed.redo().redo().state == session.redo().redo().state
    assert counting.applied == 4_999 + 2  # the redo branch: replayed from the checkpoint


def test_the_line_since_a_restart_after_the_checkpoint_replays_nothing_more() -> None:
    """A game drawn from its line since the last restart (Longcat's body) reads only that
    line: a resumed long game whose restart came after the checkpoint replays no move before
    the checkpoint to draw it, nor to count its moves."""
    session = long_toy_session(5_000)
    left = encode_save(session, None, fresh=True)  # the checkpoint: at this cursor
    session = session.restart()
    for number in range(3):
        session = session.play("left" if number % 2 == 0 else "right")
    data = encode_save(session, None, through_json(left))
    assert data["checkpoint"] == left["checkpoint"]  # kept: 4 moves behind the cursor
    saved = decode_save(through_json(data), TOY.id)
    counting = Counting(TOY)
    resumed = resume(counting, TOY_START, saved).session  # type: ignore[arg-type]
    assert counting.applied == 3  # the moves after the checkpoint (the restart is no apply)
    line = resumed.line_since_restart()
    assert resumed.moves_made == 3 and len(line) == 4 and line[0] == TOY_START
    assert line == session.line_since_restart() and line[-1] == session.state
    assert counting.applied == 3  # the 4,998 moves before the checkpoint were not replayed


def test_a_damaged_checkpoint_falls_back_to_replaying_the_moves() -> None:
    session = long_toy_session(40)
    data = through_json(encode_save(session, None))
    other = TOY.initial(ToyLevel("other", "12.3"))
    assert other != session.state
    data["checkpoint"]["state"] = TOY.state_to_json(other)  # a valid state, not this one
    resumed = resume(TOY, TOY_START, decode_save(data, TOY.id))
    assert not resumed.from_checkpoint and resumed.problem is None
    assert states(resumed.session) == states(session)


def test_a_checkpoint_that_does_not_decode_falls_back_to_replaying_the_moves() -> None:
    """Even with a digest that matches (written by a buggy engine, say)."""
    from core.saves import _digest

    session = long_toy_session(40)
    data = through_json(encode_save(session, None))
    moves, index = data["session"]["moves"], data["session"]["index"]
    data["checkpoint"] = {
        "state": {"no": "row"},
        "digest": _digest(None, moves, index, {"no": "row"}),
    }
    with pytest.raises(ValueError):
        TOY.state_from_json({"no": "row"})
    resumed = resume(TOY, TOY_START, decode_save(data, TOY.id))
    assert not resumed.from_checkpoint and resumed.session.state == session.state
    assert states(resumed.session) == states(session)


def test_moves_edited_beside_their_checkpoint_are_replayed_not_trusted() -> None:
    session = long_toy_session(40)
    data = through_json(encode_save(session, None))
    data["session"]["moves"][:2] = ["right", "left"]  # before the checkpoint: digest differs
    resumed = resume(TOY, TOY_START, decode_save(data, TOY.id))
    assert not resumed.from_checkpoint
    cut = through_json(encode_save(session, None))
    cut["session"]["moves"] = cut["session"]["moves"][:-3]  # the checkpoint is now after
    cut["session"]["index"] = len(cut["session"]["moves"])  # the cursor: not on this line
    saved = decode_save(cut, TOY.id)
    assert saved.checkpoint is None and not resume(TOY, TOY_START, saved).from_checkpoint


def test_a_cursor_outside_the_moves_resumes_at_the_end_without_the_checkpoint() -> None:
    session = long_toy_session(10)
    data = through_json(encode_save(session, None))
    data["session"]["index"] = 99
    saved = decode_save(data, TOY.id)
    assert saved.index == len(saved.moves) and saved.checkpoint is None


def test_an_engine_that_changed_since_the_save_shows_at_the_first_undo() -> None:
    """The checkpoint is trusted at resume; the replay of the past must end in it."""
    session = long_toy_session(10)
    saved = decode_save(through_json(encode_save(session, None)), TOY.id)
    changed = dataclasses.replace(saved, moves=("right",) + saved.moves[1:])
    resumed = Session.resume(TOY, TOY_START, changed.moves, changed.index, session.state)
    step = resumed.undo().history.current
    assert step.state is not None
    problem = resumed.undo().replay_problem
    assert problem is not None and "no longer replays" in problem
    assert session.undo().replay_problem is None  # a game played here has no such doubt
    assert resumed.to_json()["moves"] == list(changed.moves)  # nothing lost
