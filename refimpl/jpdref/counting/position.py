"""The input of counting: the halted position and the play-phase figures. {#count.agreement}

A :class:`FinalPosition` is everything a counting method may look at: the board at the halt,
the agreement, the play-phase :class:`~jpdref.game.Counters` and, for jpd-2022, how many of the
moves were made while settling a dispute by play (实战解决, 000 §28–29). It never changes.
"""

from dataclasses import dataclass, field

from jpdref.coords import Geometry
from jpdref.counting.agreement import Agreement
from jpdref.game import Counters, Game
from jpdref.stones import BLACK, EMPTY, WHITE, Color


def make_counters(
    moves: tuple[int, int] = (0, 0),
    virtual: tuple[int, int] = (0, 0),
    passes: tuple[int, int] = (0, 0),
    prisoners: tuple[int, int] = (0, 0),
    handicap: int = 0,
    first_to_pass: Color | None = None,
    last_real_move: Color | None = None,
) -> Counters:
    """Counters for a hand-made position, each pair given as (Black, White).

    ``prisoners`` are the stones each side *holds* (Black's are white stones), as in
    :class:`~jpdref.game.Counters`; ``virtual`` are real virtual stones put off the board.
    """
    kinds = (("move", moves), ("virtual", virtual), ("pass", passes))
    counts = {f"{c.letter}-{k}": pair[i] for k, pair in kinds for i, c in enumerate((BLACK, WHITE))}
    return Counters(
        moves=counts,
        prisoners={"B": prisoners[0], "W": prisoners[1]},
        virtual_stones={"B": virtual[0], "W": virtual[1]},
        handicap_stones=handicap,
        first_to_pass=first_to_pass,
        last_real_move=last_real_move,
    )


@dataclass(frozen=True)
class FinalPosition:
    """The halted board, the agreement, the counters and the settling-stage moves.

    ``stones`` holds a colour per point (0 empty, 1 Black, 2 White) at the halt, dead stones
    included. ``settling`` is (Black, White) real + virtual moves made during 实战解决; they are
    part of the counters too, and jpd-2022 balances them with B-class negative moves.
    """

    geometry: Geometry
    stones: tuple[int, ...]
    agreement: Agreement = field(default_factory=Agreement)
    counters: Counters = field(default_factory=make_counters)
    settling: tuple[int, int] = (0, 0)

    def __post_init__(self) -> None:
        if len(self.stones) != self.geometry.area:
            raise ValueError(f"{len(self.stones)} points given for a {self.geometry.label} board")

    @classmethod
    def from_game(
        cls, game: Game, agreement: Agreement | None = None, settling: tuple[int, int] = (0, 0)
    ) -> "FinalPosition":
        """The position of a (halted) game with its counters."""
        return cls(
            game.geometry, tuple(game.board.color), agreement or Agreement(), game.counters(), settling
        )

    # -- the play-phase figures counting uses ------------------------------------------------
    def moves(self, color: Color, kind: str) -> int:
        """Accepted actions of ``kind`` (``move``, ``virtual``, ``pass``) by ``color``."""
        return self.counters.moves.get(f"{color.letter}-{kind}", 0)

    def held_by(self, color: Color) -> int:
        """Prisoners (俘子) ``color`` holds: stones of the *other* colour."""
        return self.counters.prisoners.get(color.letter, 0)

    def virtual_stones(self, color: Color) -> int:
        return self.counters.virtual_stones.get(color.letter, 0)

    def handicap_for(self, color: Color) -> int:
        return self.counters.handicap_stones if color is BLACK else 0

    def stones_put(self, color: Color) -> int:
        """Contest + settling moves that put a stone of ``color`` down: real + virtual (+ handicap).

        {#count.equal-stones} This is the 多下 count of 000 §5, §29 (OQ-28): passes do not count,
        handicap stones count as Black's.
        """
        return self.moves(color, "move") + self.moves(color, "virtual") + self.handicap_for(color)

    def count_on_board(self, color: Color) -> int:
        return self.stones.count(int(color))


__all__ = ["EMPTY", "FinalPosition", "make_counters"]
