"""The status prover (spec/counting.md#count.status): dead, alive and seki proven by search through
the reference engine, and ``jpd lint`` holding every counting case's statuses to it."""

import dataclasses
import re

import pytest
from jpdref import BLACK, WHITE, Geometry
from jpdtools.presets import load_presets
from jpdtools.proof.benson import unconditionally_alive
from jpdtools.proof.status import Position, StatusProver

PRESETS = load_presets()
RULES = PRESETS.get("chinese")


def position(rows: str) -> Position:
    lines = [line.split() for line in rows.strip().splitlines()]
    geometry = Geometry(len(lines[0]), len(lines))
    stones = {}
    for y, line in enumerate(lines):
        for x, ch in enumerate(line):
            if ch in "XO":
                stones[geometry.point(x, y)] = BLACK if ch == "X" else WHITE
    return Position(geometry, stones)


# A 2-point eye against a 1-point eye with four shared liberties (count.territory.002): a seki,
# because White's throw-in at A4 turns Black's two-point eye into one when Black fills the last
# shared liberties.
TWO_AGAINST_ONE = """
. X . O O
. X . O .
X X . O O
X X . O O
"""

# The same with White's eye filled: a capturing race Black wins (four shared liberties + two
# against four).
RACE = """
. X . O O
. X . O O
X X . O O
X X . O O
"""


def test_two_point_eye_against_one_point_eye_is_seki():
    proof = StatusProver(RULES, position(TWO_AGAINST_ONE)).seki(["B1", "D1"])
    assert proof.holds is True, proof.describe()
    needs = sorted((p.color, p.first, p.needs) for p in proof.proofs)
    assert needs == sorted(
        [(c, f, "safe") for c in "BW" for f in "BW"] + [("B", "B", "dependent"), ("W", "W", "dependent")]
    )


def test_a_capturing_race_is_not_seki_and_the_tree_shows_the_capture():
    proof = StatusProver(RULES, position(RACE)).seki(["B1", "D1"])
    assert proof.holds is False
    white = [p for p in proof.proofs if p.color == "W" and p.needs == "safe"]
    assert {p.holds for p in white} == {False}  # captured whoever moves first
    # the refutation is a tree a reader can follow: Black's first move and White's answers
    lines = "\n".join(line for p in white for node in p.lines for line in node.lines())
    assert "B C" in lines


def test_two_eyes_of_its_own_are_not_seki():
    # count.area.012's old diagram: straight threes on both sides; B A3 / W E3 make two eyes
    rows = """
    . X . O .
    . X . O .
    . X . O .
    X X . O O
    """
    proof = StatusProver(RULES, position(rows), budget=2000).seki(["B1", "D1"])
    assert proof.holds is False
    assert any(p.needs == "dependent" and p.holds is False for p in proof.proofs)


def test_a_lone_stone_in_a_small_territory_is_dead():
    rows = """
    O . X . .
    . X X . .
    X X . . .
    . . . . .
    . . . . .
    """
    pos = position(rows)
    # the White stone at A5 has no room: captured whoever moves first
    proof = StatusProver(RULES, pos).dead(["A5"])
    assert proof.holds is True, proof.describe()


def test_a_stone_that_makes_seki_when_it_moves_first_is_not_dead():
    # count.example.dead-stone's old diagram: Black's wall has no eye but column A, so White A3,
    # moving first, plays A2 and the two chains share A4 and A1 (seki)
    rows = """
    . X O .
    O X O .
    . X O .
    . X O .
    """
    proof = StatusProver(RULES, position(rows)).dead(["A3"])
    assert proof.holds is False
    white_first = [p for p in proof.proofs if p.first == "W"]
    assert white_first and white_first[0].holds is False


def test_unconditional_life_needs_two_vital_regions():
    pos = position(
        """
        . X . X O
        X X X X O
        O O O O O
        . . . . .
        """
    )
    board = pos.board()
    alive = unconditionally_alive(pos.geometry, board.color, int(BLACK))
    assert pos.geometry.from_gtp("B3") in alive
    assert not unconditionally_alive(pos.geometry, board.color, int(WHITE))


