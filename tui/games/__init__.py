"""Game registrations: one small module per game, each holding a :class:`core.registry.GameInfo`.

These modules are listed as ``termarcade.games`` entry points in ``pyproject.toml`` and must
stay cheap to import: they name the game's parts as ``"module:attr"`` strings and import
nothing but :mod:`core.registry`. See :mod:`core.registry` for how the shell reads them.
"""
