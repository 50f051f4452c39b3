"""The DSL of spec/case.lark: diagrams, move lists, verdicts (positions are DSL-relative here)."""

import pytest
from jpdref.coords import Geometry
from jpdtools.errors import InputError, Location
from jpdtools.suite.dsl import Dsl, dead_chain
from jpdtools.suite.model import Claim, EndVerdict
from jpdtools.suite.setup import CaseAction


@pytest.fixture(scope="module")
def dsl() -> Dsl:
    return Dsl()


def place(line: int, column: int) -> Location:
    return Location("t", line, column)


def fails(call, text: str) -> tuple[str, int, int]:
    with pytest.raises(InputError) as info:
        call(text, place)
    err = info.value
    assert err.location is not None
    return err.code, err.location.line, err.location.column


DIAGRAM = """\
5x5 W
  A B C D E
5 . . . . . 5
4 . X O . .
3 X O a O .
2 . X O . .
1 . . . . .
  A B C D E
"""


def test_diagram_full(dsl):
    d = dsl.parse_diagram(DIAGRAM, place)
    assert (d.width, d.height, d.to_move) == (5, 5, "W")
    assert d.stones == (
        ("B4", "B"),
        ("C4", "W"),
        ("A3", "B"),
        ("B3", "W"),
        ("D3", "W"),
        ("B2", "B"),
        ("C2", "W"),
    )
    assert d.markers == (("a", "C3"),)


def test_diagram_minimal_and_non_square(dsl):
    d = dsl.parse_diagram("+X.\n...\n", place)
    assert (d.width, d.height, d.to_move, d.stones) == (3, 2, "B", (("B2", "B"),))


def test_diagram_with_comment_and_blank_lines(dsl):
    d = dsl.parse_diagram("\n\n3x2 B   # a comment\n. . .\n. O .\n\n", place)
    assert d.stones == (("B1", "W"),)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("...\n..X.\n...\n", ("diagram-shape", 2, 1)),
        ("3x3\n....\n....\n....\n", ("diagram-shape", 1, 1)),
        ("30x30\n...\n", ("board-size", 1, 1)),
        (".\n.\n", ("board-size", 1, 1)),
        ("3 ...\n2 ...\n2 ...\n", ("diagram-shape", 3, 1)),
        ("... 3\n... 2\n... 2\n", ("diagram-shape", 3, 5)),
        ("  A B D\n...\n...\n", ("diagram-shape", 1, 3)),
        ("...\n...\n  A C\n", ("diagram-shape", 3, 3)),
        ("a.a\n...\n", ("diagram-syntax", 1, 3)),
        ("..Q\n...\n", ("diagram-syntax", 1, 3)),
        ("XO.\nO..\n", ("impossible-position", 1, 1)),
        ("...\n.O.\nOXO\n", ("impossible-position", 3, 2)),
        ("", ("diagram-syntax", 1, 1)),
        ("3x3 X\n...\n", ("diagram-syntax", 1, 5)),
    ],
)
def test_diagram_errors(dsl, text, expected):
    assert fails(dsl.parse_diagram, text) == expected


def test_moves_values(dsl):
    actions = dsl.parse_moves("B c03 W @a  # comment\nB virtual\n\nW pass B resign", place)
    assert actions == (
        CaseAction("B", "move", "C3"),
        CaseAction("W", "move", "@a"),
        CaseAction("B", "virtual"),
        CaseAction("W", "pass"),
        CaseAction("B", "resign"),
    )
    assert [a.location for a in actions[:3]] == [place(1, 3), place(1, 9), place(2, 3)]
    assert dsl.parse_moves("", place) == ()
    assert dsl.parse_moves("\n  # nothing\n", place) == ()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("B C3 W", ("moves-syntax", 1, 7)),
        ("B C3 W Z", ("moves-syntax", 1, 8)),
        ("B C3 X D4", ("moves-syntax", 1, 6)),
        ("B C3\nW I3", ("moves-syntax", 2, 3)),
        ("b C3", ("moves-syntax", 1, 1)),
        ("B C3 D4", ("moves-syntax", 1, 6)),
        ("B C3 W\n", ("moves-syntax", 1, 7)),
    ],
)
def test_moves_errors(dsl, text, expected):
    assert fails(dsl.parse_moves, text) == expected


