"""An edge being put together in the construct phase: the operator shapes of definition 1.3.

A Θ operator is ``(n, d1, d2, d3, d_base)``: a ∇ formula, then four Δ; an Ω operator is
``(d_b, d1, d2, d3, n_core)``: four Δ, then a ∇. An :class:`EdgeDraft` holds a kind and five
entries and only ever offers, in each slot, formulas of F* with the head that slot needs, so
every draft with no empty slot is an operator of U over F*. Turning the kind swaps the ∇ and
the base Δ (the triangle ``d1, d2, d3`` stays). :func:`construct_verdict` says what the
engine makes of the drafted edge. The edge builder dialog only renders these values.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .formula import OMEGA, THETA, Formula, Operator
from .state import State, elimination_possible

__all__ = ["SLOT_NAMES", "EdgeDraft", "construct_verdict", "nabla_slot"]

SLOT_NAMES = {THETA: ("n", "d1", "d2", "d3", "d_base"), OMEGA: ("d_b", "d1", "d2", "d3", "n_core")}
"""The seed's names of the five entries of each kind (definition 1.3)."""


def nabla_slot(kind: str) -> int:
    """The slot of the ∇ formula in an operator of ``kind`` (0 for Θ, 4 for Ω).

    Args:
        kind: :data:`core.carving.formula.THETA` or :data:`core.carving.formula.OMEGA`.

    Returns:
        The slot index.
    """
    return 0 if kind == THETA else 4


@dataclass(frozen=True, slots=True)
class EdgeDraft:
    """A kind and five entries, each slot holding a formula of the head it needs.

    Attributes:
        deltas: The Δ formulas of F*, in the order a slot offers them.
        nablas: The ∇ formulas of F*, in order.
        kind: ``"theta"`` or ``"omega"``.
        entries: The five formulas; None in a slot when F* has no formula of its head.
    """

    deltas: tuple[Formula, ...]
    """The Δ formulas of F*."""
    nablas: tuple[Formula, ...]
    """The ∇ formulas of F*."""
    kind: str = THETA
    """``"theta"`` or ``"omega"``."""
    entries: tuple[Formula | None, ...] = (None,) * 5
    """The five formulas (None where F* has none of the head needed)."""

    @classmethod
    def start(
        cls, deltas: Sequence[Formula], nablas: Sequence[Formula], op: Operator | None = None
    ) -> EdgeDraft:
        """A draft showing ``op``, or a Θ draft of the first formula each slot offers.

        Args:
            deltas: The Δ formulas of F*.
            nablas: The ∇ formulas of F*.
            op: The edge to start from (a hint, the last edge built), or None; one that is
                neither Θ nor Ω is ignored.

        Returns:
            The draft.
        """
        deltas, nablas = tuple(deltas), tuple(nablas)
        if op is not None and op.kind is not None:
            return cls(deltas, nablas, op.kind, tuple(op))
        draft = cls(deltas, nablas)
        first = tuple(
            options[0] if options else None for options in (draft.choices(i) for i in range(5))
        )
        return cls(deltas, nablas, THETA, first)

    def showing(self, op: Operator) -> EdgeDraft:
        """The draft with a typed operator's five formulas, whatever their heads.

        Args:
            op: Five formulas as typed; one that is neither Θ nor Ω is shown as Θ (the
                engine's verdict then says why it cannot be built).

        Returns:
            The draft.
        """
        return EdgeDraft(self.deltas, self.nablas, op.kind or THETA, tuple(op))

    def choices(self, index: int) -> tuple[Formula, ...]:
        """The formulas slot ``index`` may hold: ∇ where the kind puts its ∇, else Δ.

        Args:
            index: The slot, 0 to 4.

        Returns:
            The formulas, in order (empty when F* has none of that head).
        """
        return self.nablas if index == nabla_slot(self.kind) else self.deltas

    def flipped(self) -> EdgeDraft:
        """The other kind: θ(n, d1, d2, d3, d_base) <-> ω(d_b, d1, d2, d3, n_core).

        Returns:
            The draft with the ∇ and the base Δ swapped (the triangle stays).
        """
        first, *middle, last = self.entries
        kind = OMEGA if self.kind == THETA else THETA
        return EdgeDraft(self.deltas, self.nablas, kind, (last, *middle, first))

    def turned(self, index: int, step: int) -> EdgeDraft | None:
        """Slot ``index`` moved by ``step`` choices (wrapping around).

        A slot whose formula is not among its choices starts from the first (``step`` 1)
        or the last (``step`` -1).

        Args:
            index: The slot, 0 to 4.
            step: How many choices forward (negative: back).

        Returns:
            The new draft, or None when F* has no formula for that slot.
        """
        options = self.choices(index)
        if not options:
            return None
        current = self.entries[index]
        position = options.index(current) if current in options else -step
        entries = list(self.entries)
        entries[index] = options[(position + step) % len(options)]
        return EdgeDraft(self.deltas, self.nablas, self.kind, tuple(entries))

    @property
    def operator(self) -> Operator | None:
        """The drafted edge, or None while a slot is empty."""
        entries = self.entries
        if any(f is None for f in entries):
            return None
        return Operator(*entries)  # type: ignore[arg-type]


def construct_verdict(state: State, op: Operator | None) -> tuple[bool, str]:
    """What constructing ``op`` now would do, for the player.

    Args:
        state: A state in the ``construct`` phase.
        op: The drafted edge (None: a slot is empty).

    Returns:
        ``(may be constructed, a sentence)``: why not, or whether a legal elimination path
        reaches the edge (an elimination follows) or not (it stays a virtual edge).
    """
    if op is None:
        return (
            False,
            "F* has no formula of the head a slot needs: no edge of this kind can be built.",
        )
    problem = state.world.construct_problem(op)
    if problem is not None:
        return False, problem + "."
    if elimination_possible(state, op):
        return True, (
            f"{op}\nA legal path from the base point reaches it: you will carve an "
            "elimination path."
        )
    return True, f"{op}\nNo legal path reaches it: it will stay as a virtual edge (V)."
