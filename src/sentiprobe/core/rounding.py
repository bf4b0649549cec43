"""The one rounding rule for printed numbers: half-up (ties away from zero), on exact values.

Why not ``round()``: Python rounds ties to even and works on the binary float, so 13.125 % (147/1120)
would print as 13.12 and 0.80625 as 80.62. Published tables round ties up, so every printed percentage
(ARTS columns, the HTML report) goes through :func:`round_half_up`.

Exact inputs (``Fraction``, ``int``, ``Decimal``) are rounded as they are. A float is read as the
shortest decimal that gives it back (``repr``: 0.80625, not 0.806249999999999977...), the number a
person sees; for rounding to integers this is the same as the binary value, since ties (k + 0.5) are
exact floats.
"""
from __future__ import annotations

import math
import numbers
from decimal import Decimal
from fractions import Fraction

Number = Fraction | Decimal | int | float


def exact(value: Number) -> Fraction:
    """``value`` as an exact Fraction (floats through their shortest ``repr``); ValueError if not finite."""
    if isinstance(value, numbers.Integral):
        return Fraction(int(value))
    if isinstance(value, (Fraction, Decimal)):
        return Fraction(value)
    f = float(value)
    if not math.isfinite(f):
        raise ValueError(f"cannot round {value!r}")
    return Fraction(repr(f))


def round_half_up(value: Number, places: int = 2) -> Decimal:
    """``value`` rounded half-up (ties away from zero) to ``places`` decimals, as an exact Decimal.

    ``round_half_up(Fraction(147, 1120) * 100)`` -> ``Decimal('13.13')``; a result of zero is ``0``,
    never ``-0``.
    """
    scaled = exact(value) * 10 ** places
    sign = -1 if scaled < 0 else 1
    a = abs(scaled)
    q, r = divmod(a.numerator, a.denominator)
    if 2 * r >= a.denominator:
        q += 1
    return Decimal(sign * q).scaleb(-places)


def round_half_up_int(value: Number) -> int:
    """Nearest integer, ties away from zero (2.5 -> 3)."""
    return int(round_half_up(value, 0))


def percent(value: Number, places: int = 2) -> str:
    """A rate in [0, 1] as a percentage string, half-up (``0.80625`` -> ``'80.63'``, ``1`` -> ``'100.00'``)."""
    return f"{round_half_up(exact(value) * 100, places):.{places}f}"
