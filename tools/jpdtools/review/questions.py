"""The revision of every open question (spec/case-format.md#format.revision): its section of
``spec/open-questions.md``, hashed as every translated section is (:mod:`.translations`) — so the
generated ``Pinned by:`` paragraph, rewritten whenever a case cites the question, leaves it alone."""

from pathlib import Path

from jpdtools.errors import read_text_file
from jpdtools.review.overrides import OPEN_QUESTIONS
from jpdtools.review.translations import document_sections


def question_revisions(spec_dir: Path) -> dict[str, str]:
    """oq.N -> its revision (empty when the spec has no register)."""
    path = spec_dir / OPEN_QUESTIONS
    if not path.is_file():
        return {}
    sections = document_sections(read_text_file(path), OPEN_QUESTIONS)
    return {anchor: c.revision for anchor, c in sections.items() if anchor.startswith("oq.")}