def test_undecided_within_the_budget_says_so():
    proof = StatusProver(RULES, position(TWO_AGAINST_ONE), budget=5).seki(["B1", "D1"])
    assert proof.holds is None
    assert any("undecided within" in line for line in proof.describe())


def test_a_mark_on_an_empty_point_is_refused():
    with pytest.raises(ValueError, match="no stone at C1"):
        StatusProver(RULES, position(TWO_AGAINST_ONE)).seki(["C1"])


# -- jpd lint holds the cases to their statuses ------------------------------------------------

from jpdtools.errors import InputError  # noqa: E402
from jpdtools.review.lint import check_statuses  # noqa: E402
from jpdtools.review.statuses import prove_files  # noqa: E402
from jpdtools.suite.loader import load_case_text  # noqa: E402

CASE = """
format: 1
cases:
  - id: test.seki
    title: a seki with a two-point eye against a one-point eye
    spec: [count.status]
    seeds: ["J1989 Art. 7"]
    rules: [japanese]
    board: |
      5x4
{rows}
    moves: ""
    agreement:
      seki: B1 D1
    expect:
      japanese: |
        count: winner W margin -6.5 black 0 white 0
{extra}
"""


def case_file(rows: str, extra: str = ""):
    indented = "\n".join("      " + line.strip() for line in rows.strip().splitlines())
    return load_case_text(CASE.format(rows=indented, extra=extra), "t.yaml", PRESETS)


@pytest.fixture(autouse=True)
def no_proof_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("JPD_PROOF_CACHE", str(tmp_path / "cache"))


def test_lint_proves_a_true_seki():
    proven = prove_files([case_file(TWO_AGAINST_ONE)], PRESETS)
    assert [c.holds for c in proven] == [True]
    assert check_statuses(proven) == []


def test_lint_fails_on_a_mutated_diagram_that_turns_the_seki_into_a_capturing_race():
    proven = prove_files([case_file(RACE)], PRESETS)
    problems = check_statuses(proven)
    assert len(problems) == 1
    message = str(problems[0])
    assert "test.seki: seki A1 D1 is disproven" in message
    assert "W D1 (+7), White first: is captured" in message
    assert "W D1 (+7), Black first: is captured" in message
    assert problems[0].location is not None and problems[0].location.line == 4


def test_the_cache_gives_the_same_answer(monkeypatch, tmp_path):
    monkeypatch.setenv("JPD_PROOF_CACHE", str(tmp_path / "again"))
    first = prove_files([case_file(RACE)], PRESETS)
    second = prove_files([case_file(RACE)], PRESETS)
    assert list((tmp_path / "again").iterdir())
    assert [str(p) for p in check_statuses(first)] == [str(p) for p in check_statuses(second)]
    assert first[0].proofs == second[0].proofs


def test_an_agreement_or_pending_status_proof_is_not_searched_and_only_the_agreement_passes():
    agreed = case_file(RACE, "    status-proof:\n      agreement: built to test what the agreement does")
    pending = case_file(RACE, "    status-proof:\n      pending: the diagram is to be redrawn")
    proven = prove_files([agreed, pending], PRESETS)
    assert [(c.agreement, c.pending, c.proofs) for c in proven] == [
        ("built to test what the agreement does", "", ()),
        ("", "the diagram is to be redrawn", ()),
    ]
    # a pending status is a debt: lint fails on it as on a disproven one, at the case
    problems = check_statuses(proven)
    assert len(problems) == 1
    assert problems[0].check == "status"
    message = str(problems[0])
    assert "test.seki: its statuses are not proven (status-proof: pending: the diagram is to be" in message
    assert problems[0].location is not None and problems[0].location.line == 4


