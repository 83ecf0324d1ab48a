"""``termarcade 2048``: play, replay, hint and autoplay 2048 from the command line.

Commands::

    termarcade 2048 play [FILE | ID] [-l N|TITLE]         # open the TUI on 2048
    termarcade 2048 replay -s 7 -m LLRUD [--json]
    termarcade 2048 hint -s 7 -m LLRUD [--time-limit S] [--work-budget N] [--json]
    termarcade 2048 autoplay -s 1 -n 10 [--max-moves M] [--time-limit S]
        [--think-time S] [--work-budget N] [--json]
    termarcade 2048 check LEVEL_FILE [-l N|TITLE] [--max-moves M] [--time-limit S]
        [--work-budget N] [--json]

The same option means the same thing in every command (issue 30): ``-s/--seed`` the seed the
player gives (and the seed printed back: the engine's generator state is ``current_seed``);
``-m/--moves`` the moves played, as letters (as ``longcat check -m``); ``-n/--games`` how
many games, each taking the next seed (as the generators' ``-n/--count``); ``--max-moves``
where an autoplay stops (``autoplay``'s games, ``check``'s estimate; ``check --moves`` is
its old, hidden spelling).

Common rule options (replay, hint, autoplay): ``--size N``, ``--merge standard|fibonacci|threes``,
``--distribution "2:9,4:1"`` (value:weight pairs), ``--tiles K`` (initial tiles) and
``--goal G``. When ``--merge`` is given without ``--distribution``/``--goal`` the preset's
defaults are used. Seeds are whole numbers from 0 to 2**32 - 1 (the generator's range);
others are refused, not reduced.

JSON shapes (one object per line, keys in this order, each line flushed when written), each
declared once as a :class:`tui.cli.output.Row` with its text form (:data:`REPLAY_ROW`,
:data:`HINT_ROW`, :data:`AUTOPLAY_ROW`, :data:`CHECK_ROW`; the options as the groups
:data:`RULES`, :data:`SEARCH`, :data:`RUN_LIMITS` and the shared ``level_file_options``):

* replay: the engine's state (:meth:`core.game2048.game.Game2048.state_to_json`: ``{"board",
  "score", "config", "current_seed", "is_game_over", "tiles_placed_count", "move_count"}``),
  then :data:`REPLAY_DERIVED` ``{"game_over", "won", "moves_applied", "seed"}`` where
  ``seed`` is the seed given (``-s``), as in autoplay's and check's objects (the PRNG state
  after the last move is the engine's ``current_seed``);
* hint: the engine's state, then :data:`HINT_DERIVED` ``{"direction", "game_over"}``
  (``direction`` the engine's move, null when no move helps; exit 1 then);
* autoplay: per game ``{"seed", "score", "max_tile", "moves", "reached": {"2048", "4096",
  "8192"}, "reason"}`` (with ``--goal G``: ``"reached": {"G"}``); ``reason`` says why the
  game ended: ``"game over"``, ``"goal"``, ``"max moves"`` or ``"time limit"``;
* check: per level ``{"level", "title", "size", "rule", "seed", "tiles", "goal",
  "distribution", "board", "legal", "illegal_tiles", "illegal_spawns", "goal_legal",
  "empty_cells", "largest", "over", "won", "moves", "estimate"}`` (:func:`check_json`;
  exit 1 when a level is not legal for its rule or is over at the start).

Bounds (issue 28). ``hint``: ``--time-limit`` (seconds, default :data:`DEFAULT_TIME_LIMIT`)
bounds the whole command, counted from its start (replaying the moves included), and
``--work-budget`` the nodes the search may expand (default :data:`DEFAULT_BUDGET`); when either is
hit the AI answers with the deepest search it finished. ``autoplay``: ``--time-limit``
(default :data:`DEFAULT_RUN_LIMIT`) bounds the whole run, every game together: a game it
stops is reported with reason ``"time limit"`` and the games not started are not played
(exit 1); ``--think-time`` (default :data:`DEFAULT_TIME_LIMIT`) and ``--work-budget`` bound each
move. ``--goal G`` stops each game when G is reached. The progress goes to stderr: a bar on
a terminal, else one plain line per finished game (at most :data:`PLAIN_PROGRESS_LINES`);
none with ``--json``.

Exit status: 0 success, 1 negative answer (hint with no move, check finding a level
illegal or over at the start), 2 bad input.
Textual is imported only by ``play``.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import click
from rich.markup import escape

from core.game2048 import (
    PRESET_DEFAULTS,
    GameConfig,
    GameState,
    has_won,
    max_tile,
    parse_moves,
)
from core.game2048.game import replay_session, start_game
from core.game2048.generators import PARAMS
from tui.cli.codec import move_json, state_json
from tui.cli.options import (
    LevelDeadlines,
    LevelFile,
    OptionGroup,
    SeedType,
    SharedOption,
    budget_option,
    check_seed_run,
    command_started,
    game_play_command,
    json_option,
    level_file_options,
    load_level_pack,
    pick_levels,
    seed_option,
    time_limit_option,
)
from tui.cli.output import (
    EXIT_NEGATIVE,
    Field,
    IntBetween,
    Row,
    Seconds,
    console,
    fail,
    read_input,
)
from tui.params import click_option

__all__ = [
    "DEFAULT_BUDGET",
    "DEFAULT_RUN_LIMIT",
    "DEFAULT_TIME_LIMIT",
    "SeedType",
    "check_json",
    "config_from_options",
    "game2048",
    "parse_distribution",
]

REACH_THRESHOLDS = (2048, 4096, 8192)
"""Tile values reported in autoplay's ``reached`` object."""

