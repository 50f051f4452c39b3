"""The case book in a real browser: headless Chromium (Debian's ``chromium``) over DevTools.

The boards are SVG in the DOM, the index's filters work with scripts on and the page reads whole
with scripts off, a case's hostile title and note show as text and run nothing, and ``--pdf``
prints. Skipped when Chromium is missing — except in CI (``CI=true``), where that fails.
"""

import base64
import os
import re
from pathlib import Path

import pytest
from book_helpers import build_book
from chromium_driver import Browser, chromium_or_skip
from jpdtools.book.font import find_source
from jpdtools.paths import conformance_dir
from test_book import HOSTILE

ARTEFACTS = Path(os.environ.get("TEST_ARTEFACTS", Path(__file__).resolve().parent.parent / "test-artefacts"))
SAMPLE = ("ko.simple.001", "count.area.001", "settle.art-2008.ko.claim-upheld", "virtual.answer.001")


@pytest.fixture(scope="module")
def browser():
    b = Browser(chromium_or_skip())
    yield b
    b.close()


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    root = tmp_path_factory.mktemp("chromium-book")
    (root / "hostile.yaml").write_text(HOSTILE, encoding="utf-8")
    paths = [
        conformance_dir() / name for name in ("ko.yaml", "count-area.yaml", "settling.yaml", "virtual.yaml")
    ]
    build_book(root / "book", [*paths, root / "hostile.yaml"])
    return root / "book" / "en"


def rows_shown(browser) -> int:
    return browser.evaluate("document.querySelectorAll('tr.case:not([hidden])').length")


def choose(browser, name: str, value: str) -> None:
    browser.evaluate(
        f"(() => {{ const e = document.getElementById('filter-{name}'); e.value = {value!r};"
        " e.dispatchEvent(new Event('change', {bubbles: true})); })()"
    )


def test_the_case_pages_draw_svg_boards(browser, book):
    for case_id in SAMPLE:
        browser.open(book / "cases" / f"{case_id}.html")
        boards = browser.evaluate("document.querySelectorAll('svg.board').length")
        stones = browser.evaluate("document.querySelectorAll('svg.board circle.stone').length")
        width = browser.evaluate("document.querySelector('svg.board').getBoundingClientRect().width")
        assert boards >= 2 and stones > 0 and width > 50, case_id
    browser.open(book / "cases" / "count.area.001.html")
    assert browser.evaluate("document.querySelectorAll('svg.board .owner').length") > 0
    browser.open(book / "cases" / "virtual.answer.001.html")
    assert browser.evaluate("document.querySelectorAll('svg.board g.virtual').length") > 0


def test_the_status_filter_and_the_others_work_with_scripts_on(browser, book):
    browser.open(book / "index.html")
    total = browser.evaluate("document.querySelectorAll('tr.case').length")
    assert total > 50 and rows_shown(browser) == total
    assert browser.evaluate("document.getElementById('filters').hidden") is False
    statuses = browser.evaluate("[...document.querySelectorAll('tr.case')].map(r => r.dataset.status)")
    # nothing is accepted without a decision: the hostile file's one disputed case is decided
    assert statuses.count("disputed") == 1 and statuses.count("accepted") == 0
    assert statuses.count("proposed") == total - 1
    for status in ("accepted", "proposed", "disputed"):
        choose(browser, "status", status)
        assert rows_shown(browser) == statuses.count(status)
        assert browser.evaluate("document.getElementById('shown').textContent").startswith(
            f"{statuses.count(status)} of {total}"
        )
    choose(browser, "status", "")
    assert rows_shown(browser) == total
    choose(browser, "tag", "ko")
    tagged = browser.evaluate(
        "[...document.querySelectorAll('tr.case')]"
        ".filter(r => r.dataset.tags.split(' ').includes('ko')).length"
    )
    assert 0 < rows_shown(browser) == tagged < total
    choose(browser, "tag", "")
    choose(browser, "q", "recapture")
    assert 0 < rows_shown(browser) < total
    choose(browser, "q", "")
    choose(browser, "ruleset", "jpd-2022")
    assert 0 < rows_shown(browser) <= total


TOPICS = """[...document.querySelectorAll('details.topic')].map(t => [t.id, t.open, t.hidden,
  t.querySelector('.topic-count').textContent, t.querySelectorAll('tr.case:not([hidden])').length])"""


def test_the_index_groups_the_cases_by_topic_and_the_filters_open_the_topics_they_show(browser, book):
    """A collapsed <details> per file of the suite, its summary naming the topic and counting its
    cases; a filter says in each summary how many it shows, hides a topic with none, opens the rest."""
    browser.open(book / "index.html")
    topics = browser.evaluate(TOPICS)
    names = [t[0] for t in topics]
    assert names == ["topic-ko", "topic-count-area", "topic-settling", "topic-virtual", "topic-hostile"]
    assert all(not opened and not hidden for _, opened, hidden, _, _ in topics)
    assert all(said == f"{n} cases" for _, _, _, said, n in topics)
    assert browser.evaluate("document.querySelector('#topic-ko .topic-name').textContent") == "Ko"
    choose(browser, "q", "recapture")
    shown = {t[0]: t for t in browser.evaluate(TOPICS)}
    assert shown["topic-ko"][1] is True and shown["topic-ko"][3].startswith(f"{shown['topic-ko'][4]} of ")
    assert shown["topic-count-area"][2] is True  # no case of counting mentions a recapture
    choose(browser, "q", "")
    assert [t[3] for t in browser.evaluate(TOPICS)] == [t[3] for t in topics]
    assert not any(t[2] for t in browser.evaluate(TOPICS))
    browser.open(book.parent / "zh" / "index.html")
    assert browser.evaluate("document.querySelector('#topic-ko .topic-name').textContent") == "劫"
    assert browser.evaluate("document.querySelector('#topic-ko .topic-count').textContent").endswith("个案例")


