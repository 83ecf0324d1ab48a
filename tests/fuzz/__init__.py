"""Fuzz and regression cases for hostile inputs, one self-contained file per area (issue 28)."""
