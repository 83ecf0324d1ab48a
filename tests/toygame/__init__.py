"""A toy game registered only inside the tests: proof that a game plugs into the seam
(core engine, level grammar, puzzle screen, CLI group, one registration) without editing any
shared module of termarcade. See ``registration.py``.
"""
