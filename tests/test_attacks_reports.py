"""Attacks on ``jpd matrix`` through the reports it reads: a report that is not one, a result
without its case, JSON nested past any reader, an expected-failure list that is not text, an
item listed twice, a folder named ``javascript:…``, an interrupted run or one whose suite did not
load. Each is an exit-2 error naming the file, or shown for what it is; none is a traceback or an
ordinary row."""

import json

import pytest
from jpdtools.cli import main
from jpdtools.verify import matrix


def result(case: str, ruleset: str = "chinese", outcome: str = "pass") -> dict:
    return {"case": case, "ruleset": ruleset, "outcome": outcome, "clauses": ["rep.positional"]}


def write(folder, data) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    text = data if isinstance(data, str) else json.dumps(data)
    (folder / "report.json").write_text(text, encoding="utf-8")


def report(results, **extra) -> dict:
    return {"format": 1, "kind": "verify", "implementation": "prog 1.0", "results": results, **extra}


@pytest.mark.parametrize(
    ("content", "said"),
    [
        ("[1, 2]", "not a jpd verify report (kind 'list')"),
        ("7", "not a jpd verify report (kind 'int')"),
        ('"verify"', "not a jpd verify report (kind 'str')"),
        (json.dumps(report([{"ruleset": "chinese", "outcome": "pass"}])), "results[0] has no 'case'"),
        (json.dumps(report([7])), "results[0] is not an object"),
        (json.dumps(report([result("a.001", outcome="great")])), "outcome 'great' is not one of"),
        (json.dumps(report([{**result("a.001"), "clauses": [1]}])), "'clauses' must be a list of strings"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ],
)
def test_a_report_that_is_not_one_is_an_error_naming_it(tmp_path, capsys, content, said):
    write(tmp_path / "prog", content)
    assert main(["matrix", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "prog/report.json" in err and said in err and "Traceback" not in err


def test_an_expected_failure_list_that_is_not_text_is_an_error_naming_it(tmp_path, capsys):
    write(tmp_path / "prog", report([result("a.001")]))
    (tmp_path / "prog" / "expected-failures.txt").write_bytes(b"\xff\xfe# W1. x\n")
    assert main(["matrix", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "expected-failures.txt:1:1" in err and "not UTF-8" in err and "Traceback" not in err


def test_an_item_listed_twice_is_refused_not_counted_twice(tmp_path, capsys):
    write(tmp_path / "prog", report([result("a.001"), result("a.002"), result("a.001")]))
    assert main(["matrix", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "results[2]: a.001[chinese] is listed twice (first as results[0])" in err
    # the same case under two rulesets is two items
    write(tmp_path / "prog", report([result("a.001"), result("a.001", "japanese")]))
    assert main(["matrix", str(tmp_path)]) == 0
    # an item as written and given again under a transform is two rows; under one transform twice, one
    moved = {**result("a.001"), "transform": "mirror+colours"}
    write(tmp_path / "prog", report([result("a.001"), moved]))
    assert main(["matrix", str(tmp_path)]) == 0
    assert matrix.tally(matrix.load(tmp_path / "prog").items).passed == 2
    write(tmp_path / "prog", report([result("a.001"), moved, moved]))
    assert main(["matrix", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "results[2]: a.001[chinese]@mirror+colours is listed twice (first as results[1])" in err
    write(tmp_path / "prog", report([{**result("a.001"), "transform": "<b>"}]))
    assert main(["matrix", str(tmp_path)]) == 2
    assert "transform '<b>' is not a transform's name" in capsys.readouterr().err


def test_a_folder_named_like_a_url_scheme_is_no_live_link(tmp_path):
    write(tmp_path / "javascript:alert(1)", report([result("a.001")]))
    assert main(["matrix", str(tmp_path)]) == 0
    page = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert 'href="javascript:' not in page
    assert 'href="./javascript%3Aalert%281%29/report.html"' in page


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        ({"interrupted": True, "summary": {"planned": 10}}, "interrupted; 1 of 10 planned items ran"),
        ({"load_errors": [{"file": "ko.yaml"}]}, "1 case file of the suite did not load"),
        ({"summary": {"planned": 3}}, "1 of 3 planned items ran"),
    ],
)
def test_partial_and_not_loaded_runs_are_shown_as_such(tmp_path, extra, said):
    write(tmp_path / "prog", report([result("a.001")], **extra))
    write(tmp_path / "whole", report([result("a.001")], interrupted=False, summary={"planned": 1}))
    impls = [matrix.load(tmp_path / "prog"), matrix.load(tmp_path / "whole")]
    assert impls[0].partial == said and impls[1].partial == ""
    assert main(["matrix", str(tmp_path)]) == 0
    page = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert page.count('<span class="partial"') == 3  # the legend's, the row's badge, the section's note
    assert f"A partial report</span>: {said}." in page


def test_the_page_is_not_written_over_a_report(tmp_path, capsys):
    write(tmp_path / "prog", report([result("a.001")]))
    before = (tmp_path / "prog" / "report.json").read_text(encoding="utf-8")
    assert main(["matrix", str(tmp_path), "--out", str(tmp_path / "prog" / "report.json")]) == 2
    assert "an input of this command" in capsys.readouterr().err
    assert (tmp_path / "prog" / "report.json").read_text(encoding="utf-8") == before
