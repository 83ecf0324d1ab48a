"""The state graph of a Longcat level (seed 003's graph representation) and its metrics.

Nodes are the positions ``(head, filled)`` reachable from the start (the start included,
dead ends included); there is an edge for every legal move. Every move fills at least one
cell, so the graph is a DAG whose topological order is "fewer filled cells first", and two
different moves from one position always lead to different positions (the heads differ).

State kinds
-----------
Every node has exactly one *kind*, decided in this order:

``success``
    Every empty cell is filled (the level is won).
``fail``
    Not won and no legal move: the player must restart.
``reachable``
    Some path of moves leads from it to a success node.
``dead``
    Not one of the above, and its empty cells form two or more 4-connected regions; the
    head does **not** count as a connection (it is filled). No solution can follow (see
    :mod:`core.longcat.prune`), and a player sees it at once.
``indeterminate``
    Every other node: it cannot lead to a solution, but not obviously so.

The seed also names a *start* class: for display (colours, :meth:`Analysis.class_counts`)
the start node gets the class ``start`` instead of its kind; the metrics below count the
start by its kind. A ``reachable`` node is never ``dead`` (a split region cannot be
completed), so the order between those two only matters for documentation.

Metrics (:class:`Metrics`) are defined on that graph; see the attribute docs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from core.longcat.level import DIRECTIONS, LETTERS, Level
from core.longcat.prune import is_dead
from core.longcat.rules import slide
from core.search import Interrupted, Watch

__all__ = [
    "CLASSES",
    "DEPRECATED_ALIASES",
    "Analysis",
    "AnalysisLimit",
    "Metrics",
    "StateGraph",
    "analyse",
    "build_graph",
    "to_dot",
]

KINDS: tuple[str, ...] = ("success", "fail", "reachable", "dead", "indeterminate")
"""The kinds of node, in the order they are decided."""

CLASSES: tuple[str, ...] = ("start",) + KINDS
"""The display classes: the start node's own class, then the kinds."""

COLOURS: dict[str, str] = {
    "start": "white",
    "success": "green",
    "fail": "red",
    "reachable": "lightblue",
    "dead": "purple",
    "indeterminate": "yellow",
}
"""Graphviz fill colour of each class (the paper's: green, red, blue, purple, yellow)."""


DEPRECATED_ALIASES: dict[str, str] = {"size": "open_cells", "solutions": "solution_paths"}
"""Old metric names and the new names holding their (unchanged) meaning; JSON output still
carries the old keys, and :meth:`Metrics.from_dict` reads records that only have them."""


WHY = {
    "limit": "state limit",
    "budget": "work budget",
    "time": "time limit",
    "cancelled": "cancelled",
}
"""The words for each reason a bounded Longcat computation stopped (CLI text and JSON)."""


class AnalysisLimit(RuntimeError):
    """The state graph grew past the limit, a watch's bound was hit, or the caller cancelled.

    Attributes:
        reason: ``"limit"`` (``max_states``), ``"budget"`` (the watch's work budget),
            ``"time"`` (the watch's deadline) or ``"cancelled"``.
        states: Nodes built when it stopped.
    """

    def __init__(self, reason: str, states: int):
        super().__init__(f"state graph analysis stopped ({reason}) after {states} states")
        self.reason = reason
        """``"limit"``, ``"budget"``, ``"time"`` or ``"cancelled"``."""
        self.states = states
        """Nodes built when it stopped."""

    @property
    def why(self) -> str:
        """The reason in words (:data:`WHY`): ``"work budget"``, ``"time limit"`` ..."""
        return WHY.get(self.reason, self.reason)


def watch_reason(stop: Interrupted) -> str:
    """The Longcat reason (a key of :data:`WHY`) of a watch's :class:`Interrupted`.

    Args:
        stop: What the watch raised.

    Returns:
        ``"time"`` for its deadline, else its own reason (``"budget"``, ``"cancelled"``).
    """
    return "time" if stop.reason == "limit" else stop.reason


def _spend(watch: Watch, states: int, built: int) -> None:
    """Spend ``states`` of the watch's budget and poll it; its stop as an AnalysisLimit."""
    try:
        watch.spend(states)
        watch.poll("state graph", built, 0)
    except Interrupted as stop:
        raise AnalysisLimit(watch_reason(stop), built) from None


