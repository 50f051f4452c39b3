"""A small SGF (FF[4]) reader for Go game records: the main line of the first game.

What it reads: the root properties ``SZ`` (``19`` or ``w:h``; 19 when absent), ``GM`` (must be
1), ``HA``, ``KM``, ``RU``, ``RE``; the set-up properties ``AB``/``AW``/``AE`` (compressed point
lists ``aa:cc`` included) and ``PL`` in the nodes before the first move; the moves ``B``/``W``,
where an empty value, or ``tt`` on a board of at most 19×19, is a pass. It follows the main line
(the first variation at every branch) of the first game tree of the collection and checks the
syntax of the whole file: text before the first game tree is skipped (as FF[3] readers did),
further game trees of a collection are checked and not read, and anything else after the first
game tree is an error.

The reader is linear in time and small in memory (one pass, no per-character regex state): a
file is read whole only when it is at most :data:`MAX_SGF_BYTES` (16 MiB); a larger one is an
error naming its size. :func:`read_sgf_file_text` is the one way the commands read an SGF file's
text (the size limit, then the charset: :func:`jpdtools.records.charset.decode_sgf`).

What it does not do: check that the moves are legal (that is the engine's job), read set-up
properties after the first move (a clear error), or keep any other property. Points are engine
points (``y * width + x``, ``aa`` = top-left = 0). Every error is an :class:`SgfError` naming the
file, line and column.
"""

import functools
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from jpdref.coords import MAX_SIZE, MIN_SIZE
from jpdref.stones import BLACK, WHITE, Color

from jpdtools.errors import InputError, Location
from jpdtools.records.charset import decode_sgf

SGF_POINT_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
DEFAULT_SIZE = 19
_SETUP = {"AB": BLACK, "AW": WHITE, "AE": None}
_MOVES = {"B": BLACK, "W": WHITE}

MAX_SGF_BYTES = 16 * 1024 * 1024
"""The largest SGF file (or embedded SGF text, in characters) the reader takes."""

_WS = re.compile(r"\s+")
_IDENT = re.compile(r"[A-Za-z]+")
# The common node of a game record, read in one step: one move, a value of at most two letters,
# followed by the next node, a variation or the end of the tree (nothing else in the node).
_MOVE_NODE = re.compile(r";\s*([BW])\s*\[([A-Za-z]{0,2})\]\s*(?=[;()])")
_START = re.compile(r"\(\s*;")
_SOFT_BREAK = re.compile(r"\\(?:\r\n|\n\r|\r|\n)")
_ESCAPE = re.compile(r"\\(.)", re.DOTALL)


class SgfError(InputError):
    """A file that is not an SGF game record this reader can use; names line and column.

    ``code`` is ``sgf-syntax``, or ``board-size`` / ``unknown-vertex`` for a size or a point
    the board does not have (spec/case-format.md#format.errors)."""

    def __init__(self, message: str, location: Location | None = None, code: str = "sgf-syntax") -> None:
        super().__init__(message, location, code=code)


@dataclass(frozen=True)
class GameRecord:
    """The main line of one game record, in engine terms.

    ``setup`` holds the stones on the board before the first move (AB/AW, less AE);
    ``moves`` holds ``(colour, point)`` pairs, with ``None`` for a pass.
    """

    width: int
    height: int
    setup: dict[int, Color] = field(default_factory=dict)
    to_move: Color | None = None
    handicap: int = 0
    komi: str | None = None
    ruleset: str | None = None
    result: str | None = None
    moves: tuple[tuple[Color, int | None], ...] = ()
    path: str = ""
    move_locations: tuple[Location, ...] = field(default=(), compare=False, repr=False)
    setup_locations: dict[int, Location] = field(default_factory=dict, compare=False, repr=False)
    handicap_location: Location | None = field(default=None, compare=False, repr=False)

    @property
    def first_to_move(self) -> Color:
        """PL if given, else the colour of the first move, else Black."""
        if self.to_move is not None:
            return self.to_move
        return self.moves[0][0] if self.moves else BLACK

    def alternating(self) -> tuple[tuple[Color, int | None], ...]:
        """The moves with a pass put in wherever one colour moves twice in a row.

        Records do that for a handicap played as moves (B, B, W, ...) or when a pass or a
        time-out was not written down; engines that check turns need the passes.
        """
        out: list[tuple[Color, int | None]] = []
        expected = self.first_to_move
        for color, point in self.moves:
            if color is not expected:
                out.append((expected, None))
            out.append((color, point))
            expected = color.opponent
        return tuple(out)


# -- syntax: the main line as a list of nodes --------------------------------------------------
# A node is a list of (identifier, [raw values], position of the identifier, [value positions]).
_Prop = tuple[str, list[str], int, list[int]]


