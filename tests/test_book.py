"""``jpd book``: a page for everything, no broken link, verdicts and flips as run, text escaped."""

import re
from html import escape

import pytest
import yaml
from book_helpers import PageLinks, broken_links, build_book, page_links
from jpdtools.book.font import characters, own_characters
from jpdtools.book.page import slug
from jpdtools.cli import main
from jpdtools.errors import InputError
from jpdtools.paths import conformance_dir, spec_dir
from jpdtools.presets import load_presets
from jpdtools.review.lint import check_overrides, spec_anchors
from jpdtools.review.overrides import read_overrides
from jpdtools.review.sources import SOURCES_FILE, load_sources
from jpdtools.run.runner import default_loader, load_files
from jpdtools.suite.revision import case_revision

_HOSTILE = """format: 1
topic: hostile text
cases:
  - id: xss.title.001
    title: "<script>document.body.dataset.pwned='title'</script> and
      <img src=x onerror=\\"document.body.dataset.pwned='img'\\">"
    spec: [capture.rule]
    seeds: ["000 §18 <b onmouseover=alert(1)>"]
    tags: ["<i>tag</i>"]
    board: |
      3x3 B
      . . .
      . . .
      . . .
    moves: B B2
    expect:
      default: |
        1: legal
    note: >
      A note with <script>document.body.dataset.pwned='note'</script> and
      <img src=x onerror="document.body.dataset.pwned='note-img'"> in it.
  - id: review.proposed.001
    title: A proposed case
    status: proposed
    spec: [capture.rule]
    seeds: ["000 §18"]
    size: 3x3
    moves: B B2
    expect:
      default: |
        1: legal
  - id: review.disputed.001
    title: A disputed case
    status: disputed
    decision: "Not agreed: <script>document.body.dataset.pwned='decision'</script>"
    decided: 2026-11-30
    decided-by: "committee <i>tag</i>"
    revision: "{revision}"
    spec: [capture.rule]
    seeds: ["000 §18"]
    size: 3x3
    moves: B B2
    expect:
      default: |
        1: legal
  - id: review.voting.001
    title: One member of two has voted
    votes:
      - {by: 李, status: accepted, date: 2026-12-01, revision: "{voting}", text: fine}
    spec: [capture.rule]
    seeds: ["000 §18"]
    size: 3x3
    moves: B B2
    expect:
      default: |
        1: legal
  - id: review.stale.001
    title: Accepted on an earlier revision
    status: accepted
    decision: fine as it was
    decided: 2026-11-30
    decided-by: 李, 王
    revision: "0123456789ab"
    spec: [capture.rule]
    seeds: ["000 §18"]
    size: 3x3
    moves: B B2
    expect:
      default: |
        1: legal
  - id: review.split.001
    title: Two members differ
    votes:
      - {by: 李, status: accepted, date: 2026-12-01, revision: "{split}", text: the verdict follows}
      - {by: 王, status: rejected, date: 2026-12-02, revision: "{split}", text: no rule behind it}
    spec: [capture.rule]
    seeds: ["000 §18"]
    size: 3x3
    moves: B B2
    expect:
      default: |
        1: legal
  - id: review.unrecorded.001
    title: Accepted, says the file, but nobody is named
    status: accepted
    decision: fine
    decided: 2026-11-30
    spec: [capture.rule]
    seeds: ["000 §18"]
    size: 3x3
    moves: B B2
    expect:
      default: |
        1: legal
"""


def _revision_of(text: str, ident: str) -> str:
    """The case's revision (spec/case-format.md#format.revision), so that its decision stands."""
    item = next(c for c in yaml.safe_load(text)["cases"] if c["id"] == ident)
    return case_revision(item)


HOSTILE = (
    _HOSTILE.replace("{revision}", _revision_of(_HOSTILE, "review.disputed.001"))
    .replace("{voting}", _revision_of(_HOSTILE, "review.voting.001"))
    .replace("{split}", _revision_of(_HOSTILE, "review.split.001"))
)


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    out = tmp_path_factory.mktemp("book")
    report = build_book(out, [conformance_dir()])
    return out / "en", report


@pytest.fixture(scope="module")
def hostile_book(tmp_path_factory):
    root = tmp_path_factory.mktemp("hostile")
    (root / "hostile.yaml").write_text(HOSTILE, encoding="utf-8")
    out = root / "book"
    build_book(out, [root / "hostile.yaml"])
    return out / "en"


