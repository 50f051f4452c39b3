"""A case's page: what it claims, what every ruleset does with it, step by step, on SVG boards.

Sections: the header (title, review status, file, tags, rulesets), what the case rests on (clauses,
seed articles quoted, open questions), the note and the committee's decision, the verdict matrix
(every ruleset × every step, disagreements highlighted), the initial position, each step with the
boards after it and the clause deciding it, the end, the settling stage and the count (when the case
has them), the text of the deciding clauses, and the commands that reproduce it. The clause and the
marks come from :mod:`jpdtools.review.explanation`, as ``jpd explain`` prints them.
"""

import re
from collections import Counter

from jpdtools.book.boards import count_picture, initial_picture, step_pictures
from jpdtools.book.context import Book
from jpdtools.book.lang import Language
from jpdtools.book.lang.glossary import cell_html, cell_text, term_for
from jpdtools.book.lang.lines import line_zh
from jpdtools.book.lang.sources import SOURCES_ZH
from jpdtools.book.observe import CaseRecord, verdict_of
from jpdtools.book.page import (
    code,
    esc,
    ident,
    link,
    page,
    paragraphs,
    ruleset_href,
    seed_href,
    slug,
    table,
    ul,
)
from jpdtools.book.quotes import rule_html
from jpdtools.book.reviewpanel import review_panel
from jpdtools.book.reviewview import decision_html, ruling_of, shown_status, standing_badge
from jpdtools.book.statusproof import status_proof_section, status_proof_summary
from jpdtools.book.svg import Picture, board_svg, legend
from jpdtools.book.units import margin_html
from jpdtools.paths import conformance_dir
from jpdtools.review.explanation import (
    Decision,
    agreement_lines,
    count_mark,
    deciding_clause,
    ending_clause,
    observed_text,
    settle_lines,
    step_verdict,
    verdict_mark,
)
from jpdtools.run.compare import Status, claim_text, observed_claim, observed_end
from jpdtools.suite.model import decimal_text
from jpdtools.suite.standing import standing

ROOT = "../"
MARK_CLASS = {"ok": "ok", "FAIL": "bad", "open": "open", "no claim": "none", "-": "none"}


def relative(where: str) -> str:
    """A file location as the repository names it (``conformance/ko.yaml:5:9``), in a checkout or
    installed (the default suite's folder is named ``conformance/`` either way)."""
    prefix = f"{conformance_dir().parent}/"
    return where[len(prefix) :] if where.startswith(prefix) else where


def review_status(case) -> str:
    return shown_status(case, case.content_revision)


def _groups(pairs):
    groups: dict = {}
    for name, key in pairs:
        groups.setdefault(key, []).append(name)
    return [(names, key) for key, names in groups.items()]


def _names(book: Book, names) -> str:
    return ", ".join(_ruleset(book, n) for n in names)


def _ruleset(book: Book, name: str) -> str:
    """A ruleset's name, linked to its page (the loader's pseudo-ruleset of error cases has none)."""
    return (
        link(ruleset_href(name, ROOT), name)
        if name in book.presets.names
        else f'<span translate="no">{esc(name)}</span>'
    )


def _decision_html(book: Book, d: Decision) -> str:
    lang = book.lang
    parts = []
    for anchor in d.anchors:
        href = book.anchor_link(anchor, ROOT)
        heading = book.anchors[anchor].heading if anchor in book.anchors else ""
        label = f"{esc(anchor)} — {book.clause_heading(anchor)}" if heading else esc(anchor)
        parts.append(f'<a href="{esc(href)}">{label}</a>' if href else label)
    axes = "".join(f"; {code(f'{a}={v}')}" for a, v in d.axes)
    sources = "".join(f"<br><small>{_source(lang, s)}</small>" for s in d.sources)
    return lang.h("case.decided-by", clauses=lang.t("case.then").join(parts)) + axes + sources


def _source(lang: Language, line: str) -> str:
    """``axis: source`` (:class:`jpdtools.review.explanation.Decision`): the axis as code, the
    source as spec/rulesets.yaml gives it (its citations are the rules' own)."""
    axis, _, source = line.partition(": ")
    if not source:
        return lang.fallback(line)
    return f"{code(axis)}{lang.t('colon')}{lang.either(source, SOURCES_ZH.get(source))}"


