"""The record's own agreement (spec/counting.md#count.replay rule 2, OQ-56), its komi (``--komi
record``) and how a counted record's end is named under jpd-a/jpd-b.

Synthetic 5×5 records: Black's wall on the b column, White's on the c column (as in
tests/test_replay.py), and variations that open a border, leave a seki eye unmarked or mark a
point against the board.
"""

import json

import pytest
from jpdref.coords import Geometry
from jpdtools.cli import main
from jpdtools.presets import load_presets
from jpdtools.records.gamerecord import Marks, MarksError
from jpdtools.records.sgf import parse_sgf_text
from jpdtools.records.verdict import record_komi, referee_record

PRESETS = load_presets()
G5 = Geometry.square(5)
COLUMNS = ";B[bc];W[cc];B[bb];W[cb];B[bd];W[cd];B[ba];W[ca];B[be];W[ce]"  # B column b, W column c


def _points(*vertices: str) -> frozenset[int]:
    return frozenset(G5.from_gtp(v) for v in vertices)


def _board(rows: list[str]) -> tuple[int, ...]:
    """Rows top (row 5) to bottom, X black, O white."""
    return tuple({"X": 1, "O": 2}.get(ch, 0) for row in rows for ch in row)


WALLS = _board([".XO..", ".XO..", ".XO..", ".XO..", ".XO.."])


def test_empty_marks_are_agreed_owners_and_stones_on_the_other_colour_dead():
    board = _board([".XO..", ".XO..", ".XOX.", ".XO..", ".XO.."])  # a black stone at D3 in White's area
    marks = Marks(black=_points("A1", "A2", "A3", "A4", "A5"), white=_points("D3", "D1", "E1"))
    agreement = marks.agreement(G5, board)
    assert agreement.dead == _points("D3")
    assert agreement.black_owns == _points("A1", "A2", "A3", "A4", "A5")
    assert agreement.white_owns == _points("D3", "D1", "E1")  # the dead stone's point too
    assert agreement.seki == frozenset()  # the D-E region has marks: territory, not a seki eye


def test_an_unmarked_one_colour_region_of_a_territory_marking_record_is_a_seki_eye():
    marks = Marks(black=_points("A1", "A2", "A3", "A4", "A5"))  # White's D-E columns left unmarked
    agreement = marks.agreement(G5, WALLS)
    assert agreement.seki == _points("C1", "C2", "C3", "C4", "C5")


def test_a_record_that_marks_only_dead_stones_says_nothing_about_seki():
    board = _board([".XO..", ".XO..", ".XOX.", ".XO..", ".XO.."])
    agreement = Marks(white=_points("D3")).agreement(G5, board)
    assert agreement.dead == _points("D3") and agreement.seki == frozenset()


def test_a_mark_of_a_stones_own_colour_is_not_read():
    agreement = Marks(black=_points("B3", "A3"), white=_points("C3", "D3")).agreement(G5, WALLS)
    assert agreement.dead == frozenset()
    assert agreement.black_owns == _points("A3") and agreement.white_owns == _points("D3")


@pytest.mark.parametrize(
    ("marks", "vertex"),
    [
        (Marks(black=_points("D3")), "D3"),  # TB in a region only White borders
        (Marks(white=_points("A2")), "A2"),  # TW in a region only Black borders
        (Marks(black=_points("A1"), white=_points("A1")), "A1"),  # both on one point
    ],
)
def test_marks_that_contradict_the_board_are_an_error_naming_the_point(marks, vertex):
    with pytest.raises(MarksError) as err:
        marks.agreement(G5, WALLS, "games/x.sgf")
    assert err.value.vertex == vertex and "games/x.sgf" in str(err.value) and err.value.code == "bad-marks"


def _verdicts(body: str, root: str = "", rules=("chinese", "japanese"), komi: str = "rules") -> dict:
    data = f"(;GM[1]FF[4]SZ[5]{root}{body})".encode()
    lines = referee_record("g.sgf", data, [PRESETS.get(r) for r in rules], komi)
    return {line["rules"]: line for line in lines}


