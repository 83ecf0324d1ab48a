"""Every parameter declared once (issue 31): the command line's options, the settings dialog's
fields, the stored settings and the generators' ID parameters come from one declaration.

For each game the three are read back and compared with the declaration; a changed copy of a
declaration is rendered again and all three follow it; settings stored before (2048's
``board_size``/``merge``, a yes/no written ``1``) still load.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import click
import pytest
from click.testing import CliRunner
from textual.app import App
from textual.widgets import Checkbox, Input, Select

from core.game2048.generators import PARAMS as PARAMS_2048
from core.longcat.params import GENERATOR_PARAMS, METHOD
from core.params import Param, Params
from tui.cli.output import IntBetween
from tui.games.game2048 import INFO as INFO_2048
from tui.games.game2048.cli import game2048
from tui.games.game2048.screen import Game2048Screen
from tui.games.game2048.settings_modal import Settings2048, Settings2048Modal
from tui.games.longcat import INFO as INFO_LONGCAT
from tui.games.longcat.cli import longcat
from tui.games.longcat.screen import LongcatScreen
from tui.games.longcat.settings_modal import LongcatSettings, LongcatSettingsModal
from tui.params import Settings, click_options, field, read_fields

pytestmark = pytest.mark.pilot


class Host(App[None]):
    """An app showing one screen (a settings dialog)."""

    def __init__(self, screen: Any) -> None:
        super().__init__()
        self.shown = screen

    def on_mount(self) -> None:
        self.push_screen(self.shown)


class Store:
    """The store's settings, in memory."""

    def __init__(self, settings: dict[str, Any]) -> None:
        self.settings = settings

    def get_setting(self, key: str, default: Any = None) -> Any:
        return self.settings.get(key, default)


class FakeApp:
    def __init__(self, settings: dict[str, Any]) -> None:
        self.store = Store(settings)


def _options(command: click.Command) -> dict[str, click.Option]:
    return {p.name: p for p in command.params if isinstance(p, click.Option) and p.name}


def _check_cli(option: click.Option, param: Param) -> None:
    assert param.option in option.opts and (not param.short or param.short in option.opts)
    assert option.default == param.default and option.help == param.help
    if param.kind is bool:
        assert option.is_flag
    elif param.parse is None and param.kind is int:
        assert isinstance(option.type, IntBetween)
        assert (option.type.low, option.type.high) == (param.low, param.high)


def _check_fields(dialog: Any, params: Params, prefix: str, values: dict[str, Any]) -> None:
    for param in params:
        widget = dialog.query_one(f"#{prefix}-{param.name}")
        if param.kind is bool:
            assert isinstance(widget, Checkbox) and str(widget.label) == param.label
        else:
            assert isinstance(widget, Select)
            assert [(str(label), value) for label, value in widget._options] == [
                (label, value) for value, label in param.choices
            ]
        assert widget.value == values[param.name]


async def test_longcat_cli_dialog_and_ids_come_from_its_declaration() -> None:
    options = _options(longcat.commands["generate"])
    for param in [METHOD, *GENERATOR_PARAMS]:
        _check_cli(options[param.name], param)
    # The ID parameters: what every generator is given, as the registration spells them.
    assert INFO_LONGCAT.id_params == GENERATOR_PARAMS.id_declaration()
    params = LongcatScreen.generator_params(FakeApp({}))
    assert set(params) == set(METHOD.values)
    assert params["sd"] == dict(GENERATOR_PARAMS.id_declaration())
    assert params["rl"]["temperature"] == "0.3"
    chosen = LongcatSettings(method="rl", band="hard", temperature=0.2)
    async with Host(LongcatSettingsModal(chosen)).run_test() as pilot:
        dialog = pilot.app.screen
        _check_fields(dialog, Params([METHOD]) + GENERATOR_PARAMS, "lc-settings", chosen.values)
        assert dialog.chosen() == chosen


async def test_2048_cli_dialog_and_ids_come_from_its_declaration() -> None:
    for command in ("replay", "hint", "autoplay"):
        options = _options(game2048.commands[command])
        _check_cli(options["size"], PARAMS_2048["size"])
        _check_cli(options["merge"], PARAMS_2048["rule"])
    assert INFO_2048.id_params == PARAMS_2048.id_declaration()
    assert Game2048Screen.generator_params(FakeApp({})) == {"new": {"size": 4, "rule": "standard"}}
    chosen = Settings2048(size=6, rule="threes", animate=False)
    async with Host(Settings2048Modal(chosen)).run_test() as pilot:
        dialog = pilot.app.screen
        _check_fields(dialog, Settings2048.PARAMS, "settings", chosen.values)
        assert dialog.chosen() == chosen


