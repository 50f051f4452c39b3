"""The compatibility matrix (``jpd matrix``, :mod:`jpdtools.verify.matrix`) from verify reports."""

import json

import pytest
from jpdtools.cli import main
from jpdtools.verify import matrix

EXPECTED = """\
# wgo's known deviations.

# W1. Repeating.ALL checks nothing: a move that brings back an
# earlier position is accepted. More words here.
illegal.ko.001[*]
cyc.send2.00[12][wmsg-2008]

# W2. No turn order.
board.turn.001[*]
"""


def result(case, ruleset, outcome, *, listed=None, mismatches=(), detail="", clauses=("rep.positional",)):
    status = {"pass": "pass", "skip": "skip"}.get(outcome, "fail")
    return {
        "case": case,
        "ruleset": ruleset,
        "outcome": outcome,
        "status": status,
        "expected_failure": listed,
        "mismatches": list(mismatches),
        "detail": detail,
        "clauses": list(clauses),
    }


KO_MISMATCH = [
    {"where": "step 2", "step": 2, "expected": "illegal superko", "observed": "legal"},
    {"where": "step 3", "step": 3, "expected": "board X./.O", "observed": "board XO/.O"},
]
TURN_MISMATCH = [
    {"where": "step 1", "step": 1, "expected": "illegal out-of-turn", "observed": "legal captures C3"}
]


def write_report(folder, results, expected=EXPECTED):
    folder.mkdir(parents=True)
    data = {"format": 1, "kind": "verify", "implementation": "wgo 3.0.0-alpha.10", "results": results}
    (folder / "report.json").write_text(json.dumps(data), encoding="utf-8")
    (folder / "expected-failures.txt").write_text(expected, encoding="utf-8")


@pytest.fixture
def reports(tmp_path):
    write_report(
        tmp_path / "wgo",
        [
            result("capture.single.001", "wmsg-2008", "pass"),
            result(
                "illegal.ko.001",
                "wmsg-2008",
                "expected-failure",
                listed="illegal.ko.001[*]",
                mismatches=KO_MISMATCH,
            ),
            result("illegal.ko.001", "tromp-taylor", "unexpected-failure", mismatches=KO_MISMATCH),
            result("board.turn.002", "tromp-taylor", "unexpected-failure", mismatches=TURN_MISMATCH),
            result("ko.simple.001", "chinese", "skip", detail="wgo 3.0.0-alpha.10: needs feature turn-order"),
        ],
    )
    return tmp_path


def test_expected_failure_classes_are_their_first_sentence_continuation_lines_included(tmp_path):
    path = tmp_path / "expected-failures.txt"
    path.write_text(EXPECTED, encoding="utf-8")
    classes = matrix.expected_classes(path)
    w1 = "W1. Repeating.ALL checks nothing: a move that brings back an earlier position is accepted"
    assert classes == {
        "illegal.ko.001[*]": w1,
        "cyc.send2.00[12][wmsg-2008]": w1,
        "board.turn.001[*]": "W2. No turn order",
    }


def test_cells_count_passes_failures_by_root_cause_and_skips_by_reason(reports):
    impl = matrix.load(reports / "wgo")
    cells = matrix.by_ruleset(impl)
    assert cells["wmsg-2008"].state == "known"  # its one failure is a listed class
    assert cells["wmsg-2008"].failed == (
        ("W1. Repeating.ALL checks nothing: a move that brings back an earlier position is accepted", 1),
    )
    assert cells["tromp-taylor"].state == "fail" and cells["tromp-taylor"].unexpected == 2
    # unlisted failures are keyed by their first divergent step, vertices left out
    assert dict(cells["tromp-taylor"].failed) == {
        "expected illegal superko, got legal": 1,
        "expected illegal out-of-turn, got legal captures ·": 1,
    }
    assert cells["chinese"].state == "skip" and cells["chinese"].skipped == (("needs feature turn-order", 1),)
    assert matrix.by_clause(impl)["rep.positional"].passed == 1


def test_jpd_matrix_writes_the_page(reports, capsys):
    assert main(["matrix", str(reports)]) == 0
    page = (reports / "index.html").read_text(encoding="utf-8")
    assert "wgo 3.0.0-alpha.10" in page and 'href="./wgo/report.html"' in page
    assert "W1. Repeating.ALL checks nothing" in page and "needs feature turn-order" in page
    assert "<script" not in page
    assert "1 implementations" in capsys.readouterr().out


def test_jpd_matrix_names_a_bad_report(tmp_path, capsys):
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "report.json").write_text('{"kind": "verify", "results": [', encoding="utf-8")
    assert main(["matrix", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "broken/report.json:1:" in err and "not JSON" in err and "Traceback" not in err
    assert main(["matrix", str(tmp_path / "missing")]) == 2
    assert "no such folder of verify reports" in capsys.readouterr().err


def test_variants_a_program_was_run_under_get_a_column_the_few_of_single_cases_share_one(tmp_path):
    run_under = [result(f"ko.simple.{n:03}", "japanese:illegal-move=refuse", "pass") for n in range(10)]
    one_case = [result("count.komi.001", "aga:komi=0", "pass")]
    write_report(tmp_path / "godash", [*run_under, *one_case, result("ko.simple.001", "chinese", "pass")])
    impl = matrix.load(tmp_path / "godash")
    columns = matrix.columns([impl], ["jpd-2022", "chinese"])
    assert columns == ["chinese", "japanese:illegal-move=refuse", matrix.VARIANTS]
    cells = matrix.by_ruleset(impl, columns)
    assert cells[matrix.VARIANTS].passed == 1 and cells["japanese:illegal-move=refuse"].passed == 10


def test_an_unlisted_failure_takes_the_reports_own_root_cause(tmp_path):
    write_report(
        tmp_path / "wgo",
        [result("board.turn.002", "tromp-taylor", "unexpected-failure", mismatches=TURN_MISMATCH)],
    )
    data = json.loads((tmp_path / "wgo" / "report.json").read_text(encoding="utf-8"))
    group = {"where": "step", "expected": "illegal out-of-turn", "observed": "legal", "clause": "play.turn"}
    data["root_causes"] = [{**group, "count": 1, "items": ["board.turn.002[tromp-taylor]"]}]
    (tmp_path / "wgo" / "report.json").write_text(json.dumps(data), encoding="utf-8")
    cells = matrix.by_ruleset(matrix.load(tmp_path / "wgo"))
    assert cells["tromp-taylor"].failed == (("step: expected illegal out-of-turn, got legal (play.turn)", 1),)
