"""Triplet protocol algorithms: the GTS ``grid`` (see docs/protocols/triplets.md)."""
