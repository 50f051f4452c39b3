"""A repetition verdict is by position, never by hash (spec/play.md#rep.hashing).

The Zobrist keys are public and fixed, so a position whose 64-bit hash equals the empty board's
can be built on purpose: any 65 keys are linearly dependent over GF(2), and Gaussian elimination
on the real keys finds stones whose keys XOR to 0. Placing them on points no two of which touch
makes a game without captures whose final board hashes to the empty board's hash. An engine that
compared hashes only would call the last move a repetition of the empty board (a superko
refusal, or a cycle ending the game under simple ko); the exact position says it is not.
"""

import itertools

import pytest
from jpdref import Action, Game
from jpdref.coords import Geometry
from jpdref.game import Effect, Phase
from jpdref.history import History
from jpdref.rules import PassRule
from jpdref.stones import BLACK, WHITE, Color
from jpdref.zobrist import stone_keys, virtual_key
from jpdtools.presets import load_presets

SIZE = 19
CANDIDATES = 72  # 8 more than the 64 bits: a kernel of dimension 8 to choose the shortest from


def colliding_stones(geometry: Geometry) -> list[tuple[Color, int]]:
    """Stones on pairwise non-adjacent points whose Zobrist keys XOR to 0 (fewest found)."""
    width = geometry.width
    points = [p for p in range(geometry.area) if (p % width + p // width) % 2 == 0][:CANDIDATES]
    stones = [(BLACK if i % 2 == 0 else WHITE, p) for i, p in enumerate(points)]
    keys = {c: stone_keys(geometry.area, c) for c in (BLACK, WHITE)}
    vectors = [keys[c][p] for c, p in stones]
    # Gaussian elimination over GF(2), tracking which candidates make up each reduced vector.
    pivots: dict[int, tuple[int, int]] = {}  # leading bit -> (vector, combination)
    kernel: list[int] = []
    for i, v in enumerate(vectors):
        combination = 1 << i
        while v:
            top = v.bit_length() - 1
            if top not in pivots:
                pivots[top] = (v, combination)
                break
            pv, pc = pivots[top]
            v, combination = v ^ pv, combination ^ pc
        else:
            kernel.append(combination)
    assert len(kernel) >= CANDIDATES - 64
    best = min(
        (
            c
            for r in range(1, len(kernel) + 1)
            for subset in itertools.combinations(kernel, r)
            if (c := _xor(subset))
        ),
        key=int.bit_count,
    )
    return [stones[i] for i in range(len(stones)) if best >> i & 1]


def _xor(values) -> int:
    out = 0
    for v in values:
        out ^= v
    return out


def actions_for(stones: list[tuple[Color, int]]) -> list[Action]:
    """The stones as a game from the empty board, Black first and White last, passes filling in
    for the side with fewer stones (never two passes in a row)."""
    black = [p for c, p in stones if c is BLACK]
    white = [p for c, p in stones if c is WHITE]
    n = max(len(black), len(white))
    black = [None] * (n - len(black)) + black  # a pass never ends the sequence
    white = [None] * (n - len(white)) + white
    out = []
    for b, w in zip(black, white, strict=True):
        out.append(Action.pass_(BLACK) if b is None else Action.move(BLACK, b))
        out.append(Action.pass_(WHITE) if w is None else Action.move(WHITE, w))
    return out


GEOMETRY = Geometry(SIZE, SIZE)
STONES = colliding_stones(GEOMETRY)
ACTIONS = actions_for(STONES)
PRESETS = [r for r in load_presets().rulesets if r.pass_rule is not PassRule.FORBIDDEN]


def test_the_constructed_board_hashes_to_the_empty_board():
    """The precondition of the tests below: a real, capture-free game whose final board is not
    empty and hashes to 0, the empty board's hash."""
    game = Game.new(load_presets().get("tromp-taylor"), GEOMETRY)
    assert game.board.hash == 0
    for action in ACTIONS:
        game.play(action)
    assert game.board.hash == game.board.compute_hash() == 0
    assert len(game.board.stones()) == len(STONES) >= 2
    assert ACTIONS[-1].color is WHITE and ACTIONS[-1].point is not None


@pytest.mark.parametrize("rules", PRESETS, ids=[r.name for r in PRESETS])
def test_a_position_sharing_the_empty_boards_hash_is_not_a_repetition(rules):
    """Every move is legal and play goes on: superko rules do not refuse the last stone, simple
    ko does not end the game as a cycle ({#rep.hashing}: the verdict is by position)."""
    game = Game.new(rules, GEOMETRY)
    for n, action in enumerate(ACTIONS, 1):
        step = game.play(action)
        assert step.legal and step.effect is Effect.PLAYED, f"{rules.name}: action {n}: {step}"
        assert step.outcome is None, f"{rules.name}: action {n} ended play: {step.outcome}"
    assert game.phase is Phase.CONTEST


def test_history_keeps_different_positions_under_one_hash():
    """A reference here is the position itself; the game files board versions instead."""
    history = History()

    def exact(ref):
        return ref

    assert not history.add(7, b"a", b"a", exact)
    assert not history.add(7, b"b", b"b", exact)  # same hash, another position: not a repetition
    assert history.add(7, b"a", b"a", exact) and history.add(7, b"b", b"b", exact)
    assert history.holds(7, b"b", exact) and not history.holds(7, b"c", exact)
    assert not history.holds(8, b"a", exact)
    assert history.positions() == 2
    copy = history.copy()
    copy.add(7, b"c", b"c", exact)
    assert not history.holds(7, b"c", exact) and copy.holds(7, b"c", exact)


def test_earlier_boards_are_rebuilt_exactly_from_the_changes():
    """Every position filed in the history is rebuilt as the board it was, captures and suicides
    included (the reference history of the property test sees the same thing by other means)."""
    rules = load_presets().get("tromp-taylor")  # suicide allowed
    game = Game.new(rules, Geometry(5, 5))
    boards = [game.board.position()]
    for text in ["B1", "A1", "B2", "E5", "A3", "A2", "E4", "pass", "D5", "A2"]:  # 6: a suicide; 9: a capture
        color = game.to_move
        if text == "pass":
            step = game.play(Action.pass_(color))
        else:
            step = game.play(Action.move(color, game.geometry.from_gtp(text)))
        assert step.legal, step
        if step.action.kind == "move":
            boards.append(game.board.position())
    removals = [c for c in game.changes if isinstance(c, tuple)]
    assert any(c[3] for c in removals) and any(c[2] for c in removals)  # a suicide and a capture
    assert [game._board_at(v) for v in range(len(boards))] == boards


def stones_hashing_to(geometry: Geometry, target: int) -> list[tuple[Color, int]]:
    """Stones on pairwise non-adjacent points whose Zobrist keys XOR to ``target`` (fewest found)."""
    width = geometry.width
    points = [p for p in range(geometry.area) if (p % width + p // width) % 2 == 0][:CANDIDATES]
    stones = [(BLACK if i % 2 == 0 else WHITE, p) for i, p in enumerate(points)]
    keys = {c: stone_keys(geometry.area, c) for c in (BLACK, WHITE)}
    pivots: dict[int, tuple[int, int]] = {}
    kernel: list[int] = []
    for i, (c, p) in enumerate(stones):
        v, combination = keys[c][p], 1 << i
        while v and (top := v.bit_length() - 1) in pivots:
            v, combination = v ^ pivots[top][0], combination ^ pivots[top][1]
        if v:
            pivots[top] = (v, combination)
        else:
            kernel.append(combination)
    v, solution = target, 0
    while v:
        top = v.bit_length() - 1
        assert top in pivots, "the candidates' keys do not span the target"
        v, solution = v ^ pivots[top][0], solution ^ pivots[top][1]
    best = min(
        (
            solution ^ _xor(subset)
            for r in range(len(kernel) + 1)
            for subset in itertools.combinations(kernel, r)
        ),
        key=int.bit_count,
    )
    return [stones[i] for i in range(len(stones)) if best >> i & 1]


def test_a_virtual_move_whose_key_meets_an_earlier_positions_is_not_a_repetition():
    """{#rep.hashing} Under global-positional superko (jhz-2022) a virtual move is checked against
    the history by its global position: the board plus the virtual stones. The stones played here
    hash to the key of one black virtual stone, so after Black's virtual move the global position's
    key is the empty board's; the position itself (stones on the board, a virtual stone) never
    occurred: the move is legal."""
    rules = load_presets().get("jhz-2022")
    target = virtual_key(BLACK, 1) ^ virtual_key(WHITE, 0)
    stones = stones_hashing_to(GEOMETRY, target)
    game = Game.new(rules, GEOMETRY)
    empty_key = game._compared(game.board.hash, game.virtual_offset, BLACK)
    for action in actions_for(stones):
        assert game.play(action).legal
    assert game.to_move is BLACK and game.board.hash == target and game.board.stones()
    after = game._compared(game.board.hash, game._virtual_offset({BLACK: 1, WHITE: 0}), WHITE)
    assert after == empty_key  # the keys meet; the exact positions differ
    step = game.play(Action.virtual(BLACK))
    assert step.legal and step.effect is Effect.PLAYED, step
