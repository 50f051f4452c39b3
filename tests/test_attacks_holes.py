"""Attacks on what a verdict rests on: a run must not be OK unless something was checked. A
settling stage reported both ways, an expected-failure list that excuses everything, a program
that declines all but one item, a run in which nothing passed: each is FAILED, and the verdict
line says why (spec/contract.md#contract.outcomes, spec/jsonl-protocol.md#jsonl.v2)."""

import json
import shlex
import sys
from pathlib import Path

import pytest
from jpdtools.cli import main
from jpdtools.paths import conformance_dir
from jpdtools.presets import load_presets
from jpdtools.run.adapters import Observation, SettleObservation
from jpdtools.run.compare import CaseResult, Status, judge
from jpdtools.suite.loader import load_case_file
from jpdtools.verify.jsonl import protocol as p
from jpdtools.verify.report import VerifyRun, summary_line
from jpdtools.verify.verification import Outcome, VerifyResult

PROGRAM = Path(__file__).with_name("cheating_program.py")
SETTLING = conformance_dir() / "settling.yaml"
KO = conformance_dir() / "ko.yaml"


def impl(mode: str) -> str:
    return "jsonl:" + shlex.join([sys.executable, str(PROGRAM), mode])


def verify(capsys, *args: str) -> tuple[int, dict, str]:
    status = main(["verify", "--json", *args])
    out = capsys.readouterr().out
    return status, json.loads(out), out


def _proving(case):
    """The case's first expectation with ``proved:`` lines, or None."""
    return next((e for e in case.expectations if e.settle.proved), None)


def test_a_settling_stage_reported_both_ways_fails_every_proved_line(capsys):
    status, report, _ = verify(capsys, "--impl", impl("both-ways"), str(SETTLING))
    assert status == 1
    proved = {c.id for c in load_case_file(SETTLING, load_presets()).cases if _proving(c)}
    assert proved
    results = [r for r in report["results"] if r["case"] in proved]
    assert results and all(r["outcome"] == "error" for r in results)
    assert "both ways" in results[0]["detail"]
    assert report["summary"]["pass"] == 0


def test_the_protocol_refuses_a_stone_captured_and_standing_or_a_claim_both_ways():
    base = '{"type": "result", "id": "r1", "steps": [], "end": null, "settle": {%s}}'
    with pytest.raises(p.ProtocolError, match="'C3' both ways"):
        p.decode(base % '"captured": ["C3"], "standing": ["C3", "D4"]')
    with pytest.raises(p.ProtocolError, match="'B ko E5' both ways"):
        p.decode(base % '"upheld": ["B ko E5"], "rejected": ["B ko E5"]')
    assert p.decode(base % '"captured": ["C3"], "standing": ["D4"]').settle.standing == ("D4",)


def test_the_comparator_never_passes_a_self_contradicting_stage():
    """Whatever adapter built it (a library's, not the JSON-lines one), an observation whose
    stage reports a stone both ways is an error, not a pass of the ``proved:`` lines."""
    expectation = next(_proving(c) for c in load_case_file(SETTLING, load_presets()).cases if _proving(c))
    stones = tuple(sorted({v for line in expectation.settle.proved for v in line.vertices}))
    claims = tuple(sorted({str(line.claim) for line in expectation.settle.proved if line.claim}))
    stage = SettleObservation(captured=stones, standing=stones, upheld=claims, rejected=claims)
    judgement = judge(expectation, Observation(initial_board="", settling=stage))
    assert judgement.status is Status.ERROR
    assert "both" in judgement.detail


def test_an_expected_failure_list_excusing_everything_is_not_ok(capsys, tmp_path):
    listed = tmp_path / "expected-failures.txt"
    listed.write_text("*\n", encoding="utf-8")
    # the list's breadth is measured on the cases loaded, whatever rulesets are played: one will do
    args = ("--impl", impl("wrong"), "--expected-failures", str(listed), "--rules", "jpd-2022", str(KO))
    status, report, _ = verify(capsys, *args)
    assert status == 1
    assert report["summary"]["unexpected-failure"] == 0 and report["summary"]["expected-failure"] > 0
    assert report["summary"]["ok"] is False
    assert "over --max-excused 50 %" in report["summary"]["shortfall"]
    assert "broadest pattern * (" in report["summary"]["shortfall"]
    main(["verify", *args])
    assert "FAILED: the expected-failure list names" in capsys.readouterr().out
    # three patterns, a third of the suite each, are as broad as one
    listed.write_text("ko.[a-m]*[*]\nko.[n-s]*[*]\nko.[t-z]*[*]\n", encoding="utf-8")
    status, report, _ = verify(capsys, *args)
    assert status == 1 and "over --max-excused" in report["summary"]["shortfall"]
    status, report, _ = verify(capsys, *args, "--max-excused", "100")  # said explicitly: no pass left
    assert status == 1 and report["summary"]["shortfall"].startswith("no item passed")
    status, report, _ = verify(capsys, *args, "--max-excused", "100", "--allow-no-pass")
    assert status == 0 and report["summary"]["ok"] is True


