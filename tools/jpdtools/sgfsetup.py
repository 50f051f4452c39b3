"""A minimal SGF reader for the ``sgf`` set-up of a case. {#format.case}

Reads one game tree and follows its main line (the first variation everywhere). From the first
node: ``SZ`` (``N`` or ``W:H``, default 19), ``AB``/``AW``/``AE`` (with compressed point lists
``aa:cc``), ``PL`` and ``HA``; from every node the moves ``B[..]``/``W[..]`` (``[]``, or ``[tt]``
on boards up to 19x19, is a pass), which become the case's ``history``. Other properties are
ignored. ``HA`` counts only when the file places no black stones itself: the handicap is then
placed as the ruleset's ``handicap`` axis says. Errors have code ``sgf-syntax`` (or
``board-size``, ``unknown-vertex``, ``bad-handicap``, ``impossible-position``) and the file
location of the offending text.
"""

import re
from dataclasses import dataclass

from jpdref.coords import MAX_SIZE, MIN_SIZE, CoordinateError, Geometry

from jpdtools.dsl import Place, dead_chain
from jpdtools.errors import InputError
from jpdtools.model import CaseAction

_IDENT = re.compile(r"[A-Z]+")
_SETUP = frozenset({"SZ", "AB", "AW", "AE", "PL", "HA"})


@dataclass(frozen=True)
class SgfSetup:
    width: int
    height: int
    to_move: str
    stones: tuple[tuple[str, str], ...]  # (GTP vertex, "B"/"W"), reading order
    handicap: int
    moves: tuple[CaseAction, ...]


@dataclass(frozen=True)
class _Prop:
    ident: str
    values: tuple[tuple[str, int], ...]  # (text, offset of the text in the SGF)
    offset: int