def case_title(book: Book, case) -> str:
    """The case's title as HTML in the book's language (English, marked, where it has no zh text)."""
    return book.lang.either(case.title, getattr(case, "zh_title", None))


def case_note(book: Book, case) -> str:
    """The case's note as paragraphs in the book's language (English, marked, where untranslated)."""
    zh = getattr(case, "zh_note", None)
    if book.lang.code != "en" and zh:
        return paragraphs(zh)
    if book.lang.code == "en":
        return paragraphs(case.note)
    return f'<div class="fallback" lang="en">{paragraphs(case.note)}</div>'


def _header(book: Book, record: CaseRecord) -> str:
    lang = book.lang
    case = record.case
    where = relative(str(case.location) if case.location else record.file)
    rows = [
        (
            lang.t("case.status"),
            standing_badge(standing(case, case.content_revision, "", book.review_quorum), lang),
        ),
        (lang.t("case.file"), code(where)),
        (lang.t("case.tags"), ", ".join(code(t) for t in case.tags) or "–"),
        (lang.t("case.rulesets"), _names(book, record.rulesets) or "–"),
        (
            lang.t("case.outcome"),
            f'<span class="st-{esc(record.worst)}">{lang.t("outcome." + str(record.worst))}</span>',
        ),
    ]
    if case.depends:
        rows.append((lang.t("case.depends"), ", ".join(code(d) for d in case.depends)))
    body = "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in rows)
    return f'<h1>{code(case.id)} — {case_title(book, case)}</h1><table class="meta">{body}</table>'


def _rests_on(book: Book, record: CaseRecord) -> str:
    lang = book.lang
    case = record.case
    clauses, questions = [], []
    for anchor in case.spec:
        href = book.anchor_link(anchor, ROOT)
        heading = book.clause_heading(anchor) if anchor in book.anchors else lang.t("case.not-in-spec")
        item = (link(href, anchor) if href else code(anchor)) + f" — {heading}"
        (questions if anchor.startswith("oq.") else clauses).append(item)
    seeds = [_citation(book, citation) for citation in case.seeds]
    out = [f"<h2>{lang.t('case.rests-on')}</h2>", f"<h3>{lang.t('case.clauses')}</h3>", ul(clauses)]
    out.append(f"<h3>{lang.t('case.seeds')}</h3>")
    out.append(ul(seeds, "seeds"))
    if questions or case.open:
        opened = [lang.t("case.open", text="") + lang.fallback(o) for o in case.open]
        out += [f"<h3>{lang.t('case.questions')}</h3>", ul(questions + opened)]
    return "".join(out)


def _citation(book: Book, citation: str) -> str:
    """A seed citation: the sentence each of its items names, quoted, and a link to it on its
    article's page, where the article stands whole."""
    lang = book.lang
    pins = book.seeds.pins(citation)
    if not pins:
        return code(citation)
    out = [code(citation)]
    for article, label in pins:
        if label is not None and article.sentences:
            href = seed_href(article.id, ROOT) + (f"#s{label}" if label else "")
            out.append(rule_html(article, article.sentence_at(label), lang, "operative"))
            out.append(f'<p class="cite-of">— {ident(href, article.sentence_id(label))}</p>')
        else:
            shown = rule_html(article, article.sentence_at(""), lang) if article.quote else ""
            out.append(f"<p>{ident(seed_href(article.id, ROOT), article.id)}</p>{shown}")
    return "".join(out)


def _note(book: Book, record: CaseRecord) -> str:
    case = record.case
    out = []
    if case.note:
        out += [f"<h2>{book.lang.t('case.note')}</h2>", case_note(book, case)]
    label = lambda name: _ruleset(book, name)  # noqa: E731
    out.append(decision_html(case, case.content_revision, book.review_quorum, label, book.lang))
    return "".join(out)


# -- the verdict matrix -------------------------------------------------------------------------


