"""Solving Algebrawl puzzles: is there a way to strike every target, and how many?

Subset dynamic programming. An *entry* is a pair (set of pool values as a bitmask, cards used
as a count per distinct card); its table holds every value that the pool values in the set
can be turned into with exactly those cards, de-duplicated by value, with one witness each
(and, when counting, the normal forms of :mod:`.normal` reaching it). Entries are built in
order of size (values + cards): a card of arity ``a`` combines ``a`` entries with disjoint
value sets whose card counts, plus this card, stay within the hand. A solution is then one
entry per target, with disjoint value sets and card counts that fit the hand together (and,
in ``use_all`` puzzles, covering every value); a small search over targets finds it.

Card counts are packed in one integer with a radix of ``2 c + 1`` per distinct card (``c``
copies), so two counts add without carries and a single set lookup tells whether the sum
fits the hand (sums of more than two counts are checked one addition at a time).

Work is bounded by ``max_entries`` (values stored), a *work budget* (``budget``: candidate
values and normal forms computed, each card's batch charged before it is computed, so the
answer is the same on an idle and on a busy machine), ``time_limit`` and a ``should_stop``
callback, all but the first carried by one :class:`core.search.Watch`; hitting one gives the
status ``"unknown"`` and :attr:`SolveResult.reason` says which (``"work budget"`` for both
work bounds, ``"time limit"``, ``"cancelled"``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from math import prod

from core.search import Interrupted, Watch

from ..game import IllegalMove
from .ast import Ast, Node, make_node
from .cards import Card
from .expr import EvalError
from .normal import DEFAULT_EQUIVALENCE, _flags, arithmetic_op, nf_apply, normal_form
from .play import (
    Move,
    PlayCard,
    State,
    Strike,
    apply_move,
    initial_state,
    legal_moves,
    monster_values,
    status,
)
from .puzzle import Puzzle
from .values import MAX_VALUE, within

__all__ = ["SolveResult", "hint", "solution_moves", "solve", "solve_state"]


@dataclass(frozen=True)
class SolveResult:
    """The outcome of :func:`solve`.

    Attributes:
        status: ``"solved"``, ``"unsolvable"`` or ``"unknown"`` (a limit was hit).
        strikes: One solution: ``(target index, tree)`` for every standing target.
        count: Distinct solutions found (None unless counting was asked for).
        complete: False when counting stopped at ``max_count``.
        entries: Values stored in the tables.
        elapsed: Seconds spent.
        solutions: When counting, every distinct solution found (each as ``strikes``),
            in the order of their normal forms.
    """

    status: str
    """``"solved"``, ``"unsolvable"`` or ``"unknown"``."""
    strikes: tuple[tuple[int, Ast], ...] = ()
    """One solution (empty unless solved)."""
    count: int | None = None
    """Distinct solutions (when counted)."""
    complete: bool = True
    """Whether ``count`` is exact."""
    entries: int = 0
    """Values stored."""
    elapsed: float = 0.0
    """Seconds spent."""
    solutions: tuple[tuple[tuple[int, Ast], ...], ...] = ()
    """Every distinct solution found (when counting)."""
    moves: tuple[Move, ...] = ()
    """One solution as moves, from the search that covers cards acting on monsters
    (``poison_wizard``, ``traitor``); empty otherwise (use :func:`solution_moves`)."""
    reason: str = ""
    """Which bound cut the search short: ``"work budget"``, ``"time limit"`` or
    ``"cancelled"`` (``""`` when none did)."""
    forms: tuple = ()
    """When counting a hand that holds a card cast on the monsters: every distinct
    solution's form (:mod:`.castcount`; :func:`.castcount.form_text` writes one), in the
    order of :attr:`count`."""


REASONS = {"limit": "time limit", "budget": "work budget", "cancelled": "cancelled"}
"""What a result cut short says, by :class:`core.search.Interrupted` reason."""


class _Limit(Exception):
    """A work limit was hit (``reason``: a value of :data:`REASONS`)."""

    def __init__(self, reason: str = REASONS["budget"]):
        super().__init__(reason)
        self.reason = reason


class _Tables:
    """The dynamic programme for one state (see the module docstring)."""

    def __init__(
        self,
        state: State,
        counting: bool,
        equivalence: str,
        max_entries: int,
        deadline: float,
        should_stop: Callable[[], bool] | None,
        watch: Watch | None = None,
    ):
        self.state, self.counting, self.equivalence = state, counting, equivalence
        self.max_entries = max_entries
        self.watch = watch or Watch(should_stop=should_stop, deadline=deadline)
        """Deadline, cancel test and work budget (charged by :meth:`charge`)."""
        cards = [state.puzzle.cards[i] for i in state.hand]
        self.types: list[Card] = list(dict.fromkeys(cards))
        self.counts = [cards.count(c) for c in self.types]
        self.radix, r = [], 1
        for c in self.counts:
            self.radix.append(r)
            r *= 2 * c + 1
        self.valid = {
            sum(d * w for d, w in zip(digits, self.radix))
            for digits in product(*(range(c + 1) for c in self.counts))
        }
        self.entries: dict[tuple[int, int], dict] = {}
        self.levels: list[list[tuple[int, int]]] = [[]]
        self.stored = 0

    def build(self, on_level: Callable[[int], bool]) -> None:
        """Fill levels in order of size; stop early when ``on_level(k)`` returns True."""
        pool = self.state.pool
        level1 = []
        for i, tree in enumerate(pool):
            key = (1 << i, 0)
            self.entries[key] = {tree.value: ("leaf", i)}
            level1.append(key)
        self.levels.append(level1)
        if on_level(1):
            return
        top = len(pool) + sum(self.counts)
        for k in range(2, top + 1):
            self.levels.append([])
            for t, card in enumerate(self.types):
                self._grow(k, t, card)
            if on_level(k):
                return

    def _check_limits(self) -> None:
        if self.stored > self.max_entries:
            raise _Limit
        try:
            self.watch.poll("tables")
        except Interrupted as stop:
            raise _Limit(REASONS[stop.reason]) from None

    def charge(self, units: int) -> None:
        """Spend ``units`` of the work budget before computing them (:class:`_Limit` past it)."""
        try:
            self.watch.spend(units)
        except Interrupted as stop:
            raise _Limit(REASONS[stop.reason]) from None

    def _grow(self, k: int, t: int, card: Card) -> None:
        """New entries of size ``k`` whose root is card type ``t``."""
        for parts in _compositions(k - 1, card.arity):
            for keys in self._tuples(parts):
                # Add the children's counts one at a time, checking each partial sum: a
                # digit of two valid counts stays below the radix, but a card's own copy
                # plus two or more children can carry into the next card's digit.
                mask, used = 0, self.radix[t]
                for m, u in keys:
                    mask |= m
                    used += u
                    if used not in self.valid:
                        break
                if used not in self.valid:
                    continue
                if card.commutative and list(keys) != sorted(keys):
                    continue
                self._apply(k, t, card, keys, (mask, used))
            self._check_limits()

    def _tuples(self, parts: tuple[int, ...]):
        """Tuples of entries with the given sizes and pairwise disjoint masks."""
        stack: list[tuple[tuple, int, int]] = [((), 0, 0)]
        while stack:
            chosen, mask, depth = stack.pop()
            if depth == len(parts):
                yield chosen
                continue
            for key in self.levels[parts[depth]]:
                if not key[0] & mask:
                    stack.append((chosen + (key,), mask | key[0], depth + 1))

    def _apply(self, k: int, t: int, card: Card, keys: tuple, target_key: tuple) -> None:
        tables = [self.entries[key] for key in keys]
        self.charge(prod(len(tbl) for tbl in tables))
        out = self.entries.get(target_key)
        integer_only = self.state.puzzle.integer_only
        for values in product(*(tbl.items() for tbl in tables)):
            try:
                v = card.apply([x for x, _ in values])
            except EvalError:
                continue
            if not within(v, MAX_VALUE) or (integer_only and v.denominator != 1):
                continue
            if out is None:
                out = self.entries[target_key] = {}
                self.levels[k].append(target_key)
            if v not in out:
                out[v] = (t, tuple(zip(keys, (x for x, _ in values))))
                self.stored += 1

    def tree(self, key: tuple, value: Fraction) -> Ast:
        """Rebuild the tree an entry's witness describes (depth bounded by the cards)."""
        w = self.entries[key][value]
        if w[0] == "leaf":
            return self.state.pool[w[1]]
        kids = tuple(self.tree(k, v) for k, v in w[1])
        return make_node(self.types[w[0]], kids)


