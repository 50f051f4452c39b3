"""Area counting: 子空合计 (Chinese), Tromp-Taylor, and 等空比子. {#count.area}

子空合计 (000 §4, §6; 001 第一条; 004 Chinese summary): a side's points are its living stones,
the empty points it owns (territory, seki eyes, one-sided liberties, claimed points), and half of
the shared liberties and unfilled dame. In stones (子) a side's result is compared with 归本数,
half the board (180½ on 19 × 19).
"""

from fractions import Fraction

from jpdref.counting.explanation import Count, Method, Unit, conclude, figures, num
from jpdref.counting.komi import KomiRule, decide_komi
from jpdref.counting.position import FinalPosition
from jpdref.counting.regions import OWN_EMPTY, SPLIT, Why, classify, empty_regions
from jpdref.counting.scratch import Scratch
from jpdref.stones import BLACK, EMPTY, WHITE, Color

_OWN_PARTS = (
    ("territory", Why.TERRITORY),
    ("seki eyes", Why.EYE),
    ("one-sided liberties", Why.ONE_SIDED),
    ("claimed", Why.CLAIMED),
)


def area_figures(s: Scratch, color: Color):
    """{#count.area} Stones + own empty points + half the split points, by part."""
    half = Fraction(s.split(*SPLIT), 2)
    parts = [("stones", s.stones(color))]
    parts += [(name, s.count(color, why)) for name, why in _OWN_PARTS]
    return figures(*parts, ("half of shared and dame", half))


def count_area(fp: FinalPosition, komi: KomiRule | Fraction | int | float = KomiRule.CHINESE) -> Count:
    """子空合计 area counting, in stones against 归本数. {#count.area}

    Black's result in stones is its area minus half the komi, against half the board: with
    3¾ stones on 19 × 19 Black wins above 184¼ (004 Chinese summary).
    """
    c = classify(fp)
    s = Scratch.of(c)
    k = decide_komi(komi, fp.counters)
    black, white = area_figures(s, BLACK), area_figures(s, WHITE)
    par = Fraction(fp.geometry.area, 2)
    steps = [
        f"B area {num(black.score)} 子, W area {num(white.score)} 子, 归本数 {num(par)}",
        f"komi {num(k.points)} points = {num(k.stones)} 子: Black needs more than {num(par + k.stones)}",
    ]
    return conclude(
        Method.AREA, Unit.STONES, fp.geometry, c.halted, s.board, s.owner, s.why, c.dead,
        black, white, k, steps, par,
    )  # fmt: skip


def count_tromp_taylor(fp: FinalPosition, komi: KomiRule | Fraction | int | float = Fraction(15, 2)) -> Count:
    """Tromp-Taylor area scoring: the board as it stands, no agreement. {#count.tromp-taylor}

    A point scores for a colour if it holds a stone of that colour, or it is empty and every
    path of empty points from it reaches stones of that colour only (Tromp-Taylor rules 9–10).
    Dead-stone marks and claims are ignored: under these rules dead stones are captured in play.
    """
    g = fp.geometry
    owner = list(fp.stones)
    why = [Why.STONE if v else Why.DAME for v in fp.stones]
    for region in empty_regions(g, fp.stones, frozenset()):
        if len(region.borders) == 1:
            (col,) = region.borders
            for p in region.points:
                owner[p], why[p] = int(col), Why.TERRITORY
    s = Scratch(g, list(fp.stones), owner, why)
    k = decide_komi(komi, fp.counters)
    black = figures(("stones", s.stones(BLACK)), ("empty reaching only black", s.count(BLACK, Why.TERRITORY)))
    white = figures(("stones", s.stones(WHITE)), ("empty reaching only white", s.count(WHITE, Why.TERRITORY)))
    steps = ["the agreement is ignored: every stone on the board counts"] if _has_marks(fp) else []
    return conclude(
        Method.TROMP_TAYLOR, Unit.POINTS, g, fp.stones, s.board, s.owner, s.why, frozenset(),
        black, white, k, steps,
    )  # fmt: skip


def _has_marks(fp: FinalPosition) -> bool:
    a = fp.agreement
    return bool(a.dead or a.seki or a.claims or a.dame or a.shared)


def count_equal_empty(
    fp: FinalPosition, komi: KomiRule | Fraction | int | float = KomiRule.FIXED_6_5
) -> Count:
    """等空比子: equal empty points, compare stones. {#count.equal-empty}

    After the dead stones are removed, the side with more own empty points turns the surplus
    into its own stones (子空互换, 003 等空之棋); the sides then have equal empty points and the
    one with more stones wins. 1 子 = 1 点; half the shared points go to each side.
    """
    c = classify(fp)
    s = Scratch.of(c)
    own = {col: [p for p in range(fp.geometry.area) if s.owner[p] == col and s.board[p] == EMPTY
                 and s.why[p] in OWN_EMPTY] for col in (BLACK, WHITE)}  # fmt: skip
    more = BLACK if len(own[BLACK]) > len(own[WHITE]) else WHITE
    surplus = len(own[more]) - len(own[more.opponent])
    for p in own[more][:surplus]:
        s.board[p], s.why[p] = int(more), Why.EXCHANGED
    half = Fraction(s.split(*SPLIT), 2)
    empties = len(own[more.opponent])
    black = figures(("stones", s.stones(BLACK)), score=s.stones(BLACK))
    white = figures(("stones", s.stones(WHITE)), score=s.stones(WHITE))
    steps = [
        f"{more.letter} turns {surplus} empty point(s) into stones: both sides keep {empties} empty "
        f"point(s) and {num(half)} shared",
    ]
    k = decide_komi(komi, fp.counters)
    return conclude(
        Method.EQUAL_EMPTY, Unit.STONES, fp.geometry, c.halted, s.board, s.owner, s.why, c.dead,
        black, white, k, steps,
    )  # fmt: skip
