"""count.status (6), proven by the project's own prover: every chain a counted position leaves
alive is alive — unconditionally, by its eye spaces (jpdtools.proof.eyes) or by the search — on
square and non-square boards alike, and ``jpd lint`` fails on one the prover shows captured."""

import pytest
from jpdref import Color, Geometry
from jpdtools.presets import load_presets
from jpdtools.proof.eyes import alive_by_eyes, enclosures
from jpdtools.proof.status import Position, StatusProver
from jpdtools.review.lint import check_settledness
from jpdtools.review.statuses import counted, prove_settled, settled_position
from jpdtools.suite.loader import load_case_text

PRESETS = load_presets()
RULES = PRESETS.get("chinese")


def board(rows: str) -> tuple[Geometry, list[int]]:
    lines = [line.split() for line in rows.strip().splitlines()]
    geometry = Geometry(len(lines[0]), len(lines))
    color = [0] * geometry.area
    for y, line in enumerate(lines):
        for x, ch in enumerate(line):
            if ch in "XO":
                color[geometry.point(x, y)] = 1 if ch == "X" else 2
    return geometry, color


def names(geometry: Geometry, points) -> list[str]:
    return sorted(geometry.to_gtp(p) for p in points)


@pytest.fixture(autouse=True)
def own_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("JPD_PROOF_CACHE", str(tmp_path / "cache"))


# The dame frame of count.art.006: Black's wall round two 2x2 corners (one eye each, not Benson's
# test), White's wall round the one-point eyes E5 and E1.
DAME_FRAME = """
. . X O .
. . X O O
X X X . O
. . X O O
. . X O .
"""


def test_two_corners_of_four_points_give_one_eye_each():
    geometry, color = board(DAME_FRAME)
    black = enclosures(RULES, geometry, color, Color.BLACK)
    assert sorted((len(e.points), e.eyes) for e in black) == [(4, 1), (4, 1), (10, 0)]
    assert names(geometry, alive_by_eyes(RULES, geometry, color, Color.BLACK)) == sorted(
        ["A3", "B3", "C1", "C2", "C3", "C4", "C5"]
    )


def test_a_straight_three_gives_no_eye_a_straight_four_two():
    geometry, color = board(
        """
        . X O .
        . X O .
        . X O .
        X X O .
        """
    )
    assert alive_by_eyes(RULES, geometry, color, Color.BLACK) == frozenset()  # W A3 first kills
    assert names(geometry, alive_by_eyes(RULES, geometry, color, Color.WHITE)) == ["C1", "C2", "C3", "C4"]


# count.territory.004's 5x4 board as it was first drawn, without White's D2, and with Black's
# claimed ko at B3 connected: White's C2 C1 hang on D3 through the empty D2, and B D2 cuts them off
# (W E2 B D1 takes them).
OPEN_CUT = """
. X O O .
X X X O .
. X O . .
X X O . .
"""


def test_an_open_cut_on_a_non_square_board_is_found():
    geometry, color = board(OPEN_CUT)
    stones = {p: Color(c) for p, c in enumerate(color) if c}
    proof = StatusProver(RULES, Position(geometry, stones), budget=300).settled()
    failed = [p for p in proof.proofs if p.holds is False]
    assert [(p.chain, p.first) for p in failed] == [(("C1", "C2"), "B")]
    assert proof.holds is False
    # the straight four of the same White wall, with D2 White's: every chain alive
    stones[geometry.from_gtp("D2")] = Color.WHITE
    assert StatusProver(RULES, Position(geometry, stones), budget=300).settled().holds is True


CASE = """
format: 1
cases:
  - id: test.settled
    title: a 5x4 count
    spec: [count.status]
    seeds: ["J1989 Art. 7"]
    rules: [chinese]
    board: |
      5x4
{rows}
    moves: ""
    agreement:
      claims: [{claims}]
    expect:
      chinese: |
        count: winner {winner}
"""


def case(rows: str, claims: str = "", winner: str = "W margin -1.5"):
    text = CASE.format(
        rows="\n".join("      " + r.strip() for r in rows.strip().splitlines()), claims=claims, winner=winner
    )
    return load_case_text(text, "t.yaml", PRESETS).cases[0]


@pytest.fixture(scope="module")
def open_cut_proofs(tmp_path_factory):
    """The settledness proofs of the open cut and of its settled wall, made once from an empty proof
    cache of their own (two tests read them)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("JPD_PROOF_CACHE", str(tmp_path_factory.mktemp("open-cut") / "cache"))
        cut = case(OPEN_CUT)
        assert counted(cut)
        settled = case(OPEN_CUT.replace(". X O . .", ". X O O ."))
        return prove_settled(cut, PRESETS), prove_settled(settled, PRESETS)


def test_lint_fails_on_the_open_cut_and_passes_the_settled_wall(open_cut_proofs):
    found, settled = open_cut_proofs
    problems = [p.message for p in check_settledness([found])]
    # B D2 cuts off C2 C1, and once they are taken White's C4-D3 has no eye left either
    assert any("W C1 (+1), counted alive, is captured by B D2" in m for m in problems), problems
    assert all("is captured by B D2" in m and "redraw it" in m for m in problems)
    assert check_settledness([settled]) == []


def test_a_claimed_ko_is_connected_by_its_claimer_before_the_proof():
    rows = """
    . X O O .
    X . X O .
    . X O O .
    X X O . .
    """
    ko = case(rows, '"B ko B3"')
    position = settled_position(ko, PRESETS)
    assert position.stones[position.geometry.from_gtp("B3")] is Color.BLACK
    # with B3 Black's, C3 is no stone in atari and every chain is alive
    assert prove_settled(ko, PRESETS).holds is True


def test_the_report_counts_the_chains_proven_alive_and_lists_the_others(open_cut_proofs):
    from jpdtools.verify.status_opinion import report

    found = list(open_cut_proofs)
    text = report([], settledness=found)
    assert "## Settled: the prover's proof" in text
    proofs = [p for s in found for p in s.proof.proofs]
    proven = sum(1 for p in proofs if p.holds is True)
    assert f"on 2 positions, {proven} of {len(proofs)} chain proofs" in text
    assert "| test.settled | W C1 (+1) | W C1 (+1), Black first: is captured" in text


# count.example.no-seki's board without its seki marks: two-point eyes and four shared dame, no
# eye space gives two eyes, so only the search decides; within ten nodes it cannot.
NO_SEKI = """
. X . O .
. X . O .
X X . O O
X X . O O
"""


def test_a_chain_the_prover_does_not_decide_fails_lint_too():
    found = prove_settled(case(NO_SEKI, winner="W margin -7.5"), PRESETS, budget=1)
    assert found.holds is None
    problems = [p.message for p in check_settledness([found])]
    assert problems and all("counted alive, is not proven alive" in m for m in problems)
