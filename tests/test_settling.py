"""Settling a dispute by play (实战解决): spec/counting.md {#count.settling}.

One group per procedure ({#count.settling.art-2008}, {#count.settling.art-2},
{#count.settling.jpd-2022}). Each plays a small dispute out on the engine, checks what the play
proved and the stage's counters, and counts by the ruleset's method with 6.5 komi (001 第十八条,
004 贴先, 000 §30). Every figure is derived by hand in the comments.

Boards are drawn with row 5 (the top line) first; vertices are GTP (A1 bottom left).
"""

import pytest
from engine_helpers import action, game, play, rows, verdicts
from jpdref.counting import Agreement, Claim, ClaimKind, KomiRule, count_art, count_equal_stones
from jpdref.game import EndKind, Game, Phase, Stage
from jpdref.settling import (
    Dispute,
    Procedure,
    SettlingError,
    settle,
    settle_art_2,
    settle_art_2008,
    settle_jpd_2022,
    settled_position,
)
from jpdref.stones import BLACK, WHITE

KOMI = KomiRule.FIXED_6_5

# A black stone at D3 inside White's area, with one liberty (D2). Black: column B (5 stones) and
# D3; White: column C, D4, E3. Black's area is column A (5 points); White's the rest.
INVADER = """
. X O . .
. X O O .
. X O X O
. X O . .
. X O . .
"""

# Black holds a ko at B3 (the point only Black borders); C3 is Black's stone in atari, White can
# take it back at B3. Black 6 stones (B5 B4 A3 B2 B1 C3) + 5 empty (A5 A4 A2 A1 B3); White 5
# stones (C5 C4 D3 C2 C1) + 14 empty (columns D–F except D3).
KO = """
. X O . . .
. X O . . .
X . X O . .
. X O . . .
. X O . . .
"""


def halted(rows_: str, ruleset: str, to_move=BLACK, moves: str = "") -> Game:
    g = game(rows_, ruleset, to_move)
    play(g, moves)
    first = g.to_move
    play(g, f"{first.letter} pass {first.opponent.letter} pass")
    assert g.phase is Phase.HALTED
    return g


def actions(g: Game, text: str):
    words = text.split()
    return [action(g, words[i], words[i + 1]) for i in range(0, len(words), 2)]


def pt(g: Game, vertex: str) -> int:
    return g.geometry.from_gtp(vertex)


# -- jpd-art-2008: the independent test (count.settling.art-2008) ------------------------------
def test_art_2008_dead_stone_proved_by_the_test():
    g = halted(INVADER, "jpd-art-2008")
    before = (rows(g), list(g.record), g.counters())
    # By agreement White starts (第十三条: 可由另一方先下). W D2 takes D3's last liberty.
    r = settle_art_2008(g, WHITE, actions(g, "W D2 B pass W pass"))
    assert verdicts(r.steps) == ["legal"] * 3 and r.finished
    assert r.proof.captured == {pt(g, "D3")}
    # The halted game is unchanged: the count is made on the halt position.
    assert (rows(g), list(g.record), g.counters()) == before
    fp = settled_position(r, dispute=Dispute(stones=frozenset({pt(g, "D3")})))
    assert fp.agreement.dead == {pt(g, "D3")} and fp.stones == tuple(g.board.color)
    assert fp.settling == (0, 0)
    # Art judgment on the halt board: D3 dead. Black's territory: column A = 5, minus the dead
    # D3 filled back = 4 目. White's: D5 E5 E4 and D3 D2 D1 E2 E1 = 8 目. All 6 + 7 stones
    # split. 4 − 8 = −4; komi 6.5: −10.5. In points: B 4 + (25 − 12)/2 = 10.5, W 14.5.
    c = count_art(fp, KOMI)
    assert (c.black.score, c.white.score, float(c.margin), c.winner) == (4, 8, -10.5, "W")


def test_art_2008_test_may_start_with_either_side():
    g = halted(INVADER, "jpd-art-2008")
    # Black (the side to move) starts and tries to save D3: B D2 W E2 B D1 W E1 captures
    # D3 D2 D1 (their last liberty E1). Same proof: D3 is dead.
    r = settle(Procedure.ART_2008, g, actions(g, "B D2 W E2 B D1 W E1 B pass W pass"), first=BLACK)
    assert r.finished and pt(g, "D3") in r.proof.captured
    assert r.steps[3].captures and len(r.steps[3].captures) == 3
    # The test's captures are not prisoners of the game: the counters are the halt's.
    fp = settled_position(r, dispute=Dispute(stones=frozenset({pt(g, "D3")})))
    assert fp.counters == g.counters() and fp.held_by(WHITE) == 0
    assert count_art(fp, KOMI).margin == -10.5


