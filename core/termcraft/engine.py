"""TermCraft moves and outcome: rewrite actions, constructs, win and loss (seed 000 §2-3).

* A **site** is every position holding a ground subterm, the root included, and positions
  inside rules and axioms included (faithful to the original ``FindValidRewrites``).
* A **rewrite action** exists for (rule, site, substitution) when some member of the site's
  equivalence class matches the rule's LHS syntactically.  Substitutions are de-duplicated
  per (rule, site).  Applying one replaces the site by the instantiated RHS and costs 1 fuel;
  there are none when fuel is 0.
* A **construct** replaces a ``placeholder`` constant by a ground term whose Size (node count)
  is at most the remaining budget, and costs that Size.
* **Win**: the current term is the target.  **Loss**: not won and no valid action left (no
  rewrite action, and no placeholder or no budget).  Win is checked first.

Rewrite actions come in three forms (see :mod:`.actions` for how they are found):
:func:`count_rewrite_actions` counts them without listing them, :func:`iter_rewrite_actions`
lists them lazily (memory bounded by the term, whatever their number) and
:func:`rewrite_actions` materialises them (small states: the TUI's list, tests).  All take a
:class:`core.search.Watch` for time limits, cancellation and progress.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from itertools import islice

from core.search import NO_WATCH, Watch
from core.termcraft.links import Link, distinct_subterms, marked_below, marked_positions, path_of
from core.termcraft.terms import CONST, Path, Term, lookup, match, replace_at, subterm_at, to_str

from .actions import moves_of
from .analysis import PLACEHOLDER, TermCache, analyze
from .state import Action, ConstructAction, IllegalMove, RewriteAction, State

__all__ = [
    "apply",
    "can_construct",
    "construct",
    "count_rewrite_actions",
    "ground_sites",
    "has_rewrite_action",
    "iter_rewrite_actions",
    "loss_reason",
    "nth_rewrite_action",
    "placeholder_sites",
    "result_of",
    "rewrite_actions",
    "size",
    "status",
    "term_rewrite_actions",
]

REWRITE_FUEL = 1
"""Fuel one rewrite costs (seed 000 §2.3)."""


def size(term: Term) -> int:
    """Size of a term: its number of nodes (seed 000 §3.4).

    Args:
        term: Any term.

    Returns:
        1 for a constant or variable, 1 + the children's sizes for a compound.
    """
    return term.size


@lru_cache(maxsize=64)
def placeholder_sites(term: Term) -> tuple[Path, ...]:
    """Paths of every constant named exactly ``placeholder`` (pre-order).

    ``placeholder()`` (a compound) and ``var(placeholder)`` (a variable) are not sites.

    Args:
        term: The current term.

    Returns:
        The construct sites.
    """
    mark = lookup(CONST, PLACEHOLDER, ())
    if mark is None:  # hash-consing: no live term anywhere holds a placeholder
        return ()
    marks = marked_below(distinct_subterms(term), lambda t: t is mark)
    return tuple(path for path, _, _ in marked_positions(term, marks))


def ground_sites(term: Term) -> tuple[tuple[Path, Term], ...]:
    """Every position holding a ground subterm, with that subterm (pre-order, root first).

    Args:
        term: The current term.

    Returns:
        ``(path, subterm)`` pairs.
    """
    out: list[tuple[Path, Term]] = []
    stack: list[tuple[Link, Term]] = [(None, term)]
    while stack:
        link, t = stack.pop()
        if t.ground:
            out.append((path_of(link), t))
        args = t.args
        for i in range(len(args) - 1, -1, -1):
            stack.append(((link, i), args[i]))
    return tuple(out)


_ALL: TermCache[tuple[RewriteAction, ...]] = TermCache(64, 500_000)


def term_rewrite_actions(term: Term) -> tuple[RewriteAction, ...]:
    """Every rewrite action of ``term`` assuming fuel is left (cached per term).

    Materialises them all: for a term that may have millions of actions use
    :func:`iter_rewrite_actions` or :func:`count_rewrite_actions`.

    Args:
        term: The current term.

    Returns:
        Actions ordered by rule (pre-order), site (pre-order), then substitution (by text).
    """
    return _ALL.cached(term, lambda: moves_of(term).all(), lambda acts: len(acts) + 1)


def rewrite_actions(state: State) -> tuple[RewriteAction, ...]:
    """The rewrite actions available in ``state`` (none when fuel is 0), materialised.

    Args:
        state: The game state.

    Returns:
        Actions ordered by rule, site, then substitution.
    """
    if state.fuel <= 0:
        return ()
    return term_rewrite_actions(state.term)


def iter_rewrite_actions(
    state: State, start: int = 0, watch: Watch = NO_WATCH, cache: bool = True
) -> Iterator[RewriteAction]:
    """The rewrite actions of ``state`` in engine order, lazily (none when fuel is 0).

    The same actions in the same order as :func:`rewrite_actions`, produced one at a time:
    memory stays bounded by the term however many there are, and stopping early stops the
    work.  The term is analysed when the iteration starts (not when this is called).

    Args:
        state: The game state.
        start: Skip this many actions first (counted per rule and site, not listed), e.g.
            to show a page of a long list.
        watch: Polled throughout, between actions too (raises
            :class:`core.search.Interrupted` on a time limit or a cancel).
        cache: Keep the term's analysis for later calls.

    Yields:
        Rewrite actions.
    """
    if state.fuel <= 0:
        return
    yield from moves_of(state.term, watch, cache).iterate(start, watch)


def count_rewrite_actions(state: State, watch: Watch = NO_WATCH) -> int:
    """How many rewrite actions ``state`` has (0 when fuel is 0), without listing them.

    Near-linear in the term plus the matching work per class, whatever the count.

    Args:
        state: The game state.
        watch: Polled throughout.

    Returns:
        ``len(rewrite_actions(state))``.
    """
    if state.fuel <= 0:
        return 0
    return moves_of(state.term, watch).count(watch)


def nth_rewrite_action(state: State, n: int, watch: Watch = NO_WATCH) -> RewriteAction:
    """The ``n``-th (0-based) rewrite action of ``state`` in engine order.

    Args:
        state: The game state.
        n: The index.
        watch: Polled throughout.

    Returns:
        ``rewrite_actions(state)[n]``, found without listing the actions before it.

    Raises:
        IndexError: When there is no such action.
    """
    if n >= 0:
        for action in islice(iter_rewrite_actions(state, n, watch), 1):
            return action
    raise IndexError(f"there is no rewrite action {n}")


def has_rewrite_action(state: State, watch: Watch = NO_WATCH) -> bool:
    """Whether ``state`` has any rewrite action (cheaper than counting or listing).

    Args:
        state: The game state.
        watch: Polled throughout.

    Returns:
        True when fuel is left and some rule matches somewhere.
    """
    return state.fuel > 0 and moves_of(state.term, watch).any(watch)


def is_available(state: State, action: RewriteAction) -> bool:
    """Whether ``action`` is one of the rewrite actions of ``state`` (fuel not considered).

    Checked directly (the rule is a valid rule of the term, the site holds a ground subterm
    equivalent to the matched member, which the rule's LHS matches under exactly that
    substitution), in time linear in the site's depth, not in the number of actions.

    Args:
        state: The game state.
        action: A rewrite action.

    Returns:
        True when playing it is legal apart from fuel and the win.
    """
    an = analyze(state.term)
    if action.rule not in an.rules:
        return False
    try:
        here = subterm_at(state.term, tuple(action.site))
    except (IndexError, TypeError):
        return False
    if not here.ground or not an.closure.same(here, action.matched):
        return False
    sigma = match(action.rule.lhs, action.matched)
    return sigma is not None and tuple(sorted(sigma.items())) == tuple(action.sigma)


def can_construct(state: State) -> bool:
    """True when some construct is possible: a placeholder exists and budget is left.

    (Any constant has Size 1, so budget >= 1 always allows one.)
    """
    return state.budget > 0 and bool(placeholder_sites(state.term))


def ensure_not_won(state: State) -> None:
    """Refuse any move once the level is won: the win ends the game (seed 000 §2.4).

    Args:
        state: The game state.

    Raises:
        IllegalMove: When the current term already equals the target.
    """
    if state.term is state.target:
        raise IllegalMove("the level is already won")


def _check_construct(state: State, site: Path, new: Term) -> None:
    ensure_not_won(state)
    try:
        here = subterm_at(state.term, site)
    except (IndexError, TypeError):
        raise IllegalMove(f"there is no position {'/'.join(map(str, site))} in the term") from None
    if here.kind != CONST or here.name != PLACEHOLDER:
        raise IllegalMove("only a placeholder constant can be replaced by a construct")
    if not isinstance(new, Term):
        raise IllegalMove("a construct needs a term")
    if not new.ground:
        raise IllegalMove(f"the new term must be ground, but {to_str(new)[:60]} has variables")
    if new.size > state.budget:
        raise IllegalMove(
            f"the new term has Size {new.size} but only {state.budget} budget is left"
        )


def construct(state: State, site: Path, new: Term) -> State:
    """Replace the placeholder at ``site`` by ``new``, paying its Size from the budget.

    Args:
        state: The game state.
        site: Path of a ``placeholder`` constant.
        new: A ground term with Size <= the remaining budget.

    Returns:
        The next state.

    Raises:
        IllegalMove: When the level is already won, ``site`` is not a placeholder, ``new``
            is not ground or costs more than the remaining budget.
    """
    _check_construct(state, tuple(site), new)
    return next_state(state, ConstructAction(tuple(site), new))


def next_state(state: State, action: Action) -> State:
    """The state after ``action``, which the caller knows to be legal (nothing is checked).

    The one place that says what a move does to term, fuel and budget; :func:`apply` and
    :func:`construct` call it after their checks, the solver calls it directly on moves it
    generated itself (its hot loop).

    Args:
        state: The game state.
        action: A legal rewrite or construct action.

    Returns:
        The next state.
    """
    if isinstance(action, ConstructAction):
        return State(
            replace_at(state.term, action.site, action.term),
            state.target,
            state.fuel,
            state.budget - action.term.size,
        )
    return State(
        replace_at(state.term, action.site, action.replacement),
        state.target,
        state.fuel - REWRITE_FUEL,
        state.budget,
    )


def result_of(state: State, action: Action) -> Term:
    """The term an action would produce (a preview; the action is not validated).

    Args:
        state: The game state.
        action: A rewrite or construct action.

    Returns:
        The resulting current term.
    """
    if isinstance(action, RewriteAction):
        return replace_at(state.term, action.site, action.replacement)
    return replace_at(state.term, action.site, action.term)


def apply(state: State, action: Action) -> State:
    """Play ``action`` (rewrite: 1 fuel; construct: Size of the new term from the budget).

    Args:
        state: The game state.
        action: A rewrite action from :func:`rewrite_actions` or a construct action.

    Returns:
        The next state.

    Raises:
        IllegalMove: When the action is not legal in ``state`` (including once it is won).
    """
    if isinstance(action, ConstructAction):
        return construct(state, action.site, action.term)
    if not isinstance(action, RewriteAction) or not isinstance(action.sigma, tuple):
        raise IllegalMove("unknown action")
    ensure_not_won(state)
    if state.fuel <= 0:
        raise IllegalMove("no fuel left: rewrites are not possible")
    if not is_available(state, action):
        raise IllegalMove(f"the rewrite {action} is not available in this position")
    return next_state(state, action)


def status(state: State) -> str:
    """Whether the state is ``"won"``, ``"lost"`` or ``"playing"`` (win checked first).

    Args:
        state: The game state.

    Returns:
        ``"won"`` when the term is the target, ``"lost"`` when no valid action is left,
        otherwise ``"playing"``.
    """
    if state.term is state.target:
        return "won"
    if can_construct(state) or has_rewrite_action(state):
        return "playing"
    return "lost"


def loss_reason(state: State) -> str | None:
    """Why the state is lost, for the failure message (None when not lost).

    Args:
        state: The game state.

    Returns:
        A sentence, or None.
    """
    if status(state) != "lost":
        return None
    if state.fuel <= 0:
        why = "fuel is exhausted"
    elif not analyze(state.term).rules:
        why = "there is no valid rewrite rule"
    else:
        why = "no rule matches anywhere"
    if not placeholder_sites(state.term):
        how = "there is no placeholder to construct"
    elif state.budget <= 0:
        how = "the budget is spent"
    else:  # pragma: no cover - can_construct would be true
        how = "nothing can be constructed"
    return f"No valid action left: {why} and {how}."
