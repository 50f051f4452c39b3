"""Checks of the seed-traceability table against the spec, the suite and the seed texts.

Used by ``jpd lint`` (:mod:`jpdtools.review.lint` turns each :class:`Finding` into a problem of
check ``sources``):

* every article of ``spec/sources.yaml`` is either mapped to clauses or marked non-normative
  (not both); every clause it names exists in ``spec/*.md`` and is cited by at least one case;
* every citation of a case (``seeds:``) and of a clause (``Sources:``) resolves to articles of
  the table (:meth:`SourceTable.resolve`);
* where the seed files are at hand (``../shared/seeds``), every quotation of a seed occurs in it
  (blanks and the pinyin glosses of 003, ``規(guī)則``, ignored), every sentence of it verbatim;
* every item of a case's citation names one sentence of an article (``001 第十五条 3``; an article
  of one sentence is named by its id): the sentence the ruling rests on.
"""

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from jpdtools.errors import InputError, Location, read_text_file
from jpdtools.review.sources import SourceTable, clause_sources, pinpoint
from jpdtools.suite.model import CaseFile

_GLOSS = re.compile(r"\([a-zāáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜü]+\)")
_BLANK = re.compile(r"\s+")


@dataclass(frozen=True)
class Finding:
    message: str
    location: Location | None = None


def check_table(
    table: SourceTable, anchors: Iterable[str], citing: Mapping[str, Sequence[str]] | None
) -> list[Finding]:
    """Every article mapped xor marked; its clauses exist and (unless ``citing`` is None, for a
    part of the suite) are cited by some case."""
    known = set(anchors)
    found = []
    for article in table.articles():
        where = article.location
        if not article.mapped and not article.marked:
            found.append(
                Finding(
                    f"article {article.id!r} is neither mapped to clauses nor marked non-normative",
                    where,
                )
            )
        if article.mapped and article.marked:
            found.append(Finding(f"article {article.id!r} is both mapped and marked non-normative", where))
        for clause in article.clauses:
            if clause not in known:
                found.append(
                    Finding(f"article {article.id!r} maps to {clause!r}, no clause of spec/*.md", where)
                )
            elif citing is not None and not citing.get(clause):
                found.append(
                    Finding(f"clause {clause!r} (implementing {article.id!r}) is cited by no case", where)
                )
    return found


def check_case_citations(files: Sequence[CaseFile], table: SourceTable) -> list[Finding]:
    """Every ``seeds:`` citation of every case resolves to articles of the table, and each of its
    items to one sentence (the one the ruling rests on: :func:`pinpoint`)."""
    found = []
    for case_file in files:
        for case in case_file.cases:
            where = case.location or Location(case_file.path)
            for citation in case.seeds:
                resolution = table.resolve(citation)
                if not resolution.ok:
                    found.append(Finding(f"case {case.id!r} cites {resolution.problem}", where))
                    continue
                for pin in pinpoint(table, citation):
                    if pin.sentence is None:
                        found.append(Finding(f"case {case.id!r} cites {pin.problem}", where))
    return found


def check_spec_citations(spec_dir: Path, table: SourceTable) -> list[Finding]:
    """Every citation of a ``Sources:`` line of ``spec/*.md`` resolves to articles of the table."""
    found = []
    for clause in clause_sources(spec_dir, table):
        for citation in clause.citations:
            resolution = table.resolve(citation)
            if not resolution.ok:
                found.append(Finding(f"clause {clause.anchor!r} cites {resolution.problem}", clause.location))
    return found


def _plain(text: str) -> str:
    return _BLANK.sub("", _GLOSS.sub("", text))


def check_quotes(table: SourceTable, seeds_root: Path) -> list[Finding]:
    """Every quotation of a seed occurs in its file under ``seeds_root`` (the folder holding
    ``seeds/``); seeds whose file is not there are not checked."""
    found = []
    for source in table.sources:
        path = seeds_root / source.file
        if not source.is_seed or not path.is_file():
            continue
        try:
            text = _plain(read_text_file(path, "seed file"))
        except InputError as err:
            found.append(Finding(err.message, err.location))
            continue
        for article in source.articles:
            for sentence in article.sentences:
                if _plain(sentence.quote) not in text:
                    found.append(
                        Finding(
                            f"the quotation of {article.sentence_id(sentence)!r} is not verbatim in "
                            f"{source.file}: {sentence.quote!r}",
                            sentence.location or article.location,
                        )
                    )
    return found