DEFAULT_TIME_LIMIT = 2.0
"""Seconds the AI may think about one move. The standard 4×4 game needs well under a second;
on big boards (16×16 and more) the limit is what keeps a hint from taking minutes."""

DEFAULT_BUDGET = 1_000_000
"""Nodes the AI may expand for one move (chance nodes on the 4×4 fast path, move nodes on
other boards): ``core.game2048.ai.DEFAULT_BUDGET``, not imported here to keep ``--help``
fast. On the standard game the default depth is a wish this budget trims (a deeper
iteration predicted not to fit is not begun), so it bounds the heaviest late-game move and
the memory of one search (one transposition-table entry per node) the same way on a busy
machine as on an idle one."""

DEFAULT_RUN_LIMIT = 600.0
"""Seconds a whole ``autoplay`` run may take (every game together)."""

PLAIN_PROGRESS_LINES = 100
"""At most this many progress lines when stderr is not a terminal (a file, a pipe)."""

_DISTRIBUTION_EXAMPLE = "value:weight pairs such as 2:9,4:1"


CUT_LIMITS = ("time limit", "work budget")
"""What may cut a search short (:data:`core.game2048.ai.CUT_TIME`, ``CUT_BUDGET``; spelled
here so that the CLI does not import the AI before it is used)."""

REPLAY_DERIVED = ("game_over", "won", "moves_applied", "seed")
"""The keys ``replay --json`` adds after the engine's state."""
HINT_DERIVED = ("direction", "depth", "target_depth", "cut", "engine", "game_over")
"""The keys ``hint --json`` adds after the engine's state (``depth``: spawns the finished
search looked ahead; ``cut``: ``"time limit"``, ``"work budget"`` or null; null fields when
the AI gave no account of its search)."""

# SeedType (exported here before the shared options existed) is the shared seed type: its
# range, 0 to 2**32 - 1, is the generator's (core.game2048.rng.SEED_MAX).


def _distribution_item(item: str) -> tuple[int, float]:
    """Parse one ``value:weight`` item (a bare value has weight 1); ValueError in words."""
    value_text, sep, weight_text = item.partition(":")
    try:
        value = int(value_text, 10)
    except ValueError:
        raise ValueError(
            f"{item!r} is not a value:weight pair; give {_DISTRIBUTION_EXAMPLE}"
        ) from None
    if value < 1:
        raise ValueError(f"the tile value in {item!r} must be a whole number of at least 1")
    try:
        weight = float(weight_text) if sep else 1.0
    except ValueError:
        raise ValueError(
            f"the weight in {item!r} is not a number; give {_DISTRIBUTION_EXAMPLE}"
        ) from None
    if not math.isfinite(weight) or weight <= 0:
        raise ValueError(f"the weight in {item!r} must be a finite number greater than 0")
    return value, weight


