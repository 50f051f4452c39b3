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
from jpdtools.book.lang import tr
from jpdtools.book.lang.glossary import term_for
from jpdtools.book.observe import CaseRecord, verdict_of
from jpdtools.book.page import code, esc, link, page, paragraphs, ruleset_href, seed_href, table, ul
from jpdtools.book.reviewpanel import review_panel
from jpdtools.book.reviewview import badge, decision_html, ruling_of, shown_status
from jpdtools.book.svg import Picture, board_svg, legend
from jpdtools.book.units import margin_text
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

ROOT = "../"
MARK_CLASS = {"ok": "ok", "FAIL": "bad", "open": "open", "no claim": "none", "-": "none"}


def relative(where: str) -> str:
    """A file location as the repository names it (``conformance/ko.yaml:5:9``), in a checkout or
    installed (the default suite's folder is named ``conformance/`` either way)."""
    prefix = f"{conformance_dir().parent}/"
    return where[len(prefix) :] if where.startswith(prefix) else where


def review_status(case) -> str:
    return shown_status(case)


def _groups(pairs):
    groups: dict = {}
    for name, key in pairs:
        groups.setdefault(key, []).append(name)
    return [(names, key) for key, names in groups.items()]


def _names(book: Book, names) -> str:
    return ", ".join(_ruleset(book, n) for n in names)


def _ruleset(book: Book, name: str) -> str:
    """A ruleset's name, linked to its page (the loader's pseudo-ruleset of error cases has none)."""
    return link(ruleset_href(name, ROOT), name) if name in book.presets.names else esc(name)


def _decision_html(book: Book, d: Decision) -> str:
    parts = []
    for anchor in d.anchors:
        href = book.anchor_link(anchor, ROOT)
        heading = book.anchors[anchor].heading if anchor in book.anchors else ""
        label = f"{anchor} — {heading}" if heading else anchor
        parts.append(link(href, label) if href else esc(label))
    axes = "".join(f"; {code(f'{a}={v}')}" for a, v in d.axes)
    sources = "".join(f"<br><small>{esc(s)}</small>" for s in d.sources)
    return "decided by " + "; then ".join(parts) + axes + sources


def _header(book: Book, record: CaseRecord) -> str:
    case = record.case
    status = review_status(case)
    where = relative(str(case.location) if case.location else record.file)
    rows = [
        (tr("case.status"), badge(status)),
        (tr("case.file"), code(where)),
        (tr("case.tags"), ", ".join(esc(t) for t in case.tags) or "–"),
        (tr("case.rulesets"), _names(book, record.rulesets) or "–"),
        (tr("case.outcome"), f'<span class="st-{esc(record.worst)}">{esc(record.worst)}</span>'),
    ]
    if case.depends:
        rows.append((tr("case.depends"), ", ".join(code(d) for d in case.depends)))
    body = "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in rows)
    return f'<h1>{code(case.id)} — {esc(case.title)}</h1><table class="meta">{body}</table>'


def _rests_on(book: Book, record: CaseRecord) -> str:
    case = record.case
    clauses, questions = [], []
    for anchor in case.spec:
        href = book.anchor_link(anchor, ROOT)
        heading = book.anchors[anchor].heading if anchor in book.anchors else "(not in the spec)"
        item = (link(href, anchor) if href else code(anchor)) + f" — {esc(heading)}"
        (questions if anchor.startswith("oq.") else clauses).append(item)
    seeds = [_citation(book, citation) for citation in case.seeds]
    out = [f"<h2>{tr('case.rests-on')}</h2>", f"<h3>{tr('case.clauses')}</h3>", ul(clauses)]
    out.append(f"<h3>{tr('case.seeds')}</h3>")
    out.append(ul(seeds, "seeds"))
    if questions or case.open:
        out += [f"<h3>{tr('case.questions')}</h3>", ul(questions + [esc(f"open: {o}") for o in case.open])]
    return "".join(out)


def _citation(book: Book, citation: str) -> str:
    """A seed citation: the sentence each of its items names, quoted first; the rest of the
    article folded away below it."""
    pins = book.seeds.pins(citation)
    if not pins:
        return esc(citation)
    out = [esc(citation)]
    for article, label in pins:
        name = link(seed_href(article.id, ROOT), article.id)
        if label is not None and article.sentences:
            quote = article.sentence(label)
            said = f" {esc(label)}" if label else ""
            out.append(f'<blockquote class="operative" lang="zh-Hans">{esc(quote)}</blockquote>')
            out.append(f'<p class="cite-of">— {name}{said}</p>')
            rest = [(lab, q) for lab, q in article.sentences if lab != label]
            if rest:
                items = "".join(f"<li>{esc(lab)}: {esc(q)}</li>" for lab, q in rest)
                out.append(
                    f"<details><summary>the article's other sentences ({len(rest)})</summary>"
                    f"<ul>{items}</ul></details>"
                )
        else:
            quote = f"<blockquote>{esc(article.quote)}</blockquote>" if article.quote else ""
            out.append(f"<p>{name}</p>{quote}")
    return "".join(out)


