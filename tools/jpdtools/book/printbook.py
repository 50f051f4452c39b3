"""``jpd book --pdf``: each edition's ``print/`` documents printed by Chromium and joined into
``book.pdf`` (``en/book.pdf``, ``zh/book.pdf``).

Each chapter is printed by itself, in order, its pages numbered on from the chapter before
(``?first-page=N``): a print's memory is given back when it ends, so the whole suite prints in
bounded memory. Where each case fell is read from the print (the chapter's list of its cases
links to each, and Chromium writes where the links lead); the front matter is then
written again with the page of every chapter and case in its contents, printed with its pages
numbered i, ii, …, and put first. The joined PDF carries page labels as printed, an outline of the
chapters and cases, and its links kept inside it.
"""

import tempfile
from collections.abc import Callable
from pathlib import Path
from urllib.parse import unquote, urlsplit

from jpdtools.book.context import Book
from jpdtools.book.devtools import Printer
from jpdtools.book.lang.topics import TOPICS_ZH
from jpdtools.book.page import slug
from jpdtools.book.pdf import PRINT_TIMEOUT, Labels, Mark, Printed, join, print_document
from jpdtools.book.printpage import FRONT, Chapter, chapters, front_matter, revision

PDF_FILE = "book.pdf"
"""The printed book, in each edition's folder."""

Told = Callable[[int, int], None]
"""Told (documents printed, documents to print)."""


def print_edition(
    book: Book, edition: Path, told: Told | None = None, timeout: float = PRINT_TIMEOUT
) -> Path:
    """Print the edition of ``book.lang`` written in ``edition`` (its ``print/`` folder) to
    ``edition/book.pdf`` with one Chromium; returns that path. ``timeout``: the seconds Chromium may
    take to load or to print one document."""
    parts = chapters(book)
    rev = revision(book)
    total = len(parts) + 1
    folder = edition / "print"
    pages: dict[str, int] = {}
    printed: list[Printed] = []
    with tempfile.TemporaryDirectory(prefix="jpd-print-") as scratch, Printer(timeout) as printer:
        first = 1
        for n, chapter in enumerate(parts, 1):
            url = (folder / chapter.name).resolve().as_uri() + f"?first-page={first}"
            done = print_document(printer, url, Path(scratch) / f"{chapter.number:03d}.pdf")
            pages.update(_placed(chapter, done, first))
            printed.append(done)
            first += done.pages
            if told is not None:
                told(n, total)
        front = folder / FRONT
        front.write_text(front_matter(book, parts, rev, pages), encoding="utf-8")
        opening = print_document(printer, front.resolve().as_uri(), Path(scratch) / "000.pdf")
        if told is not None:
            told(total, total)
        offset = opening.pages  # the front matter's pages come first
        marks = [Mark(book.lang.s("print.contents"), 0)]
        for chapter in parts:
            marks.append(Mark(_chapter_mark(book, chapter), offset + pages[chapter.anchor] - 1))
            for record in chapter.records:
                if record.case.id in pages:
                    marks.append(Mark(_case_mark(book, record), offset + pages[record.case.id] - 1, 1))
        out = edition / PDF_FILE
        join(
            [opening, *printed],
            out,
            marks=marks,
            labels=[Labels(0, roman=True), Labels(offset, roman=False)],
            target=_target(book, parts, pages, offset),
            title=f"{book.lang.s('book.title')} · {book.lang.s('print.edition')} · {rev}",
            lang=book.lang.html,
        )
    return out


def _placed(chapter: Chapter, done: Printed, first: int) -> dict[str, int]:
    """The page number of the chapter and of each of its cases."""
    placed = {chapter.anchor: first}
    for record in chapter.records:
        page = done.places.get(f"case-{record.case.id}")
        if page is not None:
            placed[record.case.id] = first + page
    return placed


def _chapter_mark(book: Book, chapter: Chapter) -> str:
    lang = book.lang
    topic = chapter.topic or Path(chapter.file).name
    shown = TOPICS_ZH.get(topic, topic) if lang.code != "en" else topic
    return f"{lang.s('print.chapter', n=chapter.number)} {shown}"


def _case_mark(book: Book, record) -> str:
    case = record.case
    title = getattr(case, "zh_title", None) if book.lang.code != "en" else None
    return f"{case.id} — {title or case.title}"


def _target(book: Book, parts: tuple[Chapter, ...], pages: dict[str, int], offset: int):
    """Where a link to a file leads in the joined PDF: a case's page (its page in the book, or its
    entry in a chapter), a chapter's first page; None for anything else (a clause, a seed: pages of
    the book on screen)."""
    by_file = {c.name: c for c in parts}
    by_slug = {slug(r.case.id): r.case.id for r in book.suite.records}

    def target(uri: str) -> int | None:
        split = urlsplit(uri)
        path = unquote(split.path)
        fragment = unquote(split.fragment)
        key = None
        name = path.rsplit("/", 1)[-1]
        if not path and fragment.startswith("case-"):  # a chapter's link to one of its cases
            key = fragment.removeprefix("case-")
        elif "/print/" in path and name in by_file:
            key = fragment.removeprefix("case-") if fragment.startswith("case-") else by_file[name].anchor
        elif "/cases/" in path and name.endswith(".html"):
            key = by_slug.get(name.removesuffix(".html"))
        return offset + pages[key] - 1 if key in pages else None

    return target