def test_a_list_narrower_than_the_files_loaded_is_not_measured_on_the_selection(capsys, tmp_path):
    """A list naming one case, run on that case alone: every item is excused, yet the list names
    a small share of the cases loaded; only the missing pass needs saying."""
    listed = tmp_path / "expected-failures.txt"
    listed.write_text("ko.simple.001\n", encoding="utf-8")
    args = ("--impl", impl("wrong"), "--expected-failures", str(listed), "--id", "ko.simple.001", str(KO))
    status, report, _ = verify(capsys, *args)
    assert status == 1 and report["summary"]["shortfall"].startswith("no item passed")
    assert verify(capsys, *args, "--allow-no-pass")[0] == 0


def test_a_program_declining_all_but_one_item_is_not_ok(capsys):
    status, report, _ = verify(capsys, "--impl", impl("one-played"), str(KO))
    assert status == 1
    assert report["summary"]["played"] == 1 and report["summary"]["pass"] == 1
    assert "under --min-played 1 %" in report["summary"]["shortfall"]
    main(["verify", "--impl", impl("one-played"), str(KO)])
    assert "— FAILED: played 1 of" in capsys.readouterr().out
    status, _, _ = verify(capsys, "--impl", impl("one-played"), "--min-played", "0", str(KO))
    assert status == 0


@pytest.mark.parametrize("flag", ["--min-played", "--max-excused"])
@pytest.mark.parametrize("value", ["-1", "101", "nan"])
def test_a_share_outside_0_to_100_is_refused(capsys, flag, value):
    assert main(["verify", "--impl", impl("wrong"), flag, value, str(KO)]) == 2
    assert f"{flag} is a percentage from 0 to 100" in capsys.readouterr().err


def _result(outcome: Outcome, index: int) -> VerifyResult:
    status = {Outcome.OPEN: Status.OPEN, Outcome.PASS: Status.PASS}.get(outcome, Status.FAIL)
    return VerifyResult(CaseResult(f"c.{index:03d}", "chinese", status), outcome, index)


def test_a_run_with_no_pass_is_not_ok_unless_said():
    results = tuple(_result(Outcome.OPEN, i) for i in range(4))
    run = VerifyRun("x", "jsonl:x", results, allow_no_pass=False)
    assert not run.ok and run.shortfall.startswith("no item passed")
    assert "FAILED: no item passed" in summary_line(run)
    assert VerifyRun("x", "jsonl:x", results, allow_no_pass=True).ok
    mixed = (*results, _result(Outcome.PASS, 9))
    assert VerifyRun("x", "jsonl:x", mixed, allow_no_pass=False).ok


def test_a_failing_run_names_its_failures_not_a_shortfall():
    results = (_result(Outcome.UNEXPECTED_FAILURE, 0), *(_result(Outcome.SKIP, i) for i in range(1, 300)))
    run = VerifyRun("x", "jsonl:x", results, min_played=1, excused=(300, 300), max_excused=50)
    assert not run.ok and run.shortfall == ""
    assert "— FAILED [x]" in summary_line(run)


def test_the_program_is_never_sent_the_case_id(capsys, tmp_path):
    """``run.case`` is an opaque name, new for every run: a program looking its answer up in the
    installed suite finds nothing (spec/jsonl-protocol.md#jsonl.run)."""
    log = tmp_path / "sent.txt"
    program = "jsonl:" + shlex.join([sys.executable, str(PROGRAM), "lookup", str(log)])
    status, report, _ = verify(capsys, "--impl", program, str(KO))
    assert status == 0
    sent = log.read_text(encoding="utf-8").split()
    ids = {c.id for c in load_case_file(KO, load_presets()).cases}
    moved = report["summary"]["transformed"]  # the second pass's runs are named afresh too
    assert moved["total"] > 0
    played = report["summary"]["played"] + moved["total"] - moved["skip"]
    assert len(sent) == played == len(set(sent))  # one new name per run
    assert not set(sent) & ids and not any(i in s for s in sent for i in ids)
