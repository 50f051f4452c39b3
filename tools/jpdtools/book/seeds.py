"""The seed articles and public-source articles, as the book shows them.

The table is ``spec/sources.yaml`` (loaded by :mod:`jpdtools.review.sources`): every article of
every source once, with its id (the citation string, ``000 §22``), a short quotation, and the
clauses implementing it or why it is non-normative. A case cites articles in its ``seeds:`` list;
:meth:`SeedTable.find` resolves a citation to the articles it names by the table's own rule
(``spec/case-format.md#format.citations``). A citation the table cannot resolve still gets an
entry of its own (without a quotation), so every cited text has a page.
"""

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class SeedSentence:
    """One sentence of an article as the table has it: its position (``""`` for the only one),
    text, the clauses resting on it and, if it implements none, why."""

    label: str
    quote: str
    clauses: tuple[str, ...] = ()
    non_normative: str = ""
    zh: str = ""  # a public rule: this project's Chinese rendering of it
    wording: str = ""  # a public rule: its own words, as a seed sentence records them
    wording_id: str = ""  # that seed sentence's id ("004 Chinese summary 4")

    @property
    def status(self) -> str:
        """``normative``, ``non-normative`` or ``unused`` (not yet used by the specification)."""
        return "normative" if self.clauses else "non-normative" if self.non_normative else "unused"


@dataclass(frozen=True)
class SeedArticle:
    source: str  # "000", "J1989"
    source_title: str
    id: str  # the citation string: "000 §22", "J1989 Art. 6"
    quote: str = ""
    clauses: tuple[str, ...] = ()
    non_normative: str = ""  # why the article implements no clause ("" when it does)
    listed: bool = True  # False: only cited, not in the sources table
    sentences: tuple[SeedSentence, ...] = ()  # the whole article, in order; one sentence: label ""

    def sentence(self, label: str) -> str:
        return next((x.quote for x in self.sentences if x.label == label), "")

    def sentence_at(self, label: str) -> SeedSentence:
        """The sentence at ``label``, or one holding the article's first quotation."""
        return next(
            (x for x in self.sentences if x.label == label),
            next((x for x in self.sentences if x.quote == self.quote), SeedSentence(label, self.quote)),
        )

    @property
    def public(self) -> bool:
        """A public source's rule (in this project's words), not a seed's text."""
        return not self.source.isdigit()

    def sentence_id(self, label: str) -> str:
        """How a citation names the sentence at ``label`` (``001 第十条/13``)."""
        return f"{self.id}/{label}" if label else self.id

    @property
    def article(self) -> str:
        """The id without its source key (``§22``)."""
        return self.id.removeprefix(self.source).strip() or self.id


Resolver = Callable[[str], Iterable[str]]  # citation -> the ids of the articles it names
Pinner = Callable[[str], Iterable[tuple[str, str | None]]]  # citation -> (article id, sentence label | None)


def _exact(articles: tuple[SeedArticle, ...]) -> Resolver:
    ids = {a.id for a in articles}
    return lambda citation: [c for c in (" ".join(citation.split()),) if c in ids]


@dataclass(frozen=True)
class SeedTable:
    articles: tuple[SeedArticle, ...]
    resolver: Resolver | None = field(default=None, compare=False)
    pinner: Pinner | None = field(default=None, compare=False)

    @functools.cached_property
    def by_id(self) -> dict[str, SeedArticle]:
        """Each article by its id (made once: every citation of every case is looked up in it)."""
        return {a.id: a for a in self.articles}

    def pins(self, citation: str) -> tuple[tuple[SeedArticle, str | None], ...]:
        """The sentence each item of ``citation`` names: (article, its label; None when the item
        names no single sentence of it). Without a pinner: the articles, no sentence."""
        by_id = self.by_id
        if self.pinner is None:
            return tuple((a, None) for a in self.find(citation))
        found = tuple((by_id[i], label) for i, label in self.pinner(citation) if i in by_id)
        return found or tuple((a, None) for a in self.find(citation))

    def find(self, citation: str) -> tuple[SeedArticle, ...]:
        """The articles ``citation`` names (none: the table cannot resolve it)."""
        by_id = self.by_id
        resolve = self.resolver or _exact(self.articles)
        found = tuple(by_id[i] for i in resolve(citation) if i in by_id)
        if found:
            return found
        text = " ".join(citation.split())
        return tuple(a for a in self.articles if not a.listed and a.id == text)

    def with_citations(self, citations: Iterable[str]) -> "SeedTable":
        """This table plus an unlisted entry for every citation it cannot resolve."""
        extra: dict[str, SeedArticle] = {}
        for c in citations:
            text = " ".join(c.split())
            if not self.find(text) and text not in extra:
                source = text.partition(" ")[0]
                extra[text] = SeedArticle(source, "", text, listed=False)
        return SeedTable(self.articles + tuple(extra[k] for k in sorted(extra)), self.resolver, self.pinner)

    def sources(self) -> list[tuple[str, str, list[SeedArticle]]]:
        """(source key, title, articles) in table order."""
        groups: dict[str, list[SeedArticle]] = {}
        titles: dict[str, str] = {}
        for a in self.articles:
            groups.setdefault(a.source, []).append(a)
            if a.source_title or a.source not in titles:
                titles[a.source] = a.source_title or titles.get(a.source, "")
        return [(k, titles[k], v) for k, v in groups.items()]
