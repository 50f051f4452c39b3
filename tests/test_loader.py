"""The case loader: schema, set-ups, expectations, error codes and exact file locations."""

import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jpdtools.errors import InputError
from jpdtools.presets import load_presets
from jpdtools.run.runner import default_loader, load_files
from jpdtools.suite.dsl import Dsl
from jpdtools.suite.loader import (
    check_error_case,
    load_case_file,
    load_case_text,
    resolve,
)
from jpdtools.suite.setup import CaseAction


@pytest.fixture(scope="module")
def presets():
    return load_presets()


@pytest.fixture(scope="module")
def dsl():
    return Dsl()


GOOD = """\
format: 1
topic: ko
cases:
  - id: ko.simple.recapture
    title: White takes the ko, Black retakes at once
    spec: [rep.simple-ko]
    seeds: ["001 第八条"]
    tags: [ko]
    depends: [repetition]
    board: |
      5x5 W
        A B C D E
      5 . . . . . 5
      4 . X O . . 4
      3 X O a O . 3
      2 . X O . . 2
      1 . . . . . 1
        A B C D E
    moves: W @a B C3
    expect:
      default: |
        1: legal captures C3
        2: illegal superko
      repetition=simple-ko: |
        1: legal captures C3
        2: illegal ko
  - id: ko.open
    title: An open question
    spec: [rep.simple-ko]
    seeds: []
    rules: [jpd-2022, japanese]
    size: 9x7
    history: B C3
    moves: "W D4 B pass"
    expect:
      japanese: |
        1: legal
        2: legal | illegal superko
        end: contest W
      default: "1: legal"
    open: [OQ-3]
"""

HEAD = "format: 1\ncases:\n  - id: x\n    title: t\n    spec: []\n    seeds: []\n"


def error_of(text: str, presets, dsl) -> tuple[str, int, int]:
    with pytest.raises(InputError) as info:
        load_case_text(text, "f.yaml", presets, dsl)
    err = info.value
    assert err.location is not None and err.location.path == "f.yaml"
    return err.code, err.location.line, err.location.column


# -- good files -------------------------------------------------------------------------------
def test_good_file(presets, dsl):
    cf = load_case_text(GOOD, "good.yaml", presets, dsl)
    assert (cf.format, cf.topic, [c.id for c in cf.cases]) == (
        1,
        "ko",
        ["ko.simple.recapture", "ko.open"],
    )
    first, second = cf.cases
    assert first.setup.to_move == "W" and first.setup.markers == (("a", "C3"),)
    assert first.moves == (CaseAction("W", "move", "C3"), CaseAction("B", "move", "C3"))
    assert first.moves[0].location.line == 19 and first.moves[0].location.column == 14
    assert first.seeds == ("001 第八条",) and first.depends == ("repetition",)
    assert [e.selector for e in first.expectations] == ["default", "repetition=simple-ko"]
    assert first.location.line == 4 and first.location.column == 9
    assert (second.setup.width, second.setup.height, second.setup.source) == (9, 7, "size")
    assert second.history == (CaseAction("B", "move", "C3"),)
    assert second.rules == ("jpd-2022", "japanese") and second.open == ("OQ-3",)
    assert second.expectations[0].steps[1].is_open
    assert second.expectations[0].end.args == ("W",)


def test_resolve(presets, dsl):
    first, second = load_case_text(GOOD, "good.yaml", presets, dsl).cases
    chosen = {r.name: e.selector for r, e in resolve(first, presets)}
    assert list(chosen) == presets.names
    assert chosen["jpd-art-2008"] == chosen["japanese"] == "repetition=simple-ko"
    assert chosen["jpd-2022"] == "default"
    assert [(r.name, e.selector) for r, e in resolve(second, presets)] == [
        ("jpd-2022", "default"),
        ("japanese", "japanese"),
    ]


