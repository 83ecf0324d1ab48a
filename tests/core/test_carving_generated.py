"""Issue 29: the Carving generator emits only levels whose par is proved.

A play-out whose par the solver cannot prove within the generator's bounds is dropped and the
next one is drawn from the same ``random.Random(seed)``. The seeds whose level was proved
before keep their level, its solution and so their ID: the fingerprints below were recorded
from the code before this change (level JSON and solution moves, seeds 0..60 of easy and
medium and hard; seeds the old generator left without a par are not pinned). Par is
checked against plain breadth-first search, a different search than the generator's branch
and bound. Outcomes are bounded by states and work budgets only, never by the clock.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.carving import GAME, NoProvedLevel, generate, level_to_json, solve
from core.carving.generators import GENERATORS
from core.carving.paths import Graph, completion_levels, removal_sets
from core.game import replay_moves
from tests.cli.helpers import apart_runner

NO_HANG = 600.0
"""A time limit only a hang reaches: outcomes here are bounded by states and budgets."""

# Seed -> fingerprint of (level, solution) made by the generator before this change, for the
# seeds whose par it proved.
PROVED_BEFORE: dict[str, dict[int, str]] = {
    "easy": {
        0: "ee368c711ac0",
        1: "672e65180c7c",
        2: "4ce09340f766",
        3: "a0a266402b9e",
        4: "798cfe12453b",
        5: "f65f8b9f6631",
        6: "a65db43c569a",
        7: "dddcb327fa8d",
        8: "208e5596fe72",
        9: "c440d6ece5a0",
        10: "b4d5c8063bf0",
        11: "dc75fdc61def",
        12: "22bc315fa3d2",
        13: "0fd0f8126b19",
        14: "57f213daa9db",
        15: "e9a43b2d1628",
        16: "147953f6379f",
        17: "abf890eed41e",
        18: "408c9e01e8b9",
        19: "bd162babe517",
        20: "37477fa8a179",
        21: "2b4716388c45",
        22: "53469d1be3f0",
        23: "1868c053d9da",
        24: "2764f3c9c3c3",
        25: "4e5751d1beaa",
        26: "60feb1032fd0",
        27: "69852365c747",
        28: "6c707a5dd20e",
        29: "1aa02f1925a3",
        30: "64fdb7a83867",
        31: "4206b1c5fe8e",
        32: "21c9fd1b8fe4",
        33: "9ce4e8fda210",
        34: "6ff9554f2bbf",
        35: "5287a7016048",
        36: "fa165b4c41e0",
        37: "9b1e6049d5ce",
        38: "7826286d02f2",
        39: "8156027a6991",
        40: "19938c7c547c",
        41: "7aa16bfa242f",
        42: "12e116cacd1c",
        43: "98f02d57f091",
        44: "5258deed836f",
        45: "9014f7463cfd",
        46: "19d6a4c7d9ca",
        47: "cfb5aa289043",
        48: "d0873b389fcf",
        49: "446adec15ed8",
        50: "967c1b6bdc91",
        51: "0aae8c883b54",
        52: "b9f251b66e74",
        53: "7782e2cb7a95",
        54: "576d9bf184c2",
        55: "58b9c5c25809",
        56: "01156da8c158",
        57: "7f568b5b3e8c",
        58: "b8b02abb34c0",
        59: "209908148147",
        60: "8d6b8ccac689",
    },
    "medium": {
        0: "66e32db7f9a9",
        1: "c08878f492f8",
        2: "f38264ec38f3",
        3: "d3239bfac1dd",
        4: "65e39bf78f96",
        5: "24650e4c67b8",
        6: "08a3433b8785",
        7: "e362d4cbcc5f",
        8: "01252d8978f2",
        9: "1e54c41e0709",
        10: "e457e0aa5125",
        11: "661f39621697",
        12: "6c868dc3d673",
        13: "4898f101dbcf",
        14: "6540f17bcbfd",
        15: "4f53df57aec2",
        16: "d66aebf6891c",
        17: "760404d71f44",
        18: "183843e7acbe",
        19: "a233d3b19989",
        20: "cd0fb2243ec9",
        21: "32c682e9af32",
        22: "7ce380654fc0",
        23: "b88a9dcdbb4a",
        24: "bb0acf7fbd5f",
        25: "861b087a3832",
        27: "6418de6f5bf1",
        29: "209f205c463d",
        31: "e2c3279d2e6f",
        32: "4f80863c13be",
        33: "65ee4e874f2f",
        34: "e8a0fc49f29c",
        35: "cc21683966d1",
        36: "2a3aa7bac669",
        37: "a8c0cd2b2fb6",
        38: "428897434b68",
        39: "3dd3984a73bd",
        40: "03ccfbab8e1c",
        41: "622c2771e636",
        42: "0cab179b4160",
        43: "90e9f06b1b77",
        44: "4eac7e339b1e",
        45: "cb81b8cea6c4",
        46: "a89926090978",
        47: "fdea912ef519",
        48: "7faa2fc155dc",
        49: "371377821c67",
        50: "a719446e7051",
        51: "b489b6f6a707",
        52: "961545522549",
        53: "e78470762667",
        54: "b209e0f2a553",
        56: "a78bdafefa0b",
        57: "d4f5f9ccf200",
        58: "e8052d2407c0",
        59: "de5dc10a0a99",
        60: "ff3ab1ef948a",
    },
    "hard": {
        0: "d86f2a167179",
        1: "ef850ee8947a",
        2: "44334ee36b7d",
        3: "8fdb1faad27a",
        4: "d397b6444911",
        5: "08760a38b148",
        8: "7345fbeb6c8b",
        9: "b9423475227d",
        10: "b9977b041497",
        11: "cd0de9c090d3",
        12: "4459599e947b",
        13: "27ea4a64d176",
        14: "fd4aa23e79b1",
        15: "a981e6836074",
        16: "7c886416871b",
        19: "da303f3fc9fe",
        22: "429f0451d59e",
        23: "966e9388649d",
        25: "33927088932b",
        26: "cf0093bf666a",
        27: "01287663855a",
        28: "5f030a50f57c",
        29: "229a8d73b352",
        30: "453d9df06d40",
        31: "40de40006679",
        33: "6453a1c84209",
        34: "f0e7382caf1d",
        35: "ba821d3658c5",
        36: "412b6932d3c4",
        38: "3f336c1933b6",
        39: "9b97cbdcb89f",
        41: "020275ef216c",
        43: "2771fb0744c2",
        45: "1414bc190576",
        47: "47c150d27cd8",
        48: "7b4ec17381bc",
        49: "c51dc59534cf",
        50: "2a6a434dcb9d",
        51: "77120f420d00",
        53: "b316e67cc439",
        55: "bdf082f78b66",
        56: "10d67d561e88",
        57: "08a6732111ef",
        58: "30c436f09890",
        59: "2a8053d0a336",
    },
}
UNPROVED_BEFORE = {
    "medium": (26, 28, 30, 55),
    "hard": (6, 7, 17, 18, 20, 21, 24, 32, 44, 54),
}
"""Seeds whose level the generator used to emit with no par (hard 37, 40, 42, 46, 52 and 60
were not compared: the old generator ran past 45 s on each on the loaded machine)."""
SLOW_HARD = (0, 5, 8, 11, 13, 19, 25, 27, 35, 41, 45, 47, 50)
"""Hard seeds whose proof takes more than half a second of CPU."""


def fingerprint(made: Any) -> str:
    moves = [GAME.move_to_json(m) for m in made.solution]
    data = {"level": level_to_json(made.level), "solution": moves}
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:12]


def made(difficulty: str, seed: int, **params: Any) -> Any:
    return generate(seed, **{**GENERATORS[difficulty].knobs, **params})


def check_same(difficulty: str, seeds: Any) -> None:
    changed = [s for s in seeds if fingerprint(made(difficulty, s)) != PROVED_BEFORE[difficulty][s]]
    assert changed == []


@pytest.mark.slow  # 11 s on the busy 2-core machine (issue 28: the slowest tests carry the mark)
def test_seeds_proved_before_give_the_same_level_and_solution() -> None:
    check_same("easy", PROVED_BEFORE["easy"])
    check_same("medium", PROVED_BEFORE["medium"])
    check_same("hard", [s for s in PROVED_BEFORE["hard"] if s not in SLOW_HARD])


@pytest.mark.slow
def test_slow_hard_seeds_proved_before_give_the_same_level_and_solution() -> None:
    check_same("hard", SLOW_HARD)


def won_in(made: Any) -> int:
    end = replay_moves(
        GAME, GAME.initial(made.level), [GAME.move_to_json(m) for m in made.solution]
    )
    assert GAME.status(end) == "won"
    return end.steps


def test_every_emitted_par_is_proved_and_plain_bfs_agrees() -> None:
    """Small levels: plain breadth-first search (no bound, no known plan) finds the par."""
    for difficulty, seeds in (("easy", range(10)), ("medium", (0, 3, 4, 5, 6))):
        for seed in seeds:
            level = made(difficulty, seed)
            assert level.level.par is not None and won_in(level) == level.level.par
            truth = solve(level.level, deepen=False, time_limit=NO_HANG, max_states=3_000)
            assert (truth.steps, truth.proved) == (level.level.par, True), (difficulty, seed)


@pytest.mark.parametrize(
    ("difficulty", "seed"),
    [("medium", 28), ("medium", 30), ("medium", 55), ("hard", 2), ("hard", 10)],
)
def test_emitted_pars_equal_the_deepening_solvers_shortest_plan(difficulty: str, seed: int) -> None:
    """Levels that used to have no par: iterative deepening from the lower bound (not the
    generator's search against its play-out) proves the same par."""
    level = made(difficulty, seed)
    assert level.level.par is not None and won_in(level) == level.level.par
    truth = solve(level.level, time_limit=NO_HANG)
    assert (truth.steps, truth.proved) == (level.level.par, True)


@pytest.mark.parametrize("seeds", [(28, 30), pytest.param((26,), marks=pytest.mark.slow)])
def test_seeds_unproved_before_keep_their_play_out_now_proved(seeds: tuple[int, ...]) -> None:
    """26, 28, 30: the same play-out, now proved (shorter passes finish where one could not)."""
    for seed in seeds:
        now = made("medium", seed)
        raw = made("medium", seed, refine=False)
        assert now.dropped == 0 and now.level.par is not None
        assert now.level.target == raw.level.target and now.level.axioms == raw.level.axioms
        assert won_in(now) == now.level.par <= won_in(raw)


def test_a_seed_whose_play_out_stays_unproved_gives_the_next_one() -> None:
    """55: its play-out still cannot be proved within the state bound: the next one is."""
    now = made("medium", 55)
    raw = made("medium", 55, refine=False)
    assert now.dropped == 1
    assert (now.level.variables, now.level.target) != (raw.level.variables, raw.level.target)
    assert won_in(now) == now.level.par


def test_the_generator_gives_up_cleanly_when_no_par_can_be_proved() -> None:
    with pytest.raises(NoProvedLevel) as bounded:
        made("medium", 55, proofs=1)  # its first play-out is not proved within 2,000 states
    assert (bounded.value.tried, bounded.value.budget_stopped) == (1, False)
    with pytest.raises(NoProvedLevel) as starved:
        made("easy", 1, budget=1)  # no proof finishes: every play-out is dropped
    assert (starved.value.tried, starved.value.budget_stopped) == (20, True)
    assert "within the work budget" in str(starved.value)
    assert isinstance(starved.value, ValueError)  # callers that skip a seed still do


def run(*args: str) -> Any:
    from tui.games.carving.cli import carving

    return apart_runner().invoke(carving, list(args))


def test_generate_says_so_when_its_budget_proves_nothing() -> None:
    result = run("generate", "-n", "2", "--seed", "1", "--json", "--work-budget", "5")
    assert result.exit_code == 1 and result.stdout == ""
    assert "no level with a proved par from seed 1 within the work budget" in result.stderr
    assert "a larger --work-budget" in result.stderr and "Traceback" not in result.stderr


def test_generate_rows_of_redrawn_seeds_keep_their_seed_ids() -> None:
    rows = [
        json.loads(x)
        for x in run(
            "generate", "-d", "medium", "-n", "1", "--seed", "55", "--json"
        ).stdout.splitlines()
    ]
    assert rows == [
        {
            "seed": 55,
            "id": "carving:medium#55",
            "title": "Medium #55",
            "par": made("medium", 55).level.par,
        }
    ]


# -- the walk filter --------------------------------------------------------------------------


@st.composite
def walks(draw: Any) -> tuple[Graph, int, int, int, int]:
    """(graph, ρ, new edge, a set of edges, a count): 3-5 vertices, 2-6 edges of size 2-3."""
    n = draw(st.integers(3, 5))
    m = draw(st.integers(2, 6))
    verts = [tuple(draw(st.sets(st.integers(0, n - 1), min_size=2, max_size=3))) for _ in range(m)]
    virtual = [draw(st.booleans()) for _ in range(m)]
    new = m - 1
    virtual[new] = True
    watched = draw(st.integers(0, (1 << m) - 1))
    return (
        Graph.from_parts(n, verts, virtual),
        draw(st.integers(0, n - 1)),
        new,
        watched,
        draw(st.integers(0, 3)),
    )


@settings(max_examples=60)
@given(walks(), st.sampled_from(("contiguous", "subsequence")))
def test_a_monotone_walk_filter_keeps_the_sets_it_passes_and_their_witnesses(
    case: Any, reading: str
) -> None:
    """``removal_sets(keep=f)`` with f false on every superset of a set it fails (here: at
    most ``c`` edges of ``watched``) gives exactly the sets f passes, in the same order,
    with the same witness walks, as the unfiltered enumeration."""
    graph, rho, new, watched, c = case
    good = completion_levels(graph, graph.verts[new], reading)

    def keep(mask: int) -> bool:
        return bin(mask & watched).count("1") <= c

    everything, complete = removal_sets(graph, (rho, 0, False), new, good, reading)
    assert complete
    # Step lists built once per enumeration or per walk (the old way): the same answer.
    rebuilt = removal_sets(graph, (rho, 0, False), new, good, reading, reuse_steps=False)
    assert list(rebuilt[0].items()) == list(everything.items()) and rebuilt[1]
    kept, done = removal_sets(graph, (rho, 0, False), new, good, reading, keep=keep)
    assert done
    assert list(kept.items()) == [(m, w) for m, w in everything.items() if keep(m)]


def test_a_budget_that_changes_the_drawing_gives_a_custom_id() -> None:
    """Easy #0's proof needs 121 work units: under a budget of 120 it is stopped, the play-out
    dropped, and the next one proved; that level is not the seed's, so its row carries a
    custom ID (the level itself), never ``carving:easy#0``. A roomy budget stops nothing and
    keeps the seed's ID."""
    plain = made("easy", 0)
    assert plain.work == 121 and not plain.budget_stopped
    tight = made("easy", 0, budget=120)
    assert tight.budget_stopped and tight.dropped == 1 and tight.level.par is not None
    assert tight.level != plain.level
    rows = [
        json.loads(x)
        for budget in ("120", "100000000")
        for x in run(
            "generate", "-n", "1", "--seed", "0", "--json", "--work-budget", budget
        ).stdout.splitlines()
    ]
    assert rows[0]["par"] == tight.level.par and rows[0]["id"].startswith("carving:L")
    assert rows[1] == {
        "seed": 0,
        "id": "carving:easy#0",
        "title": "Easy #0",
        "par": plain.level.par,
    }


@pytest.mark.slow
def test_hard_seeds_unproved_before_now_give_proved_levels() -> None:
    """Each drops its first play-out (or more) and emits a later one, its par proved (the
    three cheapest of them; 7 and 18 take a minute or more)."""
    for seed in (6, 44, 54):
        assert seed in UNPROVED_BEFORE["hard"]
        now = made("hard", seed)
        assert now.dropped >= 1 and now.level.par is not None
        assert won_in(now) == now.level.par
