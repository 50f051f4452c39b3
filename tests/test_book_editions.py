"""The book's two editions, ``en/`` and ``zh/``: every page has its twin, linked both ways and
written in its language at build time; every interface string comes from the catalogues; an
English string on a Chinese page is a marked fallback (a text not yet translated); the measure of
how Chinese the edition is runs; the book carries a CJK font covering every character it uses."""

import importlib.util
import re
from pathlib import Path

import pytest
from jpdtools.book.font import FONT_FILE, LICENCE_FILE, find_source
from jpdtools.book.lang import CATALOGUES, EN, ZH, missing
from jpdtools.book.lang.glossary import REFUSALS, cell_text
from jpdtools.book.visible import MEASURED, kind_of, tally, visible_strings
from jpdtools.paths import conformance_dir
from jpdtools.presets import load_presets

ROOT = Path(__file__).resolve().parent.parent
BOOK_CODE = ROOT / "tools" / "jpdtools" / "book"


@pytest.fixture
def book(three_file_book):  # tests/conftest.py (one xdist group with the other file that reads it)
    return three_file_book


def pages(edition: Path) -> set[str]:
    return {str(p.relative_to(edition)) for p in edition.rglob("*.html")}


def test_every_page_has_its_twin_linked_both_ways(book):
    en, zh = pages(book / "en"), pages(book / "zh")
    assert en == zh and len(en) > 500
    for rel in ("index.html", "cases/ko.simple.001.html", "questions/oq.9.html", "seeds/index.html"):
        for lang, other in ((EN, ZH), (ZH, EN)):
            html = (book / lang.code / rel).read_text(encoding="utf-8")
            assert f'<html lang="{lang.html}">' in html
            back = "../" * rel.count("/") + f"../{other.code}/{rel}"
            assert f'<link rel="alternate" hreflang="{other.html}" href="{back}">' in html
            assert f'<a class="lang" href="{back}" hreflang="{other.html}"' in html  # the visible switch
    front = (book / "index.html").read_text(encoding="utf-8")
    assert 'href="en/index.html"' in front and 'href="zh/index.html"' in front


def test_no_string_is_swapped_by_a_script(book):
    assert not (book / "en" / "lang.js").exists() and not (book / "zh" / "lang").exists()
    for path in (book / "zh").glob("*.js"):
        assert "JPD_STRINGS" not in path.read_text(encoding="utf-8") and "jpd-lang" not in path.read_text(
            "utf-8"
        )
    case = (book / "zh" / "cases" / "ko.simple.001.html").read_text(encoding="utf-8")
    assert "data-t=" not in case and "判定：每个规则集在每一步" in case


def test_every_key_is_in_both_catalogues_and_every_key_used_exists():
    assert missing() == {}
    used = set()
    call = re.compile(r"""\b(?:lang\.[tsh]|o\.s|self\.t|tr)\(\s*["']([a-z][\w.-]*[\w-])["']""")
    for path in BOOK_CODE.rglob("*.py"):
        used |= set(call.findall(path.read_text("utf-8")))
    assert len(used) > 150
    assert sorted(k for k in used if k not in CATALOGUES["en"]) == []


def test_each_ruleset_names_its_own_refusal():
    presets = load_presets()
    # jpd-2022's refusal by repetition is 禁倒退 (000 §22), not the 禁全同 it sets itself apart from
    assert cell_text("illegal superko", ZH, presets.get("jpd-2022")) == "非法：禁倒退"
    assert cell_text("illegal superko", ZH, presets.get("jpd-art-2")) == "非法：禁全同"
    assert cell_text("illegal superko", ZH, presets.get("chinese")) == "非法：禁止全局同形再现"
    assert cell_text("illegal superko", EN, presets.get("jpd-2022")) == "illegal superko"
    assert "全局同形" not in REFUSALS["jpd-2022"].zh


def test_the_case_page_writes_verdicts_units_and_heads_in_chinese(book):
    html = (book / "zh" / "cases" / "ko.simple.001.html").read_text(encoding="utf-8")
    jpd = html.split(">jpd-2022</a>", 2)[2].split("</tr>", 1)[0]  # the matrix row
    assert "非法：禁倒退" in jpd and "superko" not in jpd
    assert "<th>规则集</th>" in html and "预期" in html and "实际" in html
    count = (book / "zh" / "cases" / "count.area.001.html").read_text(encoding="utf-8")
    assert "白胜 0.5 点 = 0.25 子" in count and "各规则集的计算结果并列" in count
    assert "W by 0.5 points" not in count


def test_english_left_on_a_chinese_page_is_a_marked_fallback(book):
    """Every English string the pages' own code writes on a zh/ page is marked (a case's title or
    note not yet translated, a source quoted in English); the spec's text (its twin
    in spec/zh/) is zhspec's and checked by its own tests."""
    names = load_presets().names
    kinds = ("index.html", "glossary.html", "cases/*.html", "rulesets/*.html", "differences/*.html")
    kinds += ("clauses/index.html", "questions/index.html")  # the seed pages are sources' (whole articles)
    left = {}
    for kind in kinds:
        for path in sorted((book / "zh").glob(kind)):
            html = path.read_text(encoding="utf-8")
            for text, fallback in visible_strings(html, skip=("spec", "spec-text")):
                if not fallback and kind_of(text, names) == "english":
                    left.setdefault(text, str(path.relative_to(book)))
    assert left == {}


