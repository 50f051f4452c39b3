"""One spelling of a count's result everywhere the book shows it (verdict cell, count table):
the winner, the margin in points (点, the unit every method's margin is computed in), and — where
the method's unit is another — the same margin in that unit, as the case titles state it
(``W by 0.5 points = 0.25 子``: area counting against the 归本数, 1 子 of margin = 2 points);
in Chinese ``白胜 0.5 点 = 0.25 子``."""

from fractions import Fraction
from html import escape

from jpdtools.book.lang import EN, Language
from jpdtools.suite.model import decimal_text

PER_POINT = {"子": Fraction(1, 2)}  # the method's unit per point of margin, where it is not 1


def margin_text(winner: str | None, margin: Fraction | None, unit: str | None, lang: Language = EN) -> str:
    if winner is None or margin is None:
        return "–"
    if winner == "draw":
        return lang.s("margin.draw")
    size = abs(margin)
    text = lang.s("margin.by", winner=lang.s("margin.winner." + winner), points=decimal_text(size))
    if unit in PER_POINT:
        text += f" = {decimal_text(size * PER_POINT[unit])} {unit}"
    elif unit and unit not in ("点", "points"):
        text += f" ({unit})" if lang.code == "en" else f"（{unit}）"
    return text


def margin_html(winner: str | None, margin: Fraction | None, unit: str | None, lang: Language = EN) -> str:
    return escape(margin_text(winner, margin, unit, lang))
