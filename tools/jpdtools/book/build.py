"""Building the book: gather what the pages are computed from (:func:`make_book`), then write
every page (:func:`write_book`)."""

import functools
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path

from jpdtools.book import differences, questions, rulesetpages, seedpages, specpages
from jpdtools.book.assets import SCRIPT, STYLE
from jpdtools.book.casepage import case_page
from jpdtools.book.context import Book
from jpdtools.book.decisions import decided
from jpdtools.book.editions import front_door
from jpdtools.book.font import (
    FONT_FILE,
    LICENCE,
    LICENCE_FILE,
    FontSource,
    characters,
    cut,
    find_source,
    own_characters,
)
from jpdtools.book.glossarypage import glossary_page
from jpdtools.book.indexpage import index_page
from jpdtools.book.lang import EDITIONS
from jpdtools.book.observe import observe_suite
from jpdtools.book.overrides import flips
from jpdtools.book.page import slug
from jpdtools.book.playground import find_pyodide, playground_page, shared_files
from jpdtools.book.printbook import PDF_FILE, print_edition
from jpdtools.book.printpage import FRONT, chapter_page, chapters, front_matter, revision
from jpdtools.book.printstyle import PRINT_STYLE, PRINT_STYLE_FILE
from jpdtools.book.scripts import REVIEW_SCRIPT
from jpdtools.book.seeds import SeedArticle, SeedSentence, SeedTable
from jpdtools.book.spectext import SpecText
from jpdtools.book.studypage import study_pages
from jpdtools.errors import NothingSelected
from jpdtools.hidden import made_visible
from jpdtools.outdir import Layout, check_outdir, replace_whole
from jpdtools.presets import Presets
from jpdtools.review.anchors import spec_anchors
from jpdtools.review.lint import question_reviews
from jpdtools.review.overrides import OPEN_QUESTIONS, read_overrides
from jpdtools.review.policy import POLICY_FILE, load_policy
from jpdtools.review.questions import question_revisions
from jpdtools.review.sources import SOURCES_FILE, load_sources, pinpoint
from jpdtools.review.translations import english_clauses, zh_documents
from jpdtools.run.runner import Filters, SuiteLoader

SHOWN = (".html", ".json", ".svg")  # the files a reader sees (scripts and styles are not text)


@dataclass(frozen=True)
class BuildReport:
    pages: int
    cases: int
    seconds: float
    out: Path
    failures: tuple = ()  # LoadFailure: the case files that could not be loaded
    font: FontSource | None = None  # the CJK font the book's was cut from (None: it carries none)
    playground: bool = False  # whether the book carries the playground's runtime (Pyodide)
    pdfs: tuple[Path, ...] = ()  # the printed books (with --pdf), in OUTDIR


def _wording(table, sentence_id: str) -> tuple[str, str]:
    """The text and id of the seed sentence ``sentence_id`` names (a public rule's own words)."""
    pins = pinpoint(table, sentence_id) if sentence_id else ()
    found = pins[0].sentence if len(pins) == 1 else None
    return (found.quote, sentence_id) if found is not None else ("", "")


def seed_table(spec_dir: Path, citations: Iterable[str]) -> SeedTable:
    """The sources table of the spec, plus every citation of the suite it does not resolve."""
    path = spec_dir / SOURCES_FILE
    if not path.is_file():
        return SeedTable(()).with_citations(citations)
    table = load_sources(path)
    articles = tuple(
        SeedArticle(
            a.source,
            s.title,
            a.id,
            a.quote,
            a.clauses,
            a.non_normative,
            sentences=tuple(
                SeedSentence(x.label, x.quote, x.clauses, x.non_normative, x.zh, *_wording(table, x.wording))
                for x in a.sentences
            ),
        )
        for s in table.sources
        for a in s.articles
    )

    # every page quoting a seed asks again for the same few hundred citations: each is resolved once
    @functools.cache
    def pins(citation: str) -> tuple[tuple[str, str | None], ...]:
        return tuple(
            (p.article.id, p.sentence.label if p.sentence else None)
            for p in pinpoint(table, citation)
            if p.article is not None
        )

    @functools.cache
    def resolver(citation: str) -> tuple[str, ...]:
        return table.resolve(citation).articles

    return SeedTable(articles, resolver, pins).with_citations(citations)


Progress = Callable[[str, int, int], None]
"""Told (stage, done, total) while the book is built: "running" the cases, "writing" the files,
"printing" the documents of the PDFs."""


