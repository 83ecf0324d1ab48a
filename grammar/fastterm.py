"""A fast reader for well-formed terms: a regex tokenizer and an iterative builder.

``term.lark`` stays the definition of the syntax and the source of every error message;
this reader only makes the common case fast (Lark's pure-Python LALR loop costs about 40 µs
per token-heavy line). It reads exactly what the grammar with :class:`~grammar.terms.TermBuilder`
reads, and raises :class:`Fallback` at the first thing it is not sure about, so the caller
parses the text again with Lark, which then reports the error. Equality with the Lark path
is checked by hypothesis tests (``tests/grammar/test_fast_path.py``).
"""

from __future__ import annotations

import re
from typing import Optional

from core.terms import Term, compound, const, var

__all__ = ["Fallback", "read_term"]


class Fallback(Exception):
    """The fast reader cannot vouch for this input: parse it with the grammar instead."""


# One token per match: blanks (the grammar's WS: space, tab, form feed, CR, LF), a
# comment (only where the caller allows them), a name, punctuation, or anything else.
_TOKENS = re.compile(r"[ \t\f\r\n]+|(;[^\n]*)|([A-Za-z0-9_]+)|([(),])|(.)", re.S)
_NAME, _PUNCT, _OTHER = 2, 3, 4


def read_term(text: str, pos: int, comments: bool = False,
              cache: Optional[dict] = None) -> tuple[Term, int]:
    """Read one term starting at ``pos`` (blanks before it allowed).

    Args:
        text: The text.
        pos: Where to start.
        comments: Whether ``;`` comments may stand between the term's tokens (level files).
        cache: A dict to remember the constants built, shared by the calls that read one
            file: a name met again is then found without core.terms' locked, weak intern
            table. (Compounds are not remembered: in large files most are distinct, and the
            keys cost more than they save.)

    Returns:
        The term and the offset just after its last token (blanks after it not consumed).

    Raises:
        Fallback: When the text at ``pos`` does not start with a well-formed term; the
            grammar then tells what is wrong.
    """
    frames: list[tuple[str, list[Term]]] = []  # open compounds: name and arguments so far
    nodes: dict = {} if cache is None else cache  # name -> const
    pending = ""  # a name whose "(" may follow
    done: Term | None = None  # a complete term waiting for "," or ")" (or the end)
    end = pos
    for match in _TOKENS.finditer(text, pos):
        kind = match.lastindex
        if kind is None:  # blanks
            continue
        if kind == 1:  # a comment
            if not comments:
                raise Fallback
            continue
        token = match.group(kind)
        if pending:
            if token == "(":
                frames.append((pending, []))
                pending = ""
                end = match.end()
                continue
            done = nodes.get(pending)
            if done is None:
                done = nodes[pending] = const(pending)
            pending = ""
        if done is not None:
            if not frames:
                return done, end  # the term is complete; the token is the caller's
            if token == ",":
                frames[-1][1].append(done)
                done = None
            elif token == ")":
                name, args = frames.pop()
                args.append(done)
                done = _compound(name, args)
            else:
                raise Fallback
            end = match.end()
            continue
        # Expecting a term: a name, or ")" right after "(" (an empty compound).
        if kind == _NAME:
            pending = token
        elif token == ")" and frames and not frames[-1][1] and text[end - 1] == "(":
            done = compound(frames.pop()[0], ())
        else:
            raise Fallback
        end = match.end()
    if pending and not frames:
        return nodes.get(pending) or const(pending), end
    if done is not None and not frames:
        return done, end
    raise Fallback  # the input ended inside the term


def _compound(name: str, args: list[Term]) -> Term:
    # As TermBuilder.compound: var(X) (any case of var) with a bare identifier is a variable.
    if len(args) == 1 and args[0].is_const and name.lower() == "var":
        return var(args[0].name)
    return compound(name, args)
