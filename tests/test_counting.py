"""Counting: one test group per clause of spec/counting.md, figures derived by hand from the rules.

Diagrams (jpdref.counting.diagram): row 0 is the top line; X/O Black/White, x/o dead, #/@ in seki.
Every expected figure is worked out in a comment from the rule text it pins.
"""

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from jpdref.coords import Geometry
from jpdref.counting import (
    Agreement,
    Claim,
    ClaimKind,
    CountingError,
    FinalPosition,
    KomiRule,
    Method,
    Why,
    basic_eyes,
    classify,
    count_area,
    count_art,
    count_equal_empty,
    count_equal_stones,
    count_ing,
    count_japanese,
    count_roads,
    count_tromp_taylor,
    decide_komi,
    make_counters,
)
from jpdref.counting.diagram import parse_rows
from jpdref.game import Action, Game, Phase
from jpdref.stones import BLACK, EMPTY, WHITE
from jpdtools.presets import load_presets

HALF = Fraction(1, 2)


def position(rows, counters=None, **agreement) -> FinalPosition:
    g, stones, marks = parse_rows(rows)
    ag = Agreement(
        dead=marks.dead | agreement.pop("dead", frozenset()),
        seki=marks.seki | agreement.pop("seki", frozenset()),
        **agreement,
    )
    return FinalPosition(g, stones, ag, counters or make_counters())


# -- the 004 280-move example (count.area, count.komi, count.theorems T4) -----------------------
def example_280() -> FinalPosition:
    """19×19 after fill-back: Black 140 stones + 44 empty, White 140 stones + 37 empty (004).

    Black's area is the first 184 points in column-major order, White's the other 177. Black's
    empty points are the first 44 of its area (columns A, B and 6 points of C: they touch only
    Black), White's the last 37 (column T and 18 points of S). 280 alternating moves, no
    captures: 140 each, White made the last move.
    """
    g = Geometry.square(19)
    order = [y * 19 + x for x in range(19) for y in range(19)]
    stones = [EMPTY] * 361
    for i, p in enumerate(order):
        if i < 184:
            stones[p] = EMPTY if i < 44 else BLACK
        else:
            stones[p] = EMPTY if i >= 361 - 37 else WHITE
    counters = make_counters(moves=(140, 140), passes=(1, 1), first_to_pass=BLACK, last_real_move=WHITE)
    return FinalPosition(g, tuple(stones), Agreement(), counters)


def test_280_figures():
    fp = example_280()
    area = count_area(fp)
    assert (area.black.part("stones"), area.black.part("territory")) == (140, 44)
    assert (area.white.part("stones"), area.white.part("territory")) == (140, 37)


def test_280_chinese_three_and_three_quarters_white_by_a_quarter_stone():
    # 004: Black 140 + 44 = 184 子; 184 − 3¾ = 180¼ < 归本数 180½: White wins by ¼ stone
    # (in points: 184 − 177 − 7.5 = −0.5).
    c = count_area(example_280(), KomiRule.CHINESE)
    assert c.par == Fraction(361, 2)
    assert c.black.score == 184 and c.white.score == 177
    assert c.margin_units == Fraction(-1, 4)
    assert c.margin == -HALF
    assert c.winner == "W"


@pytest.mark.parametrize("method", [count_equal_stones, count_art, count_japanese])
def test_280_territory_six_and_a_half_black_by_half(method):
    # 004: 44 − 37 = 7 目; 7 − 6.5 = 0.5: Black wins. Equal stones needs no negative move
    # (140 moves each); the art judgment splits the 280 stones; Japanese has no prisoners.
    c = method(example_280(), KomiRule.FIXED_6_5)
    assert (c.black.score, c.white.score) == (44, 37)
    assert c.margin == HALF
    assert c.winner == "B"


def test_280_area_back_from_territory():
    # 001 第十七条: black points = b + (361 − b − w)/2 = 44 + 280/2 = 184.
    c = count_art(example_280())
    assert any("B 184 points, W 177 points" in s for s in c.steps)


# -- 黑收后贴1点 (count.komi, count.equal-stones, count.art, count.roads) -------------------------
WALL = [
    "..XO.",
    "..XO.",
    "..XO.",
    "..XO.",
    "...XO",
]
# Black: 5 stones, 11 empty points → area 16; White: 5 stones, 4 empty → area 9; lead 7.
WALL_BLACK_LAST = ["X" + WALL[0][1:], *WALL[1:]]  # one more black stone at A5: area still 16


def wall(black_last: bool) -> FinalPosition:
    rows = WALL_BLACK_LAST if black_last else WALL
    moves = (6, 5) if black_last else (5, 5)
    last = BLACK if black_last else WHITE
    return position(rows, make_counters(moves=moves, passes=(1, 1), last_real_move=last))


