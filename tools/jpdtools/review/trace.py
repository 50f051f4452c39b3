"""The chain seed article → clauses → cases, and back (``jpd trace``).

:func:`trace` answers one query — an article (or any citation: ``000 §13–14``; a sentence,
``001 第十条/13``, traces that sentence alone), a clause anchor
(``rep.no-retreat``) or a case id — from the table ``spec/sources.yaml``, the anchors and
``Sources:`` lines of ``spec/*.md`` and the loaded suite. The values are plain frozen dataclasses;
:func:`to_json` gives their JSON form (``"format": 1``; keys are stable, new keys may be added).
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from jpdtools.errors import InputError
from jpdtools.review.sources import Article, ClauseSources, Sentence, SourceTable, pinpoint
from jpdtools.suite.model import Case, CaseFile

JSON_FORMAT = 1


@dataclass(frozen=True)
class ClauseInfo:
    """A clause of ``spec/*.md``: where it is and its heading."""

    anchor: str
    heading: str
    file: str
    line: int


@dataclass(frozen=True)
class ClauseLink:
    """A clause with the cases that cite it (``spec:``)."""

    clause: ClauseInfo
    cases: tuple[str, ...]


@dataclass(frozen=True)
class ArticleTrace:
    """One article: the clauses implementing it (with their cases), and who cites it."""

    article: Article
    title: str  # the source's title
    clauses: tuple[ClauseLink, ...]
    cited_by_cases: tuple[str, ...]  # cases whose seeds: name this article
    cited_by_clauses: tuple[str, ...]  # clauses whose Sources: line names it
    sentence: Sentence | None = None  # the query named this sentence of the article (``001 第十条/13``)


@dataclass(frozen=True)
class ClauseTrace:
    """One clause: the articles it implements (by the table), its Sources line, its cases."""

    clause: ClauseInfo
    articles: tuple[Article, ...]  # mapped to this clause in sources.yaml
    sources_line: str  # the text of its Sources: line ("" when it has none)
    sources_articles: tuple[str, ...]  # the articles that line names
    cases: tuple[str, ...]


@dataclass(frozen=True)
class CaseTrace:
    """One case: what each of its citations names, and the clauses it cites."""

    case_id: str
    title: str
    file: str
    status: str
    citations: tuple[tuple[str, tuple[str, ...]], ...]  # (citation, article ids)
    clauses: tuple[ClauseTrace, ...]


@dataclass(frozen=True)
class Trace:
    query: str
    kind: str  # article | clause | case
    articles: tuple[ArticleTrace, ...] = ()
    clauses: tuple[ClauseTrace, ...] = ()
    case: CaseTrace | None = None


@dataclass(frozen=True)
class Suite:
    """What a trace reads: the table, the clauses of the spec, their Sources lines, the cases."""

    table: SourceTable
    clauses: Mapping[str, ClauseInfo]
    sources_lines: Mapping[str, ClauseSources]
    cases: Sequence[tuple[Case, str]]  # (case, file)

    @classmethod
    def of(
        cls,
        table: SourceTable,
        clauses: Mapping[str, ClauseInfo],
        lines: Sequence[ClauseSources],
        files: Sequence[CaseFile],
    ) -> "Suite":
        by_anchor: dict[str, ClauseSources] = {}
        for line in lines:
            by_anchor.setdefault(line.anchor, line)
        cases = [(case, f.path) for f in files for case in f.cases]
        return cls(table, clauses, by_anchor, cases)

    def citing_clause(self, anchor: str) -> tuple[str, ...]:
        return tuple(sorted(c.id for c, _ in self.cases if anchor in c.spec))

    def clause(self, anchor: str) -> ClauseInfo:
        return self.clauses.get(anchor) or ClauseInfo(anchor, "(not in spec/*.md)", "", 0)


def trace(query: str, suite: Suite) -> Trace:
    """Trace ``query``: a case id, else a clause anchor, else a citation of the table."""
    text = query.strip()
    case = next(((c, f) for c, f in suite.cases if c.id == text), None)
    if case is not None:
        return Trace(text, "case", case=_case(case[0], case[1], suite))
    if text in suite.clauses or suite.table.articles_for_clause(text):
        return Trace(text, "clause", clauses=(_clause(text, suite),))
    resolution = suite.table.resolve(text)
    if not resolution.ok:
        raise InputError(
            f"{text!r} is no case id, no clause anchor of spec/*.md and no article of "
            f"spec/sources.yaml ({resolution.problem})"
        )
    pins = pinpoint(suite.table, text)
    if len(pins) == 1 and pins[0].sentence is not None and pins[0].sentence.label and pins[0].article:
        return Trace(text, "article", articles=(_sentence(pins[0].article, pins[0].sentence, suite),))
    articles = tuple(_article(a, suite) for a in resolution.articles)
    return Trace(text, "article", articles=articles)


def _pinned(citation: str, suite: Suite) -> tuple[tuple[str, str], ...]:
    """(article id, sentence label) of each item of ``citation`` that names one sentence."""
    return tuple(
        (p.article.id, p.sentence.label) for p in pinpoint(suite.table, citation) if p.sentence and p.article
    )


def _sentence(article: Article, sentence: Sentence, suite: Suite) -> ArticleTrace:
    """One sentence of an article: the clauses resting on it, and the cases citing it."""
    source = suite.table.source(article.source)
    key = (article.id, sentence.label)
    links = tuple(ClauseLink(suite.clause(a), suite.citing_clause(a)) for a in sentence.clauses)
    by_cases = tuple(sorted(c.id for c, _ in suite.cases if any(key in _pinned(s, suite) for s in c.seeds)))
    by_clauses = tuple(
        anchor
        for anchor, line in suite.sources_lines.items()
        if any(key in _pinned(s, suite) for s in line.citations)
    )
    return ArticleTrace(article, source.title if source else "", links, by_cases, by_clauses, sentence)


def _names(citation: str, suite: Suite) -> tuple[str, ...]:
    resolution = suite.table.resolve(citation)
    return resolution.articles if resolution.ok else ()


def _article(article_id: str, suite: Suite) -> ArticleTrace:
    article = suite.table.article(article_id)
    assert article is not None
    source = suite.table.source(article.source)
    links = tuple(ClauseLink(suite.clause(a), suite.citing_clause(a)) for a in article.clauses)
    by_cases = tuple(
        sorted(c.id for c, _ in suite.cases if any(article_id in _names(s, suite) for s in c.seeds))
    )
    by_clauses = tuple(
        anchor
        for anchor, line in suite.sources_lines.items()
        if any(article_id in _names(s, suite) for s in line.citations)
    )
    return ArticleTrace(article, source.title if source else "", links, by_cases, by_clauses)


def _clause(anchor: str, suite: Suite) -> ClauseTrace:
    line = suite.sources_lines.get(anchor)
    named: list[str] = []
    for citation in line.citations if line else ():
        named.extend(i for i in _names(citation, suite) if i not in named)
    return ClauseTrace(
        suite.clause(anchor),
        suite.table.articles_for_clause(anchor),
        line.text if line else "",
        tuple(named),
        suite.citing_clause(anchor),
    )


def _case(case: Case, file: str, suite: Suite) -> CaseTrace:
    citations = tuple((s, _names(s, suite)) for s in case.seeds)
    clauses = tuple(_clause(a, suite) for a in case.spec)
    where = str(case.location) if case.location else file
    return CaseTrace(case.id, case.title, where, case.status, citations, clauses)


# -- JSON --------------------------------------------------------------------------------------


def _clause_json(info: ClauseInfo) -> dict:
    return {"anchor": info.anchor, "heading": info.heading, "file": info.file, "line": info.line}


def _article_json(article: Article) -> dict:
    return {
        "id": article.id,
        "source": article.source,
        "quote": article.quote,
        "clauses": list(article.clauses),
        "non_normative": article.non_normative,
    }


def _sentence_json(article: Article, sentence: Sentence) -> dict:
    return {
        "id": article.sentence_id(sentence),
        "quote": sentence.quote,
        "clauses": list(sentence.clauses),
        "non_normative": sentence.non_normative,
    }


def _clause_trace_json(t: ClauseTrace) -> dict:
    return {
        **_clause_json(t.clause),
        "articles": [a.id for a in t.articles],
        "sources_line": t.sources_line,
        "sources_articles": list(t.sources_articles),
        "cases": list(t.cases),
    }


def to_json(t: Trace) -> dict:
    out: dict = {"format": JSON_FORMAT, "query": t.query, "kind": t.kind}
    if t.kind == "article":
        out["articles"] = [
            {
                **_article_json(a.article),
                **({"sentence": _sentence_json(a.article, a.sentence)} if a.sentence else {}),
                "title": a.title,
                "clauses": [{**_clause_json(link.clause), "cases": list(link.cases)} for link in a.clauses],
                "cited_by_cases": list(a.cited_by_cases),
                "cited_by_clauses": list(a.cited_by_clauses),
            }
            for a in t.articles
        ]
    elif t.kind == "clause":
        out["clause"] = _clause_trace_json(t.clauses[0])
    elif t.case is not None:
        c = t.case
        out["case"] = {
            "id": c.case_id,
            "title": c.title,
            "file": c.file,
            "status": c.status,
            "citations": [{"citation": s, "articles": list(ids)} for s, ids in c.citations],
            "clauses": [_clause_trace_json(x) for x in c.clauses],
        }
    return out
