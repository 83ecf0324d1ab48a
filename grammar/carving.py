"""Triangle Carving's texts: level files (:data:`FORMAT`), formulas, operators, play scripts, JSON.

A carving level block (``carving.lark`` holds the value syntax)::

    level "First Cut" {
      game carving
      description "What the level teaches."     ; author, description, hint: strings
      types [t]                                 ; the types 𝕋
      variables [x: t, y: t]                    ; the variables 𝕍 with τ
      r_delta [(t, t, t)]                       ; R_Δ and R_∇ as type triples
      r_nabla [(t, t, t)]
      axioms [D(x, y, y)]                       ; optional: extra initial formulas
      root D(x, x, x)                           ; ρ0, a diagonal formula
      target {vertices [a, b] edges [{a, b}]}   ; H*: vertex names, edges as vertex sets
      density subsequence                       ; optional: subsequence (default) or contiguous
      new_edges well_typed                      ; optional: well_typed (default) or closure
      par 1                                     ; optional: the designer's step count
    }

Every level value also has a JSON form (:func:`core.carving.level_to_json`), which every
carving command accepts for a file ending in ``.json`` (:func:`load_level_json`: a bad text
is reported with line, column and caret, a bad value with its key path).

The same grammar reads what people type elsewhere: formulas (:func:`parse_formula`),
operators (:func:`parse_operator`, the CLI's ``--edge`` and the edge builder) and play
scripts (:func:`parse_script`, one step per line). Each error is a
:class:`~grammar.errors.ParseError` with line, column, the line and a caret.
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass
from typing import Any

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedInput

from core.carving.formula import Formula, Operator
from core.carving.game import Construct, Extend, Finish, Move, Succeed
from core.carving.level import (
    DENSITY_READINGS,
    NEW_EDGE_RULES,
    STORED_DEFAULTS,
    Level,
    LevelJSONError,
    Target,
    level_from_json,
)

from .bulk import collector_paused
from .errors import ParseError, from_lark
from .format import (
    BODY,
    META_FIELDS,
    PAR_FIELD,
    FieldSpec,
    FieldValue,
    LevelFormat,
    ValueKind,
    WrongKind,
    meta_args,
    meta_values,
)
from .lalr import Feeder
from .strings import WRAP

__all__ = [
    "FORMAT",
    "Binding",
    "Hypergraph",
    "Items",
    "Name",
    "ScriptStep",
    "TypeTriple",
    "Word",
    "format_formula",
    "format_operator",
    "load_level_json",
    "parse_formula",
    "parse_operator",
    "parse_script",
    "script_text",
]

# --------------------------------------------------------------------------- values


@dataclass(frozen=True, slots=True)
class Name:
    """A bare name inside a list (a type, a vertex)."""

    text: str
    """The name."""


@dataclass(frozen=True, slots=True)
class Binding:
    """``x: t`` inside a list: a variable and its type."""

    name: str
    """The variable."""
    type: str
    """Its type."""


@dataclass(frozen=True, slots=True)
class TypeTriple:
    """``(t, u, t)``: a type triple of R_Δ or R_∇."""

    types: tuple[str, str, str]
    """The three types."""


@dataclass(frozen=True, slots=True)
class Items:
    """``[ ... ]``: a list of names, bindings, triples or formulas (checked by the kinds)."""

    items: tuple[Any, ...]
    """The entries, in order."""


@dataclass(frozen=True, slots=True)
class Word:
    """A bare word value (``contiguous``)."""

    text: str
    """The word."""


@dataclass(frozen=True, slots=True)
class Hypergraph:
    """``{vertices [...] edges [{...}, ...]}`` as written."""

    vertices: tuple[str, ...]
    """Vertex names."""
    edges: tuple[tuple[str, ...], ...]
    """Edges as vertex-name tuples."""


@dataclass(frozen=True, slots=True)
class ScriptStep:
    """One line of a play script.

    Attributes:
        kind: ``"construct"``, ``"step"``, ``"finish"`` or ``"base"``.
        line: 1-based line number in the script.
        column: 1-based column of the step's keyword.
        move: The game move it stands for.
    """

    kind: str
    """The keyword."""
    line: int
    """Line in the script."""
    column: int
    """Column of the keyword."""
    move: Move
    """The move."""


class CarvingBuilder(Transformer):
    """Callbacks of ``carving.lark`` (applied during the parse: no parse tree)."""

    def items(self, children: list) -> Items:
        """``[a, b, ...]``."""
        return Items(tuple(children))

    def name(self, children: list) -> Name:
        """A bare name in a list."""
        return Name(str(children[0]))

    def binding(self, children: list) -> Binding:
        """``x: t``."""
        return Binding(str(children[0]), str(children[1]))

    def triple(self, children: list) -> TypeTriple:
        """``(t, t, t)``."""
        return TypeTriple((str(children[0]), str(children[1]), str(children[2])))

    def word(self, children: list) -> Word:
        """A bare word."""
        return Word(str(children[0]))

    def delta(self, children: list) -> Formula:
        """``D(x, y, z)``."""
        return Formula("D", str(children[1]), str(children[2]), str(children[3]))

    def nabla(self, children: list) -> Formula:
        """``N(x, y, z)``."""
        return Formula("N", str(children[1]), str(children[2]), str(children[3]))

    def theta(self, children: list) -> Operator:
        """``theta(N, D, D, D, D)``."""
        return Operator(*children[1:])

    omega = theta

    def edge(self, children: list) -> tuple[str, ...]:
        """``{a, b}``."""
        return tuple(str(c) for c in children)

    def hypergraph(self, children: list) -> Hypergraph:
        """``{vertices [...] edges [...]}``: names before the EDGES keyword, edges after."""
        split = next(
            i for i, c in enumerate(children) if isinstance(c, Token) and c.type.endswith("EDGES")
        )
        vertices = tuple(str(c) for c in children[1:split])
        return Hypergraph(vertices, tuple(children[split + 1 :]))

    # -- standalone inputs ----------------------------------------------------------------

    def formula_input(self, children: list) -> Formula:
        """A whole input that is one formula."""
        return children[0]

    def operator_input(self, children: list) -> Operator:
        """A whole input that is one operator."""
        return children[0]

    def script(self, children: list) -> list[ScriptStep]:
        """The steps of a script."""
        return list(children)

    @staticmethod
    def _step(keyword: Token, move: Move) -> ScriptStep:
        return ScriptStep(str(keyword), keyword.line or 0, keyword.column or 0, move)

    def construct(self, children: list) -> ScriptStep:
        """``construct OPERATOR``."""
        return self._step(children[0], Construct(children[1]))

    def step(self, children: list) -> ScriptStep:
        """``step OPERATOR FORMULA``."""
        return self._step(children[0], Extend(children[1], children[2]))

    def finish(self, children: list) -> ScriptStep:
        """``finish``."""
        return self._step(children[0], Finish())

    def base(self, children: list) -> ScriptStep:
        """``base FORMULA``."""
        return self._step(children[0], Succeed(children[1]))


# --------------------------------------------------------------------------- printing


def format_formula(f: Formula) -> str:
    """A formula as level files and scripts write it (canonical, ``D(x,y,z)``)."""
    return str(f)


def format_operator(op: Operator) -> str:
    """An operator as level files and scripts write it (canonical, no spaces)."""
    return str(op)


def script_text(moves: Any) -> str:
    """A play script for ``moves`` (one step per line); :func:`parse_script` reads it back.

    Args:
        moves: Game moves (Construct, Extend, Finish, Succeed).

    Returns:
        The script's text, ending with a newline.
    """
    lines = []
    for move in moves:
        if isinstance(move, Construct):
            lines.append(f"construct {move.edge}")
        elif isinstance(move, Extend):
            lines.append(f"step {move.edge} {move.to}")
        elif isinstance(move, Finish):
            lines.append("finish")
        elif isinstance(move, Succeed):
            lines.append(f"base {move.vertex}")
        else:
            raise ValueError(f"not a carving move: {move!r}")
    return "".join(line + "\n" for line in lines)


# --------------------------------------------------------------------------- standalone parsers

_GRAMMAR = "carving.lark"
_lock = threading.Lock()
_parsers: dict[str, Lark] = {}

_NAMES = {
    "DELTA_OPEN": '"D("',
    "NABLA_OPEN": '"N("',
    "THETA_OPEN": '"theta("',
    "OMEGA_OPEN": '"omega("',
    "NAME": "a name",
    "_NL": "a line break",
    "CONSTRUCT": '"construct"',
    "STEP": '"step"',
    "FINISH": '"finish"',
    "BASE": '"base"',
    "VERTICES": '"vertices"',
    "EDGES": '"edges"',
}
"""Readable names of the grammar's terminals in "expected ..." lists."""


