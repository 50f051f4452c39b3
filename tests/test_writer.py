"""The writer: load(dump(load(x))) == load(x), for generated cases and the real suite."""

import functools
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jpdref.coords import Geometry
from jpdtools.paths import conformance_dir
from jpdtools.presets import load_presets
from jpdtools.suite.dsl import Dsl, dead_chain
from jpdtools.suite.loader import load_case_file, load_case_text
from jpdtools.suite.model import Case, CaseFile, Claim, EndVerdict, Expectation, LoadErrorSpec, StepVerdict
from jpdtools.suite.setup import CaseAction, Setup
from jpdtools.suite.writer import dump_case_file, render_diagram

PRESETS = load_presets()
DSL = Dsl()
REASONS = ["occupied", "off-board", "out-of-turn", "game-over", "suicide", "ko", "superko"]
LETTERS = "abcdefghjk"


def reload(cf: CaseFile) -> CaseFile:
    return load_case_text(dump_case_file(cf), cf.path, PRESETS, DSL)


# -- generated cases --------------------------------------------------------------------------
@st.composite
def setups(draw) -> Setup:
    width, height = draw(st.integers(2, 7)), draw(st.integers(2, 7))
    if draw(st.booleans()):
        return Setup(width, height)
    g = Geometry(width, height)
    cells = draw(st.lists(st.sampled_from(".XO.ab"), min_size=g.area, max_size=g.area))
    stones, markers = [], {}
    for p, cell in enumerate(cells):
        if cell in "XO":
            stones.append((g.to_gtp(p), "B" if cell == "X" else "W"))
        elif cell in LETTERS and cell not in markers:
            markers[cell] = g.to_gtp(p)
    if dead_chain(g, stones) is not None:
        stones = []
    setup = Setup(
        width,
        height,
        draw(st.sampled_from("BW")),
        tuple(stones),
        tuple(sorted(markers.items())),
        source="board",
    )
    return replace(setup, text=render_diagram(setup))


def actions(setup: Setup):
    g = Geometry(setup.width, setup.height)
    vertex = st.integers(0, g.area - 1).map(g.to_gtp)
    move = st.builds(CaseAction, st.sampled_from("BW"), st.just("move"), vertex)
    other = st.builds(CaseAction, st.sampled_from("BW"), st.sampled_from(["pass", "virtual"]))
    return st.lists(move | other, max_size=12).map(tuple)


@functools.cache
def alternatives(width: int, height: int):
    """A step verdict's alternatives on a board of this size (one strategy per size: building and
    validating a strategy on every draw was most of this file's time)."""
    claims_ = claims(width, height)
    return st.lists(st.lists(claims_, min_size=1, max_size=3).map(tuple), min_size=1, max_size=2).map(tuple)


def claims(width: int, height: int):
    g = Geometry(width, height)
    vertices = st.lists(st.integers(0, g.area - 1).map(g.to_gtp), max_size=3)
    rows = st.lists(
        st.text("XO.", min_size=width, max_size=width),
        min_size=height,
        max_size=height,
    ).map("/".join)
    return st.one_of(
        st.just(Claim("legal")),
        st.builds(
            Claim,
            st.sampled_from(["illegal", "void-pass", "forfeit"]),
            st.sampled_from(REASONS).map(lambda r: (r,)),
        ),
        st.builds(Claim, st.just("captures"), vertices.map(lambda v: tuple(sorted(set(v))))),
        st.builds(
            Claim,
            st.just("self-captures"),
            vertices.filter(bool).map(lambda v: tuple(sorted(set(v)))),
        ),
        st.builds(Claim, st.just("to-move"), st.sampled_from("BW").map(lambda c: (c,))),
        st.builds(Claim, st.just("board"), rows.map(lambda r: (r,))),
    )


ENDS = st.sampled_from(
    [
        None,
        EndVerdict("contest", ("B",)),
        EndVerdict("halted", ("two-passes",)),
        EndVerdict("halted", ("four-virtual",)),
        EndVerdict("ended", ("resignation", "W")),
        EndVerdict("ended", ("illegal-move", "B")),
        EndVerdict("ended", ("cycle", "draw")),
        EndVerdict("ended", ("cycle", "no-result")),
    ]
)
SELECTORS = ["japanese", "repetition=simple-ko", "suicide=forbidden position=board"]
TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)


