"""惟目是地: Japanese-Korean territory counting. {#count.japanese}

A side's score is its territory plus the stones it took: the opponent's dead stones and the
prisoners it holds (J1989 Arts. 8–10; 001 简介, which contrasts it with 子空皆地). There are no
points in seki (双活无目): seki eyes, one-sided liberties and one-sided dame claimed in a seki
(单方权利单官) count for nobody. A claimed unfilled ko counts when its point is territory.
"""

from fractions import Fraction

from jpdref.counting.agreement import ClaimKind
from jpdref.counting.explanation import Count, Method, Unit, conclude, figures
from jpdref.counting.komi import KomiRule, decide_komi
from jpdref.counting.position import FinalPosition
from jpdref.counting.regions import Classification, Why, classify
from jpdref.stones import BLACK, WHITE, Color

_NO_POINTS = frozenset({Why.EYE, Why.ONE_SIDED, Why.SHARED, Why.DAME})


def _counts_as_territory(c: Classification, p: int) -> bool:
    if c.why[p] is Why.TERRITORY:
        return True
    return c.why[p] is Why.CLAIMED and c.claims.get(p) is ClaimKind.KO and c.base[p] is Why.TERRITORY


def count_japanese(fp: FinalPosition, komi: KomiRule | Fraction | int | float = KomiRule.JAPANESE) -> Count:
    """Territory + captures, no points in seki. {#count.japanese}"""
    c = classify(fp)
    owner = list(c.owner)
    for p, w in enumerate(c.why):
        if w in _NO_POINTS or (w is Why.CLAIMED and not _counts_as_territory(c, p)):
            owner[p] = 0

    def side(color: Color):
        territory = sum(
            1 for p in range(fp.geometry.area) if c.owner[p] == color and _counts_as_territory(c, p)
        )
        dead = sum(1 for p in c.dead if c.halted[p] == color.opponent)
        return figures(("territory", territory), ("dead stones", dead), ("prisoners", fp.held_by(color)))

    black, white = side(BLACK), side(WHITE)
    seki_points = sum(1 for w in c.why if w in (Why.EYE, Why.ONE_SIDED)) + sum(
        1 for p in c.claims if not _counts_as_territory(c, p)
    )
    steps = [f"{seki_points} point(s) in seki count for nobody (双活无目)"] if seki_points else []
    return conclude(
        Method.JAPANESE, Unit.MOKU, fp.geometry, c.halted, c.living, owner, c.why, c.dead,
        black, white, decide_komi(komi, fp.counters), steps,
    )  # fmt: skip