def test_black_last_komi_rule():
    assert decide_komi(KomiRule.BLACK_LAST, wall(True).counters).points == Fraction(15, 2)
    assert decide_komi(KomiRule.BLACK_LAST, wall(False).counters).points == Fraction(13, 2)


@pytest.mark.parametrize("black_last, winner", [(False, "B"), (True, "W")])
def test_black_last_area(black_last, winner):
    # Area lead 16 − 9 = 7. White last: 7 − 6.5 = +0.5; Black last: 7 − 7.5 = −0.5.
    c = count_area(wall(black_last), KomiRule.BLACK_LAST)
    assert c.black.score - c.white.score == 7
    assert c.margin == (HALF if not black_last else -HALF)
    assert c.winner == winner


@pytest.mark.parametrize("black_last, winner", [(False, "B"), (True, "W")])
def test_black_last_is_implicit_in_equal_stones(black_last, winner):
    # 000 §25, §29: with plain 6.5 komi. White last: moves 5–5, no negative move, 目 11 − 4 = 7,
    # +0.5. Black last: moves 6–5, Black's A-class negative move frees C5 (next to White's D5),
    # split: 目 10 − 4 = 6, 6 − 6.5 = −0.5.
    c = count_equal_stones(wall(black_last), KomiRule.FIXED_6_5)
    assert c.margin == (HALF if not black_last else -HALF)
    assert c.winner == winner
    if black_last:
        assert c.owner_counts(Why.NEGATIVE_A) == (0, 0, 1)
        assert [i.vertex for i in c.points if i.why is Why.NEGATIVE_A] == ["C5"]


@pytest.mark.parametrize("black_last", [False, True])
def test_black_last_is_implicit_in_the_art_judgment(black_last):
    # 001 第十四条: all stones split; 目 11 − 4 (white last) or 10 − 4 (black last).
    c = count_art(wall(black_last))
    assert c.black.score - c.white.score == (6 if black_last else 7)


@pytest.mark.parametrize("black_last", [False, True])
def test_chinese_ignores_who_moved_last(black_last):
    # 7 − 7.5 = −0.5 either way.
    assert count_area(wall(black_last)).margin == -HALF


@pytest.mark.parametrize("black_last, margin", [(False, HALF), (True, -HALF)])
def test_black_last_road(black_last, margin):
    # 002 §24, §29: each side's area is one group (stones and territory connected): 2 basic eyes
    # each. Living stones: B 16 − 2 = 14, W 9 − 2 = 7; 7 − 6.5 (− 1 if Black last).
    c = count_roads(wall(black_last))
    assert (c.black.score, c.white.score) == (14, 7)
    assert c.margin == margin


# -- regions and the agreement (count.regions, count.agreement) ----------------------------------
SEKI_EYES = [
    ".@.#..",
    "@@.###",
]
# White (B2, A1, B1) has the eye A2; Black (D2, D1, E1, F1) has the two-point eye E2–F2; C2, C1
# are shared liberties. 4 black moves, 3 white.


def seki_eyes() -> FinalPosition:
    return position(SEKI_EYES, make_counters(moves=(4, 3), last_real_move=BLACK))


def test_regions_of_a_seki_with_eyes():
    c = classify(seki_eyes())
    g = c.geometry
    whys = {g.to_gtp(p): (c.why[p], c.owner[p]) for p in range(g.area) if not c.living[p]}
    assert whys == {
        "A2": (Why.EYE, WHITE),
        "E2": (Why.EYE, BLACK),
        "F2": (Why.EYE, BLACK),
        "C2": (Why.SHARED, 0),
        "C1": (Why.SHARED, 0),
    }


def test_seki_with_eyes_japanese_no_points():
    # 双活无目: no territory in seki; no prisoners. 0 − 0.
    c = count_japanese(seki_eyes(), KomiRule.NONE)
    assert (c.black.score, c.white.score) == (0, 0)
    assert c.winner == "draw"
    assert all(i.owner is None for i in c.points if not i.board)


def test_seki_with_eyes_art_points():
    # 001 第十条(3): each eye point in a seki is 1 目: Black 2, White 1; stones and the two shared
    # liberties are split. Back to points: 2 + (12 − 3)/2 = 6.5 and 1 + 4.5 = 5.5.
    c = count_art(seki_eyes(), KomiRule.NONE)
    assert (c.black.score, c.white.score) == (2, 1)
    assert c.margin == 1