def test_the_measurement_runs_on_the_eight_pages(book):
    spec = importlib.util.spec_from_file_location("zh_share", ROOT / "benchmarks" / "zh_share.py")
    zh_share = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(zh_share)
    rows = zh_share.measure(book)
    assert [kind for kind, _, _ in rows] == [kind for kind, _ in MEASURED]
    report = zh_share.report(rows)
    assert "all eight" in report and "%" in report
    shares = {kind: t.share for kind, _, t in rows}
    # the interface is Chinese: what is left is the texts being translated (case titles and notes,
    # the rulesets' sources), marked as fallbacks
    assert min(shares.values()) > 0.5, shares
    for _, _, t in rows:
        assert t.english - t.fallback <= 3, t.examples.get("english")


def test_the_classifier_leaves_identifiers_out():
    names = load_presets().names
    assert kind_of("ko.simple.001", names) is None
    assert kind_of("jpd-2022, chinese", names) is None
    assert kind_of("C4 D4 B2", names) is None
    assert kind_of("非法：禁倒退", names) == "chinese"
    assert kind_of("W by 0.5 points", names) == "english"
    assert kind_of("白胜 0.5 点（J1989 Art. 14）", names) == "chinese"
    assert kind_of("Japanese：白胜", names) == "mixed"
    assert tally('<p>合法</p><p class="fallback" lang="en">Not yet</p><code>ko</code>').share == 0.5


def test_the_book_carries_a_cjk_font_covering_its_characters(book):
    if find_source() is None:
        pytest.skip("no Noto CJK font here (apt-get install fonts-noto-cjk)")
    from fontTools.ttLib import TTFont

    font = TTFont(str(book / FONT_FILE))
    cmap = set(font.getBestCmap())
    used = set()
    for path in (book / "zh").rglob("*.html"):
        used |= {ord(c) for c in path.read_text(encoding="utf-8") if "\u3400" <= c <= "\u9fff"}
    assert len(used) > 1000 and used - cmap == set()
    assert "Open Font License" in (book / LICENCE_FILE).read_text(encoding="utf-8")
    css = (book / "zh" / "style.css").read_text(encoding="utf-8")
    assert 'src:url("../fonts/cjk.woff2")' in css and '"JPD Noto Sans SC"' in css


def test_the_font_subset_is_reproducible():
    """The subset keeps the source's timestamp: two builds of one book carry the same font bytes."""
    source = find_source()
    if source is None:
        pytest.skip("no Noto CJK font here (apt-get install fonts-noto-cjk)")
    import io

    from fontTools.ttLib import TTFont
    from jpdtools.book.font import subset

    cut = TTFont(io.BytesIO(subset(source, set("计枰点"))))
    original = TTFont(str(source.path), fontNumber=source.number, lazy=True)
    assert cut["head"].modified == original["head"].modified


def test_every_ruleset_source_has_its_chinese_rendering():
    from jpdtools.book.lang.sources import SOURCES_ZH

    presets = load_presets()
    sources = {presets.get(n).source(a) for n in presets.names for a in presets.get(n).values()}
    assert sorted(sources - set(SOURCES_ZH)) == []
    for english, chinese in SOURCES_ZH.items():  # the citations and open questions carried over
        assert re.findall(r"OQ-\d+", english) == re.findall(r"OQ-\d+", chinese), english
        assert re.findall(r"§[\d–-]+", english) == re.findall(r"§[\d–-]+", chinese), english


def test_every_topic_of_the_suite_has_its_chinese_rendering():
    """A case file's topic titles its chapter in the printed book; the Chinese edition renders it."""
    import yaml
    from jpdtools.book.lang.topics import TOPICS_ZH, topic_key

    topics = {
        topic_key(yaml.safe_load(p.read_text(encoding="utf-8"))["topic"])
        for p in conformance_dir().glob("*.yaml")
    }
    assert sorted(topics - set(TOPICS_ZH)) == []
    names = load_presets().names

    def named(text: str) -> list[str]:
        rulesets = [n for n in names if re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", text)]
        return rulesets + re.findall(r"\w+\.yaml|[A-Z]{3,}", text)

    for english, chinese in TOPICS_ZH.items():  # the ruleset names, file names, acronyms carried over
        assert named(english) == named(chinese), english


def test_a_clause_heading_shows_its_code_as_code_not_back_quotes(book):
    """A heading the spec writes with back-quotes (a module's name) reads as code on the clause
    index and the clause's page, in both editions, and as plain text in the page's title."""
    for lang in (EN, ZH):
        index = (book / lang.code / "clauses" / "index.html").read_text(encoding="utf-8")
        clause = (book / lang.code / "clauses" / "jsonl.serve.html").read_text(encoding="utf-8")
        for html in (index, clause):
            assert "<code>jpdtools.verify.jsonl.serve</code>" in html
            assert "`jpdtools.verify.jsonl.serve`" not in html
        assert "<title>jsonl.serve — " in clause and "`" not in clause.split("</title>")[0]
