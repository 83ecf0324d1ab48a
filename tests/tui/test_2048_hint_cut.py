"""The 2048 screen's hint says when the search was cut short (issue 32)."""

from __future__ import annotations

from core.game2048 import GameConfig, ai, create_game, legal_moves
from tui.games.game2048.screen import Game2048Screen


def _reporting(cut: str | None):
    """A stand-in AI that plays the first legal move and reports a search cut by ``cut``."""

    def hint(state, report=None, **kwargs):
        move = legal_moves(state)[0]
        if report is not None:
            report(ai.HintResult(move, 1, 3 if cut else 1, cut, "pure"))
        return move

    return hint


def test_the_hint_message_says_the_search_was_cut(monkeypatch) -> None:
    state = create_game(GameConfig(initial_seed=4))
    first = legal_moves(state)[0]
    monkeypatch.setattr(ai, "hint", _reporting(ai.CUT_BUDGET))
    found = Game2048Screen.compute_hint(None, state, lambda: False, 1.0)  # type: ignore[arg-type]
    assert found.move == first
    assert found.text.endswith(f"{first} (search cut short by the work budget)")
    monkeypatch.setattr(ai, "hint", _reporting(None))
    whole = Game2048Screen.compute_hint(None, state, lambda: False, 1.0)  # type: ignore[arg-type]
    assert whole.text.endswith(first) and "cut" not in whole.text


def test_the_screens_hint_is_bounded_by_the_default_work_budget(monkeypatch) -> None:
    # The app's hint (and so its autoplay) has a work budget as well as its time limit: on
    # the late game the default depth is a wish the budget trims (issue 28's bounds).
    state = create_game(GameConfig(initial_seed=4))
    seen: list[dict] = []

    def hint(state, **kwargs):
        seen.append(kwargs)
        return legal_moves(state)[0]

    monkeypatch.setattr(ai, "hint", hint)
    Game2048Screen.compute_hint(None, state, lambda: False, 1.0)  # type: ignore[arg-type]
    assert seen and seen[0]["budget"] == ai.DEFAULT_BUDGET and seen[0]["time_limit"] == 1.0
