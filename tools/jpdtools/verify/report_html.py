"""The compliance report of ``jpd verify`` as one static HTML page (no scripts, no external assets).

Sections: the implementation and timing; outcomes by ruleset; outcomes by axis value; every
failing item (unexpected failures, unexpected passes, errors, expected failures) with each
mismatch as expected versus observed — and, when the caller hands an ``illustrate`` function (the
``jpd verify`` command hands the case book's, :mod:`jpdtools.book.failures`), the boards, the
deciding clause and seeds, and the commands that reproduce it; why items were skipped, grouped by
cause (:func:`skip_cause`) with a count and a few examples each.
"""

from collections.abc import Callable, Sequence
from html import escape

from jpdtools.run.report import suite_lines
from jpdtools.verify.causes import RootCause, root_causes, split
from jpdtools.verify.report import (
    VerifyRun,
    by_axis,
    by_ruleset,
    counts,
    skip_cause,
    summary_line,
    transform_lines,
    transformed,
)
from jpdtools.verify.verification import OUTCOMES, Outcome, VerifyResult

STYLE = """
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:72em;padding:0 1em;color:#222}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:.5em 0}th,td{border:1px solid #ccc;padding:.2em .6em;text-align:right}
th:first-child,td:first-child{text-align:left}code,pre{font:12px/1.3 ui-monospace,monospace}
td.l{text-align:left}.z{color:#bbb}.pass{background:#e6f4e6}.unexpected-failure,.error,.unexpected-pass{background:#fbe3e3}
.expected-failure{background:#fff4d6}.skip,.open{background:#f0f0f0}
details{margin:.4em 0}summary{cursor:pointer}pre{white-space:pre-wrap;margin:.2em 0}
.illustrated{display:flex;flex-wrap:wrap;gap:1em;align-items:flex-start}figure{margin:.3em 0}
figcaption{font-size:12px;color:#555;max-width:28em}svg.board{max-width:100%;height:auto}
body{overflow-wrap:break-word}table{display:block;max-width:100%;overflow-x:auto}th.l{text-align:left}
@media (max-width:40em){
.causes,.causes tbody,.causes tr,.causes td{display:block}.causes tr.head{display:none}
.causes tr{border:1px solid #ccc;margin:.6em 0;padding:.3em .6em}
.causes td{border:0;padding:.1em 0;text-align:left}
.causes td[data-label]::before{content:attr(data-label) ": ";font-weight:bold}}
"""
"""Every table scrolls inside its own box when it is wider than the page; on a narrow screen the
root-cause table is a list of cards, one per cause, each value under its column's name."""

SECTIONS = (
    (Outcome.UNEXPECTED_FAILURE, "Unexpected failures"),
    (Outcome.UNEXPECTED_PASS, "Unexpected passes"),
    (Outcome.ERROR, "Errors"),
    (Outcome.EXPECTED_FAILURE, "Expected failures"),
)


def _counts_row(label: str, c: dict[str, int]) -> str:
    cells = "".join(f'<td class="{o if c[str(o)] else "z"}">{c[str(o)]}</td>' for o in OUTCOMES)
    return f"<tr><td>{escape(label)}</td>{cells}</tr>"


def _counts_table(
    first: str,
    rows: dict[str, dict[str, int]],
    total: dict[str, int] | None = None,
    moved: dict[str, int] | None = None,
) -> str:
    head = "".join(f"<th>{escape(str(o))}</th>" for o in OUTCOMES)
    body = "".join(_counts_row(name, c) for name, c in rows.items())
    if total is not None:
        body += _counts_row("total", total)
    if moved is not None:
        body += _counts_row("of which transformed", moved)
    return f"<table><tr><th>{escape(first)}</th>{head}</tr>{body}</table>"


def _mismatch_row(m: dict) -> str:
    expected, observed = escape(m["expected"]), escape(m["observed"] or "nothing")
    return (
        f"<tr><td class=l>{escape(m['where'])}</td><td class=l><code>{expected}</code></td>"
        f"<td class=l><code>{observed}</code></td></tr>"
    )


