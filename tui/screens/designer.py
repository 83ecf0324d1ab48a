"""The level designer's bench: one screen base that every game's level editor is built on.

A game's editor subclasses :class:`DesignerScreen` and writes only what is its own: its fields
(:meth:`DesignerScreen.compose_fields`), how they become a level
(:meth:`DesignerScreen.read_level`), and optionally a live verdict computed in a worker while
the designer types (:meth:`DesignerScreen.live_verdict`), "Current position"
(:meth:`DesignerScreen.fill_from_state`) and its own buttons. The base owns the rest, the same
in every game:

* it edits the *level*, never the game in progress ("Current position", F9, copies the game
  into the fields on request, and ``ctrl+z`` undoes that);
* Play (F2) and Save (F3) keep the level in *My levels* (the store: playable at once, also
  when served), Export (F8) writes a level file and never replaces one without asking;
* before Save, Play or Export writes the level, metadata derived from it that the bench now
  contradicts (:meth:`DesignerScreen.derived_metadata`: a par the verdict disproves, a
  difficulty label in the title) is listed in :class:`tui.modals.stale_metadata.StaleMetadataModal`,
  each field updated or kept as the designer says, and a My level never takes a bundled
  level's exact title (:meth:`DesignerScreen.stale_metadata`);
* every way out with unsaved edits asks first (``escape`` here; ``ctrl+q`` and the palette's
  commands through :mod:`tui.unsaved`);
* undo inside the editor: typing in a text area has the area's own history; changes the
  editor makes itself (Current position, a painted cell, a resize) are checkpoints of every
  field's value (:meth:`DesignerScreen.record_change`), undone by ``ctrl+z`` and redone by
  ``ctrl+y``;
* errors are shown as the level-file loader shows them (line, column, the line, a caret);
* the live verdict runs in one exclusive worker, restarted (and the previous one told to
  stop) at each change, so typing never waits for it;
* a job (a solver, a linter) started by a button runs in a worker with a progress line and
  a Cancel button; Cancel cancels the worker (its result is dropped) and the job, which
  polls :func:`tui.workers.cancelled`, stops at its next check (:mod:`tui.workers`).

A game registers its editor in its :class:`core.registry.GameInfo` (``editor``); the game
screen then offers ``E`` (:meth:`tui.screens.puzzle.PuzzleScreen.action_edit_level`). A game
without an editor has no ``E``. :class:`LevelTextDesigner` is the editor of a game whose
level is best written as level-file text (its own format: the same grammar, the same
messages).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import Button, Footer, Input, LoadingIndicator, Select, Static, TextArea
from textual.worker import NoActiveWorker, Worker, get_current_worker

from core.text import escape_controls
from grammar.errors import ParseError
from tui.arcade import arcade_of
from tui.modals.stale_metadata import MetadataUpdate
from tui.screens.common import ScreenHooks
from tui.sources import LevelRef
from tui.store import DuplicateTitle
from tui.text import plain
from tui.unsaved import HoldsUnsavedWork
from tui.widgets.plain_fields import PlainTextArea
from tui.workers import Route, cancelled, finished, is_running

if TYPE_CHECKING:  # pragma: no cover
    from core.registry import GameInfo

__all__ = [
    "JOB_GROUP",
    "LIVE_GROUP",
    "DesignerScreen",
    "Edited",
    "JobProgress",
    "LevelTextDesigner",
    "MetadataUpdate",
    "Values",
]

LIVE_GROUP = "designer-verdict"
"""The worker group of the live verdict (a newer edit's verdict cancels the older)."""
JOB_GROUP = "designer-job"
"""The worker group of a button's job (a solver, a linter): one at a time."""

Values = tuple[Any, ...]
"""Every field's value at one moment (:meth:`DesignerScreen.field_values`)."""


class Edited(NamedTuple):
    """What the editor hands back to the game screen when it closes.

    The editor dismisses with one when the player asked to play a saved level, or when a save
    replaced a level of My levels (its game in progress was deleted: the screen playing it must
    not write that game back).
    """

    ref: LevelRef
    """The saved level's place in My levels."""
    level: Any
    """The saved level."""
    play: bool
    """Whether the player asked to play it (Play), rather than only saved it."""


class DesignerScreen(ScreenHooks, HoldsUnsavedWork, ModalScreen["Edited | None"]):
    """Base of every game's level editor (see the module docstring).

    Args:
        level: The level to edit (the fields start from it).
        state: The game in progress (for "Current position"), or None.
        mine_id: The level's id in My levels when it is one of the player's own (Save then
            replaces it), else None (Save adds a new own level).
        info: The game's registration (its id is the store key and the level format; its
            help page is F1's).

    Dismisses with ``(ref, level)`` to play, or None.
    """

    EDITOR_TITLE: ClassVar[str] = "Level editor"
    """The border title."""
    LIVE_DELAY: ClassVar[float] = 0.25
    """Seconds of quiet after a change before the live verdict is computed again."""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f2", "play", "Play", id="dev.apply"),
        Binding("f3", "save", "Save", id="dev.save"),
        Binding("f8", "export", "Export…", id="dev.export"),
        Binding("f9", "use_current", "Current position", id="dev.current"),
        # Priority: before the focused text area's own undo, which the actions defer to.
        Binding("ctrl+z", "undo", "Undo", id="dev.undo", priority=True, show=False),
        Binding("ctrl+y", "redo", "Redo", id="dev.redo", priority=True, show=False),
        Binding("escape", "close", "Close", id="dev.close", key_display="esc"),
        # A modal screen: the app's own f1 does not reach through, so the bench has its own.
        Binding("f1", "app.help", "Help", id="dev.help", show=False),
    ]

    DEFAULT_CSS = """
    DesignerScreen { align: center middle; }
    #dev-panel {
        width: 100%;
        max-width: 120;
        height: 1fr;
        background: $surface;
        border: round $accent;
        border-title-style: bold;
        padding: 0 1;
    }
    #dev-fields, #dev-fields2 { height: 1; }
    #dev-fields Label, #dev-fields2 Label { padding: 0 1 0 0; }
    #dev-fields Input { margin-right: 1; }
    .dev-label { color: $text-muted; height: 1; }
    #dev-verdict { height: auto; max-height: 6; color: $text-muted; }
    #dev-error-message { height: auto; max-height: 4; color: $text-error; }
    #dev-error-message.-ok { color: $text-success; }
    #dev-buttons { height: 1; }
    #dev-buttons Button { margin-right: 1; min-width: 0; width: auto; }
    #dev-progress Button { min-width: 0; width: auto; }
    #dev-progress { height: 1; display: none; }
    #dev-progress.-running { display: block; }
    #dev-progress LoadingIndicator { width: 8; height: 1; }
    #dev-progress-text { width: 1fr; }
    #dev-result-scroll { height: auto; max-height: 6; padding-left: 1; }
    #dev-result { height: auto; }
    """

    def __init__(
        self, level: Any, state: Any = None, mine_id: int | None = None, *, info: GameInfo
    ) -> None:
        super().__init__()
        self.info = info
        """The game's registration."""
        self.level = level
        """The level the editor was opened on."""
        self.state = state
        """The game in progress ("Current position" copies it)."""
        self._mine_id = mine_id
        self._replaced: Edited | None = None
        """The last save that replaced a level of My levels (handed back on closing)."""
        self._saved: Values | None = None
        self._undo: list[tuple[Values, Values]] = []
        """Editor-made changes as (before, after) field values."""
        self._redo: list[tuple[Values, Values]] = []
        self._job: Worker[Any] | None = None
        self._live_timer: Timer | None = None
        self._restoring = False
        self._kept: tuple[Any, set[str]] | None = None
        """The last level written with stale fields kept, and those fields."""
        self.result_text = ""
        """Plain text of the last job's result (for tests and copy)."""
        self.error_text = ""
        """Plain text of the error line ("" when there is no error)."""
        self._message_ok = False
        self.verdict_text = ""
        """Plain text of the live verdict ("" until one is computed)."""

    @property
    def game_id(self) -> str:
        """The edited levels' game (F1 opens its help page, whose "Level editor" section)."""
        return self.info.id

    # -- what a game's editor writes ---------------------------------------------------------

    def compose_fields(self) -> ComposeResult:
        """The game's fields (inside the panel, above the verdict and the buttons)."""
        return iter(())

    def extra_buttons(self) -> Iterable[Button]:
        """The game's own buttons (between Export and Current position)."""
        return ()

    def button_actions(self) -> dict[str, Callable[[], None]]:
        """``button id -> action`` for :meth:`extra_buttons`."""
        return {}

    def read_level(self, quiet: bool = False) -> Any:
        """Build the level from the fields, or show what is wrong and return None.

        Args:
            quiet: True for the live verdict: report the error but leave the focus and the
                cursor where the designer is typing.
        """
        raise NotImplementedError

    def live_verdict(self, level: Any, should_stop: Callable[[], bool]) -> str | None:
        """What the bench says about ``level`` (runs in a worker; None: nothing to say).

        Args:
            level: What :meth:`read_level` built.
            should_stop: True once the designer changed the level again (stop early).
        """
        return None

    @property
    def can_use_current(self) -> bool:
        """Whether "Current position" can fill the fields (a game is in progress)."""
        return self.state is not None

    def fill_from_state(self, state: Any) -> None:
        """Fill the fields from the game in progress (for "Current position")."""

    def derived_metadata(self, level: Any) -> list[MetadataUpdate]:
        """The fields of ``level`` that what the bench now knows contradicts (a par the live
        verdict disproves, a difficulty label in the title), each with its new value.

        Called on the UI thread when the level is saved or exported; a game answers from the
        verdict it already has for exactly this level (none yet: nothing to say), never by
        searching here.

        Args:
            level: What :meth:`read_level` built.

        Returns:
            One :class:`MetadataUpdate` per stale field (empty: nothing stale).
        """
        return []

    def show_metadata(self, level: Any) -> None:
        """Show ``level`` (the edited level with updated metadata) in the fields, as one
        undoable change; an editor that does not override it keeps its fields as they were."""

    def extra_values(self) -> Values:
        """Values the editor keeps outside its inputs and text areas (a painted grid)."""
        return ()

    def set_extra_values(self, values: Values) -> None:
        """Put back what :meth:`extra_values` returned."""

    # -- layout ------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Vertical(id="dev-panel") as panel:
            panel.border_title = self.EDITOR_TITLE
            yield from self.compose_fields()
            yield Static("", id="dev-verdict")
            yield Static("", id="dev-error-message")
            with Horizontal(id="dev-buttons"):
                # Short labels: they fit in 80 columns; tooltips say the rest.
                yield Button(
                    "Play F2",
                    id="dev-play-button",
                    variant="primary",
                    compact=True,
                    tooltip="Save in My levels and play it",
                )
                yield Button(
                    "Save F3", id="dev-save-button", compact=True, tooltip="Save in My levels"
                )
                yield Button(
                    "Export F8",
                    id="dev-export-button",
                    compact=True,
                    tooltip="Write a level file (asks before replacing one)",
                )
                yield from self.extra_buttons()
                yield Button(
                    "Current F9",
                    id="dev-current-button",
                    compact=True,
                    disabled=not self.can_use_current,
                    tooltip="Start the level from the current position (ctrl+z undoes)",
                )
                yield Button("Close", id="dev-close-button", compact=True, tooltip="Close (esc)")
            with Horizontal(id="dev-progress"):
                yield LoadingIndicator()
                yield Static("", id="dev-progress-text")
                yield Button("Cancel", id="dev-cancel-button", variant="warning", compact=True)
            with VerticalScroll(id="dev-result-scroll"):
                yield Static("", id="dev-result")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.query_one("#dev-export-button", Button).display = not arcade_of(self).served
        self._saved = self.field_values()
        self.changed()

    # -- field values: unsaved edits and undo --------------------------------------------------

    def _editables(self) -> list[Input | TextArea | Select[Any]]:
        panel = self.query_one("#dev-panel")
        return list(panel.query("Input, TextArea, Select"))  # type: ignore[arg-type]

    def field_values(self) -> Values:
        """Every field's value: the inputs, text areas and selects in order, then
        :meth:`extra_values`."""
        values: list[Any] = []
        for widget in self._editables():
            values.append(widget.text if isinstance(widget, TextArea) else widget.value)
        return (*values, *self.extra_values())

    def set_field_values(self, values: Values) -> None:
        """Put ``values`` (from :meth:`field_values`) back into the fields."""
        widgets = self._editables()
        self._restoring = True
        try:
            for widget, value in zip(widgets, values[: len(widgets)], strict=True):
                if isinstance(widget, TextArea):
                    if widget.text != value:
                        widget.text = value  # clears the area's own history: a checkpoint
                elif widget.value != value:
                    widget.value = value
            self.set_extra_values(values[len(widgets) :])
        finally:
            self._restoring = False
        self.changed()

    @property
    def edited(self) -> bool:
        """True when the fields differ from the last saved (or opened) level."""
        return self._saved is not None and self.field_values() != self._saved

    def unsaved_work(self) -> str | None:
        """The question's first sentence when the fields hold unsaved edits (see
        :mod:`tui.unsaved`), else None."""
        if not self.edited:
            return None
        return "The level editor has unsaved edits (F3 saves them in My levels)."

    def record_change(self, before: Values) -> None:
        """Make the change the editor just made (from ``before`` to now) undoable."""
        after = self.field_values()
        if after != before:
            self._undo.append((before, after))
            self._redo.clear()
        self.changed()

    def _focused_area(self) -> TextArea | None:
        focused = self.focused
        return focused if isinstance(focused, TextArea) else None

    def action_undo(self) -> None:
        """Undo typing in the focused text area, else the editor's last change."""
        area = self._focused_area()
        if area is not None and area.history.undo_stack:
            area.action_undo()
        elif self._undo:
            before, after = self._undo.pop()
            self.set_field_values(before)
            self._redo.append((before, after))
            self.show_error("Undone (ctrl+y redoes).", ok=True)
        else:
            self.app.bell()

    def action_redo(self) -> None:
        """Redo in the focused text area, else the editor's last undone change."""
        area = self._focused_area()
        if area is not None and area.history.redo_stack:
            area.action_redo()
        elif self._redo:
            before, after = self._redo.pop()
            self.set_field_values(after)
            self._undo.append((before, after))
            self.show_error("Redone.", ok=True)
        else:
            self.app.bell()

    def action_use_current(self) -> None:
        """Fill the fields from the game in progress (undoable)."""
        if not self.can_use_current:
            return
        before = self.field_values()
        self.fill_from_state(self.state)
        self.record_change(before)
        self.show_error(
            "The level now starts from the current position (not saved yet; ctrl+z undoes it).",
            ok=True,
        )

    # -- messages ----------------------------------------------------------------------------

    def show_error(self, message: str, ok: bool = False) -> None:
        """Show ``message`` on the error line ("" clears it)."""
        self.error_text = message
        self._message_ok = ok
        box = self.query_one("#dev-error-message", Static)
        box.update(Text(escape_controls(message, keep_newlines=True)))
        box.set_class(ok, "-ok")

    def clear_error(self) -> None:
        """The level reads again: take an error away, but leave an acknowledgement ("Saved
        in My levels", "Undone") that the live check, reading the level a moment after the
        change, would otherwise wipe at once."""
        if not self._message_ok:
            self.show_error("")

    def show_parse_error(self, error: ParseError, area: TextArea | None, quiet: bool) -> None:
        """Show a loader's error (line, column, the line, a caret); unless ``quiet``, put the
        cursor of ``area`` where it points."""
        self.show_error(error.render())
        if area is not None and not quiet:
            area.focus()
            if error.line:
                area.cursor_location = (error.line - 1, max(error.column - 1, 0))

    # -- live verdict --------------------------------------------------------------------------

    @on(Input.Changed)
    @on(TextArea.Changed)
    @on(Select.Changed)
    def _field_changed(self, event: Any) -> None:
        if not self._restoring:
            self.changed()

    def changed(self) -> None:
        """The level may have changed: compute the live verdict again after a short quiet."""
        if self._live_timer is not None:
            self._live_timer.stop()
        self._live_timer = self.set_timer(self.LIVE_DELAY, self._start_live)

    def _start_live(self) -> None:
        self._live_timer = None
        level = self.read_level(quiet=True)
        if level is None:
            self._show_verdict("")
            return
        self._live_worker(level)

    @work(thread=True, exclusive=True, group=LIVE_GROUP, exit_on_error=False)
    def _live_worker(self, level: Any) -> str | None:
        return self.live_verdict(level, cancelled)

    def _show_verdict(self, text: str) -> None:
        self.verdict_text = text
        self.query_one("#dev-verdict", Static).update(
            Text(escape_controls(text, keep_newlines=True))
        )

    # -- buttons -----------------------------------------------------------------------------

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        actions = {
            "dev-play-button": self.action_play,
            "dev-save-button": self.action_save,
            "dev-export-button": self.action_export,
            "dev-current-button": self.action_use_current,
            "dev-close-button": self.action_close,
            "dev-cancel-button": self.action_cancel_job,
            **self.button_actions(),
        }
        handler = actions.get(event.button.id or "")
        if handler is not None:
            handler()

    def action_save(self, then_play: bool = False) -> None:
        """Keep the edited level in My levels (replacing it when it is one of yours)."""
        level = self.read_level()
        if level is None:
            return
        store = arcade_of(self).store
        from tui.exporting import save_to_my_levels

        game = self.info.id

        def slot(level_id: int) -> str:
            return LevelRef("mine", str(level_id)).slot

        def keep(replace_id: int | None, confirmed: bool = False) -> None:
            if (
                replace_id is not None
                and not confirmed
                and store.load_game(game, slot(replace_id)) is not None
            ):
                ask(replace_id, "It has a game in progress, which would be deleted.")
                return
            try:
                item = save_to_my_levels(store, game, level, replace_id)
            except DuplicateTitle as duplicate:
                saved = store.load_game(game, slot(duplicate.existing_id)) is not None
                ask(
                    duplicate.existing_id, "Its game in progress would be deleted." if saved else ""
                )
                return
            except ValueError as error:
                self.show_error(str(error))
                return
            if item is None:
                self.show_error("Could not save the level (see the storage warning).")
                return
            ref = LevelRef("mine", str(item.id))
            if replace_id is not None:  # the old version's game no longer fits the level
                store.delete_game(game, slot(replace_id))
                self._replaced = Edited(ref, level, play=False)
            self._mine_id = item.id
            self._saved = self.field_values()
            self.show_error(f"Saved in My levels as “{level.title}”.", ok=True)
            if then_play:
                self.action_cancel_job()
                self.dismiss(Edited(ref, level, play=True))

        def ask(existing_id: int, consequence: str) -> None:
            from tui.modals.choice import ChoiceModal

            def decided(answer: str | None) -> None:
                if answer == "replace":
                    keep(existing_id, confirmed=True)

            self.app.push_screen(
                ChoiceModal(
                    f"Replace your level “{level.title}” with this version? {consequence} "
                    "(Change the title to keep both.)",
                    [("cancel", "Cancel", "c"), ("replace", "Replace", "r")],
                ),
                decided,
            )

        def checked(checked_level: Any) -> None:
            nonlocal level
            level = checked_level
            keep(self._mine_id)

        self.check_metadata(level, "Save in My levels", checked, mine=True)

    def action_play(self) -> None:
        """Keep the edited level in My levels, then play it."""
        self.action_save(then_play=True)

    def action_export(self) -> None:
        """Write the edited level to a file (asks before touching an existing file)."""
        if arcade_of(self).served:
            self.show_error("Export to files is not available here: Save keeps the level.")
            return
        level = self.read_level()
        if level is None:
            return
        from tui.exporting import default_file_name
        from tui.modals.export import ExportModal

        def done(message: str | None) -> None:
            if message:
                self.exported(message)

        def checked(level: Any) -> None:
            self.app.push_screen(
                ExportModal(self.info.id, level, default_file_name(level.title)), done
            )

        self.check_metadata(level, "Export", checked)

    # -- metadata derived from the level ---------------------------------------------------------

    def bundled_titles(self) -> frozenset[str]:
        """The titles of the game's bundled levels (a My level never takes one)."""
        from grammar.levels import bundled_packs

        return frozenset(
            level.title for _, pack in bundled_packs(self.info.id) for level in pack.levels
        )

    def stale_metadata(self, level: Any, mine: bool) -> list[MetadataUpdate]:
        """What :meth:`derived_metadata` finds stale, and for My levels a bundled title.

        Args:
            level: The level about to be written.
            mine: True when it goes to My levels (where a bundled level's exact title is
                refused: it would pass for the bundled level in lists, saves and results).

        Returns:
            The updates to offer (the title's rename, when required, is one of them).
        """
        # A field the designer kept for this very level is not asked about again (Save,
        # then Export of the same level, asks once).
        kept = self._kept[1] if self._kept is not None and self._kept[0] == level else set()
        updates = [
            u for u in self.derived_metadata(level) if u.old != u.new and u.field not in kept
        ]
        if mine and level.title in self.bundled_titles():
            # The rename cannot be kept: it takes the derived title (when there is one) and
            # adds "(edited)" only where that is still a bundled title.
            derived = next((u for u in updates if u.field == "title"), None)
            title = level.title if derived is None else derived.new
            why = "My levels never take a bundled level's title"
            if derived is not None:
                why = f"{derived.why}; required: {why[0].lower()}{why[1:]}"
            if title in self.bundled_titles():
                title = f"{title} (edited)"
            updates = [u for u in updates if u.field != "title"]
            updates.insert(0, MetadataUpdate("title", level.title, title, why, required=True))
        return updates

    def check_metadata(
        self, level: Any, what: str, then: Callable[[Any], None], *, mine: bool = False
    ) -> None:
        """Before ``level`` is written: offer to update its stale metadata, then ``then``.

        Nothing stale: ``then(level)`` at once. Else :class:`StaleMetadataModal` lists the
        fields; the designer's answer is applied to the level and shown in the fields (an
        undoable change) before ``then`` writes it; going back writes nothing.

        Args:
            level: The level read from the fields.
            what: What is about to happen, for the dialog ("Export").
            then: Writes the (updated) level.
            mine: True for My levels (see :meth:`stale_metadata`).
        """
        updates = self.stale_metadata(level, mine)
        if not updates:
            then(level)
            return
        from tui.modals.stale_metadata import StaleMetadataModal

        def decided(chosen: dict[str, Any] | None) -> None:
            if chosen is None:
                self.show_error("Nothing written: the level is as you left it.")
                return
            kept = {u.field for u in updates if u.field not in chosen}
            updated = dataclasses.replace(level, **chosen) if chosen else level
            if kept:
                self._kept = (updated, kept)
            if updated != level:
                self.show_metadata(updated)
            then(updated)

        self.app.push_screen(StaleMetadataModal(what, updates), decided)

    def exported(self, message: str) -> None:
        """The export dialog wrote the file (``message`` says where): tell the designer."""
        self.show_error(message, ok=True)

    def action_close(self) -> None:
        """Cancel a running job, or close (asking first when there are unsaved edits)."""
        if self._job_running:
            self.action_cancel_job()
            return
        if not self.edited:
            self.dismiss(self._replaced)
            return
        from tui.modals.confirm import ConfirmModal

        def decided(discard: bool | None) -> None:
            if discard:
                self.dismiss(self._replaced)

        self.app.push_screen(
            ConfirmModal(
                "Close the editor and lose your unsaved edits? (F3 saves them in My levels.)",
                yes="Lose edits",
                no="Keep editing",
            ),
            decided,
        )

    # -- jobs (a solver, a linter) ---------------------------------------------------------------

    def start_job(self, what: str, job: Callable[[Callable[[], bool]], str]) -> None:
        """Run ``job(should_stop)`` in a worker, with a progress line and Cancel.

        Args:
            what: The progress line's first words ("Solving").
            job: The work; returns the text to show; ``should_stop()`` turns True on Cancel.
        """
        if self._job_running:
            self.app.bell()
            return
        self.set_progress(True, f"{what}…")
        self._job = self._run_job(job)

    def start_level_job(self, what: str, job: Callable[[Any, Callable[[], bool]], str]) -> None:
        """Run ``job(level, should_stop)`` on the edited level as :meth:`start_job` does; when
        a field is wrong, the error line says so instead (no job).

        Args:
            what: The progress line's first words ("Solving").
            job: The work on the level read from the fields; returns the text to show.
        """
        level = self.read_level()
        if level is not None:
            self.start_job(what, lambda stop: job(level, stop))

    @property
    def _job_running(self) -> bool:
        return is_running(self._job)

    @work(thread=True, exclusive=True, group=JOB_GROUP, exit_on_error=False)
    def _run_job(self, job: Callable[[Callable[[], bool]], str]) -> str:
        # exit_on_error=False: a failing job shows why in the result box, the editor stays.
        return job(cancelled)

    def action_cancel_job(self) -> None:
        """Cancel the running job: "Cancelled." shows at once (the job's thread stops at its
        next check of ``should_stop``; what it returns then is dropped)."""
        if self._job_running:
            assert self._job is not None
            self._job.cancel()
            # Said here, not on the worker's CANCELLED state: a worker cancelled before its
            # task started never reports one.
            self.show_result("Cancelled.")

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """The live verdict and a job end here (a cancelled one's result is dropped: Cancel
        said "Cancelled.", a newer verdict replaced it). Subclasses extend
        :meth:`show_live_verdict`, not this handler (Textual calls every class's)."""
        finished(
            self,
            event,
            {
                LIVE_GROUP: Route("The check", self.show_live_verdict, self._show_verdict),
                JOB_GROUP: Route("The job", self._job_done, self.show_result),
            },
        )

    def show_live_verdict(self, verdict: object) -> None:
        """Show what :meth:`live_verdict` returned (None: nothing to say); games that keep
        more of it (an assessment) extend this.

        Args:
            verdict: The live verdict's result.
        """
        self._show_verdict(str(verdict or ""))

    def _job_done(self, result: object) -> None:
        self.show_result(str(result))

    def show_result(self, text: str) -> None:
        """Show a job's result (and hide the progress line)."""
        self.set_progress(False, "")
        self.result_text = text
        self.query_one("#dev-result", Static).update(
            Text(escape_controls(text, keep_newlines=True))
        )

    def set_progress(self, running: bool | None, text: str) -> None:
        """Show (True), hide (False) or keep (None) the progress line, with ``text``."""
        progress = self.query_one("#dev-progress")
        if running is not None:
            progress.set_class(running, "-running")
        # A job's line may quote the level (its title): text, never markup.
        self.query_one("#dev-progress-text", Static).update(plain(text))

    class Progress(Message):
        """A job's progress line, posted from its worker thread.

        Args:
            worker: The job's worker (a cancelled or replaced job's line is dropped).
            text: The line.
        """

        def __init__(self, worker: Worker[Any], text: str) -> None:
            super().__init__()
            self.worker = worker
            """The job's worker."""
            self.text = text
            """The line."""

    def report_progress(self, text: str, last: list[float]) -> None:
        """From a job's thread: show ``text`` at most ten times a second (``last`` holds the
        time of the previous report). The line travels as a :class:`Progress` message, so
        the job never waits for the UI thread."""
        now = time.monotonic()
        if now - last[0] < 0.1:
            return
        last[0] = now
        try:
            worker = get_current_worker()
        except NoActiveWorker:  # called on the UI thread: show it directly
            self.set_progress(None, text)
            return
        self.post_message(self.Progress(worker, text))

    def on_designer_screen_progress(self, message: Progress) -> None:
        """Show a running job's progress line."""
        if message.worker is self._job and not message.worker.is_cancelled:
            self.set_progress(None, message.text)


