"""Distinct solutions of hands that hold cards cast on the monsters (``poison_wizard``,
``traitor``).

The expression normal form (:mod:`.normal`) says when two *trees* are the same; a solution
without casts is a multiset of ``(monster, normal form of the tree that strikes it)``
(:mod:`.solver`). A cast changes the monsters themselves, so a solution that casts is more
than its strikes. Its **form** extends the one above:

* ``casts``: the casts **in the order made**, each ``(card name, normal form of the value
  consumed, HP attacked)`` where *HP attacked* is ``(m,)``, the HP of the monster a traitor
  attacks, or ``()`` for a poison wizard (it hits every odd monster: the position decides
  which). Order matters: a poison before or after another cast hits different monsters.
* ``strikes``: the strikes as a **multiset** of ``(HP when struck, normal form of the
  tree)``, as for solutions without casts (monsters of equal HP are interchangeable, and
  the order of strikes and of card plays does not change what a player computed).

Two winning plays are the same solution when their forms are equal. Without casts the form
is ``((), strikes)``: exactly the solver's solution, so both count the same on such hands.

Counting: a depth-first search over the game's own moves (:func:`.play.legal_moves`) that
memoises, per position, the set of forms that win from it. The forms from a position
depend only on the multiset of ``(value, normal form)`` of its pool, the cards in hand and
the HP of the standing monsters (normal forms are computed bottom-up from the children's,
so equal forms stay equal after any card), which is the memo's key; each key is expanded
once. Every move tried and every form carried up one move costs one unit of the watch's
budget; ``max_positions`` bounds the memo.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from core.search import Interrupted, Watch

from .ast import Ast
from .normal import DEFAULT_EQUIVALENCE, NF, nf_text, normal_form
from .play import Cast, Move, State, Strike, apply_move, legal_moves, monster_values
from .values import format_value

__all__ = ["CastCount", "Form", "count_with_casts", "form_of_play", "form_text"]

Form = tuple
"""A solution's form: ``(casts, strikes)`` (see the module docstring)."""


@dataclass(frozen=True)
class CastCount:
    """The outcome of :func:`count_with_casts`.

    Attributes:
        status: ``"solved"``, ``"unsolvable"`` or ``"unknown"`` (a bound was hit).
        forms: Every distinct solution's form, sorted (empty unless solved).
        positions: Positions expanded (memo entries).
        reason: The bound that was hit (``"work budget"``, ``"time limit"``,
            ``"cancelled"``), or ``""``.
    """

    status: str
    """``"solved"``, ``"unsolvable"`` or ``"unknown"``."""
    forms: tuple[Form, ...] = ()
    """The distinct solutions' forms."""
    positions: int = 0
    """Positions expanded."""
    reason: str = ""
    """Which bound stopped the count, or ``""``."""


_REASONS = {"limit": "time limit", "budget": "work budget", "cancelled": "cancelled"}


_WON: frozenset = frozenset({((), ())})
"""The forms from a won position: the empty solution."""