def parse_distribution(text: str) -> tuple[tuple[int, float], ...]:
    """Parse ``"2:9,4:1"`` into ``((2, 9), (4, 1))``.

    Args:
        text: Comma- or space-separated ``value:weight`` pairs; a bare ``value`` has weight 1.
            Values are whole numbers of at least 1, each given once; weights are finite
            numbers greater than 0.

    Returns:
        The pairs (weights as int when integral).

    Raises:
        ValueError: With a message naming the bad item, in the player's terms.
    """
    pairs: dict[int, float] = {}
    for item in text.replace(",", " ").split():
        value, weight = _distribution_item(item)
        if value in pairs:
            raise ValueError(f"the tile value {value} is given twice")
        pairs[value] = weight
    if not pairs:
        raise ValueError(f"the distribution is empty; give {_DISTRIBUTION_EXAMPLE}")
    if not math.isfinite(sum(pairs.values())):  # the engine divides by the total
        raise ValueError("the weights are too large to add up; use smaller numbers")
    return tuple(
        (value, int(weight) if weight.is_integer() else weight) for value, weight in pairs.items()
    )


def config_from_options(
    seed: int,
    size: int,
    merge: str,
    distribution: str | None,
    tiles: int,
    goal: int | None,
) -> GameConfig:
    """Build a :class:`GameConfig` from the common options (exit 2 on bad values)."""
    if tiles > size * size:
        fail(f"--tiles {tiles} does not fit on a {size}×{size} board (at most {size * size})")
    defaults = PRESET_DEFAULTS[merge]
    try:
        dist: Any = parse_distribution(distribution) if distribution else defaults.distribution
    except ValueError as error:
        fail(f"--distribution: {error}")
    try:
        return GameConfig(
            board_size=size,
            initial_seed=seed,
            number_of_initial_tiles=tiles,
            tile_value_distribution=dist,
            merge_logic=merge,
            goal=defaults.goal if goal is None else (goal or None),
        )
    except ValueError as error:  # the engine's own checks, should the CLI's miss one
        fail(str(error))


@dataclasses.dataclass(frozen=True, slots=True)
class Rules:
    """The rule options as given: ``--size``, ``--merge``, ``--distribution``, ``--tiles``
    and ``--goal`` (:data:`RULES`)."""

    size: int
    merge: str
    distribution: str | None
    tiles: int
    goal: int | None

    def config(self, seed: int) -> GameConfig:
        """The game these rules deal from ``seed`` (:func:`config_from_options`: exit 2 on
        bad values)."""
        return config_from_options(
            seed, self.size, self.merge, self.distribution, self.tiles, self.goal
        )


RULES = OptionGroup(
    "rules",
    [
        click_option(PARAMS["size"]),  # declared once with the settings and the IDs
        click_option(PARAMS["rule"], dest="merge"),
        click.option(
            "--distribution",
            metavar="V:W,...",
            default=None,
            help='New-tile values and weights, e.g. "2:9,4:1" (default: the rule\'s).',
        ),
        click.option(
            "--tiles",
            type=IntBetween(0, what="the number of starting tiles"),
            default=2,
            show_default=True,
            help="Tiles placed at the start.",
        ),
        click.option(
            "--goal",
            type=IntBetween(0, what="the goal tile"),
            default=None,
            help="Winning tile (default: the rule's; 0 for none).",
        ),
    ],
    into=Rules,
)
"""The rule options of replay, hint and autoplay, received as one :class:`Rules`."""

_DEPTH = click.option(
    "--depth",
    type=IntBetween(0, 6, what="the search depth"),
    default=None,
    help="New tiles the AI looks ahead (default: its own choice for the board).",
)


@dataclasses.dataclass(frozen=True, slots=True)
class Search:
    """``hint``'s bounds: ``--depth`` (None: the AI's choice), ``--time-limit`` (seconds,
    the whole command) and ``--work-budget`` (nodes; 0: none)."""

    depth: int | None
    time_limit: float
    budget: int


SEARCH = OptionGroup(
    "search",
    [_DEPTH, time_limit_option(DEFAULT_TIME_LIMIT), budget_option(DEFAULT_BUDGET)],
    into=Search,
)
"""``hint``'s AI options, received as one :class:`Search`."""


@dataclasses.dataclass(frozen=True, slots=True)
class RunLimits:
    """``autoplay``'s bounds: ``--depth``, ``--time-limit`` (seconds, the whole run),
    ``--think-time`` (seconds, one move) and ``--work-budget`` (nodes per move; 0: none)."""

    depth: int | None
    time_limit: float
    think_time: float
    budget: int


