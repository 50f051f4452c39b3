"""``jpd book --pdf``: both editions printed by Chromium chapter by chapter and joined, read back
with pypdf as a reader would read them — a number at the foot of every page, a contents whose
pages are where the cases are, how to cite the book on its first page, the Chinese text drawn with
the book's own font on a machine without CJK fonts, no link to the files it was printed from.
Pages of both editions are rendered to PNG (pdftoppm) in $TEST_ARTEFACTS. Skipped without
Chromium — except in CI (``CI=true``), where that fails.

Extracting a page's text is what costs, so each edition is read once for the module and each
page's text extracted once (:class:`Edition`), without the lines of its content that only draw —
the boards' lines and stones, which give no text (:func:`text_only`).
"""

import functools
import os
import re
import shutil
import subprocess
from pathlib import Path

import pypdf
import pytest
from book_helpers import build_book
from chromium_driver import Browser, chromium_or_skip
from jpdtools.book.devtools import Printer
from jpdtools.book.font import find_source
from jpdtools.book.lang import EN, ZH
from jpdtools.errors import InputError
from jpdtools.paths import conformance_dir
from jpdtools.run.runner import Filters
from pypdf.generic import ContentStream, NameObject
from test_book_chromium import ARTEFACTS, NO_CJK_FONTS

pytestmark = pytest.mark.slow

