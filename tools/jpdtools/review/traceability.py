"""Checks of the seed-traceability table against the spec, the suite and the seed texts.

Used by ``jpd lint`` (:mod:`jpdtools.review.lint` turns each :class:`Finding` into a problem of
check ``sources``):

* every article of ``spec/sources.yaml`` is either mapped to clauses or marked non-normative
  (not both); every clause it names exists in ``spec/*.md`` and is cited by at least one case;
* every citation of a case (``seeds:``) and of a clause (``Sources:``) resolves to articles of
  the table (:meth:`SourceTable.resolve`), and each of its items to one sentence (a clause's
  ``Sources:`` line, like a case, never cites a multi-sentence article by its id);
* where the seed files are at hand (``../shared/seeds``), every quotation of a seed occurs in it
  (blanks and the pinyin glosses of 003, ``規(guī)則``, ignored), every sentence of it verbatim;
  and the sentences of an article joined are one passage of it (the article whole, in order);
* every item of a case's citation names one sentence of an article (``001 第十条(13)``; an article
  of one sentence is named by its id), and the case's first citation names a sentence implementing
  one of the case's clauses — the sentence its verdict rests on — whenever the table has a
  sentence implementing one of them.
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


def check_renderings(table: SourceTable) -> list[Finding]:
    """Every ``wording`` of a public rule names one seed sentence (the source's own words as a seed
    records them), and every public rule has its Chinese rendering (``zh``) or that wording."""
    found = []
    for source in table.sources:
        if source.is_seed:
            continue
        for article in source.articles:
            for sentence in article.sentences:
                where = sentence.location or article.location
                name = article.sentence_id(sentence)
                if sentence.wording:
                    pinned = pinpoint(table, sentence.wording)
                    if (
                        len(pinned) != 1
                        or pinned[0].sentence is None
                        or not pinned[0].article.source.isdigit()
                    ):
                        found.append(
                            Finding(
                                f"the wording of {name!r}, {sentence.wording!r}, names no one seed sentence",
                                where,
                            )
                        )
                if not sentence.zh and not sentence.wording:
                    found.append(
                        Finding(
                            f"the public rule {name!r} has no Chinese: give 'zh' or 'wording'",
                            where,
                        )
                    )
    return found


def check_case_citations(files: Sequence[CaseFile], table: SourceTable) -> list[Finding]:
    """Every ``seeds:`` citation of every case resolves to articles of the table, each of its
    items to one sentence (:func:`pinpoint`), and the first citation to a sentence implementing
    one of the case's clauses when any sentence of the table implements one of them."""
    implemented = {c for a in table.articles() for s in a.sentences for c in s.clauses}
    found = []
    for case_file in files:
        for case in case_file.cases:
            where = case.location or Location(case_file.path)
            pinned = True
            for citation in case.seeds:
                resolution = table.resolve(citation)
                if not resolution.ok:
                    found.append(Finding(f"case {case.id!r} cites {resolution.problem}", where))
                    pinned = False
                    continue
                for pin in pinpoint(table, citation):
                    if pin.sentence is None:
                        found.append(Finding(f"case {case.id!r} cites {pin.problem}", where))
                        pinned = False
            if pinned and case.seeds and set(case.spec) & implemented:
                finding = _first_citation(case, table)
                if finding:
                    found.append(Finding(finding, where))
    return found


def _first_citation(case, table: SourceTable) -> str:
    """Why the case's first citation is not a sentence implementing one of its clauses ("" if it is)."""
    first = case.seeds[0]
    pins = pinpoint(table, first)
    sentence = pins[0].sentence if pins else None
    if sentence is not None and set(sentence.clauses) & set(case.spec):
        return ""
    better = [
        c
        for c in case.seeds[1:]
        if any(
            p.sentence is not None and set(p.sentence.clauses) & set(case.spec) for p in pinpoint(table, c)
        )
    ]
    hint = f"; of its citations, {better[0]!r} does" if better else ""
    return (
        f"case {case.id!r}: its first citation {first!r} names a sentence implementing none of its "
        f"clauses ({', '.join(case.spec)}); cite first the sentence its verdict rests on{hint}"
    )


def check_spec_citations(spec_dir: Path, table: SourceTable) -> list[Finding]:
    """Every citation of a ``Sources:`` line of ``spec/*.md`` resolves to articles of the table,
    and each of its items to one sentence (:func:`pinpoint`), as a case's citations must: a clause
    cites the sentences it rests on, never a whole article of several sentences. The table agrees:
    each sentence a clause cites lists that clause among its ``clauses`` (else the clause's page
    would not quote a sentence its Sources line names)."""
    found = []
    for clause in clause_sources(spec_dir, table):
        for citation in clause.citations:
            resolution = table.resolve(citation)
            if not resolution.ok:
                found.append(Finding(f"clause {clause.anchor!r} cites {resolution.problem}", clause.location))
                continue
            for pin in pinpoint(table, citation):
                if pin.sentence is None:
                    found.append(Finding(f"clause {clause.anchor!r} cites {pin.problem}", clause.location))
                elif clause.anchor not in pin.sentence.clauses:
                    assert pin.article is not None
                    found.append(
                        Finding(
                            f"clause {clause.anchor!r} cites {pin.article.sentence_id(pin.sentence)!r}, "
                            f"whose entry in sources.yaml does not list {clause.anchor!r} among its clauses",
                            clause.location,
                        )
                    )
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
            whole = "".join(_plain(s.quote) for s in article.sentences)
            if (
                len(article.sentences) > 1
                and whole not in text
                and all(_plain(s.quote) in text for s in article.sentences)
            ):
                found.append(
                    Finding(
                        f"the sentences of {article.id!r} joined are not one passage of {source.file} "
                        "(a sentence is missing, repeated or out of order)",
                        article.location,
                    )
                )
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