@st.composite
def expectations(draw, setup: Setup, n_moves: int) -> tuple[Expectation, ...]:
    selectors = ["default", *draw(st.lists(st.sampled_from(SELECTORS), unique=True, max_size=1))]
    out = []
    for selector in selectors:
        steps = draw(st.lists(st.integers(1, n_moves), unique=True, max_size=n_moves)) if n_moves else []
        verdicts = tuple(StepVerdict(step, draw(alternatives(setup.width, setup.height))) for step in steps)
        # a verdict text states at least one claim (an empty one is missing-expectation)
        end = draw(ENDS if verdicts else ENDS.filter(lambda e: e is not None))
        out.append(Expectation(selector, verdicts, end))
    return tuple(out)


@st.composite
def cases(draw, index: int) -> Case:
    title = draw(TEXT.filter(lambda t: t.strip() and "\n" not in t.strip()))
    if draw(st.integers(0, 5)) == 0:
        return Case(
            id=f"err.{index}",
            title=title.strip(),
            spec=("format.errors",),
            seeds=(),
            note=draw(TEXT),
            load_error=LoadErrorSpec(draw(TEXT.filter(str.strip)), "schema", 1, 1),
        )
    setup = draw(setups())
    history = draw(actions(setup))
    moves = draw(actions(setup))
    found = draw(expectations(setup, len(moves)))
    return Case(
        id=f"case.{index}",
        title=title.strip(),
        spec=tuple(draw(st.lists(st.sampled_from(["rep.simple-ko", "format.moves"]), max_size=2))),
        seeds=tuple(draw(st.lists(TEXT.filter(str.strip).map(str.strip), max_size=2))),
        tags=tuple(draw(st.lists(st.sampled_from(["ko", "a b", "x: y", "'q'"]), max_size=2))),
        setup=setup,
        history=history,
        moves=moves,
        expectations=found,
        open=("OQ-1",) if any(s.is_open for e in found for s in e.steps) else (),
        note=draw(TEXT),
    )


@st.composite
def case_files(draw) -> CaseFile:
    n = draw(st.integers(1, 3))
    return CaseFile("gen.yaml", 1, draw(TEXT).strip(), tuple(draw(cases(i)) for i in range(n)))


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(case_files())
def test_generated_round_trip(cf):
    loaded = reload(cf)
    assert reload(loaded) == loaded
    for made, got in zip(cf.cases, loaded.cases, strict=True):
        assert (got.id, got.title, got.moves, got.history, got.setup) == (
            made.id,
            made.title,
            made.moves,
            made.history,
            made.setup,
        )
        assert [(e.selector, e.steps, e.end) for e in got.expectations] == [
            (e.selector, e.steps, e.end) for e in made.expectations
        ]
        assert (got.note, got.load_error, got.seeds, got.tags) == (
            made.note,
            made.load_error,
            made.seeds,
            made.tags,
        )


def test_dump_format():
    setup = Setup(3, 2, "W", (("A2", "B"),), (("a", "C1"),), source="board")
    case = Case(
        "x.y",
        "A title",
        ("format.diagram",),
        ("000 §22",),
        setup=replace(setup, text=""),
        moves=(CaseAction("W", "move", "C1"), CaseAction("B", "pass")),
        expectations=(Expectation("default", (StepVerdict(1, ((Claim("legal"),),)),), None),),
    )
    text = dump_case_file(CaseFile("f", 1, "", (case,)))
    assert text == (
        "format: 1\ncases:\n  - id: x.y\n    title: A title\n    spec: [format.diagram]\n"
        "    seeds: [000 §22]\n    board: |\n      3x2 W\n        A B C\n      2 X . . 2\n"
        "      1 . . a 1\n        A B C\n    moves: W C1 B pass\n    expect:\n"
        "      default: |\n        1: legal\n"
    )


SGF_CASE = """\
format: 1
cases:
  - id: sgf.case
    title: From SGF
    spec: []
    seeds: []
    sgf: (;SZ[9]HA[2];W[cc];B[tt])
    history: W D4
    moves: B E5
    expect: {default: "1: legal"}
  - id: sgf.free
    title: From SGF with a handicap key
    spec: []
    seeds: []
    sgf: "(;SZ[9]\\n;B[aa])"
    handicap: 3
    moves: W E5
    expect: {default: "1: legal"}
"""


def test_sgf_round_trip():
    cf = load_case_text(SGF_CASE, "sgf.yaml", PRESETS, DSL)
    assert cf.cases[0].setup.handicap == 2 and len(cf.cases[0].history) == 3
    assert cf.cases[1].setup.handicap == 3
    assert reload(cf) == cf