def _step_cell(item, result, n: int) -> tuple[str, str, str]:
    """(text, mark, verdict word) of step ``n`` under one ruleset."""
    obs = result.observation
    step = obs.steps[n - 1]
    verdict = step_verdict(item, n)
    return claim_text(observed_claim("legal", step)), verdict_mark(verdict, step), verdict_of(obs)[n - 1]


def _cell(book: Book, text: str, ruleset: str) -> str:
    """A verdict cell's text as HTML in the book's language: each grammar word its term in the
    ruleset's own vocabulary (spec/case.lark's words in English), linked to its glossary entry."""
    shown = cell_html(text, book.lang, book.presets.get(ruleset) if ruleset in book.presets.names else None)
    term = term_for(text)
    return f'<a class="term" href="../glossary.html#{esc(term)}">{shown}</a>' if term else shown


def _matrix(book: Book, record: CaseRecord) -> str:
    lang = book.lang
    case = record.case
    columns = [f"{n}: {cell_text(str(a), lang)}" for n, a in enumerate(case.moves, 1)] + [lang.s("col.end")]
    counts = any(r.observation is not None and r.observation.count is not None for r in record.results)
    if counts:
        columns.append(lang.s("col.count"))
    rows: list[tuple[str, list[tuple[str, str, str]] | str]] = []
    for item, result in zip(record.items, record.results, strict=False):
        obs = result.observation
        if result.status is Status.SKIP or obs is None or obs.error:
            detail = result.detail or (obs.error if obs else "")
            rows.append((item.ruleset, f"{lang.s('outcome.' + str(result.status))}: {detail}"))
            continue
        cells = [_step_cell(item, result, n) for n in range(1, len(obs.steps) + 1)]
        cells += [("not reached", "-", "")] * (len(case.moves) - len(obs.steps))
        if obs.end is not None:
            expected = item.expectation.end
            observed = claim_text(observed_end(obs.end))
            mark = "-" if expected is None else "ok" if claim_text(expected) == observed else "FAIL"
            cells.append((observed, mark, observed))
        else:
            cells.append(("–", "-", ""))
        if counts:
            count = obs.count
            if count is None:
                cells.append(("–", "-", ""))
            else:
                _, mark = count_mark(item.expectation.count, count)
                text = (
                    f"error {count.error}"
                    if count.error
                    else margin_html(count.winner, count.margin, count.unit, lang)
                )
                cells.append((text, mark, text))
        rows.append((item.ruleset, cells))
    common: list[str] = []
    for i in range(len(columns)):
        words = Counter(c[i][2] for _, c in rows if not isinstance(c, str) and i < len(c))
        common.append(words.most_common(1)[0][0] if words else "")
    differs = [
        len({c[i][2] for _, c in rows if not isinstance(c, str) and i < len(c)}) > 1
        for i in range(len(columns))
    ]
    head = f"<th>{lang.t('col.ruleset')}</th>" + "".join(
        f'<th class="{"disagree" if d else ""}">{esc(c)}</th>' for c, d in zip(columns, differs, strict=True)
    )
    body = []
    for name, cells in rows:
        scoped = ruling_of(case, name) or any(v.ruleset == name for v in case.votes)
        st = standing(case, case.content_revision, name, book.review_quorum) if scoped else None
        label = _ruleset(book, name) + (f" {standing_badge(st, lang)}" if st else "")
        if isinstance(cells, str):
            body.append(
                f'<tr><th>{label}</th><td colspan="{len(columns)}" class="skip">{esc(cells)}</td></tr>'
            )
            continue
        tds = []
        counted = len(columns) - 1 if counts else None
        for i, (text, mark, word) in enumerate(cells):
            cls = MARK_CLASS.get(mark, "none") + (" differs" if differs[i] and word != common[i] else "")
            sign = {"ok": "✓", "FAIL": "✗", "open": "?"}.get(mark, "")
            if i == counted and text != "–" and not text.startswith("error "):
                shown = f'<a class="term" href="../glossary.html#margin">{text}</a>'  # margin_html
            else:
                shown = _cell(book, text, name)
            tds.append(f'<td class="{cls}" title="{esc(lang.s("mark." + mark))}">{shown} {sign}</td>')
        body.append(f"<tr><th>{label}</th>{''.join(tds)}</tr>")
    shaded = f'<span class="differs">{lang.t("case.shaded")}</span>'
    legend = f'<p class="legend">{lang.h("case.matrix-legend", shaded=shaded)}</p>'
    return (
        f'<h2>{lang.t("case.verdicts")}</h2><div class="scroll">'
        f'<table class="matrix verdicts"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'
        f"</div>{legend}"
    )