def test_verdicts(dsl):
    v = dsl.parse_verdicts(
        "1: legal captures D3 c3 C3\n"
        "2: illegal ko | legal\n"
        "3: void-pass suicide to-move W\n"
        "4: board .X+/OO.\n"
        "5: captures none self-captures A1\n"
        "end: ended cycle no-result\n",
        place,
    )
    assert [s.step for s in v.steps] == [1, 2, 3, 4, 5]
    assert v.steps[0].alternatives == ((Claim("legal"), Claim("captures", ("C3", "D3"))),)
    assert v.steps[1].is_open
    assert v.steps[3].alternatives == ((Claim("board", (".X./OO.",)),),)
    assert v.steps[4].alternatives == ((Claim("captures"), Claim("self-captures", ("A1",))),)
    assert v.end == EndVerdict("ended", ("cycle", "no-result"))
    assert v.end.location == place(6, 1)
    assert [w for _, w in v.vertices] == [place(1, 19), place(1, 22), place(1, 25), place(5, 32)]
    assert v.text.splitlines()[0] == "1: legal captures C3 D3"
    for text, end in [
        ("end: contest B", ("contest", ("B",))),
        ("end: halted four-virtual", ("halted", ("four-virtual",))),
        ("end: ended resignation W", ("ended", ("resignation", "W"))),
        ("end: ended illegal-move B", ("ended", ("illegal-move", "B"))),
    ]:
        assert dsl.parse_verdicts(text, place).end == EndVerdict(*end)


def test_verdict_text_round_trips(dsl):
    text = "1: legal captures C3 D3\n2: illegal ko | legal\nend: halted two-passes"
    assert dsl.parse_verdicts(text, place).text == text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1: legal |", ("verdict-syntax", 1, 11)),
        ("1: illegal kos", ("verdict-syntax", 1, 14)),
        ("1 legal", ("verdict-syntax", 1, 3)),
        ("1: legal\n1: captures C3", ("verdict-syntax", 2, 1)),
        ("end: contest B\nend: contest W", ("verdict-syntax", 2, 1)),
        ("end: finished", ("verdict-syntax", 1, 6)),
        ("2: self-captures", ("verdict-syntax", 1, 17)),
    ],
)
def test_verdict_errors(dsl, text, expected):
    assert fails(dsl.parse_verdicts, text) == expected


def test_messages_name_what_was_expected(dsl):
    with pytest.raises(InputError) as info:
        dsl.parse_moves("B C3 W", place)
    assert "expected" in info.value.message and "a vertex such as C3" in info.value.message


def test_dead_chain():
    g = Geometry(3, 3)
    assert dead_chain(g, [("A1", "B"), ("B2", "W")]) is None
    assert dead_chain(g, [("A1", "B"), ("B1", "W"), ("A2", "W")]) == "A1"


# -- counting: x/o marks, count and point verdicts, agreement texts -----------------------------
def test_diagram_dead_marks(dsl):
    d = dsl.parse_diagram("3x3\nX . x\nO . o\n. . .\n", place)
    assert ("C3", "B") in d.stones and ("C2", "W") in d.stones
    assert d.dead == ("C3", "C2")


def test_a_chain_drawn_partly_dead_is_an_error(dsl):
    with pytest.raises(InputError) as err:
        dsl.parse_diagram("3x3\nX x .\n. . .\n. . .\n", place)
    assert err.value.code == "bad-agreement" and "A3" in str(err.value)


def test_count_and_point_verdicts(dsl):
    from fractions import Fraction

    text = (
        "end: halted two-passes\ncount: winner W margin -0.50 black 3 white 4 unit moku\npoint: E5 d4 B eye\n"
    )
    v = dsl.parse_verdicts(text, place)
    assert v.count is not None and not v.count.is_open
    claim = v.count.alternatives[0]
    assert (claim.winner, claim.margin, claim.black, claim.white, claim.unit) == (
        "W",
        Fraction(-1, 2),
        Fraction(3),
        Fraction(4),
        "目",
    )
    assert v.points[0].vertices == ("E5", "D4") and (v.points[0].owner, v.points[0].why) == ("B", "eye")
    assert v.text == (
        "end: halted two-passes\ncount: winner W margin -0.5 black 3 white 4 unit 目\npoint: E5 D4 B eye"
    )
    assert dsl.parse_verdicts(v.text, place).text == v.text


def test_count_either_and_error(dsl):
    v = dsl.parse_verdicts("count: winner draw margin 0 | error no-first-pass\npoint: A1 none dame", place)
    assert v.count is not None and v.count.is_open
    assert [c.kind for c in v.count.alternatives] == ["result", "error"]
    assert v.count.alternatives[1].code == "no-first-pass"


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("count: winner B margin\n", (1, 23)),  # the margin is missing
        ("count: winner B margin 1.5.\n", (1, 24)),
        ("count: winner X margin 1\n", (1, 15)),
        ("count: error nonsense\n", (1, 14)),
        ("count: winner B margin 1 black 2\n", (1, 33)),
        ("count: winner B margin 1\ncount: error overflow\n", (2, 1)),
        ("point: A1 B territory\npoint: B2 A1 W stone\n", (2, 1)),
        ("point: A1 B nowhere\n", (1, 13)),
    ],
)
def test_bad_count_lines_are_located(dsl, text, where):
    assert fails(dsl.parse_verdicts, text) == ("verdict-syntax", *where)


