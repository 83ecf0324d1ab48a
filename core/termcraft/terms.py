"""Hash-consed, immutable terms: the one term representation of the whole project.

A term is a constant, a variable or a compound (seed 000 §2.1).  Terms are
*hash-consed*: building a term that is structurally equal to a live one returns
that very object, so equality is identity and hashing is O(1), and every
distinct term has a unique integer ``id`` that the congruence closure works on.

Every traversal here is iterative, so a term nested 100,000 levels deep can be
built, printed, hashed, compared, matched and substituted without touching
Python's recursion limit.  Traversals that only need each *distinct* subterm
once walk the term as a DAG (shared subterms visited once).
"""

from __future__ import annotations

import itertools
import sys
import threading
import weakref
from _weakref import _remove_dead_weakref  # type: ignore[attr-defined]  # private, unlisted in typeshed
from collections.abc import Iterator, Mapping
from operator import attrgetter

__all__ = [
    "COMPOUND",
    "CONST",
    "VAR",
    "Path",
    "ReferenceNodes",
    "Term",
    "compound",
    "const",
    "differences",
    "format_path",
    "free_vars",
    "from_str",
    "is_identifier",
    "lookup",
    "match",
    "node",
    "parse_path",
    "positions",
    "replace_at",
    "short_str",
    "substitute",
    "subterm_at",
    "to_json",
    "to_str",
    "unique_subterms",
    "var",
]

CONST = 0
"""Kind of a constant such as ``apple``."""
VAR = 1
"""Kind of a variable such as ``var(X)``."""
COMPOUND = 2
"""Kind of a compound such as ``pair(apple,green)`` or ``tuple()``."""

Path = tuple[int, ...]
"""A position in a term: the 0-based child indices from the root (``()`` is the root)."""

_IDENT = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


def is_identifier(name: str) -> bool:
    """Tell whether ``name`` is a legal identifier: ASCII ``\\w+`` (seed 000 §3.2).

    Args:
        name: The candidate name.

    Returns:
        True when ``name`` is non-empty and made of ``[A-Za-z0-9_]`` only.
    """
    return bool(name) and all(ch in _IDENT for ch in name)


class Term:
    """An immutable, hash-consed term node.

    Never instantiate directly: use :func:`const`, :func:`var` and
    :func:`compound`, which return the unique live node for a structure.
    Equality and hashing are identity-based and therefore O(1).
    """

    __slots__ = ("__weakref__", "args", "ground", "height", "id", "kind", "name", "size")

    kind: int
    """CONST, VAR or COMPOUND."""
    name: str
    """Constant name, variable name, or constructor of a compound."""
    args: tuple[Term, ...]
    """Children of a compound (empty for constants and variables)."""
    id: int
    """Unique id of this distinct term (never reused in a process)."""
    size: int
    """Size: the number of nodes of the term as a tree (seed 000 §3.4)."""
    ground: bool
    """True when the term contains no variable."""
    height: int
    """Number of nodes on the longest root-to-leaf path (a leaf has height 1)."""

    def __setattr__(self, key: str, value: object) -> None:
        raise AttributeError("terms are immutable")

    def __delattr__(self, key: str) -> None:
        raise AttributeError("terms are immutable")

    def __reduce__(self):  # pragma: no cover - pickling would break hash-consing
        raise TypeError("terms are not picklable; store their text instead")

    def __copy__(self) -> Term:
        return self

    def __deepcopy__(self, memo: dict) -> Term:
        return self

    @property
    def is_const(self) -> bool:
        """True for a constant."""
        return self.kind == CONST

    @property
    def is_var(self) -> bool:
        """True for a variable."""
        return self.kind == VAR

    @property
    def is_compound(self) -> bool:
        """True for a compound (including zero-argument ones like ``tuple()``)."""
        return self.kind == COMPOUND

    @property
    def arity(self) -> int:
        """Number of children."""
        return len(self.args)

    def __str__(self) -> str:
        return to_str(self)

    def __repr__(self) -> str:
        text = to_str(self) if self.size <= 200 else to_str(self)[:200] + "…"
        return f"Term({text})"


# The intern table maps a structural key to a weak reference to the live node.  Keys hold
# the children themselves (hashed by identity), so a key can never be confused with a key of
# a dead node; values are weak so unused terms are freed.  It is WeakValueDictionary without
# its Python-level get/set (a third of the cost of reading a 10 MB term): a dying node's
# callback removes its entry only if it still holds that dead reference (atomically, in C).
_nodes: dict[tuple, _Ref] = {}
_lock = threading.Lock()  # solver workers build terms off the UI thread: see node()
_ids = itertools.count(1)
_new = object.__new__
_set = object.__setattr__
_intern = sys.intern