@dataclass(frozen=True, slots=True)
class StateGraph:
    """Every position reachable from a level's start, and the moves between them.

    Attributes:
        level: The level.
        heads: ``heads[k]``: board index of the head in node ``k`` (node 0 is the start;
            nodes are numbered in breadth-first order).
        filled: ``filled[k]``: mask of the filled cells of node ``k``.
        edges: ``edges[k]``: ``(direction index, child node)`` for each legal move of node
            ``k``, in :data:`DIRECTIONS` order.
    """

    level: Level
    """The level."""
    heads: tuple[int, ...]
    """Head index of each node."""
    filled: tuple[int, ...]
    """Filled mask of each node."""
    edges: tuple[tuple[tuple[int, int], ...], ...]
    """Moves of each node: ``(direction index, child)``."""

    def __len__(self) -> int:
        return len(self.heads)

    def topological_order(self) -> list[int]:
        """Nodes with the most filled cells first: every child comes before its parents."""
        filled = self.filled
        return sorted(range(len(filled)), key=lambda k: filled[k].bit_count(), reverse=True)


def build_graph(
    level: Level,
    *,
    max_states: int = 1_000_000,
    should_stop: Callable[[], bool] | None = None,
    progress: Callable[[int, int], None] | None = None,
    watch: Watch | None = None,
) -> StateGraph:
    """Enumerate every position reachable from the start, without pruning.

    Args:
        level: The level.
        max_states: Raise :class:`AnalysisLimit` when the graph would exceed this many nodes.
        should_stop: Polled before the first node and every 1024 nodes; True raises
            :class:`AnalysisLimit` (cancelled).
        progress: ``progress(expanded, known)``, called every 1024 nodes.
        watch: Spent one state per node expanded (in blocks of 1024, the rest at the end:
            the same count on every machine) and polled every 1024 nodes.

    Returns:
        The :class:`StateGraph`.

    Raises:
        AnalysisLimit: Too many states, the watch's budget or deadline, or cancelled.
    """
    board = level.board
    head = level.start_index
    index = {(head, 1 << head): 0}
    heads, filled = [head], [1 << head]
    edges: list[tuple[tuple[int, int], ...]] = []
    k = 0
    while k < len(heads):
        if k & 1023 == 0:
            if should_stop is not None and should_stop():
                raise AnalysisLimit("cancelled", len(heads))
            if watch is not None:
                _spend(watch, 1024 if k else 0, len(heads))
            if progress is not None:
                progress(k, len(heads))
        h, f = heads[k], filled[k]
        out = []
        for d in range(4):
            moved = slide(board, h, f, d)
            if moved is None:
                continue
            j = index.get(moved)
            if j is None:
                j = len(heads)
                if j >= max_states:
                    if watch is not None:  # the nodes expanded count, whatever stopped them
                        watch.spent += k & 1023
                    raise AnalysisLimit("limit", j)
                index[moved] = j
                heads.append(moved[0])
                filled.append(moved[1])
            out.append((d, j))
        edges.append(tuple(out))
        k += 1
    if watch is not None:
        _spend(watch, k & 1023, len(heads))  # the nodes since the last block: k in all
    return StateGraph(level, tuple(heads), tuple(filled), tuple(edges))


