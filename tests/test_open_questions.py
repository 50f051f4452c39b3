"""The register of open questions (spec/open-questions.md and its Chinese twin) lists its entries
by number: an id never changes, so an entry goes where its number puts it, and lint says so."""

import re
import shutil

from jpdtools.paths import spec_dir
from jpdtools.review.lint import OPEN_QUESTIONS, check_question_order, spec_anchors
from jpdtools.review.translations import ZH_DIR

ENTRY = re.compile(r"^## OQ-(\d+)\D.*\{#oq\.(\d+)\}\s*$", re.MULTILINE)


def _numbers(path):
    found = ENTRY.findall(path.read_text(encoding="utf-8"))
    assert all(a == b for a, b in found), f"{path}: a heading's number differs from its anchor"
    return [int(a) for a, _ in found]


def test_the_register_and_its_twin_are_in_numeric_order():
    english = _numbers(spec_dir() / OPEN_QUESTIONS)
    chinese = _numbers(spec_dir() / ZH_DIR / OPEN_QUESTIONS)
    assert len(english) >= 57
    assert english == sorted(english) and len(set(english)) == len(english)
    assert chinese == sorted(chinese)
    assert check_question_order(spec_dir()) == []


def test_a_number_the_register_skips_is_said_to_be_unassigned_in_both_languages():
    """A reader who finds no OQ-n between two entries is told why: the preamble names each number
    never given to a question, in English and in Chinese."""
    for path in (spec_dir() / OPEN_QUESTIONS, spec_dir() / ZH_DIR / OPEN_QUESTIONS):
        text = path.read_text(encoding="utf-8")
        numbers = set(_numbers(path))
        preamble = text[: text.index("\n## OQ-")]
        skipped = sorted(set(range(1, max(numbers) + 1)) - numbers)
        assert [n for n in skipped if f"OQ-{n}" not in preamble] == [], path


def test_lint_names_an_entry_out_of_order(tmp_path):
    shutil.copy(spec_dir() / OPEN_QUESTIONS, tmp_path / OPEN_QUESTIONS)
    path = tmp_path / OPEN_QUESTIONS
    text = path.read_text(encoding="utf-8")
    first, second = (m.start() for m in re.finditer(r"(?m)^## OQ-[12]\D", text))
    third = re.search(r"(?m)^## OQ-3\D", text).start()
    path.write_text(text[:first] + text[second:third] + text[first:second] + text[third:], encoding="utf-8")
    problems = check_question_order(tmp_path)
    assert len(problems) == 1
    assert "'oq.1' comes after 'oq.2'" in problems[0].message
    assert problems[0].location.line == text[:first].count("\n") + 1 + text[second:third].count("\n")


def test_an_anchor_written_in_prose_is_not_a_question():
    # spec/case-format.md speaks of "its `{#oq.N}` heading": a code span, not an anchor
    anchors = spec_anchors(spec_dir())
    assert "oq.N" not in anchors and "anchor" not in anchors
    register = _numbers(spec_dir() / OPEN_QUESTIONS)
    assert sorted(int(a[3:]) for a in anchors if a.startswith("oq.")) == register
