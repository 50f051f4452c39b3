"""The ``sgf`` set-up of a case (and of ``jpd play``): an SGF record as a case set-up. {#format.case}

Parsing is :mod:`jpdtools.records.sgf`'s (one SGF reader for the whole project); this module only turns
its :class:`~jpdtools.records.sgf.GameRecord` into case values: set-up stones as GTP vertices, the moves
as ``history`` actions, ``PL`` (else the first move's colour, else Black), and ``HA``. ``HA``
counts only when the record places no black stones itself: the handicap is then placed as the
ruleset's ``handicap`` axis says. Errors have the codes of spec/case-format.md#format.errors and
the file location of the offending text.
"""

from dataclasses import dataclass

from jpdref.coords import Geometry

from jpdtools.errors import InputError
from jpdtools.records.sgf import Place, parse_sgf_text
from jpdtools.suite.dsl import dead_chain
from jpdtools.suite.setup import CaseAction

MAX_HANDICAP = 9


@dataclass(frozen=True)
class SgfSetup:
    width: int
    height: int
    to_move: str
    stones: tuple[tuple[str, str], ...]  # (GTP vertex, "B"/"W"), reading order
    handicap: int
    moves: tuple[CaseAction, ...]


def read_sgf(text: str, place: Place) -> SgfSetup:
    """The set-up and moves of the SGF ``text``. Raises InputError with a file location."""
    record = parse_sgf_text(text, "<sgf>", place)
    geometry = Geometry(record.width, record.height)
    stones = tuple((geometry.to_gtp(p), c.letter) for p, c in sorted(record.setup.items()))
    dead = dead_chain(geometry, stones)
    if dead is not None:
        where = record.setup_locations.get(geometry.from_gtp(dead))
        raise InputError(f"sgf: the chain at {dead} has no liberties", where, code="impossible-position")
    moves = tuple(
        CaseAction(c.letter, "pass", None, where)
        if p is None
        else CaseAction(c.letter, "move", geometry.to_gtp(p), where)
        for (c, p), where in zip(record.moves, record.move_locations, strict=True)
    )
    handicap = record.handicap if record.handicap > 1 else 0
    if not 0 <= handicap <= MAX_HANDICAP:
        raise InputError(
            f"sgf: a handicap is 2..{MAX_HANDICAP} stones, not {handicap}",
            record.handicap_location,
            code="bad-handicap",
        )
    if "B" in (c for _, c in stones):
        handicap = 0
    to_move = record.first_to_move.letter
    return SgfSetup(geometry.width, geometry.height, to_move, stones, handicap, moves)
