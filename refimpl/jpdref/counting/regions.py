"""Empty regions after the agreement, who borders them, and every point's default owner.

{#count.regions} Dead stones are taken off; the remaining empty points fall into maximal
connected regions (the same adjacency as chains). A region bordered by one colour only is that
colour's territory (围空) — or a seki eye (双活中的眼) when a bordering chain is in seki; a
region bordered by both colours is unfilled dame (单官) — or, when it touches a seki chain, a
seki region whose points next to one colour only are that colour's one-sided liberties (单方气点)
and whose other points are shared liberties (公气). The agreement's overrides and claims are then
applied ({#count.agreement}). Everything here is the same for every counting method.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from jpdref.coords import Geometry
from jpdref.counting.agreement import Agreement, ClaimKind
from jpdref.counting.errors import CountingError
from jpdref.counting.position import FinalPosition
from jpdref.stones import BLACK, EMPTY, WHITE, Color


class Why(StrEnum):
    """Why a point belongs (or not) to a side on the counted board. {#count.regions}"""

    STONE = "stone"  # 活子: a living stone (子点)
    TERRITORY = "territory"  # 围空: empty, bordered by one colour, no seki chain
    EYE = "eye"  # 双活中的眼: empty, bordered by one colour, touching a seki chain
    ONE_SIDED = "one-sided"  # 单方气点: in a seki region, next to one colour's stones only
    CLAIMED = "claimed"  # 单劫不粘 / 单方权利单官: given to one side by a claim
    SHARED = "shared"  # 公气: a seki shared liberty
    DAME = "dame"  # 单官: unfilled neutral point (also a region no stone borders)
    FILLED = "filled"  # 回填: a stone filled back at 做棋 (dead, prisoner or virtual stone)
    NEGATIVE_A = "negative-a"  # A类负着: a boundary stone taken off, its point split
    NEGATIVE_B = "negative-b"  # B类负着 / 将子换为路: an inside stone taken off, now its side's empty
    EXCHANGED = "exchanged"  # 等空比子: an own empty point turned into an own stone
    BASIC_EYE = "basic-eye"  # 基本眼位: an eye point kept empty, not counted by 等子比路
    ROAD = "road"  # 路点: an empty point of a side's area a stone could live on


# Empty points a side owns outright (its 目 under the art version, its area under 子空合计).
OWN_EMPTY = frozenset({Why.TERRITORY, Why.EYE, Why.ONE_SIDED, Why.CLAIMED, Why.NEGATIVE_B, Why.ROAD})
SPLIT = frozenset({Why.SHARED, Why.DAME, Why.NEGATIVE_A})


@dataclass(frozen=True, slots=True)
class Region:
    """A maximal connected set of empty points after dead stones are removed."""

    points: tuple[int, ...]
    borders: frozenset[Color]
    seki: bool  # some bordering chain is in seki


@dataclass(frozen=True)
class Classification:
    """Every point's owner and reason at the halt, after the agreement. {#count.regions}

    ``owner`` is 0 (nobody: split or not counted), 1 (Black) or 2 (White). ``base`` is the reason
    before claims and overrides (Japanese counting needs it). ``living`` is the board without
    the dead stones.
    """

    geometry: Geometry
    halted: tuple[int, ...]
    living: tuple[int, ...]
    owner: tuple[int, ...]
    why: tuple[Why, ...]
    base: tuple[Why, ...]
    dead: frozenset[int]
    seki: frozenset[int]
    claims: Mapping[int, ClaimKind]  # claimed point → kind (read-only: a MappingProxyType)
    regions: tuple[Region, ...]

    def points(self, color: Color, *whys: Why) -> list[int]:
        return [
            p for p, (o, w) in enumerate(zip(self.owner, self.why, strict=True)) if o == color and w in whys
        ]


def chain_points(geometry: Geometry, colours: tuple[int, ...], start: int) -> set[int]:
    """The points of the chain through the stone at ``start`` {#board.chains}."""
    colour, seen, stack = colours[start], {start}, [start]
    while stack:
        for q in geometry.neighbours[stack.pop()]:
            if q not in seen and colours[q] == colour:
                seen.add(q)
                stack.append(q)
    return seen


def _expand(fp: FinalPosition, marks: frozenset[int], code: str) -> frozenset[int]:
    """Marks on stones, expanded to whole chains; a mark on an empty point is refused."""
    out: set[int] = set()
    for p in sorted(marks):
        _on_board(fp.geometry, p)
        if fp.stones[p] == EMPTY:
            raise CountingError(code, "the agreement marks a point with no stone", p, fp.geometry.to_gtp(p))
        if p not in out:
            out |= chain_points(fp.geometry, fp.stones, p)
    return frozenset(out)


def _on_board(geometry: Geometry, p: int) -> None:
    if not 0 <= p < geometry.area:
        raise CountingError("off-board", f"point {p} is not on the {geometry.label} board", p)


def empty_regions(geometry: Geometry, living: tuple[int, ...], seki: frozenset[int]) -> list[Region]:
    seen: set[int] = set()
    out = []
    for start in range(geometry.area):
        if living[start] != EMPTY or start in seen:
            continue
        pts, borders, touches_seki, stack = [], set(), False, [start]
        seen.add(start)
        while stack:
            p = stack.pop()
            pts.append(p)
            for q in geometry.neighbours[p]:
                if living[q] == EMPTY:
                    if q not in seen:
                        seen.add(q)
                        stack.append(q)
                else:
                    borders.add(living[q])
                    touches_seki = touches_seki or q in seki
        out.append(Region(tuple(sorted(pts)), frozenset(Color(c) for c in borders), touches_seki))
    return out


def _default(geometry: Geometry, living: tuple[int, ...], region: Region) -> list[tuple[int, int, Why]]:
    """(point, owner, why) for each point of a region, before the agreement's overrides."""
    if len(region.borders) == 1:
        (c,) = region.borders
        why = Why.EYE if region.seki else Why.TERRITORY
        return [(p, int(c), why) for p in region.points]
    if not region.borders or not region.seki:
        return [(p, 0, Why.DAME) for p in region.points]
    out = []
    for p in region.points:
        adj = {living[q] for q in geometry.neighbours[p]} - {EMPTY}
        if len(adj) == 1:
            out.append((p, adj.pop(), Why.ONE_SIDED))
        else:
            out.append((p, 0, Why.SHARED))
    return out


def classify(fp: FinalPosition) -> Classification:
    """Apply the agreement and give every point its default owner and reason. {#count.regions}

    Raises :class:`CountingError` for an agreement that does not fit the board
    ({#count.agreement}).
    """
    g, agreement = fp.geometry, fp.agreement
    dead = _expand(fp, agreement.dead, "dead-on-empty")
    seki = _expand(fp, agreement.seki, "seki-on-empty")
    if both := dead & seki:
        p = min(both)
        raise CountingError("dead-and-seki", "a chain is marked both dead and in seki", p, g.to_gtp(p))
    living = tuple(EMPTY if p in dead else c for p, c in enumerate(fp.stones))
    regions = empty_regions(g, living, seki)
    owner = [c for c in living]
    why = [Why.STONE] * g.area
    region_of: dict[int, Region] = {}
    for region in regions:
        for p, o, w in _default(g, living, region):
            owner[p], why[p] = o, w
            region_of[p] = region
        for p in region.points:
            if p in dead and region.borders == {Color(fp.stones[p])}:
                raise CountingError(
                    "dead-in-own-area",
                    "dead stones whose freed points only their own colour borders",
                    p,
                    g.to_gtp(p),
                )
    _owned(g, agreement, living, region_of, owner, why)
    base = tuple(why)
    _overrides(g, agreement, region_of, owner, why)
    claims = _claims(g, agreement, living, seki, region_of, owner, why)
    return Classification(
        g, fp.stones, living, tuple(owner), tuple(why), base, dead, seki, MappingProxyType(claims),
        tuple(regions),
    )  # fmt: skip


def _owned(g: Geometry, agreement: Agreement, living: tuple[int, ...], region_of: dict, owner: list,
           why: list) -> None:  # fmt: skip
    """{#count.agreement.owned} Points agreed to be one side's: territory of that side where a
    two-coloured (or stoneless) region's border was left open; no change where the region is
    already that side's; an error where only the other side borders the region."""
    marked = [(p, BLACK) for p in sorted(agreement.black_owns)] + [
        (p, WHITE) for p in sorted(agreement.white_owns)
    ]
    seen: set[int] = set()
    for p, c in marked:
        _on_board(g, p)
        v = g.to_gtp(p)
        if p in seen:
            raise CountingError("owned-twice", "a point is agreed to be both sides'", p, v)
        seen.add(p)
        if living[p] != EMPTY:
            raise CountingError("owned-not-empty", "an agreed owner for a point holding a living stone", p, v)
        region = region_of[p]
        if region.borders == {c.opponent}:
            raise CountingError(
                "owned-contradicts",
                f"a point agreed to be {c.name.lower()}'s in a region only {c.opponent.name.lower()} borders",
                p,
                v,
            )
        if region.borders != {c}:
            owner[p], why[p] = int(c), Why.TERRITORY


def _overrides(g: Geometry, agreement: Agreement, region_of: dict, owner: list, why: list) -> None:
    """{#count.agreement} Re-label points of two-coloured regions as dame or shared liberties."""
    for marks, label in ((agreement.dame, Why.DAME), (agreement.shared, Why.SHARED)):
        for p in sorted(marks):
            _on_board(g, p)
            region = region_of.get(p)
            if region is None or len(region.borders) != 2:
                raise CountingError(
                    "override-not-mixed", f"only a point both colours border can be {label}", p, g.to_gtp(p)
                )
            owner[p], why[p] = 0, label


def _claims(
    g: Geometry,
    agreement: Agreement,
    living: tuple[int, ...],
    seki: frozenset[int],
    region_of: dict,
    owner: list,
    why: list,
) -> dict[int, ClaimKind]:
    """{#count.agreement} Give each claimed empty point to the claimer (001 第十条, 第十二条)."""
    out: dict[int, ClaimKind] = {}
    for claim in agreement.claims:
        p, c = claim.point, claim.color
        _on_board(g, p)
        v = g.to_gtp(p)
        if living[p] != EMPTY:
            raise CountingError("claim-not-empty", "a claim names a point holding a living stone", p, v)
        if p in out:
            raise CountingError("claim-twice", "two claims name the same point", p, v)
        if not any(living[q] == c for q in g.neighbours[p]):
            raise CountingError("claim-no-stone", f"no {c.name.lower()} stone is next to the point", p, v)
        if claim.kind is ClaimKind.ONE_SIDED:
            _one_sided(g, seki, p, v)
        owner[p], why[p] = int(c), Why.CLAIMED
        out[p] = claim.kind
    return out


def _one_sided(g: Geometry, seki: frozenset[int], p: int, v: str) -> None:
    """{#count.agreement} 单方权利单官 (001 第十条(2), 第十二条(3)) is a point *of a seki*: the claimed
    point must touch a chain the agreement puts in seki. Whether only the claimer can occupy it is
    the players' agreement, and a dispute about it is settled by play (001 第十三条(4))."""
    if not any(q in seki for q in g.neighbours[p]):
        raise CountingError(
            "claim-not-seki", "a one-sided claim (单方权利单官) must name a point next to a seki chain", p, v
        )


__all__ = [
    "OWN_EMPTY",
    "SPLIT",
    "Classification",
    "Region",
    "Why",
    "chain_points",
    "classify",
    "empty_regions",
]
