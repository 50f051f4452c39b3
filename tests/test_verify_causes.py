"""Root causes in the verify report: each failing item counted once, at its first divergence,
grouped by the kind of action it diverges at and expected vs got (one bug, one cause: the deciding
clauses and the cases are listed inside); one grouping for every format."""

import json
import os
import shlex
import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

from jpdtools.cli import main
from jpdtools.run.compare import CaseResult, Mismatch, Status
from jpdtools.suite.model import Claim, EndVerdict
from jpdtools.verify import report
from jpdtools.verify.causes import root_causes, split
from jpdtools.verify.verification import Outcome, VerifyResult

PROGRAM = Path(__file__).with_name("reference_program.py")
BUGGY = "jsonl:" + shlex.join([sys.executable, str(PROGRAM), "--bug", "multi-suicide"])


def failing(case_id: str, board: str, moves: int, *mismatches: Mismatch, ruleset="chinese") -> VerifyResult:
    result = CaseResult(case_id, ruleset, Status.FAIL, mismatches)
    axes = (("repetition", "positional"),)
    return VerifyResult(result, Outcome.UNEXPECTED_FAILURE, board=board, moves=moves, axes=axes)


KO_TAKEN = Mismatch(2, Claim("illegal", ("superko",)), Claim("legal"))
LATER = Mismatch(3, Claim("captures", ()), Claim("captures", ("C4",)))
END = Mismatch(None, EndVerdict("contest", ("W",)), EndVerdict("contest", ("B",)))


def test_an_item_counts_once_at_its_first_divergence_and_the_rest_are_consequences():
    big = failing("ko.big", "9x9", 2, LATER, KO_TAKEN, END)
    small = failing("ko.small", "5x5", 4, KO_TAKEN)
    (cause,) = root_causes([big, small])
    assert cause.count == 2 and cause.example is small  # the smallest case first
    assert (cause.where, cause.expected, cause.observed) == ("step", "illegal superko", "legal")
    assert cause.clause == "rep.positional"  # superko under the item's repetition rule
    first, later = split(big)
    assert first == (KO_TAKEN,) and later == (LATER, END)


def test_causes_are_independent_of_vertices_and_colours_and_keep_reasons_and_effects():
    a = failing("a", "5x5", 1, Mismatch(1, Claim("captures", ("B2",)), Claim("captures", ())))
    b = failing("b", "7x7", 1, Mismatch(1, Claim("captures", ("F6", "G6")), Claim("captures", ())))
    c = failing("c", "5x5", 1, Mismatch(1, Claim("forfeit", ("ko",)), Claim("illegal", ("ko",))))
    d = failing(
        "d",
        "5x5",
        1,
        Mismatch(None, EndVerdict("ended", ("illegal-move", "B")), EndVerdict("contest", ("W",))),
    )
    causes = {cause.title: cause.count for cause in root_causes([a, b, c, d])}
    assert causes == {
        "step: expected captures stones, got captures none [capture.rule]": 2,
        "step: expected forfeit ko, got illegal ko [play.illegal]": 1,
        "end: expected ended illegal-move, got contest [play.illegal]": 1,
    }


def test_one_bug_touching_six_clauses_is_one_cause_listing_them():
    # a drawn count scored as a White win, in six cases each pinning another counting clause
    expected = Claim("count", ("winner draw margin 0",))
    observed = Claim("count", ("winner W margin 0",))
    clauses = ("count.area", "count.komi", "count.japanese", "count.art", "count.equal-stones", "count.roads")
    items = [
        replace(
            failing(f"count.{n}", "5x5", 2, Mismatch(None, expected, observed, label="count")), clauses=(c,)
        )
        for n, c in enumerate(clauses)
    ]
    (cause,) = root_causes(items)
    assert cause.count == 6 and set(cause.clauses) == set(clauses)
    assert cause.cases == tuple(f"count.{n}" for n in range(6))
    assert (cause.where, cause.observed) == ("count", "count with another winner")
    data = cause.to_json()
    assert data["clauses"] == list(cause.clauses) and len(data["cases"]) == 6


def test_a_cause_is_keyed_by_the_kind_of_action_it_diverges_at():
    occupied = Mismatch(1, Claim("illegal", ("occupied",)), Claim("forfeit", ("occupied",)))
    by_move = failing("a", "5x5", 1, occupied)
    by_pass = failing("b", "5x5", 1, Mismatch(1, Claim("legal"), Claim("forfeit", ("occupied",))))
    causes = root_causes([replace(by_move, actions=("move",)), replace(by_pass, actions=("pass",))])
    assert {c.where for c in causes} == {"move", "pass"}


def test_skip_causes_keep_their_own_words():
    cause = report.skip_cause("eng: boards 9x9, 13x13 and 19x19 only (board 5x5 is not)", "eng")
    assert cause == "boards 9x9, 13x13 and 19x19 only (board WxH is not)"
    loss = report.skip_cause("eng: the illegal-move policy 'loss' is not played", "eng")
    void = report.skip_cause("eng: the illegal-move policy 'void-pass' is not played", "eng")
    assert loss != void and "'loss'" in loss


def test_every_report_format_groups_by_root_cause(tmp_path, capsys):
    out = tmp_path / "out"
    argv = ["verify", "--impl", BUGGY, "--id", "suicide.*", "--id", "board.small.*", "--report-dir", str(out)]
    assert main(argv) == 1
    text = capsys.readouterr().out
    data = json.loads((out / "report.json").read_text(encoding="utf-8"))
    failures = data["summary"]["unexpected-failure"]
    causes = data["root_causes"]
    assert sum(c["count"] for c in causes) == failures > 10 and len(causes) <= 6
    top = causes[0]
    assert top["clause"] == "capture.suicide" and top["observed"] == "legal"
    assert top["example"]["reproduce"] and top["example"]["seeds"]
    # text: the causes, not one block per failing item
    assert f"ROOT CAUSES of the {failures} unexpected failures ({len(causes)})" in text
    assert f"{failures} items, grouped above by root cause (--verbose lists each)" in text
    assert len(text.splitlines()) < 80
    # JUnit: each failure names its root cause; HTML: the same table
    junit = ET.parse(out / "report.xml")
    messages = {f.get("message") for f in junit.iter("failure")}
    assert messages <= {
        f"{c['where']}: expected {c['expected']}, got {c['observed']} [{c['clause']}]" for c in causes
    }
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "<h2>Root causes of the unexpected failures</h2>" in html and top["example"]["item"] in html


def test_the_reproduction_line_replays_the_smallest_case(tmp_path, capsys):
    out = tmp_path / "out"
    main(["verify", "--impl", BUGGY, "--id", "board.small.*", "--report-dir", str(out), "-q"])
    capsys.readouterr()
    line = json.loads((out / "report.json").read_text(encoding="utf-8"))["root_causes"][0]["example"][
        "reproduce"
    ]
    assert line.startswith("printf ") and "| jpd play - --rules " in line
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(["bash", "-c", line], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "illegal suicide" in done.stdout or "void-pass suicide" in done.stdout or "forfeit" in done.stdout