# -- steps, end -------------------------------------------------------------------------------


def _played(record: CaseRecord):
    out = []
    for item, result in zip(record.items, record.results, strict=False):
        obs = result.observation
        if result.status is not Status.SKIP and obs is not None and not obs.error:
            out.append((item, result))
    return out


def _shows_virtual(record: CaseRecord) -> bool:
    case = record.case
    settle = case.setup.final.settle if case.setup and case.setup.final else None
    actions = (*case.history, *case.moves, *(settle.moves if settle else ()))
    return any(a.kind == "virtual" for a in actions)


_BOARD_CLAIM = re.compile(r"\bboard ([XO.+]+(?:/[XO.+]+)+)")


def _without_board(text: str, lang: Language) -> tuple[str, str]:
    """A claim's text with its ``board ROWS`` part drawn as a board instead of spelled out:
    (the text, naming the board, and the figure; "" when there is none)."""
    found = _BOARD_CLAIM.search(text)
    if not found:
        return text, ""
    rows = found.group(1)
    picture = Picture(rows=rows.replace("+", "."), label=lang.s("case.expected-board.label"))
    figure = (
        f'<figure class="expected">{board_svg(picture, lang)}'
        f"<figcaption>{lang.t('case.expected-board')}</figcaption></figure>"
    )
    return text[: found.start()] + lang.s("case.board-below") + text[found.end() :], figure


def _claim(book: Book, text: str, ruleset: str) -> str:
    """An expected or observed claim, as code in English, as terms in another language."""
    if book.lang.code == "en":
        return code(text)
    rules = book.presets.get(ruleset) if ruleset in book.presets.names else None
    return f'<span class="claim">{cell_html(text, book.lang, rules)}</span>'


def _mark(lang: Language, mark: str) -> str:
    return f'<span class="{MARK_CLASS.get(mark, "none")}">[{lang.t("mark." + mark)}]</span>'


def _steps(book: Book, record: CaseRecord, decisions: dict[str, Decision]) -> str:
    lang = book.lang
    case = record.case
    played = _played(record)
    virtual = _shows_virtual(record)
    pictures = {
        item.ruleset: step_pictures(r.observation.steps, case.setup, case.history, virtual)
        for item, r in played
    }
    out = []
    for n, action in enumerate(case.moves, 1):
        out.append(f'<section class="step"><h3>{lang.h("case.step-n", n=str(n), action=code(action))}</h3>')
        lines = []
        boards = []
        for item, result in played:
            steps = result.observation.steps
            if n > len(steps):
                lines.append((item.ruleset, ("not reached", "", "-", None)))
                continue
            step = steps[n - 1]
            verdict = step_verdict(item, n)
            d = deciding_clause(step, action.kind, item.rules, book.anchors)
            for anchor in d.anchors:
                decisions.setdefault(anchor, d)
            expected = claim_text(verdict) if verdict else "–"
            lines.append((item.ruleset, (expected, observed_text(step), verdict_mark(verdict, step), d)))
            boards.append((item.ruleset, pictures[item.ruleset][n - 1]))
        items = []
        for names, (expected, observed, mark, d) in _groups(lines):
            why = _decision_html(book, d) if d is not None else ""
            said, board = _without_board(expected, lang)
            items.append(
                lang.h(
                    "case.expected-observed",
                    rulesets=_names(book, names),
                    expected=_claim(book, said, names[0]),
                    observed=_claim(book, _without_board(observed, lang)[0], names[0]),
                )
                + f" {_mark(lang, mark)}<br>{why}{board}"
            )
        out.append(ul(items, "verdict-lines"))
        out.append('<div class="boards">')
        groups = _groups(boards)
        for names, picture in groups:
            caption = (
                lang.t("case.after-step")
                if len(groups) == 1
                else lang.h("case.after-step-under", rulesets=_names(book, names))
            )
            out.append(
                f"<figure>{board_svg(picture, lang)}"
                f"<figcaption>{caption}{legend(picture, lang)}</figcaption></figure>"
            )
        out.append("</div></section>")
    return f"<h2>{lang.t('case.steps')}</h2>" + "".join(out) if case.moves else ""