def _tree(w) -> Ast:
    """Build the tree of a normal-form witness: a pool tree or ``(card, child witnesses)``
    (depth bounded by the puzzle's cards)."""
    if not isinstance(w, tuple):
        return w
    card, kids = w
    return make_node(card, tuple(_tree(k) for k in kids))


def _compositions(total: int, parts: int):
    """Ordered ways to write ``total`` as ``parts`` positive sizes."""
    if parts == 1:
        if total >= 1:
            yield (total,)
        return
    for first in range(1, total - parts + 2):
        for rest in _compositions(total - first, parts - 1):
            yield (first,) + rest


class _NormalForms:
    """Normal forms of the expressions reaching a value in an entry, computed top-down and
    memoised, only for the entries and values that a target assignment actually uses."""

    def __init__(self, tables: _Tables):
        self.tables = tables
        self.memo: dict = {}
        self.by_mask: dict[int, list[int]] = {}
        for mask, used in tables.entries:
            self.by_mask.setdefault(mask, []).append(used)

    def of(self, key: tuple[int, int], value) -> dict:
        """``{normal form: tree}`` for ``value`` in entry ``key`` (recursion depth is bounded
        by the puzzle's numbers plus cards)."""
        memo_key = (key, value)
        if memo_key not in self.memo:
            self.memo[memo_key] = self._compute(key, value)
        return self.memo[memo_key]

    def _compute(self, key, value) -> dict:
        tables = self.tables
        out: dict = {}
        mask, used = key
        if used == 0:
            tree = tables.state.pool[mask.bit_length() - 1]
            return {normal_form(tree, tables.equivalence): tree}
        for t, card in enumerate(tables.types):
            rest = used - tables.radix[t]
            if rest not in tables.valid:  # (no copy of card t in ``used``: a borrow)
                continue
            for keys in self._splits(mask, rest, card.arity):
                for values in self._value_tuples(card, keys, value):
                    self._add(out, card, keys, values, value)
                tables._check_limits()
        return out

    def _splits(self, mask: int, used: int, arity: int):
        """Ordered tuples of existing entries partitioning (mask, used) exactly."""
        entries = self.tables.entries
        if arity == 1:
            if (mask, used) in entries:
                yield ((mask, used),)
            return
        sub = (mask - 1) & mask
        while sub:
            for u in self.by_mask.get(sub, ()):
                rest_used = used - u
                if rest_used in self.tables.valid:
                    for tail in self._splits(mask ^ sub, rest_used, arity - 1):
                        yield ((sub, u),) + tail
            sub = (sub - 1) & mask

    def _value_tuples(self, card: Card, keys, value):
        """Argument values from the entries' tables for which ``card`` gives ``value``."""
        tables = [self.tables.entries[k] for k in keys]
        op = arithmetic_op(card)
        if op is not None:
            for x in tables[0]:
                for y in _partners(op, x, value, tables[1]):
                    yield (x, y)
            return
        for values in product(*tables):
            try:
                if card.apply(list(values)) == value:
                    yield values
            except EvalError:
                continue

    def _add(self, out: dict, card: Card, keys, values, value) -> None:
        forms = [self.of(k, v) for k, v in zip(keys, values)]
        self.tables.charge(prod(len(f) for f in forms))
        eq = self.tables.equivalence
        for combo in product(*(f.items() for f in forms)):
            nf = nf_apply(card, [nf for nf, _ in combo], value, eq)
            if nf not in out:
                out[nf] = (card, tuple(tree for _, tree in combo))
                self.tables.stored += 1


