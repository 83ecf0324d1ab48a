"""CLI tests for ``termarcade 2048`` (click's CliRunner); results are checked against the core."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

import core.game2048 as g
from core.game2048 import DIRECTIONS, GameConfig, create_game, legal_moves, max_tile, move, replay
from tui.cli.game2048 import game2048, parse_distribution

pytestmark = pytest.mark.cli


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(game2048, list(args), input=input)


def test_replay_json_matches_core() -> None:
    rng = random.Random(5)
    for seed in (0, 1, 42, 2**31 + 7):
        dirs = [rng.choice(DIRECTIONS) for _ in range(60)]
        letters = "".join(d[0].upper() for d in dirs)
        result = run("replay", "--seed", str(seed), "--moves", letters, "--json")
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        assert list(data) == ["board", "score", "game_over", "won", "moves_applied", "seed"]
        state, applied = replay(GameConfig(initial_seed=seed), dirs)
        assert data["board"] == [list(r) for r in state.board]
        assert data["score"] == state.score
        assert data["game_over"] == state.is_game_over
        assert data["moves_applied"] == applied
        assert data["seed"] == state.current_seed
        assert data["won"] is False


def test_replay_move_syntax_variants_agree() -> None:
    outs = {
        run("replay", "--seed", "9", "--moves", text, "--json").stdout
        for text in ("LLRUD", "l,l r u d", "L, L, R, U, D", " llrud ")
    }
    assert len(outs) == 1
    stdin = run("replay", "--seed", "9", "--moves", "-", "--json", input="LLRUD\n")
    assert stdin.stdout in outs


def test_replay_rule_options() -> None:
    result = run("replay", "--seed", "3", "--size", "3", "--merge", "fibonacci",
                 "--distribution", "1:1", "--tiles", "4", "--moves", "LURDLURD", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    config = GameConfig(board_size=3, initial_seed=3, number_of_initial_tiles=4,
                        tile_value_distribution=[(1, 1)], merge_logic="fibonacci", goal=2584)
    state, applied = replay(config, g.parse_moves("LURDLURD"))
    assert data["board"] == [list(r) for r in state.board]
    assert len(data["board"]) == 3
    assert data["moves_applied"] == applied


def test_replay_won_flag_with_small_goal() -> None:
    # With goal 4 any merge of two 2s wins; find one in a short random replay.
    result = run("replay", "--seed", "1", "--goal", "4", "--moves", "LRLRUDUD" * 3, "--json")
    data = json.loads(result.stdout)
    assert data["won"] == (max(max(r) for r in data["board"]) >= 4)
    assert data["won"] is True


def test_replay_pretty_output() -> None:
    result = run("replay", "--seed", "42", "--moves", "LURD")
    assert result.exit_code == 0
    state, _ = replay(GameConfig(initial_seed=42), g.parse_moves("LURD"))
    assert f"score {state.score}" in result.stdout
    for v in {v for row in state.board for v in row if v}:
        assert str(v) in result.stdout


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["replay", "--seed", "1", "--moves", "LUX"], "column 3"),
        (["replay", "--seed", "1", "--distribution", "2:x"], "bad distribution item"),
        (["replay", "--seed", "1", "--distribution", "0:1"], "positive integers"),
        (["replay", "--seed", "1", "--distribution", ","], "empty"),
        (["replay", "--seed", "1", "--size", "1"], "--size"),
        (["replay", "--seed", "1", "--size", "2", "--tiles", "5"], "number_of_initial_tiles"),
        (["replay", "--seed", "1", "--merge", "nope"], "--merge"),
        (["replay", "--seed", "x"], "--seed"),
        (["replay"], "--seed"),
        (["autoplay", "--games", "0"], "--games"),
    ],
)
def test_bad_input_exits_2_cleanly(args: list[str], needle: str) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert needle in result.output
    assert "Traceback" not in result.output


def test_parse_distribution() -> None:
    assert parse_distribution("2:9,4:1") == ((2, 9), (4, 1))
    assert parse_distribution("3 5:0.5") == ((3, 1), (5, 0.5))
    with pytest.raises(ValueError):
        parse_distribution("a:1")


def _first_legal(state, **kwargs):
    moves = legal_moves(state)
    return moves[0] if moves else None


def test_autoplay_loop_against_core(monkeypatch: pytest.MonkeyPatch) -> None:
    # A deterministic stand-in strategy isolates the CLI loop from the AI's strength.
    monkeypatch.setattr(g, "hint", _first_legal)
    result = run("autoplay", "--seed", "10", "--games", "3", "--max-moves", "150", "--size", "3",
                 "--json")
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [d["seed"] for d in lines] == [10, 11, 12]
    for d in lines:
        assert list(d) == ["seed", "score", "max_tile", "moves", "reached"]
        state = create_game(GameConfig(board_size=3, initial_seed=d["seed"]))
        count = 0
        while not state.is_game_over and count < 150:
            state = move(state, _first_legal(state))
            count += 1
        assert (d["score"], d["max_tile"], d["moves"]) == (state.score, max_tile(state.board), count)
        assert d["reached"] == {k: max_tile(state.board) >= int(k) for k in ("2048", "4096", "8192")}


def test_autoplay_text_mode_summary(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(g, "hint", _first_legal)
    result = run("autoplay", "--seed", "1", "--games", "2", "--max-moves", "20")
    assert result.exit_code == 0
    assert "2 game(s); reached 2048: 0%" in result.stdout


def test_hint_command_uses_core_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(g, "hint", _first_legal)
    result = run("hint", "--seed", "4", "--moves", "LU", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    state, _ = replay(GameConfig(initial_seed=4), ("left", "up"))
    assert data["direction"] == legal_moves(state)[0]
    # No legal move -> exit 1 with direction null.
    monkeypatch.setattr(g, "hint", lambda state, **kw: None)
    result = run("hint", "--seed", "4", "--json")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["direction"] is None


def test_autoplay_with_real_ai_smoke() -> None:
    pytest.importorskip("core.game2048.ai")
    result = run("autoplay", "--seed", "3", "--games", "1", "--max-moves", "40", "--json")
    assert result.exit_code == 0, result.output
    d = json.loads(result.stdout)
    assert d["moves"] >= 1 and d["moves"] <= 40 and d["max_tile"] >= 8


def test_registered_as_2048_in_main() -> None:
    from tui.cli import main

    result = CliRunner().invoke(main, ["2048", "replay", "--seed", "42", "--moves", "L", "--json"])
    assert result.exit_code == 0, result.output
    state, _ = replay(GameConfig(initial_seed=42), ("left",))
    assert json.loads(result.stdout)["board"] == [list(r) for r in state.board]


def test_play_without_tty_is_clean() -> None:
    result = run("play")
    assert result.exit_code == 2
    assert "terminal" in result.output