def test_seki_with_eyes_area():
    # 000 §6: B 4 stones + 2 eye points + 1 (half of 2 shared) = 7; W 3 + 1 + 1 = 5.
    c = count_area(seki_eyes(), KomiRule.NONE)
    assert (c.black.score, c.white.score) == (7, 5)


def test_seki_with_eyes_roads():
    # 002 §2, §28: a seki group with an eye keeps one basic eye; Black's second eye point is a
    # road. Living stones B 4 + 1 = 5, W 3 + 0 = 3; shared liberties not counted:
    # 5 + 3 = 12 − 2 basic eyes − 2 shared (002 §31).
    fp = seki_eyes()
    assert len(basic_eyes(classify(fp))) == 2
    c = count_roads(fp, KomiRule.NONE)
    assert (c.black.score, c.white.score) == (5, 3)


SEKI_NO_EYES = [
    "@.#",
    "@.#",
]


def test_seki_without_eyes():
    # Two shared liberties, no eyes: nothing for either side under Japanese and art; area
    # 2 + 1 each; roads 2 each (the shared liberties are nobody's).
    fp = position(SEKI_NO_EYES, make_counters(moves=(2, 2)))
    assert count_japanese(fp, 0).margin == 0
    art = count_art(fp, 0)
    assert (art.black.score, art.white.score) == (0, 0)
    area = count_area(fp, 0)
    assert (area.black.score, area.white.score) == (3, 3)
    roads = count_roads(fp, 0)
    assert (roads.black.score, roads.white.score) == (2, 2)


# The 003 diagram (说明图例): a and b (C6, D6) touch only Black: one-sided liberties, Black's 目.
DIAGRAM_003 = [
    "OO##OO.",
    "O#..#O.",
    "O#..#O.",
    "O#@@#O.",
    "O####O.",
    "OOOOOO.",
    ".......",
]


def diagram_003(**agreement) -> FinalPosition:
    return position(DIAGRAM_003, make_counters(moves=(12, 20)), **agreement)


def test_003_one_sided_liberties():
    c = classify(diagram_003())
    g = c.geometry
    got = {g.to_gtp(p): c.why[p] for p in range(g.area) if not c.living[p] and c.why[p] is not Why.TERRITORY}
    assert got == {"C6": Why.ONE_SIDED, "D6": Why.ONE_SIDED, "C5": Why.SHARED, "D5": Why.SHARED}


def test_003_art_versus_japanese():
    # Art (003: a, b are Black's 目): Black 2, White 13 (column G and row 1). Japanese: Black 0.
    art = count_art(diagram_003(), KomiRule.NONE)
    jp = count_japanese(diagram_003(), KomiRule.NONE)
    assert (art.black.score, art.white.score) == (2, 13)
    assert (jp.black.score, jp.white.score) == (0, 13)


def test_one_sided_dame_claim():
    # C5 is a dame only Black may fill (White there would be in atari): 单方权利单官.
    # Art: Black 3 目. Area: B 12 stones + 2 one-sided + 1 claimed + ½ (D5) = 15.5;
    # W 20 + 13 + ½ = 33.5. Japanese: still nothing in the seki. Roads: C5 is Black's road.
    g = Geometry(7, 7)
    claim = Claim(ClaimKind.ONE_SIDED, BLACK, g.from_gtp("C5"))
    fp = diagram_003(claims=(claim,))
    assert count_art(fp, 0).black.score == 3
    area = count_area(fp, 0)
    assert (area.black.score, area.white.score) == (Fraction(31, 2), Fraction(67, 2))
    assert count_japanese(fp, 0).black.score == 0
    roads = count_roads(fp, 0)
    assert roads.points[g.from_gtp("C5")].why is Why.ROAD


def test_ko_claim():
    # White has taken the ko at B4 and does not connect (单劫不粘有1目): C4 is in atari, Black
    # could retake if White ignored it; the claim gives B4 to White as 1 目.
    rows = [
        ".OXX.",
        "O.OX.",
        ".OXX.",
        "OOX..",
        ".OX..",
    ]
    g = Geometry(5, 5)
    fp = position(rows, claims=(Claim(ClaimKind.KO, WHITE, g.from_gtp("B4")),))
    c = count_art(fp, 0)
    assert c.points[g.from_gtp("B4")].why is Why.CLAIMED
    assert c.points[g.from_gtp("B4")].owner is WHITE
    # Japanese: the claimed ko point is White territory too (it lies in a White-only region):
    # A5, B4, A3, A1 = 4.
    assert count_japanese(fp, 0).white.part("territory") == 4


