"""The hand-written reader of diagrams and move lists agrees with the grammar of spec/case.lark.

:mod:`jpdtools.suite.quickparse` may decline a text (``None``: the grammar reads it), but whatever it
returns must be exactly what the grammar returns, token positions included; every text of the suite
is read by it; and ``jpd play`` never imports Lark.
"""

import contextlib
import functools
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jpdtools.errors import InputError, Location
from jpdtools.paths import conformance_dir
from jpdtools.presets import load_presets
from jpdtools.suite import loader, quickparse
from jpdtools.suite.dsl import Dsl
from jpdtools.suite.grammar import Grammar
from jpdtools.suite.syntax import RawDiagram


def _place(line: int, column: int) -> Location:
    return Location("t", line, column)


def _tokens(raw: RawDiagram) -> tuple:
    """The diagram with every token as (text, line, column): Lark's tokens and ours compare equal
    as strings, so positions are compared explicitly."""

    def tok(t):
        return None if t is None else (str(t), t.line, t.column)

    rows = tuple((tok(r.left), tuple(tok(p) for p in r.points), tok(r.right)) for r in raw.rows)
    return tok(raw.size), tok(raw.color), tuple(tok(c) for c in raw.columns), rows


@functools.cache
def _grammar() -> Grammar:
    return Grammar()


def _grammar_diagram(text: str):
    try:
        return _tokens(_grammar().raw_diagram(text, _place))
    except InputError:
        return "error"


def _grammar_moves(text: str):
    try:
        return _grammar().moves(text, _place)
    except InputError:
        return "error"


@pytest.fixture(scope="module")
def suite_texts():
    """Every diagram and move list the loader reads from the suite's case files."""
    diagrams, moves = [], []
    real_diagram, real_moves = quickparse.diagram, quickparse.moves

    def diagram(text):
        diagrams.append(str(text))
        return real_diagram(text)

    def moves_(text, place):
        moves.append(str(text))
        return real_moves(text, place)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(quickparse, "diagram", diagram)
        mp.setattr(quickparse, "moves", moves_)
        presets = load_presets()
        for path in sorted(conformance_dir().glob("*.yaml")):
            with contextlib.suppress(InputError):  # format-errors.yaml: errors on purpose
                loader.load_case_file(path, presets, Dsl())
    assert len(diagrams) > 300 and len(moves) > 300
    return diagrams, moves


@pytest.mark.slow  # every diagram of the suite through Lark
def test_every_diagram_of_the_suite_is_read_as_the_grammar_reads_it(suite_texts):
    diagrams, _ = suite_texts
    declined = []
    for text in dict.fromkeys(diagrams):  # each distinct text once: both readers are functions of it
        quick = quickparse.diagram(text)
        if quick is None:
            declined.append(text)
            continue
        assert _tokens(quick) == _grammar_diagram(text), text
    assert declined == []


@pytest.mark.slow  # every move list of the suite through Lark
def test_every_move_list_of_the_suite_is_read_as_the_grammar_reads_it(suite_texts):
    _, moves = suite_texts
    for text in dict.fromkeys(moves):
        quick = quickparse.moves(text, _place)
        assert quick is not None, text
        assert quick == _grammar_moves(text), text


_DIAGRAM_CHARS = st.sampled_from([*"XOxo.+abz 9x5\t\n\r#ABCW1", " A B C", "5x5 B\n", "\n2 ", "10"])
_MOVE_WORDS = st.sampled_from(
    [
        *("B", "W", "b", "C3", "c03", "I5", "T19", "Z25", "A100", "@a", "@o", "pass", "virtual", "resign"),
        *("PASS", " ", "  ", "\t", "\n", "\r\n", "\r", "# note\n", "B@a", "BC3", "C3W"),
    ]
)


@settings(max_examples=600, deadline=None)
@given(st.lists(_DIAGRAM_CHARS, max_size=40).map("".join))
def test_a_generated_diagram_is_declined_or_read_as_the_grammar_reads_it(text):
    quick = quickparse.diagram(text)
    if quick is not None:
        assert _tokens(quick) == _grammar_diagram(text)


@settings(max_examples=600, deadline=None)
@given(st.lists(_MOVE_WORDS, max_size=16).map(" ".join) | st.lists(_MOVE_WORDS, max_size=16).map("".join))
def test_a_generated_move_list_is_declined_or_read_as_the_grammar_reads_it(text):
    quick = quickparse.moves(text, _place)
    if quick is not None:
        assert quick == _grammar_moves(text)


@functools.cache
def _points(width: int):
    """A row's points (one strategy per width: a strategy built on every draw is validated anew)."""
    return st.lists(st.sampled_from("XO..+"), min_size=width, max_size=width)


_SEPARATORS = st.sampled_from([" ", "", "\t"])
_COLOURS = st.sampled_from("BW")
_ENDINGS = st.sampled_from(["", "\n", "\n\n", "  # a comment\n"])


@settings(max_examples=300, deadline=None)
@given(
    st.integers(2, 9),
    st.integers(2, 9),
    st.booleans(),
    st.booleans(),
    st.data(),
)
def test_a_generated_well_formed_diagram_is_read_by_both(width, height, header, labels, data):
    """Well-formed diagrams (the shapes people write) are read by the hand-written reader."""
    rows = []
    for y in range(height):
        points = data.draw(_points(width))
        sep = data.draw(_SEPARATORS)
        body = sep.join(points)
        rows.append(f"{height - y} {body} {height - y}" if labels else body)
    lines = ([f"{width}x{height} {data.draw(_COLOURS)}"] if header else []) + rows
    text = "\n".join(lines) + data.draw(_ENDINGS)
    quick = quickparse.diagram(text)
    assert quick is not None, text
    assert _tokens(quick) == _grammar_diagram(text)


def test_jpd_play_does_not_import_lark():
    """The start-up of ``jpd play``: the diagram and the moves are read without the grammar's parser."""
    script = (
        "import sys\n"
        "from jpdtools.cli import main\n"
        "code = main(['play', '-', '--rules', 'chinese', '--moves', 'B C3 W pass B @a'])\n"
        "print(code, sorted(m for m in sys.modules if m.split('.')[0] == 'lark'))\n"
    )
    diagram = "5x5 B\n. . . . .\n. X O . .\nX a X O .\n. X O . .\n. . . . .\n"
    out = subprocess.run([sys.executable, "-c", script], input=diagram, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[-1] == "0 []", out.stdout
