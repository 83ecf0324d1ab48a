"""A game's parameters, each declared once: name, type, default, range, help.

A :class:`Param` is plain data (no click, no Textual); the shell derives every place a
parameter appears from it (:mod:`tui.params`): the command line's option, the settings
dialog's field, the stored settings and the parameters a generated level's ID spells. So a
name, a default or a range is written in one place, and the places cannot drift apart.

Values come in three forms:

* the *value* (a ``str``, ``int``, ``float`` or ``bool``, the type of the default): what the
  stored settings hold and a program reads;
* the *text* a person types (a command-line option, an ID), read by :meth:`Param.parse`;
* the *ID form* (:meth:`Param.id_value`): how a generator's parameters spell the value in a
  level's source and ID (``unique=0``, ``temperature=0.3``), kept as earlier IDs spelled it.

Pure: no I/O.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["Param", "Params"]


@dataclass(frozen=True)
class Param:
    """One parameter of a game (see the module docstring).

    Attributes:
        name: The key in the stored settings and in a generator's parameters.
        default: The value when none is given; its type is the parameter's type.
        help: One sentence for ``--help`` and the documentation.
        label: The settings dialog's words for a check box (a list shows its choices).
        choices: ``(value, label)`` offered by the settings dialog, in order; stored settings
            hold one of them (empty: a free value, not in the dialog).
        low: The smallest number accepted (numbers only; None: no bound).
        high: The largest number accepted (numbers only; None: no bound).
        parse: Reads a person's text into the value, raising ValueError in words (None:
            the type's own reading, then the range and the choices).
        flag: The command-line spelling when it is not ``--name`` (such as ``--difficulty``
            for ``band``): the spelling scripts know.
        short: The command line's short form (``-d``), if any.
        what: What the value is, for error messages (``"the board size"``).
        metavar: How ``--help`` names the option's value.
        many: The command line takes several values, comma-separated (a list of choices).
        generators: The generators given this parameter (empty: every one).
        id_text: How a generator's parameters spell the value (None: the value itself).
    """

    name: str
    default: Any
    help: str
    label: str = ""
    choices: tuple[tuple[Any, str], ...] = ()
    low: float | None = None
    high: float | None = None
    parse: Callable[[Any], Any] | None = None
    flag: str = ""
    short: str = ""
    what: str = ""
    metavar: str = ""
    many: bool = False
    generators: tuple[str, ...] = ()
    id_text: Callable[[Any], Any] | None = None

    @property
    def kind(self) -> type:
        """The parameter's type: the default's (``bool``, ``int``, ``float`` or ``str``)."""
        return type(self.default)

    @property
    def option(self) -> str:
        """The long command-line option (``--name`` unless :attr:`flag` says otherwise)."""
        return self.flag or "--" + self.name.replace("_", "-")

    @property
    def values(self) -> tuple[Any, ...]:
        """The values the settings dialog offers (empty when it offers none)."""
        return tuple(value for value, _ in self.choices)

    def read(self, text: Any) -> Any:
        """Read a person's text (or a value) into the parameter's value: the range and, for
        a text without :attr:`parse`, the choices are what is accepted (the dialog may offer
        fewer values than a command line takes).

        Args:
            text: What was typed (the command line, an ID), or a value.

        Returns:
            The value.

        Raises:
            ValueError: With words naming what is accepted.
        """
        if self.parse is not None:
            return self.parse(text)
        value = _typed(self.kind, text)
        if self.kind in (int, float) and not self.in_range(value):
            raise ValueError(f"{self.words} must be {self.range_words()}, not {text!r}")
        if self.kind is str and self.choices and value not in self.values:
            names = ", ".join(str(v) for v in self.values)
            raise ValueError(f"{self.words} is one of {names}, not {text!r}")
        return value

    def in_range(self, number: float) -> bool:
        """Whether ``number`` is within :attr:`low` and :attr:`high`."""
        return (self.low is None or number >= self.low) and (
            self.high is None or number <= self.high
        )

    @property
    def words(self) -> str:
        """What the value is, for messages (:attr:`what`, else ``the <name>``)."""
        return self.what or "the " + self.name.replace("_", " ")

    def range_words(self) -> str:
        """``between 2 and 64``, ``at least 0``: the range in words (empty when unbounded)."""
        if self.low is not None and self.high is not None:
            return f"between {self.low:g} and {self.high:g}"
        if self.low is not None:
            return f"at least {self.low:g}"
        return f"at most {self.high:g}" if self.high is not None else ""

    def stored(self, value: Any) -> bool:
        """Whether a stored setting's ``value`` is one this parameter holds (an offered choice
        when the dialog offers some; of the right type; in the range)."""
        if self.kind is bool:
            return isinstance(value, bool)
        if isinstance(value, bool) or not isinstance(value, _STORED[self.kind]):
            return False
        if self.choices:
            return value in self.values
        try:
            self.read(value)
        except ValueError:
            return False
        return True

    def load(self, value: Any) -> Any:
        """A stored setting read leniently: the value when it is one this parameter holds,
        ``0``/``1`` for a yes/no (as IDs and older settings wrote it), else the default."""
        if self.kind is bool and not isinstance(value, bool) and value in (0, 1):
            return bool(value)
        if self.stored(value):
            return self.kind(value)
        return self.default

    def id_value(self, value: Any) -> Any:
        """The value as a generator's parameters (a level's source, its ID) spell it."""
        return self.id_text(value) if self.id_text is not None else value

    def for_generator(self, generator: str) -> bool:
        """Whether ``generator`` takes this parameter."""
        return not self.generators or generator in self.generators


_STORED: dict[type, type | tuple[type, ...]] = {
    bool: bool,
    int: int,
    float: (int, float),
    str: str,
}
"""The stored types a parameter's type accepts (a float setting may be stored as ``1``)."""