def _parser(start: str) -> Lark:
    """The LALR parser of one standalone input (compiled once per start rule)."""
    with _lock:
        parser = _parsers.get(start)
        if parser is None:
            from .terms import grammar_text

            parser = Lark(
                grammar_text(_GRAMMAR),
                start=start,
                parser="lalr",
                transformer=CarvingBuilder(),
                maybe_placeholders=False,
            )
            _parsers[start] = parser
        return parser


def _parse(start: str, text: str, filename: str | None, what: str) -> Any:
    if not text.strip():
        raise ParseError(
            f"empty input: expected {what}", text=text or " ", line=1, column=1, filename=filename
        )
    parser = _parser(start)
    feeder = Feeder(parser, text)
    try:
        with collector_paused(text):
            for _ in feeder.tokens():
                pass
            return feeder.finish()
    except UnexpectedInput as err:
        raise from_lark(
            err, text, filename, parser=parser, accepts=feeder.expected(), terminal_names=_NAMES
        ) from None


def parse_formula(text: str, filename: str | None = None) -> Formula:
    """Read one formula: ``D(x, y, z)``, ``N(a,b,c)``, ``Δ(x,y,z)``, ``∇(a,b,c)``.

    Args:
        text: The text (spaces allowed between tokens).
        filename: Shown in error messages (``<--vertex>``).

    Returns:
        The formula.

    Raises:
        ParseError: With line, column, caret and what was expected.
    """
    return _parse("formula_input", text, filename, "a formula such as D(x,y,z)")


