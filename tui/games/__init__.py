"""The games' folders: one subpackage per game, ``tui/games/<game>/``.

Each folder holds everything of one game's interface: its registration (``INFO``, a
:class:`core.registry.GameInfo`, in the folder's ``__init__.py``), screen, level editor,
widgets, modals, CLI group (``cli.py``), styles (``styles.tcss``) and help page
(``help.md``). The registry finds the folders by scanning this package (it is named once
under the ``termarcade.game_folders`` entry point), so adding a game adds a folder and edits
no shared file. A folder's ``__init__`` must stay cheap to import: it names the game's parts
as ``"module:attr"`` strings and imports nothing but :mod:`core.registry`.
"""
