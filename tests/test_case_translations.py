"""The cases' Chinese texts (spec/case-format.md#format.zh): lint counts the missing ones as a
warning, ``--require-zh`` makes each a problem, and a ``zh`` text with no Chinese in it is one."""

from jpdtools.errors import Location
from jpdtools.review.case_translations import check_case_translations, figures, missing_figures
from jpdtools.suite.model import Case, CaseFile


def _case(case_id: str, note: str = "", zh_title: str = "", zh_note: str = "") -> Case:
    return Case(
        case_id, "t", (), (), note=note, zh_title=zh_title, zh_note=zh_note, location=Location("a.yaml", 3)
    )


def test_missing_texts_are_counted_per_file():
    files = [
        CaseFile("conformance/a.yaml", 1, "", (_case("a.1", "n", "标题", "说明"), _case("a.2", "n", "标题"))),
        CaseFile("conformance/b.yaml", 1, "", (_case("b.1"), _case("b.2", zh_title="标题"))),
    ]
    check = check_case_translations(files)
    assert [(m.case_id, m.what) for m in check.missing] == [("a.2", "note"), ("b.1", "title")]
    assert (check.titles, check.notes) == ((3, 4), (1, 2))
    assert check.not_chinese == () and check.drifted == ()
    assert "3 of 4 cases have a Chinese title, 1 of 2 notes" in check.summary()
    assert "missing per file: a.yaml 1, b.yaml 1" in check.summary()


def test_a_complete_set_has_no_summary_and_english_in_zh_is_reported():
    check = check_case_translations([CaseFile("a.yaml", 1, "", (_case("a.1", "n", "Title", "说明"),))])
    assert check.missing == () and check.summary() == ""
    [(message, where)] = check.not_chinese
    assert message == "a.1: zh.title has no Chinese character" and where.line == 3


def test_a_raw_anchor_in_a_chinese_text_is_reported():
    case = _case("a.1", "n", "标题", "{#rules.axes}：禁倒退要求比较全局棋形。")
    [(message, where)] = check_case_translations([CaseFile("a.yaml", 1, "", (case,))]).not_chinese
    assert message.startswith("a.1: zh.note shows a raw {#…} anchor") and where.line == 3


def test_no_case_text_shows_a_raw_anchor():
    """A note names a clause in words and its anchor as code; the book renders no ``{#anchor}``
    in a note, so one written there reaches the page as it stands, in either edition."""
    from jpdtools.paths import conformance_dir
    from jpdtools.presets import load_presets
    from jpdtools.run.runner import case_files, default_loader, load_files

    files, _ = load_files(case_files([conformance_dir()]), load_presets(), default_loader())
    raw = [
        (case.id, what)
        for case in (c for f in files for c in f.cases)
        for what, text in (
            ("title", case.title),
            ("note", case.note),
            ("zh.title", case.zh_title),
            ("zh.note", case.zh_note),
        )
        if "{#" in text
    ]
    assert raw == []


def test_no_case_text_names_an_issue_and_no_chinese_text_an_english_ruleset_name():
    """A note speaks to its reader: no issue number of the project's tracker in either edition;
    and a Chinese text names a ruleset as Chinese does (中国规则, 日本规则, 应氏规则), the English
    word kept only in the name of the source 004 Chinese summary."""
    import re

    from jpdtools.paths import conformance_dir
    from jpdtools.presets import load_presets
    from jpdtools.run.runner import case_files, default_loader, load_files

    files, _ = load_files(case_files([conformance_dir()]), load_presets(), default_loader())
    cases = [c for f in files for c in f.cases]
    issue = re.compile(r"\bissues?\s+\d+", re.IGNORECASE)
    english = re.compile(r"(?<![\w`-])(?:Chinese|Japanese|Ing)(?![\w`-])(?! summary)")
    texts = [(c.id, what, text) for c in cases for what, text in (("title", c.title), ("note", c.note))]
    zh = [
        (c.id, what, text) for c in cases for what, text in (("zh.title", c.zh_title), ("zh.note", c.zh_note))
    ]
    assert [(i, what) for i, what, text in texts + zh if issue.search(text or "")] == []
    assert [(i, what, english.findall(text)) for i, what, text in zh if english.search(text or "")] == []


