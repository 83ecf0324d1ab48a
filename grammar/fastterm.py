"""A fast reader for well-formed terms: ``re.split`` over runs of term characters.

``term.lark`` stays the definition of the syntax and the source of every error message;
this reader only makes the common case fast (Lark's pure-Python LALR loop costs about 40 µs
per token-heavy line). It reads exactly what the grammar with :class:`~grammar.terms.TermBuilder`
reads, and raises :class:`Fallback` at the first thing it is not sure about, so the caller
parses the text again with Lark, which then reports the error. Equality with the Lark path
is checked by hypothesis tests (``tests/grammar/test_fast_path.py``).

How: the text is cut into *runs*, maximal stretches of name characters and ``(),`` (a
canonical term is one run; a pretty-printed one has a run per line). One ``re.split`` per
run gives its names and punctuation in C, and a small state machine walks the punctuation,
so the Python loop turns once per ``(``, ``,`` or ``)`` instead of once per regex match.
A 10 MB term spends most of its time building (hash-consing) the nodes.

Errors: where the reader is sure the text is wrong, its :class:`Fallback` says where and
carries a stand-in of the term read so far (the open compounds and the last complete term,
see :func:`open_standin`), so that the grammar need not parse the whole text to report the
error (:func:`grammar.lalr.refuse`).
"""

from __future__ import annotations

import re

from core.termcraft.terms import COMPOUND, CONST, Term, const, node, var

__all__ = ["KEPT_FRAMES", "Fallback", "open_standin", "read_term", "top_standin"]


class Fallback(Exception):
    """The fast reader cannot vouch for this input: parse it with the grammar instead.

    When the reader is sure the text is wrong at one place, it says where, and how to get
    there cheaply: ``standin`` is a short text that the grammar reads into the same parser
    state (as far as one more token can tell) as the text before ``at``; the caller may
    then parse ``standin`` followed by the rest of the text from ``at`` instead of the
    whole text (:func:`grammar.lalr.refuse`), and must check that the grammar fails at
    ``at`` there.

    Args:
        at: The offset where the text is wrong, or None when the reader is only unsure.
        standin: The stand-in for the text before ``at``.
    """

    def __init__(self, at: int | None = None, standin: str = "") -> None:
        super().__init__(at)
        self.at = at
        self.standin = standin


# The grammar's WS (space, tab, form feed, CR, LF) and, in level files, `;` comments.
_SKIP = re.compile(r"[ \t\f\r\n]*")
_SKIP_WITH_COMMENTS = re.compile(r"(?:[ \t\f\r\n]+|;[^\n]*)*")
_RUN = re.compile(r"[A-Za-z0-9_(),]*")
_SPLIT = re.compile(r"([(),])")


def read_term(
    text: str, pos: int, comments: bool = False, cache: dict | None = None
) -> tuple[Term, int]:
    """Read one term starting at ``pos`` (blanks before it allowed).

    Args:
        text: The text.
        pos: Where to start.
        comments: Whether ``;`` comments may stand between the term's tokens (level files).
        cache: A dict to remember the constants built, shared by the calls that read one
            file: a name met again is then found without core.termcraft.terms' locked intern table.
            (Compounds are not remembered: in large files most are distinct, and the keys
            cost more than they save.)

    Returns:
        The term and the offset just after its last token (blanks after it not consumed).

    Raises:
        Fallback: When the text at ``pos`` does not start with a well-formed term; the
            grammar then tells what is wrong.
    """
    return _Reader(text, comments, {} if cache is None else cache).read(pos)


