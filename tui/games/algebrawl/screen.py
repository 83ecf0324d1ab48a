"""The Algebrawl screen: monsters, cards and the pool as tiles; each computed value as a tree.

Built on :class:`tui.screens.puzzle.PuzzleScreen` (undo/redo, restart as a move, saves, the
outcome dialogs, the hint worker, ``N``). Every rule lives in :mod:`core.algebrawl`; this
screen only collects a move from the player's picks and hands it to the engine:

* pick a **card**, then its values in argument order (``÷`` on 8 then 2 is 8 ÷ 2): when the
  card has all its values it is played;
* pick a **value**, then a **monster** (or a monster, then a value) to strike it; a value
  picked first, then a card, becomes the card's first argument.

A move the rules refuse (division by zero, a fraction in an integer-only level, a value
that does not match the monster) changes nothing and the engine's reason is shown on the
message line. ``t`` gives the level's hint, then one next step of a solution (the core's
solver). After a win the dialog says how many distinct solutions the level has (counted in
the background when the level opens). ``g`` opens the generator dialog (generator,
difficulty band, seed) for new levels; ``N`` then makes another one with the same band.

Layout (fits 80×24): the board of tiles with the move being built and the level's
description on the left, the trees of the pool's computed values on the right.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Static
from textual.worker import Worker

from core.algebrawl import (
    Cast,
    Node,
    PlayCard,
    State,
    Strike,
    format_value,
    monster_values,
    solution_moves,
    solve,
    solve_state,
    to_infix,
)
from core.algebrawl.design import LIVE_BUDGET
from core.session import Session
from core.text import escape_controls, plural
from tui.games.algebrawl.board import SECTIONS, AstView, BrawlBoard, tiles_of
from tui.modals.outcome import par_verdict
from tui.screens.puzzle import Hint, PuzzleScreen
from tui.workers import Route, cancelled, finished

__all__ = ["GENERATOR_KEY", "AlgebrawlScreen", "generator_settings"]

GENERATOR_KEY = "algebrawl.generator"
"""Store setting: the generator dialog's choices (``{"generator", "brawl", "24"}``)."""
COUNT_TIME_LIMIT = 8.0
"""Seconds the background count of distinct solutions may take."""
COUNT_GROUP = "algebrawl-count"
"""The worker group of the solution count (one at a time: a new level's cancels the old)."""
QUICK_CARDS = {"+": "+", "-": "−", "*": "×", "/": "÷"}
"""Keys that pick a card by its symbol (typed symbol -> card label)."""


def generator_settings(store: Any) -> dict[str, Any]:
    """The generator dialog's saved choices, with defaults for anything missing or bad."""
    from core.algebrawl.generators import GENERATORS

    data = store.get_setting(GENERATOR_KEY, None) if store is not None else None
    data = data if isinstance(data, dict) else {}
    out: dict[str, Any] = {
        "generator": data.get("generator") if data.get("generator") in GENERATORS else "brawl"
    }
    for name, generator in GENERATORS.items():
        band = data.get(name)
        ok = (
            isinstance(band, list)
            and len(band) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in band)
            and generator.limits[0] <= band[0] <= band[1] <= generator.limits[1]
        )
        out[name] = tuple(band) if ok and isinstance(band, list) else generator.default_band
    return out