def _partners(op: str, x, v, table: dict):
    """Values ``y`` in ``table`` with ``x op y == v``."""
    if op == "+":
        cands = (v - x,)
    elif op == "-":
        cands = (x - v,)
    elif op == "*":
        cands = tuple(table) if x == 0 and v == 0 else ((v / x,) if x else ())
    elif v:
        if not x:
            return []  # 0 ÷ y is 0: no y gives a value v ≠ 0
        cands = (x / v,)
    else:
        cands = tuple(y for y in table if y) if x == 0 else ()
    return [y for y in cands if y in table]


class _Assign:
    """Find (or count) disjoint entries hitting every standing target."""

    def __init__(self, tables: _Tables, limit: int):
        self.tables, self.limit = tables, limit
        puzzle, state = tables.state.puzzle, tables.state
        monsters = monster_values(state)
        self.targets = [(t, monsters[t]) for t in state.standing]
        self.full = (1 << len(state.pool)) - 1 if puzzle.use_all else None
        self.found: dict = {}
        self.forms: _NormalForms | None = None

    def candidates(self, value: Fraction) -> list[tuple[int, int]]:
        return [key for key, tbl in self.tables.entries.items() if value in tbl]

    def run(self, first_only: bool) -> None:
        if self.tables.counting:
            self.forms = _NormalForms(self.tables)
        lists = [(t, v, self.candidates(v)) for t, v in self.targets]
        lists.sort(key=lambda x: len(x[2]))
        self._search(lists, 0, 0, 0, (), first_only)

    def _search(self, lists, i, mask, used, chosen, first_only) -> bool:
        """Depth-first over targets (depth at most MAX_TARGETS)."""
        if i == len(lists):
            if self.full is not None and mask != self.full:
                return False
            self._record(chosen)
            return first_only or len(self.found) >= self.limit
        t, v, keys = lists[i]
        for key in keys:
            if key[0] & mask or used + key[1] not in self.tables.valid:
                continue
            if self._search(
                lists, i + 1, mask | key[0], used + key[1], chosen + ((t, v, key),), first_only
            ):
                return True
        return False

    def _record(self, chosen) -> None:
        tables = self.tables
        if not tables.counting:
            self.found.setdefault((), chosen)
            return
        forms = self.forms
        assert forms is not None  # run() makes them whenever tables count
        per_target = [list(forms.of(key, v).items()) for _, v, key in chosen]
        for combo in product(*per_target):
            solution = tuple(sorted(zip((v for _, v, _ in chosen), (nf for nf, _ in combo))))
            if solution not in self.found:
                self.found[solution] = tuple(
                    (t, _tree(w)) for (t, _, _), (_, w) in zip(chosen, combo)
                )
                if len(self.found) >= self.limit:
                    return