def parse_operator(text: str, filename: str | None = None) -> Operator:
    """Read one operator: ``theta(N(..), D(..) ×4)`` or ``omega(D(..) ×4, N(..))``.

    The grammar itself requires the heads of each kind (a ∇ first and four Δ for theta, four
    Δ and a ∇ last for omega), so a misplaced head is a caret error.

    Args:
        text: The text.
        filename: Shown in error messages (``<--edge>``).

    Returns:
        The operator.

    Raises:
        ParseError: With line, column, caret and what was expected.
    """
    return _parse(
        "operator_input",
        text,
        filename,
        "an operator such as theta(N(x,x,x),D(x,x,x),D(x,x,x),D(x,x,x),D(x,x,x))",
    )


def parse_script(text: str, filename: str | None = None) -> list[ScriptStep]:
    """Read a play script: one step per line, ``;`` or ``#`` comments, blank lines allowed.

    Steps: ``construct OPERATOR``, ``step OPERATOR FORMULA`` (extend the elimination path
    through OPERATOR to FORMULA), ``finish``, ``base FORMULA`` (succession).

    Args:
        text: The script.
        filename: Shown in error messages.

    Returns:
        The steps in order (an empty script gives no step).

    Raises:
        ParseError: With line, column, caret and what was expected.
    """
    if not text.strip():
        return []
    return _parse("script", text, filename, "a step")


# --------------------------------------------------------------------------- JSON levels


