"""The counting axes of the rulesets, ``count_for`` and ``jpd count``. {#count.komi}

Figures are worked out by hand in the comments. The board used most is 5×5: Black holds columns
A–B, White columns C–E (area: Black 10, White 15, so m(area) = −5).
"""

import json
from fractions import Fraction

import pytest
from jpdref.coords import Geometry
from jpdref.counting import (
    Agreement,
    FinalPosition,
    KomiRule,
    Method,
    count_area,
    count_art,
    count_equal_stones,
    count_japanese,
    make_counters,
)
from jpdref.counting.dispatch import COUNTERS, count_for
from jpdref.rules import AXES, FixedKomi, RulesError, axis_choices, parse_axis_value
from jpdref.stones import BLACK, WHITE
from jpdtools.cli import main
from jpdtools.presets import load_presets

PRESETS = load_presets()

EXPECTED = {
    "jpd-2022": ("equal-stones", "6.5"),
    "jpd-art-2008": ("art", "6.5"),
    "jhz-2022": ("roads", "6.5+black-last"),
    "jpd-a": ("area", "a-version"),
    "jpd-b": ("area", "b-version"),
    "jpd-art-2": ("art", "6.5"),
    "chinese": ("area", "chinese-3.75"),
    "japanese": ("japanese", "japanese-6.5"),
    "ing": ("ing", "ing-8"),
    "aga": ("area", "aga-7.5"),
    "wmsg-2008": ("area", "wmsg-2008"),
    "tromp-taylor": ("tromp-taylor", "none"),
}

EMPTY_5 = ". . . . .\n" * 5
# Black B1..B5, White C1..C5 alternately; then Black fills A3 in its own area (the last real
# move), White passes first, Black passes: Black 6 moves, White 5.
BLACK_LAST = "B B1 W C1 B B2 W C2 B B3 W C3 B B4 W C4 B B5 W C5 B A3 W pass B pass"
# The same ten moves, Black passes, White fills D3 (the last real move), both pass: 5 and 6.
WHITE_LAST = "B B1 W C1 B B2 W C2 B B3 W C3 B B4 W C4 B B5 W C5 B pass W D3 B pass W pass"


# -- the axes --------------------------------------------------------------------------------
def test_counting_axes_come_after_the_play_axes():
    assert list(AXES)[-5:] == ["handicap", "counting", "komi", "one-sided-claim", "ko-claim"]
    assert axis_choices("ko-claim") == ["allowed", "none"]
    assert axis_choices("one-sided-claim") == ["allowed", "none"]
    assert axis_choices("counting") == [m.value for m in Method]
    assert axis_choices("komi") == [k.value for k in KomiRule]


@pytest.mark.parametrize("name", list(EXPECTED))
def test_every_preset_names_a_method_and_a_komi_with_a_source(name):
    rules = PRESETS.get(name)
    assert (str(rules.counting), str(rules.komi)) == EXPECTED[name]
    assert rules.values()["counting"] == EXPECTED[name][0] and rules.values()["komi"] == EXPECTED[name][1]
    assert rules.source("counting").strip() and rules.source("komi").strip()
    assert isinstance(rules.counting, Method)


def test_the_presets_are_the_expected_ones():
    assert PRESETS.names == list(EXPECTED)


def test_no_preset_charges_black_last_twice():
    """OQ-43/44: a method that charges extra moves (equal-stones, art) goes with a flat komi."""
    charging = {Method.EQUAL_STONES, Method.ART}
    extra = {KomiRule.BLACK_LAST, KomiRule.A_VERSION, KomiRule.WMSG_2008, KomiRule.B_VERSION}
    for rules in PRESETS.rulesets:
        if rules.counting in charging:
            assert rules.komi not in extra, rules.name


def test_komi_takes_a_rule_or_a_decimal_number():
    assert parse_axis_value("komi", "6.5") is KomiRule.FIXED_6_5
    assert parse_axis_value("komi", "7.5") == Fraction(15, 2)
    assert isinstance(parse_axis_value("komi", "-1"), FixedKomi)
    assert str(parse_axis_value("komi", "0.25")) == "0.25"
    # a whole komi is written out in full, however large (an axis condition komi=N compares the text)
    assert [str(parse_axis_value("komi", k)) for k in ("0", "-1", "1234567")] == ["0", "-1", "1234567"]
    with pytest.raises(RulesError, match="or a decimal number"):
        parse_axis_value("komi", "seven")
    with pytest.raises(RulesError, match="'counting'"):
        parse_axis_value("counting", "territory")


