"""Board geometry and coordinate systems. {#board.points} {#board.adjacency}

| system   | example | origin                     | notes                          |
|----------|---------|----------------------------|--------------------------------|
| point    | 12      | top-left = 0, row-major    | internal index                 |
| GTP      | "C3"    | bottom-left = A1           | columns A..Z without I         |
| SGF      | "cc"    | top-left = aa              | column letter, then row letter |
"""

from dataclasses import dataclass, field
from functools import cache

MIN_SIZE = 2
MAX_SIZE = 25
GTP_COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"  # 25 letters: I is skipped
SGF_LETTERS = "abcdefghijklmnopqrstuvwxy"


class CoordinateError(ValueError):
    """A vertex or board size that does not exist. The message names the offending value."""


@cache
def neighbour_table(width: int, height: int) -> tuple[tuple[int, ...], ...]:
    """{#board.adjacency} The neighbours of every point of a ``width`` × ``height`` board (up,
    left, right, down), built once per size: the table is immutable, so every Geometry of that
    size shares it (a suite run or a collection creates thousands of them)."""
    table = []
    for p in range(width * height):
        x, y = p % width, p // width
        adj = []
        if y > 0:
            adj.append(p - width)
        if x > 0:
            adj.append(p - 1)
        if x < width - 1:
            adj.append(p + 1)
        if y < height - 1:
            adj.append(p + width)
        table.append(tuple(adj))
    return tuple(table)


@dataclass(frozen=True)
class Geometry:
    """The points of a width × height board and their adjacency (neighbour table computed once).

    {#board.points} Sizes from 2 to 25 on each side; non-square boards are allowed.
    """

    width: int
    height: int
    neighbours: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for name, n in (("width", self.width), ("height", self.height)):
            if not isinstance(n, int) or isinstance(n, bool) or not MIN_SIZE <= n <= MAX_SIZE:
                raise CoordinateError(
                    f"board {name} {n!r} is not supported (expected {MIN_SIZE}..{MAX_SIZE})"
                )
        object.__setattr__(self, "neighbours", neighbour_table(self.width, self.height))

    @classmethod
    def square(cls, size: int) -> "Geometry":
        return cls(size, size)

    @property
    def area(self) -> int:
        return self.width * self.height

    @property
    def label(self) -> str:
        return f"{self.width}x{self.height}"

    def point(self, x: int, y: int) -> int:
        """The point at column ``x`` (0 = left) and line ``y`` (0 = top)."""
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise CoordinateError(f"({x}, {y}) is off the {self.label} board")
        return y * self.width + x

    def xy(self, p: int) -> tuple[int, int]:
        return p % self.width, p // self.width

    # -- GTP ---------------------------------------------------------------------------------
    def from_gtp(self, vertex: str) -> int:
        """Parse a GTP vertex such as ``C3`` (case-insensitive). Raises CoordinateError."""
        text = vertex.strip().upper()
        if len(text) < 2 or text[0] not in GTP_COLUMNS or not (text[1:].isascii() and text[1:].isdigit()):
            raise CoordinateError(f"{vertex!r} is not a GTP vertex (expected e.g. C3; no column I)")
        x = GTP_COLUMNS.index(text[0])
        row = int(text[1:])
        if x >= self.width or not 1 <= row <= self.height:
            raise CoordinateError(f"vertex {vertex!r} is off the {self.label} board")
        return self.point(x, self.height - row)

    def to_gtp(self, p: int) -> str:
        x, y = self.xy(p)
        return f"{GTP_COLUMNS[x]}{self.height - y}"

    # -- SGF ---------------------------------------------------------------------------------
    def from_sgf(self, text: str) -> int:
        """Parse an SGF point such as ``cc``. Raises CoordinateError."""
        if len(text) != 2 or text[0] not in SGF_LETTERS or text[1] not in SGF_LETTERS:
            raise CoordinateError(f"{text!r} is not an SGF point (expected two letters a..y)")
        x, y = SGF_LETTERS.index(text[0]), SGF_LETTERS.index(text[1])
        if x >= self.width or y >= self.height:
            raise CoordinateError(f"SGF point {text!r} is off the {self.label} board")
        return self.point(x, y)

    def to_sgf(self, p: int) -> str:
        x, y = self.xy(p)
        return SGF_LETTERS[x] + SGF_LETTERS[y]


@cache
def vertex_names(width: int, height: int) -> tuple[str, ...]:
    """The GTP name of every point of a width × height board, in point order."""
    geometry = Geometry(width, height)
    return tuple(geometry.to_gtp(p) for p in range(geometry.area))
