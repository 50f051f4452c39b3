"""Counting a final position the way a ruleset says: its method and its komi. {#count.komi}

A ruleset names a counting method (axis ``counting``, a :class:`Method`) and a komi (axis
``komi``, a :class:`KomiRule` or a fixed number of points). :func:`count_for` runs that method
with that komi; which method goes with which komi, so that 黑收后贴1点 is charged exactly once,
is recorded per preset in ``spec/rulesets.yaml`` (OQ-43, OQ-44).
"""

from collections.abc import Callable
from fractions import Fraction

from jpdref.counting.agreement import ClaimKind
from jpdref.counting.area import count_area, count_equal_empty, count_tromp_taylor
from jpdref.counting.equal_stones import count_art, count_equal_stones
from jpdref.counting.errors import CountingError
from jpdref.counting.explanation import Count, Method
from jpdref.counting.ing import count_ing, count_ing_balanced
from jpdref.counting.komi import KomiRule
from jpdref.counting.position import FinalPosition
from jpdref.counting.roads import count_roads
from jpdref.counting.territory import count_japanese
from jpdref.rules import KoClaim, OneSidedClaim, Rules

Komi = KomiRule | Fraction

COUNTERS: dict[Method, Callable[[FinalPosition, Komi], Count]] = {
    Method.AREA: count_area,
    Method.TROMP_TAYLOR: count_tromp_taylor,
    Method.JAPANESE: count_japanese,
    Method.EQUAL_STONES: count_equal_stones,
    Method.ART: count_art,
    Method.EQUAL_EMPTY: count_equal_empty,
    Method.ROADS: count_roads,
    Method.ING: count_ing,
    Method.ING_BALANCED: count_ing_balanced,
}
"""Method → the function that counts by it (each takes the position and a komi)."""


def method_of(rules: Rules) -> Method:
    """The ruleset's counting method (axis ``counting``)."""
    return Method(str(rules.counting))


def komi_of(rules: Rules) -> Komi:
    """The ruleset's komi (axis ``komi``): a named rule, or a fixed number of points."""
    if isinstance(rules.komi, Fraction):
        return Fraction(rules.komi)
    return KomiRule(str(rules.komi))


AXIS_OF_CLAIM = {ClaimKind.ONE_SIDED: "one-sided-claim", ClaimKind.KO: "ko-claim"}
"""Which axis admits each kind of claim ({#count.agreement})."""
CLAIM_NAME = {ClaimKind.ONE_SIDED: "one-sided claim (单方权利单官", ClaimKind.KO: "ko claim (单劫不粘有1目"}


def count_for(rules: Rules, final_position: FinalPosition) -> Count:
    """Count ``final_position`` by ``rules``' method with ``rules``' komi. {#count.komi}

    Raises :class:`~jpdref.counting.errors.CountingError` when the method refuses the position
    (for instance ``no-first-pass`` under the A-version komi, ``unequal-stones`` under 等子比空).
    """
    refused = {
        ClaimKind.ONE_SIDED: rules.one_sided_claim is OneSidedClaim.NONE,
        ClaimKind.KO: rules.ko_claim is KoClaim.NONE,
    }
    for claim in final_position.agreement.claims:
        if refused[claim.kind]:
            g = final_position.geometry
            what = CLAIM_NAME[claim.kind]
            raise CountingError(
                "claim-not-in-rules",
                f"{rules.name} has no {what}; axis {AXIS_OF_CLAIM[claim.kind]}: none)",
                claim.point,
                g.to_gtp(claim.point) if 0 <= claim.point < g.area else None,
            )
    return COUNTERS[method_of(rules)](final_position, komi_of(rules))