RUN_LIMITS = OptionGroup(
    "limits",
    [
        _DEPTH,
        time_limit_option(DEFAULT_RUN_LIMIT),
        click.option(
            "--think-time",
            type=Seconds(),
            default=DEFAULT_TIME_LIMIT,
            show_default=True,
            metavar="SECONDS",
            help="Seconds the AI may think about one move (--time-limit bounds the whole run).",
        ),
        budget_option(DEFAULT_BUDGET),
    ],
    into=RunLimits,
)
"""``autoplay``'s AI options, received as one :class:`RunLimits`."""


def _seconds_left(time_limit: float) -> float:
    """What is left of ``time_limit`` counted from the command's start (at least 0)."""
    return max(0.0, command_started() + time_limit - time.monotonic())


def _read_moves(moves: str) -> tuple[str, ...]:
    """Parse ``--moves`` (``-`` reads them from stdin); exit 2 on bad letters."""
    if moves == "-":
        moves, _ = read_input("-")
    try:
        return parse_moves(moves)
    except ValueError as error:
        fail(f"--moves: {error}")


def _board_table(state: GameState) -> Any:
    """A rich table of the board (empty cells shown as dots)."""
    from rich import box
    from rich.table import Table

    width = max(4, len(str(max_tile(state.board))))
    table = Table(box=box.SQUARE, show_header=False, show_lines=True, padding=(0, 1))
    for _ in range(state.config.board_size):
        table.add_column(justify="right", min_width=width)
    for row in state.board:
        table.add_row(*(str(v) if v else "·" for v in row))
    return table


def status_line(state: GameState, extra: str) -> str:
    """The status line under the board: score, ``extra``, whether play goes on, the seed.

    Args:
        state: The state shown.
        extra: What the command adds (``moves 4/5``, ``hint: left``).

    Returns:
        The line. ``seed`` is the seed the game began from (what ``-s`` gave); the engine's
        generator state after the last move is labelled ``current_seed``, its JSON key.
    """
    status = "game over" if state.is_game_over else "playing"
    won = " — won!" if has_won(state) else ""
    seeds = f"seed {state.config.initial_seed}  current_seed {state.current_seed}"
    return f"score {state.score}  {extra}  {status}{won}  {seeds}"


def _print_state(out: Any, state: GameState, extra: str) -> None:
    """Print the board and a status line on ``out`` (a rich console)."""
    out.print(_board_table(state))
    out.print(status_line(state, extra), highlight=False)


def _rich_lines(draw: Callable[[Any], None]) -> list[str]:
    """The lines ``draw(console)`` prints, rendered as stdout's console renders them (its
    width, its colours), so that a row's text form is what printing it directly gave."""
    out = console()
    with out.capture() as captured:
        draw(out)
    return captured.get().splitlines()


def _replay_text(row: Mapping[str, Any]) -> list[str]:
    """``replay``'s text: the board, then the score, the moves applied of those given."""
    extra = f"moves {row['moves_applied']}/{row['given']}"
    return _rich_lines(lambda out: _print_state(out, row["state"], extra))


def _cut_note(found: Mapping[str, Any]) -> str:
    """`` (search cut by the work budget at depth 1 of 3)`` when a limit cut it, else ``""``."""
    if not found["cut"]:
        return ""
    return (
        f" (search cut by the {found['cut']} at depth {found['depth']} of {found['target_depth']})"
    )


def _hint_text(row: Mapping[str, Any]) -> list[str]:
    """``hint``'s text: the board, then the move (``none``) and what cut the search."""
    extra = f"hint: {row['direction'] or 'none'}{_cut_note(row)}"
    return _rich_lines(lambda out: _print_state(out, row["state"], extra))


def _direction_json(direction: Any) -> Any:
    """The engine's form of a move (null: no move helps)."""
    from core.game2048.game import GAME

    return None if direction is None else move_json(GAME, direction)


STATE_KEYS = (
    *("board", "score", "config", "current_seed", "is_game_over", "tiles_placed_count"),
    "move_count",
)
"""The engine's state (:meth:`core.game2048.game.Game2048.state_to_json`), first in the rows
of ``replay`` and ``hint``."""
REPLAY_ROW = Row(*STATE_KEYS, *REPLAY_DERIVED, text=_replay_text, text_only=("state", "given"))
"""``replay``: the engine's state, then :data:`REPLAY_DERIVED` (the text also reads the state
and the number of moves given)."""
HINT_ROW = Row(
    *STATE_KEYS,
    Field(HINT_DERIVED[0], _direction_json),
    *HINT_DERIVED[1:],
    text=_hint_text,
    text_only=("state",),
)
"""``hint``: the engine's state, then :data:`HINT_DERIVED`."""


