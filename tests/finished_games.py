"""Hypothesis strategies for finished games: played through the engine, halted, agreed.

Every example is a :class:`Finished`: a game played by :class:`jpdref.game.Game` under a preset
of ``spec/rulesets.yaml`` until play halted (two passes, or four virtual moves for jpd-a/jpd-b),
and an agreement that is always *consistent* with the halted board — every mark stands on a stone
of the named colour (and is expanded to whole chains), no chain is both dead and seki, every claim
names an empty point next to a living stone of the claimer, and :func:`jpdref.counting.classify`
accepts it. Consistent is not the same as *correct*: life and death are approximated structurally
(below), since counting takes the agreement as data ({#count.agreement}).

Two sources:

* :func:`random_games` — random play on 3×3..7×7 boards (5×5 and up drawn twice as often),
  biased toward sensible endings: a move on a point all of whose neighbours are the mover's own
  stones (filling an own eye) is skipped with probability 0.95, a self-atari that captures
  nothing with probability 0.8 (fewer captures, so fewer fill-back overflows); a player with no
  other move passes (a virtual move under jpd-a/jpd-b).
  Passes and virtual moves are also made mid-game at drawn rates; sometimes there are set-up
  stones or a 2-stone handicap. Games are cut after ½, 1 or 3 × area (+ 12) actions and ended by
  passes; in a *clean* game the first player without a sensible move ends it (so games without
  mid-game passes are common).
* :func:`seki_games` — hand-built seki shapes (:data:`TEMPLATES`: no eyes, eyes, the 003
  diagram's one-sided liberties) on 7×7, turned by one of the 8 symmetries, colours swapped or
  not, some own territory filled with own stones and some dead stones dropped into territory, then
  *played* onto an empty board through the engine (never set up), so the counters account for
  every stone.

The agreement for a random game (:func:`_agreement`):

* dead stones: for a colour C, an *enclosure* is a maximal connected set of points holding no
  stone of the opponent Y; an enclosure that contains C stones, is bordered by Y stones, holds at
  most 2 empty points (too few for two eyes) and at most a quarter of the board is marked dead
  as a whole (all C chains in it), each such enclosure at a drawn rate — so its freed points
  border only Y;
* seki: a living chain with at least 2 liberties, one of them next to a living opponent chain that
  also has at least 2 liberties, is marked seki together with that opponent chain (rarely);
* claims (ko or one-sided) on empty points of two-coloured regions, by a side with a living stone
  next to the point, and ko claims on one-point territories (an unfilled ko won by the side
  around it); dame/shared overrides on other points of two-coloured regions (rarely);
* a settling stage: sometimes the last actions of the game are declared the settling stage
  (实战解决), ``settling`` = their real + virtual moves per side.

Each part is checked with ``classify`` as it is added and dropped if refused.
"""

import random
from dataclasses import dataclass

from hypothesis import strategies as st
from jpdref.board import Board, PositionError
from jpdref.coords import Geometry
from jpdref.counting import Agreement, Claim, ClaimKind, CountingError, FinalPosition, Why, classify
from jpdref.counting.diagram import parse_rows
from jpdref.game import Action, ActionKind, Game, Phase
from jpdref.handicap import HandicapError
from jpdref.rules import IllegalMove, PassRule, Rules, VirtualMove
from jpdref.stones import BLACK, EMPTY, WHITE, Color
from jpdtools.presets import load_presets

PRESET_NAMES = (
    "jpd-2022",
    "jpd-art-2008",
    "jhz-2022",
    "jpd-a",
    "jpd-b",
    "jpd-art-2",
    "chinese",
    "japanese",
    "ing",
    "aga",
    "wmsg-2008",
    "tromp-taylor",
)
_PRESETS = load_presets()
EYE_FILL_SKIP = 0.95
SELF_ATARI_SKIP = 0.8


