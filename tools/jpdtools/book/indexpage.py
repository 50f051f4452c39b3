"""The book's front page: every case, grouped by topic (a file of the suite each: a collapsed
``<details>`` whose summary names the topic, its number of cases and their review statuses), with
filters by review status, tag, clause, seed article, ruleset and a text search.

The filters are a form that the script (``book.js``) reveals and wires: a filter hides the rows it
leaves out, says in each topic's summary how many of its cases are shown, hides a topic with none
and opens the others; with scripts off every topic opens by hand and the form stays hidden. A
filter can be set from the address too (``index.html?status=disputed&tag=ko``), which is how other
pages link to a filtered list.
"""

from pathlib import Path

from jpdtools.book.casepage import review_status
from jpdtools.book.context import Book
from jpdtools.book.lang import Language
from jpdtools.book.lang.topics import TOPICS_ZH, topic_key
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
    body = (
        f"<h1>{lang.t('index.title')}</h1><p>{intro}</p>{_study(book)}<p>{lang.t('index.topics')}</p>"
        f'<p class="noscript-note">{lang.t("index.noscript")}</p>'
        f'{form}<div id="cases">{"".join(topics(book))}</div>{failures}'
    )
    return page(lang, lang.s("nav.cases"), body, "index.html", script=True)


def _study(book: Book) -> str:
    """A line leading to the compatibility study, when the book carries one."""
    if book.study is None:
        return ""
    study = link("study/index.html", book.lang.s("study.link"))
    return f"<p>{book.lang.h('index.study', study=study, records=str(book.study['records']))}</p>"


def topics(book: Book):
    """A ``<details class="topic">`` per file of the suite, in the suite's order: its summary the
    topic's name (``topic.<file>`` of the catalogue; the file's name, marked, for a file it does
    not know), how many cases and of which review statuses; then the file's own ``topic:`` (in
    Chinese from lang/topics.py) and the table of its cases."""
    lang = book.lang
    by_file: dict[str, list] = {}
    for record in book.suite.records:
        by_file.setdefault(record.file, []).append(record)
    head = "".join(f"<th>{lang.t(k)}</th>" for k in ("col.case", "col.title", "col.status", "col.tags"))
    about = {f.path: topic_key(f.topic or "") for f in book.suite.files}
    for file, records in by_file.items():
        topic = about.get(file, "")
        said_about = f'<p class="topic-about">{lang.either(topic, TOPICS_ZH.get(topic))}</p>' if topic else ""
        stem = Path(file).stem
        statuses = [review_status(r.case) for r in records]
        said = lang.s("list.sep").join(
            f"{lang.s('status.' + s)} {statuses.count(s)}" for s in REVIEW_STATUSES if s in statuses
        )
        rows = "".join(case_row(book, r, "") for r in records)
        yield (
            f'<details class="topic" id="topic-{esc(stem)}"><summary>'
            f'<span class="topic-name">{lang.word("topic.", stem)}</span> '
            f'<span class="topic-count" data-all="{lang.t("index.topic-cases", n=len(records))}">'
            f"{lang.t('index.topic-cases', n=len(records))}</span> "
            f'<span class="topic-statuses">{esc(said)}</span></summary>{said_about}'
            f'<table class="cases"><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table></details>'
        )
