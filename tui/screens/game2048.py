"""The 2048 screen: the board, score and best score, undo/redo, hint, autoplay, settings.

The screen holds a :class:`core.history.History` of :class:`core.game2048.GameState` values
and renders the current one; every rule lives in :mod:`core.game2048`. The hint runs the
expectimax of :mod:`core.game2048.ai` in a worker thread so the UI stays responsive; autoplay
is a timer that asks for a hint and plays it, until the game ends or ``p`` is pressed again.

Saving: after every move the game is stored as ``{"config", "moves", ...}`` in the slot
``("2048", "current")``; opening 2048 again replays the moves from the configuration (the
PRNG seed is part of it), so the exact position comes back. A finished game deletes the save.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Static

from core.game2048 import (
    GameConfig,
    GameState,
    create_game,
    has_won,
    max_tile,
    move,
)
from core.history import History
from tui.modals.game2048_settings import Settings2048, Settings2048Modal
from tui.modals.game_over import GameOverModal, KeepPlayingModal
from tui.widgets.board2048 import Board2048

__all__ = ["Game2048Screen", "start", "SETTINGS_KEY", "SAVE_SLOT"]

GAME_ID = "2048"
"""Game id in the store and the help system."""
SETTINGS_KEY = "2048.settings"
"""Store setting holding :class:`Settings2048` as a dict."""
SAVE_SLOT = "current"
"""Save slot of the game in progress."""
HISTORY_LEN = 2000
"""How many states undo can go back."""
FLASH_SECONDS = 0.18
"""How long merged and new tiles stay highlighted."""
AUTOPLAY_INTERVAL = 0.06
"""Seconds between autoplay ticks (a move is played when its hint is ready)."""

ARROWS = {"up": "↑", "down": "↓", "left": "←", "right": "→"}
LETTERS = {"up": "U", "down": "D", "left": "L", "right": "R"}
FROM_LETTER = {v: k for k, v in LETTERS.items()}


def new_seed() -> int:
    """A fresh seed for a new game (the UI chooses it; the engine itself is deterministic)."""
    return random.SystemRandom().randrange(2**32)


def score_key(config: GameConfig) -> str:
    """Best scores are kept per board size and rule, e.g. ``"4x4-standard"``."""
    return f"{config.board_size}x{config.board_size}-{config.merge_rule}"


def load_saved_game(data: Any) -> tuple[GameState, list[str], bool] | None:
    """Rebuild a saved game by replaying its moves.

    Args:
        data: What :meth:`Game2048Screen.save` stored.

    Returns:
        ``(state, moves, win_acknowledged)`` or ``None`` if the save is unusable (it is then
        ignored: a new game starts).
    """
    try:
        config = GameConfig.from_dict(data["config"])
        letters = [FROM_LETTER[ch] for ch in str(data.get("moves", ""))]
        state = create_game(config)
        effective: list[str] = []
        for direction in letters:
            nxt = move(state, direction)
            if nxt is not state:  # moves into a wall are dropped so moves[i] = i-th real move
                effective.append(direction)
            state = nxt
        if state.score != data.get("score", state.score):
            return None
        letters = effective
        return state, letters, bool(data.get("win_acknowledged", False))
    except (KeyError, TypeError, ValueError):
        return None


class Game2048Screen(Screen[None]):
    """Play 2048.

    Args:
        config: Configuration of the game to start; ``None`` resumes the saved game or starts
            a new one from the player's settings.
        settings: Display settings (default: read from the store).
        state: Start from this state instead (tests, puzzles); its config is used.
    """

    HELP_TOPIC: ClassVar[str] = "2048"
    """Help page for this screen (``tui/help/2048.md``)."""

    CSS_PATH = "../styles/game2048.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k,w", "move('up')", "Up", show=False, id="2048.up"),
        Binding("down,j,s", "move('down')", "Down", show=False, id="2048.down"),
        Binding("left,h,a", "move('left')", "Left", show=False, id="2048.left"),
        Binding("right,l,d", "move('right')", "Right", show=False, id="2048.right"),
        Binding("u,ctrl+z", "undo", "Undo", id="2048.undo"),
        Binding("U,ctrl+y", "redo", "Redo", id="2048.redo"),
        Binding("t", "hint", "Hint", id="2048.hint"),
        Binding("p", "autoplay", "Auto", id="2048.autoplay"),
        Binding("N", "new_game", "New", id="2048.new"),
        Binding("R", "restart", "Restart", show=False, id="2048.restart"),
        Binding("o,comma", "settings", "Settings", id="2048.settings", key_display="o"),
        Binding("escape,q", "back", "Back", id="2048.back", key_display="esc"),
    ]

    def __init__(
        self,
        config: GameConfig | None = None,
        settings: Settings2048 | None = None,
        state: GameState | None = None,
    ) -> None:
        super().__init__()
        self._initial_config = config
        self._initial_state = state
        self.settings: Settings2048 = settings or Settings2048()
        """Board size, rule and animation preferences."""
        self._settings_given = settings is not None
        self.history: History[GameState] = History.start(
            state if state is not None else create_game(config or GameConfig()), HISTORY_LEN
        )
        """Undo/redo history; ``history.current`` is shown."""
        self.moves: list[str] = []
        """Directions played from the start; ``moves[:current.move_count]`` is the line."""
        self.win_acknowledged = False
        """True once the player chose to keep playing after reaching the goal."""
        self.autoplaying = False
        """True while autoplay runs."""
        self.hint_text = ""
        """Last hint or status message shown in the side panel."""
        self._thinking = False
        self._autoplay_timer: Timer | None = None
        self._flash_timer: Timer | None = None
        self._best: int | None = None
        self._modal_open = False

    # -- layout ------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="g2048"):
            yield Board2048(self.state.board, id="g2048-board")
            with Vertical(id="g2048-side"):
                yield Static("2048", id="g2048-title")
                yield Static("", id="g2048-rules")
                yield Static("", id="g2048-score")
                yield Static("", id="g2048-status")
                yield Static("move: arrows, hjkl, wasd", id="g2048-keys")
        yield Footer()

    def on_mount(self) -> None:
        """Read settings, resume or start the game, and draw it."""
        store = getattr(self.app, "store", None)
        if not self._settings_given and store is not None:
            self.settings = Settings2048.from_dict(store.get_setting(SETTINGS_KEY, None))
        if self._initial_state is None and self._initial_config is None:
            resumed = None
            if store is not None:
                resumed = load_saved_game(store.load_game(GAME_ID, SAVE_SLOT))
            if resumed is not None:
                state, moves, acknowledged = resumed
                self.history = History.start(state, HISTORY_LEN)
                self.moves = moves
                self.win_acknowledged = acknowledged
                self.hint_text = "Resumed your saved game."
            else:
                self._start(self._config_from_settings(new_seed()))
        if store is not None:
            self._best = store.best_score(GAME_ID, score_key(self.state.config))
        if has_won(self.state):
            self.win_acknowledged = True
        self.refresh_view()
        # A finished position handed to the screen gets its dialog too.
        self.call_after_refresh(self._check_end)

    # -- state -------------------------------------------------------------------------------

    @property
    def state(self) -> GameState:
        """The state shown."""
        return self.history.current

    def _config_from_settings(self, seed: int) -> GameConfig:
        return GameConfig.for_preset(
            self.settings.merge, board_size=self.settings.board_size, initial_seed=seed
        )

    def _start(self, config: GameConfig) -> None:
        """Begin a new game (not undoable)."""
        self.stop_autoplay()
        self.history = History.start(create_game(config), HISTORY_LEN)
        self.moves = []
        self.win_acknowledged = False
        self.hint_text = "New game."
        store = getattr(self.app, "store", None)
        if store is not None:
            self._best = store.best_score(GAME_ID, score_key(config))
        self.save()

    def set_state(self, state: GameState) -> None:
        """Show a given state as a fresh game (used by tests and puzzles)."""
        self.history = History.start(state, HISTORY_LEN)
        self.moves = []
        self.refresh_view()
        self._check_end()

    # -- rendering ---------------------------------------------------------------------------

    def refresh_view(self, flash: bool = False) -> None:
        """Redraw the board and the side panel from the current state."""
        state = self.state
        board = self.query_one("#g2048-board", Board2048)
        highlight: list[tuple[int, int]] = []
        info = state.last_move
        if flash and self.settings.animate and info is not None:
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
        self.query_one("#g2048-rules", Static).update(
            f"{config.board_size}×{config.board_size} {config.merge_rule}, {goal}"
        )
        best = max(self._best or 0, state.score)
        gained = f" (+{info.points_earned})" if info is not None and info.points_earned else ""
        self.query_one("#g2048-score", Static).update(
            f"Score  {state.score}{gained}\n"
            f"Best   {best}\n"
            f"Moves  {state.move_count}\n"
            f"Max    {max_tile(state.board)}\n"
            f"Seed   {config.initial_seed}"
        )
        lines = []
        if state.is_game_over:
            lines.append("GAME OVER")
        elif has_won(state):
            lines.append(f"Won! ({config.goal} reached)")
        if self.autoplaying:
            lines.append("Autoplay ON (p stops)")
        elif self._thinking:
            lines.append("Thinking…")
        if self.hint_text:
            lines.append(self.hint_text)
        undo = "undo" if self.history.can_undo else ""
        redo = "redo" if self.history.can_redo else ""
        if undo or redo:
            lines.append(" · ".join(x for x in (undo, redo) if x) + " available")
        self.query_one("#g2048-status", Static).update("\n".join(lines))

    # -- persistence -------------------------------------------------------------------------

    def save(self) -> None:
        """Store the game in progress (or delete the save when the game is over)."""
        store = getattr(self.app, "store", None)
        if store is None:
            return
        state = self.state
        if state.is_game_over:
            store.delete_game(GAME_ID, SAVE_SLOT)
            return
        store.save_game(
            GAME_ID,
            SAVE_SLOT,
            {
                "version": 1,
                "config": state.config.to_dict(),
                "moves": "".join(LETTERS[d] for d in self.moves[: state.move_count]),
                "score": state.score,
                "win_acknowledged": self.win_acknowledged,
            },
        )

    def _record_score(self) -> None:
        store = getattr(self.app, "store", None)
        state = self.state
        if store is None or state.score <= (self._best or 0):
            return
        store.record_score(GAME_ID, score_key(state.config), state.score)
        self._best = state.score

    # -- actions -----------------------------------------------------------------------------

    def action_move(self, direction: str) -> None:
        """Play a move (ignored when it changes nothing)."""
        self.play(direction)

    def play(self, direction: str) -> bool:
        """Apply ``direction`` through the core; returns whether the board changed."""
        if self._modal_open:
            return False
        state = self.state
        nxt = move(state, direction)
        if nxt is state:
            return False
        self.history = self.history.push(nxt)
        del self.moves[state.move_count :]
        self.moves.append(direction)
        self.hint_text = ""
        self._record_score()
        self.save()
        self.refresh_view(flash=True)
        self._check_end()
        return True

    def _check_end(self) -> None:
        """Open the game-over or win dialog when appropriate."""
        state = self.state
        if state.is_game_over:
            self.stop_autoplay()
            self._open_modal(
                GameOverModal(
                    state.score,
                    f"Best {max(self._best or 0, state.score)} · largest tile {max_tile(state.board)}",
                ),
                self._after_game_over,
            )
        elif has_won(state) and not self.win_acknowledged:
            self.stop_autoplay()
            self._open_modal(
                KeepPlayingModal(state.config.goal or max_tile(state.board), state.score),
                self._after_win,
            )

    def _open_modal(self, modal: Any, callback: Any) -> None:
        self._modal_open = True

        def done(result: Any) -> None:
            self._modal_open = False
            callback(result)

        self.app.push_screen(modal, done)

    def _after_game_over(self, choice: str | None) -> None:
        if choice == "undo":
            self.action_undo()
        elif choice == "new":
            self._start(self._config_from_settings(new_seed()))
            self.refresh_view()
        elif choice == "back":
            self.action_back()

    def _after_win(self, choice: str | None) -> None:
        self.win_acknowledged = True
        self.save()
        if choice == "new":
            self._start(self._config_from_settings(new_seed()))
        elif choice == "back":
            self.action_back()
            return
        else:
            self.hint_text = "Keep going!"
        self.refresh_view()

    def action_undo(self) -> None:
        """Go back one move."""
        self.stop_autoplay()
        if not self.history.can_undo:
            self.hint_text = "Nothing to undo."
        else:
            self.history = self.history.undo()
            self.hint_text = ""
            self.save()
        self.refresh_view()

    def action_redo(self) -> None:
        """Replay an undone move."""
        self.stop_autoplay()
        if not self.history.can_redo:
            self.hint_text = "Nothing to redo."
        else:
            self.history = self.history.redo()
            self.hint_text = ""
            self.save()
        self.refresh_view()
        self._check_end()

    def action_new_game(self) -> None:
        """Start a new game with a fresh seed (asks first when a game is under way)."""
        self._confirm_then("Start a new game? This one will be lost.",
                           lambda: self._start(self._config_from_settings(new_seed())))

    def action_restart(self) -> None:
        """Restart this game from its first position (same seed)."""
        config = self.state.config
        self._confirm_then("Restart this game from the beginning (same seed)?",
                           lambda: self._start(config))

    def _confirm_then(self, question: str, then: Any) -> None:
        def decided(yes: bool | None) -> None:
            if yes:
                then()
                self.refresh_view()

        if self.state.move_count == 0 or self.state.is_game_over:
            decided(True)
            return
        from tui.modals.confirm import ConfirmModal

        self.app.push_screen(ConfirmModal(question, yes="Yes", no="No"), decided)

    def action_settings(self) -> None:
        """Open the settings dialog."""
        self.stop_autoplay()

        def applied(new: Settings2048 | None) -> None:
            if new is None:
                return
            old = self.settings
            self.settings = new
            store = getattr(self.app, "store", None)
            if store is not None:
                store.set_setting(SETTINGS_KEY, new.to_dict())
            if (new.board_size, new.merge) != (old.board_size, old.merge):
                self._start(self._config_from_settings(new_seed()))
            self.refresh_view()

        self.app.push_screen(Settings2048Modal(self.settings), applied)

    def action_back(self) -> None:
        """Save and go back to the previous screen."""
        self.stop_autoplay()
        self.save()
        self.dismiss()

    # -- hint and autoplay -------------------------------------------------------------------

    def action_hint(self) -> None:
        """Ask the expectimax AI for a move (in a worker thread)."""
        if self.state.is_game_over:
            self.hint_text = "No moves left."
            self.refresh_view()
            return
        self.request_hint(play_it=False)

    def request_hint(self, play_it: bool) -> None:
        """Start a hint search for the current state unless one is running."""
        if self._thinking:
            return
        self._thinking = True
        self.refresh_view()
        self._hint_worker(self.state, play_it)

    @work(thread=True, exclusive=False, group="2048-hint")
    def _hint_worker(self, state: GameState, play_it: bool) -> None:
        try:
            from core.game2048 import hint

            direction = hint(state)
            error = None
        except Exception as exc:  # A broken or missing AI must not crash the screen.
            direction, error = None, f"{type(exc).__name__}: {exc}"
        self.app.call_from_thread(self._hint_ready, state, direction, play_it, error)

    def _hint_ready(self, state: GameState, direction: str | None, play_it: bool,
                    error: str | None) -> None:
        self._thinking = False
        if error is not None:
            self.stop_autoplay()
            self.hint_text = "Hint unavailable."
            self.notify(f"The 2048 AI failed ({error}).", severity="error")
        elif state is not self.state:
            pass  # The player moved meanwhile: the hint is stale.
        elif direction is None:
            self.stop_autoplay()
            self.hint_text = "No move helps."
        elif play_it and self.autoplaying:
            self.play(direction)
            return
        elif not play_it:
            self.hint_text = f"Hint: {ARROWS[direction]} {direction}"
        self.refresh_view()

    def action_autoplay(self) -> None:
        """Toggle autoplay."""
        if self.autoplaying:
            self.stop_autoplay()
            self.hint_text = "Autoplay stopped."
            self.refresh_view()
            return
        if self.state.is_game_over:
            return
        self.autoplaying = True
        self.hint_text = ""
        self._autoplay_timer = self.set_interval(AUTOPLAY_INTERVAL, self._autoplay_tick)
        self.refresh_view()

    def _autoplay_tick(self) -> None:
        if not self.autoplaying or self._modal_open:
            return
        if self.state.is_game_over:
            self.stop_autoplay()
            self.refresh_view()
            return
        self.request_hint(play_it=True)

    def stop_autoplay(self) -> None:
        """Stop autoplay (no-op when it is off)."""
        self.autoplaying = False
        if self._autoplay_timer is not None:
            self._autoplay_timer.stop()
            self._autoplay_timer = None


def start(app: Any) -> None:
    """Open 2048 (resuming the saved game if there is one).

    Args:
        app: The :class:`tui.app.ArcadeApp`.
    """
    app.push_screen(Game2048Screen())
