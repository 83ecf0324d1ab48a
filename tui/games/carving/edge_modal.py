"""Triangle Carving's edge builder: pick θ or ω and five formulas of F*, or type the operator.

Only well-formed edges can be put together: the dialog shows a
:class:`core.carving.draft.EdgeDraft`, whose five slots offer only formulas of F* with the
head their position needs (θ: a ∇ then four Δ; ω: four Δ then a ∇), so every tuple the slots
show is an operator of U over F*. What the engine says about it is shown as you go (through
the ``check`` callback, :func:`core.carving.draft.construct_verdict`: the edge may be
intrinsic, and whether constructing it would force an elimination); Build is refused until
the engine accepts the edge. The text field
takes an operator in the grammar's syntax (``theta(N(x,x,x), D(..), ...)``; errors come with
a caret) and sets the slots from it.

Keys: ``up``/``down`` (or ``tab``) move between rows, ``left``/``right`` (``h``/``l``) change
the kind or the formula of the focused row, ``enter`` builds, ``escape`` cancels.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, Static

from core.carving import Formula, Operator
from core.carving.draft import SLOT_NAMES, EdgeDraft
from core.carving.formula import THETA
from grammar.carving import parse_operator
from grammar.errors import ParseError
from tui.modals.dialog import Dialog
from tui.widgets.plain_fields import PlainInput

from .view import KIND_SYMBOL, vertex_label

__all__ = ["Check", "EdgeBuilder", "SlotRow"]

Check = Callable[[Operator | None], tuple[bool, str]]
"""The engine's verdict on an edge (None: a slot is empty): (may be constructed, a sentence
about it)."""


class SlotRow(Static, can_focus=True):
    """One row of the builder: the kind (``index`` -1) or one of the five formulas."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,h", "turn(-1)", "Previous", show=False, id="carving_edge.previous"),
        Binding("right,l", "turn(1)", "Next", show=False, id="carving_edge.next"),
        Binding("up,k", "app.focus_previous", "Up", show=False, id="carving_edge.up"),
        Binding("down,j", "app.focus_next", "Down", show=False, id="carving_edge.down"),
    ]

    def __init__(self, index: int, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.index = index
        """-1 for the kind row, else the entry's position (0 to 4)."""

    def action_turn(self, step: int) -> None:
        """Show the previous / next choice of this row."""
        screen = self.screen
        if isinstance(screen, EdgeBuilder):
            screen.turn(self.index, step)


class EdgeBuilder(Dialog[Operator | None]):
    """Put an edge together; dismisses with the operator to construct, or None.

    Args:
        deltas: The Δ formulas of F*, in the order to offer them.
        nablas: The ∇ formulas of F*.
        check: The engine's verdict on an edge (see :data:`Check`).
        start: The edge to start from (a hint, the last one built), or None.
        compact: Vertex labels without commas (one-character variable names).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="carving_edge.cancel", key_display="esc"),
        Binding("enter", "build", "Build", id="carving_edge.build", key_display="⏎"),
    ]

    DEFAULT_CSS = """
    EdgeBuilder { align: center middle; }
    #edge-dialog { width: 78; max-width: 100%; height: auto; border: thick $accent;
                   background: $surface; padding: 0 1; }
    #edge-title { text-style: bold; width: 100%; }
    #edge-help { color: $text-muted; width: 100%; }
    SlotRow { width: 100%; height: 1; padding: 0 1; }
    SlotRow:focus { text-style: bold reverse; }
    #edge-input { width: 100%; margin-top: 1; }
    #edge-verdict { width: 100%; height: 4; }
    #edge-verdict.-bad { color: $text-error; }
    #edge-buttons { height: auto; width: 100%; align-horizontal: right; }
    #edge-buttons Button { margin-left: 1; }
    """

    def __init__(
        self,
        deltas: Sequence[Formula],
        nablas: Sequence[Formula],
        check: Check,
        start: Operator | None = None,
        compact: bool = True,
    ) -> None:
        super().__init__()
        self.check = check
        """The engine's verdict."""
        self.compact = compact
        self.draft = EdgeDraft.start(deltas, nablas, start)
        """The edge the slots show (core's model of the operator shapes)."""
        self.verdict = (False, "")
        """The engine's last verdict on :attr:`operator`."""
        self._syncing = False

    # -- model --------------------------------------------------------------------------------

    @property
    def kind(self) -> str:
        """``"theta"`` or ``"omega"``."""
        return self.draft.kind

    @property
    def entries(self) -> tuple[Formula | None, ...]:
        """The five formulas (None when F* has none of the head needed)."""
        return self.draft.entries

    @property
    def operator(self) -> Operator | None:
        """The edge the slots show, or None when a slot is empty."""
        return self.draft.operator

    def turn(self, index: int, step: int) -> None:
        """Change the kind (``index`` -1) or slot ``index`` by ``step`` choices."""
        turned = self.draft.flipped() if index < 0 else self.draft.turned(index, step)
        if turned is None:  # F* has no formula for that slot
            self.app.bell()
            return
        self.draft = turned
        self._refresh(update_input=True)

    # -- layout -------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Vertical(id="edge-dialog"):
            yield Label("Build a new edge", id="edge-title")
            yield Label(
                "←/→ change the kind or a formula · ↑/↓ move · or type it below", id="edge-help"
            )
            yield SlotRow(-1, id="edge-kind")
            for index in range(5):
                yield SlotRow(index, id=f"edge-slot{index}")
            yield PlainInput(
                "",
                placeholder="theta(N(x,x,x), D(x,x,x), D(x,x,x), D(x,x,x), D(x,x,x))",
                id="edge-input",
            )
            yield Static("", id="edge-verdict")
            with Horizontal(id="edge-buttons"):
                yield Button("Build", id="edge-build", variant="primary")
                yield Button("Cancel (esc)", id="edge-cancel")

    def on_mount(self) -> None:
        self.query_one("#edge-kind", SlotRow).focus()
        self._refresh(update_input=True)

    def _refresh(self, update_input: bool) -> None:
        """Redraw the rows, the text field (unless the player is typing) and the verdict."""
        names = SLOT_NAMES[self.kind]
        kind = self.query_one("#edge-kind", SlotRow)
        kind_text = Text(f"{'kind':<7}‹ ", no_wrap=True)
        kind_text.append(f"{KIND_SYMBOL[self.kind]} {self.kind}", "bold")
        kind_text.append(
            " ›  "
            + ("(n, d1, d2, d3 ⇒ d_base)" if self.kind == THETA else "(d_b, d1, d2, d3 ⇒ n_core)")
        )
        kind.update(kind_text)
        for index in range(5):
            row = self.query_one(f"#edge-slot{index}", SlotRow)
            entry = self.entries[index]
            text = Text(f"{names[index]:<7}‹ ", no_wrap=True)
            if entry is None:
                text.append("none in F*", "italic")
            else:
                text.append(vertex_label(entry, self.compact), "bold")
                text.append(f" {entry}")
            text.append(" ›" + ("   conclusion" if index == 4 else ""))
            row.update(text)
        op = self.operator
        if update_input and op is not None:
            self._syncing = True
            self.query_one("#edge-input", Input).value = str(op)
            self._syncing = False
        self._judge(op)

    def _judge(self, op: Operator | None) -> None:
        box = self.query_one("#edge-verdict", Static)
        self.verdict = self.check(op)
        ok, message = self.verdict
        box.set_class(not ok, "-bad")
        box.update(Text(("✓ " if ok else "✗ ") + message))
        self.query_one("#edge-build", Button).disabled = not ok

    @on(Input.Changed, "#edge-input")
    def _typed(self, event: Input.Changed) -> None:
        if self._syncing:
            return
        box = self.query_one("#edge-verdict", Static)
        try:
            op = parse_operator(event.value, "<edge>")
        except ParseError as error:
            self.verdict = (False, error.short())
            lines = [error.short()] + error.caret_lines()[:2]
            box.set_class(True, "-bad")
            box.update(Text("✗ " + "\n".join(lines)))
            self.query_one("#edge-build", Button).disabled = True
            return
        self.draft = self.draft.showing(op)
        self._refresh(update_input=False)

    @on(Input.Submitted, "#edge-input")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_build()

    @on(Button.Pressed, "#edge-build")
    def _build_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_build()

    @on(Button.Pressed, "#edge-cancel")
    def _cancel_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)

    def action_build(self) -> None:
        """Build the edge when the engine accepts it (else a bell; the verdict says why)."""
        op = self.operator
        if op is None or not self.verdict[0]:
            self.app.bell()
            return
        self.dismiss(op)

    def action_cancel(self) -> None:
        """Close without building."""
        self.dismiss(None)
