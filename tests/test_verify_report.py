"""How much of the suite an implementation could play, in the verify report: items played per
board size (19x19 on the summary) and the skips grouped by cause."""

import json

from jpdtools.run.compare import CaseResult, Status
from jpdtools.verify import report
from jpdtools.verify.verification import VerifyResult, outcome_of

ENGINE = "eng 1.0"


def result(case_id: str, board: str, status: Status, detail: str = "") -> VerifyResult:
    case = CaseResult(case_id, "chinese", status, detail=detail)
    return VerifyResult(case, outcome_of(status, False), board=board)


RESULTS = (
    result("a", "19x19", Status.PASS),
    result("b", "19x19", Status.SKIP, f"{ENGINE}: axis pass=forbidden is not supported"),
    result("c", "19x19", Status.FAIL),
    result("d", "5x4", Status.SKIP, f"{ENGINE}: board 5x4 is not square (GTP boards are square)"),
    result("e", "6x3", Status.SKIP, f"{ENGINE}: board 6x3 is not square (GTP boards are square)"),
    result("f", "9x9", Status.SKIP, f"{ENGINE}: axis pass=forbidden is not supported"),
    result("g", "9x9", Status.SKIP, f"{ENGINE}: axis pass=forbidden is not supported"),
    result("h", "", Status.PASS),  # an error case: no board
)
RUN = report.VerifyRun(ENGINE, "gtp:eng", RESULTS)


def test_skip_causes_group_without_engine_name_size_and_quoted_names():
    cause = report.skip_cause(f"{ENGINE}: board 5x4 is not square (GTP boards are square)", ENGINE)
    assert cause == "board WxH is not square (GTP boards are square)"
    left_out = report.skip_cause("nothing left to compare (1: legal)", ENGINE)
    assert left_out.startswith("nothing left to compare (every claim")
    assert report.skip_cause("", ENGINE) == "(no reason given)"
    assert report.skip_cause("ruleset 'aga' is not supported", ENGINE) == "ruleset '…' is not supported"
    assert report.skip_cause("OpenSpiel's go has no resignation") == "OpenSpiel's go has no resignation"
    refused = report.skip_cause("the engine refuses board size 5 (unacceptable size)", ENGINE)
    assert refused == "the engine refuses board size WxH (unacceptable size)"
    assert report.skipped_by_cause(RUN) == {
        "axis pass=forbidden is not supported": 3,
        "board WxH is not square (GTP boards are square)": 2,
    }


def test_played_per_board_size_largest_first():
    assert list(report.by_board(list(RESULTS))) == ["19x19", "9x9", "5x4", "6x3", ""]
    assert report.by_board(list(RESULTS)) == {
        "19x19": {"total": 3, "played": 2, "skip": 1},
        "9x9": {"total": 2, "played": 0, "skip": 2},
        "6x3": {"total": 1, "played": 0, "skip": 1},
        "5x4": {"total": 1, "played": 0, "skip": 1},
        "": {"total": 1, "played": 1, "skip": 0},
    }


def test_json_summary_and_text_say_how_much_was_played():
    summary = json.loads(report.format_json(RUN))["summary"]
    assert summary["played"] == 3 and summary["total"] == 8
    assert summary["by_board"]["19x19"] == {"total": 3, "played": 2, "skip": 1}
    assert summary["skipped_by_cause"]["board WxH is not square (GTP boards are square)"] == 2
    text = report.format_text(RUN)
    assert "3 of 8 (38 %) items; on 19x19: 2 of 3 (67 %)" in text
    assert "    3  axis pass=forbidden is not supported" in text
    assert "by board size" not in text
    verbose = report.format_text(RUN, verbose=True)
    assert "9x9      0 of 2 (0 %)" in verbose and "(error cases) 1 of 1" in verbose
    assert "PLAYED" not in report.format_text(RUN, quiet=True)


def test_causes_beyond_the_first_few_are_left_to_verbose():
    many = tuple(
        result(f"s{i}", "19x19", Status.SKIP, f"{ENGINE}: axis a{i}=b is not supported") for i in range(8)
    )
    run = report.VerifyRun(ENGINE, "gtp:eng", many)
    assert f"({8 - report.CAUSES_SHOWN} more cause(s): --verbose)" in report.format_text(run)
    assert "more cause" not in report.format_text(run, verbose=True)
    assert "on 19x19: 0 of 8 (0 %)" in report.format_text(run)