@dataclass(frozen=True, repr=False)
class Finished:
    """A halted game and its agreement, with what the theorems' conditions need to know."""

    fp: FinalPosition
    preset: str
    source: str  # "random" or the seki template's name
    setup_stones: tuple[int, int]  # (Black, White) set-up stones the game started from (no moves)
    rules: Rules
    record: tuple[Action, ...]

    @property
    def setup(self) -> bool:
        return any(self.setup_stones)

    @property
    def setup_difference(self) -> int:
        """Black's set-up stones minus White's: stones on the board that no counter accounts for."""
        return self.setup_stones[0] - self.setup_stones[1]

    @property
    def counters(self):
        return self.fp.counters

    @property
    def handicap(self) -> int:
        return self.fp.counters.handicap_stones

    @property
    def virtual(self) -> bool:
        return any(self.fp.counters.virtual_stones.values())

    @property
    def pass_stones(self) -> bool:
        """The ruleset hands the opponent a stone per pass (AGA) and a pass was made."""
        return self.rules.pass_rule is PassRule.PASS_STONE and any(
            a.kind is ActionKind.PASS for a in self.record
        )

    @property
    def mid_game_pass(self) -> bool:
        """A pass or virtual move before the last real move."""
        last = max((i for i, a in enumerate(self.record) if a.kind is ActionKind.MOVE), default=-1)
        return any(a.kind in (ActionKind.PASS, ActionKind.VIRTUAL) for a in self.record[:last])

    @property
    def settling_extra(self) -> int:
        return self.fp.settling[0] - self.fp.settling[1]

    def __repr__(self) -> str:
        return "Finished:\n" + self.describe()

    def describe(self) -> str:
        """The example as text: preset, diagram (x/o dead, #/@ seki), agreement and counters."""
        fp, g = self.fp, self.fp.geometry
        try:
            c = classify(fp)
            dead, seki = c.dead, c.seki
        except CountingError:
            dead, seki = fp.agreement.dead, fp.agreement.seki
        cells = {(1, False, False): "X", (2, False, False): "O", (1, True, False): "x"}
        cells |= {(2, True, False): "o", (1, False, True): "#", (2, False, True): "@"}
        rows = []
        for y in range(g.height):
            row = []
            for x in range(g.width):
                p = g.point(x, y)
                v = fp.stones[p]
                row.append("." if v == EMPTY else cells[(v, p in dead, p in seki)])
            rows.append("  " + " ".join(row))
        a, k = fp.agreement, fp.counters
        claims = ", ".join(f"{cl.color.letter} {cl.kind} {g.to_gtp(cl.point)}" for cl in a.claims)
        lines = [
            f"preset {self.preset} ({self.source}{', set-up' if self.setup else ''}), {g.label}",
            *rows,
            f"claims [{claims}] dame {sorted(map(g.to_gtp, a.dame))} "
            f"shared {sorted(map(g.to_gtp, a.shared))}",
            f"counters moves={k.moves} prisoners={k.prisoners} virtual={k.virtual_stones} "
            f"handicap={k.handicap_stones} first-pass={k.first_to_pass} last-move={k.last_real_move} "
            f"settling={fp.settling}",
            "record " + " ".join(_action_text(g, act) for act in self.record),
        ]
        return "\n".join(lines)


def _action_text(g: Geometry, a: Action) -> str:
    what = g.to_gtp(a.point) if a.kind is ActionKind.MOVE and a.point is not None else str(a.kind)
    return f"{a.color.letter}:{what}"


def rules_for(name: str) -> Rules:
    """The preset, with illegal moves simply refused (the policy changes no count)."""
    rules = _PRESETS.get(name)
    if rules.illegal_move is not IllegalMove.REFUSE:
        rules = rules.with_values({"illegal-move": "refuse"}, name=name)
    return rules


