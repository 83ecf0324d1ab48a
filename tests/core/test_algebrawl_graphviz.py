"""Graphviz text for trees and solutions (seed 002's ast-format and leaves->graphviz)."""

from __future__ import annotations

import re
import shutil
import subprocess
from fractions import Fraction as F

import pytest

from core.algebrawl import ADD, MUL, SPLIT, Leaf, Puzzle, make_node, solve
from core.algebrawl.graphviz import ast_to_dot, dot_escape, leaves_to_dot, solution_to_dot


def tree():
    a = make_node(ADD, (Leaf(F(1)), Leaf(F(3))))
    b = make_node(ADD, (Leaf(F(2)), Leaf(F(4))))
    return make_node(MUL, (a, b))  # (1 + 3) × (2 + 4)


def statements(dot: str):
    nodes = re.findall(r'^"(\w+)" \[shape=(\w+),label="([^"]*)"\];$', dot, re.M)
    edges = re.findall(r'^"(\w+)" -> \{(.*)\};$', dot, re.M)
    return nodes, [(a, re.findall(r'"(\w+)"', b)) for a, b in edges]


def test_one_tree():
    dot = ast_to_dot(tree())
    assert dot.startswith("digraph {\n") and dot.endswith("}\n")
    nodes, edges = statements(dot)
    assert sorted(label for _, shape, label in nodes if shape == "circle") == ["1", "2", "3", "4"]
    assert sorted(label for _, shape, label in nodes if shape == "doublecircle") == ["+", "+", "×"]
    assert len({n for n, _, _ in nodes}) == 7  # every node has its own id
    labels = {n: label for n, _, label in nodes}
    root = next(kids for parent, kids in edges if labels[parent] == "×")
    assert [labels[k] for k in root] == ["+", "+"]
    left = next(kids for parent, kids in edges if parent == root[0])
    assert [labels[k] for k in left] == ["1", "3"]  # argument order is kept
    assert ast_to_dot(tree()) == dot  # deterministic ids


def test_leaves_with_value_boxes():
    half = make_node(SPLIT, (Leaf(F(7)),))
    dot = leaves_to_dot([tree(), half, Leaf(F(5))], header="rankdir=TB;")
    assert "rankdir=TB;" in dot.splitlines()[1]
    boxes = re.findall(r'^"(ans\d+)" \[shape=square,label="([^"]*)"\];$', dot, re.M)
    assert [label for _, label in boxes] == ["24", "7/2", "5"]
    backs = re.findall(r'^"(ans\d+)" -> "(\w+)" \[dir=back\];$', dot, re.M)
    assert len(backs) == 3
    nodes, _ = statements(dot)
    ids = [n for n, shape, _ in nodes if shape != "square"]
    assert len(ids) == len(set(ids)) == 7 + 2 + 1
    assert len({n for n, _, _ in nodes}) == len(nodes) == 13  # boxes have their own ids
    assert {b[1] for b in backs} <= set(ids)
    assert 'label="split"' in dot
    labelled = leaves_to_dot([Leaf(F(3))], labels=['target "3"'])
    assert 'label="target \\"3\\""' in labelled


def test_solution():
    puzzle = Puzzle.of([3, 4, 5, 6], [35, 6])
    dot = solution_to_dot(puzzle.targets, solve(puzzle).strikes)
    boxes = re.findall(r'shape=square,label="([^"]*)"', dot)
    assert boxes == ["target 35", "target 6"]


def test_escape():
    assert dot_escape('a"b\\c\nd') == 'a\\"b\\\\c\\nd'


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz not installed")
def test_dot_accepts_the_text():
    out = subprocess.run(
        ["dot", "-Tsvg"], input=leaves_to_dot([tree()]), text=True, capture_output=True, timeout=30
    )
    assert out.returncode == 0 and "<svg" in out.stdout
