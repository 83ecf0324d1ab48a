"""Pilot tests of the Triangle Carving screen: a tutorial level won by keys, the edge builder's
refusals, the path builder's offered steps (checked against a brute force over walks), the
succession picker, undo and the hint."""

from __future__ import annotations

import pytest
from textual.widgets import Button, Input

from core.carving import Formula, Level, Operator, State, Target, world_of
from core.carving.game import GAME, Construct, Extend, Finish, Succeed
from core.carving.state import path_steps
from grammar.levels import bundled_packs
from tests.tui.helpers import number_picked, open_level, play_first_level, wait_until
from tui.games.carving.actions import CarvingActions
from tui.games.carving.edge_modal import EdgeBuilder
from tui.games.carving.screen import CarvingScreen
from tui.games.carving.view import graph_text
from tui.modals.outcome import OutcomeModal
from tui.modals.text_view import TextModal

pytestmark = pytest.mark.pilot

SIZE = (80, 24)


def D(v: str) -> Formula:
    return Formula("D", v, v, v)


def N(v: str) -> Formula:
    return Formula("N", v, v, v)


def th(v: str) -> Operator:
    return Operator(N(v), D(v), D(v), D(v), D(v))


def om(v: str) -> Operator:
    return Operator(D(v), D(v), D(v), D(v), N(v))


def tutorial(title: str) -> Level:
    pack = bundled_packs("carving")[0][1]
    return pack.levels[pack.index_of(title)]


def moves_list(screen: CarvingScreen) -> CarvingActions:
    return screen.query_one(CarvingActions)


async def press_number_of(pilot, screen: CarvingScreen, move) -> None:
    """Press the digit the move list shows for ``move`` (it must be listed)."""
    entries = moves_list(screen).entries
    assert move in entries, (move, entries)
    await pilot.press(*str(entries.index(move) + 1))
    await number_picked(pilot, screen)  # the digit waits briefly for a second digit


async def test_first_cut_won_by_keys_from_the_level_select(arcade_app):
    app = arcade_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await play_first_level(pilot, "carving")
        assert isinstance(screen, CarvingScreen) and screen.level.title == "First Cut"
        await pilot.press("c")
        await pilot.pause()
        builder = app.screen
        assert isinstance(builder, EdgeBuilder)
        # θ(N(x,x,x), D(x,x,x) ×4) is intrinsic; move the four Δ slots on to D(y,y,y).
        await pilot.press(
            "down", "down", "right", "down", "right", "down", "right", "down", "right"
        )
        assert builder.operator == Operator(N("x"), D("y"), D("y"), D("y"), D("y"))
        await pilot.press("enter")
        await pilot.pause()
        assert screen.state.phase == "path"
        await press_number_of(pilot, screen, Extend(om("x"), N("x")))
        await press_number_of(pilot, screen, Extend(screen.state.pending, D("y")))
        await pilot.press("f")
        await pilot.pause()
        assert GAME.status(screen.state) == "won" and screen.state.steps == 1
        assert isinstance(app.screen, OutcomeModal)
        assert "1 step (par 1): on par" in app.screen.detail
        solved = app.store.solved_moves("carving", screen.ref.source)
        assert solved == {"First Cut": 1}  # steps, the unit of par
        # One word per count: the header counts actions (what u undoes), results count steps.
        header = str(screen.query_one("PuzzleHeader").render())
        actions = screen.session.moves_made
        assert f"{actions} actions" in header and "move" not in header
        await pilot.press("escape")  # the dialog's "Levels"
        await pilot.pause()
        levels = app.screen.query_one("#levels")
        row = str(levels.get_option_at_index(0).prompt)
        assert "best 1 step (par 1)" in row and "move" not in row


async def test_the_builder_refuses_intrinsic_and_unknown_edges(arcade_app):
    app = arcade_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_level(pilot, "carving", tutorial("First Cut"))
        start = screen.state
        await pilot.press("c")
        await pilot.pause()
        builder = app.screen
        assert builder.operator == th("x")  # the first choices: the intrinsic θ of x
        assert builder.verdict[0] is False and "intrinsic edge" in builder.verdict[1]
        assert builder.query_one("#edge-build", Button).disabled
        await pilot.press("enter")  # refused: the dialog stays, nothing is played
        await pilot.pause()
        assert app.screen is builder and screen.state is start
        box = builder.query_one(Input)
        box.value = "theta(N(x,x,x), D(q,q,q), D(x,x,x), D(x,x,x), D(x,x,x))"
        await pilot.pause()
        assert builder.verdict == (False, "D(q,q,q) is not a vertex: it is not in the closure F*.")
        box.value = "theta(D(x,x,x), D(x,x,x), D(x,x,x), D(x,x,x), D(x,x,x))"
        await pilot.pause()
        assert builder.verdict[0] is False and "column 7" in builder.verdict[1]
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen and screen.state is start and screen.session.moves_made == 0
        # The slots only ever hold formulas of the right head: cycling n never gives a Δ.
        await pilot.press("c", "down")
        for _ in range(5):
            await pilot.press("right")
            assert app.screen.entries[0].head == "N"
            assert all(f.head == "D" for f in app.screen.entries[1:])


