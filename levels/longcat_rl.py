"""The learned Longcat generator's bundled weights (``levels/longcat/rl/sdpcgrl-<W>x<H>.npz``).

Core does no I/O, so the file is read here (through :mod:`importlib.resources`, which finds
it in a source checkout and in a non-editable install alike) and the arrays are handed to
:meth:`core.longcat.policy.Policy.from_arrays`. :func:`install` tells the ``rl`` generator to
use :func:`load_policy`; nothing is read (and numpy is not imported) until a learned level is
generated. Only numpy is needed (no PyTorch).

The file is a plain ``numpy.savez`` archive (``allow_pickle=False``): one array per layer
(``conv1.weight``, ``conv1.bias``, ... ``out.bias``) and ``info``, a JSON text with the
size and how it was trained (written by ``bench/longcat_rl.py``).
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import TYPE_CHECKING

from core.longcat.generate import install_policies

if TYPE_CHECKING:
    from core.longcat.policy import Policy

__all__ = ["install", "load_policy", "policy_file", "shipped_sizes"]


def policy_file(width: int, height: int) -> Traversable:
    """The bundled weights file of a size (a Traversable; it may not exist)."""
    return files(__package__ or "levels").joinpath("longcat", "rl", f"sdpcgrl-{width}x{height}.npz")


def shipped_sizes() -> list[tuple[int, int]]:
    """The sizes with bundled weights, ``(width, height)``, sorted."""
    folder = files(__package__ or "levels").joinpath("longcat", "rl")
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
    import numpy as np

    from core.longcat.policy import Policy, PolicyError

    path = policy_file(width, height)
    if not path.is_file():
        return None
    try:
        with path.open("rb") as f, np.load(f, allow_pickle=False) as data:
            info = json.loads(str(data["info"]))
            arrays = {k: data[k] for k in data.files if k != "info"}
    except (OSError, ValueError, KeyError) as error:
        raise PolicyError(f"cannot read the learned generator's weights: {error}") from None
    if (info.get("width"), info.get("height")) != (width, height):
        raise PolicyError(f"{path.name} holds a {info.get('size')} policy")
    return Policy.from_arrays(width, height, arrays, info)


def _source(width: int, height: int) -> Policy | None:
    policy = load_policy(width, height)
    if policy is None:
        shipped = ", ".join(f"{w}x{h}" for w, h in shipped_sizes()) or "none"
        raise ValueError(f"no learned generator for {width}x{height} (trained sizes: {shipped})")
    return policy


def install() -> None:
    """Make the ``rl`` generator use the bundled weights (idempotent)."""
    install_policies(_source)
