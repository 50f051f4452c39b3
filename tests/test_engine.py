"""Unit tests of the play-phase engine, one group per clause of spec/play.md.

Expected values here come from the rule text (cited per test), not from the engine's output.
"""

import pytest
from engine_helpers import game, gtp, play, rows, rules, verdicts
from jpdref import BLACK, WHITE, Game, Geometry
from jpdref.board import PositionError
from jpdref.game import EndKind, Phase, Result
from jpdref.handicap import HandicapError

KO = """
. X O . .
X O . O .
. X O . .
. . . . .
. . . . .
"""  # Black C4 captures B4; White's immediate B4 would recapture.

TRIPLE_KO = """
. X O . . . X O . . . X O .
X O . O . X . X O . X O . O
. X O . . . X O . . . X O .
"""  # kos at B2/C2 (White holds), G2/H2 (Black holds), M2/N2 (White holds): a cycle of six captures.

CORNERS = """
. X . O .
X . . . O
. . . . .
. . . . .
. . . . .
"""  # A5 is a single-stone suicide for White, E5 one for Black.

MULTI = """
. O X . .
O X . . .
X . . . .
. . . . .
. . . . .
"""  # White A5 removes its own three stones A5 B5 A4 (块子自尽).


# -- {#board.chains} {#setup.position} -------------------------------------------------------
def test_setup_rejects_a_chain_without_liberties():
    with pytest.raises(PositionError, match="A2"):
        game("X O\nO .", "chinese")


def test_board_sizes_outside_2_to_25_are_errors():
    with pytest.raises(ValueError, match="26"):
        Geometry(26, 19)
    with pytest.raises(ValueError, match="1"):
        Geometry(1, 5)
    assert Geometry(25, 2).area == 50


# -- {#capture.order} ----------------------------------------------------------------------
def test_opponent_chains_are_removed_before_the_movers_own():
    """000 §20: when both sides are left without liberties, the opponent's stones go."""
    g = game(KO, "chinese")
    (step,) = play(g, "B C4")
    assert step.legal and gtp(g, step.captures) == ["B4"] and not step.self_captures
    assert rows(g).startswith(".XO../X.XO./")


# -- {#capture.suicide} --------------------------------------------------------------------
@pytest.mark.parametrize(
    ("ruleset", "expected"),
    [
        ("jpd-art-2008", "forfeit suicide"),  # 001 第六条 禁着点, 第十五条 3 (OQ-9)
        ("japanese", "forfeit suicide"),  # J1989 Arts. 4, 14
        ("chinese", "void-pass suicide"),  # Chinese rules: 着手无效，弃权一次
        ("jhz-2022", "refused suicide"),  # 002 §19: 禁止颗子自尽
        ("jpd-art-2", "refused suicide"),  # 004 第四条
        ("tromp-taylor", "refused superko"),  # rule 7 allows it, rule 6 forbids the repetition
        ("jpd-2022", "legal"),  # 000 §22: 本规则允许颗子自尽
    ],
)
def test_single_stone_suicide(ruleset, expected):
    g = game(CORNERS, ruleset, to_move=WHITE)
    (step,) = play(g, "W A5")
    assert verdicts([step]) == [expected]
    if step.legal:
        assert gtp(g, step.self_captures) == ["A5"]
        assert g.prisoners[BLACK] == 1 and g.to_move is BLACK


@pytest.mark.parametrize(
    ("ruleset", "expected"),
    [
        ("jpd-art-2008", "forfeit suicide"),
        ("jpd-art-2008:illegal-move=refuse", "refused suicide"),
        ("chinese", "void-pass suicide"),
        ("aga", "void-pass suicide"),
        ("jhz-2022", "legal"),  # 002 §19: 允许块子自尽
        ("jpd-art-2", "legal"),
        ("ing", "legal"),
        ("tromp-taylor", "legal"),
        ("jpd-2022", "legal"),
    ],
)
def test_multi_stone_suicide(ruleset, expected):
    g = game(MULTI, ruleset, to_move=WHITE)
    (step,) = play(g, "W A5")
    assert verdicts([step]) == [expected]
    if step.legal:
        assert gtp(g, step.self_captures) == ["A4", "A5", "B5"]
        assert g.prisoners[BLACK] == 3


def test_jpd_2022_forbids_answering_a_single_stone_suicide_with_one():
    """000 §22: 一方颗子自禁后另一方接下来也颗子自禁被禁止 (via 禁倒退)."""
    g = game(CORNERS, "jpd-2022")
    assert verdicts(play(g, "B E5 W A5")) == ["legal", "refused superko"]
    assert verdicts(play(g, "W B3 B E5")) == ["legal", "legal"]