def test_jpd_lint_fails_on_a_planted_pending_status_and_passes_without_it(tmp_path, capsys):
    from jpdtools.cli import main

    # the true seki of TWO_AGAINST_ONE, proven by lint; the same case marked pending fails
    proven = tmp_path / "proven.yaml"
    planted = tmp_path / "planted.yaml"
    indented = "\n".join("      " + line.strip() for line in TWO_AGAINST_ONE.strip().splitlines())
    proven.write_text(CASE.format(rows=indented, extra=""), encoding="utf-8")
    pending = "    status-proof:\n      pending: planted to show that lint fails on it"
    planted.write_text(CASE.format(rows=indented, extra=pending), encoding="utf-8")
    assert main(["lint", str(proven), "--no-coverage-table", "-q"]) == 0
    assert "its statuses are not proven" not in capsys.readouterr().out
    assert main(["lint", str(planted), "--no-coverage-table", "-q"]) == 1
    out = capsys.readouterr().out
    assert "test.seki: its statuses are not proven (status-proof: pending: planted to show" in out
    assert "1 problem(s)" in out


@pytest.mark.parametrize(
    "value",
    [
        "    status-proof: agreement",
        "    status-proof:\n      agreed: x",
        "    status-proof:\n      agreement: ''",
    ],
)
def test_a_malformed_status_proof_is_a_located_schema_error(value):
    with pytest.raises(InputError) as err:
        case_file(TWO_AGAINST_ONE, value)
    assert err.value.code == "schema"
    assert err.value.location is not None and err.value.location.line >= 19


def test_a_game_copy_is_independent_of_its_original():
    from jpdref import Action, Game

    game = Game.new(RULES, Geometry(5, 4), dict(position(TWO_AGAINST_ONE).stones))
    twin = game.copy()
    assert twin.play(Action.move(BLACK, game.geometry.from_gtp("C4"))).legal
    assert game.board.color[game.geometry.from_gtp("C4")] == 0 and not game.record
    assert twin.board.hash == twin.board.compute_hash() and game.board.hash == game.board.compute_hash()
    # the repetition history is the copy's own: the original may still play C4
    assert game.play(Action.move(BLACK, game.geometry.from_gtp("C4"))).legal


def test_a_game_copy_copies_every_container_field():
    """Game.copy copies the fields its list names; a new container field left off the list would
    be shared between a game and its copies."""
    from dataclasses import fields

    from jpdref import Game
    from jpdref.board import Board
    from jpdref.history import History

    game = Game.new(RULES, Geometry(5, 4), dict(position(TWO_AGAINST_ONE).stones))
    containers = {
        f.name for f in fields(game) if isinstance(getattr(game, f.name), Board | History | dict | list)
    }
    assert containers == set(Game._CONTAINERS)
    twin = game.copy()
    assert not [name for name in containers if getattr(twin, name) is getattr(game, name)]


# -- GNU Go's second opinion (GNU Go really started; .ci/run installs it) ----------------------

from jpdtools.verify.implementations import binary_of  # noqa: E402
from jpdtools.verify.status_opinion import opinions, report, unexplained  # noqa: E402

SQUARE = """
format: 1
cases:
  - id: test.dead-stone
    title: a white stone in Black's corner
    spec: [count.status]
    seeds: ["J1989 Art. 7"]
    rules: [japanese]
    board: |
      5x5
      o . X . .
      . X X . .
      X X . . .
      . . . . .
      . . . . .
    moves: ""
    expect:
      japanese: |
        count: winner W margin -6.5
"""


