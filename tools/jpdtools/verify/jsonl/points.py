"""Helpers for Python JSON-lines programs (those of ``implementations/`` use them): GTP vertices,
board rows, captures by difference, a set-up played as moves (spec/jsonl-protocol.md#jsonl.v4)."""

from collections.abc import Callable, Iterable

from jpdtools.verify.jsonl.protocol import Act, Run

COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"  # GTP column letters (no I)

Point = tuple[int, int]  # (row, col), row 0 = the bottom row (GTP row 1)


def point(vertex: str) -> Point:
    """``C3`` → (2, 2). Raises ValueError for a malformed vertex."""
    letter, number = vertex[0].upper(), vertex[1:]
    if letter not in COLUMNS or not number.isdigit():
        raise ValueError(f"not a GTP vertex: {vertex!r}")
    return int(number) - 1, COLUMNS.index(letter)


def vertex(p: Point) -> str:
    return f"{COLUMNS[p[1]]}{p[0] + 1}"


def sorted_vertices(points: Iterable[Point]) -> tuple[str, ...]:
    return tuple(sorted((vertex(p) for p in points), key=lambda v: (v[0], int(v[1:]))))


def rows(size: int, colour_at: Callable[[Point], str | None]) -> str:
    """Board rows, top first, ``/``-separated; ``colour_at`` gives "B", "W" or None."""
    symbol = {"B": "X", "W": "O", None: "."}
    return "/".join(
        "".join(symbol[colour_at((row, col))] for col in range(size)) for row in reversed(range(size))
    )


def stones(size: int, colour_at: Callable[[Point], str | None]) -> dict[Point, str]:
    return {
        (r, c): colour for r in range(size) for c in range(size) if (colour := colour_at((r, c))) is not None
    }


def removed(before: dict[Point, str], after: dict[Point, str], colour: str) -> tuple[str, ...]:
    """The stones of ``colour`` present in ``before`` and gone in ``after``."""
    return sorted_vertices(p for p, c in before.items() if c == colour and after.get(p) != colour)


def opponent(colour: str) -> str:
    return "W" if colour == "B" else "B"


def setup_stones(msg: Run) -> tuple[list[Point], list[Point]]:
    """The black and white set-up points of a run."""
    black = [point(v) for v, c in msg.stones if c == "B"]
    white = [point(v) for v, c in msg.stones if c == "W"]
    return black, white


def describe(act: Act) -> str:
    return f"{act.color} {act.vertex if act.action == 'move' else act.action}"


def setup_sequence(black: list[Point], white: list[Point], to_move: str) -> list[tuple[str, Point | None]]:
    """Alternating plays (None = pass) that build the set-up with ``to_move`` to play next.

    Never two passes in a row; the last play is a stone whenever the side not to move has one.
    """
    queues = {"B": list(black), "W": list(white)}
    other = opponent(to_move)
    last = queues[other].pop() if queues[other] else None
    plays: list[tuple[str, Point | None]] = []
    current = "B"
    while queues["B"] or queues["W"]:
        plays.append((current, queues[current].pop(0) if queues[current] else None))
        current = opponent(current)
    target = other if last is not None else to_move
    if current != target:
        plays.append((current, None))
        current = opponent(current)
    if last is not None:
        plays.append((other, last))
    return plays
