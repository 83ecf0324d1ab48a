"""Fuzz and regression cases for hostile inputs, each with its bound (issue 28)."""
