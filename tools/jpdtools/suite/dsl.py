"""The three small languages of a case file, as values: board diagrams, move lists, verdicts.

:class:`Dsl` parses each embedded text with the grammar of ``spec/case.lark`` and checks what it
means. Each ``parse_*`` method takes the text and a *place* function mapping a 1-based line/column
of that text to a :class:`Location` in the case file (see :mod:`jpdtools.suite.srcmap`), and returns
frozen values. Every problem is an :class:`InputError` with an error code of
spec/case-format.md#format.errors and the file location of the offending token.

Diagrams and move lists of the plain shapes are read by :mod:`jpdtools.suite.quickparse`, which
yields what the grammar yields without importing Lark; anything else (and every error, so that it
is worded once) goes to :mod:`jpdtools.suite.grammar`, built on first use. The verdicts, which
are the case model's values, are collected by :mod:`jpdtools.suite.verdicts`, imported with the
model when a verdict text is read: a diagram and a move list (``jpd play``) need neither.
"""

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from jpdref.board import Board, PositionError
from jpdref.coords import GTP_COLUMNS, MAX_SIZE, MIN_SIZE, Geometry
from jpdref.stones import BLACK, EMPTY, WHITE

from jpdtools.errors import InputError, Location
from jpdtools.suite import quickparse
from jpdtools.suite.setup import CaseAction, CaseClaim
from jpdtools.suite.syntax import Place, RawDiagram, Token, normal_rows, normal_vertex, number

if TYPE_CHECKING:
    from jpdtools.suite.grammar import Grammar
    from jpdtools.suite.verdicts import Verdicts

__all__ = ["Diagram", "Dsl", "Place", "normal_rows", "normal_vertex"]


# -- values -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Diagram:
    """A parsed, checked board diagram (stones in reading order, markers by letter)."""

    width: int
    height: int
    to_move: str
    stones: tuple[tuple[str, str], ...]
    markers: tuple[tuple[str, str], ...]
    dead: tuple[str, ...] = ()  # the stones written x / o (agreed dead), in reading order


# -- the parser object ------------------------------------------------------------------------
@functools.cache
def _grammar(path: Path | None) -> "Grammar":
    from jpdtools.suite.grammar import Grammar  # Lark: only when a text needs the whole grammar

    return Grammar(path)


class Dsl:
    """The case-file DSL of ``spec/case.lark`` (the grammar's parser is built on first use, once
    per grammar file)."""

    def __init__(self, grammar: Path | None = None) -> None:
        self._path = grammar

    @property
    def _grammar(self) -> "Grammar":
        return _grammar(self._path)

    # -- public ------------------------------------------------------------------------------
    def parse_diagram(self, text: str, place: Place) -> Diagram:
        _check_diagram_size(text, place)
        raw = quickparse.diagram(text) if self._path is None else None
        if raw is None:
            raw = self._grammar.raw_diagram(text, place)
        return _check_diagram(raw, place)

    def parse_moves(self, text: str, place: Place) -> tuple[CaseAction, ...]:
        """Actions in order; a marker target is kept as ``vertex="@a"`` for the loader."""
        moves = quickparse.moves(text, place) if self._path is None else None
        return moves if moves is not None else self._grammar.moves(text, place)

    def parse_verdicts(self, text: str, place: Place) -> "Verdicts":
        """Step verdicts in written order and the ``end:`` verdict. At most one line per step
        and one ``end:`` line."""
        from jpdtools.suite.verdicts import collect  # the case model: only to read verdicts

        return collect(*self._grammar.verdict_lines(text, place))

    def parse_vertex_list(self, text: str, place: Place) -> tuple[tuple[str, Location], ...]:
        """The vertices (``C3``, normalised) and markers (``@a``) of an agreement list, each
        with where it was written."""
        return self._grammar.vertex_list(text, place)

    def parse_agreement_claim(self, text: str, place: Place) -> CaseClaim:
        """One claim ``B ko E5`` (the vertex may be a marker ``@a``, kept for the loader)."""
        return self._grammar.agreement_claim(text, place)


# -- diagram semantics ------------------------------------------------------------------------
def _at(place: Place, token: Token) -> Location:
    return place(token.line or 1, token.column or 1)


_LARGE_DIAGRAM = 10_000  # characters: more than any 25x25 diagram with labels and row numbers
_HEADER_LINE = re.compile(r"\d+x\d+(?:[ \t]+[BW])?")
_COLUMNS_LINE = re.compile(r"A(?:[ \t]+[B-HJ-Z])*")


def _check_diagram_size(text: str, place: Place) -> None:
    """The size of a large diagram, checked on its text before it is parsed (a 1000x1000
    diagram used to be parsed whole, 12 s, before its width was refused). Smaller texts are
    checked after parsing, with the same messages (``board-size``, at the first point)."""
    if len(text) <= _LARGE_DIAGRAM:
        return
    height, widest, first = 0, 0, None
    for n, line in enumerate(text.split("\n"), 1):
        body = line.strip()
        if not body or _HEADER_LINE.fullmatch(body) or _COLUMNS_LINE.fullmatch(body):
            continue
        core = body.strip("0123456789 \t\r")  # row numbers on either side
        points = len(core) - core.count(" ") - core.count("\t")
        height += 1
        widest = max(widest, points)
        if first is None:
            first = place(n, line.index(core[:1] or body[:1]) + 1)
    for n, name in ((widest, "width"), (height, "height")):
        if n > MAX_SIZE:
            message = f"board diagram: board {name} {n} is not {MIN_SIZE}..{MAX_SIZE}"
            raise InputError(message, first, code="board-size")


