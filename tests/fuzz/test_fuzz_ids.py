"""Hostile level IDs are refused no slower than a valid ID of the same size opens (issue 28).

Issue 28 asks, for each format, time(refuse) <= 2 x time(load a valid input of the same size)
+ a constant. The level files have it (tests/fuzz/test_fuzz_*.py); an ID adds its own path
(base64, checksum, inflate, the stored level's load, the print that keys it), checked here
through :func:`tui.ids.resolve_id`, the reader of the CLI, the ID dialog and ``termarcade ID``.

* Every game with level files: its largest bundled level as a custom ID, and the same ID with
  one broken byte in the level text (the checksum made to match, so the level is read).
* TermCraft's costliest shapes per byte: terms 100,000 deep or wide (an ID of 3 KB), broken at
  the end or by a missing parenthesis, and the whole ID damaged or cut (refused by its
  checksum before any inflating).

Bound: CPU time (the least of three runs, :func:`tests.fuzz.bounds.cpu_seconds`), refusing at
most twice what opening the valid ID takes, plus 0.5 s.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from core.ids import IdError, encode_custom
from grammar.levels import bundled_packs, dump_level
from tests.fuzz.bounds import cpu_seconds
from tests.fuzz.test_fuzz_termcraft import BREAKS, level_text, shaped_term
from tui.ids import resolve_id

GAMES = ("termcraft", "carving", "algebrawl", "longcat", "2048")
"""The games whose levels have a text format, so custom IDs."""


def refuse(ident: str) -> None:
    """``ident`` is refused with an :class:`IdError` (a message for a person, nothing else)."""
    with pytest.raises(IdError):
        resolve_id(ident)


def refuses_no_slower_than_opening(good: str, bad: str) -> None:
    """Issue 28's bound for IDs: refusing ``bad`` costs at most 2 x opening ``good`` + 0.5 s."""
    refuse(bad)  # a refusal, and the parsers are built: not part of the measure
    opening = cpu_seconds(lambda: resolve_id(good))
    refusing = cpu_seconds(lambda: refuse(bad))
    assert refusing <= 2 * opening + 0.5, (len(good), opening, refusing)


def large_2048_text(size: int = 16) -> str:
    """A 2048 level with a full ``size`` x ``size`` board (2048 bundles no level files)."""
    rows = "".join(
        "    [" + " ".join(str(2 ** (1 + (x + y) % 11)) for x in range(size)) + "]\n"
        for y in range(size)
    )
    return f'level "Big" {{\n  game 2048\n  size {size}\n  board\n{rows}}}\n'


def largest_bundled_text(game: str) -> str:
    """The level text of ``game``'s largest bundled level (one level, as its ID holds it);
    for 2048, which bundles no level files, :func:`large_2048_text`."""
    texts = [dump_level(level, game) for _, pack in bundled_packs(game) for level in pack.levels]
    return max(texts, key=len) if texts else large_2048_text()


def stray_before_the_end(text: str) -> str:
    """``text`` with a character no level format accepts before its closing brace."""
    end = text.rstrip().rfind("}")
    return text[:end] + "$" + text[end:]


@pytest.mark.parametrize("game", GAMES)
def test_a_broken_custom_id_is_refused_no_slower_than_it_opens(game: str) -> None:
    text = largest_bundled_text(game)
    good, bad = encode_custom(game, text), encode_custom(game, stray_before_the_end(text))
    assert resolve_id(good).level is not None
    refuses_no_slower_than_opening(good, bad)


def damaged_checksum(ident: str) -> str:
    """``ident`` with one payload character changed (its checksum no longer matches)."""
    at = len(ident) - 3
    return ident[:at] + ("B" if ident[at] == "A" else "A") + ident[at + 1 :]


def cut_in_half(ident: str) -> str:
    """``ident`` truncated, as a mail program or a careless copy leaves it."""
    return ident[: len(ident) // 2]


ID_DAMAGES: dict[str, Callable[[str], str]] = {
    "a damaged checksum": damaged_checksum,
    "an ID cut in half": cut_in_half,
}
"""Damages to the ID itself; the others (:data:`TEXT_BREAKS`) break the level text inside a
valid checksum."""

TEXT_BREAKS = ("a stray character at the end", "a missing parenthesis")
"""The term breaks (``tests/fuzz/test_fuzz_termcraft.BREAKS``) whose refusal reads the most."""


@pytest.mark.slow
@pytest.mark.parametrize("wide", [False, True], ids=["deep", "wide"])
@pytest.mark.parametrize("how", [*TEXT_BREAKS, *ID_DAMAGES])
def test_a_hostile_termcraft_id_is_refused_no_slower_than_it_opens(how: str, wide: bool) -> None:
    term = shaped_term(100_000, wide)
    good = encode_custom("termcraft", level_text(term))
    if how in ID_DAMAGES:
        bad = ID_DAMAGES[how](good)
    else:
        bad = encode_custom("termcraft", level_text(BREAKS[how](term)))
    refuses_no_slower_than_opening(good, bad)
