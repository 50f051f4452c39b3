"""The play phase as a state machine: from the set-up board to the halt. {#play.phases}

Phases (``Phase``):

* ``handicap`` — Black is placing free handicap stones (only ``move`` actions by Black);
* ``contest`` — 争棋阶段: the players alternate real moves, virtual moves and passes;
* ``halted`` — play has halted (two passes, four virtual moves; two virtual moves in a settling
  stage): the position goes to counting; only a resignation is still taken, and only under
  ``resignation: until-counted`` (a halt is a pause, 休止, not the end, {#turn.resign});
* ``ended`` — the game is over without counting (resignation, a cycle, a forfeit).

A halted game can be *continued* ({#count.settling}): :meth:`Game.continuation` starts a new
game from its global position for settling a dispute by play (实战解决), as a ``Stage.TEST``
(jpd-art-2008's independent test) or a ``Stage.SETTLING`` continuation (jpd-art-2, jpd-2022),
with the history reset or carried over and the stage's moves counted apart. The halted game is
never changed; with ``virtual_for_pass`` (jpd-art-2) passes are refused, virtual moves stand
for passes and two consecutive virtual moves halt the stage.

:meth:`Game.play` is the only way to change a game. It never raises for a well-formed
:class:`Action`; every refusal is a :class:`Step` with ``legal=False`` and a :class:`Reason`.
What a rule violation costs depends on the ruleset's illegal-move policy {#play.illegal}:
``refuse`` leaves the game as it was, ``void-pass`` turns the attempt into a pass, ``loss`` ends
the game against the player who attempted it.

The game owns everything the board does not know: whose turn it is, the simple-ko point, the
history of positions each repetition rule compares (exact positions filed under their Zobrist
hashes: the hash finds a candidate, the exact position decides, {#rep.hashing}), virtual stones,
prisoners and the counters that counting needs.
"""

import copy
from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar, NamedTuple

from jpdref.board import Board
from jpdref.coords import Geometry
from jpdref.handicap import HandicapError, fixed_handicap_points
from jpdref.history import History
from jpdref.reasons import Reason
from jpdref.rules import (
    Cycle,
    Halt,
    HandicapPlacement,
    IllegalMove,
    OutOfTurn,
    PassRule,
    Position,
    Repetition,
    Resignation,
    Rules,
    Suicide,
    VirtualMove,
)
from jpdref.stones import BLACK, EMPTY, WHITE, Color
from jpdref.zobrist import TO_MOVE_KEY, virtual_key


class Phase(StrEnum):
    HANDICAP = "handicap"
    CONTEST = "contest"
    HALTED = "halted"
    ENDED = "ended"


class Stage(StrEnum):
    """{#count.settling} Which part of a game a :class:`Game` object plays."""

    PLAY = "play"  # the play phase from the set-up board (争棋阶段)
    TEST = "test"  # jpd-art-2008: an independent test from the halt position (实战检验)
    SETTLING = "settling"  # jpd-art-2, jpd-2022: play continues after the halt (实战解决)


class ActionKind(StrEnum):
    """{#turn.actions} What a player may do on their turn."""

    MOVE = "move"  # 实着: a stone on an empty point
    VIRTUAL = "virtual"  # 虚着: a stone put off the board
    PASS = "pass"  # 放弃
    RESIGN = "resign"  # 认输


@dataclass(frozen=True, slots=True)
class Action:
    kind: ActionKind
    color: Color
    point: int | None = None

    @classmethod
    def move(cls, color: Color, point: int) -> "Action":
        return cls(ActionKind.MOVE, color, point)

    @classmethod
    def virtual(cls, color: Color) -> "Action":
        return cls(ActionKind.VIRTUAL, color)

    @classmethod
    def pass_(cls, color: Color) -> "Action":
        return cls(ActionKind.PASS, color)

    @classmethod
    def resign(cls, color: Color) -> "Action":
        return cls(ActionKind.RESIGN, color)


class EndKind(StrEnum):
    """{#end.kinds} How the play phase stopped."""

    TWO_PASSES = "two-passes"  # halted: 两弃停止
    FOUR_VIRTUAL = "four-virtual"  # halted: 四虚终局
    TWO_VIRTUAL = "two-virtual"  # halted: 连续两虚, jpd-art-2's settling stage (004 实战解决)
    RESIGNATION = "resignation"  # ended: 认输
    CYCLE = "cycle"  # ended: a whole position recurred under simple ko
    ILLEGAL_MOVE = "illegal-move"  # ended: forfeit under the illegal-move policy ``loss``