@pytest.mark.skipif(binary_of("gnugo") is None, reason="GNU Go is not installed")
def test_gnugo_gives_a_second_opinion_and_an_unexplained_disagreement_is_listed():
    case_file_ = load_case_text(SQUARE, "t.yaml", PRESETS)
    proven = {c.case_id: c for c in prove_files([case_file_], PRESETS)}
    assert proven["test.dead-stone"].holds is True
    found = opinions(case_file_.cases, PRESETS, proven)
    assert [(o.case_id, o.declared_dead, o.gnugo_dead, o.prover) for o in found] == [
        ("test.dead-stone", ("A5",), ("A5",), "proven")
    ]
    assert not found[0].disagrees and unexplained(found, {}) == []
    # a disagreement (the agreement says alive, GNU Go dead) on a proven case needs an explanation
    other = found[0].__class__(**{**found[0].__dict__, "declared_dead": ()})
    assert unexplained([other], {}) == [other] and unexplained([other], {"test.dead-stone": "why"}) == []
    text = report([other], {"test.dead-stone": "GNU Go reads the corner differently"})
    assert "| test.dead-stone | 5x5 | - | A5 |" in text and "GNU Go reads the corner differently" in text
    non_square = report(opinions(case_file(TWO_AGAINST_ONE).cases, PRESETS, {}))
    assert "GNU Go plays square boards only" in non_square


# -- J1989 Art. 7's second test: a capture that costs the capturer --------------------------------

# 003 说明图例: Black's ring and C7 D7 against White's C4 D4 inside and the outer wall. Black can
# take C4 D4 (B C5 W D6 B D5), but White then takes C7 D7 and the ring: a seki.
SEKI_003 = """
O O X X O O .
O X . . X O .
O X . . X O .
O X O O X O .
O X X X X O .
O O O O O O .
. . . . . . .
"""

# The 5x9 frame of count.art.001 as it stood: C7 touches Black's wall at C6, so B C7 connects
# and White's D9 block dies; only White moving first makes the seki.
FRAME_5X9 = """
X X . O O
X X . O O
X X . O O
O O X X X
. O X . .
. O X . .
. O X . .
. O X . .
. O X . .
"""


def test_the_seki_of_003_is_seki_by_the_second_test():
    proof = StatusProver(RULES, position(SEKI_003)).seki(["C7", "B6", "C4"])
    assert proof.holds is True, proof.describe()
    inner = [p for p in proof.proofs if p.chain == ("C4", "D4") and p.needs == "safe"]
    # Black can capture C4 D4, whoever moves first, but every such capture is answered
    assert {(p.first, p.holds, p.recaptures) for p in inner} == {("W", True, True), ("B", True, True)}
    assert all("its owner captures back" in p.describe() for p in inner)


def test_stones_whose_capture_costs_the_capturer_are_not_dead():
    proof = StatusProver(RULES, position(SEKI_003)).dead(["C4"])
    assert proof.holds is False


def test_the_5x9_frame_is_not_seki():
    proof = StatusProver(RULES, position(FRAME_5X9)).seki(["A9", "D9"])
    assert proof.holds is False
    white = {p.first: p.holds for p in proof.proofs if p.chain[0] == "D7" and p.needs == "safe"}
    assert white == {"B": False, "W": True}  # Black first: B C7 connects and D9 dies


# -- one-sided points (count.status (5)) ------------------------------------------------------

# The 9x5 settling seki (conformance/settling.yaml): Black's F5-F3 and White's D5-D3 E3 share E5
# E4; C5 is Black's one-sided point, E5 shared.
SEKI_9X5 = """
. X . O . X . O .
. X X O . X O O .
. X X O O X O . .
. X X X X O O . .
. . . . X O . . .
"""


def test_a_true_one_sided_point_is_proven():
    proof = StatusProver(RULES, position(SEKI_9X5)).one_sided("C5", "B")
    assert proof.holds is True, proof.describe()
    assert [p.note for p in proof.proofs] == ["after B C5", "after W C5"]


def test_a_shared_point_claimed_one_sided_is_disproven():
    # 003's C5: after B C5 White kills the ring; after W C5 Black takes C4 D4 — shared, both ways
    assert StatusProver(RULES, position(SEKI_9X5)).one_sided("E5", "B").holds is False
    proof = StatusProver(RULES, position(SEKI_003)).one_sided("C5", "B")
    assert proof.holds is False
    assert "after B C5: B B3 (+10), White first: is captured" in proof.describe()[0]


