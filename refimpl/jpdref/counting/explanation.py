"""The result of counting: a :class:`Count` that explains itself. {#count.area}

A count carries the board it was made on (after fill-back and balancing when the method has
them), every point's owner with the reason (:class:`~jpdref.counting.regions.Why`), each side's
figures in the method's own unit, the komi, the margin from Black's side and the winner.
"""

from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from functools import cached_property

from jpdref.coords import Geometry, vertex_names
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
    facts: "PointFacts" = field(repr=False)
    black: Figures
    white: Figures
    komi: KomiDecision
    margin: Fraction
    margin_units: Fraction
    winner: str
    steps: tuple[str, ...] = ()
    par: Fraction | None = None  # 归本数 (area counting in stones): half the board
    overflow: tuple[int, int] = (0, 0)  # stones (B, W) that found no own empty point on fill-back

    @cached_property
    def points(self) -> tuple[PointInfo, ...]:
        """Every point's :class:`PointInfo`, in point order (built on first use: most counts are
        judged by their figures alone)."""
        f = self.facts
        names = vertex_names(self.geometry.width, self.geometry.height)
        return tuple(
            PointInfo(p, names[p], f.halted[p], self.board[p], _OWNER[f.owner[p]], f.why[p], p in f.dead)
            for p in range(self.geometry.area)
        )

    def owner_counts(self, why: Why) -> tuple[int, int, int]:
        """How many points with this reason are Black's, White's and nobody's."""
        b = sum(1 for i in self.points if i.why is why and i.owner is Color.BLACK)
        w = sum(1 for i in self.points if i.why is why and i.owner is Color.WHITE)
        return b, w, sum(1 for i in self.points if i.why is why and i.owner is None)

    def render(self) -> str:
        """A diagram of the counted board: stones as X/O, empty points by owner (b/w) or split (-)."""
        board, owner = self.board, self.facts.owner
        marks = [_MARK[board[p]] if board[p] else _OWNED[owner[p]] for p in range(self.geometry.area)]
        width = self.geometry.width
        return "\n".join(" ".join(marks[i : i + width]) for i in range(0, len(marks), width))


_MARK = {Color.BLACK: "X", Color.WHITE: "O"}
_OWNED = {0: "-", Color.BLACK: "b", Color.WHITE: "w"}


@dataclass(frozen=True, slots=True)
class PointFacts:
    """A count's per-point facts, point by point: the colour at the halt, the owner (0: nobody's
    or split), the reason, and the points where a stone agreed dead stood."""

    halted: tuple[int, ...]
    owner: tuple[int, ...]
    why: tuple[Why, ...]
    dead: frozenset[int]


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
        PointFacts(tuple(halted), tuple(owner), tuple(why), frozenset(dead)),
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