def test_jpd_2022_single_stone_suicide_after_a_pass_is_refused():
    """The opponent faced this global position just before passing (OQ-3)."""
    g = game(CORNERS, "jpd-2022")
    assert verdicts(play(g, "B pass W A5")) == ["legal", "refused superko"]


# -- {#rep.simple-ko} ----------------------------------------------------------------------
def test_simple_ko_bans_only_the_immediate_recapture():
    """001 第八条 / J1989 Art. 6 (with the refuse policy, so that play goes on)."""
    g = game(KO, "jpd-art-2008:illegal-move=refuse")
    assert verdicts(play(g, "B C4 W B4")) == ["legal", "refused ko"]
    assert verdicts(play(g, "W E1 B E2 W B4")) == ["legal", "legal", "legal"]


def test_a_pass_lifts_the_simple_ko_ban():
    g = game(KO, "jpd-art-2008")
    assert verdicts(play(g, "B C4 W pass B E1 W B4")) == ["legal"] * 4


def test_japanese_ko_violation_loses_the_game():
    """J1989 Art. 14 反則負け."""
    g = game(KO, "japanese")
    steps = play(g, "B C4 W B4")
    assert verdicts(steps) == ["legal", "forfeit ko"]
    assert g.phase is Phase.ENDED and g.outcome.kind is EndKind.ILLEGAL_MOVE
    assert g.outcome.winner is BLACK
    # play.counters: the record lists the forfeited move that ended the game, as the last action
    assert [(a.color, g.geometry.to_gtp(a.point)) for a in g.record[-2:]] == [(BLACK, "C4"), (WHITE, "B4")]


@pytest.mark.parametrize(("ruleset", "result"), [("japanese", "no-result"), ("jpd-art-2008", "draw")])
def test_triple_ko_cycle_ends_the_game(ruleset, result):
    """J1989 Art. 12 無勝負; 001 第八条 天降祥瑞，判为和棋 — at the third occurrence (OQ-5)."""
    g = game(TRIPLE_KO, ruleset)
    steps = play(g, "B C2 W G2 B N2 W B2 B H2 W M2")
    assert verdicts(steps) == ["legal"] * 6
    assert g.phase is Phase.CONTEST  # the start's second occurrence: play goes on
    steps = play(g, "B C2 W G2 B N2 W B2 B H2 W M2")
    assert verdicts(steps) == ["legal"] * 6
    assert g.phase is Phase.ENDED
    assert g.outcome.kind is EndKind.CYCLE and g.outcome.result is Result(result)


def test_triple_ko_under_positional_superko_refuses_the_sixth_capture():
    g = game(TRIPLE_KO, "tromp-taylor")
    steps = play(g, "B C2 W G2 B N2 W B2 B H2 W M2")
    assert verdicts(steps) == ["legal"] * 5 + ["refused superko"]


# -- {#rep.positional} {#rep.no-retreat} {#rep.global-positional} --------------------------
def test_chinese_ko_recapture_is_void_and_counts_as_a_pass():
    g = game(KO, "chinese")
    steps = play(g, "B C4 W B4")
    assert verdicts(steps) == ["legal", "void-pass superko"]
    assert g.to_move is BLACK and g.consecutive_passes == 1


def test_no_retreat_virtual_move_breaks_a_ko():
    """000 §22: 隔虚可以提劫."""
    g = game(KO, "jpd-2022")
    assert verdicts(play(g, "B C4 W B4")) == ["legal", "refused superko"]
    assert verdicts(play(g, "W virtual B pass W B4")) == ["legal", "legal", "legal"]


def test_no_retreat_virtual_move_may_not_answer_a_virtual_move_or_pass():
    """000 §22 read literally (OQ-2): the opponent would face the same board again."""
    g = game(KO, "jpd-2022")
    assert verdicts(play(g, "B virtual W virtual")) == ["legal", "refused superko"]
    g = game(KO, "jpd-2022")
    assert verdicts(play(g, "B pass W virtual")) == ["legal", "refused superko"]


def test_global_positional_virtual_moves_are_never_repetitions():
    """002 §21: a virtual stone makes a new global position."""
    g = game(KO, "jhz-2022")
    assert verdicts(play(g, "B C4 W virtual B virtual W B4")) == ["legal"] * 4