Place = Callable[[int, int], Location]
"""Maps a 1-based line/column of the SGF text to a Location (e.g. inside a case file)."""


@dataclass(frozen=True)
class _Source:
    text: str
    path: str
    place: Place | None = None

    def locate(self, pos: int) -> Location:
        line = self.text.count("\n", 0, pos) + 1
        column = pos - (self.text.rfind("\n", 0, pos) + 1) + 1
        return self.place(line, column) if self.place else Location(self.path, line, column)

    def error(self, message: str, pos: int, code: str = "sgf-syntax") -> SgfError:
        return SgfError(message, self.locate(pos), code)


def _value_end(text: str, pos: int) -> int:
    """The index of the ``]`` closing the value opened at ``pos``, or -1: the first ``]`` not
    escaped, i.e. preceded by an even number of backslashes. Linear: every backslash is counted
    once, for the ``]`` right after its run."""
    j = pos + 1
    while True:
        k = text.find("]", j)
        if k < 0:
            return -1
        b = k - 1
        while b > pos and text[b] == "\\":
            b -= 1
        if (k - 1 - b) % 2 == 0:
            return k
        j = k + 1


def _main_line(src: _Source) -> list[list[_Prop]]:
    """The nodes of the main line of the first game tree; the syntax of the whole file is checked
    (text before the first tree is skipped; after it only more game trees may follow)."""
    text = src.text
    start = _START.search(text)
    if start is None:
        raise src.error("no game tree: expected '(;'", 0)
    nodes: list[list[_Prop]] = []
    # One entry per open game tree: [on the main line?, child trees seen, nodes seen].
    stack: list[list] = []
    node: list[_Prop] | None = None  # the current main-line node, or None
    ident = ""  # the property whose values are being read ("" when none)
    values = 0  # how many values ``ident`` has so far
    first_done = False  # the first game tree is closed
    pos, end = start.start(), len(text)
    while pos < end:
        c = text[pos]
        if c.isspace():
            pos = _WS.match(text, pos).end()
            continue
        if c == "[":
            close = _value_end(text, pos)
            if close < 0:
                raise src.error("property value not closed (expected ']')", pos)
            if not ident:
                raise src.error("property value without a property identifier", pos)
            values += 1
            if node is not None:
                prop = node[-1]
                prop[1].append(text[pos + 1 : close])
                prop[3].append(pos)
            pos = close + 1
            continue
        if first_done and not stack and c != "(":
            raise src.error(
                f"unexpected {c!r} after the game tree (expected another game tree or the end)", pos
            )
        if ident and not values:
            raise src.error(f"property {ident} has no value (expected '[')", pos)
        ident = ""
        if c.isascii() and c.isalpha():
            m = _IDENT.match(text, pos)
            word = m.group()
            if not stack or stack[-1][2] == 0 or stack[-1][1]:
                raise src.error(f"property {word!r} outside a node", pos)
            # FF[3] allowed lower-case letters inside identifiers; FF[4] readers drop them.
            name = "".join(ch for ch in word if ch.isupper())
            if not name:
                raise src.error(f"{word!r} is not a property identifier", pos)
            ident, values = name, 0
            if node is not None:
                if any(p[0] == name for p in node):
                    raise src.error(f"property {name} appears twice in one node", pos)
                node.append((name, [], pos, []))
            pos = m.end()
            continue
        if c == ";":
            if not stack or stack[-1][1]:
                raise src.error("a node after a variation (expected '(' or ')')", pos)
            top = stack[-1]
            top[2] += 1
            move = _MOVE_NODE.match(text, pos)
            if move is not None:  # whole nodes at once while they are plain moves (most of a record)
                main = top[0]
                while move is not None:
                    if main:
                        nodes.append([(move.group(1), [move.group(2)], move.start(1), [move.start(2) - 1])])
                    pos = move.end()
                    move = _MOVE_NODE.match(text, pos)
                    if move is not None:
                        top[2] += 1
                node = None
                continue
            node = [] if top[0] else None
            if node is not None:
                nodes.append(node)
        elif c == "(":
            main = not first_done
            if stack:
                parent = stack[-1]
                if parent[2] == 0:
                    raise src.error("a game tree must start with a node (';')", pos)
                main = parent[0] and parent[1] == 0
                parent[1] += 1
            stack.append([main, 0, 0])
            node = None
        elif c == ")":
            if not stack:
                raise src.error("')' closes no game tree", pos)
            if stack[-1][2] == 0:
                raise src.error("empty game tree (expected ';')", pos)
            stack.pop()
            node = None
            if not stack:
                first_done = True
        else:
            raise src.error(f"unexpected character {c!r}", pos)
        pos += 1
    if ident and not values:
        raise src.error(f"property {ident} has no value (expected '[')", len(text))
    if stack:
        message = "unexpected end of file: a game tree is not closed (expected ')')"
        raise src.error(message, len(text.rstrip()))
    return nodes


