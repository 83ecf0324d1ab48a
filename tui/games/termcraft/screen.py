"""The TermCraft game screen, on the puzzle screen base.

:class:`TermCraftScreen` renders what :mod:`core.termcraft` says about the current state: the
term tree, the actions, fuel and budget, the target (with what still differs highlighted) and
the engine's warnings. It contains no game rule: every move goes through the engine (via the
base's :meth:`~tui.screens.puzzle.PuzzleScreen.play`), every list of moves comes from it.
Undo/redo, restart (an undoable move), saves per level, the outcome dialogs and the hint
worker come from the base.

Layout (fits 80×24): the base's header line; a status block (fuel, budget, the warnings
count, the target wrapped between arguments); the term tree on the left and the numbered
action list with the highlighted action's details on the right; the message line; the
footer. The level editor, the construct dialog, the warnings list and the full target are
dialogs.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import OptionList, Static
from textual.worker import Worker

from core.search import Interrupted, Watch
from core.session import Session
from core.termcraft import (
    ConstructAction,
    IllegalMove,
    Level,
    RewriteAction,
    State,
    construct,
    count_rewrite_actions,
    has_rewrite_action,
    iter_rewrite_actions,
    loss_reason,
    nth_rewrite_action,
    placeholder_sites,
    solve,
    warnings,
)
from core.termcraft.terms import Path, Term, differences, format_path
from core.text import plural
from tui.games.termcraft.action_list import PAGE, ActionDetails, ActionList, ConstructEntry
from tui.games.termcraft.construct import ConstructModal
from tui.games.termcraft.target_view import TermTargetView, term_text
from tui.games.termcraft.term_tree import TermTree
from tui.screens.puzzle import Hint, MoveDeferred, PuzzleHeader, PuzzleScreen
from tui.workers import Route, cancelled, finished

__all__ = ["TermCraftScreen"]


class ResourceLine(Static):
    """Fuel and budget against the level's start, and how many warnings there are."""

    DEFAULT_CSS = """
    ResourceLine { height: 1; padding: 0 1; background: $boost; }
    """

    def show(self, state: State, level: Level, warning_count: int) -> None:
        """Render the figures (each with a word, so nothing depends on colour)."""
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append("Fuel ")
        text.append(str(state.fuel), "bold")
        text.append(f"/{level.fuel}   Budget ")
        text.append(str(state.budget), "bold")
        text.append(f"/{level.budget}")
        if warning_count:
            text.append(f"   ⚠ {plural(warning_count, 'warning')} (W lists them)", "bold")
        self.update(text)


Page = tuple[list[RewriteAction], Iterator[RewriteAction]]
"""A page of rewrite actions and the lazy listing positioned after it."""


@dataclass(frozen=True)
class _Job:
    """A background job of a listing: its worker and when it started (for the work line)."""

    worker: Worker[Any]
    """The thread worker computing it."""
    started: float
    """When it started (monotonic seconds)."""


@dataclass(eq=False)
class _Listing:
    """The actions of one state as the screen knows them: what is loaded, whether the
    position is analysed, the total once counted, and the jobs computing the rest (each a
    Textual thread worker; :meth:`drop` cancels them all when the position changes)."""

    state: State
    """The position listed."""
    rewrites: list[RewriteAction] = field(default_factory=list)
    """The rewrite actions loaded so far, in engine order."""
    source: Iterator[RewriteAction] | None = None
    """The engine's lazy listing, positioned after ``rewrites`` (None: start a new one)."""
    complete: bool = False
    """True when ``rewrites`` holds every rewrite action."""
    total: int | None = None
    """How many rewrite actions there are, once counted."""
    ready: bool = False
    """True once the position is analysed (the screen may render it without waiting)."""
    old: Session | None = None
    """The session shown before this position (for the outcome dialog once rendered)."""
    jobs: dict[str, _Job] = field(default_factory=dict)
    """Running jobs ("analysing", "counting", "loading") by name."""
    count_note: str = ""
    """Why the total is missing ("" while counting or once known)."""
    watch: Watch = field(init=False)
    """The listing's watch, kept by its lazy ``source``. Its deadline is set only while the
    UI thread waits; in a worker, the worker's cancellation stops it (:func:`cancelled`)."""

    def __post_init__(self) -> None:
        self.watch = Watch(None, cancelled)

    def job_of(self, worker: Worker[Any]) -> str | None:
        """The name of the running job ``worker`` computes, or None when it is not one."""
        return next((name for name, job in self.jobs.items() if job.worker is worker), None)

    def cancel(self, name: str) -> bool:
        """Cancel the job ``name`` (its result is dropped); False when it is not running."""
        job = self.jobs.pop(name, None)
        if job is None:
            return False
        job.worker.cancel()
        return True

    def drop(self) -> None:
        """The position is no longer shown: cancel every job."""
        for name in list(self.jobs):
            self.cancel(name)


