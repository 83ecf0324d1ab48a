"""TermCraft on the game seam: :data:`GAME` implements :class:`core.game.Game`.

The move codec here is the one JSON form of a TermCraft move, used by saved games, the CLI
(solver plans) and the shared protocol tests::

    {"kind": "rewrite", "rule": [0], "site": [3, 0], "sigma": {"X": "apple"}}
    {"kind": "construct", "site": [4, 0], "term": "done"}

Paths are lists of 0-based child indices, terms canonical text. A rewrite is saved by
reference to the position (the rule's path, the site, the substitution), so decoding it needs
the state it is played in; a construct's term is read back with :func:`core.termcraft.terms.from_str`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.game import IllegalMove, MoveKind
from core.termcraft.terms import format_path, free_vars, from_str, short_str, subterm_at, to_str

from .analysis import analyze
from .engine import apply, is_available, placeholder_sites, rewrite_actions, status
from .level import Level
from .solver import construct_candidates
from .state import Action, ConstructAction, RewriteAction, State, instantiate

__all__ = ["GAME", "TermCraftGame", "move_from_json", "move_to_json"]

MAX_SAMPLED_CONSTRUCTS = 8
"""How many construct moves :meth:`TermCraftGame.moves` offers per placeholder (a sample:
constructs take any ground term)."""


def move_to_json(action: Action) -> dict[str, Any]:
    """The one JSON form of a move (see the module docstring).

    Args:
        action: A rewrite or construct action.

    Returns:
        A JSON-safe dict.
    """
    if isinstance(action, ConstructAction):
        return {"kind": "construct", "site": list(action.site), "term": to_str(action.term)}
    return {
        "kind": "rewrite",
        "rule": list(action.rule.path),
        "site": list(action.site),
        "sigma": {name: to_str(value) for name, value in action.sigma},
    }


def _path(data: Any, what: str) -> tuple[int, ...]:
    if not isinstance(data, list) or not all(type(i) is int and i >= 0 for i in data):
        raise ValueError(f"{what} must be a list of child indices")
    return tuple(data)


def move_from_json(state: State, data: Any) -> Action:
    """Rebuild a move played in ``state`` from :func:`move_to_json`'s value.

    Args:
        state: The position the move is played in.
        data: The JSON value.

    Returns:
        The action; a rewrite is the engine's own action object for that rule, site and
        substitution.

    Raises:
        ValueError: When ``data`` is not a move; IllegalMove when it names a rewrite that
            the position does not offer.
    """
    if not isinstance(data, dict):
        raise ValueError("a TermCraft move is a JSON object")
    kind = data.get("kind")
    if kind == "construct":
        term = data.get("term")
        if not isinstance(term, str):
            raise ValueError("a construct needs its term as text")
        return ConstructAction(_path(data.get("site"), "site"), from_str(term))
    if kind != "rewrite":
        raise ValueError(f"unknown TermCraft move kind {kind!r}")
    rule, site = _path(data.get("rule"), "rule"), _path(data.get("site"), "site")
    sigma = data.get("sigma")
    if not isinstance(sigma, dict):
        raise ValueError("a rewrite needs its substitution as an object")
    # Looked up directly (the rule by its path, the matched member rebuilt from the
    # substitution, then checked as :func:`~.engine.apply` checks a move), not by listing
    # the position's actions: a big position has millions of them.
    missing = IllegalMove(
        f"no rewrite with the rule at {format_path(rule)} at {format_path(site)} in this position"
    )
    if state.fuel <= 0 or not all(
        isinstance(n, str) and isinstance(t, str) for n, t in sigma.items()
    ):
        raise missing
    found = next((r for r in analyze(state.term).rules if r.path == rule), None)
    if found is None:
        raise missing
    try:
        bound = tuple(sorted((name, from_str(text)) for name, text in sigma.items()))
    except ValueError:
        raise missing from None
    if {name for name, _ in bound} != free_vars(found.lhs):
        raise missing
    action = RewriteAction(found, site, bound, instantiate(found.lhs, bound))
    if not is_available(state, action):
        raise missing
    return action


class TermCraftGame:
    """TermCraft as a :class:`core.game.Game` (a thin adapter over :mod:`core.termcraft`)."""

    id = "termcraft"
    """The game id."""
    move_kinds = (
        MoveKind("rewrite", True, "apply a rule at a site (1 fuel)"),
        MoveKind("construct", False, "replace a placeholder by a ground term (its Size)"),
    )
    """Rewrites are listed in full; constructs take any ground term, so they are sampled."""

    def initial(self, level: Level) -> State:
        """The level's first position."""
        return State.from_level(level)

    def moves(self, state: State) -> Sequence[Action]:
        """Every rewrite, then a sample of constructs (ground subterms of the target).

        The numbers people see (1-based, in this order) are the same in the app and the CLI.
        """
        if status(state) == "won":
            return ()
        moves: list[Action] = list(rewrite_actions(state))
        if state.budget > 0:
            candidates = construct_candidates(state.target, state.budget)[:MAX_SAMPLED_CONSTRUCTS]
            for site in placeholder_sites(state.term):
                moves.extend(ConstructAction(site, term) for term in candidates)
        return tuple(moves)

    def check(self, state: State, move: Action) -> None:
        """Raise IllegalMove unless ``move`` is legal (the engine's own checks)."""
        apply(state, move)

    def apply(self, state: State, move: Action) -> State:
        """The position after ``move`` (raises IllegalMove)."""
        return apply(state, move)

    def status(self, state: State) -> str:
        """``"won"``, ``"lost"`` or ``"playing"`` (win checked first)."""
        return status(state)

    def finished(self, state: State) -> bool:
        """A won or lost TermCraft game accepts no move."""
        return status(state) != "playing"

    def describe_move(self, state: State, move: Action) -> str:
        """``rewrite red ⇒ blue at 2/0`` or ``construct done at 4/0``."""
        if isinstance(move, ConstructAction):
            return f"construct {short_str(move.term, 40)} at {format_path(move.site)}"
        try:
            here = short_str(subterm_at(state.term, move.site), 30)
        except (IndexError, TypeError):
            here = "?"
        return f"rewrite {here} ⇒ {short_str(move.replacement, 30)} at {format_path(move.site)}"

    def state_to_json(self, state: State) -> dict[str, Any]:
        """``{"term", "target", "fuel", "budget"}`` with canonical term text."""
        return {
            "term": to_str(state.term),
            "target": to_str(state.target),
            "fuel": state.fuel,
            "budget": state.budget,
        }

    def state_from_json(self, data: Any) -> State:
        """Rebuild a state (ValueError on bad data)."""
        try:
            return State(
                from_str(data["term"]), from_str(data["target"]), data["fuel"], data["budget"]
            )
        except (KeyError, TypeError) as error:
            raise ValueError(f"not a TermCraft state: {error}") from None

    def move_to_json(self, move: Action) -> dict[str, Any]:
        """See :func:`move_to_json`."""
        return move_to_json(move)

    def move_from_json(self, state: State, data: Any) -> Action:
        """See :func:`move_from_json`."""
        return move_from_json(state, data)


GAME = TermCraftGame()
"""The TermCraft engine on the seam (the registry's ``engine`` reference)."""