def _end(book: Book, record: CaseRecord) -> str:
    lang = book.lang
    pairs = []
    for item, result in _played(record):
        end = result.observation.end
        if end is None:
            continue
        expected = claim_text(item.expectation.end) if item.expectation.end else "–"
        observed = claim_text(observed_end(end))
        mark = "-" if expected == "–" else "ok" if expected == observed else "FAIL"
        pairs.append((item.ruleset, (expected, observed, mark, ending_clause(end, item.rules, book.anchors))))
    items = []
    for names, (expected, observed, mark, d) in _groups(pairs):
        why = "<br>" + _decision_html(book, d) if d is not None else ""
        items.append(
            lang.h(
                "case.expected-observed",
                rulesets=_names(book, names),
                expected=_claim(book, expected, names[0]),
                observed=_claim(book, observed, names[0]),
            )
            + f" {_mark(lang, mark)}{why}"
        )
    return f"<h2>{lang.t('case.end')}</h2>" + ul(items, "verdict-lines")


def _initial(record: CaseRecord, lang: Language) -> str:
    case = record.case
    setup = case.setup
    colour = lang.s("colour." + setup.to_move)
    head = lang.t("case.setup-size", width=setup.width, height=setup.height, colour=colour)
    if setup.handicap:
        head += lang.t("case.setup-handicap", n=setup.handicap)
    history = ""
    if case.history:
        history = f"<p>{lang.t('case.history')} " + " ".join(code(a) for a in case.history) + "</p>"
    picture = initial_picture(setup, _shows_virtual(record), lang.s("board.initial"))
    caption = lang.t("case.setup-dead" if picture.crossed else "case.setup")
    return (
        f"<h2>{lang.t('case.initial')}</h2><p>{head}</p>"
        f"<figure>{board_svg(picture, lang)}{legend(picture, lang)}"
        f"<figcaption>{caption}</figcaption>"
        f"</figure>{history}"
    )


# -- settling, counting ---------------------------------------------------------------------------


def _settle(book: Book, record: CaseRecord) -> str:
    lang = book.lang
    spec = record.case.setup.final.settle
    dispute = [f"{lang.s('settle.stones')} {' '.join(spec.stones)}"] if spec.stones else []
    dispute += [f"{lang.s('settle.claims')} {', '.join(map(str, spec.claims))}"] if spec.claims else []
    first = lang.s("colour." + spec.first) if spec.first in ("B", "W") else spec.first
    out = [
        f"<h2>{lang.t('case.settle')}</h2>",
        ul(
            [
                lang.t("settle.dispute", what="; ".join(dispute) or lang.s("none")),
                lang.t("settle.first", who=first or lang.s("settle.first.default")),
                lang.t("settle.moves", moves="") + (" ".join(code(m) for m in spec.moves) or lang.t("none")),
            ]
        ),
    ]
    pairs = []
    for item, result in _played(record):
        settling = result.observation.settling
        if settling is not None:
            pairs.append((item.ruleset, (settle_lines(item, settling), settling)))
    for names, (lines, settling) in _groups(pairs):
        out.append(f"<h3>{_names(book, names)}</h3>")
        out.append(ul([said(lang, line) for line in lines], "verdict-lines"))
        if settling.error is None and settling.steps:
            picture = step_pictures(settling.steps, record.case.setup, (), _shows_virtual(record))[-1]
            out.append(
                f"<figure>{board_svg(picture, lang)}"
                f"<figcaption>{lang.t('settle.end-of-stage')}</figcaption></figure>"
            )
    return "".join(out)