class Result(StrEnum):
    TO_COUNT = "to-count"  # halted: the result is decided by counting
    WIN = "win"
    DRAW = "draw"
    NO_RESULT = "no-result"


@dataclass(frozen=True, slots=True)
class Outcome:
    kind: EndKind
    result: Result
    winner: Color | None = None

    def describe(self) -> str:
        if self.result is Result.WIN and self.winner is not None:
            return f"{self.winner.letter}+ ({self.kind})"
        return f"{self.result} ({self.kind})"


class Effect(StrEnum):
    """What an action did to the game."""

    PLAYED = "played"  # accepted and made
    REFUSED = "refused"  # not made; the game is as it was
    VOID_PASS = "void-pass"  # refused, and counted as a pass by the player who attempted it
    FORFEIT = "forfeit"  # refused, and the player who attempted it lost


class Step(NamedTuple):
    """The verdict on one action."""

    action: Action
    legal: bool
    effect: Effect
    reason: Reason | None = None
    captures: tuple[int, ...] = ()  # opponent stones removed by the move
    self_captures: tuple[int, ...] = ()  # own stones removed by a suicide (自尽)
    outcome: Outcome | None = None  # set when this step halted or ended the play phase


@dataclass(frozen=True, slots=True)
class Counters:
    """What counting needs to know about the play phase (snapshot). {#play.counters}"""

    moves: dict[str, int]  # e.g. {"B-move": 140, "W-virtual": 1, "B-pass": 2, ...}
    prisoners: dict[str, int]  # stones each side holds: {"B": white stones held, "W": ...}
    virtual_stones: dict[str, int]  # virtual-move stones each side has put off the board
    handicap_stones: int
    # the first pass or virtual move that decides the A-version komi: when play halted by 四虚终局,
    # the first virtual move after the last real move (the first of the final run: the side that
    # did not make the last real move, OQ-44), else the first of the game
    first_to_pass: Color | None
    last_real_move: Color | None  # 收后方: who made the last real move


_NO_POINT = -1
# Enum members as module constants: an attribute lookup on an Enum class costs ~10x a global.
_HANDICAP, _HALTED, _ENDED = Phase.HANDICAP, Phase.HALTED, Phase.ENDED
_PLAY = Stage.PLAY
_MOVE, _VIRTUAL, _RESIGN = ActionKind.MOVE, ActionKind.VIRTUAL, ActionKind.RESIGN
_PLAYED = Effect.PLAYED
_SIMPLE_KO, _POSITIONAL, _NO_RETREAT = (
    Repetition.SIMPLE_KO,
    Repetition.POSITIONAL,
    Repetition.NO_RETREAT,
)
_GLOBAL = Position.GLOBAL
_SUICIDE_FORBIDDEN, _SUICIDE_MULTI_ONLY = Suicide.FORBIDDEN, Suicide.MULTI_ONLY
_FOUR_VIRTUAL = Halt.FOUR_VIRTUAL
_OOT_LOSS = OutOfTurn.LOSS
_UNTIL_COUNTED = Resignation.UNTIL_COUNTED
_OPPONENT = {BLACK: WHITE, WHITE: BLACK}
_new = tuple.__new__  # builds a Step without the NamedTuple's Python-level ``__new__`` (hot path)
_FACING = {BLACK: b"B", WHITE: b"W"}  # the side to move, in an exact position ({#rep.hashing})


