"""The leaderboard screen: every player's best, per level and per 2048 board.

Left, the boards of one game: a puzzle game's bundled levels (by pack, ``✓`` on those you
solved), then your own levels that have results, then levels shared by ID that you played
(a custom level's board is its ID's, :func:`tui.ids.board_ref`, so everybody who plays the
same level shares it); a scored game's boards (2048: one per size
and rule). Right, the top of the highlighted board: fewest moves (against par, ties by time)
and fastest (ties by moves), or the best scores. Your own line is marked ``▶`` and shown even
when it is below the top. Generated levels that have results are listed last, by their ID
(``longcat:sd-8x8-hard#48213``): players who share a seed's ID share its board.

Autoplayed games have their own boards: ``a`` switches between the humans' and those.

Keys: ``j``/``k``/arrows pick a board; ``h``/``l``/left/right switch games; ``a`` humans /
autoplayed; ``?`` help; ``escape``/``q`` back.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Header, Label, Static
from textual.widgets.option_list import Option

from core import registry
from core.registry import GameInfo
from core.text import escape_controls, shorten
from tui.screens.common import NavOptionList, ScreenHooks
from tui.sources import CUSTOM, MINE, SourceId, SourceKind, follow_bundled_renames
from tui.store import BY_MOVES, BY_TIME, BoardEntry
from tui.text import plain
from tui.widgets.footer import ArcadeFooter

__all__ = ["BoardChoice", "LeaderboardScreen", "board_choices", "format_seconds", "par_note"]

OWN_MARK = "▶"
"""Marks the viewer's own line."""
MAX_LINES = 10
"""Most lines of one board (a tall terminal); fewer when the terminal is short."""
NAME_WIDTH = 16
"""Player names are cut to this many characters."""


@dataclass(frozen=True)
class BoardChoice:
    """One row of the board list.

    Attributes:
        kind: ``"level"``, ``"score"`` or ``"heading"`` (a pack title, not selectable).
        title: What the list shows.
        source: The level's source id (level boards).
        key: The level's key, or the score board's name (``"4x4-standard"``).
        par: The level's par, if it has one.
        progress: ``(source, key)`` where the player's solved mark is kept, when it is not
            the board's (an own level's board is its ID's, its progress stays its own).
    """

    kind: str
    title: str
    source: str = ""
    key: str = ""
    par: int | None = None
    progress: tuple[str, str] | None = None


def board_title(board: str) -> str:
    """``"4x4-standard"`` -> ``"4×4 standard"``."""
    return re.sub(r"(\d+)x(\d+)", r"\1×\2", board).replace("-", " ")


def board_choices(info: GameInfo, store: Any) -> list[BoardChoice]:
    """The boards of one game, in list order (see the module docstring).

    Args:
        info: The game.
        store: The app's store.

    Returns:
        Headings and boards; empty when the game has neither levels nor scores.
    """
    choices: list[BoardChoice] = []
    # Results under a renamed bundled level's old title join its board (once).
    follow_bundled_renames(store, info.id)
    scores = store.score_boards(info.id)
    if scores:
        choices.append(BoardChoice("heading", "Best scores"))
        choices += [BoardChoice("score", board_title(board), key=board) for board in scores]
    for pack_id, pack in _bundled(info):
        source = SourceId.of_pack(pack_id)
        choices.append(BoardChoice("heading", pack.title or pack_id))
        choices += [
            BoardChoice("level", level.title, source, level.title, level.par)
            for level in pack.levels
        ]
    boards = set(store.boards(info.id))
    own = []
    listed: set[str] = set()
    for item in store.my_levels(info.id):
        key = _custom_key(info.id, item.text)
        if key is None:  # a damaged level has no ID: its board stays its own
            if (MINE, str(item.id)) in boards:
                own.append(BoardChoice("level", item.title, MINE, str(item.id)))
            continue
        if (MINE, str(item.id)) in boards:  # results recorded before levels had IDs
            store.move_results(info.id, (MINE, str(item.id)), (CUSTOM, key))
            boards.add((CUSTOM, key))
        if (CUSTOM, key) in boards and key not in listed:
            listed.add(key)
            progress = (MINE, str(item.id))
            own.append(BoardChoice("level", item.title, CUSTOM, key, progress=progress))
    if own:
        choices.append(BoardChoice("heading", "My levels"))
        choices += own
    shared = []
    for source, key in sorted(boards):
        if source != CUSTOM or key in listed:
            continue
        save = store.save_info(info.id, f"{CUSTOM}|{key}")  # the title is in the save
        title = (save.summary or {}).get("title") if save is not None else None
        if title:
            shared.append(BoardChoice("level", str(title), source, key))
    if shared:
        choices.append(BoardChoice("heading", "Shared levels (opened by their ID)"))
        choices += shared
    generated = [
        BoardChoice("level", _generated_title(info, source, key), source, key)
        for source, key in sorted(boards)
        if SourceId(source).kind is SourceKind.GENERATOR
    ]
    if generated:
        choices.append(BoardChoice("heading", "Generated levels (by ID)"))
        choices += generated
    return choices