class JobProgress:
    """One job's progress line, reported from its thread: at most ten lines a second reach
    the screen (:meth:`DesignerScreen.report_progress`), and :attr:`elapsed` gives the line
    the seconds since the job started."""

    def __init__(self, screen: DesignerScreen) -> None:
        self._screen = screen
        self._last = [0.0]
        self.started = time.monotonic()
        """When the job started (:func:`time.monotonic`)."""

    @property
    def elapsed(self) -> float:
        """Seconds since the job started."""
        return time.monotonic() - self.started

    def __call__(self, text: str) -> None:
        """Show ``text`` as the job's line (dropped within 0.1 s of the previous one)."""
        self._screen.report_progress(text, self._last)


class LevelTextDesigner(DesignerScreen):
    """An editor that holds the level as level-file text in the game's own format.

    The text is one ``level "Title" { ... }`` block, exactly as a level file writes it, so
    the designer sees every field the format has, and errors come from the same loader with
    the same messages and carets. Games add a live verdict and their own buttons.
    """

    TEXT_LABEL: ClassVar[str] = "The level, as a level file writes it (F1: help)"

    def compose_fields(self) -> ComposeResult:
        from textual.widgets import Label

        from grammar.levels import dump_level

        yield Label(self.TEXT_LABEL, classes="dev-label")
        yield PlainTextArea(
            dump_level(self.level, self.info.id),
            id="dev-level-text",
            soft_wrap=True,
            tab_behavior="focus",
            show_line_numbers=True,
        )

    DEFAULT_CSS = """
    #dev-level-text { height: 1fr; min-height: 4; }
    """

    def on_mount(self) -> None:
        # Textual runs the base classes' on_mount too (after this one): no super() call.
        self.query_one("#dev-level-text", TextArea).focus()

    @property
    def text_area(self) -> TextArea:
        """The level text."""
        return self.query_one("#dev-level-text", TextArea)

    def show_metadata(self, level: Any) -> None:
        """Show ``level`` in the text (an undoable change)."""
        self.set_level(level)

    def set_level(self, level: Any) -> None:
        """Show ``level`` in the text (an editor-made change: undoable)."""
        from grammar.levels import dump_level

        before = self.field_values()
        self.text_area.text = dump_level(level, self.info.id)
        self.record_change(before)

    def level_from_state(self, state: Any) -> Any:
        """The level that starts from ``state`` (the game in progress), or None when the
        game cannot start a level there; games override it to offer "Current position"."""
        return None

    @property
    def can_use_current(self) -> bool:
        return self.state is not None and (
            type(self).level_from_state is not LevelTextDesigner.level_from_state
        )

    def fill_from_state(self, state: Any) -> None:
        from grammar.levels import dump_level

        level = self.level_from_state(state)
        if level is not None:
            self.text_area.text = dump_level(level, self.info.id)

    _loaded: tuple[str, Any, ParseError | str | None] | None = None
    """The last text loaded, with its level or what is wrong with it (:meth:`_load_text`)."""

    def _load_text(self) -> tuple[Any, ParseError | str | None]:
        """The level the text holds, or None and why not (a parse error, or a sentence).

        Loaded once per text: the canvas that follows the text, the live verdict and the
        buttons all ask for the level of the same text.
        """
        from grammar.levels import format_for, load_pack

        text = self.text_area.text
        loaded = self._loaded
        if loaded is not None and loaded[0] == text:
            return loaded[1], loaded[2]
        level: Any = None
        problem: ParseError | str | None = None
        try:
            pack = load_pack(text, filename="<editor>")
        except ParseError as error:
            problem = error
        else:
            if len(pack.levels) != 1:
                problem = (
                    f"The editor holds one level; the text has {len(pack.levels)} level blocks."
                )
            elif not isinstance(pack.levels[0], format_for(self.info.id).level_type):
                problem = f"This editor makes {self.info.id} levels: keep “game {self.info.id}”."
            else:
                level = pack.levels[0]
        self._loaded = (text, level, problem)
        return level, problem

    def text_level(self) -> Any:
        """The level the text holds, or None while it does not load (no message shown: for
        widgets that follow the text, such as a canvas)."""
        return self._load_text()[0]

    def read_level(self, quiet: bool = False) -> Any:
        level, problem = self._load_text()
        if isinstance(problem, ParseError):
            self.show_parse_error(problem, self.text_area, quiet)
            return None
        if problem is not None:
            self.show_error(problem)
            return None
        self.clear_error()
        return level
