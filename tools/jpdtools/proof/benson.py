"""Unconditional life (Benson 1976): chains of one colour that no sequence of the opponent's moves
can capture, even if their owner always passes. {#count.status}

The opponent may play any number of moves in a row, so whoever moves first makes no difference and
no search is needed: this decides *alive* for the chains it finds. A chain it does not find may
still be alive (a seki, or two eyes not yet made); the search (:mod:`.search`) decides those.
"""

from jpdref.coords import Geometry
from jpdref.stones import EMPTY


def flood(color: list[int], nbrs, start: int, inside) -> frozenset[int]:
    """The points connected to ``start`` through points whose value ``inside`` accepts."""
    seen = {start}
    stack = [start]
    while stack:
        p = stack.pop()
        for q in nbrs[p]:
            if q not in seen and inside(color[q]):
                seen.add(q)
                stack.append(q)
    return frozenset(seen)


def unconditionally_alive(geometry: Geometry, color: list[int], side: int) -> frozenset[int]:
    """The points of the ``side`` stones that are unconditionally alive on the board ``color``
    (one value a point: 0 empty, 1 black, 2 white).

    Regions are the maximal connected sets of points not of ``side``; a region is *vital* to a
    chain when every empty point of it is a liberty of the chain. Repeatedly drop the chains with
    fewer than two vital regions and the regions next to a dropped chain; what is left lives.
    """
    nbrs = geometry.neighbours
    chains: list[frozenset[int]] = []
    chain_of: dict[int, int] = {}
    regions: list[frozenset[int]] = []
    region_of: dict[int, int] = {}
    for p, c in enumerate(color):
        if c == side and p not in chain_of:
            chain = flood(color, nbrs, p, lambda v: v == side)
            for s in chain:
                chain_of[s] = len(chains)
            chains.append(chain)
        elif c != side and p not in region_of:
            region = flood(color, nbrs, p, lambda v: v != side)
            for s in region:
                region_of[s] = len(regions)
            regions.append(region)
    borders = [{chain_of[q] for p in r for q in nbrs[p] if q in chain_of} for r in regions]
    liberties = [{q for p in ch for q in nbrs[p] if color[q] == EMPTY} for ch in chains]
    vital = [
        {
            i
            for i, r in enumerate(regions)
            if k in borders[i] and all(p in liberties[k] for p in r if color[p] == EMPTY)
        }
        for k in range(len(chains))
    ]
    live_chains = set(range(len(chains)))
    live_regions = set(range(len(regions)))
    changed = True
    while changed:
        changed = False
        for k in list(live_chains):
            if len(vital[k] & live_regions) < 2:
                live_chains.discard(k)
                changed = True
        for i in list(live_regions):
            if not borders[i] <= live_chains:
                live_regions.discard(i)
                changed = True
    return frozenset(p for k in live_chains for p in chains[k])
