# ruff: noqa: E501 -- strings and scripts are kept whole, one line each
"""jpd review apply / status: review files merged into the case files as text, conflicts listed,
nothing overwritten; the review file's form (spec/review.schema.json)."""

import json
import shutil

import jsonschema
import pytest
from jpdtools.cli import main
from jpdtools.errors import InputError
from jpdtools.paths import spec_dir
from jpdtools.review.reviewfile import load_review_text

CASES = """\
format: 1
cases:
  # a comment above the first case
  - id: rv.one.001
    title: one
    spec: [play.move]
    seeds: ["000 §13"]
    size: 5
    moves: B C3   # a comment on the moves
    expect:
      default: "1: legal"

  - id: rv.two.001
    title: two
    spec: [play.move]
    seeds: ["000 §13"]
    size: 5
    moves: B C3
    expect:
      default: "1: legal"
    status: disputed
    decision: not so
    decided: 2026-11-01
    decided-by: 王
"""


def review(reviewer, *entries):
    return json.dumps(
        {"format": 1, "kind": "jipingdian-review", "reviewer": reviewer, "entries": list(entries)}
    )


def entry(ident, action, text="", ruleset="", date="2026-12-02"):
    e = {"target": "case", "id": ident, "action": action, "text": text, "date": date}
    if ruleset:
        e["ruleset"] = ruleset
    return e


@pytest.fixture
def suite(tmp_path):
    folder = tmp_path / "suite"
    folder.mkdir()
    (folder / "rv.yaml").write_text(CASES, encoding="utf-8")
    return folder


def apply(tmp_path, suite, capsys, *reviews):
    paths = []
    for n, text in enumerate(reviews):
        path = tmp_path / f"r{n}.json"
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    status = main(["review", "apply", *paths, "--suite", str(suite)])
    return status, capsys.readouterr().out


def test_a_dispute_of_one_ruleset_and_a_comment_are_written_in_place(tmp_path, suite, capsys):
    r = review(
        "李",
        entry("rv.one.001", "dispute", "step 1 is a forfeit here", "jpd-2022"),
        entry("rv.one.001", "comment", "see OQ-3"),
    )
    status, out = apply(tmp_path, suite, capsys, r)
    assert status == 0, out
    text = (suite / "rv.yaml").read_text(encoding="utf-8")
    # every other line is kept byte for byte: comments, blank lines, the other case
    assert (
        "  # a comment above the first case\n" in text and "moves: B C3   # a comment on the moves\n" in text
    )
    assert text.split("  - id: rv.two.001")[1] == CASES.split("  - id: rv.two.001")[1]
    one = text.split("  - id: rv.two.001")[0]
    assert "    rulings:\n      jpd-2022:\n        status: disputed\n" in one and "decided-by: 李" in one
    assert "    comments:\n      - by: 李\n" in one
    assert "\n\n  - id" not in one or one.endswith("\n\n")  # the blank line between cases kept
    assert main(["review", "status", "--suite", str(suite)]) == 0
    tally = capsys.readouterr().out
    assert (
        "cases: 2 — 1 proposed, 0 accepted, 1 disputed, 0 rejected; rulings on one ruleset: 1 disputed; 1 comment(s)"
        in tally
    )
    # applying the same file again changes nothing
    status, out = apply(tmp_path, suite, capsys, r)
    assert status == 0 and "2 already recorded" in out
    assert (suite / "rv.yaml").read_text(encoding="utf-8") == text


def test_conflicts_are_listed_and_nothing_is_overwritten(tmp_path, suite, capsys):
    before = (suite / "rv.yaml").read_text(encoding="utf-8")
    a = review("李", entry("rv.one.001", "accept"), entry("rv.two.001", "accept"))
    b = review("王", entry("rv.one.001", "dispute", "no"))
    status, out = apply(tmp_path, suite, capsys, a, b)
    assert status == 1
    assert (
        "case rv.one.001: the reviewers differ — 李: accept ('Accepted as written.'); 王: dispute ('no'); none applied"
        in out
    )
    assert (
        "case rv.two.001: 李 says accepted, but the file records disputed by 王 on 2026-11-01; not overwritten"
        in out
    )
    assert (suite / "rv.yaml").read_text(encoding="utf-8") == before


def test_two_reviewers_who_agree_decide_together(tmp_path, suite, capsys):
    status, out = apply(
        tmp_path,
        suite,
        capsys,
        review("李", entry("rv.one.001", "accept")),
        review("王", entry("rv.one.001", "accept")),
    )
    assert status == 0, out
    text = (suite / "rv.yaml").read_text(encoding="utf-8")
    assert "    status: accepted\n" in text and "decided-by: 李, 王" in text
    assert main(["lint", str(suite / "rv.yaml")]) in (0, 1)
    capsys.readouterr()


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"kind": "other"}, "expected 'kind'"),
        ({"reviewer": ""}, "'reviewer' of a review file must be a non-empty string"),
        (
            {"entries": [{"target": "case", "id": "x", "action": "maybe", "date": "2026-12-02"}]},
            "'action' is one of",
        ),
        (
            {"entries": [{"target": "case", "id": "x", "action": "dispute", "date": "2026-12-02"}]},
            "needs 'text'",
        ),
        ({"entries": [{"target": "case", "id": "x", "action": "accept", "date": "2.12.2026"}]}, "YYYY-MM-DD"),
    ],
)
def test_a_bad_review_file_is_a_located_error_and_the_schema_agrees(change, words):
    data = {"format": 1, "kind": "jipingdian-review", "reviewer": "李", "entries": []} | change
    with pytest.raises(InputError) as info:
        load_review_text(json.dumps(data, indent=1), "r.json")
    assert words in info.value.message and info.value.location.line >= 1
    schema = json.loads((spec_dir() / "review.schema.json").read_text(encoding="utf-8"))
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, schema)


def test_an_open_question_is_reviewed_in_its_own_file(tmp_path, monkeypatch, capsys):
    spec = tmp_path / "spec"
    shutil.copytree(spec_dir(), spec)
    monkeypatch.setattr("jpdtools.commands.review.spec_dir", lambda: spec)
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "rv.yaml").write_text(CASES, encoding="utf-8")
    r = review(
        "李",
        {
            "target": "question",
            "id": "oq.3",
            "action": "accept",
            "text": "the reading stands",
            "date": "2026-12-02",
        },
    )
    path = tmp_path / "q.json"
    path.write_text(r, encoding="utf-8")
    assert main(["review", "apply", str(path), "--suite", str(suite)]) == 0, capsys.readouterr().out
    text = (spec / "question-reviews.yaml").read_text(encoding="utf-8")
    assert text.startswith("# Where each open question") and "  oq.3:\n    status: accepted\n" in text
    assert "decided-by: 李" in text