# -- {#rep.situational} --------------------------------------------------------------------
def test_aga_ko_recapture_is_a_void_pass_with_a_pass_stone():
    """AGA Rules 6 and 8."""
    g = game(KO, "aga")
    steps = play(g, "B C4 W B4")
    assert verdicts(steps) == ["legal", "void-pass superko"]
    assert g.prisoners[BLACK] == 1 + 1  # the captured stone and White's pass stone


# -- {#end.two-passes} {#end.four-virtual} {#turn.pass} {#turn.virtual} --------------------
def test_two_passes_halt_play():
    g = game(KO, "jpd-2022")
    steps = play(g, "B pass W pass")
    assert g.phase is Phase.HALTED and steps[-1].outcome.kind is EndKind.TWO_PASSES
    assert verdicts(play(g, "B E1")) == ["refused game-over"]


def test_aga_white_must_pass_last():
    """AGA Rule 9: if Black made the second pass, White's third pass is compulsory."""
    g = game(KO, "aga", to_move=WHITE)
    steps = play(g, "W pass B pass")
    assert g.phase is Phase.HALTED and steps[-1].outcome.kind is EndKind.TWO_PASSES
    assert g.prisoners == {BLACK: 2, WHITE: 1}  # White handed two pass stones, Black one
    assert g.counters().moves == {"B-pass": 1, "W-pass": 2}
    g = game(KO, "aga")
    play(g, "B pass W pass")
    assert g.phase is Phase.HALTED and g.prisoners == {BLACK: 1, WHITE: 1}


def test_jpd_a_has_no_pass_and_halts_on_four_virtual_moves():
    """001 第二条说明 (不准放弃，可下虚着); 003 四虚终局."""
    g = game(KO, "jpd-a")
    assert verdicts(play(g, "B pass")) == ["refused pass-not-allowed"]
    play(g, "B virtual W virtual B virtual")
    assert g.phase is Phase.CONTEST
    (step,) = play(g, "W virtual")
    assert g.phase is Phase.HALTED and step.outcome.kind is EndKind.FOUR_VIRTUAL


def test_four_virtual_moves_in_total_under_one_board_position():
    """003: 同一盤內棋形下非連續的累計四虛手 (a rocking ko)."""
    g = game(KO, "jpd-a")
    # B takes, W virtual, B virtual, W retakes (board K0 again), B virtual, W virtual:
    # board K1 saw two virtual moves, K0 none yet; then B takes again (K1), two more.
    play(g, "B C4 W virtual B virtual W B4 B virtual W virtual B C4")
    assert g.phase is Phase.CONTEST
    play(g, "W virtual")
    assert g.phase is Phase.CONTEST
    (step,) = play(g, "B virtual")
    assert g.phase is Phase.HALTED and step.outcome.kind is EndKind.FOUR_VIRTUAL


def test_rulesets_without_virtual_moves_refuse_them():
    g = game(KO, "chinese")
    assert verdicts(play(g, "B virtual")) == ["refused virtual-not-allowed"]


# -- {#turn.resign} {#play.turn} -----------------------------------------------------------
def test_resignation_ends_the_game_for_the_other_side():
    g = game(KO, "jpd-2022")
    (step,) = play(g, "W resign")  # either side may resign at any time (004)
    assert step.legal and g.phase is Phase.ENDED and g.outcome.winner is BLACK


def test_a_halted_game_takes_a_resignation_only_where_the_halt_is_a_pause():
    # 001 第十一条说明: 这里说的是棋局的休止而不是棋局的终止; 第十五条 2: 一方主动认输时，棋局为终止
    g = game(KO, "jpd-art-2008")
    assert verdicts(play(g, "B pass W pass B C1 W resign B resign")) == [
        "legal",
        "legal",
        "refused game-over",  # only a resignation is taken while halted
        "legal",  # White resigns although Black is to move
        "refused game-over",  # the game has ended
    ]
    assert g.phase is Phase.ENDED and g.outcome.kind is EndKind.RESIGNATION and g.outcome.winner is BLACK
    # Tromp-Taylor rule 8: two consecutive passes end the game
    g = game(KO, "tromp-taylor")
    assert verdicts(play(g, "B pass W pass W resign")) == ["legal", "legal", "refused game-over"]
    assert g.phase is Phase.HALTED and g.outcome.kind is EndKind.TWO_PASSES
    g = game(KO, "tromp-taylor:resignation=until-counted")
    assert verdicts(play(g, "B pass W pass W resign")) == ["legal", "legal", "legal"]
    assert g.phase is Phase.ENDED and g.outcome.winner is BLACK


