"""The agreement after the halt (协商终局): dead stones, seki, claims. {#count.agreement}

The players' agreement is data, not something counting infers: which stones are dead (死子),
which living stones are in seki (双活), which empty points one side claims — an unfilled ko
(单劫不粘有1目, 001 第十条(1)) or a point of a seki only that side may occupy (单方权利单官,
001 第十条(2)) — and, where the default reading of a two-coloured empty region is wrong, which of
its points are unfilled dame (单官) and which are seki shared liberties (公气). Points are board
indices; marks on a stone stand for its whole chain.
"""

from dataclasses import dataclass
from enum import StrEnum

from jpdref.stones import Color


class ClaimKind(StrEnum):
    """What a claim asserts about one empty point. {#count.agreement}"""

    KO = "ko"  # 单劫不粘有1目: the claimer wins the unfilled ko and owns its point (001 第十条(1))
    ONE_SIDED = "one-sided"  # 单方权利单官: only the claimer may occupy the point (001 第十条(2))


@dataclass(frozen=True, slots=True)
class Claim:
    """One claim: ``color`` owns the empty ``point`` for the reason ``kind``. {#count.agreement}"""

    kind: ClaimKind
    color: Color
    point: int


@dataclass(frozen=True, slots=True)
class Agreement:
    """What both players agreed after the halt (or what 实战解决 proved). {#count.agreement}

    ``dead`` and ``seki`` are stone points (expanded to whole chains); ``dame`` and ``shared``
    re-label empty points of two-coloured regions against the default of
    :func:`jpdref.counting.regions.classify`; ``claims`` give single points to one side;
    ``black_owns`` and ``white_owns`` are empty points agreed to be that side's territory even
    where a border was left open (a game record's ``TB``/``TW`` on empty points,
    {#count.agreement.owned}).
    """

    dead: frozenset[int] = frozenset()
    seki: frozenset[int] = frozenset()
    claims: tuple[Claim, ...] = ()
    dame: frozenset[int] = frozenset()
    shared: frozenset[int] = frozenset()
    black_owns: frozenset[int] = frozenset()
    white_owns: frozenset[int] = frozenset()