def test_a_page_for_every_case_clause_question_ruleset_and_article(book):
    out, report = book
    files, failures = load_files([conformance_dir()], load_presets(), default_loader())
    assert not failures and not report.failures
    ids = [c.id for f in files for c in f.cases]
    assert report.cases == len(ids)
    for case_id in ids:
        assert (out / "cases" / f"{slug(case_id)}.html").is_file(), case_id
    anchors = spec_anchors(spec_dir())
    for anchor in anchors:
        kind = "questions" if anchor.startswith("oq.") else "clauses"
        assert (out / kind / f"{slug(anchor)}.html").is_file(), anchor
    for name in load_presets().names:
        assert (out / "rulesets" / f"{slug(name)}.html").is_file(), name
    cited = {s for f in files for c in f.cases for s in c.seeds}
    seeds = (out / "seeds" / "index.html").read_text(encoding="utf-8")
    assert len(list((out / "seeds").glob("*.html"))) > 50
    assert "000" in seeds and len(cited) > 50
    # spec/sources.yaml: the article's quotation and the clause implementing it (000 §22: 禁倒退)
    article = (out / "seeds" / f"{slug('000 §22')}.html").read_text(encoding="utf-8")
    assert "不得使对方再次面对同一个全局棋形" in article and "rep.no-retreat" in article
    # each seed article whole: every sentence of 001 第十条 in order, the cited ones with their cases
    table = load_sources(spec_dir() / SOURCES_FILE)
    tenth = table.article("001 第十条")
    html = (out / "seeds" / f"{slug('001 第十条')}.html").read_text(encoding="utf-8")
    positions = [html.index(f'id="s{s.label}"') for s in tenth.sentences]
    assert len(tenth.sentences) > 10 and positions == sorted(positions)
    assert all(escape(s.quote, quote=False) in html for s in tenth.sentences)
    seki = html[html.rindex("<div", 0, html.index('id="s13"')) : html.index('id="s14"')]
    assert "sentence normative cited" in seki and "count.art.012" in seki and "count.regions" in seki
    assert 'class="sentence non-normative" id="s1"' in html
    # the index marks every sentence: normative, non-normative (with the reason) or not yet used
    assert 'class="chip normative cited"' in seeds and 'class="chip non-normative"' in seeds
    assert "000 §1/1: axiom" in seeds
    zh = (out.parent / "zh" / "seeds" / f"{slug('001 第十条')}.html").read_text(encoding="utf-8")
    assert "条文全文" in zh and "依据此句的条款" in zh and "非规范性：" in zh
    # a case quotes the sentence its verdict rests on and links it on its article's page
    resign = (out / "cases" / "ending.resign.001.html").read_text(encoding="utf-8")
    assert "一方中途认输时，棋局终止。</blockquote>" in resign and f"{slug('000 §31')}.html#s5" in resign
    # a clause's page quotes the sentences resting on it, not their articles' first sentence
    clause = (out / "clauses" / f"{slug('end.resignation')}.html").read_text(encoding="utf-8")
    assert f"{slug('000 §31')}.html#s5" in clause and "一方中途认输时，棋局终止。" in clause
    assert "等子比空，目多为赢" not in clause
    assert (out / "differences" / "index.html").is_file() and (out / "index.html").is_file()


def test_no_link_is_broken(book):
    out, _ = book
    checked, broken = broken_links(out.parent)  # both editions, the links between them too
    assert checked > 20_000
    assert broken == []


def test_the_pages_of_the_suite_use_only_jipingdians_own_characters(book):
    """The font a book carries covers its pages' characters and own_characters(): when the pages
    of a book of the shipped cases add none, every such book asks for the same font (made once,
    then read from the user's cache)."""
    out, _ = book
    used = set()
    for path in out.parent.rglob("*"):
        if path.suffix in (".html", ".json", ".svg", ".js", ".css"):
            used |= characters((path.read_text(encoding="utf-8"),))
    assert len(used) > 1000
    assert sorted(used - own_characters()) == []