def _note(book: Book, record: CaseRecord) -> str:
    case = record.case
    out = []
    if case.note:
        out += [f"<h2>{tr('case.note')}</h2>", paragraphs(case.note)]
    out.append(decision_html(case, lambda name: _ruleset(book, name)))
    return "".join(out)


# -- the verdict matrix -------------------------------------------------------------------------


def _step_cell(item, result, n: int) -> tuple[str, str, str]:
    """(text, mark, verdict word) of step ``n`` under one ruleset."""
    obs = result.observation
    step = obs.steps[n - 1]
    verdict = step_verdict(item, n)
    return claim_text(observed_claim("legal", step)), verdict_mark(verdict, step), verdict_of(obs)[n - 1]


def _matrix(book: Book, record: CaseRecord) -> str:
    case = record.case
    columns = [f"{n}: {a}" for n, a in enumerate(case.moves, 1)] + ["end"]
    counts = any(r.observation is not None and r.observation.count is not None for r in record.results)
    if counts:
        columns.append("count")
    rows: list[tuple[str, list[tuple[str, str, str]] | str]] = []
    for item, result in zip(record.items, record.results, strict=False):
        obs = result.observation
        if result.status is Status.SKIP or obs is None or obs.error:
            rows.append((item.ruleset, f"{result.status}: {result.detail or (obs.error if obs else '')}"))
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
                    else margin_text(count.winner, count.margin, count.unit)
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
    head = "<th>ruleset</th>" + "".join(
        f'<th class="{"disagree" if d else ""}">{esc(c)}</th>' for c, d in zip(columns, differs, strict=True)
    )
    body = []
    for name, cells in rows:
        ruling = ruling_of(case, name)
        label = _ruleset(book, name) + (f" {badge(ruling.status)}" if ruling else "")
        if isinstance(cells, str):
            body.append(
                f'<tr><th>{label}</th><td colspan="{len(columns)}" class="skip">{esc(cells)}</td></tr>'
            )
            continue
        tds = []
        for i, (text, mark, word) in enumerate(cells):
            cls = MARK_CLASS.get(mark, "none") + (" differs" if differs[i] and word != common[i] else "")
            sign = {"ok": "✓", "FAIL": "✗", "open": "?"}.get(mark, "")
            term = term_for(text)
            shown = (
                f'<a class="term" href="../glossary.html#{esc(term)}">{esc(text)}</a>' if term else esc(text)
            )
            tds.append(f'<td class="{cls}" title="{esc(mark)}">{shown} {sign}</td>')
        body.append(f"<tr><th>{label}</th>{''.join(tds)}</tr>")
    legend = (
        '<p class="legend">✓ the claim holds, ✗ it does not, ? an either-verdict matched; a '
        '<span class="differs">shaded</span> cell differs from most rulesets in that column; a column '
        "head in red: the rulesets disagree there.</p>"
    )
    return (
        f'<h2>{tr("case.verdicts")}</h2><div class="scroll">'
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


def _without_board(text: str) -> tuple[str, str]:
    """A claim's text with its ``board ROWS`` part drawn as a board instead of spelled out:
    (the text, naming the board, and the figure; "" when there is none)."""
    found = _BOARD_CLAIM.search(text)
    if not found:
        return text, ""
    rows = found.group(1)
    picture = Picture(rows=rows.replace("+", "."), label="the board the case expects after this step")
    figure = (
        f'<figure class="expected">{board_svg(picture)}<figcaption>the expected board</figcaption></figure>'
    )
    return text[: found.start()] + "board (drawn below)" + text[found.end() :], figure


def _steps(book: Book, record: CaseRecord, decisions: dict[str, Decision]) -> str:
    case = record.case
    played = _played(record)
    virtual = _shows_virtual(record)
    pictures = {
        item.ruleset: step_pictures(r.observation.steps, case.setup, case.history, virtual)
        for item, r in played
    }
    out = []
    for n, action in enumerate(case.moves, 1):
        out.append(f'<section class="step"><h3>Step {n}: {code(action)}</h3>')
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
            said, board = _without_board(expected)
            items.append(
                f"{_names(book, names)}: expected {code(said)}; observed {code(_without_board(observed)[0])} "
                f'<span class="{MARK_CLASS.get(mark, "none")}">[{esc(mark)}]</span><br>{why}{board}'
            )
        out.append(ul(items, "verdict-lines"))
        out.append('<div class="boards">')
        groups = _groups(boards)
        for names, picture in groups:
            caption = (
                "after this step" if len(groups) == 1 else f"after this step under {_names(book, names)}"
            )
            out.append(
                f"<figure>{board_svg(picture)}<figcaption>{caption}{legend(picture)}</figcaption></figure>"
            )
        out.append("</div></section>")
    return f"<h2>{tr('case.steps')}</h2>" + "".join(out) if case.moves else ""


def _end(book: Book, record: CaseRecord) -> str:
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
            f"{_names(book, names)}: expected {code(expected)}; observed {code(observed)} "
            f'<span class="{MARK_CLASS.get(mark, "none")}">[{esc(mark)}]</span>{why}'
        )
    return f"<h2>{tr('case.end')}</h2>" + ul(items, "verdict-lines")


