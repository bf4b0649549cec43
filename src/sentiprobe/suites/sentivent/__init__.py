"""The sentivent suites (see ../shared/specs/sentivent.md)."""