def first_page(state: State, watch: Watch) -> Page:
    """Analyse ``state`` and list its first :data:`PAGE` rewrite actions (any thread).

    Args:
        state: The position.
        watch: Polled throughout (a deadline on the UI thread, cancellation in a worker).

    Returns:
        The first page and the lazy listing positioned after it.

    Raises:
        Interrupted: When ``watch`` says stop.
    """
    source = iter_rewrite_actions(state, 0, watch)
    first = list(islice(source, PAGE))
    has_rewrite_action(state, watch)  # what the status needs (cached analysis)
    return first, source


JOB_WORDS = {
    "analysing": "analysing",
    "counting": "counting",
    "loading": "loading",
    "finding": "finding the action",
    "thinking": "tip",
}
"""How the work line names each job."""


class WorkLine(Static):
    """One line saying what is being computed in the background, for how long, and how to
    stop it (hidden when nothing runs)."""

    DEFAULT_CSS = """
    WorkLine { height: 1; padding: 0 1; color: $text-muted; display: none; }
    WorkLine.-running { display: block; }
    """

    def show_jobs(self, jobs: dict[str, float], cancel_hint: str) -> None:
        """Show the running jobs (name -> start time) or hide the line when there are none."""
        now = time.monotonic()
        shown = {name: now - started for name, started in jobs.items()}
        self.set_class(bool(shown), "-running")
        if not shown:
            return
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append("⏳ ", "bold")
        text.append(
            " · ".join(
                f"{JOB_WORDS.get(name, name)} {seconds:.1f} s" for name, seconds in shown.items()
            )
        )
        if cancel_hint:
            text.append(f" ({cancel_hint})", "italic")
        self.update(text)