def test_art_2008_ko_claim_upheld_when_the_claimer_starts():
    g = halted(KO, "jpd-art-2008")
    claim = Claim(ClaimKind.KO, BLACK, pt(g, "B3"))
    # Black starts and connects at B3: White never took the point, so it is Black's 目
    # (第十三条(2)). The board goes back to the halt: B3 is empty again and is counted as
    # Black's 目 — connecting in the test costs nothing (第十条(1): 粘劫会损1目).
    r = settle_art_2008(g, BLACK, actions(g, "B B3 W pass B pass"))
    dispute = Dispute(stones=frozenset({pt(g, "C3")}), claims=(claim,))
    fp = settled_position(r, dispute=dispute)
    assert fp.agreement.claims == (claim,) and not fp.agreement.dead
    # Black 目 = A5 A4 A2 A1 + B3 = 5, White 目 = 14; stones 6 + 5 split: 5 − 14 = −9, −15.5.
    # (Counted on the test's last board instead, Black would have 4 目: −10.)
    c = count_art(fp, KOMI)
    assert (c.black.score, c.white.score, float(c.margin)) == (5, 14, -15.5)


def test_art_2008_ko_claim_rejected_when_the_opponent_takes_it():
    g = halted(KO, "jpd-art-2008")
    claim = Claim(ClaimKind.KO, BLACK, pt(g, "B3"))
    # White starts (by agreement), takes the ko at B3 (capturing C3); Black has no ko threat
    # and passes; White connects at C3. White occupied the point: not Black's 目, and C3 died.
    r = settle_art_2008(g, WHITE, actions(g, "W B3 B pass W C3 B pass W pass"))
    assert verdicts(r.steps) == ["legal"] * 5 and r.finished
    fp = settled_position(r, dispute=Dispute(claims=(claim,)))
    assert fp.agreement.claims == () and fp.agreement.dead == {pt(g, "C3")}
    # At the halt with C3 dead: B3 C3 border both colours → dame, split. Black fills its dead
    # C3 into its territory: 目 4 − 1 = 3; White 14. 3 − 14 = −11; komi: −17.5.
    # In points: B 3 + (30 − 17)/2 = 9.5, W 20.5.
    c = count_art(fp, KOMI)
    assert (c.black.score, c.white.score, float(c.margin)) == (3, 14, -17.5)


def test_art_2008_test_forgets_the_history():
    # White took the ko before the halt (W B3 captures C3). In the test Black retakes at once
    # (the passes ended the ko ban). The retake recreates the set-up position with White to
    # move: carried over, that history would count it a second time (one step from a cycle,
    # 第八条, OQ-5); the test forgets it and meets it for the first time.
    g = halted(KO, "jpd-art-2008", to_move=WHITE, moves="W B3")
    r = settle_art_2008(g, BLACK, actions(g, "B C3"))
    assert verdicts(r.steps) == ["legal"] and r.game.stage is Stage.TEST
    assert r.game.phase is Phase.CONTEST and r.outcome is None
    assert r.game.occurrences == {}  # no position of the test has occurred twice
    kept = g.continuation(Stage.TEST, to_move=BLACK, reset_history=False)
    assert kept.play(action(kept, "B", "C3")).outcome is None
    assert list(kept.occurrences.values()) == [2]  # the set-up position, met again
    with pytest.raises(SettlingError) as err:
        settled_position(r)
    assert err.value.code == "unfinished"


