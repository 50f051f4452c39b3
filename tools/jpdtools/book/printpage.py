"""The whole book as one printable document (``print/book.html`` of each edition), which
``jpd book --pdf`` prints: a title page, the contents, then every case page, each starting on a
new sheet (the clauses named, not quoted: their text is on the clause pages)."""

from jpdtools.book.casepage import case_body, case_title
from jpdtools.book.context import Book
from jpdtools.book.page import esc, page


def print_page(book: Book) -> str:
    lang = book.lang
    records = book.suite.records
    contents = "".join(
        f'<li><a href="#case-{esc(r.case.id)}">{esc(r.case.id)}</a> — {case_title(book, r.case)}</li>'
        for r in records
    )
    parts = [
        f'<section class="title-page"><h1>{lang.t("index.title")}</h1>'
        f"<p>{lang.t('print.summary', cases=len(records), rulesets=len(book.presets.names))}</p>"
        f'<h2>{lang.t("print.contents")}</h2><ol class="contents">{contents}</ol></section>'
    ]
    for record in records:
        body = case_body(book, record, clause_texts=False)
        parts.append(f'<article class="case" id="case-{esc(record.case.id)}">{body}</article>')
    return page(lang, lang.s("print.title"), "\n".join(parts), "print/book.html")