def test_no_case_note_tells_the_history_of_its_diagram():
    """A note speaks to a rules committee meeting the case as it is: what the diagram shows and
    why it is built so, never what an earlier diagram was or how the tools once behaved, in
    either edition."""
    import re

    from jpdtools.paths import conformance_dir
    from jpdtools.presets import load_presets
    from jpdtools.run.runner import case_files, default_loader, load_files

    files, _ = load_files(case_files([conformance_dir()]), load_presets(), default_loader())
    cases = [c for f in files for c in f.cases]
    english = re.compile(
        r"\b(?:earlier|old|older|previous|former|original)\s+(?:diagram|version|figure|drawing)s?\b"
        r"|\bredraw(?:n|ing)?\b|\bused to (?:be|pass|ignore|give)\b",
        re.IGNORECASE,
    )
    chinese = re.compile(r"以前的图|旧图|原来的图|重画|改画|以前(?:运行|会)")
    history = [
        (c.id, what, pattern.findall(text))
        for c in cases
        for what, text, pattern in (("note", c.note, english), ("zh.note", c.zh_note, chinese))
        if text and pattern.search(text)
    ]
    assert history == []


def test_a_figure_of_the_english_missing_from_the_chinese_is_reported():
    case = _case("a.1", "Black 5 + 4 = 9 at C3, komi 6.5.", "标题", "黑 5 + 4 = 9，在 C3，贴目 7.5。")
    check = check_case_translations([CaseFile("a.yaml", 1, "", (case,))])
    [(message, where)] = check.drifted
    assert message.startswith("a.1: zh.note lacks 6.5 of the English note") and where.line == 3
    assert missing_figures("T19 and Z25, ½ and 3¾", "T19 与 Z25，½ 与 3¾") == ()
    assert figures("J1989 Art. 12, A1-B5") == ("1989", "12", "A1", "B5")


def test_the_suite_loads_with_its_chinese_texts():
    from jpdtools.paths import conformance_dir
    from jpdtools.presets import load_presets
    from jpdtools.run.runner import case_files, default_loader, load_files

    files, failures = load_files(case_files([conformance_dir()]), load_presets(), default_loader())
    assert not failures
    check = check_case_translations(files)
    assert check.not_chinese == ()
    assert check.titles[1] == sum(len(f.cases) for f in files)


# Latin words a Chinese title may keep: the names of formats, programs and public rules (identifiers,
# codes, presets and citations are left out by the book's measure); the case format's keys and the
# axes' values are written in Chinese there (盘内棋形, 判负, 待定) or as identifiers (aga-1991)
KEPT = {"SGF", "GTP", "YAML", "AB", "AW", "PL", "SZ", "HA", "Zobrist", "id", "size", "default"}


def test_a_chinese_title_names_rulesets_and_refusals_in_chinese():
    """No English word in a case's Chinese title beyond identifiers and the names kept: a ruleset
    is 日本规则 or 中国规则 there, a refusal the glossary's word ("已有子", not occupied)."""
    import re

    from jpdtools.book.visible import IDENTIFIERS, LATIN_WORD
    from jpdtools.paths import conformance_dir
    from jpdtools.presets import load_presets
    from jpdtools.run.runner import case_files, default_loader, load_files

    presets = load_presets()
    files, _ = load_files(case_files([conformance_dir()]), presets, default_loader())
    left = {}
    for case in (c for f in files for c in f.cases):
        rest = case.zh_title
        for pattern in IDENTIFIERS:
            rest = pattern.sub(" ", rest)
        for name in sorted(presets.names, key=len, reverse=True):
            rest = re.sub(rf"(?<![\w-]){re.escape(name)}(?![\w-])", " ", rest)
        words = set(LATIN_WORD.findall(rest)) - KEPT
        if words:
            left[case.id] = sorted(words)
    assert left == {}
