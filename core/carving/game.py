"""``GAME``: Triangle Carving behind the :class:`core.game.Game` protocol.

Moves are small values, one per phase of a step (see :mod:`.state`):

==============  ==========================================  ===================================
move            JSON                                        phase
==============  ==========================================  ===================================
``Construct``   ``{"kind": "construct", "edge": "theta(…)"}``  construct
``Extend``      ``{"kind": "step", "edge": "omega(…)",        path: add (edge, vertex) to P*
                ``"to": "D(x,x,x)"}``
``Finish``      ``{"kind": "finish"}``                         path: remove E(P*)
``Succeed``     ``{"kind": "base", "vertex": "N(y,y,y)"}``     succession: the new base point
==============  ==========================================  ===================================

Edges and formulas travel as canonical strings. The construct kind ranges over U ∩ F*^5
minus E_Ω, which grows as ``2·|F*_∇|·|F*_Δ|^4``: :meth:`CarvingGame.moves` lists all of it up to
:data:`CONSTRUCT_LIST_LIMIT` and an evenly spread, deterministic sample beyond, so the kind is
declared non-enumerable; :meth:`CarvingGame.check` decides any edge.

A state's JSON carries its level, so a saved game is self-contained::

    {"level": {...}, "removed": [intrinsic edges gone], "virtual": [...], "base": "D(x,x,x)",
     "phase": "construct", "pending": null, "path": [["omega(…)", "N(x,x,x)"], ...], "steps": 2}
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from core.game import IllegalMove, MoveKind, Status

from .formula import Formula, Operator, formula_from_str, operator_from_str
from .level import STORED_DEFAULTS, Level, level_from_json, level_to_json
from .state import (
    PHASES,
    State,
    can_finish,
    choose_base,
    construct,
    elimination_possible,
    extend,
    finish,
    initial_state,
    path_steps,
    succession_candidates,
    winning_component,
)
from .world import World, world_of

__all__ = [
    "CONSTRUCT_LIST_LIMIT",
    "GAME",
    "CarvingGame",
    "Construct",
    "Extend",
    "Finish",
    "Move",
    "Succeed",
    "construct_moves",
]

CONSTRUCT_LIST_LIMIT = 2048
"""Most construct moves :meth:`CarvingGame.moves` lists; larger spaces are sampled evenly."""


@dataclass(frozen=True)
class Construct:
    """Phase 1: construct the new edge ``edge``."""

    edge: Operator
    """e_new."""


@dataclass(frozen=True)
class Extend:
    """Phase 2: extend P* through ``edge`` to the vertex ``to``."""

    edge: Operator
    """An edge of E' holding the current vertex."""
    to: Formula
    """The next vertex (another vertex of ``edge``)."""


@dataclass(frozen=True)
class Finish:
    """Phase 2: P* is complete; remove its edges."""


@dataclass(frozen=True)
class Succeed:
    """Phase 3: make ``vertex`` the base point."""

    vertex: Formula
    """A vertex with no generating intrinsic edge."""


Move = Construct | Extend | Finish | Succeed


