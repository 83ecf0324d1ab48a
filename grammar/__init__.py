"""Every text format of termarcade: Lark grammars (``*.lark``) and their thin loaders.

* :mod:`grammar.terms`: the term syntax (``parse_term``).
* :mod:`grammar.levels`: level files for every game (``load_pack``, ``load_pack_file``,
  ``dump_pack``, ``dump_level``, ``bundled_packs``, ``format_for``, ``escape_string``);
  :mod:`grammar.format` is how a game describes its level blocks (``LevelFormat``), and
  :mod:`grammar.envelope` how its body grammar joins the shared envelope.
* :mod:`grammar.errors`: the one error type, ``ParseError``.
"""
