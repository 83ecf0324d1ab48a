"""The 2048 screen: the board, score and best score, hint, autoplay and settings.

Built on :class:`tui.screens.puzzle.PuzzleScreen`: the session (every move from the start),
undo/redo, restart as a move, saves, the outcome dialogs and the hint worker come from the
base. Every rule lives in :mod:`core.game2048`. A new game is a level made by the ``new``
generator from a fresh seed and the player's settings (size, rule), so ``N`` and changing the
settings never discard the game being played: it stays saved under "In progress".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.timer import Timer
from textual.widgets import Static

from core.game2048 import GameState, max_tile
from core.session import Session
from tui.game_settings import SettingsScreen
from tui.games.game2048.board import Board2048
from tui.games.game2048.settings_modal import Settings2048, Settings2048Modal
from tui.screens.play.bindings import slide_bindings
from tui.screens.puzzle import Hint, Score

__all__ = ["SETTINGS_KEY", "Game2048Screen", "score_key"]

SETTINGS_KEY = "2048.settings"
"""Store setting holding :class:`Settings2048` as a dict."""
FLASH_SECONDS = 0.18
"""How long merged and new tiles stay highlighted."""
AUTOPLAY_INTERVAL = 0.06
"""Seconds between autoplay ticks (a move is played when its hint is ready)."""
SERVED_AUTOPLAY_INTERVAL = 0.25
"""The same in a served session: every move redraws the board, saves the game and sends the
new screen through the server's one event loop, which all players share; at four moves a
second, an autoplaying player leaves the CPU and the server to the others' keys."""
ARROWS = {"up": "↑", "down": "↓", "left": "←", "right": "→"}


def score_key(state: GameState) -> str:
    """Best scores are kept per board size and rule, e.g. ``"4x4-standard"``."""
    config = state.config
    return f"{config.board_size}x{config.board_size}-{config.merge_rule}"