def test_an_open_border_counts_as_the_record_agreed():
    # White's wall stops at C2: C1 is open, so A-E on row 1 joins both sides' regions.
    moves = ";B[bc];W[cc];B[bb];W[cb];B[bd];W[cd];B[ba];W[ca];B[be];W[]"
    agreed = moves + ";B[]TB[aa:ae]TW[da:ed]"  # the players agree: B owns the a column, W the d-e rows 1..4
    plain = moves + ";B[]"
    a, p = _verdicts(agreed), _verdicts(plain)
    # Japanese, by hand: Black 5 目 (a column), White 8 (D2-E5); C1 D1 E1 dame: 5 - 8 - 6.5.
    assert a["japanese"]["count"]["margin"] == -9.5
    # Without the marks C1-E5 is one region both colours border: dame; Black keeps the a column.
    assert p["japanese"]["count"]["margin"] == -1.5


def test_a_contradicting_mark_is_a_count_error_for_that_record_only():
    v = _verdicts(COLUMNS + ";B[];W[]TB[dc]")
    assert v["chinese"]["count"] is None
    assert (
        v["chinese"]["count_error"]["code"] == "bad-marks" and "D3" in v["chinese"]["count_error"]["message"]
    )


def test_the_record_komi_replaces_each_rulesets_own_only_when_asked():
    body = COLUMNS + ";B[];W[]"
    own = _verdicts(body, "KM[0.5]")
    km = _verdicts(body, "KM[0.5]", komi="record")
    # Area: Black 10, White 15 (tests/test_replay.py): -5 - 7.5 by Chinese's own komi, -5 - 0.5 by KM.
    assert own["chinese"]["count"]["margin"] == -12.5 and own["chinese"]["count"]["komi_source"] == "rules"
    assert km["chinese"]["count"]["margin"] == -5.5 and km["chinese"]["count"]["komi_source"] == "record"
    assert km["chinese"]["rules"] == "chinese"  # the verdict keeps the ruleset's name


def test_a_record_without_komi_keeps_the_rulesets():
    # an unreadable KM (KM[seven], KM[]) is the record's error komi-unreadable: test_attacks_records.py
    v = _verdicts(COLUMNS + ";B[];W[]", "", komi="record")
    assert v["chinese"]["count"]["komi_source"] == "rules" and v["chinese"]["count"]["margin"] == -12.5


@pytest.mark.parametrize("km", ["KM[1e9]", "KM[1000.25]", "KM[-1001]"])
def test_a_komi_beyond_the_bound_is_a_record_error(km):
    # spec/counting.md#count.replay: a KM beyond ±1000 points is neither used nor replaced silently
    (line,) = referee_record(
        "g.sgf", f"(;GM[1]FF[4]SZ[5]{km}{COLUMNS};B[];W[])".encode(), [PRESETS.get("chinese")], "record"
    )
    assert line["rules"] is None and line["error"]["code"] == "komi-range"
    v = _verdicts(COLUMNS + ";B[];W[]", "KM[-1000]", komi="record")  # the bound itself is a komi
    assert v["chinese"]["count"]["komi_source"] == "record"


def test_record_komi_reads_points():
    rec = parse_sgf_text("(;GM[1]SZ[9]KM[6.5])", "k.sgf")
    assert record_komi(rec) == pytest.approx(6.5)


def test_two_passes_that_do_not_halt_jpd_a_are_named_not_unfinished():
    v = _verdicts(COLUMNS + ";B[];W[]", rules=("chinese", "jpd-a", "jpd-b"))
    assert v["chinese"]["ending"] == "two-passes"
    assert v["jpd-a"]["ending"] == "record-two-passes" and v["jpd-a"]["count"] is not None
    assert v["jpd-b"]["ending"] == "record-two-passes"
    marked = _verdicts(COLUMNS + ";B[]TB[aa:ae];W[]", rules=("jpd-a",))
    assert marked["jpd-a"]["ending"] == "record-marks"
    unfinished = _verdicts(COLUMNS, rules=("jpd-a",))
    assert unfinished["jpd-a"]["ending"] == "unfinished" and unfinished["jpd-a"]["count"] is None


def test_jpd_count_reads_the_record_agreement_and_komi(capsys, tmp_path):
    path = tmp_path / "g.sgf"
    path.write_text("(;GM[1]FF[4]SZ[5]KM[0.5]" + COLUMNS + ";B[];W[]TB[aa:ae]TW[da:ee])", encoding="utf-8")
    assert main(["count", str(path), "--rules", "chinese", "--komi", "record", "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert row["margin"] == -5.5
    bad = tmp_path / "bad.sgf"
    bad.write_text("(;GM[1]FF[4]SZ[5]" + COLUMNS + ";B[];W[]TB[dc])", encoding="utf-8")
    assert main(["count", str(bad), "--rules", "chinese"]) == 2
    assert "D3" in capsys.readouterr().err
