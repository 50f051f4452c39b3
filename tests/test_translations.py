"""The spec in Chinese (spec/zh/<name>.md, the twin of spec/<name>.md): each section records the
revision of the English it renders; lint reports a malformed twin, a stale or missing section
(errors once the document is complete in Chinese), and every link of a twin resolves."""

import re
import shutil

import pytest
from jpdtools.paths import spec_dir
from jpdtools.review import translations
from jpdtools.review.translations import (
    PREAMBLE,
    ZH_DIR,
    check_translations,
    english_clauses,
    english_sections,
    zh_documents,
)

LINK = re.compile(r"\]\(([^)\s]+)\)")
ANCHOR = re.compile(r"\{#([A-Za-z0-9][A-Za-z0-9_.-]*)\}")


def test_the_real_translations_are_current():
    check = check_translations(spec_dir())
    assert check.problems == ()  # a stale section of a document not yet WHOLE is only a warning
    twins = zh_documents(spec_dir())
    assert "play.md" in twins
    translated = sum(len([s for s in d.sections if s.anchor]) for d in twins.values())
    stale = [m for m, _ in check.stale if "(its preamble)" not in m]
    assert translated >= 14 and check.done == translated - len(stale)
    assert check.total == len(english_clauses(spec_dir()))
    for name in translations.WHOLE:
        assert name in twins and {s.anchor for s in twins[name].sections} == set(
            english_sections(spec_dir())[name]
        )


def test_every_link_of_a_twin_resolves():
    zh = spec_dir() / ZH_DIR
    for path in sorted(zh.glob("*.md")):
        text = path.read_text(encoding="utf-8")
        for n, line in enumerate(text.splitlines(), 1):
            for target in LINK.findall(line):
                if target.startswith(("http://", "https://")):
                    continue
                file, _, anchor = target.partition("#")
                where = f"{path.name}:{n}: {target}"
                resolved = (zh / file).resolve() if file else path
                assert resolved.is_file() or (resolved.is_dir() and not anchor), f"{where}: no such file"
                assert not (file.startswith("../") and file.endswith(".md") and (zh / file[3:]).is_file()), (
                    f"{where}: link the Chinese twin {file[3:]} instead"
                )
                if anchor and anchor not in ANCHOR.findall(resolved.read_text(encoding="utf-8")):
                    # a section not yet translated: the English document has it
                    english = spec_dir() / resolved.name
                    assert resolved.parent == zh and resolved.name not in translations.WHOLE, (
                        f"{where}: no such anchor"
                    )
                    assert anchor in ANCHOR.findall(english.read_text(encoding="utf-8")), (
                        f"{where}: no such anchor"
                    )


def test_code_and_anchors_are_kept():
    """Every code span of an English section appears in its Chinese twin (codes, ids, coordinates)."""
    english = english_sections(spec_dir())
    for name, twin in zh_documents(spec_dir()).items():
        en_text = (spec_dir() / name).read_text(encoding="utf-8")
        for anchor in ANCHOR.findall(re.sub(r"`[^`]*`", "", en_text)):
            if anchor in {s.anchor for s in twin.sections} or anchor not in english[name]:
                assert f"{{#{anchor}}}" in twin.text, f"{name}: {{#{anchor}}} missing from the twin"


def _copy(tmp_path):
    spec = tmp_path / "spec"
    shutil.copytree(spec_dir(), spec)
    return spec


def test_a_changed_english_section_makes_its_translation_stale(tmp_path, monkeypatch):
    spec = _copy(tmp_path)
    play = spec / "play.md"
    play.write_text(
        play.read_text(encoding="utf-8").replace(
            "Diagonal points are not adjacent.", "Diagonals are not adjacent."
        ),
        encoding="utf-8",
    )
    monkeypatch.setattr(translations, "WHOLE", ())
    check = check_translations(spec)
    assert check.problems == ()
    [(message, where)] = check.stale
    assert "'board.adjacency' renders revision" in message and "which is now" in message
    assert where.path.endswith("zh/play.md") and where.line > 1
    monkeypatch.setattr(translations, "WHOLE", ("play.md",))
    check = check_translations(spec)
    assert check.stale == () and any("'board.adjacency' renders revision" in m for m, _ in check.problems)


def test_a_missing_section_is_an_error_once_the_document_is_whole(tmp_path, monkeypatch):
    spec = _copy(tmp_path)
    play = spec / "play.md"
    play.write_text(
        play.read_text(encoding="utf-8") + "\n### Something new {#play.new}\n\nNew text.\n", encoding="utf-8"
    )
    monkeypatch.setattr(translations, "WHOLE", ())
    check = check_translations(spec)
    assert "play.new" in check.untranslated and not any("play.new" in m for m, _ in check.problems)
    monkeypatch.setattr(translations, "WHOLE", ("play.md",))
    assert any("play.new" in m and "has no Chinese text" in m for m, _ in check_translations(spec).problems)


