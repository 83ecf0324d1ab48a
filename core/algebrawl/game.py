"""``GAME``: Algebrawl behind the shared :class:`core.game.Game` protocol.

The level is a :class:`~core.algebrawl.level.Level` (or a bare
:class:`~core.algebrawl.puzzle.Puzzle`). JSON forms (stable keys):

* move: ``{"play": card_index, "args": [pool positions]}`` or
  ``{"strike": target_index, "value": pool_position}``;
* tree: a leaf is its number as text (``"3"``, ``"7/2"``), a node
  ``{"card": card_name, "args": [trees]}``;
* cast (a card acting on monsters): ``{"cast": card_index, "value": pool_position}``, with
  ``"target": monster_index`` for a ``traitor``;
* state: ``{"puzzle": …, "pool": [trees], "hand": [card indices], "standing": [target
  indices], "struck": [[target index, tree], …]}``, plus, once a card has been cast,
  ``"monsters": [HP of every monster as text]`` and ``"spent": [trees of the cast cards]``
  (states without casts keep the older form, so older saves load unchanged). Decoding
  recomputes every value and checks that the state is reachable in form: each number and
  each card used exactly once across the pool, the strikes, the casts and the hand, each
  strike equal to its monster's HP, every monster standing, struck once or brought to 0.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from ..game import MoveKind
from .ast import Ast, Leaf, Node, fold, make_node, postorder
from .expr import EvalError
from .level import Level
from .play import (
    Cast,
    Move,
    PlayCard,
    State,
    Strike,
    apply_move,
    cards_in,
    check_move,
    describe_move,
    initial_state,
    legal_moves,
    monster_values,
    status,
)
from .puzzle import MAX_CARDS, MAX_NUMBERS, Puzzle, puzzle_from_json, puzzle_to_json
from .values import MAX_VALUE, format_value, parse_value, within

__all__ = ["GAME", "AlgebrawlGame", "tree_from_json", "tree_to_json"]


def tree_to_json(tree: Ast) -> Any:
    """JSON form of a tree (iterative)."""
    return fold(
        tree,
        lambda a: format_value(a.value),
        lambda a, args: {"card": a.card.name, "args": args},
    )


def tree_from_json(data: Any, puzzle: Puzzle) -> Ast:
    """Rebuild a tree, recomputing its values (iterative, bounded in size).

    Raises:
        ValueError: Malformed data, an unknown card, a value the rules refuse.
    """
    cards = {c.name: c for c in puzzle.cards}
    out: list[Ast] = []
    stack: list = [(data, False)]
    budget = 2 * (MAX_NUMBERS + MAX_CARDS)
    while stack:
        d, done = stack.pop()
        budget -= 1
        if budget < 0:
            raise ValueError("tree too large")
        if isinstance(d, str):
            out.append(Leaf(parse_value(d)))
        elif not isinstance(d, dict) or not isinstance(d.get("args"), list):
            raise ValueError(f"not a tree: {d!r:.40}")
        elif not done:
            stack.append((d, True))
            stack.extend((c, False) for c in reversed(d["args"]))
        else:
            card = cards.get(d.get("card", ""))
            n = len(d["args"])
            if card is None or card.arity != n:
                raise ValueError(f"unknown card {d.get('card')!r:.40}")
            args = tuple(out[len(out) - n :])
            del out[len(out) - n :]
            try:
                node = make_node(card, args)
            except EvalError as error:
                raise ValueError(str(error)) from None
            if not within(node.value, MAX_VALUE) or (
                puzzle.integer_only and node.value.denominator != 1
            ):
                raise ValueError("a value in the tree breaks the puzzle's rules")
            out.append(node)
    return out[0]


def _indices(data: Any, size: int, what: str) -> tuple[int, ...]:
    if not isinstance(data, list) or not all(
        isinstance(i, int) and not isinstance(i, bool) for i in data
    ):
        raise ValueError(f"{what} is a list of indices")
    if sorted(set(data)) != data or any(not 0 <= i < size for i in data):
        raise ValueError(f"{what}: indices must be distinct, ascending and in range")
    return tuple(data)


def _check_consistent(state: State) -> None:
    puzzle = state.puzzle
    trees = state.pool + tuple(t for _, t in state.struck)
    if any(isinstance(a, Node) and a.card.effect for t in trees for a in postorder(t)):
        raise ValueError("a card that acts on monsters can only be cast, not used in a tree")
    if any(
        not s.card.effect
        or any(isinstance(a, Node) and a.card.effect for c in s.children for a in postorder(c))
        for s in state.spent
    ):
        raise ValueError("a spent value is a cast card over an ordinary tree")
    trees += state.spent
    leaves = Counter(a.value for t in trees for a in postorder(t) if isinstance(a, Leaf))
    if leaves != Counter(puzzle.numbers):
        raise ValueError("the pool and strikes do not use each number exactly once")
    played = Counter(puzzle.cards) - Counter(puzzle.cards[i] for i in state.hand)
    if cards_in(trees) != played:
        raise ValueError("the cards in the trees do not match the cards played")
    monsters = monster_values(state)
    traitors = sum(1 for s in state.spent if s.card.effect == "traitor")
    if not len(puzzle.targets) <= len(monsters) <= len(puzzle.targets) + traitors:
        raise ValueError("more monsters than the targets and the traitors cast")
    hit = [t for t, _ in state.struck]
    dead = [
        t
        for t in range(len(monsters))
        if monsters[t] == 0 and state.spent and t not in hit and t not in state.standing
    ]
    if sorted(hit + list(state.standing) + dead) != list(range(len(monsters))):
        raise ValueError("each target is either standing, struck once or dead of a cast")
    if any(monsters[t] != tree.value for t, tree in state.struck):
        raise ValueError("a strike does not equal its target")


class AlgebrawlGame:
    """The Algebrawl engine (see the module docstring for the JSON forms).

    Attributes:
        id: ``"algebrawl"``.
        move_kinds: ``play`` (a card on pool values) and ``strike`` (a target).
    """

    id = "algebrawl"
    """The game id."""
    move_kinds = (
        MoveKind("play", True, "play an operator card on values from the pool"),
        MoveKind("strike", True, "strike a target with an equal value"),
        MoveKind("cast", True, "cast a poison wizard or a traitor ally on the monsters"),
    )
    """The kinds of moves."""

    def initial(self, level: Any) -> State:
        """The start of a level: a :class:`~core.algebrawl.level.Level` (its puzzle) or a
        bare :class:`Puzzle`."""
        puzzle = level.puzzle if isinstance(level, Level) else level
        if not isinstance(puzzle, Puzzle):
            raise ValueError("an Algebrawl level is a Level or a Puzzle")
        return initial_state(puzzle)

    def moves(self, state: State) -> Sequence[Move]:
        """Every legal move (strikes first, then cards in hand order)."""
        return legal_moves(state)

    def check(self, state: State, move: Move) -> None:
        """Raise :class:`IllegalMove` unless ``move`` is legal."""
        check_move(state, move)

    def apply(self, state: State, move: Move) -> State:
        """The state after ``move``."""
        return apply_move(state, move)

    def status(self, state: State) -> str:
        """``"won"``, ``"lost"`` or ``"playing"``."""
        return status(state)

    def finished(self, state: State) -> bool:
        """True once won or lost."""
        return status(state) != "playing"

    def describe_move(self, state: State, move: Move) -> str:
        """``"3 + 4 = 7"``, ``"strike 24 with (3 + 5) × 3"``."""
        return describe_move(state, move)

    def state_to_json(self, state: State) -> Any:
        """JSON form of a state."""
        return {
            "puzzle": puzzle_to_json(state.puzzle),
            "pool": [tree_to_json(t) for t in state.pool],
            "hand": list(state.hand),
            "standing": list(state.standing),
            "struck": [[t, tree_to_json(tree)] for t, tree in state.struck],
            **_cast_fields(state),
        }

    def state_from_json(self, data: Any) -> State:
        """Rebuild and check a state.

        Raises:
            ValueError: When ``data`` is not a consistent state.
        """
        if not isinstance(data, dict):
            raise ValueError("a state is a JSON object")
        puzzle = puzzle_from_json(data.get("puzzle"))
        pool = data.get("pool")
        struck = data.get("struck")
        if not isinstance(pool, list) or not isinstance(struck, list) or len(pool) > MAX_NUMBERS:
            raise ValueError("a state has a pool and strikes")
        if not all(isinstance(s, list) and len(s) == 2 and isinstance(s[0], int) for s in struck):
            raise ValueError("a strike is [target index, tree]")
        monsters, spent = _read_cast_fields(data, puzzle)
        count = len(monsters or puzzle.targets)
        state = State(
            puzzle,
            tuple(tree_from_json(t, puzzle) for t in pool),
            _indices(data.get("hand"), len(puzzle.cards), "hand"),
            _indices(data.get("standing"), count, "standing"),
            tuple((s[0], tree_from_json(s[1], puzzle)) for s in struck[: count + 1]),
            monsters,
            spent,
        )
        _check_consistent(state)
        return state

    def move_to_json(self, move: Move) -> Any:
        """JSON form of a move."""
        if isinstance(move, Strike):
            return {"strike": move.target, "value": move.value}
        if isinstance(move, Cast):
            data = {"cast": move.card, "value": move.value}
            return data if move.target < 0 else {**data, "target": move.target}
        return {"play": move.card, "args": list(move.args)}

    def move_from_json(self, state: State, data: Any) -> Move:
        """Rebuild a move (it is not checked against ``state`` here; ``apply`` does).

        Raises:
            ValueError: When ``data`` is not a move.
        """
        if isinstance(data, dict) and _is_int(data.get("strike")) and _is_int(data.get("value")):
            return Strike(data["value"], data["strike"])
        if isinstance(data, dict) and _is_int(data.get("cast")) and _is_int(data.get("value")):
            target = data.get("target", -1)
            if not _is_int(target):
                raise ValueError(f"not an Algebrawl move: {data!r:.60}")
            return Cast(data["cast"], data["value"], target)
        args = data.get("args") if isinstance(data, dict) else None
        if (
            _is_int(data.get("play") if isinstance(data, dict) else None)
            and isinstance(args, list)
            and len(args) <= 8
            and all(_is_int(a) for a in args)
        ):
            return PlayCard(data["play"], tuple(args))
        raise ValueError(f"not an Algebrawl move: {data!r:.60}")


def _cast_fields(state: State) -> dict[str, Any]:
    """``monsters`` and ``spent`` once a card has been cast (absent before: the older form)."""
    if not state.monsters and not state.spent:
        return {}
    return {
        "monsters": [format_value(v) for v in monster_values(state)],
        "spent": [tree_to_json(t) for t in state.spent],
    }


def _read_cast_fields(data: dict, puzzle: Puzzle) -> tuple[tuple, tuple]:
    """Read ``monsters`` and ``spent`` (both absent in states without casts)."""
    monsters, spent = data.get("monsters", []), data.get("spent", [])
    most = len(puzzle.targets) + len(puzzle.cards)  # each traitor adds at most one monster
    if (
        not isinstance(monsters, list)
        or not isinstance(spent, list)
        or len(monsters) > most
        or len(spent) > len(puzzle.cards)
    ):
        raise ValueError("a state's monsters and spent values are short lists")
    nodes = tuple(tree_from_json(t, puzzle) for t in spent)
    if not all(isinstance(n, Node) for n in nodes):
        raise ValueError("a spent value is a cast card over a tree")
    return tuple(parse_value(v) for v in monsters), nodes


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


GAME = AlgebrawlGame()
"""The Algebrawl engine."""
