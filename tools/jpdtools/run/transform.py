"""Items replayed under a symmetry of the board and a swap of colours (spec/contract.md#contract.transform).

A program under verification may recognise the suite's literal positions and answer from a key.
Replayed under a symmetry of the board (the 8 of a square, the 4 that keep a rectangle's shape)
and, where the rules treat the two colours alike, with Black and White swapped, an item keeps its
verdict while its vertices and colours change: an answer key does not carry over, and a program
whose geometry is wrong somewhere (a mirrored handicap, a transposed vertex) shows it.

The program is given the transformed set-up and actions; everything it reports (each step's
action, captures and board, the end state, the count, the settling stage) is mapped back through
the inverse transform and judged against the case's own text.

That the verdict carries over is derived, not assumed: :func:`choose` plays each transform offered
through the reference, in the order the seed draws, maps its observation back and takes the first
under which the judgement is exactly the judgement of the item as written (same status, same
mismatches). A transform is offered only where it can hold (:func:`transforms_of`):

* a fixed handicap (``handicap: fixed``) puts Black's stones on points the board's symmetries do
  not all keep (3 stones: upper right, lower left, lower right): only the symmetries mapping that
  set onto itself are offered; a free handicap is placed by ``move`` actions and moves with them;
* colours are swapped only in an item that does not count or settle (komi is White's, and the komi
  rules and counters name the side that passed first or moved last), has no handicap (handicap
  stones are Black's) and is not played under a halt rule naming a colour (White passes last).

A count that picks points by their number (the points fill-back fills, the basic eye points a group
keeps, the stone a negative move takes: "the lowest-numbered") picks other points of the same kind
under a symmetry. Where every transform offered moves such points, the first drawn under which
only their reasons change is taken, and the claims on those points are left out of the comparison
(:attr:`Chosen.dropped`).
"""

import functools
import hashlib
from dataclasses import dataclass, field, replace

from jpdref.coords import CoordinateError, Geometry
from jpdref.handicap import HandicapError, fixed_handicap_points
from jpdref.rules import Halt, HandicapPlacement, Rules

from jpdtools.run.adapters import (
    CountObservation,
    EndState,
    Observation,
    ReferenceAdapter,
    SettleObservation,
    StepObservation,
    sort_vertices,
)
from jpdtools.run.compare import Judgement, Status, judge
from jpdtools.suite.model import Claim, Expectation
from jpdtools.suite.setup import (
    CaseAction,
    CaseAgreement,
    CaseClaim,
    CaseCounters,
    FinalSpec,
    SettleSpec,
    Setup,
)

IDENTITY = "identity"
SYMMETRIES = ("rotate-90", "rotate-180", "rotate-270", "mirror", "flip", "transpose", "antitranspose")
"""The seven symmetries of a square other than the identity (``rotate-90``: a quarter turn
clockwise; ``mirror``: left and right swap; ``flip``: top and bottom swap; ``transpose``: about the
diagonal from the upper left)."""
RECTANGLE_SYMMETRIES = ("rotate-180", "mirror", "flip")
"""The symmetries other than the identity that keep a board that is not square its shape."""
SWAP = "colours"
"""The suffix of a transform that also swaps Black and White (``mirror+colours``)."""

_OTHER = {"B": "W", "W": "B"}
_BOARD_SWAP = str.maketrans("XObw", "OXwb")