@dataclass(frozen=True, slots=True)
class Metrics:
    """The seed's level metrics, computed on the full state graph (no pruning).

    Two counts have two readings, and both are reported under their own names (seed 003
    defines "Size" as "网格中的格子数", the cells of the grid, and "number of solutions" as
    "成功状态的数量", the number of success states):

    * size: ``grid_cells`` (the seed's Size: width × height, walls included) and
      ``open_cells`` (the empty cells, the cat's final length);
    * solutions: ``success_states`` (the seed's count: distinct won positions, which in
      Longcat means distinct final head cells) and ``solution_paths`` (distinct winning move
      sequences). Arduboy level 2 has 2 paths and 1 success state; level 1 has 8 and 4.

    The old names stay readable in Python as deprecated aliases with their old meaning
    (:attr:`size` is ``open_cells`` and :attr:`solutions` is ``solution_paths``), and
    :meth:`from_dict` reads old records that have them; JSON output no longer has them.

    Attributes:
        grid_cells: Cells of the grid, walls included (the seed's Size).
        open_cells: Empty cells of the level, the start included (the cat's final length).
        states: Nodes of the state graph: distinct ``(head, filled)`` positions reachable
            from the start, the start and dead ends included.
        edges: Moves in the state graph (sum of out-degrees).
        branches: Nodes with more than one legal move (out-degree > 1).
        fails: Nodes of kind ``fail``.
        success_states: Nodes of kind ``success`` (distinct final head cells): the seed's
            number of solutions, and the predictor's input.
        reachable_states: Nodes of kind ``reachable``.
        dead_states: Nodes of kind ``dead``.
        indeterminate_states: Nodes of kind ``indeterminate``.
        indeterminate_branches: Σ (out-degree − 1) over indeterminate nodes with out-degree
            > 1 (the seed's ``count_indeterminate_branches``; every move counts, including
            moves into dead or fail nodes).
        solution_paths: Distinct move sequences from the start that win (paths from the
            start to a success node; 1 for a level already won at the start).
        solution_branches: Wrong moves offered on the way to a solution: the number of
            edges from a ``reachable`` node (the start included) to a node that is neither
            ``reachable`` nor ``success``.
        shortest_solution: Moves of the shortest solution; None when unsolvable.
    """

    grid_cells: int
    """Cells of the grid, walls included (the seed's Size)."""
    open_cells: int
    """Empty cells, the start included."""
    states: int
    """Reachable positions, start and dead ends included."""
    edges: int
    """Moves in the state graph."""
    branches: int
    """Nodes with out-degree > 1."""
    fails: int
    """Fail nodes."""
    success_states: int
    """Success nodes."""
    reachable_states: int
    """Reachable-kind nodes."""
    dead_states: int
    """Dead nodes."""
    indeterminate_states: int
    """Indeterminate nodes."""
    indeterminate_branches: int
    """Σ (out-degree − 1) over indeterminate nodes with out-degree > 1."""
    solution_paths: int
    """Winning move sequences from the start."""
    solution_branches: int
    """Edges from reachable nodes to nodes that cannot win."""
    shortest_solution: int | None
    """Moves of the shortest solution (None: unsolvable)."""

    @property
    def solvable(self) -> bool:
        """True when at least one solution exists."""
        return self.success_states > 0

    @property
    def size(self) -> int:
        """Deprecated alias of :attr:`open_cells` (the old name; not the seed's Size)."""
        return self.open_cells

    @property
    def solutions(self) -> int:
        """Deprecated alias of :attr:`solution_paths` (the old name; the seed's number of
        solutions is :attr:`success_states`)."""
        return self.solution_paths

    def as_dict(self) -> dict[str, int | None]:
        """Every metric by name, in field order, under the seed's names only.

        The deprecated aliases ``size`` and ``solutions`` are no longer written (issue 29):
        next to ``grid_cells`` and ``success_states`` their old meanings read as the seed's
        Size and number of solutions. :meth:`from_dict` still reads records that have them.

        Returns:
            The fields.
        """
        return {name: getattr(self, name) for name in self.__dataclass_fields__}

    @classmethod
    def from_dict(cls, data: dict) -> Metrics:
        """Metrics from :meth:`as_dict` output, or from data stored under the old names.

        Args:
            data: Metric values by name. Old records (before ``grid_cells``,
                ``open_cells`` and ``solution_paths``) have ``size`` and ``solutions``
                instead; ``grid_cells`` is then unknown and left 0.

        Returns:
            The metrics.

        Raises:
            KeyError: A metric is missing under both its new and its old name.
        """
        values = dict(data)
        for old, new in DEPRECATED_ALIASES.items():
            if new not in values:
                values[new] = values[old]
        values.setdefault("grid_cells", 0)
        return cls(**{name: values[name] for name in cls.__dataclass_fields__})


@dataclass(frozen=True, slots=True)
class Analysis:
    """A level's state graph, the kind of every node and the metrics.

    Attributes:
        graph: The state graph.
        kinds: ``kinds[k]``: the kind of node ``k`` (one of :data:`KINDS`).
        metrics: The :class:`Metrics`.
        solution: One shortest solution (empty when unsolvable or already won).
    """

    graph: StateGraph
    """The state graph."""
    kinds: tuple[str, ...]
    """Kind of each node."""
    metrics: Metrics
    """The metrics."""
    solution: tuple[str, ...]
    """One shortest solution."""

    @property
    def level(self) -> Level:
        """The analysed level."""
        return self.graph.level

    @property
    def solution_letters(self) -> str:
        """The shortest solution as a ``UDLR`` string."""
        return "".join(LETTERS[DIRECTIONS.index(m)] for m in self.solution)

    def node_class(self, k: int) -> str:
        """The display class of node ``k``: ``"start"`` for node 0, else its kind."""
        return "start" if k == 0 else self.kinds[k]

    def class_counts(self) -> dict[str, int]:
        """How many nodes each display class has (every class of :data:`CLASSES` present);
        the counts sum to ``metrics.states``."""
        counts = dict.fromkeys(CLASSES, 0)
        for k in range(len(self.kinds)):
            counts[self.node_class(k)] += 1
        return counts