class _Counter:
    """The memoised search of :func:`count_with_casts`."""

    def __init__(self, equivalence: str, watch: Watch, max_positions: int):
        self.equivalence = equivalence
        self.watch = watch
        self.max_positions = max_positions
        self.memo: dict = {}
        self.nf: dict[Ast, NF] = {}

    def form(self, tree: Ast) -> NF:
        """The tree's normal form (memoised: the same trees recur in many positions)."""
        found = self.nf.get(tree)
        if found is None:
            found = self.nf[tree] = normal_form(tree, self.equivalence)
        return found

    def key(self, state: State) -> tuple:
        """What decides the forms that win from ``state`` (see the module docstring)."""
        puzzle, hp = state.puzzle, monster_values(state)
        pool = Counter((t.value, self.form(t)) for t in state.pool)
        hand = Counter(puzzle.cards.index(puzzle.cards[c]) for c in state.hand)
        return (
            frozenset(pool.items()),
            frozenset(hand.items()),
            tuple(sorted(hp[t] for t in state.standing)),
        )

    def forms(self, state: State) -> frozenset:
        """The forms of every win from ``state``."""
        if not state.standing and not (state.puzzle.use_all and state.pool):
            return _WON  # won (status() would also look for moves: not needed here)
        key = self.key(state)
        known = self.memo.get(key)
        if known is not None:
            return known
        if len(self.memo) >= self.max_positions:
            raise Interrupted("budget")
        self.watch.poll("casts")
        out: set = set()
        for move in legal_moves(state):
            self.watch.spend(1)
            after = self.forms(apply_move(state, move))
            if not after:
                continue
            self.watch.spend(len(after))
            step = self.step(state, move)
            out.update(_prepend(step, f) for f in after)
        result = frozenset(out)
        self.memo[key] = result
        return result

    def step(self, state: State, move: Move) -> tuple:
        """What ``move`` adds to a form: ``("cast", cast)``, ``("strike", strike)`` or
        ``("play",)`` (a card played on pool values adds nothing: its tree is read where it
        is consumed)."""
        if isinstance(move, Strike):
            hp = monster_values(state)[move.target]
            return ("strike", (hp, self.form(state.pool[move.value])))
        if isinstance(move, Cast):
            card = state.puzzle.cards[move.card]
            aimed: tuple = ()
            if card.effect == "traitor":
                aimed = (monster_values(state)[move.target],)
            return ("cast", (card.name, self.form(state.pool[move.value]), aimed))
        return ("play",)


def _prepend(step: tuple, form: Form) -> Form:
    casts, strikes = form
    if step[0] == "cast":
        return ((step[1],) + casts, strikes)
    if step[0] == "strike":
        return (casts, tuple(sorted(strikes + (step[1],))))
    return form


def count_with_casts(
    state: State,
    *,
    equivalence: str = DEFAULT_EQUIVALENCE,
    watch: Watch | None = None,
    max_positions: int = 300_000,
) -> CastCount:
    """Every distinct solution from ``state`` (forms as in the module docstring).

    Args:
        state: The position (any hand; it need not hold a cast card).
        equivalence: The expression normal form (:data:`.normal.EQUIVALENCES`).
        watch: Time, cancel test and work budget (moves tried and forms carried).
        max_positions: Most positions memoised before giving up (``"work budget"``).

    Returns:
        A :class:`CastCount`.
    """
    counter = _Counter(equivalence, watch or Watch(), max_positions)
    try:
        found = counter.forms(state)
    except Interrupted as stop:
        return CastCount("unknown", positions=len(counter.memo), reason=_REASONS[stop.reason])
    if not found:
        return CastCount("unsolvable", positions=len(counter.memo))
    return CastCount("solved", tuple(sorted(found, key=_sort_key)), len(counter.memo))


def _sort_key(form: Form) -> str:
    """A total order on forms (their text: NF tuples mix kinds that need not compare)."""
    return form_text(form)


def form_of_play(
    state: State, moves: tuple[Move, ...], equivalence: str = DEFAULT_EQUIVALENCE
) -> Form:
    """The form of a play from ``state`` (each move legal in turn), without any search.

    Args:
        state: The start.
        moves: The moves played.
        equivalence: The expression normal form.

    Returns:
        The play's form.
    """
    casts: list = []
    strikes: list = []
    for move in moves:
        if isinstance(move, Strike):
            hp = monster_values(state)[move.target]
            strikes.append((hp, normal_form(state.pool[move.value], equivalence)))
        elif isinstance(move, Cast):
            card = state.puzzle.cards[move.card]
            aimed = (monster_values(state)[move.target],) if card.effect == "traitor" else ()
            casts.append((card.name, normal_form(state.pool[move.value], equivalence), aimed))
        state = apply_move(state, move)
    return (tuple(casts), tuple(sorted(strikes)))


def form_text(form: Form) -> str:
    """A form as one line: ``"traitor(9) on 5; poison_wizard(3); 2 = 2; 4 = 1 + 3"``."""
    casts, strikes = form
    parts = [
        f"{name}({nf_text(nf)})" + (f" on {format_value(aimed[0])}" if aimed else "")
        for name, nf, aimed in casts
    ]
    parts += [f"{format_value(Fraction(hp))} = {nf_text(nf)}" for hp, nf in strikes]
    return "; ".join(parts)
