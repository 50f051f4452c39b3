"""Board diagrams and move lists of the plain shapes, read without Lark. {#format.grammar}

``jpd play``, ``count`` and ``explain`` read one diagram and one move list; building the grammar's
parser would be most of their start-up. These two functions accept a subset of what the rules
``diagram`` and ``moves`` of ``spec/case.lark`` accept — lines of tokens separated by spaces or
tabs, comments, blank lines — and return exactly what :mod:`jpdtools.suite.grammar` returns for the
same text (the tests compare both on every text of the suite and on generated ones). Whatever
they do not recognise, errors included, they leave to the grammar (``None``): it remains the one
definition of the language, and the one place that words a syntax error.
"""

import re

from jpdtools.suite.setup import CaseAction
from jpdtools.suite.syntax import Place, RawDiagram, Row, Tok, normal_vertex

_WORD = re.compile(r"[^ \t]+")
_HEADER = re.compile(r"(\d+x\d+)(?:([ \t]+)([BW]))?")  # SIZE [COLOR]
_COLUMNS = re.compile(r"A(?:[ \t]+[B-HJ-Z])*")  # COLUMNS
_DIGITS = re.compile(r"\d+")  # NUMBER
_POINTS = re.compile(r"[XOxo.+a-np-wyz]+")  # POINT, one character each
_VERTEX = re.compile(r"[A-HJ-Za-hj-z]\d{1,2}")  # VERTEX (the look-ahead holds: a word ends it)
_MARKER = re.compile(r"@[a-np-wyz]")  # MARKER
_KINDS = {"virtual": "virtual", "pass": "pass", "resign": "resign"}


def _lines(text: str) -> list[tuple[int, str]] | None:
    """The non-blank line bodies (comments cut off), numbered from 1; None for a carriage return
    that does not end a line (the grammar's _NL is ``\\r?\\n``)."""
    out = []
    lines = text.split("\n")
    for n, line in enumerate(lines, 1):
        if n < len(lines):
            line = line.removesuffix("\r")  # a line break written \r\n
        if "\r" in line:
            return None
        body = line.partition("#")[0]  # COMMENT: /#[^\n]*/
        if body.strip(" \t"):
            out.append((n, body))
    return out


def _words(n: int, body: str) -> list[Tok]:
    return [Tok(m.group(), n, m.start() + 1) for m in _WORD.finditer(body)]


def diagram(text: str) -> RawDiagram | None:
    """The diagram as the grammar's ``diagram`` rule reads it, or None (left to the grammar)."""
    lines = _lines(text)
    if not lines:
        return None
    size = color = None
    columns: list[Tok] = []
    rows: list[Row] = []
    for i, (n, body) in enumerate(lines):
        start = len(body) - len(body.lstrip(" \t"))
        core = body.strip(" \t")
        header = _HEADER.fullmatch(core)
        if header is not None:
            if i != 0:
                return None
            size = Tok(header.group(1), n, start + 1)
            if header.group(3):
                color = Tok(header.group(3), n, start + 1 + header.start(3))
            continue
        if _COLUMNS.fullmatch(core):
            # once before the first row (first, or right after the header), once as the last line
            if (rows and i != len(lines) - 1) or (not rows and columns):
                return None
            columns.append(Tok(core, n, start + 1))
            continue
        row = _row(n, body)
        if row is None:
            return None
        rows.append(row)
    if not rows:
        return None
    return RawDiagram(size, color, tuple(columns), tuple(rows))


def _row(n: int, body: str) -> Row | None:
    """``[NUMBER] POINT+ [NUMBER]``: the points one token each, blanks between them or not."""
    words = _words(n, body)
    left = right = None
    if words and _DIGITS.fullmatch(words[0]):
        left = words.pop(0)
    if words and _DIGITS.fullmatch(words[-1]):
        right = words.pop()
    points: list[Tok] = []
    for word in words:
        if not _POINTS.fullmatch(word):
            return None
        points.extend(Tok(ch, n, word.column + k) for k, ch in enumerate(word))
    if not points:
        return None
    return Row(left, tuple(points), right)


def moves(text: str, place: Place) -> tuple[CaseAction, ...] | None:
    """The actions as the grammar's ``moves`` rule reads them, or None (left to the grammar)."""
    lines = _lines(text)
    if lines is None:
        return None
    actions = []
    for n, body in lines:
        words = _words(n, body)
        if len(words) % 2:
            return None  # an action's colour and target stand on one line
        for color, target in zip(words[::2], words[1::2], strict=True):
            if color not in ("B", "W"):
                return None
            where = place(n, target.column)  # the grammar's action is located at its target
            if target in _KINDS:
                actions.append(CaseAction(str(color), _KINDS[target], None, where))
            elif _VERTEX.fullmatch(target):
                actions.append(CaseAction(str(color), "move", normal_vertex(target), where))
            elif _MARKER.fullmatch(target):
                actions.append(CaseAction(str(color), "move", str(target), where))
            else:
                return None
    return tuple(actions)