class _Ref(weakref.ref):
    """A weak reference that knows its table key (``weakref.KeyedRef`` without its
    Python-level constructor: the key is set after the C-level one)."""

    __slots__ = ("key",)
    key: object


_size_of = attrgetter("size")
_height_of = attrgetter("height")
_ground_of = attrgetter("ground")
# The slots' own setters: Term.__setattr__ refuses, and these cost half of object.__setattr__.
_set_kind, _set_name, _set_args, _set_id, _set_size, _set_ground, _set_height = (
    getattr(Term, slot).__set__
    for slot in ("kind", "name", "args", "id", "size", "ground", "height")
)


def _forget(ref: _Ref, _remove=_remove_dead_weakref, _nodes=_nodes) -> None:
    _remove(_nodes, ref.key)


def node(kind: int, name: str, args: tuple[Term, ...]) -> Term:
    """Return the unique live node with this structure, creating it if needed.

    The common core of :func:`const`, :func:`var` and :func:`compound`, for bulk builders
    (the term reader) that already hold the children as a tuple and want one call per node.
    Safe from several threads without a lock on the common paths: a dict read, or a new
    node published with ``dict.setdefault`` (atomic under the GIL, the keys hashing in C), so
    of two threads building the same term one wins and the other returns the winner's node.

    Args:
        kind: CONST, VAR or COMPOUND.
        name: The name or constructor.
        args: The children, as a tuple (empty for constants and variables).

    Returns:
        The unique node.
    """
    key = (kind, name, args)
    ref = _nodes.get(key)
    if ref is not None:
        found = ref()
        if found is not None:
            return found
    made = _new(Term)
    name = _intern(name)  # one string per name: less memory, and name tests hit identity
    key = (kind, name, args)
    _set_kind(made, kind)
    _set_name(made, name)
    _set_args(made, args)
    _set_id(made, next(_ids))  # itertools.count: atomic
    n = len(args)
    if n == 2:
        a, b = args
        _set_size(made, 1 + a.size + b.size)
        _set_ground(made, a.ground and b.ground)
        _set_height(made, 1 + (a.height if a.height > b.height else b.height))
    elif n == 1:
        a = args[0]
        _set_size(made, 1 + a.size)
        _set_ground(made, a.ground)
        _set_height(made, 1 + a.height)
    elif n:
        _set_size(made, 1 + sum(map(_size_of, args)))
        _set_ground(made, all(map(_ground_of, args)))
        _set_height(made, 1 + max(map(_height_of, args)))
    else:
        _set_size(made, 1)
        _set_ground(made, kind != VAR)
        _set_height(made, 1)
    new = _Ref(made, _forget)
    new.key = key
    ref = _nodes.setdefault(key, new)
    if ref is new:
        return made
    found = ref()
    if found is not None:
        return found  # another thread published this term first
    with _lock:  # a dead entry whose removal is still on its way: replace it, once
        ref = _nodes.get(key)
        found = None if ref is None else ref()
        if found is None:
            _nodes[key] = new
            found = made
        return found


class ReferenceNodes:
    """The plain way to hash-cons terms: what :func:`node` computes, without its tricks.

    :func:`node` reaches past the public API for speed (the private ``_weakref`` remover,
    slotted weak references that carry their key, the slots' own setters, ``dict.setdefault``
    instead of a lock); ``bench/termcraft.py --only nodes`` measures what they buy (about
    2x per new node). This class keeps its own table (a ``weakref.WeakValueDictionary``),
    sets attributes with ``object.__setattr__`` and counts size, groundness and height the
    obvious way, so a test can check that both build the same terms, and the benchmark has
    its baseline.
    """

    def __init__(self) -> None:
        self._table: weakref.WeakValueDictionary[tuple, Term] = weakref.WeakValueDictionary()
        self._lock = threading.Lock()

    def node(self, kind: int, name: str, args: tuple[Term, ...]) -> Term:
        """Return this table's unique live node with this structure (see :func:`node`)."""
        key = (kind, name, args)
        with self._lock:
            found = self._table.get(key)
            if found is not None:
                return found
            made = _new(Term)
            for attr, value in (
                ("kind", kind),
                ("name", name),
                ("args", args),
                ("id", next(_ids)),
                ("size", 1 + sum(a.size for a in args)),
                ("ground", kind != VAR and all(a.ground for a in args)),
                ("height", 1 + max((a.height for a in args), default=0)),
            ):
                _set(made, attr, value)
            self._table[key] = made
            return made

    def __len__(self) -> int:
        return len(self._table)


