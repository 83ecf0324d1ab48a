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

Matching is done once per (rule, equivalence class): candidates are looked up by head
``(kind, name, arity)``, so a rule only meets terms that can match it, and the tree is then
walked once to turn matched classes into site paths (skipping subtrees with no match).
"""

from __future__ import annotations

from functools import lru_cache
from operator import itemgetter
from typing import Optional, Sequence

from core.terms import CONST, VAR, Path, Term, match, replace_at, subterm_at, to_str

from .analysis import PLACEHOLDER, analyze
from .links import Link, path_of
from .state import Action, ConstructAction, IllegalMove, RewriteAction, State, Substitution

__all__ = [
    "rewrite_actions",
    "term_rewrite_actions",
    "placeholder_sites",
    "ground_sites",
    "result_of",
    "apply",
    "construct",
    "can_construct",
    "status",
    "loss_reason",
    "size",
]

_first = itemgetter(0)

REWRITE_FUEL = 1
"""Fuel one rewrite costs (seed 000 §2.3)."""


def _sigma_text(item: tuple) -> tuple:
    return tuple((name, to_str(t)) for name, t in item[0])


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
    out: list[Path] = []
    stack: list[tuple[Link, Term]] = [(None, term)]
    while stack:
        link, t = stack.pop()
        if t.kind == CONST:
            if t.name == PLACEHOLDER:
                out.append(path_of(link))
            continue
        args = t.args
        for i in range(len(args) - 1, -1, -1):
            stack.append(((link, i), args[i]))
    return tuple(out)


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


def _heads(terms: list[Term], lhss: list[Term]) -> dict[tuple[int, str, int], list[int]]:
    """Dense indices of the terms with each compound head ``(kind, name, arity)`` of ``lhss``.

    Only the heads some pattern needs are indexed (one pass over the universe, a dict
    probe per term), instead of grouping every term by its head.
    """
    by_name: dict[str, list[int]] = {p.name: [] for p in lhss}
    get = by_name.get
    for i, t in enumerate(terms):
        lst = get(t.name)
        if lst is not None:
            lst.append(i)
    heads: dict[tuple[int, str, int], list[int]] = {}
    for p in lhss:
        key = (p.kind, p.name, len(p.args))
        if key not in heads:
            kind, n = p.kind, len(p.args)
            heads[key] = [i for i in by_name[p.name]
                          if terms[i].kind == kind and len(terms[i].args) == n]
    return heads


_EAGER_DEPTH = 32
"""Paths of non-site positions are built eagerly down to this depth (then from links)."""

_new_tuple = tuple.__new__  # RewriteAction(...) without the NamedTuple constructor's call


@lru_cache(maxsize=64)
def _term_actions(term: Term) -> tuple[RewriteAction, ...]:
    an = analyze(term)
    cc = an.closure
    if not an.rules or not len(cc):
        return ()
    terms = cc.terms
    roots = cc.root_indices()
    heads = _heads(terms, [r.lhs for r in an.rules if r.lhs.kind != VAR and not r.lhs.ground])
    every = range(len(terms))
    # 1. Match each distinct LHS once per class member that can match it: candidates share
    #    the LHS's head (kind, name, arity) and, for every ground argument of the LHS, have
    #    that very term (hash-consed) at that argument position.
    # by_class: class root -> [(substitution, matched member)], once per distinct LHS.
    per_lhs: dict[int, dict[int, list[tuple[Substitution, Term]]]] = {}
    per_rule: list[dict[int, list[tuple[Substitution, Term]]]] = []
    matched_roots: set[int] = set()
    index = cc.index_map
    for rule in an.rules:
        lhs = rule.lhs
        by_class = per_lhs.get(lhs.id)
        if by_class is None:
            if lhs.kind == VAR:
                candidates: Sequence[int] = every
            elif lhs.ground:  # a ground pattern matches only itself
                candidates = (index[lhs.id],) if lhs.id in index else ()
            else:
                candidates = heads[(lhs.kind, lhs.name, len(lhs.args))]
                for j, arg in enumerate(lhs.args):
                    if not arg.ground or len(candidates) < 8:
                        continue
                    if arg.id not in index:  # that argument occurs nowhere: nothing matches
                        candidates = ()
                        break
                    users = cc.parents(arg)
                    if len(users) < len(candidates):
                        # Hash-consing: "arg is the j-th child" is an identity test.
                        name, n = lhs.name, len(lhs.args)
                        candidates = sorted({i for i in users if len(terms[i].args) == n
                                             and terms[i].args[j] is arg
                                             and terms[i].name == name})
                # A compound argument with variables (h(var(X), f(var(Y)))): keep only the
                # candidates with that argument's head there, before the general matcher.
                for j, p in enumerate(lhs.args):
                    if p.kind != VAR and not p.ground:
                        name, n = p.name, len(p.args)
                        candidates = [i for i in candidates if terms[i].args[j].name == name
                                      and len(terms[i].args[j].args) == n
                                      and terms[i].args[j].kind == p.kind]
            by_class = {}
            # f(var(X), var(Y), var(X)...): all arguments are variables, so a candidate (of
            # the right head) matches iff the arguments under a repeated variable are the
            # same term (hash-consed: identity), and the substitution is read off the
            # arguments (no general matching needed).
            names = [a.name for a in lhs.args] if lhs.args and all(
                a.kind == VAR for a in lhs.args) else None
            if names is not None:
                first: dict[str, int] = {}
                for j, name in enumerate(names):
                    first.setdefault(name, j)
                arg_order = [first[name] for name in sorted(first)]  # sigma sorted by name
                var_names = sorted(first)
                repeats = [(j, first[name]) for j, name in enumerate(names) if first[name] != j]
                # One variable (f(var(X)), g(var(X),var(X))): build its key directly.
                one = (var_names[0], arg_order[0]) if len(var_names) == 1 else None
            for i in candidates:
                t = terms[i]
                if names is not None:
                    args = t.args
                    if repeats and any(args[j] is not args[f] for j, f in repeats):
                        continue
                    if one is not None:
                        key = ((one[0], args[one[1]]),)
                    else:
                        key = tuple(zip(var_names, [args[j] for j in arg_order]))
                else:
                    sigma = match(lhs, t)
                    if sigma is None:
                        continue
                    key = tuple(sorted(sigma.items(), key=_first))
                subs = by_class.get(roots[i])
                if subs is None:
                    by_class[roots[i]] = {key: t}
                elif key not in subs:
                    subs[key] = t
            for root, subs in by_class.items():
                if len(subs) > 1:  # several substitutions: order them by text, not by id
                    by_class[root] = sorted(subs.items(), key=_sigma_text)
                else:
                    by_class[root] = list(subs.items())
            per_lhs[lhs.id] = by_class
        per_rule.append(by_class)
        matched_roots.update(by_class)
    if not matched_roots:
        return ()
    # 2. Which distinct subterms contain a matched class somewhere (children come first in
    #    the closure's order, so one pass suffices); the tree walk skips the others.
    #    mark: term id -> its class root when the class matched, else -1 (something below
    #    matched); absent: nothing in the subtree matched.  Keyed by term id so the walk
    #    needs no dense-index lookup.
    mark: dict[int, int] = {}
    for t, r in zip(terms, roots):
        if r in matched_roots:
            mark[t.id] = r
        else:
            for a in t.args:
                if a.id in mark:
                    mark[t.id] = -1
                    break
    # 3. Sites (pre-order paths) whose class matched some rule, grouped by class.  A stack
    #    entry carries the parent's path when the parent was a site (its path is built
    #    anyway), so a nested site's path is one C-level tuple concatenation instead of a
    #    walk up the links.
    paths: list[Path] = []      # every site's path, in pre-order: the index is its order
    site_root: list[int] = []   # every site's class root, same order
    sites: dict[int, list[int]] = {}  # class root -> the orders of its sites, ascending
    top = mark.get(term.id) if term.ground else -1
    # Stack entries (parent link, child index, subterm, class root or -1, parent's path or
    # None) are themselves the links (one tuple per node instead of two); the root's entry
    # stands for the link None.
    stack: list[tuple] = [] if top is None else [(None, None, term, top, None)]
    push, pop = stack.append, stack.pop
    while stack:
        entry = pop()
        _, j, t, root, path = entry
        link = entry if j is not None else None
        # This position's path: () at the root; from the parent's path (one C-level tuple
        # concatenation) when the parent's is known and this is a site or shallow (bounded
        # cost, so a 100,000-deep term stays linear); else from the links, for sites only.
        if j is None:
            path = ()
        elif path is not None and (root >= 0 or len(path) < _EAGER_DEPTH):
            path += (j,)
        elif root >= 0:
            path = path_of(link)
        else:
            path = None
        if root >= 0:  # a ground position whose class matched: a site
            lst = sites.get(root)
            if lst is None:
                sites[root] = [len(paths)]
            else:
                lst.append(len(paths))
            paths.append(path)
            site_root.append(root)
        args = t.args
        for j in range(len(args) - 1, -1, -1):
            a = args[j]
            if a.ground:
                r = mark.get(a.id)
                if r is not None:  # skip subtrees without a match
                    push((link, j, a, r, path))
            else:
                push((link, j, a, -1, None))  # never a site, but may hold ground sites
    # 4. Actions: rule order, then site pre-order, then substitution (by text when several).
    actions: list[RewriteAction] = []
    append = actions.append
    for rule, by_class in zip(an.rules, per_rule):
        if not by_class:
            continue
        if len(by_class) == 1:  # one class: its sites are already in pre-order
            for root, subs in by_class.items():
                for o in sites[root]:
                    site = paths[o]
                    for s, m in subs:
                        append(_new_tuple(RewriteAction, (rule, site, s, m)))
            continue
        # Several classes: merge their sites back into pre-order (orders are plain ints).
        for o in sorted([o for root in by_class for o in sites[root]]):
            site = paths[o]
            for s, m in by_class[site_root[o]]:
                append(_new_tuple(RewriteAction, (rule, site, s, m)))
    return tuple(actions)


@lru_cache(maxsize=16)
def _action_set(term: Term) -> frozenset:
    return frozenset(_term_actions(term))


def term_rewrite_actions(term: Term) -> tuple[RewriteAction, ...]:
    """Every rewrite action of ``term`` assuming fuel is left (cached per term).

    Args:
        term: The current term.

    Returns:
        Actions ordered by rule (pre-order), site (pre-order), then substitution (by text).
    """
    return _term_actions(term)


def rewrite_actions(state: State) -> tuple[RewriteAction, ...]:
    """The rewrite actions available in ``state`` (none when fuel is 0).

    Args:
        state: The game state.

    Returns:
        Actions ordered by rule, site, then substitution.
    """
    if state.fuel <= 0:
        return ()
    return _term_actions(state.term)


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
        raise IllegalMove(f"the new term has Size {new.size} but only {state.budget} "
                          "budget is left")


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
        return State(replace_at(state.term, action.site, action.term), state.target,
                     state.fuel, state.budget - action.term.size)
    return State(replace_at(state.term, action.site, action.replacement), state.target,
                 state.fuel - REWRITE_FUEL, state.budget)


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
    if not isinstance(action, RewriteAction):
        raise IllegalMove("unknown action")
    ensure_not_won(state)
    if state.fuel <= 0:
        raise IllegalMove("no fuel left: rewrites are not possible")
    if action not in _action_set(state.term):
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
    if can_construct(state) or rewrite_actions(state):
        return "playing"
    return "lost"


def loss_reason(state: State) -> Optional[str]:
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
