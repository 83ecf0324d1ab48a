"""The learned Longcat generator's bundled weights (``levels/longcat/rl/sdpcgrl-<W>x<H>.npz``).

Core does no I/O, so the file is read here, on the shell's side (through
:mod:`importlib.resources`, which finds it in a source checkout and in a non-editable install
alike: the weights are package data of ``levels/``, which holds data only), and the arrays
are handed to :meth:`core.longcat.policy.Policy.from_arrays`. :func:`install` tells the
``rl`` generator to use :func:`load_policy`; Longcat's registration names it as its
``setup`` (:attr:`core.registry.GameInfo.setup`), so whoever loads the game's generators
(:data:`core.longcat.catalog.GENERATORS`) through the registry gets the weights too. Nothing
is read (and numpy is not imported) until a learned level is generated. Only numpy is needed
(no PyTorch).

The file is a plain ``numpy.savez`` archive (``allow_pickle=False``): one array per layer
(``conv1.weight``, ``conv1.bias``, ... ``out.bias``) and ``info``, a JSON text with the
size and how it was trained (written by ``bench/longcat_rl.py``).
"""

from __future__ import annotations

import json
import os
from functools import cache
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import IO, TYPE_CHECKING

from core.longcat.generate import install_policies

if TYPE_CHECKING:
    from core.longcat.policy import Policy

__all__ = ["install", "load_policy", "policy_file", "read_policy", "shipped_sizes"]


def policy_file(width: int, height: int) -> Traversable:
    """The bundled weights file of a size (a Traversable; it may not exist)."""
    return files("levels").joinpath("longcat", "rl", f"sdpcgrl-{width}x{height}.npz")


def shipped_sizes() -> list[tuple[int, int]]:
    """The sizes with bundled weights, ``(width, height)``, sorted."""
    folder = files("levels").joinpath("longcat", "rl")
    if not folder.is_dir():
        return []
    sizes = []
    for entry in folder.iterdir():
        name = entry.name
        if name.startswith("sdpcgrl-") and name.endswith(".npz"):
            w, _, h = name[len("sdpcgrl-") : -len(".npz")].partition("x")
            if w.isdigit() and h.isdigit():
                sizes.append((int(w), int(h)))
    return sorted(sizes)


@cache
def load_policy(width: int, height: int) -> Policy | None:
    """The bundled policy of a size, or None when none is shipped for it.

    Raises:
        PolicyError: The file exists but is not a policy of the seed's network.
    """
    from core.longcat.policy import PolicyError

    path = policy_file(width, height)
    if not path.is_file():
        return None
    policy = read_policy(path)
    if (policy.width, policy.height) != (width, height):
        raise PolicyError(f"{path.name} holds a {policy.width}x{policy.height} policy")
    return policy


def read_policy(path: Traversable | str | os.PathLike[str]) -> Policy:
    """Read a weights file (the bundled ones, or one that ``bench/longcat_rl.py`` wrote).

    Raises:
        PolicyError: Not readable, or not a policy of the seed's network.
    """
    import numpy as np

    from core.longcat.policy import Policy, PolicyError

    try:
        with open_binary(path) as f, np.load(f, allow_pickle=False) as data:
            info = json.loads(str(data["info"]))
            arrays = {k: data[k] for k in data.files if k != "info"}
        width, height = int(info["width"]), int(info["height"])
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise PolicyError(f"cannot read the learned generator's weights: {error}") from None
    return Policy.from_arrays(width, height, arrays, info)


def open_binary(path: Traversable | str | os.PathLike[str]) -> IO[bytes]:
    """Open a Traversable or a file path for reading bytes."""
    if isinstance(path, str | os.PathLike):
        return open(path, "rb")
    return path.open("rb")


def _source(width: int, height: int) -> Policy | None:
    policy = load_policy(width, height)
    if policy is None:
        shipped = ", ".join(f"{w}x{h}" for w, h in shipped_sizes()) or "none"
        raise ValueError(f"no learned generator for {width}x{height} (trained sizes: {shipped})")
    return policy


def install() -> None:
    """Make the ``rl`` generator use the bundled weights (idempotent)."""
    install_policies(_source)
