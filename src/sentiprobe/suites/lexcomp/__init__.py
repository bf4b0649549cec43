"""The lexcomp suites (see ../shared/specs/lexcomp.md)."""