def test_komi_and_counting_can_be_overridden():
    rules = PRESETS.get("tromp-taylor:komi=7.5,counting=area")
    assert rules.komi == Fraction(15, 2) and rules.values()["komi"] == "7.5"
    assert rules.counting is Method.AREA
    selected = PRESETS.select("chinese japanese")
    assert [str(r.komi) for r in selected] == ["chinese-3.75", "japanese-6.5"]


# -- count_for -------------------------------------------------------------------------------
def _two_columns(counters) -> FinalPosition:
    g = Geometry(5, 5)
    stones = [0] * 25
    for y in range(5):
        stones[y * 5 + 1], stones[y * 5 + 2] = int(BLACK), int(WHITE)
    return FinalPosition(g, tuple(stones), Agreement(), counters)


def test_every_method_has_a_counter():
    assert set(COUNTERS) == set(Method)


# The two-column position by hand: Black column B + territory column A, White column C +
# territory D–E; 5 moves each, Black passed first, White made the last real move, no prisoners.
# Per method: (unit, Black's figure, White's figure); the lead is 5 points to White in every one.
BY_METHOD = {
    "area": ("子", 10, 15),  # stones + territory, in stones against 归本数 12.5
    "tromp-taylor": ("点", 10, 15),
    "japanese": ("目", 5, 10),  # territory only (no prisoners, no dead stones)
    "equal-stones": ("目", 5, 10),  # 5 stones each: nothing to fill or balance
    "art": ("目", 5, 10),
    "roads": ("路", 8, 13),  # 2 basic eye points each: B 5 stones + 3 roads, W 5 + 8
    "ing": ("点", 10, 15),
    "ing-balanced": ("点", 10, 15),  # 5 moves each: no A-class negative move
    "equal-empty": ("子", 5, 10),  # White turns 5 surplus empty points into stones: 5 + 5 v 10
}
# Per komi spelling, the komi in points for these counters (Black passed first, White moved last).
BY_KOMI = {
    "none": 0,
    "6.5": Fraction(13, 2),
    "6.5+black-last": Fraction(13, 2),  # Black did not make the last move
    "a-version": Fraction(13, 2),  # Black passed first
    "b-version": Fraction(15, 2),
    "wmsg-2008": Fraction(13, 2),  # Black passed first, so White is 收后方
    "chinese-3.75": Fraction(15, 2),
    "japanese-6.5": Fraction(13, 2),
    "ing-8": 8,
    "aga-7.5": Fraction(15, 2),
    "aga-1991": Fraction(11, 2),
}


@pytest.mark.parametrize("rules", PRESETS.rulesets, ids=PRESETS.names)
def test_count_for_runs_the_rulesets_method_with_its_komi(rules):
    fp = _two_columns(make_counters(moves=(5, 5), first_to_pass=BLACK, last_real_move=WHITE))
    count = count_for(rules, fp)
    unit, black, white = BY_METHOD[str(rules.counting)]
    komi = BY_KOMI.get(str(rules.komi)) if not isinstance(rules.komi, Fraction) else rules.komi
    assert count.method == str(rules.counting) and count.unit == unit
    assert (count.black.score, count.white.score) == (black, white)
    assert count.komi.points == komi
    assert count.margin == -5 - komi and count.winner == "W"


def test_count_for_matches_the_method_functions():
    fp = _two_columns(make_counters(moves=(5, 5), first_to_pass=BLACK, last_real_move=WHITE))
    assert count_for(PRESETS.get("chinese"), fp).margin == count_area(fp).margin == -5 - Fraction(15, 2)
    assert count_for(PRESETS.get("jpd-2022"), fp).margin == count_equal_stones(fp).margin
    assert count_for(PRESETS.get("jpd-art-2"), fp).margin == count_art(fp).margin
    assert count_for(PRESETS.get("japanese"), fp).margin == count_japanese(fp).margin