Illustrate = Callable[[VerifyResult], str]
"""The HTML shown under a failing item (boards, clause, commands); "" for nothing."""


def _item(r: VerifyResult, illustrate: Illustrate | None = None) -> str:
    c = r.result
    clauses = f" [{escape(', '.join(r.clauses))}]" if r.clauses else ""
    head = f"<code>{escape(r.name)}</code> — {escape(c.where)}{clauses}"
    rows = "".join(_mismatch_row(m.to_json()) for m in c.mismatches)
    parts = [f"<details><summary>{head}</summary>"]
    if rows:
        parts.append(f"<table><tr><th>where</th><th>expected</th><th>observed</th></tr>{rows}</table>")
    if c.detail:
        parts.append(f"<pre>{escape(c.detail)}</pre>")
    if r.expected_failure:
        parts.append(f"<p>listed in the expected failures as <code>{escape(r.expected_failure)}</code></p>")
    if r.limited:
        parts.append(f"<p>not compared: {escape('; '.join(r.limited))}</p>")
    if r.transform:
        parts.append(
            f"<p>given under <code>{escape(r.transform)}</code>: mismatches name the case's own vertices</p>"
        )
    if illustrate is not None:
        parts.append(illustrate(r))
    if r.transcript:
        parts.append(
            f"<p>transcript (sent &gt;, received &lt;):</p><pre>{escape(chr(10).join(r.transcript))}</pre>"
        )
    parts.append("</details>")
    return "".join(parts)


def _causes(causes: Sequence[RootCause]) -> str:
    """The root causes: one row each, the smallest item's mismatches (consequences apart), seeds
    and the line that reproduces it; the other items folded."""
    if not causes:
        return "<p>None.</p>"
    rows = []
    for cause in causes:
        ex = cause.example
        first, later = split(ex)
        detail = "".join(f"<div><code>{escape(str(m))}</code></div>" for m in first)
        if later:
            shown = "; ".join(str(m) for m in later)
            detail += f"<div>then, as consequences (not counted): <code>{escape(shown)}</code></div>"
        if ex.seeds:
            detail += f"<div>seeds: {escape('; '.join(ex.seeds))}</div>"
        if ex.transform:
            given = f"given under <code>{escape(ex.transform)}</code>"
            detail += f"<div>{given} (mismatches name the case's own vertices)</div>"
        if ex.reproduce:
            detail += f"<pre>{escape(ex.reproduce)}</pre>"
        if len(cause.cases) > 1:
            detail += f"<div>{len(cause.cases)} cases: {escape(', '.join(cause.cases))}</div>"
        others = ", ".join(escape(r.name) for r in cause.items[1:])
        if others:
            detail += f"<details><summary>{cause.count - 1} more item(s)</summary>{others}</details>"
        values = (
            str(cause.count),
            escape(cause.where),
            f"<code>{escape(cause.expected)}</code>",
            f"<code>{escape(cause.observed)}</code>",
            escape(", ".join(cause.clauses)),
            f"<code>{escape(ex.name)}</code> ({escape(ex.board)}){detail}",
        )
        pairs = enumerate(zip(CAUSE_TITLES, values, strict=True))
        cells = "".join(_cell(title, value, n > 0) for n, (title, value) in pairs)
        rows.append(f"<tr>{cells}</tr>")
    head = "".join(f"<th{' class=l' if n else ''}>{t}</th>" for n, t in enumerate(CAUSE_TITLES))
    return f'<table class="causes"><tr class="head">{head}</tr>{"".join(rows)}</table>'


CAUSE_TITLES = ("items", "where", "expected", "got", "clauses", "smallest case")
"""The root-cause table's columns; each cell carries its column's name (``data-label``), which a
narrow screen shows before the value."""


def _cell(title: str, value: str, left: bool) -> str:
    return f'<td{" class=l" if left else ""} data-label="{title}">{value}</td>'


