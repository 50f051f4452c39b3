"""The seed-traceability table spec/sources.yaml: loading, resolving citations, lint checks."""

import os
import re
import textwrap
from pathlib import Path

import pytest
from jpdtools.errors import InputError
from jpdtools.paths import conformance_dir, shared_dir, spec_dir
from jpdtools.presets import load_presets
from jpdtools.review import lint, traceability
from jpdtools.review.sources import (
    SOURCES_FILE,
    clause_sources,
    load_sources,
    load_sources_text,
    normalise,
    pinpoint,
    split_items,
)
from jpdtools.run.runner import default_loader, load_files

TABLE = """\
format: 2
sources:
  - key: "000"
    title: "t"
    file: "seeds/000.txt"
    articles:
      - id: "000 §2"
        quote: "棋盘上的361个枰点"
        clauses: [board.points]
      - id: "000 §13"
        quote: "着于盘外为虚着"
        clauses: [turn.virtual]
      - id: "000 §14"
        quote: "虚着之子"
        clauses: [turn.virtual]
      - id: "000 §22"
        quote: "不得使对方再次面对同一个全局棋形"
        clauses: [rep.no-retreat]
      - id: "000 §29"
        quote: "回填"
        clauses: [count.fill-back]
  - key: "001"
    title: "t"
    file: "seeds/001.txt"
    articles:
      - id: "001 第二条"
        quote: "可以放弃"
        clauses: [turn.pass]
      - id: "001 第二条说明"
        quote: "不准放弃，可下虚着"
        clauses: [turn.pass]
      - id: "001 第十二条"
        quote: "确认"
        clauses: [count.agreement]
      - id: "001 第十三条"
        quote: "实战解决"
        non-normative: "history"
  - key: "003"
    title: "t"
    file: "seeds/003.txt"
    articles:
      - id: "003 四虚终局"
        quote: "四虛終局包括雙方連續四虛手終局"
        clauses: [end.four-virtual]
      - id: "003 A版"
        quote: "A"
        clauses: [count.komi]
      - id: "003 B版"
        quote: "B"
        clauses: [count.komi]
  - key: "004"
    title: "t"
    file: "seeds/004.txt"
    articles:
      - id: "004 Chinese summary 1"
        quote: "黑先白后"
        clauses: [turn.order]
      - id: "004 Chinese summary 11"
        quote: "劫争马上回提判回提者着手无效，弃权一次"
        clauses: [rep.positional]
  - key: "J1989"
    title: "Japanese rules"
    file: "https://example.org"
    articles:
      - id: "J1989 Art. 8"
        quote: "territory"
        clauses: [count.japanese]
      - id: "J1989 Art. 9"
        quote: "passes"
        clauses: [end.two-passes]
      - id: "J1989 Art. 10"
        quote: "result"
        clauses: [count.japanese]
  - key: "Ing rules"
    title: "Ing"
    file: "https://example.org"
    articles:
      - id: "Ing rules"
        quote: "fill counting"
        clauses: [count.ing]
"""


@pytest.fixture(scope="module")
def table():
    return load_sources_text(TABLE, "sources.yaml")


def test_loads_in_order(table):
    assert [s.key for s in table.sources] == ["000", "001", "003", "004", "J1989", "Ing rules"]
    article = table.article("000 §22")
    assert article.source == "000" and article.clauses == ("rep.no-retreat",) and article.mapped
    assert table.article("001 第十三条").non_normative == "history"
    assert article.location.line == 16 and article.location.column == 13
    assert [a.id for a in table.articles_for_clause("turn.pass")] == ["001 第二条", "001 第二条说明"]