def test_sgf_setup(presets, dsl):
    body = textwrap.dedent("""\
        sgf: |
          (;GM[1]FF[4]SZ[9:7]AB[aa:bb][cc]AW[ee]AE[bb]PL[W]C[a comment \\] here]
           ;W[dd];B[];W[tt](;B[ab])(;B[ac]))
        history: B E6
        moves: W A1
        expect: {default: "1: legal"}
    """)
    case = load_case_text(HEAD + textwrap.indent(body, "    "), "f", presets, dsl).cases[0]
    setup = case.setup
    assert (setup.width, setup.height, setup.to_move, setup.source) == (9, 7, "W", "sgf")
    assert setup.stones == (("A7", "B"), ("B7", "B"), ("A6", "B"), ("C5", "B"), ("E3", "W"))
    assert [str(a) for a in case.history] == ["W D4", "B pass", "W pass", "B A6", "B E6"]


def test_handicap_and_size_forms(presets, dsl):
    text = HEAD + "    size: '13'\n    handicap: 4\n    moves:\n    expect: {default: 'end: contest B'}\n"
    case = load_case_text(text, "f", presets, dsl).cases[0]
    assert (case.setup.width, case.setup.handicap, case.moves) == (13, 4, ())


def test_error_case(presets, dsl, tmp_path):
    text = textwrap.dedent("""\
        format: 1
        cases:
          - id: format.error.unknown-vertex
            title: A move naming a column the board does not have
            spec: [format.moves]
            seeds: []
            load-error:
              file: |
                format: 1
                cases:
                  - id: x
                    title: x
                    spec: []
                    seeds: []
                    size: 9
                    moves: B C3 W Z9
                    expect: {default: "1: legal"}
              code: unknown-vertex
              line: 8
              column: 19
    """)
    case = load_case_text(text, "f", presets, dsl).cases[0]
    assert case.is_error_case and case.load_error.code == "unknown-vertex"
    assert check_error_case(case, presets, dsl) == (True, "")
    wrong = load_case_text(text.replace("column: 19", "column: 17"), "f", presets, dsl).cases[0]
    ok, message = check_error_case(wrong, presets, dsl)
    assert not ok and "8:19" in message


