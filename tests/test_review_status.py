# ruff: noqa: E501 -- review keys kept on one line each
"""Review status of a case (spec/case-format.md#format.review): loading, writing, lint, run."""

import textwrap

import pytest
import yaml
from jpdtools.errors import InputError
from jpdtools.paths import conformance_dir
from jpdtools.presets import load_presets
from jpdtools.review import lint
from jpdtools.run import report
from jpdtools.run.adapters import ReferenceAdapter
from jpdtools.run.runner import Filters, default_loader, make_plan, run_plan
from jpdtools.suite.dsl import Dsl
from jpdtools.suite.loader import load_case_file, load_case_text
from jpdtools.suite.model import REVIEW_STATUSES, Comment, Ruling, Vote
from jpdtools.suite.revision import case_revision
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


def test_absent_status_is_proposed():
    case = load("").cases[0]
    assert (case.status, case.decision, case.decided, case.decided_by) == ("proposed", "", "", "")
    assert (case.rulings, case.comments) == ((), ())


@pytest.mark.parametrize("status", REVIEW_STATUSES)
def test_every_status_loads(status):
    assert load(f"status: {status}\n").cases[0].status == status


def test_decision_with_date():
    extra = "status: disputed\ndecision: |\n  Kept open until the seed author answers.\ndecided: 2026-11-30\n"
    case = load(extra).cases[0]
    assert case.status == "disputed"
    assert case.decision == "Kept open until the seed author answers."
    assert case.decided == "2026-11-30"
    quoted = load("status: accepted\ndecision: accepted as written\ndecided: '2026-02-28'\n").cases[0]
    assert (quoted.status, quoted.decided) == ("accepted", "2026-02-28")


def test_rulings_and_comments_load():
    extra = (
        "status: accepted\ndecision: fine\ndecided: 2026-12-01\ndecided-by: 李\n"
        "rulings:\n  jpd-2022:\n    status: disputed\n    decision: step 1 is a forfeit\n"
        "    decided: 2026-12-02\n    decided-by: 王\n    revision: 0123456789ab\n"
        "votes:\n  - {by: 王, status: disputed, date: 2026-12-02, revision: 0123456789ab, text: x, ruleset: jpd-2022}\n"
        "comments:\n  - {by: 王, date: 2026-12-02, text: see OQ-3, ruleset: chinese}\n"
        "  - {by: 李, date: 2026-12-03, text: agreed}\n"
    )
    case = load(extra).cases[0]
    assert case.decided_by == "李"
    assert case.rulings == (
        Ruling("jpd-2022", "disputed", "step 1 is a forfeit", "2026-12-02", "王", "0123456789ab"),
    )
    assert case.votes == (Vote("王", "disputed", "2026-12-02", "0123456789ab", "x", "jpd-2022"),)
    assert case.comments == (
        Comment("王", "2026-12-02", "see OQ-3", "chinese"),
        Comment("李", "2026-12-03", "agreed", ""),
    )
    again = load_case_text(dump_case_file(load(extra)), "f.yaml", PRESETS, DSL)
    assert again == load(extra)