def test_dame_versus_shared_override():
    # Without a seki, a two-coloured region is dame; marked shared it is split the same way
    # under area counting but is no road under 等子比路.
    rows = ["X.O", "X.O"]
    fp = position(rows, make_counters(moves=(2, 2)))
    assert classify(fp).why[1] is Why.DAME
    shared = position(rows, make_counters(moves=(2, 2)), shared=frozenset({1, 4}))
    assert classify(shared).why[1] is Why.SHARED
    assert count_area(fp, 0).black.score == count_area(shared, 0).black.score == 3
    assert count_roads(fp, 0).black.score == 3  # 2 stones + ½ + ½ dame
    assert count_roads(shared, 0).black.score == 2


@pytest.mark.parametrize(
    "rows, agreement, code, vertex",
    [
        (["X.O", "X.O"], {"dead": frozenset({1})}, "dead-on-empty", "B2"),
        (["X.O", "X.O"], {"seki": frozenset({4})}, "seki-on-empty", "B1"),
        (["XO.", "XO."], {"dead": frozenset({0}), "seki": frozenset({3})}, "dead-and-seki", "A2"),
        (["X.O", "X.O"], {"claims": (Claim(ClaimKind.KO, BLACK, 0),)}, "claim-not-empty", "A2"),
        (["X.O", "X.O"], {"claims": (Claim(ClaimKind.KO, BLACK, 9),)}, "off-board", None),
        (
            ["X.O", "X.O"],
            {"claims": (Claim(ClaimKind.KO, BLACK, 1), Claim(ClaimKind.KO, WHITE, 1))},
            "claim-twice",
            "B2",
        ),
        (["X..O", "X..O"], {"claims": (Claim(ClaimKind.ONE_SIDED, WHITE, 1),)}, "claim-no-stone", "B2"),
        (["X.O.", "X.O."], {"claims": (Claim(ClaimKind.KO, BLACK, 3),)}, "claim-no-stone", "D2"),
        (["XO.", "XO."], {"dame": frozenset({2})}, "override-not-mixed", "C2"),
    ],
)
def test_agreement_refusals(rows, agreement, code, vertex):
    with pytest.raises(CountingError) as err:
        count_area(position(rows, **agreement))
    assert err.value.code == code
    assert err.value.vertex == vertex


def test_claim_in_opponent_area():
    # White's region C2–C1 is bordered by White only: no black stone is next to it, so a black
    # claim on it is refused as claim-no-stone.
    rows = ["XO.", "XO."]
    with pytest.raises(CountingError) as err:
        classify(position(rows, claims=(Claim(ClaimKind.ONE_SIDED, BLACK, 2),)))
    assert err.value.code == "claim-no-stone"
    rows = ["XO.O", "XO.O"]
    g = Geometry(4, 2)
    fp = FinalPosition(g, parse_rows(rows)[1], Agreement(claims=(Claim(ClaimKind.ONE_SIDED, BLACK, 2),)))
    with pytest.raises(CountingError) as err:
        classify(fp)
    assert err.value.code == "claim-no-stone"


def test_dead_in_own_area_refused():
    # A black stone marked dead inside Black's own territory: its freed region borders Black only.
    rows = ["XXXXXO", "X...XO", "X.x.XO", "X...XO", "XXXXXO"]
    with pytest.raises(CountingError) as err:
        count_area(position(rows))
    assert err.value.code == "dead-in-own-area"
    assert err.value.vertex == "C3"


def test_dead_stones_area_and_tromp_taylor():
    # The mark on D2 stands for its whole chain D2–D1: both white stones are dead. After their
    # removal D3, D2, D1 border Black only. Area: B 3 stones (column C) + 6 (columns A, B) + 3 = 12.
    rows = [
        "..X.",
        "..Xo",
        "..XO",
    ]
    fp = position(rows, make_counters(moves=(3, 2), prisoners=(0, 0)))
    area = count_area(fp, 0)
    assert (area.black.score, area.white.score) == (12, 0)
    assert count_japanese(fp, 0).black.score == 3 + 6 + 2  # territory 9 + 2 dead stones
    # Tromp-Taylor counts the board as it stands: D2, D1 white stones; D3 reaches both colours.
    tt = count_tromp_taylor(fp, 0)
    assert (tt.black.score, tt.white.score) == (9, 2)
    assert tt.steps == ("the agreement is ignored: every stone on the board counts",)


# -- fill-back and overflow (count.fill-back, count.negative-moves, count.theorems T5) -----------
OVERFLOW = [
    ".X.XO",
    "XXXXO",
    "OOOOO",
    ".....",
    "...OO",
]
# Black: 6 stones, two true eyes A5, C5 (2) → area 8. White: 9 stones, territory 8 → area 17;
# its inside stones (no neighbour outside its area) are E3, D1, E1.
# White captured 4 black stones during the game: Black put 10 stones down, White 9.


