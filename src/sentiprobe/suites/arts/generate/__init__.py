"""ARTS test generation (issue 9)."""
