"""core.jit: the compiled searches' cache switch and kernel import (2048's and Longcat's)."""

from __future__ import annotations

import sys
import types

import pytest

from core import jit


def test_the_cache_follows_the_bytecode_switch_the_variable_and_a_refusal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    monkeypatch.delenv(jit.CACHE_ENV, raising=False)
    assert jit.cache_enabled([False])
    assert not jit.cache_enabled([True])  # numba found nowhere to write
    monkeypatch.setenv(jit.CACHE_ENV, "1")
    assert not jit.cache_enabled([False])
    monkeypatch.setenv(jit.CACHE_ENV, "0")
    assert jit.cache_enabled([False])
    monkeypatch.setattr(sys, "dont_write_bytecode", True)  # python -B
    assert not jit.cache_enabled([False])


def test_a_kernel_that_cannot_cache_is_imported_again_with_the_cache_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # numba raises RuntimeError ("no locator available") while importing a module whose
    # cached functions have nowhere to write; the half-imported module must not stay behind.
    name = "termarcade_test_kernel"
    kernel = types.ModuleType(name)
    calls: list[bool] = []

    def import_module(asked: str) -> types.ModuleType:
        assert asked == name
        calls.append(refused[0])
        if len(calls) == 1:
            sys.modules[name] = types.ModuleType(name)  # what a failed import leaves
            raise RuntimeError("cannot cache function: no locator available")
        assert name not in sys.modules
        return kernel

    refused = [False]
    monkeypatch.setattr(jit.importlib, "import_module", import_module)
    assert jit.import_kernel(name, refused) is kernel
    assert calls == [False, True] and refused == [True]
    assert not jit.cache_enabled(refused)