def _state_values(state: GameState, **derived: Any) -> dict[str, Any]:
    """The engine's state (:mod:`tui.cli.codec`), then ``game_over`` and ``derived``, and the
    state itself (``state``, for a text form)."""
    from core.game2048.game import GAME

    return {**state_json(GAME, state, **derived, game_over=state.is_game_over), "state": state}


@click.group(name="2048", context_settings={"help_option_names": ["-h", "--help"]})
def game2048() -> None:
    """2048: slide the tiles, merge equal ones, reach 2048.

    Games are deterministic: the same --seed and --moves always give the same board.
    """


play = game_play_command(
    "2048", "Open the arcade straight into 2048 (on the game of an ID such as 2048:new-5#42)."
)
game2048.add_command(play)


def moves_option(what: str) -> Callable[[Any], Any]:
    """``-m/--moves MOVES``: moves as letters, ``-`` for stdin (replay, hint).

    Args:
        what: Which moves, for the help (``Moves to replay``).

    Returns:
        The decorator (the ``moves`` parameter; default none).
    """
    return click.option(
        "--moves",
        "-m",
        "moves",
        cls=SharedOption,  # errors name --moves, as they did before -m
        default="",
        metavar="MOVES",
        help=f'{what}: letters L R U D (any case; commas/spaces allowed), "-" for stdin.',
    )


@game2048.command()
@seed_option(required=True)
@moves_option("Moves to replay")
@RULES
@json_option
def replay(seed: int, moves: str, rules: Rules, as_json: bool) -> None:
    """Replay MOVES from a seed and print the final board, the score and the seed given.

    Moves into a wall change nothing and are not counted in moves_applied. The generator's
    state after the last move is printed as current_seed.
    """
    config = rules.config(seed)
    directions = _read_moves(moves)
    state, applied = replay_session(config, directions)
    values = _state_values(
        state, won=has_won(state), moves_applied=applied, seed=state.config.initial_seed
    )
    REPLAY_ROW.emit(REPLAY_ROW(**values, given=len(directions)), as_json)


@game2048.command()
@seed_option(required=True)
@moves_option("Moves played so far")
@RULES
@SEARCH
@json_option
def hint(seed: int, moves: str, rules: Rules, search: Search, as_json: bool) -> None:
    """Suggest the next move after replaying MOVES (exit 1 when no move helps).

    When --time-limit is up (it counts from the command's start, replaying MOVES included)
    or the --work-budget of nodes is spent, the AI plays the best move found so far, and
    says so (the text's note, the JSON's "cut", "depth" and "target_depth").
    """
    state, _ = replay_session(rules.config(seed), _read_moves(moves))
    found = _ask_hint(state, search.depth, _seconds_left(search.time_limit), search.budget)
    HINT_ROW.emit(HINT_ROW(**_state_values(state, **found)), as_json)
    if found["direction"] is None:
        raise click.exceptions.Exit(EXIT_NEGATIVE)


def _ask_hint(
    state: GameState, depth: int | None, time_limit: float | None, budget: int = 0
) -> dict[str, Any]:
    """Call the expectimax hint, turning a missing or unsupported AI into a clean error.

    Returns:
        ``{"direction", "depth", "target_depth", "cut", "engine"}`` (the last four None when
        the hint gave no report of its search).
    """
    reports: list[Any] = []
    try:
        import core.game2048 as engine

        direction = engine.hint(
            state,
            depth=depth,
            time_limit=time_limit,
            budget=budget or None,
            report=reports.append,
        )
    except ImportError as error:
        fail(f"the 2048 AI is not available ({error})")
    except ValueError as error:
        fail(f"the 2048 AI cannot play this game: {error}")
    if not reports:  # an AI that gave no account of its search
        return {
            "direction": direction,
            "depth": None,
            "target_depth": None,
            "cut": None,
            "engine": None,
        }
    last = reports[-1]
    return {
        "direction": direction,
        "depth": last.depth,
        "target_depth": last.target,
        "cut": last.cut,
        "engine": last.engine,
    }