@dataclass(frozen=True)
class Symmetry:
    """One symmetry of a ``width`` × ``height`` board, by name (``target``: the board it maps onto)."""

    name: str
    width: int
    height: int

    @property
    def turns(self) -> bool:
        """Whether columns become lines (a quarter turn or a diagonal)."""
        return self.name in ("rotate-90", "rotate-270", "transpose", "antitranspose")

    @property
    def target(self) -> Geometry:
        return Geometry(self.height, self.width) if self.turns else Geometry(self.width, self.height)

    def xy(self, x: int, y: int) -> tuple[int, int]:
        """Where column ``x``, line ``y`` (0 = top) goes."""
        w, h = self.width - 1, self.height - 1
        if self.name == IDENTITY:
            return x, y
        return {
            "rotate-90": (h - y, x),
            "rotate-180": (w - x, h - y),
            "rotate-270": (y, w - x),
            "mirror": (w - x, y),
            "flip": (x, h - y),
            "transpose": (y, x),
            "antitranspose": (h - y, w - x),
        }[self.name]

    def inverse(self) -> "Symmetry":
        target = self.target
        name = {"rotate-90": "rotate-270", "rotate-270": "rotate-90"}.get(self.name, self.name)
        return Symmetry(name, target.width, target.height)

    def point(self, p: int) -> int:
        images = _images(self.name, self.width, self.height)
        if 0 <= p < len(images):
            return images[p]
        source = Geometry(self.width, self.height)  # off the board: the error the geometry gives
        return self.target.point(*self.xy(*source.xy(p)))

    def vertex(self, text: str) -> str:
        """A GTP vertex's image (CoordinateError for a text that is not a vertex of the board)."""
        image = _vertex_images(self.name, self.width, self.height).get(text)
        if image is not None:
            return image
        source, target = _geometries(self.name, self.width, self.height)  # lower case, or no vertex
        return target.to_gtp(self.point(source.from_gtp(text)))

    def vertices(self, texts: tuple[str, ...]) -> tuple[str, ...]:
        return sort_vertices(self.vertex(v) for v in texts)

    def board(self, rows: str) -> str:
        """A board as rows top first, ``/``-separated (as observations give it); a text that is not
        a board of this shape is left as it is (the comparison says what is wrong with it)."""
        lines = rows.split("/")
        if len(lines) != self.height or any(len(line) != self.width for line in lines):
            return rows
        symbols = "".join(lines)
        _, target = _geometries(self.name, self.width, self.height)
        moved = "".join(map(symbols.__getitem__, _preimages(self.name, self.width, self.height)))
        return "/".join(moved[y * target.width : (y + 1) * target.width] for y in range(target.height))


@functools.cache
def _geometries(name: str, width: int, height: int) -> tuple[Geometry, Geometry]:
    """The board a symmetry maps from and the one it maps onto."""
    return Geometry(width, height), Symmetry(name, width, height).target


@functools.cache
def _images(name: str, width: int, height: int) -> tuple[int, ...]:
    """Where each point of the board goes, by point (made once per symmetry and size)."""
    symmetry = Symmetry(name, width, height)
    source, target = _geometries(name, width, height)
    return tuple(target.point(*symmetry.xy(*source.xy(p))) for p in range(source.area))


@functools.cache
def _vertex_images(name: str, width: int, height: int) -> dict[str, str]:
    """Each GTP vertex of the board, as written upper case, and its image (made once per symmetry
    and size)."""
    source, target = _geometries(name, width, height)
    images = _images(name, width, height)
    return {source.to_gtp(p): target.to_gtp(q) for p, q in enumerate(images)}


@functools.cache
def _preimages(name: str, width: int, height: int) -> tuple[int, ...]:
    """The point each point of the target board comes from, by point."""
    images = _images(name, width, height)
    out = [0] * len(images)
    for p, q in enumerate(images):
        out[q] = p
    return tuple(out)


@dataclass(frozen=True)
class Transform:
    """A symmetry of the board (``identity`` included) and whether Black and White swap."""

    symmetry: str
    swap: bool = False

    @property
    def name(self) -> str:
        """``rotate-90``, ``mirror+colours``, ``colours`` (the identity with colours swapped)."""
        if self.symmetry == IDENTITY:
            return SWAP if self.swap else IDENTITY
        return f"{self.symmetry}+{SWAP}" if self.swap else self.symmetry

    def of(self, setup: Setup) -> Symmetry:
        return Symmetry(self.symmetry, setup.width, setup.height)

    def colour(self, c: str) -> str:
        return _OTHER.get(c, c) if self.swap else c


def parse_transform(text: str) -> Transform:
    """The transform a name of :attr:`Transform.name` stands for (ValueError if none)."""
    symmetry, plus, swap = text.partition("+")
    if text == SWAP:
        return Transform(IDENTITY, True)
    if symmetry not in (IDENTITY, *SYMMETRIES) or (plus and swap != SWAP):
        raise ValueError(f"{text!r} is not a transform (a symmetry of {', '.join(SYMMETRIES)}, +{SWAP})")
    return Transform(symmetry, bool(plus))


# -- which transforms an item takes ------------------------------------------------------------


def symmetries_of(setup: Setup, rules: Rules) -> tuple[tuple[str, ...], str]:
    """The symmetries (identity left out) that keep the item's verdict, and why others are left out."""
    names = SYMMETRIES if setup.width == setup.height else RECTANGLE_SYMMETRIES
    why = (
        "" if setup.width == setup.height else f"a {setup.width}x{setup.height} board keeps its shape under 4"
    )
    if setup.handicap and rules.handicap is HandicapPlacement.FIXED:
        geometry = Geometry(setup.width, setup.height)
        try:
            points = frozenset(fixed_handicap_points(geometry, setup.handicap))
        except HandicapError:
            return (), "the fixed handicap cannot be placed"
        names = tuple(n for n in names if frozenset(map(Symmetry(n, *_size(setup)).point, points)) == points)
        why = f"a fixed handicap of {setup.handicap} is kept by {len(names) + 1} of the board's symmetries"
    return names, why