class TermCraftScreen(PuzzleScreen):
    """Play one TermCraft level (see the module docstring)."""

    NUMBERED_MOVES: ClassVar[bool] = True
    NUMBER_WORD: ClassVar[str] = "Action"
    """Digits pick a numbered action of the list ("Action 2: …"), not a move count."""
    CSS_PATH = "styles.tcss"
    AUTO_FOCUS = "#tc-actions"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space", "apply", "Apply", id="termcraft.apply", key_display="⏎"),
        Binding("c", "construct", "Construct", id="termcraft.construct"),
        Binding("E", "edit_level", "Editor", id="termcraft.dev"),
        Binding("W", "warnings", "Warnings", show=False, id="termcraft.warnings"),
        Binding("T", "show_target", "Target", show=False, id="termcraft.target"),
        Binding(
            "x",
            "cancel_work",
            "Cancel",
            id="termcraft.cancel",
            show=False,
            tooltip="Stop the count, the page being loaded or the tip being looked for.",
        ),
    ]

    SYNC_BUDGET: ClassVar[float] = 0.05
    """Seconds a new position may be analysed (and its actions counted) on the UI thread;
    beyond that the work goes on in a worker thread while the screen stays responsive."""
    NTH_BUDGET: ClassVar[float] = 0.5
    """Seconds a numbered move beyond the loaded ones may be looked for on the UI thread
    (then a worker finds it and plays it, and x stops it)."""

    def __init__(self, session: Session, **kwargs: Any) -> None:
        super().__init__(session, **kwargs)
        self.tip_stage = 0
        """0: no tip yet in this position; 1: the level's hint was shown (then the solver)."""
        self._finding = 0
        """The action number the "finding" job looks for (digits typed beyond the page)."""
        self._placeholders: tuple[Path, ...] = ()
        self._shown_term: Term | None = None
        self._listing: _Listing | None = None
        self._hint_started: float | None = None
        self._cancel_shown = False

    # -- layout ------------------------------------------------------------------------------

    def compose_board(self) -> ComposeResult:
        yield ResourceLine(id="tc-resources")
        with Horizontal(id="tc-target-row"):
            yield Static("Target", id="tc-target-label")
            yield TermTargetView(id="tc-target")
        with Horizontal(id="tc-main"):
            tree = TermTree(id="tc-tree")
            tree.border_title = "Term"
            yield tree
            with Vertical(id="tc-side") as side:
                side.border_title = "Actions"
                yield ActionList(id="tc-actions")
                yield WorkLine(id="tc-work")
                yield ActionDetails(id="tc-details")

    def after_mount(self) -> None:
        self.query_one(ActionList).focus()
        self.set_interval(0.25, self._show_work)

    # -- rendering ---------------------------------------------------------------------------

    def render_state(self, session: Session) -> None:
        state: State = session.state
        job = self._listing
        assert job is not None and job.state is state and job.ready
        new_term = state.term is not self._shown_term
        self._shown_term = state.term
        self._placeholders = placeholder_sites(state.term)
        status = session.status
        listing = self.query_one(ActionList)
        keep = None if new_term else listing.current_entry
        empty = {
            "won": f"Solved! {self.after_win_keys()}",
            "lost": "No move left. u: undo · R: restart",
        }.get(status, "No action available.")
        listing.show_actions(
            state.term,
            job.rewrites,
            self._placeholders,
            state.budget,
            keep=keep,
            empty=empty,
            complete=job.complete,
            total=job.total,
        )
        listing.note = job.count_note
        found = warnings(state.term)
        self.query_one(ResourceLine).show(state, self.level, len(found))
        self.query_one(TermTargetView).show(state.target, differences(state.term, state.target))
        tree = self.query_one(TermTree)
        if new_term:
            tree.show_term(state.term, keep_view=True)
            self.tip_stage = 0
        self._show_highlighted()
        self._show_count()

    # -- analysing, paging and counting (off the UI thread when it takes time) ----------------
    #
    # Each job is a Textual thread worker of its own group (a new one cancels the old). The
    # worker only computes and returns; its result is applied here, on the UI thread, when
    # its Worker.StateChanged arrives (a cancelled worker's result never is), so a worker
    # that is cancelled late cannot touch a listing the screen has moved on from.

    def prepare_position(self, old: Session | None) -> bool:
        """Ready at once when the position is analysed within :attr:`SYNC_BUDGET`; else a
        worker analyses it (the screen shows the term and "analysing…" meanwhile and stays
        responsive) and shows it when done."""
        state = self.session.state
        job = self._listing
        if job is None or job.state is not state:
            if job is not None:
                job.drop()
            job = self._listing = _Listing(state, old=old)
            self._prepare_now(job)
        if job.ready:
            return True
        if "analysing" not in job.jobs:
            self._show_pending(job)
            worker = self._analyse_worker(state, job.watch)
            job.jobs["analysing"] = _Job(worker, time.monotonic())
        self._show_work()
        return False

    def show_position(self, old: Session | None) -> None:
        super().show_position(old)
        if self._listing is not None:
            self._after_render(self._listing)

    def _take_first_page(
        self, job: _Listing, first: list[RewriteAction], source: Iterator[RewriteAction]
    ) -> None:
        """Keep what :func:`first_page` found: the position is ready to be shown."""
        job.rewrites, job.source = first, source
        job.complete = len(first) < PAGE
        if job.complete:
            job.total = len(first)
        job.ready = True

    def _prepare_now(self, job: _Listing) -> None:
        """Analyse and count within :attr:`SYNC_BUDGET` on this thread, if it can be done."""
        job.watch.deadline = time.monotonic() + self.SYNC_BUDGET
        try:
            self._take_first_page(job, *first_page(job.state, job.watch))
            if not job.complete:
                job.total = count_rewrite_actions(job.state, job.watch)
                job.complete = job.total <= len(job.rewrites)
        except Interrupted:
            pass  # the rest goes to a worker (an interrupted listing starts again there)
        finally:
            job.watch.deadline = None

    @work(
        thread=True, exclusive=True, group="termcraft-analyse", exit_on_error=False, name="analyse"
    )
    def _analyse_worker(self, state: State, watch: Watch) -> Page:
        # exit_on_error=False: a failure is shown on the screen (on_worker_state_changed).
        return first_page(state, watch)

    def _analysed(
        self, job: _Listing, first: list[RewriteAction], source: Iterator[RewriteAction]
    ) -> None:
        self._take_first_page(job, first, source)
        self.show_position(job.old)

    def _analysis_failed(self, job: _Listing, why: str) -> None:
        self._show_work()
        self.query_one(ActionList).show_actions(
            job.state.term,
            [],
            (),
            0,
            empty="The position could not be analysed. u: undo · esc: back",
        )
        self.say(why, "error")

    def _show_pending(self, job: _Listing) -> None:
        """While a new position is analysed: its term, resources and target, and a note."""
        state = job.state
        if state.term is not self._shown_term:
            self._shown_term = state.term
            self._placeholders = placeholder_sites(state.term)
            tree = self.query_one(TermTree)
            around = tree.marked_site  # meanwhile the view stays where the player looked
            tree.show_term(state.term, keep_view=True)
            if around is not None:
                tree.show_path(around)
            self.tip_stage = 0
        self.query_one(TermTree).set_marks(None, None, self._placeholders)
        self.query_one(ActionList).show_actions(
            state.term, [], (), 0, empty="Analysing the position… (esc: back)"
        )
        self.query_one(ActionDetails).show_entry(state.term, None, state.fuel, state.budget)
        self.query_one(ResourceLine).show(state, self.level, 0)
        self.query_one(TermTargetView).show(state.target, differences(state.term, state.target))
        self.query_one(PuzzleHeader).update(
            Text(f"TermCraft: {self.level_title}   analysing the position…")
        )
        self._show_count()

    def _after_render(self, job: _Listing) -> None:
        """Count the actions in a worker when the list is longer than what is loaded."""
        if (
            job.total is None
            and not job.complete
            and "counting" not in job.jobs
            and not job.count_note
        ):
            worker = self._count_worker(job.state)
            job.jobs["counting"] = _Job(worker, time.monotonic())
        self._show_count()
        self._show_work()

    @work(thread=True, exclusive=True, group="termcraft-count", exit_on_error=False, name="count")
    def _count_worker(self, state: State) -> int:
        # x cancels it: the engine polls the watch, which asks this worker.
        return count_rewrite_actions(state, Watch(None, cancelled))

    def _counted(self, job: _Listing, total: int | None, note: str) -> None:
        job.total, job.count_note = total, note
        if total is not None and total <= len(job.rewrites):
            job.complete = True
        if job is self._listing and job.ready:
            self.query_one(ActionList).set_total(total, note)
            self._show_count()
        self._show_work()

    @on(ActionList.MoreWanted, "#tc-actions")
    def _more_wanted(self, event: ActionList.MoreWanted) -> None:
        """Load the next page of rewrite actions in a worker thread."""
        event.stop()
        job = self._listing
        if job is None or not job.ready or job.complete or "loading" in job.jobs:
            return
        worker = self._page_worker(job.state, job.source, len(job.rewrites), job.watch)
        job.jobs["loading"] = _Job(worker, time.monotonic())
        self._show_work()

    @work(thread=True, exclusive=True, group="termcraft-page", exit_on_error=False, name="page")
    def _page_worker(
        self, state: State, source: Iterator[RewriteAction] | None, start: int, watch: Watch
    ) -> Page:
        """The next :data:`PAGE` rewrite actions: from the live listing, or (when a load was
        cancelled, which ends a listing) from a new one starting after the loaded ones."""
        if source is None:
            source = iter_rewrite_actions(state, start, watch)
        return list(islice(source, PAGE)), source

    def _paged(
        self,
        job: _Listing,
        page: list[RewriteAction] | None,
        source: Iterator[RewriteAction] | None,
    ) -> None:
        """Add a loaded page (None: the load was cancelled or failed; the list stays)."""
        listing = self.query_one(ActionList)
        job.source = source
        if page is not None:
            job.rewrites.extend(page)
            job.complete = len(page) < PAGE or (
                job.total is not None and len(job.rewrites) >= job.total
            )
            if job.complete:
                job.total = len(job.rewrites)
        if job is self._listing and job.ready:
            if page is not None:
                listing.add_rewrites(page, job.complete)
            else:
                listing.set_loading(False)
            self._show_count()
        self._show_work()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A listing's jobs end here, applied to the listing shown (a cancelled job's result
        never is); the hint goes to the base (Textual calls its handler too: this one must
        not call it)."""
        finished(
            self,
            event,
            {
                "termcraft-analyse": Route(
                    "Analysing the position", self._analyse_done, self._analyse_failed
                ),
                "termcraft-count": Route(
                    "Counting the actions", self._count_done, self._count_failed
                ),
                "termcraft-find": Route("Finding the action", self._find_done, self._find_failed),
                "termcraft-page": Route("Listing more actions", self._page_done, self._page_failed),
            },
        )

    def _ended(self, name: str) -> _Listing | None:
        """The listing shown, once its job ``name`` ended (None: not one of its jobs)."""
        job = self._listing
        if job is None or job.jobs.pop(name, None) is None:
            return None
        return job

    def _analyse_done(self, page: Page) -> None:
        if (job := self._ended("analysing")) is not None:
            self._analysed(job, *page)

    def _analyse_failed(self, line: str) -> None:
        if (job := self._ended("analysing")) is not None:
            self._analysis_failed(job, line)

    def _count_done(self, total: int) -> None:
        if (job := self._ended("counting")) is not None:
            self._counted(job, total, "")

    def _count_failed(self, line: str) -> None:
        if (job := self._ended("counting")) is not None:
            self.say(line, "error")  # the title says so; the message line says why
            self._counted(job, None, "count failed")

    def _find_done(self, move: RewriteAction | None) -> None:
        if (job := self._ended("finding")) is not None:
            self._found(job, move)

    def _find_failed(self, line: str) -> None:
        if self._ended("finding") is not None:
            self.say(line, "error")

    def _page_done(self, page: Page) -> None:
        if (job := self._ended("loading")) is not None:
            self._paged(job, *page)

    def _page_failed(self, line: str) -> None:
        if (job := self._ended("loading")) is not None:
            self.say(line, "error")
            self._paged(job, None, None)

    def _show_count(self) -> None:
        """The actions panel's title: the total, or how much is loaded while it is counted."""
        job = self._listing
        side = self.query_one("#tc-side")
        if job is None or not job.ready or job.complete:
            side.border_title = "Actions"
        elif job.total is not None:
            side.border_title = f"Actions: {len(job.rewrites):,} of {job.total:,}"
        else:
            side.border_title = (
                f"Actions: {len(job.rewrites):,} of ? ({job.count_note or 'counting…'})"
            )

    def _work_running(self) -> dict[str, float]:
        listing = self._listing
        jobs = {name: job.started for name, job in listing.jobs.items()} if listing else {}
        if self.hint_running and self._hint_started is not None:
            jobs["thinking"] = self._hint_started
        return jobs

    def _cancellable(self) -> list[str]:
        return [name for name in self._work_running() if name != "analysing"]

    def _show_work(self) -> None:
        """Refresh the work line (and whether the cancel key shows in the footer)."""
        if not self.is_mounted:
            return
        jobs = self._work_running()
        hint = "x: stop" if self._cancellable() else ("esc: back" if jobs else "")
        self.query_one(WorkLine).show_jobs(jobs, hint)
        cancellable = bool(self._cancellable())
        if cancellable != self._cancel_shown:  # the footer shows x only while it acts
            self._cancel_shown = cancellable
            self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "cancel_work":
            return bool(self._cancellable())
        return super().check_action(action, parameters)

    def action_cancel_work(self) -> None:
        """Stop the running count, page load and tip (the list keeps what it has)."""
        stopped = []
        job = self._listing
        if self.hint_running:
            self.cancel_hint()
            stopped.append("the tip")
        # A cancelled worker's result never arrives: show the outcome of cancelling now.
        if job is not None and job.cancel("counting"):
            self._counted(job, None, "count cancelled")
            stopped.append("the count")
        if job is not None and job.cancel("finding"):
            stopped.append(f"finding action {self._finding}")
        if job is not None and job.cancel("loading"):
            self._paged(job, None, None)  # a cancelled load ends its listing: start anew
            stopped.append("loading more actions")
        if stopped:
            self.say(f"Cancelled {' and '.join(stopped)}.")
        else:
            self.say("Nothing is running.")
        self._show_work()

    def action_back(self) -> None:
        """Cancel the running work first (like the editor); with nothing running, go back."""
        if self._cancellable():
            self.action_cancel_work()
            self.say(self.last_message + " esc again goes back.")
            return
        if self._listing is not None:
            self._listing.drop()
        super().action_back()

    def save_summary(self) -> dict[str, Any]:
        """As the base, without analysing a position that is not analysed yet."""
        job = self._listing
        if job is not None and job.state is self.state and not job.ready:
            from tui.screens.playtime import play_record

            won = self.state.term is self.state.target
            return {
                "title": self.level_title,
                "status": "won" if won else "playing",
                "finished": won,
                "moves": self.session.moves_made,
                "par": self.par,
                **play_record(self.clock, self.autoplayed),
            }
        return super().save_summary()

    def _not_ready(self) -> bool:
        """True (and says so) while the position is still being analysed."""
        job = self._listing
        if job is not None and not job.ready:
            self.app.bell()
            self.say("Still analysing this position… (esc goes back)", "warning")
            return True
        return False

    def play(self, move: Any) -> bool:
        if self._not_ready():
            return False
        return super().play(move)

    def on_level_changed(self) -> None:
        self._shown_term = None
        self.tip_stage = 0

    def _show_highlighted(self) -> None:
        """Mark the highlighted action's site and rule in the tree; describe it."""
        entry = self.query_one(ActionList).current_entry
        tree = self.query_one(TermTree)
        if isinstance(entry, RewriteAction):
            tree.set_marks(entry.site, entry.rule.path, self._placeholders)
        elif isinstance(entry, ConstructEntry):
            tree.set_marks(entry.site, None, self._placeholders)
        else:
            tree.set_marks(None, None, self._placeholders)
        self.query_one(ActionDetails).show_entry(
            self.state.term, entry, self.state.fuel, self.state.budget
        )

    @on(OptionList.OptionHighlighted, "#tc-actions")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show_highlighted()

    def loss_reason(self) -> str | None:
        return loss_reason(self.state)

    # -- moves -------------------------------------------------------------------------------

    def numbered_moves(self) -> Sequence[Any]:
        """The loaded rewrites, numbered from 1 as in ``termarcade termcraft actions``
        (digit keys go through :meth:`numbered_move`, which finds the others too)."""
        job = self._listing
        return tuple(job.rewrites) if job is not None and job.ready else ()

    def numbered_count(self) -> int | None:
        """How many rewrites there are (None while not counted yet)."""
        job = self._listing
        if job is None or not job.ready:
            return None
        if job.complete:
            return len(job.rewrites)
        return job.total

    def numbered_move(self, number: int) -> Any:
        """Rewrite ``number``: from the loaded ones, else found by the engine (without
        listing those before it) within :attr:`NTH_BUDGET`."""
        job = self._listing
        if job is None or not job.ready:
            raise LookupError("Still analysing this position… (esc goes back)")
        if 1 <= number <= len(job.rewrites):
            return job.rewrites[number - 1]
        count = self.numbered_count()
        if number < 1 or (count is not None and number > count):
            raise LookupError("")
        try:
            return nth_rewrite_action(job.state, number - 1, Watch(self.NTH_BUDGET))
        except IndexError:
            raise LookupError("") from None
        except Interrupted:
            pass
        # Too far to find while the screen waits: a worker finds it and plays it then.
        job.cancel("finding")
        job.jobs["finding"] = _Job(self._find_worker(job.state, number), time.monotonic())
        self._finding = number
        self._show_work()
        raise MoveDeferred(f"Looking for action {number}… (x stops)")

    @work(thread=True, exclusive=True, group="termcraft-find", exit_on_error=False, name="find")
    def _find_worker(self, state: State, number: int) -> RewriteAction | None:
        """Rewrite ``number`` of ``state`` (None: there is none); x cancels it."""
        try:
            return nth_rewrite_action(state, number - 1, Watch(None, cancelled))
        except IndexError:
            return None

    def _found(self, job: _Listing, move: RewriteAction | None) -> None:
        """Play the action a finding job found, if its position is still the one shown."""
        number = self._finding
        if job is not self._listing or job.state is not self.state:
            return
        if move is None:
            self.app.bell()
            self.say(f"There is no action {number}.", "warning")
            return
        self.pick(move, number)

    def keys_for(self, move: Any) -> Sequence[str]:
        """A rewrite is picked by its number in the action list (the CLI's numbers), with the
        digit keys; a construct is ``c``, its term typed in the construct dialog, ``enter``.

        Args:
            move: A legal move of the current state.

        Returns:
            The keys (the term's characters as typed); none while the position shown is
            still being analysed (the keys are refused then), and none for a construct on a
            placeholder that ``c`` does not open now or on a screen not mounted.
        """
        job = self._listing
        if self.is_attached and (job is None or job.state is not self.state or not job.ready):
            return ()
        if isinstance(move, ConstructAction):
            if not self.is_attached or self._construct_site() != move.site:
                return ()
            # The dialog's input submits on enter: Textual's Input binding has no id that a
            # keymap could remap.
            return (self.binding_key("termcraft.construct"), *str(move.term), "enter")
        if not isinstance(move, RewriteAction):
            return ()
        if job is not None and move in job.rewrites:
            return self.number_keys(job.rewrites.index(move) + 1)
        # Beyond the loaded page (or on a screen not mounted): the engine's order is the
        # list's order.
        for number, action in enumerate(iter_rewrite_actions(self.state), start=1):
            if action == move:
                return self.number_keys(number)
        return ()

    def pick(self, move: Any, number: int) -> None:
        """Digits highlight the numbered action first, then play it."""
        listing = self.query_one(ActionList)
        if move in listing.entries:
            listing.highlighted = listing.entries.index(move)
        super().pick(move, number)

    @on(OptionList.OptionSelected, "#tc-actions")
    def _action_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_apply()

    @on(TermTree.Chosen)
    def _chosen(self, event: TermTree.Chosen) -> None:
        """Enter on a tree node: construct on a placeholder, else go to its actions."""
        event.stop()
        if event.path in self._placeholders:
            self._open_construct(event.path)
            return
        listing = self.query_one(ActionList)
        for index, entry in enumerate(listing.entries):
            if isinstance(entry, RewriteAction) and entry.site == event.path:
                listing.highlighted = index
                listing.focus()
                return
        node = self.query_one(TermTree).cursor_node
        if node is not None and node.allow_expand:
            node.toggle()
        else:
            self.say(f"No action at {format_path(event.path)}.")

    def action_apply(self) -> None:
        """Apply the highlighted action (on a construct entry: open the construct dialog)."""
        if isinstance(self.focused, TermTree):
            self.focused.action_choose()
            return
        entry = self.query_one(ActionList).current_entry
        if entry is None:
            self.app.bell()
            self.say("No action is highlighted.", "warning")
            return
        if isinstance(entry, ConstructEntry):
            self._open_construct(entry.site)
            return
        self.play(entry)

    def action_construct(self) -> None:
        """Open the construct dialog for the selected placeholder."""
        site = self._construct_site()
        if site is None:
            self.say("There is no placeholder to construct at.")
        else:
            self._open_construct(site)

    def _construct_site(self) -> Path | None:
        """Where ``c`` constructs: the highlighted construct entry's placeholder, else the
        placeholder under the tree's cursor, else the first one (None when there is none)."""
        entry = self.query_one(ActionList).current_entry
        cursor = self.query_one(TermTree).cursor_path
        if isinstance(entry, ConstructEntry):
            return entry.site
        if cursor is not None and cursor in self._placeholders:
            return cursor
        return self._placeholders[0] if self._placeholders else None

    def _open_construct(self, site: Path) -> None:
        if self._not_ready():
            return
        if self.session.finished:
            self.app.bell()
            self.say("The game is over: u undoes, R restarts, esc goes back.", "warning")
            return
        state = self.state

        def check(term: Term) -> str | None:
            try:
                construct(state, site, term)
            except IllegalMove as err:
                return str(err)[:1].upper() + str(err)[1:] + "."
            return None

        def done(term: Term | None) -> None:
            if term is not None and self.state is state:
                self.play(ConstructAction(site, term))

        self.app.push_screen(ConstructModal(site, state.budget, check), done)

    def action_focus_tree(self) -> None:
        """Move the focus to the term tree."""
        self.query_one(TermTree).focus()

    # -- dialogs -----------------------------------------------------------------------------

    def action_warnings(self) -> None:
        """List every warning about the current term (ignored rules and axioms)."""
        from tui.modals.text_view import TextModal

        if self._not_ready():
            return
        found = warnings(self.state.term)
        body = "\n".join(f"⚠ {w}" for w in found) or "No warnings: every rule and axiom is used."
        self.app.push_screen(TextModal(f"Warnings ({len(found)})", body))

    def action_show_target(self) -> None:
        """The whole target, with what still differs from the current term highlighted."""
        from tui.modals.text_view import TextModal

        state = self.state
        marked = differences(state.term, state.target)
        body = term_text(state.target, marked, limit=200_000)
        self.app.push_screen(
            TextModal(
                f"Target ({plural(len(marked), 'difference')} from the current term, underlined)",
                body,
            )
        )

    # -- tip ---------------------------------------------------------------------------------

    def action_tip(self) -> None:
        """First ``t``: the level's hint. Then: the solver's next move (in the hint worker)."""
        if self._not_ready():
            return
        if self.tip_stage == 0 and self.level.hint and not self.session.finished:
            self.tip_stage = 1
            self.say(f"Hint: {self.level.hint}  (t again: the next move)")
            return
        super().action_tip()

    def request_hint(self) -> None:
        """Start the tip worker (the work line shows it; x or esc stops it)."""
        self._hint_started = time.monotonic()
        super().request_hint()
        self._show_work()

    def compute_hint(self, state: State, should_stop: Any, time_limit: float) -> Hint:
        result = solve(state, time_limit=time_limit, should_stop=should_stop)
        if result.status == "unsolvable":
            return Hint(
                "From here the level cannot be won (proved: every move was searched): "
                "undo (u) or restart (R)."
            )
        if result.status != "solved" or not result.plan:
            return Hint(f"The solver could not decide ({result.why or 'stopped'}).")
        move = result.plan[0]
        return Hint(
            f"Next move ({plural(len(result.plan), 'move')} to go): "
            f"{self.game.describe_move(state, move)}",
            move,
        )

    def highlight_move(self, move: Any) -> None:
        listing = self.query_one(ActionList)
        target = ConstructEntry(move.site) if isinstance(move, ConstructAction) else move
        if target in listing.entries:
            listing.highlighted = listing.entries.index(target)
            listing.focus()
