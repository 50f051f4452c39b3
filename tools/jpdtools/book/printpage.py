"""The book for print (each edition's ``print/`` folder), which ``jpd book --pdf`` prints: the front
matter (``print/index.html``: the title page with how to cite the book, then the contents), then a
document per chapter (``print/chapter-NN.html``), a chapter being the cases of one case file under
its topic. Cases flow on one after another (the clauses named, not quoted: their text is on the
clause pages); a chapter starts a page. Page numbers are the printer's: the contents shows them when
it is given them (:func:`front_matter` with ``pages``), and a chapter printed with
``?first-page=N`` numbers its pages from N (what :mod:`jpdtools.book.printbook` does)."""

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import PurePath

from jpdtools.book.casepage import case_body, case_title, relative
from jpdtools.book.context import Book
from jpdtools.book.lang import Language
from jpdtools.book.lang.topics import TOPICS_ZH, topic_key
from jpdtools.book.observe import CaseRecord
from jpdtools.book.page import code, esc
from jpdtools.book.printstyle import PRINT_STYLE_FILE
from jpdtools.suite.identity import distribution_version

FRONT = "index.html"
"""The front matter's file in ``print/``."""


@dataclass(frozen=True)
class Chapter:
    number: int
    file: str  # the case file, as the suite names it
    topic: str  # its topic, in English as the file gives it ("" when it gives none)
    records: tuple[CaseRecord, ...]

    @property
    def name(self) -> str:
        """The chapter's document in ``print/``."""
        return f"chapter-{self.number:02d}.html"

    @property
    def anchor(self) -> str:
        return f"chapter-{self.number}"


def chapters(book: Book) -> tuple[Chapter, ...]:
    """The cases of each case file in the suite's order, a chapter per file."""
    topics = {f.path: f.topic or "" for f in book.suite.files}
    by_file: dict[str, list[CaseRecord]] = {}
    for record in book.suite.records:
        by_file.setdefault(record.file, []).append(record)
    return tuple(
        Chapter(n, file, topic_key(topics.get(file, "")), tuple(records))
        for n, (file, records) in enumerate(by_file.items(), 1)
    )


def revision(book: Book) -> str:
    """What a citation names: a digest of what the book claims, the same in both editions — every
    case's revision (its claims, not its wording) and every clause's and open question's."""
    lines = [f"case {r.case.id} {r.case.content_revision}" for r in book.suite.records]
    lines += [f"clause {a} {v}" for a, v in sorted(book.zh_revisions.items())]
    lines += [f"question {a} {v}" for a, v in sorted(book.question_revisions.items())]
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()[:12]


def chapter_title(lang: Language, chapter: Chapter) -> str:
    """The chapter's title as HTML: its topic in ``lang`` (the English, marked, when the topic has
    no rendering), else its file's name."""
    if not chapter.topic:
        return code(PurePath(chapter.file).name)
    return lang.either(chapter.topic, TOPICS_ZH.get(chapter.topic))


def running_footer(book: Book, rev: str) -> str:
    """The line at the foot of every printed page (plain text)."""
    lang = book.lang
    return lang.s("print.footer", book=lang.s("book.title"), edition=lang.s("print.edition"), revision=rev)


def css_string(text: str) -> str:
    """``text`` as a quoted CSS string, safe inside a ``<style>`` element."""
    escaped = "".join(c if c.isalnum() or c in " ·-.,:()" or ord(c) > 127 else f"\\{ord(c):x} " for c in text)
    return f'"{escaped}"'


