"""Fixed handicap placement. {#setup.handicap}

The traditional points, in Black's view: 2 = upper right and lower left; 3 adds lower right;
4 upper left; 5 adds the centre; 6 = the four corners and the two side points on the left and
right; 7 adds the centre; 8 = every star point but the centre; 9 = all nine. Corner points are on
the 4th line from 13×13 up and on the 3rd line below that; side points and the centre exist only
on odd sizes, so even sizes and 7×7 take at most 4 stones. (Source: the traditional placement,
e.g. Wikipedia "Handicapping in Go" and Sensei's Library. GNU Go's GTP ``fixed_handicap`` differs
for 3 stones only: it puts the third on Black's upper left, D16 on 19×19; see OQ-10.)
"""

from jpdref.coords import Geometry

MAX_HANDICAP = 9


class HandicapError(ValueError):
    """A handicap that the board cannot take. The message names the count and the board."""


def fixed_handicap_points(geometry: Geometry, count: int) -> list[int]:
    """The points of a fixed handicap of ``count`` stones (2..9), in placement order. {#setup.handicap}

    Raises HandicapError for a count the board cannot take.
    """
    size = geometry.width
    if geometry.width != geometry.height:
        raise HandicapError(f"fixed handicap needs a square board, not {geometry.label}")
    if not 2 <= count <= MAX_HANDICAP:
        raise HandicapError(f"a fixed handicap is 2..{MAX_HANDICAP} stones, not {count}")
    if size < 7:
        raise HandicapError(f"no fixed handicap points on a {geometry.label} board (7x7 and up)")
    limit = 4 if size % 2 == 0 or size == 7 else MAX_HANDICAP
    if count > limit:
        raise HandicapError(f"a {geometry.label} board takes at most {limit} fixed handicap stones")
    lo = 3 if size >= 13 else 2
    hi = size - 1 - lo
    mid = size // 2
    p = geometry.point
    upper_right, lower_left = p(hi, lo), p(lo, hi)
    lower_right, upper_left = p(hi, hi), p(lo, lo)
    centre = p(mid, mid)
    left, right, top, bottom = p(lo, mid), p(hi, mid), p(mid, lo), p(mid, hi)
    corners = [upper_right, lower_left, lower_right, upper_left]
    if count <= 4:
        return corners[:count]
    if count == 5:
        return [*corners, centre]
    if count == 6:
        return [*corners, left, right]
    if count == 7:
        return [*corners, left, right, centre]
    if count == 8:
        return [*corners, left, right, top, bottom]
    return [*corners, left, right, top, bottom, centre]