@pytest.mark.parametrize(
    ("citation", "articles", "how"),
    [
        ("000 §22", ("000 §22",), ("exact",)),
        ("000 §13–14", ("000 §13", "000 §14"), ("exact", "exact")),
        ("000 §13-14", ("000 §13", "000 §14"), ("exact", "exact")),
        ("000 §2, §22 (陈祖源's wording)", ("000 §2", "000 §22"), ("exact", "exact")),
        ("000 §29(2)–(3)", ("000 §29",), ("finer", "finer")),
        ("000 §22 禁倒退", ("000 §22",), ("finer",)),
        ("001 第二条说明", ("001 第二条说明",), ("exact",)),
        ("001 第二条 (free)", ("001 第二条",), ("exact",)),
        ("001 第十二条–第十三条", ("001 第十二条", "001 第十三条"), ("exact", "exact")),
        ("003 四虛終局", ("003 四虚终局",), ("exact",)),
        ("003 四虛終局包括雙方連續四虛手終局", ("003 四虚终局",), ("finer",)),
        ("003 (A版/B版 komi)", ("003 A版", "003 B版"), ("exact", "finer")),
        ("003 雙方連續四虛手", ("003 四虚终局",), ("quoted",)),
        ("004 Chinese summary", ("004 Chinese summary 1", "004 Chinese summary 11"), ("coarser",)),
        ("004 Chinese summary 11(1) (劫争马上回提)", ("004 Chinese summary 11",), ("finer",)),
        ("004 着手无效，弃权一次", ("004 Chinese summary 11",), ("quoted",)),
        ("J1989 Arts. 8–10", ("J1989 Art. 8", "J1989 Art. 9", "J1989 Art. 10"), ("exact",) * 3),
        ("J1989 Arts. 9, 10", ("J1989 Art. 9", "J1989 Art. 10"), ("exact", "exact")),
        ("J1989 Art. 9-1", ("J1989 Art. 9",), ("finer",)),
        ("j1989 art. 8", ("J1989 Art. 8",), ("exact",)),
        ("Ing rules", ("Ing rules",), ("source",)),
        ("Ing rules 1996 (fill counting)", ("Ing rules",), ("finer",)),
        ("000 §22/1", ("000 §22",), ("finer",)),
        ("Ing rules/1", ("Ing rules",), ("finer",)),
        ("003", ("003 四虚终局", "003 A版", "003 B版"), ("source",)),
    ],
)
def test_resolving(table, citation, articles, how):
    resolution = table.resolve(citation)
    assert resolution.ok, resolution.problem
    assert (resolution.articles, resolution.how) == (articles, how)


@pytest.mark.parametrize(
    ("citation", "words"),
    [
        ("000 §3", "'000 §3'"),
        ("000 §21–22", "'000 §21'"),
        ("000 §222", "'000 §222'"),
        ("000 §13, §15", "'000 §15'"),
        ("005 §1", "names no source"),
        ("Tromp-Taylor rule 6", "names no source"),
        ("001 第三条", "'001 第三条'"),
        ("003 五虚终局", "'003 五虚终局'"),
        ("J1989 Art. 1", "'J1989 Art. 1'"),
    ],
)
def test_unresolved_citations_say_which_item(table, citation, words):
    resolution = table.resolve(citation)
    assert not resolution.ok and words in resolution.problem


def test_helpers():
    assert normalise("（在搖櫓劫情形下）  §13 — 14") == "(在搖櫓劫情形下) §13–14"
    assert split_items("000 §3–4, §6 (a, b); 001 第一条 and 第二条") == [
        "000 §3–4",
        "§6 (a, b)",
        "001 第一条",
        "第二条",
    ]


DUPLICATE_SOURCE = """\
        clauses: [count.ing]
  - key: "Ing rules"
    title: "again"
    file: "x"
    articles:
      - id: "Ing rules 2"
        quote: "q"
        clauses: [count.ing]
"""


@pytest.mark.parametrize(
    ("change", "line", "words"),
    [
        (("format: 2", "format: 1"), 1, "expected 'format: 2'"),
        (('      - id: "000 §13"', '      - id: "000 §2"'), 10, "listed twice"),
        (('      - id: "000 §13"', '      - id: "001 §13"'), 10, "does not start with its source's key"),
        (('        quote: "虚着之子"', "        quote: ''"), 14, "non-empty string"),
        (("        clauses: [turn.order]", "        clauses: turn.order"), 57, "list of clause anchors"),
        (
            ('      - id: "000 §13"\n', '      - id: "000 §13"\n        source: x\n'),
            11,
            "unknown key 'source'",
        ),
        (("        clauses: [count.ing]\n", DUPLICATE_SOURCE), 81, "source key 'Ing rules' listed twice"),
    ],
)
def test_load_errors_are_located(change, line, words):
    text = TABLE.replace(*change, 1)
    assert text != TABLE
    with pytest.raises(InputError) as info:
        load_sources_text(text, "sources.yaml")
    assert info.value.location.path == "sources.yaml" and info.value.location.line == line
    assert words in info.value.message


