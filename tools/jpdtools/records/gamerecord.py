"""A game record refereed through the engine, and what it says about dead stones. {#count.replay}

:func:`replay_record` plays an SGF record's main line under one ruleset with the reference
engine: where the record's next move is not by the side the engine has to move, that side's
missing pass is put in first (a colour moving twice in a row in the record, or the turn of a
move the engine refused: each refusal is reported once, never again as an out-of-turn pass);
under a ruleset without passes every pass is a virtual move; a handicap game starts with the ruleset's
own handicap procedure when that puts the stones where the record has them (free placement:
Black places the AB stones one by one), and with the AB stones as set-up stones otherwise.

What a record says about dead stones (spec/counting.md#count.replay) is read by
:func:`read_marks`: the SGF territory marks ``TB``/``TW`` of the last node of the main line that
has any. A stone on a point marked as the *other* colour's territory is dead. No other property
(``MA``, ``DD``, ``CR``, ``TR``, ``SQ``) is read as a dead mark: SGF gives them no meaning for
life and death.
"""

import re
from dataclasses import dataclass

from jpdref.coords import Geometry
from jpdref.counting.agreement import Agreement
from jpdref.counting.regions import empty_regions
from jpdref.game import Action, Effect, Game, Phase
from jpdref.handicap import HandicapError, fixed_handicap_points
from jpdref.rules import HandicapPlacement, PassRule, Rules
from jpdref.stones import BLACK, EMPTY, WHITE, Color

from jpdtools.records.sgf import GameRecord, main_line_points


@dataclass(frozen=True)
class Marks:
    """The territory marks of a record: points marked Black's (TB) and White's (TW)."""

    black: frozenset[int] = frozenset()
    white: frozenset[int] = frozenset()

    @property
    def present(self) -> bool:
        return bool(self.black or self.white)

    def dead_stones(self, stones: tuple[int, ...] | list[int]) -> frozenset[int]:
        """Stones standing on the other colour's marked territory: white on TB, black on TW."""
        return frozenset(
            p
            for p, c in enumerate(stones)
            if (c == WHITE and p in self.black) or (c == BLACK and p in self.white)
        )

    def agreement(self, geometry: Geometry, stones: tuple[int, ...] | list[int], path: str = "") -> Agreement:
        """The record's agreement (spec/counting.md#count.replay, rule 2): dead stones, agreed
        owners of empty points, and seki where a territory-marking record leaves a one-colour
        region unmarked. Raises MarksError where the marks contradict the board."""
        board = tuple(stones)
        if both := self.black & self.white:
            p = min(both)
            raise MarksError(f"{path}: {geometry.to_gtp(p)} is marked both TB and TW", geometry.to_gtp(p))
        dead = self.dead_stones(board)
        living = tuple(EMPTY if p in dead else c for p, c in enumerate(board))
        black_owns = frozenset(p for p in self.black if living[p] == EMPTY)
        white_owns = frozenset(p for p in self.white if living[p] == EMPTY)
        marked = black_owns | white_owns
        territory_marks = any(board[p] == EMPTY for p in marked)  # not only dead stones are marked
        seki: set[int] = set()
        for region in empty_regions(geometry, living, frozenset()):
            for p in region.points:
                other = WHITE if p in black_owns else BLACK if p in white_owns else None
                if other is not None and region.borders == {other}:
                    v = geometry.to_gtp(p)
                    raise MarksError(
                        f"{path}: {v} is marked {'TB' if other is WHITE else 'TW'} in a region only "
                        f"{other.name.lower()} borders",
                        v,
                    )
            if territory_marks and len(region.borders) == 1 and not marked.intersection(region.points):
                for p in region.points:
                    seki.update(q for q in geometry.neighbours[p] if living[q] != EMPTY)
        return Agreement(dead=dead, seki=frozenset(seki), black_owns=black_owns, white_owns=white_owns)


class MarksError(ValueError):
    """Territory marks that contradict the board (a record error ``bad-marks``)."""

    code = "bad-marks"

    def __init__(self, message: str, vertex: str) -> None:
        super().__init__(message)
        self.vertex = vertex


def read_marks(text: str, path: str, width: int, height: int) -> Marks:
    """The TB/TW marks of the last node of the main line that carries any. Raises SgfError."""
    found = Marks()
    for marks in main_line_points(text, path, width, height, ("TB", "TW")):
        if marks["TB"] or marks["TW"]:
            found = Marks(frozenset(marks["TB"]), frozenset(marks["TW"]))
    return found


@dataclass(frozen=True)
class Refusal:
    """One action of the record the engine did not play as written."""

    number: int  # 1-based, in the replayed sequence (inserted passes included)
    action: Action
    vertex: str  # GTP vertex, or pass / virtual
    reason: str
    effect: str

    def describe(self) -> str:
        return (
            f"action {self.number} ({self.action.color.letter} {self.vertex}): {self.reason} -> {self.effect}"
        )


@dataclass(frozen=True)
class Replay:
    """A record played under one ruleset: the game after the last action and what was refused."""

    rules: Rules
    game: Game
    actions: int = 0
    sequence: tuple[Action, ...] = ()  # every action attempted, handicap placements first
    refusals: tuple[Refusal, ...] = ()
    stopped_at: int | None = None  # the action after which play halted or ended, if before the end