@dataclasses.dataclass(frozen=True, slots=True)
class _Bounds:
    """How autoplay's AI may play: the options' per-move bounds (``limits``), the run's
    deadline (``time.monotonic()`` time) and whether each game stops at its goal."""

    limits: RunLimits
    deadline: float
    stop_at_goal: bool

    def time_is_up(self) -> bool:
        """Whether the run's deadline has passed."""
        return time.monotonic() >= self.deadline


def _play_out(
    state: GameState, max_moves: int, bounds: _Bounds, cuts: dict[str, int] | None = None
) -> Iterator[tuple[GameState, int]]:
    """Let the AI play ``state`` to the end (or ``max_moves``, the goal, the deadline),
    yielding (state, moves): :func:`core.game2048.ai.autoplay`, with a missing or unsupported
    AI as a clean error. ``cuts`` counts the moves whose search a limit cut, by limit."""

    def count_cut(found: Any) -> None:
        if cuts is not None and found.cut:
            cuts[found.cut] = cuts.get(found.cut, 0) + 1

    try:
        from core.game2048.ai import autoplay as ai_autoplay

        played = ai_autoplay(
            state,
            max_moves,
            depth=bounds.limits.depth,
            time_limit=bounds.limits.think_time,
            deadline=bounds.deadline,
            budget=bounds.limits.budget or None,
            stop_at_goal=bounds.stop_at_goal,
            on_hint=count_cut,
        )
        yield from ((after, count) for count, after in enumerate(played, start=1))
    except ImportError as error:
        fail(f"the 2048 AI is not available ({error})")
    except ValueError as error:
        fail(f"the 2048 AI cannot play this game: {error}")


def _stop_reason(state: GameState, moves: int, max_moves: int, bounds: _Bounds) -> str:
    """Why a game of autoplay ended: ``game over``, ``goal``, ``max moves`` or ``time limit``."""
    if state.is_game_over:
        return "game over"
    if bounds.stop_at_goal and has_won(state):
        return "goal"
    if moves >= max_moves:
        return "max moves"
    return "time limit"


AUTOPLAY_ROW = Row("seed", "score", "max_tile", "moves", "reached", "reason", "cut")
"""One game of ``autoplay --json`` (its text is the summary table of every game)."""


def _game_result(
    seed: int,
    state: GameState,
    moves: int,
    thresholds: tuple[int, ...],
    reason: str,
    cuts: dict[str, int],
) -> dict[str, Any]:
    """autoplay's row for one finished game (``cut``: the moves whose search the time limit
    or the work budget cut short, by limit)."""
    top = max_tile(state.board)
    return AUTOPLAY_ROW(
        seed=seed,
        score=state.score,
        max_tile=top,
        moves=moves,
        reached={str(t): top >= t for t in thresholds},
        reason=reason,
        cut={limit: cuts.get(limit, 0) for limit in CUT_LIMITS},
    )


@game2048.command()
@seed_option(1)
@click.option(
    "--games",
    "-n",
    "games",
    cls=SharedOption,  # errors name --games, as they did before -n
    type=IntBetween(1, what="the number of games"),
    default=1,
    show_default=True,
    help="How many games to play (seeds --seed, --seed + 1, ...).",
)
@click.option(
    "--max-moves",
    type=IntBetween(1, what="the number of moves"),
    default=100_000,
    show_default=True,
    help="Stop a game after this many moves.",
)
@RULES
@RUN_LIMITS
@json_option
def autoplay(
    seed: int, games: int, max_moves: int, rules: Rules, limits: RunLimits, as_json: bool
) -> None:
    """Let the expectimax AI play whole games and report how far it got.

    --time-limit bounds the whole run (every game, from the command's start): a game it
    cuts short ends with reason "time limit" and the games not started are not played
    (exit 1). --think-time and --work-budget (nodes the search may expand) bound each move.
    With --goal G each game stops when G is reached, and the summary reports reaching G.
    Progress goes to stderr (a bar on a terminal, plain lines in a file; none with --json).
    """
    check_seed_run(seed, games, "--games")
    rules.config(seed)  # check before playing
    goal = rules.goal
    bounds = _Bounds(limits, command_started() + limits.time_limit, bool(goal))
    thresholds = (goal,) if goal else REACH_THRESHOLDS
    results: list[dict[str, Any]] = []
    with _progress(games, disable=as_json) as progress:
        for index in range(games):
            if bounds.time_is_up():
                break
            config = rules.config(seed + index)
            start = start_game(config)
            state, count = start, 0
            cuts: dict[str, int] = {}
            for state, count in _play_out(start, max_moves, bounds, cuts):
                if count % 25 == 0:
                    progress.playing(index + 1, count, state.score, max_tile(state.board))
            reason = _stop_reason(state, count, max_moves, bounds)
            result = _game_result(config.initial_seed, state, count, thresholds, reason, cuts)
            results.append(result)
            if as_json:
                AUTOPLAY_ROW.emit(result, as_json)
            progress.finished(index + 1, count, state.score, result["max_tile"])
    if results and not as_json:
        _print_autoplay_summary(results, thresholds)
    if len(results) < games:
        click.echo(
            f"error: --time-limit {limits.time_limit:g} s was up after {len(results)} of {games} games",
            err=True,
        )
        raise click.exceptions.Exit(EXIT_NEGATIVE)