def solve_state(
    state: State,
    *,
    count: bool = False,
    equivalence: str = DEFAULT_EQUIVALENCE,
    max_entries: int = 300_000,
    time_limit: float | None = 10.0,
    max_count: int = 10_000,
    should_stop: Callable[[], bool] | None = None,
    budget: int | None = None,
    watch: Watch | None = None,
) -> SolveResult:
    """Solve from any position: can every standing target still be struck?

    Args:
        state: The position (the pool's trees are the leaves of the search).
        count: Also count the distinct solutions (builds every table; slower).
        equivalence: When two solutions are the same (see :mod:`.normal`).
        max_entries: Most values stored before giving up with ``"unknown"``.
        time_limit: Seconds before giving up with ``"unknown"`` (None: no time limit).
        max_count: Stop counting at this many solutions (``complete`` is then False).
        should_stop: Called now and then; returning True cancels (``"unknown"``).
        budget: Work units (candidate values and normal forms computed) before giving up
            with ``"unknown"`` (None: no budget).
        watch: The bounds as one watch (its deadline, cancel test and budget), instead of
            ``time_limit``, ``should_stop`` and ``budget``.

    Returns:
        A :class:`SolveResult`.
    """
    _flags(equivalence)
    start = time.monotonic()
    if watch is None:
        watch = Watch(time_limit, should_stop, budget=budget)
    if not state.standing and not (state.puzzle.use_all and state.pool):
        return SolveResult("solved", (), 1 if count else None)
    if any(state.puzzle.cards[c].effect for c in state.hand):
        if count:
            return _count_with_casts(state, equivalence, max_entries, max_count, watch)
        return _search_with_casts(state, max_entries, watch=watch)
    tables = _Tables(state, count, equivalence, max_entries, 0.0, None, watch)
    assign = _Assign(tables, max_count)

    def on_level(k: int) -> bool:
        # Solvability only: try to assign targets as soon as each has a candidate.
        if count or not all(
            any(v in tbl for tbl in tables.entries.values()) for _, v in assign.targets
        ):
            return False
        assign.run(first_only=True)
        return bool(assign.found)

    limited, reason = False, ""
    try:
        tables.build(on_level)
        if count:
            assign.run(first_only=False)
        status = "solved" if assign.found else "unsolvable"
    except _Limit as stop:
        limited, reason = True, stop.reason
        status = "solved" if assign.found else "unknown"
    n = len(assign.found) if count else None
    complete = not limited and (n is None or n < max_count)
    every = (
        tuple(
            tuple(sorted(found, key=lambda p: p[0]))
            for _, found in sorted(assign.found.items(), key=lambda kv: kv[0])
        )
        if count
        else ()
    )
    return SolveResult(
        status,
        _first_solution(tables, assign),
        n,
        complete,
        tables.stored,
        time.monotonic() - start,
        every,
        reason=reason,
    )