# -- playing ------------------------------------------------------------------------------------
def _give_up_turn(game: Game) -> bool:
    """Pass, or (where passes are forbidden or refused) make a virtual move."""
    c = game.to_move
    if game.rules.pass_rule is not PassRule.FORBIDDEN and game.play(Action.pass_(c)).legal:
        return True
    return game.rules.virtual_move is VirtualMove.ALLOWED and game.play(Action.virtual(c)).legal


def _own_eye(game: Game, p: int, c: Color) -> bool:
    return all(game.board.color[q] == c for q in game.geometry.neighbours[p])


def _self_atari(game: Game, p: int, c: Color) -> bool:
    """The move leaves its own chain with one liberty and captures nothing."""
    board, nbrs = game.board, game.geometry.neighbours
    libs = {q for q in nbrs[p] if board.color[q] == EMPTY}
    for q in nbrs[p]:
        ch = board.chain[q]
        if ch is None:
            continue
        if ch.color == c:
            libs |= ch.libs
        elif ch.libs == {p}:
            return False
    return len(libs - {p}) <= 1


def _sensible_move(game: Game, rnd: random.Random) -> bool:
    c = game.to_move
    points = [p for p in range(game.geometry.area) if game.board.color[p] == EMPTY]
    rnd.shuffle(points)
    for p in points:
        if _own_eye(game, p, c) and rnd.random() < EYE_FILL_SKIP:
            continue
        if _self_atari(game, p, c) and rnd.random() < SELF_ATARI_SKIP:
            continue
        if game.play(Action.move(c, p)).legal:
            return True
    return False


def _finish(game: Game) -> None:
    """End the contest: pass (or virtual) until play halts."""
    for _ in range(12):
        if game.phase is not Phase.CONTEST:
            return
        if not _give_up_turn(game):
            break
    if game.phase is not Phase.HALTED:
        raise AssertionError(f"the game did not halt: {game.phase} {game.outcome}")


