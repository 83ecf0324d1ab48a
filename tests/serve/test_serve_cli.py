"""``termarcade serve`` on the command line: clear one-line errors, exit status 2."""

from __future__ import annotations

import socket

import pytest
from click.testing import CliRunner

from tui.cli import main

pytestmark = pytest.mark.cli


def _run(*args: str):
    return CliRunner().invoke(main, ["serve", *args])


def test_a_mode_is_needed() -> None:
    result = _run()
    assert result.exit_code == 2 and "choose --ssh or --web" in result.output


def test_a_busy_port_is_one_line(tmp_path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = _run("--ssh", "--port", str(port))
    assert result.exit_code == 2
    assert f"cannot listen on 127.0.0.1:{port}" in result.output
    assert "Traceback" not in result.output


def test_unreadable_keys_are_named(tmp_path) -> None:
    bad = tmp_path / "host_key"
    bad.write_text("not a key\n")
    result = _run("--ssh", "--port", "0", "--host-key", str(bad))
    assert result.exit_code == 2 and f"cannot read the host key {bad}" in result.output
    result = _run("--ssh", "--port", "0", "--authorized-keys", str(tmp_path / "missing"))
    assert result.exit_code == 2 and "missing" in result.output
    assert "Traceback" not in result.output


def test_ssh_options_are_not_for_the_web(tmp_path) -> None:
    result = _run("--web", "--host-key", str(tmp_path / "key"))
    assert result.exit_code == 2 and "--ssh" in result.output


def test_without_the_web_extra_the_hint_names_the_extra_for_a_clone(monkeypatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "tui.serve.web", None)  # textual-serve not installed
    result = _run("--web", "--port", "0")
    assert result.exit_code == 2
    assert "pip install -e '.[web]'" in result.output
    assert "termarcade[web]" not in result.output  # no such package on an index
    assert "termarcade[web]" not in _run("--help").output


def test_serve_is_listed_in_help() -> None:
    result = CliRunner().invoke(main, ["--help"])
    assert "serve" in result.output
