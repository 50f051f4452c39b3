"""Where the rulesets differ: a ruleset × ruleset matrix of how many cases get different verdicts
(each cell a link to the list, verdicts side by side), and the overrides of the open questions."""

from itertools import combinations

from jpdtools.book.context import Book
from jpdtools.book.observe import verdict_of
from jpdtools.book.page import case_href, code, esc, link, page, question_href, ruleset_href, table
from jpdtools.book.rulesetpages import pair_name

Pairs = dict[tuple[str, str], list[str]]

DEFINITION = (
    "<p>A case's <em>verdict</em> under a ruleset is what happens in it: whether each step is "
    "accepted, refused, voided or forfeits the game, how play stands at the end, and who wins the "
    "count by how much. Two rulesets differ on a case when both apply to it and its verdicts "
    "differ; the same refusal under another reason code (<code>ko</code> against <code>superko</code>) "
    "is not a difference. Every verdict is the reference implementation's, as <code>jpd run</code> "
    "observes it.</p>"
)


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


def matrix_page(book: Book, pairs: Pairs) -> str:
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
            cells.append(
                f'<a class="cell" style="--shade:{shade}%" href="{pair_name(a, b)}.html" '
                f'title="{esc(a)} vs {esc(b)}: {len(ids)} case(s)">{len(ids)}</a>'
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
        "<h1>Where the rulesets differ</h1>",
        DEFINITION,
        '<div class="scroll">' + table(head, rows, "matrix differences") + "</div>",
        "<h2>Other readings of the open questions</h2>",
        "<p>Each ruleset below is a preset with axis overrides standing for a reading the register did "
        "not choose; every case of the preset was run under it, and the count is of the cases whose "
        "verdict flips.</p>",
        table(["open question", "ruleset", "cases flipped"], overrides),
    ]
    return page("Where the rulesets differ", "".join(body), root)


KINDS = (
    ("play", "A different verdict in play (a step or the end)"),
    ("winner", "The same play, a different winner"),
    ("margin", "The same winner, a different margin"),
)


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


def marked(verdict: tuple[str, ...], other: tuple[str, ...]) -> str:
    """A verdict as a table cell, every part that differs from ``other`` marked."""
    parts = []
    for n, word in enumerate(verdict, 1):
        text = word if word.startswith(("end ", "count", "error", "not ")) else f"{n}: {word}"
        same = n <= len(other) and other[n - 1] == word
        parts.append(esc(text) if same else f"<mark>{esc(text)}</mark>")
    return "; ".join(parts)


def pair_page(book: Book, a: str, b: str, ids: list[str]) -> str:
    root = "../"
    groups: dict[str, list] = {k: [] for k, _ in KINDS}
    for case_id in ids:
        record = book.suite.record(case_id)
        va = verdict_of(record.result(a).observation)
        vb = verdict_of(record.result(b).observation)
        groups[kind_of(va, vb)].append(
            (link(case_href(case_id, root), case_id), esc(record.case.title), marked(va, vb), marked(vb, va))
        )
    body = [
        f"<h1>{link(ruleset_href(a, root), a)} against {link(ruleset_href(b, root), b)}: "
        f"{len(ids)} case(s)</h1>",
        DEFINITION,
        "<p>The parts that differ are <mark>marked</mark>.</p>",
    ]
    for kind, title in KINDS:
        rows = groups[kind]
        body.append(f'<h2 id="{kind}">{esc(title)} ({len(rows)})</h2>')
        body.append(
            table(["case", "title", f"under {esc(a)}", f"under {esc(b)}"], rows, "pair")
            if rows
            else "<p>None.</p>"
        )
    return page(f"{a} against {b}", "".join(body), root)
