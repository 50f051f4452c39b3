"""Attacks by a proposal that makes lint search for minutes: every search of one position draws on
one allowance of nodes (proof/status.py: POSITION_BUDGET), so a diagram with a hundred marks is
undecided — a lint problem saying why — instead of searched chain by chain to each one's budget."""

from jpdtools.paths import conformance_dir
from jpdtools.presets import load_presets
from jpdtools.proof.status import POSITION_BUDGET, Allowance, StatusProver
from jpdtools.review.statuses import PROOF_RULESET, declared, position_of
from jpdtools.suite.loader import load_case_file, load_case_text

PRESETS = load_presets()
RULES = PRESETS.get(PROOF_RULESET)


def prover_of(case, allowance=None):
    return StatusProver(RULES, position_of(case, RULES), allowance=allowance)


def art_013():
    cases = load_case_file(conformance_dir() / "count-art.yaml", PRESETS).cases
    return next(c for c in cases if c.id == "count.art.013")


def test_the_suites_hardest_proof_fits_the_allowance_many_times():
    case = art_013()
    dead, seki = declared(case)
    allowance = Allowance()
    prover = prover_of(case, allowance)
    proofs = [prover.dead(dead)] if dead else []
    proofs += [prover.seki(seki, dead)] if seki else []
    assert proofs and all(p.holds for p in proofs)
    assert POSITION_BUDGET - allowance.left < POSITION_BUDGET / 5


def test_a_spent_allowance_leaves_the_rest_undecided_saying_why():
    case = art_013()
    dead, seki = declared(case)
    allowance = Allowance(left=500)
    prover = prover_of(case, allowance)
    proofs = [prover.dead(dead)] if dead else [prover.seki(seki, dead)]
    chains = [c for p in proofs for c in p.proofs]
    assert any(c.holds is None and c.stopped == "position" for c in chains)
    assert any("the position's node budget ran out" in c.describe() for c in chains)
    assert allowance.left <= 0 or all(c.holds is not None for c in chains)


MANY = """\
format: 1
cases:
  - id: test.many-marks
    title: lone white stones in the open, each marked dead
    spec: [count.status]
    seeds: ["J1989 Art. 7"]
    rules: [japanese]
    board: |
      19x19
{rows}
    moves: ""
    expect:
      japanese: |
        count: winner B margin 361
"""


def test_a_diagram_of_many_marks_stops_at_the_allowance():
    rows = []
    for y in range(19):
        rows.append(
            "      "
            + " ".join("o" if (x % 3 == 1 and y % 3 == 1) else ("X" if y == 18 else ".") for x in range(19))
        )
    case = load_case_text(MANY.format(rows="\n".join(rows)), "many.yaml", PRESETS).cases[0]
    dead, _ = declared(case)
    assert len(dead) >= 30
    assert prover_of(case).allowance == Allowance(left=POSITION_BUDGET)  # what lint's searches draw on
    # the same stop on an allowance of fewer nodes than lint's (more than one escalated search's,
    # 10 × 6,000): once it is spent, the searches of the chains left stop for the position
    left = 70_000
    allowance = Allowance(left=left)
    proof = prover_of(case, allowance).dead(dead)
    spent = left - allowance.left
    assert left <= spent <= left + 10 * 6_000 * 10  # spent whole, one search's overrun at most
    assert proof.holds is not True
    assert any(c.stopped == "position" for c in proof.proofs)
