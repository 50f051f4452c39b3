"""The case DSL parsed with the grammar of ``spec/case.lark`` (Lark, LALR, positions propagated).

:class:`Grammar` holds one Lark parser with the grammar's start rules and turns a parse failure into
an :class:`InputError` naming what was found and what was expected, at the file location of the
offending token. The transformers only build values (:mod:`jpdtools.suite.syntax`,
:mod:`jpdtools.suite.model`); the checks of their meaning are :mod:`jpdtools.suite.dsl`'s. This is the
only module that imports Lark: a command that parses no case never pays for it.
"""

import contextlib
import dataclasses
import functools
import sys
from fractions import Fraction
from pathlib import Path

import lark
from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedInput, UnexpectedToken
from lark.grammar import Rule
from lark.lexer import TerminalDef

from jpdtools import diskcache
from jpdtools.diskcache import cache_dirs
from jpdtools.errors import InputError, Location
from jpdtools.paths import spec_file
from jpdtools.suite.model import (
    UNITS,
    Claim,
    CountClaim,
    CountVerdict,
    EndVerdict,
    PointVerdict,
    ProofVerdict,
    SettledVerdict,
    StepVerdict,
)
from jpdtools.suite.setup import CaseAction, CaseClaim
from jpdtools.suite.syntax import Place, RawDiagram, Row, normal_rows, normal_vertex, number

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


def grammar_path() -> Path:
    return spec_file("case.lark")


_OPTIONS = {
    "parser": "lalr",
    "propagate_positions": True,
    "maybe_placeholders": True,
    "start": ["diagram", "moves", "verdicts", "vertex_list", "agreement_claim"],
}


@functools.cache
def _parser(path: Path) -> Lark:
    try:
        grammar = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise InputError(f"cannot read the case grammar: {err}", Location(str(path))) from None
    dirs = cache_dirs()
    key = _parser_key(grammar)
    name = f"lark-{key.hex()}.entry"
    kept = dirs.find(name, key, frozenset())
    if isinstance(kept, dict):
        with contextlib.suppress(Exception):  # whatever a malformed table raises: build it again
            return Lark.__new__(Lark)._load(kept)
    parser = Lark(grammar, **_OPTIONS)
    data, memo = parser.memo_serialize([TerminalDef, Rule])
    dirs.store(name, {"data": data, "memo": memo}, key)
    return parser


def _parser_key(grammar: str) -> bytes:
    """The key of the analysed grammar's entry: the grammar, the options, Lark's and Python's versions.

    The analysed grammar (the LALR tables: 100 ms of a start that parses a case, 15 ms to read back)
    is kept as an entry of :mod:`jpdtools.diskcache` — sealed in the user's folder, and plain data
    only (dictionaries, lists, strings and numbers: the unpickler allows no class at all). Lark's own
    ``cache=`` option is not used: it unpickles its file before checking anything, so a file planted
    at its name would run code in the next command that parses a case."""
    return diskcache.key_of(
        b"lark tables",
        grammar.encode(),
        repr(sorted(_OPTIONS.items())).encode(),
        lark.__version__.encode(),
        repr(sys.version_info[:2]).encode(),
    )


_HERE = "\0here"
"""The path of a location inside a kept verdict text: placed by each reader of that text."""
_KEEP_TEXTS = 4096  # verdict texts kept per grammar, first kept first dropped
_KEEP_LENGTH = 4096  # characters: a longer verdict text is parsed anew each time


def _here(line: int, column: int) -> Location:
    return Location(_HERE, line, column)


