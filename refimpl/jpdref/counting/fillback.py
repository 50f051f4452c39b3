"""做棋: filling dead stones, prisoners and virtual stones back. {#count.fill-back}

Every stone of colour C that left the contest — C's dead stones, the C stones the opponent
holds as prisoners (俘子), and C's virtual-move stones (虚着之子) — is put back on an empty point
C owns (同色棋子的围空, 000 §29(1); 001 第十二条; 002 §28(1); 004 做棋(2)). Territory is filled
first, then claimed points, one-sided liberties and seki eyes. Fill-back never changes a side's
area (stones + own empty points).

When a side's stones do not fit (overflow), 004 做棋(2) lets the sides *balance the stones left
off the board*: the other side also leaves as many of its own off — first by taking back stones
it filled, then by B-class negative moves — so that equal numbers stay off on both sides (OQ-29).
"""

from dataclasses import dataclass

from jpdref.counting.errors import CountingError
from jpdref.counting.negative import negative_b
from jpdref.counting.position import FinalPosition
from jpdref.counting.regions import Classification, Why
from jpdref.counting.scratch import Scratch
from jpdref.stones import BLACK, WHITE, Color

FILL_ORDER = (Why.TERRITORY, Why.CLAIMED, Why.ONE_SIDED, Why.EYE)  # OQ-34; 等子比路 passes (ROAD,)


@dataclass(frozen=True, slots=True)
class FillReport:
    """(Black, White) pairs: stones owed, stones placed, overflow, and stones set aside."""

    to_fill: tuple[int, int]
    filled: tuple[int, int]
    overflow: tuple[int, int]  # owed stones that found no own empty point
    set_aside: tuple[int, int]  # stones left off the board after balancing (equal, or overflow kept)


def stones_owed(fp: FinalPosition, c: Classification, color: Color) -> int:
    """{#count.fill-back} Dead stones + prisoners the opponent holds + virtual stones of ``color``."""
    dead = sum(1 for p in c.dead if c.halted[p] == color)
    return dead + fp.held_by(color.opponent) + fp.virtual_stones(color)


def fill_back(
    fp: FinalPosition,
    c: Classification,
    s: Scratch,
    *,
    order: tuple[Why, ...] = FILL_ORDER,
    balance: bool = True,
) -> FillReport:
    """{#count.fill-back} Fill each side's owed stones into its own empty points; balance overflow."""
    owed = {color: stones_owed(fp, c, color) for color in (BLACK, WHITE)}
    placed: dict[Color, list[tuple[int, Why]]] = {BLACK: [], WHITE: []}
    over = {}
    for color in (BLACK, WHITE):
        slots = [
            p for why in order for p in range(s.geometry.area) if s.owner[p] == color and s.why[p] is why
        ]
        slots = [p for p in slots if s.board[p] == 0]
        for p in slots[: owed[color]]:
            placed[color].append((p, s.why[p]))
            s.board[p], s.why[p] = int(color), Why.FILLED
        over[color] = max(0, owed[color] - len(slots))
        s.steps.append(
            f"{color.letter}: {owed[color]} stone(s) to fill back, {len(placed[color])} filled"
            + (f", {over[color]} do not fit" if over[color] else "")
        )
    aside = dict(over)
    if balance and over[BLACK] != over[WHITE]:
        short = BLACK if over[BLACK] < over[WHITE] else WHITE
        k = abs(over[BLACK] - over[WHITE])
        _set_aside(s, short, k, placed[short])
        aside[short] += k
    return FillReport(
        (owed[BLACK], owed[WHITE]),
        (len(placed[BLACK]), len(placed[WHITE])),
        (over[BLACK], over[WHITE]),
        (aside[BLACK], aside[WHITE]),
    )


def _set_aside(s: Scratch, color: Color, k: int, placed: list[tuple[int, Why]]) -> None:
    """{#count.fill-back} ``color`` leaves ``k`` more of its stones off the board (004 做棋(2))."""
    taken = 0
    while taken < k and placed:
        p, before = placed.pop()
        s.board[p], s.why[p] = 0, before
        taken += 1
    s.steps.append(f"{color.letter}: balancing the overflow, {taken} filled stone(s) taken back")
    if taken < k:
        try:
            negative_b(s, color, k - taken)
        except CountingError as err:
            raise CountingError(
                "overflow",
                f"{color.name.lower()} cannot leave {k} stones off the board to balance the overflow",
            ) from err
