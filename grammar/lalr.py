"""Running a Lark LALR parser so that an error's expected list can be computed exactly.

When Lark's LALR parser meets a bad token, it has already made the reductions that token's
lookahead asked for (state merging puts tokens in lookahead sets where they can never be
shifted), so its error state no longer tells what was valid before the token. A
:class:`Feeder` feeds the tokens itself and keeps a checkpoint (a copy of the parser state
every few thousand tokens, and the tokens since): after an error it replays the tokens since
the checkpoint, up to the bad one, without callbacks, and asks that state. The cost is one
copy of the parser stack per checkpoint and at most one replay, however large the input.

Refusing without parsing it all: Lark's pure-Python loop costs about 40 µs a token, so a
broken file of a million tokens would take far longer to refuse than the fast readers take
to load a good one. When a fast reader is sure the text is wrong at an offset, it gives a
short *stand-in* for the text before it (what it already vouched for, each complete term or
field written as a token or two); :func:`refuse` parses the stand-in followed by the rest of
the text, and keeps the error only if Lark fails exactly at that offset, where the parser's
state is the one the whole text would have led to (the stand-in keeps every state that one
more token can reach). Otherwise the caller parses the whole text as before.
"""

from __future__ import annotations

from collections.abc import Iterator
from copy import copy
from typing import Any

from lark import Lark, Token
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

__all__ = ["CHECKPOINT_EVERY", "Feeder", "accepts_of", "refuse"]

CHECKPOINT_EVERY = 20_000
"""Tokens between two checkpoints."""


def accepts_of(interactive: Any, parser: Lark) -> set[str]:
    """Terminals that an interactive parser can take next.

    Lark's ``InteractiveParser.accepts`` tells terminals from rules by ``name.isupper()``,
    which misses namespaced terminals (``game2048__CELL``); this asks the grammar instead.

    Args:
        interactive: A ``lark`` InteractiveParser (it is not changed).
        parser: The Lark instance it belongs to.

    Returns:
        Terminal names, ``$END`` included when the input may end there; terminals that no
        text can produce (``%declare``-d ones) are left out.
    """
    terminals = {t.name for t in parser.terminals}
    conf = copy(interactive.parser_state.parse_conf)
    conf.callbacks = {}  # no side effects, and faster
    accepts = set()
    for name in interactive.choices():
        if name != "$END" and name not in terminals:
            continue
        cursor = interactive.copy(deepcopy_values=False)
        cursor.parser_state.parse_conf = conf
        try:
            cursor.feed_token(cursor.lexer_thread._Token(name, ""))
        except UnexpectedToken:
            continue
        accepts.add(name)
    return accepts


class Feeder:
    """Parse a text token by token, able to say exactly what was expected at an error.

    Usage: iterate :meth:`tokens` (each token is yielded *before* it is fed, so a caller may
    stop early), then call :meth:`finish`. When either raises ``UnexpectedInput``,
    :meth:`expected` gives the terminals the parser accepted at the error position.

    Args:
        parser: An LALR Lark instance (its callbacks build the result).
        text: The text to parse.
    """

    def __init__(self, parser: Lark, text: str) -> None:
        self.parser = parser
        self.interactive = parser.parse_interactive(text)
        self.state = self.interactive.parser_state
        self._checkpoint = self.state.copy(deepcopy_values=False)
        self._since: list[Token] = []  # tokens fed (or being fed) since the checkpoint
        self._feeding = False  # True while the parser takes a token (or the end)
        self._last: Token | None = None

    def tokens(self) -> Iterator[Token]:
        """Lex and feed the text, yielding each token just before it is fed."""
        state = self.state
        for token in self.interactive.lexer_thread.lex(state):
            yield token
            self._since.append(token)
            self._feeding = True
            state.feed_token(token)
            self._feeding = False
            self._last = token
            if len(self._since) >= CHECKPOINT_EVERY:
                self._checkpoint = state.copy(deepcopy_values=False)
                self._since = []

    def finish(self) -> Any:
        """Feed the end of the input and return the parse result (the callbacks' value)."""
        last = self._last
        end = Token.new_borrow_pos("$END", "", last) if last else Token("$END", "", 0, 1, 1)
        self._feeding = True
        result = self.state.feed_token(end, True)
        self._feeding = False
        return result

    def expected(self) -> set[str]:
        """The terminals accepted where the parse failed (after ``UnexpectedInput``).

        Returns:
            Terminal names (see :func:`accepts_of`).
        """
        if not self._feeding:
            # The lexer failed before the parser saw a token: its state is intact.
            return accepts_of(self.interactive, self.parser)
        # The parser refused the last token recorded (or the end): replay the others.
        replay = (
            self._since[:-1] if self._since and self._since[-1] is not self._last else self._since
        )
        state = self._checkpoint.copy(deepcopy_values=False)
        conf = copy(state.parse_conf)
        conf.callbacks = {}
        state.parse_conf = conf
        for token in replay:
            state.feed_token(token)
        restored = type(self.interactive)(
            self.interactive.parser, state, self.interactive.lexer_thread
        )
        return accepts_of(restored, self.parser)


def refuse(
    parser: Lark, text: str, at: int, standin: str
) -> tuple[UnexpectedInput, set[str]] | None:
    """Find the syntax error of ``text`` at ``at`` by parsing ``standin`` and the text from ``at``.

    Args:
        parser: The LALR parser that defines the syntax of ``text``.
        text: The whole text.
        at: Where a fast reader found the text wrong (``len(text)`` at its end).
        standin: A text that the parser reads into the state the text before ``at``
            leads to (see the module's docstring).

    Returns:
        Lark's error, placed in ``text`` (line, column and offset of ``at``), and the
        terminals accepted there; or None when the parser does not fail exactly at ``at``
        on the stand-in (the caller then parses the whole text).
    """
    split = len(standin) + 1  # where text[at] lands in the surrogate
    surrogate = standin + " " + text[at:]
    feeder = Feeder(parser, surrogate)
    try:
        for token in feeder.tokens():
            if (token.start_pos or 0) > split:
                return None  # the token at `at` was taken: the error is not there
        feeder.finish()
    except UnexpectedInput as error:
        if not _fails_at(error, split, at == len(text)):
            return None
        return _placed(error, text, at), feeder.expected()
    return None


def _fails_at(error: UnexpectedInput, split: int, at_end: bool) -> bool:
    """Whether ``error`` is at offset ``split`` of the surrogate (at its end if ``at_end``)."""
    if isinstance(error, UnexpectedCharacters):
        return error.pos_in_stream == split
    token = getattr(error, "token", None)
    if isinstance(error, UnexpectedEOF) or (token is not None and token.type == "$END"):
        return at_end
    return isinstance(error, UnexpectedToken) and error.token.start_pos == split


def _placed(error: UnexpectedInput, text: str, at: int) -> UnexpectedInput:
    """``error`` moved from the surrogate to offset ``at`` of ``text``."""
    line = text.count("\n", 0, at) + 1
    column = at - (text.rfind("\n", 0, at) + 1) + 1
    error.line, error.column = line, column
    error.pos_in_stream = at  # type: ignore[assignment]  # Lark declares the class default None
    token = getattr(error, "token", None)
    if isinstance(error, UnexpectedToken) and token is not None and token.type != "$END":
        error.token = Token(
            token.type,
            str(token),
            at,
            line,
            column,
            line + str(token).count("\n"),
            None,
            at + len(token),
        )
    return error