def _placed(value, place: Place, seen: dict):
    """``value`` (a parsed verdict line, or a part of one) with each location inside its text
    (:data:`_HERE`) moved to where ``place`` puts it."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is tuple:
        return tuple([_placed(v, place, seen) for v in value])
    if kind is Location:
        if value.path != _HERE:
            return value
        key = (value.line, value.column)
        if key not in seen:
            seen[key] = place(*key)
        return seen[key]
    if isinstance(value, InputError):
        return InputError(value.message, _placed(value.location, place, seen), code=value.code)
    names = _fields_of(kind)
    if names is None:
        return value
    changes = {}
    for name in names:
        old = getattr(value, name)
        new = _placed(old, place, seen)
        if new is not old:
            changes[name] = new
    return dataclasses.replace(value, **changes) if changes else value


_PLAIN = frozenset({str, int, Fraction, type(None)})


@functools.cache
def _fields_of(kind: type) -> tuple[str, ...] | None:
    """The field names of a dataclass, None for any other type."""
    if not dataclasses.is_dataclass(kind):
        return None
    return tuple(f.name for f in dataclasses.fields(kind))


def _end_of(text: str) -> tuple[int, int]:
    """The position just after the last non-blank character of ``text`` (1-based)."""
    lines = text.rstrip().split("\n")
    return len(lines), len(lines[-1]) + 1


# -- transformers: build values only ----------------------------------------------------------
class _DiagramBuilder(Transformer):
    def header(self, children):
        return ("header", children[0], children[1])

    def row(self, children):
        return Row(children[0], tuple(children[1:-1]), children[-1])

    def diagram(self, children):
        header = children[0]
        columns = tuple(c for c in (children[1], children[-1]) if c is not None)
        rows = tuple(c for c in children[2:-1] if isinstance(c, Row))
        size, color = (header[1], header[2]) if header else (None, None)
        return RawDiagram(size, color, columns, rows)


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
        step, alternatives = children
        return StepVerdict(number(str(step)), alternatives, self.place(step.line, step.column))

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
        return ("settled", SettledVerdict(number(str(b)), number(str(w)), where))

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


class Grammar:
    """The parser of ``spec/case.lark`` (one per grammar file, built once)."""

    def __init__(self, grammar: Path | None = None) -> None:
        self._lark = _parser(grammar or grammar_path())
        self._verdicts: dict[str, tuple] = {}  # verdict text -> its lines, vertices and boards

    def parse(self, text: str, start: str, place: Place) -> Tree:
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

    # -- the start rules, as values -----------------------------------------------------------
    def raw_diagram(self, text: str, place: Place) -> RawDiagram:
        return _DiagramBuilder().transform(self.parse(text, "diagram", place))

    def moves(self, text: str, place: Place) -> tuple[CaseAction, ...]:
        return _MovesBuilder(place).transform(self.parse(text, "moves", place))

    def verdict_lines(self, text: str, place: Place) -> tuple[tuple, list, list]:
        """The verdict lines in written order, with the vertices and boards they name.

        A text is parsed once (the suite writes many verdict texts more than once): its lines are
        kept with locations inside the text, and each reading places them with its ``place``."""
        kept = self._verdicts.get(text)
        if kept is None:
            builder = _VerdictBuilder(_here)
            lines = builder.transform(self.parse(text, "verdicts", place))
            kept = lines, tuple(builder.vertices), tuple(builder.boards)
            if len(text) <= _KEEP_LENGTH:
                if len(self._verdicts) >= _KEEP_TEXTS:
                    del self._verdicts[next(iter(self._verdicts))]
                self._verdicts[str(text)] = kept
        lines, vertices, boards = _placed(kept, place, {})
        return lines, list(vertices), list(boards)

    def vertex_list(self, text: str, place: Place) -> tuple[tuple[str, Location], ...]:
        tree = self.parse(text, "vertex_list", place)
        out = []
        for token in tree.scan_values(lambda t: isinstance(t, Token)):
            word = str(token)
            vertex = word if word.startswith("@") else normal_vertex(word)
            out.append((vertex, place(token.line or 1, token.column or 1)))
        return tuple(out)

    def agreement_claim(self, text: str, place: Place) -> CaseClaim:
        tree = self.parse(text, "agreement_claim", place)
        color, kind, target = (t for t in tree.children if isinstance(t, Token))
        word = str(target)
        vertex = word if word.startswith("@") else normal_vertex(word)
        return CaseClaim(str(color), str(kind), vertex, place(target.line or 1, target.column or 1))