def _position(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


class _Reader:
    """Splits SGF text into the nodes of the main line (lists of properties)."""

    def __init__(self, text: str, place: Place) -> None:
        self.text, self.place = text, place

    def error(self, message: str, offset: int, code: str = "sgf-syntax") -> InputError:
        return InputError(f"sgf: {message}", self.place(*_position(self.text, offset)), code=code)

    def nodes(self) -> list[list[_Prop]]:
        text, i, depth, trees = self.text, 0, 0, 0
        main: list[list[_Prop]] = []
        on_main = True
        while i < len(text):
            ch = text[i]
            if ch.isspace():
                i += 1
            elif ch == "(":
                if depth == 0:
                    trees += 1
                    if trees > 1:
                        raise self.error("only one game tree is allowed", i)
                depth += 1
                i += 1
            elif ch == ")":
                if depth == 0:
                    raise self.error("')' without a matching '('", i)
                depth -= 1
                on_main = False
                i += 1
            elif ch == ";":
                if depth == 0:
                    raise self.error("a node outside a game tree", i)
                node, i = self.node(i + 1)
                if on_main:
                    main.append(node)
            else:
                raise self.error(f"unexpected {ch!r}", i)
        if depth:
            raise self.error("the game tree is not closed with ')'", len(text.rstrip()))
        if not main:
            raise self.error("expected a game tree such as (;SZ[9]AB[cc])", 0)
        return main

    def node(self, i: int) -> tuple[list[_Prop], int]:
        text, props, seen = self.text, [], set()
        while True:
            while i < len(text) and text[i].isspace():
                i += 1
            match = _IDENT.match(text, i)
            if not match:
                return props, i
            ident, start = match.group(), i
            if ident in seen:
                raise self.error(f"property {ident} twice in one node", start)
            seen.add(ident)
            i = match.end()
            values = []
            while True:
                while i < len(text) and text[i].isspace():
                    i += 1
                if i >= len(text) or text[i] != "[":
                    break
                value, i = self.value(i)
                values.append(value)
            if not values:
                raise self.error(f"property {ident} has no value", start)
            props.append(_Prop(ident, tuple(values), start))

    def value(self, i: int) -> tuple[tuple[str, int], int]:
        text, start, j, out = self.text, i, i + 1, []
        while j < len(text) and text[j] != "]":
            if text[j] == "\\" and j + 1 < len(text):
                j += 1
            out.append(text[j])
            j += 1
        if j >= len(text):
            raise self.error("a property value without its closing ']'", start)
        return ("".join(out), start + 1), j + 1


def read_sgf(text: str, place: Place) -> SgfSetup:
    """The set-up and moves of the SGF ``text``. Raises InputError with a file location."""
    reader = _Reader(text, place)
    nodes = reader.nodes()
    root = {p.ident: p for p in nodes[0]}
    for node in nodes[1:]:
        for p in node:
            if p.ident in _SETUP:
                raise reader.error(f"{p.ident} is only allowed in the first node", p.offset)
    geometry = _size(reader, root.get("SZ"))
    colour: dict[int, str] = {}
    where: dict[int, int] = {}
    for ident, c in (("AB", "B"), ("AW", "W")):
        for point, offset in _points(reader, geometry, root.get(ident)):
            if point in colour and colour[point] != c:
                raise reader.error("a point is given both black and white", offset)
            colour[point], where[point] = c, offset
    for point, _ in _points(reader, geometry, root.get("AE")):
        colour.pop(point, None)
    stones = tuple((geometry.to_gtp(p), colour[p]) for p in sorted(colour))
    dead = dead_chain(geometry, stones)
    if dead is not None:
        raise reader.error(
            f"the chain at {dead} has no liberties",
            where[geometry.from_gtp(dead)],
            "impossible-position",
        )
    moves = _moves(reader, geometry, nodes)
    to_move = _player(reader, root.get("PL"))
    if not to_move:
        to_move = moves[0].color if moves else "B"
    handicap = _handicap(reader, root.get("HA"))
    if "B" in colour.values():
        handicap = 0
    return SgfSetup(geometry.width, geometry.height, to_move, stones, handicap, moves)


def _single(reader: _Reader, prop: _Prop) -> tuple[str, int]:
    if len(prop.values) != 1:
        raise reader.error(f"{prop.ident} takes one value", prop.offset)
    return prop.values[0]


def _size(reader: _Reader, prop: _Prop | None) -> Geometry:
    if prop is None:
        return Geometry(19, 19)
    text, offset = _single(reader, prop)
    w, colon, h = text.strip().partition(":")
    h = h if colon else w
    if not (w.strip().isdecimal() and h.strip().isdecimal()) or len(w) + len(h) > 8:
        raise reader.error(f"SZ[{text}] is not N or W:H", offset)
    width, height = int(w), int(h)
    if not (MIN_SIZE <= width <= MAX_SIZE and MIN_SIZE <= height <= MAX_SIZE):
        raise reader.error(
            f"board size {width}x{height} is not {MIN_SIZE}..{MAX_SIZE}", offset, "board-size"
        )
    return Geometry(width, height)


def _points(reader: _Reader, geometry: Geometry, prop: _Prop | None):
    """(point, offset) for every point of a point list, rectangles ``aa:cc`` expanded."""
    for text, offset in prop.values if prop else ():
        first, colon, last = text.partition(":")
        try:
            a = geometry.from_sgf(first)
            b = geometry.from_sgf(last) if colon else a
        except CoordinateError as err:
            raise reader.error(str(err), offset, "unknown-vertex") from None
        (x0, y0), (x1, y1) = geometry.xy(a), geometry.xy(b)
        for y in range(min(y0, y1), max(y0, y1) + 1):
            for x in range(min(x0, x1), max(x0, x1) + 1):
                yield geometry.point(x, y), offset


def _moves(reader: _Reader, geometry: Geometry, nodes) -> tuple[CaseAction, ...]:
    moves = []
    for node in nodes:
        played = [p for p in node if p.ident in ("B", "W")]
        if len(played) > 1:
            raise reader.error("a node with both B and W", played[1].offset)
        if not played:
            continue
        text, offset = _single(reader, played[0])
        location = reader.place(*_position(reader.text, offset))
        colour = played[0].ident
        if text == "" or (text == "tt" and geometry.width <= 19 and geometry.height <= 19):
            moves.append(CaseAction(colour, "pass", None, location))
            continue
        try:
            vertex = geometry.to_gtp(geometry.from_sgf(text))
        except CoordinateError as err:
            raise reader.error(str(err), offset, "unknown-vertex") from None
        moves.append(CaseAction(colour, "move", vertex, location))
    return tuple(moves)


def _player(reader: _Reader, prop: _Prop | None) -> str:
    if prop is None:
        return ""
    text, offset = _single(reader, prop)
    if text.strip() not in ("B", "W"):
        raise reader.error(f"PL[{text}] is not B or W", offset)
    return text.strip()


def _handicap(reader: _Reader, prop: _Prop | None) -> int:
    if prop is None:
        return 0
    text, offset = _single(reader, prop)
    if not text.strip().isdecimal() or len(text.strip()) > 3:
        raise reader.error(f"HA[{text}] is not a number", offset)
    n = int(text)
    if n in (0, 1):
        return 0
    if not 2 <= n <= 9:
        raise reader.error(f"a handicap is 2..9 stones, not {n}", offset, "bad-handicap")
    return n
