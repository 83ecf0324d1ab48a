"""Reusable widgets of the termarcade TUI (one module per widget)."""
