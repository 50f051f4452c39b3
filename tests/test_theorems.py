"""The compatibility theorems of spec/counting.md {#count.theorems}, on generated finished games.

One test per theorem (L1, T1–T10). Each example is a game played through the engine to the halt
with a consistent agreement (``tests/finished_games.py``). A test passes on an example when the
theorem holds, or when it fails (or the count is refused) in a counterexample class the spec
documents; anything else fails the test and prints the example. Every outcome is recorded as a
Hypothesis event (``pytest tests/test_theorems.py --hypothesis-show-statistics`` shows how often
each theorem held and in which documented classes it failed).

Margins are Black's lead before komi (komi 0), in points, except where a theorem is about komi.
"""

from fractions import Fraction

from finished_games import Finished, finished_games
from hypothesis import HealthCheck, event, given, settings
from jpdref.counting import (
    ClaimKind,
    CountingError,
    KomiRule,
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
)
from jpdref.counting.fillback import fill_back
from jpdref.counting.regions import OWN_EMPTY, SPLIT
from jpdref.counting.scratch import Scratch
from jpdref.stones import BLACK, WHITE, Color

EXAMPLES = 400
SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def outcome(theorem: str, ex: Finished, held: bool, classes: list[str], detail: str = "") -> None:
    """Record a theorem's outcome; a failure outside every documented class fails the test."""
    if held:
        event(f"{theorem}: held")
        return
    if not classes:
        raise AssertionError(f"{theorem} fails outside the documented classes: {detail}\n{ex.describe()}")
    event(f"{theorem}: counterexample [{', '.join(classes)}]")


def refused(theorem: str, ex: Finished, err: CountingError, documented: dict[str, str | None]) -> None:
    """A refused count: fine if the spec documents the refusal (code → the documented class)."""
    why = documented.get(err.code)
    if not why:
        raise AssertionError(f"{theorem}: undocumented refusal {err}\n{ex.describe()}")
    event(f"{theorem}: refused ({err.code}: {why})")


OVERFLOW = {"overflow": "overflow that cannot be balanced"}
HANDICAP_KOMI = "handicap (count.komi: every komi rule changes)"


def m(count) -> Fraction:
    return count.margin


def overflow(ex: Finished) -> tuple[int, int]:
    c = classify(ex.fp)
    return fill_back(ex.fp, c, Scratch.of(c), balance=False).overflow


def contest_n(ex: Finished) -> int:
    """n of {#count.equal-stones} step 2: stones put down in the contest, B − W."""
    fp = ex.fp
    return fp.stones_put(BLACK) - fp.stones_put(WHITE) - ex.settling_extra


def total_n(ex: Finished) -> int:
    return ex.fp.stones_put(BLACK) - ex.fp.stones_put(WHITE)


def pass_stones_handed(ex: Finished, color: Color) -> int:
    return ex.fp.moves(color, "pass") if ex.pass_stones else 0


def alternating_classes(ex: Finished) -> list[str]:
    """The documented reasons why s′_B − s′_W may differ from [Black made the last real move]
    (T2's counterexample classes)."""
    classes = []
    if ex.mid_game_pass:
        classes.append("pass in mid-game")
    if ex.virtual:
        classes.append("virtual moves")
    if ex.handicap:
        classes.append("handicap")
    if ex.pass_stones:
        classes.append("pass stones (AGA)")
    return classes


def eq_documented(ex: Finished) -> dict[str, str | None]:
    """Refusals of 等子比空 the spec documents (T3), for this example."""
    unequal = "set-up stones" if ex.setup_difference else "pass stones (AGA)" if ex.pass_stones else None
    inside = "settling moves with no inside stone" if ex.settling_extra else None
    return {"unequal-stones": unequal, "no-boundary-stone": "no boundary stone", "no-interior-stone": inside,
            **OVERFLOW}  # fmt: skip


