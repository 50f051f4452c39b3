"""Equal-stones counting: 等子比空 (jpd-2022) and the art versions' judgment. {#count.equal-stones}

Both fill stones back (做棋, {#count.fill-back}) and then compare the sides' own empty points
(目) on a board whose stones are treated as equal. They differ in how the stones are made equal:

* jpd-2022 (000 §29–31): the side that put n more stones down during the contest makes n A-class
  negative moves (it pays n points); extra moves made while settling a dispute are taken back by
  B-class negative moves (no cost). The board must then hold equal numbers of stones.
* the art versions (001 第十四条, 第十六条; 004 等子比目): whatever the stone counts, all stones
  and all unfilled dame and shared liberties are divided equally between the sides.
"""

from fractions import Fraction

from jpdref.counting.errors import CountingError
from jpdref.counting.explanation import Count, Method, Unit, conclude, figures, num
from jpdref.counting.fillback import fill_back
from jpdref.counting.komi import KomiRule, decide_komi
from jpdref.counting.negative import negative_a, negative_b
from jpdref.counting.position import FinalPosition
from jpdref.counting.regions import OWN_EMPTY, SPLIT, classify
from jpdref.counting.scratch import Scratch
from jpdref.stones import BLACK, WHITE, Color

Komi = KomiRule | Fraction | int | float


def _moku(s: Scratch, color: Color) -> int:
    return sum(
        1 for p in range(s.geometry.area) if s.board[p] == 0 and s.owner[p] == color and s.why[p] in OWN_EMPTY
    )


def _to_points(b: int, w: int, area: int) -> str:
    rest = Fraction(area - b - w, 2)
    return f"back to 子空合计 (001 第十七条): B {num(b + rest)} points, W {num(w + rest)} points"


def _balance(s: Scratch, diff: int, moves) -> None:
    if diff > 0:
        moves(s, BLACK, diff)
    elif diff < 0:
        moves(s, WHITE, -diff)


def count_equal_stones(fp: FinalPosition, komi: Komi = KomiRule.FIXED_6_5) -> Count:
    """等子比空, 目多为赢 (jpd-2022). {#count.equal-stones}

    Fill back; A-class negative moves for the contest difference in stones put down (real +
    virtual moves, handicap stones as Black's: OQ-28); B-class for the settling difference
    (000 §29(3)); refuse (``unequal-stones``) if the board still holds unequal stones; compare 目.
    """
    c = classify(fp)
    s = Scratch.of(c)
    filled = fill_back(fp, c, s)
    total = fp.stones_put(BLACK) - fp.stones_put(WHITE)
    settling = fp.settling[0] - fp.settling[1]
    s.steps.append(f"stones put down: B − W = {total}, of which {settling} while settling (多下不贴点)")
    _balance(s, total - settling, negative_a)
    _balance(s, settling, negative_b)
    if s.stones(BLACK) != s.stones(WHITE):
        raise CountingError(
            "unequal-stones",
            f"after fill-back and negative moves B has {s.stones(BLACK)} stones, W {s.stones(WHITE)}: "
            "the counters do not account for the stones on the board",
        )
    b, w = _moku(s, BLACK), _moku(s, WHITE)
    half = Fraction(s.split(*SPLIT), 2)
    s.steps.append(_to_points(b, w, fp.geometry.area))
    black = figures(("目", b), score=b)
    white = figures(("目", w), score=w)
    s.steps.append(f"equal stones: {s.stones(BLACK)} each; split points {half * 2} (half each)")
    return conclude(
        Method.EQUAL_STONES, Unit.MOKU, fp.geometry, c.halted, s.board, s.owner, s.why, c.dead,
        black, white, decide_komi(komi, fp.counters), s.steps, overflow=filled.overflow,
    )  # fmt: skip


def count_art(fp: FinalPosition, komi: Komi = KomiRule.FIXED_6_5, balance: bool = True) -> Count:
    """The art versions' equal-stones judgment (判例). {#count.art}

    Fill back dead stones, prisoners (and any virtual stones, 004 实战解决); divide every stone
    and every split point equally whatever the counts; 目 = own empty points, seki eyes,
    one-sided liberties and claimed points included (001 第十条, 第十六条). ``balance=False``
    leaves an overflow unbalanced (001 read literally; OQ-29).
    """
    c = classify(fp)
    s = Scratch.of(c)
    filled = fill_back(fp, c, s, balance=balance)
    b, w = _moku(s, BLACK), _moku(s, WHITE)
    stones = s.stones(BLACK) + s.stones(WHITE)
    split = s.split(*SPLIT)
    s.steps.append(f"{stones} stone(s) and {split} split point(s) divided equally, whatever the counts")
    s.steps.append(_to_points(b, w, fp.geometry.area))
    black = figures(("目", b), score=b)
    white = figures(("目", w), score=w)
    return conclude(
        Method.ART, Unit.MOKU, fp.geometry, c.halted, s.board, s.owner, s.why, c.dead,
        black, white, decide_komi(komi, fp.counters), s.steps, overflow=filled.overflow,
    )  # fmt: skip