def overflow(rows=OVERFLOW) -> FinalPosition:
    return position(rows, make_counters(moves=(10, 9), prisoners=(0, 4), last_real_move=BLACK))


def test_fill_back_overflow_balanced():
    # Black owes 4 stones, 2 fit: 2 overflow. White owes none, so it takes 2 inside stones off
    # (B-class, lowest-numbered: E3, D1) to leave 2 off the board too (004 做棋(2)): White 目
    # 8 + 2 = 10, Black 0. Same as (2 − 4) − (8 − 0) = −10, and as Japanese: 2 − (8 + 4).
    c = count_art(overflow(), 0)
    assert c.overflow == (2, 0)  # carried as data, whatever the steps say
    assert (c.black.score, c.white.score) == (0, 10)
    japanese = count_japanese(overflow(), 0)
    assert japanese.margin == -10
    assert japanese.overflow == (0, 0)  # a method without fill-back: nothing overflowed
    assert c.owner_counts(Why.NEGATIVE_B) == (0, 2, 0)
    assert c.owner_counts(Why.FILLED) == (2, 0, 0)


def test_fill_back_overflow_unbalanced_literal():
    # 001 read literally: the 2 stones that do not fit are simply dropped: 0 − 8.
    assert count_art(overflow(), 0, balance=False).margin == -8


def test_fill_back_overflow_equal_stones():
    # After fill-back and balancing B has 8 stones, W 7; contest difference 10 − 9 = 1: one
    # A-class move by Black: 7 each. 目 0 − 10 = area (8 − 17) − 1.
    c = count_equal_stones(overflow(), 0)
    assert c.margin == -10
    assert sum(1 for i in c.points if i.board == BLACK) == sum(1 for i in c.points if i.board == WHITE)


def test_fill_back_overflow_refused_when_it_cannot_be_balanced():
    rows = [*OVERFLOW[:4], "....."]  # one White stone inside its own area (E3) for 2 overflowing
    with pytest.raises(CountingError) as err:
        count_art(position(rows, make_counters(moves=(10, 7), prisoners=(0, 4))))
    assert err.value.code == "overflow"


def test_fill_back_keeps_area():
    # Fill-back changes no side's area (stones + own empty points): area counting ignores it.
    fp = overflow()
    art = count_art(fp, 0)
    black = sum(1 for i in art.points if i.board == BLACK or (not i.board and i.owner is BLACK))
    assert black == 2 + 6  # the filled eyes + the living stones: area 8


def test_unequal_stones_refused():
    # Counters that do not account for the stones on the board (e.g. a set-up position).
    with pytest.raises(CountingError) as err:
        count_equal_stones(position(WALL, make_counters(moves=(3, 5))))
    assert err.value.code == "unequal-stones"


def test_settling_moves_are_b_class():
    # 000 §29(3): Black made one more move while settling: a B-class negative move (no cost).
    # Black last in the contest is not the case here: counters 6–5 overall, 1–0 while settling.
    fp = FinalPosition(*parse_rows(WALL_BLACK_LAST)[:2], Agreement(), make_counters(moves=(6, 5)), (1, 0))
    c = count_equal_stones(fp, 0)
    assert c.margin == 7  # 目 11 − 4: the stone became Black's 目 again
    assert c.owner_counts(Why.NEGATIVE_B) == (1, 0, 0)


# -- other methods (count.equal-empty, count.ing, count.tromp-taylor) ----------------------------
def test_equal_empty_is_area():
    # 003 等空之棋: Black 11 empty, White 4: Black turns 7 into stones; stones 12 − 5 = 7.
    c = count_equal_empty(wall(False), 0)
    assert (c.black.score, c.white.score) == (12, 5)
    assert c.owner_counts(Why.EXCHANGED) == (7, 0, 0)


def test_ing_fill_and_ties():
    # Ing: every own empty point filled: 16 − 9 = 7 < 8: White. With a lead of exactly 8
    # Black wins (贴8点, ties to Black): the 280 example has 184 − 177 = 7.
    assert count_ing(wall(False)).winner == "W"
    c = count_ing(wall(False), KomiRule.ING)
    assert c.black.score == 16 and c.margin == -1
    tie = count_ing(wall(False), 7)
    assert tie.margin == 0 and tie.winner == "draw"
    assert decide_komi(KomiRule.ING, make_counters()).black_wins_ties


def test_ing_with_balanced_moves():
    # 004 (6): Black put one more stone down: one A-class move first, then Ing: 15.5 − 9.5.
    c = count_ing(wall(True), 0, balance_moves=True)
    assert c.margin == 6