# -- settled diagrams (count.status (6)): a living chain in atari is reported ------------------

from jpdtools.review.statuses import halted_in_a_cycle, in_atari, unsettled_files  # noqa: E402

WALL = """
format: 1
cases:
  - id: test.wall
    title: a counted wall
    spec: [count.status]
    seeds: ["J1989 Art. 7"]
    rules: [chinese]
    board: |
      5x5
{rows}
    moves: ""
    counters:
      moves: [5, 5]
    expect:
      chinese: |
        count: winner W margin -2.5
"""


def wall_file(rows: str):
    indented = "\n".join("      " + line.strip() for line in rows.strip().splitlines())
    return load_case_text(WALL.format(rows=indented), "wall.yaml", PRESETS)


def test_a_wall_whose_bottom_row_leaves_two_chains_in_atari_is_not_settled():
    # the old base of count.equal-stones.001: D1 (liberty C1) and E1 (liberty E2) in atari
    bent = wall_file(
        """
        . . X O .
        . . X O .
        . . X O .
        . . X O .
        . . . X O
        """
    )
    assert in_atari(bent.cases[0], RULES) == ("D1", "E1")
    [found] = unsettled_files([bent], PRESETS)
    assert (found.case_id, found.chains) == ("test.wall", ("D1", "E1"))


def test_a_straight_wall_is_settled_and_a_dead_chain_in_atari_does_not_count():
    straight = wall_file(
        """
        . . X O .
        . . X O .
        . . X O .
        . . X O .
        . . X O .
        """
    )
    assert in_atari(straight.cases[0], RULES) == ()
    # count.area.015's diagram: the dead E4-E3 has one liberty, White's chain two
    text = WALL.format(
        rows="\n".join(
            "      " + r for r in (". . X O .", ". . X O X", ". . X O X", ". . X O O", ". . X O .")
        )
    ).replace('    moves: ""\n', '    moves: ""\n    agreement:\n      dead: E4\n')
    marked = load_case_text(text, "wall.yaml", PRESETS)
    assert in_atari(marked.cases[0], RULES) == ()
    assert unsettled_files([straight, marked], PRESETS) == []


def test_a_claimed_ko_is_the_one_atari_a_settled_diagram_keeps():
    # count.art.004's diagram: White's C3 has just taken the ko at D3 and is in atari on D3
    rows = "\n".join("      " + r for r in (". . X O .", ". X X O O", ". X O . O", ". X X O O", ". . X O ."))
    unclaimed = load_case_text(WALL.format(rows=rows), "wall.yaml", PRESETS)
    assert in_atari(unclaimed.cases[0], RULES) == ("C3",)
    claimed = load_case_text(
        WALL.format(rows=rows).replace(
            '    moves: ""\n', '    moves: ""\n    agreement:\n      claims: ["W ko D3"]\n'
        ),
        "wall.yaml",
        PRESETS,
    )
    assert in_atari(claimed.cases[0], RULES) == ()
    # the claim must name the ko's own point and side: a claim of another point keeps the warning
    elsewhere = load_case_text(
        WALL.format(rows=rows).replace(
            '    moves: ""\n', '    moves: ""\n    agreement:\n      claims: ["B ko D3"]\n'
        ),
        "wall.yaml",
        PRESETS,
    )
    assert in_atari(elsewhere.cases[0], RULES) == ("C3",)


# -- ko claims (count.status (5)): proven by the shape of the ko ---------------------------------

KO_ROWS = (". . X O .", ". X X O O", ". X O . O", ". X X O O", ". . X O .")  # count.art.004: W holds D3
DAME_ROWS = (". . X O .", ". . X O O", "X X X . O", ". . X O O", ". . X O .")  # D3 borders both colours


