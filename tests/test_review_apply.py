# ruff: noqa: E501 -- strings and scripts are kept whole, one line each
"""jpd review apply / status: review files merged into the case files as text, conflicts listed,
nothing overwritten; the review file's form (spec/review.schema.json)."""

import datetime
import hashlib
import json
import re
import shutil

import jsonschema
import pytest
import yaml
from jpdtools.cli import main
from jpdtools.errors import InputError
from jpdtools.paths import spec_dir
from jpdtools.presets import load_presets
from jpdtools.review.policy import load_policy, load_policy_text
from jpdtools.review.reviewfile import load_review_text
from jpdtools.suite.loader import load_case_text

_CASES = """\
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
    revision: "{two}"
"""


def plain(value):
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, datetime.date):
        return value.isoformat()
    return value.rstrip() if isinstance(value, str) else value


def spec_revision(text: str, ident: str) -> str:
    """The revision of case ``ident`` as spec/case-format.md#format.revision defines it, computed
    here independently of the loader."""
    case = next(c for c in yaml.safe_load(text)["cases"] if c["id"] == ident)
    left_out = {"status", "decision", "decided", "decided-by", "revision", "rulings", "votes", "comments"}
    left_out |= {"title", "zh", "note", "tags"}
    claim = {k: plain(v) for k, v in case.items() if k not in left_out}
    text = json.dumps(claim, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


TWO_REVISION = spec_revision(_CASES, "rv.two.001")  # the revision key itself is left out
ONE_REVISION = spec_revision(_CASES, "rv.one.001")
CASES = _CASES.replace("{two}", TWO_REVISION)


def review(reviewer, *entries):
    return json.dumps(
        {"format": 1, "kind": "jipingdian-review", "reviewer": reviewer, "entries": list(entries)}
    )


def entry(ident, action, text="", ruleset="", date="2026-12-02", revision=""):
    e = {"target": "case", "id": ident, "action": action, "text": text, "date": date}
    if ruleset:
        e["ruleset"] = ruleset
    if revision:
        e["revision"] = revision
    return e


@pytest.fixture
def suite(tmp_path):
    folder = tmp_path / "suite"
    folder.mkdir()
    (folder / "rv.yaml").write_text(CASES, encoding="utf-8")
    return folder


def apply(tmp_path, suite, capsys, *reviews, extra=()):
    paths = []
    for n, text in enumerate(reviews):
        path = tmp_path / f"r{n}.json"
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    status = main(["review", "apply", *paths, "--suite", str(suite), *extra])
    return status, capsys.readouterr().out


def policy(tmp_path, text):
    path = tmp_path / "policy.yaml"
    path.write_text("format: 1\n" + text, encoding="utf-8")
    return ["--policy", str(path)]


def status_of(suite, capsys, *extra):
    assert main(["review", "status", "--suite", str(suite), *extra]) == 0
    return capsys.readouterr().out


def test_the_revision_is_the_content_hash_the_spec_defines(suite):
    text = (suite / "rv.yaml").read_text(encoding="utf-8")
    loaded = {c.id: c for c in load_case_text(text, "rv.yaml", load_presets()).cases}
    assert loaded["rv.one.001"].content_revision == spec_revision(text, "rv.one.001")
    assert loaded["rv.two.001"].content_revision == spec_revision(text, "rv.two.001") == TWO_REVISION
    # a comment, a title, the review keys: the same revision; a move: another
    same = text.replace("title: one", "title: one, reworded").replace("# a comment on the moves", "")
    again = {c.id: c for c in load_case_text(same, "rv.yaml", load_presets()).cases}
    assert again["rv.one.001"].content_revision == loaded["rv.one.001"].content_revision
    moved = text.replace("moves: B C3   #", "moves: B C4   #")
    other = {c.id: c for c in load_case_text(moved, "rv.yaml", load_presets()).cases}
    assert other["rv.one.001"].content_revision != loaded["rv.one.001"].content_revision


def test_a_dispute_of_one_ruleset_and_a_comment_are_written_in_place(tmp_path, suite, capsys):
    r = review(
        "李",
        entry("rv.one.001", "dispute", "step 1 is a forfeit here", "jpd-2022"),
        entry("rv.one.001", "comment", "see OQ-3"),
    )
    one_member = policy(tmp_path, "quorum: 1\n")
    status, out = apply(tmp_path, suite, capsys, r, extra=one_member)
    assert status == 0, out
    text = (suite / "rv.yaml").read_text(encoding="utf-8")
    # every other line is kept byte for byte: comments, blank lines, the other case
    assert (
        "  # a comment above the first case\n" in text and "moves: B C3   # a comment on the moves\n" in text
    )
    assert text.split("  - id: rv.two.001")[1] == CASES.split("  - id: rv.two.001")[1]
    one = text.split("  - id: rv.two.001")[0]
    revision = spec_revision(CASES, "rv.one.001")
    assert "    rulings:\n      jpd-2022:\n        status: disputed\n" in one and "decided-by: 李" in one
    assert f"        revision: {revision}\n" in one
    assert (
        f"    votes:\n      - by: 李\n        status: disputed\n        date: 2026-12-02\n        revision: {revision}\n        ruleset: jpd-2022\n"
        in one
    )
    assert "    comments:\n      - by: 李\n" in one
    assert "\n\n  - id" not in one or one.endswith("\n\n")  # the blank line between cases kept
    tally = status_of(suite, capsys, *one_member)
    assert (
        "cases: 2 — 1 proposed, 0 accepted, 1 disputed, 0 rejected; rulings on one ruleset: 1 disputed; 1 comment(s)"
        in tally
    )
    # applying the same file again changes nothing
    status, out = apply(tmp_path, suite, capsys, r, extra=one_member)
    assert status == 0 and "2 already recorded" in out
    assert (suite / "rv.yaml").read_text(encoding="utf-8") == text


def test_one_member_of_a_two_member_quorum_leaves_the_case_proposed_and_says_so(tmp_path, suite, capsys):
    status, out = apply(
        tmp_path, suite, capsys, review("李", entry("rv.one.001", "accept", revision=ONE_REVISION))
    )
    assert status == 0, out
    assert "case rv.one.001: stays proposed (1 of 2 for accepted)" in out
    text = (suite / "rv.yaml").read_text(encoding="utf-8")
    one = text.split("  - id: rv.two.001")[0]
    assert "\n    status:" not in one and "    votes:\n      - by: 李\n        status: accepted\n" in one
    tally = status_of(suite, capsys)
    assert "quorum: 2" in tally and "cases: 2 — 1 proposed, 0 accepted, 1 disputed" in tally
    assert "voting, below the quorum: 1\n    rv.one.001: proposed (1 of 2 for accepted: 李)" in tally
    # the second member's vote reaches the quorum: the decision is written, on the revision read
    status, out = apply(
        tmp_path, suite, capsys, review("王", entry("rv.one.001", "accept", "agreed", revision=ONE_REVISION))
    )
    assert status == 0 and "case rv.one.001: accepted, decided by 李, 王" in out, out
    one = (suite / "rv.yaml").read_text(encoding="utf-8").split("  - id: rv.two.001")[0]
    assert (
        "    status: accepted\n" in one
        and "decided-by: 李, 王\n" in one
        and f"    revision: {ONE_REVISION}\n" in one
    )
    assert "cases: 2 — 0 proposed, 1 accepted, 1 disputed" in status_of(suite, capsys)
    assert main(["lint", str(suite / "rv.yaml")]) in (0, 1)
    assert "rv.one.001" not in capsys.readouterr().out


def test_an_edited_case_counts_as_proposed_again(tmp_path, suite, capsys):
    path = suite / "rv.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("moves: B C3\n    expect", "moves: B C4\n    expect"),
        encoding="utf-8",
    )
    tally = status_of(suite, capsys)
    assert "cases: 2 — 2 proposed, 0 accepted, 0 disputed" in tally
    assert (
        f"decided on an earlier revision: 1\n    rv.two.001: disputed by 王 on revision {TWO_REVISION}"
        in tally
    )
    # a new decision on the new revision replaces it
    status, out = apply(
        tmp_path,
        suite,
        capsys,
        review("王", entry("rv.two.001", "accept")),
        extra=policy(tmp_path, "chair: 王\n"),
    )
    assert status == 0 and "case rv.two.001: accepted, decided by 王" in out, out
    new = spec_revision(path.read_text(encoding="utf-8"), "rv.two.001")
    assert new != TWO_REVISION and f"    revision: {new}\n" in path.read_text(encoding="utf-8")


