"""Everything that talks to a person: the Textual app and the click command line.

This package must stay trivial to import. The console script (:mod:`tui.entry`) can only set
up its ctrl+c handling after Python has imported this file, so any work done here is time in
which ctrl+c would print a traceback. That is why ``__version__`` is looked up on first use
(PEP 562 module ``__getattr__``) instead of at import: :mod:`importlib.metadata` alone takes
tens of milliseconds to import. The app lives in :mod:`tui.app`, the CLI in :mod:`tui.cli`.
"""

__all__ = ["__version__"]


def __getattr__(name: str) -> str:
    """Compute ``__version__`` on first access and keep it.

    Args:
        name: The attribute asked for.

    Returns:
        The installed distribution's version (``0.0.0+unknown`` in a never-installed checkout).

    Raises:
        AttributeError: For any other name.
    """
    if name != "__version__":
        raise AttributeError(f"module 'tui' has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        found = version("termarcade")
    except PackageNotFoundError:  # A source checkout that was never installed.
        found = "0.0.0+unknown"
    globals()["__version__"] = found
    return found
