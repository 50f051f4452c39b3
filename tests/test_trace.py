"""jpd trace: seed article → clauses → cases, and back, on the real table and suite."""

import json

import pytest
from jpdtools.cli import main
from jpdtools.errors import InputError
from jpdtools.paths import conformance_dir, spec_dir
from jpdtools.presets import load_presets
from jpdtools.review.lint import spec_anchors
from jpdtools.review.sources import SOURCES_FILE, clause_sources, load_sources
from jpdtools.review.trace import ClauseInfo, Suite, to_json, trace
from jpdtools.run.runner import default_loader, load_files


@pytest.fixture(scope="module")
def suite():
    folder = spec_dir()
    table = load_sources(folder / SOURCES_FILE)
    files, failures = load_files([conformance_dir()], load_presets(), default_loader())
    assert not failures
    anchors = {a.name: ClauseInfo(a.name, a.heading, a.file, a.line) for a in spec_anchors(folder).values()}
    return Suite.of(table, anchors, clause_sources(folder, table), files), files


def test_article_to_clauses_to_cases(suite):
    s, files = suite
    t = trace("000 §22", s)
    assert t.kind == "article" and [a.article.id for a in t.articles] == ["000 §22"]
    a = t.articles[0]
    links = {link.clause.anchor: link for link in a.clauses}
    assert "rep.no-retreat" in links and links["rep.no-retreat"].clause.file == "play.md"
    citing = {c.id for f in files for c in f.cases if "rep.no-retreat" in c.spec}
    assert set(links["rep.no-retreat"].cases) == citing and citing
    direct = {c.id for f in files for c in f.cases if any(x.startswith("000 §22") for x in c.seeds)}
    without = {c.id for f in files for c in f.cases if not any(x.startswith("000") for x in c.seeds)}
    assert direct and direct <= set(a.cited_by_cases) and not without & set(a.cited_by_cases)
    assert "rep.no-retreat" in a.cited_by_clauses


def test_a_sentence_traces_what_rests_on_it(suite):
    s, files = suite
    [a] = trace("001 第十条/13", s).articles  # 双活棋中，一方棋子单独围住的每个空点是其1目地。
    assert a.article.id == "001 第十条" and a.sentence.quote.startswith("双活棋中，一方棋子单独围住")
    assert [link.clause.anchor for link in a.clauses] == list(a.sentence.clauses)
    citing = {c.id for f in files for c in f.cases if "001 第十条/13" in c.seeds}
    assert citing and set(a.cited_by_cases) == citing and "count.art.012" in citing
    assert to_json(trace("001 第十条/13", s))["articles"][0]["sentence"]["id"] == "001 第十条/13"


def test_a_range_traces_every_article(suite):
    t = trace("000 §13–14", suite[0])
    assert [a.article.id for a in t.articles] == ["000 §13", "000 §14"]


def test_clause_back_to_articles(suite):
    t = trace("rep.simple-ko", suite[0])
    assert t.kind == "clause"
    c = t.clauses[0]
    assert "001 第八条" in [a.id for a in c.articles]
    assert "001 第八条" in c.sources_articles and c.sources_line.startswith("001 第八条")
    assert len(c.cases) > 10


def test_case_to_articles(suite):
    t = trace("board.occupied.001", suite[0])
    assert t.kind == "case" and t.case.status == "proposed"
    assert ("000 §13", ("000 §13",)) in t.case.citations
    assert [c.clause.anchor for c in t.case.clauses][:2] == ["play.move", "play.reasons"]
    data = to_json(t)
    assert data["case"]["citations"][0] == {"citation": "000 §13", "articles": ["000 §13"]}


def test_unknown_query_is_an_input_error(suite):
    with pytest.raises(InputError, match="no case id, no clause anchor"):
        trace("000 §99", suite[0])


def test_cli_json(capsys):
    assert main(["trace", "003 四虛終局", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["kind"] == "article" and data["articles"][0]["id"] == "003 四虚终局"
    assert data["articles"][0]["clauses"][0]["anchor"] == "end.four-virtual"
    assert main(["trace", "no.such.thing"]) == 2
