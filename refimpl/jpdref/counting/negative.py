"""Negative moves (负着): taking one's own stone off the board at counting. {#count.negative-moves}

* A-class (A类负着, 000 §17(1)): a stone taken from the black–white boundary; the freed point is
  split between the sides, so the side pays one point (½ less for it, ½ more for the other).
* B-class (B类负着, 000 §17(2); 002 §16 将子换为路): a stone taken from inside the side's own
  area; its point becomes that side's empty point (目, or 路 under 等子比路): nothing changes.
"""

from jpdref.counting.errors import CountingError
from jpdref.counting.regions import Why
from jpdref.counting.scratch import Scratch
from jpdref.stones import EMPTY, Color


def _boundary_rank(s: Scratch, p: int, color: Color) -> int | None:
    """0: next to an opponent stone; 1: next to another point not in the side's area; None: inside."""
    nbrs = s.geometry.neighbours[p]
    if any(s.board[q] == color.opponent for q in nbrs):
        return 0
    if any(not s.owns(q, color) for q in nbrs):
        return 1
    return None


def negative_a(s: Scratch, color: Color, n: int) -> list[int]:
    """{#count.negative-moves} ``n`` A-class negative moves by ``color``; returns the points freed.

    Each time the lowest-numbered boundary stone is taken, preferring stones next to an
    opponent stone (黑白两棋交界处, 000 §17(1)); its point is split (``negative-a``).
    """
    freed = []
    for _ in range(n):
        ranked = [
            (r, p)
            for p in range(s.geometry.area)
            if s.board[p] == color and (r := _boundary_rank(s, p, color)) is not None
        ]
        if not ranked:
            raise CountingError(
                "no-boundary-stone",
                f"{color.name.lower()} has no boundary stone for an A-class negative move",
            )
        _, p = min(ranked)
        s.board[p], s.owner[p], s.why[p] = EMPTY, 0, Why.NEGATIVE_A
        freed.append(p)
    if freed:
        at = ", ".join(map(s.vertex, freed))
        s.steps.append(f"{color.letter}: {n} A-class negative move(s) at {at} (points split)")
    return freed


def negative_b(s: Scratch, color: Color, n: int, becomes: Why = Why.NEGATIVE_B) -> list[int]:
    """{#count.negative-moves} ``n`` B-class negative moves by ``color``; returns the points freed.

    A stone none of whose neighbours is outside the side's area is taken — a filled-back stone
    first, then the lowest-numbered one; its point becomes the side's own (``becomes``).
    """
    freed = []
    for _ in range(n):
        inside = [
            p for p in range(s.geometry.area) if s.board[p] == color and _boundary_rank(s, p, color) is None
        ]
        if not inside:
            raise CountingError(
                "no-interior-stone", f"{color.name.lower()} has no inside stone for a B-class negative move"
            )
        p = min(inside, key=lambda q: (s.why[q] is not Why.FILLED, q))
        s.board[p], s.owner[p], s.why[p] = EMPTY, int(color), becomes
        freed.append(p)
    if freed:
        s.steps.append(f"{color.letter}: {n} B-class negative move(s) at {', '.join(map(s.vertex, freed))}")
    return freed
