"""Text diagrams for hand-made final positions: ``X`` Black, ``O`` White, ``.`` empty.

Row 0 of the list is the top line of the board, as in :mod:`jpdref.coords`. Lower-case ``x``
and ``o`` are stones agreed dead; ``#`` (Black) and ``@`` (White) are stones agreed in seki.
"""

from jpdref.coords import Geometry
from jpdref.counting.agreement import Agreement
from jpdref.stones import BLACK, EMPTY, WHITE

_CELLS = {
    ".": (EMPTY, None),
    "+": (EMPTY, None),
    "X": (BLACK, None),
    "O": (WHITE, None),
    "x": (BLACK, "dead"),
    "o": (WHITE, "dead"),
    "#": (BLACK, "seki"),
    "@": (WHITE, "seki"),
}


def parse_rows(rows: list[str] | tuple[str, ...]) -> tuple[Geometry, tuple[int, ...], Agreement]:
    """The geometry, colours and the dead/seki part of the agreement a diagram shows."""
    cleaned = [r.replace(" ", "") for r in rows if r.strip()]
    width = len(cleaned[0])
    if any(len(r) != width for r in cleaned):
        raise ValueError("diagram rows differ in length")
    geometry = Geometry(width, len(cleaned))
    colours: list[int] = []
    dead: set[int] = set()
    seki: set[int] = set()
    for y, row in enumerate(cleaned):
        for x, ch in enumerate(row):
            if ch not in _CELLS:
                raise ValueError(f"unknown diagram cell {ch!r} in row {y}")
            colour, mark = _CELLS[ch]
            colours.append(int(colour))
            if mark == "dead":
                dead.add(y * width + x)
            elif mark == "seki":
                seki.add(y * width + x)
    return geometry, tuple(colours), Agreement(dead=frozenset(dead), seki=frozenset(seki))