# -- jpd-art-2: the continuation with virtual moves (count.settling.art-2) ---------------------
def test_art_2_continuation_settles_the_invader():
    g = halted(INVADER, "jpd-art-2")
    # Black, the first to pass (轮走方), starts. A pass is refused: virtual moves stand for it.
    r = settle_art_2(g, actions(g, "B pass B D2 W E2 B D1 W E1 B virtual W virtual"))
    assert verdicts(r.steps) == ["refused pass-not-allowed"] + ["legal"] * 6
    assert r.outcome.kind is EndKind.TWO_VIRTUAL and r.finished
    # White made the last move: the stage is balanced already, 3 moves each.
    assert r.settling == (3, 3) and r.game.virtual_stones == {BLACK: 1, WHITE: 1}
    assert rows(g) != rows(r.game)  # play continued: the board is not restored
    fp = settled_position(r)
    assert fp.settling == (3, 3) and fp.held_by(WHITE) == 3
    # Art judgment on the last board: Black owes 3 prisoners + 1 virtual stone, filled into
    # column A: 目 5 − 4 = 1. White owes 1 virtual stone: 目 (D5 E5 E4 + D3 D2 D1) 6 − 1 = 5.
    # 1 − 5 = −4; komi: −10.5 — the figure of the same dispute settled under jpd-art-2008.
    c = count_art(fp, KOMI)
    assert (c.black.score, c.white.score, float(c.margin)) == (1, 5, -10.5)


def test_art_2_balancing_virtual_move():
    g = halted(INVADER, "jpd-art-2")
    # B D2, W virtual, B virtual: two consecutive virtual moves and Black, the first mover,
    # made the last: the engine makes White's balancing virtual move (004 实战解决(2)).
    r = settle_art_2(g, actions(g, "B D2 W virtual B virtual"))
    assert r.finished and [str(a.kind) for a in r.game.record[-3:]] == ["virtual"] * 3
    assert r.game.record[-1].color is WHITE and r.settling == (2, 2)
    assert r.game.virtual_stones == {BLACK: 1, WHITE: 2}
    # At the second halt D3 D2 are agreed dead. Black owes 2 dead + 1 virtual: 目 5 − 3 = 2;
    # White owes 2 virtual: 目 (D5 E5 E4 + D3 D2 D1 E2 E1) 8 − 2 = 6. 2 − 6 = −4: −10.5 again.
    # Without the balancing move White would have 7 目 and Black lose a point for its extra move.
    fp = settled_position(r, Agreement(dead=frozenset({pt(g, "D3")})))
    c = count_art(fp, KOMI)
    assert (c.black.score, c.white.score, float(c.margin)) == (2, 6, -10.5)


def test_art_2_a_claim_upheld_on_a_filled_point_is_counted_as_the_stone():
    # Black connects its ko at B3 in the continuation: White never took the point, so the ko
    # claim is upheld (第十三条(2)) — but the board is not restored and B3 is now a black stone,
    # counted as a stone, not as the claim (004 補棋损点损目: 粘则损点损目).
    g = halted(KO, "jpd-art-2")
    claim = Claim(ClaimKind.KO, BLACK, pt(g, "B3"))
    r = settle_art_2(g, actions(g, "B B3 W virtual B virtual"))
    assert r.finished and r.proof.upholds(claim) and r.filled([claim]) == (claim,)
    fp = settled_position(r, dispute=Dispute(claims=(claim,)))
    assert fp.agreement.claims == ()
    # Black 目: A5 A4 A2 A1 = 4, less its 1 virtual stone = 3; White: 14 less its 2 (the
    # balancing move follows Black's) = 12. The claim adds nothing: 3 − 12 − 6.5 = −15.5.
    c = count_art(fp, KOMI)
    assert (c.black.score, c.white.score, float(c.margin)) == (3, 12, -15.5)
    # The independent test counts on the restored halt board: nothing is filled there.
    g = halted(KO, "jpd-art-2008")
    r = settle_art_2008(g, BLACK, actions(g, "B B3 W pass B pass"))
    assert r.proof.upholds(claim) and r.filled([claim]) == ()


def test_art_2_history_restarts():
    # White took the ko before the halt; 禁全同 would forbid Black's retake (it recreates the
    # board before White's capture) but the settling stage forgets earlier positions.
    g = halted(KO, "jpd-art-2", to_move=WHITE, moves="W B3")
    r = settle_art_2(g, actions(g, "B C3 W B3"))
    # Black's retake is legal; White's immediate re-retake recreates the stage's first
    # position and is refused.
    assert verdicts(r.steps) == ["legal", "refused superko"]
    kept = g.continuation(Stage.SETTLING, reset_history=False, virtual_for_pass=True)
    assert verdicts([kept.play(action(kept, "B", "C3"))]) == ["refused superko"]


