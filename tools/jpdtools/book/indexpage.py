"""The book's front page: every case in one table, with filters by review status, tag, clause,
seed article, ruleset and a text search.

The filters are a form that the script (``book.js``) reveals and wires; with scripts off the page
shows the whole table and the form stays hidden. A filter can be set from the address too
(``index.html?status=disputed&tag=ko``), which is how other pages link to a filtered list.
"""

from jpdtools.book.context import Book
from jpdtools.book.page import esc, link, page
from jpdtools.book.rows import case_row
from jpdtools.run.compare import Status
from jpdtools.suite.model import REVIEW_STATUSES


def _select(name: str, label: str, values) -> str:
    options = "".join(f'<option value="{esc(v)}">{esc(v)}</option>' for v in values)
    return (
        f'<label>{esc(label)} <select name="{esc(name)}" id="filter-{esc(name)}">'
        f'<option value="">any</option>{options}</select></label>'
    )


def index_page(book: Book) -> str:
    records = book.suite.records
    statuses = REVIEW_STATUSES
    tags = sorted({t for r in records for t in r.case.tags})
    clauses = sorted({a for r in records for a in r.case.spec if not a.startswith("oq.")})
    seeds = sorted({s for r in records for s in r.case.seeds})
    rulesets = book.presets.names
    counts = {s: sum(1 for r in records if r.worst is s) for s in Status}
    outcome = ", ".join(f"{n} {s}" for s, n in counts.items() if n)
    form = (
        '<form id="filters" class="filters" hidden>'
        + _select("status", "status", statuses)
        + _select("tag", "tag", tags)
        + _select("clause", "clause", clauses)
        + _select("seed", "seed", seeds)
        + _select("ruleset", "ruleset", rulesets)
        + '<label>search <input type="search" name="q" id="filter-q" placeholder="id, title, note"></label>'
        + '<output id="shown" aria-live="polite"></output></form>'
    )
    rows = "".join(case_row(r, "") for r in records)
    failures = ""
    if book.suite.failures:
        items = "".join(f"<li><code>{esc(f)}</code></li>" for f in book.suite.failures)
        failures = f"<h2>Files that could not be loaded</h2><ul>{items}</ul>"
    body = (
        "<h1>The jipingdian case book</h1>"
        f"<p>{len(records)} cases ({esc(outcome)} under the reference implementation), "
        f"{len(book.presets.names)} rulesets. Each case has a page with its boards, the verdict of every "
        f"ruleset at every step, the clauses and seed articles it rests on. "
        f"{link('differences/index.html', 'Where the rulesets differ')} shows the ruleset × ruleset "
        "matrix.</p>"
        '<p class="noscript-note">The filters need scripts; without them the whole list is shown.</p>'
        f'{form}<table class="cases" id="cases"><thead><tr><th>case</th><th>title</th><th>status</th>'
        f"<th>tags</th></tr></thead><tbody>{rows}</tbody></table>{failures}"
    )
    return page("Cases", body, "", script=True)