def lookup(kind: int, name: str, args: tuple[Term, ...]) -> Term | None:
    """Return the live term with this structure if there is one, without creating it.

    Args:
        kind: CONST, VAR or COMPOUND.
        name: The name or constructor.
        args: The children (a tuple).

    Returns:
        The unique node, or None when no such term exists right now.
    """
    ref = _nodes.get((kind, name, args))  # one dict read: atomic, no lock needed
    return None if ref is None else ref()


def const(name: str) -> Term:
    """Return the constant ``name``.

    Args:
        name: The constant's name.

    Returns:
        The unique constant node.
    """
    return node(CONST, name, ())


def var(name: str) -> Term:
    """Return the variable ``var(name)``.

    Args:
        name: The variable's name (the key used in substitutions).

    Returns:
        The unique variable node.
    """
    return node(VAR, name, ())


def compound(name: str, args: tuple[Term, ...] | list[Term] = ()) -> Term:
    """Return the compound ``name(args...)``; ``compound("t")`` is ``t()``.

    Args:
        name: The constructor.
        args: The children, in order.

    Returns:
        The unique compound node.
    """
    return node(COMPOUND, name, tuple(args))


def to_str(term: Term) -> str:
    """Print a term canonically: no spaces, variables as ``var(X)``.

    Args:
        term: The term to print.

    Returns:
        The canonical text, e.g. ``pair(apple,var(X))``.
    """
    out: list[str] = []
    stack: list[object] = [term]
    push, pop, emit = stack.append, stack.pop, out.append
    while stack:
        item = pop()
        if type(item) is str:
            emit(item)
            continue
        t: Term = item  # type: ignore[assignment]
        if t.kind == CONST:
            emit(t.name)
        elif t.kind == VAR:
            emit("var(")
            emit(t.name)
            emit(")")
        else:
            emit(t.name)
            emit("(")
            push(")")
            args = t.args
            for i in range(len(args) - 1, -1, -1):
                push(args[i])
                if i:
                    push(",")
    return "".join(out)


def to_json(term: Term) -> str:
    """Serialise a term as nested JSON ``{"kind", "name", "args"}`` text.

    Written without ``json.dumps`` on nested dicts, which recurses per level.

    Args:
        term: The term to serialise.

    Returns:
        Compact JSON text with keys in the order kind, name, args.
    """
    import json

    kinds = ("const", "var", "compound")
    out: list[str] = []
    stack: list[object] = [term]
    while stack:
        item = stack.pop()
        if type(item) is str:
            out.append(item)
            continue
        t: Term = item  # type: ignore[assignment]
        out.append(f'{{"kind": "{kinds[t.kind]}", "name": {json.dumps(t.name)}, "args": [')
        stack.append("]}")
        for i in range(len(t.args) - 1, -1, -1):
            stack.append(t.args[i])
            if i:
                stack.append(", ")
    return "".join(out)


def unique_subterms(term: Term) -> list[Term]:
    """List every distinct subterm once, children before parents (post-order).

    Args:
        term: The root.

    Returns:
        Distinct subterms; the root is last.
    """
    seen: set[int] = set()
    order: list[Term] = []
    stack: list[tuple[Term, bool]] = [(term, False)]
    while stack:
        t, expanded = stack.pop()
        if expanded:
            order.append(t)
            continue
        if t.id in seen:
            continue
        seen.add(t.id)
        stack.append((t, True))
        for child in reversed(t.args):
            if child.id not in seen:
                stack.append((child, False))
    return order


def free_vars(term: Term) -> frozenset[str]:
    """Return the names of the variables occurring in ``term``.

    Args:
        term: The term to scan.

    Returns:
        The set of variable names (empty for a ground term).
    """
    if term.ground:
        return frozenset()
    names: set[str] = set()
    seen: set[int] = set()
    stack = [term]
    while stack:
        t = stack.pop()
        if t.ground or t.id in seen:
            continue  # ground subtrees hold no variables: skip them whole
        seen.add(t.id)
        if t.kind == VAR:
            names.add(t.name)
        else:
            stack.extend(t.args)
    return frozenset(names)


def subterm_at(term: Term, path: Path) -> Term:
    """Return the subterm at ``path``.

    Args:
        term: The root.
        path: Child indices from the root.

    Returns:
        The subterm.

    Raises:
        IndexError: When the path leaves the term.
    """
    t = term
    for i in path:
        if not 0 <= i < len(t.args):
            raise IndexError(f"path {list(path)} leaves the term")
        t = t.args[i]
    return t


