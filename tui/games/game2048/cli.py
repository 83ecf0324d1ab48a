"""``termarcade 2048``: play, replay, hint and autoplay 2048 from the command line.

Commands::

    termarcade 2048 play                                  # open the TUI on 2048
    termarcade 2048 replay --seed 7 --moves LLRUD [--json]
    termarcade 2048 hint --seed 7 --moves LLRUD [--time-limit S] [--json]
    termarcade 2048 autoplay --seed 1 --games 10 [--max-moves M] [--time-limit S] [--json]
    termarcade 2048 check LEVEL_FILE [--level N|TITLE] [--moves M] [--time-limit S] [--json]

Common rule options (replay, hint, autoplay): ``--size N``, ``--merge standard|fibonacci|threes``,
``--distribution "2:9,4:1"`` (value:weight pairs), ``--tiles K`` (initial tiles) and
``--goal G``. When ``--merge`` is given without ``--distribution``/``--goal`` the preset's
defaults are used. Seeds are whole numbers from 0 to 2**32 - 1 (the generator's range);
others are refused, not reduced.

JSON shapes (one object per line, keys in this order, each line flushed when written):

* replay: the engine's state (:meth:`core.game2048.game.Game2048.state_to_json`: ``{"board",
  "score", "config", "current_seed", "is_game_over", "tiles_placed_count", "move_count"}``),
  then :data:`REPLAY_DERIVED` ``{"game_over", "won", "moves_applied", "seed"}`` where
  ``seed`` is the PRNG state after the last move (``current_seed`` again);
* hint: the engine's state, then :data:`HINT_DERIVED` ``{"direction", "game_over"}``
  (``direction`` the engine's move, null when no move helps; exit 1 then);
* autoplay: per game ``{"seed", "score", "max_tile", "moves", "reached": {"2048", "4096",
  "8192"}}``;
* check: per level ``{"level", "title", "size", "rule", "seed", "tiles", "goal",
  "distribution", "board", "legal", "illegal_tiles", "illegal_spawns", "goal_legal",
  "empty_cells", "largest", "over", "won", "moves", "estimate"}`` (see :func:`check_json`;
  exit 1 when a level is not legal for its rule or is over at the start).

The AI's search is bounded by ``--time-limit`` (seconds, per move; default
:data:`DEFAULT_TIME_LIMIT`): when time is up it answers with the deepest search it finished.

Exit status: 0 success, 1 negative answer (hint with no move, check finding a level
illegal or over at the start), 2 bad input.
Textual is imported only by ``play``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import click
from rich.markup import escape

from core.game2048 import (
    MERGE_PRESETS,
    PRESET_DEFAULTS,
    GameConfig,
    GameState,
    has_won,
    max_tile,
    parse_moves,
)
from core.game2048.game import replay_session, start_game
from tui.cli.codec import move_json, state_json
from tui.cli.options import (
    SeedType,
    check_seed_run,
    json_option,
    level_option,
    load_level_pack,
    pick_levels,
    seed_option,
    stack_options,
    time_limit_option,
)
from tui.cli.output import (
    EXIT_NEGATIVE,
    IntBetween,
    console,
    emit_json,
    fail,
    read_input,
)

__all__ = [
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

_DISTRIBUTION_EXAMPLE = "value:weight pairs such as 2:9,4:1"


REPLAY_DERIVED = ("game_over", "won", "moves_applied", "seed")
"""The keys ``replay --json`` adds after the engine's state."""
HINT_DERIVED = ("direction", "game_over")
"""The keys ``hint --json`` adds after the engine's state."""

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


def rule_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """Add the shared ``--size/--merge/--distribution/--tiles/--goal`` options."""
    options = [
        click.option(
            "--size",
            type=IntBetween(2, 64, what="the board size"),
            default=4,
            show_default=True,
            help="Board side length (2 to 64).",
        ),
        click.option(
            "--merge",
            type=click.Choice(list(MERGE_PRESETS)),
            default="standard",
            show_default=True,
            help="Merge rule.",
        ),
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
    ]
    return stack_options(func, options)


def ai_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """Add the AI's ``--depth`` and ``--time-limit`` options."""
    func = time_limit_option(DEFAULT_TIME_LIMIT)(func)
    return click.option(
        "--depth",
        type=IntBetween(0, 6, what="the search depth"),
        default=None,
        help="New tiles the AI looks ahead (default: its own choice for the board).",
    )(func)


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


def _print_state(state: GameState, extra: str) -> None:
    """Print the board and a status line to stdout."""
    out = console()
    out.print(_board_table(state))
    status = "game over" if state.is_game_over else "playing"
    won = " — won!" if has_won(state) else ""
    out.print(f"score {state.score}  {extra}  {status}{won}  seed {state.current_seed}")


def _state_json(state: GameState, **derived: Any) -> dict[str, Any]:
    """The engine's state (:mod:`tui.cli.codec`), then ``game_over`` and ``derived``."""
    from core.game2048.game import GAME

    return state_json(GAME, state, **derived, game_over=state.is_game_over)


