"""The soul suites (see ../shared/specs/soul.md)."""