# -- komi (count.komi) --------------------------------------------------------------------------
@pytest.mark.parametrize(
    "rule, first, expected",
    [
        (KomiRule.A_VERSION, WHITE, Fraction(15, 2)),
        (KomiRule.A_VERSION, BLACK, Fraction(13, 2)),
        (KomiRule.B_VERSION, BLACK, Fraction(15, 2)),
        (KomiRule.B_VERSION, WHITE, Fraction(15, 2)),
        (KomiRule.WMSG_2008, WHITE, Fraction(15, 2)),
        (KomiRule.WMSG_2008, BLACK, Fraction(13, 2)),
        (KomiRule.FIXED_6_5, WHITE, Fraction(13, 2)),
        (KomiRule.CHINESE, BLACK, Fraction(15, 2)),
        (KomiRule.ING, BLACK, Fraction(8)),
        (KomiRule.AGA, BLACK, Fraction(15, 2)),
        (KomiRule.AGA_1991, WHITE, Fraction(11, 2)),
    ],
)
def test_komi_rules(rule, first, expected):
    assert decide_komi(rule, make_counters(first_to_pass=first)).points == expected


def test_a_version_needs_a_first_pass():
    with pytest.raises(CountingError) as err:
        decide_komi(KomiRule.A_VERSION, make_counters())
    assert err.value.code == "no-first-pass"


def test_handicap_compensation():
    # 004: 让子要贴还让子数的一半: 4 handicap stones → White gets 2 stones = 4 points.
    k = decide_komi(KomiRule.CHINESE, make_counters(handicap=4))
    assert (k.points, k.stones) == (4, 2)
    assert decide_komi(KomiRule.FIXED_6_5, make_counters(handicap=4)).points == 0


@pytest.mark.parametrize("rule", [KomiRule.AGA, KomiRule.AGA_1991])
@pytest.mark.parametrize(
    "handicap, expected", [(2, Fraction(3, 2)), (3, Fraction(5, 2)), (9, Fraction(17, 2))]
)
def test_aga_handicap_compensation(rule, handicap, expected):
    # AGA Rule 3 (½ in handicap games) and Rule 4 (area counting: one more point for each
    # handicap stone after the first; the AGA's example: 9 stones, 8.5); the same in 1991 and now.
    k = decide_komi(rule, make_counters(handicap=handicap))
    assert (k.points, k.black_wins_ties) == (expected, False)


def test_chinese_par_on_19():
    # 004: Black wins above 184¼ = 180½ + 3¾.
    c = count_area(example_280())
    assert any("more than 184.25" in s for s in c.steps)


# -- compatibility theorems (count.theorems) ----------------------------------------------------
def _random_final(data, w, h) -> FinalPosition:
    cells = data.draw(st.lists(st.sampled_from([0, 0, 1, 2]), min_size=w * h, max_size=w * h))
    g = Geometry(w, h)
    # Remove chains without liberties until none is left: a legal final position, no dead stones.
    changed = True
    while changed:
        changed = False
        for p in range(w * h):
            if cells[p] and not _has_liberty(g, cells, p):
                for q in _chain(g, cells, p):
                    cells[q] = 0
                changed = True
    nb, nw = cells.count(1), cells.count(2)
    return FinalPosition(g, tuple(cells), Agreement(), make_counters(moves=(nb, nw)))


def _chain(g, cells, p):
    seen, stack = {p}, [p]
    while stack:
        for q in g.neighbours[stack.pop()]:
            if q not in seen and cells[q] == cells[p]:
                seen.add(q)
                stack.append(q)
    return seen


def _has_liberty(g, cells, p):
    return any(cells[q] == 0 for s in _chain(g, cells, p) for q in g.neighbours[s])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.integers(2, 6), st.integers(2, 6))
def test_theorem_equal_stones_is_area_minus_stone_difference(data, w, h):
    """T3 without captures: 等子比空 lead = area lead − (B stones − W stones).

    With no dead stones, no prisoners and no seki, fill-back does nothing; the n = nB − nW
    A-class negative moves each cost the mover one point; so the 目 difference is the area
    difference minus n (spec count.theorems T3). Also T2 (art = equal stones here), T5
    (Japanese = art without seki and prisoners) and T8 (Tromp-Taylor = area without dead stones).
    """
    fp = _random_final(data, w, h)
    n = fp.count_on_board(BLACK) - fp.count_on_board(WHITE)
    area = count_area(fp, 0)
    try:
        eq = count_equal_stones(fp, 0)
    except CountingError as err:
        assert err.code == "no-boundary-stone"
        assume(False)
    assert eq.margin == area.margin - n
    assert count_art(fp, 0).margin == eq.margin
    assert count_japanese(fp, 0).margin == eq.margin
    assert count_tromp_taylor(fp, 0).margin == area.margin
    assert count_equal_empty(fp, 0).margin == area.margin
    assert count_ing(fp, 0).margin == area.margin


