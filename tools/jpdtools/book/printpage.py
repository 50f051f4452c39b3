"""The whole book as one printable document (``print/book.html``), which ``jpd book --pdf`` prints:
a title page, the contents, then every case page, each starting on a new sheet (the clauses named,
not quoted: their text is on the clause pages)."""

from jpdtools.book.casepage import case_body
from jpdtools.book.context import Book
from jpdtools.book.page import esc, page

ROOT = "../"


def print_page(book: Book) -> str:
    records = book.suite.records
    contents = "".join(
        f'<li><a href="#case-{esc(r.case.id)}">{esc(r.case.id)}</a> — {esc(r.case.title)}</li>'
        for r in records
    )
    parts = [
        '<section class="title-page"><h1>The jipingdian case book</h1>'
        f"<p>{len(records)} cases under {len(book.presets.names)} rulesets.</p>"
        f'<h2>Contents</h2><ol class="contents">{contents}</ol></section>'
    ]
    for record in records:
        body = case_body(book, record, clause_texts=False)
        parts.append(f'<article class="case" id="case-{esc(record.case.id)}">{body}</article>')
    return page("The case book, for print", "\n".join(parts), ROOT)
