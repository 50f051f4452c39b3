"""``jpd count``: count a final position under one ruleset or all of them, side by side. {#count.komi}

POSITION is a board diagram in the case format's syntax (``x``/``o`` are stones agreed dead) or
an SGF record (set-up and moves; ``TB``/``TW`` territory marks make the stones standing on the
other colour's territory dead, see :mod:`jpdtools.records.gamerecord`). Each ruleset counts by its own
method with its own komi (:func:`jpdref.counting.dispatch.count_for`). When moves are given
(``--moves``, or the SGF's) the game is played through the reference engine under each ruleset
and its counters are used; ``--counters`` replaces any of them.
"""

import argparse
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from jpdref.coords import CoordinateError, Geometry
from jpdref.counting import Agreement, Claim, ClaimKind, Count, CountingError, FinalPosition, make_counters
from jpdref.counting.dispatch import count_for
from jpdref.counting.explanation import num
from jpdref.game import Action, ActionKind, Game, Phase, Result
from jpdref.rules import PassRule, Rules
from jpdref.stones import BLACK, WHITE, Color

from jpdtools import table
from jpdtools.commands.options import add_lang_argument, add_rules_argument, rules_value, speaker
from jpdtools.commands.recordopts import add_komi_argument
from jpdtools.errors import InputError, Location
from jpdtools.presets import load_presets
from jpdtools.records.gamerecord import Marks, MarksError, Refusal, play_action, read_marks, replay_record
from jpdtools.records.sgf import GameRecord, parse_sgf_text, read_position_file
from jpdtools.records.verdict import with_record_komi
from jpdtools.run.reference_count import count_lines, counters_of
from jpdtools.suite.counting_keys import counter_value
from jpdtools.suite.dsl import Dsl
from jpdtools.suite.setup import COUNTER_PAIRS, CaseCounters