FILES = ("board19.yaml", "count-area.yaml", "ko.yaml")
CHOSEN = Filters(ids=("b19.illegal.ko.001", "count.area.00[12]", "ko.simple.00[1-4]"))
CASES = ("b19.illegal.ko.001", "count.area.001", "count.area.002", *(f"ko.simple.00{n}" for n in range(1, 5)))
HAN = re.compile(r"[\u3400-\u9fff]")


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    """Both editions of a book of three chapters, printed under a fontconfig without CJK fonts."""
    if find_source() is None and os.environ.get("CI", "").lower() != "true":
        pytest.skip("no Noto CJK font to cut the book's from (apt-get install fonts-noto-cjk)")
    chromium_or_skip()
    root = tmp_path_factory.mktemp("pdf-book")
    conf = root / "fonts.conf"
    conf.write_text(NO_CJK_FONTS.format(cache=root / "cache"), encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FONTCONFIG_FILE", str(conf))
        report = build_book(root / "book", [conformance_dir() / f for f in FILES], CHOSEN, pdf=True)
    assert report.pdfs == (root / "book" / "en" / "book.pdf", root / "book" / "zh" / "book.pdf")
    return root / "book"


def compact(text: str) -> str:
    return re.sub(r"\s+", "", text)


NUMBER = rb"[-+]?(?:\d+\.?\d*|\.\d+)"
PAINTING = rb"(?:[mlcvyhSsfFBbnWwJjMiGgKk]|re|RG|rg|[fBbW]\*)"
DRAWING = re.compile(rb"^(?:(?:%s )*%s )*(?:%s )*%s\n" % (NUMBER, PAINTING, NUMBER, PAINTING), re.M)
"""A line of a page's content that only draws: numbers and path, painting, clipping, colour or line
operators, which text extraction passes over. Chromium draws each board's lines and stones with
thousands of them, and parsing them is most of what extracting a page's text costs."""
NOT_BY_LINES = re.compile(rb"\(|\bBI\b|<[^>\n]*\n")
"""A literal string, an inline image, or a hex string or dictionary running on past its line: a line
of content inside one is not an operator's, so such content is read whole."""


def text_only(reader: "pypdf.PdfReader", index: int) -> "pypdf.PageObject":
    """Page ``index`` without the lines of its content that only draw (:data:`DRAWING`): the same
    text, drawn with the same fonts at the same places, for pypdf to extract at half the cost."""
    page = reader.pages[index]
    content = page.get_contents()
    if content is None or NOT_BY_LINES.search(data := content.get_data()):
        return page
    text = ContentStream(None, reader, "bytes")  # as pypdf reads a page's content to extract its text
    text.set_data(DRAWING.sub(b"", data))
    copy = pypdf.PageObject(reader)
    copy.update(page)
    copy[NameObject("/Contents")] = text
    return copy


class Edition:
    """One edition's PDF, read once: its reader, and each page's text and the fonts its Chinese
    characters are drawn with (font name -> characters), extracted once, when a test first asks."""

    def __init__(self, path: Path):
        self.reader = pypdf.PdfReader(path)
        self._pages: dict[int, tuple[str, dict[str, int]]] = {}

    def text(self, index: int) -> str:
        return self._page(index)[0]

    def fonts(self, index: int) -> dict[str, int]:
        return self._page(index)[1]

    def _page(self, index: int) -> tuple[str, dict[str, int]]:
        if index not in self._pages:
            fonts: dict[str, int] = {}

            def visit(text, _cm, _tm, font, _size):
                han = len(HAN.findall(text))
                if han and font is not None:
                    descriptor = font.get("/FontDescriptor")
                    name = descriptor.get_object().get("/FontName") if descriptor else font.get("/BaseFont")
                    fonts[str(name).split("+")[-1]] = fonts.get(str(name).split("+")[-1], 0) + han

            text = text_only(self.reader, index).extract_text(visitor_text=visit)
            self._pages[index] = text, fonts
        return self._pages[index]


@pytest.fixture(scope="module")
def editions(book) -> dict:
    return {lang: Edition(book / lang.code / "book.pdf") for lang in (EN, ZH)}


def revision_of(edition: Edition) -> str:
    found = re.search(r"([0-9a-f]{12})", edition.text(0))
    assert found, "no revision on the title page"
    return found.group(1)


FOOTER = {
    EN: "jipingdian case book · English edition · revision {rev}",
    ZH: "计枰点案例集 · 中文版 · 修订 {rev}",
}


@pytest.mark.parametrize("lang", [EN, ZH], ids=["en", "zh"])
def test_every_page_carries_its_number_and_the_running_footer(editions, lang):
    edition = editions[lang]
    labels = edition.reader.page_labels
    front = [label for label in labels if not label.isdigit()]
    assert front and front == ["i", "ii", "iii", "iv", "v"][: len(front)], labels  # roman, then 1, 2, …
    assert labels[len(front) :] == [str(n) for n in range(1, len(labels) - len(front) + 1)]
    footer = compact(FOOTER[lang].format(rev=revision_of(edition)))
    for index in range(len(edition.reader.pages)):
        text = compact(edition.text(index))
        label = labels[index]
        assert footer in text, (index, text[:200])
        assert text.startswith(label + footer) or text.endswith(footer + label), (index, label, text[:200])
        assert len(text) - len(footer) - len(label) > 20, f"page {label} is blank"


def contents(edition: Edition, front_pages: int) -> dict[str, str]:
    """Each case id of the contents and the page number it gives (the last number of its entry)."""
    text = "\n".join(edition.text(i) for i in range(front_pages))
    text = text[text.index(CASES[0]) :]
    found = {}
    for case in CASES:
        start = text.index(case)
        rest = text[start + len(case) :]
        ends = [rest.find(other) for other in (*CASES, "Chapter", "第") if rest.find(other) > 0]
        entry = rest[: min(ends)] if ends else rest
        found[case] = re.findall(r"(\d+)\s*$", entry.strip())[0]
    return found


@pytest.mark.parametrize("lang", [EN, ZH], ids=["en", "zh"])
def test_the_contents_gives_the_page_of_every_case(editions, lang):
    edition = editions[lang]
    reader = edition.reader
    labels = reader.page_labels
    front_pages = sum(1 for label in labels if not label.isdigit())
    pages = contents(edition, front_pages)
    assert set(pages) == set(CASES)
    texts = functools.cache(lambda i: compact(edition.text(i)))
    for case, number in pages.items():
        index = labels.index(number)
        heading = compact(f"{case} —")
        assert heading in texts(index), (case, number)
        before = "".join(texts(i) for i in range(front_pages, index))
        assert heading not in before, f"{case} is on a page before {number}"
    # the chapters in order, each starting a page; the cases of a chapter flow on without breaks
    assert int(pages["b19.illegal.ko.001"]) == 1
    assert int(pages["count.area.001"]) < int(pages["count.area.002"]) < int(pages["ko.simple.001"])
    simple = [int(pages[f"ko.simple.00{n}"]) for n in range(1, 5)]
    assert simple == sorted(simple) and simple[-1] - simple[0] < 4 * 4
    # the outline a PDF reader shows leads to the same pages
    outline = {}

    def walk(items):
        for item in items:
            if isinstance(item, list):
                walk(item)
            else:
                outline[item.title.split(" ")[0]] = labels[reader.get_destination_page_number(item)]

    walk(reader.outline)
    assert {case: outline[case] for case in CASES} == pages


def test_the_title_page_says_how_to_cite_the_book(editions):
    en, zh = editions[EN], editions[ZH]
    rev = revision_of(en)
    assert revision_of(zh) == rev  # one revision: what the book claims, in either language
    title = compact(en.text(0))
    assert compact(f"Cite as: jipingdian case book, English edition, revision {rev} (jipingdian") in title
    assert compact("7 cases under 12 rulesets") in title
    title = compact(zh.text(0))
    assert compact(f"引用本书：计枰点案例集，中文版，修订 {rev}（jipingdian") in title
    assert compact("目录") in title


def test_the_chinese_edition_is_chinese_and_drawn_with_the_books_font(editions):
    """Printed under a fontconfig without CJK fonts, so a Chinese character not drawn with the
    font the book carries would be a box."""
    edition = editions[ZH]
    indices = range(len(edition.reader.pages))
    whole = compact("".join(edition.text(i) for i in indices))
    for text in ("第1章", "在棋盘中央立即回提单子劫", "初始局面", "判定：每个规则集在每一步"):
        assert compact(text) in whole
    fonts: dict[str, int] = {}
    for i in indices:
        for name, han in edition.fonts(i).items():
            fonts[name] = fonts.get(name, 0) + han
    assert sum(fonts.values()) > 1000
    assert set(fonts) == {"NotoSansCJKsc-Regular"}, fonts


@pytest.mark.parametrize("lang", [EN, ZH], ids=["en", "zh"])
def test_links_lead_inside_the_pdf_never_to_the_files_it_was_printed_from(editions, lang):
    inside = 0
    for page in editions[lang].reader.pages:
        for ref in page.get("/Annots") or ():
            action = ref.get_object().get("/A")
            if action is None:
                continue
            action = action.get_object()
            assert not str(action.get("/URI", "")).startswith("file:"), action
            if action.get("/S") == "/GoTo":
                inside += 1
    assert inside >= len(CASES) + 3  # at least the contents' entries


def test_boards_fit_the_page_at_a_third_of_its_height_or_less(book):
    """The print documents at the A4 text width (184 mm) in print media: no board or table wider
    than the page, a 19×19 board 55–90 mm wide (the page's text is 267 mm tall), a 7×7 one at least
    25 mm, and no case forcing a page break."""
    browser = Browser(chromium_or_skip())
    mm = 96 / 25.4
    try:
        browser.send("Emulation.setEmulatedMedia", media="print")
        browser.resize(round(184 * mm), 1000)
        widths: dict[str, list[float]] = {}
        for lang in (EN, ZH):
            for document in sorted((book / lang.code / "print").glob("chapter-*.html")):
                browser.open(document)
                page = browser.evaluate("document.documentElement.clientWidth")
                boxes = browser.evaluate(
                    "[...document.querySelectorAll('svg.board, table, pre')].map(e => [e.localName, "
                    "e.dataset.size || '', e.getBoundingClientRect().right, e.getBoundingClientRect().width])"
                )
                for name, size, right, width in boxes:
                    assert right <= page + 0.5, (lang.code, document.name, name, size, right, page)
                    if name == "svg":
                        widths.setdefault(size, []).append(width / mm)
                breaks = browser.evaluate(
                    "[...document.querySelectorAll('article.case, table.matrix')]"
                    ".map(e => getComputedStyle(e).breakBefore + ' ' + getComputedStyle(e).breakInside)"
                )
                assert breaks and set(breaks) == {"auto auto"}, breaks
    finally:
        browser.close()
    assert all(55 <= w <= 90 for w in widths["19x19"]), widths["19x19"]
    assert all(w >= 25 for w in widths["7x7"]), widths["7x7"]


def test_pages_of_both_editions_as_pictures(book):
    """The first pages of each edition as PNG in $TEST_ARTEFACTS, to look at."""
    pdftoppm = shutil.which("pdftoppm")
    if pdftoppm is None:
        message = "pdftoppm is not installed (apt-get install poppler-utils)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    for lang in (EN, ZH):
        prefix = ARTEFACTS / f"book-pdf-{lang.code}"
        subprocess.run(
            [
                pdftoppm,
                "-r",
                "60",
                "-png",
                "-f",
                "1",
                "-l",
                "6",
                str(book / lang.code / "book.pdf"),
                str(prefix),
            ],
            check=True,
        )
        assert len(list(ARTEFACTS.glob(f"book-pdf-{lang.code}-*.png"))) >= 6


def test_a_print_that_outlasts_its_time_is_a_clear_error():
    chromium_or_skip()
    with pytest.raises(InputError, match=r"Chromium did not finish .* within 0\.01 s"):
        Printer(timeout=0.01)