def make_book(
    paths: Iterable[Path],
    spec_dir: Path,
    presets: Presets,
    loader: SuiteLoader,
    filters: Filters,
    study: dict | None = None,
    progress: Progress | None = None,
) -> Book:
    suite = observe_suite(paths, presets, loader, filters, progress)
    overrides = read_overrides(spec_dir / OPEN_QUESTIONS, presets)
    flipped = {o.rules: flips(o, suite, presets) for o in overrides}
    seeds = seed_table(spec_dir, (s for r in suite.records for s in r.case.seeds))
    reviews = {r.anchor: r for r in question_reviews(spec_dir, presets)}
    twins = zh_documents(spec_dir)
    zh = SpecText(spec_dir, {name: d.text for name, d in twins.items()})
    zh_sources = {s.anchor: s.source for d in twins.values() for s in d.sections if s.anchor}
    revisions = {a: c.revision for a, c in english_clauses(spec_dir).items()}
    english = SpecText(spec_dir)
    parts = (spec_anchors(spec_dir), english, seeds, overrides, flipped, reviews, zh, zh_sources, revisions)
    asked = question_revisions(spec_dir)
    quorum = load_policy(spec_dir / POLICY_FILE).quorum
    return Book(suite, presets, *parts, question_revisions=asked, review_quorum=quorum, study=study)


def pages(book: Book, playground: bool = False) -> Iterable[tuple[str, str]]:
    """(path inside the book, text) of every file: the front door, then every page of each edition
    (``en/…``, ``zh/…``, the same relative paths), each written from the same page functions.
    ``playground``: whether the book carries the playground's runtime (its page says how to add it
    when not)."""
    yield "index.html", front_door()
    for lang in EDITIONS:
        for name, text in edition_pages(book.edition(lang), playground):
            yield f"{lang.code}/{name}", text


def edition_pages(book: Book, playground: bool = False) -> Iterable[tuple[str, str]]:
    """(path inside the edition, text) of every file of ``book.lang``'s edition."""
    yield "style.css", STYLE
    yield "playground.html", playground_page(book, playground)
    yield "book.js", SCRIPT
    yield "review.js", REVIEW_SCRIPT
    yield "glossary.html", glossary_page(book)
    yield "index.html", index_page(book)
    yield from print_pages(book)
    for record in book.suite.records:
        yield f"cases/{slug(record.case.id)}.html", case_page(book, record)
    cited = specpages.citing(book)
    yield "clauses/index.html", specpages.clause_index(book, cited)
    decides = decided(book)
    for anchor in specpages.clause_anchors(book):
        page = specpages.clause_page(book, anchor, cited.get(anchor, []), decides.get(anchor, {}))
        yield f"clauses/{slug(anchor)}.html", page
    for name in book.spec.documents:
        yield f"spec/{slug(name)}.html", specpages.document_page(book, name)
    yield "questions/index.html", questions.question_index(book)
    for anchor in questions.questions(book):
        yield f"questions/{slug(anchor)}.html", questions.question_page(book, anchor)
    by_article = seedpages.citing_article(book)
    by_sentence = seedpages.citing_sentence(book)
    yield "seeds/index.html", seedpages.seed_index(book, by_article, by_sentence)
    for article in book.seeds.articles:
        yield (
            f"seeds/{slug(article.id)}.html",
            seedpages.article_page(book, article, by_article.get(article.id, []), by_sentence),
        )
    if book.study is not None:
        yield from study_pages(book.study, book.lang)
    pairs = differences.differing(book)
    yield "rulesets/index.html", rulesetpages.ruleset_index(book)
    for name in book.presets.names:
        yield f"rulesets/{slug(name)}.html", rulesetpages.ruleset_page(book, name, pairs)
    yield "differences/index.html", differences.matrix_page(book, pairs)
    for (a, b), ids in pairs.items():
        yield f"differences/{rulesetpages.pair_name(a, b)}.html", differences.pair_page(book, a, b, ids)


def print_pages(book: Book) -> Iterable[tuple[str, str]]:
    """The edition's ``print/`` folder: its style sheet, the front matter (its contents without
    page numbers until the book is printed), a document per chapter."""
    parts = chapters(book)
    rev = revision(book)
    yield f"print/{PRINT_STYLE_FILE}", PRINT_STYLE
    yield f"print/{FRONT}", front_matter(book, parts, rev)
    for chapter in parts:
        yield f"print/{chapter.name}", chapter_page(book, chapter, rev)


BOOK_ENTRIES = (
    "index.html",
    "en",
    "zh",
    "fonts",
    "playground",
)
"""What a book puts directly in OUTDIR: the front door, the two editions, the font they share."""
EARLIER_ENTRIES = (
    "style.css",
    "book.js",
    "index.html",
    "print",
    "cases",
    "clauses",
    "spec",
    "questions",
    "seeds",
    "rulesets",
    "differences",
    "glossary.html",
    "lang",
    "lang.js",
    "review.js",
    "book.pdf",
)
"""What a book of one edition put directly in OUTDIR (``book.pdf`` with ``--pdf``)."""
LAYOUT = Layout(frozenset(BOOK_ENTRIES + EARLIER_ENTRIES), ".jpd-book-", "book")
"""A folder holding these and nothing else is an earlier book, which a rebuild replaces whole."""


