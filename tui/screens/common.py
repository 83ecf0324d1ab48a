"""Small widgets shared by the arcade's own screens."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.widgets import OptionList


class NavOptionList(OptionList):
    """An option list that also moves with ``j``/``k`` and selects with ``space``.

    The arrow keys, ``home``/``end``, page keys and ``enter`` come from :class:`OptionList`.
    Disabled options are skipped by the cursor and cannot be selected.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "cursor_down", "Down", show=False, id="list.down"),
        Binding("k", "cursor_up", "Up", show=False, id="list.up"),
        Binding("space", "select", "Select", show=False, id="list.select"),
    ]