def claim_file(rows, claim: str, status_proof: str = "", moves: str = '""'):
    text = WALL.format(rows="\n".join("      " + r for r in rows))
    agreement = f'    agreement:\n      claims: ["{claim}"]\n'
    text = text.replace('    moves: ""\n', f"    moves: {moves}\n{agreement}")
    return load_case_text(text.replace("    spec:", status_proof + "    spec:"), "wall.yaml", PRESETS)


def test_a_real_ko_claim_is_proven_by_its_shape_and_lint_passes_it():
    [proven] = prove_files([claim_file(KO_ROWS, "W ko D3")], PRESETS)
    [proof] = proven.proofs
    assert (proof.status, proof.chains, proof.claimer, proof.holds) == ("ko", (("D3",),), "W", True)
    assert check_statuses([proven]) == []


@pytest.mark.parametrize(
    ("rows", "claim", "why"),
    [
        (DAME_ROWS, "B ko D3", "D3 borders the other side's stone at D4"),  # a dame (count.theorems.007)
        (KO_ROWS, "B ko D3", "D3 borders the other side's stone at D4"),  # the ko, claimed by the opponent
        (KO_ROWS, "B ko A3", "A3 has an empty neighbour"),  # inside Black's eye space
        (KO_ROWS, "W ko E5", "no stone of the claimer is in atari on E5"),  # White's eye, no ko
    ],
)
def test_a_claim_on_a_point_that_is_no_ko_is_a_lint_error(rows, claim, why):
    proven = prove_files([claim_file(rows, claim)], PRESETS)
    [problem] = check_statuses(proven)
    assert problem.check == "status"
    assert f"test.wall: claim '{claim}' is disproven ({why}" in str(problem)


def test_the_book_shows_a_ko_claim_proven_by_its_shape_in_both_editions():
    import html

    from jpdtools.book.lang import EN, ZH
    from jpdtools.book.statusproof import status_proof_section

    [case] = claim_file(KO_ROWS, "W ko D3").cases
    english = html.unescape(status_proof_section(case, PRESETS, EN))
    assert "White's ko point D3 (单劫不粘)" in english and "proven" in english
    assert "D3 is a ko White holds, and its shape is the proof" in english
    assert "The prover plays the position" not in english  # no search was made
    chinese = status_proof_section(case, PRESETS, ZH)
    assert "白的劫点 D3（单劫不粘）" in chinese and "D3 是白持有的劫" in chinese
    [false] = claim_file(DAME_ROWS, "B ko D3").cases
    assert "disproven" in status_proof_section(false, PRESETS, EN)


def test_the_summary_line_names_what_was_proven_a_ko_claim_is_no_status():
    """The line at the top of a case page says what the count rests on: a case whose only
    declaration is a ko claim says the claim is proven (or agreed), never "the statuses"."""
    import html

    from jpdtools.book.lang import EN, ZH
    from jpdtools.book.statusproof import status_proof_summary

    [ko] = claim_file(KO_ROWS, "W ko D3").cases
    english = html.unescape(status_proof_summary(ko, PRESETS, EN))
    assert "The ko claim this count rests on is proven (see how)." in english
    assert "status" not in english.split(">", 2)[2]
    chinese = status_proof_summary(ko, PRESETS, ZH)
    assert "本次计算所依据的劫的宣称已经证明（见证明）。" in chinese and "死活" not in chinese
    reason = "    status-proof:\n      agreement: a claim outside territory\n"
    [agreed] = claim_file(DAME_ROWS, "B ko D3", reason).cases
    assert "The ko claim this count rests on is agreed on purpose, not proven (see why)." in html.unescape(
        status_proof_summary(agreed, PRESETS, EN)
    )
    [one_sided] = claim_file(KO_ROWS, "B one-sided A3", reason).cases
    assert "The one-sided claim this count rests on is agreed" in status_proof_summary(one_sided, PRESETS, EN)
    [seki] = case_file(TWO_AGAINST_ONE).cases
    assert "The statuses this count rests on are proven (see how)." in status_proof_summary(seki, PRESETS, EN)
    assert "本次计算所依据的死活状态已经证明" in status_proof_summary(seki, PRESETS, ZH)


