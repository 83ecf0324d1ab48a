"""The keys every game screen has (``PuzzleScreen.BINDINGS``): undo, redo, restart, tip, next
level, back, the level editor, the Game ID and the digits of numbered moves.

Each binding has an id (``puzzle.undo``), so the player's keymap can change its keys and
``PuzzleScreen.binding_key`` finds them. Also the four slides of the games moved by direction
(:func:`slide_bindings`).
"""

from __future__ import annotations

from textual.binding import Binding, BindingType

__all__ = ["PUZZLE_BINDINGS", "SLIDE_KEYS", "slide_bindings"]

PUZZLE_BINDINGS: list[BindingType] = [
    Binding("u,ctrl+z", "undo", "Undo", id="puzzle.undo", key_display="u"),
    # Redo is kept out of the footer (the header says "U redo" when there is one).
    Binding("U,ctrl+y", "redo", "Redo", id="puzzle.redo", key_display="U", show=False),
    Binding(
        "R",
        "restart",
        "Restart",
        id="puzzle.restart",
        tooltip="Back to the start, as a move that u can undo.",
    ),
    Binding("t", "tip", "Tip", id="puzzle.tip"),
    Binding(
        "N",
        "next_level",
        "Next",
        id="puzzle.next",
        tooltip="The next level (a new one for generated levels); this game stays saved.",
    ),
    Binding("escape,q", "back", "Back", id="puzzle.back", key_display="esc"),
    # Only where the game registers an editor (check_action); kept out of the footer,
    # which is full at 80 columns (the help page and the palette name it).
    Binding(
        "E",
        "edit_level",
        "Editor",
        id="puzzle.editor",
        show=False,
        tooltip="The level designer's bench on this level (the game stays as it is).",
    ),
    Binding(
        "I",
        "level_id",
        "Game ID",
        show=False,
        id="puzzle.id",
        tooltip="This level's ID, to share it; or open a level by its ID.",
    ),
    *(
        Binding(
            str(digit), f"digit({digit})", f"Move {digit}", show=False, id=f"puzzle.digit{digit}"
        )
        for digit in range(10)
    ),
]
"""The base's bindings, in the footer's order."""

SLIDE_KEYS = {"up": "up,k,w", "down": "down,j,s", "left": "left,h,a", "right": "right,l,d"}
"""The keys of each direction in a game whose moves are slides: arrows, hjkl and wasd."""


def slide_bindings(prefix: str) -> list[BindingType]:
    """The bindings of a game whose moves are the four slides (2048, Longcat).

    Args:
        prefix: The game's binding prefix: the ids are ``<prefix>.up`` ... (what the screen's
            ``keys_for`` looks up), the actions ``move('up')`` ...

    Returns:
        Up, down, left and right, kept out of the footer.
    """
    return [
        Binding(
            keys, f"move('{direction}')", direction.title(), show=False, id=f"{prefix}.{direction}"
        )
        for direction, keys in SLIDE_KEYS.items()
    ]
