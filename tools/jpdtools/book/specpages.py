"""The pages of the specification's text: one per clause (its text, the seed articles it rests on,
the cases citing it), an index of them, and each spec document whole. In the Chinese edition a
clause shows its Chinese rendering instead of the English (the English, marked, where there is
none yet)."""

from jpdtools.book import seedpages
from jpdtools.book.context import Book
from jpdtools.book.page import (
    case_href,
    clause_href,
    code,
    esc,
    ident,
    link,
    page,
    slug,
    table,
    ul,
    unquoted,
)
from jpdtools.book.rows import case_rows


def clause_anchors(book: Book) -> list[str]:
    """Every anchored section of the spec but the open questions (those have their own pages)."""
    return [a for a in book.spec.sections if not a.startswith("oq.")]


def citing(book: Book) -> dict[str, list]:
    out: dict[str, list] = {}
    for record in book.suite.records:
        for anchor in record.case.spec:
            out.setdefault(anchor, []).append(record)
    return out


def _decides(book: Book, places: dict[str, dict[str, list[str]]], root: str) -> str:
    """The cases where the clause decides a step or the ending, with where and under which rulesets."""
    lang = book.lang
    everywhere = set(book.presets.names)
    rows = []
    for case_id, where in places.items():
        parts = []
        for at, rulesets in where.items():
            under = lang.s("clause.every-ruleset") if set(rulesets) >= everywhere else ", ".join(rulesets)
            parts.append(f"{esc(_where(lang, at))} ({esc(under)})")
        rows.append((link(case_href(case_id, root), case_id), "; ".join(parts)))
    head = [lang.t("col.case"), lang.t("clause.where-decides")]
    return table(head, rows) if rows else f"<p>{lang.t('none')}</p>"


def _where(lang, at: str) -> str:
    """``step 2`` / ``end`` (:func:`jpdtools.book.decisions.decided`) in ``lang``."""
    if at.startswith("step "):
        return lang.s("clause.at-step", n=at.removeprefix("step "))
    return lang.s("clause.at-end") if at == "end" else at


def clause_page(book: Book, anchor: str, cited: list, decides: dict | None = None) -> str:
    lang = book.lang
    here = f"clauses/{slug(anchor)}.html"
    root = "../"
    s = book.spec.sections[anchor]
    fragment = f"#{anchor}" if s.level else ""
    doc = link(f"{root}spec/{slug(s.file)}.html{fragment}", lang.s("clause.where", file=s.file, line=s.line))
    seeds = seedpages.clause_sentences(book, anchor, root)  # the sentences resting on it
    body = [
        f"<h1>{code(anchor)} — {book.clause_heading(anchor)}</h1><p>{doc}</p>",
        f'<div class="spec">{book.clause_html(anchor, root)}</div>',
        f"<h2>{lang.t('clause.seeds')}</h2>",
        ul(seeds) if seeds else f"<p>{lang.h('clause.no-seeds', file=code('spec/sources.yaml'))}</p>",
        f"<h2>{lang.t('clause.citing', n=len(cited))}</h2>",
        case_rows(book, cited, root),
        f"<h2>{lang.t('clause.deciding', n=len(decides or {}))}</h2>",
        _decides(book, decides or {}, root),
    ]
    heading = book.zh_heading(anchor) or s.heading
    return page(lang, f"{anchor} — {unquoted(heading)}", "".join(body), here)


def clause_index(book: Book, cited: dict[str, list]) -> str:
    lang = book.lang
    root = "../"
    out = [f"<h1>{lang.t('nav.clauses')}</h1><p>{lang.t('clause.index.intro')}</p>"]
    by_doc: dict[str, list[str]] = {}
    for anchor in clause_anchors(book):
        by_doc.setdefault(book.spec.sections[anchor].file, []).append(anchor)
    for doc, anchors in by_doc.items():
        title = book.spec.documents[doc].title
        out.append(
            f"<h2>{link(f'{root}spec/{slug(doc)}.html', doc)} — {book.document_title(doc, title)}</h2>"
        )
        rows = [
            (ident(clause_href(a, root), a), book.clause_heading(a), str(len(cited.get(a, []))))
            for a in anchors
        ]
        out.append(table([lang.t("col.clause"), lang.t("col.heading"), lang.t("col.cases")], rows))
    return page(lang, lang.s("nav.clauses"), "".join(out), "clauses/index.html")


def document_page(book: Book, name: str) -> str:
    root = "../"
    html = book.document_html(name, root)
    return page(
        book.lang,
        f"spec/{name}",
        f'<p class="crumb">spec/{esc(name)}</p><div class="spec">{html}</div>',
        f"spec/{slug(name)}.html",
    )