def test_table_checks():
    text = TABLE.replace('        non-normative: "history"', "        quote2: x".replace("quote2: x", ""), 1)
    text = text.replace(
        '        clauses: [count.japanese]\n      - id: "J1989 Art. 9"',
        '        clauses: [nowhere]\n      - id: "J1989 Art. 9"',
    )
    table = load_sources_text(text, "sources.yaml")
    anchors = [
        "board.points",
        "turn.virtual",
        "rep.no-retreat",
        "count.fill-back",
        "turn.pass",
        "count.agreement",
    ]
    anchors += ["end.four-virtual", "count.komi", "turn.order", "rep.positional", "end.two-passes"]
    anchors += ["count.japanese", "count.ing"]
    citing = {a: ["some.case"] for a in anchors if a != "count.komi"}
    messages = [f.message for f in traceability.check_table(table, anchors, citing)]
    assert messages == [
        "article '001 第十三条' is neither mapped to clauses nor marked non-normative",
        "clause 'count.komi' (implementing '003 A版') is cited by no case",
        "clause 'count.komi' (implementing '003 B版') is cited by no case",
        "article 'J1989 Art. 8' maps to 'nowhere', no clause of spec/*.md",
    ]


def test_quotes_are_checked_against_the_seed_files(tmp_path: Path, table):
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    (seeds / "000.txt").write_text(
        "棋盘上的361个枰点，永远都是地。着于盘外为虚着。虚着之子。不得使对方再次面对同一个全局棋形。", "utf-8"
    )
    (seeds / "003.txt").write_text("四虛終局包括雙方連續四虛手終了。A B", "utf-8")
    found = traceability.check_quotes(table, tmp_path)
    assert [f.message for f in found] == [
        "the quotation of '000 §29' is not verbatim in seeds/000.txt: '回填'",
        "the quotation of '003 四虚终局' is not verbatim in seeds/003.txt: '四虛終局包括雙方連續四虛手終局'",
    ]
    (seeds / "003.txt").write_text("四虛終局包括雙方連(lián)續(xù)\n四虛手終局。A B", "utf-8")
    assert len(traceability.check_quotes(table, tmp_path)) == 1


# -- the real table ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def real():
    return load_sources(spec_dir() / SOURCES_FILE)


def test_every_citation_of_the_suite_and_spec_resolves(real):
    files, failures = load_files([conformance_dir()], load_presets(), default_loader())
    assert not failures
    assert traceability.check_case_citations(files, real) == []
    assert traceability.check_spec_citations(spec_dir(), real) == []
    assert traceability.check_table(real, lint.spec_anchors(spec_dir()), lint.citing_cases(files)) == []
    cited = {c for cs in clause_sources(spec_dir(), real) for c in cs.citations}
    assert "000 §31/5, §31/6" in cited and "Tromp-Taylor rule 9, rule 10" in cited


SEEDS = shared_dir() / "seeds"


@pytest.mark.skipif(
    not SEEDS.is_dir() and os.environ.get("CI") != "true",
    reason="the seed texts (../shared/seeds) are not beside this checkout (CI has them: there it fails)",
)
def test_the_real_table_lists_every_numbered_article_and_quotes_the_seeds(real):
    assert traceability.check_quotes(real, shared_dir()) == []
    numbered = {
        "000": (r"(\d+)、", "000 §{}"),
        "002": (r"(?m)^(\d+)、", "002 §{}"),
        "001": (r"第([一二三四五六七八九十]+)条、", "001 第{}条"),
    }
    for key, (pattern, form) in numbered.items():
        source = real.source(key)
        text = (shared_dir() / source.file).read_text("utf-8")
        wanted = {form.format(n) for n in re.findall(pattern, text)}
        listed = {a.id for a in source.articles}
        assert wanted and wanted <= listed, sorted(wanted - listed)
    # the seeds whole: each seed's articles, sentence by sentence, hold all of its text but the
    # title lines and the page furniture around it (a forum header, the author's links)
    for source in (s for s in real.sources if s.is_seed):
        text = re.sub(r"\s+", "", (shared_dir() / source.file).read_text("utf-8"))
        held = sum(len(re.sub(r"\s+", "", x.quote)) for a in source.articles for x in a.sentences)
        assert held >= 0.97 * len(re.sub(r"\([a-zāáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜü]+\)", "", text)), source.key


def test_lint_reports_an_unresolved_case_citation(tmp_path: Path):
    case = textwrap.dedent(
        """\
        format: 1
        cases:
          - id: board.trace.bad
            title: t
            spec: [play.move]
            seeds: ["000 §99"]
            size: 5
            moves: B C3
            expect: {default: "1: legal"}
        """
    )
    path = tmp_path / "bad.yaml"
    path.write_text(case, "utf-8")
    files, failures = load_files([path], load_presets(), default_loader())
    assert not failures
    problems = lint.check_sources(files, lint.spec_anchors(spec_dir()), spec_dir())
    seeds = [p for p in problems if p.check == "seeds"]
    assert len(seeds) == 1 and "'000 §99'" in seeds[0].message and seeds[0].location.line == 3