REAL = sorted(conformance_dir().rglob("*.yaml"))


def test_the_suite_has_case_files_to_round_trip():
    assert len(REAL) >= 20, REAL  # an empty glob would make the round trip below vacuous


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.name)
def test_real_files_round_trip(path):
    cf = load_case_file(path, PRESETS, DSL)
    assert reload(cf) == cf


# -- counting: agreement, counters, count and point verdicts -----------------------------------
COUNTING_FILE = """\
format: 1
cases:
  - id: c.board
    title: dead marks in the diagram and in the list, claims, overrides, counters
    spec: [count.agreement]
    seeds: []
    board: |
      5x4
      . X . O .
      o X . O .
      . X X O .
      . X O O x
    moves: ""
    agreement:
      dead: [A3]
      seki: B1
      claims: ["B ko C3", "W one-sided e2"]
      dame: C4
    counters: {moves: [5, 5], passes: [1, 0], virtual: [0, 1], prisoners: [2, 0], handicap: 0,
      first-pass: none, last-move: W, settling: [1, 1]}
    expect:
      default: |
        count: winner W margin -5.25 black 5 white 4.75 unit 子 | error overflow
        point: C3 B claimed
        point: C4 A4 none dame
      counting=roads: |
        count: error no-interior-stone
    open: [OQ-37]
  - id: c.size
    title: a position reached by moves; its dead stone is named in the list
    spec: [count.agreement]
    seeds: []
    size: 5
    moves: B C3 W D4 B pass W pass
    agreement: {dead: D4}
    expect:
      default: |
        4: legal
        count: winner B margin 25
  - id: c.sgf
    title: an SGF set-up with a dead stone and no counters
    spec: [count.agreement]
    seeds: []
    sgf: (;SZ[5]AB[cc]AW[dd])
    moves: ""
    agreement: {dead: D2}
    expect:
      default: "count: winner B margin 25"
"""


def test_counting_round_trip():
    cf = load_case_text(COUNTING_FILE, "c.yaml", PRESETS, DSL)
    text = dump_case_file(cf)
    assert reload(cf) == cf
    board = cf.cases[0]
    assert board.setup.final.agreement.dead == ("A3", "E1")
    assert "o X . O ." in text and ". X O O x" in text and "dead:" not in text.split("c.size")[0]
    assert "claims: [B ko C3, W one-sided E2]" in text
    assert "first-pass: none" in text and "settling: [1, 1]" in text
    assert "agreement:\n      dead: D4" in text


def test_counting_real_examples_round_trip():
    path = conformance_dir() / "counting-examples.yaml"
    cf = load_case_file(path, PRESETS, DSL)
    assert any(c.setup.final is not None and c.setup.final.agreement.dead for c in cf.cases)
    assert reload(cf) == cf


# -- settling by play (format.settle) ------------------------------------------------------------
SETTLING_FILE = """\
format: 1
cases:
  - id: s.one
    title: a dispute settled by play, with every settling line
    spec: [count.settling]
    seeds: []
    rules: [jpd-art-2008]
    board: |
      . X O . .
      . X O O .
      . X O X O
      . X O a .
      . X O . .
    moves: B pass W pass
    settle:
      first: W
      moves: W @a B pass W pass
      dispute: {stones: [D3], claims: ["B ko A1", "W one-sided E1"]}
    expect:
      default: |
        settle 1: legal captures D3 | illegal ko
        settle-end: halted two-passes
        settled: W 1 B 0
        proved: dead D3
        proved: upheld B ko A1
        settle: error first-mover
        count: error ended
    open: [OQ-47]
  - id: s.two
    title: an empty settling stage and no dispute
    spec: [count.settling]
    seeds: []
    size: 5
    moves: B pass W pass
    settle: {moves: ""}
    expect:
      default: "settle-end: contest B"
"""


def test_settling_round_trip():
    cf = load_case_text(SETTLING_FILE, "s.yaml", PRESETS, DSL)
    text = dump_case_file(cf)
    assert reload(cf) == cf
    assert "    settle:\n      first: W\n      moves: W D2 B pass W pass\n" in text
    assert "      dispute:\n        stones: D3\n        claims: [B ko A1, W one-sided E1]\n" in text
    assert "settled: B 0 W 1" in text and "settle 1: legal captures D3 | illegal ko" in text
    assert '    settle:\n      moves: ""\n' in text