# -- semantics: properties into a GameRecord ---------------------------------------------------
def _text(raw: str) -> str:
    """A Text/SimpleText value: soft line breaks removed, escapes resolved."""
    if "\\" not in raw:
        return raw
    return _ESCAPE.sub(r"\1", _SOFT_BREAK.sub("", raw))


@functools.cache
def _board_points(width: int, height: int) -> dict[str, int]:
    """Every point of a board by its SGF name (``aa`` → 0), built once per size."""
    letters = SGF_POINT_LETTERS
    return {letters[x] + letters[y]: y * width + x for y in range(height) for x in range(width)}


@dataclass(frozen=True)
class _Decoder:
    src: _Source
    width: int
    height: int

    def point(self, raw: str, pos: int) -> int:
        if len(raw) != 2:
            raise self.src.error(f"{raw!r} is not an SGF point (expected two letters)", pos)
        x = SGF_POINT_LETTERS.find(raw[0])
        y = SGF_POINT_LETTERS.find(raw[1])
        if x < 0 or y < 0:
            raise self.src.error(f"{raw!r} is not an SGF point (expected two letters)", pos)
        if x >= self.width or y >= self.height:
            raise self.src.error(
                f"SGF point {raw!r} is off the {self.width}x{self.height} board", pos, "unknown-vertex"
            )
        return y * self.width + x

    def move(self, raw: str, pos: int) -> int | None:
        p = _board_points(self.width, self.height).get(raw)
        if p is not None:
            return p
        raw = raw.strip()
        if not raw or (raw == "tt" and self.width <= 19 and self.height <= 19):
            return None
        return self.point(raw, pos)

    def points(self, raw: str, pos: int) -> list[int]:
        """A point or a compressed rectangle ``aa:cc`` (corners in either order)."""
        raw = raw.strip()
        first, colon, last = raw.partition(":")
        if not colon:
            return [self.point(raw, pos)]
        ay, ax = divmod(self.point(first, pos), self.width)
        by, bx = divmod(self.point(last, pos), self.width)
        xs = range(min(ax, bx), max(ax, bx) + 1)
        ys = range(min(ay, by), max(ay, by) + 1)
        return [y * self.width + x for y in ys for x in xs]


def _size(src: _Source, root: list[_Prop]) -> tuple[int, int]:
    for name, values, _pos, vpos in root:
        if name != "SZ":
            continue
        raw = values[0].strip()
        w, colon, h = raw.partition(":")
        try:
            width, height = (int(w), int(h)) if colon else (int(raw), int(raw))
        except ValueError:
            raise src.error(f"SZ[{raw}] is not a board size", vpos[0]) from None
        for n in (width, height):
            if not MIN_SIZE <= n <= MAX_SIZE:
                raise src.error(
                    f"board size SZ[{raw}] is not supported (expected {MIN_SIZE}..{MAX_SIZE})",
                    vpos[0],
                    "board-size",
                )
        return width, height
    return DEFAULT_SIZE, DEFAULT_SIZE


def _root_value(root: list[_Prop], name: str) -> tuple[str, int] | None:
    for prop_name, values, _pos, vpos in root:
        if prop_name == name:
            return _text(values[0]).strip(), vpos[0]
    return None


def _record(src: _Source, nodes: list[list[_Prop]], locations: bool = True) -> GameRecord:
    root = nodes[0]
    gm = _root_value(root, "GM")
    if gm is not None and gm[0] != "1":
        raise src.error(f"GM[{gm[0]}] is not a game of Go (expected GM[1])", gm[1])
    width, height = _size(src, root)
    dec = _Decoder(src, width, height)
    setup: dict[int, Color] = {}
    to_move: Color | None = None
    moves: list[tuple[Color, int | None]] = []
    move_locations: list[Location] = []
    setup_locations: dict[int, Location] = {}
    for node in nodes:
        move_seen_here = False
        # A node's set-up is applied before its move, whatever the order of its properties.
        props = node if len(node) == 1 else sorted(node, key=lambda prop: prop[0] in _MOVES)
        for name, values, pos, vpos in props:
            color = _MOVES.get(name)
            if color is not None:
                if move_seen_here:
                    raise src.error("two moves in one node", pos)
                if len(values) != 1:
                    raise src.error(f"move {name} takes one value", vpos[1])
                move_seen_here = True
                moves.append((color, dec.move(values[0], vpos[0])))
                if locations:
                    move_locations.append(src.locate(vpos[0]))
            elif name in _SETUP or name == "PL":
                if moves:
                    raise src.error(f"set-up property {name} after the first move is not supported", pos)
                if name == "PL":
                    to_move = _player(src, values[0], vpos[0])
                    continue
                placed: set[int] = set()
                for raw, vp in zip(values, vpos, strict=True):
                    for p in dec.points(raw, vp):
                        if p in placed:
                            raise src.error(f"{name} names a point twice", vp)
                        placed.add(p)
                        stone = _SETUP[name]
                        if stone is None:
                            setup.pop(p, None)
                        else:
                            setup[p] = stone
                            if locations:
                                setup_locations[p] = src.locate(vp)
    ha = _root_value(root, "HA")
    handicap = 0
    if ha is not None and ha[0]:
        try:
            handicap = int(ha[0])
        except ValueError:
            raise src.error(f"HA[{ha[0]}] is not a number of stones", ha[1]) from None
    km, ru, re_ = (_root_value(root, n) for n in ("KM", "RU", "RE"))
    return GameRecord(
        width=width,
        height=height,
        setup=setup,
        to_move=to_move,
        handicap=handicap,
        komi=km[0] if km else None,
        ruleset=ru[0] if ru else None,
        result=re_[0] if re_ else None,
        moves=tuple(moves),
        path=src.path,
        move_locations=tuple(move_locations),
        setup_locations=setup_locations,
        handicap_location=src.locate(ha[1]) if ha is not None and locations else None,
    )