def test_a_ko_claim_on_a_point_occupied_after_the_moves_is_a_lint_error():
    # with moves the loader does not see the final board (count.territory.017): the proof does
    proven = prove_files([claim_file(KO_ROWS, "W ko C3", moves="B pass W pass")], PRESETS)
    [problem] = check_statuses(proven)
    assert "test.wall: claim 'W ko C3' is disproven (C3 holds a stone" in str(problem)


def test_an_agreement_exempts_a_false_ko_claim():
    reason = "    status-proof:\n      agreement: a claim outside territory\n"
    agreed = claim_file(DAME_ROWS, "B ko D3", reason)
    [proven] = prove_files([agreed], PRESETS)
    assert (proven.agreement, proven.proofs, proven.holds) == ("a claim outside territory", (), True)
    assert check_statuses([proven]) == []


def test_the_other_first_moves_are_written_in_the_editions_words():
    """The list under a chain's drawn lines names its moves as the lines above do: 白 B2 in
    the Chinese edition, never the GTP colour letter."""
    from jpdtools.book.lang import EN, ZH
    from jpdtools.book.statusproof import status_proof_section
    from jpdtools.paths import conformance_dir
    from jpdtools.run.runner import case_files, default_loader, load_files

    presets = load_presets()
    files, _ = load_files(case_files([conformance_dir() / "count-area.yaml"]), presets, default_loader())
    [case] = [c for f in files for c in f.cases if c.id == "count.area.005"]
    more = {
        lang.code: [
            line for line in status_proof_section(case, presets, lang).splitlines() if "proof-more" in line
        ]
        for lang in (EN, ZH)
    }
    assert more["en"] and more["zh"]
    assert all(re.search(r"\bW B2\b", line) for line in more["en"])
    assert all("白 B2" in line for line in more["zh"])
    assert not any(re.search(r"(?<![A-Za-z])[BW] (?:[A-T]\d|pass)", line) for line in more["zh"])


def test_the_chain_lines_and_captions_use_the_editions_punctuation():
    """A chain's line and the captions of its drawn lines separate and introduce as the edition
    writes: 白 B4，白先：被提 and 1. 白 B5，2. 黑 A4 in Chinese; White B4, White first: in English."""
    from jpdtools.book.lang import EN, ZH
    from jpdtools.book.statusproof import status_proof_section
    from jpdtools.paths import conformance_dir
    from jpdtools.run.runner import case_files, default_loader, load_files

    presets = load_presets()
    files, _ = load_files(case_files([conformance_dir() / "count-area.yaml"]), presets, default_loader())
    [case] = [c for f in files for c in f.cases if c.id == "count.area.005"]

    def texts(lang):
        html = status_proof_section(case, presets, lang)
        found = re.findall(r'<span class="proof-mark">.</span> ([^<]*)', html)
        captions = re.findall(r"<figcaption>(\d+\. [^<]*)</figcaption>", html)
        return found, captions

    lines, captions = texts(ZH)
    assert any(re.fullmatch(r"白 B4，白先：被提（搜索了 \d+ 个局面）", t) for t in lines)
    assert "1. 白 B5，2. 黑 A4，3. 白 放弃，4. 黑 A5" in captions
    assert not any(", " in t or ": " in t for t in lines + captions)
    lines, captions = texts(EN)
    assert any(
        re.fullmatch(r"White B4, White first: is captured \(\d+ positions searched\)", t) for t in lines
    )
    assert "1. W B5, 2. B A4, 3. W pass, 4. B A5" in captions


