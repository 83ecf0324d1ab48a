"""``termarcade 2048``: play, replay, hint and autoplay 2048 from the command line.

Commands::

    termarcade 2048 play                                  # open the TUI on 2048
    termarcade 2048 replay --seed 7 --moves LLRUD [--json]
    termarcade 2048 hint --seed 7 --moves LLRUD [--json]
    termarcade 2048 autoplay --seed 1 --games 10 [--max-moves M] [--json]

Common rule options (replay, hint, autoplay): ``--size N``, ``--merge standard|fibonacci|threes``,
``--distribution "2:9,4:1"`` (value:weight pairs), ``--tiles K`` (initial tiles) and
``--goal G``. When ``--merge`` is given without ``--distribution``/``--goal`` the preset's
defaults are used.

JSON shapes (one object per line, keys in this order):

* replay: ``{"board", "score", "game_over", "won", "moves_applied", "seed"}`` where ``seed``
  is the PRNG state after the last move (``current_seed``);
* hint: ``{"direction", "board", "score", "game_over"}`` (``direction`` null when no move
  helps; exit 1 then);
* autoplay: per game ``{"seed", "score", "max_tile", "moves", "reached": {"2048", "4096",
  "8192"}}``.

Exit status: 0 success, 1 negative answer (hint with no move), 2 bad input.
Textual is imported only by ``play``.
"""

from __future__ import annotations

import sys
from typing import Any, Callable

import click

from core.game2048 import (
    MERGE_PRESETS,
    PRESET_DEFAULTS,
    GameConfig,
    GameState,
    create_game,
    has_won,
    max_tile,
    move,
    parse_moves,
    replay as replay_game,
)
from tui.cli.output import EXIT_NEGATIVE, emit_json, fail

__all__ = ["game2048", "parse_distribution", "config_from_options"]

REACH_THRESHOLDS = (2048, 4096, 8192)
"""Tile values reported in autoplay's ``reached`` object."""


def parse_distribution(text: str) -> tuple[tuple[int, float], ...]:
    """Parse ``"2:9,4:1"`` into ``((2, 9), (4, 1))``.

    Args:
        text: Comma- or space-separated ``value:weight`` pairs; a bare ``value`` has weight 1.

    Returns:
        The pairs (weights as int when integral).

    Raises:
        ValueError: With a message naming the bad item.
    """
    pairs: list[tuple[int, float]] = []
    for item in text.replace(",", " ").split():
        value_text, sep, weight_text = item.partition(":")
        try:
            value = int(value_text)
            weight: float = float(weight_text) if sep else 1
        except ValueError:
            raise ValueError(
                f"bad distribution item {item!r}: expected value:weight such as 2:9"
            ) from None
        if weight == int(weight):
            weight = int(weight)
        pairs.append((value, weight))
    if not pairs:
        raise ValueError("the distribution is empty: expected value:weight pairs such as 2:9,4:1")
    return tuple(pairs)


def config_from_options(
    seed: int,
    size: int,
    merge: str,
    distribution: str | None,
    tiles: int,
    goal: int | None,
) -> GameConfig:
    """Build a :class:`GameConfig` from the common options (exit 2 on bad values)."""
    try:
        defaults = PRESET_DEFAULTS[merge]
        dist: Any = parse_distribution(distribution) if distribution else defaults.distribution
        return GameConfig(
            board_size=size,
            initial_seed=seed,
            number_of_initial_tiles=tiles,
            tile_value_distribution=dist,
            merge_logic=merge,
            goal=defaults.goal if goal is None else (goal or None),
        )
    except ValueError as error:
        fail(str(error))


