"""Every place a game's parameter appears, derived from its one declaration (:mod:`core.params`).

As Harlequin's ``options.py`` renders each option into click and into Textual, a
:class:`core.params.Param` becomes:

* a command-line option (:func:`click_option`, :func:`click_options`): its long and short
  spelling, type (range, choices, the declaration's own reading), default and help;
* a settings dialog's field (:func:`field`, :func:`read_fields`): a ``Select`` of the offered
  choices, a ``Checkbox`` for a yes/no, an ``Input`` checked by the declaration otherwise;
* the stored settings and a generator's parameters (:class:`Settings`).

Textual is imported only when a field is made: the command line imports this module too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, ClassVar

import click

from core.params import Param, Params
from tui.cli.output import IntBetween, did_you_mean

__all__ = [
    "ParamType",
    "Settings",
    "click_option",
    "click_options",
    "field",
    "read_fields",
]


class ParamType(click.ParamType):
    """A value read by its declaration (:meth:`core.params.Param.read`), errors in its words.

    Args:
        param: The declaration.
    """

    def __init__(self, param: Param) -> None:
        self.param = param
        self.name = param.metavar or param.kind.__name__

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """Read ``value`` (a default arrives as the value itself: it is read the same way)."""
        try:
            return self.param.read(value)
        except ValueError as error:
            self.fail(str(error), param, ctx)


class ChoiceList(ParamType):
    """Several of a declaration's choices, comma-separated (``sd,template``): a list."""

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> list[str]:
        """Split ``value`` and check each name against the choices."""
        if isinstance(value, list):
            return value
        names = [name.strip() for name in str(value).split(",") if name.strip()]
        word = self.param.name
        if not names:
            self.fail(f"give a {word}", param, ctx)
        known = [str(choice) for choice in self.param.values]
        for name in names:
            if name not in known:
                self.fail(
                    f"unknown {word} {name!r}{did_you_mean(name, known)}"
                    f" ({word}s: {', '.join(known)})",
                    param,
                    ctx,
                )
        return names


def click_type(param: Param) -> click.ParamType | None:
    """The click type that reads ``param`` (None for a flag).

    Args:
        param: The declaration.

    Returns:
        A list of choices, the declaration's own reading, a whole number in its range
        (:class:`tui.cli.output.IntBetween`), a choice, or the declaration's reading.
    """
    if param.kind is bool:
        return None
    if param.many:
        return ChoiceList(param)
    if param.parse is None and param.kind is int:
        low = None if param.low is None else int(param.low)
        high = None if param.high is None else int(param.high)
        return IntBetween(low, high, what=param.words)
    if param.parse is None and param.kind is str and param.choices:
        return click.Choice([str(value) for value in param.values])
    return ParamType(param)


def click_option(param: Param, dest: str = "", **overrides: Any) -> Callable[[Any], Any]:
    """The command-line option of ``param``: ``--name`` (or its :attr:`~Param.flag`), the
    value arriving as the function's ``name`` argument.

    Args:
        param: The declaration.
        dest: The function's argument when it is not ``name`` (a command written before the
            declaration, such as 2048's ``merge`` for ``rule``).
        overrides: click keywords that differ for one command (rarely needed).

    Returns:
        A click decorator.
    """
    spellings = [param.option, *([param.short] if param.short else []), dest or param.name]
    settings: dict[str, Any] = {"help": param.help, "default": param.default}
    if param.kind is bool:
        settings["is_flag"] = True
    else:
        settings["type"] = click_type(param)
        settings["show_default"] = True
        if param.metavar:
            settings["metavar"] = param.metavar
    settings.update(overrides)
    return click.option(*spellings, **settings)


def click_options(params: Iterable[Param]) -> Callable[[Any], Any]:
    """One decorator adding the options of ``params``, listed by ``--help`` in their order.

    Args:
        params: The declarations (a :class:`core.params.Params` or some of its parameters).

    Returns:
        A click decorator.
    """
    decorators = [click_option(param) for param in params]

    def add(func: Any) -> Any:
        for decorator in reversed(decorators):
            func = decorator(func)
        return func

    return add


# --------------------------------------------------------------------------- the dialog