@dataclass
class Game:
    """A game in progress. Create with :meth:`Game.new`; change only with :meth:`play`."""

    rules: Rules
    board: Board
    to_move: Color
    phase: Phase = Phase.CONTEST
    outcome: Outcome | None = None
    ko_point: int = _NO_POINT
    handicap_left: int = 0
    handicap_stones: int = 0
    consecutive_passes: int = 0
    virtual_stones: dict[Color, int] = field(default_factory=lambda: {BLACK: 0, WHITE: 0})
    virtual_offset: int = 0  # the virtual stones' part of the global position's hash
    prisoners: dict[Color, int] = field(default_factory=lambda: {BLACK: 0, WHITE: 0})
    moves: dict[tuple[Color, ActionKind], int] = field(default_factory=dict)
    first_to_pass: Color | None = None
    last_real_move: Color | None = None
    moved_last: Color | None = None  # the side whose real move was the last action ({#play.turn})
    seen: History = field(default_factory=History)  # what the repetition rule compares
    seen_board: History = field(default_factory=History)  # no-retreat: (board, side to move)
    # Every change of the board, in order: ``point << 2 | colour`` for a stone that removed
    # nothing, else (point, colour, captured, self-captured). The history names an earlier board
    # by how many changes it had; undoing the later ones rebuilds it ({#rep.hashing}).
    changes: list[int | tuple[int, int, tuple[int, ...], tuple[int, ...]]] = field(default_factory=list)
    virtual_under_board: dict[bytes, int] = field(default_factory=dict)  # four-virtual, by board
    # simple ko: how many times each recurring (position, side to move) has occurred ({#end.cycle});
    # a position enters only when it recurs, so nothing is stored for positions met once
    occurrences: dict[bytes, int] = field(default_factory=dict)
    # who made the first virtual move since the last real move (the first of the current run of
    # virtual moves), and at a four-virtual halt the first of the final run ({#play.counters}, OQ-44)
    run_first: Color | None = None
    final_run_first: Color | None = None
    record: list[Action] = field(default_factory=list)
    # -- settling by play ({#count.settling}); the defaults are the play phase's ----------------
    stage: Stage = Stage.PLAY
    virtual_for_pass: bool = False  # jpd-art-2's settling: 以虚着表示放弃 (004 实战解决(2))
    settling_first: Color | None = None  # who moved first in this stage
    settling_moves: dict[tuple[Color, ActionKind], int] = field(default_factory=dict)
    consecutive_virtual: int = 0

    # -- creation ----------------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        rules: Rules,
        geometry: Geometry,
        stones: dict[int, Color] | None = None,
        to_move: Color = BLACK,
        handicap: int = 0,
    ) -> "Game":
        """A game on a set-up board. {#setup.position} {#setup.handicap}

        ``stones`` are set-up stones (they are not moves). A ``handicap`` of 2 or more puts
        Black's handicap stones on the traditional points (``handicap: fixed``) or lets Black
        place them one by one as ``move`` actions (``handicap: free``); White moves next.
        Raises PositionError/HandicapError for a set-up that cannot be played.
        """
        board = Board.from_stones(geometry, stones or {})
        game = cls(rules=rules, board=board, to_move=to_move)
        if handicap == 1 or handicap < 0:
            raise HandicapError(f"a handicap is 0 or 2..9 stones, not {handicap}")
        if handicap:
            if stones:
                raise HandicapError("handicap stones go on an empty board")
            if rules.handicap is HandicapPlacement.FIXED:
                points = fixed_handicap_points(geometry, handicap)
                game.board = Board.from_stones(geometry, dict.fromkeys(points, BLACK))
                game.handicap_stones = handicap
                game.to_move = WHITE
            else:
                if handicap > geometry.area - 1:
                    raise HandicapError(f"{handicap} stones do not fit on {geometry.label}")
                game.phase = Phase.HANDICAP
                game.handicap_left = handicap
                game.to_move = BLACK
        game._remember()
        return game

    def continuation(
        self,
        stage: Stage,
        to_move: Color | None = None,
        reset_history: bool = True,
        virtual_for_pass: bool = False,
        rules: Rules | None = None,
    ) -> "Game":
        """A new game that starts from this halted game's global position. {#count.settling}

        ``Stage.TEST`` (001 第十三条) copies the position only — board and virtual stones — with
        fresh counters and record; ``Stage.SETTLING`` (004 实战解决(1), 000 §28) carries the
        counters and the record on. ``reset_history`` forgets every earlier position (the halt
        position is the first of the new history); otherwise the history continues. The moves
        of the new stage are also counted apart (:meth:`stage_moves`). ``to_move`` defaults to
        the side to move at the halt (轮走方). This game is not changed.
        """
        if self.phase is not _HALTED:
            raise ValueError(f"only a halted game can be continued (this one is {self.phase})")
        first = to_move or self.to_move
        game = Game(
            rules=rules or self.rules,
            board=Board.from_stones(self.geometry, self.board.stones()),
            to_move=first,
            virtual_stones=dict(self.virtual_stones),
            virtual_offset=self.virtual_offset,
            stage=stage,
            virtual_for_pass=virtual_for_pass,
            settling_first=first,
        )
        if stage is not Stage.TEST:
            game.handicap_stones = self.handicap_stones
            game.prisoners = dict(self.prisoners)
            game.moves = dict(self.moves)
            game.first_to_pass, game.last_real_move = self.first_to_pass, self.last_real_move
            game.run_first = self.run_first  # a run of virtual moves goes on across the halt
            game.record = list(self.record)
        if not reset_history:
            game.seen, game.seen_board = self.seen.copy(), self.seen_board.copy()
            game.changes = list(self.changes)
            game.virtual_under_board = dict(self.virtual_under_board)
            game.occurrences = dict(self.occurrences)
        game._remember()  # the halt position, facing the first mover, is in the stage's history
        return game

    _CONTAINERS: ClassVar[tuple[str, ...]] = (
        "board", "virtual_stones", "prisoners", "moves", "seen", "seen_board", "changes",
        "virtual_under_board", "occurrences", "record", "settling_moves",
    )  # fmt: skip
    """The fields that hold a container (a board, a history, a dict or a list): :meth:`copy`
    copies each of them; every other field holds an immutable value."""

    def copy(self) -> "Game":
        """An independent copy of this game: playing on one changes nothing in the other (a search
        tries each move on a copy). Every container field (:attr:`_CONTAINERS`) is copied one level
        deep (their items are immutable: ints, bytes, tuples, frozen actions); the board copies its
        chains. A shallow copy of the instance first: a search copies a game at every node, and
        dataclasses.replace would run the constructor again."""
        other = copy.copy(self)
        for name in self._CONTAINERS:
            setattr(other, name, getattr(self, name).copy())
        return other

    @property
    def geometry(self) -> Geometry:
        return self.board.geometry

    # -- positions ({#rep.hashing}) ----------------------------------------------------------
    @staticmethod
    def _virtual_offset(virtual: dict[Color, int]) -> int:
        """What the virtual stones add to a board hash to make the global position's (全局棋形)."""
        return virtual_key(BLACK, virtual[BLACK]) ^ virtual_key(WHITE, virtual[WHITE])

    def _compared(self, board_hash: int, virtual_offset: int, facing: Color) -> int:
        """The one key the ruleset's repetition rule compares. {#rep.rules}

        positional: the position alone; situational, no-retreat and the simple-ko cycle check:
        the position together with the side that faces it. The position is the board, or the
        global position, as the ``position`` axis says.
        """
        rules = self.rules
        h = board_hash ^ virtual_offset if rules.position is _GLOBAL else board_hash
        if rules.repetition is _POSITIONAL:
            return h
        return h ^ TO_MOVE_KEY[facing]

    def _suffix(self, virtual: dict[Color, int], facing: Color) -> bytes:
        """What an exact position adds to the board's bytes {#rep.hashing}: when the position is
        the global one and there are virtual stones, ``v<black>,<white>``; unless the rule is
        positional, the side that faces it (``B``/``W``)."""
        rules = self.rules
        suffix = b""
        if rules.position is _GLOBAL and (virtual[BLACK] or virtual[WHITE]):
            suffix = b"v%d,%d" % (virtual[BLACK], virtual[WHITE])
        if rules.repetition is not _POSITIONAL:
            suffix += _FACING[facing]
        return suffix

    def _board_at(self, version: int) -> bytes:
        """The exact board after the first ``version`` changes: the current board with the later
        changes undone (only ever needed when a hash matches)."""
        board = bytearray(self.board.color)
        for change in reversed(self.changes[version:]):
            if change.__class__ is int:
                board[change >> 2] = EMPTY
                continue
            p, color, captured, self_captured = change
            if self_captured:  # a suicide: the chain (the new stone first) was removed
                for s in self_captured:
                    board[s] = color
                board[p] = EMPTY
                continue
            board[p] = EMPTY
            other = _OPPONENT[color]
            for s in captured:
                board[s] = other
        return bytes(board)

    def _exact_of(self, ref: int | tuple[int, bytes]) -> bytes:
        """The exact position a history reference names. A reference is ``version << 1 | w``
        (w: White faces it, under a rule that compares the side to move), or ``(version, suffix)``
        when the position holds virtual stones."""
        if ref.__class__ is int:
            if self.rules.repetition is _POSITIONAL:
                return self._board_at(ref >> 1)
            return self._board_at(ref >> 1) + (b"W" if ref & 1 else b"B")
        version, suffix = ref
        return self._board_at(version) + suffix

    def _remember(self, key: int | None = None) -> bool:
        """Record the current position in the history; True if it was already there. {#rep.rules}

        ``key`` is the compared key of the current position when the caller has it already. Under
        no-retreat the (board position, side to move) pair also goes into H_board {#rep.no-retreat}.
        Whether it was there is decided by the exact position, the key only finds it; what is
        filed is a reference (the board's version and the suffix), not a copy of the board.
        """
        board, to_move, rules = self.board, self.to_move, self.rules
        if key is None:
            key = self._compared(board.hash, self.virtual_offset, to_move)
        version = len(self.changes)
        positional = rules.repetition is _POSITIONAL
        white = 0 if positional or to_move is BLACK else 1
        virtual = self.virtual_stones
        if rules.position is _GLOBAL and (virtual[BLACK] or virtual[WHITE]):  # the rare shape
            ref = (version, self._suffix(virtual, to_move))
        else:
            ref = version << 1 | white
        seen = self.seen
        if key in seen:  # the rare path: the exact position decides
            position = board.position() + self._suffix(virtual, to_move)
            repeated = seen.add(key, ref, position, self._exact_of)
        else:
            seen[key] = ref
            repeated = False
        if rules.repetition is _NO_RETREAT:  # H_board compares the board and the side to move
            board_key = board.hash ^ TO_MOVE_KEY[to_move]
            board_ref = version << 1 | (to_move is WHITE)
            if board_key in self.seen_board:
                position = board.position() + _FACING[to_move]
                self.seen_board.add(board_key, board_ref, position, self._exact_of)
            else:
                self.seen_board[board_key] = board_ref
        return repeated

    # -- the one entry point -----------------------------------------------------------------
    def play(self, action: Action) -> Step:
        """Apply ``action`` and return the verdict. Never raises for a well-formed action.

        {#play.reasons} The checks run in the spec's order of precedence: ``game-over`` (a halted
        game still takes a resignation under ``resignation: until-counted``); a resignation is
        accepted by either side {#turn.resign}; ``out-of-turn`` {#play.turn}; then
        the handicap phase or the action's own checks.
        """
        phase, kind = self.phase, action.kind
        if phase is _ENDED or (
            phase is _HALTED and (kind is not _RESIGN or self.rules.resignation is not _UNTIL_COUNTED)
        ):
            return self._refuse(action, Reason.GAME_OVER)
        if kind is _RESIGN:  # in the handicap or contest phase, or halted before the count
            return self._end(action, Outcome(EndKind.RESIGNATION, Result.WIN, action.color.opponent))
        if action.color is not self.to_move:
            if kind is _MOVE and action.color is self.moved_last and self.rules.out_of_turn is _OOT_LOSS:
                return self._forfeit(action, Reason.OUT_OF_TURN)  # 连走二步 {#play.turn}
            return self._refuse(action, Reason.OUT_OF_TURN)
        if phase is _HANDICAP:
            return self._place_handicap(action)
        if kind is _MOVE:
            return self._move(action)
        if kind is _VIRTUAL:
            return self._virtual(action)
        return self._pass(action)

    # -- refusals and endings ----------------------------------------------------------------
    def _refuse(self, action: Action, reason: Reason) -> Step:
        return Step(action, False, Effect.REFUSED, reason)

    def _violation(self, action: Action, reason: Reason) -> Step:
        """A move the rules forbid: apply the ruleset's illegal-move policy. {#play.illegal}"""
        policy = self.rules.illegal_move
        if policy is IllegalMove.REFUSE:
            return self._refuse(action, reason)
        if policy is IllegalMove.LOSS:
            return self._forfeit(action, reason)
        passed = self._pass(Action.pass_(action.color), voided=True)
        return Step(action, False, Effect.VOID_PASS, reason, outcome=passed.outcome)

    def _forfeit(self, action: Action, reason: Reason) -> Step:
        """The side that attempted ``action`` loses at once (``illegal-move``) {#play.illegal}."""
        outcome = Outcome(EndKind.ILLEGAL_MOVE, Result.WIN, action.color.opponent)
        self.phase, self.outcome = Phase.ENDED, outcome
        self.record.append(action)
        return Step(action, False, Effect.FORFEIT, reason, outcome=outcome)

    def _end(self, action: Action, outcome: Outcome) -> Step:
        """{#end.resignation} The game ends at once; the action is recorded, nothing else changes."""
        self.phase, self.outcome = Phase.ENDED, outcome
        self.record.append(action)
        return Step(action, True, Effect.PLAYED, outcome=outcome)

    def _after_action(self, action: Action, position: int | None = None) -> Outcome | None:
        """Bookkeeping common to every accepted action; returns the outcome if play stopped.

        {#turn.order} The turn passes and the new position is recorded; then the end checks run
        in the order of {#end.halt}: {#end.four-virtual}, {#end.two-passes}, {#end.cycle} (in a
        jpd-art-2 settling stage, two consecutive virtual moves instead of the first two).
        ``position`` is the compared key of the new position when the caller has it already.
        """
        rules = self.rules
        self.record.append(action)
        key = (action.color, action.kind)
        moves = self.moves
        moves[key] = moves.get(key, 0) + 1
        if self.stage is not _PLAY:
            self.settling_moves[key] = self.settling_moves.get(key, 0) + 1
        self.to_move = _OPPONENT[action.color]
        self.moved_last = action.color if action.kind is _MOVE else None
        seen = self.seen
        if (  # the common case of _remember, inlined (hot path): a new position, no extra table
            position is not None
            and position not in seen
            and rules.repetition is not _NO_RETREAT
            and not (rules.position is _GLOBAL and (self.virtual_stones[BLACK] or self.virtual_stones[WHITE]))
        ):
            seen[position] = len(self.changes) << 1 | (
                rules.repetition is not _POSITIONAL and self.to_move is WHITE
            )
            repeated = False
        else:
            repeated = self._remember(position)
        if self.virtual_for_pass:
            if self._two_virtual(action):
                return self._stop(_HALTED, Outcome(EndKind.TWO_VIRTUAL, Result.TO_COUNT))
        elif rules.halt is _FOUR_VIRTUAL:
            if action.kind is _VIRTUAL:
                board = self.board.position()  # the exact board position {#rep.hashing}
                n = self.virtual_under_board.get(board, 0) + 1
                self.virtual_under_board[board] = n
                if n >= 4:
                    # the first virtual move after the last real move: in a rocking ko the first
                    # virtual move under this board may be older than the last real move (OQ-44)
                    self.final_run_first = self.run_first
                    return self._stop(_HALTED, Outcome(EndKind.FOUR_VIRTUAL, Result.TO_COUNT))
        elif self.consecutive_passes >= 2:
            if rules.halt is Halt.TWO_PASSES_WHITE_LAST and action.color is BLACK:
                self._compulsory_white_pass()
            return self._stop(_HALTED, Outcome(EndKind.TWO_PASSES, Result.TO_COUNT))
        if repeated and rules.repetition is _SIMPLE_KO and self._third_occurrence():
            result = Result.DRAW if rules.cycle is Cycle.DRAW else Result.NO_RESULT
            return self._stop(_ENDED, Outcome(EndKind.CYCLE, result))
        return None

    def _third_occurrence(self) -> bool:
        """{#end.cycle} The current (position, side to move) has recurred: count it; True when this
        is its third occurrence — the cycle has been played through twice and neither side broke
        it (OQ-5). Positions reached by passes count like any other."""
        position = self.board.position() + self._suffix(self.virtual_stones, self.to_move)
        n = self.occurrences.get(position, 1) + 1
        self.occurrences[position] = n
        return n >= 3

    def _two_virtual(self, action: Action) -> bool:
        """{#count.settling.art-2} jpd-art-2's settling stage halts on two consecutive virtual
        moves (连续两虚); if the first mover made the last of them, the other side makes one more
        virtual move to balance the stage's moves (004 实战解决(2); OQ-50). The engine makes it."""
        self.consecutive_virtual = self.consecutive_virtual + 1 if action.kind is _VIRTUAL else 0
        if self.consecutive_virtual < 2:
            return False
        if action.color is self.settling_first:
            balancing = Action.virtual(action.color.opponent)
            self._put_virtual(balancing.color)
            self.record.append(balancing)
            key = (balancing.color, _VIRTUAL)
            self.moves[key] = self.moves.get(key, 0) + 1
            self.settling_moves[key] = self.settling_moves.get(key, 0) + 1
            self.to_move = action.color
        return True

    def _put_virtual(self, color: Color) -> None:
        """One more virtual stone of ``color`` off the board {#board.global-position}."""
        after = dict(self.virtual_stones)
        after[color] += 1
        self.virtual_stones, self.virtual_offset = after, self._virtual_offset(after)

    def _compulsory_white_pass(self) -> None:
        """{#end.two-passes} AGA Rule 9: White passes last. When Black made the second of two
        passes, White's third pass is compulsory: the engine makes it (a pass stone to Black)."""
        white_pass = Action.pass_(WHITE)
        self.record.append(white_pass)
        key = (WHITE, ActionKind.PASS)
        self.moves[key] = self.moves.get(key, 0) + 1
        self.prisoners[BLACK] += 1
        self.consecutive_passes += 1
        self.to_move = BLACK

    def _stop(self, phase: Phase, outcome: Outcome) -> Outcome:
        self.phase, self.outcome = phase, outcome
        return outcome

    # -- the actions -------------------------------------------------------------------------
    def _place_handicap(self, action: Action) -> Step:
        """{#setup.handicap} Free placement: Black puts one handicap stone per action."""
        if action.kind is not ActionKind.MOVE or action.point is None:
            return self._refuse(action, Reason.HANDICAP_PLACEMENT)
        if not 0 <= action.point < self.geometry.area:
            return self._refuse(action, Reason.OFF_BOARD)
        if self.board.color[action.point]:
            return self._refuse(action, Reason.OCCUPIED)
        pv = self.board.preview(action.point, BLACK)
        self.board.commit(pv)  # Black stones only: nothing can be captured
        self.changes.append(action.point << 2 | BLACK)
        self.handicap_stones += 1
        self.handicap_left -= 1
        self.record.append(action)
        if self.handicap_left == 0:
            self.phase = Phase.CONTEST
            self.to_move = WHITE
            self.seen.clear()
            self.seen_board.clear()
            self.occurrences.clear()
            self._remember()
        return Step(action, True, Effect.PLAYED)

    def _move(self, action: Action) -> Step:
        """{#play.move} A real move 实着: capture, suicide, then repetition rules."""
        p, color, rules, board = action.point, action.color, self.rules, self.board
        if p is None or not 0 <= p < len(board.color):
            return self._refuse(action, Reason.OFF_BOARD)
        if board.color[p]:
            return self._refuse(action, Reason.OCCUPIED)
        pv = board.preview(p, color)
        if pv.suicide and (
            rules.suicide is _SUICIDE_FORBIDDEN or (rules.suicide is _SUICIDE_MULTI_ONLY and not pv.own)
        ):
            return self._violation(action, Reason.SUICIDE)
        opponent = _OPPONENT[color]
        position = None
        if rules.repetition is _SIMPLE_KO:
            if p == self.ko_point and pv.captured_count == 1:
                return self._violation(action, Reason.KO)
        else:  # the compared key of the new position, as _compared makes it (inlined: hot path)
            position = pv.new_hash
            if rules.position is _GLOBAL:
                position ^= self.virtual_offset
            if rules.repetition is not _POSITIONAL:
                position ^= TO_MOVE_KEY[opponent]
            seen = self.seen
            if position in seen and seen.holds(  # the hash finds, the exact position decides
                position,
                board.position_after(pv) + self._suffix(self.virtual_stones, opponent),
                self._exact_of,
            ):
                return self._violation(action, Reason.SUPERKO)
        captures, self_captures = board.commit(pv)
        changes = self.changes
        changes.append((p, color, captures, self_captures) if captures or self_captures else p << 2 | color)
        if captures:
            self.prisoners[color] += len(captures)
        if self_captures:
            self.prisoners[opponent] += len(self_captures)
        self.ko_point = _NO_POINT
        if len(captures) == 1 and not self_captures:
            ch = board.chain[p]
            if ch is not None and len(ch.stones) == 1 and ch.libs == {captures[0]}:
                self.ko_point = captures[0]
        self.consecutive_passes = 0
        self.last_real_move = color
        self.run_first = None
        outcome = self._after_action(action, position)
        return _new(Step, (action, True, _PLAYED, None, captures, self_captures, outcome))

    def _virtual(self, action: Action) -> Step:
        """{#turn.virtual} A virtual move 虚着: a stone of the mover's put off the board."""
        rules, color = self.rules, action.color
        if rules.virtual_move is VirtualMove.FORBIDDEN and not self.virtual_for_pass:
            return self._refuse(action, Reason.VIRTUAL_NOT_ALLOWED)
        after = dict(self.virtual_stones)
        after[color] += 1
        after_offset = self._virtual_offset(after)
        opponent = color.opponent
        if self.virtual_for_pass:
            pass  # {#count.settling.art-2} it stands for a pass: never a repetition (OQ-49)
        elif rules.repetition is Repetition.NO_RETREAT:
            # {#rep.no-retreat} 000 §22: after a virtual move the opponent may not face an earlier
            # board position.
            board_key = self.board.hash ^ TO_MOVE_KEY[opponent]
            if board_key in self.seen_board and self.seen_board.holds(
                board_key, self.board.position() + _FACING[opponent], self._exact_of
            ):
                return self._violation(action, Reason.SUPERKO)
        elif rules.repetition is not Repetition.SIMPLE_KO:
            key = self._compared(self.board.hash, after_offset, opponent)
            if key in self.seen and self.seen.holds(
                key, self.board.position() + self._suffix(after, opponent), self._exact_of
            ):
                return self._violation(action, Reason.SUPERKO)
        self.virtual_stones, self.virtual_offset = after, after_offset
        self.ko_point = _NO_POINT
        self.consecutive_passes = 0
        if self.first_to_pass is None:
            self.first_to_pass = color
        if self.run_first is None:
            self.run_first = color
        outcome = self._after_action(action)
        return Step(action, True, Effect.PLAYED, outcome=outcome)

    def _pass(self, action: Action, voided: bool = False) -> Step:
        """{#turn.pass} A pass 放弃: never a repetition {#rep.passes}; AGA hands the opponent a stone.

        ``voided`` is a void pass under the illegal-move policy ``void-pass`` {#play.illegal}: it
        is made even where passes are forbidden.
        """
        rules, color = self.rules, action.color
        if self.virtual_for_pass:  # {#count.settling.art-2}: passes are made as virtual moves
            if not voided:
                return self._refuse(action, Reason.PASS_NOT_ALLOWED)
            return self._virtual(Action.virtual(color))
        if rules.pass_rule is PassRule.FORBIDDEN and not voided:
            return self._refuse(action, Reason.PASS_NOT_ALLOWED)
        if rules.pass_rule is PassRule.PASS_STONE:
            self.prisoners[color.opponent] += 1
        self.ko_point = _NO_POINT
        self.consecutive_passes += 1
        if self.first_to_pass is None:
            self.first_to_pass = color
        outcome = self._after_action(Action.pass_(color))
        return Step(action, True, Effect.PLAYED, outcome=outcome)

    # -- read-only views ---------------------------------------------------------------------
    def counters(self) -> Counters:
        """{#play.counters} A snapshot of the counters (fresh dicts: later play does not change it)."""
        return Counters(
            moves={f"{c.letter}-{k}": n for (c, k), n in sorted(self.moves.items())},
            prisoners={c.letter: n for c, n in self.prisoners.items()},
            virtual_stones={c.letter: n for c, n in self.virtual_stones.items()},
            handicap_stones=self.handicap_stones,
            first_to_pass=self.final_run_first or self.first_to_pass,
            last_real_move=self.last_real_move,
        )

    def stage_moves(self) -> tuple[int, int]:
        """{#count.settling} (Black, White) real + virtual moves made in this stage (passes not
        counted): the ``settling`` figures of counting (000 §29(3))."""
        sm = self.settling_moves
        return (
            sm.get((BLACK, _MOVE), 0) + sm.get((BLACK, _VIRTUAL), 0),
            sm.get((WHITE, _MOVE), 0) + sm.get((WHITE, _VIRTUAL), 0),
        )