class _PlainProgress:
    """autoplay's progress as plain lines on stderr (a file or a pipe: no bar frames there):
    one line per finished game, at most :data:`PLAIN_PROGRESS_LINES` in all."""

    def __init__(self, games: int):
        self.games = games
        self.every = max(1, math.ceil(games / PLAIN_PROGRESS_LINES))

    def playing(self, game: int, moves: int, score: int, best: int) -> None:
        """A game goes on (nothing printed: lines come per finished game)."""

    def finished(self, game: int, moves: int, score: int, best: int) -> None:
        """Print a line for every ``every``-th game and for the last one."""
        if game % self.every == 0 or game == self.games:
            click.echo(
                f"game {game}/{self.games}: moves {moves}  score {score}  max {best}", err=True
            )


class _BarProgress:
    """autoplay's progress as a rich bar (stderr is a terminal)."""

    def __init__(self, progress: Any, games: int):
        self.progress = progress
        self.games = games
        self.task = progress.add_task("games", total=games, game=1, moves=0, score=0, best=0)

    def playing(self, game: int, moves: int, score: int, best: int) -> None:
        """Show the game being played."""
        self.progress.update(self.task, game=game, moves=moves, score=score, best=best)

    def finished(self, game: int, moves: int, score: int, best: int) -> None:
        """Advance the bar by one game."""
        self.progress.update(
            self.task,
            advance=1,
            game=min(game + 1, self.games),
            moves=moves,
            score=score,
            best=best,
        )


class _NoProgress:
    """No progress at all (``--json``)."""

    def playing(self, game: int, moves: int, score: int, best: int) -> None:
        """Nothing."""

    def finished(self, game: int, moves: int, score: int, best: int) -> None:
        """Nothing."""


@contextmanager
def _progress(games: int, disable: bool) -> Iterator[Any]:
    """autoplay's progress on stderr: a rich bar on a terminal, plain lines otherwise.

    Args:
        games: The number of games (the bar's total).
        disable: True to show nothing (``--json``: its lines are the progress).

    Yields:
        An object with ``playing(game, moves, score, best)`` and ``finished(...)``.
    """
    err = console(stderr=True)
    if disable:
        yield _NoProgress()
        return
    if not err.is_terminal:
        yield _PlainProgress(games)
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    bar = Progress(
        TextColumn("[bold]game {task.fields[game]}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn(
            "moves {task.fields[moves]}  score {task.fields[score]}  max {task.fields[best]}"
        ),
        TimeElapsedColumn(),
        console=err,
        transient=False,
    )
    with bar:
        yield _BarProgress(bar, games)


def _print_autoplay_summary(results: list[dict[str, Any]], thresholds: tuple[int, ...]) -> None:
    """A table of the games and the share reaching each threshold (the goal, when given)."""
    from rich.table import Table

    table = Table(title="2048 autoplay")
    for name in ("seed", "score", "max tile", "moves", "ended by"):
        table.add_column(name, justify="right")
    for r in results:
        table.add_row(
            str(r["seed"]), str(r["score"]), str(r["max_tile"]), str(r["moves"]), r["reason"]
        )
    out = console()
    out.print(table)
    n = len(results)
    shares = "  ".join(
        f"{t}: {sum(r['reached'][str(t)] for r in results) * 100 / n:.0f}%" for t in thresholds
    )
    out.print(f"{n} game(s); reached {shares}")
    for limit in CUT_LIMITS:
        cut = sum(r["cut"][limit] for r in results)
        if cut:
            out.print(f"the {limit} cut the search short on {cut} move(s)")