def start_game(rules: Rules, rec: GameRecord) -> tuple[Game, list[Action]]:
    """A new game for ``rec`` under ``rules``, and the handicap placements still to make."""
    geometry = Geometry(rec.width, rec.height)
    stones = dict(rec.setup)
    if rec.handicap >= 2 and len(stones) == rec.handicap and set(stones.values()) == {BLACK}:
        if rules.handicap is HandicapPlacement.FREE:
            game = Game.new(rules, geometry, handicap=rec.handicap)
            return game, [Action.move(BLACK, p) for p in stones]
        try:
            fixed = set(fixed_handicap_points(geometry, rec.handicap))
        except HandicapError:
            fixed = set()
        if fixed == set(stones):
            return Game.new(rules, geometry, handicap=rec.handicap), []
    return Game.new(rules, geometry, stones=stones, to_move=rec.first_to_move), []


def record_actions(rules: Rules, rec: GameRecord) -> list[Action]:
    """The record's moves as engine actions (passes put in; virtual moves where passing is forbidden)."""
    no_pass = rules.pass_rule is PassRule.FORBIDDEN
    out = []
    for color, point in rec.alternating():
        if point is not None:
            out.append(Action.move(color, point))
        else:
            out.append(Action.virtual(color) if no_pass else Action.pass_(color))
    return out


def play_action(game: Game, n: int, action: Action) -> Refusal | None:
    """Play ``action`` (the ``n``-th, 1-based) in ``game``; how it was refused, if it was not
    played as written."""
    step = game.play(action)
    if step.legal and step.effect is Effect.PLAYED:
        return None
    where = game.geometry.to_gtp(action.point) if action.point is not None else str(action.kind)
    return Refusal(n, action, where, str(step.reason), str(step.effect))


def replay_record(rules: Rules, rec: GameRecord) -> Replay:
    """Play ``rec`` from start to end under ``rules``; every refusal is kept, play goes on.

    The missing passes are put in as play goes, by the side the engine has to move: so after a
    refused move (the turn does not pass) the other side's next move is preceded by the refused
    side's pass, which the engine accepts, instead of being refused as out of turn."""
    game, placements = start_game(rules, rec)
    no_pass = rules.pass_rule is PassRule.FORBIDDEN
    sequence: list[Action] = []
    refusals: list[Refusal] = []
    stop: list[int] = []  # the action after which play halted or ended

    def attempt(action: Action) -> None:
        sequence.append(action)
        refusal = play_action(game, len(sequence), action)
        if refusal is not None:
            refusals.append(refusal)
        if game.phase in _STOPPED and not stop:
            stop.append(len(sequence))

    def passing(color: Color) -> Action:
        return Action.virtual(color) if no_pass else Action.pass_(color)

    for action in placements:
        attempt(action)
    for color, point in rec.moves:
        if game.phase is Phase.CONTEST and game.to_move is not color:
            attempt(passing(game.to_move))
        attempt(passing(color) if point is None else Action.move(color, point))
    stopped_at = stop[0] if stop and stop[0] < len(sequence) else None
    return Replay(rules, game, len(sequence), tuple(sequence), tuple(refusals), stopped_at)


_STOPPED = (Phase.HALTED, Phase.ENDED)


# -- how the record says the game ended ----------------------------------------------------------
_RE = re.compile(r"(?P<side>[BW])\+(?P<how>.*)", re.IGNORECASE)
_HOW = {"r": "resignation", "resign": "resignation", "t": "time", "time": "time", "f": "forfeit",
        "forfeit": "forfeit"}  # fmt: skip


@dataclass(frozen=True)
class RecordResult:
    """The record's RE property, read: ``kind`` is resignation | time | forfeit | score | draw |
    void | unknown | none; ``winner`` B/W when the record names one."""

    kind: str
    winner: Color | None = None
    text: str = ""

    @property
    def ended_without_count(self) -> bool:
        return self.kind in ("resignation", "time", "forfeit")


def record_result(rec: GameRecord) -> RecordResult:
    """What RE says: ``B+R`` resignation, ``W+T`` time, ``B+2.5`` a score, ``0`` a draw, …"""
    raw = (rec.result or "").strip()
    if not raw:
        return RecordResult("none")
    low = raw.lower()
    if low in ("0", "draw", "jigo", "d"):
        return RecordResult("draw", None, raw)
    if low in ("void", "?"):
        return RecordResult("void", None, raw)
    m = _RE.fullmatch(raw)
    if m is None:
        return RecordResult("unknown", None, raw)
    side = Color.parse(m.group("side").upper())
    how = m.group("how").strip().lower()
    if how in _HOW:
        return RecordResult(_HOW[how], side, raw)
    if re.fullmatch(r"[0-9]+(\.[0-9]*)?", how):
        return RecordResult("score", side, raw)
    return RecordResult("unknown", side, raw)


def ends_with_two_passes(rec: GameRecord) -> bool:
    """Whether the record's last two moves are passes (by different colours)."""
    tail = rec.moves[-2:]
    return len(tail) == 2 and all(p is None for _, p in tail) and tail[0][0] is not tail[1][0]