# -- errors with exact locations --------------------------------------------------------------
ERRORS = [
    # a diagram error inside a block scalar: the 4-point row, at its first point
    ("board: |\n  ...\n  ..X.\n  ...\nmoves: ''\nexpect: {default: 'end: contest B'}", "diagram-shape", 9, 7),
    ("board: |\n  . . .\n  . . Q\nmoves: ''\nexpect: {default: 'end: contest B'}", "diagram-syntax", 9, 11),
    (
        "board: |\n  XO.\n  O..\n  ...\nmoves: ''\nexpect: {default: 'end: contest B'}",
        "impossible-position",
        8,
        7,
    ),
    (
        "board: |\n  3x4\n  ...\n  ...\n  ...\nmoves: ''\nexpect: {default: 'end: contest B'}",
        "diagram-shape",
        8,
        7,
    ),
    (
        "board: |\n  2x2\n  A B\n  .. 2\n  .. 0\nmoves: ''\nexpect: {default: 'end: contest B'}",
        "diagram-shape",
        11,
        10,
    ),
    ("board: |2\n    A B D\n  ...\n  ...\n  ...\nmoves: ''\nexpect: {}", "diagram-shape", 8, 9),
    # an unknown vertex in a one-line move list, plain and quoted
    ("size: 9\nmoves: B C3 W Z9\nexpect: {default: '1: legal'}", "unknown-vertex", 8, 19),
    ('size: 9\nmoves: "B C3 W  Z9"\nexpect: {default: "1: legal"}', "unknown-vertex", 8, 21),
    ("size: 9\nmoves: B C3\n  W D4 B\nexpect: {default: '1: legal'}", "moves-syntax", 9, 13),
    ("size: 9\nmoves: >\n  B C3\n  W D4 B\nexpect: {default: '1: legal'}", "moves-syntax", 10, 13),
    ("size: 9\nmoves: B @a\nexpect: {default: '1: legal'}", "unknown-marker", 8, 14),
    ("size: 9\nhistory: B C3 W\nmoves: ''\nexpect: {default: 'end: contest B'}", "moves-syntax", 8, 20),
    ("size: 9\nmoves: B C3\nexpect:\n  japan: '1: legal'", "unknown-ruleset", 10, 7),
    ("size: 9\nmoves: B C3\nexpect:\n  repetition=ko: x", "unknown-axis", 10, 18),
    ("size: 9\nmoves: B C3\nexpect:\n  suicide=allowed positon=board: x", "unknown-axis", 10, 23),
    ("size: 9\nrules: [jpd-2022, japan]\nmoves: B C3\nexpect: {}", "unknown-ruleset", 8, 23),
    (
        "size: 9\nmoves: B C3\nexpect:\n  default: |\n    1: legal\n    2: legal",
        "step-out-of-range",
        12,
        9,
    ),
    ("size: 9\nmoves: B C3\nexpect:\n  default: |\n    1: legal |", "verdict-syntax", 11, 19),
    (
        "size: 9\nmoves: B C3\nexpect:\n  default: |\n    1: legal | illegal ko",
        "missing-open",
        11,
        9,
    ),
    ("size: 9\nmoves: B C3\nexpect:\n  default: '1: captures Z1'", "unknown-vertex", 10, 29),
    ("size: 3\nmoves: B C3\nexpect:\n  default: '1: board .../...'", "diagram-shape", 10, 26),
    ("size: 9\nmoves: B C3\nexpect:\n  japanese: '1: legal'", "missing-expectation", 9, 5),
    (
        "size: 9\nmoves: B C3\nexpect:\n  repetition=simple-ko: '1: legal'\n"
        "  position=board: '1: illegal ko'\n  default: '1: legal'",
        "ambiguous-expectation",
        11,
        7,
    ),
    (
        "size: 9\ndepends: [suicide]\nmoves: B C3\nexpect:\n  pass=allowed: ''",
        "unknown-axis",
        11,
        7,
    ),
    ("size: 9\nmoves: B C3\nmoves: B C3", "yaml-syntax", 9, 5),
    ("size: 9\nmoves: [B C3\n", "yaml-syntax", 10, 1),
    ("size: 9\nmoves: B C3\nbogus: 1\nexpect: {}", "schema", 9, 5),
    ("size: 9\nsgf: (;SZ[9])\nmoves: B C3\nexpect: {}", "setup-conflict", 8, 5),
    ("size: 30\nmoves: ''\nexpect: {}", "board-size", 7, 11),
    ("size: 9\nhandicap: 1\nmoves: ''\nexpect: {}", "bad-handicap", 8, 15),
    ("board: |\n  X..\n  ...\nhandicap: 2\nmoves: ''\nexpect: {}", "setup-conflict", 10, 5),
    ('sgf: "(;SZ[9]AB[zz])"\nmoves: B C3\nexpect: {}', "unknown-vertex", 7, 20),
    (
        "sgf: |\n  (;SZ[9]\n   AB[aa]AW[ab][ba])\nmoves: ''\nexpect: {}",
        "impossible-position",
        9,
        10,
    ),
    ("sgf: |\n  (;SZ[9]\n   AB[aa]\nmoves: ''\nexpect: {}", "sgf-syntax", 9, 14),
    ("sgf: (;SZ[99])\nmoves: ''\nexpect: {}", "board-size", 7, 14),
    ("sgf: (;SZ[9];B[bb];AB[aa])\nmoves: ''\nexpect: {}", "sgf-syntax", 7, 24),
    ("size: 9\nmoves: B C3\nexpect: {default: '1: legal'}\nopen: [OQ3]", "schema", 10, 12),
]


@pytest.mark.parametrize(("body", "code", "line", "column"), ERRORS)
def test_error_locations(presets, dsl, body, code, line, column):
    text = HEAD + textwrap.indent(body, "    ") + "\n"
    assert error_of(text, presets, dsl) == (code, line, column)


@pytest.mark.parametrize(
    ("text", "code", "line", "column"),
    [
        ("", "schema", 1, 1),
        ("format: 2\ncases: []\n", "schema", 1, 9),
        ("format: 1\ncases: []\n", "schema", 2, 8),
        ("format: 1\ncases: [1]\n", "schema", 2, 8),
        ("format: 1\nextra: 1\ncases: []\n", "schema", 2, 1),
        ("format: 1\ncases:\n  - id: Bad_Id\n", "bad-id", 3, 9),
        ("format: 1\ncases:\n  - id: a\n    load-error: {}\n    board: x\n", "schema", 5, 5),
        ("format: 1\n\tcases: []\n", "yaml-syntax", 2, 1),
        ("a: [b\n", "yaml-syntax", 2, 1),
        ("? [a]\n: b\n", "yaml-syntax", 1, 3),
    ],
)
def test_file_level_errors(presets, dsl, text, code, line, column):
    assert error_of(text, presets, dsl) == (code, line, column)