def _typed(kind: type, text: Any) -> Any:
    """``text`` as a ``kind``, ValueError in words when it is not one."""
    if isinstance(text, kind) and not (kind is not bool and isinstance(text, bool)):
        return text
    raw = str(text).strip()
    if kind is bool:
        if raw.lower() in ("1", "true", "yes", "on"):
            return True
        if raw.lower() in ("0", "false", "no", "off"):
            return False
        raise ValueError(f"give yes or no (1 or 0), not {text!r}")
    if kind is int:
        try:
            return int(raw, 10)
        except ValueError:
            raise ValueError(f"give a whole number, not {text!r}") from None
    if kind is float:
        try:
            value = float(raw)
        except ValueError:
            value = math.nan
        if not math.isfinite(value):
            raise ValueError(f"give a number, not {text!r}")
        return value
    return raw


class Params:
    """A game's parameters in order: the stored settings, the generator's parameters.

    Args:
        params: The parameters (names unique).
        renames: Older names of stored settings -> the parameter's name (read by
            :meth:`from_dict`, so settings an older version wrote still load).
    """

    def __init__(self, params: Iterable[Param], renames: Mapping[str, str] | None = None) -> None:
        self.params: tuple[Param, ...] = tuple(params)
        """The parameters, in the order the dialog and ``--help`` show them."""
        self.renames: dict[str, str] = dict(renames or {})
        """Older name -> name."""
        names = [param.name for param in self.params]
        if len(set(names)) != len(names):
            raise ValueError(f"a parameter is declared twice: {names}")
        unknown = set(self.renames.values()) - set(names)
        if unknown:
            raise ValueError(f"renamed to no parameter: {sorted(unknown)}")

    def __iter__(self) -> Iterator[Param]:
        return iter(self.params)

    def __getitem__(self, name: str) -> Param:
        for param in self.params:
            if param.name == name:
                return param
        raise KeyError(name)

    def __add__(self, other: Params) -> Params:
        return Params(self.params + other.params, {**self.renames, **other.renames})

    @property
    def names(self) -> tuple[str, ...]:
        """The parameters' names, in order."""
        return tuple(param.name for param in self.params)

    def defaults(self) -> dict[str, Any]:
        """Every parameter's default, by name."""
        return {param.name: param.default for param in self.params}

    def validate(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """Check values strictly (a program's, not a stored file's).

        Args:
            values: Some parameters' values, by name or an older name (the others default).

        Returns:
            Every parameter's value, by name.

        Raises:
            ValueError: For an unknown name or a value the parameter does not hold.
        """
        checked = self.defaults()
        for key, value in values.items():
            name = self.renames.get(key, key)
            if name not in checked:
                raise ValueError(f"no parameter {key!r} (parameters: {', '.join(self.names)})")
            if not self[name].stored(value):
                raise ValueError(f"{name} cannot be {value!r}")
            checked[name] = self[name].kind(value)
        return checked

    def from_dict(self, data: Any) -> dict[str, Any]:
        """Read stored settings leniently: older names are read under their new name;
        unknown keys are ignored; a missing or invalid value is the default.

        Args:
            data: What the store holds (anything: a damaged file is not an error).

        Returns:
            Every parameter's value, by name.
        """
        if not isinstance(data, Mapping):
            return self.defaults()
        found = {self.renames.get(key, key): value for key, value in data.items()}
        return {param.name: param.load(found.get(param.name, param.default)) for param in self}

    def to_dict(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """The JSON-ready stored form (every parameter, by name, in order)."""
        return {param.name: values.get(param.name, param.default) for param in self}

    def id_params(self, values: Mapping[str, Any], generator: str) -> dict[str, Any]:
        """The parameters ``generator`` is given, in their ID form.

        Args:
            values: Every parameter's value, by name.
            generator: The generator's name (a parameter may be for some generators only).

        Returns:
            ``name -> ID form`` for the parameters this generator takes.
        """
        return {
            param.name: param.id_value(values.get(param.name, param.default))
            for param in self
            if param.for_generator(generator)
        }

    def id_declaration(self) -> tuple[tuple[str, Any], ...]:
        """The ``id_params`` of a game's registration: the parameters every generator takes,
        with their defaults in ID form (:attr:`core.registry.GameInfo.id_params`)."""
        return tuple(
            (param.name, param.id_value(param.default)) for param in self if not param.generators
        )
