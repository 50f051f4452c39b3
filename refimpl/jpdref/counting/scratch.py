"""The working board of one counting call: colours, owners and reasons, changed step by step.

A :class:`Scratch` is created from a :class:`~jpdref.counting.regions.Classification`, changed
by fill-back and negative moves, and frozen into tuples for the :class:`Count`. It lives only
inside one counting function; nothing outside sees it change.
"""

from dataclasses import dataclass, field

from jpdref.coords import Geometry
from jpdref.counting.regions import Classification, Why
from jpdref.stones import EMPTY, Color


@dataclass
class Scratch:
    geometry: Geometry
    board: list[int]
    owner: list[int]
    why: list[Why]
    steps: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, c: Classification) -> "Scratch":
        return cls(c.geometry, list(c.living), list(c.owner), list(c.why))

    def owns(self, p: int, color: Color) -> bool:
        """True if ``p`` is in ``color``'s own area: its stone, or an empty point it owns."""
        return self.board[p] == color or (self.board[p] == EMPTY and self.owner[p] == color)

    def stones(self, color: Color) -> int:
        return self.board.count(int(color))

    def count(self, color: Color, *whys: Why) -> int:
        return sum(1 for p in range(self.geometry.area) if self.owner[p] == color and self.why[p] in whys)

    def split(self, *whys: Why) -> int:
        return sum(1 for w in self.why if w in whys)

    def vertex(self, p: int) -> str:
        return self.geometry.to_gtp(p)
