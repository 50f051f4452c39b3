"""等子比路: living stones and road points (jhz-2022). {#count.roads}

Basic eye points (基本眼位, 002 §2; 003; 004 眼位、公气与路点) are kept empty and are not stones:

* each independent living group keeps two points of its territory (one if it has only one);
* each seki group with an eye keeps one point of its eyes;
* every one-sided liberty in a seki (单方气点) is a basic eye of its side;
* seki shared liberties (公气) are everybody's basic eyes: not counted (002 §4, §28(3)).

A *group* of a colour is a connected component of its living stones and its territory and seki
eye points; it is *in seki* if the agreement marks one of its stones, otherwise it is an
independent living group (compare KataGo's independent life region, OQ-33). Every other own empty
point is a road (路点), and so are claimed points and unfilled dame (split). A side's living
stones are its stones plus its roads; the stones are equalised by turning stones into roads
(002 §16, no cost), and the roads compared, Black giving 6.5 路, and 1 more when it made the last
move (002 §29).
"""

from fractions import Fraction

from jpdref.counting.errors import CountingError
from jpdref.counting.explanation import Count, Method, Unit, conclude, figures, num
from jpdref.counting.fillback import fill_back
from jpdref.counting.komi import KomiRule, decide_komi
from jpdref.counting.negative import negative_b
from jpdref.counting.position import FinalPosition
from jpdref.counting.regions import Classification, Why, classify
from jpdref.counting.scratch import Scratch
from jpdref.stones import BLACK, WHITE, Color

_EYE_SPACE = (Why.TERRITORY, Why.EYE)
_ROAD_SPACE = (Why.TERRITORY, Why.EYE, Why.CLAIMED)  # what is not a basic eye becomes a road


def groups(c: Classification, color: Color) -> list[tuple[frozenset[int], bool]]:
    """{#count.roads} The groups of ``color``: (points, in seki) for each component."""
    g = c.geometry

    def member(p: int) -> bool:
        return c.living[p] == color or (c.owner[p] == color and c.why[p] in _EYE_SPACE)

    seen: set[int] = set()
    out = []
    for start in range(g.area):
        if start in seen or c.living[start] != color:
            continue
        comp, stack = {start}, [start]
        while stack:
            for q in g.neighbours[stack.pop()]:
                if q not in comp and member(q):
                    comp.add(q)
                    stack.append(q)
        seen |= comp
        out.append((frozenset(comp), any(p in c.seki for p in comp)))
    return out


def basic_eyes(c: Classification) -> dict[int, Color]:
    """{#count.roads} The basic eye points of both sides (lowest-numbered points are kept)."""
    eyes: dict[int, Color] = {}
    for color in (BLACK, WHITE):
        for comp, seki in groups(c, color):
            space = sorted(p for p in comp if c.living[p] == 0)
            for p in space[: 1 if seki else 2]:
                eyes[p] = color
        for p in c.points(color, Why.ONE_SIDED):
            eyes[p] = color
    return eyes


def count_roads(fp: FinalPosition, komi: KomiRule | Fraction | int | float = KomiRule.BLACK_LAST) -> Count:
    """等子比路, 路多为赢 (jhz-2022). {#count.roads}"""
    c = classify(fp)
    s = Scratch.of(c)
    eyes = basic_eyes(c)
    for p in range(fp.geometry.area):
        if p in eyes:
            s.why[p] = Why.BASIC_EYE
        elif s.why[p] in _ROAD_SPACE:  # own empty points: classify gives these reasons to no stone
            s.why[p] = Why.ROAD
    s.steps.append(
        f"basic eye points: B {_n(eyes, BLACK)}, W {_n(eyes, WHITE)}; shared liberties not counted"
    )
    filled = fill_back(fp, c, s, order=(Why.ROAD,), balance=False)
    more = BLACK if s.stones(BLACK) > s.stones(WHITE) else WHITE
    try:
        negative_b(s, more, s.stones(more) - s.stones(more.opponent), becomes=Why.ROAD)
    except CountingError:
        s.steps.append("the stones could not be equalised on the board; living stones are compared directly")
    dame = Fraction(s.split(Why.DAME), 2)

    def side(color: Color):
        return figures(
            ("stones", s.stones(color)), ("roads", s.count(color, Why.ROAD)), ("half of dame", dame)
        )

    black, white = side(BLACK), side(WHITE)
    total = black.score + white.score
    s.steps.append(f"living stones: B {num(black.score)}, W {num(white.score)} (total {num(total)})")
    return conclude(
        Method.ROADS, Unit.ROADS, fp.geometry, c.halted, s.board, s.owner, s.why, c.dead,
        black, white, decide_komi(komi, fp.counters), s.steps, overflow=filled.overflow,
    )  # fmt: skip


def _n(eyes: dict[int, Color], color: Color) -> int:
    return sum(1 for v in eyes.values() if v is color)
