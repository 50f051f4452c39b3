"""The open-question pages: the entry of the register (question, source, readings, the reading
chosen and why), the cases that pin it, and — where another reading is an axis override — the
cases whose verdict would flip under it, as run."""

from jpdtools.book.context import Book
from jpdtools.book.observe import verdict_text
from jpdtools.book.page import case_href, code, esc, link, page, question_href, ruleset_href, table
from jpdtools.book.reviewpanel import review_panel
from jpdtools.book.reviewview import badge, decision_html, shown_status
from jpdtools.book.rows import case_rows


def questions(book: Book) -> list[str]:
    return [a for a in book.spec.sections if a.startswith("oq.")]


def flips_html(book: Book, anchor: str, root: str) -> str:
    mine = [o for o in book.overrides if o.question == anchor]
    if not mine:
        return ""
    out = [
        "<h2>If another reading were chosen</h2><p>Every case of the preset run under the override; "
        "the cases whose verdict changes:</p>"
    ]
    for o in mine:
        flips = book.flips.get(o.rules, ())
        reading = f"reading {esc(o.reading)}: " if o.reading else ""
        base = link(ruleset_href(o.base, root), o.base)
        out.append(
            f'<h3 id="{esc(o.rules)}">{reading}{code(o.rules)} — {len(flips)} case(s) flip '
            f"against {base}</h3>"
        )
        rows = [
            (
                link(case_href(f.case_id, root), f.case_id),
                esc(verdict_text(f.before)),
                esc(verdict_text(f.after)),
            )
            for f in flips
        ]
        out.append(
            table(["case", f"verdict under {esc(o.base)}", "under the override"], rows, "flips")
            if rows
            else "<p>None.</p>"
        )
    return "".join(out)


def question_page(book: Book, anchor: str) -> str:
    root = "../"
    s = book.spec.sections[anchor]
    pinned = [r for r in book.suite.records if anchor in r.case.spec]
    review = book.question_review(anchor)
    label = lambda name: link(ruleset_href(name, root), name)  # noqa: E731
    body = [
        f"<h1>{esc(s.heading)}</h1>",
        f"<p>review status: {badge(shown_status(review))}</p>",
        f'<div class="spec">{book.spec.section_html(anchor, root, book.spec_link)}</div>',
        f"<h2>Cases that pin it ({len(pinned)})</h2>",
        case_rows(pinned, root),
        flips_html(book, anchor, root),
        decision_html(review, label),
        review_panel("question", anchor, book.presets.names),
    ]
    return page(s.heading, "".join(body), root)


def question_index(book: Book) -> str:
    root = "../"
    rows = []
    for anchor in questions(book):
        s = book.spec.sections[anchor]
        pinned = sum(1 for r in book.suite.records if anchor in r.case.spec)
        overrides = [o for o in book.overrides if o.question == anchor]
        flipped = sum(len(book.flips.get(o.rules, ())) for o in overrides)
        flip_text = f"{flipped} under {len(overrides)} override(s)" if overrides else "–"
        status = badge(shown_status(book.question_review(anchor)))
        rows.append((link(question_href(anchor, root), s.heading), status, str(pinned), esc(flip_text)))
    body = (
        "<h1>Open questions</h1><p>Every place the sources leave open and the reading chosen "
        "(<code>spec/open-questions.md</code>); where another reading is an axis override, how many cases "
        "its verdicts would flip.</p>"
        + table(["question", "status", "cases pinning it", "cases flipped"], rows)
    )
    return page("Open questions", body, root)