PRESETS = load_presets()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False), st.integers(3, 5))
def test_theorem_on_played_games(rnd, size):
    """T3 on real jpd-2022 games (captures, passes mid-game, virtual moves): every stone put down
    is on the board, a prisoner or a virtual stone, so after fill-back (balanced) and the A-class
    moves the stones are equal and 等子比空 = area − (stones put down by B − by W)."""
    game = Game.new(PRESETS.get("jpd-2022"), Geometry.square(size))
    for _ in range(200):
        if game.phase is not Phase.CONTEST:
            break
        r = rnd.random()
        color = game.to_move
        if r < 0.08:
            game.play(Action.pass_(color))
        elif r < 0.12:
            game.play(Action.virtual(color))
        else:
            step = game.play(Action.move(color, rnd.randrange(size * size)))
            if not step.legal:
                game.play(Action.pass_(color))
    fp = FinalPosition.from_game(game)
    n = fp.stones_put(BLACK) - fp.stones_put(WHITE)
    area = count_area(fp, 0)
    try:
        eq = count_equal_stones(fp, 0)
    except CountingError as err:
        assert err.code in ("no-boundary-stone", "overflow", "no-interior-stone")
        assume(False)
    assert eq.margin == area.margin - n
    assert count_art(fp, 0).margin == area.margin - n  # art: stone difference on the board = n
    assert count_equal_empty(fp, 0).margin == area.margin


def test_count_explains_itself():
    c = count_equal_stones(wall(True), KomiRule.FIXED_6_5)
    assert c.method is Method.EQUAL_STONES
    assert len(c.points) == 25
    assert c.render().splitlines()[0] == "X b - O w"


# -- a dead mark stands for its chain; dead stones in their own area (count.regions, OQ-36) -------
WALL_DEAD = [
    ".XO..",
    ".XO..",
    ".XOo.",
    ".XO..",
    ".XO..",
]
# The o at D3 touches C3: the mark stands for the whole chain C1–C5 + D3 (6 white stones).


def test_dead_mark_on_a_wall_marks_the_wall():
    # Freed columns C–E border Black only: Black's territory, not dead-in-own-area.
    fp = position(WALL_DEAD)
    c = classify(fp)
    assert {fp.geometry.to_gtp(p) for p in c.dead} == {"C1", "C2", "C3", "C4", "C5", "D3"}
    assert all(r.borders == {BLACK} for r in c.regions)
    # Area: B 5 stones + 20 empty = 25 子, W 0; 25 − 0 − 7.5 = 17.5.
    area = count_area(fp)
    assert (area.black.score, area.white.score, area.margin) == (25, 0, Fraction(35, 2))
    # Japanese: territory 20 + 6 dead stones = 26; 26 − 6.5 = 19.5.
    jp = count_japanese(fp)
    assert (jp.black.score, jp.margin) == (26, Fraction(39, 2))
    # Roads: one black group, 2 basic eyes: living 5 + 18 = 23; White's 6 stones find no road and
    # stay off (not balanced, count.roads): 23 − 6.5 = 16.5. Ing 25 − 8 = 17. 等空比子 25 − 6.5.
    roads = count_roads(fp)
    assert (roads.black.score, roads.white.score, roads.margin) == (23, 0, Fraction(33, 2))
    assert count_ing(fp).margin == 17
    assert count_equal_empty(fp).margin == Fraction(37, 2)


@pytest.mark.parametrize("method", [count_art, count_equal_stones])
def test_dead_wall_overflow_cannot_be_balanced(method):
    # count.fill-back: White owes 6 stones and owns no empty point: 6 overflow. Black must leave
    # 6 of its own off the board but has only 5 stones (all inside stones now): refused.
    with pytest.raises(CountingError) as err:
        method(position(WALL_DEAD))
    assert err.value.code == "overflow"


LONE_DEAD = [
    ".XO..",
    ".XO..",
    ".XO.o",
    ".XO..",
    ".XO..",
]


@pytest.mark.parametrize(
    "method",
    [count_area, count_japanese, count_art, count_equal_stones, count_roads, count_ing, count_equal_empty],
)
def test_dead_in_own_area_refused_by_every_method(method):
    # E3 alone is marked dead; its freed region D1–E5 borders White only (OQ-36): every method
    # that reads the agreement refuses it, with the same code and point, before filling back.
    with pytest.raises(CountingError) as err:
        method(position(LONE_DEAD, make_counters(moves=(5, 6))))
    assert (err.value.code, err.value.vertex) == ("dead-in-own-area", "E3")