def test_duplicate_id_in_one_file(presets, dsl):
    case = "  - id: x\n    title: t\n    spec: []\n    seeds: []\n    size: 9\n    moves: ''\n"
    case += "    expect: {default: 'end: contest B'}\n"
    text = "format: 1\ncases:\n" + case + case
    assert error_of(text, presets, dsl) == ("duplicate-id", 10, 9)


def test_duplicate_id_across_files(presets, tmp_path: Path):
    """The suite is loaded file by file (runner.load_files); a second use of an id is a
    located failure and the other files still load."""
    (tmp_path / "b").mkdir()
    (tmp_path / "a.yaml").write_text(GOOD, encoding="utf-8")
    (tmp_path / "b" / "c.yaml").write_text(GOOD.replace("id: ko.open", "id: ko.other"))
    (tmp_path / "notes.txt").write_text("not a case file")
    files, failures = load_files([tmp_path], presets, default_loader())
    assert [Path(f.path).name for f in files] == ["a.yaml", "c.yaml"]
    (failure,) = failures
    assert failure.code == "duplicate-id"
    where = failure.location
    assert (where.path, where.line, where.column) == (str(tmp_path / "b" / "c.yaml"), 4, 9)
    (tmp_path / "b" / "c.yaml").unlink()
    files, failures = load_files([tmp_path], presets, default_loader())
    assert [Path(f.path).name for f in files] == ["a.yaml"] and not failures


def test_missing_file(presets, dsl, tmp_path: Path):
    with pytest.raises(InputError):
        load_files([tmp_path / "nope"], presets, default_loader())
    (tmp_path / "bin.yaml").write_bytes(b"\xff\xfe")
    with pytest.raises(InputError) as info:
        load_case_file(tmp_path / "bin.yaml", presets, dsl)
    assert info.value.location.line >= 1


# -- never anything but InputError ------------------------------------------------------------
def _load_or_input_error(text: str, presets, dsl) -> None:
    try:
        load_case_text(text, "fuzz.yaml", presets, dsl)
    except InputError as err:
        assert err.location is not None and err.location.line >= 1, err
        assert err.code, err


_FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))


@_FUZZ
@given(data=st.data())
def test_mutated_files_fail_cleanly(presets, dsl, data):
    text = GOOD
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(text)))
        j = data.draw(st.integers(i, min(len(text), i + 8)))
        insert = data.draw(st.sampled_from(["", " ", "\n", ":", "|", "-", "#", "@", "[", "X", "9"]))
        text = text[:i] + insert + text[j:]
    text = text[: data.draw(st.integers(0, len(text)))] if data.draw(st.booleans()) else text
    _load_or_input_error(text, presets, dsl)


_DSL_ALPHABET = st.sampled_from(
    [
        *" \n\t.+XOxoabBW@:|/#123456789ACDZIJTtlegalpsv-",
        *("legal", "illegal ko", "captures", "end:", "pass", "virtual", "9x9", "A B C"),
        *("\r", "é", "\\"),
    ]
)


@_FUZZ
@given(
    board=st.lists(_DSL_ALPHABET, max_size=40).map("".join),
    moves=st.lists(_DSL_ALPHABET, max_size=20).map("".join),
    verdict=st.lists(_DSL_ALPHABET, max_size=30).map("".join),
    style=st.sampled_from(["block", "quoted", "plain"]),
)
def test_random_embedded_text_fails_cleanly(presets, dsl, board, moves, verdict, style):
    def scalar(text: str, indent: int) -> str:
        if style == "block":
            return "|\n" + textwrap.indent(text, " " * indent, lambda _: True)
        if style == "quoted":
            return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
        return text.replace("\n", " ")

    text = (
        HEAD
        + f"    board: {scalar(board, 6)}\n"
        + f"    moves: {scalar(moves, 6)}\n"
        + f"    expect:\n      default: {scalar(verdict, 8)}\n"
    )
    _load_or_input_error(text, presets, dsl)


