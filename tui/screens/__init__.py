"""Screens of the arcade: the shared ones (home, level select, help) and one module per game."""