# -- sentences: the one a ruling rests on ------------------------------------------------------

SENTENCES = """\
format: 2
sources:
  - key: "001"
    title: "t"
    file: "seeds/001.txt"
    articles:
      - id: "001 第十五条"
        sentences:
          - {n: 1, quote: "第十五条、棋局的终止", non-normative: "heading"}
          - {n: 2, quote: "两弃休止后，按照对局者双方达成的共识", clauses: [count.agreement]}
          - {n: 3, quote: "一方主动认输时，棋局为终止。", clauses: [end.resignation]}
          - {n: 4, quote: "一方违反规则被判负时，棋局为终止。", clauses: [play.illegal]}
          - {n: 5, quote: "说明：协商终局在实际中普遍地被采用"}
      - id: "001 第十六条"
        quote: "目数较多的一方为胜方。"
        clauses: [count.art]
"""


def _pins(citation):
    table = load_sources_text(SENTENCES, "s.yaml")
    return [
        (p.article.id if p.article else None, p.sentence.label if p.sentence else None)
        for p in pinpoint(table, citation)
    ]


def test_a_citation_names_one_sentence():
    assert _pins("001 第十五条/4") == [("001 第十五条", "4")]
    assert _pins("001 第十五条/2, 第十五条/4") == [("001 第十五条", "2"), ("001 第十五条", "4")]
    assert _pins("001 第十六条") == [("001 第十六条", "")]  # one sentence: the article names it
    table = load_sources_text(SENTENCES, "s.yaml")
    [bare] = pinpoint(table, "001 第十五条")
    assert bare.sentence is None and "has several sentences, cite one of them (1, 2, 3, 4, 5)" in bare.problem
    [wrong] = pinpoint(table, "001 第十五条/9")
    assert wrong.sentence is None and "has no sentence '/9'" in wrong.problem
    [seed_item] = pinpoint(table, "001 第十五条(3)")  # the seed's own item number names no sentence
    assert seed_item.sentence is None and "has no sentence '(3)'" in seed_item.problem
    [whole] = pinpoint(table, "001")
    assert whole.sentence is None and "names 2 articles" in whole.problem
    article = table.article("001 第十五条")
    assert article.quote == "两弃休止后，按照对局者双方达成的共识" and len(article.sentences) == 5
    assert article.sentence_id(article.sentences[3]) == "001 第十五条/4"
    assert [s.status for s in article.sentences] == [
        "non-normative",
        "normative",
        "normative",
        "normative",
        "unused",
    ]
    assert article.clauses == ("count.agreement", "end.resignation", "play.illegal") and not article.marked
    assert article.source == "001" and [s.key for s in table.sources] == ["001"]


def test_a_sources_line_names_one_sentence_per_item(tmp_path: Path):
    table = load_sources_text(SENTENCES, "s.yaml")
    (tmp_path / "end.md").write_text(
        "### Resignation {#end.resignation}\n\nText.\n\nSources: 001 第十五条/3, 第十六条; OQ-26.\n\n"
        "### Illegal moves {#play.illegal}\n\nText.\n\nSources: 001 第十五条; 001 第十五条(4).\n",
        encoding="utf-8",
    )
    found = traceability.check_spec_citations(tmp_path, table)
    assert [(f.location.line, f.message) for f in found] == [
        (
            5,
            "clause 'end.resignation' cites '001 第十六条', whose entry in sources.yaml does not list "
            "'end.resignation' among its clauses",
        ),
        (
            11,
            "clause 'play.illegal' cites '001 第十五条': '001 第十五条' has several sentences, "
            "cite one of them (1, 2, 3, 4, 5)",
        ),
        (
            11,
            "clause 'play.illegal' cites '001 第十五条(4)': '001 第十五条' has no sentence '(4)' "
            "(its sentences: 1, 2, 3, 4, 5)",
        ),
    ]


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (("sentences:\n", "quote: x\n        sentences:\n"), "needs 'quote' or 'sentences'"),
        (("{n: 2,", "{n: 3,"), "sentence 2 of '001 第十五条' needs 'n: 2' (its position in the article)"),
        (("{n: 3, ", "{"), "needs 'n: 3'"),
        (
            ("clauses: [end.resignation]}", 'clauses: [end.resignation], non-normative: "x"}'),
            "'001 第十五条/3' has clauses and is marked non-normative",
        ),
        (
            ("        sentences:\n", "        clauses: [x]\n        sentences:\n"),
            "put 'clauses' on each sentence",
        ),
    ],
)
def test_sentence_errors_are_located(change, words):
    text = SENTENCES.replace(*change, 1)
    assert text != SENTENCES
    with pytest.raises(InputError) as info:
        load_sources_text(text, "s.yaml")
    assert words in info.value.message and info.value.location.line > 1


