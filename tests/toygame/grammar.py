"""Slide-1D's level format: ``row 21.3`` (plus the envelope's ``par``)."""

from __future__ import annotations

from dataclasses import dataclass

from lark import Transformer

from grammar.format import (
    BODY,
    PAR_FIELD,
    FieldSpec,
    FieldValue,
    LevelFormat,
    ValueKind,
    WrongKind,
)
from tests.toycore.engine import Level


@dataclass(frozen=True)
class Row:
    """A row as parsed."""

    cells: str


class _Body(Transformer):
    def row(self, children: list) -> Row:
        return Row(str(children[0]))


def _read_row(value: FieldValue) -> str:
    if value.form != BODY or not isinstance(value.data, Row):
        raise WrongKind
    return value.data.cells


FORMAT = LevelFormat(
    game="toy",
    level_type=Level,
    fields=(FieldSpec("row", "row", required=True), PAR_FIELD),
    build=lambda title, values: Level(title, values["row"], values.get("par")),
    fields_of=lambda level: {"row": level.row, "par": level.par},
    kinds={
        "row": ValueKind("a row of digits and one gap", _read_row, lambda v, indent: v, ("a row",))
    },
    grammar="tests.toygame:toy.lark",
    transformer=_Body(),
    terminal_names={"ROW": "a row"},
)
