"""The open-question pages: the entry of the register (question, source, readings, the reading
chosen and why), the cases that pin it, and — where another reading is an axis override — the
cases whose verdict would flip under it, as run."""

from jpdtools.book.context import Book
from jpdtools.book.lang.glossary import cell_text
from jpdtools.book.observe import verdict_text
from jpdtools.book.page import case_href, code, esc, link, page, question_href, ruleset_href, slug, table
from jpdtools.book.reviewpanel import review_panel
from jpdtools.book.reviewview import decision_html, standing_badge
from jpdtools.book.rows import case_rows
from jpdtools.suite.standing import standing


def questions(book: Book) -> list[str]:
    return [a for a in book.spec.sections if a.startswith("oq.")]


def flips_html(book: Book, anchor: str, root: str) -> str:
    lang = book.lang
    mine = [o for o in book.overrides if o.question == anchor]
    if not mine:
        return ""
    out = [f"<h2>{lang.t('question.other-reading')}</h2><p>{lang.t('question.other-reading.intro')}</p>"]
    for o in mine:
        flips = book.flips.get(o.rules, ())
        reading = lang.t("question.reading", reading=o.reading) if o.reading else ""
        base = link(ruleset_href(o.base, root), o.base)
        out.append(
            f'<h3 id="{esc(o.rules)}">{reading}{code(o.rules)} — '
            f"{lang.h('question.flip', n=str(len(flips)), base=base)}</h3>"
        )
        rows = [
            (
                link(case_href(f.case_id, root), f.case_id),
                esc(cell_text(verdict_text(f.before), lang, book.presets.get(o.base))),
                esc(cell_text(verdict_text(f.after), lang)),
            )
            for f in flips
        ]
        head = [
            lang.t("col.case"),
            lang.t("question.under", ruleset=o.base),
            lang.t("question.under-override"),
        ]
        out.append(table(head, rows, "flips") if rows else f"<p>{lang.t('none')}</p>")
    return "".join(out)


def question_page(book: Book, anchor: str) -> str:
    lang = book.lang
    root = "../"
    s = book.spec.sections[anchor]
    pinned = [r for r in book.suite.records if anchor in r.case.spec]
    review = book.question_review(anchor)
    revision = book.question_revisions.get(anchor, "")
    st = standing(review, revision, "", book.review_quorum)
    label = lambda name: link(ruleset_href(name, root), name)  # noqa: E731
    body = [
        f"<h1>{book.clause_heading(anchor)}</h1>",
        f"<p>{lang.t('question.status')} {standing_badge(st, lang)}</p>",
        f'<div class="spec">{book.clause_html(anchor, root)}</div>',
        f"<h2>{lang.t('question.pinning', n=len(pinned))}</h2>",
        case_rows(book, pinned, root),
        flips_html(book, anchor, root),
        decision_html(review, revision, book.review_quorum, label, lang),
        review_panel("question", anchor, book.presets.names, lang, revision),
    ]
    heading = book.zh_heading(anchor) or s.heading
    return page(lang, heading, "".join(body), f"questions/{slug(anchor)}.html")


def question_index(book: Book) -> str:
    lang = book.lang
    root = "../"
    rows = []
    for anchor in questions(book):
        pinned = sum(1 for r in book.suite.records if anchor in r.case.spec)
        overrides = [o for o in book.overrides if o.question == anchor]
        flipped = sum(len(book.flips.get(o.rules, ())) for o in overrides)
        flip_text = lang.s("question.flipped", n=flipped, overrides=len(overrides)) if overrides else "–"
        current = book.question_revisions.get(anchor, "")
        st = standing(book.question_review(anchor), current, "", book.review_quorum)
        status = standing_badge(st, lang)
        heading = book.clause_heading(anchor)
        rows.append(
            (
                f'<a href="{esc(question_href(anchor, root))}">{heading}</a>',
                status,
                str(pinned),
                esc(flip_text),
            )
        )
    head = ["col.question", "col.status", "question.col.pinning", "question.col.flipped"]
    body = (
        f"<h1>{lang.t('nav.questions')}</h1>"
        f"<p>{lang.h('question.index.intro', file=code('spec/open-questions.md'))}</p>"
        + table([lang.t(h) for h in head], rows)
    )
    return page(lang, lang.s("nav.questions"), body, "questions/index.html")
