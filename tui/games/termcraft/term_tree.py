"""A lazy, collapsible tree view of a term (TermCraft's term-tree viewer).

Nodes show a compound's constructor, a constant's name, or ``var(X)`` for a variable
(italic, in its own colour). Children are created only when a node is expanded, and a
compound with many children gets them in chunks of :data:`CHUNK` behind a "… more" node,
so a term with millions of nodes or nested 100,000 levels deep opens instantly: the widget
never walks more of the term than the player has unfolded.

The screen tells the tree which positions to mark (:meth:`TermTree.set_marks`): the site of
the highlighted action (``»`` and the ``term-tree--site`` style), the rule it uses (``⇐ rule``)
and the placeholders (``◆`` and the yellow ``term-tree--placeholder`` style). The markers are
characters, not only colours, so the tree reads the same with ``NO_COLOR`` or 16 colours.
The widget knows nothing about game rules: it only draws paths it is given.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar, cast

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from core.termcraft.terms import COMPOUND, VAR, Path, Term, short_str, subterm_at

__all__ = [
    "AUTO_EXPAND_NODES",
    "CHUNK",
    "MoreData",
    "NodeData",
    "TermTree",
    "ZoomData",
]

CHUNK = 100
"""How many children of one compound are added at a time."""

AUTO_EXPAND_NODES = 150
"""Roughly how many nodes are unfolded automatically when a term is shown."""

AUTO_EXPAND_DEPTH = 16
"""Automatic unfolding never goes deeper than this."""

MAX_DEPTH = 60
"""Levels shown below the view's root; deeper subterms are reached by zooming in.

Textual's tree builds its lines recursively and keeps each line's ancestor list, so a
10,000-level path cannot be shown at once; the view is re-rooted instead (``⋯`` nodes)."""

LABEL_PREVIEW = 48
"""Characters of a collapsed compound's text shown after its constructor."""

SITE_MARK = "» "
"""Prefix of the node at the highlighted action's site."""
PLACEHOLDER_MARK = "◆ "
"""Prefix of a placeholder node."""
RULE_MARK = " ⇐ rule"
"""Suffix of the rule used by the highlighted action."""


@dataclass(frozen=True, slots=True)
class NodeData:
    """What a tree node stands for: a subterm at a position."""

    path: Path
    """Position of the subterm in the shown term."""
    term: Term
    """The subterm itself."""


@dataclass(frozen=True, slots=True)
class MoreData:
    """A "… N more" node standing for children not loaded yet (enter loads the first chunk).

    Chunks load where they are needed (revealing child 5,432 loads its chunk only), so a
    compound's children are loaded chunks with such gaps between them.
    """

    parent_path: Path
    """Position of the compound whose children are loaded."""
    start: int
    """Index of the first child not yet loaded."""
    stop: int = -1
    """Index after the last child of the gap (-1: to the end)."""


@dataclass(frozen=True, slots=True)
class ZoomData:
    """A node that re-roots the view: deeper (zoom in at ``path``) or back up."""

    path: Path
    """Position the view moves to (zoom in) or away from (zoom out)."""
    up: bool
    """True to go towards the term's root."""


NodeInfo = NodeData | MoreData | ZoomData