def test_every_translated_document_is_whole():
    """The spec is complete in Chinese: every translated document has its twin, and lint holds it."""
    assert set(translations.WHOLE) == set(translations.TRANSLATED_DOCUMENTS)
    assert set(zh_documents(spec_dir())) == set(translations.TRANSLATED_DOCUMENTS)
    assert check_translations(spec_dir()).untranslated == ()


@pytest.mark.parametrize("name", translations.TRANSLATED_DOCUMENTS)
def test_a_stale_or_missing_section_of_any_document_is_an_error(tmp_path, name):
    """With the real WHOLE: a changed English section, and a section taken out of the twin, are
    errors (naming the document's section), not warnings."""
    spec = _copy(tmp_path)
    english = english_sections(spec)[name]
    anchor = next(a for a in reversed(english) if a != PREAMBLE)  # the document's last section
    path = spec / name
    path.write_text(path.read_text(encoding="utf-8") + "\nOne more English sentence.\n", encoding="utf-8")
    check = check_translations(spec)
    assert check.stale == ()
    assert any(f"{anchor!r} renders revision" in m for m, _ in check.problems), check.problems
    twin = spec / ZH_DIR / name
    text = twin.read_text(encoding="utf-8")
    cut = re.search(r"^#+ .*\{#" + re.escape(anchor) + r"\}", text, re.M)
    assert cut is not None
    twin.write_text(text[: cut.start()], encoding="utf-8")
    problems = check_translations(spec).problems
    assert any(anchor in m and "has no Chinese text" in m for m, _ in problems), problems


def test_a_missing_twin_is_an_error(tmp_path):
    spec = _copy(tmp_path)
    (spec / ZH_DIR / "jsonl-protocol.md").unlink()
    problems = check_translations(spec).problems
    assert any("jsonl-protocol.md is complete in Chinese but" in m for m, _ in problems), problems


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (
            lambda t: t + "\n### 无 {#board.nowhere}\n<!-- source: 000000000000 -->\n\n无。\n",
            "'board.nowhere' has no English section",
        ),
        (
            lambda t: t.replace("{#board.points}\n<!-- source:", "{#board.points}\n<!-- xsource:", 1),
            "'board.points' has no '<!-- source",
        ),
        (
            lambda t: re.sub(
                r"(\{#board.chains\}\n<!-- source: \w+ -->\n)", r"\1<!-- source: 000000000000 -->\n", t
            ),
            "'board.chains' has 2",
        ),
    ],
)
def test_a_malformed_twin_is_reported(tmp_path, edit, expected):
    spec = _copy(tmp_path)
    zh = spec / ZH_DIR / "play.md"
    zh.write_text(edit(zh.read_text(encoding="utf-8")), encoding="utf-8")
    problems = check_translations(spec).problems
    assert any(expected in m for m, _ in problems), problems


def test_the_twin_text_is_ready_to_render():
    twin = zh_documents(spec_dir())["play.md"]
    assert "<!--" not in twin.text
    assert twin.text.count("\n") == (spec_dir() / ZH_DIR / "play.md").read_text(encoding="utf-8").count("\n")
    assert twin.sources[PREAMBLE] == english_sections(spec_dir())["play.md"][PREAMBLE].revision


def test_bold_and_emphasis_beside_chinese_punctuation_render():
    """CommonMark leaves ``**出处。**000`` as text (a run after punctuation closes only before
    space or punctuation); the book's parser closes it beside CJK text, and every twin renders
    with no ``**`` left over; the English documents render as CommonMark renders them."""
    from jpdtools.book.spectext import _parser
    from markdown_it import MarkdownIt

    md = _parser()
    assert md.renderInline("**出处。**000 §22") == "<strong>出处。</strong>000 §22"
    assert md.renderInline("则**“棋形”**是") == "则<strong>“棋形”</strong>是"
    assert md.renderInline("**`sizes`**：集合") == "<strong><code>sizes</code></strong>：集合"
    assert md.renderInline("*示例（004）：*黑") == "<em>示例（004）：</em>黑"
    assert md.renderInline("a * b * c, snake_case_name") == "a * b * c, snake_case_name"
    plain = MarkdownIt("commonmark", {"html": False}).enable("table")
    for path in sorted(spec_dir().glob("*.md")):
        text = path.read_text(encoding="utf-8")
        assert md.render(text) == plain.render(text), path.name
    for twin in zh_documents(spec_dir()).values():
        html = re.sub(r"<code>.*?</code>|<pre>.*?</pre>", "", md.render(twin.text), flags=re.S)
        assert "**" not in html, (twin.name, html[html.index("**") - 60 : html.index("**") + 20])