def test_a_filter_can_be_set_from_the_address(browser, book):
    browser.open_url((book / "index.html").resolve().as_uri() + "?tag=ko")
    assert browser.evaluate("document.getElementById('filter-tag').value") == "ko"
    assert rows_shown(browser) < browser.evaluate("document.querySelectorAll('tr.case').length")


def test_with_scripts_off_the_whole_list_shows(browser, book):
    browser.send("Emulation.setScriptExecutionDisabled", value=True)
    try:
        browser.open(book / "index.html")
        assert browser.evaluate("document.getElementById('filters').hidden") is True
        assert rows_shown(browser) == browser.evaluate("document.querySelectorAll('tr.case').length") > 50
    finally:
        browser.send("Emulation.setScriptExecutionDisabled", value=False)


def test_hostile_text_shows_as_text_and_nothing_runs(browser, book):
    hostile = ("xss.title.001", "review.disputed.001")
    for page in (*(book / "cases" / f"{c}.html" for c in hostile), book / "index.html"):
        browser.open(page)
        assert browser.evaluate("document.body.dataset.pwned === undefined"), page
        assert browser.dialogs() == []
        assert browser.evaluate("document.querySelectorAll('img, main script').length") == 0
    browser.open(book / "cases" / "xss.title.001.html")
    title = browser.evaluate("document.querySelector('h1').textContent")
    assert "<script>document.body.dataset.pwned='title'</script>" in title and "onerror=" in title
    note = browser.evaluate("document.querySelector('main').textContent")
    assert "<img src=x onerror=\"document.body.dataset.pwned='note-img'\">" in note


NO_CJK_FONTS = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <dir>/usr/share/fonts/truetype/dejavu</dir>
  <dir>/usr/share/fonts/truetype/liberation</dir>
  <cachedir>{cache}</cachedir>
</fontconfig>
"""
SHOWN = (
    ("zh", "cases/ko.simple.001.html"),
    ("zh", "cases/count.area.001.html"),
    ("zh", "index.html"),
    ("zh", "glossary.html"),
    ("en", "cases/ko.simple.001.html"),
    ("en", "index.html"),
)
HAN = re.compile(r"[\u3400-\u9fff]")


def test_both_editions_draw_every_chinese_character_on_a_machine_without_cjk_fonts(book, tmp_path):
    """Chromium with a fontconfig holding no CJK font: every element's Chinese characters are
    drawn with the font the book carries (none falls to a system font, which would draw boxes).
    Screenshots of each page at 390 and 1400 px go to $TEST_ARTEFACTS."""
    if find_source() is None and os.environ.get("CI", "").lower() != "true":
        pytest.skip("no Noto CJK font to cut the book's from (apt-get install fonts-noto-cjk)")
    conf = tmp_path / "fonts.conf"
    conf.write_text(NO_CJK_FONTS.format(cache=tmp_path / "cache"), encoding="utf-8")
    browser = Browser(chromium_or_skip(), env={**os.environ, "FONTCONFIG_FILE": str(conf)})
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    try:
        browser.send("DOM.enable")
        browser.send("CSS.enable")
        for lang, page in SHOWN:
            for width in (390, 1400):
                browser.resize(width, 1000)
                browser.open(book.parent / lang / page)
                assert browser.evaluate(
                    "document.fonts.ready.then(() => document.fonts.check('15px \"JPD Noto Sans SC\"', '中'))"
                )
                checked = 0
                for node, han in _chinese_text_elements(browser.send("DOM.getDocument", depth=-1)["root"]):
                    fonts = browser.send("CSS.getPlatformFontsForNode", nodeId=node["nodeId"])["fonts"]
                    if not fonts:  # not drawn (a hidden element, an option not shown)
                        continue
                    drawn = sum(f["glyphCount"] for f in fonts if f["familyName"].startswith("Noto Sans CJK"))
                    assert drawn >= han, (lang, page, node.get("localName"), fonts)
                    checked += 1
                assert lang == "en" or checked >= 10, (lang, page)
                data = browser.send("Page.captureScreenshot", format="png")["data"]
                name = f"book-{lang}-{page.replace('/', '-').removesuffix('.html')}-{width}.png"
                (ARTEFACTS / name).write_bytes(base64.b64decode(data))
    finally:
        browser.close()


def _chinese_text_elements(node, skip=("script", "style", "title", "svg", "select", "head")):
    """(element, how many Chinese characters its own text nodes hold) for every element of the
    DOM tree ``node`` (DOM.getDocument, depth -1) whose own text is partly Chinese."""
    if node.get("localName") in skip:
        return
    own = "".join(c.get("nodeValue", "") for c in node.get("children", ()) if c.get("nodeType") == 3)
    han = len(HAN.findall(own))
    if han and node.get("nodeType") == 1:
        yield node, han
    for child in node.get("children", ()):
        if child.get("nodeType") in (1, 9):
            yield from _chinese_text_elements(child, skip)
    for child in (node.get("contentDocument"),):
        if child:
            yield from _chinese_text_elements(child, skip)
