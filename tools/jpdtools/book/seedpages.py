"""The seed-article pages: the quotation, the clauses implementing the article, the cases citing
it; and an index of every source's articles. Quotations stay as their sources wrote them."""

from jpdtools.book.context import Book
from jpdtools.book.page import clause_href, code, esc, link, page, seed_href, slug, table, ul
from jpdtools.book.rows import case_rows
from jpdtools.book.seeds import SeedArticle


def citing_article(book: Book) -> dict[str, list]:
    out: dict[str, list] = {}
    for record in book.suite.records:
        for citation in record.case.seeds:
            for article in book.seeds.find(citation):
                if record not in out.setdefault(article.id, []):
                    out[article.id].append(record)
    return out


def _quote(text: str) -> str:
    """A quotation as its source wrote it (the seeds are Chinese; a public source's own words
    carry their language in spec/sources.yaml — until then they are marked as the seeds')."""
    return f'<blockquote lang="zh-Hans">{esc(text)}</blockquote>'


def article_page(book: Book, article: SeedArticle, cited: list) -> str:
    lang = book.lang
    root = "../"
    clauses = [
        link(clause_href(a, root), a) + (f" — {book.clause_heading(a)}" if a in book.spec.sections else "")
        for a in article.clauses
    ]
    body = [f"<h1>{esc(article.id)}</h1>"]
    if article.source_title:
        body.append(f'<p lang="zh-Hans">{esc(article.source_title)}</p>')
    if len(article.sentences) > 1:
        body.append(f"<p>{lang.t('seed.sentences')}</p>")
        for label, quote in article.sentences:
            body.append(f'<h3 id="s-{esc(label)}">{esc(article.id)} {esc(label)}</h3>{_quote(quote)}')
    elif article.quote:
        body.append(_quote(article.quote))
    if not article.listed:
        body.append(f"<p>{lang.h('seed.unlisted', file=code('spec/sources.yaml'))}</p>")
    if article.non_normative:
        body.append(f"<p>{lang.t('seed.non-normative')} {lang.fallback(article.non_normative)}</p>")
    body += [f"<h2>{lang.t('seed.clauses')}</h2>", ul(clauses)]
    body += [f"<h2>{lang.t('seed.citing', n=len(cited))}</h2>", case_rows(book, cited, root)]
    testing = [r for r in book.suite.records if set(article.clauses) & set(r.case.spec) and r not in cited]
    if article.clauses:
        body += [f"<h2>{lang.t('seed.citing-clauses', n=len(testing))}</h2>", case_rows(book, testing, root)]
    return page(lang, article.id, "".join(body), f"seeds/{slug(article.id)}.html")


def seed_index(book: Book, cited: dict[str, list]) -> str:
    lang = book.lang
    root = "../"
    out = [f"<h1>{lang.t('seed.index.title')}</h1><p>{lang.t('seed.index.intro')}</p>"]
    for key, title, articles in book.seeds.sources():
        out.append(
            f"<h2>{code(key)}{' — ' + f'<span lang=zh-Hans>{esc(title)}</span>' if title else ''}</h2>"
        )
        rows = [
            (
                link(seed_href(a.id, root), a.article or a.id),
                f'<span lang="zh-Hans">{esc(a.quote[:90] + ("…" if len(a.quote) > 90 else ""))}</span>'
                if a.quote
                else "",
                ", ".join(link(clause_href(c, root), c) for c in a.clauses)
                or lang.fallback(a.non_normative or "–"),
                str(len(cited.get(a.id, []))),
            )
            for a in articles
        ]
        head = [lang.t("col.article"), lang.t("col.quotation"), lang.t("col.clauses"), lang.t("col.cases")]
        out.append(table(head, rows))
    return page(lang, lang.s("seed.index.title"), "".join(out), "seeds/index.html")
