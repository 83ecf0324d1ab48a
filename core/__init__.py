"""Pure game engines for termarcade.

Everything under ``core`` is free of I/O and of user-interface code: immutable values go in,
new immutable values come out. The Textual app and the click CLI (package ``tui``) render and
drive these values; the grammars (package ``grammar``) build them from text.
"""