@click.group(name="2048", context_settings={"help_option_names": ["-h", "--help"]})
def game2048() -> None:
    """2048: slide the tiles, merge equal ones, reach 2048.

    Games are deterministic: the same --seed and --moves always give the same board.
    """


@game2048.command()
@click.argument("level_id", required=False, metavar="[ID]")
def play(level_id: str | None) -> None:
    """Open the arcade straight into 2048 (on the game of an ID such as 2048:new-5#42)."""
    import tui.cli as shell

    if level_id is not None:
        shell.play_level_id(level_id, "2048")
        return
    shell.launch_app(start_game="2048")


@game2048.command()
@seed_option(required=True)
@click.option(
    "--moves",
    default="",
    show_default=False,
    metavar="MOVES",
    help='Directions: letters L R U D (any case; commas/spaces allowed), "-" for stdin.',
)
@rule_options
@json_option
def replay(
    seed: int,
    moves: str,
    size: int,
    merge: str,
    distribution: str | None,
    tiles: int,
    goal: int | None,
    as_json: bool,
) -> None:
    """Replay MOVES from a seed and print the final board and score.

    Moves into a wall change nothing and are not counted in moves_applied.
    """
    config = config_from_options(seed, size, merge, distribution, tiles, goal)
    directions = _read_moves(moves)
    state, applied = replay_session(config, directions)
    if as_json:
        emit_json(
            {
                **_state_json(state),
                "won": has_won(state),
                "moves_applied": applied,
                "seed": state.current_seed,
            }
        )
        return
    _print_state(state, f"moves {applied}/{len(directions)}")


@game2048.command()
@seed_option(required=True)
@click.option(
    "--moves", default="", metavar="MOVES", help='Moves played so far (L R U D), "-" for stdin.'
)
@rule_options
@ai_options
@json_option
def hint(
    seed: int,
    moves: str,
    size: int,
    merge: str,
    distribution: str | None,
    tiles: int,
    goal: int | None,
    depth: int | None,
    time_limit: float,
    as_json: bool,
) -> None:
    """Suggest the next move after replaying MOVES (exit 1 when no move helps).

    When --time-limit is up, the AI plays the best move found so far.
    """
    from core.game2048.game import GAME

    config = config_from_options(seed, size, merge, distribution, tiles, goal)
    state, _ = replay_session(config, _read_moves(moves))
    direction = _ask_hint(state, depth, time_limit)
    if as_json:
        move = None if direction is None else move_json(GAME, direction)
        emit_json(_state_json(state, direction=move))
    else:
        _print_state(state, f"hint: {direction or 'none'}")
    if direction is None:
        raise click.exceptions.Exit(EXIT_NEGATIVE)


def _ask_hint(state: GameState, depth: int | None, time_limit: float | None) -> str | None:
    """Call the expectimax hint, turning a missing or unsupported AI into a clean error."""
    try:
        import core.game2048 as engine

        return engine.hint(state, depth=depth, time_limit=time_limit)
    except ImportError as error:
        fail(f"the 2048 AI is not available ({error})")
    except ValueError as error:
        fail(f"the 2048 AI cannot play this game: {error}")


def _play_out(
    state: GameState, max_moves: int, depth: int | None, time_limit: float
) -> Iterator[tuple[GameState, int]]:
    """Let the AI play ``state`` to the end (or ``max_moves``), yielding (state, moves):
    :func:`core.game2048.ai.autoplay`, with a missing or unsupported AI as a clean error."""
    try:
        from core.game2048.ai import autoplay as ai_autoplay

        played = ai_autoplay(state, max_moves, depth=depth, time_limit=time_limit)
        yield from ((after, count) for count, after in enumerate(played, start=1))
    except ImportError as error:
        fail(f"the 2048 AI is not available ({error})")
    except ValueError as error:
        fail(f"the 2048 AI cannot play this game: {error}")


def _game_result(seed: int, state: GameState, moves: int) -> dict[str, Any]:
    """autoplay's JSON object for one finished game."""
    top = max_tile(state.board)
    return {
        "seed": seed,
        "score": state.score,
        "max_tile": top,
        "moves": moves,
        "reached": {str(t): top >= t for t in REACH_THRESHOLDS},
    }


@game2048.command()
@seed_option(1)
@click.option(
    "--games",
    type=IntBetween(1, what="the number of games"),
    default=1,
    show_default=True,
    help="How many games to play.",
)
@click.option(
    "--max-moves",
    type=IntBetween(1, what="the number of moves"),
    default=100_000,
    show_default=True,
    help="Stop a game after this many moves.",
)
@rule_options
@ai_options
@json_option
def autoplay(
    seed: int,
    games: int,
    max_moves: int,
    size: int,
    merge: str,
    distribution: str | None,
    tiles: int,
    goal: int | None,
    depth: int | None,
    time_limit: float,
    as_json: bool,
) -> None:
    """Let the expectimax AI play whole games and report how far it got."""
    check_seed_run(seed, games, "--games")
    config_from_options(seed, size, merge, distribution, tiles, goal)  # check before playing
    results: list[dict[str, Any]] = []
    with _progress_bar(games, disable=as_json) as (progress, task):
        for index in range(games):
            config = config_from_options(seed + index, size, merge, distribution, tiles, goal)
            start = start_game(config)
            state, count = start, 0
            for state, count in _play_out(start, max_moves, depth, time_limit):
                if count % 25 == 0:
                    progress.update(
                        task,
                        game=index + 1,
                        moves=count,
                        score=state.score,
                        best=max_tile(state.board),
                    )
            result = _game_result(config.initial_seed, state, count)
            results.append(result)
            if as_json:
                emit_json(result)
            progress.update(
                task,
                advance=1,
                game=min(index + 2, games),
                moves=count,
                score=state.score,
                best=result["max_tile"],
            )
    if not as_json:
        _print_autoplay_summary(results)