def _count_with_casts(
    state: State, equivalence: str, max_entries: int, max_count: int, watch: Watch
) -> SolveResult:
    """Count the distinct solutions of a hand holding a card cast on the monsters
    (:mod:`.castcount`), with one solution's moves from :func:`_search_with_casts`."""
    from .castcount import count_with_casts

    start = time.monotonic()
    counted = count_with_casts(
        state, equivalence=equivalence, watch=watch, max_positions=max_entries
    )
    if counted.status != "solved":
        return SolveResult(
            counted.status,
            entries=counted.positions,
            elapsed=time.monotonic() - start,
            reason=counted.reason,
        )
    # A win exists, so the search finds one; on what is left of the same watch.
    found = _search_with_casts(state, max_entries, watch=watch)
    n = len(counted.forms)
    return SolveResult(
        "solved" if found.status == "solved" else "unknown",
        count=n if found.status == "solved" else None,
        complete=found.status == "solved",  # every form was found: the count is exact
        entries=counted.positions,
        elapsed=time.monotonic() - start,
        moves=found.moves,
        reason=found.reason,
        forms=counted.forms[:max_count],
    )


def _state_key(state: State) -> tuple:
    """What decides the rest of a game: the pool's values, the cards in hand and the HP of
    the standing monsters, each as a multiset (positions and trees do not matter)."""
    puzzle, monsters = state.puzzle, monster_values(state)
    return (
        tuple(sorted(t.value for t in state.pool)),
        tuple(sorted(puzzle.cards.index(puzzle.cards[c]) for c in state.hand)),
        tuple(sorted(monsters[t] for t in state.standing)),
    )


