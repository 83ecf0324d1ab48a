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