def page_count(book: Book) -> int:
    """About how many files :func:`pages` writes (for progress): the cases, clauses, questions,
    articles, rulesets and chapters of each edition, and their indexes."""
    per_edition = (
        len(book.suite.records)
        + len(book.anchors)
        + len(book.seeds.articles)
        + 3 * len(book.presets.names)
        + len(chapters(book))
        + 21
    )
    return 1 + len(EDITIONS) * per_edition


def write_book(
    book: Book,
    out: Path,
    font: FontSource | None = None,
    progress: Progress | None = None,
    pyodide: Path | None = None,
    pdf: bool = False,
) -> int:
    """Write every page into a staging folder, then let the book replace ``out``'s content whole
    (jpdtools/outdir.py: no stale page of an earlier book, nothing written through a link, a full
    disk or a read-only folder an InputError with ``out`` as it was); returns how many files.
    With ``font``, the book carries it cut down to the characters its pages and jipingdian's own
    texts use (font.py); ``progress`` hears how many files are written; with ``pyodide`` (the npm
    package's folder), the book carries the playground's runtime and sources. With ``pdf``, each
    edition is printed to its ``book.pdf`` before the book replaces ``out``'s content (a failed
    print leaves ``out`` as it was)."""
    expected = page_count(book)

    def write(staging: Path) -> int:
        n = 0
        used: set[str] = set()
        for name, text in pages(book, pyodide is not None):
            path = staging / name
            path.parent.mkdir(parents=True, exist_ok=True)
            if path.suffix in SHOWN:  # a bidi override or zero-width space shown, never acting
                text = made_visible(text)
            path.write_text(text, encoding="utf-8")
            used |= characters((text,))
            n += 1
            if progress is not None:
                progress("writing", n, max(n, expected))
        if font is not None:
            (staging / FONT_FILE).parent.mkdir(parents=True, exist_ok=True)
            (staging / FONT_FILE).write_bytes(cut(font, used | own_characters()))
            (staging / LICENCE_FILE).write_text(LICENCE, encoding="utf-8")
            n += 2
        if pyodide is not None:
            for name, content in shared_files(book, pyodide):
                (staging / name).parent.mkdir(parents=True, exist_ok=True)
                (staging / name).write_bytes(content)
                n += 1
        if pdf:
            n += print_editions(book, staging, progress)
        return n

    return replace_whole(out, LAYOUT, write)


PRINTERS = 2
"""Editions printed at once, each by its own Chromium (a print keeps about one core busy)."""


def print_editions(book: Book, staging: Path, progress: Progress | None = None) -> int:
    """Print every edition written in ``staging`` to its ``book.pdf``, :data:`PRINTERS` at once;
    returns how many. ``progress`` hears the documents printed over all editions. When one edition
    fails (or the build is interrupted), the others stop after the document they are printing."""
    total = (len(chapters(book)) + 1) * len(EDITIONS)
    done = [0]
    lock = threading.Lock()
    stop = threading.Event()

    def told(_done: int, _total: int) -> None:
        if stop.is_set():
            raise Stopped
        with lock:
            done[0] += 1
            if progress is not None:
                progress("printing", done[0], total)

    with ThreadPoolExecutor(PRINTERS) as pool:
        jobs = [
            pool.submit(print_edition, book.edition(lang), staging / lang.code, told) for lang in EDITIONS
        ]
        try:
            wait(jobs, return_when=FIRST_EXCEPTION)
            for job in jobs:
                if job.done() and job.exception() is not None:
                    raise job.exception()
            for job in jobs:
                job.result()
        except BaseException:
            stop.set()
            raise
    return len(EDITIONS)


class Stopped(Exception):
    """An edition's printing stopped because another failed."""


def build(
    out: Path,
    paths: Sequence[Path],
    spec_dir: Path,
    presets: Presets,
    loader: SuiteLoader,
    filters: Filters,
    study: dict | None = None,
    progress: Progress | None = None,
    pdf: bool = False,
) -> BuildReport:
    """Build the book into ``out``; ``study`` (a ``jpd study`` result) adds its pages, ``progress``
    hears how far the build is, ``pdf`` prints each edition to its ``book.pdf``."""
    start = time.perf_counter()
    check_outdir(out, LAYOUT)  # before the suite is observed: a refused OUTDIR costs nothing
    book = make_book(paths, spec_dir, presets, loader, filters, study, progress)
    if not book.suite.records and not book.suite.failures:
        chosen = [f"--id {i!r}" for i in filters.ids] + [f"--tag {t!r}" for t in filters.tags]
        where = ", ".join(str(p) for p in paths)
        raise NothingSelected(
            f"nothing selected: no case matches {' '.join(chosen) or 'the cases'} in {where}"
        )
    font = find_source()
    pyodide = find_pyodide()
    n = write_book(book, out, font, progress, pyodide, pdf)
    seconds = time.perf_counter() - start
    pdfs = tuple(out / lang.code / PDF_FILE for lang in EDITIONS) if pdf else ()
    records, failures = len(book.suite.records), book.suite.failures
    return BuildReport(n, records, seconds, out, failures, font, pyodide is not None, pdfs)
