"""Komi (贴目, 贴点, 贴子, 贴路) and the rules around it. {#count.komi}

A komi rule turns the play-phase counters into a :class:`KomiDecision`: how many points Black
gives (a negative number means Black receives), and whether Black wins a tie. Every rule is
expressed in points (点); methods that count in stones (子, 1 子 = 2 points of margin) or roads
convert with their own unit.
"""

from dataclasses import dataclass
from fractions import Fraction

from jpdref.counting.errors import CountingError
from jpdref.counting.numbers import num
from jpdref.game import Counters
from jpdref.rules import KomiRule as KomiRule  # re-exported: an axis value, defined with the rules
from jpdref.stones import BLACK, WHITE

SIX_AND_HALF = Fraction(13, 2)
SEVEN_AND_HALF = Fraction(15, 2)
FIVE_AND_HALF = Fraction(11, 2)
HALF = Fraction(1, 2)


@dataclass(frozen=True, slots=True)
class KomiDecision:
    """How many points Black gives, why, and who wins a tie. {#count.komi}"""

    rule: str
    points: Fraction
    black_wins_ties: bool
    reason: str

    @property
    def stones(self) -> Fraction:
        """The same komi in stones (子) of area counting: half the points."""
        return self.points / 2


def decide_komi(rule: KomiRule | Fraction | int | float, counters: Counters) -> KomiDecision:
    """The komi a rule gives for a game with these counters. {#count.komi}

    A number is a fixed komi in points. In a handicap game (2 or more handicap stones) no komi
    for moving first is given (004 让先不贴目); the Chinese rule gives White back half the
    handicap in stones (004 让子要贴还让子数的一半), and 黑收后贴1点 charges the side that moved
    first and made the last real move (OQ-31).
    """
    if not isinstance(rule, KomiRule):
        # An exact Fraction is used as given; a float or int is read as the decimal it prints as.
        value = rule if isinstance(rule, Fraction) else Fraction(str(rule))
        return KomiDecision(f"fixed {num(value)}", value, False, f"a fixed komi of {num(value)} points")
    handicap = counters.handicap_stones
    if rule is KomiRule.NONE:
        return KomiDecision(rule, Fraction(0), False, "no komi")
    if handicap >= 2:
        return _handicap(rule, counters)
    if rule in (KomiRule.FIXED_6_5, KomiRule.JAPANESE):
        return KomiDecision(rule, SIX_AND_HALF, False, "Black gives 6.5 for moving first (000 §30)")
    if rule is KomiRule.BLACK_LAST:
        if counters.last_real_move is BLACK:
            return KomiDecision(rule, SIX_AND_HALF + 1, False, "6.5, and 1 more: Black made the last move")
        return KomiDecision(rule, SIX_AND_HALF, False, "6.5; Black did not make the last real move")
    if rule in (KomiRule.A_VERSION, KomiRule.WMSG_2008):
        first = counters.first_to_pass
        if first is None:
            raise CountingError("no-first-pass", f"the {rule} komi needs a first pass or virtual move")
        if first is WHITE:
            return KomiDecision(rule, SEVEN_AND_HALF, False, "7.5: White passed or played virtual first")
        return KomiDecision(rule, SIX_AND_HALF, False, "6.5: Black passed or played virtual first")
    if rule is KomiRule.B_VERSION:
        return KomiDecision(rule, SEVEN_AND_HALF, False, "7.5 whoever passed first (003 B版)")
    if rule is KomiRule.CHINESE:
        return KomiDecision(rule, SEVEN_AND_HALF, False, "3¾ stones = 7.5 points (004 Chinese summary)")
    if rule is KomiRule.AGA:
        return KomiDecision(rule, SEVEN_AND_HALF, False, "7.5 in even games (AGA komi since 2005)")
    if rule is KomiRule.AGA_1991:
        return KomiDecision(rule, FIVE_AND_HALF, False, "5.5 in even games (AGA Rule 3, 1991)")
    return KomiDecision(rule, Fraction(8), True, "8 points, Black wins a tie (Ing rules)")


def _handicap(rule: KomiRule, counters: Counters) -> KomiDecision:
    """{#count.komi} Handicap games: no komi for moving first; the compensation per rule.

    No rule keeps a tie-break: under ``ing-8`` the tie rule is part of the even-game compensation
    for moving first (8 with ties to Black), so a tie in a handicap game is a draw (OQ-53).
    """
    h = counters.handicap_stones
    if rule is KomiRule.CHINESE:
        return KomiDecision(rule, Fraction(h), False, f"handicap {h}: White gets back {h}/2 stones")
    if rule is KomiRule.BLACK_LAST and counters.last_real_move is WHITE:
        return KomiDecision(rule, Fraction(-1), False, f"handicap {h}: White moved first and last, gives 1")
    if rule is KomiRule.ING:
        return KomiDecision(rule, Fraction(0), False, f"handicap {h}: no komi, a tie is a draw (OQ-53)")
    if rule in (KomiRule.AGA, KomiRule.AGA_1991):
        points = HALF + (h - 1)
        why = f"handicap {h}: ½, and 1 for each handicap stone after the first (AGA Rules 3–4, area counting)"
        return KomiDecision(rule, points, False, why)
    return KomiDecision(rule, Fraction(0), False, f"handicap {h}: no komi")