class _Reader:
    """The state machine, kept between runs (a term may span lines)."""

    __slots__ = ("frames", "nodes", "opened", "pending", "skip", "start", "term", "text")

    def __init__(self, text: str, comments: bool, nodes: dict) -> None:
        self.text = text
        self.skip = (_SKIP_WITH_COMMENTS if comments else _SKIP).match
        self.nodes = nodes  # name -> const
        self.frames: list[tuple[str, list[Term]]] = []  # open compounds: name, arguments
        self.term: Term | None = None  # a compound just closed, awaiting "," or ")"
        self.pending = ""  # a name that ended a run: "(" may follow after blanks
        self.opened = False  # just after "(": ")" would close an empty argument list
        self.start = 0  # where the run being read starts (to place an error)

    def read(self, pos: int) -> tuple[Term, int]:
        text = self.text
        start = self.skip(text, pos).end()  # type: ignore[union-attr]  # matches ""
        while True:
            end = _RUN.match(text, start).end()  # type: ignore[union-attr]  # matches ""
            if end == start:
                # Not a term character (or the end): the grammar reports it.
                raise self._stuck(start, self.pending or None, self.term)
            self.start = start
            done = self._run(text[start:end])
            if done is not None:
                term, used = done
                return term, (end if used is None else start + used)
            start = self.skip(text, end).end()  # type: ignore[union-attr]  # matches ""
            if self.pending and not self.frames and not text.startswith("(", start):
                return self._constant(self.pending), end  # a bare name: the whole term

    def _constant(self, name: str) -> Term:
        term = self.nodes.get(name)
        if term is None:
            term = self.nodes[name] = const(name)
        return term

    def _run(self, run: str) -> tuple[Term, int | None] | None:
        """Feed one run; returns (term, characters of the run used, None for all) once the
        term is complete, None when it goes on in the next run."""
        parts = _SPLIT.split(run)  # name, punctuation, name, ..., name
        frames, term, opened = self.frames, self.term, self.opened
        push, pop = frames.append, frames.pop
        nodes = self.nodes
        name = parts[0]
        if self.pending:
            if name:
                raise self._stuck(self.start, self.pending, None)  # two names in a row ("a b")
            name = self.pending
            self.pending = ""
        last = len(parts) - 1
        for k in range(1, last, 2):
            punct = parts[k]
            if term is None:  # a term starts here
                if punct == "(":
                    if not name:
                        raise self._stuck_at(parts, k, None, None)
                    push((name, []))
                    opened = True
                    name = parts[k + 1]
                    continue
                if not name:
                    if not (opened and punct == ")"):
                        raise self._stuck_at(parts, k, None, None)
                    term = node(COMPOUND, pop()[0], ())  # name() is not the constant name
                    opened = False
                    if not frames:
                        return self._done(term, parts, k + 1)
                    name = parts[k + 1]
                    continue
                opened = False
                term = nodes.get(name)
                if term is None:
                    term = nodes[name] = const(name)
                if not frames:
                    return self._done(term, parts, k)  # the punctuation is the caller's
            elif name or punct == "(":
                # After a closed compound: "," or ")" only.
                raise self._stuck_at(parts, k - 1 if name else k, None, term)
            # A complete term, then "," or ")".
            if punct == ",":
                frames[-1][1].append(term)
                term = None
            else:
                head, args = pop()
                args.append(term)
                term = _compound(head, args)
                if not frames:
                    return self._done(term, parts, k + 1)
            name = parts[k + 1]
        if name:
            if term is not None:
                raise self._stuck_at(parts, last, None, term)  # a name right after ")"
            self.pending = name
        self.term, self.opened = term, opened
        return None

    def _stuck_at(
        self, parts: list[str], index: int, name: str | None, term: Term | None
    ) -> Fallback:
        """The text is wrong at ``parts[index]`` of the run being read (see :meth:`_stuck`)."""
        return self._stuck(self.start + sum(map(len, parts[:index])), name, term)

    def _stuck(self, at: int, name: str | None, term: Term | None) -> Fallback:
        """A :class:`Fallback` sure that the text is wrong at ``at``.

        Args:
            at: The offset of the offending character or token.
            name: The name read just before ``at`` (not yet known to be a constant), if any.
            term: The compound closed just before ``at``, if any.
        """
        return Fallback(at, open_standin(self.frames) + top_standin(name, term))

    @staticmethod
    def _done(term: Term, parts: list[str], used: int) -> tuple[Term, int | None]:
        """The term ended after ``parts[:used]``; None when that is the whole run."""
        if used == len(parts) - 1 and not parts[-1]:
            return term, None
        return term, sum(map(len, parts[:used]))


KEPT_FRAMES = 3
"""Innermost open compounds a stand-in keeps (besides the outermost): one token fed to the
parser reduces at most the compound closed last and goes on in the one that holds it."""


def open_standin(frames: list[tuple[str, list[Term]]]) -> str:
    """A short text that leaves the grammar in the same state as these open compounds.

    Each kept compound is written as its name, ``(`` and one or two stand-in arguments
    (``a,`` after one complete argument, ``a,a,`` after more: the grammar's list of
    arguments is left-recursive, so its states differ for one and for more). Compounds
    between the outermost and the innermost :data:`KEPT_FRAMES` are left out: the parser's
    states inside a compound do not depend on what holds it.

    Args:
        frames: The open compounds, outermost first: name and complete arguments.

    Returns:
        The stand-in text.
    """
    kept = frames if len(frames) <= KEPT_FRAMES + 1 else [frames[0], *frames[-KEPT_FRAMES:]]
    return "".join(name + "(" + "a," * min(len(args), 2) for name, args in kept)


def top_standin(name: str | None, term: Term | None) -> str:
    """A stand-in for the complete term just read (nothing when none was).

    Args:
        name: A name read but not yet reduced (``(`` may still follow it), or None.
        term: A term read whole (a constant, or a closed compound), or None.

    Returns:
        ``a`` for a name or constant, ``a()`` for an empty compound, ``a(a)`` for any
        other compound (the parser's state after ``)`` differs for the two).
    """
    if name is not None or term is None:
        return "" if name is None else "a"
    if term.kind == CONST:
        return "a"
    return "a()" if term.kind == COMPOUND and not term.args else "a(a)"


_VAR = frozenset(a + b + c for a in "vV" for b in "aA" for c in "rR")  # var, any case


def _compound(name: str, args: list[Term]) -> Term:
    # As TermBuilder.compound: var(X) (any case of var) with a bare identifier is a variable.
    if len(args) == 1 and name in _VAR and args[0].kind == CONST:
        return var(args[0].name)
    return node(COMPOUND, name, tuple(args))
