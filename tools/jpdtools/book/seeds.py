"""The seed articles and public-source articles the suite cites, as the book shows them.

An article is one entry of ``spec/sources.yaml`` (its source key, its id, a short quotation, the
clauses implementing it or why it is non-normative). A case cites articles in its ``seeds:`` list
(``000 §22``, ``J1989 Art. 14``); :meth:`SeedTable.find` resolves a citation to its article: the
article whose ``KEY ID`` is the citation, else the longest such text the citation starts with.
Citations no article matches are still listed (as their own entries, without a quotation), so
every cited text has a page.
"""

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class SeedArticle:
    source: str  # "000", "J1989"
    source_title: str
    article: str  # "§22", "Art. 14"
    quote: str = ""
    clauses: tuple[str, ...] = ()
    non_normative: str = ""  # why the article implements no clause ("" when it does)
    listed: bool = True  # False: only cited, not in the sources table

    @property
    def citation(self) -> str:
        return f"{self.source} {self.article}".strip()


@dataclass(frozen=True)
class SeedTable:
    articles: tuple[SeedArticle, ...]

    def find(self, citation: str) -> SeedArticle | None:
        text = " ".join(citation.split())
        best = None
        for a in self.articles:
            c = a.citation
            if text == c:
                return a
            prefix = text.startswith(c) and not text[len(c) : len(c) + 1].isalnum()
            if prefix and (best is None or len(c) > len(best.citation)):
                best = a
        return best

    def with_citations(self, citations: Iterable[str]) -> "SeedTable":
        """This table plus an unlisted entry for every citation it cannot resolve."""
        extra: dict[str, SeedArticle] = {}
        for c in citations:
            text = " ".join(c.split())
            if self.find(text) is None and text not in extra:
                source, _, article = text.partition(" ")
                extra[text] = SeedArticle(source, "", article, listed=False)
        return SeedTable(self.articles + tuple(extra[k] for k in sorted(extra)))

    def sources(self) -> list[tuple[str, str, list[SeedArticle]]]:
        """(source key, title, articles) in table order."""
        groups: dict[str, list[SeedArticle]] = {}
        titles: dict[str, str] = {}
        for a in self.articles:
            groups.setdefault(a.source, []).append(a)
            titles.setdefault(a.source, a.source_title)
            if a.source_title and not titles[a.source]:
                titles[a.source] = a.source_title
        return [(k, titles[k], v) for k, v in groups.items()]