def _size(setup: Setup) -> tuple[int, int]:
    return setup.width, setup.height


def colour_swap_excluded(setup: Setup, rules: Rules, expectation: Expectation) -> str:
    """Why the item is not replayed with colours swapped ("" when it may be)."""
    if setup.final is not None or expectation.counts:
        return "it counts: komi is White's and the count's rules name colours"
    if setup.handicap:
        return "handicap stones are Black's"
    if rules.halt is Halt.TWO_PASSES_WHITE_LAST:
        return "the halt rule names White (White passes last)"
    return ""


def transforms_of(setup: Setup, rules: Rules, expectation: Expectation) -> tuple[tuple[Transform, ...], str]:
    """Every transform other than the identity the item may be replayed under, and a one-line note
    of what is left out and why ("" when nothing is)."""
    names, why = symmetries_of(setup, rules)
    no_swap = colour_swap_excluded(setup, rules, expectation)
    out = [Transform(n) for n in names]
    if not no_swap:
        out += [Transform(IDENTITY, True), *(Transform(n, True) for n in names)]
    notes = [w for w in (why, f"colours not swapped: {no_swap}" if no_swap else "") if w]
    return tuple(out), "; ".join(notes)


def seeded_order(
    seed: str, case_id: str, ruleset: str, transforms: tuple[Transform, ...]
) -> tuple[Transform, ...]:
    """``transforms`` in an order drawn from ``seed``: the same for the same seed, case and ruleset."""

    def draw(t: Transform) -> bytes:
        return hashlib.sha256(f"{seed}\0{case_id}\0{ruleset}\0{t.name}".encode()).digest()

    return tuple(sorted(transforms, key=draw))


# -- the transformed item ----------------------------------------------------------------------


@dataclass(frozen=True)
class Item:
    """A set-up and its actions (the history, then the moves judged)."""

    setup: Setup
    history: tuple[CaseAction, ...]
    moves: tuple[CaseAction, ...]


def transform_item(t: Transform, item: Item) -> Item:
    """``item`` as the program is given it under ``t``."""
    sym = t.of(item.setup)
    return Item(_setup(t, sym, item.setup), _actions(t, sym, item.history), _actions(t, sym, item.moves))


def _setup(t: Transform, sym: Symmetry, setup: Setup) -> Setup:
    target = sym.target
    final = setup.final
    if final is not None:
        final = _final(t, sym, final)
    return replace(
        setup,
        width=target.width,
        height=target.height,
        to_move=t.colour(setup.to_move),
        stones=tuple((sym.vertex(v), t.colour(c)) for v, c in setup.stones),
        markers=tuple((letter, sym.vertex(v)) for letter, v in setup.markers),
        final=final,
        text="",  # the diagram as written is the case's, not the transformed item's
    )


def _final(t: Transform, sym: Symmetry, final: FinalSpec) -> FinalSpec:
    settle = final.settle
    if settle is not None:
        settle = SettleSpec(
            moves=_actions(t, sym, settle.moves),
            first=t.colour(settle.first) if settle.first else settle.first,
            stones=sym.vertices(settle.stones),
            claims=tuple(_claim(t, sym, c) for c in settle.claims),
        )
    return replace(
        final,
        agreement=_agreement(t, sym, final.agreement),
        counters=_counters(t, final.counters),
        settle=settle,
    )


def _claim(t: Transform, sym: Symmetry, c: CaseClaim) -> CaseClaim:
    return replace(c, color=t.colour(c.color), vertex=sym.vertex(c.vertex))


def _agreement(t: Transform, sym: Symmetry, a: CaseAgreement) -> CaseAgreement:
    black, white = (a.white_owns, a.black_owns) if t.swap else (a.black_owns, a.white_owns)
    return CaseAgreement(
        dead=sym.vertices(a.dead),
        seki=sym.vertices(a.seki),
        claims=tuple(_claim(t, sym, c) for c in a.claims),
        dame=sym.vertices(a.dame),
        shared=sym.vertices(a.shared),
        black_owns=sym.vertices(black),
        white_owns=sym.vertices(white),
    )


def _counters(t: Transform, c: CaseCounters) -> CaseCounters:
    if not t.swap:
        return c
    raise ValueError("colours are not swapped in an item that counts")  # colour_swap_excluded