# -- L1 ------------------------------------------------------------------------------------------
@SETTINGS
@given(finished_games())
def test_l1_conservation(ex):
    """L1: after fill-back without overflow, s′_C = real + virtual moves (+ H) + pass stones handed.

    Checked on every example in the form s′_C + e_C = … + S_C, e_C the overflow left off the
    board (without balancing) and S_C the set-up stones of C (no move put them down: L1's
    counterexample class, with its exact size): with e_C = S_C = 0 it is L1 as stated."""
    c = classify(ex.fp)
    s = Scratch.of(c)
    report = fill_back(ex.fp, c, s, balance=False)
    fails = []
    for i, col in enumerate((BLACK, WHITE)):
        expected = ex.fp.stones_put(col) + pass_stones_handed(ex, col) + ex.setup_stones[i]
        if s.stones(col) + report.overflow[i] != expected:
            fails.append(
                f"{col.letter}: {s.stones(col)} + {report.overflow[i]} off the board, expected {expected}"
            )
    outcome("L1", ex, not fails, [], "; ".join(fails))
    if not fails:
        event(f"L1: held {'with' if report.overflow != (0, 0) else 'without'} overflow")


# -- T1 ------------------------------------------------------------------------------------------
def _areas(s: Scratch) -> tuple[Fraction, Fraction]:
    half = Fraction(s.split(*SPLIT), 2)
    return tuple(
        s.stones(col) + sum(1 for p in range(s.geometry.area) if s.board[p] == 0 and s.owner[p] == col
                            and s.why[p] in OWN_EMPTY) + half
        for col in (BLACK, WHITE)
    )  # fmt: skip


@SETTINGS
@given(finished_games())
def test_t1_fill_back_keeps_area(ex):
    """T1: A_C is the same before and after fill-back (checked with and without overflow, with and
    without balancing)."""
    c = classify(ex.fp)
    before = _areas(Scratch.of(c))
    for balance in (False, True):
        s = Scratch.of(c)
        try:
            report = fill_back(ex.fp, c, s, balance=balance)
        except CountingError as err:
            refused("T1", ex, err, OVERFLOW)
            continue
        after = _areas(s)
        label = "overflow" if report.overflow != (0, 0) else "no overflow"
        outcome("T1", ex, after == before, [], f"{label}, balance={balance}: {before} → {after}")
        if report.overflow != (0, 0):
            event(f"T1: held with overflow (balance={balance})")


# -- T2 ------------------------------------------------------------------------------------------
def _stones(count, color: Color) -> int:
    return sum(1 for v in count.board if v == color)


@SETTINGS
@given(finished_games())
def test_t2_art_is_area_minus_stone_difference(ex):
    """T2: m(art) = m(area) − (s′_B − s′_W); and, in alternating games, s′_B − s′_W = [Black 收后]."""
    area = m(count_area(ex.fp, 0))
    for balance in (True, False):
        try:
            art = count_art(ex.fp, 0, balance=balance)
        except CountingError as err:
            refused("T2", ex, err, OVERFLOW)
            return
        diff = _stones(art, BLACK) - _stones(art, WHITE)
        outcome(
            "T2", ex, m(art) == area - diff, [], f"balance={balance}: art {m(art)}, area {area}, s′ {diff}"
        )
        if balance or overflow(ex) == (0, 0):
            put = total_n(ex) + pass_stones_handed(ex, BLACK) - pass_stones_handed(ex, WHITE)
            put += ex.setup_difference
            outcome("T2 (L1 accounting)", ex, diff == put, [], f"s′_B − s′_W = {diff}, stones put {put}")
        black_last = int(ex.counters.last_real_move is BLACK)
        classes = alternating_classes(ex)
        if not balance and overflow(ex)[0] != overflow(ex)[1]:
            classes.append("overflow left unbalanced")
        held = diff == black_last + ex.setup_difference  # set-up stones: a fixed offset, no class
        outcome(
            "T2 (黑收后)", ex, held, classes, f"balance={balance}: s′_B − s′_W = {diff}, B last {black_last}"
        )


# -- T3 ------------------------------------------------------------------------------------------
@SETTINGS
@given(finished_games())
def test_t3_equal_stones_is_area_minus_n(ex):
    """T3: if 等子比空 succeeds, m(equal-stones) = m(area) − n (n the contest difference)."""
    try:
        eq = count_equal_stones(ex.fp, 0)
    except CountingError as err:
        refused("T3", ex, err, eq_documented(ex))
        return
    area, n = m(count_area(ex.fp, 0)), contest_n(ex)
    outcome("T3", ex, m(eq) == area - n, [], f"equal-stones {m(eq)}, area {area}, n {n}")


