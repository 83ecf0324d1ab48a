"""Unsaved work: screens that hold it, and the one question asked before it is dropped.

A game in progress is always saved, but an editor's fields are not until the designer saves
them. Every way out that would close such a screen (``ctrl+q``, the command palette's
commands that go home first) asks through :func:`confirm_leaving`, as the editor's own
``escape`` does, so nothing a designer typed is lost without a yes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

__all__ = ["HoldsUnsavedWork", "confirm_leaving", "unsaved_work"]


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