def _generated_title(info: GameInfo, source: str, key: str) -> str:
    """A generated level's board is named by its ID (``longcat:sd-8x8-hard#48213``)."""
    from tui.ids import ref_id
    from tui.sources import LevelRef

    return ref_id(info.id, LevelRef(source, key)) or f"{source} #{key}"


def _custom_key(game: str, text: str) -> str | None:
    """The board key of a level text (its custom ID's, :func:`tui.ids.custom_key`)."""
    from tui.ids import custom_key
    from tui.sources import level_from_text

    try:
        return custom_key(game, level_from_text(text))
    except Exception:  # A damaged level has no board.
        return None


def _bundled(info: GameInfo) -> list[tuple[str, Any]]:
    """The game's bundled packs ([] for a game without a level format or packs)."""
    if info.level_format is None:
        return []
    try:
        from grammar.levels import bundled_packs

        return bundled_packs(info.id)
    except Exception:  # A broken pack must not take the leaderboards down.
        return []


def format_seconds(seconds: float | None) -> str:
    """Play time for a board: ``0:42.3``, ``12:05.0``, ``1:02:03``; ``–`` when unknown."""
    if seconds is None:
        return "–"
    tenths = round(seconds * 10)
    minutes, tenth_seconds = divmod(tenths, 600)
    if minutes < 60:
        return f"{minutes}:{tenth_seconds // 10:02d}.{tenth_seconds % 10}"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{tenth_seconds // 10:02d}"


def par_note(moves: int | None, par: int | None) -> str:
    """Moves against par: ``par``, ``+2``, ``−1``; empty without a par or a count."""
    if moves is None or par is None:
        return ""
    if moves == par:
        return "par"
    return f"+{moves - par}" if moves > par else f"−{par - moves}"


def _player(entry: BoardEntry, me: str) -> Text:
    name = shorten(escape_controls(entry.user) or "local player", NAME_WIDTH)
    return Text(f"{OWN_MARK} {name}" if entry.user == me else f"  {name}")


def board_table(
    entries: Sequence[BoardEntry], me: str, columns: Sequence[str], par: int | None = None
) -> Table | Text:
    """A board as a Rich table, the viewer's own line highlighted.

    Args:
        entries: The board's lines.
        me: The viewer (whose line is marked).
        columns: Which columns after place and player: ``"moves"``, ``"par"``, ``"time"``,
            ``"score"``.
        par: The level's par (for the ``"par"`` column).

    Returns:
        The table, or a line saying there is nothing yet.
    """
    if not entries:
        return Text("No results yet.", style="dim")
    table = Table(box=None, expand=True, pad_edge=False, show_edge=False, header_style="bold")
    table.add_column("#", justify="right", width=3)
    table.add_column("player", no_wrap=True, ratio=1)
    headings = {"moves": "moves", "par": "vs par", "time": "time", "score": "score"}
    for column in columns:
        table.add_column(headings[column], justify="right", no_wrap=True)
    previous = 0
    for entry in entries:
        if entry.place > previous + 1 and previous:  # The viewer's line, far below the top.
            table.add_row("", "  …")
        previous = entry.place
        cells = {
            "moves": "–" if entry.moves is None else str(entry.moves),
            "par": par_note(entry.moves, par),
            "time": format_seconds(entry.seconds),
            "score": "–" if entry.score is None else f"{entry.score:,}",
        }
        table.add_row(
            str(entry.place),
            _player(entry, me),
            *(cells[c] for c in columns),
            style="bold reverse" if entry.user == me else None,
        )
    return table


class BoardList(NavOptionList):
    """The list of boards (moving the highlight shows that board)."""


class LeaderboardScreen(ScreenHooks, Screen[None]):
    """Leaderboards of every playable game (see the module docstring).

    Args:
        game_id: The game to show first (default: the first playable game).
    """

    HELP_TOPIC: ClassVar[str] = "leaderboard"
    CSS_PATH = "../styles/leaderboard.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "back", "Back", id="leaderboard.back", key_display="esc"),
        Binding("left,h", "game(-1)", "Previous game", show=False, id="leaderboard.previous"),
        Binding("right,l", "game(1)", "Next game", id="leaderboard.next", key_display="→"),
        Binding(
            "a",
            "toggle_autoplayed",
            "Humans/autoplayed",
            id="leaderboard.autoplayed",
            tooltip="Switch between the humans' boards and the autoplayed games'.",
        ),
    ]

    def __init__(self, game_id: str | None = None) -> None:
        super().__init__()
        self.games = [info for info in registry.games() if info.playable]
        """The games with boards (every playable game)."""
        ids = [info.id for info in self.games]
        self.game_index = ids.index(game_id) if game_id in ids else 0
        """Which game is shown."""
        self.autoplayed = False
        """True: the boards of autoplayed games; False: the humans' boards."""
        self.choices: list[BoardChoice] = []
        """The rows of the board list."""

    @property
    def game(self) -> GameInfo | None:
        """The game shown (None when no game is playable)."""
        return self.games[self.game_index] if self.games else None

    @property
    def store(self) -> Any:
        from tui.arcade import arcade_of

        return arcade_of(self).store

    # -- layout ------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="lb-title")
        with Horizontal(id="lb"):
            with Vertical(id="lb-boards-column"):
                yield Label("Boards", classes="column-title")
                yield BoardList(id="lb-boards")
            with VerticalScroll(id="lb-tables"):
                yield Static("", id="lb-first", classes="lb-table")
                yield Static("", id="lb-second", classes="lb-table")
        yield ArcadeFooter()

    def on_mount(self) -> None:
        self._fill()
        self.query_one(BoardList).focus()

    def on_resize(self) -> None:
        """A taller terminal shows more lines of each board."""
        self.show_board()

    # -- data --------------------------------------------------------------------------------

    def _fill(self) -> None:
        """List the boards of the current game and show the first one."""
        self._show_title()
        listing = self.query_one(BoardList)
        listing.clear_options()
        game = self.game
        self.choices = board_choices(game, self.store) if game is not None else []
        solved: dict[str, set[str]] = {}
        for choice in self.choices:
            if choice.kind == "heading":
                listing.add_option(Option(plain(choice.title, "bold"), disabled=True))
                continue
            source, key = choice.progress or (choice.source, choice.key)
            if choice.kind == "level" and game is not None and source not in solved:
                solved[source] = self.store.solved_levels(game.id, source)
            mark = "✓" if key in solved.get(source, ()) else " "
            # A title is the player's text: content, never markup.
            listing.add_option(Option(Content(f"{mark} ") + plain(choice.title)))
        first = next((i for i, c in enumerate(self.choices) if c.kind != "heading"), None)
        if first is not None:
            listing.highlighted = first
        self.show_board()

    def _show_title(self) -> None:
        parts = Text()
        for index, info in enumerate(self.games):
            style = "bold reverse" if index == self.game_index else "dim"
            # No-break spaces: a title wraps whole onto the next line, never in two.
            parts.append(f" {info.title} ".replace(" ", "\u00a0"), style=style)
            parts.append(" ")
        other = "the humans' boards" if self.autoplayed else "autoplayed games"
        parts.append(" ←/→\u00a0games · a:\u00a0" + other.replace(" ", "\u00a0"), style="dim")
        self.query_one("#lb-title", Static).update(parts)

    @property
    def selected(self) -> BoardChoice | None:
        """The highlighted board, if any."""
        index = self.query_one(BoardList).highlighted
        if index is None or not 0 <= index < len(self.choices):
            return None
        choice = self.choices[index]
        return None if choice.kind == "heading" else choice

    def _lines(self, boards: int) -> int:
        """How many lines per board fit in the panel (``boards`` boards, stacked)."""
        height = self.query_one("#lb-tables").size.height or 20
        # Each board: two border lines, a header line, and a spare line for the viewer's own.
        return max(3, min(MAX_LINES, height // boards - 4))

    def show_board(self) -> None:
        """Draw the highlighted board (or say there is none)."""
        first = self.query_one("#lb-first", Static)
        second = self.query_one("#lb-second", Static)
        choice, game, me = self.selected, self.game, self.store.user
        who = "autoplayed" if self.autoplayed else "humans"
        if choice is None or game is None:
            first.update(
                Text(
                    "No boards yet: win a level (or play 2048) and your results appear here.",
                    style="dim",
                )
            )
            first.border_title = "Leaderboard"
            second.display = False
            return
        if choice.kind == "score":
            lines = self.store.score_board(
                game.id, choice.key, autoplayed=self.autoplayed, limit=self._lines(1)
            )
            first.update(board_table(lines, me, ("score", "moves", "time")))
            first.border_title = Content.assemble(
                "Best scores · ", plain(choice.title), f" · {who}"
            )
            second.display = False
            return
        lines = self._lines(2)
        by_moves = self.store.level_board(
            game.id, choice.source, choice.key, by=BY_MOVES, autoplayed=self.autoplayed, limit=lines
        )
        by_time = self.store.level_board(
            game.id, choice.source, choice.key, by=BY_TIME, autoplayed=self.autoplayed, limit=lines
        )
        par = f" (par {choice.par})" if choice.par is not None else ""
        first.update(board_table(by_moves, me, ("moves", "par", "time"), choice.par))
        first.border_title = f"Fewest moves{par} · {who}"
        second.update(board_table(by_time, me, ("time", "moves")))
        second.border_title = "Fastest"
        second.display = True

    # -- events and actions --------------------------------------------------------------------

    def on_option_list_option_highlighted(self, event: NavOptionList.OptionHighlighted) -> None:
        event.stop()
        self.show_board()

    def on_option_list_option_selected(self, event: NavOptionList.OptionSelected) -> None:
        event.stop()  # The highlight already shows the board.

    def action_game(self, step: int) -> None:
        """Show the previous (-1) or next (+1) game's boards."""
        if len(self.games) > 1:
            self.game_index = (self.game_index + step) % len(self.games)
            self._fill()

    def action_toggle_autoplayed(self) -> None:
        """Switch between the humans' boards and the autoplayed games'."""
        self.autoplayed = not self.autoplayed
        self._show_title()
        self.show_board()

    def action_back(self) -> None:
        """Back to where the leaderboards were opened from."""
        self.dismiss(None)
