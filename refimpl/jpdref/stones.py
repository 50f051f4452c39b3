"""Stone colours. {#board.colours}"""

from enum import IntEnum


class Color(IntEnum):
    """A side: black (黑方, moves first) or white (白方)."""

    BLACK = 1
    WHITE = 2

    @property
    def opponent(self) -> "Color":
        return Color.WHITE if self is Color.BLACK else Color.BLACK

    @property
    def letter(self) -> str:
        return "B" if self is Color.BLACK else "W"

    @classmethod
    def parse(cls, text: str) -> "Color":
        """Accepts B/W/black/white in any case; raises ValueError naming the text otherwise."""
        key = text.strip().lower()
        if key in ("b", "black"):
            return cls.BLACK
        if key in ("w", "white"):
            return cls.WHITE
        raise ValueError(f"unknown colour {text!r} (expected B, W, black or white)")


BLACK = Color.BLACK
WHITE = Color.WHITE
EMPTY = 0