SIDES = ("first-pass", "last-move")
OPTION_KEYS = (*COUNTER_PAIRS, "handicap", *SIDES)  # --counters keys, in the order its help gives


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "position",
        metavar="POSITION",
        type=Path,
        help="a board diagram file (case-format syntax; x/o are stones agreed dead) or an SGF file "
        "(its TB/TW territory marks are the record's agreement: spec/counting.md#count.replay, rule 2)",
    )
    add_rules_argument(parser)
    for name, what in (
        ("dead", "stones agreed dead (a vertex stands for its chain)"),
        ("seki", "living stones in seki (a vertex stands for its chain)"),
        ("dame", "empty points agreed to be unfilled dame"),
        ("shared", "empty points agreed to be seki shared liberties"),
    ):
        parser.add_argument(f"--{name}", nargs="+", action="extend", default=[], metavar="V", help=what)
    add_komi_argument(parser)
    parser.add_argument(
        "--claim",
        action="append",
        default=[],
        metavar="CLAIM",
        help='a claim, e.g. "B ko E5" or "W one-sided F6"',
    )
    parser.add_argument(
        "--counters",
        default="",
        metavar="TEXT",
        help="counters replacing the game's, e.g. \"moves=140,140 prisoners=3,5 virtual=0,0 passes=0,0 "
        'first-pass=W last-move=B handicap=0 settling=0,0" (pairs are Black,White; prisoners are held)',
    )
    parser.add_argument(
        "--moves",
        default="",
        metavar="TEXT",
        help='moves to play (after the SGF\'s), e.g. "B C3 W pass B pass"; a pass is a virtual move '
        "under a ruleset without passes",
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    add_lang_argument(parser)


# -- the input ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Start:
    """What POSITION gives: a board and, for an SGF, the record to play."""

    geometry: Geometry
    stones: dict[int, Color]
    to_move: Color
    markers: dict[str, str] = field(default_factory=dict)
    dead: tuple[str, ...] = ()  # vertices marked x/o in the diagram
    record: GameRecord | None = None
    marks: Marks = field(default_factory=Marks)


def load_start(path: Path, dsl: Dsl | None = None) -> Start:
    """The diagram or SGF record in ``path``. Raises InputError naming line and column."""
    text, is_sgf = read_position_file(path)
    if is_sgf:
        rec = parse_sgf_text(text, str(path))
        marks = read_marks(text, str(path), rec.width, rec.height)
        return Start(
            Geometry(rec.width, rec.height), dict(rec.setup), rec.first_to_move, record=rec, marks=marks
        )
    diagram = (dsl or Dsl()).parse_diagram(text, lambda line, col: Location(str(path), line, col))
    geometry = Geometry(diagram.width, diagram.height)
    stones = {geometry.from_gtp(v): Color.parse(c) for v, c in diagram.stones}
    return Start(geometry, stones, Color.parse(diagram.to_move), dict(diagram.markers), diagram.dead)


def parse_counters(text: str, area: int) -> CaseCounters:
    """``key=value`` words: pairs ``B,W`` for moves/passes/virtual/prisoners/settling, a number
    for handicap, ``B``/``W``/``none`` for first-pass and last-move; checked as a case file's
    ``counters`` are (:func:`~jpdtools.suite.counting_keys.counter_value`), on a board of ``area``
    points."""
    out: dict[str, object] = {}
    for word in text.replace(";", " ").split():
        key, eq, value = word.partition("=")
        where = f"--counters {word!r}"
        if not eq or key not in OPTION_KEYS:
            raise InputError(f"{where}: expected key=value with a key of {', '.join(OPTION_KEYS)}")
        field_name = key.replace("-", "_")  # the CaseCounters field
        if field_name in out:
            raise InputError(f"{where}: {key} given twice")
        try:
            out[field_name] = counter_value(key, _counter_word(key, value), area)
        except ValueError as err:
            raise InputError(f"{where}: {err}") from None
    return CaseCounters(**out)


def _counter_word(key: str, value: str) -> object:
    """A ``--counters`` value as the YAML of a case file would give it (ints stay exact)."""

    def number(text: str) -> object:
        text = text.strip()
        return int(text) if text.isascii() and text.lstrip("-").isdigit() and len(text) < 30 else text

    if key in COUNTER_PAIRS:
        return tuple(number(x) for x in value.split(","))
    if key == "handicap":
        return number(value)
    return "none" if value.lower() == "none" else value.upper()


def parse_claim(text: str, geometry: Geometry) -> Claim:
    words = text.split()
    if len(words) != 3 or words[0].upper() not in ("B", "W") or words[1] not in ("ko", "one-sided"):
        raise InputError(f'--claim {text!r}: expected "B|W ko|one-sided VERTEX", e.g. "B ko E5"')
    try:
        point = geometry.from_gtp(words[2])
    except CoordinateError as err:
        raise InputError(f"--claim {text!r}: {err}") from None
    return Claim(ClaimKind(words[1]), Color.parse(words[0].upper()), point)


def parse_actions(text: str, start: Start, dsl: Dsl | None = None) -> list[Action]:
    """``--moves`` in the case format's move syntax (``@a`` names a diagram marker)."""
    out = []
    for ca in (dsl or Dsl()).parse_moves(text, lambda line, col: Location("--moves", line, col)):
        color = Color.parse(ca.color)
        if ca.kind == "move":
            vertex = ca.vertex or ""
            if vertex.startswith("@"):
                if vertex[1:] not in start.markers:
                    raise InputError(f"no marker {vertex[1:]!r} in the diagram", ca.location)
                vertex = start.markers[vertex[1:]]
            try:
                out.append(Action.move(color, start.geometry.from_gtp(vertex)))
            except CoordinateError as err:
                raise InputError(str(err), ca.location) from None
        else:
            out.append(
                {"virtual": Action.virtual, "pass": Action.pass_, "resign": Action.resign}[ca.kind](color)
            )
    return out


# -- one ruleset ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Row:
    """One ruleset's count (or why there is none)."""

    rules: Rules
    count: Count | None = None
    error: CountingError | None = None
    ended: str | None = None  # the game ended without a count (resignation, cycle, forfeit)
    ended_winner: str | None = None
    refusals: tuple[Refusal, ...] = ()

    @property
    def winner(self) -> str:
        if self.count is not None:
            return self.count.winner
        return self.ended_winner or "none"


@dataclass(frozen=True)
class Request:
    """Everything from the command line except the ruleset."""

    start: Start
    actions: tuple[Action, ...] = ()
    dead: tuple[str, ...] = ()
    seki: tuple[str, ...] = ()
    dame: tuple[str, ...] = ()
    shared: tuple[str, ...] = ()
    claims: tuple[Claim, ...] = ()
    counters: CaseCounters = field(default_factory=CaseCounters)


def play(rules: Rules, req: Request) -> tuple[Game | None, list[Refusal]]:
    """The game after the record and ``--moves`` under ``rules`` (None: nothing to play)."""
    start = req.start
    if start.record is None and not req.actions:
        return None, []
    if start.record is not None:
        replay = replay_record(rules, start.record)
        game, refusals, done = replay.game, list(replay.refusals), replay.actions
    else:
        game, refusals, done = Game.new(rules, start.geometry, start.stones, start.to_move), [], 0
    first = done + 1  # --moves are numbered after the record's own actions
    no_pass = rules.pass_rule is PassRule.FORBIDDEN
    for n, action in enumerate(req.actions, first):
        if no_pass and action.kind is ActionKind.PASS:
            action = Action.virtual(action.color)  # as in a game record (gamerecord.record_actions)
        refusal = play_action(game, n, action)
        if refusal is not None:
            refusals.append(refusal)
    return game, refusals


def final_position(req: Request, game: Game | None) -> FinalPosition:
    """The position to count (``game`` as played, else the start), with the agreement and the counters."""
    g = req.start.geometry
    stones = tuple(game.board.color) if game is not None else _board(g, req.start.stones)
    record = Agreement()
    if req.start.marks.present:
        try:
            record = req.start.marks.agreement(g, stones, req.start.record.path if req.start.record else "")
        except MarksError as err:
            raise InputError(str(err), code=err.code) from None
    for option, vertices in (("--dead", req.dead), ("--seki", req.seki)):
        for v in vertices:
            if not stones[g.from_gtp(v)]:
                raise InputError(f"{option} {v}: no stone on {v} (it names a chain of stones)")
    dead = {g.from_gtp(v) for v in (*req.start.dead, *req.dead)} | record.dead

    def points(vertices) -> frozenset[int]:
        return frozenset(g.from_gtp(v) for v in vertices)

    agreement = Agreement(
        frozenset(dead),
        points(req.seki) | record.seki,
        req.claims,
        points(req.dame),
        points(req.shared),
        record.black_owns,
        record.white_owns,
    )
    counters = counters_of(game.counters() if game is not None else make_counters(), req.counters)
    settling = req.counters.settling or (0, 0)
    return FinalPosition(g, stones, agreement, counters, settling)


def _board(g: Geometry, stones: dict[int, Color]) -> tuple[int, ...]:
    board = [0] * g.area
    for p, c in stones.items():
        board[p] = int(c)
    return tuple(board)


def count_row(rules: Rules, req: Request) -> Row:
    """Count the request under one ruleset."""
    game, played = play(rules, req)
    refusals = tuple(played)
    if game is not None and game.phase is Phase.ENDED and game.outcome is not None:
        out = game.outcome
        winner = {Result.WIN: out.winner.letter if out.winner else "none", Result.DRAW: "draw"}.get(
            out.result, "none"
        )
        return Row(rules, ended=out.describe(), ended_winner=winner, refusals=refusals)
    try:
        return Row(rules, count=count_for(rules, final_position(req, game)), refusals=refusals)
    except CountingError as err:
        return Row(rules, error=err, refusals=refusals)


# -- output ---------------------------------------------------------------------------------
def number(x: Fraction | int | None) -> float | int | None:
    """A figure for JSON: an int, or a float (every figure is a multiple of ¼, so exact)."""
    if x is None:
        return None
    x = Fraction(x)
    return x.numerator if x.denominator == 1 else float(x)


def side_json(fig) -> dict:
    return {"score": number(fig.score), "parts": {name: number(v) for name, v in fig.parts}}


def row_json(row: Row) -> dict:
    """One ruleset's result for ``--json``."""
    rules, c = row.rules, row.count
    out: dict = {
        "ruleset": rules.name,
        "method": str(rules.counting),
        "komi_rule": str(rules.komi),
        "winner": row.winner,
        "margin": None,
        "unit": None,
        "komi": None,
        "error": None,
        "ended": row.ended,
        "refused": [
            {
                "number": r.number,
                "color": r.action.color.letter,
                "action": r.vertex,
                "reason": r.reason,
                "effect": r.effect,
            }
            for r in row.refusals
        ],
    }
    if row.error is not None:
        out["error"] = {"code": row.error.code, "vertex": row.error.vertex, "message": str(row.error)}
    if c is None:
        return out
    owner = {None: "none", BLACK: "B", WHITE: "W"}
    out.update(
        margin=number(c.margin),
        margin_units=number(c.margin_units),
        unit=str(c.unit),
        komi={
            "points": number(c.komi.points),
            "black_wins_ties": c.komi.black_wins_ties,
            "reason": c.komi.reason,
        },
        black=side_json(c.black),
        white=side_json(c.white),
        par=number(c.par),
        steps=list(c.steps),
        board=c.render().split("\n"),
        points=[
            {"vertex": i.vertex, "owner": owner[i.owner], "why": str(i.why), "dead": i.dead} for i in c.points
        ],
    )
    return out


def table_row(row: Row) -> list[str]:
    c = row.count
    if c is None:
        why = f"refused: {row.error.code}" if row.error is not None else (row.ended or "no count")
        return [
            row.rules.name,
            str(row.rules.counting),
            "-",
            "-",
            "-",
            str(row.rules.komi),
            "-",
            f"{row.winner} ({why})",
        ]
    return [
        row.rules.name, str(c.method), str(c.unit), num(c.black.score), num(c.white.score),
        num(c.komi.points), num(c.margin), c.winner,
    ]  # fmt: skip


def explanation(row: Row) -> str:
    """One ruleset's count step by step, with the counted board."""
    c = row.count
    if c is None:
        lines = [f"{row.rules.name}: {row.rules.counting}, komi {row.rules.komi}"]
        lines.append(f"  no count: {row.error if row.error is not None else row.ended}")
        return "\n".join(lines)
    return "\n".join(count_lines(row.rules, c))


def refusal_notes(rows: list[Row]) -> list[str]:
    out = []
    for row in rows:
        for r in row.refusals:
            out.append(f"{row.rules.name}: {r.describe()}")
    return out


def make_request(args, start: Start, dsl: Dsl) -> Request:
    g = start.geometry
    for name in ("dead", "seki", "dame", "shared"):
        for v in getattr(args, name):
            try:
                g.from_gtp(v)
            except CoordinateError as err:
                raise InputError(f"--{name} {v!r}: {err}") from None
    return Request(
        start,
        tuple(parse_actions(args.moves, start, dsl)) if args.moves.strip() else (),
        tuple(args.dead),
        tuple(args.seki),
        tuple(args.dame),
        tuple(args.shared),
        tuple(parse_claim(c, g) for c in args.claim),
        parse_counters(args.counters, g.area),
    )


def run(args) -> int:
    dsl = Dsl()
    rulesets = load_presets().select(rules_value(args.rules))
    req = make_request(args, load_start(args.position, dsl), dsl)
    if args.komi == "record" and req.start.record is not None:
        rulesets = [with_record_komi(rules, req.start.record)[0] for rules in rulesets]
    rows = [count_row(rules, req) for rules in rulesets]
    if args.json:
        import json  # the imports of a command that prints a table are its start-up time

        print(json.dumps([row_json(r) for r in rows], ensure_ascii=False, indent=2))
        return 0
    headers = ["ruleset", "method", "unit", "black", "white", "komi", "margin", "winner"]
    line, cell = speaker(args.lang)
    cells = [[cell(c) for c in table_row(r)] for r in rows]
    print(table.render([cell(h) for h in headers], cells, table.terminal_width(args.wide)))
    notes = refusal_notes(rows)
    if notes:
        print("\n" + line("refused actions:") + "\n" + "\n".join(f"  {line(n)}" for n in notes))
    if len(rows) == 1:
        print("\n" + "\n".join(line(x) for x in explanation(rows[0]).split("\n")))
    return 0