# -- T4 ------------------------------------------------------------------------------------------
@SETTINGS
@given(finished_games())
def test_t4_chinese_versus_territory(ex):
    """T4: in alternating games, Chinese (3¾) − art (6.5) = −1 when White made the last move, 0 when
    Black did; art with 6.5 = area with 6.5+black-last = area with the A version."""
    try:
        chinese = m(count_area(ex.fp, KomiRule.CHINESE))
        art = m(count_art(ex.fp, KomiRule.FIXED_6_5))
    except CountingError as err:
        refused("T4", ex, err, OVERFLOW)
        return
    black_last = ex.counters.last_real_move is BLACK
    classes = alternating_classes(ex)
    diff = m(count_area(ex.fp, 0)) - m(count_art(ex.fp, 0))  # s′_B − s′_W by T2
    komi_changes = [HANDICAP_KOMI] if ex.handicap else []
    outcome(
        "T4 (exact)", ex, chinese - art == diff - 1, komi_changes, f"Chinese {chinese}, art {art}, s′ {diff}"
    )
    # Set-up stones are no class: they shift s′_B − s′_W by exactly S_B − S_W (L1), so by T2 the
    # art margin by the same amount.
    shift = ex.setup_difference
    outcome(
        "T4", ex, chinese - art == (0 if black_last else -1) + shift, classes, f"Chinese {chinese}, art {art}"
    )
    black_last_komi = m(count_area(ex.fp, KomiRule.BLACK_LAST))
    outcome(
        "T4 (6.5+black-last)",
        ex,
        art == black_last_komi - shift,
        classes,
        f"art {art}, area {black_last_komi}",
    )
    if ex.counters.first_to_pass is None:
        event("T4 (A version): not applicable (no first pass)")
        return
    a_version = m(count_area(ex.fp, KomiRule.A_VERSION))
    outcome(
        "T4 (A version)", ex, art == a_version - shift, classes, f"art {art}, area with A version {a_version}"
    )


# -- T5 ------------------------------------------------------------------------------------------
def _japanese_free(ex: Finished, color: Color) -> tuple[int, int]:
    """Points ``color`` owns under the art judgment that Japanese counting gives nobody: seki eyes,
    one-sided liberties and every claim except a ko claim on a territory point; and, among them,
    the ko claims outside territory (the class the generated games added to T5)."""
    c = classify(ex.fp)
    free = ko_outside = 0
    for p in range(ex.fp.geometry.area):
        if c.owner[p] != color:
            continue
        if c.why[p] in (Why.EYE, Why.ONE_SIDED):
            free += 1
        elif c.why[p] is Why.CLAIMED and not (c.claims[p] is ClaimKind.KO and c.base[p] is Why.TERRITORY):
            free += 1
            ko_outside += c.claims[p] is ClaimKind.KO
    return free, ko_outside


@SETTINGS
@given(finished_games())
def test_t5_art_versus_japanese(ex):
    """T5: m(art) = m(japanese) + (seki eyes, one-sided liberties and the claims Japanese does not
    count, B − W) − (v_B − v_W), with balancing."""
    try:
        art = m(count_art(ex.fp, 0))
    except CountingError as err:
        refused("T5", ex, err, OVERFLOW)
        return
    japanese = m(count_japanese(ex.fp, 0))
    (fb, kb), (fw, kw) = _japanese_free(ex, BLACK), _japanese_free(ex, WHITE)
    v = ex.fp.virtual_stones(BLACK) - ex.fp.virtual_stones(WHITE)
    outcome(
        "T5",
        ex,
        art == japanese + (fb - fw) - v,
        [],
        f"art {art}, japanese {japanese}, terms {fb - fw}, v {v}",
    )
    if art != japanese:
        seki = fb - kb != fw - kw
        on = (
            ("seki points and one-sided claims", seki),
            ("virtual moves", v != 0),
            ("ko claim outside territory", kb != kw),
        )
        event(f"T5: art ≠ japanese [{', '.join(k for k, flag in on if flag) or 'terms cancel'}]")