# -- jpd-2022: the continuation whose moves cost nothing (count.settling.jpd-2022) -------------
# INVADER reached by play from the empty board (so the counters account for the stones, as
# 等子比空 requires), with one more black stone at A3: 7 moves each, White last.
OPENING = "B B5 W C5 B B4 W C4 B B3 W C3 B B2 W C2 B B1 W C1 B D3 W D4 B A3 W E3"
EMPTY5 = "\n".join([". . . . ."] * 5)


def test_jpd_2022_extra_settling_moves_cost_nothing():
    g = halted(EMPTY5, "jpd-2022", moves=OPENING)
    # Black starts (轮走方), tries to save D3 and fails; then fills its own A2 (an extra move);
    # two passes halt again.
    r = settle_jpd_2022(g, actions(g, "B D2 W E2 B D1 W E1 B A2 W pass B pass"))
    assert verdicts(r.steps) == ["legal"] * 7 and r.outcome.kind is EndKind.TWO_PASSES
    assert r.settling == (3, 2)
    fp = settled_position(r)
    assert fp.counters.moves["B-move"] == 10 and fp.counters.moves["W-move"] == 9
    # 收后方: the last real move before the final halt, the stage's included — Black's A2
    # (003 第七条(1), OQ-52); the contest's was White's E3
    assert fp.counters.last_real_move is BLACK
    # 等子比空: Black's 3 prisoners fill A5 A4 A1 (目 0); stones put down B 10 − W 9 = 1, all of
    # it while settling: one B-class move turns a Black stone back into a 目 (000 §29(3)).
    # Black 目 1, White 目 6 (D5 E5 E4 D3 D2 D1), stones 9 each: 1 − 6 = −5; komi: −11.5 —
    # the same as without the extra move. The art judgment charges it: 0 − 6 = −6 (T10).
    c = count_equal_stones(fp, KOMI)
    assert (c.black.score, c.white.score, float(c.margin)) == (1, 6, -11.5)
    assert count_art(fp, 0).margin == -6


def test_jpd_2022_history_continues():
    # White took the ko before the halt (W B3); under 禁倒退 Black's retake would make White
    # face the position it faced before White's capture: refused, the history continues.
    g = halted(KO, "jpd-2022", to_move=WHITE, moves="W B3")
    # (A virtual move would be refused too: White would face the halt board again, 000 §22.)
    r = settle(Procedure.JPD_2022, g, actions(g, "B C3 B virtual B A5"))
    assert verdicts(r.steps) == ["refused superko", "refused superko", "legal"]


# -- errors ------------------------------------------------------------------------------------
def test_settling_needs_a_halted_game_and_a_procedure():
    g = game(INVADER, "jpd-art-2")
    with pytest.raises(SettlingError) as err:
        settle_art_2(g, [])
    assert err.value.code == "not-halted"
    h = halted(INVADER, "chinese")
    with pytest.raises(SettlingError) as err:
        settle("chinese", h, [])
    assert err.value.code == "no-procedure"
    h = halted(INVADER, "jpd-art-2")
    with pytest.raises(SettlingError) as err:
        settle("jpd-art-2", h, [], first=WHITE)
    assert err.value.code == "first-mover"


@pytest.mark.parametrize("ruleset", ["chinese", "japanese", "jpd-art-2008", "jpd-2022", "jhz-2022"])
def test_not_halted_is_checked_before_the_procedure(ruleset):
    # {#count.settling}: the halt is a precondition of any settling, so an unhalted game is
    # `not-halted` under every ruleset — one without a procedure (chinese) included — and a
    # first mover the procedure would refuse does not change that.
    g = game(INVADER, ruleset)
    play(g, "B pass")
    assert g.phase is Phase.CONTEST
    for first in (None, WHITE):
        with pytest.raises(SettlingError) as err:
            settle(ruleset, g, [], first=first)
        assert err.value.code == "not-halted"


def test_resignation_while_settling_ends_the_game():
    g = halted(INVADER, "jpd-art-2008")
    r = settle_art_2008(g, WHITE, actions(g, "W D2 B resign"))
    assert r.outcome.winner is WHITE and r.game.phase is Phase.ENDED
    with pytest.raises(SettlingError) as err:
        settled_position(r)
    assert err.value.code == "ended"