def _actions(t: Transform, sym: Symmetry, actions: tuple[CaseAction, ...]) -> tuple[CaseAction, ...]:
    return tuple(
        replace(
            a,
            color=t.colour(a.color),
            vertex=sym.vertex(a.vertex)
            if a.vertex is not None and not a.vertex.startswith("@")
            else a.vertex,
        )
        for a in actions
    )


# -- what the program reported, mapped back ----------------------------------------------------


def observation_back(t: Transform, setup: Setup, observation: Observation) -> Observation:
    """``observation`` of the item transformed by ``t`` (``setup``: the item as written) with every
    vertex, board and colour mapped back. A vertex that is not one of the transformed board is left
    as it is (the comparison then names it)."""
    back = _Back(t, t.of(setup).inverse())
    count = observation.count
    settling = observation.settling
    return replace(
        observation,
        initial_board=back.board(observation.initial_board),
        steps=tuple(back.step(s) for s in observation.steps),
        end=back.end(observation.end),
        count=back.count(count) if count is not None else None,
        settling=back.settling(settling) if settling is not None else None,
    )


@dataclass(frozen=True)
class _Back:
    t: Transform
    sym: Symmetry

    def colour(self, c: str | None) -> str | None:
        return self.t.colour(c) if c is not None else None

    def vertex(self, text: str) -> str:
        try:
            return self.sym.vertex(text)
        except CoordinateError:
            return text

    def vertices(self, texts: tuple[str, ...]) -> tuple[str, ...]:
        if not all(isinstance(v, str) for v in texts):
            return texts
        mapped = tuple(self.vertex(v) for v in texts)
        try:
            return sort_vertices(mapped)
        except ValueError:
            return mapped

    def board(self, rows: str) -> str:
        if not isinstance(rows, str):
            return rows
        rows = self.sym.board(rows)
        return rows.translate(_BOARD_SWAP) if self.t.swap else rows

    def words(self, text: str) -> str:
        """An action or claim text (``B D4``, ``B ko E5``): its colour and vertex mapped back."""
        if not isinstance(text, str):
            return text
        words = text.split(" ")
        if words and words[0] in _OTHER:
            words[0] = self.t.colour(words[0])
        if len(words) > 1:
            words[-1] = self.vertex(words[-1])
        return " ".join(words)

    def step(self, s: StepObservation) -> StepObservation:
        if not isinstance(s, StepObservation):
            return s
        return replace(
            s,
            action=self.words(s.action),
            captures=self.vertices(s.captures),
            self_captures=self.vertices(s.self_captures),
            to_move=self.colour(s.to_move),
            board=self.board(s.board),
        )

    def end(self, e: EndState | None) -> EndState | None:
        if not isinstance(e, EndState):
            return e
        return replace(e, to_move=self.colour(e.to_move), winner=self.colour(e.winner))

    def count(self, c: CountObservation) -> CountObservation:
        points = tuple((self.vertex(v), owner, why) for v, owner, why in c.points)
        c = replace(
            c, points=tuple(sorted(points, key=_reading_key(self.sym.target))), board=self.board(c.board)
        )
        if not self.t.swap:
            return c
        raise ValueError("colours are not swapped in an item that counts")  # colour_swap_excluded

    def settling(self, s: SettleObservation) -> SettleObservation:
        return replace(
            s,
            steps=tuple(self.step(step) for step in s.steps),
            end=self.end(s.end),
            settled=(s.settled[1], s.settled[0]) if self.t.swap and s.settled else s.settled,
            captured=self.vertices(s.captured),
            standing=self.vertices(s.standing),
            upheld=tuple(sorted(self.words(c) for c in s.upheld)),
            rejected=tuple(sorted(self.words(c) for c in s.rejected)),
            filled=tuple(sorted(self.words(c) for c in s.filled)),
        )


def _reading_key(geometry: Geometry):
    """Points in the board's reading order (top line first), as the reference lists them."""

    def key(point: tuple[str, str, str]) -> tuple[int, int]:
        try:
            x, y = geometry.xy(geometry.from_gtp(point[0]))
        except CoordinateError:
            return (geometry.height, 0)
        return (y, x)

    return key


# -- the reference's verdict carries over ------------------------------------------------------


