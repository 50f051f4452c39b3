"""The three small languages of a case file, parsed with the grammar of ``spec/case.lark``.

:class:`Dsl` holds one Lark parser (LALR, positions propagated) with three start rules. Each
``parse_*`` method takes the embedded text and a *place* function mapping a 1-based line/column
of that text to a :class:`Location` in the case file (see :mod:`jpdtools.suite.srcmap`), and returns
frozen values. Every problem is an :class:`InputError` with an error code of
spec/case-format.md#format.errors and the file location of the offending token.
"""

import functools
import os
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from jpdref.board import Board, PositionError
from jpdref.coords import GTP_COLUMNS, MAX_SIZE, MIN_SIZE, Geometry
from jpdref.stones import BLACK, EMPTY, WHITE
from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from jpdtools.errors import InputError, Location
from jpdtools.paths import spec_file
from jpdtools.suite.model import (
    UNITS,
    CaseAction,
    CaseClaim,
    Claim,
    CountClaim,
    CountVerdict,
    EndVerdict,
    PointVerdict,
    ProofVerdict,
    SettledVerdict,
    SettleVerdicts,
    StepVerdict,
)

Place = Callable[[int, int], Location]
"""Maps a 1-based (line, column) of an embedded text to its location in the case file."""

_CODES = {
    "diagram": "diagram-syntax",
    "moves": "moves-syntax",
    "verdicts": "verdict-syntax",
    "vertex_list": "bad-agreement",
    "agreement_claim": "bad-agreement",
}
_WHAT = {
    "diagram": "board diagram",
    "moves": "move list",
    "verdicts": "verdict",
    "vertex_list": "agreement vertex list",
    "agreement_claim": "agreement claim",
}
_NAMES = {
    "POINT": "a point (X, O, ., + or a marker letter)",
    "NUMBER": "a number",
    "SIZE": "a size such as 9x9",
    "COLUMNS": "column labels (A B C …)",
    "COLOR": "a colour (B or W)",
    "VERTEX": "a vertex such as C3",
    "MARKER": "a marker such as @a",
    "REASON": "a reason code (occupied, off-board, out-of-turn, game-over, pass-not-allowed, "
    "virtual-not-allowed, handicap-placement, suicide, ko, superko)",
    "HALT": "two-passes, four-virtual or two-virtual",
    "SETTLE_ERROR": "a settling error code (not-halted, unfinished, ended, no-procedure, first-mover)",
    "CYCLE_RESULT": "draw or no-result",
    "BOARD_ROWS": "board rows such as .XO/X.O/...",
    "DECIMAL": "a number such as 3, -0.5 or 184.25",
    "UNIT": "a unit (点, 目, 子, 路, points, moku, stones or roads)",
    "COUNT_ERROR": "a counting error code (off-board, dead-on-empty, seki-on-empty, dead-and-seki, "
    "dead-in-own-area, claim-not-empty, claim-no-stone, claim-twice, claim-not-seki, claim-not-in-rules, "
    "override-not-mixed, owned-not-empty, owned-contradicts, owned-twice, overflow, "
    "no-boundary-stone, no-interior-stone, unequal-stones, no-first-pass)",
    "WHY": "a reason (stone, territory, eye, one-sided, claimed, shared, dame, filled, negative-a, "
    "negative-b, exchanged, basic-eye, road)",
    "CLAIM_KIND": "ko or one-sided",
    "COLON": "':'",
    "_NL": "a line break",
    "$END": "the end of the text",
}
_MAX_DIGITS = 4000  # Python converts at most 4300 digits; longer numbers stand for 10**4000


def grammar_path() -> Path:
    return spec_file("case.lark")


@functools.cache
def _parser(path: Path) -> Lark:
    try:
        grammar = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise InputError(f"cannot read the case grammar: {err}", Location(str(path))) from None
    return Lark(
        grammar,
        parser="lalr",
        propagate_positions=True,
        maybe_placeholders=True,
        start=["diagram", "moves", "verdicts", "vertex_list", "agreement_claim"],
        cache=_cache_file(),
    )