@contextmanager
def _progress_bar(games: int, disable: bool) -> Iterator[tuple[Any, Any]]:
    """A rich progress bar on stderr, shown only when stderr is a terminal.

    Args:
        games: The number of games (the bar's total).
        disable: True to show nothing (``--json``).

    Yields:
        ``(progress, task)`` for ``progress.update(task, ...)``.
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    err = console(stderr=True)
    progress = Progress(
        TextColumn("[bold]game {task.fields[game]}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn(
            "moves {task.fields[moves]}  score {task.fields[score]}  max {task.fields[best]}"
        ),
        TimeElapsedColumn(),
        console=err,
        disable=disable or not err.is_terminal,  # no bar frames in logs or pipes
        transient=False,
    )
    with progress:
        yield progress, progress.add_task("games", total=games, game=1, moves=0, score=0, best=0)


def _print_autoplay_summary(results: list[dict[str, Any]]) -> None:
    """A table of the games and the share reaching each threshold."""
    from rich.table import Table

    table = Table(title="2048 autoplay")
    for name in ("seed", "score", "max tile", "moves"):
        table.add_column(name, justify="right")
    for r in results:
        table.add_row(str(r["seed"]), str(r["score"]), str(r["max_tile"]), str(r["moves"]))
    out = console()
    out.print(table)
    n = len(results)
    shares = "  ".join(
        f"{t}: {sum(r['reached'][str(t)] for r in results) * 100 / n:.0f}%"
        for t in REACH_THRESHOLDS
    )
    out.print(f"{n} game(s); reached {shares}")


# --------------------------------------------------------------------------- level files


def check_json(number: int, level: Any, design: Any) -> dict[str, Any]:
    """One level's ``check --json`` object: its fields, then the designer's verdict.

    Args:
        number: The level's 1-based number in the file.
        level: The :class:`core.game2048.level.Level`.
        design: What :func:`core.game2048.design.assess` said about it.

    Returns:
        The object (``board`` is null for a random start; ``estimate`` null without one).
    """
    config = level.config
    estimate = design.estimate
    return {
        "level": number,
        "title": level.title,
        "size": config.board_size,
        "rule": design.rule,
        "seed": config.initial_seed,
        "tiles": config.number_of_initial_tiles,
        "goal": config.goal,
        "distribution": [[t.value, t.weight] for t in config.tile_value_distribution],
        "board": None if level.board is None else [list(row) for row in level.board],
        "legal": design.legal,
        "illegal_tiles": list(design.illegal_tiles),
        "illegal_spawns": list(design.illegal_spawns),
        "goal_legal": design.goal_legal,
        "empty_cells": design.empty_cells,
        "largest": design.largest,
        "over": design.over,
        "won": design.won,
        "moves": list(design.moves),
        "estimate": None
        if estimate is None
        else {
            "first_move": estimate.first_move,
            "moves": len(estimate.directions),
            "max_tile": max_tile(estimate.final.board),
            "score": estimate.final.score,
            "goal_at": estimate.goal_at,
            "over": estimate.over,
            "complete": estimate.complete,
        },
    }


@game2048.command()
@click.argument("level_file", metavar="LEVEL_FILE")
@level_option("every level", name="spec")
@click.option(
    "--moves",
    "estimate_moves",
    type=IntBetween(0, 100_000, what="--moves"),
    default=200,
    show_default=True,
    help="Moves of the estimate's autoplay (0: no estimate).",
)
@time_limit_option(1.0)
@json_option
def check(
    level_file: str, spec: str | None, estimate_moves: int, time_limit: float, as_json: bool
) -> None:
    """Check the levels of LEVEL_FILE as the level editor's live verdict does.

    For each level: are its tiles, goal and spawns legal for its merge rule, is the start
    already over or won, the empty cells, the largest tile against the goal, and an
    estimate (a seeded autoplay by the AI within --time-limit). Exit 1 when a level is not
    legal or is over at the start.
    """
    from core.game2048.design import assess, describe

    pack = load_level_pack(level_file, "2048")
    failed = False
    for number, level in pick_levels(pack, spec):
        design = assess(level, moves=estimate_moves, time_limit=time_limit)
        failed = failed or not design.legal or design.over
        if as_json:
            emit_json(check_json(number, level, design))
        else:
            out = console()
            out.print(f"[bold]{number}. {escape(level.title)}[/bold]")
            out.print(escape(describe(design)), highlight=False)
    if failed:
        raise click.exceptions.Exit(EXIT_NEGATIVE)
