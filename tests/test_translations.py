"""The spec's clauses in Chinese (spec/zh/clauses.yaml): each records the revision of the English
clause it renders; lint reports a stale or orphaned one, and lists the untranslated as warnings."""

import shutil

from jpdtools.paths import spec_dir
from jpdtools.review.translations import ZH_CLAUSES, check_translations, english_clauses, load_translations


def test_the_real_translations_are_current():
    check = check_translations(spec_dir())
    assert check.problems == () and check.stale == ()
    assert check.done == len(load_translations(spec_dir() / ZH_CLAUSES)) >= 14
    assert check.total == len(english_clauses(spec_dir())) and set(check.untranslated).isdisjoint(
        load_translations(spec_dir() / ZH_CLAUSES)
    )


def test_a_changed_english_clause_makes_its_translation_stale(tmp_path):
    spec = tmp_path / "spec"
    shutil.copytree(spec_dir(), spec)
    play = spec / "play.md"
    play.write_text(
        play.read_text(encoding="utf-8").replace(
            "Diagonal points are not adjacent.", "Diagonals are not adjacent."
        ),
        encoding="utf-8",
    )
    check = check_translations(spec)
    assert check.problems == ()
    [(message, where)] = check.stale
    assert "'board.adjacency' renders revision" in message and "which is now" in message
    assert where.path.endswith("clauses.yaml") and where.line > 1


def test_a_chinese_clause_without_an_english_one_is_reported(tmp_path):
    spec = tmp_path / "spec"
    shutil.copytree(spec_dir(), spec)
    zh = spec / ZH_CLAUSES
    zh.write_text(
        zh.read_text(encoding="utf-8")
        + '  board.nowhere:\n    source: "000000000000"\n    heading: 无\n    text: 无\n',
        encoding="utf-8",
    )
    [(message, _)] = check_translations(spec).problems
    assert "'board.nowhere' has no English clause" in message
