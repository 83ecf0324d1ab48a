"""Triangle Carving's board: the current hypergraph by components, and the target H*.

Both widgets draw what the screen hands them (a :class:`~core.carving.State`, the level's
target); they compute no rule. Formulas are drawn as triangles, ``▲`` for Δ and ``▼`` for ∇,
followed by their variables (``▲xxy``; ``▲x1,x2,x1`` when a name is longer than one
character). An edge is ``T`` (intrinsic, a tree edge) or ``V`` (virtual, constructed), then
``θ``/``ω`` and its five entries, the conclusion after ``⇒``.

Marks never rely on colour alone (16 colours, NO_COLOR): the base point is ``◉``, the walk's
current vertex ``◎``, edges on the elimination path so far ``✂``, the new edge ``★``, edges an
offered step goes through ``›``, the component isomorphic to H* ``≅``; with bold, reverse and
underline on top.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Static

from core.carving import Formula, Level, Operator, State, Target
from core.carving.state import component_listing, path_steps, winning_component
from core.text import plural

__all__ = ["CarvingTargetView", "GraphView", "edge_label", "target_text", "vertex_label"]

KIND_SYMBOL = {"theta": "θ", "omega": "ω"}
"""How an operator's kind is drawn."""


def _compact(level: Level | None) -> bool:
    """Whether every variable name is one character (``▲xxy`` then, else ``▲x1,x2,x1``)."""
    return level is not None and all(len(v) == 1 for v in level.variable_names)


def vertex_label(f: Formula, compact: bool = True) -> str:
    """``▲xxy`` for Δ(x,x,y), ``▼abc`` for ∇(a,b,c); with commas when ``compact`` is False."""
    head = "▲" if f.is_delta else "▼"
    sep = "" if compact else ","
    return head + sep.join((f.x, f.y, f.z))


def edge_label(op: Operator, compact: bool = True) -> str:
    """``θ ▼xxx ▲xyy×3 ⇒▲xxx``: the kind, the first four entries (a run of equal ones written
    once with ``×n``), then the conclusion after ``⇒``."""
    runs: list[list] = []
    for f in op[:4]:
        if runs and runs[-1][0] == f:
            runs[-1][1] += 1
        else:
            runs.append([f, 1])
    body = " ".join(vertex_label(f, compact) + (f"×{n}" if n > 1 else "") for f, n in runs)
    return f"{KIND_SYMBOL.get(op.kind or '', '?')} {body} ⇒{vertex_label(op.f5, compact)}"


class GraphView(VerticalScroll, can_focus=True):
    """The current hypergraph, one block per connected component (scrolls with the keys).

    Each block: a heading (vertex and edge counts, ``≅ H*`` when it matches the target),
    its vertices, then its edges with their T/V type. Isolated vertices are listed together
    at the end.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j,down", "scroll_down", "Down", show=False, id="carving_graph.down"),
        Binding("k,up", "scroll_up", "Up", show=False, id="carving_graph.up"),
    ]

    def compose(self):
        yield Static("", id="carving-graph-body")

    def show(self, state: State, highlight: Iterable[Operator] = ()) -> Text:
        """Draw ``state``; edges in ``highlight`` (a hint) are marked too.

        Returns:
            The text drawn (for tests).
        """
        text = graph_text(state, set(highlight))
        self.query_one("#carving-graph-body", Static).update(text)
        return text


def graph_text(state: State, highlight: set[Operator] = frozenset()) -> Text:  # type: ignore[assignment]
    """The text of :class:`GraphView` for ``state``."""
    compact = _compact(state.level)
    won = winning_component(state) if state.phase == "won" else None
    won_vertices = won[0] if won else frozenset()
    walked = {e for e, _ in state.path}
    offered = {e for e, _ in path_steps(state)}
    here = state.path[-1][1] if state.path else state.base
    out = Text(no_wrap=False, overflow="fold")
    isolated: list[Formula] = []
    number = 0
    for vertices, edges in component_listing(state):
        if not edges:
            isolated.append(vertices[0])
            continue
        number += 1
        heading = (
            f"Component {number}: {plural(len(vertices), 'vertex', 'vertices')}, "
            f"{plural(len(edges), 'edge')}"
        )
        is_won = bool(won_vertices) and vertices[0] in won_vertices
        out.append(
            ("≅ H*  " if is_won else "") + heading + "\n", "bold reverse" if is_won else "bold"
        )
        out.append("  ")
        for i, f in enumerate(vertices):
            if i:
                out.append("  ")
            _append_vertex(out, f, state, here, compact)
        out.append("\n")
        for op in edges:
            _append_edge(out, op, state, walked, offered, highlight, compact)
    if isolated:
        out.append(f"Isolated vertices ({len(isolated)})\n", "bold")
        out.append("  ")
        for i, f in enumerate(isolated):
            if i:
                out.append("  ")
            _append_vertex(out, f, state, here, compact)
            if won_vertices and f in won_vertices:
                out.append(" ≅", "bold reverse")
        out.append("\n")
    out.rstrip()
    return out


def _append_vertex(out: Text, f: Formula, state: State, here: Formula, compact: bool) -> None:
    label = vertex_label(f, compact)
    if f == state.base:
        out.append("◉" + label, "bold reverse")
    elif state.phase == "path" and f == here:
        out.append("◎" + label, "bold underline")
    else:
        out.append(label)


def _append_edge(
    out: Text, op: Operator, state: State, walked: set, offered: set, highlight: set, compact: bool
) -> None:
    virtual = op not in state.tree
    if op == state.pending:
        mark, style = "★", "bold reverse"
    elif op in walked:
        mark, style = "✂", "strike"
    elif op in offered or op in highlight:
        mark, style = "›", "bold underline"
    else:
        mark, style = " ", ""
    out.append(f" {mark}")
    out.append("V " if virtual else "T ", "bold" if virtual else "")
    out.append(edge_label(op, compact) + "\n", style)


def target_text(target: Target, max_columns: int = 12) -> Text:
    """H* as an incidence table: one row per vertex, one column per edge (``●`` = in it).

    Args:
        target: The target.
        max_columns: Edges shown as columns; more are listed below the table.

    Returns:
        The text: counts, the table, then every edge as a vertex set.
    """
    vs, es = target.vertices, target.edges
    out = Text(no_wrap=True, overflow="ellipsis")
    sizes = sorted(len(e) for e in es)
    out.append(f"{plural(len(vs), 'vertex', 'vertices')}, {plural(len(es), 'edge')}\n", "bold")
    if sizes:
        out.append("edge sizes " + " ".join(map(str, sizes)) + "\n")
    shown = es[:max_columns]
    width = max(len(v) for v in vs)
    if shown:
        out.append(
            " " * (width + 1) + "".join(f"{i + 1:<2}" for i in range(len(shown))).rstrip() + "\n",
            "bold",
        )
    for v in vs:
        degree = sum(v in e for e in es)
        row = "".join("● " if v in e else "· " for e in shown)
        out.append(f"{v:<{width}} ")
        out.append(row.rstrip())
        out.append(f"  deg {degree}\n", "dim")
    for i, e in enumerate(es, start=1):
        out.append(f"{i}: {{{', '.join(e)}}}\n")
    out.rstrip()
    return out


class CarvingTargetView(Static):
    """The target H* (see :func:`target_text`)."""

    def show(self, target: Target) -> None:
        """Draw ``target``."""
        self.update(target_text(target))