def _initial(record: CaseRecord) -> str:
    case = record.case
    setup = case.setup
    head = f"{setup.width}×{setup.height}, {setup.to_move} to move"
    if setup.handicap:
        head += f", handicap {setup.handicap} (placed as each ruleset's handicap axis says)"
    history = ""
    if case.history:
        history = "<p>History before the steps: " + " ".join(code(a) for a in case.history) + "</p>"
    picture = initial_picture(setup, _shows_virtual(record))
    return (
        f"<h2>{tr('case.initial')}</h2><p>{esc(head)}</p><figure>{board_svg(picture)}{legend(picture)}"
        f"<figcaption>the set-up{' (stones agreed dead crossed)' if setup.final else ''}</figcaption>"
        f"</figure>{history}"
    )


# -- settling, counting ---------------------------------------------------------------------------


def _settle(book: Book, record: CaseRecord) -> str:
    spec = record.case.setup.final.settle
    dispute = [f"stones {' '.join(spec.stones)}"] if spec.stones else []
    dispute += [f"claims {', '.join(map(str, spec.claims))}"] if spec.claims else []
    out = [
        f"<h2>{tr('case.settle')}</h2>",
        ul(
            [
                "dispute: " + esc("; ".join(dispute) or "none"),
                "first mover: " + esc(spec.first or "the side to move at the halt"),
                "moves: " + (" ".join(code(m) for m in spec.moves) or "none"),
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
        out.append(ul([esc(line) for line in lines], "verdict-lines"))
        if settling.error is None and settling.steps:
            picture = step_pictures(settling.steps, record.case.setup, (), _shows_virtual(record))[-1]
            out.append(f"<figure>{board_svg(picture)}<figcaption>the end of the stage</figcaption></figure>")
    return "".join(out)


def _owners_table(count) -> str:
    groups: dict[tuple[str, str], list[str]] = {}
    for vertex, owner, why in count.points:
        groups.setdefault((owner, why), []).append(vertex)
    rows = [
        (esc("nobody" if owner == "none" else owner), esc(why), str(len(vs)), esc(" ".join(vs)))
        for (owner, why), vs in sorted(groups.items())
    ]
    return table(["owner", "why", "points", "where"], rows, "owners")


def _figures(parts) -> str:
    return ", ".join(f"{name} {decimal_text(v)}" for name, v in parts)


def _count(book: Book, record: CaseRecord) -> str:
    setup = record.case.setup
    out = [f"<h2>{tr('case.count')}</h2>", ul([esc(line) for line in agreement_lines(setup)])]
    side_rows, groups = [], []
    for item, result in _played(record):
        obs = result.observation
        count = obs.count
        if count is None:
            continue
        expected, mark = count_mark(item.expectation.count, count)
        sign = f'<span class="{MARK_CLASS.get(mark, "none")}">{esc(mark)}</span>'
        if count.error:
            side_rows.append(
                (
                    _ruleset(book, item.ruleset),
                    esc(count.method or "–"),
                    "",
                    "",
                    "",
                    esc(f"refused: {count.error}"),
                    code(expected),
                    sign,
                )
            )
        else:
            side_rows.append(
                (
                    _ruleset(book, item.ruleset),
                    esc(f"{count.method} ({count.unit})"),
                    esc(count.komi),
                    esc(decimal_text(count.black)),
                    esc(decimal_text(count.white)),
                    esc(margin_text(count.winner, count.margin, count.unit)),
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
    out.append(f"<h3>{tr('case.count.side-by-side')}</h3>")
    out.append(
        table(
            ["ruleset", "method", "komi", "Black", "White", "result", "expected", "mark"], side_rows, "counts"
        )
    )
    boards = _groups(
        [(name, (count.board, count.points, halt)) for name, (count, halt) in groups if not count.error]
    )
    counts = dict(groups)
    for names, (_, _, halt) in boards:
        first = counts[names[0]][0]
        out.append(f'<section class="count"><h3>The counted board under {_names(book, names)}</h3>')
        picture = count_picture(first, halt, f"the counted board under {', '.join(names)}")
        out.append(
            f'<div class="boards"><figure>{board_svg(picture)}{legend(picture)}'
            "<figcaption>each point's owner: a "
            "black or white square, a red bar for nobody's; crossed stones were taken off as "
            f"dead</figcaption></figure><div>{_owners_table(first)}</div></div>"
        )
        for same, count in _groups([(n, counts[n][0]) for n in names]):
            figures = [
                f"method {esc(count.method)}, unit {esc(count.unit)}; komi: {esc(count.komi)}",
                f"Black {esc(decimal_text(count.black))} ({esc(_figures(count.black_parts))})",
                f"White {esc(decimal_text(count.white))} ({esc(_figures(count.white_parts))})",
                *(esc(step) for step in count.steps),
            ]
            out.append(f"<h4>{_names(book, same)}</h4>{ul(figures)}")
        out.append("</section>")
    for name, (count, _) in groups:
        if count.error:
            refused = f"the count is refused: {code(count.error)} — {esc(count.message)}"
            out.append(f"<p>{_ruleset(book, name)}: {refused}</p>")
    return "".join(out)


# -- clause texts, commands, error cases ----------------------------------------------------------


def _clause_texts(book: Book, record: CaseRecord, decided: dict[str, Decision]) -> str:
    anchors = [a for a in decided if a in book.spec.sections]
    anchors += [a for a in record.case.spec if a in book.spec.sections and a not in anchors]
    out = [f"<h2>{tr('case.clause-texts')}</h2>"]
    for anchor in anchors:
        s = book.spec.sections[anchor]
        deciding = " (decides a step here)" if anchor in decided else ""
        name = link(book.anchor_link(anchor, ROOT), anchor)
        text = book.spec.section_html(anchor, ROOT, book.spec_link)
        out.append(
            f"<details{' open' if deciding else ''}><summary>{name} — {esc(s.heading)}{deciding}</summary>"
            f"{text}</details>"
        )
    return "".join(out)


def _reproduce(record: CaseRecord) -> str:
    cid = record.case.id
    commands = [f"jpd explain {cid}", f"jpd run --id {cid}"]
    return f'<h2>{tr("case.reproduce")}</h2><pre class="commands">' + esc("\n".join(commands)) + "</pre>"


def _error_case(record: CaseRecord) -> str:
    spec = record.case.load_error
    rows = [f"{esc(r.status)}: {esc(r.detail)}" for r in record.results]
    return (
        f"<h2>An error case</h2><p>Loading the quoted file must fail with {code(spec.code)} at line "
        f"{spec.line}, column {spec.column}.</p><pre>{esc(spec.file)}</pre>{ul(rows)}"
    )


def case_page(book: Book, record: CaseRecord) -> str:
    case = record.case
    return page(f"{case.id} — {case.title}", case_body(book, record), ROOT)


def case_body(book: Book, record: CaseRecord, clause_texts: bool = True) -> str:
    """The page's content (its links lead from a folder one level below the book's top);
    without ``clause_texts`` the clauses are named and linked, not quoted (the printed book)."""
    case = record.case
    parts = [_header(book, record), _note(book, record)]
    decided: dict[str, Decision] = {}
    if case.load_error is not None or case.setup is None:
        parts.append(_error_case(record) if case.load_error is not None else "")
    else:
        overview = f"<div>{_initial(record)}</div><div>{_matrix(book, record)}</div>"
        overview = f'<div class="overview">{overview}</div>'
        parts += [overview, _steps(book, record, decided), _end(book, record)]
        final = case.setup.final
        if final is not None and final.settle is not None:
            parts.append(_settle(book, record))
        if final is not None:
            parts.append(_count(book, record))
    parts.append(_rests_on(book, record))
    if clause_texts:
        parts.append(_clause_texts(book, record, decided))
    if clause_texts:
        parts.append(review_panel("case", case.id, record.rulesets))
    parts.append(_reproduce(record))
    return "\n".join(parts)