def test_agreement_texts(dsl):
    found = dsl.parse_vertex_list("C3 d4\n@a", place)
    assert [v for v, _ in found] == ["C3", "D4", "@a"]
    assert found[2][1] == Location("t", 2, 1)
    claim = dsl.parse_agreement_claim("W one-sided f6", place)
    assert (claim.color, claim.kind, claim.vertex) == ("W", "one-sided", "F6")
    assert fails(dsl.parse_agreement_claim, "B kox E5") == ("bad-agreement", 1, 5)
    assert fails(dsl.parse_vertex_list, "C3 pass") == ("bad-agreement", 1, 4)


# -- settling by play (format.settle) ------------------------------------------------------------
SETTLING = """\
end: halted two-passes
settle 2: illegal pass-not-allowed | legal
settle 1: legal captures d3
settle-end: halted two-virtual
settled: W 3 B 2
proved: dead D3 D2
proved: alive C3
proved: upheld B ko B3
settle: error no-procedure
count: error unfinished
"""


def test_settling_lines(dsl):
    v = dsl.parse_verdicts(SETTLING, place)
    s = v.settle
    assert [x.step for x in s.steps] == [2, 1] and s.steps[0].is_open
    assert s.steps[1].alternatives[0][1] == Claim("captures", ("D3",))
    assert s.end == EndVerdict("halted", ("two-virtual",))
    assert (s.settled.black, s.settled.white) == (2, 3)  # either order, stored (Black, White)
    assert [(p.kind, p.vertices) for p in s.proved[:2]] == [("dead", ("D3", "D2")), ("alive", ("C3",))]
    assert str(s.proved[2].claim) == "B ko B3" and s.proved[2].claim.location == place(8, 21)
    assert s.error == "no-procedure" and v.count.alternatives[0].code == "unfinished"
    assert v.steps == () and v.end is not None
    # the canonical text: steps, end, the settling lines, count, points
    assert v.text.splitlines() == [
        "end: halted two-passes",
        "settle 2: illegal pass-not-allowed | legal",
        "settle 1: legal captures D3",
        "settle-end: halted two-virtual",
        "settled: B 2 W 3",
        "proved: dead D3 D2",
        "proved: alive C3",
        "proved: upheld B ko B3",
        "settle: error no-procedure",
        "count: error unfinished",
    ]
    assert dsl.parse_verdicts(v.text, place).settle == s
    # the proved vertices are checked against the board like captures
    assert ("D2", place(6, 17)) in v.vertices


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        ("settled: B 2 B 3", 1, 14),  # B and W once each
        ("settle 1: legal\nsettle 1: legal", 2, 8),  # a second line for settling step 1
        ("settle-end: contest B\nsettle-end: contest W", 2, 1),
        ("settled: B 1 W 1\nsettled: B 1 W 1", 2, 1),
        ("settle: error ended\nsettle: error ended", 2, 1),
        ("proved: dead C3\nproved: alive C3", 2, 1),
        ("proved: upheld B ko C3\nproved: rejected B ko C3", 2, 1),
        ("settle: error bogus", 1, 15),  # not a settling code
        ("settle-end: halted three-virtual", 1, 20),
        ("proved: upheld B eye C3", 1, 18),
        ("settled: B 2", 1, 13),
    ],
)
def test_settling_line_errors(dsl, text, line, column):
    assert fails(dsl.parse_verdicts, text) == ("verdict-syntax", line, column)


@pytest.mark.parametrize(
    "text",
    [
        SETTLING,
        "1: legal captures C3 d4 | illegal ko\n2: board .XO/X.O/...\nend: contest W\n",
        "end: halted two-passes\ncount: winner W margin -0.50 black 3 white 4 unit moku\n"
        "point: E5 d4 B eye\n",
    ],
)
def test_a_verdict_text_read_again_is_placed_where_it_is_written(text):
    """The grammar keeps a parsed verdict text: each reading gets the locations of its own place,
    exactly as a first parse with that place gives them (every location, repr compares them)."""
    from jpdtools.suite.grammar import Grammar, _VerdictBuilder

    grammar = Grammar()
    for shift in (0, 7, 0, 30):

        def here(line: int, column: int, shift=shift) -> Location:
            return Location(f"f{shift}", line + shift, column + 2 * shift)

        builder = _VerdictBuilder(here)
        first = builder.transform(grammar.parse(text, "verdicts", here)), builder.vertices, builder.boards
        assert repr(grammar.verdict_lines(text, here)) == repr(first)
        assert repr(Dsl().parse_verdicts(text, here)) == repr(Dsl().parse_verdicts(text, here))


def test_a_verdict_error_read_again_is_placed_where_it_is_written(dsl):
    text = "end: contest B\nsettled: B 2 B 3"
    for shift in (0, 5, 0):
        with pytest.raises(InputError) as info:
            dsl.parse_verdicts(text, lambda line, column, shift=shift: Location("t", line + shift, column))
        assert (info.value.code, info.value.location) == ("verdict-syntax", Location("t", 2 + shift, 14))