def rule_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """Add the shared ``--size/--merge/--distribution/--tiles/--goal`` options."""
    options = [
        click.option("--size", type=click.IntRange(2, 64), default=4, show_default=True,
                     help="Board side length."),
        click.option("--merge", type=click.Choice(list(MERGE_PRESETS)), default="standard",
                     show_default=True, help="Merge rule preset."),
        click.option("--distribution", metavar="V:W,...", default=None,
                     help='New-tile values and weights, e.g. "2:9,4:1" (default: the preset\'s).'),
        click.option("--tiles", type=click.IntRange(0), default=2, show_default=True,
                     help="Tiles placed at the start."),
        click.option("--goal", type=click.IntRange(0), default=None,
                     help="Winning tile (default: the preset's; 0 for none)."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def _read_moves(moves: str) -> tuple[str, ...]:
    """Parse ``--moves`` (``-`` reads them from stdin); exit 2 on bad letters."""
    if moves == "-":
        moves = sys.stdin.read()
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
    from rich.console import Console

    console = Console(highlight=False)
    console.print(_board_table(state))
    status = "game over" if state.is_game_over else "playing"
    won = " — won!" if has_won(state) else ""
    console.print(f"score {state.score}  {extra}  {status}{won}  seed {state.current_seed}")


@click.group(name="game2048", context_settings={"help_option_names": ["-h", "--help"]})
def game2048() -> None:
    """2048 (seed 004): slide tiles, merge equal ones, reach 2048.

    Games are deterministic: the same --seed and --moves always give the same board.
    """


@game2048.command()
def play() -> None:
    """Open the arcade straight into 2048."""
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        fail("the arcade needs an interactive terminal (stdin and stdout must be a TTY)")
    from tui.app import ArcadeApp

    ArcadeApp(start_game="2048").run()


@game2048.command()
@click.option("--seed", type=int, required=True, help="Initial PRNG seed.")
@click.option("--moves", default="", show_default=False, metavar="MOVES",
              help='Directions: letters L R U D (any case; commas/spaces allowed), "-" for stdin.')
@rule_options
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def replay(seed: int, moves: str, size: int, merge: str, distribution: str | None, tiles: int,
           goal: int | None, as_json: bool) -> None:
    """Replay MOVES from a seed and print the final board and score.

    Moves into a wall change nothing and are not counted in moves_applied.
    """
    config = config_from_options(seed, size, merge, distribution, tiles, goal)
    directions = _read_moves(moves)
    state, applied = replay_game(config, directions)
    if as_json:
        emit_json({
            "board": [list(row) for row in state.board],
            "score": state.score,
            "game_over": state.is_game_over,
            "won": has_won(state),
            "moves_applied": applied,
            "seed": state.current_seed,
        })
        return
    _print_state(state, f"moves {applied}/{len(directions)}")


@game2048.command()
@click.option("--seed", type=int, required=True, help="Initial PRNG seed.")
@click.option("--moves", default="", metavar="MOVES",
              help='Moves played so far (L R U D), "-" for stdin.')
@rule_options
@click.option("--depth", type=click.IntRange(0, 6), default=None,
              help="Expectimax depth in spawns looked ahead (default: the AI's adaptive choice).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def hint(seed: int, moves: str, size: int, merge: str, distribution: str | None, tiles: int,
         goal: int | None, depth: int | None, as_json: bool) -> None:
    """Suggest the next move after replaying MOVES (exit 1 when no move helps)."""
    config = config_from_options(seed, size, merge, distribution, tiles, goal)
    state, _ = replay_game(config, _read_moves(moves))
    direction = _ask_hint(state, depth)
    if as_json:
        emit_json({
            "direction": direction,
            "board": [list(row) for row in state.board],
            "score": state.score,
            "game_over": state.is_game_over,
        })
    else:
        _print_state(state, f"hint: {direction or 'none'}")
    if direction is None:
        raise click.exceptions.Exit(EXIT_NEGATIVE)


def _ask_hint(state: GameState, depth: int | None = None) -> str | None:
    """Call the expectimax hint, turning a missing or unsupported AI into a clean error."""
    try:
        import core.game2048 as engine

        return engine.hint(state) if depth is None else engine.hint(state, depth=depth)
    except ImportError as error:
        fail(f"the 2048 AI is not available ({error})")
    except ValueError as error:
        fail(f"the 2048 AI cannot play this game: {error}")


@game2048.command()
@click.option("--seed", type=int, default=1, show_default=True,
              help="Seed of the first game; game k uses seed + k.")
@click.option("--games", type=click.IntRange(1), default=1, show_default=True,
              help="How many games to play.")
@click.option("--max-moves", type=click.IntRange(1), default=100_000, show_default=True,
              help="Stop a game after this many moves.")
@rule_options
@click.option("--depth", type=click.IntRange(0, 6), default=None,
              help="Expectimax depth in spawns looked ahead (default: the AI's adaptive choice).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per game on stdout.")
def autoplay(seed: int, games: int, max_moves: int, size: int, merge: str,
             distribution: str | None, tiles: int, goal: int | None, depth: int | None,
             as_json: bool) -> None:
    """Let the expectimax AI play whole games and report how far it got."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    configs = [config_from_options(seed + k, size, merge, distribution, tiles, goal)
               for k in range(games)]
    results: list[dict[str, Any]] = []
    progress = Progress(
        TextColumn("[bold]game {task.fields[game]}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("moves {task.fields[moves]}  score {task.fields[score]}  max {task.fields[best]}"),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        disable=as_json,
        transient=False,
    )
    with progress:
        task = progress.add_task("games", total=games, game=1, moves=0, score=0, best=0)
        for index, config in enumerate(configs):
            state = create_game(config)
            count = 0
            while not state.is_game_over and count < max_moves:
                direction = _ask_hint(state, depth)
                if direction is None:
                    break
                nxt = move(state, direction)
                if nxt is state:  # a hint that changes nothing would loop forever
                    break
                state = nxt
                count += 1
                if count % 25 == 0:
                    progress.update(task, game=index + 1, moves=count, score=state.score,
                                    best=max_tile(state.board))
            top = max_tile(state.board)
            result = {
                "seed": config.initial_seed,
                "score": state.score,
                "max_tile": top,
                "moves": count,
                "reached": {str(t): top >= t for t in REACH_THRESHOLDS},
            }
            results.append(result)
            if as_json:
                emit_json(result)
            progress.update(task, advance=1, game=min(index + 2, games), moves=count,
                            score=state.score, best=top)
    if not as_json:
        _print_autoplay_summary(results)


def _print_autoplay_summary(results: list[dict[str, Any]]) -> None:
    """A table of the games and the share reaching each threshold."""
    from rich.console import Console
    from rich.table import Table

    table = Table(title="2048 autoplay")
    for name in ("seed", "score", "max tile", "moves"):
        table.add_column(name, justify="right")
    for r in results:
        table.add_row(str(r["seed"]), str(r["score"]), str(r["max_tile"]), str(r["moves"]))
    console = Console(highlight=False)
    console.print(table)
    n = len(results)
    shares = "  ".join(
        f"{t}: {sum(r['reached'][str(t)] for r in results) * 100 / n:.0f}%"
        for t in REACH_THRESHOLDS
    )
    console.print(f"{n} game(s); reached {shares}")