def test_a_proof_of_one_position_says_position():
    """A chain captured by the first move of the side to prove is searched in one position:
    "(1 position searched)", never "(1 positions searched)"."""
    import html

    from jpdtools.book.lang import EN, ZH
    from jpdtools.book.statusproof import status_proof_section

    rows = (". . X O .", ". . X O O", ". . X O X", ". . X O .", ". . X O .")  # E3: one liberty, E2
    text = WALL.format(rows="\n".join("      " + r for r in rows))
    text = text.replace('    moves: ""\n', '    moves: ""\n    agreement:\n      dead: E3\n')
    [case] = load_case_text(text, "wall.yaml", PRESETS).cases
    english = html.unescape(status_proof_section(case, PRESETS, EN))
    assert "(1 position searched)" in english and "(1 positions" not in english
    assert "（搜索了 1 个局面）" in status_proof_section(case, PRESETS, ZH)


def test_jpd_lint_fails_on_a_planted_atari_in_a_counted_diagram(tmp_path, capsys):
    from jpdtools.cli import main

    straight = tmp_path / "straight.yaml"
    bent = tmp_path / "bent.yaml"
    rows = ". . X O .", ". . X O .", ". . X O .", ". . X O .", ". . X O ."
    straight.write_text(WALL.format(rows="\n".join("      " + r for r in rows)), encoding="utf-8")
    planted = (*rows[:4], ". . . X O")  # D1 (liberty C1) and E1 (liberty E2) in atari
    bent.write_text(WALL.format(rows="\n".join("      " + r for r in planted)), encoding="utf-8")
    assert main(["lint", str(straight), "--no-coverage-table", "-q"]) == 0
    assert "settledness" not in capsys.readouterr().out
    assert main(["lint", str(bent), "--no-coverage-table", "-q"]) == 1
    out = capsys.readouterr().out
    assert "test.wall: leaves a chain the agreement counts as alive in atari (D1 E1)" in out
    assert "[settledness]" in out


ROCKING = """
format: 1
cases:
  - id: test.rocking
    title: a rocking ko halted by four virtual moves
    spec: [count.status, end.four-virtual]
    seeds: ["003 四虚终局"]
    rules: [jpd-a]
    board: |
      5x5 B
      . . X O .
      . X . X O
      . . X O .
      . . X O .
      . . X O .
    moves: {moves}
    expect:
      jpd-a: |
        end: halted four-virtual
        count: winner W margin -0.5 black 16 white 9 unit 子
"""


def test_a_board_four_virtual_moves_halt_in_mid_ko_is_counted_as_it_stands():
    # count.komi.a-version.rocking-black-last: Black's D4 (liberty C4) and White's D5 (E5) are in atari
    # at the halt, which 003's 非連續的累計四虛手 (在搖櫓劫情形下) reached in the middle of the ko
    rocking = "B virtual W C4 B virtual W virtual B D4 W virtual B virtual W virtual"
    halted = load_case_text(ROCKING.format(moves=rocking), "rocking.yaml", PRESETS)
    [case] = halted.cases
    assert in_atari(case, RULES) == ("D5", "D4")
    assert halted_in_a_cycle(case, PRESETS)
    assert unsettled_files([halted], PRESETS) == []
    # a case naming no ruleset is read under every preset, jpd-a's halt among them
    assert halted_in_a_cycle(dataclasses.replace(case, rules=()), PRESETS)
    # the same board reached without that halt (no virtual move before the ko) keeps the atari
    # as a defect: only the rule's own end in the cycle is counted as it stands
    unhalted = load_case_text(
        ROCKING.format(moves="B virtual W C4 B virtual W virtual B D4").replace(
            "        end: halted four-virtual\n        count: winner W margin -0.5",
            "        5: legal captures C4\n        count: winner B margin 0.5",
        ),
        "rocking.yaml",
        PRESETS,
    )
    assert not halted_in_a_cycle(unhalted.cases[0], PRESETS)
    [found] = unsettled_files([unhalted], PRESETS)
    assert found.chains == ("D5", "D4")
