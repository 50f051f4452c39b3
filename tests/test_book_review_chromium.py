# ruff: noqa: E501 -- browser expressions are kept whole
"""The reviewer's loop in a real browser: follow the switch to the Chinese edition, read a case and its operative
sentence, dispute one ruleset's verdict with a comment, export the review file, jpd review apply,
rebuild, and see the dispute. Screenshots go to $TEST_ARTEFACTS (default: test-artefacts/)."""

import base64
import json
import os
import shutil
import time
from pathlib import Path

import pytest
from book_helpers import build_book
from chromium_driver import Browser, chromium_or_skip
from jpdtools.book.lang import LANGUAGES, missing
from jpdtools.cli import main
from jpdtools.paths import conformance_dir
from jpdtools.presets import load_presets
from jpdtools.suite.loader import load_case_file

ARTEFACTS = Path(os.environ.get("TEST_ARTEFACTS", Path(__file__).resolve().parent.parent / "test-artefacts"))


def test_every_string_is_in_both_catalogues():
    assert missing() == {}
    assert set(LANGUAGES) == {"en", "zh"}


def shot(browser, name: str) -> Path:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    data = browser.send("Page.captureScreenshot", format="png", captureBeyondViewport=False)["data"]
    path = ARTEFACTS / f"{name}.png"
    path.write_bytes(base64.b64decode(data))
    return path


@pytest.fixture
def browser():
    b = Browser(chromium_or_skip())
    yield b
    b.close()


def test_a_reviewer_disputes_a_verdict_and_the_rebuilt_book_shows_it(tmp_path, browser, capsys):
    suite = tmp_path / "suite"
    suite.mkdir()
    shutil.copy(conformance_dir() / "ko.yaml", suite / "ko.yaml")
    book = tmp_path / "book"
    build_book(book, [suite / "ko.yaml"])
    browser.resize(1400, 1000)
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    browser.send("Page.setDownloadBehavior", behavior="allow", downloadPath=str(downloads))
    browser.open(book / "en" / "cases" / "ko.simple.001.html")
    browser.evaluate("localStorage.clear()")
    switch = browser.evaluate("document.querySelector('nav a.lang').getAttribute('href')")
    assert switch == "../../zh/cases/ko.simple.001.html"
    browser.open(book / "zh" / "cases" / "ko.simple.001.html")
    assert browser.evaluate("document.documentElement.lang") == "zh-Hans"
    # the page is Chinese as written; the seed sentence the verdict rests on (the ko rule) comes
    # first, the forfeit's (001 第十五条/8) among the others
    assert browser.evaluate("[...document.querySelectorAll('h2')].some(h => h.textContent === '依据')")
    operative = browser.evaluate(
        "[...document.querySelectorAll('blockquote.operative')].map(b => b.textContent)"
    )
    assert operative[0] == "当一方提劫后，另一方不得立即回提同一个劫。"
    assert "3、一方违反规则被判负时，棋局为终止。" in operative
    browser.evaluate("document.getElementById('rv-name').value = '李明'")
    browser.evaluate("document.getElementById('rv-scope').value = 'jpd-2022'")
    browser.evaluate("document.querySelector('input[name=rv-action][value=dispute]').checked = true")
    browser.evaluate("document.getElementById('rv-text').value = '第2步应判负，不只是禁着'")
    browser.evaluate("document.getElementById('rv-record').click()")
    assert "dispute" in browser.evaluate("document.getElementById('rv-list').textContent")
    browser.evaluate("document.getElementById('review-panel').scrollIntoView()")
    shot(browser, "review-1-chinese-dispute-recorded")
    browser.evaluate("document.getElementById('rv-export').click()")
    deadline = time.time() + 20
    while time.time() < deadline and not list(downloads.glob("*.json")):
        time.sleep(0.2)
    (exported,) = downloads.glob("*.json")
    data = json.loads(exported.read_text(encoding="utf-8"))
    assert data["reviewer"] == "李明" and data["entries"][0]["ruleset"] == "jpd-2022"
    revision = data["entries"][0]["revision"]  # the page's revision goes with the vote
    case = next(c for c in load_case_file(suite / "ko.yaml", load_presets()).cases if c.id == "ko.simple.001")
    assert revision == case.content_revision
    # one member of the quorum of two (spec/review-policy.yaml): the case stays proposed, and says so
    assert main(["review", "apply", str(exported), "--suite", str(suite)]) == 0
    assert "case ko.simple.001 on jpd-2022: stays proposed (1 of 2 for disputed)" in capsys.readouterr().out
    assert "decided-by: 李明" not in (suite / "ko.yaml").read_text(encoding="utf-8")
    build_book(book, [suite / "ko.yaml"])
    browser.open(book / "zh" / "cases" / "ko.simple.001.html")
    row = browser.evaluate(
        "[...document.querySelectorAll('table.verdicts th')].find(t => t.textContent.startsWith('jpd-2022')).textContent"
    )
    assert "待审" in row and "1/2 票" in row and "有异议" in row
    # a second member agrees, on the same revision: the dispute is decided
    second = dict(data, reviewer="王芳", entries=[dict(data["entries"][0], text="同意")])
    (tmp_path / "second.json").write_text(json.dumps(second, ensure_ascii=False), encoding="utf-8")
    assert main(["review", "apply", str(tmp_path / "second.json"), "--suite", str(suite)]) == 0
    capsys.readouterr()
    assert "decided-by: 李明, 王芳" in (suite / "ko.yaml").read_text(encoding="utf-8")
    build_book(book, [suite / "ko.yaml"])
    browser.open(book / "zh" / "cases" / "ko.simple.001.html")
    assert browser.evaluate("document.documentElement.lang") == "zh-Hans"
    review = browser.evaluate(
        "[...document.querySelectorAll('h2')].find(h => h.textContent === '审议').parentElement.textContent"
    )
    assert "第2步应判负，不只是禁着" in review and "李明" in review
    row = browser.evaluate(
        "[...document.querySelectorAll('table.verdicts th')].find(t => t.textContent.startsWith('jpd-2022')).textContent"
    )
    assert "有异议" in row
    browser.evaluate(
        "[...document.querySelectorAll('h3')].find(h => h.textContent.includes('jpd-2022')).scrollIntoView()"
    )
    shot(browser, "review-2-rebuilt-book-shows-the-dispute")
    browser.evaluate("window.scrollTo(0, 0)")
    shot(browser, "review-3-case-page-top")
    # the case is edited: its decision was taken on an earlier revision and no longer counts
    text = (suite / "ko.yaml").read_text(encoding="utf-8")
    edited = text.replace("play.illegal, oq.27, oq.9]", "play.illegal, oq.9, oq.27]", 1)  # the clauses cited
    assert edited != text
    (suite / "ko.yaml").write_text(edited, encoding="utf-8")
    build_book(book, [suite / "ko.yaml"])
    browser.open(book / "zh" / "cases" / "ko.simple.001.html")
    row = browser.evaluate(
        "[...document.querySelectorAll('table.verdicts th')].find(t => t.textContent.startsWith('jpd-2022')).textContent"
    )
    assert "待审" in row and "系对早先版本作出的决定" in row
    browser.evaluate(
        "[...document.querySelectorAll('h3')].find(h => h.textContent.includes('jpd-2022')).scrollIntoView()"
    )
    shot(browser, "review-4-decided-on-an-earlier-revision")
