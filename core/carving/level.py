"""A Triangle Carving level (seed 001, as docs/carving.md reads it) and its JSON interchange form.

A level gives the typed language (types, variables with their types, the relations R_Δ and
R_∇ as sets of type triples), the initial base point ρ0 (a diagonal formula), the target
hypergraph H*, and optionally ``axioms``: extra initial formulas (an extension of seed 001; without
them the closure is exactly the diagonal formulas). ``density`` chooses the reading of
Φ_dense: ``"subsequence"`` (the default: seed 001 says 子序列, a subsequence) or the narrower
``"contiguous"`` (only a contiguous run V T…T V is forbidden). ``new_edges`` chooses what a
constructed edge may hold: ``"well_typed"`` (the default: seed 001's ``e_new ∈ U``, any
operator of well-typed formulas over the level's variables) or the narrower ``"closure"``
(only formulas of F*).

Level texts stored before these defaults changed (custom IDs, saves) left out a field whose
value was then the narrower reading; :data:`STORED_DEFAULTS` says which, and the loaders of
stored texts apply it (so an old ID still names the same game).

Every bound is checked in the constructor, so each accepted level can be written to a level
file and read back. The JSON form (:func:`level_to_json` / :func:`level_from_json`) is made
of plain dicts, lists, strings and integers::

    {"types": ["t"], "variables": {"x": "t"}, "r_delta": [["t","t","t"]],
     "r_nabla": [["t","t","t"]], "axioms": [["D","x","y","z"]], "root": ["D","x","x","x"],
     "target": {"vertices": ["v1","v2"], "edges": [["v1","v2"]]},
     "density": "subsequence", "new_edges": "well_typed", "par": 3, "title": "...", "description": "...",
     "hint": "...", "author": "..."}
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from core.levelmeta import check_meta
from core.levelpack import LevelFieldError

from .formula import DELTA, NABLA, NAME_RE, Formula

__all__ = [
    "DENSITY_READINGS",
    "MAX_AXIOMS",
    "MAX_NAME",
    "MAX_TARGET_EDGES",
    "MAX_TARGET_VERTICES",
    "MAX_TYPES",
    "MAX_VARIABLES",
    "NEW_EDGE_RULES",
    "STORED_DEFAULTS",
    "Level",
    "LevelJSONError",
    "Target",
    "level_from_json",
    "level_to_json",
]

DENSITY_READINGS = ("contiguous", "subsequence")
"""The two readings of Φ_dense (docs/carving.md, Rules); the default is seed 001's,
``"subsequence"`` (the order is the one the level editor has always listed)."""
NEW_EDGE_RULES = ("well_typed", "closure")
"""What e_new may hold (docs/carving.md, Rules): any well-typed formula (seed 001's U, the
default) or only formulas of the closure F*."""
STORED_DEFAULTS: Mapping[str, str] = {"density": "contiguous", "new_edges": "closure"}
"""The value a field left out of a level text *stored before it existed* stands for (custom
IDs, saves): the readings that were the only or the default ones then."""
MAX_TYPES = 16
"""Most types a level may declare."""
MAX_VARIABLES = 64
"""Most variables a level may declare."""
MAX_AXIOMS = 512
"""Most axioms (extra initial formulas) a level may list."""
MAX_TARGET_VERTICES = 64
"""Most vertices of the target hypergraph."""
MAX_TARGET_EDGES = 256
"""Most edges of the target hypergraph."""
MAX_NAME = 32
"""Longest name (type, variable, target vertex)."""
MIN_EDGE, MAX_EDGE = 2, 5
"""Sizes a target edge may have: every V(e) of the game has one ∇ and one to four Δ."""

Triple = tuple[str, str, str]


def _check_name(name: Any, what: str) -> str:
    if not isinstance(name, str) or not NAME_RE.fullmatch(name) or len(name) > MAX_NAME:
        raise ValueError(
            f"{what}: {name!r} is not a name (1-{MAX_NAME} ASCII letters, digits or _)"
        )
    return name


@contextmanager
def _about(field: str) -> Iterator[None]:
    """Turn a ValueError raised while checking one field into a :class:`LevelFieldError`
    naming it (the level-file loader then puts its caret on that field's value)."""
    try:
        yield
    except LevelFieldError:
        raise
    except ValueError as error:
        raise LevelFieldError(field, str(error)) from None


def _no_duplicates(items: tuple, what: str) -> None:
    seen: set = set()
    for item in items:
        if item in seen:
            raise ValueError(f"{what} lists {item!r} twice")
        seen.add(item)


@dataclass(frozen=True)
class Target:
    """The target hypergraph H*: a finite connected hypergraph (definition 2.3).

    Attributes:
        vertices: Vertex names, distinct.
        edges: Each edge as a tuple of distinct vertex names (2 to 5 of them, the sizes
            V(e) can have); parallel edges (equal vertex sets) are allowed.
    """

    vertices: tuple[str, ...]
    """Vertex names, distinct."""
    edges: tuple[tuple[str, ...], ...]
    """Edges as tuples of distinct vertex names."""

    def __post_init__(self) -> None:
        if not isinstance(self.vertices, tuple) or not isinstance(self.edges, tuple):
            raise TypeError("Target.vertices and Target.edges must be tuples")
        if not 1 <= len(self.vertices) <= MAX_TARGET_VERTICES:
            raise ValueError(f"the target needs 1 to {MAX_TARGET_VERTICES} vertices")
        if len(self.edges) > MAX_TARGET_EDGES:
            raise ValueError(f"the target has more than {MAX_TARGET_EDGES} edges")
        for v in self.vertices:
            _check_name(v, "target vertex")
        _no_duplicates(self.vertices, "the target")
        known = set(self.vertices)
        for i, edge in enumerate(self.edges):
            self._check_edge(i, edge, known)
        if not self._connected():
            raise ValueError("the target hypergraph must be connected")

    @staticmethod
    def _check_edge(i: int, edge: Any, known: set[str]) -> None:
        if not isinstance(edge, tuple) or not MIN_EDGE <= len(edge) <= MAX_EDGE:
            raise ValueError(f"target edge {i + 1} must list {MIN_EDGE} to {MAX_EDGE} vertices")
        for v in edge:
            if v not in known:
                raise ValueError(f"target edge {i + 1} names an unknown vertex {v!r}")
        _no_duplicates(edge, f"target edge {i + 1}")

    def _connected(self) -> bool:
        # Union-find over vertex names: iterative, no recursion.
        parent = {v: v for v in self.vertices}

        def find(v: str) -> str:
            while parent[v] != v:
                parent[v] = parent[parent[v]]
                v = parent[v]
            return v

        for edge in self.edges:
            root = find(edge[0])
            for v in edge[1:]:
                parent[find(v)] = root
        return len({find(v) for v in self.vertices}) == 1


@dataclass(frozen=True)
class Level:
    """One Triangle Carving puzzle.

    Attributes:
        types: The type names 𝕋 (non-empty, distinct).
        variables: ``(name, type)`` pairs: the variables 𝕍 and τ.
        r_delta: R_Δ, type triples allowed in Δ formulas.
        r_nabla: R_∇, type triples allowed in ∇ formulas.
        root: ρ0, a well-typed diagonal formula.
        target: H*.
        axioms: Extra initial formulas (well-typed), an extension of seed 001.
        density: ``"subsequence"`` or ``"contiguous"`` reading of Φ_dense.
        new_edges: ``"well_typed"`` or ``"closure"``: the formulas e_new may hold.
        par: The designer's step count for a good solution, if any.
        title: Shown in level lists.
        description: Text shown before playing.
        hint: The tip shown on ``t``.
        author: Who made the level.
    """

    types: tuple[str, ...]
    """The type names."""
    variables: tuple[tuple[str, str], ...]
    """``(variable, type)`` pairs."""
    r_delta: tuple[Triple, ...]
    """R_Δ: type triples of well-typed Δ formulas."""
    r_nabla: tuple[Triple, ...]
    """R_∇: type triples of well-typed ∇ formulas."""
    root: Formula
    """ρ0: the initial base point (a diagonal formula)."""
    target: Target
    """H*: the hypergraph to carve out as a component."""
    axioms: tuple[Formula, ...] = ()
    """Extra initial formulas (an extension of seed 001)."""
    density: str = "subsequence"
    """Reading of Φ_dense: ``"subsequence"`` (seed 001) or ``"contiguous"``."""
    new_edges: str = "well_typed"
    """What e_new may hold: ``"well_typed"`` (seed 001's U) or ``"closure"`` (F* only)."""
    par: int | None = None
    """Designer's step count, if any."""
    title: str = ""
    """Shown in level lists."""
    description: str = ""
    """Text shown before playing."""
    hint: str = ""
    """The tip shown on ``t``."""
    author: str = ""
    """Who made the level."""

    def __post_init__(self) -> None:
        # Each complaint names its field (LevelFieldError), so a level file's loader can put
        # the caret on that field and the JSON reader can name the key.
        self._check_language()
        self._check_formulas()
        if not isinstance(self.target, Target):
            raise TypeError("Level.target must be a Target")
        if self.density not in DENSITY_READINGS:
            raise LevelFieldError(
                "density",
                f"density must be one of {', '.join(DENSITY_READINGS)}, not {self.density!r}",
            )
        if self.new_edges not in NEW_EDGE_RULES:
            raise LevelFieldError(
                "new_edges",
                f"new_edges must be one of {', '.join(NEW_EDGE_RULES)}, not {self.new_edges!r}",
            )
        # A title is optional in the JSON form; when given it must fit on one line of a list.
        check_meta(self, title_required=False)

    def _check_language(self) -> None:
        for name in ("types", "variables", "r_delta", "r_nabla", "axioms"):
            if not isinstance(getattr(self, name), tuple):
                raise TypeError(f"Level.{name} must be a tuple")
        with _about("types"):
            if not 1 <= len(self.types) <= MAX_TYPES:
                raise ValueError(f"a level needs 1 to {MAX_TYPES} types")
            for t in self.types:
                _check_name(t, "type")
            _no_duplicates(self.types, "types")
        known = set(self.types)
        with _about("variables"):
            if not 1 <= len(self.variables) <= MAX_VARIABLES:
                raise ValueError(f"a level needs 1 to {MAX_VARIABLES} variables")
            for pair in self.variables:
                if not isinstance(pair, tuple) or len(pair) != 2:
                    raise ValueError("each variable must be a (name, type) pair")
                _check_name(pair[0], "variable")
                if pair[1] not in known:
                    raise ValueError(f"variable {pair[0]!r} has an unknown type {pair[1]!r}")
            _no_duplicates(tuple(v for v, _ in self.variables), "variables")
        for rel in ("r_delta", "r_nabla"):
            with _about(rel):
                for triple in getattr(self, rel):
                    if (
                        not isinstance(triple, tuple)
                        or len(triple) != 3
                        or not set(triple) <= known
                    ):
                        raise ValueError(f"{rel}: {triple!r} is not a triple of declared types")
                _no_duplicates(getattr(self, rel), rel)

    def _check_formulas(self) -> None:
        with _about("axioms"):
            if len(self.axioms) > MAX_AXIOMS:
                raise ValueError(f"a level may list at most {MAX_AXIOMS} axioms")
            for f in self.axioms:
                self._check_well_typed(f, "axiom")
            _no_duplicates(self.axioms, "axioms")
        with _about("root"):
            self._check_well_typed(self.root, "root")
            if not self.root.is_diagonal:
                raise ValueError(
                    f"the root must be a diagonal formula like D(x,x,x), not {self.root}"
                )

    def _check_well_typed(self, f: Any, what: str) -> None:
        if not isinstance(f, Formula) or f.head not in (DELTA, NABLA):
            raise ValueError(f"{what}: {f!r} is not a formula")
        for v in f[1:]:
            if v not in self.type_of:
                raise ValueError(f"{what} {f} uses an unknown variable {v!r}")
        if not self.well_typed(f):
            rel = "R_Δ" if f.is_delta else "R_∇"
            raise ValueError(f"{what} {f} is not well-typed (its type triple is not in {rel})")

    @cached_property
    def type_of(self) -> Mapping[str, str]:
        """τ as a mapping from variable to type."""
        return dict(self.variables)

    @cached_property
    def _relations(self) -> tuple[frozenset, frozenset]:
        return frozenset(self.r_delta), frozenset(self.r_nabla)

    @property
    def variable_names(self) -> tuple[str, ...]:
        """The variables, in the level's order."""
        return tuple(v for v, _ in self.variables)

    def well_typed(self, f: Formula) -> bool:
        """True when ``f`` is in 𝓕: its variables exist and their type triple is in R_Δ / R_∇.

        Args:
            f: A formula.

        Returns:
            Whether ``f`` is a well-typed formula of this level.
        """
        tau = self.type_of
        if f.x not in tau or f.y not in tau or f.z not in tau:
            return False
        rel = self._relations[0] if f.is_delta else self._relations[1]
        return (tau[f.x], tau[f.y], tau[f.z]) in rel


# -- JSON interchange ------------------------------------------------------------------------

_KEYS = (
    "types",
    "variables",
    "r_delta",
    "r_nabla",
    "axioms",
    "root",
    "target",
    "density",
    "new_edges",
    "par",
    "title",
    "description",
    "hint",
    "author",
)
_REQUIRED = ("types", "variables", "r_delta", "r_nabla", "root", "target")


class LevelJSONError(ValueError):
    """A JSON level that cannot be read, with the key path of the offending value.

    ``str(error)`` is ``"at <path>: <message>"``.

    Attributes:
        path: Where the problem is, as keys and indexes (``target.edges[1]``); ``""`` for
            the level object itself.
        message: What is wrong there.
    """

    def __init__(self, path: str, message: str) -> None:
        self.path = path
        self.message = message
        super().__init__(f"at {path or 'the top level'}: {message}")


def _formula_json(data: Any, path: str) -> Formula:
    if (
        not isinstance(data, list)
        or len(data) != 4
        or data[0] not in (DELTA, NABLA)
        or not all(isinstance(v, str) for v in data)
    ):
        raise LevelJSONError(
            path, 'a formula must be a list like ["D","x","y","z"] or ["N","x","y","z"]'
        )
    return Formula(*data)


def _str_list(data: Any, path: str) -> tuple[str, ...]:
    if not isinstance(data, list):
        raise LevelJSONError(path, "must be a list of strings")
    for i, item in enumerate(data):
        if not isinstance(item, str):
            raise LevelJSONError(f"{path}[{i}]", f"must be a string, not {_json_kind(item)}")
    return tuple(data)


def _json_kind(value: Any) -> str:
    """What a JSON value is, for messages."""
    if isinstance(value, bool):
        return "a boolean"
    if value is None:
        return "null"
    return {
        int: "a number",
        float: "a number",
        str: "a string",
        list: "a list",
        dict: "an object",
    }.get(type(value), type(value).__name__)


def _triples(data: Any, path: str) -> tuple[Triple, ...]:
    if not isinstance(data, list):
        raise LevelJSONError(path, 'must be a list of type triples like ["t","t","t"]')
    out = []
    for i, triple in enumerate(data):
        items = _str_list(triple, f"{path}[{i}]")
        if len(items) != 3:
            raise LevelJSONError(f"{path}[{i}]", "must have exactly three types")
        out.append(items)
    return tuple(out)


def _target_json(data: Any) -> Target:
    if not isinstance(data, dict) or set(data) != {"vertices", "edges"}:
        raise LevelJSONError(
            "target", 'the target must be {"vertices": [...], "edges": [[...], ...]}'
        )
    if not isinstance(data["edges"], list):
        raise LevelJSONError("target.edges", "must be a list of vertex lists")
    vertices = _str_list(data["vertices"], "target.vertices")
    edges = tuple(_str_list(e, f"target.edges[{i}]") for i, e in enumerate(data["edges"]))
    try:
        return Target(vertices, edges)
    except ValueError as error:
        raise LevelJSONError("target", str(error)) from None


def _variables_json(data: Any) -> tuple[tuple[str, str], ...]:
    if not isinstance(data, dict):
        raise LevelJSONError(
            "variables", 'must be an object mapping each variable to its type, like {"x": "t"}'
        )
    for name, t in data.items():
        if not isinstance(t, str):
            raise LevelJSONError(
                f"variables.{name}", f"a type must be a string, not {_json_kind(t)}"
            )
    return tuple(data.items())


def level_from_json(data: Any) -> Level:
    """Build a level from its JSON form (see the module docstring).

    Args:
        data: A dict as produced by :func:`level_to_json` (or written by hand).

    Returns:
        The level.

    Raises:
        LevelJSONError: (a ValueError) naming the key path of the bad value.
    """
    if not isinstance(data, Mapping):
        raise LevelJSONError("", "a carving level must be a JSON object")
    unknown = [key for key in data if key not in _KEYS]
    if unknown:
        raise LevelJSONError(
            str(unknown[0]),
            f"unknown level keys: {', '.join(sorted(map(str, unknown)))} "
            f"(known: {', '.join(_KEYS)})",
        )
    for key in _REQUIRED:
        if key not in data:
            raise LevelJSONError("", f"the level has no {key!r}")
    axioms = data.get("axioms", [])
    if not isinstance(axioms, list):
        raise LevelJSONError("axioms", "must be a list of formulas")
    parts: dict[str, Any] = dict(
        types=_str_list(data["types"], "types"),
        variables=_variables_json(data["variables"]),
        r_delta=_triples(data["r_delta"], "r_delta"),
        r_nabla=_triples(data["r_nabla"], "r_nabla"),
        root=_formula_json(data["root"], "root"),
        target=_target_json(data["target"]),
        axioms=tuple(_formula_json(f, f"axioms[{i}]") for i, f in enumerate(axioms)),
    )
    optional: dict[str, Any] = {
        key: data[key]
        for key in ("density", "new_edges", "par", "title", "description", "hint", "author")
        if key in data
    }
    if "par" in optional and optional["par"] is None:
        del optional["par"]  # null: no par, as when the key is absent
    try:
        return Level(**parts, **optional)
    except LevelFieldError as error:
        raise LevelJSONError(error.field, str(error)) from None
    except (TypeError, ValueError) as error:  # a wrongly typed optional field
        raise LevelJSONError("", str(error)) from None


def level_to_json(level: Level) -> dict[str, Any]:
    """The JSON form of ``level`` (optional fields are written only when set; the two rule
    readings always, so the form means the same game whatever the defaults become).

    Args:
        level: The level.

    Returns:
        A dict of JSON-safe values; :func:`level_from_json` gives back an equal level.
    """
    data: dict[str, Any] = {
        "types": list(level.types),
        "variables": dict(level.variables),
        "r_delta": [list(t) for t in level.r_delta],
        "r_nabla": [list(t) for t in level.r_nabla],
        "root": list(level.root),
        "target": {
            "vertices": list(level.target.vertices),
            "edges": [list(e) for e in level.target.edges],
        },
    }
    if level.axioms:
        data["axioms"] = [list(f) for f in level.axioms]
    data["density"] = level.density
    data["new_edges"] = level.new_edges
    if level.par is not None:
        data["par"] = level.par
    for name in ("title", "description", "hint", "author"):
        if getattr(level, name):
            data[name] = getattr(level, name)
    return data
