"""The HTML report of ``jpd verify``: failing items on the case book's boards, skips by cause."""

from jpdtools.cli import main
from jpdtools.paths import conformance_dir
from jpdtools.verify.report_html import skip_cause


def test_a_failing_item_shows_boards_clause_seeds_and_commands(tmp_path):
    # sgfmill keeps no repetition rule: White's retake at step 2, which superko refuses, is placed,
    # so White's retake at step 5 (after the threat exchange) finds no black stone to capture at C4
    report = tmp_path / "report.html"
    ko = str(conformance_dir() / "ko.yaml")
    argv = ["verify", "--impl", "sgfmill", ko, "--id", "ko.threat.005", "--html", str(report), "-q"]
    status = main([*argv, "--no-expected-failures"])  # the profile's own list excuses it otherwise
    assert status == 1
    html = report.read_text(encoding="utf-8")
    failing = html.split("<h2>Unexpected failures", 1)[1].split("<h2>", 1)[0]
    assert failing.count('<svg class="board"') >= 3  # the moves, expected and observed boards
    assert (
        "expected (the reference) after step 5" in failing and "observed (jpd-2022) after step 5" in failing
    )
    assert "deciding clause: step 5: capture.order" in failing
    assert "seeds: " in failing and "001 第八条" in failing
    assert "jpd explain ko.threat.005" in failing
    assert "jpd verify --impl sgfmill --id ko.threat.005 --rules jpd-2022" in failing


def test_skips_are_grouped_by_cause(tmp_path):
    report = tmp_path / "report.html"
    main(["verify", "--impl", "sgfmill", str(conformance_dir() / "board.yaml"), "--html", str(report), "-q"])
    html = report.read_text(encoding="utf-8")
    skips = html.split("<h2>Skipped: why</h2>", 1)[1]
    assert "<th>cause</th>" in skips
    assert 1 < skips.count("<tr>") <= 8


def test_skip_causes_drop_what_varies():
    assert skip_cause("gnugo: board 5x4 is not square (GTP boards are square)", "gnugo") == skip_cause(
        "gnugo: board 6x3 is not square (GTP boards are square)", "gnugo"
    )
    a = skip_cause("sgfmill 1.1.1: nothing left to compare (count: winner W margin -0.5)", "sgfmill 1.1.1")
    b = skip_cause(
        "sgfmill 1.1.1: nothing left to compare (1: legal; end: ended resignation B)", "sgfmill 1.1.1"
    )
    assert a == b
    assert skip_cause("x: axis pass=forbidden is not supported", "x") != skip_cause(
        "x: axis virtual-move=allowed is not supported", "x"
    )