def field(param: Param, value: Any, id_prefix: str, compact: bool = False) -> Any:
    """The settings dialog's field for ``param``, showing ``value``; its id is
    ``<id_prefix>-<name>``.

    Args:
        param: The declaration.
        value: The value to show (the current setting).
        id_prefix: The dialog's prefix of widget ids (``"lc-settings"``).
        compact: Textual's compact look (no border).

    Returns:
        A ``Checkbox`` (a yes/no), a ``Select`` of the choices, or an ``Input`` whose
        validator is the declaration's reading.
    """
    from textual.validation import Function
    from textual.widgets import Checkbox, Input, Select

    widget_id = f"{id_prefix}-{param.name}"
    if param.kind is bool:
        return Checkbox(param.label or param.help, bool(value), compact=compact, id=widget_id)
    if param.choices:
        return Select(
            [(label, choice) for choice, label in param.choices],
            value=value,
            allow_blank=False,
            compact=compact,
            id=widget_id,
        )
    return Input(
        str(value),
        placeholder=param.help,
        validators=[Function(lambda text: _reads(param, text), param.help)],
        compact=compact,
        id=widget_id,
    )


def _reads(param: Param, text: str) -> bool:
    try:
        param.read(text)
    except ValueError:
        return False
    return True


def read_fields(screen: Any, params: Iterable[Param], id_prefix: str) -> dict[str, Any]:
    """The values the dialog's fields show (made by :func:`field`), by name; a field that
    shows nothing valid is left out (the caller keeps the current value).

    Args:
        screen: The dialog.
        params: The declarations whose fields to read.
        id_prefix: The prefix given to :func:`field`.

    Returns:
        ``name -> value``.
    """
    from textual.widgets import Checkbox, Input, Select

    values: dict[str, Any] = {}
    for param in params:
        widget = screen.query_one(f"#{id_prefix}-{param.name}")
        if isinstance(widget, Checkbox):
            values[param.name] = bool(widget.value)
        elif isinstance(widget, Select):
            if widget.value is not Select.BLANK:
                values[param.name] = widget.value
        elif isinstance(widget, Input) and _reads(param, widget.value):
            values[param.name] = param.read(widget.value)
    return values


# --------------------------------------------------------------------------- stored settings


class Settings:
    """A game's settings: one value per declared parameter, read as attributes.

    A subclass names its declaration (:attr:`PARAMS`) and which of them a generator takes
    (:attr:`GENERATOR`); nothing else. Immutable and compared by value.

    Args:
        values: Some parameters' values by name (or an older name); the others default.

    Raises:
        ValueError: For an unknown name or a value the parameter does not hold.
    """

    PARAMS: ClassVar[Params] = Params([])
    """Every setting (the generator's and the screen's own, such as the animation)."""
    GENERATOR: ClassVar[Params] = Params([])
    """The settings a generator takes (a part of :attr:`PARAMS`)."""

    def __init__(self, **values: Any) -> None:
        object.__setattr__(self, "_values", self.PARAMS.validate(values))

    def __getattr__(self, name: str) -> Any:
        values = self.__dict__.get("_values", {})
        name = self.PARAMS.renames.get(name, name)
        if name in values:
            return values[name]
        raise AttributeError(name)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable: make a new one")

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.values == getattr(other, "values", None)

    def __hash__(self) -> int:
        return hash(tuple(self.values.items()))

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in self.values.items())
        return f"{type(self).__name__}({shown})"

    @property
    def values(self) -> dict[str, Any]:
        """Every setting's value, by name (a copy)."""
        return dict(self.__dict__["_values"])

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (what the store keeps)."""
        return self.PARAMS.to_dict(self.values)

    @classmethod
    def from_dict(cls, data: Any) -> Any:
        """Read stored settings leniently (:meth:`core.params.Params.from_dict`): older
        names load, unknown or invalid values fall back to the defaults.

        Args:
            data: What the store holds.

        Returns:
            An instance of the class it is called on.
        """
        settings = cls.__new__(cls)
        object.__setattr__(settings, "_values", cls.PARAMS.from_dict(data))
        return settings

    def params(self, generator: str | None = None) -> dict[str, Any]:
        """The parameters ``generator`` is given, in their ID form (a level's source).

        Args:
            generator: The generator's name (None: the parameters every generator takes).

        Returns:
            ``name -> value`` as a level's source and ID spell it.
        """
        return self.GENERATOR.id_params(self.values, generator or "")
