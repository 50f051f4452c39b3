"""The seed-article pages: each article whole, sentence by sentence, the sentences the spec rests
on highlighted and linked to their clauses and to the cases citing them; and an index of every
source's articles marking each sentence normative, non-normative (with the reason) or not yet
used. Quotations stay as their sources wrote them."""

from collections import Counter

from jpdtools.book.context import Book
from jpdtools.book.page import case_href, clause_href, code, esc, link, page, seed_href, slug, table, ul
from jpdtools.book.quotes import rule_html
from jpdtools.book.rows import case_rows
from jpdtools.book.seeds import SeedArticle, SeedSentence

STATUSES = ("normative", "non-normative", "unused")
GENERIC = {  # reasons the table gives many sentences, in the reader's language
    "the article's heading": "seed.why.heading",
    "heading of the part that follows": "seed.why.part-heading",
    "chapter heading": "seed.why.chapter",
}
SHOWN_CASES = 8  # cases listed under a sentence before "(+n)"


def citing_article(book: Book) -> dict[str, list]:
    out: dict[str, list] = {}
    for record in book.suite.records:
        for citation in record.case.seeds:
            for article in book.seeds.find(citation):
                if record not in out.setdefault(article.id, []):
                    out[article.id].append(record)
    return out


def citing_sentence(book: Book) -> dict[tuple[str, str], list]:
    """(article id, sentence label) → the case records whose citations name that sentence."""
    out: dict[tuple[str, str], list] = {}
    for record in book.suite.records:
        for citation in record.case.seeds:
            for article, label in book.seeds.pins(citation):
                if label is not None and record not in out.setdefault((article.id, label), []):
                    out[(article.id, label)].append(record)
    return out


def _lang_of(article: SeedArticle) -> str:
    """The language a quotation is in: the seeds' Chinese, or a public rule in this project's words."""
    return "zh-Hans" if article.source.isdigit() else "en"


def _reason(book: Book, text: str) -> str:
    return book.lang.t(GENERIC[text]) if text in GENERIC else book.lang.fallback(text)


def _sentence_href(article: SeedArticle, label: str, root: str) -> str:
    return seed_href(article.id, root) + (f"#s{label}" if label else "")


def _sentence(book: Book, article: SeedArticle, sentence: SeedSentence, cases: list, root: str) -> str:
    """One sentence of the article: its id, its text, and what rests on it (or why nothing)."""
    lang = book.lang
    label = sentence.label
    number = f'<a class="sid" href="#s{esc(label)}">{esc("/" + label if label else article.id)}</a>'
    text = (
        rule_html(article, sentence, lang, "text", "span")
        if article.public
        else f'<span class="text" lang="{_lang_of(article)}">{esc(sentence.quote)}</span>'
    )
    if sentence.clauses:
        clauses = ", ".join(link(clause_href(c, root), c) for c in sentence.clauses)
        notes = [lang.h("seed.rests-on", clauses=clauses)]
    elif sentence.non_normative:
        notes = [f"{lang.t('seed.non-normative')} {_reason(book, sentence.non_normative)}"]
    else:
        notes = [lang.t("seed.unused")]
    if cases:
        shown = ", ".join(link(case_href(r.case.id, root), r.case.id) for r in cases[:SHOWN_CASES])
        more = f" (+{len(cases) - SHOWN_CASES})" if len(cases) > SHOWN_CASES else ""
        notes.append(lang.h("seed.cited-by", n=str(len(cases)), cases=shown + more))
    cls = f"sentence {sentence.status}" + (" cited" if cases else "")
    notes_html = "".join(f"<span>{n}</span>" for n in notes)
    return f'<div class="{cls}" id="s{esc(label)}">{number} {text}<div class="notes">{notes_html}</div></div>'


