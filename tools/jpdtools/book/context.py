"""What every page of the book is computed from, gathered once (:class:`Book`), and the links
between pages."""

from dataclasses import dataclass, field

from jpdtools.book.observe import ObservedSuite
from jpdtools.book.overrides import Flip
from jpdtools.book.page import case_href, clause_href, question_href, slug
from jpdtools.book.seeds import SeedTable
from jpdtools.book.spectext import SpecText
from jpdtools.presets import Presets
from jpdtools.review.lint import Anchor
from jpdtools.review.overrides import Override
from jpdtools.suite.model import QuestionReview


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

    def question_review(self, anchor: str) -> QuestionReview:
        """Where an open question stands (``proposed`` when no decision names it)."""
        return self.question_reviews.get(anchor) or QuestionReview(anchor)

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
