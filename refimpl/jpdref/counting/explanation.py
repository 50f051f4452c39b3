"""The result of counting: a :class:`Count` that explains itself. {#count.area}

A count carries the board it was made on (after fill-back and balancing when the method has
them), every point's owner with the reason (:class:`~jpdref.counting.regions.Why`), each side's
figures in the method's own unit, the komi, the margin from Black's side and the winner.
"""

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from jpdref.coords import Geometry
from jpdref.counting.komi import KomiDecision
from jpdref.counting.numbers import num as num  # re-exported: callers import it from here
from jpdref.counting.regions import Why
from jpdref.rules import Method as Method  # re-exported: an axis value, defined with the rules
from jpdref.stones import Color


class Unit(StrEnum):
    POINTS = "点"  # points: 1 stone or 1 empty point
    MOKU = "目"  # empty points on an equal-stones board (1 目 = 1 点)
    STONES = "子"  # stones: against 归本数 1 子 of margin = 2 points; 等空比子 compares 1 子 = 1 点
    ROADS = "路"  # living stones and road points (1 路 = 1 子)


@dataclass(frozen=True, slots=True)
class PointInfo:
    """One point: its colour at the halt and on the counted board, its owner and why."""

    point: int
    vertex: str
    halted: int  # 0 empty, 1 Black, 2 White at the halt (dead stones included)
    board: int  # the colour on the counted board
    owner: Color | None  # None: split between the sides, or nobody's
    why: Why
    dead: bool = False  # a stone agreed dead stood here


@dataclass(frozen=True, slots=True)
class Figures:
    """One side's figures in the method's unit: ``score`` and the named parts it adds up."""

    score: Fraction
    parts: tuple[tuple[str, Fraction], ...]

    def part(self, name: str) -> Fraction:
        return dict(self.parts).get(name, Fraction(0))


@dataclass(frozen=True)
class Count:
    """A counted game. ``margin`` is Black's lead in points after komi; ``margin_units`` the same
    lead in the method's unit (in stones against 归本数, ``par``, it is half the points; 等空比子's
    stones are points); ``winner`` is B, W or draw."""

    method: Method
    unit: Unit
    geometry: Geometry
    board: tuple[int, ...]
    points: tuple[PointInfo, ...]
    black: Figures
    white: Figures
    komi: KomiDecision
    margin: Fraction
    margin_units: Fraction
    winner: str
    steps: tuple[str, ...] = ()
    par: Fraction | None = None  # 归本数 (area counting in stones): half the board
    overflow: tuple[int, int] = (0, 0)  # stones (B, W) that found no own empty point on fill-back

    def owner_counts(self, why: Why) -> tuple[int, int, int]:
        """How many points with this reason are Black's, White's and nobody's."""
        b = sum(1 for i in self.points if i.why is why and i.owner is Color.BLACK)
        w = sum(1 for i in self.points if i.why is why and i.owner is Color.WHITE)
        return b, w, sum(1 for i in self.points if i.why is why and i.owner is None)

    def render(self) -> str:
        """A diagram of the counted board: stones as X/O, empty points by owner (b/w) or split (-)."""
        out = []
        width = self.geometry.width
        for y in range(self.geometry.height):
            row = []
            for info in self.points[y * width : (y + 1) * width]:
                if info.board:
                    row.append("X" if info.board == Color.BLACK else "O")
                elif info.owner is None:
                    row.append("-")
                else:
                    row.append("b" if info.owner is Color.BLACK else "w")
            out.append(" ".join(row))
        return "\n".join(out)


def verdict(lead: Fraction, komi: KomiDecision) -> tuple[Fraction, str]:
    """Black's margin after komi, in points, and the winner. {#count.komi}"""
    margin = lead - komi.points
    if margin > 0:
        return margin, "B"
    if margin < 0:
        return margin, "W"
    return margin, "B" if komi.black_wins_ties else "draw"


_OWNER = {0: None, Color.BLACK: Color.BLACK, Color.WHITE: Color.WHITE}
"""A point's owner as a colour (0: nobody's, or split), by a look-up, not an enum call per point."""


def point_infos(geometry: Geometry, halted, board, owner, why, dead) -> tuple[PointInfo, ...]:
    return tuple(
        PointInfo(p, geometry.to_gtp(p), halted[p], board[p], _OWNER[owner[p]], why[p], p in dead)
        for p in range(geometry.area)
    )


def figures(*parts: tuple[str, Fraction | int], score: Fraction | int | None = None) -> Figures:
    """Figures from named parts; the score is their sum unless given."""
    items = tuple((name, Fraction(v)) for name, v in parts)
    total = Fraction(score) if score is not None else sum((v for _, v in items), Fraction(0))
    return Figures(total, items)


def conclude(
    method: Method,
    unit: Unit,
    geometry: Geometry,
    halted: tuple[int, ...],
    board: list[int] | tuple[int, ...],
    owner: list[int] | tuple[int, ...],
    why: list[Why] | tuple[Why, ...],
    dead: frozenset[int],
    black: Figures,
    white: Figures,
    komi: KomiDecision,
    steps: list[str] | tuple[str, ...],
    par: Fraction | None = None,
    overflow: tuple[int, int] = (0, 0),
) -> Count:
    """Assemble a :class:`Count` from Black's and White's figures (their difference is the lead).

    With a ``par`` (归本数) the unit is stones against par: ``margin_units`` is half the margin.
    ``overflow`` is the fill-back's (:class:`jpdref.counting.fillback.FillReport`), when there was one.
    """
    margin, winner = verdict(black.score - white.score, komi)
    units = margin / 2 if par is not None else margin
    return Count(
        method,
        unit,
        geometry,
        tuple(board),
        point_infos(geometry, halted, board, owner, why, dead),
        black,
        white,
        komi,
        margin,
        units,
        winner,
        tuple(steps),
        par,
        overflow,
    )