class TermTree(Tree[NodeInfo]):
    """A collapsible, lazily built view of one term.

    Keys (besides Textual's tree keys): ``j``/``s`` down, ``k``/``w`` up, ``l``/``d``/right
    unfold or step into, ``h``/``a``/left fold or step out, ``enter``/``space`` choose the
    node (posts :class:`TermTree.Chosen`; on a "… more" node, load more children).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down,j,s", "cursor_down", "Down", show=False, id="term_tree.down"),
        Binding("up,k,w", "cursor_up", "Up", show=False, id="term_tree.up"),
        Binding("right,l,d", "unfold", "Unfold", show=False, id="term_tree.unfold"),
        Binding("left,h,a", "fold", "Fold", show=False, id="term_tree.fold"),
        Binding("enter,space", "choose", "Choose", id="term_tree.choose", key_display="⏎"),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = Tree.COMPONENT_CLASSES | {
        "term-tree--constructor",
        "term-tree--constant",
        "term-tree--variable",
        "term-tree--placeholder",
        "term-tree--site",
        "term-tree--rule",
        "term-tree--preview",
        "term-tree--more",
    }

    DEFAULT_CSS = """
    TermTree {
        & > .term-tree--constructor { text-style: bold; }
        & > .term-tree--constant { }
        & > .term-tree--variable { color: $text-secondary; text-style: italic; }
        & > .term-tree--placeholder { color: $text-warning; text-style: bold; }
        & > .term-tree--site { color: $text-success; text-style: bold underline; }
        & > .term-tree--rule { color: $text-success; text-style: italic; }
        & > .term-tree--preview { color: $text-muted; }
        & > .term-tree--more { color: $text-muted; text-style: italic; }
    }
    """

    class Chosen(Message):
        """The player chose (enter/space) the node at ``path``."""

        def __init__(self, tree: TermTree, path: Path, term: Term) -> None:
            super().__init__()
            self.tree = tree
            """The tree the node belongs to."""
            self.path = path
            """Position of the chosen subterm."""
            self.term = term
            """The chosen subterm."""

        @property
        def control(self) -> TermTree:
            """The tree that sent the message."""
            return self.tree

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__("term", id=id, classes=classes)
        self.guide_depth = 2
        self.auto_expand = False  # enter/space choose; folding has its own keys
        self.term: Term | None = None
        """The term shown (None before :meth:`show_term`)."""
        self._site: Path | None = None
        self._rule: Path | None = None
        self._placeholders: frozenset[Path] = frozenset()
        self._user_expanded: set[Path] = set()
        self._user_collapsed: set[Path] = set()
        self._path_nodes: dict[Path, TreeNode[NodeInfo]] = {}
        self._chunks: dict[Path, set[int]] = {}  # path -> the chunks of children added
        self.base: Path = ()
        """Position of the subterm shown as the tree's root (``()``: the whole term)."""

    # -- building ----------------------------------------------------------------------------

    def show_term(self, term: Term, *, keep_view: bool = True) -> None:
        """Show ``term``, keeping what the player unfolded where the shape allows.

        Args:
            term: The term to show.
            keep_view: Keep unfolded/folded nodes and the cursor position from the previous
                term (after a move); False starts afresh (a new level).
        """
        cursor_path = self.cursor_path if keep_view else None
        if not keep_view:
            self._user_expanded.clear()
            self._user_collapsed.clear()
            self.base = ()
        self.term = term
        if not _is_position(term, self.base):
            self.base = ()
        self._rebuild()
        if cursor_path is not None:
            self.move_to_path(cursor_path, nearest=True)
        else:
            self.move_cursor(self.root)

    def _rebuild(self) -> None:
        """Recreate the nodes for the current term and view root."""
        assert self.term is not None
        self._path_nodes.clear()
        self._chunks.clear()
        self.clear()
        root = self.root
        subterm = subterm_at(self.term, self.base)
        root.data = NodeData(self.base, subterm)
        root.allow_expand = subterm.kind == COMPOUND and bool(subterm.args)
        self._path_nodes[self.base] = root
        self._unfold_initially()
        self._relabel_all()

    def zoom(self, base: Path, cursor: Path | None = None) -> None:
        """Show the subterm at ``base`` as the tree's root.

        Args:
            base: A position of the shown term.
            cursor: Where to put the cursor afterwards (default: the new root).
        """
        if self.term is None or not _is_position(self.term, base):
            return
        self.base = base
        self._rebuild()
        if cursor is None or not self.move_to_path(cursor, nearest=True):
            self.move_cursor(self.root)

    def _unfold_initially(self) -> None:
        """Unfold breadth-first up to a node budget, plus what the player unfolded.

        Nodes the player folded stay folded. This never visits more than
        :data:`AUTO_EXPAND_NODES` nodes beyond those the player opened.
        """
        budget = AUTO_EXPAND_NODES
        queue: deque[TreeNode[NodeInfo]] = deque([self.root])
        while queue and budget > 0:
            node = queue.popleft()
            data = node.data
            if not isinstance(data, NodeData) or not node.allow_expand:
                continue
            if (
                data.path in self._user_collapsed
                or len(data.path) - len(self.base) >= AUTO_EXPAND_DEPTH
            ):
                continue
            self._load_children(node)
            node._expanded = True  # no NodeExpanded message: this is not the player's doing
            budget -= len(node.children)
            queue.extend(node.children)
        # Re-open what the player unfolded before (shallow first, parents before children).
        base, depth = self.base, len(self.base)
        mine = [p for p in self._user_expanded if p[:depth] == base and len(p) - depth < MAX_DEPTH]
        for path in sorted(mine, key=len)[:2000]:
            found = self._node_for_path(path, load=True)
            if found is not None and found.allow_expand and path not in self._user_collapsed:
                self._load_children(found)
                found._expanded = True
        self._invalidate()

    def _load_children(self, node: TreeNode[NodeInfo], upto: int | None = None) -> None:
        """Add the chunk of a node's children holding child ``upto`` (idempotent).

        Args:
            node: A node standing for a compound.
            upto: Make sure the child with this index is loaded (default: the first chunk).
                Only its chunk is added; the children between loaded chunks stay behind
                "… N more" nodes.
        """
        data = node.data
        if not isinstance(data, NodeData):
            return
        term, path = data.term, data.path
        total = len(term.args)
        if len(path) - len(self.base) >= MAX_DEPTH:
            # Too deep for one view: a single "zoom in" child re-roots the tree here.
            if not node.children and total:
                self._set_label(node.add_leaf("", ZoomData(path, up=False)))
            return
        if node is self.root and self.base and not node.children:
            self._set_label(node.add_leaf("", ZoomData(self.base, up=True)))
        if not total:
            return
        chunk = 0 if upto is None else min(max(upto, 0), total - 1) // CHUNK
        loaded = self._chunks.setdefault(path, set())
        if chunk in loaded:
            return
        first, end = chunk * CHUNK, min((chunk + 1) * CHUNK, total)
        gap = None
        if loaded:  # the gap node that stands for this chunk's children
            gap = next(
                child
                for child in node.children
                if isinstance(child.data, MoreData) and child.data.start <= first < child.data.stop
            )
            more = cast(MoreData, gap.data)  # the next() above picked a MoreData node
            lo, hi = more.start, more.stop
        else:
            lo, hi = 0, total
        if lo < first:
            self._add(node, MoreData(path, lo, first), gap)
        for index in range(first, end):
            child = term.args[index]
            child_node = self._add(
                node,
                NodeData(path + (index,), child),
                gap,
                expandable=child.kind == COMPOUND and bool(child.args),
            )
            self._path_nodes[path + (index,)] = child_node
        if gap is not None and end < hi:
            gap.data = MoreData(path, end, hi)
            self._set_label(gap)
        elif gap is not None:
            gap.remove()
        elif end < hi:
            self._add(node, MoreData(path, end, hi), None)
        loaded.add(chunk)

    def _add(
        self,
        node: TreeNode[NodeInfo],
        data: NodeInfo,
        before: TreeNode[NodeInfo] | None,
        expandable: bool = False,
    ) -> TreeNode[NodeInfo]:
        """Add a child to ``node`` (before ``before`` when given), labelled."""
        child = node.add("", data, before=before, allow_expand=expandable)
        self._set_label(child)
        return child

    def _node_for_path(self, path: Path, load: bool) -> TreeNode[NodeInfo] | None:
        """Find (and with ``load`` create) the node at ``path``; None if it is not a position."""
        node = self._path_nodes.get(path)
        if node is not None or not load:
            return node
        base = self.base
        if path[: len(base)] != base or len(path) - len(base) > MAX_DEPTH:
            return None
        current = self.root
        for depth in range(len(base), len(path)):
            index = path[depth]
            data = current.data
            if not isinstance(data, NodeData) or index >= len(data.term.args):
                return None
            child = self._path_nodes.get(path[: depth + 1])
            if child is None:
                self._load_children(current, upto=index)
                child = self._path_nodes.get(path[: depth + 1])
                if child is None:
                    return None
            current = child
        return current

    # -- labels ------------------------------------------------------------------------------

    def set_marks(
        self,
        site: Path | None = None,
        rule: Path | None = None,
        placeholders: Iterable[Path] = (),
    ) -> None:
        """Mark the highlighted action's site and rule, and the placeholders.

        Args:
            site: Position of the highlighted action's site (unfolded into view), or None.
            rule: Position of the rule it uses, or None.
            placeholders: Positions of the placeholders of the shown term.
        """
        old = {self._site, self._rule}
        self._site, self._rule = site, rule
        placeholders = frozenset(placeholders)
        changed = placeholders != self._placeholders
        self._placeholders = placeholders
        if site is not None and self.reveal(site) is not None:
            self.call_after_refresh(self._scroll_to_path, site)
        if changed:
            self._relabel_all()
        else:
            for path in old | {site, rule}:
                if path is not None and path in self._path_nodes:
                    self._set_label(self._path_nodes[path])
        self._invalidate()

    @property
    def marked_site(self) -> Path | None:
        """The position marked as the highlighted action's site (None when none is)."""
        return self._site

    def show_path(self, path: Path) -> None:
        """Unfold the ancestors of ``path`` and scroll it into view (no mark, no cursor)."""
        if self.reveal(path) is not None:
            self.call_after_refresh(self._scroll_to_path, path)

    def _relabel_all(self) -> None:
        for node in self._path_nodes.values():
            self._set_label(node)

    def _set_label(self, node: TreeNode[NodeInfo]) -> None:
        # Set the label without TreeNode.set_label's per-node refresh callback: callers
        # relabel many nodes at once and invalidate the tree a single time.
        node._label = self._make_label(node)
        node._updates += 1

    def _make_label(self, node: TreeNode[NodeInfo]) -> Text:
        data = node.data
        style = self.get_component_rich_style
        if isinstance(data, ZoomData):
            text = "↑ zoom out (enter)" if data.up else "⋯ deeper levels: enter to zoom in"
            return Text(text, style=style("term-tree--more"))
        if isinstance(data, MoreData):
            return Text(
                f"… {data.stop - data.start:,} more (enter)", style=style("term-tree--more")
            )
        if not isinstance(data, NodeData):
            return Text("?")
        term, path = data.term, data.path
        label = Text(no_wrap=True, overflow="ellipsis")
        if path == self._site:
            label.append(SITE_MARK, style("term-tree--site"))
        if path in self._placeholders:
            label.append(PLACEHOLDER_MARK + term.name, style("term-tree--placeholder"))
        elif term.kind == VAR:
            label.append(f"var({term.name})", style("term-tree--variable"))
        elif term.kind == COMPOUND:
            label.append(_cut(term.name), style("term-tree--constructor"))
            if not term.args:
                label.append("()")
            elif not node.is_expanded:
                inner = short_str(term, LABEL_PREVIEW + len(term.name))[len(term.name) :]
                label.append(inner, style("term-tree--preview"))
        else:
            label.append(_cut(term.name), style("term-tree--constant"))
        if path == self._site:
            label.stylize(style("term-tree--site"))
        if node is self.root and self.base:
            label.append(f"  (zoomed: depth {len(self.base)})", style("term-tree--preview"))
        if path == self._rule:
            label.append(RULE_MARK, style("term-tree--rule"))
        return label

    def process_label(self, label: object) -> Text:
        """Keep labels as built (the default would parse markup and drop extra lines)."""
        if isinstance(label, Text):
            return label
        return Text(str(label))

    # -- navigation --------------------------------------------------------------------------

    @property
    def cursor_path(self) -> Path | None:
        """Position of the subterm under the cursor, or None."""
        node = self.cursor_node
        if node is not None and isinstance(node.data, NodeData):
            return node.data.path
        if node is not None and isinstance(node.data, MoreData):
            return node.data.parent_path
        if node is not None and isinstance(node.data, ZoomData):
            return node.data.path
        return None

    def reveal(self, path: Path) -> TreeNode[NodeInfo] | None:
        """Unfold the ancestors of ``path`` so its node is visible.

        Args:
            path: A position in the shown term.

        Returns:
            The node, or None if ``path`` is not a position of the term.
        """
        if self.term is None or not _is_position(self.term, path):
            return None
        base = self.base
        if path[: len(base)] != base or len(path) - len(base) > MAX_DEPTH:
            self.base = path[: max(0, len(path) - MAX_DEPTH // 2)]
            self._rebuild()
        node = self._node_for_path(path, load=True)
        if node is None:
            return None
        parent = node.parent
        while parent is not None:
            if not parent.is_expanded:
                parent._expanded = True
                data = parent.data
                if isinstance(data, NodeData):
                    self._user_collapsed.discard(data.path)
                self._set_label(parent)
            parent = parent.parent
        self._invalidate()
        return node

    def move_cursor(self, node: TreeNode[NodeInfo] | None, animate: bool = False) -> None:
        """Move the cursor to ``node`` (works right after nodes were added or unfolded)."""
        _ = self.last_line  # rebuild the line index so the node knows its line
        super().move_cursor(node, animate=animate)

    def _scroll_to_path(self, path: Path) -> None:
        """Scroll so the node at ``path`` is visible (the cursor stays where it is)."""
        node = self._path_nodes.get(path)
        if node is None or self.term is None:
            return
        _ = self.last_line  # rebuild the line index so the node knows its line
        if node._line >= 0:
            self.scroll_to_line(node._line, animate=False)

    def move_to_path(self, path: Path, nearest: bool = False) -> bool:
        """Move the cursor to the node at ``path`` (unfolding its ancestors).

        Args:
            path: A position in the shown term.
            nearest: When ``path`` no longer exists, go to its deepest existing ancestor.

        Returns:
            True when the cursor moved to exactly ``path``.
        """
        node = self.reveal(path)
        exact = node is not None
        while node is None and nearest and path:
            path = path[:-1]
            node = self.reveal(path)
        if node is None:
            return False
        self.move_cursor(node)
        return exact

    def action_unfold(self) -> None:
        """Unfold the node under the cursor, or step to its first child when unfolded."""
        node = self.cursor_node
        if node is None:
            return
        if isinstance(node.data, (MoreData, ZoomData)):
            self.action_choose()
        elif node.allow_expand and not node.is_expanded:
            node.expand()
        elif node.is_expanded and node.children:
            self.action_cursor_down()

    def action_fold(self) -> None:
        """Fold the node under the cursor, or step to its parent when folded or a leaf."""
        node = self.cursor_node
        if node is None:
            return
        if node.allow_expand and node.is_expanded:
            node.collapse()
        elif node.parent is not None:
            self.move_cursor(node.parent)

    def action_choose(self) -> None:
        """Choose the node under the cursor (posts :class:`Chosen`; loads more children)."""
        node = self.cursor_node
        if node is None:
            return
        data = node.data
        if isinstance(data, ZoomData):
            if data.up:
                self.zoom(data.path[: max(0, len(data.path) - MAX_DEPTH // 2)], data.path)
            else:
                self.zoom(data.path[: max(0, len(data.path) - 3)], data.path)
                target = self._path_nodes.get(data.path)
                if target is not None and target.allow_expand:
                    target.expand()
            return
        if isinstance(data, MoreData):
            parent = self._path_nodes.get(data.parent_path)
            if parent is not None:
                self._load_children(parent, upto=data.start)
                self._invalidate()
                target = self._path_nodes.get(data.parent_path + (data.start,))
                if target is not None:
                    self.move_cursor(target)
            return
        if isinstance(data, NodeData):
            self.post_message(self.Chosen(self, data.path, data.term))

    # -- folding events ----------------------------------------------------------------------

    def _on_tree_node_expanded(self, event: Tree.NodeExpanded[NodeInfo]) -> None:
        data = event.node.data
        if isinstance(data, NodeData):
            self._user_expanded.add(data.path)
            self._user_collapsed.discard(data.path)
            self._load_children(event.node)
            self._set_label(event.node)
            self._invalidate()

    def _on_tree_node_collapsed(self, event: Tree.NodeCollapsed[NodeInfo]) -> None:
        data = event.node.data
        if isinstance(data, NodeData):
            self._user_collapsed.add(data.path)
            self._user_expanded.discard(data.path)
            self._set_label(event.node)


def _cut(name: str, limit: int = 60) -> str:
    """Shorten absurdly long identifiers in labels."""
    return name if len(name) <= limit else name[: limit - 1] + "…"


def _is_position(term: Term, path: Path) -> bool:
    """Tell whether ``path`` leads to a subterm of ``term``."""
    t = term
    for i in path:
        if not 0 <= i < len(t.args):
            return False
        t = t.args[i]
    return True