def _owners_table(count, lang: Language) -> str:
    groups: dict[tuple[str, str], list[str]] = {}
    for vertex, owner, why in count.points:
        groups.setdefault((owner, why), []).append(vertex)
    rows = [
        (lang.word("owner.", owner), lang.word("why.", why), str(len(vs)), esc(" ".join(vs)))
        for (owner, why), vs in sorted(groups.items())
    ]
    head = [lang.t("col.owner"), lang.t("col.why"), lang.t("col.points"), lang.t("col.where")]
    return table(head, rows, "owners")


def said(lang: Language, text: str) -> str:
    """A line the implementation writes (a count's step, the komi, a settling line) as HTML in
    ``lang`` (:mod:`jpdtools.book.lang.lines`; the English, marked, where no pattern knows it)."""
    return lang.either(text, line_zh(text) if lang.code != "en" else None)


def _figures(parts, lang: Language) -> str:
    return lang.s("list.sep").join(f"{lang.word_text('part.', name)} {decimal_text(v)}" for name, v in parts)


def _count(book: Book, record: CaseRecord) -> str:
    lang = book.lang
    setup = record.case.setup
    out = [f"<h2>{lang.t('case.count')}</h2>", ul([said(lang, line) for line in agreement_lines(setup)])]
    side_rows, groups = [], []
    for item, result in _played(record):
        obs = result.observation
        count = obs.count
        if count is None:
            continue
        expected, mark = count_mark(item.expectation.count, count)
        sign = f'<span class="{MARK_CLASS.get(mark, "none")}">{lang.t("mark." + mark)}</span>'
        method = lang.word("method.", count.method) if count.method else "–"
        if count.error:
            side_rows.append(
                (
                    _ruleset(book, item.ruleset),
                    method,
                    "",
                    "",
                    "",
                    lang.h("count.refused", code=code(count.error)),
                    code(expected),
                    sign,
                )
            )
        else:
            side_rows.append(
                (
                    _ruleset(book, item.ruleset),
                    f"{method} ({esc(count.unit)})",
                    said(lang, str(count.komi)),
                    esc(decimal_text(count.black)),
                    esc(decimal_text(count.white)),
                    margin_html(count.winner, count.margin, count.unit, lang),
                    code(expected),
                    sign,
                )
            )
        settling = obs.settling
        halt = (
            settling.steps[-1].board
            if settling and settling.steps
            else (obs.steps[-1].board if obs.steps else obs.initial_board)
        )
        groups.append((item.ruleset, (count, halt)))
    out.append(f"<h3>{lang.t('case.count.side-by-side')}</h3>")
    head = [
        "col.ruleset",
        "col.method",
        "col.komi",
        "col.black",
        "col.white",
        "col.result",
        "col.expected",
        "col.mark",
    ]
    out.append(table([lang.t(h) for h in head], side_rows, "counts"))
    boards = _groups(
        [(name, (count.board, count.points, halt)) for name, (count, halt) in groups if not count.error]
    )
    counts = dict(groups)
    for names, (_, _, halt) in boards:
        first = counts[names[0]][0]
        out.append(
            f'<section class="count"><h3>{lang.h("count.board-under", rulesets=_names(book, names))}</h3>'
        )
        picture = count_picture(first, halt, lang.s("count.board-under", rulesets=", ".join(names)))
        caption = lang.t("count.board-caption.dead" if picture.crossed else "count.board-caption")
        out.append(
            f'<div class="boards"><figure>{board_svg(picture, lang)}{legend(picture, lang)}'
            f"<figcaption>{caption}</figcaption></figure>"
            f"<div>{_owners_table(first, lang)}</div></div>"
        )
        for same, count in _groups([(n, counts[n][0]) for n in names]):
            figures = [
                lang.h(
                    "count.method-line",
                    method=lang.word("method.", count.method),
                    unit=esc(count.unit),
                    komi=said(lang, str(count.komi)),
                ),
                lang.t(
                    "count.black-line",
                    total=decimal_text(count.black),
                    parts=_figures(count.black_parts, lang),
                ),
                lang.t(
                    "count.white-line",
                    total=decimal_text(count.white),
                    parts=_figures(count.white_parts, lang),
                ),
                *(said(lang, step) for step in count.steps),
            ]
            out.append(f"<h4>{_names(book, same)}</h4>{ul(figures)}")
        out.append("</section>")
    for name, (count, _) in groups:
        if count.error:
            refused = lang.h("count.refused-why", code=code(count.error), message=said(lang, count.message))
            out.append(f"<p>{_ruleset(book, name)}: {refused}</p>")
    return "".join(out)


