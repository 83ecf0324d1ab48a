"""The puzzle screen base: everything a game screen has in common, written once.

A game screen subclasses :class:`PuzzleScreen` and writes only what is its own: the board
widgets, how a state is drawn, optionally a hint: the hooks of
:class:`~tui.screens.play.hooks.GameHooks`, with their defaults. The base owns the rest: the
game's :class:`core.session.Session` as the single source of truth (a ``reactive`` whose one
``watch_`` method redraws, saves and opens the outcome dialog); undo / redo / restart and
``N``; per-level saves with the whole undo history; ``game_in_progress`` for the quit
confirmation; one cancellable, time-bounded hint worker (:mod:`tui.workers`); the outcome
dialogs; the message line under the board; digit keys for numbered moves.

The plain parts live in :mod:`tui.screens.play`, each with its own tests (its package
docstring lists them); this module is the Textual part that ties them together. The actions
are offered by name in the command palette (``ctrl+p``,
:meth:`tui.app.ArcadeApp.get_system_commands`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, cast

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.reactive import reactive
from textual.screen import Screen
from textual.worker import Worker

from core.session import Session
from tui.modals.outcome import OutcomeModal, par_verdict
from tui.screens.common import ScreenHooks
from tui.screens.play import history, keys
from tui.screens.play.bindings import PUZZLE_BINDINGS
from tui.screens.play.digits import DIGIT_WAIT, DigitEntry, MoveDeferred, numbered
from tui.screens.play.hints import HINT_GROUP, Hint, HintJob, tip_refusal
from tui.screens.play.hooks import GameHooks
from tui.screens.play.levels import LevelNav, Opening, level_id, mine_id
from tui.screens.play.lines import MessageBar, PuzzleHeader, header_line
from tui.screens.play.messages import TRANSIENT_SECONDS, MessageLine
from tui.screens.play.outcome import CHOICE_ACTIONS, outcome_kind
from tui.screens.play.records import LevelRecords, Score
from tui.screens.playtime import PlayClock
from tui.sources import LevelRef
from tui.widgets.footer import ArcadeFooter
from tui.workers import Route, cancelled, finished

if TYPE_CHECKING:  # pragma: no cover
    from textual.dom import DOMNode

    from core.registry import GameInfo
    from tui.arcade import Arcade
    from tui.launch import Launcher
    from tui.screens.designer import Edited

__all__ = [
    "DIGIT_WAIT",
    "HINT_GROUP",
    "TRANSIENT_SECONDS",
    "Hint",
    "MessageBar",
    "MoveDeferred",
    "PuzzleHeader",
    "PuzzleScreen",
    "Score",
]


class PuzzleScreen(GameHooks, ScreenHooks, Screen[LevelRef | None]):
    """Base of every game screen; dismisses with the level ref to highlight in the level list.

    Everything a game screen may provide is declared with a default (class attributes in
    capitals and hook methods in :class:`~tui.screens.play.hooks.GameHooks`, hooks with a
    default behaviour here, the ``ScreenHooks`` properties), so the shell reads them without
    probing; the game itself is known through its registration, :attr:`info`.

    Args:
        session: The game to show (new or resumed).
        level: The level being played (a :class:`core.levelmeta.LevelMeta`: its ``title``
            and ``par`` are shown).
        ref: Where the level comes from (its save slot), or None for a level that is not
            saved (a preview).
        launcher: The game's launcher (sources, saves); None in isolated tests.
        info: The game's registration; default: the launcher's. A screen made without a
            launcher (tests, the terminal tour) is given it.

    Raises:
        TypeError: Neither ``info`` nor a launcher (the screen would not know its game).
    """

    BINDINGS: ClassVar[list[BindingType]] = list(PUZZLE_BINDINGS)
    """Undo, redo, restart, tip, next, back, editor, Game ID, digits (:mod:`.play.bindings`)."""

    # Set in __init__ before anything reads it (set_reactive): never None on a live screen.
    session: reactive[Session] = reactive(cast("Session", None), init=False)
    """The game: the single source of truth; every change redraws and saves."""

    def __init__(
        self,
        session: Session,
        *,
        level: Any = None,
        ref: LevelRef | None = None,
        launcher: Launcher | None = None,
        info: GameInfo | None = None,
    ) -> None:
        super().__init__()
        if info is None:
            if launcher is None:
                raise TypeError(f"{type(self).__name__} needs its registration: pass info=")
            info = launcher.info
        self.info: GameInfo = info
        """The game's registration (id, title, editor, ...)."""
        self.set_reactive(PuzzleScreen.session, session)
        self.records = LevelRecords(info.id, lambda: self.arcade.store, ref, level)
        """The level's saved game, play clock, scores and results in the store."""
        self.launcher = launcher
        """The game's launcher (sources and saves), if any."""
        self.digit_entry = DigitEntry(
            count=self.numbered_count,
            lookup=self.numbered_move,
            pick=self.pick,
            say=self.say,
            bell=lambda: self.app.bell(),  # noqa: PLW0108 (the app is not known in __init__)
            start_timer=self.set_timer,
            word=self.NUMBER_WORD,
        )
        """The digits typed to pick a numbered move (with :attr:`NUMBERED_MOVES`)."""
        self.hint_job = HintJob()
        """The latest hint worker and the position it is about."""
        self.messages = MessageLine(
            lambda: self.query_one(MessageBar).say if self._ready else None, self.set_timer
        )
        """The message line's text and its transient timer."""
        self.levels = LevelNav(launcher)
        """Where ``N``, a Game ID or the editor go next (through the launcher)."""

    @property
    def last_message(self) -> str:
        """The text on the message line (for tests)."""
        return self.messages.last

    @last_message.setter
    def last_message(self, text: str) -> None:
        self.messages.last = text

    # -- handles -----------------------------------------------------------------------------

    @property
    def ref(self) -> LevelRef | None:
        """Where the level comes from (its save slot); None: not saved (a preview)."""
        return self.records.ref

    @property
    def level(self) -> Any:
        """The level being played."""
        return self.records.level

    @property
    def clock(self) -> PlayClock:
        """Play time on this level (see :mod:`tui.screens.playtime`); kept in the save."""
        return self.records.clock

    @property
    def autoplayed(self) -> bool:
        """True once the computer played in this level's game (kept in the save)."""
        return self.records.autoplayed

    @property
    def arcade(self) -> Arcade:
        """The app, typed (screens of this base only run inside :class:`Arcade`)."""
        from tui.arcade import arcade_of

        return arcade_of(self)

    @property
    def game(self) -> Any:
        """The engine."""
        assert self.session is not None
        return self.session.game

    @property
    def state(self) -> Any:
        """The current engine state."""
        assert self.session is not None
        return self.session.state

    @property
    def level_title(self) -> str:
        """The level's title ("" when it has none)."""
        return self.level.title if self.level is not None else ""

    @property
    def par(self) -> int | None:
        """The level's par, if it has one."""
        return self.level.par if self.level is not None else None

    @property
    def game_id(self) -> str:
        """The game's id (store key, help page, leaderboards): :attr:`info`'s."""
        return self.info.id

    @property
    def in_progress(self) -> bool:
        """True while the game has moves and is not over (quitting then asks first)."""
        return self.session is not None and self.session.touched and not self.session.finished

    # -- layout and rendering ------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield PuzzleHeader(id="puzzle-header")
        yield from self.compose_board()
        yield MessageBar(id="puzzle-message")
        yield ArcadeFooter(compact=True)

    @property
    def best_score(self) -> int:
        """The player's best on the current score board, this game's score included (0 for
        games without a score)."""
        return self.records.best_score(self.score(self.session) if self.session else None)

    def record_progress(self, session: Session) -> None:
        """Record the game's :meth:`score` on the score boards after each change, before the
        screen is drawn: this game's line (its best score; the autoplay mark sticks) and the
        player's own best (a game the computer played is not the player's)."""
        self.records.record_progress(session, self.score(session))

    _ready = False

    def on_mount(self) -> None:
        self._ready = True
        self.records.restore(self.session)
        self._refresh_all(None)
        self.after_mount()

    def on_screen_resume(self) -> None:
        """On top again (or for the first time): play time counts."""
        self.clock.start()

    def on_screen_suspend(self) -> None:
        """Help, a dialog or another screen covers this one: play time stops."""
        self.clock.pause()

    def watch_session(self, old: Session | None, new: Session | None) -> None:
        """The one render path: redraw, save, and open the outcome dialog after a move."""
        self._refresh_all(old)

    def _refresh_all(self, old: Session | None) -> None:
        session = self.session
        if session is None or not self._ready:
            return
        if self.hint_job.outdated_by(session):
            self.cancel_hint()  # a hint about the previous position would mislead
        if self.prepare_position(old):
            self.show_position(old)

    def show_position(self, old: Session | None) -> None:
        """Show the current position: record progress, draw, save, and open the outcome
        dialog when ``old``'s move ended the game.

        Args:
            old: The session shown before (None: no move led here, so no outcome dialog).
        """
        session = self.session
        self.record_progress(session)  # the store first: drawing never writes
        self.render_state(session)
        self.query_one(PuzzleHeader).update(Text(self.header_text()))
        self.arcade.game_in_progress = self.in_progress
        self._save()
        if old is not None:
            self.messages.moved()  # "Redone." is not about the new position
            self._check_outcome(old, session)

    def header_text(self) -> str:
        """Game and level title, moves (par), status, undo/redo availability."""
        return header_line(
            self.info.title,
            self.level_title,
            self.session,
            par=self.par,
            move_word=self.MOVE_WORD,
            autoplayed=self.autoplayed,
        )

    def say(self, text: str, severity: str = "information", transient: bool = False) -> None:
        """Show a message on the message line (under the board).

        Args:
            text: The message ("" clears the line).
            severity: ``"information"``, ``"warning"`` or ``"error"``.
            transient: Clear it after :data:`TRANSIENT_SECONDS` and at the next move (for
                acknowledgements such as "Undone." that would otherwise stay and mislead).
        """
        self.messages.say(text, severity, transient)

    # -- moves -----------------------------------------------------------------------------------

    def play(self, move: Any) -> bool:
        """Play ``move`` through the engine; an illegal move changes nothing and says why.

        Returns:
            True when the move was played.
        """
        step = history.play(self.session, move)
        if step.session is None:
            self.app.bell()
            self.say(step.text, step.severity)
            return False
        self.session = step.session
        return True

    def numbered_moves(self) -> Sequence[Any]:
        """The moves that digit keys pick, in the order (and numbering) the CLI uses."""
        return self.game.moves(self.state)

    def action_digit(self, digit: int) -> None:
        """Pick move N by its number; two quick digits make a two-digit number."""
        if self.NUMBERED_MOVES:
            self.digit_entry.press(digit)

    def numbered_count(self) -> int | None:
        """How many numbered moves there are (None while not known yet: a game whose moves
        are counted in the background; digits then wait for a second digit)."""
        return len(self.numbered_moves())

    def numbered_move(self, number: int) -> Any:
        """Numbered move ``number`` (from 1).

        Raises:
            LookupError: When there is no such move; its message is shown to the player
                (empty: the default sentence).
        """
        return numbered(self.numbered_moves(), number)

    def pick(self, move: Any, number: int) -> None:
        """What picking numbered move ``number`` does (default: play it)."""
        text = self.game.describe_move(self.state, move)
        if self.play(move):
            self.say(f"{self.NUMBER_WORD} {number}: {text}")

    # -- the keys of a move --------------------------------------------------------------------

    def keys_for(self, move: Any) -> Sequence[str]:
        """The keys a player presses to play ``move`` from the screen as it is now.

        Every game answers it with its own bindings (:meth:`binding_key`; the screen may be
        unmounted), so one generic test plays seeded random legal moves of every game through
        its keys (``tests/tui/test_every_game.py``) and the terminal tour types them. The
        default types the digits of the move's number in :meth:`numbered_moves` (with
        :attr:`NUMBERED_MOVES`; a digit a longer number could start with waits
        :data:`DIGIT_WAIT` seconds, as when a player types it).

        Args:
            move: A legal move of the current state (one of ``game.moves(state)``).

        Returns:
            Textual key names (``"left"``, ``"3"``, ``"enter"``; the characters of a text
            typed into a field), in the order to press them; empty when this screen cannot
            play ``move`` from keys now (a position still being analysed).
        """
        if not self.NUMBERED_MOVES:
            return ()
        return keys.numbered_keys(self.numbered_moves(), move, self.binding_key)

    def number_keys(self, number: int) -> tuple[str, ...]:
        """The digit keys that pick numbered move ``number`` (the ``puzzle.digitN`` bindings).

        Args:
            number: The move's number, from 1.

        Returns:
            One key per digit.
        """
        return keys.digit_keys(number, self.binding_key)

    def binding_key(self, binding_id: str, owner: type[DOMNode] | None = None) -> str:
        """The key that runs the binding ``binding_id`` now (for :meth:`keys_for`): the
        active one on the screen shown, else the declared one remapped by the player's
        keymap (:func:`tui.screens.play.keys.screen_key`, which says more).

        Args:
            binding_id: The id of a binding (``"puzzle.undo"``, ``"longcat.left"``).
            owner: The class declaring the binding when it is not this screen (a dialog the
                keys open); None: this screen.

        Raises:
            LookupError: When no such binding is declared, or no key runs it now.
        """
        return keys.screen_key(self, binding_id, owner)

    def action_settings(self) -> None:
        """Open the game's settings from its screen (the palette's "Settings: <game>" while
        the game is shown). The default opens :meth:`settings_dialog`; a game overrides it
        to apply a change at once (2048's animation, Longcat's generators)."""
        dialog = self.settings_dialog(self.app)
        if dialog is not None:
            self.app.push_screen(*dialog)

    # -- undo, redo, restart ---------------------------------------------------------------------

    def action_undo(self) -> None:
        """Take back the last move."""
        self._take(history.undo(self.session))

    def action_redo(self) -> None:
        """Play again a move taken back."""
        self._take(history.redo(self.session))

    def action_restart(self) -> None:
        """Back to the start, as a move (``u`` undoes it: nothing is lost)."""
        self._take(history.restart(self.session))

    def _take(self, step: history.Step) -> None:
        if step.session is not None:
            self.session = step.session
        self.say(step.text, step.severity, step.transient)

    # -- levels ----------------------------------------------------------------------------------

    def action_back(self) -> None:
        """Back to the level list (the game stays saved)."""
        self.leave()
        self.dismiss(self.ref)

    def leave(self) -> None:
        """Stop thinking and the clock and save (the thinking time since the last move): the
        screen is about to go (back, or the command palette opening something else)."""
        self.cancel_hint()
        self.clock.pause()
        self._save(fresh=True)
        self.arcade.game_in_progress = False

    def action_next_level(self) -> None:
        """The next level of the source (a new one for a generator); this game stays saved."""
        self._open(self.levels.next_level(self.ref, self.session.touched))

    def after_win_keys(self) -> str:
        """What to press after a win: ``N: next level · esc: levels``, without N at the end."""
        return self.levels.after_win_keys(self.ref)

    def _open(self, opening: Opening | None) -> None:
        """Play the level ``opening`` names (if any), then say its sentence."""
        if opening is None:
            return
        if opening.ref is not None and opening.session is not None:
            self.switch_level(
                opening.ref, opening.level, opening.session, save_current=opening.save_current
            )
        self.say(opening.text, opening.severity)

    def switch_level(
        self, ref: LevelRef, level: Any, session: Session, *, save_current: bool = True
    ) -> None:
        """Play another level in this screen.

        Args:
            ref: Where the level comes from.
            level: The level.
            session: Its game (new or resumed).
            save_current: Save the game being left (its play time); False when that game was
                deleted on purpose (the editor replaced its level).
        """
        self.cancel_hint()
        if save_current:
            self._save(fresh=True)  # The previous level keeps its play time.
        # Whether the game left behind had moves (Longcat's "Your previous game is saved").
        self._was_touched = bool(self.session and self.session.touched)
        self.records.switch(ref, level)  # another level: another slot and score board
        self.set_reactive(PuzzleScreen.session, session)
        self.records.restore(self.session)
        self.on_level_changed()
        self._refresh_all(None)

    # -- the level editor --------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "edit_level":  # E only where the game registers an editor
            return self.info.editor is not None
        return super().check_action(action, parameters)

    def action_edit_level(self) -> None:
        """Open the game's level editor on this level (the game in progress is untouched;
        the editor's "Current position" copies it on request)."""
        if self.info.editor is None:
            return
        editor = self.info.load("editor")(
            self.level, self.state, mine_id=mine_id(self.ref), info=self.info
        )
        self.app.push_screen(editor, self._edited)

    def _edited(self, result: Edited | None) -> None:
        """The editor closed: play the edited level when it asks to or replaced this one."""
        self._open(self.levels.edited(self.ref, result))

    # -- game IDs ---------------------------------------------------------------------------------

    @property
    def level_id(self) -> str | None:
        """The ID of the level being played (:mod:`tui.ids`); None when it has none."""
        return level_id(self.info.id, self.ref, self.level)

    def action_level_id(self) -> None:
        """The "Game ID / seed…" dialog: this level's ID, and a box to open another."""
        from tui.commands import level_id_dialog

        level_id_dialog(self.arcade)

    def play_resolved(self, resolved: Any) -> None:
        """Play the level an ID named in this screen (same game; this game stays saved)."""
        self._open(self.levels.resolved(self.ref, resolved, self.session.touched))

    # -- saving ----------------------------------------------------------------------------------

    def level_text(self) -> str | None:
        """The level as level-file text (cached; None when the game has no level format)."""
        return self.records.level_text()

    def save_summary(self) -> dict[str, Any]:
        """What the level list shows without loading the save."""
        return self.records.summary(self.session, self.level_title, self.par)

    def mark_autoplayed(self) -> None:
        """The computer plays in this game: its results go to the autoplayed boards, for good."""
        self.records.mark_autoplayed()

    def _save(self, fresh: bool = False) -> None:
        """Save the game in its slot (``fresh``: checkpoint the current state, as when
        leaving the level; see :meth:`LevelRecords.save_data`)."""
        if self.ref is not None and self.session.touched:
            data = self.records.save_data(self.session, self.level_text(), fresh)
            self.records.save(data, self.save_summary())

    # -- outcome ---------------------------------------------------------------------------------

    def _check_outcome(self, old: Session, new: Session) -> None:
        """Open the outcome dialog when a move (or redo) changes won/lost/finished."""
        kind = outcome_kind(old, new)
        if kind is None:
            return
        if new.status == "won":
            self.record_win(new)
        modal = OutcomeModal(
            kind,
            self.level_title or self.info.id,
            self.outcome_detail(kind),
            has_next=self.levels.has_next(self.ref),
            by_computer=self.autoplayed,
        )
        self.app.push_screen(modal, self._outcome_chosen)

    def record_win(self, session: Session) -> None:
        """Record a won game in the store (called once, when the win's dialog opens).

        The default records the level solved with ``session.moves_made`` and the play time,
        on the level's leaderboards (:meth:`LevelRecords.record_win`). A game whose par
        counts something else than moves overrides it.

        Args:
            session: The won game.
        """
        self.records.record_win(session)

    def outcome_detail(self, kind: str) -> str:
        """The dialog's text: moves against par, or why the game is lost."""
        if kind == "lost":
            return self.loss_reason() or "No move is left."
        return par_verdict(self.session.moves_made, self.par)

    def _outcome_chosen(self, choice: str | None) -> None:
        action = CHOICE_ACTIONS.get(choice or "")
        if action is not None:
            getattr(self, f"action_{action}")()
        elif choice == "keep":
            self.say("Keep going!")

    # -- hints -----------------------------------------------------------------------------------

    def action_tip(self) -> None:
        """Ask for a hint in a worker thread (time-bounded; cancelled by any move)."""
        refusal = tip_refusal(self.session.finished, self.hint_running)
        self.say(refusal or "Thinking…")
        if refusal is None:
            self.request_hint()

    @property
    def hint_running(self) -> bool:
        """True while a hint worker is thinking (a cancelled one no longer counts)."""
        return self.hint_job.running

    def request_hint(self) -> None:
        """Start the hint worker for the current position; a hint worker still running is
        cancelled (one group, exclusive). The result goes to :meth:`show_hint` unless the
        worker was cancelled meanwhile (a move, leaving, :meth:`cancel_hint`)."""
        self.hint_job.started(
            self._hint_worker(self.session.state, self.HINT_TIME_LIMIT), self.session
        )

    @work(thread=True, exclusive=True, group=HINT_GROUP, exit_on_error=False, name="hint")
    def _hint_worker(self, state: Any, time_limit: float) -> Hint:
        # exit_on_error=False: a failing solver must not end the game; the failure is
        # shown by on_worker_state_changed instead. `cancelled` is this worker's flag.
        return self.compute_hint(state, cancelled, time_limit)

    def cancel_hint(self) -> None:
        """Stop looking for a hint (its result, if it still comes, is dropped)."""
        self.workers.cancel_group(self, HINT_GROUP)

    def show_hint(self, hint: Hint) -> None:
        """Show a finished hint (only when the position did not change meanwhile)."""
        self.say(hint.text)
        if hint.move is not None:
            self.highlight_move(hint.move)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """Show the hint when its worker ends (a failure as one line on the message bar);
        a cancelled worker's result is stale (the position moved on, or a newer hint runs)
        and is dropped by :func:`tui.workers.finished`.

        Textual calls this for subclasses too (it walks the class hierarchy): a subclass
        routes only the groups it starts and does not call it again through ``super()``.
        """
        finished(self, event, {HINT_GROUP: Route("The hint", self._hint_found, self._hint_failed)})

    def _hint_found(self, result: Any) -> None:
        if isinstance(result, Hint):
            self.show_hint(result)

    def _hint_failed(self, line: str) -> None:
        self.say(line, "error")