def test_a_vote_on_an_earlier_revision_is_recorded_and_not_counted(tmp_path, suite, capsys):
    old = "0123456789ab"
    status, out = apply(
        tmp_path,
        suite,
        capsys,
        review("李", entry("rv.one.001", "accept", revision=old)),
        extra=policy(tmp_path, "quorum: 1\n"),
    )
    assert status == 0
    assert (
        f"case rv.one.001: 李's vote is on revision {old}, the current one is {ONE_REVISION}: recorded, not counted"
        in out
    )
    text = (suite / "rv.yaml").read_text(encoding="utf-8").split("  - id: rv.two.001")[0]
    assert f'revision: "{old}"' in text or f"revision: {old}" in text
    assert "status: accepted\n    decision" not in text
    assert "cases: 2 — 1 proposed" in status_of(suite, capsys)


def test_a_conflict_is_recorded_with_both_positions(tmp_path, suite, capsys):
    a = review("李", entry("rv.one.001", "accept"), entry("rv.two.001", "accept", revision=TWO_REVISION))
    b = review("王", entry("rv.one.001", "dispute", "no"))
    status, out = apply(tmp_path, suite, capsys, a, b)
    assert status == 1
    assert (
        "case rv.one.001: disputed between members — 李: accepted ('Accepted as written.'); 王: disputed ('no'); no decision applied"
        in out
    )
    assert (
        "case rv.two.001: disputed between members — the decision records disputed (王); 李: accepted ('Accepted as written.')"
        in out
    )
    text = (suite / "rv.yaml").read_text(encoding="utf-8")
    one, two = text.split("  - id: rv.two.001")
    assert (
        "      - by: 李\n        status: accepted\n" in one
        and "      - by: 王\n        status: disputed\n" in one
    )
    assert "    status: disputed\n    decision: not so\n" in two  # the decision is not overwritten
    tally = status_of(suite, capsys)
    assert "cases: 2 — 2 proposed, 0 accepted, 0 disputed" in tally
    assert "disputed between members: 2" in tally
    assert "rv.one.001: 李: accepted ('Accepted as written.'); 王: disputed ('no')" in tally
    assert "rv.two.001: decision disputed (王); 李: accepted ('Accepted as written.')" in tally
    # a member who changes their vote settles it
    status, out = apply(tmp_path, suite, capsys, review("王", entry("rv.one.001", "accept")))
    assert status == 0 and "case rv.one.001: accepted, decided by 李, 王" in out, out


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("quorum: 0\n", "'quorum' is a whole number"),
        ("members: 3\n", "unknown key 'members'"),
        ("chair: [a, b]\n", "'chair' names one member"),
    ],
)
def test_a_bad_policy_is_a_located_error(tmp_path, text, words):
    with pytest.raises(InputError) as info:
        load_policy_text("format: 1\n" + text, "policy.yaml")
    assert words in info.value.message and info.value.location.line == 2