def test_the_link_walker_reads_a_page_as_the_html_parser_does(book, hostile_book):
    out, _ = book
    sample = [next((out / folder).glob("*.html")) for folder in ("cases", "clauses", "seeds", "rulesets")]
    sample += [out / "index.html", *hostile_book.parent.rglob("*.html")]
    for path in sample:
        text = path.read_text(encoding="utf-8")
        parser = PageLinks()
        parser.feed(text)
        assert page_links(text) == (parser.ids, parser.links), path
    tricky = (
        '<a HREF="x.html?a=1&amp;b=2" id=top><script>let s = \'<a href="nowhere.html">\';</script>'
        '<!-- <img src=gone.png> --><img src=\'y.png\' alt="a > b"><style>p { }</style><p id="">'
        "<p data-text=\"&lt;img src=z&gt;\" title='a href=w.html'>"
    )
    parser = PageLinks()
    parser.feed(tricky)
    assert page_links(tricky) == (parser.ids, parser.links) == ({"top"}, ["x.html?a=1&b=2", "y.png"])


def test_the_link_walker_finds_a_broken_link(tmp_path):
    (tmp_path / "a.html").write_text(
        '<a href="b.html">b</a><a href="a.html#nowhere">x</a><p id="here">', "utf-8"
    )
    checked, broken = broken_links(tmp_path)
    assert checked == 2 and broken == ["a.html: b.html", "a.html: a.html#nowhere (no such id)"]


def test_a_case_page_shows_boards_verdicts_and_the_deciding_clause(book):
    out, _ = book
    html = (out / "cases" / "ko.simple.001.html").read_text(encoding="utf-8")
    # the set-up and one board per distinct position after each of the two steps
    assert html.count('<svg class="board"') >= 3
    # White's recapture: simple ko refuses it as ko (001 第八条) and J1989 Art. 14 and 001 第十五条 3
    # make that a loss (OQ-9), superko rules refuse it as superko, the Chinese void-pass policy
    # turns it into White's pass
    assert "illegal superko" in html
    assert "void-pass superko" in html and "forfeit ko" in html and "ended illegal-move B" in html
    assert 'class="ok differs"' in html  # the policies disagree: highlighted
    assert "rep.simple-ko — Simple ko" in html
    assert "jpd explain ko.simple.001" in html


def test_a_counting_case_shows_owners_and_every_count_side_by_side(book):
    out, _ = book
    pages = [p for p in (out / "cases").glob("count.area.*.html")]
    assert pages
    html = pages[0].read_text(encoding="utf-8")
    assert "Every ruleset&#x27;s count, side by side" in html or "Every ruleset's count" in html
    assert 'class="owner"' in html and 'data-why="territory"' in html
    assert html.count("<tr>") > 10


def test_the_difference_matrix_links_each_pair(book):
    out, _ = book
    matrix = (out / "differences" / "index.html").read_text(encoding="utf-8")
    assert 'href="chinese--japanese.html"' in matrix
    pair = (out / "differences" / "chinese--japanese.html").read_text(encoding="utf-8")
    assert "ko.simple.001" in pair  # void-pass against loss (Chinese summary 10–11, J1989 Art. 14)
    assert "ko.simple.001" not in (out / "differences" / "jhz-2022--jpd-a.html").read_text("utf-8")


def test_other_readings_flip_cases_when_run(book):
    out, _ = book
    page = (out / "questions" / "oq.7.html").read_text(encoding="utf-8")
    # simple ko with cycles a draw lets the triple ko recur (end cycle draw) where positional
    # superko refuses the move that would repeat the position
    section = page.split("chinese:repetition=simple-ko,cycle=draw", 1)[1]
    assert "cyc.triple.001" in section
    # 004 第四条's board positions against global: no virtual moves in play, so nothing flips (OQ-27)
    assert "— 0 case(s) flip" in (out / "questions" / "oq.27.html").read_text(encoding="utf-8")


def test_a_bad_override_names_its_line(tmp_path):
    register = tmp_path / "open-questions.md"
    register.write_text(
        "## OQ-1: x {#oq.1}\n\nOverrides: reading 2 `chinese:repetition=nonsense`.\n", "utf-8"
    )
    with pytest.raises(InputError) as err:
        read_overrides(register, load_presets())
    assert err.value.location.line == 3 and "nonsense" in str(err.value)
    # jpd lint reports it at its place
    (problem,) = check_overrides(tmp_path, load_presets())
    assert problem.check == "overrides" and problem.location.line == 3 and problem.location.column == 23
    assert check_overrides(spec_dir(), load_presets()) == []


