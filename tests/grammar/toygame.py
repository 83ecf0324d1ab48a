"""A toy game with its own level body, registered only inside tests (see test_levels_isolation).

Its level blocks have a ``row`` (``x.x3``: a body value whose words clash with TermCraft's
names if both were lexed together) and an optional ``length`` (an envelope integer).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lark import Transformer

from core.levelpack import LevelFieldError, check_title
from core.registry import GameInfo
from grammar.format import BODY, FieldSpec, FieldValue, LevelFormat, ValueKind, WrongKind

GAME_ID = "toyrow"


@dataclass(frozen=True)
class Row:
    """A row value as parsed."""

    cells: str


@dataclass(frozen=True)
class ToyLevel:
    """A toy level: a title, a row and an optional length."""

    title: str
    row: str
    length: int | None = None

    def __post_init__(self) -> None:
        check_title(self.title)
        if not self.row or set(self.row) - set("x.0123456789") or not set(self.row) & set("x."):
            raise LevelFieldError(
                "row", f"a row is x, . and digits with an x or a ., not {self.row!r}"
            )
        if self.length is not None and not 0 <= self.length <= 1000:
            raise LevelFieldError("length", "length must be from 0 to 1000")


class _Body(Transformer):
    def row(self, children: list) -> Row:
        return Row(str(children[0]))


def _read_row(value: FieldValue) -> str:
    if value.form != BODY or not isinstance(value.data, Row):
        raise WrongKind
    return value.data.cells


def _build(title: str, values: dict[str, Any]) -> ToyLevel:
    return ToyLevel(title, values["row"], values.get("length"))


FORMAT = LevelFormat(
    game=GAME_ID,
    level_type=ToyLevel,
    fields=(FieldSpec("row", "row", required=True), FieldSpec("length", "int")),
    build=_build,
    fields_of=lambda level: {"row": level.row, "length": level.length},
    kinds={
        "row": ValueKind("a row of x, . and digits", _read_row, lambda v, indent: v, ("a row",))
    },
    grammar="tests.grammar:toyrow.lark",
    transformer=_Body(),
    describe=lambda value: f"the row {value.cells}" if isinstance(value, Row) else "a value",
    terminal_names={"ROW": "a row"},
)

INFO = GameInfo(
    id=GAME_ID,
    title="Toy Row",
    tagline="A test game.",
    engine="tests.grammar.toygame:FORMAT",
    level_format="tests.grammar.toygame:FORMAT",
)
"""The registration; tests add it with ``core.registry.register(INFO)``."""
