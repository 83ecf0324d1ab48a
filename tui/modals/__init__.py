"""Modal screens (one per module)."""