def drawn_chains(geometry, stones) -> Iterator[tuple[str, list[str]]]:
    """The chains of a drawn position (``(vertex, colour)`` pairs): each chain's colour and its sorted
    GTP vertices."""
    colour = {geometry.from_gtp(v): c for v, c in stones}
    seen: set[int] = set()
    for start in sorted(colour):
        if start in seen:
            continue
        chain, stack = {start}, [start]
        while stack:
            for q in geometry.neighbours[stack.pop()]:
                if q not in chain and colour.get(q) == colour[start]:
                    chain.add(q)
                    stack.append(q)
        seen |= chain
        yield colour[start], [geometry.to_gtp(q) for q in sorted(chain)]


def _whole_chains_dead(geometry, stones, dead: set[str], where, fail) -> None:
    """{#format.diagram} A dead mark (``x``/``o``) stands for its whole chain: a chain drawn partly
    ``X`` and partly ``x`` is an error at its first live stone (``bad-agreement``), not a choice."""
    for chain_colour, vertices in drawn_chains(geometry, stones):
        marked = [v for v in vertices if v in dead]
        if marked and len(marked) != len(vertices):
            live = next(v for v in vertices if v not in dead)
            big, small = ("X", "x") if chain_colour == "B" else ("O", "o")
            raise fail(
                "bad-agreement",
                f"the chain at {live} is drawn partly {big} and partly {small} (dead at {marked[0]}): "
                f"a dead mark stands for the whole chain — draw every stone of it {small}, or none",
                where[live],
            )


def _check_diagram(raw: RawDiagram, place: Place) -> Diagram:
    def fail(code: str, message: str, token: Token) -> InputError:
        return InputError(f"board diagram: {message}", _at(place, token), code=code)

    rows = raw.rows
    if raw.size is not None:
        w_text, _, h_text = str(raw.size).partition("x")
        sw, sh = number(w_text), number(h_text)
        if not (MIN_SIZE <= sw <= MAX_SIZE and MIN_SIZE <= sh <= MAX_SIZE):
            raise fail("board-size", f"size {raw.size} is not {MIN_SIZE}..{MAX_SIZE}", raw.size)
    width, height = len(rows[0].points), len(rows)
    for row in rows[1:]:
        if len(row.points) != width:
            raise fail(
                "diagram-shape",
                f"this row has {len(row.points)} points, the first row has {width}",
                row.points[0],
            )
    for n, name in ((width, "width"), (height, "height")):
        if not MIN_SIZE <= n <= MAX_SIZE:
            raise fail("board-size", f"board {name} {n} is not {MIN_SIZE}..{MAX_SIZE}", _first(raw))
    if raw.size is not None and (sw, sh) != (width, height):
        raise fail("diagram-shape", f"header says {raw.size} but the rows make {width}x{height}", raw.size)
    for i, row in enumerate(rows):
        for label in (row.left, row.right):
            if label is not None and number(str(label)) != height - i:
                raise fail(
                    "diagram-shape",
                    f"row number {label} should be {height - i} (rows count down to 1)",
                    label,
                )
    labels = " ".join(GTP_COLUMNS[:width])
    for columns in raw.columns:
        if " ".join(str(columns).split()) != labels:
            raise fail("diagram-shape", f"column labels should be {labels!r}", columns)
    geometry = Geometry(width, height)
    stones: list[tuple[str, str]] = []
    dead: list[str] = []
    markers: dict[str, str] = {}
    where: dict[str, Token] = {}
    for y, row in enumerate(rows):
        for x, token in enumerate(row.points):
            vertex = geometry.to_gtp(geometry.point(x, y))
            where[vertex] = token
            if token in ("X", "O", "x", "o"):
                stones.append((vertex, "B" if token in ("X", "x") else "W"))
                if token in ("x", "o"):
                    dead.append(vertex)
            elif token not in (".", "+"):
                if str(token) in markers:
                    raise fail("diagram-syntax", f"marker {str(token)!r} appears twice", token)
                markers[str(token)] = vertex
    stuck = dead_chain(geometry, stones)
    if stuck is not None:
        raise fail("impossible-position", f"the chain at {stuck} has no liberties", where[stuck])
    if dead:
        _whole_chains_dead(geometry, stones, set(dead), where, fail)
    to_move = str(raw.color) if raw.color is not None else "B"
    return Diagram(width, height, to_move, tuple(stones), tuple(sorted(markers.items())), tuple(dead))


def _first(raw: RawDiagram) -> Token:
    return raw.size if raw.size is not None else raw.rows[0].points[0]


def dead_chain(geometry: Geometry, stones) -> str | None:
    """The first vertex (reading order) of a chain without liberties, or None.

    ``stones`` is an iterable of (GTP vertex, "B"/"W"). The engine's Board decides; the flood
    fill here only finds which chain to point at.
    """
    colour = {geometry.from_gtp(v): (BLACK if c == "B" else WHITE) for v, c in stones}
    try:
        Board.from_stones(geometry, colour)
        return None
    except PositionError:
        pass
    board = [EMPTY] * geometry.area
    for p, c in colour.items():
        board[p] = c
    for start in sorted(colour):
        chain, stack, free = {start}, [start], False
        while stack and not free:
            for q in geometry.neighbours[stack.pop()]:
                if board[q] == EMPTY:
                    free = True
                elif board[q] == board[start] and q not in chain:
                    chain.add(q)
                    stack.append(q)
        if not free:
            return geometry.to_gtp(min(chain))
    return None
