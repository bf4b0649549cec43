"""The arts suites (see ../shared/specs/arts.md)."""
