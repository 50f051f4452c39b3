"""Where a search plays: a chain's *region* (spec/counting.md#count.status). {#count.status}

The empty areas next to the chain, and the empty areas next to the opponent's chains that touch it
or those areas (the chains it races or shares liberties with) — except an area only one colour
borders, not next to the chain, that is its owner's living eye space: every chain bordering it is
unconditionally alive (:mod:`.benson`), or it holds at least :data:`EYE_SPACE` points. Moves there
fill the owner's own eyes or throw stones into a living territory; the search leaves them out.
"""

from jpdref.board import Board
from jpdref.stones import EMPTY

from jpdtools.proof.benson import unconditionally_alive

EYE_SPACE = 7
"""An area of at least this many points that one colour alone borders is taken as living eye
space — an assumption of the search, not a rule (OQ-60): the eye shapes that die against a solid
wall have at most six points (the rabbity six)."""


def area(color: list[int], nbrs, start: int) -> frozenset[int]:
    """The empty area (connected empty points) holding ``start``."""
    seen, stack = {start}, [start]
    while stack:
        p = stack.pop()
        for q in nbrs[p]:
            if q not in seen and color[q] == EMPTY:
                seen.add(q)
                stack.append(q)
    return frozenset(seen)


def _living_eye_space(board: Board, points: frozenset[int], alive: dict[int, frozenset[int]]) -> bool:
    color, nbrs = board.color, board.nbrs
    border = {q for p in points for q in nbrs[p] if color[q] != EMPTY}
    colours = {color[q] for q in border}
    if len(colours) != 1:
        return False
    if len(points) >= EYE_SPACE:
        return True
    return border <= alive[colours.pop()]


def region(board: Board, chain: frozenset[int]) -> frozenset[int]:
    """The points a search about ``chain`` plays on (this module's rule)."""
    color, nbrs = board.color, board.nbrs
    own = color[next(iter(chain))]
    points: set[int] = set()
    for p in chain:
        for q in nbrs[p]:
            if color[q] == EMPTY and q not in points:
                points |= area(color, nbrs, q)
    rivals: set[int] = set()
    for p in chain | points:
        for q in nbrs[p]:
            if color[q] not in (EMPTY, own):
                rivals |= set(board.chain[q].stones)
    alive = {side: unconditionally_alive(board.geometry, color, side) for side in (1, 2)}
    for p in rivals:
        for q in nbrs[p]:
            if color[q] == EMPTY and q not in points:
                found = area(color, nbrs, q)
                if not _living_eye_space(board, found, alive):
                    points |= found
    return frozenset(points)


def lives_on_its_own(board: Board, chain: frozenset[int]) -> bool:
    """``chain`` is taken as living whatever is played around it: unconditionally alive, or next to
    an area of at least :data:`EYE_SPACE` points only its colour borders (this module's rule)."""
    color, nbrs = board.color, board.nbrs
    own = color[next(iter(chain))]
    if chain <= unconditionally_alive(board.geometry, color, own):
        return True
    seen: set[int] = set()
    for p in chain:
        for q in nbrs[p]:
            if color[q] == EMPTY and q not in seen:
                found = area(color, nbrs, q)
                seen |= found
                if len(found) >= EYE_SPACE and {color[r] for s in found for r in nbrs[s]} <= {EMPTY, own}:
                    return True
    return False