def test_the_shipped_policy_loads():
    assert load_policy(spec_dir() / "review-policy.yaml").quorum >= 1


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
    assert text.startswith("# Where each open question") and "  oq.3:\n    status: proposed\n" in text
    # the question's revision: its entry up to the next anchored heading, white space runs made
    # one space, the generated 'Pinned by:' paragraph left out (spec/case-format.md#format.revision)
    asked = (spec / "open-questions.md").read_text(encoding="utf-8").split("\n")
    start = next(n for n, line in enumerate(asked) if "{#oq.3}" in line)
    end = next(n for n in range(start + 1, len(asked)) if asked[n].startswith("#") and "{#" in asked[n])
    entry = "\n".join(asked[start:end])
    entry = re.sub(r"\nPinned by:.*?(?=\n\s*\n|\Z)", "\n", entry, flags=re.S)
    revision = hashlib.sha256(" ".join(entry.split()).encode("utf-8")).hexdigest()[:12]
    assert (
        f"    votes:\n      - by: 李\n        status: accepted\n        date: 2026-12-02\n        revision: {revision}\n"
        in text
    )
    # the quorum of two reached by a second member: the question is decided
    path.write_text(r.replace(json.dumps("李"), json.dumps("王")), encoding="utf-8")
    assert main(["review", "apply", str(path), "--suite", str(suite)]) == 0, capsys.readouterr().out
    text = (spec / "question-reviews.yaml").read_text(encoding="utf-8")
    assert "  oq.3:\n    status: accepted\n" in text and "decided-by: 李, 王" in text
    assert main(["review", "status", "--suite", str(suite)]) == 0
    questions = len(re.findall(r"\{#oq\.\d+\}", "\n".join(asked)))  # every entry of the register
    assert f"questions: {questions} — {questions - 1} proposed, 1 accepted" in capsys.readouterr().out