def construct_moves(state: State, limit: int = CONSTRUCT_LIST_LIMIT) -> tuple[Construct, ...]:
    """Construct moves of a state: all of them, or an even sample when there are too many.

    Args:
        state: A state in the ``construct`` phase.
        limit: Most moves to return.

    Returns:
        Constructs in the world's construct order (Θ first), never an intrinsic edge.
    """
    world: World = state.world
    space = world.construct_space
    if space <= limit:
        indices: Sequence[int] = range(space)
    else:
        indices = [i * space // limit for i in range(limit)]
    ops = (world.construct_at(j) for j in indices)
    return tuple(Construct(op) for op in ops if op not in world.eid)


class CarvingGame:
    """The Triangle Carving engine (implements :class:`core.game.Game`).

    Attributes:
        id: ``"carving"``.
        move_kinds: construct (sampled when large), step, finish, base.
    """

    id = "carving"
    """The game id."""
    move_kinds: tuple[MoveKind, ...] = (
        MoveKind(
            "construct", False, "construct a new edge e_new (sampled when the space is large)"
        ),
        MoveKind("step", True, "extend the elimination path P* by one (edge, vertex) step"),
        MoveKind("finish", True, "finish P* and remove its edges"),
        MoveKind("base", True, "pick the new base point (succession)"),
    )
    """The kinds of moves."""

    def initial(self, level: Level) -> State:
        """The initial state of ``level`` (ValueError when its closure is too large)."""
        if not isinstance(level, Level):
            raise ValueError("carving needs a carving Level")
        return initial_state(level)

    def moves(self, state: State) -> Sequence[Move]:
        """Legal moves in a stable order (constructs are sampled beyond the list limit)."""
        if state.phase == "construct":
            return construct_moves(state)
        if state.phase == "path":
            done: tuple[Move, ...] = (Finish(),) if can_finish(state) else ()
            return done + tuple(Extend(e, w) for e, w in path_steps(state))
        if state.phase == "succession":
            return tuple(Succeed(v) for v in succession_candidates(state))
        return ()

    def check(self, state: State, move: Move) -> None:
        """Raise :class:`IllegalMove` unless ``move`` is legal in ``state``."""
        self.apply(state, move)

    def apply(self, state: State, move: Move) -> State:
        """The state after ``move`` (IllegalMove when it is not legal)."""
        if isinstance(move, Construct):
            return construct(state, move.edge)
        if isinstance(move, Extend):
            return extend(state, move.edge, move.to)
        if isinstance(move, Finish):
            return finish(state)
        if isinstance(move, Succeed):
            return choose_base(state, move.vertex)
        raise IllegalMove(f"not a carving move: {move!r}")

    def status(self, state: State) -> Status:
        """``"won"``, ``"lost"`` or ``"playing"``."""
        return state.phase if state.phase in ("won", "lost") else "playing"  # type: ignore[return-value]

    def finished(self, state: State) -> bool:
        """True once won or lost: no move is accepted after that."""
        return state.phase in ("won", "lost")

    def describe_move(self, state: State, move: Move) -> str:
        """A short text for a person."""
        if isinstance(move, Construct):
            return f"construct {move.edge}"
        if isinstance(move, Extend):
            return f"step through {move.edge} to {move.to}"
        if isinstance(move, Finish):
            n = len({e for e, _ in state.path})
            return f"finish the path (removes {n} edge{'s' if n != 1 else ''})"
        if isinstance(move, Succeed):
            return f"new base point {move.vertex}"
        return repr(move)

    # -- codec -------------------------------------------------------------------------------

    def state_to_json(self, state: State) -> dict[str, Any]:
        """The JSON form of a state (it carries its level)."""
        world = state.world
        return {
            "level": level_to_json(world.level),
            "removed": [str(e) for e in world.intrinsic if e not in state.tree],
            "virtual": sorted(str(e) for e in state.virtual),
            "base": str(state.base),
            "phase": state.phase,
            "pending": None if state.pending is None else str(state.pending),
            "path": [[str(e), str(v)] for e, v in state.path],
            "steps": state.steps,
        }

    def state_from_json(self, data: Any) -> State:
        """Rebuild a state from :meth:`state_to_json` (ValueError when inconsistent)."""
        if not isinstance(data, dict) or set(data) != _STATE_KEYS:
            raise ValueError(
                f"a carving state needs exactly the keys {', '.join(sorted(_STATE_KEYS))}"
            )
        stored = data["level"]
        if isinstance(stored, dict):  # a state is stored data: see STORED_DEFAULTS
            stored = {**STORED_DEFAULTS, **stored}
        world = world_of(level_from_json(stored))
        removed = {_operator(s, "removed") for s in _list(data["removed"], "removed")}
        if not removed <= world.eid.keys():
            raise ValueError("removed lists an edge that is not intrinsic")
        virtual = frozenset(_operator(s, "virtual") for s in _list(data["virtual"], "virtual"))
        for op in virtual:
            problem = world.construct_problem(op)
            if problem is not None:
                raise ValueError(f"virtual edge {op}: {problem}")
        base = _formula(data["base"], "base")
        if base not in world.vid:
            raise ValueError(f"base {base} is not a vertex")
        steps, phase = data["steps"], data["phase"]
        if type(steps) is not int or steps < 0 or phase not in PHASES:
            raise ValueError("steps must be a non-negative integer and phase a known phase")
        tree = frozenset(e for e in world.intrinsic if e not in removed)
        return _rebuild(State(world, tree, virtual, base, phase, None, (), steps), data)

    def move_to_json(self, move: Move) -> dict[str, Any]:
        """The JSON form of a move."""
        if isinstance(move, Construct):
            return {"kind": "construct", "edge": str(move.edge)}
        if isinstance(move, Extend):
            return {"kind": "step", "edge": str(move.edge), "to": str(move.to)}
        if isinstance(move, Finish):
            return {"kind": "finish"}
        if isinstance(move, Succeed):
            return {"kind": "base", "vertex": str(move.vertex)}
        raise ValueError(f"not a carving move: {move!r}")

    def move_from_json(self, state: State, data: Any) -> Move:
        """Rebuild a move from :meth:`move_to_json` (ValueError when malformed)."""
        if not isinstance(data, dict):
            raise ValueError("a carving move must be a JSON object")
        shapes = {
            "construct": {"kind", "edge"},
            "step": {"kind", "edge", "to"},
            "finish": {"kind"},
            "base": {"kind", "vertex"},
        }
        kind = data.get("kind")
        if kind not in shapes or set(data) != shapes[kind]:
            raise ValueError(f"not a carving move: {data!r}")
        if kind == "construct":
            return Construct(_operator(data["edge"], "edge"))
        if kind == "step":
            return Extend(_operator(data["edge"], "edge"), _formula(data["to"], "to"))
        if kind == "finish":
            return Finish()
        return Succeed(_formula(data["vertex"], "vertex"))


_STATE_KEYS = frozenset(
    {"level", "removed", "virtual", "base", "phase", "pending", "path", "steps"}
)


def _list(value: Any, what: str) -> list:
    if not isinstance(value, list):
        raise ValueError(f"{what} must be a list")
    return value


def _operator(text: Any, what: str) -> Operator:
    try:
        return operator_from_str(text)
    except ValueError as error:
        raise ValueError(f"{what}: {error}") from None


def _formula(text: Any, what: str) -> Formula:
    try:
        return formula_from_str(text)
    except ValueError as error:
        raise ValueError(f"{what}: {error}") from None


def _rebuild(state: State, data: dict) -> State:
    """Check the phase against the edges, and restore the path phase by replaying the saved
    path (so it is checked exactly like play)."""
    pending, path = data["pending"], _list(data["path"], "path")
    if state.phase != "path":
        if pending is not None or path:
            raise ValueError("only the path phase has a pending edge and a path")
        if state.phase == "succession" and state.base not in succession_candidates(state):
            raise ValueError("succession is due only when the base point has no generating edge")
        if state.phase == "won" and winning_component(state) is None:
            raise ValueError("a won state needs a component isomorphic to the target")
        return state
    if pending is None:
        raise ValueError("the path phase needs its pending edge")
    op = _operator(pending, "pending")
    problem = state.world.construct_problem(op)
    if problem is not None:
        raise ValueError(f"pending edge: {problem}")
    if not elimination_possible(state, op):
        raise ValueError("the pending edge has no legal elimination path")
    state = State(state.world, state.tree, state.virtual, state.base, "path", op, (), state.steps)
    for i, step in enumerate(path):
        if not isinstance(step, list) or len(step) != 2:
            raise ValueError(f"path[{i}] must be [edge, vertex]")
        state = extend(state, _operator(step[0], f"path[{i}]"), _formula(step[1], f"path[{i}]"))
    return state


GAME = CarvingGame()
"""The engine object the registry loads (``core.carving.game:GAME``)."""