def _document(book: Book, title: str, body: str, rev: str, numbering: str) -> str:
    """A printed document of ``print/``: the book's style sheet and the print one; no navigation, no
    script but the line that takes the first page's number from the address (``?first-page=N``)."""
    lang = book.lang
    footer = css_string(running_footer(book, rev))
    first = (
        "<script>(function(){var n=parseInt(new URLSearchParams(location.search).get('first-page'),10);"
        "if(n>0)document.write('<style>@page:first{counter-increment:page '+n+'}</style>');})();</script>"
    )
    return (
        f'<!DOCTYPE html>\n<html lang="{lang.html}"><head><meta charset="utf-8">'
        f"<title>{esc(title)} — {lang.t('book.title')}</title>"
        f'<link rel="stylesheet" href="../style.css"><link rel="stylesheet" href="{PRINT_STYLE_FILE}">'
        f"<style>@page{{@bottom-left{{content:{footer}}}"
        f"@bottom-right{{content:counter(page{numbering})}}}}</style>{first}</head>\n"
        f'<body class="print"><main>\n{body}\n</main></body></html>\n'
    )


def chapter_page(book: Book, chapter: Chapter, rev: str) -> str:
    """A chapter's document: its heading and the list of its cases (each a link, which the printer
    also reads to find each case's page), then its cases one after another."""
    lang = book.lang
    title = chapter_title(lang, chapter)
    where = code(relative(chapter.file))
    cases = lang.t("list.sep").join(
        f'<a href="#case-{esc(r.case.id)}" translate="no">{esc(r.case.id)}</a>' for r in chapter.records
    )
    parts = [
        f'<header class="chapter" id="{chapter.anchor}">'
        f'<p class="chapter-number">{lang.t("print.chapter", n=chapter.number)}</p><h1>{title}</h1>'
        f'<p class="legend">{lang.h("print.chapter-file", file=where, n=str(len(chapter.records)))}</p>'
        f'<p class="in-chapter">{lang.t("print.in-chapter")} {cases}</p></header>'
    ]
    for record in chapter.records:
        body = case_body(book, record, clause_texts=False)
        parts.append(f'<article class="case" id="case-{esc(record.case.id)}">{body}</article>')
    plain = PurePath(chapter.file).name if not chapter.topic else chapter.topic
    return _document(book, f"{lang.s('print.chapter', n=chapter.number)} {plain}", "\n".join(parts), rev, "")


def front_matter(
    book: Book, parts: tuple[Chapter, ...], rev: str, pages: Mapping[str, int] | None = None
) -> str:
    """The title page (the book, the edition, how to cite it) and the contents: every chapter and
    case with its page, when ``pages`` (anchor or case id -> page number) gives it."""
    lang = book.lang
    records = book.suite.records

    def page_of(key: str) -> str:
        n = pages.get(key) if pages else None
        return f'<span class="page-ref">{n}</span>' if n is not None else ""

    entries = []
    for chapter in parts:
        cases = "".join(
            f'<li><a href="{chapter.name}#case-{esc(r.case.id)}"><span class="entry">'
            f'<code translate="no">{esc(r.case.id)}</code> {case_title(book, r.case)}</span>'
            f"{page_of(r.case.id)}</a></li>"
            for r in chapter.records
        )
        entries.append(
            f'<li class="chapter"><a href="{chapter.name}#{chapter.anchor}"><span class="entry">'
            f"{lang.t('print.chapter', n=chapter.number)} {chapter_title(lang, chapter)}</span>"
            f'{page_of(chapter.anchor)}</a><ol class="cases">{cases}</ol></li>'
        )
    cite = lang.h(
        "print.cite",
        book=lang.t("book.title"),
        edition=lang.t("print.edition"),
        revision=code(rev),
        version=esc(distribution_version()),
    )
    body = (
        f'<section class="title-page"><h1>{lang.t("index.title")}</h1>'
        f'<p class="edition">{lang.t("print.edition")}</p>'
        f"<p>{lang.t('print.summary', cases=len(records), rulesets=len(book.presets.names))}</p>"
        f'<p class="cite">{cite}</p><p class="legend">{lang.t("print.revision-means")}</p></section>'
        f'<nav class="contents"><h2>{lang.t("print.contents")}</h2>'
        f'<ol class="chapters">{"".join(entries)}</ol></nav>'
    )
    return _document(book, lang.s("print.title"), body, rev, ",lower-roman")