# -- jpd count -------------------------------------------------------------------------------
def _count(capsys, tmp_path, *args, board=EMPTY_5):
    path = tmp_path / "pos.txt"
    path.write_text(board, encoding="utf-8")
    status = main(["count", str(path), *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _json(capsys, tmp_path, *args, board=EMPTY_5):
    status, out, err = _count(capsys, tmp_path, *args, "--json", board=board)
    assert status == 0, err
    return {item["ruleset"]: item for item in json.loads(out)}


def test_black_last_is_charged_exactly_once(capsys, tmp_path):
    """Black made the last real move (6 moves to 5; White passed first), m(area) = −5.

    Each 计枰点 ruleset and Chinese charge Black 7.5 in all: 等子比空 −5 − 1 (A-class) − 6.5;
    art −5 − 1 (6 stones against 5, divided equally) − 6.5; 等子比路 −5 − (6.5 + 1);
    A version −5 − 7.5 (White first to play virtual); B version and Chinese −5 − 7.5; WMSG 2008
    −5 − 7.5 (White passed first); Japanese territory 4 − 10 − 6.5.
    """
    data = _json(capsys, tmp_path, "--moves", BLACK_LAST)
    same = ["jpd-2022", "jpd-art-2008", "jhz-2022", "jpd-a", "jpd-b", "jpd-art-2", "chinese", "wmsg-2008"]
    for name in [*same, "japanese"]:
        assert (data[name]["winner"], data[name]["margin"]) == ("W", -12.5), name
    assert data["ing"]["margin"] == -13  # −5 − 8
    assert data["aga"]["margin"] == -12.5  # −5 − 7.5 (AGA komi since 2005, OQ-45)
    assert data["tromp-taylor"]["margin"] == -5  # no komi
    assert data["jpd-2022"]["komi"]["points"] == 6.5 and data["jhz-2022"]["komi"]["points"] == 7.5


def test_white_last_is_not_charged_to_black(capsys, tmp_path):
    """White made the last real move with one move more (Black passed in between), m(area) = −5.

    等子比空 and the art judgment charge White 1 (−5 + 1 − 6.5 = −10.5); 等子比路 charges nothing
    (−5 − 6.5); the A version sees Black's first virtual move (6.5: −11.5); Chinese −12.5.
    """
    data = _json(capsys, tmp_path, "--moves", WHITE_LAST)
    assert data["jpd-2022"]["margin"] == data["jpd-art-2008"]["margin"] == -10.5
    assert data["jhz-2022"]["margin"] == -11.5
    assert data["jpd-a"]["margin"] == -11.5 and data["jpd-b"]["margin"] == -12.5
    assert data["chinese"]["margin"] == -12.5


def test_json_gives_figures_unit_komi_and_every_point(capsys, tmp_path):
    data = _json(capsys, tmp_path, "--moves", BLACK_LAST, "--rules", "chinese")
    item = data["chinese"]
    assert item["method"] == "area" and item["unit"] == "子"
    assert item["black"]["score"] == 10 and item["white"]["score"] == 15
    assert item["margin_units"] == -6.25 and item["par"] == 12.5
    points = {p["vertex"]: p for p in item["points"]}
    assert len(points) == 25
    assert points["A3"] == {"vertex": "A3", "owner": "B", "why": "stone", "dead": False}
    assert points["E5"]["owner"] == "W" and points["E5"]["why"] == "territory"


def test_a_dead_stone_in_the_diagram_and_counters(capsys, tmp_path):
    """A white stone dead at A4 (``o``); Black holds it as a prisoner after removal."""
    board = ". X O . .\no X O . .\n. X O . .\n. X O . .\n. X O . .\n"
    data = _json(capsys, tmp_path, "--counters", "moves=5,6 last-move=W first-pass=B", board=board)
    # Area: Black 10 (A4 is Black's once the dead stone is removed), White 15.
    assert data["chinese"]["margin"] == -12.5
    # 等子比空: White put 6 stones down to Black's 5 and pays 1 (A-class): −5 + 1 − 6.5.
    assert data["jpd-2022"]["margin"] == -10.5
    assert {p["vertex"]: p["dead"] for p in data["chinese"]["points"]}["A4"] is True
    # --dead adds to the diagram's marks; a vertex stands for its chain.
    again = _json(
        capsys, tmp_path, "--dead", "A4", "--counters", "moves=5,6", "--rules", "chinese", board=board
    )
    assert again["chinese"]["margin"] == -12.5


def test_a_refused_count_is_winner_none_with_the_code(capsys, tmp_path):
    board = "X X O . .\n" + ". X O . .\n" * 4
    data = _json(capsys, tmp_path, board=board)  # set-up stones (6 to 5): no moves were made
    assert data["jpd-2022"]["winner"] == "none"
    assert data["jpd-2022"]["error"]["code"] == "unequal-stones"
    assert data["jpd-a"]["error"]["code"] == "no-first-pass"
    assert data["chinese"]["winner"] == "W"


def test_a_game_that_ended_without_a_count(capsys, tmp_path):
    data = _json(capsys, tmp_path, "--moves", "B C3 W resign")
    assert data["chinese"]["winner"] == "B" and data["chinese"]["margin"] is None
    assert "resignation" in data["chinese"]["ended"]


def test_refused_moves_are_reported(capsys, tmp_path):
    data = _json(capsys, tmp_path, "--moves", "B C3 W C3 W pass B pass", "--rules", "japanese")
    assert data["japanese"]["refused"][0]["reason"] == "occupied"


def test_one_ruleset_prints_the_table_and_the_explanation(capsys, tmp_path):
    status, out, _ = _count(capsys, tmp_path, "--moves", BLACK_LAST, "--rules", "jpd-2022")
    assert status == 0
    assert "ruleset" in out and "equal-stones" in out
    assert "A-class" in out and "counted board" in out and "winner W" in out


def test_every_ruleset_side_by_side(capsys, tmp_path):
    status, out, _ = _count(capsys, tmp_path, "--moves", BLACK_LAST)
    assert status == 0
    lines = out.splitlines()
    assert lines[0].split() == ["ruleset", "method", "unit", "black", "white", "komi", "margin", "winner"]
    assert len(lines) == 2 + len(EXPECTED)


def test_claims_and_seki_marks_are_taken(capsys, tmp_path):
    # Black A1–A2/B1–B2 wall; a claim on an empty point next to a black stone is accepted.
    data = _json(capsys, tmp_path, "--moves", BLACK_LAST, "--claim", "B ko A1", "--rules", "jpd-art-2")
    points = {p["vertex"]: p for p in data["jpd-art-2"]["points"]}
    assert points["A1"]["why"] == "claimed" and points["A1"]["owner"] == "B"


def test_an_sgf_position_with_territory_marks(capsys, tmp_path):
    sgf = tmp_path / "g.sgf"
    sgf.write_text(
        "(;GM[1]FF[4]SZ[5];B[bc];W[cc];B[bb];W[cb];B[bd];W[cd];B[ba];W[ca];B[be];W[ce];B[dc];W[];B[]TW[dc])",
        encoding="utf-8",
    )
    assert main(["count", str(sgf), "--rules", "chinese", "--json"]) == 0
    item = json.loads(capsys.readouterr().out)[0]
    # D3 is a black stone on White's marked territory: dead; area Black 10, White 15.
    assert item["margin"] == -12.5
    assert {p["vertex"]: p["dead"] for p in item["points"]}["D3"] is True


@pytest.mark.parametrize(
    "args, says",
    [
        (["--dead", "Z9"], "off the 5x5 board"),
        (["--counters", "moves=1"], "is a pair"),
        (["--counters", "stones=1,1"], "expected key=value"),
        (["--claim", "B territory A1"], "expected"),
        (["--moves", "B Q99"], ""),
        (["--rules", "nope"], "unknown ruleset"),
    ],
)
def test_bad_input_is_one_line_and_status_2(capsys, tmp_path, args, says):
    status, _, err = _count(capsys, tmp_path, *args)
    assert status == 2 and err.startswith("jpd: error:") and says in err
    assert "Traceback" not in err


def test_a_bad_diagram_names_line_and_column(capsys, tmp_path):
    status, _, err = _count(capsys, tmp_path, board=". . .\n. Q .\n. . .\n")
    assert status == 2 and "pos.txt:2:" in err
