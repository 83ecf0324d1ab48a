"""Abstract syntax trees of played cards: the values in the pool (seed 002's "leaves").

A pool value is either a :class:`Leaf` (one of the puzzle's numbers) or a :class:`Node` (a
card applied to earlier pool values). As in the seed, a node carries its properties: the
card, its value (computed once, at construction) and its depth; unlike the seed's
``(:depth ,(ast-depth-max picked))``, which gives a node the depth of its deepest child, a
node here is one deeper than its deepest child (a leaf has depth 0, ``3 + 4`` depth 1).

The seed's helpers keep their names: :func:`leaf_p` (``leaf?``), :func:`node_children`,
:func:`ast_depth`, :func:`ast_depth_max`, :func:`ast_eval`. Every traversal is iterative.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

from .cards import Card
from .trees import fold_up
from .values import Number, as_value, format_value

__all__ = [
    "Ast",
    "Leaf",
    "Node",
    "ast_cards",
    "ast_depth",
    "ast_depth_max",
    "ast_eval",
    "ast_leaves",
    "fold",
    "leaf_p",
    "make_node",
    "node_children",
    "postorder",
    "to_infix",
]


@dataclass(frozen=True, slots=True)
class Leaf:
    """One of the puzzle's numbers."""

    value: Fraction
    """The number."""

    @property
    def depth(self) -> int:
        """A leaf has depth 0."""
        return 0

    @property
    def leaves(self) -> int:
        """A leaf counts one leaf."""
        return 1


@dataclass(frozen=True, slots=True)
class Node:
    """A card applied to earlier pool values; build it with :func:`make_node`."""

    card: Card
    """The card played."""
    children: tuple[Ast, ...]
    """Its arguments, in order."""
    value: Fraction
    """The result (computed at construction)."""
    depth: int
    """1 + the depth of the deepest child."""
    leaves: int
    """How many leaves (puzzle numbers) the tree holds."""


Ast = Leaf | Node
"""A pool value."""


def leaf(value: Number) -> Leaf:
    """A leaf for ``value`` (an int or a Fraction)."""
    return Leaf(as_value(value))


def make_node(card: Card, children: tuple[Ast, ...]) -> Node:
    """Apply ``card`` to ``children``.

    Args:
        card: The card.
        children: Exactly ``card.arity`` trees.

    Returns:
        The new node, with its value and depth.

    Raises:
        EvalError: When the card cannot be applied (division by zero, value too large).
    """
    value = card.apply([c.value for c in children])
    depth = 1 + max(c.depth for c in children)
    return Node(card, tuple(children), value, depth, sum(c.leaves for c in children))


def leaf_p(ast: Ast) -> bool:
    """Seed 002's ``leaf?``: True for a leaf."""
    return isinstance(ast, Leaf)


def node_children(ast: Ast) -> tuple[Ast, ...]:
    """The arguments of a node; empty for a leaf."""
    return ast.children if isinstance(ast, Node) else ()


def ast_depth(ast: Ast) -> int:
    """Depth of ``ast`` (0 for a leaf)."""
    return ast.depth


def ast_depth_max(*asts: Ast) -> int:
    """The largest depth among ``asts`` (0 when none)."""
    return max((a.depth for a in asts), default=0)


def ast_eval(ast: Ast) -> Fraction:
    """Seed 002's ``ast-eval``: the value of the tree (stored in each node)."""
    return ast.value


def postorder(ast: Ast) -> Iterator[Ast]:
    """Yield every subtree, children before parents, left to right (iteratively)."""
    stack: list = [(ast, False)]
    while stack:
        a, done = stack.pop()
        if done or isinstance(a, Leaf):
            yield a
        else:
            stack.append((a, True))
            stack.extend((c, False) for c in reversed(a.children))


T = TypeVar("T")


def fold(ast: Ast, leaf: Callable[[Leaf], T], node: Callable[[Node, list[T]], T]) -> T:
    """Compute a value of a tree bottom-up, iteratively (a deep tree cannot overflow the stack).

    Args:
        ast: The tree.
        leaf: The value of a leaf.
        node: The value of a node, given its children's values, left to right.

    Returns:
        The value of the root.
    """
    return fold_up(
        ast,
        node_children,
        lambda a, args: leaf(a) if isinstance(a, Leaf) else node(a, args),
    )


def ast_leaves(ast: Ast) -> tuple[Fraction, ...]:
    """The numbers at the leaves, left to right."""
    return tuple(a.value for a in postorder(ast) if isinstance(a, Leaf))


def ast_cards(ast: Ast) -> tuple[Card, ...]:
    """The cards played in the tree, children before parents."""
    return tuple(a.card for a in postorder(ast) if isinstance(a, Node))


_ASCII = {"−": "-", "×": "*", "÷": "/"}
_PREC = {"+": 1, "−": 1, "-": 1, "×": 2, "÷": 2, "*": 2, "/": 2}
_ATOM = 9


def _leaf_text(value: Fraction) -> tuple[str, int]:
    text = format_value(value)
    if value < 0:
        return text, 0  # always parenthesised as an operand
    return text, (_ATOM if value.denominator == 1 else 2)


def to_infix(ast: Ast, ascii: bool = False) -> str:
    """Write a tree as an expression: ``"(1 + 3) × (2 + 4)"``, ``"avg(3, 5) − 1"``.

    Binary cards with a symbol are written between their operands, other cards as calls.
    Parentheses follow the tree exactly (``a − (b − c)``), except that a left operand of
    the same precedence needs none (``a + b − c`` is ``(a + b) − c``).

    Args:
        ast: The tree.
        ascii: Write ``- * /`` instead of ``− × ÷`` (for calculators and shells).

    Returns:
        The text.
    """

    def written(a: Node, args: list[tuple[str, int]]) -> tuple[str, int]:
        # (text, precedence) of a node from its operands'.
        symbol = a.card.symbol
        if symbol and len(args) == 2:
            prec = _PREC.get(symbol, 1)
            (lt, lp), (rt, rp) = args
            left = lt if lp >= prec else f"({lt})"
            right = rt if rp > prec else f"({rt})"
            shown = _ASCII.get(symbol, symbol) if ascii else symbol
            return f"{left} {shown} {right}", prec
        return f"{a.card.name}({', '.join(t for t, _ in args)})", _ATOM

    return fold(ast, lambda a: _leaf_text(a.value), written)[0]
