"""The toy game's core package: Slide-1D's pure engine (``engine.py``), as ``core/<game>/``
is for a real game. Its interface is the one folder ``tests/toygame``."""
