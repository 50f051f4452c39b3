# ruff: noqa: E501 -- case texts are kept whole, one line each
"""Attacks through review files (``jpd review apply``): what a reviewer writes cannot inject YAML
into a case file, hide characters in a name, or lose what a case file holds. A ruleset is a
preset (or a variant of one) written as jpd writes it; a one-line field is one line of visible
characters; every edit is proven by loading the file again, files are written all or none, a
symbolic link stays a link, and the question file's comments stay where they are."""

import json
import shutil

import pytest
from jpdtools.cli import main
from jpdtools.paths import spec_dir
from jpdtools.presets import load_presets
from jpdtools.suite.loader import load_case_text

PRESETS = load_presets()

CASE = """\
  - id: {ident}
    title: one
    spec: [play.move]
    seeds: ["000 §13"]
    size: 5
    moves: B C3
    expect:
      default: "1: legal"
"""


def case_file(*idents: str, tail: str = "") -> str:
    return "format: 1\ncases:\n" + "\n".join(CASE.format(ident=i) for i in idents) + tail


def review(reviewer: str, *entries: dict) -> str:
    return json.dumps(
        {"format": 1, "kind": "jipingdian-review", "reviewer": reviewer, "entries": list(entries)}
    )


def entry(ident: str, action: str = "comment", text: str = "a remark", **extra) -> dict:
    return {"target": "case", "id": ident, "action": action, "text": text, "date": "2026-12-02", **extra}


def apply(tmp_path, suite, *reviews: str) -> int:
    paths = []
    for n, text in enumerate(reviews):
        path = tmp_path / f"r{n}.json"
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    return main(["review", "apply", *paths, "--suite", str(suite)])


@pytest.fixture
def suite(tmp_path):
    folder = tmp_path / "suite"
    folder.mkdir()
    (folder / "rv.yaml").write_text(case_file("rv.one.001", "rv.two.001"), encoding="utf-8")
    return folder


def loaded(path):
    return {c.id: c for c in load_case_text(path.read_text(encoding="utf-8"), str(path), PRESETS).cases}


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("ruleset", "jpd-2022\n    rules: [chinese]", "U+000A"),
        ("ruleset", "jpd-2022 # x", "is not a ruleset"),
        ("ruleset", "nosuch", "is not a ruleset"),
        ("ruleset", "japanese:illegal-move=refuse", "is not a ruleset: a review names one of"),
        ("reviewer", "李\n  - id: injected", "U+000A"),
        ("reviewer", "\u202eevil", "U+202E RIGHT-TO-LEFT OVERRIDE"),
        ("reviewer", "li\u200bwang", "U+200B ZERO WIDTH SPACE"),
        ("text", "fine\u2066hidden\u2069", "U+2066"),
        ("text", "bell\x07", "U+0007"),
        ("id", "rv.one.001\u200d", "U+200D"),
    ],
)
def test_a_field_that_would_inject_or_hide_is_refused_and_nothing_written(
    tmp_path, suite, capsys, field, value, said
):
    before = (suite / "rv.yaml").read_bytes()
    reviewer = value if field == "reviewer" else "李"
    e = entry("rv.one.001", "accept", "fine", ruleset="jpd-2022")
    if field != "reviewer":
        e[field] = value
    assert apply(tmp_path, suite, review(reviewer, e)) == 2
    err = capsys.readouterr().err
    assert said in err and "r0.json" in err and "Traceback" not in err
    assert (suite / "rv.yaml").read_bytes() == before


def test_a_multi_line_text_is_kept_whole(tmp_path, suite):
    text = "line one\n\tindented: and a colon\n# not a comment\n"
    assert apply(tmp_path, suite, review("李", entry("rv.one.001", "comment", text))) == 0
    assert loaded(suite / "rv.yaml")["rv.one.001"].comments[0].text == text.strip()