@pytest.mark.parametrize(
    ("extra", "line", "column", "words"),
    [
        ("status: approved\n", 11, 13, "must be one of: proposed, accepted, disputed, rejected"),
        ("decided-by: x\n", 11, 5, "give 'decision' too"),
        ("rulings:\n  nosuch: {}\n", 12, 7, "!not a ruleset"),
        ("rulings: [a]\n", 11, 14, "maps ruleset names"),
        ("rulings:\n  chinese: {status: proposed}\n", 12, 25, "accepted, disputed, rejected"),
        ("rulings:\n  chinese: {status: accepted, decision: x, decided: 2026-12-01}\n", 12, 16, "decided-by"),
        (
            "rulings:\n  chinese: {status: accepted, decision: x, decided: 2026-12-01, decided-by: a}\n",
            12,
            16,
            "missing key 'revision'",
        ),
        ("decision: x\ndecided: 2026-12-01\nrevision: abc\n", 13, 15, "12 hex digits"),
        ("revision: 0123456789ab\n", 11, 5, "give 'decision' too"),
        ("votes: {by: a}\n", 11, 12, "'votes' must be a list"),
        (
            "votes:\n  - {by: a, status: accepted, date: 2026-12-01, text: b}\n",
            12,
            9,
            "missing key 'revision'",
        ),
        (
            "votes:\n  - {by: a, status: proposed, date: 2026-12-01, revision: 0123456789ab, text: b}\n",
            12,
            25,
            "a vote's 'status' is one of: accepted, disputed, rejected",
        ),
        (
            "votes:\n  - {by: a, status: accepted, date: 2026-12-01, revision: 0123456789ab, text: b, x: 1}\n",
            12,
            86,
            "unknown key 'x' in a vote",
        ),
        ("comments:\n  - {by: a, text: b}\n", 12, 9, "missing key 'date'"),
        ("comments:\n  - {by: a, date: 2026-12-01, text: b, ruleset: nosuch}\n", 12, 53, "!nosuch"),
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
    expected = "unknown-ruleset" if words.startswith("!") else "schema"  # "!": a ruleset is named wrong
    assert (code, at_line, at_column) == (expected, line, column)
    assert words.lstrip("!") in message


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
    decided = "decision: upheld\ndecided: 2026-11-30\ndecided-by: 规则委员会\nrevision: 0123456789ab\n"
    for status in ("accepted", "disputed", "rejected"):
        assert lint.check_review([load(f"status: {status}\n{decided}")]) == []


@pytest.mark.parametrize("status", ["accepted", "disputed", "rejected"])
def test_lint_flags_a_decided_status_without_its_record(status):
    for extra in (
        f"status: {status}\n",
        f"status: {status}\ndecision: fine\ndecided: 2026-11-30\n",
        f"status: {status}\ndecision: fine\ndecided: 2026-11-30\ndecided-by: a\n",  # no revision
    ):
        problems = lint.check_review([load(extra)])
        assert [p.check for p in problems] == ["review"], extra
        assert "without a decision record" in problems[0].message


def test_the_suite_decides_nothing_it_does_not_record():
    """No case of the suite claims a status it has no decision record for (none is accepted
    by default any more)."""
    files = [load_case_file(p, PRESETS, DSL) for p in sorted(conformance_dir().glob("*.yaml"))]
    assert lint.check_review(files) == []
    assert all(c.status != "accepted" or c.decision for f in files for c in f.cases)


def test_question_reviews_load_and_lint(tmp_path):
    (tmp_path / "question-reviews.yaml").write_text(
        "format: 1\nquestions:\n  oq.3:\n    status: accepted\n  oq.99:\n    status: proposed\n",
        encoding="utf-8",
    )
    problems = lint.check_question_reviews(tmp_path, PRESETS, {"oq.3": None})
    messages = sorted(p.message for p in problems)
    assert len(messages) == 2
    assert "open question oq.3 is 'accepted' without a decision record" in messages[0]
    assert "oq.99 is not an open question" in messages[1]
    (tmp_path / "question-reviews.yaml").write_text("format: 1\nquestions:\n  oq.x: {}\n", encoding="utf-8")
    [bad] = lint.check_question_reviews(tmp_path, PRESETS, {})
    assert "oq.x" in bad.message and bad.location.line == 3


def test_run_reports_cases_under_review_distinctly():
    loader = default_loader()
    record = "status: disputed\ndecision: not so\ndecided: 2026-12-01\ndecided-by: 王\nrevision: '{}'\n"

    def case(ident, review):
        head = f"  - id: {ident}\n    title: u\n    spec: [play.move]\n    seeds: []\n"
        return head + textwrap.indent(BODY + review, "    ")

    revision = case_revision(yaml.safe_load("cases:\n" + case("y", ""))["cases"][0])
    # y: decided on its current revision; z: the same decision, on an earlier revision (proposed)
    text = HEAD + textwrap.indent(BODY + "status: proposed\n", "    ")
    text += case("y", record.format(revision)) + case("z", record.format(revision))
    files = [load_case_text(text, "f.yaml", PRESETS, DSL)]
    plan = make_plan(files, PRESETS, Filters(), loader)
    result = run_plan(plan, ReferenceAdapter(), PRESETS, loader)
    reviews = {(r.case_id, r.review) for r in result.results}
    assert reviews == {("x", "proposed"), ("y", "disputed"), ("z", "proposed")}
    result = run_plan(
        make_plan(
            [load_case_text(text.split("  - id: z")[0], "f.yaml", PRESETS, DSL)], PRESETS, Filters(), loader
        ),
        ReferenceAdapter(),
        PRESETS,
        loader,
    )
    summary = report.summary_line(result)
    assert "under review: 1 proposed, 1 disputed case(s)" in summary
    data = report.to_json(result, PRESETS.names)
    assert {r["review"] for r in data["results"]} == {"proposed", "disputed"}
    assert data["summary"]["review"] == {"proposed": 1, "disputed": 1}