def test_the_command_line_defaults_are_the_settings_defaults() -> None:
    """Defect: ``--difficulty`` defaulted to None and ``--temperature`` to None, the settings
    to ``any`` and 0.3; ``--help`` now shows the one default."""
    options = _options(longcat.commands["generate"])
    defaults = LongcatSettings()
    for name in ("method", "size", "band", "unique", "temperature"):
        assert options[name].default == getattr(defaults, name), name
    shown = " ".join(CliRunner().invoke(longcat, ["generate", "--help"]).output.split())
    assert "one solution. -d, --difficulty LO:HI" in shown
    assert "extreme. [default: any]" in shown and "best. [default: 0.3]" in shown


def test_settings_stored_by_older_versions_load() -> None:
    # 2048 stored board_size and merge; the generators and IDs call them size and rule.
    old = {"board_size": 6, "merge": "fibonacci", "animate": False}
    app = FakeApp({"2048.settings": old})
    assert Game2048Screen.generator_params(app) == {"new": {"size": 6, "rule": "fibonacci"}}
    settings = Settings2048.from_dict(old)
    assert settings.to_dict() == {"size": 6, "rule": "fibonacci", "animate": False}
    assert (settings.board_size, settings.merge) == (6, "fibonacci")  # old names still read
    # A yes/no written 0/1 (as a level's source spells it) is read, not dropped.
    longcat_old = {"method": "pu", "band": "easy", "size": "6x6", "unique": 1}
    app = FakeApp({"longcat.settings": longcat_old})
    assert LongcatScreen.generator_params(app)["pu"] == {"size": "6x6", "band": "easy", "unique": 1}
    assert LongcatSettings.from_dict(longcat_old).unique is True


class Toy(Settings):
    """Settings made from a changed copy of Longcat's declaration."""


async def test_a_changed_declaration_changes_every_place() -> None:
    size = dataclasses.replace(
        GENERATOR_PARAMS["size"],
        default="7x7",
        choices=(*GENERATOR_PARAMS["size"].choices, ("7x7", "seven")),
        help="The grid.",
    )
    changed = Params([size if p.name == "size" else p for p in GENERATOR_PARAMS])
    Toy.PARAMS = Toy.GENERATOR = changed

    @click.command()
    @click_options(changed)
    def command(**values: Any) -> None:
        click.echo(repr(sorted(values.items())))

    ran = CliRunner().invoke(command, ["--difficulty", "easy"])
    assert "('size', '7x7')" in ran.output and "('band', 'easy')" in ran.output
    assert "The grid. [default: 7x7]" in " ".join(
        CliRunner().invoke(command, ["--help"]).output.split()
    )
    assert Toy().params("sd") == {"size": "7x7", "band": "any", "unique": 0}
    assert changed.id_declaration()[0] == ("size", "7x7")
    async with Host(fields_screen(changed)).run_test() as pilot:
        screen = pilot.app.screen
        select = screen.query_one("#toy-size", Select)
        assert select.value == "7x7" and ("seven", "7x7") in [
            (str(label), value) for label, value in select._options
        ]
        assert read_fields(screen, changed, "toy") == changed.defaults()


def fields_screen(params: Params) -> Any:
    from textual.screen import Screen

    class Fields(Screen[None]):
        def compose(self) -> Any:
            for param in params:
                yield field(param, param.default, "toy")

    return Fields()


async def test_a_free_value_is_an_input_checked_by_its_declaration() -> None:
    heat = Param("heat", 0.5, "Heat, 0 to 1.", low=0.0, high=1.0)
    params = Params([heat])
    async with Host(fields_screen(params)).run_test() as pilot:
        screen = pilot.app.screen
        entry = screen.query_one("#toy-heat", Input)
        assert entry.value == "0.5"
        entry.value = "0.75"
        assert read_fields(screen, params, "toy") == {"heat": 0.75}
        entry.value = "2"  # out of range: not read, and the field says it is invalid
        assert read_fields(screen, params, "toy") == {}
        assert not entry.validate(entry.value).is_valid
