"""Playing a puzzle: states, moves, legality and outcome.

A :class:`State` is the pool of values (trees), the cards still in hand, the targets still
standing and the strikes made so far. Two kinds of move:

* :class:`PlayCard` — play card ``card`` (an index into ``puzzle.cards``) on the pool values
  at positions ``args`` (in argument order); they are replaced by the result, placed where
  the leftmost argument was. Division by zero, results beyond
  :data:`~core.algebrawl.values.MAX_VALUE` and, in integer-only puzzles, fractions are
  refused.
* :class:`Strike` — strike target ``target`` (an index into ``puzzle.targets``) with the
  pool value at position ``value``, which must equal it; both leave the game.

* :class:`Cast` — cast a card that acts on the monsters (seed 002's extra operators, see
  :mod:`.cards`) with the pool value at position ``value``, which the card consumes:

  - ``poison_wizard`` (中毒巫师, "毒杀所有奇数怪物 (平等扣血)"): the value is the *dose*, a
    positive whole number; every standing monster whose HP is an odd whole number loses the
    dose, all the same amount. At least one monster must be odd, and the dose may not exceed
    the HP of any odd monster (no overkill: strikes are exact, so is poison). A monster
    brought to 0 dies (it leaves the standing monsters without a strike).
  - ``traitor`` (会攻击后自动叛变的队友, "如果血量大于敌人"): the value is the ally's HP, a
    positive number; it attacks standing monster ``target`` (HP ``m`` > 0). With ``ally <
    m`` the monster is left with ``m − ally`` HP; with ``ally = m`` it dies; with ``ally >
    m`` it dies and the ally *defects*: a new monster with ``ally − m`` HP joins the
    standing ones (index ``len(monsters)``), to be struck like any other.

  Monster HP is :func:`monster_values` (the puzzle's targets until a cast changes one).

The puzzle is won when every target is struck (and, with ``use_all``, the pool is empty);
lost when it is not won and no move is left (or, with ``use_all``, when every target is
struck but values remain, since only strikes remove values). Every function is pure.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations, permutations

from ..game import IllegalMove
from ..text import shorten
from .ast import Ast, Leaf, Node, make_node, postorder, to_infix
from .cards import Card
from .expr import EvalError
from .puzzle import Puzzle
from .values import MAX_VALUE, format_value, within

__all__ = [
    "Cast",
    "Move",
    "PlayCard",
    "State",
    "Strike",
    "apply_move",
    "cast_effect",
    "check_move",
    "describe_move",
    "has_move",
    "initial_state",
    "legal_moves",
    "monster_values",
    "result_of",
    "status",
]


@dataclass(frozen=True, slots=True)
class PlayCard:
    """Play card number ``card`` of the puzzle on the pool values at positions ``args``."""

    card: int
    """Index into ``puzzle.cards``."""
    args: tuple[int, ...]
    """Pool positions of the arguments, in argument order."""


@dataclass(frozen=True, slots=True)
class Strike:
    """Strike target number ``target`` with the pool value at position ``value``."""

    value: int
    """Pool position of the striking value."""
    target: int
    """Index into ``puzzle.targets``."""


@dataclass(frozen=True, slots=True)
class Cast:
    """Cast card number ``card`` (one that acts on monsters) with the pool value at
    position ``value``; ``target`` is the monster a ``traitor`` attacks (-1 for
    ``poison_wizard``, which strikes every odd monster)."""

    card: int
    """Index into ``puzzle.cards``."""
    value: int
    """Pool position of the value consumed (the dose, or the ally)."""
    target: int = -1
    """Index into :func:`monster_values` (``traitor`` only)."""


Move = PlayCard | Strike | Cast
"""A move of Algebrawl."""


@dataclass(frozen=True, slots=True)
class State:
    """A position in a game of Algebrawl.

    Attributes:
        puzzle: The puzzle being played.
        pool: The values available, as trees.
        hand: Indices of the cards not played yet (ascending).
        standing: Indices of the targets not struck yet (ascending).
        struck: ``(target index, tree)`` for each strike, in the order played.
    """

    puzzle: Puzzle
    """The puzzle being played."""
    pool: tuple[Ast, ...]
    """The values available."""
    hand: tuple[int, ...]
    """Cards not played yet."""
    standing: tuple[int, ...]
    """Targets not struck yet."""
    struck: tuple[tuple[int, Ast], ...] = ()
    """The strikes so far."""
    monsters: tuple[Fraction, ...] = ()
    """Current HP of every monster (the targets, then defected traitors); empty until a
    :class:`Cast` changes one, meaning ``puzzle.targets``."""
    spent: tuple[Node, ...] = ()
    """The values consumed by casts, each as a node of its card (in the order cast)."""


def monster_values(state: State) -> tuple[Fraction, ...]:
    """The HP of every monster, by index (struck and dead ones included)."""
    return state.monsters or state.puzzle.targets


def initial_state(puzzle: Puzzle) -> State:
    """The start of ``puzzle``: every number in the pool, every card in hand."""
    return State(
        puzzle,
        tuple(Leaf(v) for v in puzzle.numbers),
        tuple(range(len(puzzle.cards))),
        tuple(range(len(puzzle.targets))),
    )


def _won(state: State) -> bool:
    return not state.standing and not (state.puzzle.use_all and state.pool)


def _stranded(state: State) -> bool:
    """Every target is struck but ``use_all`` values are left: only strikes remove values,
    so the game can no longer be won."""
    return not state.standing and state.puzzle.use_all and bool(state.pool)


def _card_in_hand(state: State, index: int) -> Card:
    """The puzzle's card ``index``, which must still be in the hand (card moves and casts).

    Raises:
        IllegalMove: When it has been played, or there is no such card.
    """
    cards = state.puzzle.cards
    if index not in state.hand:
        raise IllegalMove(
            "that card has already been played"
            if 0 <= index < len(cards)
            else "there is no such card"
        )
    return cards[index]


def result_of(state: State, move: PlayCard) -> Node:
    """The tree a card move would produce (a preview), checking the move.

    Raises:
        IllegalMove: When the move is not legal in ``state``.
    """
    card = _card_in_hand(state, move.card)
    if card.effect:
        raise IllegalMove(f"{card.name} acts on the monsters: cast it on a pool value")
    args = move.args
    if len(args) != card.arity:
        raise IllegalMove(f"{card.name} takes {card.arity} value{'s' if card.arity != 1 else ''}")
    if len(set(args)) != len(args) or not all(0 <= i < len(state.pool) for i in args):
        raise IllegalMove("pick different values from the pool")
    try:
        node = make_node(card, tuple(state.pool[i] for i in args))
    except EvalError as error:
        raise IllegalMove(f"{card.name}: {error}") from None
    if not within(node.value, MAX_VALUE):
        raise IllegalMove(f"{card.name}: the result is too large")
    if state.puzzle.integer_only and node.value.denominator != 1:
        raise IllegalMove(f"only whole numbers are allowed here, not {format_value(node.value)}")
    return node


def _check_strike(state: State, move: Strike) -> None:
    if not 0 <= move.value < len(state.pool):
        raise IllegalMove("there is no such value in the pool")
    monsters = monster_values(state)
    if move.target not in state.standing:
        raise IllegalMove(
            "that target has already been struck"
            if 0 <= move.target < len(monsters)
            else "there is no such target"
        )
    have, want = state.pool[move.value].value, monsters[move.target]
    if have != want:
        raise IllegalMove(f"{format_value(have)} does not match the target {format_value(want)}")


def _odd(x: Fraction) -> bool:
    return x.denominator == 1 and x.numerator % 2 == 1


def cast_effect(state: State, move: Cast) -> tuple[tuple[Fraction, ...], tuple[int, ...], Node]:
    """What a cast does, checking it (the rules are in the module docstring).

    Returns:
        ``(monsters, standing, node)``: every monster's HP after the cast, the monsters
        still standing, and the spent value as a node of the card.

    Raises:
        IllegalMove: When the cast is not legal in ``state``.
    """
    card = _card_in_hand(state, move.card)
    if not card.effect:
        raise IllegalMove(f"{card.name} is played on pool values, not cast on monsters")
    if not 0 <= move.value < len(state.pool):
        raise IllegalMove("there is no such value in the pool")
    tree = state.pool[move.value]
    amount = tree.value
    before = monster_values(state)
    hp = list(before)
    standing = list(state.standing)
    if card.effect == "poison_wizard":
        if amount.denominator != 1 or amount <= 0:
            raise IllegalMove(
                f"the poison dose is a positive whole number, not {format_value(amount)}"
            )
        odd = [t for t in standing if _odd(hp[t])]
        if not odd:
            raise IllegalMove("no standing monster has an odd HP")
        weakest = min(hp[t] for t in odd)
        if amount > weakest:
            raise IllegalMove(
                f"a dose of {format_value(amount)} is more than the odd monster "
                f"with {format_value(weakest)} HP has (no overkill)"
            )
        for t in odd:
            hp[t] -= amount
    else:  # traitor
        if move.target not in standing:
            raise IllegalMove("the traitor attacks a standing monster: pick one")
        m = hp[move.target]
        if amount <= 0 or m <= 0:
            raise IllegalMove("the traitor and the monster it attacks need positive HP")
        hp[move.target] = max(m - amount, Fraction(0))
        if amount > m:  # "如果血量大于敌人": the ally defects with the HP it has left
            hp.append(amount - m)
            standing.append(len(hp) - 1)
    # Only a monster this cast hit can die of it (a target of 0 HP from the start stands).
    standing = [t for t in standing if hp[t] != 0 or hp[t] == before[t]]
    return tuple(hp), tuple(standing), make_node(card, (tree,))


def check_move(state: State, move: Move) -> None:
    """Raise :class:`IllegalMove` when ``move`` is not legal in ``state``."""
    if status(state) != "playing":
        raise IllegalMove("the game is over")
    _check(state, move)


def _check(state: State, move: Move) -> None:
    if isinstance(move, Strike):
        _check_strike(state, move)
    elif isinstance(move, PlayCard):
        result_of(state, move)
    elif isinstance(move, Cast):
        cast_effect(state, move)
    else:
        raise IllegalMove("not an Algebrawl move")


def apply_move(state: State, move: Move) -> State:
    """Play ``move``; never mutates ``state``.

    Raises:
        IllegalMove: When the move is not legal.
    """
    if status(state) != "playing":
        raise IllegalMove("the game is over")
    if isinstance(move, Strike):
        _check_strike(state, move)
        pool = state.pool[: move.value] + state.pool[move.value + 1 :]
        standing = tuple(t for t in state.standing if t != move.target)
        struck = state.struck + ((move.target, state.pool[move.value]),)
        return State(state.puzzle, pool, state.hand, standing, struck, state.monsters, state.spent)
    if isinstance(move, Cast):
        monsters, standing, node = cast_effect(state, move)
        pool = state.pool[: move.value] + state.pool[move.value + 1 :]
        hand = tuple(c for c in state.hand if c != move.card)
        return State(
            state.puzzle, pool, hand, standing, state.struck, monsters, state.spent + (node,)
        )
    if not isinstance(move, PlayCard):
        raise IllegalMove("not an Algebrawl move")
    node = result_of(state, move)
    used = set(move.args)
    first = min(move.args)
    rest = [p for i, p in enumerate(state.pool) if i not in used]
    rest.insert(first, node)
    hand = tuple(c for c in state.hand if c != move.card)
    return State(
        state.puzzle, tuple(rest), hand, state.standing, state.struck, state.monsters, state.spent
    )


def _candidate_moves(state: State) -> Iterator[Move]:
    """Every distinct move shape: strikes first, then cards (equal cards, equal trees and
    the swapped arguments of commutative cards are offered once)."""
    puzzle, pool = state.puzzle, state.pool
    monsters = monster_values(state)
    seen_targets: set = set()
    for t in state.standing:
        want = monsters[t]
        if want in seen_targets:
            continue
        seen_targets.add(want)
        seen_trees: set = set()
        for i, tree in enumerate(pool):
            if tree.value == want and tree not in seen_trees:
                seen_trees.add(tree)
                yield Strike(i, t)
    seen_cards: set = set()
    for c in state.hand:
        card = puzzle.cards[c]
        if card in seen_cards:
            continue
        seen_cards.add(card)
        if card.effect:
            yield from _casts(state, c, card.effect == "traitor")
            continue
        pick = combinations if card.commutative else permutations
        seen_args: set = set()
        for args in pick(range(len(pool)), card.arity):
            trees = tuple(pool[i] for i in args)
            if trees not in seen_args:
                seen_args.add(trees)
                yield PlayCard(c, args)


def _casts(state: State, card: int, aimed: bool) -> Iterator[Cast]:
    """The casts of one card: each distinct pool tree (on each distinct standing monster's
    HP, for a traitor)."""
    monsters = monster_values(state)
    aims = [-1]
    if aimed:
        seen: dict = {}
        aims = [seen.setdefault(monsters[t], t) for t in state.standing if monsters[t] not in seen]
    trees: set = set()
    for i, tree in enumerate(state.pool):
        if tree not in trees:
            trees.add(tree)
            for t in aims:
                yield Cast(card, i, t)


def _legal(state: State, move: Move) -> bool:
    try:
        _check(state, move)
    except IllegalMove:
        return False
    return True


def legal_moves(state: State) -> tuple[Move, ...]:
    """Every legal move, in a stable order (strikes, then cards in hand order).

    Equal cards, equal pool trees and the swapped arguments of commutative cards are offered
    once. Empty when the game is over.
    """
    if _won(state) or _stranded(state):
        return ()
    return tuple(m for m in _candidate_moves(state) if _legal(state, m))


def has_move(state: State) -> bool:
    """True when some move is legal (stops at the first one found)."""
    return any(_legal(state, m) for m in _candidate_moves(state))


def status(state: State) -> str:
    """``"won"``, ``"lost"`` (no legal move, or every target struck with numbers left in a
    ``use_all`` puzzle) or ``"playing"``."""
    if _won(state):
        return "won"
    return "playing" if not _stranded(state) and has_move(state) else "lost"


def describe_move(state: State, move: Move) -> str:
    """A short text: ``"3 + 4 = 7"``, ``"avg(3, 5) = 4"``, ``"strike 24 with (3 + 5) × 3"``."""
    try:
        if isinstance(move, Strike):
            _check_strike(state, move)
            tree = state.pool[move.value]
            target = format_value(monster_values(state)[move.target])
            how = "" if isinstance(tree, Leaf) else f" with {shorten(to_infix(tree), 40)}"
            return f"strike {target}{how}"
        if isinstance(move, Cast):
            return _describe_cast(state, move)
        node = result_of(state, move)
    except IllegalMove as error:
        return f"illegal: {error}"
    args = [format_value(c.value) for c in node.children]
    args = [f"({a})" if a.startswith("-") or "/" in a else a for a in args]
    card = node.card
    shown = f" {card.symbol} ".join(args) if card.symbol else f"{card.name}({', '.join(args)})"
    return f"{shown} = {format_value(node.value)}"


def _describe_cast(state: State, move: Cast) -> str:
    """``"poison wizard, dose 2: 7 → 5, 5 → 3"``, ``"traitor 9 attacks 5: defects as 4"``."""
    before = monster_values(state)
    after, _, node = cast_effect(state, move)
    amount = format_value(node.value)
    if node.card.effect == "poison_wizard":
        hit = [
            f"{format_value(before[t])} → {format_value(after[t])}"
            for t in state.standing
            if after[t] != before[t]
        ]
        return f"poison wizard, dose {amount}: {', '.join(hit)}"
    m = format_value(before[move.target])
    if len(after) > len(before):
        return (
            f"traitor {amount} attacks {m}: it dies, the ally defects as {format_value(after[-1])}"
        )
    left = after[move.target]
    fate = "it dies" if left == 0 else f"{format_value(left)} left"
    return f"traitor {amount} attacks {m}: {fate}"


def cards_in(trees: tuple[Ast, ...]) -> Counter:
    """The cards played in ``trees``, as a multiset."""
    return Counter(a.card for t in trees for a in postorder(t) if isinstance(a, Node))