class Game2048Screen(SettingsScreen):
    """Play 2048 (see the module docstring)."""

    HINT_TIME_LIMIT: ClassVar[float] = 2.0
    SETTINGS = Settings2048
    SETTINGS_KEY = SETTINGS_KEY
    SETTINGS_MODAL = Settings2048Modal
    SETTINGS_SAVED = "2048 settings saved: they apply to the next game."
    GENERATORS = ("new",)
    START_NEW: ClassVar[bool] = True
    """Opening 2048 with no game in progress starts a new one at once."""

    CSS_PATH = "styles.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        *slide_bindings("2048"),
        Binding("p", "autoplay", "Auto", id="2048.autoplay"),
        Binding("o,comma", "settings", "Settings", id="2048.settings", key_display="o"),
    ]

    def __init__(self, session: Session, **kwargs: Any) -> None:
        super().__init__(session, **kwargs)
        self.autoplaying = False
        """True while autoplay runs."""
        self._autoplay_timer: Timer | None = None
        self._flash_timer: Timer | None = None

    # -- layout ------------------------------------------------------------------------------

    def compose_board(self) -> ComposeResult:
        with Horizontal(id="g2048"):
            yield Board2048(self.state.board, id="g2048-board")
            with Vertical(id="g2048-side"):
                yield Static("", id="g2048-rules")
                yield Static("", id="g2048-score")
                yield Static("", id="g2048-status")
                yield Static("move: arrows, hjkl, wasd", id="g2048-keys")

    def render_state(self, session: Session) -> None:
        state: GameState = session.state
        board = self.query_one("#g2048-board", Board2048)
        info = state.last_move
        highlight: list[tuple[int, int]] = []
        if self.settings.animate and info is not None and session.last_move is not None:
            highlight.extend(info.merged_cells)
            if info.new_tile_position is not None:
                highlight.append(info.new_tile_position)
        board.show(state.board, highlight)
        if highlight:
            if self._flash_timer is not None:
                self._flash_timer.stop()
            self._flash_timer = self.set_timer(FLASH_SECONDS, board.clear_highlight)
        config = state.config
        goal = f"goal {config.goal}" if config.goal else "no goal"
        # Text throughout: these lines come from a level's settings, never markup.
        self.query_one("#g2048-rules", Static).update(
            Text(f"{config.board_size}×{config.board_size} {config.merge_rule}, {goal}")
        )
        best = self.best_score
        gained = f" (+{info.points_earned})" if info is not None and info.points_earned else ""
        self.query_one("#g2048-score", Static).update(
            Text(
                f"Score  {state.score}{gained}\nBest   {best}\nMoves  {state.move_count}\n"
                f"Max    {max_tile(state.board)}\nSeed   {config.initial_seed}"
            )
        )
        lines = []
        if state.is_game_over:
            lines.append("GAME OVER")
        elif session.status == "won":
            lines.append(f"Won! ({config.goal} reached)")
        if self.autoplaying:
            lines.append("Autoplay ON (p stops)")
        self.query_one("#g2048-status", Static).update(Text("\n".join(lines)))
        if state.is_game_over:
            self.stop_autoplay()

    def score(self, session: Session) -> Score:
        """The score boards count points, one board per size and rule (the base records)."""
        state: GameState = session.state
        return Score(score_key(state), state.score, state.move_count)

    def on_level_changed(self) -> None:
        self.stop_autoplay()

    def outcome_detail(self, kind: str) -> str:
        state: GameState = self.state
        best = self.best_score
        return f"Score {state.score} · best {best} · largest tile {max_tile(state.board)}"

    # -- moves -------------------------------------------------------------------------------

    def action_move(self, direction: str) -> None:
        """Slide; a direction that moves nothing is simply ignored (as in the original)."""
        if direction in self.game.moves(self.state):
            self.play(direction)

    def keys_for(self, move: Any) -> Sequence[str]:
        """A slide is its direction's key (the ``2048.up`` ... bindings).

        Args:
            move: ``"up"``, ``"down"``, ``"left"`` or ``"right"``.

        Returns:
            The one key.
        """
        return (self.binding_key(f"2048.{move}"),)

    # -- settings (the glue is tui.game_settings.SettingsScreen's) -----------------------------

    def before_settings(self) -> None:
        self.stop_autoplay()

    def settings_applied(
        self, old: Settings2048, new: Settings2048, generators_changed: bool
    ) -> None:
        """Animation applies now; size and rule apply to new games (``N``)."""
        if generators_changed:
            self.say(
                f"New games will be {new.size}×{new.size} {new.rule}: "
                "N starts one (this game stays saved)."
            )
        else:
            self.say("Settings saved.")
        self.render_state(self.session)

    # -- hint and autoplay -------------------------------------------------------------------

    def compute_hint(self, state: GameState, should_stop: Any, time_limit: float) -> Hint:
        from core.game2048 import hint
        from core.game2048.ai import DEFAULT_BUDGET

        reports: list[Any] = []
        direction = hint(state, time_limit=time_limit, budget=DEFAULT_BUDGET, report=reports.append)
        if direction is None:
            return Hint("No move helps.")
        cut = reports[-1].cut if reports else None  # the search's own account, when it gave one
        note = f" (search cut short by the {cut})" if cut else ""
        return Hint(f"Hint: {ARROWS[direction]} {direction}{note}", direction)

    def show_hint(self, hint: Hint) -> None:
        if self.autoplaying and hint.move is not None:
            self.play(hint.move)
            return
        if self.autoplaying:
            self.stop_autoplay()
        super().show_hint(hint)

    def action_autoplay(self) -> None:
        """Let the AI play (``p`` again stops); autoplayed moves are undoable like any."""
        if self.autoplaying:
            self.stop_autoplay()
            self.say("Autoplay stopped.")
            return
        if self.session.finished:
            return
        self.mark_autoplayed()
        self.autoplaying = True
        interval = SERVED_AUTOPLAY_INTERVAL if self.arcade.served else AUTOPLAY_INTERVAL
        self._autoplay_timer = self.set_interval(interval, self._autoplay_tick)
        self.render_state(self.session)

    def _autoplay_tick(self) -> None:
        if not self.autoplaying or self.app.screen is not self or self.hint_running:
            return
        self.request_hint()

    def stop_autoplay(self) -> None:
        """Stop autoplay (no-op when it is off); the side panel stops saying it runs."""
        was_on, self.autoplaying = self.autoplaying, False
        if self._autoplay_timer is not None:
            self._autoplay_timer.stop()
            self._autoplay_timer = None
        if was_on and self.is_mounted:
            self.render_state(self.session)

    def action_back(self) -> None:
        self.stop_autoplay()
        super().action_back()
