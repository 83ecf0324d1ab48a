"""Unsaved work: screens that hold it, and the one question asked before it is dropped.

A game in progress is always saved, but an editor's fields are not until the designer saves
them. Every way out that would close such a screen (``ctrl+q``, the command palette's
commands that go home first) asks through :func:`confirm_leaving`, as the editor's own
``escape`` does, so nothing a designer typed is lost without a yes.

Moves are unsaved too while the store cannot take them (PostgreSQL stopped, a SQLite file
locked by another program): the store keeps them in a local journal and writes them when it
returns (:mod:`tui.store._journal`). :func:`quit_question` says so when the player quits, and
:func:`store_notice` tells the player at once when the store goes away and when it is back.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from core.text import plural
from tui.store import Store, StoreStatus

__all__ = [
    "STORE_BACK",
    "STORE_GONE",
    "HoldsUnsavedWork",
    "confirm_leaving",
    "quit_question",
    "store_notice",
    "unsaved_work",
]

STORE_GONE = "The store is unreachable: your moves are kept here and will be saved when it returns."
"""The notice shown the moment the store stops taking changes."""
STORE_BACK = "Store back: {changes} saved."
"""The notice shown once the kept changes are written (``{changes}``: "3 changes")."""


class HoldsUnsavedWork:
    """Mixin for a screen that can hold work not saved anywhere yet (an editor)."""

    def unsaved_work(self) -> str | None:
        """What would be lost if the screen closed now, as a phrase, or None.

        Returns:
            For example ``"The level editor has unsaved edits (F3 saves them in My
            levels)."``; None when everything is saved.
        """
        return None


def unsaved_work(screens: Iterable[Any]) -> list[str]:
    """What each screen of ``screens`` (a screen stack) would lose, in stack order."""
    found = []
    for screen in screens:
        if isinstance(screen, HoldsUnsavedWork) and (what := screen.unsaved_work()):
            found.append(what)
    return found


def confirm_leaving(
    app: Any, then: Callable[[], None], *, verb: str = "Leave", yes: str = "Lose edits"
) -> None:
    """Call ``then`` at once, or after a yes when a screen of ``app`` holds unsaved work.

    Args:
        app: The running app (its ``screen_stack`` is searched).
        then: What leaving does (quit, open another game...).
        verb: The question's verb: ``"Quit termarcade"``, ``"Leave"``.
        yes: The confirming button's words.
    """
    lost = unsaved_work(app.screen_stack)
    if not lost:
        then()
        return
    from tui.modals.confirm import ConfirmModal

    if isinstance(app.screen, ConfirmModal):
        return  # already asking

    def decided(leave: bool | None) -> None:
        if leave:
            then()

    question = " ".join(lost) + f" {verb} and lose them?"
    app.push_screen(ConfirmModal(question, yes=yes, no="Keep editing"), decided)


def quit_question(store: Store, game_in_progress: bool) -> str | None:
    """The question to ask before quitting, or None when quitting loses nothing.

    Args:
        store: The app's store (are changes waiting to be written?).
        game_in_progress: A game is open (it is saved, or kept, move by move).

    Returns:
        The question; it says that moves are kept, not saved, while the store is away.
    """
    kept = store.status.kept
    if kept:
        where = "in the journal on this host" if store.journal_path else "in memory only"
        return (
            f"The store is unreachable: {plural(kept, 'change')} not saved yet, kept {where}; "
            "they will be written when the store returns. Quit termarcade anyway?"
        )
    if game_in_progress:
        return "A game is in progress (it is saved). Quit termarcade?"
    return None


def store_notice(app: Any, status: StoreStatus) -> None:
    """Tell the player that the store went away, or that it is back (an app notification).

    Args:
        app: The running app (its ``notify``).
        status: What the store reported (:meth:`tui.store.Store.watch`).
    """
    if status.reachable:
        message = STORE_BACK.format(changes=plural(status.saved, "change"))
        app.notify(message, title="Storage", timeout=8)
    else:
        app.notify(STORE_GONE, title="Storage", severity="warning", timeout=15)