# -- T6 ------------------------------------------------------------------------------------------
@SETTINGS
@given(finished_games())
def test_t6_equal_empty_is_area(ex):
    """T6: m(equal-empty) = m(area), always."""
    area, ee = m(count_area(ex.fp, 0)), m(count_equal_empty(ex.fp, 0))
    outcome("T6", ex, ee == area, [], f"equal-empty {ee}, area {area}")


# -- T7 ------------------------------------------------------------------------------------------
@SETTINGS
@given(finished_games())
def test_t7_roads_versus_area(ex):
    """T7: m(roads) = m(area) − (E_B − E_W) before komi; L_B + L_W = N − ΣE − shared (002 §31)."""
    c = classify(ex.fp)
    eyes = basic_eyes(c)
    e_b = sum(1 for col in eyes.values() if col is BLACK)
    e_w = len(eyes) - e_b
    roads, area = count_roads(ex.fp, 0), m(count_area(ex.fp, 0))
    outcome("T7", ex, m(roads) == area - (e_b - e_w), [], f"roads {m(roads)}, area {area}, E {e_b} − {e_w}")
    shared = sum(1 for w in c.why if w is Why.SHARED)
    total = roads.black.score + roads.white.score
    outcome("T7 (002 §31)", ex, total == ex.fp.geometry.area - len(eyes) - shared, [], f"L total {total}")
    if m(roads) != area:
        event("T7: roads ≠ area [E_B ≠ E_W]")


# -- T8 ------------------------------------------------------------------------------------------
@SETTINGS
@given(finished_games())
def test_t8_tromp_taylor_is_area(ex):
    """T8: with no dead stone, no one-sided liberty and no claim, m(tromp-taylor) = m(area)."""
    c = classify(ex.fp)
    classes = [
        name
        for name, on in (
            ("dead stones left on the board", bool(c.dead)),
            ("one-sided liberties", Why.ONE_SIDED in c.why),
            ("claims", bool(c.claims)),
        )
        if on
    ]
    tt, area = m(count_tromp_taylor(ex.fp, 0)), m(count_area(ex.fp, 0))
    outcome("T8", ex, tt == area, classes, f"tromp-taylor {tt}, area {area}")


# -- T9 ------------------------------------------------------------------------------------------
@SETTINGS
@given(finished_games())
def test_t9_ing_is_area(ex):
    """T9: m(ing) = m(area); with 004 (6), m(ing) = m(area) − n; komi 8 (ties to Black) and 7.5
    give different winners only at m = 7.5."""
    area = m(count_area(ex.fp, 0))
    outcome("T9", ex, m(count_ing(ex.fp, 0)) == area, [], "ing ≠ area")
    try:
        balanced = m(count_ing(ex.fp, 0, balance_moves=True))
    except CountingError as err:
        refused("T9 (004 (6))", ex, err, {"no-boundary-stone": "no boundary stone"})
    else:
        outcome("T9 (004 (6))", ex, balanced == area - total_n(ex), [], f"ing {balanced}, area {area}")
    ing8, chinese = count_ing(ex.fp, KomiRule.ING), count_area(ex.fp, KomiRule.CHINESE)
    classes = [HANDICAP_KOMI] if ex.handicap else []
    outcome("T9 (komi)", ex, ing8.winner == chinese.winner or area == Fraction(15, 2), classes,
            f"m {area}: Ing {ing8.winner}, Chinese {chinese.winner}")  # fmt: skip


# -- T10 -----------------------------------------------------------------------------------------
@SETTINGS
@given(finished_games())
def test_t10_equal_stones_is_art(ex):
    """T10: under L1 with no settling stage, m(equal-stones) = m(art)."""
    try:
        eq, art = m(count_equal_stones(ex.fp, 0)), m(count_art(ex.fp, 0))
    except CountingError as err:
        refused("T10", ex, err, eq_documented(ex))
        return
    classes = ["settling stage with extra moves"] if ex.settling_extra else []
    if ex.setup_difference:
        classes.append("counters do not account for the board")
    outcome("T10", ex, eq == art, classes, f"equal-stones {eq}, art {art}")