def replace_at(term: Term, path: Path, new: Term) -> Term:
    """Return ``term`` with the subterm at ``path`` replaced by ``new``.

    Args:
        term: The root.
        path: Child indices from the root; ``()`` replaces the whole term.
        new: The replacement.

    Returns:
        The new root (sharing every untouched subterm with ``term``).

    Raises:
        IndexError: When the path leaves the term.
    """
    spine = [term]
    for i in path:
        t = spine[-1]
        if not 0 <= i < len(t.args):
            raise IndexError(f"path {list(path)} leaves the term")
        spine.append(t.args[i])
    result = new
    for depth in range(len(path) - 1, -1, -1):
        parent = spine[depth]
        i = path[depth]
        result = node(COMPOUND, parent.name, parent.args[:i] + (result,) + parent.args[i + 1 :])
    return result


def positions(term: Term, only_ground: bool = False) -> Iterator[tuple[Path, Term]]:
    """Yield every position and its subterm in pre-order (root first).

    Args:
        term: The root.
        only_ground: Yield only positions holding ground subterms (their
            subterms are ground too, and non-ground positions are still
            descended into).

    Yields:
        ``(path, subterm)`` pairs.
    """
    stack: list[tuple[Path, Term]] = [((), term)]
    while stack:
        path, t = stack.pop()
        if not only_ground or t.ground:
            yield path, t
        args = t.args
        for i in range(len(args) - 1, -1, -1):
            stack.append((path + (i,), args[i]))


def substitute(term: Term, sigma: Mapping[str, Term]) -> Term:
    """Replace variables by their bindings in ``sigma`` (unbound ones stay).

    Args:
        term: The term to instantiate.
        sigma: Variable name -> term.

    Returns:
        The instantiated term.
    """
    if term.ground or not sigma:
        return term
    done: dict[int, Term] = {}
    stack: list[tuple[Term, bool]] = [(term, False)]
    while stack:
        t, expanded = stack.pop()
        if t.id in done:
            continue
        if t.ground:
            done[t.id] = t
        elif t.kind == VAR:
            done[t.id] = sigma.get(t.name, t)
        elif expanded:
            done[t.id] = node(COMPOUND, t.name, tuple(done[a.id] for a in t.args))
        else:
            stack.append((t, True))
            stack.extend((a, False) for a in t.args if a.id not in done)
    return done[term.id]


def match(
    pattern: Term, term: Term, sigma: Mapping[str, Term] | None = None
) -> dict[str, Term] | None:
    """Syntactically match ``pattern`` against ``term`` (one-way unification).

    Variables of ``pattern`` bind to subterms of ``term``; a variable bound
    twice must bind the same term.  Variables inside ``term`` are treated like
    any other node (only the pattern's variables bind).

    Args:
        pattern: The pattern, e.g. a rule's left-hand side.
        term: The term to match against.
        sigma: Bindings to extend (not modified).

    Returns:
        The extended substitution, or None when there is no match.
    """
    binding: dict[str, Term] = dict(sigma) if sigma else {}
    stack = [(pattern, term)]
    while stack:
        p, t = stack.pop()
        if p.ground:
            if p is t:  # hash-consing: equal ground terms are the same node
                continue
            return None
        if p.kind == VAR:
            bound = binding.get(p.name)
            if bound is None:
                binding[p.name] = t
            elif bound is not t:
                return None
            continue
        if p.kind != t.kind or p.name != t.name or len(p.args) != len(t.args):
            return None
        stack.extend(zip(p.args, t.args))
    return binding


# --------------------------------------------------------------------------- positions


def format_path(path: Path) -> str:
    """Write a position the one way people see it everywhere: ``root`` or ``3/0``.

    Args:
        path: 0-based child indices from the root.

    Returns:
        ``"root"`` for the root, otherwise the indices joined by ``/``.
    """
    return "/".join(map(str, path)) if path else "root"


def parse_path(text: str) -> Path:
    """Read a position written as ``3/0`` (also ``3.0``, ``3,0``, ``[3,0]``; ``root`` or ``/``).

    Args:
        text: The written position.

    Returns:
        The 0-based child indices.

    Raises:
        ValueError: When a part is not a non-negative integer (the message says how to write
            a position).
    """
    body = text.strip()
    if body.startswith("[") and body.endswith("]"):
        body = body[1:-1]
    if body.lower() in ("", "root", "/"):
        return ()
    for sep in "/.,":
        body = body.replace(sep, " ")
    parts = body.split()
    if not parts or not all(part.isascii() and part.isdigit() for part in parts):
        raise ValueError(f"bad position {text!r}: write child indices such as 3/0 (or root)")
    return tuple(int(part) for part in parts)