def density_state() -> State:
    """x's tree edges gone, virtual c = {Ny, Dx} and d = {Dy, Nz}, base Dx (the core's
    density case): from Dx the only way on is V T V T V."""
    level = Level(
        types=("t",),
        variables=(("x", "t"), ("y", "t"), ("z", "t")),
        r_delta=(("t", "t", "t"),),
        r_nabla=(("t", "t", "t"),),
        root=D("x"),
        target=Target(("a", "b"), (("a", "b"),)),
        title="Density",
        density="contiguous",  # V T V T V is legal here, not in the seed's reading
        new_edges="closure",
    )
    c = Operator(N("y"), D("x"), D("x"), D("x"), D("x"))
    d = Operator(D("y"), D("y"), D("y"), D("y"), N("z"))
    return State(
        world_of(level), frozenset({th("y"), om("y"), th("z"), om("z")}), frozenset({c, d}), D("x")
    )


def completable(state: State, max_len: int = 7) -> bool:
    """Brute force, by the definitions: can the walk so far be extended (by at most
    ``max_len`` steps) into a path that uses e_new and has no contiguous V T T… V run?"""
    edges = sorted(state.tree | state.virtual | {state.pending})
    walked = [e for e, _ in state.path]
    here = state.path[-1][1] if state.path else state.base

    def legal(walk: list) -> bool:
        sigma = "".join("T" if e in state.tree else "V" for e in walk)
        return state.pending in walk and not any(f"V{'T' * n}V" in sigma for n in range(2, 12))

    frontier = [(here, walked)]
    for _ in range(max_len + 1):
        if any(legal(w) for _, w in frontier if w):
            return True
        frontier = [
            (to, w + [e])
            for at, w in frontier
            for e in edges
            if at in e
            for to in set(e)
            if to != at
        ]
        frontier = [
            (at, w)
            for at, w in frontier
            if not any(
                f"V{'T' * n}V" in "".join("T" if x in state.tree else "V" for x in w)
                for n in range(2, 12)
            )
        ]
    return False


async def test_the_path_builder_offers_exactly_the_completable_steps(arcade_app):
    app = arcade_app()
    async with app.run_test(size=SIZE) as pilot:
        start = density_state()
        e = Operator(N("x"), D("z"), D("z"), D("z"), D("z"))  # {Nx, Dz}
        screen = await open_level(
            pilot, "carving", start.level, state=GAME.apply(start, Construct(e))
        )
        for _ in range(5):
            state = screen.state
            offered = set(path_steps(state))
            listed = [m for m in moves_list(screen).entries if isinstance(m, Extend)]
            assert {(m.edge, m.to) for m in listed} == offered
            here = state.path[-1][1] if state.path else state.base
            every = {
                (op, to)
                for op in state.tree | state.virtual | {state.pending}
                if here in op
                for to in set(op)
                if to != here
            }
            for op, to in every:
                longer = State(
                    state.world,
                    state.tree,
                    state.virtual,
                    state.base,
                    "path",
                    state.pending,
                    state.path + ((op, to),),
                    state.steps,
                )
                assert ((op, to) in offered) == completable(longer), (op, to)
            assert offered, "a path in progress always has a way on"
            first = listed[0]
            await press_number_of(pilot, screen, first)
        # V T V T V reached the new edge: finishing removes c, d, e and one tree edge each of y, z.
        assert screen.state.phase == "path" and any(
            isinstance(m, Finish) for m in moves_list(screen).entries
        )
        await pilot.press("f")
        await pilot.pause()
        assert not screen.state.virtual and len(screen.state.tree) == 2


