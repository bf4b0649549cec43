"""Statistics: the only package that sees ``alpha``; callers convert their ``confidence`` with :func:`alpha_of`."""
from .level import alpha_of, confidence_of

__all__ = ["alpha_of", "confidence_of"]
