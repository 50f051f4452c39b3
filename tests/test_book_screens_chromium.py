"""Every screen of the book: one page of every page kind of both editions, loaded in headless
Chromium at 390 px (a phone) and 1400 px, scrolls only up and down — no page is wider than the
window (a wide table scrolls inside its own box). The kinds are read off the built book, so a new
kind of page is checked as soon as the book writes it; a screenshot of each goes to
$TEST_ARTEFACTS (test-artefacts/) to be looked at. Skipped when Chromium is missing — except in CI
(``CI=true``), where that fails.
"""

import base64
import os
from pathlib import Path

import pytest
from chromium_driver import Browser, chromium_or_skip

ARTEFACTS = Path(os.environ.get("TEST_ARTEFACTS", Path(__file__).resolve().parent.parent / "test-artefacts"))
SAMPLE = Path(__file__).resolve().parents[1] / "benchmarks" / "corpus" / "gnugo-sample.tar.xz"
WIDTHS = (390, 1400)
CASES = {  # the case pages differ by what the case does
    "case-play": "cases/ko.simple.001.html",
    "case-count": "cases/count.area.001.html",
    "case-settle": "cases/settle.art-2008.ko.claim-upheld.html",
}
KINDS = {  # every kind of page the book writes (a test below holds the book to this list)
    "index",
    "glossary",
    "playground",
    "print",
    *CASES,
    "clauses",
    "clause",
    "spec",
    "questions",
    "question",
    "seeds",
    "seed",
    "study",
    "study-cause",
    "rulesets",
    "ruleset",
    "differences",
    "difference",
}


@pytest.fixture
def book(three_file_book):  # tests/conftest.py (one xdist group with the other file that reads it)
    return three_file_book


def page_kinds(edition: Path) -> dict[str, str]:
    """kind -> the path (inside the edition) of one page of that kind: a folder's index is one
    kind, its other pages another (the first by name); the case pages as CASES says."""
    kinds = {p.stem: p.name for p in edition.glob("*.html")} | {"print": "print/index.html"}
    names = {"cases": None, "clauses": "clause", "spec": "spec", "questions": "question", "seeds": "seed"}
    names |= {"study": "study-cause", "rulesets": "ruleset", "differences": "difference"}
    for folder in sorted(p for p in edition.iterdir() if p.is_dir() and p.name not in ("print", "fonts")):
        assert folder.name in names, f"a kind of page the test does not know: {folder.name}/"
        pages = sorted(p.name for p in folder.glob("*.html"))
        if folder.name == "cases":
            kinds |= {kind: path for kind, path in CASES.items() if Path(path).name in pages}
            continue
        if "index.html" in pages:
            kinds[folder.name] = f"{folder.name}/index.html"
        others = [p for p in pages if p != "index.html"]
        if others:
            kinds[names[folder.name]] = f"{folder.name}/{others[0]}"
    return kinds


def test_the_book_writes_every_kind_of_page_the_test_checks(book):
    for lang in ("en", "zh"):
        assert set(page_kinds(book / lang)) == KINDS, lang


WIDEST = """(() => {
  const view = document.documentElement.clientWidth, out = [];
  for (const e of document.querySelectorAll('body *')) {
    const r = e.getBoundingClientRect();
    if (r.width > 0 && r.right > view + 1) out.push(e.tagName.toLowerCase() + ' ' + Math.round(r.right));
  }
  return [document.documentElement.scrollWidth, view, out.slice(0, 5)];
})()"""


def test_no_page_is_wider_than_the_window(book):
    """scrollWidth ≤ the window's width (its scroll bar left out) on the front door and one page
    of every kind of both editions, at 390 and 1400 px; the screenshots go to test-artefacts/."""
    browser = Browser(chromium_or_skip())
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    wide = []
    try:
        for width in WIDTHS:
            browser.resize(width, 900)
            shown = [("front", book / "index.html")]
            for lang in ("en", "zh"):
                shown += [
                    (f"{lang}-{kind}", book / lang / path) for kind, path in page_kinds(book / lang).items()
                ]
            for name, path in shown:
                browser.open(path)
                scroll, view, widest = browser.evaluate(WIDEST)
                if scroll > view:
                    wide.append((width, name, scroll, view, widest))
                data = browser.send("Page.captureScreenshot", format="png")["data"]
                (ARTEFACTS / f"screen-{name}-{width}.png").write_bytes(base64.b64decode(data))
    finally:
        browser.close()
    assert wide == []
