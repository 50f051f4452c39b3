"""JSON-lines protocol 2: counting and settling by play, negotiated; protocol 1 keeps working.

A counting program is the reference behind the protocol (tests/reference_program.py): exact, it
passes every counting and settling case; with a deliberate bug (no komi) the count claims fail,
each report line naming the case's clause; as a protocol 1 program its count claims are limited.
"""

import json
import shlex
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from jpdtools.cli import main
from jpdtools.errors import InputError
from jpdtools.paths import conformance_dir
from jpdtools.suite.setup import CaseAgreement, CaseClaim, CaseCounters, FinalSpec
from jpdtools.verify.jsonl import protocol as p
from jpdtools.verify.verification import parse_expected_failures

PROGRAM = Path(__file__).with_name("reference_program.py")


def impl(*flags: str) -> str:
    return "jsonl:" + shlex.join([sys.executable, str(PROGRAM), *flags])


def verify_json(capsys, *args: str) -> tuple[int, dict]:
    status = main(["verify", "--json", *args])
    return status, json.loads(capsys.readouterr().out)


def test_run_with_final_and_result_with_count_and_settle_round_trip():
    final = FinalSpec(
        CaseAgreement(dead=("C3",), seki=("D4",), claims=(CaseClaim("B", "ko", "E5"),)),
        CaseCounters(moves=(41, 40), prisoners=(3, 1), first_pass="W"),
    )
    run = p.Run("r1", "chinese", {"suicide": "forbidden"}, 9, 9, case="count.area.001", final=final)
    assert p.decode(p.encode(run)) == run
    count = p.Count("area", "W", Fraction(-1, 4), Fraction(40), Fraction(41, 2), "子", Fraction(15, 4))
    count = p.Count(**{**count.__dict__, "points": (("A1", "B", "territory"), ("C3", "none", "dame"))})
    settle = p.Settle("jpd-2022", (p.Step(True, "played", None, (), (), "W", "X/."),), p.End("halted", "B"))
    result = p.Result("r1", (), p.End("contest", "B"), count=count, settle=settle)
    line = p.encode(result)
    assert '"margin":"-0.25"' in line and '"white":"20.5"' in line  # exact decimals, as strings
    assert p.decode(line) == result
    assert p.decode(line.replace('"-0.25"', '"-1/4"')).count.margin == Fraction(-1, 4)


def test_start_offers_every_version_and_claim_names_have_one_spelling():
    assert p.decode('{"type": "start", "protocol": 1, "protocols": [1, 2]}').offered() == (1, 2)
    assert p.decode('{"type": "start", "protocol": 1}').offered() == (1,)
    supports = '"supports": {"claims": ["self_captures"]}'
    ready = '{"type": "ready", "protocol": 2, "name": "x", "version": "1", ' + supports + "}"
    with pytest.raises(p.ProtocolError, match="spelled 'self-captures'"):
        p.decode(ready)


def test_the_exact_counting_program_passes_every_count_and_settling_case(capsys):
    suite = conformance_dir()
    files = [
        str(suite / n)
        for n in ("count-area.yaml", "count-komi.yaml", "settling.yaml", "count-territory.yaml")
    ]
    status, report = verify_json(capsys, "--impl", impl(), *files)
    summary = report["summary"]
    assert status == 0 and summary["error"] == 0 and summary["unexpected-failure"] == 0
    counted = [r for r in report["results"] if not any(d.startswith("count:") for d in r["limited"])]
    assert summary["pass"] > 300 and len(counted) == len(report["results"])


def test_a_counting_bug_is_caught_and_points_at_the_clause(capsys):
    path = str(conformance_dir() / "count-komi.yaml")
    status, report = verify_json(capsys, "--impl", impl("--bug", "no-komi"), path)
    failed = [r for r in report["results"] if r["outcome"] == "unexpected-failure"]
    assert status == 1 and failed and report["summary"]["error"] == 0
    assert all(any(m["where"] == "count" for m in r["mismatches"]) for r in failed)
    assert all(any(c.startswith("count.komi") for c in r["clauses"]) for r in failed)
    main(["verify", "--impl", impl("--bug", "no-komi"), path])
    text = capsys.readouterr().out
    assert "count.komi" in text.split("ROOT CAUSES", 1)[1].splitlines()[1]  # the first cause's clause


def test_a_protocol_1_program_keeps_working_and_its_counts_are_limited(capsys):
    path = str(conformance_dir() / "count-area.yaml")
    status, report = verify_json(capsys, "--impl", impl("--protocol", "1"), path)
    assert report["summary"]["error"] == 0 and report["summary"]["unexpected-failure"] == 0
    assert all(r["outcome"] == "skip" or r["limited"] for r in report["results"])
    # a protocol 1 program cannot be asked a count: every item of a counting file is a skip, and a
    # run that checked nothing is not OK
    assert report["summary"]["played"] == 0 and status == 1 and report["summary"]["ok"] is False
    assert any("count:" in d for r in report["results"] for d in r["limited"])


def test_a_bracket_inside_a_case_id_needs_the_ruleset_part():
    names = ["chinese", "japanese"]
    ok = parse_expected_failures("ko.simple.00[1-3][*]\n", "list.txt", names)
    assert ok.match("ko.simple.002", "chinese") and not ok.match("ko.simple.004", "chinese")
    with pytest.raises(InputError, match="matches no ruleset") as err:
        parse_expected_failures("# a comment\nko.simple.00[1-3]\n", "list.txt", names)
    assert err.value.location.line == 2


def test_a_list_may_name_a_variant_the_run_does_not_plan(capsys, tmp_path):
    listed = tmp_path / "expected-failures.txt"
    listed.write_text("ko.simple.001[aga:illegal-move=refuse,pass=allowed]\n", encoding="utf-8")
    path = str(conformance_dir() / "ko.yaml")
    selection = ("--id", "ko.simple.001", path)  # the note compares the list with the plan: one case will do
    status = main(["verify", "--impl", impl(), "--expected-failures", str(listed), *selection])
    out = capsys.readouterr()
    assert status == 0, out.err
    assert "names variants this run does not plan (aga:illegal-move=refuse,pass=allowed)" in out.err + out.out
    # a ruleset part that is no variant of a preset stays the mistake it almost always is
    listed.write_text("ko.simple.001[aga:nosuch=1]\n", encoding="utf-8")
    assert main(["verify", "--impl", impl(), "--expected-failures", str(listed), *selection]) == 2
    assert "matches no ruleset" in capsys.readouterr().err


def test_every_run_names_its_case_and_failing_items_show_their_clauses_in_html(capsys, tmp_path):
    path = str(conformance_dir() / "ko.yaml")
    status, report = verify_json(capsys, "--impl", impl("--require-case"), path)
    assert status == 0 and report["summary"]["error"] == 0
    html = tmp_path / "report.html"
    main(
        [
            "verify",
            "--impl",
            impl("--bug", "multi-suicide"),
            str(conformance_dir() / "suicide.yaml"),
            "--html",
            str(html),
        ]
    )
    assert "capture.suicide" in html.read_text(encoding="utf-8")