def _player(src: _Source, raw: str, pos: int) -> Color:
    try:
        return Color.parse(raw)
    except ValueError:
        raise src.error(f"PL[{raw}] is not a colour (expected B or W)", pos) from None


# -- entry points ------------------------------------------------------------------------------
def parse_sgf_text(
    text: str, path: str = "<sgf>", place: Place | None = None, *, locations: bool = True
) -> GameRecord:
    """The main line of the first game in ``text``. Raises SgfError naming line and column
    (through ``place`` when the SGF is embedded in another file). ``locations=False`` leaves out
    where each move and set-up stone stands in the text (``move_locations``, ``setup_locations``,
    ``handicap_location``), which only messages about a case's SGF need: a third of the time
    of reading a game record. Errors are located either way."""
    src = _Source(text, path, place)
    if len(text) > MAX_SGF_BYTES:
        message = f"the SGF text is {len(text):,} characters; the reader takes at most {MAX_SGF_BYTES:,}"
        raise src.error(message, 0)
    return _record(src, _main_line(src), locations)


def main_line_points(
    text: str, path: str, width: int, height: int, names: tuple[str, ...]
) -> list[dict[str, set[int]]]:
    """For every node of the main line of the first game in ``text``, the points of each of the
    point-list properties ``names`` (compressed lists included) on a ``width``×``height`` board;
    empty values name no point. Raises SgfError naming line and column."""
    src = _Source(text, path)
    dec = _Decoder(src, width, height)
    out = []
    for node in _main_line(src):
        found: dict[str, set[int]] = {name: set() for name in names}
        for name, values, _pos, vpos in node:
            if name in found:
                for raw, vp in zip(values, vpos, strict=True):
                    if raw.strip():
                        found[name].update(dec.points(raw, vp))
        out.append(found)
    return out


def read_sgf_bytes(path: Path | str) -> bytes:
    """The bytes of an SGF file (``-`` is standard input), at most :data:`MAX_SGF_BYTES`."""
    p = Path(path)
    try:
        if str(path) == "-":
            data = sys.stdin.buffer.read(MAX_SGF_BYTES + 1)
        else:
            with p.open("rb") as f:
                data = f.read(MAX_SGF_BYTES + 1)
    except OSError as err:
        raise SgfError(f"cannot read: {err.strerror or err}", Location(str(p))) from None
    if len(data) > MAX_SGF_BYTES:
        message = f"the file is larger than {MAX_SGF_BYTES:,} bytes, the most jpd reads of a position file"
        raise SgfError(message, Location(str(p)))
    return data


def read_sgf_file_text(path: Path | str) -> str:
    """The text of an SGF file as every command reads it (size limit, charset: see above)."""
    return decode_sgf(read_sgf_bytes(path), str(path))


def read_position_file(path: Path | str) -> tuple[str, bool]:
    """A position file as every command reads it: its text and whether it is SGF (its name ends
    in ``.sgf`` or its text starts with ``(``; decoded by its ``CA`` charset); anything else is a
    diagram and must be UTF-8. At most :data:`MAX_SGF_BYTES` either way."""
    data = read_sgf_bytes(path)
    if str(path).lower().endswith(".sgf") or data.lstrip().startswith(b"("):
        return decode_sgf(data, str(path)), True
    try:
        return data.decode("utf-8"), False
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        column = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        raise InputError("a diagram file must be UTF-8 text", Location(str(path), line, column)) from None


def read_sgf(path: Path | str) -> GameRecord:
    """Read an SGF file (:func:`read_sgf_file_text`). Raises SgfError."""
    return parse_sgf_text(read_sgf_file_text(path), str(path))