def _skips(results: Sequence[VerifyResult], implementation: str) -> str:
    causes: dict[str, list[VerifyResult]] = {}
    for r in results:
        if r.outcome is Outcome.SKIP:
            causes.setdefault(skip_cause(r.result.detail, implementation), []).append(r)
    if not causes:
        return "<p>None.</p>"
    rows = []
    for cause, items in sorted(causes.items(), key=lambda kv: -len(kv[1])):
        examples = ", ".join(escape(r.name) for r in items[:3]) + (", …" if len(items) > 3 else "")
        rows.append(
            f"<tr><td class=l>{escape(cause)}</td><td>{len(items)}</td><td class=l>{examples}</td></tr>"
        )
    return f"<table><tr><th>cause</th><th>items</th><th>for example</th></tr>{''.join(rows)}</table>"


def _sentence(line: str) -> str:
    """A line of the text report as a sentence: capitalised, with a full stop."""
    text = line.strip()
    return f"{text[:1].upper()}{text[1:]}."


def format_html(run: VerifyRun, order: Sequence[str] = (), illustrate: Illustrate | None = None) -> str:
    results = list(run.results)
    moved = transformed(results)
    t = run.timing
    limited = sum(1 for r in results if r.limited and r.outcome is not Outcome.SKIP)
    every = run.transform_seed is not None and run.transform_one_in == 1
    transform = f" --transform {escape(run.transform_seed)}" if every else ""
    transform += " --no-transform" if run.transform_seed is None else ""
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>jpd verify — {escape(run.implementation)}</title><style>{STYLE}</style></head><body>",
        f"<h1>Compliance report: {escape(run.implementation)}</h1>",
        f"<p><code>jpd verify --impl {escape(run.impl)}{transform}</code> — {escape(summary_line(run))}</p>",
        *(f"<p>{escape(line)}</p>" for line in suite_lines(run.suite)),
        *(f"<p>{escape(_sentence(line))}</p>" for line in transform_lines(run)[1:2]),
        "<p>A skip never counts as a pass; an open item (an either-verdict matched) is neither.",
        f" {limited} played item(s) were compared without the claims only the harness decides.</p>",
        "<table><tr><th>timing</th><th>seconds</th></tr>",
        f"<tr><td>wall clock ({run.jobs} job(s))</td><td>{t.wall_seconds:.2f}</td></tr>",
        f"<tr><td>items, summed over workers</td><td>{t.items_seconds:.2f}</td></tr>",
        f"<tr><td>waiting on the implementation</td><td>{t.engine_seconds:.2f}</td></tr>",
        f"<tr><td>harness</td><td>{t.harness_seconds:.2f} ({t.harness_share:.0%})</td></tr></table>",
        "<h2>By ruleset</h2>",
        _counts_table(
            "ruleset", by_ruleset(results, order), counts(results), counts(moved) if moved else None
        ),
        "<h2>By axis value</h2>",
    ]
    for axis, values in by_axis(results).items():
        out.append(f"<h3>{escape(axis)}</h3>" + _counts_table("value", values))
    out.append("<h2>Root causes of the unexpected failures</h2>")
    out.append(
        "<p>Each failing item counted once, at its first divergence (what follows it is a consequence).</p>"
    )
    out.append(_causes(root_causes(results)))
    expected = root_causes(results, (Outcome.EXPECTED_FAILURE,))
    if expected:
        out.append("<h2>Root causes of the expected failures</h2>")
        out.append(_causes(expected))
    for outcome, title in SECTIONS:
        mine = [r for r in results if r.outcome is outcome]
        out.append(f"<h2>{escape(title)} ({len(mine)})</h2>")
        out.extend(_item(r, illustrate) for r in mine)
        if not mine:
            out.append("<p>None.</p>")
    if run.failures:
        out.append("<h2>Load errors</h2><ul>")
        out.extend(f"<li><code>{escape(str(f))}</code></li>" for f in run.failures)
        out.append("</ul>")
    out.append("<h2>Skipped: why</h2>")
    out.append(_skips(results, run.implementation))
    out.append("</body></html>")
    return "\n".join(out) + "\n"
