"""The seed-article pages: the quotation, the clauses implementing the article, the cases citing
it; and an index of every source's articles."""

from jpdtools.book.context import Book
from jpdtools.book.page import clause_href, code, esc, link, page, seed_href, table, ul
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


def article_page(book: Book, article: SeedArticle, cited: list) -> str:
    root = "../"
    clauses = [
        link(clause_href(a, root), a)
        + (f" — {esc(book.spec.sections[a].heading)}" if a in book.spec.sections else "")
        for a in article.clauses
    ]
    body = [f"<h1>{esc(article.id)}</h1>"]
    if article.source_title:
        body.append(f"<p>{esc(article.source_title)}</p>")
    if len(article.sentences) > 1:
        body.append("<p>Its ruling sentences, each cited as the article and its label:</p>")
        for label, quote in article.sentences:
            body.append(
                f'<h3 id="s-{esc(label)}">{esc(article.id)} {esc(label)}</h3>'
                f"<blockquote>{esc(quote)}</blockquote>"
            )
    elif article.quote:
        body.append(f"<blockquote>{esc(article.quote)}</blockquote>")
    if not article.listed:
        body.append("<p>Cited by cases; not (yet) an entry of <code>spec/sources.yaml</code>.</p>")
    if article.non_normative:
        body.append(f"<p>Non-normative: {esc(article.non_normative)}</p>")
    body += ["<h2>Clauses implementing it</h2>", ul(clauses)]
    body += [f"<h2>Cases citing it ({len(cited)})</h2>", case_rows(cited, root)]
    testing = [r for r in book.suite.records if set(article.clauses) & set(r.case.spec) and r not in cited]
    if article.clauses:
        body += [f"<h2>Other cases citing its clauses ({len(testing)})</h2>", case_rows(testing, root)]
    return page(article.id, "".join(body), root)


def seed_index(book: Book, cited: dict[str, list]) -> str:
    root = "../"
    out = [
        "<h1>Seed and source articles</h1>"
        "<p>Every article the specification maps, and every one a case cites.</p>"
    ]
    for key, title, articles in book.seeds.sources():
        out.append(f"<h2>{code(key)}{' — ' + esc(title) if title else ''}</h2>")
        rows = [
            (
                link(seed_href(a.id, root), a.article or a.id),
                esc(a.quote[:90] + ("…" if len(a.quote) > 90 else "")) if a.quote else "",
                ", ".join(link(clause_href(c, root), c) for c in a.clauses) or esc(a.non_normative or "–"),
                str(len(cited.get(a.id, []))),
            )
            for a in articles
        ]
        out.append(table(["article", "quotation", "clauses", "cases"], rows))
    return page("Seed and source articles", "".join(out), root)