def test_dead_in_own_area_tromp_taylor_counts_the_stone():
    # OQ-40: the agreement is ignored; E3 is a white stone: B 5 + 5, W 6 + 9 = 15.
    tt = count_tromp_taylor(position(LONE_DEAD), 0)
    assert (tt.black.score, tt.white.score) == (10, 15)


# -- small interface guarantees ------------------------------------------------------------------
def test_classification_claims_are_read_only():
    g = Geometry(3, 2)
    c = classify(position(["X.O", "X.O"], claims=(Claim(ClaimKind.KO, BLACK, g.from_gtp("B2")),)))
    assert c.claims.get(g.from_gtp("B2")) is ClaimKind.KO
    assert dict(c.claims) == {g.from_gtp("B2"): ClaimKind.KO}
    with pytest.raises(TypeError):
        c.claims[0] = ClaimKind.ONE_SIDED  # type: ignore[index]


def test_figures_in_steps_are_decimals():
    # 001 第十七条 back to points: 0 + (6 − 0 − 0)/2 = 3 each on X.O/X.O; on a 3×3 with one more
    # dame point 4.5. Never "9/2".
    rows = ["X.O", "X.O", "X.O"]
    art = count_art(position(rows, make_counters(moves=(3, 3))), 0)
    assert any("B 4.5 points, W 4.5 points" in s for s in art.steps)
    assert not any("/2" in s for s in art.steps)
    roads = count_roads(position(rows, make_counters(moves=(3, 3))), 0)
    assert any("living stones: B 4.5, W 4.5 (total 9)" in s for s in roads.steps)
    ee = count_equal_empty(position(rows, make_counters(moves=(3, 3))), 0)
    assert any("1.5 shared" in s for s in ee.steps)
    assert decide_komi(Fraction(11, 2), make_counters()).rule == "fixed 5.5"


def test_count_for_is_exported():
    from jpdref.counting import count_for
    from jpdref.counting.dispatch import count_for as dispatched

    assert count_for is dispatched
    fp = position(["X.O", "X.O"], make_counters(moves=(2, 2)))
    assert count_for(PRESETS.get("chinese"), fp).margin == -Fraction(15, 2)


# -- Ing's tie rule in handicap games (count.komi, OQ-31, OQ-53) ----------------------------------
def test_ing_handicap_tie_is_a_draw():
    # Handicap 2 (A2, A1), White C2 C1; B2, B1 dame. Area 3 − 3 = 0; ing-8 in a handicap game:
    # komi 0 and no tie rule (OQ-53): a draw. Chinese gives White H = 2 points: −2.
    counters = make_counters(
        moves=(0, 2), passes=(2, 1), handicap=2, first_to_pass=BLACK, last_real_move=WHITE
    )
    k = decide_komi(KomiRule.ING, counters)
    assert (k.points, k.black_wins_ties) == (0, False)
    fp = position(["X.O", "X.O"], counters)
    ing = count_ing(fp)
    assert (ing.margin, ing.winner) == (0, "draw")
    assert count_area(fp).margin == -2


# -- T7: basic eyes are min(2, e) per independent group (count.roads, count.theorems) -------------
def test_basic_eyes_per_group_are_at_most_its_empty_points():
    # Black's group (5 stones around B2) has one empty point: it keeps 1 basic eye, not 2.
    # White's D2–D1 has no empty point: it keeps none. E_B − E_W = 1 (T7's min(2, e_G)).
    fp = position(["X.XO", "XXXO"], make_counters(moves=(5, 2)))
    assert basic_eyes(classify(fp)) == {fp.geometry.from_gtp("B2"): BLACK}
    # Area: B 5 + 1 = 6, W 2: 4. Roads: B 5 stones + 0 roads, W 2: 3 = 4 − (1 − 0).
    area, roads = count_area(fp, 0), count_roads(fp, 0)
    assert (area.black.score, area.white.score) == (6, 2)
    assert (roads.black.score, roads.white.score) == (5, 2)
    assert roads.margin == area.margin - 1


def test_a_fixed_komi_is_used_exactly_as_given():
    """{#count.komi} A fixed komi of 7.3 points is 73/10, not the nearest quarter."""
    assert decide_komi(Fraction(73, 10), make_counters()).points == Fraction(73, 10)
    assert decide_komi(7.3, make_counters()).points == Fraction(73, 10)
