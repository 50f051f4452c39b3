"""Review status of a case (spec/case-format.md#format.review): loading, writing, lint, run."""

import textwrap

import pytest
from jpdtools.errors import InputError
from jpdtools.presets import load_presets
from jpdtools.review import lint
from jpdtools.run import report
from jpdtools.run.adapters import ReferenceAdapter
from jpdtools.run.runner import Filters, default_loader, make_plan, run_plan
from jpdtools.suite.dsl import Dsl
from jpdtools.suite.loader import load_case_text
from jpdtools.suite.model import REVIEW_STATUSES
from jpdtools.suite.writer import dump_case_file

PRESETS = load_presets()
DSL = Dsl()
HEAD = 'format: 1\ncases:\n  - id: x\n    title: t\n    spec: [play.move]\n    seeds: ["000 §13"]\n'
BODY = "size: 5\nmoves: B C3\nexpect:\n  default: '1: legal'\n"


def load(extra: str):
    text = HEAD + textwrap.indent(BODY + extra, "    ")
    return load_case_text(text, "f.yaml", PRESETS, DSL)


def error_of(extra: str) -> tuple[str, int, int, str]:
    with pytest.raises(InputError) as info:
        load(extra)
    err = info.value
    assert err.location is not None and err.location.path == "f.yaml"
    return err.code, err.location.line, err.location.column, err.message


def test_absent_status_is_accepted():
    case = load("").cases[0]
    assert (case.status, case.decision, case.decided) == ("accepted", "", "")


@pytest.mark.parametrize("status", REVIEW_STATUSES)
def test_every_status_loads(status):
    assert load(f"status: {status}\n").cases[0].status == status


def test_decision_with_date():
    extra = "status: disputed\ndecision: |\n  Kept open until the seed author answers.\ndecided: 2026-11-30\n"
    case = load(extra).cases[0]
    assert case.status == "disputed"
    assert case.decision == "Kept open until the seed author answers."
    assert case.decided == "2026-11-30"
    quoted = load("decision: accepted as written\ndecided: '2026-02-28'\n").cases[0]
    assert (quoted.status, quoted.decided) == ("accepted", "2026-02-28")


@pytest.mark.parametrize(
    ("extra", "line", "column", "words"),
    [
        ("status: approved\n", 11, 13, "must be one of: proposed, accepted, disputed"),
        ("status: [accepted]\n", 11, 13, "must be one of"),
        ("decision: fine\n", 11, 5, "needs 'decided: YYYY-MM-DD'"),
        ("decided: 2026-11-30\n", 11, 5, "give 'decision' too"),
        ("decision: ''\ndecided: 2026-11-30\n", 11, 15, "non-empty string"),
        ("decision: fine\ndecided: 30.11.2026\n", 12, 14, "YYYY-MM-DD"),
        ("decision: fine\ndecided: '2026-02-30'\n", 12, 14, "YYYY-MM-DD"),
        ("decision: fine\ndecided: 2026-11-30 10:00:00\n", 12, 14, "YYYY-MM-DD"),
        ("decision: fine\ndecided: 20261130\n", 12, 14, "YYYY-MM-DD"),
    ],
)
def test_bad_review_keys_are_located(extra, line, column, words):
    code, at_line, at_column, message = error_of(extra)
    assert (code, at_line, at_column) == ("schema", line, column)
    assert words in message


def test_error_cases_may_carry_a_status():
    text = HEAD.replace("spec: [play.move]", "spec: [format.moves]") + textwrap.indent(
        "status: proposed\nload-error:\n  file: 'format: 2'\n  code: schema\n  line: 1\n  column: 9\n", "    "
    )
    case = load_case_text(text, "f.yaml", PRESETS, DSL).cases[0]
    assert case.is_error_case and case.status == "proposed"


def test_writer_round_trip():
    cf = load("status: disputed\ndecision: |\n  Two lines\n  of reasons.\ndecided: 2026-11-30\n")
    again = load_case_text(dump_case_file(cf), "f.yaml", PRESETS, DSL)
    assert again == cf
    plain = load("")
    assert "status" not in dump_case_file(plain)


def test_lint_flags_a_decided_proposal():
    cf = load("status: proposed\ndecision: looks right\ndecided: 2026-11-30\n")
    problems = lint.check_review([cf])
    assert [p.check for p in problems] == ["review"]
    assert "proposed" in problems[0].message and problems[0].location.line == 3
    assert lint.check_review([load("status: disputed\ndecision: upheld\ndecided: 2026-11-30\n")]) == []


def test_run_reports_cases_under_review_distinctly():
    loader = default_loader()
    second = "  - id: y\n    title: u\n    spec: [play.move]\n    seeds: []\n" + textwrap.indent(
        BODY + "status: disputed\n", "    "
    )
    text = HEAD + textwrap.indent(BODY + "status: proposed\n", "    ") + second
    files = [load_case_text(text, "f.yaml", PRESETS, DSL)]
    plan = make_plan(files, PRESETS, Filters(), loader)
    result = run_plan(plan, ReferenceAdapter(), PRESETS, loader)
    assert {(r.case_id, r.review) for r in result.results} == {("x", "proposed"), ("y", "disputed")}
    summary = report.summary_line(result)
    assert "under review: 1 proposed, 1 disputed case(s)" in summary
    data = report.to_json(result, PRESETS.names)
    assert {r["review"] for r in data["results"]} == {"proposed", "disputed"}
    assert data["summary"]["review"] == {"proposed": 1, "disputed": 1}
