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


# One significant token per match, with the blanks before it (the grammar's WS: space, tab,
# form feed, CR, LF) and, in level files, ``;`` comments: group 1 a name, group 2 any other
# character ("" at the end of the text).
_BLANKS = r"[ \t\f\r\n]"
_NEXT = re.compile(rf"{_BLANKS}*(?:([A-Za-z0-9_]+)|([^ \t\f\r\n]|\Z))")
_NEXT_WITH_COMMENTS = re.compile(rf"(?:{_BLANKS}+|;[^\n]*)*(?:([A-Za-z0-9_]+)|([^ \t\f\r\n]|\Z))")


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
    scan = (_NEXT_WITH_COMMENTS if comments else _NEXT).match
    frames: list[tuple[str, list[Term]]] = []  # open compounds: name and arguments so far
    nodes: dict = {} if cache is None else cache  # name -> const
    ahead = scan(text, pos)  # the next significant token
    while True:
        # A term starts: a name, then "(" for a compound.
        name = ahead.group(1)
        if name is None:
            raise Fallback
        end = ahead.end()
        ahead = scan(text, end)
        if ahead.group(2) == "(":
            ahead = scan(text, ahead.end())
            if ahead.group(2) != ")":
                frames.append((name, []))
                continue
            term = compound(name, ())  # name() is not the constant name
            end = ahead.end()
            ahead = scan(text, end)
        else:
            term = nodes.get(name)
            if term is None:
                term = nodes[name] = const(name)
        # A term is complete: close the compounds that end here.
        while True:
            if not frames:
                return term, end  # the token ahead is the caller's
            punct = ahead.group(2)
            if punct == ",":
                frames[-1][1].append(term)
                ahead = scan(text, ahead.end())
                break
            if punct != ")":
                raise Fallback
            head, args = frames.pop()
            args.append(term)
            term = _compound(head, args)
            end = ahead.end()
            ahead = scan(text, end)


def _compound(name: str, args: list[Term]) -> Term:
    # As TermBuilder.compound: var(X) (any case of var) with a bare identifier is a variable.
    if len(args) == 1 and args[0].is_const and name.lower() == "var":
        return var(args[0].name)
    return compound(name, args)