def test_out_of_turn_is_refused():
    g = game(KO, "chinese")
    assert verdicts(play(g, "W E1")) == ["refused out-of-turn"]
    assert g.to_move is BLACK


def test_occupied_point_is_refused_whatever_the_policy():
    g = game(KO, "japanese")
    assert verdicts(play(g, "B B5")) == ["refused occupied"]
    assert g.phase is Phase.CONTEST


# -- {#setup.handicap} ---------------------------------------------------------------------
def test_fixed_handicap_places_star_points_and_white_moves_first():
    g = Game.new(rules("japanese"), Geometry.square(19), handicap=3)
    stones = sorted(g.geometry.to_gtp(p) for p in g.board.stones())
    assert stones == ["D4", "Q16", "Q4"] and g.to_move is WHITE


def test_free_handicap_is_placed_by_black_then_white_moves():
    g = Game.new(rules("chinese"), Geometry.square(9), handicap=2)
    assert g.phase is Phase.HANDICAP
    assert verdicts(play(g, "W E5 B pass B C3 B C3 B G7 W E5")) == [
        "refused out-of-turn",
        "refused handicap-placement",
        "legal",
        "refused occupied",
        "legal",
        "legal",
    ]
    assert g.counters().handicap_stones == 2


def test_handicap_errors_name_the_problem():
    with pytest.raises(HandicapError, match="at most 4"):
        Game.new(rules("japanese"), Geometry.square(8), handicap=5)
    with pytest.raises(HandicapError, match="not 1"):
        Game.new(rules("japanese"), Geometry.square(9), handicap=1)


# -- {#play.counters} ----------------------------------------------------------------------
def test_counters_record_first_pass_and_last_real_move():
    g = game(KO, "jpd-2022")
    play(g, "B C4 W virtual B E1 W pass")
    c = g.counters()
    assert c.first_to_pass is WHITE and c.last_real_move is BLACK
    assert c.virtual_stones == {"B": 0, "W": 1}
    assert c.moves == {"B-move": 2, "W-pass": 1, "W-virtual": 1}
    assert c.prisoners == {"B": 1, "W": 0}


def test_setup_rejects_points_off_the_board_and_non_colours():
    """{#setup.position} A set-up names points of the board and black or white stones only."""
    for stones, words in (({-1: BLACK}, "off the 3x3"), ({9: BLACK}, "off the 3x3"), ({0: 0}, "not black")):
        with pytest.raises(PositionError, match=words):
            Game.new(rules("chinese"), Geometry.square(3), stones)


def test_gtp_vertices_take_ascii_digits_only():
    with pytest.raises(ValueError, match="not a GTP vertex"):
        Geometry.square(5).from_gtp("A\u0663")


def test_axis_values_live_with_the_rules():
    """{#rules.axes} The rules module defines every axis's values; counting imports them from it.

    Importing ``jpdref.rules`` (or the play engine) loads nothing of counting, so imports run one
    way: rules ← game ← counting.
    """
    import subprocess
    import sys

    code = (
        "import sys, jpdref.rules, jpdref.game\n"
        "loaded = sorted(m for m in sys.modules if m.startswith('jpdref.counting'))\n"
        "assert not loaded, loaded\n"
        "import jpdref.counting as c\n"
        "assert c.Method is jpdref.rules.Method and c.KomiRule is jpdref.rules.KomiRule\n"
        "assert jpdref.rules.axis_type('counting') is c.Method\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_board_copy_has_chains_of_its_own_equal_to_the_originals():
    """Board.copy (the status prover's search copies games): every stone of the copy has a chain
    with the same stones and liberties as the original's, one chain object per chain, none shared."""
    from jpdref.board import Board

    g = Geometry(5, 4)
    original = Board.from_stones(g, {g.from_gtp(v): c for v, c in (
        ("A4", BLACK), ("B4", BLACK), ("B3", BLACK), ("D2", WHITE), ("D1", WHITE), ("E4", WHITE)
    )})  # fmt: skip
    copy = original.copy()
    assert copy.color == original.color and copy.hash == original.hash
    for p, c in enumerate(original.chain):
        twin = copy.chain[p]
        if c is None:
            assert twin is None
            continue
        assert twin is not None and twin is not c
        assert (sorted(twin.stones), twin.libs, twin.key) == (sorted(c.stones), c.libs, c.key)
        assert all(copy.chain[s] is twin for s in twin.stones)  # one chain object per chain
