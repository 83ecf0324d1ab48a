"""Long string values are written as adjacent strings, one a line; the loader joins them back.

Found by the level round-trip property: a long author starting with a space lost the space
(the first piece of the split was empty, and the next one dropped its separator).
"""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from grammar.strings import WRAP, decode_string, format_string

QUOTED = re.compile(r'"(?:[^"\\\n]|\\.)*"')


def joined(written: str) -> str:
    """What the loader reads back: the adjacent quoted strings decoded and joined."""
    return "".join(decode_string(token) for token in QUOTED.findall(written))


def test_a_long_value_with_a_leading_space_keeps_it() -> None:
    text = " 0000" + "\x1f" * 4 + "\U00011747" * 5
    written = format_string(text, "  ")
    assert joined(written) == text


@given(
    st.lists(st.text(alphabet=st.sampled_from(' ab\x1f"\\é\U00011747'), max_size=30), max_size=12)
)
def test_any_value_reads_back_whatever_its_spaces(words: list[str]) -> None:
    text = " ".join(words) + "x" * (WRAP if len(words) % 2 else 0)
    assert joined(format_string(text, "  ")) == text
