"""Graphviz (DOT) text for trees and solutions, as seed 002's ``ast-format`` and
``leaves->graphviz`` draw them.

Numbers are circles, cards double circles labelled with their symbol or name, each card
pointing to its arguments in order; :func:`leaves_to_dot` puts a square with the tree's value
above each root (the seed's ``AST-ANS`` boxes, edge drawn with ``dir=back``). Node ids are
numbered in drawing order instead of the seed's ``gensym``, so the same input always gives
the same text. This module only writes text; running ``dot -Tsvg`` is left to the caller.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .ast import Ast, Leaf
from .values import format_value

__all__ = ["ast_to_dot", "dot_escape", "leaves_to_dot", "solution_to_dot"]


def dot_escape(text: str) -> str:
    """Escape text for a double-quoted DOT string (backslashes, quotes, line breaks)."""
    out = text.replace("\\", "\\\\").replace('"', '\\"')
    return out.replace("\n", "\\n").replace("\r", "")


def _ast_lines(ast: Ast, root: str, ids: list[int]) -> list[str]:
    """The seed's ``ast-format``: nodes and edges of one tree whose root is named ``root``."""
    lines: list[str] = []
    stack: list = [(ast, root)]
    while stack:
        node, name = stack.pop()
        if isinstance(node, Leaf):
            lines.append(f'"{name}" [shape=circle,label="{dot_escape(format_value(node.value))}"];')
            continue
        lines.append(f'"{name}" [shape=doublecircle,label="{dot_escape(node.card.label)}"];')
        kids = []
        for child in node.children:
            ids[0] += 1
            kids.append((child, f"n{ids[0]}"))
        lines.append(f'"{name}" -> {{{", ".join(chr(34) + k + chr(34) for _, k in kids)}}};')
        stack.extend(reversed(kids))
    return lines


def ast_to_dot(ast: Ast, header: str = "") -> str:
    """DOT text of one tree.

    Args:
        ast: The tree.
        header: Extra DOT statements placed first (``rankdir=LR;``).

    Returns:
        ``digraph { ... }``.
    """
    lines = ["digraph {"] + ([header] if header else []) + _ast_lines(ast, "n0", [0]) + ["}"]
    return "\n".join(lines) + "\n"


def leaves_to_dot(
    leaves: Iterable[Ast], header: str = "", labels: Sequence[str] | None = None
) -> str:
    """Seed 002's ``leaves->graphviz``: every tree under a box holding its value.

    Args:
        leaves: The trees (a pool, or the trees of a solution).
        header: Extra DOT statements placed first.
        labels: Text for each box instead of the value (``"target 24"``).

    Returns:
        ``digraph { ... }``.
    """
    lines = ["digraph {"] + ([header] if header else [])
    ids = [0]
    for i, ast in enumerate(leaves):
        ans, root = f"ans{i}", f"n{ids[0]}"
        label = labels[i] if labels is not None else format_value(ast.value)
        lines.append(f'"{ans}" [shape=square,label="{dot_escape(label)}"];')
        lines.append(f'"{ans}" -> "{root}" [dir=back];')
        lines += _ast_lines(ast, root, ids)
        ids[0] += 1
    return "\n".join(lines + ["}"]) + "\n"


def solution_to_dot(targets: Sequence, strikes: Sequence[tuple[int, Ast]], header: str = "") -> str:
    """A whole solution: each striking tree under a box naming the target it strikes.

    Args:
        targets: The puzzle's target values (``puzzle.targets``).
        strikes: ``(target index, tree)`` pairs (``SolveResult.strikes``, ``State.struck``).
        header: Extra DOT statements placed first.

    Returns:
        ``digraph { ... }``.
    """
    labels = [f"target {format_value(targets[t])}" for t, _ in strikes]
    return leaves_to_dot([tree for _, tree in strikes], header, labels)