@_FUZZ
@given(st.text(max_size=200))
def test_random_text_fails_cleanly(presets, dsl, text):
    _load_or_input_error(text, presets, dsl)
    _load_or_input_error(HEAD + "    sgf: " + text + "\n", presets, dsl)


# -- counting: agreement, counters, count verdicts ----------------------------------------------
COUNTING = """\
format: 1
cases:
  - id: count.t
    title: t
    spec: [count.area]
    seeds: []
    board: |
      4x4
      . X O .
      o X O .
      . X O .
      . X O .
    moves: ""
    agreement:
      dead: [A3]
      seki: "B1"
      claims: ["W one-sided d4"]
    counters:
      moves: [4, 5]
      first-pass: none
      last-move: W
      settling: [0, 1]
    expect:
      default: |
        count: winner W margin -5.50 black 4 white 3 unit 目
        point: A1 A2 B territory
"""


def test_counting_keys_load(presets, dsl):
    from fractions import Fraction

    case = load_case_text(COUNTING, "c.yaml", presets, dsl).cases[0]
    final = case.setup.final
    assert final is not None
    assert final.agreement.dead == ("A3",) and final.agreement.seki == ("B1",)
    assert [str(c) for c in final.agreement.claims] == ["W one-sided D4"]
    c = final.counters
    assert (c.moves, c.passes, c.first_pass, c.last_move, c.settling) == ((4, 5), None, "none", "W", (0, 1))
    e = case.expectations[0]
    assert e.count.alternatives[0].margin == Fraction(-11, 2)
    assert e.points[0].vertices == ("A1", "A2")
    assert "o X O ." in case.setup.text  # the dead mark is written back into the diagram


def test_no_counting_keys_no_final(presets, dsl):
    text = HEAD + "    size: 5\n    moves: B C3\n    expect: {default: '1: legal'}\n"
    assert load_case_text(text, "f.yaml", presets, dsl).cases[0].setup.final is None
    text = HEAD + "    size: 5\n    moves: ''\n    expect: {default: 'count: error overflow'}\n"
    final = load_case_text(text, "f.yaml", presets, dsl).cases[0].setup.final
    assert final is not None and final.agreement.empty and final.counters.empty


COUNT_ERRORS = [
    # a bad count line, in a block scalar
    ("size: 5\nmoves: ''\nexpect:\n  default: |\n    count: winner B margin x\n", "verdict-syntax", 11, 32),
    # an unknown vertex in agreement.dead (a one-line list) and in a point line
    (
        "size: 5\nmoves: ''\nagreement: {dead: 'A1 Z9'}\nexpect: {default: 'end: contest B'}",
        "unknown-vertex",
        9,
        27,
    ),
    ("size: 5\nmoves: ''\nexpect: {default: 'point: F1 B stone'}", "unknown-vertex", 9, 31),
    # marks that do not fit a position counted as it stands: located at the mark
    ("board: |\n  X..\n  ...\n  ..O\nmoves: ''\nagreement:\n  dead: A3 B2\n", "bad-agreement", 13, 16),
    ("board: |\n  X..\n  ...\n  ..O\nmoves: ''\nagreement:\n  seki: [C1, A1]\n", "bad-agreement", 13, 18),
    ("board: |\n  X..\n  ...\n  ..O\nmoves: ''\nagreement:\n  dame: [B1, A3]\n", "bad-agreement", 13, 18),
    (
        "board: |\n  X..\n  ...\n  ..O\nmoves: ''\nagreement:\n  claims: ['B ko C1']\n",
        "bad-agreement",
        13,
        22,
    ),
    (
        "board: |\n  X..\n  ...\n  ..O\nmoves: ''\nagreement:\n  claims: ['B ko B2', 'W ko B2']\n",
        "bad-agreement",
        13,
        33,
    ),
    (
        "board: |\n  XX.\n  ...\n  ..O\nmoves: ''\nagreement:\n  seki: A3\n  dead: B3\n",
        "bad-agreement",
        13,
        13,
    ),
    ("board: |\n  Xx.\n  ...\n  ..O\nmoves: ''\n", "bad-agreement", 8, 7),  # a chain drawn partly x
    ("size: 5\nmoves: ''\nagreement:\n  claims: ['B kx C1']\n", "bad-agreement", 10, 19),
    ("size: 5\nmoves: ''\nagreement:\n  dead: '@q'\n", "unknown-marker", 10, 14),
    ("size: 5\nmoves: ''\nagreement: [A1]\n", "schema", 9, 16),
    ("size: 5\nmoves: ''\nagreement: {dead: A1, alive: B2}\n", "schema", 9, 27),
    ("size: 5\nmoves: ''\ncounters: {moves: [1]}\n", "schema", 9, 23),
    ("size: 5\nmoves: ''\ncounters: {moves: [1, -1]}\n", "schema", 9, 23),
    ("size: 5\nmoves: ''\ncounters: {last-move: X}\n", "schema", 9, 27),
    ("size: 5\nmoves: ''\ncounters: {history: 3}\n", "schema", 9, 16),
    # an either count verdict needs 'open'
    (
        "size: 5\nmoves: ''\nexpect: {default: 'count: error overflow | error no-first-pass'}",
        "missing-open",
        9,
        24,
    ),
]