class AlgebrawlScreen(PuzzleScreen):
    """Play one Algebrawl level (see the module docstring)."""

    CSS_PATH = "styles.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,h,a", "cursor(0, -1)", "Left", show=False, id="algebrawl.left"),
        Binding("right,l,d", "cursor(0, 1)", "Right", show=False, id="algebrawl.right"),
        Binding("up,k,w", "cursor(-1, 0)", "Up", show=False, id="algebrawl.up"),
        Binding("down,j,s", "cursor(1, 0)", "Down", show=False, id="algebrawl.down"),
        Binding("enter,space", "pick", "Pick", id="algebrawl.pick", key_display="⏎"),
        Binding("backspace", "unpick", "Unpick", show=False, id="algebrawl.unpick"),
        Binding("g", "generator", "Generate", id="algebrawl.generate"),
        Binding("plus", "quick_card('+')", "+", show=False, id="algebrawl.plus"),
        Binding("minus", "quick_card('-')", "−", show=False, id="algebrawl.minus"),
        Binding("asterisk", "quick_card('*')", "×", show=False, id="algebrawl.times"),
        Binding("slash", "quick_card('/')", "÷", show=False, id="algebrawl.divide"),
    ]

    def __init__(self, session: Session, **kwargs: Any) -> None:
        super().__init__(session, **kwargs)
        self.cursor: tuple[str, int] = ("pool", 0)
        """Where the cursor is: a row of the board and a position in it."""
        self.card: int | None = None
        """The card picked for the move being built (a card index), if any."""
        self.args: list[int] = []
        """The pool positions picked as its arguments so far."""
        self.value: int | None = None
        """A pool position picked to strike with (no card picked)."""
        self.target: int | None = None
        """A monster picked first (then a value strikes it)."""
        self.tip_stage = 0
        """0: the level's hint was not shown yet in this game; 1: it was."""
        self._counted: dict[Any, tuple[int | None, bool]] = {}
        self._shown_state: State | None = None

    @classmethod
    def generator_params(cls, app: Any) -> dict[str, dict[str, Any]]:
        """New levels use the bands chosen in the generator dialog."""
        settings = generator_settings(app.store)
        return {
            name: {"low": band[0], "high": band[1]}
            for name, band in settings.items()
            if name != "generator"
        }

    # -- layout ------------------------------------------------------------------------------

    def compose_board(self) -> ComposeResult:
        with Horizontal(id="ab-main"):
            with Vertical(id="ab-left") as left:
                left.border_title = "Brawl"
                yield Static("", id="ab-rules")
                yield BrawlBoard(id="ab-board")
                yield Static("", id="ab-building")
                yield Static("", id="ab-description")
            with VerticalScroll(id="ab-trees") as trees:
                trees.border_title = "Trees"
                yield AstView(id="ab-ast")

    def after_mount(self) -> None:
        self.query_one(BrawlBoard).focus()
        self._start_count()

    # -- rendering ---------------------------------------------------------------------------

    def render_state(self, session: Session) -> None:
        state: State = session.state
        if state is not self._shown_state:  # a move, undo or restart: drop the half-built move
            self._shown_state = state
            self._clear_picks()
        self._clamp_cursor()
        self._draw()

    def _draw(self) -> None:
        state: State = self.state
        board = self.query_one(BrawlBoard)
        picked = {
            "monsters": {self.target} if self.target is not None else set(),
            "cards": {self.card} if self.card is not None else set(),
            "pool": set(self.args) | ({self.value} if self.value is not None else set()),
        }
        order = (
            {pos: n for n, pos in enumerate(self.args, start=1)}
            if self.card is not None and self.state.puzzle.cards[self.card].arity > 1
            else {}
        )
        board.show(tiles_of(state), self.cursor, picked, order)
        section, pos = self.cursor
        self.query_one(AstView).show(
            state.pool, pos if section == "pool" else None, state.struck, monster_values(state)
        )
        # Text, not markup: the building line quotes card symbols and names, and the
        # description is the level author's; a "[/]" symbol or "[@click=...]" stays text.
        self.query_one("#ab-building", Static).update(Text(escape_controls(self._building_text())))
        self.query_one("#ab-rules", Static).update(Text(self._rules_text()))
        description = self.level.description
        self.query_one("#ab-description", Static).update(Text(escape_controls(description)))

    def _rules_text(self) -> str:
        puzzle = self.state.puzzle
        rules = ["each card once"]
        if puzzle.integer_only:
            rules.append("whole numbers only")
        if puzzle.use_all:
            rules.append("use every number")
        left = len(self.state.standing)
        rules.append(f"{plural(left, 'monster')} left")
        return " · ".join(rules)

    def _building_text(self) -> str:
        state = self.state
        if self.session.status == "won":
            return f"All monsters struck! {self.after_win_keys()}"
        if self.session.status == "lost":
            return "No move left: u undoes, R restarts."
        if self.card is not None and state.puzzle.cards[self.card].effect:
            return self._casting_text()
        if self.card is not None:
            card = state.puzzle.cards[self.card]
            slots = [format_value(state.pool[i].value) for i in self.args]
            slots += ["_"] * (card.arity - len(self.args))
            shown = (
                f" {card.label} ".join(slots) if card.symbol else f"{card.name}({', '.join(slots)})"
            )
            need = card.arity - len(self.args)
            return (
                f"Playing {shown}: pick {plural(need, 'more value')} "
                "(backspace: drop one, esc: cancel)"
            )
        if self.value is not None:
            have = format_value(state.pool[self.value].value)
            return f"Value {have} picked: pick a monster to strike, or a card to play on it"
        if self.target is not None:
            want = format_value(monster_values(state)[self.target])
            return f"Monster {want} picked: pick a value equal to {want} to strike it"
        return "Pick a card, then its values · or a value, then a monster"

    def _casting_text(self) -> str:
        """What to pick next while casting a card that acts on the monsters."""
        card = self.state.puzzle.cards[self.card]
        if card.effect == "poison_wizard":
            return "Poison wizard: pick the dose, a value; every odd monster loses it (esc: cancel)"
        if not self.args:
            return "Traitor: pick the ally, a value, then the monster it attacks (esc: cancel)"
        ally = format_value(self.state.pool[self.args[0]].value)
        return f"Traitor {ally}: pick the monster it attacks (it defects if stronger; esc: cancel)"

    # -- cursor ------------------------------------------------------------------------------

    def _row(self, section: str) -> int:
        """How many tiles the row ``section`` has (as many as :func:`tiles_of` makes)."""
        state: State = self.state
        if section == "monsters":
            return len(monster_values(state))
        return len(state.puzzle.cards if section == "cards" else state.pool)

    def _clamp_cursor(self) -> None:
        section, pos = self.cursor
        size = self._row(section)
        if size == 0:
            section = next((s for s in ("pool", "cards", "monsters") if self._row(s)), "pool")
            size = self._row(section)
        self.cursor = (section, max(0, min(pos, size - 1)))

    def action_cursor(self, rows: int, columns: int) -> None:
        """Move the cursor: left/right within a row, up/down to the next row with tiles."""
        section, pos = self.cursor
        if rows:
            index = SECTIONS.index(section)
            while True:
                index += rows
                if not 0 <= index < len(SECTIONS):
                    return
                if self._row(SECTIONS[index]):
                    break
            self.cursor = (SECTIONS[index], pos)
        else:
            self.cursor = (section, max(0, min(pos + columns, self._row(section) - 1)))
        self._clamp_cursor()
        self._draw()

    @on(BrawlBoard.Clicked)
    def _clicked(self, event: BrawlBoard.Clicked) -> None:
        self.cursor = (event.section, event.position)
        self.query_one(BrawlBoard).focus()
        self.action_pick()

    # -- picking -----------------------------------------------------------------------------

    def _clear_picks(self) -> None:
        self.card, self.args, self.value, self.target = None, [], None, None

    def action_pick(self) -> None:
        """Pick the tile under the cursor (what that does depends on what is picked)."""
        if self.session.finished:
            self.app.bell()
            self.say("The game is over: u undoes, R restarts, N goes on.", "warning")
            return
        section, pos = self.cursor
        if section == "cards":
            self._pick_card(pos)
        elif section == "monsters":
            self._pick_monster(pos)
        elif 0 <= pos < len(self.state.pool):
            self._pick_value(pos)
        self._draw()

    def _pick_card(self, index: int) -> None:
        state = self.state
        if index not in state.hand:
            self.app.bell()
            self.say("That card has been played already (u undoes).", "warning")
            return
        if self.card == index:
            self._clear_picks()
            self.say("Card put back.")
            return
        first = [self.value] if self.value is not None else []
        self._clear_picks()
        self.card, self.args = index, first
        card = state.puzzle.cards[index]
        if card.effect:
            self._start_cast(card)
            return
        if len(self.args) == card.arity:
            self._play_card()
            return
        self._to_pool()  # the card's values come next
        about = "" if card.symbol else f" ({card.definition()})"
        self.say(
            f"Card {card.label}{about}: pick {plural(card.arity - len(self.args), 'value')}"
            " in order."
        )

    def _start_cast(self, card: Any) -> None:
        """A card acting on monsters was picked: cast it now, or say what comes next."""
        if card.effect == "poison_wizard" and self.args:
            self._cast(self.args[0], -1)
        elif card.effect == "traitor" and self.args:
            self.cursor = ("monsters", self.state.standing[0] if self.state.standing else 0)
            self.say("Traitor: pick the monster it attacks.")
        else:
            self._to_pool()
            self.say(f"{card.name}: {self._casting_text()}")

    def _cast(self, pos: int, target: int) -> None:
        assert self.card is not None
        move = Cast(self.card, pos, target)
        text = self.game.describe_move(self.state, move)
        if self.play(move):
            self.say(f"Cast: {text}.")
            self._clamp_cursor()
            self._draw()
        else:
            self.args = []  # keep the card: pick another value

    def _pick_value(self, pos: int) -> None:
        card = self.state.puzzle.cards[self.card] if self.card is not None else None
        if card is not None and card.effect:
            self.args = [pos]
            if card.effect == "poison_wizard":
                self._cast(pos, -1)
            else:
                self._start_cast(card)
            return
        if self.card is not None:
            if pos in self.args:
                self.args.remove(pos)
                return
            self.args.append(pos)
            if len(self.args) == self.state.puzzle.cards[self.card].arity:
                self._play_card()
            return
        if self.target is not None:
            self._strike(pos, self.target)
            return
        self.value = None if self.value == pos else pos

    def _pick_monster(self, index: int) -> None:
        state = self.state
        if index not in state.standing:
            self.app.bell()
            self.say("That monster is already struck.", "warning")
            return
        if (
            self.card is not None
            and self.args
            and state.puzzle.cards[self.card].effect == "traitor"
        ):
            self._cast(self.args[0], index)
            return
        if self.card is not None:
            self.app.bell()
            self.say("Finish the card first (or esc to put it back).", "warning")
            return
        if self.value is not None:
            self._strike(self.value, index)
            return
        self.target = None if self.target == index else index
        if self.target is not None:
            self._to_pool()  # the value that strikes it comes next

    def _to_pool(self) -> None:
        """Put the cursor on the first pool value not picked yet (where the next pick is)."""
        free = [i for i in range(len(self.state.pool)) if i not in self.args]
        if free:
            self.cursor = ("pool", free[0])

    def _play_card(self) -> None:
        assert self.card is not None
        move = PlayCard(self.card, tuple(self.args))
        text = self.game.describe_move(self.state, move)
        first = min(self.args)
        if self.play(move):
            self.cursor = ("pool", first)  # the new value takes the place of the first one
            self._clamp_cursor()
            self.say(f"Played {text}.")
            self._draw()
        else:
            self.args = []  # keep the card: pick other values

    def _strike(self, pos: int, target: int) -> None:
        move = Strike(pos, target)
        tree = self.state.pool[pos] if 0 <= pos < len(self.state.pool) else None
        if self.play(move) and tree is not None:  # a legal strike names a pool value
            how = f" with {to_infix(tree)}" if isinstance(tree, Node) else ""
            self.say(f"Monster {format_value(tree.value)} struck{how}.")
        else:
            self._clear_picks()

    def action_unpick(self) -> None:
        """Drop the last pick of the move being built."""
        if self.args:
            self.args.pop()
        elif self.card is not None or self.value is not None or self.target is not None:
            self._clear_picks()
        else:
            self.say("Nothing picked.")
        self._draw()

    def action_quick_card(self, symbol: str) -> None:
        """``+ - * /``: pick the first such card still in hand."""
        label = QUICK_CARDS.get(symbol, symbol)
        state = self.state
        for index in state.hand:
            if state.puzzle.cards[index].label == label:
                self.cursor = ("cards", index)
                self.action_pick()
                return
        self.app.bell()
        self.say(f"No {label} card in hand.", "warning")

    # -- the keys of a move ------------------------------------------------------------------

    def keys_for(self, move: Any) -> Sequence[str]:
        """The picks that build ``move``, each reached with the cursor keys and made with
        ``enter``: a strike picks the value, then the monster; a card is picked, then its
        values in argument order; a cast picks the card, the value, then (a traitor) the
        monster it attacks. Anything picked already is dropped first (``esc``).

        The cursor jumps where :meth:`action_pick` puts it: after a card, to the first pool
        value (:meth:`_to_pool`); after a traitor's ally, to the first standing monster
        (:meth:`_start_cast`).

        Args:
            move: A legal move of the current state.

        Returns:
            The keys, in order.
        """
        keys: list[str] = []
        if self.card is not None or self.value is not None or self.target is not None:
            keys.append(self.binding_key("puzzle.back"))  # drops the picks (action_back)
        state: State = self.state
        pick = self.binding_key("algebrawl.pick")
        cursor = self.cursor
        first_value = ("pool", 0) if state.pool else cursor  # where _to_pool goes

        def go(goal: tuple[str, int], then: tuple[str, int] | None = None) -> None:
            nonlocal cursor
            keys.extend(self._cursor_keys(cursor, goal))
            keys.append(pick)
            cursor = then or goal

        if isinstance(move, Strike):
            go(("pool", move.value))
            go(("monsters", move.target))
        elif isinstance(move, PlayCard):
            go(("cards", move.card), then=first_value)
            for position in move.args:
                go(("pool", position))
        elif isinstance(move, Cast):
            go(("cards", move.card), then=first_value)
            ally = ("monsters", state.standing[0] if state.standing else 0)
            go(("pool", move.value), then=ally)
            if state.puzzle.cards[move.card].effect == "traitor":
                go(("monsters", move.target))
        else:
            return ()
        return keys

    def _cursor_keys(self, start: tuple[str, int], goal: tuple[str, int]) -> list[str]:
        """The cursor keys from ``start`` to ``goal`` (as :meth:`action_cursor` moves:
        up/down go to the next row with tiles, the column cut to that row's length at each
        row passed, left/right stop at the row's ends).

        Args:
            start: The cursor now (a row and a position).
            goal: The tile to reach.

        Returns:
            Up or down keys, then left or right keys.
        """
        sizes = {section: self._row(section) for section in SECTIONS}
        (section, pos), (to_section, to_pos) = start, goal
        here, there = SECTIONS.index(section), SECTIONS.index(to_section)
        step = 1 if there > here else -1
        vertical = self.binding_key("algebrawl.down" if step > 0 else "algebrawl.up")
        keys: list[str] = []
        for index in range(here + step, there + step, step):
            if sizes[SECTIONS[index]]:  # each row reached cuts the column to its length
                keys.append(vertical)
                pos = min(pos, sizes[SECTIONS[index]] - 1)
        across = self.binding_key("algebrawl.right" if to_pos > pos else "algebrawl.left")
        return keys + [across] * abs(to_pos - pos)

    def action_back(self) -> None:
        """Escape first drops the move being built; then it goes back to the levels."""
        if self.card is not None or self.value is not None or self.target is not None:
            self._clear_picks()
            self.say("Picks cleared.")
            self._draw()
            return
        super().action_back()

    # -- levels ------------------------------------------------------------------------------

    def on_level_changed(self) -> None:
        self._shown_state = None
        self.cursor = ("pool", 0)
        self.tip_stage = 0
        self._start_count()

    def _start_count(self) -> None:
        """Count the level's distinct solutions in a job (for the win dialog); the result
        is kept when the job ends (:meth:`_count_done`)."""
        level = self.level
        if level is None or level in self._counted:
            return
        # exclusive: a new level's count cancels the previous one (leaving cancels it too).
        self._count(level)

    @work(thread=True, exclusive=True, group=COUNT_GROUP, exit_on_error=False)
    def _count(self, level: Any) -> tuple[Any, tuple[int | None, bool]]:
        # Cards cast on the monsters are counted too (core.algebrawl.castcount).
        result = solve(
            level.puzzle,
            count=True,
            time_limit=COUNT_TIME_LIMIT,
            should_stop=cancelled,
            budget=LIVE_BUDGET,
        )
        found = (result.count, result.complete) if result.status == "solved" else (None, False)
        return level, found

    def _count_done(self, result: tuple[Any, tuple[int | None, bool]]) -> None:
        level, found = result
        self._counted[level] = found

    def _count_failed(self, line: str) -> None:
        self.say(line, "warning")

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """The solution count ends here; hints go to the base (Textual calls its handler
        too: this one must not call it)."""
        finished(
            self,
            event,
            {COUNT_GROUP: Route("Counting the solutions", self._count_done, self._count_failed)},
        )

    def solution_count(self) -> tuple[int | None, bool]:
        """``(count, complete)`` of the level's distinct solutions, if counted yet."""
        return self._counted.get(self.level, (None, False))

    def outcome_detail(self, kind: str) -> str:
        if kind == "lost":
            return super().outcome_detail(kind)
        verdict = par_verdict(self.session.moves_made, self.par)
        count, complete = self.solution_count()
        if count is None:
            return verdict
        more = "" if complete else " at least"
        return f"{verdict} · this level has{more} {plural(count, 'distinct solution')}"

    def loss_reason(self) -> str | None:
        state = self.state
        if not state.standing and state.puzzle.use_all and state.pool:
            return (
                "Every monster is struck, but numbers are left over, and this level "
                "wants every number used."
            )
        return "No card can be played and no value equals a standing monster."

    # -- tip ---------------------------------------------------------------------------------

    def action_tip(self) -> None:
        """First ``t`` of a game: the level's hint. Then: one next step of a solution."""
        hint_text = self.level.hint
        if self.tip_stage == 0 and hint_text and not self.session.finished:
            self.tip_stage = 1
            self.say(f"Hint: {hint_text}  (t again: the next step)")
            return
        super().action_tip()

    def compute_hint(self, state: State, should_stop: Any, time_limit: float) -> Hint:
        result = solve_state(
            state, time_limit=time_limit, should_stop=should_stop, budget=LIVE_BUDGET
        )
        if result.status == "unsolvable":  # proved: the search covered every move
            return Hint("From here the monsters cannot all be struck: undo (u) or restart (R).")
        if result.status != "solved" or not (result.strikes or result.moves):
            # Unknown is not unsolvable: say which bound stopped the solver.
            why = "its work budget" if result.reason == "work budget" else "its time"
            return Hint(f"The solver found no way within {why}: the position may still be won.")
        moves = result.moves or solution_moves(state, result.strikes)
        return Hint(
            f"Next step ({plural(len(moves), 'move')} to go): "
            f"{self.game.describe_move(state, moves[0])}",
            moves[0],
        )

    def highlight_move(self, move: Any) -> None:
        """Point the cursor at the hinted card (or at the value that strikes)."""
        if isinstance(move, (PlayCard, Cast)):
            self.cursor = ("cards", move.card)
        elif isinstance(move, Strike):
            self.cursor = ("pool", move.value)
        self._clamp_cursor()
        self._draw()

    # -- generator ---------------------------------------------------------------------------

    def action_generator(self) -> None:
        """The generator dialog: a new level from a generator, a difficulty band, a seed."""
        from tui.games.algebrawl.generator_modal import GeneratorChoice, GeneratorModal

        settings = generator_settings(self.arcade.store)

        def chosen(choice: GeneratorChoice | None) -> None:
            if choice is None:
                return
            settings[choice.generator] = (choice.low, choice.high)
            settings["generator"] = choice.generator
            stored = {
                key: list(value) if isinstance(value, tuple) else value
                for key, value in settings.items()
            }
            self.arcade.store.set_setting(GENERATOR_KEY, stored)
            if self.launcher is not None:
                self.launcher.refresh_generators()
            self._open_generated(choice)

        self.app.push_screen(GeneratorModal(settings), chosen)

    def _open_generated(self, choice: Any) -> None:
        from tui.sources import GeneratorSource

        source = None
        if self.launcher is not None:
            source = self.launcher.sources.generator(choice.generator)
        if source is None:
            from core.algebrawl.generators import GENERATORS

            source = GeneratorSource(
                choice.generator,
                GENERATORS[choice.generator],
                {"low": choice.low, "high": choice.high},
                self.arcade.store,
                self.info.id,
            )
        ref = source.new(choice.seed)
        try:
            if self.launcher is not None:
                ref, level, session, _ = self.launcher.prepare(ref)
            else:
                level = source.level(ref.key)
                session = Session.begin(self.game, self.game.initial(level))
        except (LookupError, ValueError) as error:
            self.app.bell()
            self.say(f"No level could be generated: {error}", "error")
            return
        kept = self.session is not None and self.session.touched
        self.switch_level(ref, level, session)
        self.say(
            f"Now playing {self.level_title}." + (" Your previous game is saved." if kept else "")
        )
