"""应氏填满计点: Ing fill counting. {#count.ing}

Each side fills every empty point it owns with its own stones, dead stones and prisoners
having gone back to their owners; the stones on the board are then counted (Ing rules; used by
001 第十七条 2 and 004 (6) to check the other methods). Unfilled dame and shared liberties are
split (OQ-35). With ``balance_moves`` (004 (6)) the side that put n more stones down first takes
n stones off the boundary (A-class negative moves), paying n points.
"""

from fractions import Fraction

from jpdref.counting.explanation import Count, Method, Unit, conclude, figures
from jpdref.counting.komi import KomiRule, decide_komi
from jpdref.counting.negative import negative_a
from jpdref.counting.position import FinalPosition
from jpdref.counting.regions import OWN_EMPTY, SPLIT, Why, classify
from jpdref.counting.scratch import Scratch
from jpdref.stones import BLACK, WHITE


def count_ing(
    fp: FinalPosition, komi: KomiRule | Fraction | int | float = KomiRule.ING, balance_moves: bool = False
) -> Count:
    """Fill every own empty point with an own stone, then count stones. {#count.ing}"""
    c = classify(fp)
    s = Scratch.of(c)
    if balance_moves:
        diff = fp.stones_put(BLACK) - fp.stones_put(WHITE)
        more = BLACK if diff > 0 else WHITE
        negative_a(s, more, abs(diff))
    for p in range(fp.geometry.area):
        if s.board[p] == 0 and s.owner[p] and s.why[p] in OWN_EMPTY:
            s.board[p], s.why[p] = s.owner[p], Why.FILLED
    half = Fraction(s.split(*SPLIT), 2)
    black = figures(("stones", s.stones(BLACK)), ("half of split points", half))
    white = figures(("stones", s.stones(WHITE)), ("half of split points", half))
    steps = [f"filled: B {s.stones(BLACK)} stones, W {s.stones(WHITE)} stones"]
    method = Method.ING_BALANCED if balance_moves else Method.ING
    return conclude(
        method, Unit.POINTS, fp.geometry, c.halted, s.board, s.owner, s.why, c.dead,
        black, white, decide_komi(komi, fp.counters), s.steps + steps,
    )  # fmt: skip


def count_ing_balanced(fp: FinalPosition, komi: KomiRule | Fraction | int | float = KomiRule.ING) -> Count:
    """Ing fill counting with the 004 (6) variant (counting ``ing-balanced``). {#count.ing}"""
    return count_ing(fp, komi, balance_moves=True)
