"""Counting (计算胜负): from the halted position and the agreement to the result. {#count.area}

One pure function per counting method, each taking a :class:`FinalPosition` and returning a
frozen :class:`Count` that explains itself (the board after fill-back and balancing, every
point's owner and reason, each side's figures in the method's unit, komi, margin, winner).
Every impossibility is a :class:`CountingError` naming its point. See ``spec/counting.md``.
"""

from jpdref.counting.agreement import Agreement, Claim, ClaimKind
from jpdref.counting.area import count_area, count_equal_empty, count_tromp_taylor
from jpdref.counting.dispatch import count_for
from jpdref.counting.equal_stones import count_art, count_equal_stones
from jpdref.counting.errors import CountingError
from jpdref.counting.explanation import Count, Figures, Method, PointInfo, Unit
from jpdref.counting.ing import count_ing, count_ing_balanced
from jpdref.counting.komi import KomiDecision, KomiRule, decide_komi
from jpdref.counting.position import FinalPosition, make_counters
from jpdref.counting.regions import Classification, Why, classify
from jpdref.counting.roads import basic_eyes, count_roads
from jpdref.counting.territory import count_japanese

__all__ = [
    "Agreement",
    "Claim",
    "ClaimKind",
    "Classification",
    "Count",
    "CountingError",
    "Figures",
    "FinalPosition",
    "KomiDecision",
    "KomiRule",
    "Method",
    "PointInfo",
    "Unit",
    "Why",
    "basic_eyes",
    "classify",
    "count_area",
    "count_art",
    "count_equal_empty",
    "count_equal_stones",
    "count_for",
    "count_ing",
    "count_ing_balanced",
    "count_japanese",
    "count_roads",
    "count_tromp_taylor",
    "decide_komi",
    "make_counters",
]
