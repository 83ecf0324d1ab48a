"""Puzzle generation in seed 002's shape: reduce random leaves with a random operator list.

The seed's functions keep their names and their algorithm (snake_case, with the random
source passed explicitly as a :class:`random.Random` so every puzzle is replayable from its
seed):

* :func:`rand` (``[min, max)``), :func:`luck_in`, :func:`isotropy_list`, :func:`rand_list`;
* :func:`rand_identity_pick` — selection sampling of ``n`` distinct elements in one pass,
  with the seed's second version's rejection ``test`` per element and ``retry`` rounds that
  pick the missing elements from the rest;
* :func:`rand_op` / :func:`rand_op_list` — an operator drawn by *weight* (the seed's "a
  distribution over operators"), rejected and drawn again when its difficulty *score* fails
  a test (the seed's "score the operators, then a rejection function");
* :func:`leaves_reduce` — pick ``arity`` trees, apply the card, put the new tree first;
* :func:`leaves_full_reduce` — fold an operator list over the leaves.

:func:`generate` adds the difficulty controls the seed asks for on top: a depth bound on
picks (the seed's "too deep" example), a minimum depth for every target tree ("too
shallow"), rejection of trivial leftovers (a number that no card touched would be a free
strike), of targets equal to a starting number, of fractions or negative values when the
puzzle forbids them, and a total operator score range. A draw that fails is thrown away and
the next one is drawn from the same random source, up to ``max_attempts``. The puzzle's
targets are the values of the resulting trees, so it is solvable by construction and the
trees are returned as its solution.

Two deliberate departures from the seed's code: a node's depth is one more than its
deepest child (the seed copies the deepest child's depth, so the depth never grows), and
the picked trees are shuffled before the card is applied (the seed keeps list order, which
would make new trees — consed to the front — always the left operand of ``−`` and ``÷``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TypeVar

from core.search import Watch

from .ast import Ast, Leaf, Node, make_node, postorder
from .cards import DEFAULT_CARDS, Card
from .expr import EvalError
from .normal import arithmetic_op
from .puzzle import MAX_CARDS, MAX_NUMBERS, MAX_TARGETS, Puzzle
from .values import MAX_INPUT, within

__all__ = [
    "DEFAULT_SCORES",
    "Generated",
    "GenerationFailed",
    "GeneratorConfig",
    "Rejected",
    "generate",
    "generate_hand",
    "isotropy_list",
    "leaves_full_reduce",
    "leaves_reduce",
    "luck_in",
    "rand",
    "rand_identity_pick",
    "rand_list",
    "rand_op",
    "rand_op_list",
]

T = TypeVar("T")

DEFAULT_SCORES: Mapping[str, int] = {
    "add": 1,
    "sub": 2,
    "mul": 2,
    "div": 3,
    "neg": 1,
    "square": 2,
    "split": 2,
    "poison": 2,
}
"""Difficulty score of each built-in card (a designer's judgement; unknown cards score 3)."""


class Rejected(ValueError):
    """A draw broke a rule of the generator (it is thrown away and drawn again)."""


class GenerationFailed(ValueError):
    """No acceptable puzzle was drawn within ``max_attempts``."""


def rand(rng: random.Random, low: int, high: int) -> int:
    """Seed 002's ``rand``: a random integer in ``[low, high)``."""
    return rng.randrange(low, high)


def luck_in(rng: random.Random, p: float = 0.5) -> bool:
    """Seed 002's ``luck-in``: True with probability ``p``."""
    return rng.random() < p


def isotropy_list(length: int, fn: Callable[..., T], *args) -> list[T]:
    """Seed 002's ``isotropy-list``: ``length`` independent calls of ``fn(*args)``."""
    return [fn(*args) for _ in range(length)]


def rand_list(rng: random.Random, length: int, low: int, high: int) -> list[int]:
    """Seed 002's ``rand-list``: ``length`` random integers in ``[low, high)``."""
    return isotropy_list(length, rand, rng, low, high)


def rand_identity_pick(
    rng: random.Random,
    items: Sequence[T],
    n: int,
    test: Callable[[T], bool] | None = None,
    retry: int = 3,
) -> tuple[list[T], list[T]]:
    """Seed 002's ``rand-identity-pick``: ``n`` distinct elements, chosen in one pass.

    Each element is taken with probability ``still needed / still left`` (selection
    sampling, so without a test exactly ``n`` are taken, uniformly) and only if it passes
    ``test``. When too few passed, up to ``retry`` more rounds pick the missing ones from the
    rest.

    Args:
        rng: The random source.
        items: The candidates (not modified).
        n: How many to pick.
        test: Rejection test for a single element (None accepts all).
        retry: Extra rounds allowed when too few were picked.

    Returns:
        ``(picked, rest)``, both in list order; ``picked`` may be short if the test
        rejected too many.
    """
    picked: list[T] = []
    rest = list(items)
    for _ in range(retry + 1):
        need = n - len(picked)
        if need <= 0 or not rest:
            break
        remaining, left = [], len(rest)
        for elem in rest:
            if need > 0 and luck_in(rng, need / left) and (test is None or test(elem)):
                picked.append(elem)
                need -= 1
            else:
                remaining.append(elem)
            left -= 1
        rest = remaining
    return picked, rest


def rand_op(
    rng: random.Random,
    op_set: Sequence[Card],
    weights: Sequence[float] | None = None,
    test: Callable[[Card], bool] | None = None,
    retry: int = 3,
) -> Card | None:
    """Seed 002's ``rand-op`` with a distribution and a rejection test.

    Args:
        rng: The random source.
        op_set: The cards to draw from.
        weights: Relative probability of each card (None: equal).
        test: Rejection test (e.g. on the card's difficulty score).
        retry: Extra draws allowed after a rejection.

    Returns:
        A card, or None when every draw was rejected.
    """
    for _ in range(retry + 1):
        card = rng.choices(list(op_set), weights=weights)[0]
        if test is None or test(card):
            return card
    return None


def rand_op_list(
    rng: random.Random,
    length: int,
    op_set: Sequence[Card],
    weights: Sequence[float] | None = None,
    test: Callable[[Card], bool] | None = None,
    retry: int = 3,
) -> list[Card]:
    """Seed 002's ``rand-op-list``: ``length`` cards from :func:`rand_op`.

    Raises:
        Rejected: When some draw was rejected ``retry + 1`` times.
    """
    out = isotropy_list(length, rand_op, rng, op_set, weights, test, retry)
    cards = [c for c in out if c is not None]
    if len(cards) < len(out):
        raise Rejected("every draw of an operator was rejected")
    return cards


def leaves_reduce(
    rng: random.Random,
    leaves: Sequence[Ast],
    card: Card,
    test: Callable[[Ast], bool] | None = None,
    retry: int = 3,
    accept: Callable[[Node], bool] | None = None,
) -> tuple[Ast, ...]:
    """Seed 002's ``leaves-reduce``: apply ``card`` to ``arity`` random trees of ``leaves``.

    Args:
        rng: The random source.
        leaves: The current trees.
        card: The card to apply.
        test: Rejection test on each picked tree (see :func:`rand_identity_pick`).
        retry: Pick retries.
        accept: Test on the new tree (its value: integer, sign, size...).

    Returns:
        The new tree followed by the trees not picked (as the seed's ``cons``).

    Raises:
        Rejected: Too few trees passed ``test``, the card cannot be applied (division by
            zero) or ``accept`` refused the result.
    """
    picked, rest = rand_identity_pick(rng, leaves, card.arity, test, retry)
    if len(picked) < card.arity:
        raise Rejected(f"could not pick {card.arity} trees for {card.name}")
    rng.shuffle(picked)
    try:
        node = make_node(card, tuple(picked))
    except EvalError as error:
        raise Rejected(str(error)) from None
    if accept is not None and not accept(node):
        raise Rejected("result refused")
    return (node,) + tuple(rest)


def leaves_full_reduce(
    rng: random.Random,
    leaves: Sequence[Ast],
    op_list: Sequence[Card],
    test: Callable[[Ast], bool] | None = None,
    retry: int = 3,
    accept: Callable[[Node], bool] | None = None,
) -> tuple[Ast, ...]:
    """Seed 002's ``leaves-full-reduce``: :func:`leaves_reduce` with each card in turn.

    Returns:
        The trees left at the end.

    Raises:
        Rejected: As :func:`leaves_reduce`.
    """
    trees = tuple(leaves)
    for card in op_list:
        trees = leaves_reduce(rng, trees, card, test, retry, accept)
    return trees


@dataclass(frozen=True)
class GeneratorConfig:
    """The knobs of :func:`generate` (all bounds inclusive).

    Attributes:
        numbers: How many numbers (leaves) to draw.
        low: Smallest number.
        high: Largest number.
        cards: The operator set to draw cards from.
        weights: Relative probability of each card of ``cards`` (None: equal).
        scores: Difficulty score per card name (see :data:`DEFAULT_SCORES`).
        max_card_score: Cards scoring above this are rejected by :func:`rand_op`.
        score_range: Accepted total score of the drawn cards (None: any).
        ops: Length of the operator list.
        max_depth: No tree deeper than this ("too deep"); None: no bound.
        min_depth: Every target tree at least this deep ("too shallow").
        retry: Retries of a pick or an operator draw.
        integer_only: Reject fractions (and make an integer-only puzzle).
        nonnegative: Reject negative results.
        max_target: Largest target magnitude.
        min_target: Smallest target magnitude (1 keeps a monster of value 0 out).
        spare_cards: Extra cards dealt that the generated solution does not use.
        max_attempts: Draws before giving up.
        reject_neutral: Reject ``× 1``, ``÷ 1``, ``+ 0``, ``− 0`` (a card that does nothing).
    """

    numbers: int = 6
    """How many numbers to draw."""
    low: int = 1
    """Smallest number."""
    high: int = 10
    """Largest number."""
    cards: tuple[Card, ...] = DEFAULT_CARDS
    """The operator set."""
    weights: tuple[float, ...] | None = None
    """Relative probability of each card."""
    scores: Mapping[str, int] = field(default_factory=lambda: dict(DEFAULT_SCORES))
    """Difficulty score per card name."""
    max_card_score: int | None = None
    """Cards scoring above this are redrawn."""
    score_range: tuple[int, int] | None = None
    """Accepted total score of the drawn cards."""
    ops: int = 4
    """Length of the operator list."""
    max_depth: int | None = 3
    """No tree deeper than this."""
    min_depth: int = 2
    """Every target tree at least this deep."""
    retry: int = 3
    """Retries of a pick or operator draw."""
    integer_only: bool = True
    """Reject fractions."""
    nonnegative: bool = True
    """Reject negative results."""
    max_target: int = 999
    """Largest target magnitude."""
    min_target: int = 0
    """Smallest target magnitude."""
    spare_cards: int = 0
    """Extra cards not used by the solution."""
    max_attempts: int = 5000
    """Draws before giving up (a draw is cheap: tens of microseconds)."""
    reject_neutral: bool = True
    """Reject cards that leave a value unchanged (× 1, ÷ 1, + 0, − 0)."""

    def __post_init__(self) -> None:
        if not 1 <= self.numbers <= MAX_NUMBERS:
            raise ValueError(f"numbers must be 1 to {MAX_NUMBERS}")
        if not -MAX_INPUT <= self.low <= self.high <= MAX_INPUT:
            raise ValueError("need low <= high within the puzzle bounds")
        if not self.cards or (self.weights is not None and len(self.weights) != len(self.cards)):
            raise ValueError("one weight per card, and at least one card")
        if not self.ops >= 1 or self.ops + self.spare_cards > MAX_CARDS:
            raise ValueError(f"1 to {MAX_CARDS} cards in all")
        if not 1 <= self.max_attempts <= 100_000 or not 0 <= self.retry <= 20:
            raise ValueError("max_attempts must be 1 to 100,000 and retry 0 to 20")

    def score(self, card: Card) -> int:
        """The difficulty score of a card."""
        return self.scores.get(card.name, 3)


@dataclass(frozen=True)
class Generated:
    """A generated puzzle with the solution it was built from.

    Attributes:
        puzzle: The puzzle.
        solution: One tree per target, in target order.
        seed: The seed it was generated from.
        attempts: Draws it took (rejected ones included).
        score: Total difficulty score of the cards the solution uses.
        predicted_seconds: Predicted human solve time (hands from :func:`generate_hand`).
    """

    puzzle: Puzzle
    """The puzzle."""
    solution: tuple[Ast, ...]
    """One tree per target."""
    seed: int
    """The seed."""
    attempts: int
    """Draws it took."""
    score: int
    """Total card score of the solution."""
    predicted_seconds: float | None = None
    """Predicted human solve time, when known."""


def _accept(config: GeneratorConfig) -> Callable[[Node], bool]:
    def accept(node: Node) -> bool:
        v = node.value
        if config.integer_only and v.denominator != 1:
            return False
        if config.nonnegative and v < 0:
            return False
        if config.reject_neutral and _neutral(node):
            return False
        return within(v, MAX_INPUT)

    return accept


def _neutral(node: Node) -> bool:
    """True for ``x × 1``, ``1 × x``, ``x ÷ 1``, ``x + 0``, ``0 + x`` and ``x − 0``."""
    op = arithmetic_op(node.card)
    left, right = (c.value for c in node.children) if op else (None, None)
    return (
        (op == "*" and 1 in (left, right))
        or (op == "/" and right == 1)
        or (op == "+" and 0 in (left, right))
        or (op == "-" and right == 0)
    )


def _draw(
    rng: random.Random, config: GeneratorConfig
) -> tuple[tuple[int, ...], list[Card], tuple[Ast, ...]]:
    """One draw: numbers, operator list and the reduced trees (or Rejected)."""
    numbers = rand_list(rng, config.numbers, config.low, config.high + 1)
    card_test = None
    if config.max_card_score is not None:
        card_test = lambda c: config.score(c) <= config.max_card_score  # noqa: E731
    ops = rand_op_list(rng, config.ops, config.cards, config.weights, card_test, config.retry)
    if config.score_range is not None:
        lo, hi = config.score_range
        if not lo <= sum(config.score(c) for c in ops) <= hi:
            raise Rejected("total score out of range")
    depth_test = None
    if config.max_depth is not None:
        depth_test = lambda t: t.depth < config.max_depth  # noqa: E731
    leaves = tuple(Leaf(Fraction(n)) for n in numbers)
    trees = leaves_full_reduce(rng, leaves, ops, depth_test, config.retry, _accept(config))
    return tuple(numbers), ops, trees


def _check_trees(trees: tuple[Ast, ...], numbers: tuple[int, ...], config: GeneratorConfig) -> None:
    if any(t.depth < max(config.min_depth, 1) for t in trees):
        raise Rejected("a target tree is too shallow (or a number was left untouched)")
    if len(trees) > MAX_TARGETS:
        raise Rejected("too many targets")
    for t in trees:
        if not config.min_target <= abs(t.value) <= config.max_target or t.value in numbers:
            raise Rejected("target out of range or equal to a starting number")


def generate(config: GeneratorConfig = GeneratorConfig(), seed: int = 0) -> Generated:
    """Generate a puzzle (replayable: the same config and seed give the same puzzle).

    Args:
        config: The knobs.
        seed: The seed of the random source.

    Returns:
        The puzzle and its solution.

    Raises:
        GenerationFailed: When ``max_attempts`` draws were all rejected.
    """
    rng = random.Random(seed)
    for attempt in range(1, config.max_attempts + 1):
        try:
            numbers, ops, trees = _draw(rng, config)
            _check_trees(trees, numbers, config)
        except Rejected:
            continue
        spare = (
            rand_op_list(rng, config.spare_cards, config.cards, config.weights)
            if config.spare_cards
            else []
        )
        order = {c: i for i, c in enumerate(config.cards)}
        hand = tuple(sorted(ops + spare, key=lambda c: order[c]))
        puzzle = Puzzle.of(
            numbers, tuple(t.value for t in trees), hand, integer_only=config.integer_only
        )
        score = sum(
            config.score(a.card) for t in trees for a in postorder(t) if isinstance(a, Node)
        )
        return Generated(puzzle, trees, seed, attempt, score)
    raise GenerationFailed(
        f"no acceptable puzzle in {config.max_attempts} draws; loosen the bounds"
    )


def generate_hand(
    band: tuple[float, float],
    seed: int = 0,
    *,
    size: int = 4,
    low: int = 1,
    high: int = 13,
    target: int = 24,
    max_attempts: int = 2000,
    watch: Watch | None = None,
) -> Generated:
    """A 24-game hand whose predicted human solve time lies in ``band``.

    Draws hands of ``size`` numbers from ``low..high`` (the seed's :func:`rand_list`), keeps
    the solvable ones and accepts the first whose time predicted by
    :func:`core.algebrawl.difficulty.predict_seconds` falls in the band. The puzzle deals
    ``size − 1`` copies of each of ``+ − × ÷`` and must use every number (``use_all``), which
    is exactly the 24 game.

    Args:
        band: ``(fewest, most)`` predicted seconds, e.g. ``(5, 15)`` easy, ``(40, 300)`` hard.
        seed: Seed of the random source.
        size: Numbers per hand.
        low: Smallest number.
        high: Largest number.
        target: The value to make.
        max_attempts: Hands drawn before giving up.
        watch: Bounds the draws: a unit per hand drawn, and the solver's and the
            predictor's combinations (:func:`.hands.metered`).

    Returns:
        The puzzle, one solution and its predicted time.

    Raises:
        GenerationFailed: When no hand in the band was drawn.
        Interrupted: When ``watch`` runs out.
    """
    from .difficulty import predict_seconds
    from .hands import metered, solvable24, solve24

    if not 2 <= size <= 6 or 4 * (size - 1) > MAX_CARDS:
        raise ValueError("a hand has 2 to 6 numbers")
    rng = random.Random(seed)
    for attempt in range(1, max_attempts + 1):
        if watch is not None:
            watch.spend(1)
        hand = tuple(sorted(rand_list(rng, size, low, high + 1)))
        with metered(watch) if watch is not None else nullcontext():
            if not solvable24(hand, target):
                continue
            seconds = predict_seconds(hand, target, watch=watch)
        if band[0] <= seconds <= band[1]:
            cards = tuple(c for c in DEFAULT_CARDS for _ in range(size - 1))
            puzzle = Puzzle.of(hand, (target,), cards, use_all=True)
            tree = solve24(hand, target)
            assert tree is not None
            score = sum(DEFAULT_SCORES[a.card.name] for a in postorder(tree) if isinstance(a, Node))
            return Generated(puzzle, (tree,), seed, attempt, score, seconds)
    raise GenerationFailed(f"no hand predicted at {band[0]}-{band[1]} s in {max_attempts} draws")