# --------------------------------------------------------------------------- level files


def _estimate_json(estimate: Any) -> dict[str, Any] | None:
    """The designer's estimate as ``check --json`` prints it (null without one)."""
    if estimate is None:
        return None
    return {
        "first_move": estimate.first_move,
        "moves": len(estimate.directions),
        "max_tile": max_tile(estimate.final.board),
        "score": estimate.final.score,
        "goal_at": estimate.goal_at,
        "over": estimate.over,
        "complete": estimate.complete,
    }


def _check_text(row: Mapping[str, Any]) -> list[str]:
    """``check``'s text for one level: its number and title, then the designer's verdict."""
    from core.game2048.design import describe

    def draw(out: Any) -> None:
        out.print(f"[bold]{row['level']}. {escape(row['title'])}[/bold]")
        out.print(escape(describe(row["design"])), highlight=False)

    return _rich_lines(draw)


CHECK_ROW = Row(
    *("level", "title", "size", "rule", "seed", "tiles", "goal"),
    Field("distribution", lambda tiles: [[t.value, t.weight] for t in tiles]),
    Field("board", lambda board: None if board is None else [list(row) for row in board]),
    *("legal", "illegal_tiles", "illegal_spawns", "goal_legal", "empty_cells", "largest"),
    *("over", "won", "moves"),
    Field("estimate", _estimate_json),
    text=_check_text,
    text_only=("design",),
)
"""One level of ``check`` (the text reads the designer's verdict, ``design``)."""


def _check_values(number: int, level: Any, design: Any) -> dict[str, Any]:
    """One level's :data:`CHECK_ROW`: its fields, then the designer's verdict."""
    config = level.config
    return CHECK_ROW.of(
        design,
        level=number,
        title=level.title,
        size=config.board_size,
        seed=config.initial_seed,
        tiles=config.number_of_initial_tiles,
        goal=config.goal,
        distribution=config.tile_value_distribution,
        board=level.board,
        design=design,
    )


def check_json(number: int, level: Any, design: Any) -> dict[str, Any]:
    """One level's ``check --json`` object: its fields, then the designer's verdict.

    Args:
        number: The level's 1-based number in the file.
        level: The :class:`core.game2048.level.Level`.
        design: What :func:`core.game2048.design.assess` said about it.

    Returns:
        The object (``board`` is null for a random start; ``estimate`` null without one).
    """
    return CHECK_ROW.json(_check_values(number, level, design))


@game2048.command()
@level_file_options("every level")
@click.option(
    "--max-moves",
    "estimate_moves",
    type=IntBetween(0, 100_000, what="the number of moves"),
    default=200,
    show_default=True,
    help="Stop the estimate's autoplay after this many moves (0: no estimate).",
)
@click.option(  # the old spelling, kept for scripts: --moves is letters in replay and hint
    "--moves",
    "old_moves",
    type=IntBetween(0, 100_000, what="--moves"),
    default=None,
    hidden=True,
)
@time_limit_option(1.0)
@budget_option(DEFAULT_BUDGET)
@json_option
def check(
    levels: LevelFile,
    estimate_moves: int,
    old_moves: int | None,
    time_limit: float,
    budget: int,
    as_json: bool,
) -> None:
    """Check the levels of LEVEL_FILE as the level editor's live verdict does.

    For each level: are its tiles, goal and spawns legal for its merge rule, is the start
    already over or won, the empty cells, the largest tile against the goal, and an
    estimate (a seeded autoplay by the AI of at most --max-moves moves, stopping at the goal,
    within --time-limit per level, the first level's counted from the command's start, and
    --work-budget nodes per move; its move count, score and largest tile are all of the state
    where it stopped). Exit 1 when a level is not legal or is over at the start.
    """
    from core.game2048.design import assess

    if old_moves is not None:
        estimate_moves = old_moves
    pack = load_level_pack(levels.source, "2048")
    deadlines = LevelDeadlines(time_limit)
    failed = False
    for number, level in pick_levels(pack, levels.level):
        seconds = max(0.0, deadlines.next() - time.monotonic())
        design = assess(level, moves=estimate_moves, time_limit=seconds, budget=budget or None)
        failed = failed or not design.legal or design.over
        CHECK_ROW.emit(_check_values(number, level, design), as_json)
    if failed:
        raise click.exceptions.Exit(EXIT_NEGATIVE)
