"""Properties of random games under every preset, checked after every action (Hypothesis).

Each example is a small board (2x2 to 7x7, square or not), sometimes with set-up stones or a
handicap, and up to 500 actions: moves at random points (occupied and off-board ones included),
virtual moves, passes, the odd resignation, and now and then the wrong colour. After every step:

* the board is checked from scratch: chains and liberties by flood fill equal the engine's
  bookkeeping, no chain is without liberties, the incremental hash equals ``compute_hash()``;
* an independent model of the rules (plain tuples, no hashes, no incremental chains) predicts the
  verdict on every real and virtual move (suicide, ko, superko, the illegal-move policy), the
  board after it, the halts and the cycles;
* stones are conserved: set-up + handicap + real moves = stones on the board + stones captured
  + stones self-captured, and the prisoners are those captures (plus AGA pass stones);
* a refusal has a Reason and, if its effect is ``refused``, changes nothing; once play has
  halted or ended, every action is refused with ``game-over``, except a resignation while halted
  under ``resignation: until-counted``, which ends the game.

At the end the same actions are replayed in a fresh game and must give equal steps.
"""

import random
from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from jpdref.coords import Geometry
from jpdref.game import Action, ActionKind, Effect, EndKind, Game, Phase, Step
from jpdref.reasons import Reason
from jpdref.rules import (
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
from jpdtools.presets import load_presets

PRESETS = load_presets().rulesets
MAX_ACTIONS = 500
EXAMPLES_PER_PRESET = 100

# -- drawing examples ----------------------------------------------------------------------------
# Hypothesis draws the board, the set-up, the number of actions and the rates of each kind of
# action; a seeded random stream then draws the actions themselves (Hypothesis' own integer
# draws favour small values, which would make games short and resignations frequent). Shrinking
# still finds the shortest failing prefix.
_RATES = st.sampled_from([0.0, 0.005, 0.02, 0.08])


@dataclass(frozen=True)
class Example:
    geometry: Geometry
    setup: dict[int, Color]
    to_move: Color
    handicap: int
    actions: int
    seed: int
    pass_rate: float
    virtual_rate: float
    resign_rate: float


def _with_liberties(geometry: Geometry, stones: dict[int, Color]) -> dict[int, Color]:
    """``stones`` less every chain without liberties (repeated until none is left)."""
    stones = dict(stones)
    while True:
        dead = [c for c in flood_chains(geometry, _colors(geometry, stones)) if not c[2]]
        if not dead:
            return stones
        for _, members, _ in dead:
            for p in members:
                del stones[p]


def _colors(geometry: Geometry, stones: dict[int, Color]) -> tuple[int, ...]:
    return tuple(int(stones.get(p, EMPTY)) for p in range(geometry.area))


@st.composite
def examples(draw: st.DrawFn, rules: Rules) -> Example:
    geometry = Geometry(draw(st.integers(2, 7)), draw(st.integers(2, 7)))
    area = geometry.area
    handicap, setup = 0, {}
    shape = draw(st.sampled_from(["empty"] * 6 + ["setup"] * 2 + ["handicap"]))
    if shape == "setup":
        points = draw(st.lists(st.integers(0, area - 1), max_size=area // 2, unique=True))
        colors = draw(st.lists(st.sampled_from([BLACK, WHITE]), min_size=len(points), max_size=len(points)))
        setup = _with_liberties(geometry, dict(zip(points, colors, strict=True)))
    elif shape == "handicap":
        if rules.handicap is HandicapPlacement.FREE:
            handicap = draw(st.integers(2, min(9, area - 1)))
        elif geometry.width == geometry.height == 7:
            handicap = draw(st.integers(2, 4))
    to_move = draw(st.sampled_from([BLACK, WHITE]))
    n = draw(st.one_of(st.integers(0, MAX_ACTIONS), st.integers(MAX_ACTIONS // 2, MAX_ACTIONS)))
    rates = draw(_RATES), draw(_RATES), draw(st.sampled_from([0.0, 0.0, 0.002]))
    return Example(geometry, setup, to_move, handicap, n, draw(st.integers(0, 2**32)), *rates)


def concrete(game: Game, ex: Example, rng: random.Random) -> Action:
    """The next action: mostly in turn, at any point (occupied and off-board ones included)."""
    color = game.to_move.opponent if rng.random() < 0.05 else game.to_move
    r = rng.random()
    if r < ex.resign_rate:
        return Action.resign(color)
    r -= ex.resign_rate
    if r < ex.pass_rate:
        return Action.pass_(color)
    r -= ex.pass_rate
    if r < ex.virtual_rate:
        return Action.virtual(color)
    area = ex.geometry.area
    r = rng.random()
    if r < 0.02:
        return Action.move(color, rng.choice((-1, area)))
    empty = [p for p, c in enumerate(game.board.color) if not c]
    if r < 0.3 or not empty:
        return Action.move(color, rng.randrange(area))
    return Action.move(color, rng.choice(empty))


# -- the board from scratch ----------------------------------------------------------------------
def flood_chains(
    geometry: Geometry, colors: tuple[int, ...]
) -> list[tuple[int, frozenset[int], frozenset[int]]]:
    """Every chain as (colour, stones, liberties), by flood fill from nothing."""
    seen: set[int] = set()
    chains = []
    for start, c in enumerate(colors):
        if c == EMPTY or start in seen:
            continue
        members, libs, stack = {start}, set(), [start]
        while stack:
            p = stack.pop()
            for q in geometry.neighbours[p]:
                if colors[q] == EMPTY:
                    libs.add(q)
                elif colors[q] == c and q not in members:
                    members.add(q)
                    stack.append(q)
        seen |= members
        chains.append((c, frozenset(members), frozenset(libs)))
    return chains


def check_board(game: Game) -> None:
    """(a) chains/liberties from scratch equal the engine's; none is dead. (b) the hash."""
    board = game.board
    colors = tuple(board.color)
    for color, members, libs in flood_chains(game.geometry, colors):
        assert libs, f"a chain without liberties: {sorted(members)}"
        ch = board.chain[min(members)]
        assert ch is not None and ch.color == color
        assert all(board.chain[p] is ch for p in members)
        assert set(ch.stones) == members and len(ch.stones) == len(members)
        assert ch.libs == libs
        key = 0
        for p in members:
            key ^= board.keys[color][p]
        assert ch.key == key
    assert all(board.chain[p] is None for p, c in enumerate(colors) if c == EMPTY)
    assert board.hash == board.compute_hash()


# -- an independent model of the rules -----------------------------------------------------------
def place(geometry: Geometry, colors: tuple[int, ...], p: int, color: int):
    """A real move on plain tuples: (board after, opponent stones captured, own stones lost)."""
    board = list(colors)
    board[p] = color
    captured: set[int] = set()
    for c, members, libs in flood_chains(geometry, tuple(board)):
        if c != color and not libs:
            captured |= members
    for q in captured:
        board[q] = EMPTY
    lost: set[int] = set()
    if not captured:
        for c, members, libs in flood_chains(geometry, tuple(board)):
            if c == color and p in members and not libs:
                lost = members
        for q in lost:
            board[q] = EMPTY
    return tuple(board), captured, lost


# Fixed handicap on 7x7 (the only fixed-handicap board the examples draw): the 3rd-line corners
# in the traditional order, upper right and lower left, then lower right, then upper left
# ({#setup.handicap}); written as GTP vertices so that the model does not use the engine's table.
FIXED_7X7 = ("E5", "C3", "E3", "C5")


def gtp_point(geometry: Geometry, vertex: str) -> int:
    """A GTP vertex of a board up to 8 wide, by hand (columns A..H, row 1 at the bottom)."""
    return (geometry.height - int(vertex[1:])) * geometry.width + "ABCDEFGH".index(vertex[0])


class Model:
    """What the rules say should happen, computed the slow and obvious way.

    It starts from the example itself — the set-up stones, the handicap by its own table, the
    colour to move — never from the engine's game, so set-up and handicap placement are checked
    too ({#setup.position} {#setup.handicap}).
    """

    def __init__(self, rules: Rules, ex: Example) -> None:
        self.rules = rules
        self.geometry = ex.geometry
        colors = [EMPTY] * ex.geometry.area
        for p, c in ex.setup.items():
            colors[p] = int(c)
        self.to_move = ex.to_move
        self.handicap_left = 0
        if ex.handicap and rules.handicap is HandicapPlacement.FIXED:
            for vertex in FIXED_7X7[: ex.handicap]:
                colors[gtp_point(ex.geometry, vertex)] = int(BLACK)
            self.to_move = WHITE
        elif ex.handicap:
            self.handicap_left, self.to_move = ex.handicap, BLACK
        self.colors = tuple(colors)
        self.ko = -1
        self.passes = 0
        self.moved_last: Color | None = None  # whose real move was the last action (play.turn)
        self.virtual = {BLACK: 0, WHITE: 0}
        self.virtual_under: dict[tuple[int, ...], int] = {}
        self.seen: set[tuple] = set()
        self.seen_board: set[tuple] = set()
        self.occurrences: dict[tuple, int] = {}  # simple ko: a cycle at the third (OQ-5)
        self.remember(self.to_move)

    @property
    def phase(self) -> Phase:
        return Phase.HANDICAP if self.handicap_left else Phase.CONTEST

    def key(self, colors: tuple[int, ...], virtual: dict[Color, int], facing: Color) -> tuple:
        base: tuple = (colors,)
        if self.rules.position is Position.GLOBAL:
            base += (virtual[BLACK], virtual[WHITE])
        return base if self.rules.repetition is Repetition.POSITIONAL else (*base, facing)

    def remember(self, facing: Color) -> bool:
        key = self.key(self.colors, self.virtual, facing)
        repeated = key in self.seen
        self.seen.add(key)
        self.seen_board.add((self.colors, facing))
        self.occurrences[key] = self.occurrences.get(key, 0) + 1
        self.last_occurrence = self.occurrences[key]
        return repeated

    def move_reason(self, p: int, color: Color) -> tuple[Reason | None, tuple]:
        rules = self.rules
        after, captured, lost = place(self.geometry, self.colors, p, color)
        if lost and (
            rules.suicide is Suicide.FORBIDDEN or (rules.suicide is Suicide.MULTI_ONLY and len(lost) == 1)
        ):
            return Reason.SUICIDE, (after, captured, lost)
        if rules.repetition is Repetition.SIMPLE_KO:
            if p == self.ko and len(captured) == 1:
                return Reason.KO, (after, captured, lost)
        elif self.key(after, self.virtual, color.opponent) in self.seen:
            return Reason.SUPERKO, (after, captured, lost)
        return None, (after, captured, lost)

    def virtual_reason(self, color: Color) -> Reason | None:
        rules = self.rules
        if rules.virtual_move is VirtualMove.FORBIDDEN:
            return Reason.VIRTUAL_NOT_ALLOWED
        after = dict(self.virtual)
        after[color] += 1
        if rules.repetition is Repetition.NO_RETREAT:
            if (self.colors, color.opponent) in self.seen_board:
                return Reason.SUPERKO
        elif rules.repetition is not Repetition.SIMPLE_KO and (
            self.key(self.colors, after, color.opponent) in self.seen
        ):
            return Reason.SUPERKO
        return None

    def stops(self, kind: ActionKind, color: Color, repeated: bool) -> EndKind | None:
        """The halt or end the model expects after an accepted action."""
        rules = self.rules
        if rules.halt is Halt.FOUR_VIRTUAL and kind is ActionKind.VIRTUAL:
            n = self.virtual_under.get(self.colors, 0) + 1
            self.virtual_under[self.colors] = n
            if n >= 4:
                return EndKind.FOUR_VIRTUAL
        if self.passes >= 2 and rules.halt in (Halt.TWO_PASSES, Halt.TWO_PASSES_WHITE_LAST):
            return EndKind.TWO_PASSES
        if repeated and rules.repetition is Repetition.SIMPLE_KO and self.last_occurrence >= 3:
            return EndKind.CYCLE
        return None


def policy_effect(rules: Rules, reason: Reason | None) -> Effect:
    if reason is None:
        return Effect.PLAYED
    return {
        IllegalMove.REFUSE: Effect.REFUSED,
        IllegalMove.VOID_PASS: Effect.VOID_PASS,
        IllegalMove.LOSS: Effect.FORFEIT,
    }[rules.illegal_move]


def snapshot(game: Game) -> tuple:
    return (
        tuple(game.board.color),
        game.board.hash,
        game.to_move,
        game.phase,
        game.outcome,
        game.counters(),
        dict(game.prisoners),
        dict(game.virtual_stones),
        game.ko_point,
        len(game.record),
    )


# -- one step, checked ---------------------------------------------------------------------------
@dataclass
class Tally:
    placed: int  # stones put on the board: set-up, fixed handicap, real moves
    captured: int = 0
    self_captured: int = 0
    pass_stones: int = 0
    held: dict[Color, int] = field(default_factory=lambda: {BLACK: 0, WHITE: 0})  # prisoners


def check_step(rules: Rules, game: Game, model: Model, tally: Tally, action: Action) -> Step:
    before = snapshot(game)
    phase, to_move = game.phase, game.to_move
    step = game.play(action)  # (e) never raises
    assert isinstance(step, Step) and step.action == action
    if step.legal:
        assert step.reason is None and step.effect is Effect.PLAYED
    else:
        assert isinstance(step.reason, Reason) and step.effect is not Effect.PLAYED
        # an illegal-move policy applies to rule violations; out-of-turn play has its own axis (play.turn)
        out_of_turn_loss = step.reason is Reason.OUT_OF_TURN and rules.out_of_turn is OutOfTurn.LOSS
        assert step.effect is Effect.REFUSED or step.reason.is_rule_violation or out_of_turn_loss
    if step.effect is Effect.REFUSED:
        assert snapshot(game) == before, f"refused {action} changed the game"
    # (f) nothing after the end — but a halt is a pause before the count where the resignation axis
    # says so (turn.resign): a resignation is then accepted and ends the game
    resigns_halted = (
        phase is Phase.HALTED
        and action.kind is ActionKind.RESIGN
        and rules.resignation is Resignation.UNTIL_COUNTED
    )
    if resigns_halted:
        assert step.legal and game.phase is Phase.ENDED and step.outcome.kind is EndKind.RESIGNATION
        assert step.outcome.winner is action.color.opponent
        return step
    if phase in (Phase.HALTED, Phase.ENDED):
        assert step.reason is Reason.GAME_OVER and step.effect is Effect.REFUSED
        return step
    assert (phase, to_move) == (model.phase, model.to_move), "the model and the engine disagree on the turn"
    expected = expect(rules, game, model, action, phase, to_move)
    assert (step.reason, step.effect) == expected[:2], f"{action}: {step} (model: {expected})"
    if step.effect is Effect.REFUSED or step.effect is Effect.FORFEIT:
        if step.effect is Effect.FORFEIT:
            assert game.phase is Phase.ENDED and step.outcome is not None
            assert step.outcome.winner is action.color.opponent
        return step
    follow(rules, game, model, tally, step, expected[2], phase)
    check_board(game)
    check_stones(rules, game, tally)
    return step


def expect(rules, game, model, action, phase, to_move) -> tuple:
    """(reason, effect, detail) the model expects for ``action`` in the game before it."""
    kind, color = action.kind, action.color
    if kind is ActionKind.RESIGN:
        return None, Effect.PLAYED, None
    if color is not to_move:
        # 连走二步判连走二步者为负 (play.turn): a second real move in a row loses under out-of-turn: loss
        if kind is ActionKind.MOVE and color is model.moved_last and rules.out_of_turn is OutOfTurn.LOSS:
            return Reason.OUT_OF_TURN, Effect.FORFEIT, None
        return Reason.OUT_OF_TURN, Effect.REFUSED, None
    area = model.geometry.area
    if phase is Phase.HANDICAP and kind is not ActionKind.MOVE:
        return Reason.HANDICAP_PLACEMENT, Effect.REFUSED, None
    if kind is ActionKind.MOVE:
        if not 0 <= action.point < area:
            return Reason.OFF_BOARD, Effect.REFUSED, None
        if model.colors[action.point]:
            return Reason.OCCUPIED, Effect.REFUSED, None
        if phase is Phase.HANDICAP:
            return None, Effect.PLAYED, place(model.geometry, model.colors, action.point, color)
        reason, detail = model.move_reason(action.point, color)
        return reason, policy_effect(rules, reason), detail
    if kind is ActionKind.VIRTUAL:
        reason = model.virtual_reason(color)
        effect = Effect.REFUSED if reason is Reason.VIRTUAL_NOT_ALLOWED else None
        return reason, effect or policy_effect(rules, reason), None
    if rules.pass_rule is PassRule.FORBIDDEN:
        return Reason.PASS_NOT_ALLOWED, Effect.REFUSED, None
    return None, Effect.PLAYED, None


def follow(rules, game, model, tally, step, detail, phase) -> None:
    """Bring the model up to date with an action the engine made (or voided into a pass)."""
    action = step.action
    kind, color = action.kind, action.color
    if kind is ActionKind.RESIGN:
        assert game.phase is Phase.ENDED and step.outcome.kind is EndKind.RESIGNATION
        assert step.outcome.winner is color.opponent
        return
    if step.effect is Effect.VOID_PASS:
        kind = ActionKind.PASS
    if phase is not Phase.HANDICAP:
        model.moved_last = color if kind is ActionKind.MOVE else None
    if kind is ActionKind.MOVE:
        after, captured, lost = detail
        assert set(step.captures) == captured and len(step.captures) == len(captured)
        assert set(step.self_captures) == lost and len(step.self_captures) == len(lost)
        assert tuple(game.board.color) == after
        model.colors = after
        tally.placed += 1
        tally.captured += len(captured)
        tally.self_captured += len(lost)
        tally.held[color] += len(captured)
        tally.held[color.opponent] += len(lost)
        if phase is Phase.HANDICAP:
            model.handicap_left -= 1
            if not model.handicap_left:  # the last handicap stone: White moves, history starts here
                model.to_move = WHITE
                model.seen.clear()
                model.seen_board.clear()
                model.occurrences.clear()
                model.remember(WHITE)
            assert (game.phase, game.to_move) == (model.phase, model.to_move)
            return
        model.passes = 0
        model.ko = -1
        if len(captured) == 1 and not lost:
            ch = next(c for c in flood_chains(model.geometry, after) if action.point in c[1])
            if len(ch[1]) == 1 and ch[2] == captured:
                model.ko = next(iter(captured))
    elif kind is ActionKind.VIRTUAL:
        model.virtual[color] += 1
        model.passes = 0
        model.ko = -1
    else:
        model.passes += 1
        model.ko = -1
        if rules.pass_rule is PassRule.PASS_STONE:
            tally.pass_stones += 1
            tally.held[color.opponent] += 1
    repeated = model.remember(color.opponent)
    stop = model.stops(kind, color, repeated)
    to_move = color.opponent
    if stop is EndKind.TWO_PASSES and rules.halt is Halt.TWO_PASSES_WHITE_LAST and color is BLACK:
        # AGA Rule 9: White passes last; the engine makes White's compulsory third pass.
        tally.pass_stones += 1
        tally.held[BLACK] += 1
        to_move = BLACK
    assert game.to_move is to_move
    model.to_move = to_move
    if stop is None:
        assert game.phase is Phase.CONTEST and step.outcome is None, step
    else:
        assert step.outcome is not None and step.outcome.kind is stop, step
        assert game.phase is (Phase.ENDED if stop is EndKind.CYCLE else Phase.HALTED)
    assert game.virtual_stones == model.virtual


def check_stones(rules: Rules, game: Game, tally: Tally) -> None:
    """(c) every stone placed is on the board, captured, or self-captured; prisoners agree."""
    on_board = sum(1 for c in game.board.color if c)
    assert on_board + tally.captured + tally.self_captured == tally.placed
    prisoners = sum(game.prisoners.values())
    assert prisoners == tally.captured + tally.self_captured + tally.pass_stones
    assert game.prisoners == tally.held


# -- the property ----------------------------------------------------------------------------------
def new_game(rules: Rules, ex: Example) -> Game:
    return Game.new(rules, ex.geometry, stones=ex.setup, to_move=ex.to_move, handicap=ex.handicap)


@pytest.mark.parametrize("rules", PRESETS, ids=[r.name for r in PRESETS])
@settings(
    max_examples=EXAMPLES_PER_PRESET,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_random_games_keep_every_invariant(rules: Rules, data: st.DataObject):
    ex = data.draw(examples(rules))
    game = new_game(rules, ex)
    check_board(game)
    model = Model(rules, ex)
    assert tuple(game.board.color) == model.colors, "set-up or fixed handicap placed wrongly"
    assert (game.phase, game.to_move) == (model.phase, model.to_move)
    fixed = ex.handicap if rules.handicap is HandicapPlacement.FIXED else 0
    assert game.handicap_stones == fixed
    tally = Tally(len(ex.setup) + fixed)
    actions, steps = [], []
    rng = random.Random(ex.seed)
    for _ in range(ex.actions):
        action = concrete(game, ex, rng)
        actions.append(action)
        steps.append(check_step(rules, game, model, tally, action))
    event(f"ended: {game.outcome.kind if game.outcome else 'no'}")
    for reason in {s.reason for s in steps if s.reason and s.reason.is_rule_violation}:
        event(f"refused: {reason}")
    event(f"accepted moves: {sum(1 for s in steps if s.legal) // 50 * 50}+")
    # (d) the same actions in a fresh game give the same steps
    again = new_game(rules, ex)
    assert [again.play(a) for a in actions] == steps
    assert again.board.hash == game.board.hash and again.counters() == game.counters()