def _setup_stones(g: Geometry, rnd: random.Random) -> dict[int, Color]:
    stones: dict[int, Color] = {}
    for p in rnd.sample(range(g.area), rnd.randint(1, max(1, g.area // 4))):
        stones[p] = rnd.choice((BLACK, WHITE))
        try:
            Board.from_stones(g, stones)
        except PositionError:
            del stones[p]
    return stones


@dataclass(frozen=True)
class Style:
    """How a random game is played: mid-game pass and virtual rates, where it is cut off, and
    whether a player with no sensible move ends the game (``clean``: both give up at once)."""

    p_pass: float = 0.0
    p_virtual: float = 0.0
    cut: float = 3.0  # actions allowed, as a multiple of the board's area
    clean: bool = False


def play_random(rules: Rules, g: Geometry, rnd: random.Random, style: Style,
                setup: dict[int, Color], handicap: int) -> Game:  # fmt: skip
    """A random game under ``rules`` to the halt (see the module docstring)."""
    try:
        game = Game.new(rules, g, stones=setup, handicap=handicap)
    except HandicapError:
        game = Game.new(rules, g, stones=setup)
    while game.phase is Phase.HANDICAP:
        empty = [p for p in range(g.area) if game.board.color[p] == EMPTY]
        game.play(Action.move(BLACK, rnd.choice(empty)))
    for _ in range(int(style.cut * g.area) + 12):
        if game.phase is not Phase.CONTEST:
            break
        r, c = rnd.random(), game.to_move
        if r < style.p_pass and game.consecutive_passes == 0 and _give_up_turn(game):
            continue
        if r < style.p_pass + style.p_virtual and game.play(Action.virtual(c)).legal:
            continue
        if not _sensible_move(game, rnd):
            if style.clean:
                break
            _give_up_turn(game)
    _finish(game)
    return game


# -- the agreement ------------------------------------------------------------------------------
def _chains(g: Geometry, cells) -> list[tuple[int, frozenset[int], frozenset[int]]]:
    """(colour, stones, liberties) of every chain of ``cells``."""
    seen: set[int] = set()
    out = []
    for start in range(g.area):
        if cells[start] == EMPTY or start in seen:
            continue
        stones, libs, stack = {start}, set(), [start]
        while stack:
            for q in g.neighbours[stack.pop()]:
                if cells[q] == EMPTY:
                    libs.add(q)
                elif cells[q] == cells[start] and q not in stones:
                    stones.add(q)
                    stack.append(q)
        seen |= stones
        out.append((cells[start], frozenset(stones), frozenset(libs)))
    return out


def _enclosures(g: Geometry, cells, color: Color) -> list[frozenset[int]]:
    """Stones of ``color`` in small enclosures bordered by the opponent only (dead candidates)."""
    y = int(color.opponent)
    seen: set[int] = set()
    out = []
    for start in range(g.area):
        if cells[start] == y or start in seen:
            continue
        region, border, stack = {start}, False, [start]
        while stack:
            for q in g.neighbours[stack.pop()]:
                if cells[q] == y:
                    border = True
                elif q not in region:
                    region.add(q)
                    stack.append(q)
        seen |= region
        stones = frozenset(p for p in region if cells[p] == color)
        empties = len(region) - len(stones)
        if stones and border and empties <= 2 and len(region) <= max(3, g.area // 4):
            out.append(stones)
    return out


def _accepts(fp: FinalPosition, agreement: Agreement) -> bool:
    try:
        classify(FinalPosition(fp.geometry, fp.stones, agreement, fp.counters, fp.settling))
    except CountingError:
        return False
    return True


def _with(a: Agreement, **changes) -> Agreement:
    values = {k: getattr(a, k) for k in ("dead", "seki", "claims", "dame", "shared")}
    return Agreement(**(values | changes))


def _mark(stones: frozenset[int], rnd: random.Random) -> frozenset[int]:
    """All the stones, or one stone (a mark stands for its chain): both must be accepted."""
    return stones if rnd.random() < 0.5 else frozenset({min(stones)})


def _agreement(fp: FinalPosition, rnd: random.Random, dead_rate: float) -> Agreement:
    g, cells = fp.geometry, fp.stones
    a = Agreement()
    for color in (BLACK, WHITE):
        for stones in _enclosures(g, cells, color):
            if rnd.random() < dead_rate:
                chains = [ch for col, ch, _ in _chains(g, cells) if col == color and ch <= stones]
                trial = _with(a, dead=a.dead | frozenset().union(*(_mark(ch, rnd) for ch in chains)))
                a = trial if _accepts(fp, trial) else a
    dead = _dead_points(fp, a)
    living = tuple(EMPTY if p in dead else v for p, v in enumerate(cells))
    if rnd.random() < 0.3:
        a = _seki_marks(fp, a, living, rnd)
    if rnd.random() < 0.25:
        a = _claims_and_overrides(fp, a, rnd)
    return a


def _dead_points(fp: FinalPosition, a: Agreement) -> frozenset[int]:
    return classify(FinalPosition(fp.geometry, fp.stones, a, fp.counters)).dead


def _seki_marks(fp: FinalPosition, a: Agreement, living, rnd: random.Random) -> Agreement:
    g = fp.geometry
    chains = _chains(g, living)
    owner = {p: i for i, (_, stones, _) in enumerate(chains) for p in stones}
    for col, stones, libs in chains:
        if len(libs) < 2 or rnd.random() < 0.5:
            continue
        partners = {
            owner[q]
            for lib in libs
            for q in g.neighbours[lib]
            if living[q] not in (EMPTY, col) and len(chains[owner[q]][2]) >= 2
        }
        if partners:
            other = chains[rnd.choice(sorted(partners))][1]
            trial = _with(a, seki=a.seki | _mark(stones, rnd) | _mark(other, rnd))
            a = trial if _accepts(fp, trial) else a
    return a


def _claims_and_overrides(fp: FinalPosition, a: Agreement, rnd: random.Random) -> Agreement:
    g = fp.geometry
    c = classify(FinalPosition(g, fp.stones, a, fp.counters))
    mixed = [p for p in range(g.area) if c.why[p] in (Why.DAME, Why.SHARED, Why.ONE_SIDED)]
    rnd.shuffle(mixed)
    claims: list[Claim] = []
    for p in mixed[: rnd.randint(0, 2)]:
        sides = sorted({c.living[q] for q in g.neighbours[p]} - {EMPTY})
        if sides:
            kind = rnd.choice((ClaimKind.KO, ClaimKind.ONE_SIDED))
            claims.append(Claim(kind, Color(rnd.choice(sides)), p))
    eyes = [p for p in range(g.area) if c.why[p] is Why.TERRITORY and _single(g, c.living, p)]
    if eyes and rnd.random() < 0.3:  # an unfilled ko won by the side around it (单劫不粘)
        p = rnd.choice(eyes)
        claims.append(Claim(ClaimKind.KO, Color(c.owner[p]), p))
    a = _with(a, claims=tuple(claims))
    rest = [p for p in mixed if p not in {cl.point for cl in claims}]
    if rest and rnd.random() < 0.4:
        p = rnd.choice(rest)
        trial = _with(a, dame=frozenset({p})) if rnd.random() < 0.5 else _with(a, shared=frozenset({p}))
        a = trial if _accepts(fp, trial) else a
    return a if _accepts(fp, a) else _with(a, claims=())


def _single(g: Geometry, living, p: int) -> bool:
    """An empty point whose neighbours are all stones: a one-point region."""
    return all(living[q] != EMPTY for q in g.neighbours[p])


def _settling(game: Game, rnd: random.Random) -> tuple[int, int]:
    """The real + virtual moves per side among the last k actions (declared the settling stage)."""
    if rnd.random() >= 0.15 or not game.record:
        return (0, 0)
    tail = game.record[-rnd.randint(1, min(10, len(game.record))) :]
    put = [a for a in tail if a.kind in (ActionKind.MOVE, ActionKind.VIRTUAL)]
    return (sum(a.color is BLACK for a in put), sum(a.color is WHITE for a in put))


@st.composite
def random_games(draw, presets: tuple[str, ...] = PRESET_NAMES, min_size: int = 3, max_size: int = 7):
    """Finished random games (see the module docstring)."""
    name = draw(st.sampled_from(presets))
    rnd = random.Random(draw(st.integers(0, 2**32 - 1)))  # Hypothesis' own draws favour 0
    size = rnd.choice([s for s in range(min_size, max_size + 1) for _ in range(1 + (s >= 5))])
    style = Style(
        p_pass=draw(st.sampled_from([0.0, 0.0, 0.0, 0.02, 0.06])),
        p_virtual=draw(st.sampled_from([0.0, 0.0, 0.0, 0.03, 0.08])),
        cut=draw(st.sampled_from([0.5, 1.0, 3.0, 3.0])),
        clean=draw(st.sampled_from([True, True, False])),
    )
    rules, g = rules_for(name), Geometry.square(size)
    setup = _setup_stones(g, rnd) if rnd.random() < 0.08 else {}
    handicap = 2 if not setup and size >= 5 and rnd.random() < 0.08 else 0
    game = play_random(rules, g, rnd, style, setup, handicap)
    bare = FinalPosition.from_game(game, settling=_settling(game, rnd))
    dead_rate = draw(st.sampled_from([0.0, 0.5, 0.9]))
    agreement = _agreement(bare, rnd, dead_rate)
    fp = FinalPosition(g, bare.stones, agreement, bare.counters, bare.settling)
    stones = list(setup.values())
    return Finished(fp, name, "random", (stones.count(BLACK), stones.count(WHITE)), rules, tuple(game.record))


# -- hand-built seki ----------------------------------------------------------------------------
# '#'/'@' are black/white stones in seki, X/O other living stones. Each is a legal 7×7 position
# whose outer groups live with two eyes or a large territory.
TEMPLATES = {
    # Two shared liberties, no eyes (C7, C6); the outer groups live. 14 stones each.
    "seki-no-eyes": [
        "X@.#O.O",
        "X@.#OOO",
        "XXXOO..",
        ".XXO...",
        "XXOO...",
        ".XO....",
        "XXO....",
    ],
    # One eye each (A7 White, E7 Black) and one shared liberty (C7).
    "seki-eyes": [
        ".@.#.#O",
        "@@####O",
        "XXOOOOO",
        ".XO.O.O",
        "XXOOOOO",
        ".XO....",
        "XXO....",
    ],
    # The 003 diagram (说明图例): C6, D6 touch Black only (one-sided liberties), C5, D5 shared.
    "seki-003": [
        "OO##OO.",
        "O#..#O.",
        "O#..#O.",
        "O#@@#O.",
        "O####O.",
        "OOOOOO.",
        ".......",
    ],
}


def _transform(g: Geometry, p: int, k: int) -> int:
    x, y = g.xy(p)
    n = g.width - 1
    for _ in range(k % 4):
        x, y = n - y, x
    if k >= 4:
        x = n - x
    return g.point(x, y)


def _legal(g: Geometry, cells) -> bool:
    return all(libs for _, _, libs in _chains(g, cells))


def _vary(g: Geometry, cells: list[int], seki: frozenset[int], rnd: random.Random) -> set[int]:
    """Fill some own territory with own stones, drop some dead stones; returns the dead points."""
    dead: set[int] = set()
    regions = [r for r in _empty_regions(g, cells) if len(r[1]) == 1 and not r[2] & seki]
    for points, borders, _ in regions:
        (owner,) = borders
        pts = sorted(points)
        rnd.shuffle(pts)
        for p in pts[: rnd.randint(0, max(0, len(pts) - 3))]:
            cells[p] = owner
            if not _legal(g, cells):
                cells[p] = EMPTY
        free = [p for p in pts if cells[p] == EMPTY and all(cells[q] == EMPTY for q in g.neighbours[p])]
        if free and rnd.random() < 0.5:
            p = rnd.choice(free)
            cells[p] = int(Color(owner).opponent)
            dead.add(p)
    return dead


def _empty_regions(g: Geometry, cells) -> list[tuple[set[int], set[int], set[int]]]:
    """(points, bordering colours, bordering stones) of every empty region."""
    seen: set[int] = set()
    out = []
    for start in range(g.area):
        if cells[start] != EMPTY or start in seen:
            continue
        pts, cols, stones, stack = {start}, set(), set(), [start]
        while stack:
            for q in g.neighbours[stack.pop()]:
                if cells[q] == EMPTY and q not in pts:
                    pts.add(q)
                    stack.append(q)
                elif cells[q] != EMPTY:
                    cols.add(cells[q])
                    stones.add(q)
        seen |= pts
        out.append((pts, cols, stones))
    return out


def placement(g: Geometry, cells, rnd: random.Random) -> list[tuple[Color, int | None]]:
    """An order of actions (colour, point or None for a pass) that builds ``cells`` from the
    empty board with no capture and no suicide: alternate while a safe stone exists, else fall
    back to whole chains one after another (each grown from a stone, so it always has a liberty)."""
    order = _alternating(g, cells, rnd)
    return order if order is not None else _chain_by_chain(g, cells, rnd)


def _has_liberty(g: Geometry, board: list[int], start: int) -> bool:
    seen, stack = {start}, [start]
    while stack:
        for q in g.neighbours[stack.pop()]:
            if board[q] == EMPTY:
                return True
            if board[q] == board[start] and q not in seen:
                seen.add(q)
                stack.append(q)
    return False


def _safe(g: Geometry, board: list[int], p: int, c: int) -> bool:
    """Placing ``c`` at ``p`` captures nothing and is no suicide."""
    board[p] = c
    ok = _has_liberty(g, board, p) and all(
        _has_liberty(g, board, q) for q in g.neighbours[p] if board[q] not in (EMPTY, c)
    )
    board[p] = EMPTY
    return ok


def _alternating(g: Geometry, cells, rnd: random.Random) -> list[tuple[Color, int | None]] | None:
    left = {c: [p for p in range(g.area) if cells[p] == c] for c in (BLACK, WHITE)}
    board, order, color, stuck = [EMPTY] * g.area, [], BLACK, 0
    while left[BLACK] or left[WHITE]:
        safe = [p for p in left[color] if _safe(g, board, p, color)]
        if safe:
            p = rnd.choice(safe)
            board[p] = color
            left[color].remove(p)
            order.append((color, p))
            stuck = 0
        else:
            stuck += 1
            if stuck == 2 or (order and order[-1][1] is None):
                return None
            order.append((color, None))
        color = color.opponent
    return order


def _chain_by_chain(g: Geometry, cells, rnd: random.Random) -> list[tuple[Color, int | None]]:
    chains = _chains(g, cells)
    rnd.shuffle(chains)
    order: list[tuple[Color, int | None]] = []
    to_move = BLACK
    for col, stones, _ in chains:
        start = min(stones)
        grown, frontier = [start], [start]
        while frontier:
            for q in g.neighbours[frontier.pop(0)]:
                if q in stones and q not in grown:
                    grown.append(q)
                    frontier.append(q)
        for p in grown:
            if to_move != col:
                order.append((to_move, None))
            order.append((Color(col), p))
            to_move = Color(col).opponent
    return order


def play_placement(rules: Rules, g: Geometry, order) -> Game:
    game = Game.new(rules, g)
    for color, p in order:
        step = game.play(Action.move(color, p)) if p is not None else None
        if p is None and not _give_up_turn(game):
            raise AssertionError(f"{rules.name}: cannot give up a turn while placing a template")
        if step is not None and not step.legal:
            raise AssertionError(f"{rules.name}: template move {g.to_gtp(p)} refused: {step.reason}")
    _finish(game)
    return game


@st.composite
def seki_games(draw, presets: tuple[str, ...] = PRESET_NAMES):
    """Hand-built seki positions, played onto the board, halted and agreed (seki marked)."""
    name = draw(st.sampled_from(presets))
    template = draw(st.sampled_from(sorted(TEMPLATES)))
    rnd = random.Random(draw(st.integers(0, 2**32 - 1)))  # Hypothesis' own draws favour 0
    g, base, marks = parse_rows(TEMPLATES[template])
    k, swap = rnd.randrange(8), rnd.random() < 0.5
    cells = [EMPTY] * g.area
    for p, v in enumerate(base):
        cells[_transform(g, p, k)] = 3 - v if swap and v else v
    seki = frozenset(_transform(g, p, k) for p in marks.seki)
    dead = _vary(g, cells, seki, rnd)
    assert _legal(g, cells), "a varied template must stay legal"
    rules = rules_for(name)
    game = play_placement(rules, g, placement(g, cells, rnd))
    assert list(game.board.color) == cells, "the placement must rebuild the template"
    agreement = Agreement(dead=frozenset(dead), seki=seki)
    bare = FinalPosition.from_game(game, agreement, settling=_settling(game, rnd))
    if rnd.random() < 0.3:
        agreement = _claims_and_overrides(bare, agreement, rnd)
    fp = FinalPosition(g, bare.stones, agreement, bare.counters, bare.settling)
    return Finished(fp, name, template, (0, 0), rules, tuple(game.record))


def finished_games():
    """Random games two times in three, hand-built seki one time in three."""
    return st.one_of(random_games(), random_games(), seki_games())