@pytest.mark.parametrize(("body", "code", "line", "column"), COUNT_ERRORS)
def test_counting_error_locations(presets, dsl, body, code, line, column):
    if "expect" not in body:
        body += "expect: {default: 'end: contest B'}\n"
    text = HEAD + textwrap.indent(body, "    ") + "\n"
    assert error_of(text, presets, dsl) == (code, line, column)


def test_dead_mark_with_moves_is_left_to_the_count(presets, dsl):
    """With moves, the agreement talks about the position after them: not checked on load."""
    body = "size: 5\nmoves: B C3\nagreement: {dead: A1}\nexpect: {default: 'count: error dead-on-empty'}\n"
    case = load_case_text(HEAD + textwrap.indent(body, "    "), "f.yaml", presets, dsl).cases[0]
    assert case.setup.final.agreement.dead == ("A1",)


def test_count_texts_that_differ_are_ambiguous(presets, dsl):
    body = (
        "size: 5\nmoves: ''\nexpect:\n"
        "  counting=area: 'count: winner B margin 1'\n"
        "  komi=chinese-3.75: 'count: winner B margin 2'\n"
        "  default: 'count: winner B margin 1'\n"
    )
    code, _, _ = error_of(HEAD + textwrap.indent(body, "    "), presets, dsl)
    assert code == "ambiguous-expectation"


# -- settling by play (format.settle) ------------------------------------------------------------
SETTLING = """\
format: 1
cases:
  - id: s
    title: t
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
    agreement: {claims: ['B ko A1']}
    settle:
      first: W
      moves: W @a B pass W pass
      dispute:
        stones: [d3, C3]
        claims: ['B ko A2']
    expect:
      default: |
        settle 1: legal captures D3
        settle-end: halted two-passes
        settled: B 0 W 1
        proved: dead D3
        proved: rejected B ko A2
"""


def test_settle_key_loads(presets, dsl):
    case = load_case_text(SETTLING, "s.yaml", presets, dsl).cases[0]
    settle = case.setup.final.settle
    assert settle.first == "W" and [str(a) for a in settle.moves] == ["W D2", "B pass", "W pass"]
    assert settle.stones == ("C3", "D3") and [str(c) for c in settle.claims] == ["B ko A2"]
    assert [str(c) for c in case.setup.final.agreement.claims] == ["B ko A1"]
    e = case.expectations[0]
    assert e.settles and not e.counts and e.settle.settled.white == 1
    # the settle key alone makes the case say something about counting (final is set)
    plain = SETTLING.split("    expect:")[0] + "    expect: {default: 'end: contest B'}\n"
    plain = plain.replace("    agreement: {claims: ['B ko A1']}\n", "")
    final = load_case_text(plain, "s.yaml", presets, dsl).cases[0].setup.final
    assert final is not None and final.agreement.empty and final.settle is not None