@dataclass(frozen=True)
class Chosen:
    """The transform of one item (None: none keeps its verdict, ``why`` says why), a note of what
    was left out and why, and the points whose count claims are not compared under it
    (``left_out``: their reasons change under every transform offered)."""

    transform: Transform | None
    note: str = ""
    why: str = ""
    left_out: tuple[str, ...] = ()
    given: Item | None = field(default=None, compare=False, repr=False)  # the item under ``transform``

    def narrow(self, expectation: Expectation) -> Expectation:
        """``expectation`` without its claims on the points left out."""
        return without_points(expectation, self.left_out) if self.left_out else expectation

    @property
    def dropped(self) -> tuple[str, ...]:
        """The claims left out, one line (as an adapter's ``limit`` says what it leaves out)."""
        if not self.left_out or self.transform is None:
            return ()
        under = self.transform.name
        return (f"points {', '.join(self.left_out)}: under {under} the count picks other points by number",)


def without_points(expectation: Expectation, vertices: tuple[str, ...]) -> Expectation:
    """``expectation`` without its ``points`` claims on ``vertices``."""
    gone = frozenset(vertices)
    lines = []
    for line in expectation.points:
        kept = tuple(v for v in line.vertices if v not in gone)
        if kept:
            lines.append(replace(line, vertices=kept))
    return replace(expectation, points=tuple(lines))


def choose(
    seed: str, case_id: str, ruleset: str, expectation: Expectation, item: Item, rules: Rules, reference=None
) -> Chosen:
    """The first transform, in the order ``seed`` draws for the item, under which the reference's
    verdict carries over (:func:`reference_carries`)."""
    reference = reference if reference is not None else ReferenceAdapter()
    offered, note = transforms_of(item.setup, rules, expectation)
    if not offered:
        return Chosen(None, note, why=f"no transform of the item is offered ({note})")
    observed = reference.observe(item.setup, item.history, item.moves, rules)
    plain = judge(expectation, observed)
    order = seeded_order(seed, case_id, ruleset, offered)
    refused: list[str] = []
    tried: list[tuple[Transform, Item, Judgement]] = []
    for t in order:
        given = transform_item(t, item)
        derived = reference_judgement(t, expectation, item, rules, reference, given)
        if _same(derived, plain):
            return Chosen(t, _refused(note, refused), given=given)
        refused.append(t.name)
        tried.append((t, given, derived))
    # No transform keeps every claim. Where only some points' reasons change (a count picks points
    # by number: fill-back, basic eye points, negative moves), the first drawn is taken without them.
    for t, given, derived in tried:
        moved = _moved_points(plain, derived)
        if moved:
            narrowed = without_points(expectation, moved)
            if carries(t, narrowed, item, rules, judge(narrowed, observed), reference, given):
                return Chosen(t, _refused(note, refused), left_out=moved, given=given)
    why = "the reference's verdict changes under every transform offered"
    return Chosen(None, _refused(note, refused), why=why)


def _moved_points(plain: Judgement, derived: Judgement) -> tuple[str, ...]:
    """The points whose count claims alone make ``derived`` differ from a passing ``plain``
    (() when anything else differs)."""
    if plain.status is not Status.PASS or not derived.mismatches:
        return ()
    vertices = []
    for m in derived.mismatches:
        expected = m.expected
        if m.label != "point" or not isinstance(expected, Claim) or expected.kind != "point":
            return ()
        vertices.append(expected.args[0])
    return sort_vertices(set(vertices))


def _refused(note: str, refused: list[str]) -> str:
    """``note`` and the transforms drawn before the one chosen, under which the verdict changed."""
    changed = f"the reference's verdict changes under {', '.join(refused)}" if refused else ""
    return "; ".join(n for n in (note, changed) if n)


def carries(
    t: Transform,
    expectation: Expectation,
    item: Item,
    rules: Rules,
    plain: Judgement,
    reference,
    moved: Item | None = None,
) -> bool:
    """Whether the reference's judgement of ``item`` under ``t``, mapped back, is exactly ``plain``
    (its judgement of ``item`` as written): same status, same mismatches. ``moved``: ``item``
    under ``t``, where the caller has it already."""
    return _same(reference_judgement(t, expectation, item, rules, reference, moved), plain)


def _same(derived: Judgement, plain: Judgement) -> bool:
    return derived.status is plain.status and derived.mismatches == plain.mismatches


def reference_judgement(
    t: Transform,
    expectation: Expectation,
    item: Item,
    rules: Rules,
    reference=None,
    moved: Item | None = None,
) -> Judgement:
    """The reference's play of ``item`` under ``t``, mapped back and judged against ``expectation``
    (``moved``: ``item`` under ``t``, where the caller has it already)."""
    reference = reference if reference is not None else ReferenceAdapter()
    moved = moved if moved is not None else transform_item(t, item)
    observed = reference.observe(moved.setup, moved.history, moved.moves, rules)
    return judge(expectation, observation_back(t, item.setup, observed))
