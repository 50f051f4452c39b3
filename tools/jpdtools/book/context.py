"""What every page of the book is computed from, gathered once (:class:`Book`), and the links
between pages."""

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TypeVar

from jpdtools.book.lang import EN, Language
from jpdtools.book.observe import ObservedSuite
from jpdtools.book.overrides import Flip
from jpdtools.book.page import case_href, clause_href, inline_code, question_href, slug
from jpdtools.book.seeds import SeedTable
from jpdtools.book.spectext import SpecText
from jpdtools.presets import Presets
from jpdtools.review.anchors import Anchor
from jpdtools.review.overrides import Override
from jpdtools.suite.model import QuestionReview

T = TypeVar("T")


@dataclass(frozen=True)
class Book:
    suite: ObservedSuite
    presets: Presets
    anchors: dict[str, Anchor]
    spec: SpecText
    seeds: SeedTable
    overrides: tuple[Override, ...]
    flips: dict[str, tuple[Flip, ...]]  # override ruleset -> the cases it flips
    question_reviews: dict[str, QuestionReview] = field(default_factory=dict)  # oq.N -> its review
    zh_spec: SpecText | None = None  # the Chinese twins of the spec documents (spec/zh/*.md)
    zh_sources: dict[str, str] = field(default_factory=dict)  # anchor -> the English revision it renders
    zh_revisions: dict[str, str] = field(default_factory=dict)  # anchor -> the English clause's revision
    question_revisions: dict[str, str] = field(default_factory=dict)  # oq.N -> its revision (format.revision)
    review_quorum: int = 1  # spec/review-policy.yaml (format.quorum)
    lang: Language = EN  # the edition being written: every page function reads its strings from it
    study: dict | None = None  # a jpd study result (its JSON form), shown as the study's pages
    # what several pages of the edition show, made once (:meth:`once`); each edition has its own
    _made: dict[tuple, object] = field(default_factory=dict, init=False, repr=False, compare=False)

    def edition(self, lang: Language) -> "Book":
        """The same book, written in ``lang``."""
        return replace(self, lang=lang)

    def once(self, key: tuple, make: Callable[[], T]) -> T:
        """``make()``, made the first time this edition asks for ``key`` and kept: a part that
        several pages show (a clause quoted on many pages, a case on its page and in print)."""
        if key not in self._made:
            self._made[key] = make()
        return self._made[key]  # type: ignore[return-value]

    def question_review(self, anchor: str) -> QuestionReview:
        """Where an open question stands (``proposed`` when no decision names it)."""
        return self.question_reviews.get(anchor) or QuestionReview(anchor)

    def clause_heading(self, anchor: str) -> str:
        """The heading of a clause or open question as HTML, in the book's language (the English,
        marked, where the Chinese is missing)."""
        section = self.spec.sections.get(anchor)
        english = (
            self.anchors[anchor].heading if anchor in self.anchors else section.heading if section else anchor
        )
        if self.lang.code == "en":
            return inline_code(self.lang.fallback(english))
        return inline_code(self.lang.either(english, self.zh_heading(anchor)))

    def zh_heading(self, anchor: str) -> str | None:
        """The Chinese heading of a clause or open question, when the book is Chinese and has one."""
        if self.lang.code == "en":
            return None
        if self.zh_spec is not None and anchor in self.zh_spec.sections:
            return self.zh_spec.sections[anchor].heading
        return None

    def document_title(self, name: str, english: str) -> str:
        """A spec document's title as HTML in the book's language."""
        zh = self.zh_spec.documents.get(name) if self.zh_spec is not None and self.lang.code != "en" else None
        return self.lang.either(english, zh.title if zh else None)

    def document_html(self, name: str, root: str) -> str:
        """A spec document whole, in the book's language (the English, marked, where untranslated)."""
        english = self.spec.document_html(name, root, self.spec_link)
        if self.lang.code == "en":
            return english
        if self.zh_spec is not None and name in self.zh_spec.documents:
            return self.zh_spec.document_html(name, root, self.spec_link)
        return f'<div class="fallback" lang="en">{english}</div>'

    def clause_html(self, anchor: str, root: str) -> str:
        """The text of a clause or open question as HTML, in the book's language: the Chinese
        rendering instead of the English where there is one (noting when it renders an earlier
        revision), else the English, marked."""
        return self.once(("clause", anchor, root), lambda: self._clause_html(anchor, root))

    def _clause_html(self, anchor: str, root: str) -> str:
        english = self.spec.section_html(anchor, root, self.spec_link)
        if self.lang.code == "en":
            return english
        if self.zh_spec is None or anchor not in self.zh_spec.sections:
            return f'<div class="fallback" lang="en">{english}</div>'
        text = f'<div class="spec-text">{self.zh_spec.section_html(anchor, root, self.spec_link)}</div>'
        source = self.zh_sources.get(anchor, "")
        current = self.zh_revisions.get(anchor, "")
        if source != current:
            text += f'<p class="bad">{self.lang.t("clause.stale", revision=current)}</p>'
        return text + f'<p class="legend">{self.lang.t("clause.renders", revision=source)}</p>'

    def spec_link(self, document: str, anchor: str, root: str) -> str | None:
        """Where a link of the spec text leads in the book (None: it becomes plain text). A Chinese
        twin's ``../x`` is the English document x."""
        document = document.removeprefix("../")
        if anchor.startswith("oq.") and anchor in self.spec.sections:
            return question_href(anchor, root)
        if anchor and anchor in self.spec.sections:
            return clause_href(anchor, root)
        if document in self.spec.documents:
            return f"{root}spec/{slug(document)}.html"
        if document.endswith("rulesets.yaml"):
            return f"{root}rulesets/index.html"
        return None

    def anchor_link(self, anchor: str, root: str) -> str | None:
        """The page of a clause or open question the suite names, or None if the spec lacks it."""
        return self.spec_link("", anchor, root) if anchor in self.spec.sections else None

    def case_link(self, case_id: str, root: str) -> str:
        return case_href(case_id, root)