def article_page(book: Book, article: SeedArticle, cited: list, by_sentence: dict | None = None) -> str:
    lang = book.lang
    root = "../"
    by_sentence = by_sentence or {}
    clauses = [
        link(clause_href(a, root), a) + (f" — {book.clause_heading(a)}" if a in book.spec.sections else "")
        for a in article.clauses
    ]
    body = [f"<h1>{esc(article.id)}</h1>"]
    if article.source_title:
        body.append(f'<p lang="{_lang_of(article)}">{esc(article.source_title)}</p>')
    if article.sentences:
        counts = Counter(s.status for s in article.sentences)
        summary = lang.t(
            "seed.counts", normative=counts["normative"], non=counts["non-normative"], unused=counts["unused"]
        )
        body.append(
            f'<h2>{lang.t("seed.whole")}</h2><p class="seed-legend">{summary}</p><div class="article">'
        )
        for s in article.sentences:
            body.append(_sentence(book, article, s, by_sentence.get((article.id, s.label), []), root))
        body.append("</div>")
    elif article.quote:
        body.append(rule_html(article, article.sentence_at(""), lang))
    if not article.listed:
        body.append(f"<p>{lang.h('seed.unlisted', file=code('spec/sources.yaml'))}</p>")
    body += [f"<h2>{lang.t('seed.clauses')}</h2>", ul(clauses)]
    body += [f"<h2>{lang.t('seed.citing', n=len(cited))}</h2>", case_rows(book, cited, root)]
    named = set(article.clauses)
    testing = [r for r in book.suite.records if not named.isdisjoint(r.case.spec) and r not in cited]
    if article.clauses:
        body += [f"<h2>{lang.t('seed.citing-clauses', n=len(testing))}</h2>", case_rows(book, testing, root)]
    return page(lang, article.id, "".join(body), f"seeds/{slug(article.id)}.html")


def clause_sentences(book: Book, anchor: str, root: str) -> list[str]:
    """The sentences resting on clause ``anchor``, each linked to its place in its article and
    quoted (for the clause's page)."""
    out = []
    for article in book.seeds.articles:
        for s in article.sentences:
            if anchor in s.clauses:
                name = link(_sentence_href(article, s.label, root), article.sentence_id(s.label))
                out.append(f"{name} — {rule_html(article, s, book.lang, tag='span')}")
    return out


def _chips(article: SeedArticle, by_sentence: dict, root: str) -> str:
    """One mark per sentence, coloured by its status, linking to it on the article's page."""
    out = []
    for s in article.sentences:
        why = ", ".join(s.clauses) or s.non_normative or "–"
        cited = " cited" if by_sentence.get((article.id, s.label)) else ""
        title = f"{article.sentence_id(s.label)}: {why}"
        attrs = f'class="chip {s.status}{cited}" href="{esc(_sentence_href(article, s.label, root))}"'
        out.append(f'<a {attrs} title="{esc(title)}">{esc(s.label or "1")}</a>')
    return f'<span class="chips">{"".join(out)}</span>'


def seed_index(book: Book, cited: dict[str, list], by_sentence: dict | None = None) -> str:
    lang = book.lang
    root = "../"
    by_sentence = by_sentence or {}
    counts = Counter(s.status for a in book.seeds.articles for s in a.sentences)
    legend = " ".join(
        f'<span class="chip {k}">{counts[k]}</span> {lang.t("seed.legend." + k)}' for k in STATUSES
    )
    legend += f' <span class="chip normative cited">n</span> {lang.t("seed.legend.cited")}'
    out = [
        f"<h1>{lang.t('seed.index.title')}</h1><p>{lang.t('seed.index.intro')}</p>",
        f'<p class="seed-legend">{legend}</p>',
    ]
    for key, title, articles in book.seeds.sources():
        lang_attr = "zh-Hans" if key.isdigit() else "en"
        out.append(f"<h2>{code(key)}{f' — <span lang={lang_attr}>{esc(title)}</span>' if title else ''}</h2>")
        rows = [
            (
                link(seed_href(a.id, root), a.article or a.id),
                _chips(a, by_sentence, root),
                str(len(cited.get(a.id, []))),
            )
            for a in articles
        ]
        head = [lang.t("col.article"), lang.t("col.sentences"), lang.t("col.cases")]
        out.append(table(head, rows, "seed-index"))
        marked = [(a, s) for a in articles for s in a.sentences if s.status == "non-normative"]
        if marked:
            items = [
                link(_sentence_href(a, s.label, root), a.sentence_id(s.label))
                + ": "
                + _reason(book, s.non_normative)
                for a, s in marked
            ]
            out.append(
                f"<details><summary>{lang.t('seed.reasons', n=len(items))}</summary>{ul(items)}</details>"
            )
    return page(lang, lang.s("seed.index.title"), "".join(out), "seeds/index.html")