def test_every_text_is_escaped(hostile_book):
    for path in hostile_book.parent.rglob("*.html"):
        html = path.read_text(encoding="utf-8")
        assert "<script>document" not in html, path
        assert not re.search(r"<img[^>]*onerror", html), path
        assert "<b onmouseover" not in html and "<i>tag" not in html, path
    case = (hostile_book / "cases" / "xss.title.001.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;document.body.dataset.pwned=&#x27;title&#x27;&lt;/script&gt;" in case
    disputed = (hostile_book / "cases" / "review.disputed.001.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;" in disputed and "committee &lt;i&gt;tag&lt;/i&gt;, 2026-11-30" in disputed
    assert '<span class="status disputed">disputed</span>' in disputed
    # one vote of a quorum of two; a decision on an earlier revision; members who differ
    voting = (hostile_book / "cases" / "review.voting.001.html").read_text(encoding="utf-8")
    assert '<small class="quorum">(1 of 2 for accepted)</small>' in voting
    stale = (hostile_book / "cases" / "review.stale.001.html").read_text(encoding="utf-8")
    assert (
        '<span class="status proposed">' in stale and '<span class="status accepted">' in stale
    )  # badge, record
    assert (
        "<b>decided on an earlier revision</b>: taken on revision 0123456789ab; the case has changed" in stale
    )
    split = (hostile_book / "cases" / "review.split.001.html").read_text(encoding="utf-8")
    assert split.count("disputed between members") >= 2
    assert (
        "<b>李</b>, 2026-12-01: " in split and "the verdict follows" in split and "no rule behind it" in split
    )
    # a status without a complete decision record (here: no decided-by) is shown as proposed
    unrecorded = (hostile_book / "cases" / "review.unrecorded.001.html").read_text(encoding="utf-8")
    assert '<span class="status accepted">' not in unrecorded
    assert "The file says accepted, but records no complete decision" in unrecorded


def test_the_command(tmp_path, capsys):
    assert main(["book", str(tmp_path / "b"), str(conformance_dir() / "ko.yaml")]) == 0
    assert "written to" in capsys.readouterr().out
    assert (tmp_path / "b" / "index.html").is_file()


def test_a_file_that_does_not_load_is_reported_and_the_rest_is_built(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: 1\ncases: [\n", "utf-8")
    assert main(["book", str(tmp_path / "b"), str(bad), str(conformance_dir() / "ko.yaml")]) == 1
    assert "bad.yaml:" in capsys.readouterr().err
    assert (tmp_path / "b" / "en" / "cases" / "ko.simple.001.html").is_file()


def test_a_clause_page_lists_where_it_decides(book):
    out, _ = book
    html = (out / "clauses" / "rep.simple-ko.html").read_text(encoding="utf-8")
    # the presets whose repetition axis is simple-ko (spec/rulesets.yaml) refuse White's recapture
    row = html.split(">ko.simple.001</a>", 2)[2].split("</tr>", 1)[0]
    assert "step 2 (jpd-art-2008, japanese)" in row


@pytest.mark.parametrize("outdir", ["", "FILE"])
def test_an_outdir_that_is_empty_or_a_file_is_refused(tmp_path, capsys, monkeypatch, outdir):
    """Like ``jpd export``: an empty OUTDIR is an error, not the current folder; a file is no folder."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "FILE").write_text("not a folder")
    assert main(["book", outdir, "--tag", "ko"]) == 2
    assert "OUTDIR" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["FILE"]  # nothing written


def test_a_count_is_spelled_the_same_in_title_cell_and_table(book):
    out, _ = book
    html = (out / "cases" / "count.area.001.html").read_text(encoding="utf-8")
    # the verdict cell and the count table: the margin in points and in the method's unit (子)
    assert html.count("W by 0.5 points = 0.25 子") >= 2
    assert "W -0.5" not in html
    assert "White wins by ¼ stone (0.5 points)" in html  # the title says both


def test_a_pair_page_separates_winners_from_margins_and_marks_the_step(book):
    out, _ = book
    pair = (out / "differences" / "chinese--japanese.html").read_text(encoding="utf-8")
    for heading in (
        "A different verdict in play",
        "The same play, a different winner",
        "The same winner, a different margin",
    ):
        assert heading in pair
    play = pair.split('id="play"')[1].split('id="winner"')[0]
    assert "ko.simple.001" in play and "<mark>2: " in play  # the recapture is where they differ
    margins = pair.split('id="margin"')[1]
    assert "<mark>count " in margins or "None." in margins


def test_boards_read_at_a_glance(book):
    out, _ = book
    big = [
        p for p in (out / "cases").glob("*.html") if "board (drawn below)" in p.read_text(encoding="utf-8")
    ]
    assert big  # every expected board is drawn, not spelled out
    for path in (out / "cases").glob("*.html"):
        html = path.read_text(encoding="utf-8")
        assert not re.search(r"board [XO.+]{5,}(/[XO.+]{5,}){4,}", html), path  # no raw board strings
    ko = (out / "cases" / "ko.simple.001.html").read_text(encoding="utf-8")
    assert 'class="captured" data-colour="' in ko and "captured by this step" in ko  # in its colour
    assert "board-legend" in ko and "the last move" in ko  # a visible legend
    assert 'class="move-number"' in ko and "the step that placed the stone" in ko  # the final board numbered
    full = next((out / "cases").glob("full19.*.html")).read_text(encoding="utf-8")
    assert full.count('class="star"') >= 9  # the nine star points of 19×19


def test_every_counting_page_with_statuses_shows_its_proof_in_both_editions(book):
    """Each case whose agreement marks stones dead or in seki, or makes a claim the suite proves
    (a one-sided claim; a ko claim unless a settling by play decides it), has the status-proof
    section on its page, in both editions: the proof drawn when proven, the reason when agreed."""
    from jpdtools.paths import conformance_dir
    from jpdtools.presets import load_presets
    from jpdtools.run.runner import case_files, default_loader, load_files

    out, _ = book
    files, _ = load_files(case_files([conformance_dir()]), load_presets(), default_loader())
    missing, checked = [], 0
    for case in (c for f in files for c in f.cases):
        final = case.setup.final if case.setup is not None else None
        if final is None:
            continue
        a = final.agreement
        claims = [c for c in a.claims if c.kind == "one-sided" or (c.kind == "ko" and final.settle is None)]
        if not (a.dead or a.seki or claims):
            continue
        checked += 1
        for edition in (out, out.parent / "zh"):
            html = (edition / "cases" / f"{case.id}.html").read_text(encoding="utf-8")
            start = html.find('<section id="status-proof"')
            section = html[start : html.find("</section>", start)] if start >= 0 else ""
            agreed = case.status_proof[0] == "agreement"
            shown = 'class="proof-agreement"' in section if agreed else '<svg class="board"' in section
            if not shown:
                missing.append((case.id, edition.name))
    assert checked > 50 and missing == []


def test_a_caption_speaks_of_dead_stones_only_where_some_are_crossed(book):
    out, _ = book
    # count.art.004 agrees no dead stone (a ko claim): neither its set-up nor its count is crossed
    none = (out / "cases" / "count.art.004.html").read_text(encoding="utf-8")
    assert "<figcaption>the set-up</figcaption>" in none and "crossed" not in none
    zh = (out.parent / "zh" / "cases" / "count.art.004.html").read_text(encoding="utf-8")
    assert "<figcaption>初始摆放</figcaption>" in zh and "打叉" not in zh
    # count.area.005's diagram marks B4 dead: both captions say what the cross means
    dead = (out / "cases" / "count.area.005.html").read_text(encoding="utf-8")
    assert "<figcaption>the set-up (stones agreed dead crossed)</figcaption>" in dead
    assert "crossed stones were taken off as dead</figcaption>" in dead


def test_a_counting_case_shows_how_its_statuses_are_known(book):
    out, _ = book
    # 003's seki: proven, with the proof's first moves drawn as small boards
    html = (out / "cases" / "count.art.002.html").read_text(encoding="utf-8")
    section = html[html.index('<section id="status-proof"') :]
    section = section[: section.index("</section>")]
    assert 'class="proof-proven"' in section and "second test" in section
    assert section.count('<svg class="board"') > 3 and 'class="move-number"' in section
    assert "in seki (s)" in section and "dead (×)" not in section  # dead named only where some are
    assert 'href="#status-proof"' in html and "are proven" in html
    # a mark agreed on purpose says so, with its reason, and is not drawn as a proof
    agreed = (out / "cases" / "count.counterexample.016.html").read_text(encoding="utf-8")
    assert "Agreed on purpose, not proven:" in agreed and "dead-in-own-area" in agreed
    assert "agreed on purpose, not proven (see why)" in agreed
    # the Chinese edition says the same in its own words
    zh = (out.parent / "zh" / "cases" / "count.art.002.html").read_text(encoding="utf-8")
    assert "死活是怎样确定的" in zh and "已证明" in zh
