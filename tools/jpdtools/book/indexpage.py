"""The book's front page: every case in one table, with filters by review status, tag, clause,
seed article, ruleset and a text search.

The filters are a form that the script (``book.js``) reveals and wires; with scripts off the page
shows the whole table and the form stays hidden. A filter can be set from the address too
(``index.html?status=disputed&tag=ko``), which is how other pages link to a filtered list.
"""

from jpdtools.book.context import Book
from jpdtools.book.lang import Language
from jpdtools.book.page import esc, link, page
from jpdtools.book.rows import case_row
from jpdtools.run.compare import Status
from jpdtools.suite.model import REVIEW_STATUSES


def _select(lang: Language, name: str, values, shown=None) -> str:
    """A filter: its options' values as the rows carry them, shown as ``shown`` gives them (else
    as identifiers, not to be translated)."""
    options = "".join(
        f'<option value="{esc(v)}">{shown(v)}</option>'
        if shown
        else f'<option value="{esc(v)}" translate="no">{esc(v)}</option>'
        for v in values
    )
    return (
        f'<label>{lang.t("filter." + name)} <select name="{esc(name)}" id="filter-{esc(name)}">'
        f'<option value="">{lang.t("filter.any")}</option>{options}</select></label>'
    )


def index_page(book: Book) -> str:
    lang = book.lang
    records = book.suite.records
    tags = sorted({t for r in records for t in r.case.tags})
    clauses = sorted({a for r in records for a in r.case.spec if not a.startswith("oq.")})
    seeds = sorted({s for r in records for s in r.case.seeds})
    rulesets = book.presets.names
    counts = {s: sum(1 for r in records if r.worst is s) for s in Status}
    outcome = lang.s("list.sep").join(
        lang.s("index.outcome-part", n=n, outcome=lang.s("outcome." + str(s))) for s, n in counts.items() if n
    )
    form = (
        f'<form id="filters" class="filters" data-shown="{lang.t("index.shown")}" hidden>'
        + _select(lang, "status", REVIEW_STATUSES, lambda s: lang.t("status." + s))
        + _select(lang, "tag", tags)
        + _select(lang, "clause", clauses)
        + _select(lang, "seed", seeds)
        + _select(lang, "ruleset", rulesets)
        + f'<label>{lang.t("filter.search")} <input type="search" name="q" id="filter-q" '
        f'placeholder="{lang.t("filter.search.placeholder")}"></label>'
        + '<output id="shown" aria-live="polite"></output></form>'
    )
    rows = "".join(case_row(book, r, "") for r in records)
    failures = ""
    if book.suite.failures:
        items = "".join(f"<li><code>{esc(f)}</code></li>" for f in book.suite.failures)
        failures = f"<h2>{lang.t('index.failures')}</h2><ul>{items}</ul>"
    differences = link("differences/index.html", lang.s("nav.differences"))
    intro = lang.h(
        "index.intro",
        cases=str(len(records)),
        outcome=esc(outcome),
        rulesets=str(len(book.presets.names)),
        differences=differences,
    )
    head = "".join(f"<th>{lang.t(k)}</th>" for k in ("col.case", "col.title", "col.status", "col.tags"))
    body = (
        f"<h1>{lang.t('index.title')}</h1><p>{intro}</p>"
        f'<p class="noscript-note">{lang.t("index.noscript")}</p>'
        f'{form}<table class="cases" id="cases"><thead><tr>{head}</tr></thead>'
        f"<tbody>{rows}</tbody></table>{failures}"
    )
    return page(lang, lang.s("nav.cases"), body, "index.html", script=True)