def load_level_json(text: str, filename: str | None = None) -> Level:
    """Read a level in the JSON interchange form (``core.carving.level_from_json``).

    Args:
        text: The JSON text (one object).
        filename: Shown in error messages.

    Returns:
        The level.

    Raises:
        ParseError: For bad JSON text (line, column, caret) or a bad value (its key path,
            and its line and column when the path can be found in the text).
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ParseError(
            f"bad JSON: {error.msg}",
            text=text,
            line=error.lineno,
            column=error.colno,
            filename=filename,
        ) from None
    except RecursionError:
        raise ParseError("bad JSON: nested too deeply", filename=filename) from None
    try:
        return level_from_json(data)
    except LevelJSONError as error:
        line, column = _json_position(text, error.path)
        raise ParseError(
            str(error), text=text, line=line, column=column, filename=filename
        ) from None


def _json_position(text: str, path: str) -> tuple[int, int]:
    """Line and column of the value at ``path`` (``target.edges[1]``) in a JSON text.

    Best effort, for the caret of an error: (0, 0) when the path cannot be followed.
    """
    try:
        offset = _find_path(text, _split_path(path))
    except (ValueError, IndexError, json.JSONDecodeError, RecursionError):
        return 0, 0
    if offset is None:
        return 0, 0
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _split_path(path: str) -> list[str | int]:
    parts: list[str | int] = []
    for piece in filter(None, path.split(".")):
        name, _, rest = piece.partition("[")
        if name:
            parts.append(name)
        while rest:
            index, _, rest = rest.partition("]")
            parts.append(int(index))
            rest = rest.removeprefix("[")
    return parts


_WS = re.compile(r"[ \t\r\n]*")


def _skip(text: str, i: int) -> int:
    # A regular expression, not a loop over characters: a refused JSON level padded with
    # megabytes of whitespace must cost what json.loads costs on it (issue 28).
    return _WS.match(text, i).end()  # type: ignore[union-attr]  # matches ""


def _find_path(text: str, parts: list[str | int]) -> int | None:
    """Offset of the value at ``parts`` (keys and list indexes); None when absent."""
    decoder = json.JSONDecoder()
    i = _skip(text, 0)
    for part in parts:
        opener = "{" if isinstance(part, str) else "["
        if text[i] != opener:
            return None
        i = _skip(text, i + 1)
        index = 0
        while True:
            if text[i] in "}]":
                return None
            if isinstance(part, str):
                key, i = decoder.raw_decode(text, i)
                i = _skip(text, _skip(text, i) + 1)  # past the colon
                found = key == part
            else:
                found = index == part
            if found:
                break
            _, i = decoder.raw_decode(text, i)  # skip this value
            i = _skip(text, i)
            if text[i] == ",":
                i = _skip(text, i + 1)
            index += 1
    return i


# --------------------------------------------------------------------------- level-file kinds


def _describe_value(value: Any) -> str:
    """Words for a body value in "must be ..., not <this>" messages."""
    if isinstance(value, Items):
        if not value.items:
            return "an empty list"
        first = value.items[0]
        noun = {
            Name: "names",
            Binding: "bindings",
            TypeTriple: "type triples",
            Formula: "formulas",
        }.get(type(first), "values")
        return f"a list of {noun}"
    if isinstance(value, TypeTriple):
        return "a type triple"
    if isinstance(value, Name):
        return f"the name {value.text}"
    if isinstance(value, Binding):
        return f"the binding {value.name}: {value.type}"
    if isinstance(value, Formula):
        return f"the formula {value}"
    if isinstance(value, Word):
        return f"the word {value.text}"
    if isinstance(value, Hypergraph):
        return "a hypergraph"
    return "a value"


def _list_of(value: FieldValue, cls: type, noun: str) -> tuple:
    """The entries of a list value, all of class ``cls`` (WrongKind / ValueError otherwise)."""
    if value.form != BODY or not isinstance(value.data, Items):
        raise WrongKind
    for position, item in enumerate(value.data.items, start=1):
        if not isinstance(item, cls):
            raise ValueError(f"entry {position} must be {noun}, not {_describe_value(item)}")
    return value.data.items


def _read_names(value: FieldValue) -> tuple[str, ...]:
    return tuple(item.text for item in _list_of(value, Name, "a name"))


def _read_variables(value: FieldValue) -> tuple[tuple[str, str], ...]:
    return tuple((b.name, b.type) for b in _list_of(value, Binding, "a binding like x: t"))


def _read_triples(value: FieldValue) -> tuple[tuple[str, str, str], ...]:
    return tuple(t.types for t in _list_of(value, TypeTriple, "a type triple like (t, t, t)"))


def _read_formulas(value: FieldValue) -> tuple[Formula, ...]:
    return tuple(_list_of(value, Formula, "a formula like D(x, y, z)"))


def _read_formula(value: FieldValue) -> Formula:
    if value.form != BODY or not isinstance(value.data, Formula):
        raise WrongKind
    return value.data


def _read_target(value: FieldValue) -> Target:
    if value.form != BODY or not isinstance(value.data, Hypergraph):
        raise WrongKind
    return Target(value.data.vertices, value.data.edges)


def _read_density(value: FieldValue) -> str:
    if value.form != BODY or not isinstance(value.data, Word):
        raise WrongKind
    return value.data.text


def _bracketed(parts: list[str], indent: str, open_: str = "[", close: str = "]") -> str:
    """``[a, b, c]`` on one line, or one entry per line when that would be too long."""
    one_line = open_ + ", ".join(parts) + close
    if len(one_line) + len(indent) + 12 <= WRAP or not parts:
        return one_line
    inner = indent + "  "
    return open_ + "\n" + ",\n".join(inner + p for p in parts) + "\n" + indent + close


def _write_names(names: Any, indent: str) -> str:
    return _bracketed(list(names), indent)


def _write_variables(pairs: Any, indent: str) -> str:
    return _bracketed([f"{v}: {t}" for v, t in pairs], indent)


def _write_triples(triples: Any, indent: str) -> str:
    return _bracketed([f"({', '.join(t)})" for t in triples], indent)


def _write_formulas(formulas: Any, indent: str) -> str:
    return _bracketed([str(f) for f in formulas], indent)


def _write_formula(f: Formula, indent: str) -> str:
    return str(f)


def _write_target(target: Target, indent: str) -> str:
    vertices = ", ".join(target.vertices)
    edges = ", ".join("{" + ", ".join(e) + "}" for e in target.edges)
    one_line = f"{{vertices [{vertices}] edges [{edges}]}}"
    if len(one_line) + len(indent) + 7 <= WRAP:
        return one_line
    inner = indent + "  "
    return (
        "{\n"
        + inner
        + "vertices "
        + _bracketed(list(target.vertices), inner)
        + "\n"
        + inner
        + "edges "
        + _bracketed(["{" + ", ".join(e) + "}" for e in target.edges], inner)
        + "\n"
        + indent
        + "}"
    )


def _write_word(word: str, indent: str) -> str:
    return word


NAMES_KIND = ValueKind("a list of names such as [t, u]", _read_names, _write_names, ('"["',))
"""Kind ``"names"``: ``[t, u]``."""
VARIABLES_KIND = ValueKind(
    "a list of bindings such as [x: t, y: t]", _read_variables, _write_variables, ('"["',)
)
"""Kind ``"variables"``: ``[x: t, y: u]``."""
TRIPLES_KIND = ValueKind(
    "a list of type triples such as [(t, t, t)]", _read_triples, _write_triples, ('"["',)
)
"""Kind ``"triples"``: ``[(t, t, t), (t, u, u)]``."""
FORMULAS_KIND = ValueKind(
    "a list of formulas such as [D(x, y, y)]", _read_formulas, _write_formulas, ('"["',)
)
"""Kind ``"formulas"``: ``[D(x, y, z), N(a, b, c)]``."""
FORMULA_KIND = ValueKind(
    "a formula such as D(x, x, x)", _read_formula, _write_formula, ('"D("', '"N("')
)
"""Kind ``"formula"``: ``D(x, x, x)``."""
TARGET_KIND = ValueKind(
    "a hypergraph such as {vertices [a, b] edges [{a, b}]}", _read_target, _write_target, ('"{"',)
)
"""Kind ``"target"``: ``{vertices [a, b, c] edges [{a, b}, {b, c}]}``."""
DENSITY_KIND = ValueKind(
    f"{' or '.join(DENSITY_READINGS)}", _read_density, _write_word, DENSITY_READINGS
)
"""Kind ``"density"``: the reading of Φ_dense."""
NEW_EDGES_KIND = ValueKind(
    f"{' or '.join(NEW_EDGE_RULES)}", _read_density, _write_word, NEW_EDGE_RULES
)
"""Kind ``"new_edges"``: what a constructed edge may hold."""


def _build(title: str, values: dict[str, Any]) -> Level:
    return Level(
        title=title,
        types=values["types"],
        variables=values["variables"],
        r_delta=values["r_delta"],
        r_nabla=values["r_nabla"],
        axioms=values.get("axioms", ()),
        root=values["root"],
        target=values["target"],
        # Left out: today's defaults, the seed's readings (a stored text: STORED_DEFAULTS).
        density=values.get("density", Level.density),
        new_edges=values.get("new_edges", Level.new_edges),
        **meta_args(values),
    )


def _fields_of(level: Level) -> dict[str, Any]:
    return {
        **meta_values(level),
        "types": level.types,
        "variables": level.variables,
        "r_delta": level.r_delta,
        "r_nabla": level.r_nabla,
        "axioms": level.axioms or None,
        "root": level.root,
        "target": level.target,
        # Always written: a text that leaves them out means another game to an older reader
        # (the defaults changed; see STORED_DEFAULTS).
        "density": level.density,
        "new_edges": level.new_edges,
    }


FORMAT = LevelFormat(
    game="carving",
    level_type=Level,
    fields=(
        *META_FIELDS,
        FieldSpec("types", "names", required=True),
        FieldSpec("variables", "variables", required=True),
        FieldSpec("r_delta", "triples", required=True),
        FieldSpec("r_nabla", "triples", required=True),
        FieldSpec("axioms", "formulas"),
        FieldSpec("root", "formula", required=True),
        FieldSpec("target", "target", required=True),
        FieldSpec("density", "density"),
        FieldSpec("new_edges", "new_edges"),
        PAR_FIELD,
    ),
    build=_build,
    fields_of=_fields_of,
    kinds={
        "names": NAMES_KIND,
        "variables": VARIABLES_KIND,
        "triples": TRIPLES_KIND,
        "formulas": FORMULAS_KIND,
        "formula": FORMULA_KIND,
        "target": TARGET_KIND,
        "density": DENSITY_KIND,
        "new_edges": NEW_EDGES_KIND,
    },
    grammar="grammar:carving.lark",
    transformer=CarvingBuilder(),
    describe=_describe_value,
    terminal_names=_NAMES,
    stored_defaults=STORED_DEFAULTS,
)
"""Triangle Carving's level format, named by its registration (``grammar.carving:FORMAT``)."""