def _kinds(graph: StateGraph, order: list[int]) -> tuple[list[str], list[int], list[int | None]]:
    """Kinds, winning-path counts and distances to success of every node (children first)."""
    board = graph.level.board
    free = board.free
    n = len(graph)
    paths = [0] * n
    dist: list[int | None] = [None] * n
    kinds = [""] * n
    for k in order:
        out = graph.edges[k]
        if graph.filled[k] == free:
            kinds[k], paths[k], dist[k] = "success", 1, 0
            continue
        if not out:
            kinds[k] = "fail"
            continue
        total = 0
        best: int | None = None
        for _, c in out:
            total += paths[c]
            dc = dist[c]
            if dc is not None and (best is None or dc + 1 < best):
                best = dc + 1
        paths[k], dist[k] = total, best
        if total:
            kinds[k] = "reachable"
        elif is_dead(board, graph.filled[k]):
            kinds[k] = "dead"
        else:
            kinds[k] = "indeterminate"
    return kinds, paths, dist


def _shortest(graph: StateGraph, dist: list[int | None]) -> tuple[str, ...]:
    """Follow decreasing distances from the start (first such move in direction order)."""
    moves: list[str] = []
    k = 0
    while dist[k]:
        for d, c in graph.edges[k]:
            if dist[c] is not None and dist[c] == dist[k] - 1:  # type: ignore[operator]
                moves.append(DIRECTIONS[d])
                k = c
                break
    return tuple(moves)


def analyse(
    level: Level,
    *,
    max_states: int = 1_000_000,
    should_stop: Callable[[], bool] | None = None,
    progress: Callable[[int, int], None] | None = None,
    watch: Watch | None = None,
) -> Analysis:
    """Build the full state graph of ``level``, classify every node and compute the metrics.

    Args:
        level: The level.
        max_states: Limit on the number of nodes (see :func:`build_graph`).
        should_stop: Cancellation poll (see :func:`build_graph`).
        progress: Progress callback (see :func:`build_graph`).
        watch: Work budget (states) and deadline (see :func:`build_graph`).

    Returns:
        The :class:`Analysis`.

    Raises:
        AnalysisLimit: Too many states, the watch's budget or deadline, or cancelled.
    """
    graph = build_graph(
        level, max_states=max_states, should_stop=should_stop, progress=progress, watch=watch
    )
    kinds, paths, dist = _kinds(graph, graph.topological_order())
    counts = dict.fromkeys(KINDS, 0)
    branches = indeterminate_branches = solution_branches = n_edges = 0
    for k, out in enumerate(graph.edges):
        kind = kinds[k]
        counts[kind] += 1
        degree = len(out)
        n_edges += degree
        if degree > 1:
            branches += 1
            if kind == "indeterminate":
                indeterminate_branches += degree - 1
        if kind == "reachable":
            solution_branches += sum(1 for _, c in out if not paths[c])
    metrics = Metrics(
        grid_cells=level.width * level.height,
        open_cells=level.size,
        states=len(graph),
        edges=n_edges,
        branches=branches,
        fails=counts["fail"],
        success_states=counts["success"],
        reachable_states=counts["reachable"],
        dead_states=counts["dead"],
        indeterminate_states=counts["indeterminate"],
        indeterminate_branches=indeterminate_branches,
        solution_paths=paths[0],
        solution_branches=solution_branches,
        shortest_solution=dist[0],
    )
    solution = _shortest(graph, dist) if dist[0] else ()
    return Analysis(graph, tuple(kinds), metrics, solution)


def to_dot(analysis: Analysis, *, name: str = "longcat") -> str:
    """The state graph as Graphviz DOT text, nodes filled with their class colour.

    Node labels are the node number and the head cell ``(x,y)``; edges carry the move letter.
    Success nodes are double circles, the start is drawn bold.

    Args:
        analysis: The analysis to draw.
        name: The graph's name (letters, digits and ``_`` are kept, others become ``_``).

    Returns:
        The DOT text (ends with a newline).
    """
    level = analysis.level
    safe = "".join(ch if ch.isascii() and (ch.isalnum() or ch == "_") else "_" for ch in name)
    lines = [
        f"digraph {safe or 'longcat'} {{",
        "  // classes: start white, success green, fail red, reachable lightblue,",
        "  // dead purple, indeterminate yellow",
        "  node [shape=circle, style=filled, fontsize=10];",
    ]
    for k, head in enumerate(analysis.graph.heads):
        cls = analysis.node_class(k)
        x, y = level.xy(head)
        extra = ", shape=doublecircle" if analysis.kinds[k] == "success" else ""
        extra += ", penwidth=3" if cls == "start" else ""
        tip = f"start, {analysis.kinds[k]}" if cls == "start" else cls
        lines.append(
            f'  n{k} [label="{k}\\n({x},{y})", fillcolor={COLOURS[cls]}, tooltip="{tip}"{extra}];'
        )
    for k, out in enumerate(analysis.graph.edges):
        for d, c in out:
            lines.append(f'  n{k} -> n{c} [label="{LETTERS[d]}"];')
    lines.append("}")
    return "\n".join(lines) + "\n"