def _search_with_casts(
    state: State,
    max_states: int,
    deadline: float | None = None,
    should_stop: Callable[[], bool] | None = None,
    watch: Watch | None = None,
) -> SolveResult:
    """Depth-first search over the game's own moves (:func:`.play.legal_moves`), for hands
    holding cards that act on monsters; positions already known lost are skipped.

    Every move uses up a card or a pool value, so the depth is at most the number of cards
    plus values; the search keeps its own stack (no recursion). ``watch`` (its budget counts
    moves tried) replaces ``deadline`` and ``should_stop``.
    """
    if watch is None:
        watch = Watch(should_stop=should_stop, deadline=deadline)
    start = time.monotonic()
    lost: set = set()
    path: list[Move] = []
    stack: list = [(state, iter(legal_moves(state)))]
    while stack:
        try:
            if len(lost) > max_states:
                raise Interrupted("budget")
            watch.spend(1)  # one move tried
            watch.poll("moves")
        except Interrupted as stop:
            return SolveResult(
                "unknown",
                entries=len(lost),
                elapsed=time.monotonic() - start,
                reason=REASONS[stop.reason],
            )
        here, moves = stack[-1]
        move = next(moves, None)
        if move is None:
            lost.add(_state_key(here))
            stack.pop()
            if path:
                path.pop()
            continue
        nxt = apply_move(here, move)
        if status(nxt) == "won":
            return SolveResult(
                "solved",
                entries=len(lost),
                elapsed=time.monotonic() - start,
                moves=tuple(path) + (move,),
            )
        if _state_key(nxt) in lost:
            continue
        path.append(move)
        stack.append((nxt, iter(legal_moves(nxt))))
    return SolveResult("unsolvable", entries=len(lost), elapsed=time.monotonic() - start)


def _first_solution(tables: _Tables, assign: _Assign) -> tuple[tuple[int, Ast], ...]:
    if not assign.found:
        return ()
    first = next(iter(assign.found.values()))
    pairs = list(first) if tables.counting else [(t, tables.tree(key, v)) for t, v, key in first]
    return tuple(sorted(pairs, key=lambda p: p[0]))


def solve(puzzle: Puzzle, **options) -> SolveResult:
    """Solve a puzzle from its start (see :func:`solve_state` for the options)."""
    return solve_state(initial_state(puzzle), **options)


def _plan(pool: tuple[Ast, ...], tree: Ast) -> list[Node]:
    """The card nodes of ``tree`` still to be played, children first: the pool's own trees
    (the solver's leaves, the same objects) are not entered."""
    out: list[Node] = []
    stack: list = [(tree, False)]
    while stack:
        a, done = stack.pop()
        if not isinstance(a, Node) or any(a is p for p in pool):
            continue
        if done:
            out.append(a)
        else:
            stack.append((a, True))
            stack.extend((c, False) for c in reversed(a.children))
    return out


def _positions(state: State, trees: tuple[Ast, ...]) -> tuple[int, ...]:
    taken: list[int] = []
    for tree in trees:
        pos = next((i for i, p in enumerate(state.pool) if p == tree and i not in taken), None)
        if pos is None:
            raise IllegalMove("the solution does not fit the pool")
        taken.append(pos)
    return tuple(taken)


def _card_move(state: State, node: Node) -> PlayCard:
    card = next((i for i in state.hand if state.puzzle.cards[i] == node.card), None)
    if card is None:
        raise IllegalMove(f"no {node.card.name} card left for this solution")
    return PlayCard(card, _positions(state, node.children))


def solution_moves(state: State, strikes: tuple[tuple[int, Ast], ...]) -> tuple[Move, ...]:
    """The moves that play a solution from ``state``: each tree's cards bottom-up, then its
    strike.

    Args:
        state: The position the solution starts from.
        strikes: ``(target index, tree)`` pairs, as in :attr:`SolveResult.strikes`.

    Returns:
        The moves, in order.

    Raises:
        IllegalMove: When the solution does not fit the position.
    """
    moves: list[Move] = []
    start_pool = state.pool
    for target, tree in strikes:
        for node in _plan(start_pool, tree):
            move: Move = _card_move(state, node)
            state = apply_move(state, move)
            moves.append(move)
        move = Strike(_positions(state, (tree,))[0], target)
        state = apply_move(state, move)
        moves.append(move)
    return tuple(moves)


def hint(state: State, **options) -> Move | None:
    """The next move of some solution from ``state``, or None when there is none (or the
    solver gave up). Options as in :func:`solve_state`."""
    result = solve_state(state, **options)
    if result.moves:
        return result.moves[0]
    if result.status != "solved" or not result.strikes:
        return None
    moves = solution_moves(state, result.strikes)
    return moves[0] if moves else None
