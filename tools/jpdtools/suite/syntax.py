"""The token-level values both parsers of the case DSL produce, and the lexical helpers they share.

The grammar of ``spec/case.lark`` is the one source of truth. :mod:`jpdtools.suite.grammar` parses
every text with it (Lark); :mod:`jpdtools.suite.quickparse` parses the plain shapes of the two
languages a command like ``jpd play`` needs — a board diagram and a move list — without importing
Lark, and yields exactly the values below, or nothing when a text is not of such a shape.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from jpdtools.errors import Location

Place = Callable[[int, int], Location]
"""Maps a 1-based (line, column) of an embedded text to its location in the case file."""

_MAX_DIGITS = 4000  # Python converts at most 4300 digits; longer numbers stand for 10**4000


class Token(Protocol):
    """A token of a parsed text: its text (``str(token)``) and where it starts (1-based). Lark's
    tokens are such; so are :class:`Tok`."""

    line: int | None
    column: int | None


class Tok(str):
    """A token of the hand-written parser: a string with a line and a column, like Lark's."""

    __slots__ = ("column", "line")

    def __new__(cls, text: str, line: int, column: int) -> "Tok":
        token = super().__new__(cls, text)
        token.line, token.column = line, column
        return token


@dataclass(frozen=True)
class Row:
    left: Token | None
    points: tuple[Token, ...]
    right: Token | None


@dataclass(frozen=True)
class RawDiagram:
    """A diagram as written, before its semantics are checked."""

    size: Token | None
    color: Token | None
    columns: tuple[Token, ...]
    rows: tuple[Row, ...]


def number(text: str) -> int:
    """A decimal number, exactly (a step numbered 99999999999999999999 is reported as that)."""
    return int(text) if len(text) <= _MAX_DIGITS else 10**_MAX_DIGITS


def normal_vertex(text: str) -> str:
    """``c03`` → ``C3`` (the lexical form only; the board is not consulted)."""
    return text[0].upper() + str(number(text[1:]))


def normal_rows(text: str) -> str:
    return text.replace("+", ".")
