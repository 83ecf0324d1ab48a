"""Positions as parent links, so that walks over deep or wide terms stay linear.

Building every position's path as a tuple costs O(depth) per position, O(n * depth) in all:
quadratic for a term nested 100,000 levels deep.  Walks here carry a *link* instead, the pair
``(parent link, child index)`` (``None`` for the root), which costs O(1) per position, and
turn a link into a path only for the positions they report.

:func:`marked_positions` is the walk the engines share: the pre-order positions whose subterm
is *marked*, skipping every subtree that holds no marked subterm (found once per distinct
subterm, so a term with much sharing is not walked position by position to find that out).
:class:`TextSplicer` finds where a position's text sits in the term's canonical text, so
the text of the term with one position replaced is two slices and a join, not a new term.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

from core.termcraft.terms import COMPOUND, VAR, Path, Term, to_str

__all__ = [
    "Link",
    "TextSplicer",
    "collect_marked_links",
    "collect_marked_positions",
    "distinct_subterms",
    "marked_below",
    "marked_positions",
    "path_of",
]

Link = tuple | None
"""``None`` for the root, else ``(parent link, child index, ...)``: any tuple whose first two
items are those (a walk may use its stack entries as links, saving a tuple per node)."""

_POLL = 4096
"""Walks call their ``poll`` hook once every this many steps (cheap, and often enough that
a cancel or a time limit acts within milliseconds)."""


def path_of(link: Link) -> Path:
    """Materialise a link as a path.

    Args:
        link: A position's link.

    Returns:
        The 0-based child indices from the root.
    """
    out: list[int] = []
    while link is not None:
        out.append(link[1])
        link = link[0]
    out.reverse()
    return tuple(out)


def distinct_subterms(term: Term, poll: Callable[[], None] | None = None) -> list[Term]:
    """Every distinct subterm of ``term`` once (ground or not), children before parents.

    A child is always built before its parent, so sorting by term id is a topological order.

    Args:
        term: The root.
        poll: Called every few thousand steps (it may raise to stop the walk).

    Returns:
        The distinct subterms by increasing id; the root is last.
    """
    seen: set[int] = set()
    found: list[Term] = []
    stack = [term]
    pop, push, add, keep = stack.pop, stack.extend, seen.add, found.append
    steps = 0
    while stack:
        t = pop()
        if t.id in seen:
            continue
        add(t.id)
        keep(t)
        push(t.args)
        steps += 1
        if poll is not None and not steps % _POLL:
            poll()
    found.sort(key=_term_id)
    return found


def _term_id(t: Term) -> int:
    return t.id


def marked_below(
    order: list[Term], marked: Callable[[Term], bool], tag: object = True
) -> dict[int, object]:
    """The marks :func:`marked_positions` walks by: ``tag`` for the marked subterms, None for
    the subterms that have a marked one somewhere below.

    Args:
        order: Distinct subterms, children before parents (see :func:`distinct_subterms`).
        marked: The marking test.
        tag: What marked subterms are tagged with (not None).

    Returns:
        Term id -> tag or None; subterms with nothing marked at or below are absent.
    """
    out: dict[int, object] = {}
    for t in order:
        if marked(t):
            out[t.id] = tag
        elif any(a.id in out for a in t.args):
            out[t.id] = None
    return out


_EAGER_DEPTH = 32
"""Paths of unreported positions are carried down to this depth (deeper, they are rebuilt from
the links at the reported positions, so a 100,000-deep chain stays linear)."""


def marked_positions(
    term: Term, marks: Mapping[int, object], poll: Callable[[], None] | None = None
) -> Iterator[tuple[Path, Term, object]]:
    """Yield the positions whose subterm has a tag, in pre-order, lazily.

    Args:
        term: The root.
        marks: Term id -> tag for the subterms to report, or -> None for the subterms that
            have one to report somewhere below (a superset is fine).  Every other ground
            subtree is skipped whole; non-ground subterms are always entered (a closure
            over ground terms cannot mark them, and they may hold ground ones to report).
        poll: Called every few thousand nodes (it may raise to stop the walk).

    Yields:
        ``(path, subterm, tag)`` for each reported position.
    """
    if term.ground and term.id not in marks:
        return
    # Stack entries (parent link, child index, subterm, parent's path or None) are themselves
    # the links (one tuple per node instead of two); the root's entry stands for the link
    # None.  A path is one C-level tuple concatenation when the parent's is known (the
    # parent was reported, or is shallow), else it is rebuilt from the links.
    stack: list[tuple] = [(None, None, term, None)]
    push, pop, get = stack.append, stack.pop, marks.get
    steps = 0
    while stack:
        entry = pop()
        _, j, t, path = entry
        link = entry if j is not None else None
        tag = get(t.id)
        if j is None:
            path = ()
        elif path is not None and (tag is not None or len(path) < _EAGER_DEPTH):
            path += (j,)
        elif tag is not None:
            path = path_of(link)
        else:
            path = None
        if tag is not None:
            yield path, t, tag
        args = t.args
        for i in range(len(args) - 1, -1, -1):
            a = args[i]
            if a.id in marks or not a.ground:
                push((link, i, a, path))
        steps += 1
        if not steps % _POLL and poll is not None:
            poll()


def collect_marked_positions(
    term: Term, marks: Mapping[int, object], poll: Callable[[], None] | None = None
) -> tuple[list[Path], list[object]]:
    """:func:`marked_positions` collected at once: the paths and the tags, in pre-order.

    The same walk without a generator step per position (this is the hot loop of listing
    every action of a small term); tested against :func:`marked_positions`.

    Args:
        term: The root.
        marks: As for :func:`marked_positions`.
        poll: As for :func:`marked_positions`.

    Returns:
        ``(paths, tags)`` of the reported positions.
    """
    paths: list[Path] = []
    tags: list[object] = []
    if term.ground and term.id not in marks:
        return paths, tags
    stack: list[tuple] = [(None, None, term, None)]
    push, pop, get = stack.append, stack.pop, marks.get
    keep_path, keep_tag = paths.append, tags.append
    steps = 0
    while stack:
        entry = pop()
        _, j, t, path = entry
        tag = get(t.id)
        if j is None:
            path = ()
        elif path is not None and (tag is not None or len(path) < _EAGER_DEPTH):
            path += (j,)
        elif tag is not None:
            path = path_of(entry)
        else:
            path = None
        if tag is not None:
            keep_path(path)
            keep_tag(tag)
        args = t.args
        link = entry if j is not None else None
        for i in range(len(args) - 1, -1, -1):
            a = args[i]
            if a.id in marks or not a.ground:
                push((link, i, a, path))
        steps += 1
        if not steps % _POLL and poll is not None:
            poll()
    return paths, tags


def collect_marked_links(
    term: Term, marks: Mapping[int, object], poll: Callable[[], None] | None = None
) -> tuple[list[Link], list[object]]:
    """:func:`collect_marked_positions` with links instead of paths: linear in the term.

    Every reported position's path costs O(depth): on a chain 25,000 deep with a site at every
    level, the paths alone are 300 million indices.  The links cost O(1) each; a caller turns
    into a path (:func:`path_of`) only the positions it hands out.

    Args:
        term: The root.
        marks: As for :func:`marked_positions`.
        poll: As for :func:`marked_positions`.

    Returns:
        ``(links, tags)`` of the reported positions, in pre-order (the root's link is None).
    """
    links: list[Link] = []
    tags: list[object] = []
    if term.ground and term.id not in marks:
        return links, tags
    # Entries (parent link, child index, subterm) are the links themselves (see marked_positions).
    stack: list[tuple] = [(None, None, term)]
    push, pop, get = stack.append, stack.pop, marks.get
    keep_link, keep_tag = links.append, tags.append
    steps = 0
    while stack:
        entry = pop()
        t = entry[2]
        link = entry if entry[1] is not None else None
        tag = get(t.id)
        if tag is not None:
            keep_link(link)
            keep_tag(tag)
        args = t.args
        for i in range(len(args) - 1, -1, -1):
            a = args[i]
            if a.id in marks or not a.ground:
                push((link, i, a))
        steps += 1
        if not steps % _POLL and poll is not None:
            poll()
    return links, tags


_WIDE = 16
"""Nodes with more children than this get their children's text offsets cached."""


class TextSplicer:
    """The canonical text of a term with one position replaced, without building that term.

    Listing the result of every move of a big term would otherwise intern a new spine per
    move and print the whole term each time; here the term is printed once, and each
    result is ``text[:start] + new + text[end:]`` (C-level copies).  Text lengths of
    subterms are computed on demand and kept (at most one entry per distinct subterm).

    Args:
        term: The term.
    """

    def __init__(self, term: Term):
        self.term = term
        self._text: str | None = None
        self._length: dict[int, int] = {}
        self._offsets: dict[int, list[int]] = {}  # wide node -> where each child starts

    @property
    def text(self) -> str:
        """The canonical text of the term (printed on first use)."""
        if self._text is None:
            self._text = to_str(self.term)
        return self._text

    def length(self, term: Term) -> int:
        """Length of ``term``'s canonical text (iterative, memoised per distinct subterm)."""
        memo = self._length
        stack = [term]
        while stack:
            t = stack[-1]
            if t.id in memo:
                stack.pop()
                continue
            missing = [a for a in t.args if a.id not in memo]
            if missing:
                stack.extend(missing)
                continue
            stack.pop()
            if t.kind == VAR:
                memo[t.id] = len(t.name) + 5  # var(X)
            elif t.kind == COMPOUND:  # name(a,b,c): the children and n-1 commas
                n = len(t.args)
                memo[t.id] = len(t.name) + 2 + sum([memo[a.id] for a in t.args]) + max(n - 1, 0)
            else:
                memo[t.id] = len(t.name)
        return memo[term.id]

    def span(self, path: Path) -> tuple[int, int]:
        """Where the text of the subterm at ``path`` starts and ends in :attr:`text`.

        Args:
            path: A position of the term.

        Returns:
            ``(start, end)`` offsets.
        """
        start, t = 0, self.term
        for j in path:
            start += len(t.name) + 1 + self._before(t, j)
            t = t.args[j]
        return start, start + self.length(t)

    def _before(self, t: Term, j: int) -> int:
        """Characters of the children before the ``j``-th, with their commas."""
        if len(t.args) <= _WIDE:
            return sum([self.length(a) + 1 for a in t.args[:j]])
        offsets = self._offsets.get(t.id)
        if offsets is None:
            offsets, total = [], 0
            for a in t.args:
                offsets.append(total)
                total += self.length(a) + 1
            self._offsets[t.id] = offsets
        return offsets[j]

    def replaced(self, path: Path, new_text: str) -> str:
        """The text of the term with the subterm at ``path`` replaced.

        Args:
            path: A position of the term.
            new_text: The canonical text of what goes there.

        Returns:
            The canonical text of the resulting term.
        """
        start, end = self.span(path)
        text = self.text
        return "".join((text[:start], new_text, text[end:]))