SETTLE_ERRORS = [
    ("settle: [W D2]\n", "schema", 9, 13),
    ("settle: {moves: W D2, by: B}\n", "schema", 9, 27),
    ("settle: {first: W}\n", "schema", 9, 13),
    ("settle: {first: X, moves: ''}\n", "schema", 9, 21),
    ("settle: {moves: W Z9}\n", "unknown-vertex", 9, 23),
    ("settle: {moves: W @q}\n", "unknown-marker", 9, 23),
    ("settle: {moves: W D2 X}\n", "moves-syntax", 9, 26),
    ("settle: {moves: '', dispute: [A1]}\n", "schema", 9, 34),
    ("settle: {moves: '', dispute: {stones: Z9}}\n", "unknown-vertex", 9, 43),
    ("settle: {moves: '', dispute: {claims: ['B ko A1', 'W ko A1']}}\n", "bad-agreement", 9, 61),
    ("settle: {moves: '', dispute: {claims: ['B kx A1']}}\n", "bad-agreement", 9, 47),
    ("settle: {moves: '', dispute: {dead: A1}}\n", "schema", 9, 35),
    # settling verdicts: without the key, a step out of range, an undisputed claim, open
    ("expect: {default: 'settled: B 0 W 0'}\n", "verdict-syntax", 9, 24),
    ("settle: {moves: W D2}\nexpect: {default: 'settle 2: legal'}\n", "step-out-of-range", 10, 31),
    (
        "settle: {moves: W D2}\nexpect: {default: 'proved: upheld B ko A1'}\n",
        "verdict-syntax",
        10,
        44,
    ),
    (
        "settle: {moves: W D2}\nexpect: {default: 'settle 1: legal | illegal ko'}\n",
        "missing-open",
        10,
        31,
    ),
]


@pytest.mark.parametrize(("body", "code", "line", "column"), SETTLE_ERRORS)
def test_settle_error_locations(presets, dsl, body, code, line, column):
    if "expect" not in body:
        body += "expect: {default: 'end: contest B'}\n"
    text = HEAD + textwrap.indent("size: 5\nmoves: B pass W pass\n" + body, "    ") + "\n"
    assert error_of(text, presets, dsl) == (code, line, column)


# -- Chinese texts (spec/case-format.md#format.zh) ----------------------------------------------
ZH_HEAD = "format: 1\ncases:\n  - id: x\n    title: t\n"
ZH_TAIL = "    spec: []\n    seeds: []\n    size: 9\n    moves: B C3\n    expect: {default: '1: legal'}\n"


def test_zh_texts_load_and_write_back(presets, dsl):
    from jpdtools.suite.model import CaseFile
    from jpdtools.suite.writer import dump_case_file

    zh = "    zh:\n      title: 黑下 C3\n      note: 说明，C3 三路。\n"
    text = ZH_HEAD + zh + ZH_TAIL + "    note: A note.\n"
    (case,) = load_case_text(text, "f.yaml", presets, dsl).cases
    assert (case.zh_title, case.zh_note.strip()) == ("黑下 C3", "说明，C3 三路。")
    written = dump_case_file(CaseFile("f.yaml", 1, "", (case,)))
    assert "    title: t\n    zh:\n      title: 黑下 C3\n      note: 说明，C3 三路。\n" in written
    (again,) = load_case_text(written, "f.yaml", presets, dsl).cases
    assert (again.zh_title, again.zh_note) == (case.zh_title, case.zh_note)
    (plain,) = load_case_text(ZH_HEAD + ZH_TAIL, "f.yaml", presets, dsl).cases
    assert (plain.zh_title, plain.zh_note) == ("", "")


@pytest.mark.parametrize(
    ("zh", "tail", "line", "column"),
    [
        ("    zh: 黑\n", "", 5, 9),  # not a mapping
        ("    zh: {note: 说明}\n", "    note: n\n", 5, 9),  # no title
        ("    zh: {title: 黑, other: 1}\n", "", 5, 20),  # unknown key
        ("    zh:\n      title: |\n        一\n        二\n", "", 6, 14),  # two lines
        ("    zh: {title: 黑, note: 说明}\n", "", 5, 20),  # a note where the case has none
        ("    zh: {title: 黑, note: ''}\n", "    note: n\n", 5, 26),  # an empty note
    ],
)
def test_zh_errors(presets, dsl, zh, tail, line, column):
    assert error_of(ZH_HEAD + zh + ZH_TAIL + tail, presets, dsl) == ("schema", line, column)


def test_zh_goes_directly_after_the_title(presets, dsl):
    text = ZH_HEAD + "    spec: []\n    zh: {title: 黑}\n" + ZH_TAIL.replace("    spec: []\n", "")
    assert error_of(text, presets, dsl) == ("schema", 6, 5)
