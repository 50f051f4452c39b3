"""Where the rulesets differ: a ruleset × ruleset matrix of how many cases get different verdicts
(each cell a link to the list, verdicts side by side), and the overrides of the open questions."""

from itertools import combinations

from jpdtools.book.casepage import case_title
from jpdtools.book.context import Book
from jpdtools.book.lang import EN
from jpdtools.book.lang.glossary import cell_text
from jpdtools.book.observe import verdict_of
from jpdtools.book.page import case_href, code, esc, link, page, question_href, ruleset_href, table
from jpdtools.book.rulesetpages import pair_name

Pairs = dict[tuple[str, str], list[str]]


def differing(book: Book) -> Pairs:
    """(a, b) sorted → ids of the cases whose verdicts under a and b differ."""
    out: Pairs = {}
    names = book.presets.names
    for a, b in combinations(names, 2):
        out[tuple(sorted((a, b)))] = []
    for record in book.suite.records:
        verdicts = {r.ruleset: verdict_of(r.observation) for r in record.results if r.observation is not None}
        for a, b in combinations([n for n in names if n in verdicts], 2):
            if verdicts[a] != verdicts[b]:
                out[tuple(sorted((a, b)))].append(record.case.id)
    return out


def _definition(lang) -> str:
    said = lang.h("differences.definition", ko=code("ko"), superko=code("superko"), run=code("jpd run"))
    return f"<p>{said}</p>"


def matrix_page(book: Book, pairs: Pairs) -> str:
    lang = book.lang
    root = "../"
    names = book.presets.names
    most = max((len(v) for v in pairs.values()), default=1) or 1
    head = ["", *(f'<span class="vert">{link(ruleset_href(n, root), n)}</span>' for n in names)]
    rows = []
    for a in names:
        cells = [link(ruleset_href(a, root), a)]
        for b in names:
            if a == b:
                cells.append('<span class="diag">–</span>')
                continue
            ids = pairs[tuple(sorted((a, b)))]
            shade = round(100 * len(ids) / most)
            title = lang.s("differences.cell", a=a, b=b, n=len(ids))
            cells.append(
                f'<a class="cell" style="--shade:{shade}%" href="{pair_name(a, b)}.html" '
                f'title="{esc(title)}">{len(ids)}</a>'
            )
        rows.append(cells)
    overrides = [
        (
            link(question_href(o.question, root) + f"#{o.rules}", o.question),
            code(o.rules),
            str(len(book.flips.get(o.rules, ()))),
        )
        for o in book.overrides
    ]
    body = [
        f"<h1>{lang.t('nav.differences')}</h1>",
        _definition(lang),
        '<div class="scroll">' + table(head, rows, "matrix differences") + "</div>",
        f"<p>{link('../study/index.html', lang.s('study.link'))}</p>" if book.study is not None else "",
        f"<h2>{lang.t('differences.overrides')}</h2>",
        f"<p>{lang.t('differences.overrides.intro')}</p>",
        table([lang.t("col.question"), lang.t("col.ruleset"), lang.t("col.flipped")], overrides),
    ]
    return page(lang, lang.s("nav.differences"), "".join(body), "differences/index.html")


KINDS = ("play", "winner", "margin")  # differences.kind.KIND


def _count_winner(part: str) -> str:
    return part.split()[1] if part.startswith("count ") and len(part.split()) > 1 else part


def kind_of(va: tuple[str, ...], vb: tuple[str, ...]) -> str:
    """How two verdicts differ: in play, in the count's winner, or only in its margin."""
    play_a = [p for p in va if not p.startswith("count")]
    play_b = [p for p in vb if not p.startswith("count")]
    if play_a != play_b:
        return "play"
    count_a = [_count_winner(p) for p in va if p.startswith("count")]
    count_b = [_count_winner(p) for p in vb if p.startswith("count")]
    return "winner" if count_a != count_b else "margin"


def marked(verdict: tuple[str, ...], other: tuple[str, ...], lang=EN, rules=None) -> str:
    """A verdict as a table cell, every part that differs from ``other`` marked."""
    parts = []
    for n, word in enumerate(verdict, 1):
        text = word if word.startswith(("end ", "count", "error", "not ")) else f"{n}: {word}"
        shown = esc(cell_text(text, lang, rules))
        same = n <= len(other) and other[n - 1] == word
        parts.append(shown if same else f"<mark>{shown}</mark>")
    return "; ".join(parts)


def pair_page(book: Book, a: str, b: str, ids: list[str]) -> str:
    lang = book.lang
    root = "../"
    groups: dict[str, list] = {k: [] for k in KINDS}
    ra, rb = book.presets.get(a), book.presets.get(b)
    for case_id in ids:
        record = book.suite.record(case_id)
        va = verdict_of(record.result(a).observation)
        vb = verdict_of(record.result(b).observation)
        groups[kind_of(va, vb)].append(
            (
                link(case_href(case_id, root), case_id),
                case_title(book, record.case),
                marked(va, vb, lang, ra),
                marked(vb, va, lang, rb),
            )
        )
    body = [
        "<h1>"
        + lang.h(
            "differences.pair",
            a=link(ruleset_href(a, root), a),
            b=link(ruleset_href(b, root), b),
            n=str(len(ids)),
        )
        + "</h1>",
        _definition(lang),
        f"<p>{lang.h('differences.marked', mark='<mark>' + lang.t('differences.mark') + '</mark>')}</p>",
    ]
    for kind in KINDS:
        rows = groups[kind]
        body.append(f'<h2 id="{kind}">{lang.t("differences.kind." + kind)} ({len(rows)})</h2>')
        head = [
            lang.t("col.case"),
            lang.t("col.title"),
            lang.t("differences.under", ruleset=a),
            lang.t("differences.under", ruleset=b),
        ]
        body.append(table(head, rows, "pair") if rows else f"<p>{lang.t('none')}</p>")
    return page(
        lang,
        lang.s("differences.pair", a=a, b=b, n=len(ids)),
        "".join(body),
        f"differences/{pair_name(a, b)}.html",
    )
