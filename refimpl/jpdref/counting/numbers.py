"""How counting prints a figure: integers as integers, halves and quarters as decimals."""

from fractions import Fraction


def num(x: Fraction | int) -> str:
    """A figure as text: 180, 180.5, 184.25 (never a fraction like 369/2)."""
    x = Fraction(x)
    return str(x.numerator) if x.denominator == 1 else f"{float(x):g}"