def test_an_article_is_checked_whole_against_its_seed(tmp_path: Path):
    table = load_sources_text(SENTENCES, "s.yaml")
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    whole = "第十五条、棋局的终止\n两弃休止后，按照对局者双方达成的共识一方主动认输时，棋局为终止。"
    rest = "一方违反规则被判负时，棋局为终止。\n说明：协商终局在实际中普遍地被采用。目数较多的一方为胜方。"
    (seeds / "001.txt").write_text(whole + rest, "utf-8")
    assert traceability.check_quotes(table, tmp_path) == []
    (seeds / "001.txt").write_text(whole + "（一句）" + rest, "utf-8")  # a sentence left out
    [found] = traceability.check_quotes(table, tmp_path)
    assert "'001 第十五条' joined are not one passage" in found.message


def test_the_first_citation_is_the_sentence_the_verdict_rests_on(tmp_path: Path):
    case = textwrap.dedent(
        """\
        format: 1
        cases:
          - id: board.trace.first
            title: t
            spec: [turn.resign, end.resignation]
            seeds: ["000 §31/1", "000 §31/5"]
            size: 5
            moves: B C3
            expect: {default: "1: legal"}
        """
    )
    path = tmp_path / "first.yaml"
    path.write_text(case, "utf-8")
    files, failures = load_files([path], load_presets(), default_loader())
    assert not failures
    real = load_sources(spec_dir() / SOURCES_FILE)
    [found] = traceability.check_case_citations(files, real)
    assert "first citation '000 §31/1' names a sentence implementing none of its clauses" in found.message
    assert "'000 §31/5' does" in found.message
    path.write_text(case.replace('["000 §31/1", "000 §31/5"]', '["000 §31/5", "000 §31/1"]'), "utf-8")
    files, _ = load_files([path], load_presets(), default_loader())
    assert traceability.check_case_citations(files, real) == []
    path.write_text(case.replace('["000 §31/1", "000 §31/5"]', '["000 §31"]'), "utf-8")
    files, _ = load_files([path], load_presets(), default_loader())
    [bare] = traceability.check_case_citations(files, real)
    assert "'000 §31' has several sentences, cite one of them" in bare.message


def test_the_real_table_fixes_what_the_committee_found(real):
    """The sentences the rulings rest on, as the seeds say them, and the cases citing them first."""
    assert real.article("001 第十五条").sentence("8").quote == "3、一方违反规则被判负时，棋局为终止。"
    assert real.article("000 §31").sentence("5").quote == "（2）一方认输一方中途认输时，棋局终止。"
    assert (
        real.article("001 第十条").sentence("13").quote == "双活棋中，一方棋子单独围住的每个空点是其1目地。"
    )
    assert "颗子自尽" in real.article("000 §22").sentence("5").quote
    assert "一般情况下（争棋过程中无放弃）" in real.article("000 §25").quote
    assert "休止" in real.article("003 第七条").quote
    ing = real.article("Ing rules")
    assert "superko" in ing.sentence("4").quote and "rep.positional" in ing.sentence("4").clauses
    files, _ = load_files([conformance_dir()], load_presets(), default_loader())
    cases = {c.id: c for f in files for c in f.cases}
    ko = cases["ko.simple.001"]
    assert ko.seeds[0] == "001 第八条/2" and "001 第十五条/8" in ko.seeds[1:]
    resigning = [
        c for c in cases.values() if set(c.spec[:1]) & {"turn.resign", "end.resignation"} and c.seeds
    ]
    resign = {"000 §31/5", "001 第十五条/7", "002 §32/2", "004 认输/1"}  # 一方中途认输, 一方主动认输 …
    assert len(resigning) >= 20 and all(c.seeds[0] in resign for c in resigning)
    assert cases["count.art.012"].seeds[0] == "001 第十条/13"  # a seki: its 双活 sentence
    assert cases["count.art.004"].seeds[0] == "001 第十条/3"  # a ko claim: 单劫不粘有1目
    assert cases["count.art.003"].seeds[0] == "001 第十条/8"  # a one-sided dame
    assert not any(s == "004 Chinese summary" for c in cases.values() for s in c.seeds)