# -- clause texts, commands, error cases ----------------------------------------------------------


def _clause_texts(book: Book, record: CaseRecord, decided: dict[str, Decision]) -> str:
    lang = book.lang
    anchors = [a for a in decided if a in book.spec.sections]
    anchors += [a for a in record.case.spec if a in book.spec.sections and a not in anchors]
    out = [f"<h2>{lang.t('case.clause-texts')}</h2>"]
    for anchor in anchors:
        deciding = f" {lang.t('case.decides-here')}" if anchor in decided else ""
        name = link(book.anchor_link(anchor, ROOT), anchor)
        text = book.clause_html(anchor, ROOT)
        out.append(
            f"<details{' open' if deciding else ''}>"
            f"<summary>{name} — {book.clause_heading(anchor)}{deciding}</summary>"
            f"{text}</details>"
        )
    return "".join(out)


def _reproduce(record: CaseRecord, lang: Language) -> str:
    cid = record.case.id
    flag = "" if lang.code == "en" else f" --lang {lang.code}"
    commands = [f"jpd explain {cid}{flag}", f"jpd run --id {cid}"]
    return f'<h2>{lang.t("case.reproduce")}</h2><pre class="commands">' + esc("\n".join(commands)) + "</pre>"


def _error_case(record: CaseRecord, lang: Language) -> str:
    spec = record.case.load_error
    rows = [f"{lang.t('outcome.' + str(r.status))}: {esc(r.detail)}" for r in record.results]
    return (
        f"<h2>{lang.t('case.error-case')}</h2><p>"
        + lang.h("case.error-case.text", code=code(spec.code), line=str(spec.line), column=str(spec.column))
        + f"</p><pre>{esc(spec.file)}</pre>{ul(rows)}"
    )


def case_path(case_id: str) -> str:
    """Where a case's page is, inside an edition."""
    return f"cases/{slug(case_id)}.html"


def case_page(book: Book, record: CaseRecord) -> str:
    case = record.case
    title = getattr(case, "zh_title", None) if book.lang.code != "en" else None
    return page(book.lang, f"{case.id} — {title or case.title}", case_body(book, record), case_path(case.id))


def case_body(book: Book, record: CaseRecord, clause_texts: bool = True) -> str:
    """The page's content (its links lead from a folder one level below the book's top);
    without ``clause_texts`` the clauses are named and linked, not quoted (the printed book). What
    the case's page and its printed chapter both show is made once per edition."""
    parts, decided = book.once(("case", id(record)), lambda: _shown_in_both(book, record))
    lang = book.lang
    case = record.case
    parts = list(parts)
    if clause_texts:
        parts.append(_clause_texts(book, record, decided))
        parts.append(review_panel("case", case.id, record.rulesets, lang, case.content_revision))
    parts.append(_reproduce(record, lang))
    return "\n".join(parts)


def _shown_in_both(book: Book, record: CaseRecord) -> tuple[tuple[str, ...], dict[str, Decision]]:
    """What a case's page and the printed book show of it, up to its clauses (the clauses that
    decide its steps are gathered in passing)."""
    case = record.case
    lang = book.lang
    parts = [_header(book, record), _note(book, record)]
    decided: dict[str, Decision] = {}
    if case.load_error is not None or case.setup is None:
        parts.append(_error_case(record, lang) if case.load_error is not None else "")
    else:
        overview = f"<div>{_initial(record, lang)}</div><div>{_matrix(book, record)}</div>"
        overview = status_proof_summary(case, book.presets, lang) + f'<div class="overview">{overview}</div>'
        parts += [overview, _steps(book, record, decided), _end(book, record)]
        final = case.setup.final
        if final is not None and final.settle is not None:
            parts.append(_settle(book, record))
        if final is not None:
            parts.append(_count(book, record))
            parts.append(status_proof_section(case, book.presets, lang))
    parts.append(_rests_on(book, record))
    return tuple(parts), decided