def _cache_file() -> str | bool:
    """Where Lark keeps the analysed grammar between processes (40 ms of every start): a file in
    the user's cache folder, which Lark rebuilds when the grammar, the options or the Lark
    version change (it checks a hash). ``False`` (no cache) when that folder cannot be made."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "jipingdian"
    try:
        base.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return str(base / f"case-grammar-py{sys.version_info[0]}{sys.version_info[1]}.lark")


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


@dataclass(frozen=True)
class Verdicts:
    """A parsed verdict text. ``vertices`` and ``boards`` list what the loader must check
    against the board, with where each was written."""

    steps: tuple[StepVerdict, ...]
    end: EndVerdict | None
    vertices: tuple[tuple[str, Location], ...] = ()
    boards: tuple[tuple[str, Location], ...] = ()
    count: CountVerdict | None = None
    points: tuple[PointVerdict, ...] = ()
    settle: SettleVerdicts = field(default_factory=SettleVerdicts)

    @property
    def text(self) -> str:
        """The canonical text of these verdicts (steps, ``end:``, the settling lines, ``count:``,
        ``point:`` lines)."""
        return verdict_text(self.steps, self.end, self.count, self.points, self.settle)


def verdict_text(steps, end, count=None, points=(), settle: SettleVerdicts | None = None) -> str:
    """One line per step, then ``end:``, the settling lines, ``count:`` and the ``point:`` lines."""
    lines = [str(s) for s in steps]
    lines += [str(end)] if end is not None else []
    lines += settle.lines() if settle is not None else []
    lines += [str(count)] if count is not None else []
    lines += [str(p) for p in points]
    return "\n".join(lines)


@dataclass(frozen=True)
class _Row:
    left: Token | None
    points: tuple[Token, ...]
    right: Token | None


@dataclass(frozen=True)
class _RawDiagram:
    size: Token | None
    color: Token | None
    columns: tuple[Token, ...]
    rows: tuple[_Row, ...]


def _int(text: str) -> int:
    """A decimal number, exactly (a step numbered 99999999999999999999 is reported as that)."""
    return int(text) if len(text) <= _MAX_DIGITS else 10**_MAX_DIGITS


def normal_vertex(text: str) -> str:
    """``c03`` → ``C3`` (the lexical form only; the board is not consulted)."""
    return text[0].upper() + str(_int(text[1:]))


def normal_rows(text: str) -> str:
    return text.replace("+", ".")


# -- transformers: build values only ----------------------------------------------------------
class _DiagramBuilder(Transformer):
    def header(self, children):
        return ("header", children[0], children[1])

    def row(self, children):
        return _Row(children[0], tuple(children[1:-1]), children[-1])

    def diagram(self, children):
        header = children[0]
        columns = tuple(c for c in (children[1], children[-1]) if c is not None)
        rows = tuple(c for c in children[2:-1] if isinstance(c, _Row))
        size, color = (header[1], header[2]) if header else (None, None)
        return _RawDiagram(size, color, columns, rows)


@v_args(meta=True)
class _MovesBuilder(Transformer):
    def __init__(self, place: Place) -> None:
        super().__init__()
        self.place = place

    def vertex(self, meta, children):
        return ("move", normal_vertex(str(children[0])), meta)

    def marker(self, meta, children):
        return ("move", str(children[0]), meta)

    def virtual(self, meta, children):
        return ("virtual", None, meta)

    def pass_(self, meta, children):
        return ("pass", None, meta)

    def resign(self, meta, children):
        return ("resign", None, meta)

    def action(self, meta, children):
        color, (kind, vertex, where) = children
        return CaseAction(str(color), kind, vertex, self.place(where.line, where.column))

    def moves(self, meta, children):
        return tuple(children)


@v_args(meta=True)
class _VerdictBuilder(Transformer):
    def __init__(self, place: Place) -> None:
        super().__init__()
        self.place = place
        self.vertices: list[tuple[str, Location]] = []
        self.boards: list[tuple[str, Location]] = []

    def _vertices(self, tokens) -> tuple[str, ...]:
        for t in tokens:
            self.vertices.append((normal_vertex(str(t)), self.place(t.line, t.column)))
        return tuple(sorted({normal_vertex(str(t)) for t in tokens}))

    def legal(self, meta, children):
        return Claim("legal")

    def illegal(self, meta, children):
        return Claim("illegal", (str(children[0]),))

    def void_pass(self, meta, children):
        return Claim("void-pass", (str(children[0]),))

    def forfeit(self, meta, children):
        return Claim("forfeit", (str(children[0]),))

    def captures(self, meta, children):
        return Claim("captures", self._vertices(children))

    def self_captures(self, meta, children):
        return Claim("self-captures", self._vertices(children))

    def to_move(self, meta, children):
        return Claim("to-move", (str(children[0]),))

    def board(self, meta, children):
        t = children[0]
        self.boards.append((normal_rows(str(t)), self.place(t.line, t.column)))
        return Claim("board", (normal_rows(str(t)),))

    def claims(self, meta, children):
        return tuple(children)

    def alternatives(self, meta, children):
        return tuple(children)

    def step_verdict(self, meta, children):
        number, alternatives = children
        return StepVerdict(_int(str(number)), alternatives, self.place(number.line, number.column))

    def end_verdict(self, meta, children):
        state, args = children[0]
        return EndVerdict(state, args, self.place(meta.line, meta.column))

    def contest(self, meta, children):
        return ("contest", (str(children[0]),))

    def halted(self, meta, children):
        return ("halted", (str(children[0]),))

    def resigned(self, meta, children):
        return ("ended", ("resignation", str(children[0])))

    def forfeited(self, meta, children):
        return ("ended", ("illegal-move", str(children[0])))

    def cycle(self, meta, children):
        return ("ended", ("cycle", str(children[0])))

    # -- counting -------------------------------------------------------------------------------
    def winner(self, meta, children):
        return str(children[0]) if children and children[0] is not None else "draw"

    def owner(self, meta, children):
        return str(children[0]) if children and children[0] is not None else "none"

    def figures(self, meta, children):
        return (Fraction(str(children[0])), Fraction(str(children[1])))

    def count_result(self, meta, children):
        winner, margin, figures, unit = children
        black, white = figures if figures is not None else (None, None)
        unit_text = UNITS[str(unit)] if unit is not None else None
        return CountClaim("result", winner, Fraction(str(margin)), black, white, unit_text)

    def count_error(self, meta, children):
        return CountClaim("error", code=str(children[0]))

    def count_verdict(self, meta, children):
        return CountVerdict(tuple(children), self.place(meta.line, meta.column))

    def point_verdict(self, meta, children):
        *tokens, owner, why = children
        self._vertices(tokens)
        vertices = tuple(normal_vertex(str(t)) for t in tokens)
        return PointVerdict(vertices, owner, str(why), self.place(meta.line, meta.column))

    # -- settling by play ({#format.settle}) ------------------------------------------------------
    def settle_step_verdict(self, meta, children):
        return ("settle-step", self.step_verdict(meta, children))

    def settle_end_verdict(self, meta, children):
        return ("settle-end", self.end_verdict(meta, children))

    def settle_error_verdict(self, meta, children):
        return ("settle-error", (str(children[0]), self.place(meta.line, meta.column)))

    def settled_verdict(self, meta, children):
        first, b, second, w = children
        where = self.place(meta.line, meta.column)
        if (str(first), str(second)) not in (("B", "W"), ("W", "B")):
            at = self.place(second.line, second.column)
            # raised by parse_verdicts: an exception here would come out wrapped in a VisitError
            message = "verdict: 'settled:' names B and W once each"
            return ("fail", InputError(message, at, code="verdict-syntax"))
        if str(first) == "W":
            b, w = w, b
        return ("settled", SettledVerdict(_int(str(b)), _int(str(w)), where))

    def proved_verdict(self, meta, children):
        kind, vertices, claim = children[0]
        return ("proved", ProofVerdict(kind, vertices, claim, self.place(meta.line, meta.column)))

    def proved_dead(self, meta, children):
        return ("dead", self._proved_vertices(children), None)

    def proved_alive(self, meta, children):
        return ("alive", self._proved_vertices(children), None)

    def _proved_vertices(self, tokens) -> tuple[str, ...]:
        self._vertices(tokens)
        return tuple(normal_vertex(str(t)) for t in tokens)

    def _proved_claim(self, kind: str, children):
        color, claim_kind, vertex = children
        self._vertices([vertex])
        where = self.place(vertex.line, vertex.column)
        return (kind, (), CaseClaim(str(color), str(claim_kind), normal_vertex(str(vertex)), where))

    def proved_upheld(self, meta, children):
        return self._proved_claim("upheld", children)

    def proved_rejected(self, meta, children):
        return self._proved_claim("rejected", children)

    def verdicts(self, meta, children):
        return tuple(children)


# -- the parser object ------------------------------------------------------------------------
class Dsl:
    """The case-file DSL: one Lark parser built from ``spec/case.lark`` (cached per path)."""

    def __init__(self, grammar: Path | None = None) -> None:
        self._lark = _parser(grammar or grammar_path())

    def _parse(self, text: str, start: str, place: Place) -> Tree:
        try:
            return self._lark.parse(text, start=start)
        except UnexpectedInput as err:
            raise self._syntax_error(err, text, start, place) from None
        except LarkError as err:  # a last resort: every parse error should be UnexpectedInput
            raise InputError(f"invalid {_WHAT[start]}: {err}", place(1, 1), code=_CODES[start]) from None

    def _syntax_error(self, err: UnexpectedInput, text: str, start: str, place: Place):
        what = _WHAT[start]
        if isinstance(err, UnexpectedCharacters):
            found = "end of line" if err.char in "\r\n" else repr(err.char)
            expected = err.allowed
            line, column = err.line, err.column
        elif isinstance(err, UnexpectedToken):
            token = err.token
            expected = err.expected
            if token.type == "$END":
                found = "end of text"
                line, column = _end_of(text)
            elif token.type == "_NL":
                found = "end of line"
                line, column = token.line, token.column
            else:
                found = repr(str(token))
                line, column = token.line, token.column
        else:
            found, expected = "input", set()
            line, column = getattr(err, "line", 1), getattr(err, "column", 1)
        names = sorted({self._name(n) for n in expected or ()})
        hint = f"; expected {', '.join(names)}" if names else ""
        line = line if isinstance(line, int) and line > 0 else 1
        column = column if isinstance(column, int) and column > 0 else 1
        return InputError(f"{what}: unexpected {found}{hint}", place(line, column), code=_CODES[start])

    def _name(self, terminal: str) -> str:
        if terminal in _NAMES:
            return _NAMES[terminal]
        try:
            return repr(self._lark.get_terminal(terminal).pattern.value)
        except KeyError:
            return terminal

    # -- public ------------------------------------------------------------------------------
    def parse_diagram(self, text: str, place: Place) -> Diagram:
        _check_diagram_size(text, place)
        raw = _DiagramBuilder().transform(self._parse(text, "diagram", place))
        return _check_diagram(raw, place)

    def parse_moves(self, text: str, place: Place) -> tuple[CaseAction, ...]:
        """Actions in order; a marker target is kept as ``vertex="@a"`` for the loader."""
        return _MovesBuilder(place).transform(self._parse(text, "moves", place))

    def parse_verdicts(self, text: str, place: Place) -> Verdicts:
        """Step verdicts in written order and the ``end:`` verdict. At most one line per step
        and one ``end:`` line."""
        builder = _VerdictBuilder(place)
        lines = builder.transform(self._parse(text, "verdicts", place))
        steps: list[StepVerdict] = []
        end: EndVerdict | None = None
        count: CountVerdict | None = None
        points: list[PointVerdict] = []
        seen: set[int] = set()
        settle = _SettleLines()
        for line in lines:
            if isinstance(line, tuple):
                settle.add(*line)
                continue
            if isinstance(line, CountVerdict):
                if count is not None:
                    raise InputError("verdict: a second 'count:' line", line.location, code="verdict-syntax")
                count = line
                continue
            if isinstance(line, PointVerdict):
                _check_point(line, points)
                points.append(line)
                continue
            if isinstance(line, EndVerdict):
                if end is not None:
                    raise InputError("verdict: a second 'end:' line", line.location, code="verdict-syntax")
                end = line
                continue
            if line.step in seen:
                raise InputError(
                    f"verdict: a second line for step {line.step} (put all claims on one line)",
                    line.location,
                    code="verdict-syntax",
                )
            seen.add(line.step)
            steps.append(line)
        return Verdicts(
            tuple(steps),
            end,
            tuple(builder.vertices),
            tuple(builder.boards),
            count,
            tuple(points),
            settle.verdicts(),
        )

    def parse_vertex_list(self, text: str, place: Place) -> tuple[tuple[str, Location], ...]:
        """The vertices (``C3``, normalised) and markers (``@a``) of an agreement list, each
        with where it was written."""
        tree = self._parse(text, "vertex_list", place)
        out = []
        for token in tree.scan_values(lambda t: isinstance(t, Token)):
            word = str(token)
            vertex = word if word.startswith("@") else normal_vertex(word)
            out.append((vertex, place(token.line or 1, token.column or 1)))
        return tuple(out)

    def parse_agreement_claim(self, text: str, place: Place) -> CaseClaim:
        """One claim ``B ko E5`` (the vertex may be a marker ``@a``, kept for the loader)."""
        tree = self._parse(text, "agreement_claim", place)
        color, kind, target = (t for t in tree.children if isinstance(t, Token))
        word = str(target)
        vertex = word if word.startswith("@") else normal_vertex(word)
        return CaseClaim(str(color), str(kind), vertex, place(target.line or 1, target.column or 1))


class _SettleLines:
    """Collects the settling lines of one verdict text: at most one line per settling step, one
    ``settle-end:``, one ``settled:`` and one ``settle:`` line; a vertex in at most one
    ``proved: dead|alive`` line and a claim in at most one ``proved: upheld|rejected`` line."""

    def __init__(self) -> None:
        self.steps: list[StepVerdict] = []
        self.end: EndVerdict | None = None
        self.settled: SettledVerdict | None = None
        self.proved: list[ProofVerdict] = []
        self.error: tuple[str, Location] | None = None

    @staticmethod
    def _twice(what: str, where: Location | None) -> InputError:
        return InputError(f"verdict: a second {what}", where, code="verdict-syntax")

    def add(self, kind: str, value) -> None:
        if kind == "fail":
            raise value
        if kind == "settle-step":
            if any(s.step == value.step for s in self.steps):
                raise self._twice(f"line for settling step {value.step}", value.location)
            self.steps.append(value)
        elif kind == "settle-end":
            if self.end is not None:
                raise self._twice("'settle-end:' line", value.location)
            self.end = value
        elif kind == "settled":
            if self.settled is not None:
                raise self._twice("'settled:' line", value.location)
            self.settled = value
        elif kind == "settle-error":
            if self.error is not None:
                raise self._twice("'settle:' line", value[1])
            self.error = value
        else:
            self._check_proved(value)
            self.proved.append(value)

    def _check_proved(self, line: ProofVerdict) -> None:
        vertices = [v for p in self.proved for v in p.vertices]
        for vertex in line.vertices:
            if vertex in vertices:
                message = f"verdict: {vertex} is named twice in 'proved:' lines"
                raise InputError(message, line.location, code="verdict-syntax")
            vertices.append(vertex)
        if line.claim is not None:
            same = (line.claim.color, line.claim.kind, line.claim.vertex)
            if any(p.claim and (p.claim.color, p.claim.kind, p.claim.vertex) == same for p in self.proved):
                raise self._twice(f"'proved:' line for the claim {line.claim}", line.location)

    def verdicts(self) -> SettleVerdicts:
        code, where = self.error if self.error is not None else (None, None)
        return SettleVerdicts(tuple(self.steps), self.end, self.settled, tuple(self.proved), code, where)


def _check_point(line: PointVerdict, earlier: list[PointVerdict]) -> None:
    """A vertex may appear in one ``point:`` line once."""
    seen = {v for p in earlier for v in p.vertices}
    mine: set[str] = set()
    for vertex in line.vertices:
        if vertex in seen or vertex in mine:
            raise InputError(
                f"verdict: point {vertex} is named twice in 'point:' lines",
                line.location,
                code="verdict-syntax",
            )
        mine.add(vertex)


def _end_of(text: str) -> tuple[int, int]:
    """The position just after the last non-blank character of ``text`` (1-based)."""
    lines = text.rstrip().split("\n")
    return len(lines), len(lines[-1]) + 1


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


def _check_diagram(raw: _RawDiagram, place: Place) -> Diagram:
    def fail(code: str, message: str, token: Token) -> InputError:
        return InputError(f"board diagram: {message}", _at(place, token), code=code)

    rows = raw.rows
    if raw.size is not None:
        w_text, _, h_text = str(raw.size).partition("x")
        sw, sh = _int(w_text), _int(h_text)
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
        for number in (row.left, row.right):
            if number is not None and _int(str(number)) != height - i:
                raise fail(
                    "diagram-shape",
                    f"row number {number} should be {height - i} (rows count down to 1)",
                    number,
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


def _first(raw: _RawDiagram) -> Token:
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