# --------------------------------------------------------------------------- text


def short_str(term: Term, limit: int) -> str:
    """Print ``term`` canonically, but stop after about ``limit`` characters.

    Unlike :func:`to_str` this costs O(limit), not O(size), so labels of huge terms are cheap.

    Args:
        term: The term to print.
        limit: Maximum number of characters, the ``…`` included.

    Returns:
        The canonical text, cut with ``…`` when longer than ``limit``.
    """
    out: list[str] = []
    length = 0
    stack: list[object] = [term]
    while stack and length <= limit:
        item = stack.pop()
        if type(item) is str:
            piece = item
        else:
            t: Term = item  # type: ignore[assignment]
            if t.kind == VAR:
                piece = f"var({t.name})"
            elif t.kind == COMPOUND:
                piece = t.name + "("
                stack.append(")")
                for i in range(len(t.args) - 1, -1, -1):
                    stack.append(t.args[i])
                    if i:
                        stack.append(",")
            else:
                piece = t.name
        out.append(piece)
        length += len(piece)
    text = "".join(out)
    if stack or len(text) > limit:
        return text[: max(limit - 1, 0)] + "…"
    return text


def from_str(text: str) -> Term:
    """Read back exactly what :func:`to_str` prints (the canonical form, no spaces).

    This is the decoder of the saved-game and JSON codecs, which store terms as canonical
    text and live in ``core`` (which cannot use the Lark grammar of ``grammar/``). Text typed
    by people goes through ``grammar.terms.parse_term`` instead, which accepts whitespace and
    reports errors with a caret. As in the grammar, a one-argument compound named ``var`` (any
    case) whose argument is a bare identifier is the variable of that name.

    Args:
        text: Canonical term text.

    Returns:
        The term (``from_str(to_str(t)) is t``).

    Raises:
        ValueError: When ``text`` is not canonical term text.
    """
    n = len(text)
    i = 0
    # Frames: [name, children]; a finished term is appended to the frame below it.
    frames: list[list] = [["", []]]
    while True:
        j = i
        while j < n and text[j] in _IDENT:
            j += 1
        if j == i:
            raise ValueError(f"not a canonical term: expected a name at offset {i}")
        name = text[i:j]
        i = j
        if i < n and text[i] == "(":
            i += 1
            if i < n and text[i] == ")":
                i += 1
                frames[-1][1].append(compound(name, ()))
            else:
                frames.append([name, []])
                continue
        else:
            frames[-1][1].append(const(name))
        # Close as many compounds as the text closes, then expect "," or the end.
        while True:
            if len(frames) == 1:
                if i != n or len(frames[0][1]) != 1:
                    raise ValueError(f"not a canonical term: unexpected text at offset {i}")
                return frames[0][1][0]
            if i < n and text[i] == ",":
                i += 1
                break
            if i < n and text[i] == ")":
                i += 1
                fname, kids = frames.pop()
                if fname.lower() == "var" and len(kids) == 1 and kids[0].kind == CONST:
                    frames[-1][1].append(var(kids[0].name))
                else:
                    frames[-1][1].append(compound(fname, tuple(kids)))
                continue
            raise ValueError(f"not a canonical term: expected ',' or ')' at offset {i}")


def differences(old: Term, new: Term, limit: int = 1000) -> list[Path]:
    """The positions of ``new`` where it differs from ``old``, as small as possible.

    Walking both terms from the root: where the subterms are the same node there is no
    difference; where the heads agree (kind, name, arity) the children are compared; anywhere
    else the whole subterm of ``new`` at that position is a difference.

    Args:
        old: The term compared against (e.g. the current term).
        new: The term whose differing positions are wanted (e.g. the target).
        limit: Stop after this many differences (huge terms stay cheap).

    Returns:
        Paths into ``new``, in pre-order.
    """
    out: list[Path] = []
    # Positions travel as parent links ((parent link, index) or None), turned into paths only
    # for the differences, so a deep chain of equal heads costs O(depth), not O(depth²).
    stack: list[tuple[Term, Term, tuple | None]] = [(old, new, None)]
    while stack and len(out) < limit:
        a, b, link = stack.pop()
        if a is b:
            continue
        if a.kind == b.kind and a.name == b.name and len(a.args) == len(b.args) and b.args:
            for i in range(len(b.args) - 1, -1, -1):
                stack.append((a.args[i], b.args[i], (link, i)))
        else:
            steps: list[int] = []
            while link is not None:
                steps.append(link[1])
                link = link[0]
            out.append(tuple(reversed(steps)))
    return out