def test_a_block_scalar_ending_in_hash_lines_keeps_them(tmp_path, suite):
    note = "    note: |\n      the first line\n      # a line of the note, not a comment\n      #another\n"
    (suite / "rv.yaml").write_text(
        case_file("rv.one.001", "rv.two.001", tail="").replace(
            '      default: "1: legal"\n', '      default: "1: legal"\n' + note, 1
        ),
        encoding="utf-8",
    )
    wanted = loaded(suite / "rv.yaml")["rv.one.001"].note
    assert "#another" in wanted
    assert apply(tmp_path, suite, review("李", entry("rv.one.001"))) == 0
    after = loaded(suite / "rv.yaml")
    assert after["rv.one.001"].note == wanted and len(after["rv.one.001"].comments) == 1


def test_an_anchor_another_case_aliases_is_not_lost(tmp_path, suite, capsys):
    text = case_file("rv.one.001", "rv.two.001")
    text = text.replace(
        '    expect:\n      default: "1: legal"\n',
        '    expect:\n      default: "1: legal"\n    comments:\n      - &remark {by: 王, date: 2026-12-01, text: shared}\n',
        1,
    )
    text = text.rstrip("\n") + "\n    comments:\n      - *remark\n"
    (suite / "rv.yaml").write_text(text, encoding="utf-8")
    before = loaded(suite / "rv.yaml")
    assert before["rv.two.001"].comments == before["rv.one.001"].comments
    status = apply(tmp_path, suite, review("李", entry("rv.one.001")))
    after = (suite / "rv.yaml").read_text(encoding="utf-8")
    if status == 0:  # written: every case reads back as intended, the alias included
        assert loaded(suite / "rv.yaml")["rv.two.001"] == before["rv.two.001"]
    else:
        assert status == 2 and "cannot write the review keys of case 'rv.one.001'" in capsys.readouterr().err
        assert after == text


def test_a_failing_file_writes_no_file(tmp_path, suite, capsys):
    """A case in flow style cannot be edited in place: the other file, which could, is not
    written either."""
    (suite / "z.yaml").write_text(  # after rv.yaml
        'format: 1\ncases:\n  - {id: rv.flow.001, title: flow, spec: [play.move], seeds: ["000 §13"], size: 5, moves: B C3, expect: {default: "1: legal"}}\n',
        encoding="utf-8",
    )
    before = {p.name: p.read_bytes() for p in suite.iterdir()}
    status = apply(tmp_path, suite, review("李", entry("rv.one.001"), entry("rv.flow.001")))
    assert status == 2 and "flow style" in capsys.readouterr().err
    assert {p.name: p.read_bytes() for p in suite.iterdir()} == before


def test_a_case_file_that_is_a_link_stays_a_link(tmp_path, suite):
    real = tmp_path / "elsewhere" / "rv.yaml"
    real.parent.mkdir()
    shutil.move(suite / "rv.yaml", real)
    (suite / "rv.yaml").symlink_to(real)
    assert apply(tmp_path, suite, review("李", entry("rv.one.001"))) == 0
    assert (suite / "rv.yaml").is_symlink()
    assert len(loaded(real)["rv.one.001"].comments) == 1


def test_the_question_files_comments_stay_where_they_are(tmp_path, monkeypatch, suite):
    spec = tmp_path / "spec"
    shutil.copytree(spec_dir(), spec)
    monkeypatch.setattr("jpdtools.commands.review.spec_dir", lambda: spec)
    questions = spec / "question-reviews.yaml"
    questions.write_text(
        "# the head\nformat: 1\nquestions:\n  # about oq.3\n  oq.3:\n    status: proposed\n    comments:\n      - {by: 王, date: 2026-12-01, text: first}\n  # about oq.5, below oq.3\n  oq.5:\n    status: proposed\n# the foot\n",
        encoding="utf-8",
    )

    def question(anchor: str) -> dict:
        return {"target": "question", "id": anchor, "action": "comment", "text": "more", "date": "2026-12-02"}

    for _ in range(2):
        assert apply(tmp_path, suite, review("李", question("oq.3"), question("oq.7"))) == 0
    text = questions.read_text(encoding="utf-8")
    assert text.startswith("# the head\nformat: 1\nquestions:\n  # about oq.3\n  oq.3:\n")
    assert "  # about oq.5, below oq.3\n  oq.5:\n" in text and text.index("oq.3:") < text.index(
        "# about oq.5"
    )
    assert "# the foot" in text and text.count("# the head") == 1
