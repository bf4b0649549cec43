"""The noncompsst suites (see ../shared/specs/noncompsst.md)."""