async def test_succession_picks_a_new_base_point_by_keys(arcade_app):
    app = arcade_app()
    async with app.run_test(size=SIZE) as pilot:
        level = tutorial("Step Aside")
        state = GAME.initial(level)
        new = Operator(N("x"), D("y"), D("y"), D("y"), D("y"))
        for move in (
            Construct(new),
            Extend(om("x"), N("x")),
            Extend(th("x"), D("x")),
            Extend(om("x"), N("x")),
            Extend(new, D("y")),
            Finish(),
        ):
            state = GAME.apply(state, move)
        screen = await open_level(pilot, "carving", level, state=state)
        assert screen.state.phase == "succession"
        # Candidates, worked out independently: vertices no remaining tree edge concludes.
        concluded = {e.f5 for e in state.tree}
        expected = [Succeed(v) for v in state.world.vertices if v not in concluded]
        assert moves_list(screen).entries == expected == [Succeed(D("x")), Succeed(N("x"))]
        await pilot.press("down", "enter")
        await pilot.pause()
        assert screen.state.base == N("x") and screen.state.phase == "construct"
        assert screen.state.steps == 1
        assert "◉▼xxx" in screen.query_one("#cv-status").render().plain
        await pilot.press("u")  # undo goes back to the choice
        await pilot.pause()
        assert screen.state.phase == "succession" and screen.state.base == D("x")


async def test_tip_and_level_info(arcade_app):
    app = arcade_app()
    async with app.run_test(size=SIZE) as pilot:
        level = tutorial("Rotations")
        screen = await open_level(pilot, "carving", level)
        await pilot.press("t")
        assert screen.last_message.startswith("Hint: " + level.hint[:20])
        await pilot.press("t")
        await wait_until(pilot, lambda: screen.last_message.startswith("Next"))
        assert screen.last_message.startswith("Next (2 more steps): build theta(N(x,x,y),")
        await pilot.press("c")
        await pilot.pause()
        assert app.screen.operator == screen.hinted.edge  # the builder starts from the hint
        await pilot.press("escape", "i")
        await pilot.pause()
        assert isinstance(app.screen, TextModal)
        body = app.screen.body.plain
        assert "F*: 5 formulas" in body and "Not well-typed, so not in F*: D(x,y,x)" in body


def test_the_graph_marks_base_walk_and_new_edge():
    start = density_state()
    e = Operator(N("x"), D("z"), D("z"), D("z"), D("z"))
    state = GAME.apply(start, Construct(e))
    c = Operator(N("y"), D("x"), D("x"), D("x"), D("x"))
    state = GAME.apply(state, Extend(c, N("y")))
    text = graph_text(state).plain
    assert "◉▲xxx" in text and "◎▼yyy" in text
    assert " ✂V θ ▼yyy ▲xxx×3 ⇒▲xxx" in text
    assert " ★V θ ▼xxx ▲zzz×3 ⇒▲zzz" in text
    assert " ›T ω ▲yyy×4 ⇒▼yyy" in text  # an offered step goes through it


async def test_layout_follows_the_phase_and_long_hints_are_not_cut(arcade_app):
    """At 80×24: one row of moves while building (the graph gets the rest), seven while a path
    or a choice is listed; a hint longer than the line wraps instead of being cut off."""
    app = arcade_app()
    async with app.run_test(size=SIZE) as pilot:
        level = tutorial("First Cut")
        screen = await open_level(pilot, "carving", level)
        moves = moves_list(screen)
        assert moves.outer_size.height == 3
        await pilot.press("t")
        await pilot.pause()
        bar = screen.query_one("#puzzle-message")
        width = bar.content_size.width
        assert 2 * width < len(screen.last_message) <= 3 * width  # needs all three lines
        assert level.hint in screen.last_message and bar.outer_size.height == 3
        screen.play_move(Construct(Operator(N("x"), D("y"), D("y"), D("y"), D("y"))))
        await pilot.pause()
        assert screen.state.phase == "path" and moves.outer_size.height == 7
        await pilot.press("u")  # undo leaves the path phase: back to building
        await pilot.pause()
        assert screen.state.phase == "construct" and not screen.state.virtual
        assert moves.outer_size.height == 3


async def test_the_footer_fits_80_columns_in_every_phase(arcade_app):
    """Regression: the footer was cut at 80 columns (``i L``, no help). Now each phase shows
    the keys that act in it: c in the construct phase, f on the path, and E the editor
    (issue 30: it was missing; ``i`` is in the help and the palette)."""
    app = arcade_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await play_first_level(pilot, "carving")
        assert isinstance(screen, CarvingScreen)

        def footer() -> str:
            return list(app.screen._compositor.render_strips())[-1].text

        line = footer()
        assert "c Build" in line and "f Finish" not in line
        assert "E Editor" in line and "? Help" in line and "^p palette" in line
        await pilot.press(
            "c", "down", "down", "right", "down", "right", "down", "right", "down", "right", "enter"
        )
        await pilot.pause()
        assert screen.state.phase == "path"
        line = footer()
        assert "f Finish" in line and "c Build" not in line
        assert "E Editor" in line and "? Help" in line and "^p palette" in line
